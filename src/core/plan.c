/* plan.c: each seat's conditional orders: given (checked along a copy of the game as far as she may know it, merged into her tree within the bounds), listed, cancelled, cleared, and what her mails tell of them. */
#include "core/plan_int.h"
#include "core/bot.h"
#include "lib/catalog.h"
#include "lib/jsonx.h"
#include "lib/lexicon.h"
#include "lib/order_text.h"
#include "lib/template.h"
#include "lib/util.h"
#include "store/db.h"
#include "store/settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATHS_SHOWN 64   /* plans PLANS lists at the most (plan_max bounds them lower) */
#define WORLDS_TRIED 16  /* deals made anew for her to find one where a condition can be played */
#define WORLDS_BUDGET 128 /* and at the most for one line */

/* ---- the plans row ------------------------------------------------------ */

int plan_load(sqlite3 *db, const struct game_rec *g, int seat, cJSON **tree, int *armed)
{
    sqlite3_stmt *st = db_stmt(db, "SELECT tree, armed_step FROM plans WHERE game_id = ? AND seat = ?", "Ii", g->id,
                               seat + 1);
    int rc;
    *tree = NULL;
    *armed = 0;
    if (!st)
        return -1;
    rc = db_step(st);
    if (rc == SQLITE_ROW) {
        *tree = cJSON_Parse((const char *)sqlite3_column_text(st, 0));
        *armed = sqlite3_column_int(st, 1);
    }
    db_finalize(st);
    return rc < 0 ? -1 : 0;
}

int plan_store(sqlite3 *db, const struct game_rec *g, int seat, const cJSON *tree, int armed)
{
    char now[32], *text;
    int rc;
    if (plan_level_empty(tree))
        return db_do(db, "DELETE FROM plans WHERE game_id = ? AND seat = ?", "Ii", g->id, seat + 1);
    utc_now(now);
    text = jx_print(tree);
    rc = db_do(db,
               "INSERT INTO plans(game_id, seat, armed_step, tree, updated_at) VALUES (?, ?, ?, ?, ?)"
               " ON CONFLICT(game_id, seat) DO UPDATE SET armed_step = excluded.armed_step, tree = excluded.tree,"
               " updated_at = excluded.updated_at",
               "Iiiss", g->id, seat + 1, armed, text, now);
    free(text);
    return rc;
}

int plan_note(sqlite3 *db, const struct game_rec *g, int seat, const char *text)
{
    char now[32];
    utc_now(now);
    return db_do(db, "INSERT INTO plan_notes(game_id, seat, step, note, created_at) VALUES (?, ?, ?, ?, ?)", "Iiiss",
                 g->id, seat + 1, g->turn, text, now);
}

/* ---- who may plan -------------------------------------------------------- */

int plan_one_seat(unsigned mask)
{
    return mask && !(mask & (mask - 1)) ? __builtin_ctz(mask) : -1;
}

bool plan_allowed(sqlite3 *db, const struct game_rec *g, int seat, const char **why)
{
    unsigned waiting = g->ops->waiting_for(g->st);
    *why = NULL;
    if (setting_get_int(db, "plan_max", 16) == 0)
        *why = "plan.refused.off";
    else if (str_eq(game_status_of(g->ops, g->st), "finished") || !waiting)
        *why = "plan.refused.over";
    else if (game_seat_bot(g, seat))
        *why = "plan.refused.bot";
    else if (plan_one_seat(waiting) < 0)
        *why = "plan.refused.together";
    else if (waiting == 1u << seat)
        *why = "plan.refused.your-turn";
    return *why == NULL;
}

/* ---- checking a line along the game --------------------------------------- */

int plan_seen_since(sqlite3 *db, const struct game_rec *g, int seat, int armed, struct plan_seen *out)
{
    sqlite3_stmt *st = db_stmt(db,
                               "SELECT seat, canonical FROM orders WHERE game_id = ? AND step > ? AND seat <> ? AND"
                               " status = 'accepted' AND canonical IS NOT NULL ORDER BY step, id LIMIT 256",
                               "Iii", g->id, armed, seat + 1);
    int rc;
    out->n = 0;
    if (!st)
        return -1;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        out->seat[out->n] = sqlite3_column_int(st, 0) - 1;
        out->order[out->n++] = db_col_text(st, 1);
    }
    db_finalize(st);
    return rc < 0 ? -1 : 0;
}

void plan_seen_release(struct plan_seen *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->order[i]);
    s->n = 0;
}

bool plan_item_seen(const cJSON *item, const struct plan_seen *seen, bool *played)
{
    int s = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(item, "s")) - 1;
    const cJSON *o;
    if (played)
        *played = false;
    for (int i = 0; i < seen->n; i++) {
        if (seen->seat[i] != s)
            continue;
        if (played)
            *played = true;
        cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(item, "o"))
            if (plan_same_order(cJSON_GetStringValue(o), seen->order[i]))
                return true;
    }
    return false;
}

struct checker {
    sqlite3 *db;
    const struct game_rec *g;
    int seat;
    const char *lang;
    struct game_table table; /* names, and refusals in her words */
    const struct plan_seen *seen; /* at the top level only */
    uint64_t salt;
    plan_near_fn near;       /* "did you mean" */
    int worlds;              /* deals made anew left */
    bool unchecked;          /* a part could not be checked: others play in between */
    bool hidden;             /* a part could not be checked: it names what he may hold */
    struct strbuf *why;
};

void *plan_copy_state(const struct game_rec *g, const void *st)
{
    return bot_copy_state(g->ops, st);
}

int plan_play_on(const struct game_rec *g, void *st, int seat, const char *order)
{
    const char *orders[GAME_MAX_SEATS] = { NULL };
    struct game_log log;
    int rc;
    orders[seat] = order;
    game_log_init_quiet(&log);
    rc = g->ops->advance(st, orders, &g->table, &log);
    game_log_release(&log);
    return rc;
}

/* "Did you mean" for seat's order on st, in her words. */
static void near_on(const struct checker *c, const void *st, int seat, const char *order)
{
    struct game_rec h = *c->g;
    h.st = (void *)st;
    memcpy(h.seats[seat].lang, c->g->seats[c->seat].lang, sizeof(h.seats[seat].lang));
    strbuf_addch(c->why, ' ');
    if (!c->near(&h, seat, order, c->why))
        strbuf_setlen(c->why, c->why->len - 1);
}

/* Plays the condition's items (alternative pick[i] of item i) on *st
 * as the game reaches each seat, up to her turn; *unknown when another
 * plays first whose order nobody can know. 1 when refused (why). */
static int play_cond(struct checker *c, void **st, cJSON *cond, const int *pick, bool top, bool *unknown)
{
    const struct game_rec *g = c->g;
    unsigned remaining = 0;
    cJSON *items[GAME_MAX_SEATS] = { NULL }, *item;
    int i = 0, pick_of[GAME_MAX_SEATS] = { 0 };
    *unknown = false;
    cJSON_ArrayForEach(item, cond) {
        int s = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(item, "s")) - 1;
        bool played = false, hit;
        if (s < 0 || s >= g->nseats || i >= GAME_MAX_SEATS)
            return -1;
        items[s] = item;
        pick_of[s] = pick[i++]; /* which of its orders this way plays */
        /* He played already, since her plans were armed: it came true
         * then, or it never will. */
        hit = top && c->seen && plan_item_seen(item, c->seen, &played);
        if (played && hit)
            continue;
        if (played) {
            phrase_add(c->why, c->lang, "plan.refused.played", "name", g->names[s], NULL);
            return 1;
        }
        remaining |= 1u << s;
    }
    for (int guard = 0; guard < 4 * g->nseats + 4; guard++) {
        unsigned w = g->ops->waiting_for(*st);
        int q = plan_one_seat(w);
        if (!w) {
            phrase_add(c->why, c->lang, "plan.refused.over-before", NULL);
            return 1;
        }
        if (q < 0) {
            phrase_add(c->why, c->lang, "plan.refused.together", NULL);
            return 1;
        }
        if (q == c->seat) {
            if (!remaining)
                return 0;
            struct strbuf names = STRBUF_INIT;
            game_names_in(g, remaining, c->lang, &names);
            phrase_add(c->why, c->lang, "plan.refused.not-before", "names", names.buf, "n",
                       __builtin_popcount(remaining) > 1 ? "2" : "1", NULL);
            strbuf_release(&names);
            return 1;
        }
        if (!(remaining & (1u << q))) {
            *unknown = true;
            return 0;
        }
        cJSON *alts = cJSON_GetObjectItemCaseSensitive(items[q], "o");
        cJSON *alt = cJSON_GetArrayItem(alts, pick_of[q]);
        const char *order = cJSON_GetStringValue(alt);
        struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
        int bad = g->ops->check(*st, q, &c->table, order, &canon, &why);
        /* A game with hidden cards: a deal made anew for her (what she
         * cannot see, dealt from what she may know) where he may play
         * it; his true hand is never asked. */
        for (int t = 0; bad && g->ops->determinize && t < WORLDS_TRIED && c->worlds > 0; t++, c->worlds--) {
            void *world = plan_copy_state(g, *st);
            if (!world)
                break;
            g->ops->determinize(world, c->seat, c->salt + 0x9e3779b97f4a7c15ULL * (uint64_t)(c->worlds + 1));
            strbuf_reset(&canon);
            strbuf_reset(&why);
            bad = g->ops->check(world, q, &c->table, order, &canon, &why);
            if (bad)
                g->ops->free(world);
            else {
                g->ops->free(*st);
                *st = world;
            }
        }
        if (bad && g->ops->determinize) {
            /* What he holds she cannot know: no deal made for her lets
             * him play it, and none is the truth. It is read when he
             * plays, as she wrote it. */
            c->hidden = true;
            *unknown = true;
            strbuf_release(&canon);
            strbuf_release(&why);
            return 0;
        }
        if (bad) {
            char *local = plan_order_local(g, c->lang, order);
            phrase_add(c->why, c->lang, "plan.refused.cannot", "name", g->names[q], "order", local, "why", why.buf,
                       NULL);
            near_on(c, *st, q, order);
            free(local);
            strbuf_release(&canon);
            strbuf_release(&why);
            return 1;
        }
        cJSON_ReplaceItemInArray(alts, pick_of[q], cJSON_CreateString(canon.buf));
        strbuf_release(&why);
        if (plan_play_on(g, *st, q, canon.buf)) {
            strbuf_release(&canon);
            return -1;
        }
        strbuf_release(&canon);
        remaining &= ~(1u << q);
    }
    *unknown = true;
    return 0;
}

/* Her answer checked on st (made canonical in node); 1 when refused. */
static int check_answer(struct checker *c, const void *st, cJSON *node, const cJSON *cond)
{
    const char *answer = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(node, "a"));
    struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
    int rc = 0;
    if (c->g->ops->check(st, c->seat, &c->table, answer, &canon, &why)) {
        char *local = plan_order_local(c->g, c->lang, answer);
        struct strbuf after = STRBUF_INIT;
        plan_cond_text(c->g, c->lang, cond, &after);
        phrase_add(c->why, c->lang, "plan.refused.answer", "order", local, "after", after.buf, "why", why.buf, NULL);
        near_on(c, st, c->seat, answer);
        free(local);
        strbuf_release(&after);
        rc = 1;
    } else {
        cJSON_ReplaceItemInObject(node, "a", cJSON_CreateString(canon.buf));
    }
    strbuf_release(&canon);
    strbuf_release(&why);
    return rc;
}

static int check_level(struct checker *c, const void *st, cJSON *level, bool top);

/* One branch: every way its condition may come true played on a copy of
 * st, her answer checked after each; what follows checked after the
 * first. */
static int check_branch(struct checker *c, const void *st, cJSON *b, bool top)
{
    cJSON *cond = cJSON_GetObjectItemCaseSensitive(b, "c"), *item;
    int counts[GAME_MAX_SEATS], n = 0, ways = 1, rc = 0;
    void *after = NULL;
    cJSON_ArrayForEach(item, cond) {
        counts[n] = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(item, "o"));
        ways *= counts[n++];
        if (ways > PLAN_WAYS_MAX) {
            char max[16];
            snprintf(max, sizeof(max), "%d", PLAN_WAYS_MAX);
            phrase_add(c->why, c->lang, "plan.refused.ways", "n", max, NULL);
            return 1;
        }
    }
    for (int way = 0; st && way < ways; way++) {
        int pick[GAME_MAX_SEATS], rest = way;
        bool unknown;
        void *s = plan_copy_state(c->g, st);
        if (!s)
            return -1;
        for (int i = 0; i < n; i++) {
            pick[i] = rest % counts[i];
            rest /= counts[i];
        }
        rc = play_cond(c, &s, cond, pick, top, &unknown);
        if (!rc && unknown) {
            c->unchecked |= !c->hidden;
            c->g->ops->free(s);
            break;
        }
        if (!rc)
            rc = check_answer(c, s, b, cond);
        if (rc || way) {
            c->g->ops->free(s);
            if (rc)
                return rc;
        } else
            after = s;
    }
    if (after) {
        const char *answer = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(b, "a"));
        if (plan_play_on(c->g, after, c->seat, answer))
            rc = -1;
        else
            rc = check_level(c, after, cJSON_GetObjectItemCaseSensitive(b, "n"), false);
        c->g->ops->free(after);
    } else if (!plan_level_empty(cJSON_GetObjectItemCaseSensitive(b, "n"))) {
        c->unchecked = true;
    }
    return rc;
}

static int check_level(struct checker *c, const void *st, cJSON *level, bool top)
{
    cJSON *b;
    if (plan_level_empty(level))
        return 0;
    if (!st) {
        c->unchecked = true;
        return 0;
    }
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(level, "b")) {
        int rc = check_branch(c, st, b, top);
        if (rc)
            return rc;
    }
    /* An ELSE follows orders nobody knows yet: checked when it comes. */
    if (cJSON_HasObjectItem(level, "e"))
        c->unchecked = true;
    return 0;
}

/* ---- merging -------------------------------------------------------------- */

static bool item_same(const cJSON *a, const cJSON *b)
{
    const cJSON *x, *y, *oa = cJSON_GetObjectItemCaseSensitive(a, "o"), *ob = cJSON_GetObjectItemCaseSensitive(b, "o");
    if (cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(a, "s")) !=
            cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(b, "s")) ||
        cJSON_GetArraySize(oa) != cJSON_GetArraySize(ob))
        return false;
    cJSON_ArrayForEach(x, oa) {
        bool found = false;
        cJSON_ArrayForEach(y, ob)
            found |= plan_same_order(cJSON_GetStringValue(x), cJSON_GetStringValue(y));
        if (!found)
            return false;
    }
    return true;
}

static bool cond_same(const cJSON *a, const cJSON *b)
{
    const cJSON *x, *y;
    if (cJSON_GetArraySize(a) != cJSON_GetArraySize(b))
        return false;
    cJSON_ArrayForEach(x, a) {
        bool found = false;
        cJSON_ArrayForEach(y, b)
            found |= item_same(x, y);
        if (!found)
            return false;
    }
    return true;
}

static bool answer_same(const cJSON *a, const cJSON *b)
{
    return plan_same_order(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "a")),
                           cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(b, "a")));
}

/* Puts the part `from` into `into`: a branch of the same condition and
 * answer is followed further; of the same condition and another answer,
 * replaced (*replaced). */
static void merge(cJSON *into, const cJSON *from, bool *replaced)
{
    const cJSON *fb, *fe = cJSON_GetObjectItemCaseSensitive(from, "e");
    cJSON *branches = cJSON_GetObjectItemCaseSensitive(into, "b");
    if (!branches)
        branches = cJSON_AddArrayToObject(into, "b");
    cJSON_ArrayForEach(fb, cJSON_GetObjectItemCaseSensitive(from, "b")) {
        cJSON *lb, *found = NULL;
        const cJSON *fn = cJSON_GetObjectItemCaseSensitive(fb, "n");
        cJSON_ArrayForEach(lb, branches)
            if (!found && cond_same(cJSON_GetObjectItemCaseSensitive(lb, "c"), cJSON_GetObjectItemCaseSensitive(fb, "c")))
                found = lb;
        if (found && answer_same(found, fb)) {
            if (!plan_level_empty(fn))
                merge(plan_next_level(found), fn, replaced);
        } else if (found) {
            cJSON_ReplaceItemViaPointer(branches, found, cJSON_Duplicate(fb, 1));
            *replaced = true;
        } else {
            cJSON_AddItemToArray(branches, cJSON_Duplicate(fb, 1));
        }
    }
    if (fe) {
        cJSON *le = cJSON_GetObjectItemCaseSensitive(into, "e");
        const cJSON *fn = cJSON_GetObjectItemCaseSensitive(fe, "n");
        if (le && answer_same(le, fe)) {
            if (!plan_level_empty(fn))
                merge(plan_next_level(le), fn, replaced);
        } else {
            *replaced |= le != NULL;
            cJSON_DeleteItemFromObjectCaseSensitive(into, "e");
            cJSON_AddItemToObject(into, "e", cJSON_Duplicate(fe, 1));
        }
    }
}

/* ---- the commands --------------------------------------------------------- */

uint64_t plan_salt(const struct game_rec *g, int seat)
{
    return (uint64_t)g->seed ^ ((uint64_t)g->turn * 0x2545f4914f6cdd1dULL) ^ ((uint64_t)seat << 56) ^ 0x706c616eULL;
}

/* Refuses line l, saying why. */
static void reject(struct line_result *l, const char *why)
{
    l->status = LINE_REJECTED;
    strbuf_addstr(&l->body, why);
}

int plan_give(sqlite3 *db, struct game_rec *g, int seat, struct line_result *l, plan_near_fn near, bool again)
{
    const char *lang = g->seats[seat].lang, *key;
    struct strbuf why = STRBUF_INIT;
    cJSON *part = NULL, *tree = NULL, *merged = NULL;
    struct plan_seen seen = { .n = 0 };
    int armed, rc = -1;
    bool replaced = false;

    if (!plan_allowed(db, g, seat, &key)) {
        phrase_add(&why, lang, key, NULL);
        goto refuse;
    }
    /* A line cut at ORDER_LINE_MAX might read as another plan. */
    if (strlen(l->text) >= ORDER_LINE_MAX) {
        char n[16];
        snprintf(n, sizeof(n), "%d", ORDER_LINE_MAX);
        phrase_add(&why, lang, "plan.refused.cut", "n", n, NULL);
        goto refuse;
    }
    if (!(part = plan_read(g, seat, lang, l->written ? l->written : l->text, &why)))
        goto refuse;
    /* Too deep is said before anything is played out. */
    if (plan_depth(part) > setting_get_int(db, "plan_depth", 8)) {
        char n[24];
        snprintf(n, sizeof(n), "%lld", setting_get_int(db, "plan_depth", 8));
        phrase_add(&why, lang, "plan.refused.deep", "n", n, NULL);
        goto refuse;
    }
    if (plan_load(db, g, seat, &tree, &armed))
        goto out;
    if (!tree) {
        tree = cJSON_CreateObject();
        cJSON_AddArrayToObject(tree, "b");
        armed = g->turn;
    }
    if (armed < g->turn && plan_seen_since(db, g, seat, armed, &seen))
        goto out;
    {
        struct checker c = { db, g, seat, lang, game_table_in(g, lang), &seen, plan_salt(g, seat), near,
                             WORLDS_BUDGET, false, false, &why };
        void *st = plan_copy_state(g, g->st);
        int r;
        if (!st)
            goto out;
        /* She plans on what she may know: a game with hidden cards is
         * dealt anew for her first. */
        if (g->ops->determinize)
            g->ops->determinize(st, seat, c.salt);
        r = check_level(&c, st, part, true);
        g->ops->free(st);
        if (r < 0)
            goto out;
        if (r > 0)
            goto refuse;
        merged = cJSON_Duplicate(tree, 1);
        merge(merged, part, &replaced);
        long long max = setting_get_int(db, "plan_max", 16), depth = setting_get_int(db, "plan_depth", 8);
        char n[24];
        if (plan_count(merged) > max) {
            snprintf(n, sizeof(n), "%lld", max);
            phrase_add(&why, lang, "plan.refused.many", "n", n, NULL);
            goto refuse;
        }
        if (plan_depth(merged) > depth) {
            snprintf(n, sizeof(n), "%lld", depth);
            phrase_add(&why, lang, "plan.refused.deep", "n", n, NULL);
            goto refuse;
        }
        if (plan_store(db, g, seat, merged, armed))
            goto out;
        l->status = LINE_PLANNED;
        phrase_add(&l->body, lang, again ? "plan.taken-again" : "plan.taken", NULL);
        if (replaced) {
            strbuf_addch(&l->body, ' ');
            phrase_add(&l->body, lang, "plan.replaced", NULL);
        }
        if (c.hidden || c.unchecked) {
            strbuf_addch(&l->body, ' ');
            phrase_add(&l->body, lang, c.hidden ? "plan.unchecked-hidden" : "plan.unchecked", NULL);
        }
        rc = 0;
        goto out;
    }
refuse:
    reject(l, why.buf);
    rc = 0;
out:
    plan_seen_release(&seen);
    cJSON_Delete(part);
    cJSON_Delete(tree);
    cJSON_Delete(merged);
    strbuf_release(&why);
    return rc;
}

/* The plans of tree, numbered, in lang. */
static void list_paths(const struct game_rec *g, const char *lang, const cJSON *tree, struct strbuf *out)
{
    struct plan_path *paths = xmalloc(PATHS_SHOWN * sizeof(*paths));
    int n = plan_paths(tree, paths, PATHS_SHOWN);
    for (int i = 0; i < n && i < PATHS_SHOWN; i++) {
        struct strbuf line = STRBUF_INIT;
        strbuf_addf(&line, "%d. ", i + 1);
        plan_path_text(g, lang, &paths[i], &line);
        strbuf_add_flowed(out, line.buf, 3, 72);
        strbuf_release(&line);
    }
    free(paths);
}

int plan_list(sqlite3 *db, const struct game_rec *g, int seat, struct strbuf *out)
{
    const char *lang = g->seats[seat].lang;
    cJSON *tree;
    int armed;
    if (plan_load(db, g, seat, &tree, &armed))
        return -1;
    if (plan_level_empty(tree)) {
        phrase_add(out, lang, "plans.none", NULL);
    } else {
        phrase_add(out, lang, "plans.head", NULL);
        strbuf_complete_line(out);
        list_paths(g, lang, tree, out);
    }
    cJSON_Delete(tree);
    return 0;
}

/* The level a path's node i (not a context) stands in. */
static cJSON *level_of(cJSON *tree, const struct plan_path *p, int i)
{
    for (int k = i - 1; k >= 0; k--)
        if (!p->context[k])
            return cJSON_GetObjectItemCaseSensitive((cJSON *)p->node[k], "n");
    return tree;
}

/* Removes path p's part no other path shares: its leaf, and each node
 * above it left with nothing after it. */
static void remove_path(cJSON *tree, const struct plan_path *p)
{
    for (int i = p->n - 1; i >= 0; i--) {
        cJSON *level, *node = (cJSON *)p->node[i];
        if (p->context[i])
            continue;
        level = level_of(tree, p, i);
        if (!level)
            return;
        if (cJSON_GetObjectItemCaseSensitive(level, "e") == node)
            cJSON_DeleteItemFromObjectCaseSensitive(level, "e");
        else
            cJSON_Delete(cJSON_DetachItemViaPointer(cJSON_GetObjectItemCaseSensitive(level, "b"), node));
        /* An ELSE alone answers nothing. */
        if (!cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(level, "b")))
            cJSON_DeleteItemFromObjectCaseSensitive(level, "e");
        if (!plan_level_empty(level))
            return;
        /* Its level is empty now: the node above it goes too. */
        for (int k = i - 1; k >= 0; k--)
            if (!p->context[k]) {
                cJSON_DeleteItemFromObjectCaseSensitive((cJSON *)p->node[k], "n");
                break;
            }
    }
}

int plan_cancel(sqlite3 *db, struct game_rec *g, int seat, const char *arg, struct line_result *l)
{
    const char *lang = g->seats[seat].lang;
    cJSON *tree;
    int armed, rc, count;
    char n[24];
    if (plan_load(db, g, seat, &tree, &armed))
        return -1;
    count = plan_count(tree);
    l->status = LINE_PLANNED;
    l->canonical = xstrdup("CANCEL");
    if (str_ieq(arg, "plans")) {
        snprintf(n, sizeof(n), "%d", count);
        phrase_add(&l->body, lang, count ? "plans.cancelled-all" : "plans.none", "n", n, NULL);
        if (!count)
            l->status = LINE_INFO;
        rc = count ? plan_clear(db, g, seat, PLAN_CLEAR_ORDER, NULL) : 0;
    } else {
        char *end;
        long k = strtol(arg, &end, 10);
        if (*end || k < 1 || k > count || k > PATHS_SHOWN) {
            snprintf(n, sizeof(n), "%.20s", arg);
            struct strbuf why = STRBUF_INIT;
            phrase_add(&why, lang, count ? "plans.no-such" : "plans.none", "n", n, NULL);
            reject(l, why.buf);
            strbuf_release(&why);
            rc = 0;
        } else {
            struct plan_path *paths = xmalloc(PATHS_SHOWN * sizeof(*paths));
            struct strbuf text = STRBUF_INIT;
            plan_paths(tree, paths, PATHS_SHOWN);
            plan_path_text(g, lang, &paths[k - 1], &text);
            remove_path(tree, &paths[k - 1]);
            snprintf(n, sizeof(n), "%ld", k);
            phrase_add(&l->body, lang, "plans.cancelled", "n", n, "plan", text.buf, NULL);
            rc = plan_store(db, g, seat, tree, armed);
            strbuf_release(&text);
            free(paths);
        }
    }
    cJSON_Delete(tree);
    return rc;
}

int plan_clear(sqlite3 *db, const struct game_rec *g, int seat, enum plan_clear why, int *n)
{
    if (n) {
        cJSON *tree;
        int armed;
        *n = 0;
        if (seat >= 0) {
            if (plan_load(db, g, seat, &tree, &armed))
                return -1;
            *n = plan_count(tree);
            cJSON_Delete(tree);
        }
    }
    if (seat < 0 ? db_do(db, "DELETE FROM plans WHERE game_id = ?", "I", g->id)
                 : db_do(db, "DELETE FROM plans WHERE game_id = ? AND seat = ?", "Ii", g->id, seat + 1))
        return -1;
    /* What was never told of a game rolled back, or of a seat's old
     * holder, is nobody's news. */
    if (why == PLAN_CLEAR_ROLLBACK || why == PLAN_CLEAR_SEAT)
        return seat < 0 ? db_do(db, "DELETE FROM plan_notes WHERE game_id = ?", "I", g->id)
                        : db_do(db, "DELETE FROM plan_notes WHERE game_id = ? AND seat = ?", "Ii", g->id, seat + 1);
    return 0;
}

int plan_news(sqlite3 *db, const struct game_rec *g, int seat, struct strbuf *out)
{
    const char *lang = g->seats[seat].lang;
    int told = g->seats[seat].told_step, armed;
    sqlite3_stmt *st;
    cJSON *tree;
    int rc;
    /* Notes told already are dropped; the others are told now. */
    if (db_do(db, "DELETE FROM plan_notes WHERE game_id = ? AND seat = ? AND step <= ?", "Iii", g->id, seat + 1,
              told))
        return -1;
    st = db_stmt(db, "SELECT note FROM plan_notes WHERE game_id = ? AND seat = ? ORDER BY id LIMIT 64", "Ii", g->id,
                 seat + 1);
    if (!st)
        return -1;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        strbuf_complete_line(out);
        strbuf_add_flowed(out, (const char *)sqlite3_column_text(st, 0), 0, 72);
    }
    db_finalize(st);
    if (rc < 0 || plan_load(db, g, seat, &tree, &armed))
        return -1;
    if (!plan_level_empty(tree) && !str_eq(game_status_of(g->ops, g->st), "finished")) {
        if (out->len)
            strbuf_addch(out, '\n');
        phrase_add(out, lang, "plans.still", NULL);
        strbuf_complete_line(out);
        list_paths(g, lang, tree, out);
    }
    cJSON_Delete(tree);
    return 0;
}
