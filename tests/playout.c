/* playout.c: the suites' one driver of whole games (playout.h): termination, the public record and the contract's resignations play their games through it. */
#include "playout.h"
#include "test_support.h"

#include "core/bot.h"
#include "lib/rng.h"
#include "lib/strlist.h"
#include "lib/util.h"

#include <stdlib.h>

int playout_run(struct playout *p, playout_check *check, void *arg)
{
    const struct game_ops *ops = p->ops;
    int n = p->t->nseats, steps = 0;
    for (;;) {
        unsigned w = ops->waiting_for(p->st);
        char *own[GAME_MAX_SEATS] = { NULL };
        const char *orders[GAME_MAX_SEATS] = { NULL };
        struct game_log log;
        if (check)
            check(p, w, steps, arg);
        if (!w)
            return steps;
        CHECK(steps < p->bound, "%s: no end after %d steps", p->what, steps);
        for (int s = 0; s < n; s++) {
            if (!(w & (1u << s)))
                continue;
            if (p->bots) {
                own[s] = bot_choose(ops, p->st, s, p->t, rng_next(p->r));
            } else {
                struct strlist legal = STRLIST_INIT;
                ops->legal(p->st, s, p->t, &legal);
                CHECK(legal.n > 0, "%s, step %d: seat %d is waited for but has no legal order", p->what, steps, s);
                own[s] = xstrdup(t_pick(&legal, p->r));
                strlist_clear(&legal);
            }
            CHECK(own[s] != NULL, "%s, step %d: the bot of seat %d found no order", p->what, steps, s);
            orders[s] = own[s];
        }
        /* Nobody reads these steps' logs. */
        game_log_init_quiet(&log);
        CHECK(ops->advance(p->st, orders, p->t, &log) == 0, "%s: advance failed at step %d", p->what, steps);
        game_log_release(&log);
        for (int s = 0; s < n; s++)
            free(own[s]);
        steps++;
    }
}
