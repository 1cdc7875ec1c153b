/* seatlife.h: one path for every way a seat changes hands: who held it from when to when and why she left (seat_holders), her vote cleared, her press closed to the newcomer, the leaver kept for reliability. */
#ifndef NGOMA_SEATLIFE_H
#define NGOMA_SEATLIFE_H

#include <sqlite3.h>
#include <stdbool.h>

#include "core/gamerec.h"

/* How a holding ends. */
enum seat_leave {
    SEAT_RESIGNED, /* her RESIGN */
    SEAT_DROPPED,  /* a deadline dropped her */
    SEAT_KICKED,   /* the host gave the seat to a bot */
    SEAT_REPLACED, /* the host gave it to another after she missed a turn */
    SEAT_CONSENT,  /* the host gave it to another before she missed one: not held against her */
    SEAT_TAKEN,    /* a bot's holding, ended by a person taking the seat over */
    SEAT_ABANDONED, /* a deadline gave it to a bot for good: she missed drop_after in a row (stored as dropped) */
};

/* Every seat of new game id: its first holding, from step 0. */
int seatlife_begin_game(sqlite3 *db, int64_t id);
/* A holding begins: seat as g has it now (its address or bot, the name
 * given, the bot's level), from step g->turn. */
int seatlife_start(sqlite3 *db, const struct game_rec *g, int seat);
/*
 * The seat's holding ends now (step g->turn), how: the lineage records it,
 * the seat's standing votes are cleared (a vote belongs to its person),
 * and so are the mutes by and of her,
 * and a leaver the host or a deadline removed (kicked, replaced,
 * abandoned) is kept in
 * seat_leavers for reliability. Call it before the seat's record in g
 * changes hands.
 */
int seatlife_leave(sqlite3 *db, const struct game_rec *g, int seat, enum seat_leave how);
/* How the host's REPLACE ends a holding: replaced when its holder missed
 * a turn (an order the deadline played for her) since she took the seat,
 * else consent. */
int seatlife_replace_how(sqlite3 *db, const struct game_rec *g, int seat, enum seat_leave *how);
/* The steps a deadline played for seat's holder in a row: since her
 * last own order, or since she took the seat. */
int seatlife_missed_in_a_row(sqlite3 *db, const struct game_rec *g, int seat, int64_t *missed);
/* The game was rolled back to the position after step: votes cast after
 * it are void. */
int seatlife_rolled_back(sqlite3 *db, const struct game_rec *g, int step);
/* The first press row of seat's current holding: what came before is a
 * former holder's (0: all). */
int seatlife_press_after(sqlite3 *db, const struct game_rec *g, int seat, int64_t *after);
/* The word a how is stored as. */
const char *seatlife_word(enum seat_leave how);

#endif
