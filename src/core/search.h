/* search.h: the strong bot: information-set Monte Carlo tree search (single observer, max^n) within a budget of CPU time and iterations. */
#ifndef NGOMA_SEARCH_H
#define NGOMA_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

/* What one search may spend; whichever of ms and iterations ends first
 * ends it (0: that one has no bound, but one of them must have). */
struct search_budget {
    int ms;            /* milliseconds of the searching thread's CPU time (the wall clock caps it at
                        * SEARCH_WALL_FACTOR times that) */
    int iterations;    /* simulations */
    int depth;         /* steps a playout plays before the evaluation scores it; -1: the game's own */
    double uct_c;      /* exploration constant of UCB1 (values are in [0, 1]) */
    size_t max_bytes;  /* the tree's memory: once spent, no node is added */
};
#define SEARCH_BUDGET_DEFAULT { 200, 0, -1, 0.7, (size_t)32 << 20 }
/* How many times its CPU budget a search may take by the wall clock. */
#define SEARCH_WALL_FACTOR 4
/* A game's playout depth when its module names none. */
#define SEARCH_DEPTH_DEFAULT 10

/* What a search did, for the benchmarks and the tests. */
struct search_stats {
    int iterations;
    int nodes;
    size_t bytes;      /* the tree's memory at the end */
    double ms;         /* the time it took, by the wall clock */
    double cpu_ms;     /* and in CPU time */
};

/*
 * The order the search likes best for seat in st. For a game that hides
 * anything (a determinize op) every iteration starts from a new
 * determinization of st from seat's view (SO-ISMCTS, Cowling, Powley and
 * Whitehouse 2012); a game without one is searched as it stands (UCT).
 * The seats a step waits for together choose apart (decoupled), each on
 * its own statistics. Every node keeps a value per seat (max^n).
 * Playouts pick, of a few random legal orders, the one the game's
 * evaluate() likes best after it, and stop after depth steps, scored by
 * evaluate(). salt makes it repeatable when the budget is in iterations
 * only. NULL when seat has no legal order. Owned by the caller.
 */
char *search_choose(const struct game_ops *ops, const void *st, int seat, const struct game_table *t, uint64_t salt,
                    const struct search_budget *b, struct search_stats *out);

#endif
