/* playout.h: the suites' one driver of whole games: a state played to its end by random legal orders or the easy bot's, on the state itself or through the engine and its database, with checks called before every step and every seat's order. */
#ifndef NGOMA_TEST_PLAYOUT_H
#define NGOMA_TEST_PLAYOUT_H

#include "core/engine.h"
#include "games/game.h"

#include <stdbool.h>

struct rng;
struct strlist;

struct playout {
    const struct game_ops *ops;
    const struct game_table *t;
    void *st;         /* the game, played on from where it is (or g's) */
    struct rng *r;    /* the random orders' (and the bots' salts) */
    bool bots;        /* the easy bot's orders, not random legal ones */
    int bound;        /* the most steps it may take: more fails the test */
    const char *what; /* the game, its seats and seed, for a failure */
    /* Through the engine: each order given as a player gives it, one seat
     * at a time, to g in db (st is then g's; NULL: advance on st). */
    sqlite3 *db;
    struct game_rec *g;
};

/* Called before each step with the seats it waits for (w) and the steps
 * resolved so far, and once at the end with w == 0. */
typedef void playout_check(struct playout *p, unsigned w, int steps, void *arg);
/* Called in a step for each seat in turn, waited for or not, with her
 * legal orders, before she gives hers. */
typedef void playout_seat_check(struct playout *p, unsigned w, int seat, const struct strlist *legal, void *arg);

/* Plays the game to its end: each seat waited for gives a random legal
 * order (t_pick: a random verb, then one of its orders) or the bot's;
 * fails if a seat waited for has none, or past p->bound steps. Through
 * the engine a step ends as soon as the orders given resolve it. Either
 * check may be NULL. Returns the steps. */
int playout_run(struct playout *p, playout_check *check, playout_seat_check *seat_check, void *arg);

/* The state as it stands (g's, through the engine). */
void *playout_state(const struct playout *p);

/* The checks that ride on the playouts. */
struct public_look {
    int looked; /* items looked for */
};
/* check_public.c: at every other step and at the end, what the rules make
 * public is in every seat's view and the observer's (arg: a public_look). */
playout_check public_check;

#endif
