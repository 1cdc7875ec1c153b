/* check_main.c: runs every Check suite of ngoma and the helpers they share. */
#include "test_support.h"
#include "games/tally.h"
#include "judge/host.h"
#include "judge/inbound.h"

#include "store/db.h"
#include "store/settings.h"
#include "lib/jsonx.h"
#include "lib/rng.h"
#include "lib/util.h"

#include <gmime/gmime.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A database of the current schema, made once by main before the tests
 * fork: every test's own database starts as a copy of it. Migrating a
 * fresh database (23 migrations, the schema parsed again after each) is
 * most of a short test's time, under the sanitizers a fifth of a second.
 * (A copy by sqlite3_backup: a database sqlite3_deserialize fills says
 * it has a file, "x", and the strong bots would share their budget in
 * x.bots of the current folder.) */
static sqlite3 *schema_db;

static void schema_db_make(void)
{
    if (!(schema_db = db_open(":memory:"))) {
        fprintf(stderr, "check_ngoma: cannot make the database every test starts from\n");
        exit(EXIT_FAILURE);
    }
}

sqlite3 *t_db(void)
{
    /* A connection as db_open makes it (a script in place of the
     * migrations), then the pages of the migrated schema. */
    sqlite3 *db = db_open_side(":memory:", "SELECT 1;", true);
    sqlite3_backup *copy;
    struct strbuf err = STRBUF_INIT;
    ck_assert_ptr_nonnull(db);
    ck_assert_ptr_nonnull(copy = sqlite3_backup_init(db, "main", schema_db, "main"));
    ck_assert_int_eq(sqlite3_backup_step(copy, -1), SQLITE_DONE);
    ck_assert_int_eq(sqlite3_backup_finish(copy), SQLITE_OK);
    ck_assert_str_eq(sqlite3_db_filename(db, "main"), "");
    /* The suites' bots play at once, in the caller's transaction: the
     * strong one (a search outside the lock) has tests of its own. */
    ck_assert_int_eq(setting_set(db, "bot_level", "easy", &err), 0);
    strbuf_release(&err);
    return db;
}

void t_new_game(sqlite3 *db, const char *module, int n, int64_t seed, const char *options_json,
                struct game_rec *g)
{
    static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal" };
    const char *emails[8];
    char buf[8][32];
    struct strbuf err = STRBUF_INIT;
    cJSON *opts = options_json ? cJSON_Parse(options_json) : cJSON_CreateObject();
    int64_t id;

    for (int i = 0; i < n; i++) {
        snprintf(buf[i], sizeof(buf[i]), "%s@example.org", names[i]);
        emails[i] = buf[i];
    }
    ck_assert_int_eq(db_begin(db), 0);
    int rc = engine_new(db, game_find(module), n, names, emails, opts, seed, true, &id, &err);
    ck_assert_msg(rc == 0, "engine_new: %s", err.buf);
    ck_assert_int_eq(db_commit(db), 0);
    ck_assert_int_eq(game_load(db, id, g), 0);
    cJSON_Delete(opts);
    strbuf_release(&err);
}

void t_submit(sqlite3 *db, struct game_rec *g, int seat, const char *text, struct submission *s)
{
    memset(s, 0, sizeof(*s));
    CHECK(db_begin(db) == 0, "begin");
    CHECK(engine_submit(db, g, seat, text, "test", 0, s) == 0, "engine_submit failed");
    CHECK(db_commit(db) == 0, "commit");
}

void t_ok(sqlite3 *db, struct game_rec *g, int seat, const char *order)
{
    struct submission s;
    t_submit(db, g, seat, order, &s);
    CHECK(s.n == 1, "order \"%s\" gave %zu lines", order, s.n);
    CHECK(s.lines[0].status == LINE_ACCEPTED || s.lines[0].status == LINE_PENDING,
          "order \"%s\" of seat %d was refused: %s", order, seat, s.lines[0].body.buf);
    submission_release(&s);
}

int t_check(const struct game_ops *ops, const void *st, int seat, const char *order, struct strbuf *why)
{
    struct strbuf canon = STRBUF_INIT;
    int rc = ops->check(st, seat, NULL, order, &canon, why);
    strbuf_release(&canon);
    return rc;
}

char *t_play(const struct game_ops *ops, void *st, const struct game_table *t, int seat, const char *order)
{
    struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
    struct game_log log;
    const char *orders[GAME_MAX_SEATS] = { NULL };
    ck_assert_msg(ops->check(st, seat, t, order, &canon, &why) == 0, "\"%s\" refused: %s", order, why.buf);
    orders[seat] = canon.buf;
    game_log_init(&log);
    ck_assert_int_eq(ops->advance(st, orders, t, &log), 0);
    char *text = xstrdup(log.pub.buf);
    game_log_release(&log);
    strbuf_release(&canon);
    strbuf_release(&why);
    return text;
}

void t_refused(const struct game_ops *ops, const void *st, const struct game_table *t, int seat, const char *order,
               const char *reason)
{
    struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
    ck_assert_msg(ops->check(st, seat, t, order, &canon, &why) == -1, "\"%s\" was accepted", order);
    ck_assert_msg(strstr(why.buf, reason) != NULL, "\"%s\": reason \"%s\" lacks \"%s\"", order, why.buf, reason);
    strbuf_release(&canon);
    strbuf_release(&why);
}

void *t_state(const struct game_ops *ops, const char *json)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *j = cJSON_Parse(json);
    void *st;
    ck_assert_msg(j != NULL, "bad JSON in test: %s", json);
    st = ops->from_json(j, &err);
    ck_assert_msg(st != NULL, "state refused: %s", err.buf);
    cJSON_Delete(j);
    strbuf_release(&err);
    return st;
}

const char *t_pick(const struct strlist *legal, struct rng *r)
{
    struct strlist verbs = STRLIST_INIT;
    const char *chosen = NULL;
    for (size_t i = 0; i < legal->n; i++) {
        size_t n = strcspn(legal->v[i], " ");
        char *verb = xstrndup(legal->v[i], n);
        if (!strlist_contains(&verbs, verb))
            strlist_push(&verbs, verb);
        free(verb);
    }
    const char *verb = verbs.v[rng_below(r, (uint32_t)verbs.n)];
    size_t vlen = strlen(verb), count = 0, k;
    for (size_t i = 0; i < legal->n; i++)
        count += strncmp(legal->v[i], verb, vlen) == 0 && (legal->v[i][vlen] == ' ' || !legal->v[i][vlen]);
    k = rng_below(r, (uint32_t)count);
    for (size_t i = 0; i < legal->n && !chosen; i++)
        if (strncmp(legal->v[i], verb, vlen) == 0 && (legal->v[i][vlen] == ' ' || !legal->v[i][vlen]) && k-- == 0)
            chosen = legal->v[i];
    strlist_clear(&verbs);
    return chosen;
}

long long t_count(sqlite3 *db, const char *sql)
{
    int64_t n = -1;
    ck_assert_int_eq(db_get_int64(db, &n, sql, NULL), 1);
    return n;
}

/* ---- mail to the lobby, and what it answers ---- */

static int sent_n;

struct inbound_result t_mail_to(sqlite3 *db, const char *from, const char *to, const char *subject, const char *body,
                                const char *headers)
{
    struct strbuf m = STRBUF_INIT;
    struct rawmsg raw;
    struct inbound_result r;
    strbuf_addf(&m, "From: %s\nTo: %s\nSubject: %s\nMessage-ID: <lobby-%d@example.org>\n%s\n%s\n", from, to, subject,
                ++sent_n, headers ? headers : "", body);
    rawmsg_from_memory(m.buf, m.len, 1 << 20, &raw);
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(inbound_process(db, &raw, "test", &r), 0);
    ck_assert_int_eq(db_commit(db), 0);
    rawmsg_release(&raw);
    strbuf_release(&m);
    return r;
}

struct inbound_result t_lobby(sqlite3 *db, const char *from, const char *subject, const char *body)
{
    return t_mail_to(db, from, "ngoma@localhost", subject, body, NULL);
}

struct inbound_result t_seat_mail(sqlite3 *db, const struct game_rec *g, int seat, const char *from, const char *body)
{
    char to[128], subject[96];
    snprintf(to, sizeof(to), "ngoma+%lld-%d-%s@localhost", (long long)g->id, seat + 1, g->seats[seat].secret);
    snprintf(subject, sizeof(subject), "Re: [ngoma %lld] %s", (long long)g->id, g->ops->title);
    return t_mail_to(db, from, to, subject, body, NULL);
}

int64_t t_mails_to(sqlite3 *db, const char *to, const char *kind)
{
    int64_t n;
    ck_assert_int_eq(db_get_int64(db, &n, "SELECT count(*) FROM outbox WHERE rcpt = ? AND (? IS NULL OR kind = ?)",
                                  "sss", to, kind, kind),
                     1);
    return n;
}

const char *t_want_kind;

/* The last mail to an address, as its reader sees it. */
static void last_to(sqlite3 *db, const char *to, struct shown *s)
{
    char *mail = NULL;
    ck_assert_int_eq(db_get_text(db, &mail,
                                 "SELECT mail FROM outbox WHERE rcpt = ? AND (? IS NULL OR kind = ?) ORDER BY id DESC"
                                 " LIMIT 1",
                                 "sss", to, t_want_kind, t_want_kind),
                     1);
    shown_of(mail, s);
    free(mail);
}

bool t_last_has(sqlite3 *db, const char *to, const char *text)
{
    struct shown s;
    last_to(db, to, &s);
    char *f = t_flat(s.text);
    bool yes = strstr(f, text) != NULL || strstr(s.subject, text) != NULL;
    free(f);
    if (!yes)
        fprintf(stderr, "the last mail to %s lacks \"%s\":\nSubject: %s\n%s\n", to, text, s.subject, s.text);
    shown_release(&s);
    return yes;
}

char *t_token_of(sqlite3 *db, const char *to, const char *word)
{
    struct shown s;
    const char *p;
    char *t;
    last_to(db, to, &s);
    p = strstr(s.subject, word);
    ck_assert_msg(p != NULL, "no \"%s\" in \"%s\"", word, s.subject);
    p += strlen(word) + 1;
    t = xstrndup(p, strcspn(p, ") "));
    shown_release(&s);
    return t;
}

sqlite3 *t_lobby_db(const char *mode)
{
    sqlite3 *db = t_db();
    struct strbuf err = STRBUF_INIT;
    ck_assert_int_eq(setting_set(db, "lobby", mode, &err), 0);
    strbuf_release(&err);
    return db;
}

void t_confirmed(sqlite3 *db, const char *addr)
{
    char *t;
    t_lobby(db, addr, "hello", "MYGAMES");
    t = t_token_of(db, addr, "confirm");
    char subject[64];
    snprintf(subject, sizeof(subject), "Re: [ngoma] Lobby: confirm %s", t);
    t_lobby(db, addr, subject, "thanks");
    free(t);
    int64_t n;
    ck_assert_int_eq(db_get_int64(db, &n, "SELECT count(*) FROM lobby_addresses WHERE confirmed_at IS NOT NULL AND"
                                          " address = ?", "s", addr), 1);
    ck_assert_msg(n == 1, "%s is not confirmed", addr);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        Suite *(*make)(void);
    } suites[] = {
        { "util", util_suite },
        { "template", template_suite },
        { "languages", languages_suite },
        { "wordsleft", wordsleft_suite },
        { "db", db_suite },
        { "engine", engine_suite },
        { "kuniumi", kuniumi_suite },
        { "kalimambo", kalimambo_suite },
        { "bumuntu", bumuntu_suite },
        { "bantu", bantu_suite },
        { "african-empires", african_empires_suite },
        { "bots", bots_suite },
        { "secrets", secrets_suite },
        { "mail", mail_suite },
        { "conformance", conformance_suite },
        { "termination", termination_suite },
        { "mailflow", mailflow_suite },
        { "public", public_suite },
        { "lobby", lobby_suite },
        { "trust", trust_suite },
        { "replies", replies_suite },
        { "render", render_suite },
        { "lmtp", lmtp_suite },
        { "rating", rating_suite },
        { "press", press_suite },
        { "knowing", knowing_suite },
        { "oracle", oracle_suite },
        { "seats", seats_suite },
        { "plans", plans_suite },
    };
    SRunner *sr = srunner_create(NULL);
    int failed;

    setenv("NGOMA_BUSY_TIMEOUT_MS", "2000", 0);
    game_register_extra(&tally_ops);
    /* check_ngoma [SUITE...] runs those suites, check_ngoma --except
     * SUITE... all the others, check_ngoma --list names them all;
     * CK_RUN_SUITE / CK_RUN_CASE in the environment pick one suite or case. */
    bool except = argc > 1 && str_eq(argv[1], "--except");
    if (argc == 2 && str_eq(argv[1], "--list")) {
        for (size_t i = 0; i < ARRAY_SIZE(suites); i++)
            printf("%s\n", suites[i].name);
        srunner_free(sr);
        return EXIT_SUCCESS;
    }
    for (int a = except ? 2 : 1; a < argc; a++) {
        bool known = false;
        for (size_t i = 0; i < ARRAY_SIZE(suites); i++)
            known |= str_eq(argv[a], suites[i].name);
        if (!known) {
            fprintf(stderr, "check_ngoma: no suite is called \"%s\" (check_ngoma --list names them)\n", argv[a]);
            srunner_free(sr);
            return EXIT_FAILURE;
        }
    }
    for (size_t i = 0; i < ARRAY_SIZE(suites); i++) {
        bool named = false;
        for (int a = except ? 2 : 1; a < argc; a++)
            named |= str_eq(argv[a], suites[i].name);
        if (argc == 1 || named != except)
            srunner_add_suite(sr, suites[i].make());
    }
    schema_db_make();
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    db_close(schema_db);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The first text/html part under o, NULL for none. */
static GMimeObject *html_part(GMimeObject *o)
{
    if (GMIME_IS_MULTIPART(o)) {
        for (int i = 0; i < g_mime_multipart_get_count(GMIME_MULTIPART(o)); i++) {
            GMimeObject *h = html_part(g_mime_multipart_get_part(GMIME_MULTIPART(o), i));
            if (h)
                return h;
        }
        return NULL;
    }
    return GMIME_IS_TEXT_PART(o) && g_mime_content_type_is_type(g_mime_object_get_content_type(o), "text", "html")
               ? o
               : NULL;
}

/* The words an HTML part shows: its tags, the quotes of her own mail
 * (their boxes) and its comments left out, entities read. */
static char *html_words(const char *html)
{
    struct strbuf b = STRBUF_INIT;
    static const char *const entities[][2] = { { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
                                               { "&#39;", "'" },  { "&nbsp;", " " } };
    const char *body = strstr(html, "<body");
    for (const char *p = body ? body : html; *p;) {
        if (strncmp(p, "<div style=\"margin:0 0 6px 0;padding:2px 0 2px 10px;border-left", 62) == 0) {
            const char *e = strstr(p, "</div>");
            p = e ? e + 6 : p + strlen(p);
            continue;
        }
        if (*p == '<') {
            const char *e = strchr(p, '>');
            strbuf_addch(&b, ' ');
            p = e ? e + 1 : p + strlen(p);
            continue;
        }
        if (*p == '&') {
            size_t k = 0;
            for (; k < sizeof(entities) / sizeof(entities[0]); k++)
                if (strncmp(p, entities[k][0], strlen(entities[k][0])) == 0)
                    break;
            if (k < sizeof(entities) / sizeof(entities[0])) {
                strbuf_addstr(&b, entities[k][1]);
                p += strlen(entities[k][0]);
                continue;
            }
        }
        strbuf_addch(&b, *p++);
    }
    return strbuf_detach(&b);
}

/* The text part of a queued mail, and its headers, as a client shows them. */
void shown_of(const char *mail, struct shown *s)
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
    {
        GMimeObject *h = html_part(body);
        char *html = h ? g_mime_text_part_get_text(GMIME_TEXT_PART(h)) : NULL;
        s->html = html ? html_words(html) : xstrdup("");
        g_free(html);
    }
    g_object_unref(msg);
    g_object_unref(parser);
    g_object_unref(stream);
}

void shown_release(struct shown *s)
{
    free(s->subject);
    free(s->message_id);
    free(s->references);
    free(s->text);
    free(s->html);
}

/* The mail as its reader sees it: quoted-printable soft breaks and
 * escapes undone (a card's name may be cut across two lines). */
char *t_readable(const char *mail)
{
    struct strbuf b = STRBUF_INIT;
    for (const char *p = mail; *p; p++) {
        if (p[0] == '=' && p[1] == '\r' && p[2] == '\n') {
            p += 2;
        } else if (p[0] == '=' && p[1] == '\n') {
            p += 1;
        } else if (p[0] == '=' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2])) {
            char hex[3] = { p[1], p[2], 0 };
            strbuf_addch(&b, (char)strtol(hex, NULL, 16));
            p += 2;
        } else {
            strbuf_addch(&b, *p);
        }
    }
    return strbuf_detach(&b);
}

char *t_last_text(sqlite3 *db, const char *to, const char *kind)
{
    char *mail = NULL, *text;
    struct shown s;
    ck_assert_msg(db_get_text(db, &mail, "SELECT mail FROM outbox WHERE rcpt = ? AND kind = ? ORDER BY id DESC LIMIT 1",
                              "ss", to, kind) == 1,
                  "no %s mail to %s", kind, to);
    shown_of(mail, &s);
    text = t_flat(s.text);
    shown_release(&s);
    free(mail);
    return text;
}

static int sample_k(void)
{
    const char *v = getenv("NGOMA_TEST_SAMPLE");
    long long k;
    return v && parse_int(v, 1, 1000, &k) ? (int)k : 1;
}

int t_sample(int full)
{
    int n = full / sample_k();
    return n > 0 ? n : 1;
}

bool t_sampled(void)
{
    return sample_k() > 1;
}

void t_covers_registry(const char *what, const char *const *names, size_t n)
{
    for (size_t i = 0; game_registry[i]; i++) {
        bool in = false;
        for (size_t k = 0; k < n && !in; k++)
            in = str_eq(names[k], game_registry[i]->name);
        ck_assert_msg(in, "%s leaves out %s, a game of the registry", what, game_registry[i]->name);
    }
}

char *t_reply_to(const char *mail)
{
    const char *p = strstr(mail, "\nReply-To:"), *lt, *gt;
    ck_assert_msg(p != NULL, "no Reply-To in:\n%.400s", mail);
    lt = strchr(p, '<');
    gt = lt ? strchr(lt, '>') : NULL;
    ck_assert(lt && gt);
    return xstrndup(lt + 1, (size_t)(gt - lt - 1));
}

char *t_flat(const char *text)
{
    struct strbuf sb = STRBUF_INIT;
    for (const char *p = text; *p; p++) {
        if (*p == ' ' || *p == '\n' || *p == '\t') {
            if (sb.len && sb.buf[sb.len - 1] != ' ')
                strbuf_addch(&sb, ' ');
        } else {
            strbuf_addch(&sb, *p);
        }
    }
    return strbuf_detach(&sb);
}

/* A player's answer to her latest mail: the orders at the top, the quote
 * of that mail below, to the reply address the mail gave. */
void t_reply_mail(sqlite3 *db, int64_t game, int seat, const char *orders, int n)
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

int t_host(sqlite3 *db, struct game_rec *g, const char *line, struct strbuf *out)
{
    int rc;
    strbuf_reset(out);
    ck_assert_int_eq(db_begin(db), 0);
    rc = host_command(db, g, viewer_of(VIEWER_SHELL), "en", line, out);
    ck_assert_int_eq(db_commit(db), 0);
    t_reload(db, g);
    return rc;
}

void t_reload(sqlite3 *db, struct game_rec *g)
{
    int64_t id = g->id;
    game_unload(g);
    ck_assert_int_eq(game_load(db, id, g), 0);
}
