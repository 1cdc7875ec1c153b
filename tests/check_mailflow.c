/* check_mailflow.c: whole games of every kind played purely by mail, and every mail they send read as a player reads it: its subject, its thread, its lines. */
#include "test_support.h"

#include "judge/host.h"
#include "judge/inbound.h"
#include "judge/notify.h"
#include "judge/schedule.h"
#include "mail/send.h"
#include "store/settings.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "store/db.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every line of text within 72 columns (counted in characters). */
static void assert_fits(const char *what, const char *text)
{
    int line = 1;
    for (const char *p = text; *p; line++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        glong cols = g_utf8_strlen(p, (gssize)n);
        CHECK(cols <= 72, "%s: line %d has %ld columns: %.*s", what, line, (long)cols, (int)n, p);
        p += n + (nl ? 1 : 0);
    }
}

/* The status line must not come twice in a row of lines either. */
static void assert_no_line_twice(const char *what, const char *text)
{
    const char *prev = NULL;
    size_t prev_n = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n > 12 && prev && prev_n == n && memcmp(prev, p, n) == 0)
            ck_abort_msg("%s: the line \"%.*s\" comes twice", what, (int)n, p);
        if (n) {
            prev = p;
            prev_n = n;
        }
        p += n + (nl ? 1 : 0);
    }
}

/*
 * The seats' mails as a chain: each mail that tells steps tells from the
 * step after the last one its seat was told, up to the step it shows, and
 * holds what each of those steps said in public. A seat is mailed, beside
 * the answers to her own mails and her digests, only when she must act and
 * once at the end (unless she asked for MAIL EVERY): at most one such mail
 * for each order she then gives, plus one.
 */
static void assert_every_step_told(sqlite3 *db, const struct game_rec *g)
{
    for (int seat = 1; seat <= g->nseats; seat++) {
        sqlite3_stmt *st = db_stmt(db,
                                   "SELECT id, kind, step, told_from, mail FROM outbox WHERE game_id = ? AND seat = ?"
                                   " AND told_from IS NOT NULL ORDER BY id",
                                   "Ii", g->id, seat);
        int told = 0, rc, unasked = 0;
        int64_t orders;
        while ((rc = db_step(st)) == SQLITE_ROW) {
            const char *kind = (const char *)sqlite3_column_text(st, 1);
            int step = sqlite3_column_int(st, 2), from = sqlite3_column_int(st, 3);
            struct shown s;
            char *text;
            CHECK(from == told + 1, "%s seat %d: its %s mail %lld tells from step %d, its last mail told to %d",
                  g->ops->name, seat, kind, (long long)sqlite3_column_int64(st, 0), from, told);
            shown_of((const char *)sqlite3_column_text(st, 4), &s);
            text = t_flat(s.text);
            for (int k = from; k <= step; k++) {
                char *log = NULL, *want;
                ck_assert_int_eq(db_get_text(db, &log, "SELECT log FROM turns WHERE game_id = ? AND turn = ? AND"
                                                       " rolled_back = 0", "Ii", g->id, k), 1);
                want = t_flat(log);
                CHECK(!*want || strstr(text, want) != NULL, "%s seat %d: its %s mail of step %d lacks step %d: %s\n%s",
                      g->ops->name, seat, kind, step, k, want, s.text);
                free(want);
                free(log);
            }
            unasked += !str_eq(kind, "reply") && !str_eq(kind, "help") && !str_eq(kind, "digest");
            told = step;
            free(text);
            shown_release(&s);
        }
        db_finalize(st);
        ck_assert_int_eq(rc, SQLITE_DONE);
        ck_assert_int_eq(db_get_int64(db, &orders,
                                      "SELECT count(DISTINCT message_id) FROM orders WHERE game_id = ? AND seat = ?"
                                      " AND status = 'accepted' AND message_id IS NOT NULL",
                                      "Ii", g->id, seat), 1);
        CHECK(unasked <= orders + 1 || str_eq(g->seats[seat - 1].mail_policy, "every"), "%s seat %d: %d mails it did not ask for, for %lld mails of orders",
              g->ops->name, seat, unasked, (long long)orders);
    }
}

static const struct {
    const char *game;
    int seats;
} flows[] = {
    { "kuniumi", 2 }, { "kalimambo", 4 }, { "bumuntu", 3 }, { "bantu", 3 }, { "african-empires", 4 },
    { "african-empires", 6 },
};

START_TEST(whole_games_by_mail_read_as_a_player_reads_them)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct rng r;
    int n = 0;
    if (_i == 0) {
        const char *names[ARRAY_SIZE(flows)];
        for (size_t i = 0; i < ARRAY_SIZE(flows); i++)
            names[i] = flows[i].game;
        t_covers_registry("the games played by mail", names, ARRAY_SIZE(flows));
    }
    t_new_game(db, flows[_i].game, flows[_i].seats, 77, NULL, &g);
    rng_seed(&r, 77, 1);
    /* Every order by mail, each player answering her latest mail. */
    for (unsigned w; (w = g.ops->waiting_for(g.st)) && n < 3000;) {
        for (int s = 0; s < g.nseats; s++) {
            struct strlist legal = STRLIST_INIT;
            if (!(w & (1u << s)))
                continue;
            g.ops->legal(g.st, s, &g.table, &legal);
            ck_assert_uint_gt(legal.n, 0);
            if (++n % 9 == 0) {
                /* Now and then a mail a player writes in a hurry: a typo,
                 * a wrong setting, LEGAL, then the order. */
                char text[256];
                snprintf(text, sizeof(text), "XYZZY 99 over there\nMAIL sometimes please\nLEGAL\n%s",
                         t_pick(&legal, &r));
                t_reply_mail(db, g.id, s, text, n);
            } else {
                t_reply_mail(db, g.id, s, t_pick(&legal, &r), n);
            }
            strlist_clear(&legal);
            game_unload(&g);
            ck_assert_int_eq(game_load(db, 1, &g), 0);
            if (g.ops->waiting_for(g.st) != w)
                break;
        }
    }
    ck_assert_str_eq(g.status, "finished");
    /* Every mail: one stable subject per seat, its thread in order (the
     * seat's welcome first, the mail it answers last), every line within
     * 72 columns, nothing said twice in a row. */
    sqlite3_stmt *st = db_stmt(db, "SELECT seat, mail, kind, coalesce((SELECT message_id FROM messages m WHERE"
                                   " m.id = outbox.in_reply_to), '') FROM outbox WHERE seat IS NOT NULL ORDER BY id",
                               NULL);
    char want[64];
    snprintf(want, sizeof(want), "[ngoma 1] %s", g.ops->title);
    int rc, mails = 0;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        struct shown s;
        char what[96], root[96];
        int seat = sqlite3_column_int(st, 0);
        const char *kind = (const char *)sqlite3_column_text(st, 2), *answers = (const char *)sqlite3_column_text(st, 3);
        shown_of((const char *)sqlite3_column_text(st, 1), &s);
        snprintf(what, sizeof(what), "%s mail %d (%s to seat %d)", g.ops->name, ++mails, kind, seat);
        CHECK(str_eq(s.subject, want), "%s: subject \"%s\", not \"%s\"", what, s.subject, want);
        snprintf(root, sizeof(root), "ngoma.1.%d.welcome@localhost", seat);
        if (!str_eq(kind, "welcome")) {
            CHECK(strncmp(s.references, "<", 1) == 0 && strncmp(s.references + 1, root, strlen(root)) == 0,
                  "%s: References \"%s\" does not start with the welcome", what, s.references);
            if (*answers && !str_eq(kind, "refused")) {
                size_t la = strlen(answers), lr = strlen(s.references);
                CHECK(lr > la + 1 && strncmp(s.references + lr - la - 1, answers, la) == 0,
                      "%s: References \"%s\" does not end with the mail answered, %s", what, s.references, answers);
            }
        }
        assert_fits(what, s.text);
        assert_no_line_twice(what, s.text);
        shown_release(&s);
    }
    db_finalize(st);
    ck_assert_int_eq(rc, SQLITE_DONE);
    ck_assert_int_gt(mails, n);
    assert_every_step_told(db, &g);
    {
        struct game_when w;
        int64_t news, acts;
        game_when_of(g.ops, g.st, &g.table, g.turn, &w);
        ck_assert_int_eq(db_get_int64(db, &news,
                                      "SELECT count(*) FROM outbox WHERE seat IS NOT NULL AND kind NOT IN"
                                      " ('reply', 'help', 'refused', 'limit', 'welcome')", NULL), 1);
        ck_assert_int_eq(db_get_int64(db, &acts, "SELECT count(*) FROM orders WHERE status = 'accepted'", NULL), 1);
        if (getenv("NGOMA_SHOW_MAIL")) {
            /* One "your turn" mail from the middle of the game, as she reads it. */
            char *mail = NULL;
            ck_assert_int_ge(db_get_text(db, &mail,
                                         "SELECT mail FROM outbox WHERE kind = 'turn' AND seat = 1 ORDER BY id"
                                         " LIMIT 1 OFFSET (SELECT count(*) / 2 FROM outbox WHERE kind = 'turn' AND seat = 1)",
                                         NULL), 0);
            if (mail) {
                struct shown s;
                shown_of(mail, &s);
                printf("---- %s, %d seats: Subject: %s\n%s\n----\n", g.ops->name, g.nseats, s.subject, s.text);
                shown_release(&s);
            }
            free(mail);
        }
        /* Never more than one unasked mail a seat each time she must act:
         * in African Empires, three a game turn. */
        if (str_eq(g.ops->name, "african-empires"))
            CHECK((double)news / g.nseats / w.number <= 3.0, "%.1f mails a seat a turn",
                  (double)news / g.nseats / w.number);
        printf("mailflow: %s, %d seats: %d %ss, %lld mails a seat not answers (%.1f a seat a %s), %lld orders a seat\n",
               g.ops->name, g.nseats, w.number, w.unit, (long long)news / g.nseats,
               (double)news / g.nseats / (w.number ? w.number : 1), w.unit, (long long)acts / g.nseats);
    }
    game_unload(&g);
    db_close(db);
}
END_TEST

static int64_t count_of(sqlite3 *db, const char *kind, int seat)
{
    int64_t n;
    ck_assert_int_eq(db_get_int64(db, &n, "SELECT count(*) FROM outbox WHERE kind = ? AND seat = ?", "si", kind, seat),
                     1);
    return n;
}

/* The one whose turn it is in a sequential game answers her latest mail
 * with her first legal order. */
static void play_one(sqlite3 *db, struct game_rec *g, int *n)
{
    struct strlist legal = STRLIST_INIT;
    unsigned w = g->ops->waiting_for(g->st);
    int s = __builtin_ctz(w);
    g->ops->legal(g->st, s, &g->table, &legal);
    t_reply_mail(db, g->id, s, legal.v[0], ++*n);
    strlist_clear(&legal);
    game_unload(g);
    ck_assert_int_eq(game_load(db, 1, g), 0);
}

START_TEST(each_seat_is_mailed_as_it_chose)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct schedule_stats st;
    struct strbuf status = STRBUF_INIT;
    int n = 0;
    setenv("NGOMA_NOW", "2026-12-01T10:00:00Z", 1);
    t_new_game(db, "bantu", 3, 5, NULL, &g);
    t_reply_mail(db, g.id, 1, "MAIL EVERY", ++n);
    t_reply_mail(db, g.id, 2, "MAIL DIGEST 1d", ++n);
    game_unload(&g);
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    ck_assert_int_eq(host_status(db, &g, viewer_of(VIEWER_SHELL), "en", &status), 0);
    ck_assert_msg(strstr(status.buf, "1 Ann <") && strstr(status.buf, ", MAIL TURN") &&
                      strstr(status.buf, ", MAIL EVERY") && strstr(status.buf, ", MAIL DIGEST 1d"),
                  "%s", status.buf);
    /* Three rounds, each player in turn. */
    for (int i = 0; i < 9; i++)
        play_one(db, &g, &n);
    /* MAIL TURN (Ann): a mail each time she must act after the others. */
    ck_assert_int_eq(count_of(db, "turn", 1), 3);
    /* MAIL EVERY (Bob): a mail for every step of the others. */
    ck_assert_int_eq(count_of(db, "turn", 2), 6);
    /* MAIL DIGEST (Cleo): a mail when she must act, none between. */
    ck_assert_int_eq(count_of(db, "turn", 3), 3);
    /* Play on until Cleo has news no mail told her (the one after her has
     * moved: she need not act yet). */
    for (int i = 0; i < 3 && g.seats[2].told_step >= g.turn; i++)
        play_one(db, &g, &n);
    ck_assert_int_lt(g.seats[2].told_step, g.turn);
    memset(&st, 0, sizeof(st));
    setenv("NGOMA_NOW", "2026-12-01T20:00:00Z", 1);
    ck_assert_int_eq(schedule_digests(db, &st), 0);
    ck_assert_int_eq(st.digests, 0);
    setenv("NGOMA_NOW", "2026-12-02T10:00:01Z", 1);
    ck_assert_int_eq(schedule_digests(db, &st), 0);
    ck_assert_int_eq(st.digests, 1);
    ck_assert_int_eq(count_of(db, "digest", 3), 1);
    ck_assert_int_eq(schedule_digests(db, &st), 0);
    ck_assert_int_eq(st.digests, 1);
    assert_every_step_told(db, &g);
    unsetenv("NGOMA_NOW");
    strbuf_release(&status);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* Stops after its second question: a sender asked to stop. */
static bool stop_after_two(void *arg)
{
    int *asked = arg;
    return ++*asked > 2;
}

/* A sender asked to stop (ngoma serve's SIGTERM) sends the mail under way
 * and leaves the rest queued for the next start. */
START_TEST(a_stopped_sender_leaves_the_rest_queued)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct send_stats st;
    struct strbuf err = STRBUF_INIT;
    char dir[] = "/tmp/ngoma-stop.XXXXXX";
    int asked = 0;
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(setting_set(db, "outbox_dir", dir, &err), 0);
    ck_assert_int_eq(setting_set(db, "images", "no", &err), 0);
    t_new_game(db, "bantu", 4, 4, NULL, &g);
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(notify_welcome(db, &g), 0);
    ck_assert_int_eq(db_commit(db), 0);
    outbox_send_stop_when(stop_after_two, &asked);
    ck_assert_int_eq(outbox_send(db, NULL, &st), 0);
    outbox_send_stop_when(NULL, NULL);
    ck_assert(st.stopped);
    ck_assert_int_eq(st.sent, 2);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM outbox WHERE status = 'queued'"), 2);
    ck_assert_int_eq(outbox_send(db, NULL, &st), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM outbox WHERE status = 'queued'"), 0);
    {
        struct strbuf rm = STRBUF_INIT;
        strbuf_addf(&rm, "rm -rf '%s'", dir);
        ck_assert_int_eq(system(rm.buf), 0);
        strbuf_release(&rm);
    }
    strbuf_release(&err);
    game_unload(&g);
    db_close(db);
}
END_TEST

Suite *mailflow_suite(void)
{
    Suite *s = suite_create("mailflow");
    TCase *tc = tcase_create("mailflow");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, whole_games_by_mail_read_as_a_player_reads_them, 0, (int)ARRAY_SIZE(flows));
    tcase_add_test(tc, each_seat_is_mailed_as_it_chose);
    tcase_add_test(tc, a_stopped_sender_leaves_the_rest_queued);
    suite_add_tcase(s, tc);
    return s;
}
