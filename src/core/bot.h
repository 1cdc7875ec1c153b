/* bot.h: the bots that play seats nobody plays (and missing orders): a one-step look-ahead on each game's own evaluation. */
#ifndef NGOMA_BOT_H
#define NGOMA_BOT_H

#include <stdint.h>

#include "games/game.h"

/*
 * An order for seat, chosen by trying each legal order (a sample of them
 * when there are many) on a copy of the state and keeping the one the
 * game's evaluate() likes best for seat; other seats of a simultaneous
 * step are given random legal orders. A game without evaluate() gets a
 * random legal order. salt makes the choice repeatable. NULL when seat
 * has no legal order. Owned by the caller.
 */
char *bot_choose(const struct game_ops *ops, const void *st, int seat, const struct game_table *t, uint64_t salt);

/* The k orders of seat the easy bot likes best, best first, appended to
 * out (fewer when it has fewer; a random k of them in a game without
 * evaluate()). salt makes them repeatable. */
void bot_rank(const struct game_ops *ops, const void *st, int seat, const struct game_table *t, uint64_t salt, int k,
              struct strlist *out);

/* A copy of st (the module's clone, else through its JSON); NULL when it
 * could not be made. */
void *bot_copy_state(const struct game_ops *ops, const void *st);

/* A random legal order for seat (the baseline bots are measured against). */
char *bot_random(const struct game_ops *ops, const void *st, int seat, const struct game_table *t, uint64_t salt);

#endif
