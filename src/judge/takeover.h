/* takeover.h: a seat given to a new person (the host's REPLACE, a player's TAKE of an abandoned seat) or to a bot (KICK, a deadline's drop), and which seats of running games are open for the taking. */
#ifndef NGOMA_TAKEOVER_H
#define NGOMA_TAKEOVER_H

#include <sqlite3.h>
#include <stdbool.h>

#include "core/gamerec.h"
#include "core/seatlife.h"
#include "lib/strbuf.h"

/*
 * Gives seat to the person name at email (both checked by the caller):
 * the holding before ends (a bot's as taken; a person's as replaced if
 * she missed a turn, else by consent), a new secret, her name (behind the
 * title in an anonymous game), her welcome with the seat's own view; the
 * others are told, in out's words. Inside the caller's transaction.
 */
int takeover_give(sqlite3 *db, struct game_rec *g, int seat, const char *name, const char *email, const char *lang,
                  struct strbuf *out);
/* A bot of level plays seat from now on: her holding ends how (kicked,
 * abandoned), the bot's begins. Telling is the caller's. */
int takeover_to_bot(sqlite3 *db, struct game_rec *g, int seat, const char *level, enum seat_leave how);
/* Whether seat is open for the taking: a running game whose host did
 * not set takeover=no, and a bot plays the seat since its person left it
 * (kicked, or dropped by the deadlines). */
int takeover_open(sqlite3 *db, const struct game_rec *g, int seat, bool *open);
/* LIST's lines of open seats in running games, at most max of them. */
int takeover_list(sqlite3 *db, int max, const char *lang, struct strbuf *out);
/*
 * TAKE: the person email (confirmed; the lobby checked her gates) takes
 * seat who of game id under name: 0 done (what happened in out), 1
 * refused (why, and what would work, in out), -1 on a failure.
 */
int takeover_take(sqlite3 *db, int64_t id, const char *who, const char *name, const char *email, const char *lang,
                  struct strbuf *out);

#endif
