/* planner.c: a player of the tests and benchmarks who plans: her order the easy bot's choice and, when she plans, IF lines two moves ahead (plan_lines_ahead), as the text of her mail. */
#include "planner.h"

#include "core/bot.h"
#include "core/plan.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <stdlib.h>

char *planner_mail(const struct game_rec *g, int seat, bool plan, uint64_t salt)
{
    char *order = bot_choose(g->ops, g->st, seat, &g->table, salt);
    struct strbuf text = STRBUF_INIT;
    if (!order)
        return NULL;
    strbuf_addstr(&text, order);
    if (plan) {
        void *st = bot_copy_state(g->ops, g->st);
        const char *orders[GAME_MAX_SEATS] = { NULL };
        struct game_log log;
        struct strlist lines = STRLIST_INIT;
        orders[seat] = order;
        game_log_init_quiet(&log);
        if (st && g->ops->advance(st, orders, &g->table, &log) == 0 &&
            plan_lines_ahead(g, st, seat, 2, 2, "en", &lines) == 0)
            for (size_t i = 0; i < lines.n; i++)
                strbuf_addf(&text, "\n%s", lines.v[i]);
        game_log_release(&log);
        strlist_clear(&lines);
        if (st)
            g->ops->free(st);
    }
    free(order);
    return strbuf_detach(&text);
}
