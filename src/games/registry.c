/* registry.c: the table of every game ngoma knows (Postfix's dict_open_info done for games). */
#include "games/game.h"
#include "lib/util.h"

extern const struct game_ops kuniumi_ops;
extern const struct game_ops kalimambo_ops;
extern const struct game_ops bumuntu_ops;
extern const struct game_ops bantu_ops;
extern const struct game_ops african_empires_ops;

const struct game_ops *const game_registry[] = {
    &kuniumi_ops,
    &kalimambo_ops,
    &bumuntu_ops,
    &bantu_ops,
    &african_empires_ops,
    NULL,
};

static const struct game_ops *extra[4];

void game_register_extra(const struct game_ops *ops)
{
    for (size_t i = 0; i < ARRAY_SIZE(extra); i++) {
        if (!extra[i] || extra[i] == ops) {
            extra[i] = ops;
            return;
        }
    }
    die("too many extra games registered");
}

const struct game_ops *game_find(const char *name)
{
    for (size_t i = 0; game_registry[i]; i++)
        if (str_ieq(game_registry[i]->name, name))
            return game_registry[i];
    for (size_t i = 0; i < ARRAY_SIZE(extra) && extra[i]; i++)
        if (str_ieq(extra[i]->name, name))
            return extra[i];
    return NULL;
}

void game_log_init(struct game_log *log)
{
    log->dropped = false;
    strbuf_init(&log->pub);
    for (int i = 0; i < GAME_MAX_SEATS; i++)
        strbuf_init(&log->priv[i]);
}

void game_log_release(struct game_log *log)
{
    strbuf_release(&log->pub);
    for (int i = 0; i < GAME_MAX_SEATS; i++)
        strbuf_release(&log->priv[i]);
}
