/* playout.c: the suites' one driver of whole games (playout.h): termination, the public record, the pictures, the contract's playouts through the engine and its resignations play their games through it. */
#include "playout.h"
#include "test_support.h"

#include "core/bot.h"
#include "lib/rng.h"
#include "lib/strlist.h"
#include "lib/util.h"

#include <stdlib.h>

void *playout_state(const struct playout *p)
{
    return p->g ? p->g->st : p->st;
}

int playout_run(struct playout *p, playout_check *check, playout_seat_check *seat_check, void *arg)
{
    const struct game_ops *ops = p->ops;
    int n = p->t->nseats, steps = 0;
    for (;;) {
        unsigned w = ops->waiting_for(playout_state(p));
        char *own[GAME_MAX_SEATS] = { NULL };
        const char *orders[GAME_MAX_SEATS] = { NULL };
        bool resolved = false;
        struct game_log log;
        if (check)
            check(p, w, steps, arg);
        if (!w)
            return steps;
        CHECK(steps < p->bound, "%s: no end after %d steps", p->what, steps);
        for (int s = 0; s < n && !resolved; s++) {
            struct strlist legal = STRLIST_INIT;
            if (!(w & (1u << s)) && !seat_check)
                continue;
            if (!p->bots || seat_check)
                ops->legal(playout_state(p), s, p->t, &legal);
            if (seat_check)
                seat_check(p, w, s, &legal, arg);
            if (!(w & (1u << s))) {
                strlist_clear(&legal);
                continue;
            }
            if (p->bots) {
                own[s] = bot_choose(ops, playout_state(p), s, p->t, rng_next(p->r));
                CHECK(own[s] != NULL, "%s, step %d: the bot of seat %d found no order", p->what, steps, s);
            } else {
                CHECK(legal.n > 0, "%s, step %d: seat %d is waited for but has no legal order", p->what, steps, s);
                own[s] = xstrdup(t_pick(&legal, p->r));
            }
            strlist_clear(&legal);
            orders[s] = own[s];
            if (p->g) {
                t_ok(p->db, p->g, s, own[s]);
                /* The step resolved: the next one starts over. */
                resolved = ops->waiting_for(p->g->st) != w;
            }
        }
        if (!p->g) {
            /* Nobody reads these steps' logs. */
            game_log_init_quiet(&log);
            CHECK(ops->advance(p->st, orders, p->t, &log) == 0, "%s: advance failed at step %d", p->what, steps);
            game_log_release(&log);
        }
        for (int s = 0; s < n; s++)
            free(own[s]);
        steps++;
    }
}
