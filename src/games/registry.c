/* registry.c: the table of every game ngoma knows (Postfix's dict_open_info done for games). */
#include "games/game.h"
#include "lib/util.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <string.h>

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

/* A name or title written loosely: its letters and digits, lower case. */
static void squeeze(const char *from, char *to, size_t size)
{
    size_t n = 0;
    for (; *from && n + 1 < size; from++)
        if (isalnum((unsigned char)*from))
            to[n++] = (char)tolower((unsigned char)*from);
    to[n] = '\0';
}

const struct game_ops *game_named(char *const *words, int n, int *used)
{
    const struct game_ops *found = NULL;
    char want[64], name[64], title[64];
    *used = 0;
    /* The most words first: "African Empires" before "African". */
    for (int k = n < 3 ? n : 3; k >= 1 && !found; k--) {
        struct strbuf joined = STRBUF_INIT;
        int hits = 0;
        for (int i = 0; i < k; i++)
            strbuf_addstr(&joined, words[i]);
        squeeze(joined.buf, want, sizeof(want));
        strbuf_release(&joined);
        if (!*want)
            continue;
        for (size_t i = 0; game_registry[i]; i++) {
            squeeze(game_registry[i]->name, name, sizeof(name));
            squeeze(game_registry[i]->title, title, sizeof(title));
            if (str_eq(want, name) || str_eq(want, title)) {
                found = game_registry[i];
                hits = 1;
                break;
            }
            /* A prefix of three letters or more names one game. */
            if (strlen(want) >= 3 && (!strncmp(name, want, strlen(want)) || !strncmp(title, want, strlen(want)))) {
                found = hits++ ? NULL : game_registry[i];
            }
        }
        if (hits != 1)
            found = NULL;
        if (found)
            *used = k;
    }
    if (!found && n >= 1 && (found = game_find(words[0])))
        *used = 1;
    return found;
}

void game_log_init(struct game_log *log)
{
    log->dropped = false;
    strbuf_init(&log->pub);
    for (int i = 0; i < GAME_MAX_SEATS; i++)
        strbuf_init(&log->priv[i]);
}

void game_log_init_quiet(struct game_log *log)
{
    static const struct strbuf sink = STRBUF_SINK;
    log->dropped = false;
    log->pub = sink;
    for (int i = 0; i < GAME_MAX_SEATS; i++)
        log->priv[i] = sink;
}

void game_log_release(struct game_log *log)
{
    strbuf_release(&log->pub);
    for (int i = 0; i < GAME_MAX_SEATS; i++)
        strbuf_release(&log->priv[i]);
}
