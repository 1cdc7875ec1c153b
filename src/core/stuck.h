/* stuck.h: games that cannot move on for a reason that is not a player's (a bot that finds no order, or whose order is refused): kept once a step, told to the host, named by list and status. */
#ifndef NGOMA_STUCK_H
#define NGOMA_STUCK_H

#include <sqlite3.h>
#include <stdint.h>

/* Records that game cannot move on at step turn, and why (a whole
 * sentence for the host). The same step again keeps its first time and
 * whether the host was told. Inside the caller's transaction. */
int stuck_mark(sqlite3 *db, int64_t game, int turn, const char *why);
/* The game moved on as it should: no longer stuck. */
int stuck_clear(sqlite3 *db, int64_t game);
/* Why game is stuck at its step turn (*why owned, NULL: it is not), and
 * since when (since, when not NULL). */
int stuck_why(sqlite3 *db, int64_t game, int turn, char **why, char since[32]);

#endif
