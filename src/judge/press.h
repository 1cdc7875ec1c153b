/* press.h: what press stores and sends: each message in its channel, a mail to each recipient, mutes, a seat's press in her HISTORY, and a finished game's press when the host publishes it. */
#ifndef NGOMA_JUDGE_PRESS_H
#define NGOMA_JUDGE_PRESS_H

#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdint.h>

#include "core/engine.h"
#include "core/press.h"

/*
 * Sends the press and runs the MUTE lines of pt from seat (0-based), in
 * the caller's transaction: each message checked against the game's
 * press option and the limits (press_max_bytes, press_per_hour), stored
 * with its channel and recipients, and mailed to each recipient who
 * reads press; channel is the press channel the mail came to (0: none),
 * attachments the parts of the mail that were not read. Each item adds a
 * line to sub saying what became of it. -1 on a database failure.
 */
int press_take(sqlite3 *db, struct game_rec *g, int seat, const struct press_text *pt, int64_t channel,
               int attachments, int64_t message_row, struct submission *sub);

/* Adds seat's press (her channels and latest messages, as she may read
 * them) to the answer of each HISTORY line of sub. */
int press_history(sqlite3 *db, struct game_rec *g, int seat, struct submission *sub);

/* What the welcome says of press in g: how seat writes to the others, as
 * the game's press option allows, and that an anonymous game's seats are
 * known by their titles; wrapped for a mail. */
void press_welcome(const struct game_rec *g, int seat, struct strbuf *out);

/* The game's press as the public may read it: an array under "press" in
 * record when the game is over and the setting press_after is public;
 * nothing otherwise. */
int press_publish(sqlite3 *db, const struct game_rec *g, cJSON *record);

#endif
