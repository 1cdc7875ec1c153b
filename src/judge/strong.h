/* strong.h: the strong bots' moves: each searched on a snapshot of its game with no write lock held, then given in a transaction of its own if the game has not moved meanwhile. */
#ifndef NGOMA_STRONG_H
#define NGOMA_STRONG_H

#include <sqlite3.h>
#include <stdint.h>

#include "core/gamerec.h"
#include "judge/runstats.h"

/*
 * Plays the strong bots every unfinished game waits for, round robin (a
 * move a game a round; a command or a mail the game it touched first,
 * the clock the game that waits longest first): for each move, a read of
 * the game, the search with no transaction open, then one transaction
 * that gives the order if the game still waits for it there (else the
 * move is searched again), plays the easy bots and forced orders it then
 * waits for, and tells the players. A pass (moves 0: the clock, run)
 * keeps within the host's share (bot_share percent of each second, for
 * every search of every process for this database: DB.bots keeps it)
 * and bot_steps moves a game; a command or a mail plays moves in all
 * (and counts them); the next pass plays on. While another process
 * searches, a pass plays nothing and a command waits up to 5 s.
 */
#define STRONG_MOVES_AFTER_MAIL 8
int strong_bots_play(sqlite3 *db, int moves, struct schedule_stats *st);

/* A consistent read of game id, in a read transaction of its own. */
int strong_snapshot(sqlite3 *db, int64_t id, struct game_rec *g);

/* The strong bot's orders for a deadline's missing seats, searched
 * before the deadline's transaction. */
struct strong_plan {
    int64_t game;
    int turn;
    char *order[GAME_MAX_SEATS];
};
/* Searches the order of every seat in seats of g (read by strong_snapshot). */
void strong_nmr_plan(sqlite3 *db, const struct game_rec *g, unsigned seats, struct strong_plan *p);
/* The planned order of seat (owned) when p was searched for game at
 * turn; NULL otherwise. */
char *strong_plan_take(struct strong_plan *p, int64_t game, int turn, int seat);
void strong_plan_clear(struct strong_plan *p);

#endif
