/* check_plans.c: conditional orders: trees fired and dropped in every game where one seat acts at a time, chains of two planners, the bounds, what clears them, their words in other languages, bots, and their secrecy through every output. */
#include "test_support.h"

#include "core/bot.h"
#include "core/engine.h"
#include "core/history.h"
#include "core/plan.h"
#include "core/plan_int.h"
#include "core/verify.h"
#include "core/view.h"
#include "core/visibility.h"
#include "planner.h"
#include "judge/strong.h"
#include "judge/schedule.h"
#include "lib/lexicon.h"
#include "lib/util.h"
#include "store/db.h"
#include "store/settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sequential[] = { "kuniumi", "bantu", "bumuntu", "african-empires" };

/* What one line of text as seat became: its status, its answer in body. */
static enum line_status said(sqlite3 *db, struct game_rec *g, int seat, const char *text, struct strbuf *body)
{
    struct submission sub;
    enum line_status st;
    t_submit(db, g, seat, text, &sub);
    ck_assert_int_ge((int)sub.n, 1);
    st = sub.lines[sub.n - 1].status;
    if (body) {
        strbuf_reset(body);
        for (size_t i = 0; i < sub.n; i++)
            strbuf_addf(body, "%s\n", sub.lines[i].body.buf);
    }
    submission_release(&sub);
    t_reload(db, g);
    return st;
}

static int waited(const struct game_rec *g)
{
    unsigned w = g->ops->waiting_for(g->st);
    return w && !(w & (w - 1)) ? __builtin_ctz(w) : -1;
}

/* What the others play from g's position until seat's turn, as the easy
 * bot would play it on a copy (the first of them playing first instead
 * when first is set), and a legal answer of seat's there. False when a
 * seat plays twice before her turn, or it never comes. */
struct ahead {
    int n;
    int seat[GAME_MAX_SEATS];
    char *order[GAME_MAX_SEATS];
    char *answer;
};

static void ahead_release(struct ahead *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->order[i]);
    free(a->answer);
    memset(a, 0, sizeof(*a));
}

static bool look_ahead(const struct game_rec *g, int seat, const char *first, struct ahead *a)
{
    void *st = bot_copy_state(g->ops, g->st);
    unsigned played = 0;
    memset(a, 0, sizeof(*a));
    for (int guard = 0; guard < 2 * g->nseats; guard++) {
        unsigned w = g->ops->waiting_for(st);
        int q = w && !(w & (w - 1)) ? __builtin_ctz(w) : -1;
        struct strlist legal = STRLIST_INIT;
        if (q < 0 || (played & (1u << q)))
            break;
        if (q == seat) {
            g->ops->legal(st, seat, &g->table, &legal);
            if (legal.n >= 2 && a->n)
                a->answer = xstrdup(legal.v[legal.n - 1]);
            strlist_clear(&legal);
            break;
        }
        char *o = first && !a->n ? xstrdup(first) : bot_choose(g->ops, st, q, &g->table, 77 + (uint64_t)guard);
        const char *orders[GAME_MAX_SEATS] = { NULL };
        struct game_log log;
        orders[q] = o;
        game_log_init_quiet(&log);
        int bad = !o || g->ops->advance(st, orders, &g->table, &log);
        game_log_release(&log);
        if (bad) {
            free(o);
            break;
        }
        a->seat[a->n] = q;
        a->order[a->n++] = o;
        played |= 1u << q;
    }
    g->ops->free(st);
    if (!a->answer)
        ahead_release(a);
    return a->answer != NULL;
}

/* "IF Bob X AND Cy Y THEN answer". */
static void plan_of(const struct game_rec *g, const struct ahead *a, struct strbuf *out)
{
    strbuf_addstr(out, "IF");
    for (int i = 0; i < a->n; i++)
        strbuf_addf(out, "%s %s %s", i ? " AND" : "", g->names[a->seat[i]], a->order[i]);
    strbuf_addf(out, " THEN %s", a->answer);
}

/* Plays a's orders, each by its seat (one the core played already, a
 * forced one, is passed over). */
static void play_ahead(sqlite3 *db, struct game_rec *g, const struct ahead *a)
{
    for (int i = 0; i < a->n; i++)
        if (waited(g) == a->seat[i])
            t_ok(db, g, a->seat[i], a->order[i]);
}

/* The easy bot plays one step of g. */
static void step_on(sqlite3 *db, struct game_rec *g)
{
    int s = waited(g);
    ck_assert_int_ge(s, 0);
    char *o = bot_choose(g->ops, g->st, s, &g->table, (uint64_t)g->turn * 31 + 5);
    ck_assert_ptr_nonnull(o);
    t_ok(db, g, s, o);
    free(o);
}

/* Until some seat but the one to act may plan with everything checked:
 * her seat in *planner, the others' orders ahead in a. */
static void find_plan(sqlite3 *db, struct game_rec *g, int *planner, struct ahead *a)
{
    for (int tries = 0; tries < 120; tries++) {
        int q = waited(g);
        ck_assert_msg(q >= 0, "%s: the game ended before a seat could plan", g->ops->name);
        for (int p = 0; p < g->nseats; p++) {
            if (p == q || !look_ahead(g, p, NULL, a))
                continue;
            *planner = p;
            return;
        }
        step_on(db, g);
    }
    ck_abort_msg("%s: no position to plan in", g->ops->name);
}

static char *last_order(sqlite3 *db, const struct game_rec *g, int seat, char **source)
{
    char *canon = NULL;
    ck_assert_int_eq(db_get_text(db, &canon,
                                 "SELECT canonical FROM orders WHERE game_id = ? AND seat = ? AND status = 'accepted'"
                                 " ORDER BY id DESC LIMIT 1",
                                 "Ii", g->id, seat + 1),
                     1);
    ck_assert_int_eq(db_get_text(db, source,
                                 "SELECT source FROM orders WHERE game_id = ? AND seat = ? AND status = 'accepted'"
                                 " ORDER BY id DESC LIMIT 1",
                                 "Ii", g->id, seat + 1),
                     1);
    return canon;
}

/* In every game where one seat acts at a time: a plan whose condition
 * comes true is played at once, marked so in the record; one that does
 * not is dropped, and she is told; replay and verify hold. */
START_TEST(test_fired_and_dropped)
{
    const char *module = sequential[_i];
    sqlite3 *db = t_db();
    struct game_rec g;
    struct ahead a, alt;
    struct strbuf line = STRBUF_INIT, body = STRBUF_INIT;
    int p;
    char *order, *source;
    int64_t n;

    t_new_game(db, module, str_eq(module, "african-empires") ? 3 : 2, 11, NULL, &g);
    /* Fired: a tree of two branches, one for another first order, and
     * the one that comes true played. */
    find_plan(db, &g, &p, &a);
    {
        struct strlist legal = STRLIST_INIT;
        bool found = false;
        g.ops->legal(g.st, a.seat[0], &g.table, &legal);
        for (size_t i = 0; i < legal.n && !found; i++)
            found = !str_eq(legal.v[i], a.order[0]) && look_ahead(&g, p, legal.v[i], &alt);
        strlist_clear(&legal);
        if (found) {
            plan_of(&g, &alt, &line);
            ck_assert_msg(said(db, &g, p, line.buf, &body) == LINE_PLANNED, "%s: %s: %s", module, line.buf, body.buf);
            ahead_release(&alt);
            strbuf_reset(&line);
        }
    }
    plan_of(&g, &a, &line);
    ck_assert_msg(said(db, &g, p, line.buf, &body) == LINE_PLANNED, "%s: %s: %s", module, line.buf, body.buf);
    play_ahead(db, &g, &a);
    order = last_order(db, &g, p, &source);
    ck_assert_msg(str_eq(order, a.answer) && str_eq(source, "plan"), "%s: %s played %s (%s), not %s from her plan",
                  module, g.names[p], order, source, a.answer);
    free(order);
    free(source);
    ck_assert_int_eq(db_get_int64(db, &n, "SELECT count(*) FROM plans WHERE game_id = ?", "I", g.id), 1);
    ck_assert_int_eq((int)n, 0);
    ahead_release(&a);

    /* Dropped: the first of them plays another order than she planned for. */
    for (int tries = 0;; tries++) {
        struct strlist legal = STRLIST_INIT;
        bool found = false;
        ck_assert_msg(tries < 60, "%s: no position to plan a drop in", module);
        find_plan(db, &g, &p, &a);
        g.ops->legal(g.st, a.seat[0], &g.table, &legal);
        for (size_t i = 0; i < legal.n && !found; i++)
            if (!str_eq(legal.v[i], a.order[0]) && look_ahead(&g, p, legal.v[i], &alt))
                found = true;
        strlist_clear(&legal);
        if (found)
            break;
        ahead_release(&a);
        step_on(db, &g);
    }
    strbuf_reset(&line);
    plan_of(&g, &alt, &line);
    ck_assert_msg(said(db, &g, p, line.buf, &body) == LINE_PLANNED, "%s: %s: %s", module, line.buf, body.buf);
    play_ahead(db, &g, &a);
    ck_assert_int_eq(waited(&g), p);
    ck_assert_int_eq(db_get_int64(db, &n, "SELECT count(*) FROM plans WHERE game_id = ?", "I", g.id), 1);
    ck_assert_int_eq((int)n, 0);
    {
        char *note = NULL;
        ck_assert_int_eq(db_get_text(db, &note, "SELECT note FROM plan_notes WHERE game_id = ? AND seat = ?", "Ii",
                                     g.id, p + 1),
                         1);
        ck_assert_msg(strstr(note, "dropped") && strstr(note, g.names[a.seat[0]]), "%s: note: %s", module, note);
        free(note);
    }
    {
        struct strbuf report = STRBUF_INIT;
        ck_assert_msg(engine_replay(db, &g, &report) == 0, "%s: %s", module, report.buf);
        strbuf_release(&report);
    }
    ahead_release(&a);
    ahead_release(&alt);
    strbuf_release(&line);
    strbuf_release(&body);
    game_unload(&g);
    sqlite3_close(db);
}
END_TEST

/* A whole game by mail, each player's mail her order and (plan) her IF
 * lines two moves ahead: how many mails the players sent; the outbox
 * then holds every mail ngoma sent. */
static int play_by_mail(sqlite3 *db, struct game_rec *g, bool plan, int max)
{
    int mails = 0;
    while (!str_eq(game_status_of(g->ops, g->st), "finished") && mails < max) {
        int s = waited(g);
        ck_assert_int_ge(s, 0);
        char *text = planner_mail(g, s, plan, (uint64_t)g->turn * 1000003 + (uint64_t)s);
        ck_assert_ptr_nonnull(text);
        struct inbound_result r = t_seat_mail(db, g, s, g->seats[s].email, text);
        (void)r;
        free(text);
        mails++;
        t_reload(db, g);
    }
    return mails;
}

/* Every text ngoma sent to address (or to anyone else but it, when
 * others), flattened, joined. */
static char *mails_text(sqlite3 *db, const char *address, bool others)
{
    struct strbuf all = STRBUF_INIT;
    sqlite3_stmt *st = db_stmt(db, "SELECT mail FROM outbox WHERE (rcpt = ?) = ?", "si", address, others ? 0 : 1);
    ck_assert_ptr_nonnull(st);
    while (db_step(st) == SQLITE_ROW) {
        struct shown s;
        shown_of((const char *)sqlite3_column_text(st, 0), &s);
        char *flat = t_flat(s.text), *html = t_flat(s.html);
        strbuf_addf(&all, "%s\n%s\n%s\n", s.subject, flat, html);
        free(flat);
        free(html);
        shown_release(&s);
    }
    db_finalize(st);
    return strbuf_detach(&all);
}

/* A whole Bantu game by mail in which both players plan two moves ahead:
 * plans fire, chains of several turns pass with no mail, the game ends,
 * replays and verifies, in fewer mails than without plans; and no mail
 * to one player, nor anything public, ever shows the other's plans. */
START_TEST(test_bantu_by_mail)
{
    sqlite3 *db = t_db();
    struct game_rec g, h;
    int with, without;
    int64_t fired, chain;
    t_new_game(db, "bantu", 2, 5, NULL, &g);
    with = play_by_mail(db, &g, true, 600);
    ck_assert_str_eq(game_status_of(g.ops, g.st), "finished");
    ck_assert_int_eq(db_get_int64(db, &fired,
                                  "SELECT count(*) FROM orders WHERE game_id = ? AND source = 'plan' AND status ="
                                  " 'accepted'",
                                  "I", g.id),
                     1);
    ck_assert_int_gt((int)fired, 5);
    /* A chain: a plan's order answered at once by the other's plan. */
    ck_assert_int_eq(db_get_int64(db, &chain,
                                  "SELECT count(*) FROM orders a JOIN orders b ON b.game_id = a.game_id AND b.step ="
                                  " a.step + 1 WHERE a.game_id = ? AND a.source = 'plan' AND b.source = 'plan' AND"
                                  " a.status = 'accepted' AND b.status = 'accepted'",
                                  "I", g.id),
                     1);
    ck_assert_int_gt((int)chain, 0);
    {
        struct strbuf report = STRBUF_INIT;
        ck_assert_msg(engine_replay(db, &g, &report) == 0, "%s", report.buf);
        strbuf_reset(&report);
        ck_assert_msg(verify_game(db, &g, &report) == 0, "%s", report.buf);
        strbuf_release(&report);
    }
    /* Secret: what one was mailed never holds the other's IF lines, and
     * no IF line was ever kept as an order. */
    for (int s = 0; s < 2; s++) {
        char *text = mails_text(db, g.seats[s].email, false), needle[64];
        snprintf(needle, sizeof(needle), "IF %s ", g.names[s]);
        ck_assert_msg(!strstr(text, needle), "a mail to %s shows another's plan (%s)", g.names[s], needle);
        free(text);
    }
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders WHERE text LIKE 'IF %' OR canonical LIKE 'IF %'"), 0);
    t_new_game(db, "bantu", 2, 5, NULL, &h);
    without = play_by_mail(db, &h, false, 600);
    ck_assert_str_eq(game_status_of(h.ops, h.st), "finished");
    ck_assert_msg(with < without, "with plans %d mails, without %d", with, without);
    if (getenv("NGOMA_SHOW_MAILS")) {
        /* For a reader: the first mails of the game with plans. */
        sqlite3_stmt *st = db_stmt(db, "SELECT rcpt, kind, mail FROM outbox WHERE game_id = ? ORDER BY id LIMIT 40", "I",
                                   g.id);
        while (st && db_step(st) == SQLITE_ROW) {
            struct shown s;
            shown_of((const char *)sqlite3_column_text(st, 2), &s);
            fprintf(stderr, "==== %s (%s)\nSubject: %s\n%s\n---- html: %s\n", sqlite3_column_text(st, 0),
                    sqlite3_column_text(st, 1), s.subject, s.text, s.html);
            shown_release(&s);
        }
        db_finalize(st);
        fprintf(stderr, "bantu by mail: %d mails with plans (%lld played from plans), %d without\n", with,
                (long long)fired, without);
    }
    game_unload(&g);
    game_unload(&h);
    sqlite3_close(db);
}
END_TEST

static int64_t plans_of(sqlite3 *db, const struct game_rec *g, int seat)
{
    int64_t n = 0;
    cJSON *tree;
    int armed;
    ck_assert_int_eq(plan_load(db, g, seat, &tree, &armed), 0);
    (void)n;
    n = 0;
    if (tree) {
        struct strbuf out = STRBUF_INIT;
        /* Counted as PLANS lists them. */
        ck_assert_int_eq(plan_list(db, g, seat, &out), 0);
        for (const char *p = out.buf; (p = strchr(p, '\n')); p++)
            n += p[1] >= '1' && p[1] <= '9';
        strbuf_release(&out);
        cJSON_Delete(tree);
    }
    return n;
}


static void set(sqlite3 *db, const char *key, const char *value)
{
    struct strbuf err = STRBUF_INIT;
    ck_assert_msg(setting_set(db, key, value, &err) == 0, "%s", err.buf);
    strbuf_release(&err);
}

/* Refused, and why holds want. */
static void refused(sqlite3 *db, struct game_rec *g, int seat, const char *line, const char *want)
{
    struct strbuf body = STRBUF_INIT;
    ck_assert_msg(said(db, g, seat, line, &body) == LINE_REJECTED, "%.80s: not refused: %.300s", line, body.buf);
    ck_assert_msg(strstr(body.buf, want), "%.80s: %.300s lacks \"%s\"", line, body.buf, want);
    strbuf_release(&body);
}

/* PLANS, CANCEL n, CANCEL PLANS; what a line that is no plan is told; the
 * bounds (plan_max, plan_depth, orders joined by OR, a long line); and
 * what clears her plans: her own order, a rollback, a new holder. */
START_TEST(test_commands_and_bounds)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct ahead a, b;
    struct strbuf line = STRBUF_INIT, body = STRBUF_INIT, out = STRBUF_INIT;
    int p, q;

    t_new_game(db, "bantu", 2, 3, NULL, &g);
    step_on(db, &g);
    step_on(db, &g);
    find_plan(db, &g, &p, &a);
    q = waited(&g);
    ck_assert_int_eq(said(db, &g, p, "PLANS", &body), LINE_INFO);
    ck_assert_msg(strstr(body.buf, "no plans"), "%s", body.buf);
    /* Not hers to give: her turn, herself, nobody, no THEN, no answer. */
    refused(db, &g, q, "IF Ann ENTER 1 24a THEN ENTER 1 24b", "your turn");
    strbuf_addf(&line, "IF %s %s THEN %s", g.names[p], a.order[0], a.answer);
    refused(db, &g, p, line.buf, "is you");
    refused(db, &g, p, "IF Zed ENTER 1 24a THEN ENTER 1 24b", "name of another player");
    strbuf_reset(&line);
    strbuf_addf(&line, "IF %s %s %s", g.names[q], a.order[0], a.answer);
    refused(db, &g, p, line.buf, "THEN");
    strbuf_reset(&line);
    strbuf_addf(&line, "IF %s %s THEN", g.names[q], a.order[0]);
    refused(db, &g, p, line.buf, "answer is missing");
    strbuf_reset(&line);
    strbuf_addf(&line, "IF %s %s OR %s THEN %s ELSE %s ELSE %s", g.names[q], a.order[0], a.order[0], a.answer,
                a.answer, a.answer);
    refused(db, &g, p, line.buf, "one ELSE");
    /* Nine orders joined by OR. */
    strbuf_reset(&line);
    strbuf_addf(&line, "IF %s %s", g.names[q], a.order[0]);
    for (int i = 0; i < 8; i++)
        strbuf_addf(&line, " OR %s", a.order[0]);
    strbuf_addf(&line, " THEN %s", a.answer);
    refused(db, &g, p, line.buf, "at most 8");
    /* A line of a hundred thousand words is cut, and refused whole: a
     * plan cut short is never taken for another. */
    strbuf_reset(&line);
    for (int i = 0; i < 12000; i++)
        strbuf_addf(&line, "IF %s %s THEN %s ", g.names[q], a.order[0], a.answer);
    refused(db, &g, p, line.buf, "characters");

    /* Two plans, listed and cancelled one by one. */
    strbuf_reset(&line);
    plan_of(&g, &a, &line);
    ck_assert_int_eq(said(db, &g, p, line.buf, &body), LINE_PLANNED);
    {
        struct strlist legal = STRLIST_INIT;
        bool found = false;
        g.ops->legal(g.st, q, &g.table, &legal);
        for (size_t i = 0; i < legal.n && !found; i++)
            found = !str_eq(legal.v[i], a.order[0]) && look_ahead(&g, p, legal.v[i], &b);
        strlist_clear(&legal);
        ck_assert(found);
    }
    strbuf_reset(&line);
    plan_of(&g, &b, &line);
    ck_assert_int_eq(said(db, &g, p, line.buf, &body), LINE_PLANNED);
    ck_assert_int_eq((int)plans_of(db, &g, p), 2);
    ck_assert_int_eq(said(db, &g, p, "PLANS", &body), LINE_INFO);
    ck_assert_msg(strstr(body.buf, "1. IF") && strstr(body.buf, "2. IF"), "%s", body.buf);
    /* The bounds: no third, nor one deeper than plan_depth. */
    set(db, "plan_max", "2");
    {
        struct ahead c;
        struct strlist legal = STRLIST_INIT;
        bool found = false;
        g.ops->legal(g.st, q, &g.table, &legal);
        for (size_t i = 0; i < legal.n && !found; i++)
            found = !str_eq(legal.v[i], a.order[0]) && !str_eq(legal.v[i], b.order[0]) &&
                    look_ahead(&g, p, legal.v[i], &c);
        strlist_clear(&legal);
        ck_assert(found);
        strbuf_reset(&line);
        plan_of(&g, &c, &line);
        refused(db, &g, p, line.buf, "at most 2 plans");
        ahead_release(&c);
    }
    set(db, "plan_max", "16");
    set(db, "plan_depth", "1");
    strbuf_reset(&line);
    plan_of(&g, &a, &line);
    strbuf_addf(&line, " IF %s %s THEN %s", g.names[q], a.order[0], a.answer);
    refused(db, &g, p, line.buf, "at most 1 answers deep");
    set(db, "plan_depth", "8");
    refused(db, &g, p, "CANCEL 7", "no plan 7");
    ck_assert_int_eq(said(db, &g, p, "CANCEL 1", &body), LINE_PLANNED);
    ck_assert_msg(strstr(body.buf, "Plan 1 is cancelled"), "%s", body.buf);
    ck_assert_int_eq((int)plans_of(db, &g, p), 1);
    ck_assert_int_eq(said(db, &g, p, "CANCEL PLANS", &body), LINE_PLANNED);
    ck_assert_int_eq((int)plans_of(db, &g, p), 0);
    set(db, "plan_max", "0");
    strbuf_reset(&line);
    plan_of(&g, &a, &line);
    refused(db, &g, p, line.buf, "turned off");
    set(db, "plan_max", "16");

    /* A rollback clears every seat's plans. */
    ck_assert_int_eq(said(db, &g, p, line.buf, &body), LINE_PLANNED);
    ck_assert_msg(t_host(db, &g, "ROLLBACK STEP 1", &out) == 0, "%s", out.buf);
    ck_assert_int_eq((int)plans_of(db, &g, 0) + (int)plans_of(db, &g, 1), 0);
    ahead_release(&a);
    ahead_release(&b);

    /* A new holder of the seat inherits none. */
    find_plan(db, &g, &p, &a);
    strbuf_reset(&line);
    plan_of(&g, &a, &line);
    ck_assert_int_eq(said(db, &g, p, line.buf, &body), LINE_PLANNED);
    strbuf_reset(&line);
    strbuf_addf(&line, "REPLACE %s Zoe=zoe@example.org", g.names[p]);
    ck_assert_msg(t_host(db, &g, line.buf, &out) == 0, "%s", out.buf);
    ck_assert_int_eq((int)plans_of(db, &g, p), 0);
    /* A bot plans nothing. */
    strbuf_reset(&line);
    strbuf_addf(&line, "KICK %s", g.names[p]);
    ck_assert_msg(t_host(db, &g, line.buf, &out) == 0, "%s", out.buf);
    strbuf_reset(&line);
    plan_of(&g, &a, &line);
    refused(db, &g, p, line.buf, "bots plan nothing");
    ahead_release(&a);

    /* Her own order clears what she planned before it (a plan still
     * waiting at her turn, as after a double move). */
    {
        struct game_rec h;
        struct submission sub;
        t_new_game(db, "bantu", 2, 3, NULL, &h);
        find_plan(db, &h, &p, &a);
        strbuf_reset(&line);
        plan_of(&h, &a, &line);
        ck_assert_int_eq(said(db, &h, p, line.buf, &body), LINE_PLANNED);
        /* Armed past the others' next order: nothing read yet at her turn. */
        ck_assert_int_eq(db_do(db, "UPDATE plans SET armed_step = 1000 WHERE game_id = ?", "I", h.id), 0);
        play_ahead(db, &h, &a);
        ck_assert_int_eq(waited(&h), p);
        ck_assert_int_eq((int)plans_of(db, &h, p), 1);
        t_submit(db, &h, p, a.answer, &sub);
        ck_assert_msg(strstr(sub.lines[0].body.buf, "earlier plan is cleared"), "%s", sub.lines[0].body.buf);
        submission_release(&sub);
        t_reload(db, &h);
        ck_assert_int_eq((int)plans_of(db, &h, p), 0);
        ahead_release(&a);
        game_unload(&h);
    }
    /* A game played together takes none. */
    {
        struct game_rec k;
        t_new_game(db, "kalimambo", 3, 3, NULL, &k);
        refused(db, &k, 0, "IF Bob PLAY 3 THEN PLAY 4", "together");
        game_unload(&k);
    }
    strbuf_release(&line);
    strbuf_release(&body);
    strbuf_release(&out);
    game_unload(&g);
    sqlite3_close(db);
}
END_TEST

/* A reader of French writes SI ... ALORS ... in her words; PLANS lists it
 * in hers; the English reader's refusal in his. */
START_TEST(test_her_words)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct ahead a;
    struct strbuf line = STRBUF_INIT, body = STRBUF_INIT;
    int p;
    t_new_game(db, "bantu", 2, 3, NULL, &g);
    find_plan(db, &g, &p, &a);
    ck_assert_int_eq(db_do(db, "INSERT INTO player_languages(address, language, set_at) VALUES (?, 'fr', '2026')", "s",
                           g.seats[p].email),
                     0);
    t_reload(db, &g);
    {
        char *his = lexicon_local("fr", "common", "bantu", a.order[0]), *mine = lexicon_local("fr", "common", "bantu", a.answer);
        strbuf_addf(&line, "si %s %s alors %s", g.names[a.seat[0]], his, mine);
        free(his);
        free(mine);
    }
    ck_assert_msg(said(db, &g, p, line.buf, &body) == LINE_PLANNED, "%s: %s", line.buf, body.buf);
    ck_assert_msg(strstr(body.buf, "Gardé secret"), "%s", body.buf);
    ck_assert_int_eq(said(db, &g, p, "PLANS", &body), LINE_INFO);
    ck_assert_msg(strstr(body.buf, "1. SI ") && strstr(body.buf, " ALORS "), "%s", body.buf);
    refused(db, &g, p, "SI Zed ENTRER 1 24a ALORS ENTRER 1 24b", "après SI");
    play_ahead(db, &g, &a);
    {
        char *order, *source;
        order = last_order(db, &g, p, &source);
        ck_assert_str_eq(order, a.answer);
        ck_assert_str_eq(source, "plan");
        free(order);
        free(source);
    }
    ahead_release(&a);
    strbuf_release(&line);
    strbuf_release(&body);
    game_unload(&g);
    sqlite3_close(db);
}
END_TEST

/* Everything public, and everything another seat or an observer reads,
 * while a plan waits: no IF line, no THEN, nothing of it. */
START_TEST(test_secret_everywhere)
{
    const char *module = sequential[_i];
    sqlite3 *db = t_db();
    struct game_rec g;
    struct ahead a;
    struct strbuf line = STRBUF_INIT, all = STRBUF_INIT, body = STRBUF_INIT;
    int p;
    t_new_game(db, module, str_eq(module, "african-empires") ? 3 : 2, 13, NULL, &g);
    find_plan(db, &g, &p, &a);
    plan_of(&g, &a, &line);
    ck_assert_msg(said(db, &g, p, line.buf, &body) == LINE_PLANNED, "%s: %s", line.buf, body.buf);
    /* Every other seat: BOARD, HISTORY, LEGAL, PLANS (his own). */
    for (int s = 0; s < g.nseats; s++) {
        if (s == p)
            continue;
        said(db, &g, s, "BOARD\nHISTORY\nLEGAL\nPLANS", &body);
        strbuf_addstr(&all, body.buf);
    }
    /* An observer. */
    ck_assert_int_eq(view_ascii(db, &g, -1, &all), 0);
    ck_assert_int_eq(history_render(db, &g, -1, &all), 0);
    /* The public record, revealed or not. */
    for (int reveal = 0; reveal < 2; reveal++) {
        cJSON *rec = verify_export(db, &g, reveal);
        char *text = cJSON_PrintUnformatted(rec);
        strbuf_addstr(&all, text);
        free(text);
        cJSON_Delete(rec);
    }
    /* Every view of the schema, whole. */
    {
        sqlite3_stmt *views = db_stmt(db, "SELECT name, sql FROM sqlite_master WHERE type = 'view'", "");
        ck_assert_ptr_nonnull(views);
        while (db_step(views) == SQLITE_ROW) {
            char sql[256];
            ck_assert_msg(!strstr((const char *)sqlite3_column_text(views, 1), "plan"), "view %s reads plans",
                          sqlite3_column_text(views, 0));
            snprintf(sql, sizeof(sql), "SELECT * FROM \"%s\"", sqlite3_column_text(views, 0));
            sqlite3_stmt *rows = db_stmt(db, sql, "");
            ck_assert_ptr_nonnull(rows);
            while (db_step(rows) == SQLITE_ROW)
                for (int c = 0; c < sqlite3_column_count(rows); c++)
                    if (sqlite3_column_text(rows, c))
                        strbuf_addf(&all, "%s\n", sqlite3_column_text(rows, c));
            db_finalize(rows);
        }
        db_finalize(views);
    }
    /* Nor is a plan kept as an order of any kind. */
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders WHERE text LIKE 'IF %'"), 0);
    ck_assert_msg(!strstr(all.buf, " THEN ") && !strstr(all.buf, line.buf), "%s: a plan shows: %s", module, all.buf);
    ahead_release(&a);
    strbuf_release(&line);
    strbuf_release(&all);
    strbuf_release(&body);
    game_unload(&g);
    sqlite3_close(db);
}
END_TEST

/* A strong bot's move comes true for her plan: her answer is played at
 * once, on the strong bot's path (strong_bots_play); its search never
 * read her plan (it reads no table). */
START_TEST(test_against_strong_bot)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf line = STRBUF_INIT, body = STRBUF_INIT;
    struct schedule_stats stats;
    int64_t fired;
    const char *names[] = { "Ann", "Zola" }, *emails[] = { "ann@example.org", "bot:strong" };
    struct strbuf err = STRBUF_INIT;
    int64_t id;
    set(db, "bot_ms", "10");
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_msg(engine_new(db, game_find("bantu"), 2, names, emails, NULL, 3, true, &id, &err) == 0, "%s", err.buf);
    ck_assert_int_eq(db_commit(db), 0);
    ck_assert_int_eq(game_load(db, id, &g), 0);
    for (int moves = 0; moves < 40; moves++) {
        memset(&stats, 0, sizeof(stats));
        ck_assert_int_ge(strong_bots_play(db, 4, &stats), 0);
        t_reload(db, &g);
        if (waited(&g) != 0)
            continue;
        /* Her order, and a plan for every reply he has. */
        char *mine = bot_choose(g.ops, g.st, 0, &g.table, (uint64_t)moves);
        void *st = bot_copy_state(g.ops, g.st);
        struct strlist his = STRLIST_INIT;
        const char *orders[GAME_MAX_SEATS] = { mine };
        struct game_log log;
        game_log_init_quiet(&log);
        ck_assert_int_eq(g.ops->advance(st, orders, &g.table, &log), 0);
        game_log_release(&log);
        strbuf_reset(&line);
        strbuf_addstr(&line, mine);
        if (g.ops->waiting_for(st) == 2u) {
            g.ops->legal(st, 1, &g.table, &his);
            for (size_t i = 0; i < his.n && i < 16; i++) {
                void *after = bot_copy_state(g.ops, st);
                const char *o2[GAME_MAX_SEATS] = { NULL, his.v[i] };
                struct strlist answers = STRLIST_INIT;
                game_log_init_quiet(&log);
                if (g.ops->advance(after, o2, &g.table, &log) == 0 && g.ops->waiting_for(after) == 1u) {
                    g.ops->legal(after, 0, &g.table, &answers);
                    if (answers.n)
                        strbuf_addf(&line, "\nIF Zola %s THEN %s", his.v[i], answers.v[0]);
                }
                game_log_release(&log);
                strlist_clear(&answers);
                g.ops->free(after);
            }
        }
        strlist_clear(&his);
        g.ops->free(st);
        free(mine);
        said(db, &g, 0, line.buf, &body);
        if (str_eq(game_status_of(g.ops, g.st), "finished"))
            break;
    }
    ck_assert_int_eq(db_get_int64(db, &fired,
                                  "SELECT count(*) FROM orders WHERE game_id = ? AND seat = 1 AND source = 'plan'", "I",
                                  g.id),
                     1);
    ck_assert_int_gt((int)fired, 0);
    /* The bot's seat plans nothing. */
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM plans WHERE seat = 2"), 0);
    strbuf_release(&line);
    strbuf_release(&body);
    strbuf_release(&err);
    game_unload(&g);
    sqlite3_close(db);
}
END_TEST

/* Where plans meet press and anonymity: an IF in a message is press, not
 * a plan; an anonymous game's plans name titles, and a real name is
 * answered with the titles only. */
START_TEST(test_press_and_titles)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct ahead a;
    struct strbuf line = STRBUF_INIT, body = STRBUF_INIT;
    int p;
    t_new_game(db, "bantu", 2, 3, "{\"anonymous\":\"yes\"}", &g);
    find_plan(db, &g, &p, &a);
    ck_assert_msg(!str_eq(g.names[a.seat[0]], "Ann") && !str_eq(g.names[a.seat[0]], "Bob"), "%s",
                  g.names[a.seat[0]]);
    strbuf_addf(&line, "PRESS TO %s\nIF %s %s THEN %s\nEND PRESS", g.names[a.seat[0]], g.names[a.seat[0]], a.order[0],
                a.answer);
    t_seat_mail(db, &g, p, g.seats[p].email, line.buf);
    t_reload(db, &g);
    ck_assert_int_eq((int)plans_of(db, &g, p), 0);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM press WHERE body LIKE '%THEN%'"), 1);
    /* The real name behind a title is no name to plan on. */
    strbuf_reset(&line);
    strbuf_addf(&line, "IF %s %s THEN %s", p == 0 ? "Bob" : "Ann", a.order[0], a.answer);
    {
        char *title = xstrdup(g.names[a.seat[0]]);
        refused(db, &g, p, line.buf, title);
        free(title);
    }
    ck_assert_msg(said(db, &g, p, line.buf, &body) == LINE_REJECTED && !strstr(body.buf, p == 0 ? "Bob" : "Ann"),
                  "%s", body.buf);
    strbuf_reset(&line);
    plan_of(&g, &a, &line);
    ck_assert_int_eq(said(db, &g, p, line.buf, &body), LINE_PLANNED);
    play_ahead(db, &g, &a);
    {
        char *source, *order = last_order(db, &g, p, &source);
        ck_assert_str_eq(source, "plan");
        free(order);
        free(source);
    }
    ahead_release(&a);
    strbuf_release(&line);
    strbuf_release(&body);
    game_unload(&g);
    sqlite3_close(db);
}
END_TEST

/* Bumuntu keeps the shields secret but deals nothing anew: a plan's
 * conditions are checked on the game itself, which is safe only while no
 * shield decides what anyone may order. Every step of a game of bots:
 * with every shield emptied, each seat's legal orders are the same. */
START_TEST(test_shields_decide_no_order)
{
    const struct game_ops *ops = game_find("bumuntu");
    static const char *const names[] = { "Ann", "Bob", "Cleo" };
    struct game_table t = { 3, names, NULL };
    struct strbuf err = STRBUF_INIT;
    cJSON *opts = engine_options(ops, NULL, &err);
    void *st = ops->setup(opts, 3, 21, &err);
    int steps = 0;
    ck_assert_ptr_nonnull(st);
    for (; ops->waiting_for(st) && steps < 400; steps++) {
        cJSON *j = ops->to_json(st), *shields = cJSON_GetObjectItemCaseSensitive(j, "shields"), *one, *v;
        cJSON_ArrayForEach(one, shields)
            cJSON_ArrayForEach(v, one)
                cJSON_SetNumberValue(v, 0);
        void *blind = ops->from_json(j, &err);
        ck_assert_msg(blind != NULL, "%s", err.buf);
        for (int s = 0; s < 3; s++) {
            struct strlist a = STRLIST_INIT, b = STRLIST_INIT;
            ops->legal(st, s, &t, &a);
            ops->legal(blind, s, &t, &b);
            ck_assert_int_eq((int)a.n, (int)b.n);
            for (size_t i = 0; i < a.n; i++)
                ck_assert_str_eq(a.v[i], b.v[i]);
            strlist_clear(&a);
            strlist_clear(&b);
        }
        ops->free(blind);
        cJSON_Delete(j);
        {
            unsigned w = ops->waiting_for(st);
            const char *orders[GAME_MAX_SEATS] = { NULL };
            char *own[GAME_MAX_SEATS] = { NULL };
            struct game_log log;
            for (int s = 0; s < 3; s++)
                if (w & (1u << s))
                    orders[s] = own[s] = bot_choose(ops, st, s, &t, (uint64_t)steps * 3 + (uint64_t)s);
            game_log_init_quiet(&log);
            ck_assert_int_eq(ops->advance(st, orders, &t, &log), 0);
            game_log_release(&log);
            for (int s = 0; s < 3; s++)
                free(own[s]);
        }
    }
    ck_assert_msg(!ops->waiting_for(st), "a game of bots ran past 400 steps");
    ops->free(st);
    cJSON_Delete(opts);
    strbuf_release(&err);
}
END_TEST

/* An answer no copy could check (a third player acts between) that is no
 * longer legal when its condition comes true: dropped with a note, never
 * played, and she orders herself. */
START_TEST(test_illegal_when_it_fires)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct ahead a;
    struct strbuf line = STRBUF_INIT, body = STRBUF_INIT;
    int p;
    int64_t before, after;
    char *note = NULL;
    t_new_game(db, "african-empires", 3, 17, NULL, &g);
    find_plan(db, &g, &p, &a);
    ck_assert_int_ge(a.n, 2); /* two others act before her */
    strbuf_addf(&line, "IF %s %s THEN PLAY Nothing ON Nowhere", g.names[a.seat[0]], a.order[0]);
    ck_assert_msg(said(db, &g, p, line.buf, &body) == LINE_PLANNED, "%s", body.buf);
    ck_assert_msg(strstr(body.buf, "checked when it comes true"), "%s", body.buf);
    ck_assert_int_eq(db_get_int64(db, &before, "SELECT count(*) FROM orders WHERE game_id = ? AND seat = ?", "Ii",
                                  g.id, p + 1),
                     1);
    play_ahead(db, &g, &a);
    ck_assert_int_eq(waited(&g), p);
    ck_assert_int_eq(db_get_int64(db, &after, "SELECT count(*) FROM orders WHERE game_id = ? AND seat = ?", "Ii",
                                  g.id, p + 1),
                     1);
    ck_assert_int_eq((int)after, (int)before);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM plans"), 0);
    ck_assert_int_eq(db_get_text(db, &note, "SELECT note FROM plan_notes WHERE game_id = ? AND seat = ?", "Ii", g.id,
                                 p + 1),
                     1);
    ck_assert_msg(strstr(note, "no longer legal") && strstr(note, "Nowhere"), "%s", note);
    free(note);
    ahead_release(&a);
    strbuf_release(&line);
    strbuf_release(&body);
    game_unload(&g);
    sqlite3_close(db);
}
END_TEST

/* Where plans meet votes and the record: a draw both offer ends the game,
 * and the plan still waiting goes with it; a plan's order counts as the
 * planner's own (ratings count own orders), and the seat played no
 * other. */
START_TEST(test_votes_and_own_orders)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct ahead a;
    struct strbuf line = STRBUF_INIT, body = STRBUF_INIT;
    int p;
    t_new_game(db, "bantu", 2, 7, NULL, &g);
    find_plan(db, &g, &p, &a);
    plan_of(&g, &a, &line);
    ck_assert_int_eq(said(db, &g, p, line.buf, &body), LINE_PLANNED);
    play_ahead(db, &g, &a);
    /* Played from her plan: an order of her own, not a bot's nor forced. */
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders WHERE source = 'plan' AND bot_level IS NULL"), 1);
    ahead_release(&a);
    find_plan(db, &g, &p, &a);
    strbuf_reset(&line);
    plan_of(&g, &a, &line);
    ck_assert_int_eq(said(db, &g, p, line.buf, &body), LINE_PLANNED);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM plans"), 1);
    said(db, &g, 0, "DRAW", &body);
    said(db, &g, 1, "DRAW", &body);
    ck_assert_str_eq(game_status_of(g.ops, g.st), "finished");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM plans"), 0);
    ck_assert_int_eq(said(db, &g, p, "PLANS", &body), LINE_INFO);
    ck_assert_msg(strstr(body.buf, "no plans"), "%s", body.buf);
    ahead_release(&a);
    strbuf_release(&line);
    strbuf_release(&body);
    game_unload(&g);
    sqlite3_close(db);
}
END_TEST

Suite *plans_suite(void)
{
    Suite *s = suite_create("plans");
    TCase *tc = tcase_create("plans");
    tcase_add_loop_test(tc, test_fired_and_dropped, 0, (int)(sizeof(sequential) / sizeof(sequential[0])));
    tcase_add_test(tc, test_bantu_by_mail);
    tcase_add_test(tc, test_commands_and_bounds);
    tcase_add_test(tc, test_her_words);
    tcase_add_loop_test(tc, test_secret_everywhere, 0, (int)(sizeof(sequential) / sizeof(sequential[0])));
    tcase_add_test(tc, test_against_strong_bot);
    tcase_add_test(tc, test_press_and_titles);
    tcase_add_test(tc, test_shields_decide_no_order);
    tcase_add_test(tc, test_illegal_when_it_fires);
    tcase_add_test(tc, test_votes_and_own_orders);
    suite_add_tcase(s, tc);
    return s;
}
