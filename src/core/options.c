/* options.c: what a seat may do now, said compactly for a mail: its orders when few, else a summary by kind. */
#include "core/options.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Lists longer than this show their first SHOW_SOME values and a count. */
#define SHOW_ALL 16
#define SHOW_SOME 12
/* More lines of one kind than this and the kind is summed up in one. */
#define MAX_PREFIXES 4

/* The words of an order, split on spaces (orders are canonical: one
 * space between words). */
struct toks {
    char *buf;
    const char *w[48];
    int n;
};

static void toks_of(const char *s, struct toks *t)
{
    char *p;
    t->buf = xstrdup(s);
    t->n = 0;
    for (p = strtok(t->buf, " "); p && t->n < 48; p = strtok(NULL, " "))
        t->w[t->n++] = p;
}

static bool word_begins(const char *word, const char *with, bool whole)
{
    size_t n = strlen(with);
    return strncasecmp(word, with, n) == 0 && (!whole || word[n] == '\0');
}

/* Whether order begins with the words of filter (the last may be the
 * beginning of a word: "FOOD c4" finds FOOD c4-d5). */
static bool matches(const char *order, const struct toks *f)
{
    struct toks o;
    bool ok;
    toks_of(order, &o);
    ok = o.n >= f->n;
    for (int i = 0; ok && i < f->n; i++)
        ok = word_begins(o.w[i], f->w[i], i < f->n - 1);
    free(o.buf);
    return ok;
}

void options_orders(const struct game_rec *g, int seat, const char *filter, struct strlist *out)
{
    struct strlist legal = STRLIST_INIT;
    struct toks f;
    toks_of(filter ? filter : "", &f);
    g->ops->legal(g->st, seat, &g->table, &legal);
    for (size_t i = 0; i < legal.n; i++)
        if (matches(legal.v[i], &f))
            strlist_push(out, legal.v[i]);
    free(f.buf);
    strlist_clear(&legal);
}

/*
 * A summary line is built of orders and marks for the words around them,
 * and said in the reader's language line by line (her order words, the
 * catalogue's phrases) before it is wrapped: ANY_OF stands for "any of:",
 * IN_ALL n END for "(n in all)", SUCH_AS n END for "n orders, such as".
 */
#define ANY_OF "\x01"
#define IN_ALL "\x02"
#define SUCH_AS "\x03"
#define END "\x04"

/* Whom a summary is for: her language and the game's words. */
struct says {
    const char *lang, *game;
};

/* "a b c", or "a b ... l (40 in all)". */
static void add_values(struct strbuf *sb, const struct strlist *v)
{
    size_t show = v->n > SHOW_ALL ? SHOW_SOME : v->n;
    for (size_t i = 0; i < show; i++)
        strbuf_addf(sb, "%s%s", i ? " " : "", v->v[i]);
    if (show < v->n)
        strbuf_addf(sb, " ... " IN_ALL "%zu" END, v->n);
}

/* text with its order words in her language and its marks in words. */
static void say(const struct says *to, const char *text, struct strbuf *out)
{
    char *local = lexicon_local(to->lang, "common", to->game, text);
    for (const char *p = local; *p;) {
        size_t n = strcspn(p, ANY_OF IN_ALL SUCH_AS);
        strbuf_add(out, p, n);
        p += n;
        if (!*p)
            break;
        if (*p == ANY_OF[0]) {
            strbuf_addch(out, ' ');
            phrase_add(out, to->lang, "options.any-of", NULL);
            strbuf_addch(out, ' ');
            p++;
        } else {
            const char *key = *p == IN_ALL[0] ? "options.in-all" : "options.such-as";
            size_t k = strcspn(p + 1, END);
            char *count = xstrndup(p + 1, k);
            phrase_add(out, to->lang, key, "n", count, NULL);
            free(count);
            p += 1 + k + (p[1 + k] ? 1 : 0);
        }
    }
    free(local);
}

static void push_unique(struct strlist *l, const char *s)
{
    if (!strlist_contains(l, s))
        strlist_push(l, s);
}

/* One line (wrapped) of a summary in her words, indented two spaces. */
static void add_line(struct strbuf *out, const struct says *to, const char *text)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_addstr(&sb, "  ");
    say(to, text, &sb);
    strbuf_add_flowed(out, sb.buf, 4, 72);
    strbuf_release(&sb);
}

/* Orders of one kind and one length (k words each): when they are every
 * combination of one or two varying words, one line says so. */
static bool as_product(const struct says *to, const struct strlist *orders, int k, struct strbuf *out)
{
    struct strlist vals[48];
    struct toks t;
    int vary[2], nvary = 0;
    size_t product = 1;
    bool ok = true;
    if (k < 2 || k > 48)
        return false;
    for (int p = 0; p < k; p++)
        vals[p] = (struct strlist)STRLIST_INIT;
    for (size_t i = 0; i < orders->n; i++) {
        toks_of(orders->v[i], &t);
        for (int p = 0; p < k && p < t.n; p++)
            push_unique(&vals[p], t.w[p]);
        free(t.buf);
    }
    for (int p = 0; p < k && ok; p++) {
        if (vals[p].n > 1) {
            if (nvary == 2)
                ok = false;
            else
                vary[nvary++] = p;
        }
        product *= vals[p].n;
    }
    ok = ok && nvary > 0 && product == orders->n;
    if (ok) {
        struct strbuf sb = STRBUF_INIT;
        static const char *const names[] = { "x", "y" };
        bool last_only = nvary == 1 && vary[0] == k - 1;
        for (int p = 0; p < k; p++) {
            int v = nvary > 0 && vary[0] == p ? 0 : nvary > 1 && vary[1] == p ? 1 : -1;
            if (last_only && p == k - 1)
                break;
            strbuf_addf(&sb, "%s%s", p ? " " : "", v < 0 ? vals[p].v[0] : names[v]);
        }
        for (int v = 0; v < nvary; v++) {
            if (last_only)
                strbuf_addstr(&sb, ANY_OF);
            else
                strbuf_addf(&sb, "%s %s" ANY_OF, v ? ";" : ",", names[v]);
            add_values(&sb, &vals[vary[v]]);
        }
        add_line(out, to, sb.buf);
        strbuf_release(&sb);
    }
    for (int p = 0; p < k; p++)
        strlist_clear(&vals[p]);
    return ok;
}

/* Orders of one kind and length that are no product: a line for each of
 * a few beginnings ("ENTER 1 any of: 24a 24b"), else a count. */
static void by_prefix(const struct says *to, const struct strlist *orders, struct strbuf *out)
{
    struct strlist prefixes = STRLIST_INIT;
    for (size_t i = 0; i < orders->n; i++) {
        const char *sp = strrchr(orders->v[i], ' ');
        char *prefix = xstrndup(orders->v[i], sp ? (size_t)(sp - orders->v[i]) : strlen(orders->v[i]));
        push_unique(&prefixes, prefix);
        free(prefix);
    }
    if (prefixes.n > MAX_PREFIXES) {
        struct strbuf sb = STRBUF_INIT;
        const char *sp = strchr(orders->v[0], ' ');
        strbuf_addf(&sb, "%.*s ...: " SUCH_AS "%zu" END " %s", (int)(sp ? sp - orders->v[0] : 0), orders->v[0],
                    orders->n, orders->v[0]);
        add_line(out, to, sb.buf);
        strbuf_release(&sb);
    }
    for (size_t p = 0; p < prefixes.n && prefixes.n <= MAX_PREFIXES; p++) {
        struct strlist lasts = STRLIST_INIT;
        struct strbuf sb = STRBUF_INIT;
        size_t len = strlen(prefixes.v[p]);
        for (size_t i = 0; i < orders->n; i++)
            if (strncmp(orders->v[i], prefixes.v[p], len) == 0 && orders->v[i][len] == ' ' &&
                !strchr(orders->v[i] + len + 1, ' '))
                strlist_push(&lasts, orders->v[i] + len + 1);
        if (lasts.n == 1)
            strbuf_addf(&sb, "%s %s", prefixes.v[p], lasts.v[0]);
        else {
            strbuf_addf(&sb, "%s" ANY_OF, prefixes.v[p]);
            add_values(&sb, &lasts);
        }
        add_line(out, to, sb.buf);
        strlist_clear(&lasts);
        strbuf_release(&sb);
    }
    strlist_clear(&prefixes);
}

/* The core's summary of the orders of one kind: by their length, each
 * length as a product or by beginnings. */
static void summarize_kind(const struct says *to, const struct strlist *orders, struct strbuf *out)
{
    struct strlist done = STRLIST_INIT;
    for (size_t i = 0; i < orders->n; i++) {
        struct strlist same = STRLIST_INIT;
        struct toks t;
        char key[8];
        int k;
        toks_of(orders->v[i], &t);
        k = t.n;
        free(t.buf);
        snprintf(key, sizeof(key), "%d", k);
        if (strlist_contains(&done, key))
            continue;
        strlist_push(&done, key);
        for (size_t j = i; j < orders->n; j++) {
            toks_of(orders->v[j], &t);
            if (t.n == k)
                strlist_push(&same, orders->v[j]);
            free(t.buf);
        }
        if (same.n == 1)
            add_line(out, to, same.v[0]);
        else if (!as_product(to, &same, k, out))
            by_prefix(to, &same, out);
        strlist_clear(&same);
    }
    strlist_clear(&done);
}

/* The orders split by kind (their first word), in legal's order. */
struct kinds {
    struct strlist verbs;
    struct strlist *of; /* of[v]: the orders of verbs.v[v] */
};

static void kinds_of(const struct strlist *orders, struct kinds *k)
{
    k->verbs = (struct strlist)STRLIST_INIT;
    for (size_t i = 0; i < orders->n; i++) {
        const char *sp = strchr(orders->v[i], ' ');
        char *verb = xstrndup(orders->v[i], sp ? (size_t)(sp - orders->v[i]) : strlen(orders->v[i]));
        push_unique(&k->verbs, verb);
        free(verb);
    }
    k->of = xcalloc(k->verbs.n ? k->verbs.n : 1, sizeof(*k->of));
    for (size_t v = 0; v < k->verbs.n; v++) {
        size_t len = strlen(k->verbs.v[v]);
        for (size_t i = 0; i < orders->n; i++)
            if (strncmp(orders->v[i], k->verbs.v[v], len) == 0 && (orders->v[i][len] == ' ' || !orders->v[i][len]))
                strlist_push(&k->of[v], orders->v[i]);
    }
}

static void kinds_release(struct kinds *k)
{
    for (size_t v = 0; v < k->verbs.n; v++)
        strlist_clear(&k->of[v]);
    free(k->of);
    strlist_clear(&k->verbs);
}

/* Whether orders of one kind are listed in full: all of them when there
 * are few in all, else a kind of at most OPTIONS_KIND_FULL. */
static bool in_full(size_t all, size_t list_max, size_t kind)
{
    return (list_max && all <= list_max) || kind <= OPTIONS_KIND_FULL;
}

size_t options_text(const struct game_rec *g, int seat, const char *filter, size_t list_max, struct strbuf *out)
{
    struct strlist orders = STRLIST_INIT;
    struct kinds k;
    const char *example = NULL;
    size_t n;
    /* In her words: JOUER 7, as she may write it back. */
    const struct says to = { seat >= 0 && seat < g->nseats ? g->seats[seat].lang : NULL, g->ops->name };
    const struct game_table table = game_table_in(g, to.lang);

    options_orders(g, seat, filter, &orders);
    n = orders.n;
    kinds_of(&orders, &k);
    for (size_t v = 0; v < k.verbs.n; v++) {
        const struct strlist *kind = &k.of[v];
        struct strbuf own = STRBUF_INIT;
        if (in_full(n, list_max, kind->n)) {
            for (size_t i = 0; i < kind->n; i++)
                add_line(out, &to, kind->v[i]);
        } else if (g->ops->summarize && g->ops->summarize(g->st, seat, &table, kind, &own)) {
            /* The game's own lines, in her language, kept within a
             * mail's width. */
            for (const char *p = own.buf; *p;) {
                const char *nl = strchr(p, '\n');
                char *line = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
                add_line(out, &to, line);
                free(line);
                p = nl ? nl + 1 : p + strlen(p);
            }
        } else {
            summarize_kind(&to, kind, out);
            /* The example is an order the core's lines show as it is. */
            if (!example)
                example = kind->v[0];
        }
        strbuf_release(&own);
    }
    if (example) {
        char *local = lexicon_local(to.lang, "common", to.game, example);
        phrase_add(out, to.lang, "options.example", "order", local, NULL);
        strbuf_addch(out, '\n');
        free(local);
    }
    kinds_release(&k);
    strlist_clear(&orders);
    return n;
}

/* The first k words of s (owned). */
static char *first_words(const char *s, int k)
{
    const char *p = s;
    for (int i = 0; i < k && *p; i++) {
        p += strcspn(p, " ");
        if (i + 1 < k && *p)
            p++;
    }
    return xstrndup(s, (size_t)(p - s));
}

static int words_in(const char *s)
{
    int n = *s ? 1 : 0;
    for (; *s; s++)
        n += *s == ' ';
    return n;
}

void options_choices(const struct game_rec *g, int seat, const char *filter, size_t list_max, struct strlist *labels,
                     struct strlist *orders_out)
{
    struct strlist orders = STRLIST_INIT, groups = STRLIST_INIT;
    int depth = filter && *filter ? words_in(filter) : 0;
    const char *lang = seat >= 0 && seat < g->nseats ? g->seats[seat].lang : NULL;
    size_t first_label = labels->n, first_order = orders_out->n;
    options_orders(g, seat, filter, &orders);
    if (orders.n <= list_max || orders.n <= OPTIONS_KIND_FULL) {
        for (size_t i = 0; i < orders.n; i++) {
            strlist_push(labels, orders.v[i]);
            strlist_push(orders_out, orders.v[i]);
        }
        goto out;
    }
    /* Grouped by their first depth + 1 words; a group of one beginning
     * goes a word deeper, so that every tap narrows the list. */
    for (;;) {
        strlist_clear(&groups);
        for (size_t i = 0; i < orders.n; i++) {
            char *head = first_words(orders.v[i], depth + 1);
            push_unique(&groups, head);
            free(head);
        }
        if (groups.n > 1 || depth >= 8)
            break;
        depth++;
    }
    for (size_t gi = 0; gi < groups.n; gi++) {
        size_t len = strlen(groups.v[gi]), n = 0;
        for (size_t i = 0; i < orders.n; i++)
            n += strncmp(orders.v[i], groups.v[gi], len) == 0 && (orders.v[i][len] == ' ' || !orders.v[i][len]);
        if (n <= OPTIONS_KIND_FULL) {
            for (size_t i = 0; i < orders.n; i++)
                if (strncmp(orders.v[i], groups.v[gi], len) == 0 && (orders.v[i][len] == ' ' || !orders.v[i][len])) {
                    strlist_push(labels, orders.v[i]);
                    strlist_push(orders_out, orders.v[i]);
                }
        } else {
            /* A long group: one tap asks for its list. */
            strlist_pushf(labels, "%s ... (%zu)", groups.v[gi], n);
            strlist_pushf(orders_out, "LEGAL %s", groups.v[gi]);
        }
    }
out:
    /* In her words, the labels as the orders a tap mails: JOUER 7. */
    for (size_t i = first_label; i < labels->n; i++) {
        char *local = lexicon_local(lang, "common", g->ops->name, labels->v[i]);
        free(labels->v[i]);
        labels->v[i] = local;
    }
    for (size_t i = first_order; i < orders_out->n; i++) {
        char *local = lexicon_local(lang, "common", g->ops->name, orders_out->v[i]);
        free(orders_out->v[i]);
        orders_out->v[i] = local;
    }
    strlist_clear(&groups);
    strlist_clear(&orders);
}
