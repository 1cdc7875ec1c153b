/* check_secrets.c: in games with hidden information, no seat's secrets reach another seat by any mail, view, history or export, over many random games. */
#include "test_support.h"

#include "core/bot.h"
#include "store/db.h"
#include "core/history.h"
#include "lib/jsonx.h"
#include "judge/notify.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "core/view.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct secrets {
    struct strlist of[GAME_MAX_SEATS];
};

static void secrets_take(const struct game_rec *g, struct secrets *s)
{
    for (int i = 0; i < g->nseats; i++) {
        memset(&s->of[i], 0, sizeof(s->of[i]));
        g->ops->secrets(g->st, i, &g->table, &s->of[i]);
    }
}

static void secrets_release(struct secrets *s, int n)
{
    for (int i = 0; i < n; i++)
        strlist_clear(&s->of[i]);
}

/* No secret of any seat but `reader` (-1: nobody's) in text. */
static void assert_clean(const struct game_rec *g, const struct secrets *s, int reader, const char *text,
                         const char *what)
{
    for (int i = 0; i < g->nseats; i++)
        for (size_t k = 0; i != reader && k < s->of[i].n; k++)
            CHECK(!strstr(text, s->of[i].v[k]), "%s: seat %d's secret \"%s\" is in %s of seat %d", g->ops->name, i + 1,
                  s->of[i].v[k], what, reader + 1);
}

/* Every row of every view a players' group is given, as text; of the
 * turns, those after `after` only (a card played long ago, reshuffled
 * and drawn again, is in the old turns by right). */
static char *export_text(sqlite3 *db, int after)
{
    static const char *const views[] = { "game_summary", "moves", "rejections", "turn_log" };
    struct strbuf b = STRBUF_INIT;
    for (size_t v = 0; v < ARRAY_SIZE(views); v++) {
        char sql[128];
        sqlite3_stmt *st;
        snprintf(sql, sizeof(sql), "SELECT * FROM %s WHERE %s", views[v],
                 str_eq(views[v], "moves") || str_eq(views[v], "turn_log") ? "turn > ?" : "? IS NOT NULL");
        st = db_stmt(db, sql, "i", after);
        CHECK(st != NULL, "cannot read the view %s", views[v]);
        while (db_step(st) == SQLITE_ROW)
            for (int c = 0; c < sqlite3_column_count(st); c++) {
                const char *t = (const char *)sqlite3_column_text(st, c);
                strbuf_addf(&b, "%s\t", t ? t : "");
            }
        db_finalize(st);
    }
    return strbuf_detach(&b);
}

/* The mails queued since row `after`, each checked against the secrets
 * of every seat but its reader. */
static void assert_mails(sqlite3 *db, const struct game_rec *g, const struct secrets *s, int64_t after)
{
    sqlite3_stmt *st = db_stmt(db, "SELECT seat, mail FROM outbox WHERE id > ? AND game_id = ?", "II", after, g->id);
    CHECK(st != NULL, "outbox");
    while (db_step(st) == SQLITE_ROW) {
        char *text = t_readable((const char *)sqlite3_column_text(st, 1));
        if (getenv("SECRETS_DEBUG")) {
            for (int i = 0; i < g->nseats; i++)
                for (size_t k = 0; i != sqlite3_column_int(st, 0) - 1 && k < s->of[i].n; k++)
                    if (strstr(text, s->of[i].v[k]))
                        fprintf(stderr, "----- seat %d secret %s\n%s\n", i + 1, s->of[i].v[k], text);
        }
        assert_clean(g, s, sqlite3_column_int(st, 0) - 1, text, "a mail");
        free(text);
    }
    db_finalize(st);
}

/* Every seat's views of the game now, and its history of the turns after
 * `after`. */
static void assert_views_and_history(sqlite3 *db, struct game_rec *g, const struct secrets *s, int after)
{
    for (int viewer = -1; viewer < g->nseats; viewer++) {
        struct strbuf b = STRBUF_INIT;
        cJSON *j = view_json(db, g, viewer);
        char *json = jx_print(j);
        CHECK(view_ascii(db, g, viewer, &b) == 0 && history_render_range(db, g, viewer, after + 1, g->turn, &b) == 0,
              "view or history");
        assert_clean(g, s, viewer, json, "the JSON view");
        assert_clean(g, s, viewer, b.buf, "the board or history");
        free(json);
        cJSON_Delete(j);
        strbuf_release(&b);
    }
}

static int64_t last_mail(sqlite3 *db)
{
    int64_t n = 0;
    CHECK(db_get_int64(db, &n, "SELECT coalesce(max(id), 0) FROM outbox", NULL) == 1, "outbox");
    return n;
}

/* Random games through the engine, each order given as a mail would give
 * it (with a reply to its player, a turn mail to the others); now and then
 * an order that is refused naming a card or chip of the player's own. */
static void play_and_check(const char *module, int seats, int games, int max_steps)
{
    /* A sample (the sanitizers', one in NGOMA_TEST_SAMPLE) plays its share of the games. */
    games = t_sample(games);
    for (int n = 0; n < games; n++) {
        sqlite3 *db = t_db();
        struct game_rec g;
        struct rng r;
        t_new_game(db, module, seats, 300 + n, NULL, &g);
        rng_seed(&r, (uint64_t)n, 17);
        for (int step = 0; step < max_steps && g.ops->waiting_for(g.st); step++) {
            struct secrets s;
            struct submission sub = { 0 };
            struct mail_origin origin = { "test@example.org", NULL, 0, NULL };
            unsigned in = 0;
            int seat = -1;
            int64_t before = last_mail(db);
            int turn_before = g.turn;
            CHECK(game_missing(db, &g, &in) == 0, "missing");
            for (int i = 0; i < seats && seat < 0; i++)
                if (in & (1u << i))
                    seat = i;
            CHECK(seat >= 0, "nobody to play");
            secrets_take(&g, &s);
            char *order = bot_random(g.ops, g.st, seat, &g.table, rng_next(&r));
            struct strbuf text = STRBUF_INIT;
            /* A refused line that names one of the seat's own secrets. */
            if (rng_below(&r, 4) == 0 && s.of[seat].n)
                strbuf_addf(&text, "PLAY %s ON Atlantis\n", s.of[seat].v[rng_below(&r, (uint32_t)s.of[seat].n)]);
            strbuf_addstr(&text, order);
            CHECK(db_begin(db) == 0, "begin");
            CHECK(engine_submit(db, &g, seat, text.buf, "mail", 0, &sub) == 0, "submit");
            CHECK(notify_submission(db, &g, seat, &sub, &origin) == 0, "notify");
            CHECK(db_commit(db) == 0, "commit");
            /* What is hidden now (a card played this step is public). */
            secrets_release(&s, seats);
            secrets_take(&g, &s);
            assert_mails(db, &g, &s, before);
            assert_views_and_history(db, &g, &s, turn_before);
            if (g.ops->waiting_for(g.st)) {
                char *exp = export_text(db, turn_before);
                assert_clean(&g, &s, -1, exp, "the export views");
                free(exp);
            }
            secrets_release(&s, seats);
            submission_release(&sub);
            strbuf_release(&text);
            free(order);
        }
        game_unload(&g);
        db_close(db);
    }
}

START_TEST(african_empires_hands_stay_private)
{
    play_and_check("african-empires", 4, 6, 400);
}
END_TEST

START_TEST(bumuntu_shields_stay_private)
{
    play_and_check("bumuntu", 3, 6, 300);
}
END_TEST

/* Kalimambo's secret is the card each player has chosen this round until
 * all are in: whatever card Ann chooses, what everyone else sees or is
 * sent is the same. */
START_TEST(kalimambo_pending_cards_do_not_interfere)
{
    for (int n = 0; n < 20; n++) {
        sqlite3 *db = t_db();
        struct game_rec g;
        struct rng r;
        t_new_game(db, "kalimambo", 4, 500 + n, NULL, &g);
        rng_seed(&r, (uint64_t)n, 3);
        while (g.ops->waiting_for(g.st)) {
            struct strlist legal = STRLIST_INIT;
            char *seen[2][GAME_MAX_SEATS + 1] = { { NULL } };
            int64_t before = last_mail(db);
            g.ops->legal(g.st, 0, &g.table, &legal);
            CHECK(legal.n > 0, "no card");
            /* Ann chooses one card, then another: the others' world must not change. */
            for (int k = 0; k < 2; k++) {
                t_ok(db, &g, 0, legal.v[k == 0 ? 0 : legal.n - 1]);
                for (int viewer = -1; viewer < g.nseats; viewer++) {
                    if (viewer == 0)
                        continue;
                    struct strbuf b = STRBUF_INIT;
                    cJSON *j = view_json(db, &g, viewer);
                    char *json = jx_print(j);
                    CHECK(view_ascii(db, &g, viewer, &b) == 0 && history_render(db, &g, viewer, &b) == 0, "views");
                    strbuf_addstr(&b, json);
                    if (viewer < 0) {
                        /* An observer also reads the export views. */
                        char *exp = export_text(db, -1);
                        strbuf_addstr(&b, exp);
                        free(exp);
                    }
                    seen[k][viewer + 1] = strbuf_detach(&b);
                    free(json);
                    cJSON_Delete(j);
                }
            }
            for (int v = 0; v <= g.nseats; v++)
                if (v != 1) {
                    CHECK(str_eq(seen[0][v], seen[1][v]), "kalimambo: Ann's pending card changes what seat %d sees",
                          v - 1 + 1);
                    free(seen[0][v]);
                    free(seen[1][v]);
                }
            CHECK(last_mail(db) == before, "kalimambo: a pending card sent mail to someone");
            for (int s = 1; s < g.nseats; s++) {
                char *order = bot_random(g.ops, g.st, s, &g.table, rng_next(&r));
                if (g.ops->waiting_for(g.st) & (1u << s))
                    t_ok(db, &g, s, order);
                free(order);
            }
            strlist_clear(&legal);
        }
        game_unload(&g);
        db_close(db);
    }
}
END_TEST

Suite *secrets_suite(void)
{
    Suite *s = suite_create("secrets");
    TCase *tc = tcase_create("hidden-information");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, african_empires_hands_stay_private);
    tcase_add_test(tc, bumuntu_shields_stay_private);
    tcase_add_test(tc, kalimambo_pending_cards_do_not_interfere);
    suite_add_tcase(s, tc);
    return s;
}
