/* plan_read.c: a conditional order's line read into a part of a plan tree (IF, THEN, ELSE, OR, AND in her words or English), and a tree's paths written back in her words. */
#include "core/plan_int.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LINE_NODES_MAX 64 /* IFs and ELSEs one line holds at the most */

/* The plan word at p (IF, THEN, ELSE, OR, AND), its length in *len; NULL
 * for none. */
static const char *word_at(const char *lang, const char *p, size_t *len)
{
    return lexicon_word_len(lang, "plan", NULL, p, len);
}

bool plan_line_is(const char *lang, const char *line)
{
    const char *en;
    size_t len;
    line += strspn(line, " \t");
    en = word_at(lang, line, &len);
    return en && str_eq(en, "IF") && line[len] == ' ';
}

const char *plan_keyword(const char *lang, const char *english)
{
    static char words[5][32]; /* the last asked of each word */
    static const char *const keys[] = { "IF", "THEN", "ELSE", "OR", "AND" };
    char key[32];
    int k = 0;
    while (k < 5 && !str_eq(keys[k], english))
        k++;
    if (k == 5)
        return english;
    snprintf(key, sizeof(key), "word.plan.%s", english);
    for (char *c = key; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    const char *text = catalog_text(lang, key, 1);
    if (!text)
        return english;
    snprintf(words[k], sizeof(words[k]), "%.*s", (int)strcspn(text, "|"), text);
    return words[k];
}

bool plan_same_order(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ' && (a[1] == ' ' || !a[1]))
            a++;
        while (*b == ' ' && (b[1] == ' ' || !b[1]))
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
        a++;
        b++;
    }
}

/* The seat whose name the words at p are (the longest name that fits,
 * any case), its length in *len; -1 for none. */
static int seat_at(const struct game_rec *g, const char *p, size_t *len)
{
    int best = -1;
    size_t best_len = 0;
    for (int s = 0; s < g->nseats; s++) {
        size_t n = strlen(g->names[s]);
        if (n > best_len && !strncasecmp(p, g->names[s], n) && (!p[n] || p[n] == ' ' || p[n] == '\t')) {
            best = s;
            best_len = n;
        }
    }
    *len = best_len;
    return best;
}

struct reader {
    const struct game_rec *g;
    int seat;
    const char *lang;
    const char *p;
    int nodes;
    struct strbuf *why;
};

static const char *skip(const char *p)
{
    return p + strspn(p, " \t");
}

/* The words up to the next of the plan words stops (a mask of 1 IF, 2
 * THEN, 4 ELSE, 8 OR, 16 AND followed by a player's name), in English
 * (an order of the game in her words read). NULL when there are none. */
#define STOP_IF 1u
#define STOP_THEN 2u
#define STOP_ELSE 4u
#define STOP_OR 8u
#define STOP_AND 16u
static char *order_until(struct reader *r, unsigned stops, const char **stopped)
{
    const char *start = skip(r->p), *p = start, *end = start;
    *stopped = NULL;
    while (*p) {
        size_t len, name;
        const char *w = word_at(r->lang, p, &len);
        if (w && ((str_eq(w, "IF") && (stops & STOP_IF)) || (str_eq(w, "THEN") && (stops & STOP_THEN)) ||
                  (str_eq(w, "ELSE") && (stops & STOP_ELSE)) || (str_eq(w, "OR") && (stops & STOP_OR)) ||
                  (str_eq(w, "AND") && (stops & STOP_AND) && seat_at(r->g, skip(p + len), &name) >= 0))) {
            *stopped = w;
            r->p = skip(p + len);
            break;
        }
        p += strcspn(p, " \t");
        end = p;
        p = skip(p);
    }
    if (!*stopped)
        r->p = p;
    if (end == start)
        return NULL;
    char *raw = xstrndup(start, (size_t)(end - start));
    char *english = lexicon_english(r->lang, "common", r->g->ops->name, raw);
    free(raw);
    return english;
}

static int refuse(struct reader *r, const char *key, const char *name, const char *value)
{
    phrase_add(r->why, r->lang, key, name, value, NULL);
    return -1;
}

/* The names of the others, for a refusal. */
static void others(const struct reader *r, struct strbuf *out)
{
    game_names_in(r->g, ((1u << r->g->nseats) - 1) & ~(1u << r->seat), r->lang, out);
}

/* A condition, up to THEN: items joined by AND, each a player's name and
 * orders of his joined by OR. */
static int read_cond(struct reader *r, cJSON *cond)
{
    unsigned named = 0;
    for (;;) {
        size_t len;
        int s = seat_at(r->g, skip(r->p), &len);
        const char *stop;
        cJSON *item, *alts;
        if (s < 0) {
            struct strbuf names = STRBUF_INIT;
            others(r, &names);
            refuse(r, "plan.refused.who", "names", names.buf);
            strbuf_release(&names);
            return -1;
        }
        if (s == r->seat)
            return refuse(r, "plan.refused.self", "name", r->g->names[s]);
        if (named & (1u << s))
            return refuse(r, "plan.refused.named-twice", "name", r->g->names[s]);
        named |= 1u << s;
        r->p = skip(r->p) + len;
        item = cJSON_CreateObject();
        cJSON_AddNumberToObject(item, "s", s + 1);
        alts = cJSON_AddArrayToObject(item, "o");
        cJSON_AddItemToArray(cond, item);
        for (;;) {
            char *order = order_until(r, STOP_THEN | STOP_OR | STOP_AND | STOP_IF | STOP_ELSE, &stop);
            if (!order)
                return refuse(r, "plan.refused.no-order", "name", r->g->names[s]);
            cJSON_AddItemToArray(alts, cJSON_CreateString(order));
            free(order);
            if (cJSON_GetArraySize(alts) > PLAN_ALTERNATIVES_MAX) {
                char n[16];
                snprintf(n, sizeof(n), "%d", PLAN_ALTERNATIVES_MAX);
                return refuse(r, "plan.refused.alternatives", "n", n);
            }
            if (!stop || str_eq(stop, "IF") || str_eq(stop, "ELSE"))
                return refuse(r, "plan.refused.then", "name", r->g->names[r->seat ? 0 : 1 % r->g->nseats]);
            if (str_eq(stop, "THEN"))
                return 0;
            if (str_eq(stop, "AND"))
                break;
            /* OR, and the same player's name again if she wrote it. */
            int again = seat_at(r->g, r->p, &len);
            if (again >= 0 && again != s)
                return refuse(r, "plan.refused.or-one", NULL, NULL);
            if (again >= 0)
                r->p = skip(r->p + len);
        }
    }
}

/* An answer of hers, up to IF, ELSE or the end. */
static char *read_answer(struct reader *r, const char **stop)
{
    char *a = order_until(r, STOP_IF | STOP_ELSE, stop);
    if (!a)
        refuse(r, "plan.refused.no-answer", NULL, NULL);
    return a;
}

cJSON *plan_next_level(cJSON *holder)
{
    cJSON *n = cJSON_GetObjectItemCaseSensitive(holder, "n");
    if (!n) {
        n = cJSON_AddObjectToObject(holder, "n");
        cJSON_AddArrayToObject(n, "b");
    }
    return n;
}

cJSON *plan_read(const struct game_rec *g, int seat, const char *lang, const char *line, struct strbuf *why)
{
    struct reader r = { g, seat, lang, skip(line), 0, why };
    cJSON *root = cJSON_CreateObject(), *cur = root;
    size_t len;
    const char *w = word_at(lang, r.p, &len);
    cJSON_AddArrayToObject(root, "b");
    if (!w || !str_eq(w, "IF")) {
        refuse(&r, "plan.refused.then", "name", g->names[seat ? 0 : 1 % g->nseats]);
        goto fail;
    }
    r.p = skip(r.p + len);
    for (;;) {
        cJSON *branch = cJSON_CreateObject(), *cond = cJSON_AddArrayToObject(branch, "c");
        const char *stop;
        char *answer;
        cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(cur, "b"), branch);
        if (++r.nodes > LINE_NODES_MAX) {
            char n[16];
            snprintf(n, sizeof(n), "%d", LINE_NODES_MAX);
            refuse(&r, "plan.refused.long", "n", n);
            goto fail;
        }
        if (read_cond(&r, cond) || !(answer = read_answer(&r, &stop)))
            goto fail;
        cJSON_AddStringToObject(branch, "a", answer);
        free(answer);
        if (!stop)
            break;
        if (str_eq(stop, "IF")) {
            cur = plan_next_level(branch);
            continue;
        }
        /* ELSE IF: a branch beside it; ELSE an answer, maybe followed. */
        w = word_at(lang, r.p, &len);
        if (w && str_eq(w, "IF")) {
            r.p = skip(r.p + len);
            continue;
        }
        if (cJSON_HasObjectItem(cur, "e")) {
            refuse(&r, "plan.refused.else-twice", NULL, NULL);
            goto fail;
        }
        {
            cJSON *e = cJSON_AddObjectToObject(cur, "e");
            if (!(answer = read_answer(&r, &stop)))
                goto fail;
            cJSON_AddStringToObject(e, "a", answer);
            free(answer);
            if (!stop)
                break;
            if (str_eq(stop, "ELSE")) {
                refuse(&r, "plan.refused.else-twice", NULL, NULL);
                goto fail;
            }
            cur = plan_next_level(e);
        }
    }
    return root;
fail:
    cJSON_Delete(root);
    return NULL;
}

bool plan_level_empty(const cJSON *level)
{
    return !level || (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(level, "b")) == 0 &&
                      !cJSON_HasObjectItem(level, "e"));
}

static void paths_of(const cJSON *level, struct plan_path *cur, struct plan_path *out, int max, int *n);

/* cur ends at a node whose next level is next: a path when that is
 * empty, else the paths on from it. */
static void path_on(const cJSON *next, struct plan_path *cur, struct plan_path *out, int max, int *n)
{
    if (plan_level_empty(next)) {
        if (*n < max)
            out[*n] = *cur;
        ++*n;
    } else
        paths_of(next, cur, out, max, n);
}

static void paths_of(const cJSON *level, struct plan_path *cur, struct plan_path *out, int max, int *n)
{
    const cJSON *b, *e = cJSON_GetObjectItemCaseSensitive(level, "e");
    const cJSON *branches = cJSON_GetObjectItemCaseSensitive(level, "b");
    int depth = cur->n;
    if (depth >= 63)
        return;
    cJSON_ArrayForEach(b, branches) {
        const cJSON *next = cJSON_GetObjectItemCaseSensitive(b, "n");
        cur->node[depth] = b;
        cur->context[depth] = false;
        cur->n = depth + 1;
        path_on(next, cur, out, max, n);
    }
    if (e && depth + 2 < 63) {
        const cJSON *next = cJSON_GetObjectItemCaseSensitive(e, "n");
        int at = depth;
        if (cJSON_GetArraySize(branches)) {
            cur->node[at] = cJSON_GetArrayItem(branches, 0);
            cur->context[at++] = true;
        }
        cur->node[at] = e;
        cur->context[at] = false;
        cur->n = at + 1;
        path_on(next, cur, out, max, n);
    }
    cur->n = depth;
}

int plan_paths(const cJSON *level, struct plan_path *out, int max)
{
    struct plan_path cur;
    int n = 0;
    cur.n = 0;
    if (level)
        paths_of(level, &cur, out, max, &n);
    return n;
}

int plan_count(const cJSON *level)
{
    return plan_paths(level, NULL, 0);
}

int plan_depth(const cJSON *level)
{
    const cJSON *b, *e = cJSON_GetObjectItemCaseSensitive(level, "e");
    int best = 0;
    if (!level)
        return 0;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(level, "b")) {
        int d = 1 + plan_depth(cJSON_GetObjectItemCaseSensitive(b, "n"));
        best = d > best ? d : best;
    }
    if (e) {
        int d = 1 + plan_depth(cJSON_GetObjectItemCaseSensitive(e, "n"));
        best = d > best ? d : best;
    }
    return best;
}

char *plan_order_local(const struct game_rec *g, const char *lang, const char *order)
{
    return lexicon_local(lang, "common", g->ops->name, order);
}

void plan_cond_text(const struct game_rec *g, const char *lang, const cJSON *cond, struct strbuf *out)
{
    const cJSON *item;
    bool first_item = true;
    cJSON_ArrayForEach(item, cond) {
        int s = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(item, "s")) - 1;
        const cJSON *o;
        bool first = true;
        if (!first_item)
            strbuf_addf(out, " %s ", plan_keyword(lang, "AND"));
        strbuf_addstr(out, s >= 0 && s < g->nseats ? g->names[s] : "?");
        cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(item, "o")) {
            char *local = plan_order_local(g, lang, cJSON_GetStringValue(o));
            strbuf_addf(out, first ? " %s" : " %s %s", first ? local : plan_keyword(lang, "OR"), local);
            free(local);
            first = false;
        }
        first_item = false;
    }
}

void plan_path_text(const struct game_rec *g, const char *lang, const struct plan_path *p, struct strbuf *out)
{
    for (int i = 0; i < p->n; i++) {
        const cJSON *node = p->node[i], *cond = cJSON_GetObjectItemCaseSensitive(node, "c");
        char *answer = plan_order_local(g, lang, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(node, "a")));
        if (i)
            strbuf_addch(out, ' ');
        if (cond) {
            strbuf_addf(out, "%s ", plan_keyword(lang, "IF"));
            plan_cond_text(g, lang, cond, out);
            strbuf_addf(out, " %s %s", plan_keyword(lang, "THEN"), answer);
        } else {
            strbuf_addf(out, "%s %s", plan_keyword(lang, "ELSE"), answer);
        }
        free(answer);
    }
}
