/* check_oracle.c: the planted-secret oracle: games of every kind, anonymous with grey press and named with full press, whose names, addresses and messages carry unique markers, played by mail with press, votes, replies and a bot; every output each viewer can reach is scanned for what that viewer may not know. */
#include "test_support.h"

#include "core/bot.h"
#include "core/engine.h"
#include "core/verify.h"
#include "core/visibility.h"
#include "judge/host.h"
#include "judge/notify.h"
#include "judge/press.h"
#include "site/site.h"
#include "lib/jsonx.h"
#include "lib/paths.h"
#include "lib/util.h"
#include "store/db.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define ORACLE_STEPS 14   /* steps played a game (fewer when it ends first) */
#define ORACLE_MARKS 16   /* press messages a game at most */

/* A press message planted in the game: its marker, its writer, whom it
 * reached. */
struct planted {
    char mark[32];
    int writer;
    unsigned to;
    bool grey;
};

struct oracle {
    sqlite3 *db;
    struct game_rec g;
    bool anonymous, grey;
    char names[GAME_MAX_SEATS][24]; /* the names the players gave: markers */
    char addrs[GAME_MAX_SEATS][48]; /* their addresses: markers */
    struct planted press[ORACLE_MARKS];
    int npress;
    long outputs;   /* outputs scanned */
    long checks;    /* marker checks made */
};

static const char *seat_addr(const struct oracle *o, int s, struct strbuf *sb)
{
    strbuf_reset(sb);
    strbuf_addf(sb, "ngoma+%lld-%d-%s@localhost", (long long)o->g.id, s + 1, o->g.seats[s].secret);
    return sb->buf;
}

static void reload(struct oracle *o)
{
    int64_t id = o->g.id;
    game_unload(&o->g);
    ck_assert_int_eq(game_load(o->db, id, &o->g), 0);
}

/* text, read by viewer (a seat, or -1 for the public and the host by
 * mail), holds nothing that viewer may not know. */
static void assert_knows(struct oracle *o, int viewer, const char *text, const char *what)
{
    bool running = !str_eq(game_status_of(o->g.ops, o->g.st), "finished");
    o->outputs++;
    for (int s = 0; s < o->g.nseats; s++) {
        if (s == viewer)
            continue;
        /* No player reads another's address; no one the person behind a
         * running anonymous game's title. */
        o->checks += 2;
        CHECK(!str_casestr(text, o->addrs[s]), "%s %s, read by seat %d, holds seat %d's address %s:\n%s",
              o->g.ops->name, what, viewer + 1, s + 1, o->addrs[s], text);
        CHECK(!(o->anonymous && running && strstr(text, o->names[s])),
              "%s %s, read by seat %d, names the person behind seat %d (%s):\n%s", o->g.ops->name, what, viewer + 1,
              s + 1, o->names[s], text);
    }
    for (int i = 0; i < o->npress; i++) {
        const struct planted *p = &o->press[i];
        bool reached = viewer >= 0 && (viewer == p->writer || ((p->to >> viewer) & 1));
        o->checks++;
        CHECK(reached || !strstr(text, p->mark), "%s %s, read by seat %d, holds press %s it was not sent:\n%s",
              o->g.ops->name, what, viewer + 1, p->mark, text);
    }
}

/* Grey press: the mail that carries a grey message names its writer
 * nowhere, nor every other recipient (which would leave her out). */
static void assert_grey_mail(struct oracle *o, int reader, const char *text)
{
    for (int i = 0; i < o->npress; i++) {
        const struct planted *p = &o->press[i];
        if (!p->grey || !strstr(text, p->mark))
            continue;
        o->checks++;
        CHECK(!strstr(text, o->g.names[p->writer]), "%s: a grey message to seat %d names its writer %s:\n%s",
              o->g.ops->name, reader + 1, o->g.names[p->writer], text);
    }
}

/* What the stranger read: lobby answers and the watcher's mails. */
static void scan_stranger(struct oracle *o)
{
    sqlite3_stmt *q = db_stmt(o->db, "SELECT mail FROM outbox WHERE rcpt = 'stranger@example.org' ORDER BY id", "");
    int n = 0;
    CHECK(q != NULL, "outbox");
    while (db_step(q) == SQLITE_ROW) {
        char *text = t_readable((const char *)sqlite3_column_text(q, 0));
        struct strbuf own = STRBUF_INIT;
        /* Her own commands, quoted back to her, are hers. */
        for (const char *p = text; *p;) {
            size_t len = strcspn(p, "\n");
            if (!(len >= 1 && p[0] == '>'))
                strbuf_add(&own, p, len);
            strbuf_addch(&own, '\n');
            p += len + (p[len] == '\n');
        }
        /* The address she typed, in the answer's words, is hers too. */
        for (char *at; (at = (char *)str_casestr(own.buf, "qza3xa@example.org"));)
            memcpy(at, "typed-by-her-self", 17);
        assert_knows(o, -1, own.buf, "a mail to a stranger who watches");
        strbuf_release(&own);
        free(text);
        n++;
    }
    db_finalize(q);
    CHECK(n >= 3, "the stranger got %d mails", n);
}

static void scan_mails(struct oracle *o)
{
    sqlite3_stmt *q = db_stmt(o->db, "SELECT seat, kind, mail FROM outbox WHERE game_id = ? ORDER BY id", "I", o->g.id);
    CHECK(q != NULL, "outbox");
    while (db_step(q) == SQLITE_ROW) {
        int seat = sqlite3_column_int(q, 0) - 1;
        const char *kind = (const char *)sqlite3_column_text(q, 1);
        char *text = t_readable((const char *)sqlite3_column_text(q, 2));
        char what[48];
        snprintf(what, sizeof(what), "a %s mail", kind);
        /* A mail to the host (seat 0 in the table) is read as the host by mail. */
        assert_knows(o, seat, text, what);
        if (seat >= 0 && str_eq(kind, "press"))
            assert_grey_mail(o, seat, text);
        free(text);
    }
    db_finalize(q);
}

/* Every public view as text. */
static void scan_views(struct oracle *o)
{
    static const char *const views[] = { "game_summary", "moves", "rejections", "turn_log", "ratings", "reliability",
                                         "seat_players" };
    for (size_t v = 0; v < ARRAY_SIZE(views); v++) {
        struct strbuf sql = STRBUF_INIT, b = STRBUF_INIT;
        sqlite3_stmt *q;
        strbuf_addf(&sql, "SELECT * FROM %s", views[v]);
        q = db_stmt(o->db, sql.buf, "");
        CHECK(q != NULL, "%s", views[v]);
        while (db_step(q) == SQLITE_ROW)
            for (int c = 0; c < sqlite3_column_count(q); c++) {
                const char *t = (const char *)sqlite3_column_text(q, c);
                strbuf_addf(&b, "%s\t", t ? t : "");
            }
        db_finalize(q);
        strbuf_reset(&sql);
        strbuf_addf(&sql, "the view %s", views[v]);
        assert_knows(o, -1, b.buf, sql.buf);
        strbuf_release(&sql);
        strbuf_release(&b);
    }
}

/* The public record (with its press, as published), and the site. */
static void scan_public(struct oracle *o, const char *dir)
{
    cJSON *rec = verify_export(o->db, &o->g, false);
    char *text;
    DIR *d;
    struct dirent *e;
    struct site_stats st;
    CHECK(rec != NULL && press_publish(o->db, &o->g, rec) == 0, "export");
    text = jx_print(rec);
    assert_knows(o, -1, text, "the export");
    /* Grey press in the record: no writer, and no list that leaves one out. */
    {
        cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(rec, "press")) {
            if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(m, "from")))
                continue;
            o->checks++;
            CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "to")) == 0,
                  "%s: the export lists the recipients of a grey message", o->g.ops->name);
        }
    }
    free(text);
    cJSON_Delete(rec);
    CHECK(site_write(o->db, dir, false, &st) == 0, "site");
    d = opendir(dir);
    CHECK(d != NULL, "%s", dir);
    while ((e = readdir(d))) {
        struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
        char *file;
        size_t len = strlen(e->d_name);
        if (len < 5 || (strcmp(e->d_name + len - 5, ".html") && strcmp(e->d_name + len - 5, ".json")))
            continue;
        strbuf_addf(&path, "%s/%s", dir, e->d_name);
        file = file_read(path.buf, 1 << 24, &err);
        CHECK(file != NULL, "%s: %s", path.buf, err.buf);
        assert_knows(o, -1, file, e->d_name);
        free(file);
        strbuf_release(&path);
        strbuf_release(&err);
    }
    closedir(d);
}

/* A message from seat w, grey or named, to the seats of mask (PRESS TO by
 * name, or ALL), or as a reply to the last press mail w received. */
static void plant(struct oracle *o, int w, unsigned mask, bool reply)
{
    struct planted *p;
    struct strbuf body = STRBUF_INIT, addr = STRBUF_INIT;
    char *mail = NULL;
    unsigned others = 0;
    if (o->npress == ORACLE_MARKS)
        return;
    for (int s = 0; s < o->g.nseats; s++)
        if (s != w)
            others |= 1u << s;
    p = &o->press[o->npress];
    snprintf(p->mark, sizeof(p->mark), "Pmk%dq%d", (int)o->g.id, o->npress);
    p->writer = w;
    p->grey = o->grey;
    if (reply) {
        const char *lt, *gt;
        int64_t writer;
        if (db_get_text(o->db, &mail,
                        "SELECT mail FROM outbox WHERE game_id = ? AND seat = ? AND kind = 'press' ORDER BY id DESC"
                        " LIMIT 1",
                        "Ii", o->g.id, w + 1) != 1)
            return;
        lt = strstr(mail, "\nReply-To:");
        lt = lt ? strchr(lt, '<') : NULL;
        gt = lt ? strchr(lt, '>') : NULL;
        CHECK(lt && gt, "no Reply-To");
        strbuf_add(&addr, lt + 1, (size_t)(gt - lt - 1));
        /* Whom the reply reaches: a grey message's writer alone; a
         * channel's seats. */
        CHECK(db_get_int64(o->db, &writer,
                           "SELECT p.seat FROM press p JOIN press_recipients r ON r.press_id = p.id WHERE p.game_id = ?"
                           " AND r.seat = ? ORDER BY p.id DESC LIMIT 1",
                           "Ii", o->g.id, w + 1) == 1,
              "the message answered");
        if (o->grey) {
            p->to = 1u << (writer - 1);
        } else {
            int64_t seats;
            CHECK(db_get_int64(o->db, &seats,
                               "SELECT c.seats FROM press p JOIN press_channels c ON c.id = p.channel_id JOIN"
                               " press_recipients r ON r.press_id = p.id WHERE p.game_id = ? AND r.seat = ? ORDER BY"
                               " p.id DESC LIMIT 1",
                               "Ii", o->g.id, w + 1) == 1,
                  "the channel");
            p->to = (unsigned)seats & ~(1u << w);
        }
        strbuf_addf(&body, "%s\n\n> earlier words\n", p->mark);
        free(mail);
    } else {
        p->to = mask & others;
        if (p->to == others)
            strbuf_addstr(&body, "PRESS TO ALL");
        else {
            strbuf_addstr(&body, "PRESS TO ");
            for (int s = 0, n = 0; s < o->g.nseats; s++)
                if ((p->to >> s) & 1)
                    strbuf_addf(&body, "%s%s", n++ ? " and " : "", o->g.names[s]);
        }
        strbuf_addf(&body, ": %s\n", p->mark);
        seat_addr(o, w, &addr);
    }
    o->npress++;
    t_mail_to(o->db, o->addrs[w], addr.buf, "Re: game", body.buf, NULL);
    strbuf_release(&body);
    strbuf_release(&addr);
}

static void play(struct oracle *o, int step)
{
    unsigned w = o->g.ops->waiting_for(o->g.st);
    struct strbuf addr = STRBUF_INIT;
    for (int s = 0; s < o->g.nseats; s++) {
        char *order;
        if (!((w >> s) & 1) || o->g.seats[s].bot)
            continue;
        order = bot_random(o->g.ops, o->g.st, s, &o->g.table, (uint64_t)step * 31 + (uint64_t)s);
        t_mail_to(o->db, o->addrs[s], seat_addr(o, s, &addr), "Re: game", order, NULL);
        free(order);
        reload(o);
    }
    strbuf_release(&addr);
}

/* The k-th seat a person plays (the bot's aside). */
static int human(const struct oracle *o, int k)
{
    for (int s = 0; s < o->g.nseats; s++)
        if (!o->g.seats[s].bot && k-- == 0)
            return s;
    return 0;
}

static void oracle_game(const char *module, int seats, bool anonymous, long *outputs, long *checks)
{
    struct oracle o = { 0 };
    struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, addr = STRBUF_INIT;
    const char *names[GAME_MAX_SEATS], *emails[GAME_MAX_SEATS];
    char dir[] = "/tmp/ngoma-oracle-XXXXXX";
    cJSON *opts = cJSON_CreateObject();
    int64_t id;
    o.db = t_lobby_db("open");
    o.anonymous = anonymous;
    o.grey = anonymous;
    for (int s = 0; s < seats; s++) {
        snprintf(o.names[s], sizeof(o.names[s]), "Qzn%dx%c", seats, 'a' + s);
        snprintf(o.addrs[s], sizeof(o.addrs[s]), "qza%dx%c@example.org", seats, 'a' + s);
        names[s] = o.names[s];
        emails[s] = o.addrs[s];
    }
    /* The last seat is a bot: it reads no press, and plays at once. */
    emails[seats - 1] = "bot:easy";
    if (anonymous)
        cJSON_AddStringToObject(opts, "anonymous", "yes");
    cJSON_AddStringToObject(opts, "press", anonymous ? "grey" : "full");
    ck_assert_int_eq(db_begin(o.db), 0);
    ck_assert_msg(engine_new(o.db, game_find(module), seats, names, emails, opts, 77, true, &id, &err) == 0, "%s",
                  err.buf);
    ck_assert_int_eq(game_load(o.db, id, &o.g), 0);
    /* An anonymous game seats its players in an order of its own: the
     * markers follow their people. */
    {
        char given[GAME_MAX_SEATS][24], at[GAME_MAX_SEATS][48];
        memcpy(given, o.names, sizeof(given));
        memcpy(at, o.addrs, sizeof(at));
        for (int s = 0; s < seats; s++) {
            const char *who = game_person(&o.g, s);
            for (int k = 0; k < seats; k++)
                if (str_eq(who, given[k])) {
                    memcpy(o.names[s], given[k], sizeof(given[k]));
                    memcpy(o.addrs[s], at[k], sizeof(at[k]));
                }
        }
    }
    ck_assert_int_eq(notify_welcome(o.db, &o.g), 0);
    ck_assert_int_eq(db_commit(o.db), 0);
    /* A stranger's view of each player, before and after: no count in it
     * may move with a seat's orders in a running anonymous game. */
    t_confirmed(o.db, "stranger@example.org");
    /* An observer, whose mails are scanned as the public's. */
    {
        char watch[32];
        snprintf(watch, sizeof(watch), "WATCH %lld", (long long)o.g.id);
        t_lobby(o.db, "stranger@example.org", "watch", watch);
    }
    for (int step = 0; step < ORACLE_STEPS && o.g.ops->waiting_for(o.g.st); step++) {
        int a = human(&o, 0), b = human(&o, seats > 2 ? 1 : 0);
        if (step == 1)
            plant(&o, a, ~0u, false);
        if (step == 2 && seats > 2)
            plant(&o, b, 1u << a, false);
        if (step == 3)
            plant(&o, b, 0, true);
        if (step == 4)
            plant(&o, a, 0, true);
        if (step == 5) {
            /* A vote, secret until it passes. */
            t_mail_to(o.db, o.addrs[a], seat_addr(&o, a, &addr), "Re: game", "DRAW", NULL);
            reload(&o);
        }
        if (step == 6 && o.grey) {
            /* MUTE by a name is refused in grey press; by a message it is not. */
            t_mail_to(o.db, o.addrs[b], seat_addr(&o, b, &addr), "Re: game", "MUTE Alpha", NULL);
        }
        play(&o, step);
        if (step == 0 || step == ORACLE_STEPS - 1) {
            t_lobby(o.db, "stranger@example.org", "profile", "PROFILE qza3xa@example.org");
        }
    }
    reload(&o);
    /* The host by mail reads no address. */
    ck_assert_int_eq(host_status(o.db, &o.g, viewer_of(VIEWER_HOST_MAIL), "en", &out), 0);
    assert_knows(&o, -1, out.buf, "the host's STATUS by mail");
    /* Every mail, every public view, the export and the site. */
    ck_assert_ptr_nonnull(mkdtemp(dir));
    scan_mails(&o);
    scan_stranger(&o);
    scan_views(&o);
    scan_public(&o, dir);
    if (seats == 3) {
        /* The stranger's two PROFILE answers are the same. */
        sqlite3_stmt *q = db_stmt(o.db, "SELECT mail FROM outbox WHERE rcpt = 'stranger@example.org' AND subject LIKE"
                                        " '%rofile%' ORDER BY id",
                                  "");
        struct strlist answers = STRLIST_INIT;
        while (db_step(q) == SQLITE_ROW) {
            struct shown sh;
            shown_of((const char *)sqlite3_column_text(q, 0), &sh);
            strlist_push(&answers, sh.text);
            assert_knows(&o, -1, sh.text, "a PROFILE answer");
            shown_release(&sh);
        }
        db_finalize(q);
        if (anonymous && answers.n == 2) {
            o.checks++;
            CHECK(str_eq(answers.v[0], answers.v[1]), "%s: PROFILE moved with the game's orders:\n%s\n----\n%s",
                  module, answers.v[0], answers.v[1]);
        }
        strlist_clear(&answers);
    }
    /* Over: names may now be read; grey writers never. */
    ck_assert_int_eq(db_begin(o.db), 0);
    if (!str_eq(game_status_of(o.g.ops, o.g.st), "finished"))
        ck_assert_int_eq(engine_end(o.db, &o.g, false, "the oracle has seen enough", &out), 0);
    ck_assert_int_eq(db_commit(o.db), 0);
    reload(&o);
    scan_public(&o, dir);
    {
        struct strbuf rm = STRBUF_INIT;
        strbuf_addf(&rm, "rm -rf '%s'", dir);
        ck_assert_int_eq(system(rm.buf), 0);
        strbuf_release(&rm);
    }
    *outputs += o.outputs;
    *checks += o.checks;
    cJSON_Delete(opts);
    strbuf_release(&err);
    strbuf_release(&out);
    strbuf_release(&addr);
    game_unload(&o.g);
    db_close(o.db);
}

START_TEST(no_output_tells_a_viewer_what_she_may_not_know)
{
    static const struct {
        const char *module;
        int seats;
    } games[] = { { "kuniumi", 2 }, { "bantu", 3 }, { "kalimambo", 3 }, { "bumuntu", 3 }, { "african-empires", 3 } };
    long outputs = 0, checks = 0;
    const char *names[ARRAY_SIZE(games)];
    for (size_t i = 0; i < ARRAY_SIZE(games); i++)
        names[i] = games[i].module;
    t_covers_registry("the oracle", names, ARRAY_SIZE(games));
    for (size_t i = 0; i < ARRAY_SIZE(games); i++)
        for (int anonymous = 0; anonymous < 2; anonymous++)
            oracle_game(games[i].module, games[i].seats, anonymous, &outputs, &checks);
    fprintf(stderr, "oracle: %zu games, %ld outputs scanned, %ld marker checks\n", 2 * ARRAY_SIZE(games), outputs,
            checks);
    ck_assert_int_gt(outputs, 200);
}
END_TEST

Suite *oracle_suite(void)
{
    Suite *s = suite_create("oracle");
    TCase *tc = tcase_create("oracle");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, no_output_tells_a_viewer_what_she_may_not_know);
    suite_add_tcase(s, tc);
    return s;
}
