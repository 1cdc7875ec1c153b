/* playout.h: the suites' one driver of whole games: a state played to its end by random legal orders or the easy bot's, with a check called before every step and at the end. */
#ifndef NGOMA_TEST_PLAYOUT_H
#define NGOMA_TEST_PLAYOUT_H

#include "games/game.h"

#include <stdbool.h>

struct rng;

struct playout {
    const struct game_ops *ops;
    const struct game_table *t;
    void *st;         /* the game, played on from where it is */
    struct rng *r;    /* the random orders' (and the bots' salts) */
    bool bots;        /* the easy bot's orders, not random legal ones */
    int bound;        /* the most steps it may take: more fails the test */
    const char *what; /* the game, its seats and seed, for a failure */
};

/* Called before each step with the seats it waits for (w) and the steps
 * resolved so far, and once at the end with w == 0. */
typedef void playout_check(struct playout *p, unsigned w, int steps, void *arg);

/* Plays p->st to its end: each seat waited for gives a random legal order
 * (t_pick: a random verb, then one of its orders) or the bot's; fails if a
 * seat waited for has none, or past p->bound steps. Returns the steps. */
int playout_run(struct playout *p, playout_check *check, void *arg);

/* The checks that ride on the playouts. */
struct public_look {
    int looked; /* items looked for */
};
/* check_public.c: at every other step and at the end, what the rules make
 * public is in every seat's view and the observer's (arg: a public_look). */
playout_check public_check;

#endif
