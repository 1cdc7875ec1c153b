/* plan_play.c: a seat's plans at her turn (the first branch whose condition came true played, what is no longer legal or never came true dropped with a note for her), and the plans her answer offers to tap. */
#include "core/plan_int.h"
#include "core/bot.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "lib/util.h"
#include "store/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int plan_any(sqlite3 *db, const struct game_rec *g, int seat, bool *any)
{
    int64_t n = 0;
    int rc = db_get_int64(db, &n, "SELECT count(*) FROM plans WHERE game_id = ? AND seat = ?", "Ii", g->id, seat + 1);
    *any = rc > 0 && n > 0;
    return rc < 0 ? -1 : 0;
}

int plan_ready(sqlite3 *db, const struct game_rec *g, int seat, bool *ready)
{
    int64_t any = 0;
    int rc = db_get_int64(db, &any,
                          "SELECT 1 FROM plans p WHERE p.game_id = ? AND p.seat = ? AND EXISTS (SELECT 1 FROM orders o"
                          " WHERE o.game_id = p.game_id AND o.step > p.armed_step AND o.seat <> p.seat AND o.status ="
                          " 'accepted')",
                          "Ii", g->id, seat + 1);
    *ready = rc > 0 && any;
    return rc < 0 ? -1 : 0;
}

static bool cond_true(const cJSON *cond, const struct plan_seen *seen)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, cond)
        if (!plan_item_seen(item, seen, NULL))
            return false;
    return cJSON_GetArraySize(cond) > 0;
}

/* Her answer of node checked in the game as it stands: its canonical form
 * (owned), or NULL with why. */
static char *answer_now(const struct game_rec *g, int seat, const cJSON *node, struct strbuf *why)
{
    struct game_table t = game_table_in(g, g->seats[seat].lang);
    struct strbuf canon = STRBUF_INIT;
    const char *answer = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(node, "a"));
    if (!answer || g->ops->check(g->st, seat, &t, answer, &canon, why)) {
        strbuf_release(&canon);
        return NULL;
    }
    return strbuf_detach(&canon);
}

/* "IF Bob MOVE 3 12c THEN MOVE 2 14a" (or "ELSE ..."): one node, in lang. */
static void node_text(const struct game_rec *g, const char *lang, const cJSON *node, struct strbuf *out)
{
    struct plan_path p = { .n = 1 };
    p.node[0] = node;
    p.context[0] = false;
    plan_path_text(g, lang, &p, out);
}

/* A note: the answer of node was no longer legal, and it is dropped. */
static int note_illegal(sqlite3 *db, const struct game_rec *g, int seat, const cJSON *node, const char *why)
{
    const char *lang = g->seats[seat].lang;
    struct strbuf plan = STRBUF_INIT, note = STRBUF_INIT;
    char *order = plan_order_local(g, lang, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(node, "a")));
    int rc;
    node_text(g, lang, node, &plan);
    phrase_add(&note, lang, "plan.dropped-illegal", "plan", plan.buf, "order", order, "why", why, NULL);
    rc = plan_note(db, g, seat, note.buf);
    free(order);
    strbuf_release(&plan);
    strbuf_release(&note);
    return rc;
}

/* A note: none of the level's plans came true (what the others played),
 * and they are dropped. */
static int note_untrue(sqlite3 *db, const struct game_rec *g, int seat, const cJSON *level,
                       const struct plan_seen *seen)
{
    const char *lang = g->seats[seat].lang;
    struct strlist played = STRLIST_INIT;
    struct strbuf list = STRBUF_INIT, note = STRBUF_INIT;
    unsigned told = 0;
    char n[16];
    int rc;
    /* Each other seat's latest order since. */
    for (int i = seen->n - 1; i >= 0; i--) {
        int s = seen->seat[i];
        if (s < 0 || s >= g->nseats || (told & (1u << s)))
            continue;
        told |= 1u << s;
        struct strbuf one = STRBUF_INIT;
        char *order = plan_order_local(g, lang, seen->order[i]);
        phrase_add(&one, lang, "plan.played-by", "name", g->names[s], "order", order, NULL);
        strlist_push(&played, one.buf);
        free(order);
        strbuf_release(&one);
    }
    phrase_list_and(&list, lang, &played);
    snprintf(n, sizeof(n), "%d", plan_count(level));
    phrase_add(&note, lang, "plan.dropped-untrue", "n", n, "played", list.buf, NULL);
    rc = plan_note(db, g, seat, note.buf);
    strlist_clear(&played);
    strbuf_release(&list);
    strbuf_release(&note);
    return rc;
}

int plan_due(sqlite3 *db, struct game_rec *g, int seat, char **answer)
{
    struct plan_seen seen = { .n = 0 };
    cJSON *tree, *branches, *b, *chosen = NULL;
    int armed, rc = -1;
    *answer = NULL;
    if (plan_load(db, g, seat, &tree, &armed))
        return -1;
    if (plan_level_empty(tree) || g->ops->waiting_for(g->st) != 1u << seat) {
        cJSON_Delete(tree);
        return 0;
    }
    if (plan_seen_since(db, g, seat, armed, &seen))
        goto out;
    if (!seen.n) {
        rc = 0; /* nobody else played yet: her plans wait */
        goto out;
    }
    branches = cJSON_GetObjectItemCaseSensitive(tree, "b");
    for (b = branches ? branches->child : NULL; b && !chosen;) {
        cJSON *next = b->next;
        struct strbuf why = STRBUF_INIT;
        if (cond_true(cJSON_GetObjectItemCaseSensitive(b, "c"), &seen)) {
            if ((*answer = answer_now(g, seat, b, &why)))
                chosen = b;
            else if (note_illegal(db, g, seat, b, why.buf)) {
                strbuf_release(&why);
                goto out;
            } else
                cJSON_Delete(cJSON_DetachItemViaPointer(branches, b));
        }
        strbuf_release(&why);
        b = next;
    }
    if (!chosen && cJSON_HasObjectItem(tree, "e")) {
        cJSON *e = cJSON_GetObjectItemCaseSensitive(tree, "e");
        struct strbuf why = STRBUF_INIT;
        if ((*answer = answer_now(g, seat, e, &why)))
            chosen = e;
        else if (note_illegal(db, g, seat, e, why.buf)) {
            strbuf_release(&why);
            goto out;
        }
        strbuf_release(&why);
    }
    if (chosen) {
        /* What follows her answer is her plan from the step after it. */
        cJSON *after = cJSON_GetObjectItemCaseSensitive(chosen, "n");
        rc = plan_store(db, g, seat, after, g->turn + 1);
    } else {
        rc = (plan_level_empty(tree) ? 0 : note_untrue(db, g, seat, tree, &seen)) ||
                     plan_store(db, g, seat, NULL, 0)
                 ? -1
                 : 0;
    }
out:
    if (rc) {
        free(*answer);
        *answer = NULL;
    }
    plan_seen_release(&seen);
    cJSON_Delete(tree);
    return rc;
}

/* The lines of plan_lines_ahead from st: each of the likely replies of
 * the seat acting next (and the likeliest orders of any other before her
 * turn, joined by AND), her answer, and (depth 2) on from there. */
static void lines_from(const struct game_rec *g, const void *st, int seat, int replies, int depth, const char *lang,
                       const struct game_table *t, uint64_t salt, const char *before, struct strlist *lines)
{
    struct strlist likely = STRLIST_INIT;
    int next = plan_one_seat(g->ops->waiting_for(st));
    if (next < 0 || next == seat)
        return;
    bot_rank(g->ops, st, next, t, salt, replies, &likely);
    for (size_t i = 0; i < likely.n; i++) {
        void *after = plan_copy_state(g, st);
        struct strbuf line = STRBUF_INIT;
        unsigned played = 1u << next;
        char *answer = NULL, *reply;
        int q;
        if (!after || plan_play_on(g, after, next, likely.v[i]))
            goto next;
        reply = plan_order_local(g, lang, likely.v[i]);
        strbuf_addf(&line, "%s%s%s %s %s", before ? before : "", before ? " " : "", plan_keyword(lang, "IF"),
                    g->names[next], reply);
        free(reply);
        /* The others before her turn, each his likeliest. */
        while ((q = plan_one_seat(g->ops->waiting_for(after))) >= 0 && q != seat && !(played & (1u << q))) {
            char *o = bot_choose(g->ops, after, q, t, salt + 7 * i + (uint64_t)q);
            if (!o || plan_play_on(g, after, q, o)) {
                free(o);
                goto next;
            }
            reply = plan_order_local(g, lang, o);
            strbuf_addf(&line, " %s %s %s", plan_keyword(lang, "AND"), g->names[q], reply);
            free(reply);
            free(o);
            played |= 1u << q;
        }
        if (q != seat || !(answer = bot_choose(g->ops, after, seat, t, salt + i)))
            goto next;
        reply = plan_order_local(g, lang, answer);
        strbuf_addf(&line, " %s %s", plan_keyword(lang, "THEN"), reply);
        free(reply);
        {
            /* Two moves ahead: on from her answer. */
            size_t had = lines->n;
            if (depth > 1 && !plan_play_on(g, after, seat, answer))
                lines_from(g, after, seat, 1, depth - 1, lang, t, salt * 31 + i, line.buf, lines);
            if (lines->n == had)
                strlist_push(lines, line.buf);
        }
    next:
        free(answer);
        strbuf_release(&line);
        if (after)
            g->ops->free(after);
    }
    strlist_clear(&likely);
}

int plan_lines_ahead(const struct game_rec *g, const void *st, int seat, int replies, int depth, const char *lang,
                     struct strlist *lines)
{
    unsigned waiting = g->ops->waiting_for(st);
    struct game_table t = game_table_in(g, lang);
    uint64_t salt = plan_salt(g, seat);
    void *world;
    /* A game that keeps anything from her offers none: his likely
     * replies are what the easy bot's evaluation of the whole state likes
     * (a shield behind his screen counts in it), and his hand is what
     * his orders name. */
    if (!waiting || (waiting & (waiting - 1)) || waiting == 1u << seat || replies <= 0 ||
        game_hides_anything(g->ops))
        return 0;
    if (!(world = plan_copy_state(g, st)))
        return -1;
    lines_from(g, world, seat, replies, depth, lang, &t, salt, NULL, lines);
    g->ops->free(world);
    return 0;
}

int plan_suggest(sqlite3 *db, const struct game_rec *g, int seat, int max, struct strlist *lines,
                 struct strbuf *hint)
{
    const char *why;
    bool any;
    if (!plan_allowed(db, g, seat, &why))
        return 0;
    /* How to write one, until she has plans: then she knows. */
    if (plan_any(db, g, seat, &any))
        return -1;
    if (!any)
        phrase_add(hint, g->seats[seat].lang, "plan.hint", "name",
                   g->names[__builtin_ctz(g->ops->waiting_for(g->st))], NULL);
    return plan_lines_ahead(g, g->st, seat, max, 1, g->seats[seat].lang, lines);
}
