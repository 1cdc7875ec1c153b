/* agree.h: draws and concessions the players agree on: secret standing votes, and the end they bring. */
#ifndef NGOMA_AGREE_H
#define NGOMA_AGREE_H

#include <sqlite3.h>
#include <stdbool.h>

#include "core/gamerec.h"

struct line_result;

enum vote { VOTE_DRAW, VOTE_NODRAW, VOTE_CONCEDE, VOTE_NOCONCEDE };

/* What the votes decided: when they carry, how the game ends and who
 * wins (the engine ends it: engine_end_agreed). */
struct agree_end {
    bool carried;
    enum game_end how;  /* GAME_END_DRAWN or GAME_END_CONCEDED */
    unsigned winners;
};

/*
 * Seat's DRAW, NODRAW, CONCEDE or NOCONCEDE, answered in l. A vote stands
 * until withdrawn and nobody else learns of it. A draw passes when every
 * seat still playing has voted for one, a concession when all but one
 * have conceded: end says so (its caller ends the game and says how in
 * l). A human's DRAW asks the bot seats, each of which votes for it when
 * its own evaluation says it is behind. -1 on a database failure.
 */
int agree_vote(sqlite3 *db, struct game_rec *g, int seat, enum vote v, struct line_result *l, struct agree_end *end);

/* Whether the standing votes of the seats still playing carry (after a
 * seat left): end says how the game ends; the votes are spent. */
int agree_settle(sqlite3 *db, struct game_rec *g, struct agree_end *end);

/* The game's status line (view_status_line) as seat reads it: with her
 * own standing votes, which only she sees. */
int agree_status(sqlite3 *db, struct game_rec *g, int seat, struct strbuf *out);

#endif
