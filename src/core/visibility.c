/* visibility.c: who may know what: the one place every output asks whether a viewer may read a seat's address, the person behind an anonymous title, or the writer of grey press and whom it reached. */
#include "core/visibility.h"
#include "core/engine.h"
#include "lib/util.h"

bool vis_anonymous_now(const struct game_rec *g)
{
    return str_eq(engine_core_option(g->options, "anonymous"), "yes") &&
           !str_eq(game_status_of(g->ops, g->st), "finished");
}

bool vis_address(const struct game_rec *g, struct viewer v, int seat)
{
    (void)g;
    return v.kind == VIEWER_SHELL || (v.kind == VIEWER_SEAT && v.seat == seat);
}

bool vis_person(const struct game_rec *g, struct viewer v, int seat)
{
    return !vis_anonymous_now(g) || v.kind == VIEWER_SHELL || (v.kind == VIEWER_SEAT && v.seat == seat);
}

bool vis_press_writer(struct viewer v, bool grey, int writer)
{
    return !grey || v.kind == VIEWER_SHELL || (v.kind == VIEWER_SEAT && v.seat == writer);
}

bool vis_plans(struct viewer v, int seat)
{
    return v.kind == VIEWER_SEAT && v.seat == seat && seat >= 0;
}

bool vis_hidden_information(const struct game_ops *ops)
{
    return ops->secrets != NULL || ops->determinize != NULL;
}

bool vis_seed_revealed(const struct game_rec *g)
{
    return str_eq(game_status_of(g->ops, g->st), "finished");
}

bool vis_host_command(struct viewer v, const char *command, const char **why)
{
    static const char *const opener_may[] = { "extend", "pause", "resume", "status" };
    *why = NULL;
    if (v.kind != VIEWER_OPENER)
        return true;
    for (size_t i = 0; i < ARRAY_SIZE(opener_may); i++)
        if (str_eq(command, opener_may[i]))
            return true;
    *why = str_eq(command, "replace") || str_eq(command, "kick") ? "host.opener-seats" : "host.opener-ends";
    return false;
}
