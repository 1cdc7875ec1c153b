/* ordersense.c: whether a line a player wrote reads as an order of her game, so that press never carries one. */
#include "core/ordersense.h"
#include "core/engine.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define SENSE_LINE_MAX 120 /* a longer line is prose, never an order */
#define SENSE_WORDS_MAX 8  /* an order is a verb and at most seven words */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool sorted_has(const struct strlist *l, const char *s)
{
    return l->n && bsearch(&s, l->v, l->n, sizeof(*l->v), cmp_str) != NULL;
}

static void gather(struct order_sense *s)
{
    const struct game_rec *g = s->g;
    struct game_result res;
    s->ready = true;
    g->ops->result(g->st, &res);
    if (res.finished)
        return;
    for (int seat = 0; seat < g->nseats; seat++) {
        struct strlist legal = STRLIST_INIT;
        g->ops->legal(g->st, seat, &g->table, &legal);
        for (size_t i = 0; i < legal.n; i++) {
            char *o = str_lower(xstrdup(legal.v[i])), *save = NULL;
            strlist_push(&s->orders, o);
            for (char *w = strtok_r(o, " ", &save); w; w = strtok_r(NULL, " ", &save))
                strlist_push(w == o ? &s->verbs : &s->words, w);
            free(o);
        }
        strlist_clear(&legal);
    }
    strlist_sort_unique(&s->orders);
    strlist_sort_unique(&s->verbs);
    strlist_sort_unique(&s->words);
}

/* A word of an order: it holds a digit, or a legal order has it. */
static bool order_word(const struct order_sense *s, char *w)
{
    size_t len = strlen(w);
    while (len && strchr(".,;:!?", w[len - 1]))
        w[--len] = '\0';
    if (!len)
        return false;
    for (size_t i = 0; i < len; i++)
        if (isdigit((unsigned char)w[i]))
            return true;
    return sorted_has(&s->words, w);
}

bool order_sense_reads(struct order_sense *s, const char *line, size_t len)
{
    char buf[SENSE_LINE_MAX + 1], *save = NULL, *w;
    const struct game_rec *g = s->g;
    struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
    size_t words = 0;
    bool yes;
    if (!len || len > SENSE_LINE_MAX)
        return false;
    memcpy(buf, line, len);
    buf[len] = '\0';
    if (engine_line_is_command(buf))
        return true;
    if (!s->ready)
        gather(s);
    if ((g->ops->waiting_for(g->st) >> s->seat) & 1) {
        yes = g->ops->check(g->st, s->seat, &g->table, buf, &canon, &why) == 0;
        strbuf_release(&canon);
        strbuf_release(&why);
        if (yes)
            return true;
    }
    str_lower(buf);
    if (sorted_has(&s->orders, buf))
        return true;
    w = strtok_r(buf, " \t", &save);
    if (!w || !sorted_has(&s->verbs, w))
        return false;
    while ((w = strtok_r(NULL, " \t", &save)))
        if (++words >= SENSE_WORDS_MAX || !order_word(s, w))
            return false;
    return words > 0;
}

static bool reads(void *ctx, const char *line, size_t len)
{
    return order_sense_reads(ctx, line, len);
}

void order_sense_init(struct order_sense *s, const struct game_rec *g, int seat, struct press_sense *out)
{
    memset(s, 0, sizeof(*s));
    s->g = g;
    s->seat = seat;
    out->is_order = reads;
    out->ctx = s;
}

void order_sense_release(struct order_sense *s)
{
    strlist_clear(&s->orders);
    strlist_clear(&s->verbs);
    strlist_clear(&s->words);
    s->ready = false;
}
