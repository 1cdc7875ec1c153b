/* check_mailflow.c: whole games of every kind played purely by mail, and every mail they send read as a player reads it: its subject, its thread, its lines. */
#include "test_support.h"

#include "judge/inbound.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "store/db.h"

#include <gmime/gmime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text part of a queued mail, and its headers, as a client shows them. */
struct shown {
    char *subject, *message_id, *references, *text;
};

static void shown_of(const char *mail, struct shown *s)
{
    GMimeStream *stream = g_mime_stream_mem_new_with_buffer(mail, strlen(mail));
    GMimeParser *parser = g_mime_parser_new_with_stream(stream);
    GMimeMessage *msg = g_mime_parser_construct_message(parser, NULL);
    GMimeObject *body, *plain;
    const char *refs;
    char *t;
    ck_assert_ptr_nonnull(msg);
    s->subject = xstrdup(g_mime_message_get_subject(msg));
    s->message_id = xstrdup(g_mime_message_get_message_id(msg));
    refs = g_mime_object_get_header(GMIME_OBJECT(msg), "References");
    s->references = xstrdup(refs ? refs : "");
    body = g_mime_message_get_mime_part(msg);
    plain = GMIME_IS_MULTIPART(body) ? g_mime_multipart_get_part(GMIME_MULTIPART(body), 0) : body;
    t = g_mime_text_part_get_text(GMIME_TEXT_PART(plain));
    s->text = xstrdup(t);
    g_free(t);
    g_object_unref(msg);
    g_object_unref(parser);
    g_object_unref(stream);
}

static void shown_release(struct shown *s)
{
    free(s->subject);
    free(s->message_id);
    free(s->references);
    free(s->text);
}

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

/* A player's answer to her latest mail: the orders at the top, the quote
 * of that mail below, to the reply address the mail gave. */
static void reply(sqlite3 *db, int64_t game, int seat, const char *orders, int n)
{
    char *secret = NULL, *email = NULL, *last = NULL;
    struct strbuf m = STRBUF_INIT;
    struct rawmsg raw;
    struct inbound_result r;
    ck_assert_int_eq(db_get_text(db, &secret, "SELECT secret FROM seats WHERE game_id = ? AND seat = ?", "Ii", game,
                                 seat + 1), 1);
    ck_assert_int_eq(db_get_text(db, &email, "SELECT email FROM seats WHERE game_id = ? AND seat = ?", "Ii", game,
                                 seat + 1), 1);
    ck_assert_int_ge(db_get_text(db, &last,
                                 "SELECT message_id FROM outbox WHERE game_id = ? AND seat = ? ORDER BY id DESC LIMIT 1",
                                 "Ii", game, seat + 1), 0);
    strbuf_addf(&m,
                "From: %s\nTo: ngoma+%lld-%d-%s@localhost\nSubject: Re: [ngoma %lld] x\nMessage-ID: <flow-%lld-%d@example.org>\n"
                "In-Reply-To: <%s>\nReferences: <ngoma.%lld.%d.welcome@localhost> <%s>\n\n%s\n\n"
                "On Tue, ngoma wrote:\n> the board\n",
                email, (long long)game, seat + 1, secret, (long long)game, (long long)game, n, last ? last : "x",
                (long long)game, seat + 1, last ? last : "x", orders);
    rawmsg_from_memory(m.buf, m.len, 1 << 20, &raw);
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(inbound_process(db, &raw, "test", &r), 0);
    ck_assert_int_eq(db_commit(db), 0);
    CHECK(r.status == INBOUND_PROCESSED, "game %lld: mail %d: %s", (long long)game, n, r.summary);
    rawmsg_release(&raw);
    free(secret);
    free(email);
    free(last);
    strbuf_release(&m);
}

static const struct {
    const char *game;
    int seats;
} flows[] = {
    { "kuniumi", 2 }, { "kalimambo", 4 }, { "bumuntu", 3 }, { "bantu", 3 }, { "african-empires", 4 },
};

START_TEST(whole_games_by_mail_read_as_a_player_reads_them)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct rng r;
    int n = 0;
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
            reply(db, g.id, s, t_pick(&legal, &r), ++n);
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
    suite_add_tcase(s, tc);
    return s;
}
