/* check_trust.c: trust at the door: options by owner, files by bound, records a verify refuses, fairness said truly, forged lobby mail, one budget for mails to others, tables that never get stuck, refusals answered once. */
#include "test_support.h"

#include "core/seed.h"
#include "core/verify.h"
#include "core/view.h"
#include "judge/host.h"
#include "lib/jsonx.h"
#include "lib/paths.h"
#include "lib/util.h"
#include "store/db.h"
#include "store/settings.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- options have an owner -------------------------------------------------- */

START_TEST(every_option_is_taken_or_refused_from_the_lobby_as_its_game_declares)
{
    sqlite3 *db = t_lobby_db("open");
    struct strbuf err = STRBUF_INIT;
    int tables = 0;
    ck_assert_int_eq(setting_set(db, "lobby_per_hour", "1000", &err), 0);
    t_confirmed(db, "ann@example.org");
    for (int i = 0; game_registry[i]; i++) {
        const struct game_ops *ops = game_registry[i];
        for (const struct game_option *o = ops->options; o->key; o++) {
            char line[300];
            /* A file or a deal is the host's: never a player's to set. */
            if (o->flags & (OPTION_FILE | OPTION_DEAL))
                ck_assert_msg(o->flags & OPTION_HOST, "%s option %s names a file or deal but is the players'",
                              ops->name, o->key);
            snprintf(line, sizeof(line), "NEW %s OPTION %s=%s", ops->name, o->key, *o->def ? o->def : "x");
            t_lobby(db, "ann@example.org", "new", line);
            if (o->flags & OPTION_HOST) {
                char said[120];
                snprintf(said, sizeof(said), "option %s is set only by the host of this ngoma, at the shell", o->key);
                ck_assert(t_last_has(db, "ann@example.org", said));
            } else {
                ck_assert(t_last_has(db, "ann@example.org", "is open, and you sit in seat 1"));
                /* Closed again, so that the next may open. */
                snprintf(line, sizeof(line), "LEAVE %lld", t_count(db, "SELECT max(id) FROM lobby_tables"));
                t_lobby(db, "ann@example.org", "leave", line);
                tables++;
            }
        }
    }
    ck_assert_int_gt(tables, 0);
    /* A path, a directory, a device, what exists and what does not: one
     * answer, opened by nobody, telling nothing of the host's files. */
    static const char *const paths[] = { "/etc/passwd", "/nonexistent.json", "/etc", "/dev/zero",
                                         "../seeds/kalimambo.json", "kalimambo.json" };
    for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
        char line[200];
        snprintf(line, sizeof(line), "NEW kalimambo OPTION data=%s", paths[i]);
        t_lobby(db, "ann@example.org", "new", line);
        ck_assert(t_last_has(db, "ann@example.org", "option data is set only by the host of this ngoma"));
    }
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE mail LIKE '%cannot open%' OR mail LIKE"
                                 " '%not a regular file%' OR mail LIKE '%root:%'"),
                     0);
    /* Nor from a record, nor a file option's path from anyone but the host. */
    const struct game_ops *ka = game_find("kalimambo");
    cJSON *given = cJSON_Parse("{\"data\":\"/dev/stdin\"}");
    strbuf_reset(&err);
    ck_assert_ptr_null(engine_options_from(ka, given, OPTIONS_RECORD, &err));
    ck_assert_msg(strstr(err.buf, "the record sets option data, which only the host sets"), "%s", err.buf);
    cJSON_Delete(given);
    given = cJSON_Parse("{\"setup\":\"{\\\"kali_deck\\\":[0,1,2,3,4,5,6,7,8,9,10,11]}\"}");
    strbuf_reset(&err);
    ck_assert_ptr_null(engine_options_from(ka, given, OPTIONS_RECORD, &err));
    ck_assert_msg(strstr(err.buf, "option setup"), "%s", err.buf);
    cJSON_Delete(given);
    given = cJSON_Parse("{\"board\":\"../../etc/passwd\"}");
    strbuf_reset(&err);
    ck_assert_ptr_null(engine_options_from(game_find("bantu"), given, OPTIONS_LOBBY, &err));
    cJSON_Delete(given);
    strbuf_release(&err);
    db_close(db);
}
END_TEST

START_TEST(files_that_are_not_regular_or_too_long_are_refused_without_reading)
{
    struct strbuf err = STRBUF_INIT;
    char dir[] = "/tmp/ngoma-trust.XXXXXX", fifo[64], big[64];
    time_t t0 = time(NULL);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
    snprintf(big, sizeof(big), "%s/big.json", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    /* A device that never ends, a FIFO nobody writes, a directory. */
    ck_assert_ptr_null(file_read("/dev/zero", FILE_MAX_DATA, &err));
    ck_assert_msg(strstr(err.buf, "not a regular file (a device"), "%s", err.buf);
    strbuf_reset(&err);
    ck_assert_ptr_null(file_read(fifo, FILE_MAX_DATA, &err));
    ck_assert_msg(strstr(err.buf, "a FIFO"), "%s", err.buf);
    strbuf_reset(&err);
    ck_assert_ptr_null(file_read(dir, FILE_MAX_DATA, &err));
    ck_assert_msg(strstr(err.buf, "a directory"), "%s", err.buf);
    strbuf_reset(&err);
    /* A file past its bound is not read at all. */
    {
        FILE *f = fopen(big, "w");
        ck_assert_ptr_nonnull(f);
        for (int i = 0; i < (int)(FILE_MAX_DATA / 8) + 1; i++)
            fputs("        ", f);
        fclose(f);
    }
    ck_assert_ptr_null(file_read(big, FILE_MAX_DATA, &err));
    ck_assert_msg(strstr(err.buf, "over the 1048576 bytes"), "%s", err.buf);
    /* The host at the shell may name a path: still no device. */
    {
        sqlite3 *db = t_db();
        static const char *const names[] = { "Ann", "Bob" }, *const emails[] = { "a@example.org", "b@example.org" };
        cJSON *opts = cJSON_Parse("{\"data\":\"/dev/zero\"}");
        int64_t id;
        strbuf_reset(&err);
        ck_assert_int_eq(db_begin(db), 0);
        ck_assert_int_eq(engine_new(db, game_find("kalimambo"), 2, names, emails, opts, 7, false, &id, &err), -1);
        db_rollback(db);
        ck_assert_msg(strstr(err.buf, "/dev/zero is not a regular file"), "%s", err.buf);
        cJSON_Delete(opts);
        db_close(db);
    }
    ck_assert_int_le(time(NULL) - t0, 5);
    unlink(fifo);
    unlink(big);
    rmdir(dir);
    strbuf_release(&err);
}
END_TEST

/* ---- a record verify refuses, and fairness said truly ---------------------- */

/* Plays game 1 of db to its end with each seat's first legal order. */
static void play_out(sqlite3 *db, struct game_rec *g)
{
    while (g->ops->waiting_for(g->st)) {
        unsigned w = g->ops->waiting_for(g->st);
        for (int s = 0; s < g->nseats; s++)
            if (w & (1u << s)) {
                struct strlist legal = STRLIST_INIT;
                g->ops->legal(g->st, s, &g->table, &legal);
                t_ok(db, g, s, legal.v[0]);
                strlist_clear(&legal);
            }
    }
}

START_TEST(verify_refuses_a_hostile_record_and_says_what_it_checked)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf report = STRBUF_INIT;
    cJSON *rec, *bad;
    time_t t0 = time(NULL);
    t_new_game(db, "kalimambo", 3, 11, NULL, &g);
    play_out(db, &g);
    rec = verify_export(db, &g, false);
    ck_assert_int_eq(verify_record(rec, OPTIONS_RECORD, &report), 0);
    ck_assert_msg(strstr(report.buf, "Seed chosen by the host, not drawn by ngoma."), "%s", report.buf);
    ck_assert_msg(strstr(report.buf, "With one salt a seat (0 given)"), "%s", report.buf);
    ck_assert_msg(strstr(report.buf, "The game is over: "), "%s", report.buf);
    /* A record naming a file, a layout that fixes the deal, a salt short. */
    static const char *const options[] = {
        "{\"data\":\"/dev/stdin\",\"setup\":\"\"}",
        "{\"data\":\"kalimambo.json\",\"setup\":\"{\\\"kali_deck\\\":[0,1,2,3,4,5,6,7,8,9,10,11]}\"}",
        "{\"data\":\"../seeds/kalimambo.json\",\"setup\":\"\"}",
    };
    for (size_t i = 0; i < ARRAY_SIZE(options); i++) {
        bad = cJSON_Duplicate(rec, 1);
        cJSON_ReplaceItemInObject(bad, "options", cJSON_CreateString(options[i]));
        strbuf_reset(&report);
        ck_assert_int_ne(verify_record(bad, OPTIONS_RECORD, &report), 0);
        ck_assert_msg(strstr(report.buf, "which only the host sets"), "%s", report.buf);
        cJSON_Delete(bad);
    }
    bad = cJSON_Duplicate(rec, 1);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItemCaseSensitive(bad, "salts"), 0);
    strbuf_reset(&report);
    ck_assert_int_eq(verify_record(bad, OPTIONS_RECORD, &report), -1);
    ck_assert_msg(strstr(report.buf, "2 salts for 3 players: it needs exactly one a seat"), "%s", report.buf);
    cJSON_Delete(bad);
    ck_assert_int_le(time(NULL) - t0, 10);
    cJSON_Delete(rec);
    strbuf_release(&report);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(every_fairness_line_says_who_chose_the_seed_and_the_deal)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    struct strbuf f = STRBUF_INIT;
    /* A seed the host gave. */
    t_new_game(db, "kuniumi", 2, 5, NULL, &g);
    view_fairness(&g, NULL, &f);
    ck_assert_msg(strstr(f.buf, "Seed chosen by the host, not drawn by ngoma."), "%s", f.buf);
    game_unload(&g);
    /* A deal the host laid out. */
    strbuf_reset(&f);
    t_new_game(db, "kalimambo", 3, 5,
               "{\"setup\":\"{\\\"mambo\\\":0,\\\"kali\\\":4,\\\"explorers\\\":[1,2,3],\\\"dung\\\":[9,14],"
               "\\\"kali_deck\\\":[0,1,2,3,4,5,6,7,8,9,10,11]}\"}",
               &g);
    view_fairness(&g, NULL, &f);
    {
        char *flat = t_flat(f.buf);
        ck_assert_msg(strstr(flat, "Deal set by the host (option setup): no shuffle decided it."), "%s", f.buf);
        free(flat);
    }
    game_unload(&g);
    /* The lobby's games: a seed ngoma drew. */
    t_confirmed(db, "ann@example.org");
    t_confirmed(db, "bob@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi");
    t_lobby(db, "bob@example.org", "join", "JOIN 3");
    ck_assert(t_last_has(db, "bob@example.org", "Game 3 starts"));
    ck_assert_int_eq(game_load(db, 3, &g), 0);
    strbuf_reset(&f);
    view_fairness(&g, NULL, &f);
    ck_assert_msg(strstr(f.buf, "Seed drawn by ngoma."), "%s", f.buf);
    ck_assert(strstr(f.buf, "chosen") == NULL);
    for (const char *p = f.buf; *p;) {
        size_t n = strcspn(p, "\n");
        ck_assert_msg(n <= 72, "a fairness line of %zu columns: %.*s", n, (int)n, p);
        p += n + (p[n] ? 1 : 0);
    }
    t_want_kind = "welcome";
    ck_assert(t_last_has(db, "ann@example.org", "Seed drawn by ngoma."));
    t_want_kind = NULL;
    game_unload(&g);
    strbuf_release(&f);
    db_close(db);
}
END_TEST

/* ---- the lobby's identity under forgery ----------------------------------- */

static char *subject_with(const char *token)
{
    char *s = xmalloc(80);
    snprintf(s, 80, "Re: [ngoma] Lobby: confirm %s", token);
    return s;
}

START_TEST(a_forged_mail_cannot_replace_or_extend_the_commands_that_wait)
{
    sqlite3 *db = t_lobby_db("open");
    char *t1, *subject;
    t_confirmed(db, "ann@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kalimambo SEATS 4");
    /* Carol asks to join; the confirmation says exactly what will run. */
    t_lobby(db, "carol@example.org", "join", "JOIN 1 AS Carol");
    ck_assert(t_last_has(db, "carol@example.org", "Then exactly these run"));
    ck_assert(t_last_has(db, "carol@example.org", "JOIN 1 AS Carol"));
    t1 = t_token_of(db, "carol@example.org", "confirm");
    /* A forger in her name: no mail (one a month), a set of its own. */
    t_lobby(db, "Carol@Example.org", "new", "NEW bantu\nJOIN 1 AS Mallory");
    ck_assert_int_eq(t_mails_to(db, "carol@example.org", NULL), 1);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_pending WHERE address = 'carol@example.org'"), 2);
    /* Carol confirms her own: only her JOIN runs, under her name. */
    subject = subject_with(t1);
    t_lobby(db, "carol@example.org", subject, "yes, it is me");
    free(subject);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_players WHERE table_id = 1 AND name = 'Carol'"), 1);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_players WHERE name = 'Mallory'"), 0);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_tables WHERE module = 'bantu'"), 0);
    /* And she is told of the other mail, with the token that would run it. */
    ck_assert(t_last_has(db, "carol@example.org", "Another mail from your address"));
    ck_assert(t_last_has(db, "carol@example.org", "asked for: NEW bantu; JOIN 1 AS Mallory. It did not run"));
    free(t1);

    /* The forger first: Dave's confirmation shows the forger's commands;
     * DROP confirms him without running them, his own then run by token. */
    t_lobby(db, "dave@example.org", "join", "JOIN 1 AS Mallory");
    t1 = t_token_of(db, "dave@example.org", "confirm");
    t_lobby(db, "dave@example.org", "join", "JOIN 1 AS Dave");
    subject = subject_with(t1);
    t_lobby(db, "dave@example.org", subject, "DROP");
    free(subject);
    free(t1);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_players WHERE name = 'Mallory'"), 0);
    ck_assert(t_last_has(db, "dave@example.org", "Nothing that waited for your confirmation ran"));
    {
        char *token = NULL, line[64];
        ck_assert_int_eq(db_get_text(db, &token, "SELECT token FROM lobby_pending WHERE address = 'dave@example.org'",
                                     NULL),
                         1);
        ck_assert(t_last_has(db, "dave@example.org", token));
        snprintf(line, sizeof(line), "CONFIRM %s", token);
        t_lobby(db, "dave@example.org", "mine", line);
        free(token);
    }
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_players WHERE table_id = 1 AND name = 'Dave'"), 1);
    /* At most five sets wait for one address. */
    for (int i = 0; i < 8; i++)
        t_lobby(db, "erin@example.org", "join", "JOIN 1");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_pending WHERE address = 'erin@example.org'"), 5);
    db_close(db);
}
END_TEST

/* A finished game 1 of Ann and Bob, opened at the lobby. */
static void finished_pair(sqlite3 *db)
{
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    t_confirmed(db, "ann@example.org");
    t_confirmed(db, "bob@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi");
    t_lobby(db, "bob@example.org", "join", "JOIN 1");
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(host_command(db, &g, viewer_of(VIEWER_SHELL), "en", "END ABANDON we stop here", &out), 0);
    ck_assert_int_eq(db_commit(db), 0);
    game_unload(&g);
    strbuf_release(&out);
}

START_TEST(invitations_from_every_path_share_one_budget)
{
    sqlite3 *db = t_lobby_db("open");
    struct strbuf err = STRBUF_INIT;
    ck_assert_int_eq(setting_set(db, "lobby_per_hour", "1000", &err), 0);
    finished_pair(db);
    /* REMATCH and LEAVE in a loop: Bob is invited once. */
    for (int i = 0; i < 5; i++) {
        char line[32];
        t_lobby(db, "ann@example.org", "rematch", "REMATCH 1");
        snprintf(line, sizeof(line), "LEAVE %lld", t_count(db, "SELECT max(id) FROM lobby_tables"));
        t_lobby(db, "ann@example.org", "leave", line);
    }
    ck_assert_int_eq(t_mails_to(db, "bob@example.org", "invite"), 1);
    /* INVITEs to new addresses take what is left of the hour's budget. */
    t_lobby(db, "ann@example.org", "new", "NEW bantu SEATS 4");
    for (int i = 0; i < 10; i++) {
        char line[64];
        snprintf(line, sizeof(line), "INVITE %lld friend%d@example.org", t_count(db, "SELECT max(id) FROM lobby_tables"),
                 i);
        t_lobby(db, "ann@example.org", "invite", line);
    }
    ck_assert(t_last_has(db, "ann@example.org", "the most this ngoma sends for one address"));
    /* Every mail to another that Ann's mails caused, in the hour: 5. */
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox o JOIN messages m ON m.id = o.in_reply_to WHERE"
                                 " m.from_addr = 'ann@example.org' AND o.rcpt <> 'ann@example.org'"),
                     5);
    strbuf_release(&err);
    db_close(db);
}
END_TEST

/* ---- no stuck tables -------------------------------------------------------- */

START_TEST(an_invited_friend_joins_without_as_and_the_game_starts)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    char *t, subject[80];
    t_confirmed(db, "ann@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kalimambo SEATS 3");
    t_lobby(db, "ann@example.org", "invite", "INVITE 1 friend@example.org\nINVITE 1 friend@other.example.org");
    t = t_token_of(db, "friend@example.org", "join");
    snprintf(subject, sizeof(subject), "Re: Invitation (join %s)", t);
    t_lobby(db, "friend@example.org", subject, "join 1");
    free(t);
    ck_assert(t_last_has(db, "friend@example.org", "You sit at game 1 as Friend, in seat 2"));
    t = t_token_of(db, "friend@other.example.org", "join");
    snprintf(subject, sizeof(subject), "Re: Invitation (join %s)", t);
    t_lobby(db, "friend@other.example.org", subject, "JOIN 1");
    free(t);
    ck_assert(t_last_has(db, "friend@other.example.org", "You sit at game 1 as Friend 2, in seat 3: the last one."));
    ck_assert(t_last_has(db, "friend@other.example.org", "Game 1 starts with 3 players"));
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    for (int s = 0; s < g.nseats; s++)
        ck_assert_int_gt((int)strlen(g.names[s]), 0);
    game_unload(&g);
    /* "I'm in!" in answer to an invitation seats her; without the
     * invitation's token it says exactly what to write. */
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi");
    t_lobby(db, "ann@example.org", "invite", "INVITE 2 gus@example.org");
    t = t_token_of(db, "gus@example.org", "join");
    snprintf(subject, sizeof(subject), "Re: Invitation to KuniUmi game 2 (join %s)", t);
    t_lobby(db, "gus@example.org", subject, "I'm in!\n\nGus");
    free(t);
    ck_assert(t_last_has(db, "gus@example.org", "You sit at game 2 as Gus, in seat 2: the last one."));
    t_confirmed(db, "bob@example.org");
    t_lobby(db, "bob@example.org", "new", "NEW kuniumi");
    t_lobby(db, "bob@example.org", "invite", "INVITE 3 gus@example.org");
    t_lobby(db, "gus@example.org", "count me in", "I'm in!");
    ck_assert(t_last_has(db, "gus@example.org", "To take your seat at game 3, to which you were invited, write JOIN 3"));
    db_close(db);
}
END_TEST

START_TEST(leave_and_unseat_always_work_before_the_start)
{
    sqlite3 *db = t_lobby_db("open");
    const char *who[] = { "bob@example.org", "cleo@example.org", "dan@example.org" };
    t_confirmed(db, "ann@example.org");
    for (int i = 0; i < 3; i++)
        t_confirmed(db, who[i]);
    t_lobby(db, "ann@example.org", "new", "NEW kalimambo SEATS 5");
    t_lobby(db, "bob@example.org", "join", "JOIN 1 AS Bob");
    t_lobby(db, "cleo@example.org", "join", "JOIN 1 AS Cleo");
    t_lobby(db, "dan@example.org", "join", "JOIN 1 AS Dan");
    /* Bob, in the middle, leaves: the seats close up. */
    t_lobby(db, "bob@example.org", "leave", "LEAVE 1");
    ck_assert(t_last_has(db, "bob@example.org", "You left game 1."));
    ck_assert_int_eq(t_count(db, "SELECT group_concat(position || name, ' ') = '1Ann 2Cleo 3Dan' FROM (SELECT * FROM"
                                 " lobby_players WHERE table_id = 1 ORDER BY position)"),
                     1);
    /* Only the host frees a seat; the player freed is told. */
    t_lobby(db, "dan@example.org", "unseat", "UNSEAT 1 Cleo");
    ck_assert(t_last_has(db, "dan@example.org", "only the host of game 1 frees its seats"));
    t_lobby(db, "ann@example.org", "unseat", "UNSEAT 1 cleo");
    ck_assert(t_last_has(db, "ann@example.org", "cleo no longer sits at game 1, and is told."));
    ck_assert(t_last_has(db, "cleo@example.org", "Your seat at game 1 was freed by its host"));
    ck_assert_int_eq(t_count(db, "SELECT group_concat(position || name, ' ') = '1Ann 2Dan' FROM (SELECT * FROM"
                                 " lobby_players WHERE table_id = 1 ORDER BY position)"),
                     1);
    t_lobby(db, "ann@example.org", "unseat", "UNSEAT 1 Ann");
    ck_assert(t_last_has(db, "ann@example.org", "that is your own seat"));
    db_close(db);
}
END_TEST

START_TEST(a_table_that_cannot_start_tells_its_host_why_and_what_fixes_it)
{
    sqlite3 *db = t_lobby_db("open");
    t_confirmed(db, "ann@example.org");
    t_confirmed(db, "bob@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW bumuntu SEATS 2");
    /* What the game is set up with no longer makes a game. */
    ck_assert_int_eq(sqlite3_exec(db, "UPDATE lobby_tables SET options = json_set(options, '$.stall_rounds', 'many')",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    t_lobby(db, "bob@example.org", "join", "JOIN 1");
    ck_assert(t_last_has(db, "bob@example.org", "Game 1 cannot start: option stall_rounds"));
    ck_assert(t_last_has(db, "bob@example.org", "Its host is told what fixes it."));
    ck_assert(t_last_has(db, "ann@example.org", "a game you host cannot start"));
    ck_assert(t_last_has(db, "ann@example.org", "UNSEAT 1 Name frees a seat"));
    /* Full: nobody else takes a seat; Bob may still leave; START says why. */
    t_confirmed(db, "cleo@example.org");
    t_lobby(db, "cleo@example.org", "join", "JOIN 1");
    ck_assert(t_last_has(db, "cleo@example.org", "every seat of game 1 is taken"));
    t_lobby(db, "ann@example.org", "start", "START 1");
    ck_assert(t_last_has(db, "ann@example.org", "Game 1 cannot start"));
    t_lobby(db, "bob@example.org", "leave", "LEAVE 1");
    ck_assert(t_last_has(db, "bob@example.org", "You left game 1."));
    db_close(db);
}
END_TEST

/* ---- refusals: the same text once a step, others up to the hour's limit ---- */

START_TEST(a_responder_that_hides_itself_is_answered_once_a_step)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    char to[96];
    t_new_game(db, "kuniumi", 2, 3, NULL, &g);
    snprintf(to, sizeof(to), "ngoma+1-1-%s@localhost", g.seats[0].secret);
    for (int i = 0; i < 8; i++) {
        struct inbound_result r = t_mail_to(db, "Ann@example.org", to, "Re: [ngoma 1] Your turn",
                                            "I am away until Monday", NULL);
        ck_assert_int_eq(r.status, i == 0 ? INBOUND_PROCESSED : INBOUND_REFUSED);
    }
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Ann@example.org' AND kind <> 'welcome'"),
                     1);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM messages WHERE reason LIKE '%the same text as an earlier"
                                 " mail this step%'"),
                     7);
    /* Different mistakes are answered, up to refusals_per_hour (4) in all. */
    for (int i = 0; i < 6; i++) {
        char body[40];
        snprintf(body, sizeof(body), "MOVE z%d", i + 1);
        t_mail_to(db, "Ann@example.org", to, "Re: [ngoma 1] Your turn", body, NULL);
    }
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Ann@example.org' AND kind <> 'welcome'"),
                     4);
    /* An order she may give is answered as always. */
    struct strlist legal = STRLIST_INIT;
    g.ops->legal(g.st, 0, &g.table, &legal);
    t_mail_to(db, "Ann@example.org", to, "Re: [ngoma 1] Your turn", legal.v[0], NULL);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Ann@example.org' AND kind <> 'welcome'"),
                     5);
    strlist_clear(&legal);
    game_unload(&g);
    db_close(db);
}
END_TEST

Suite *trust_suite(void)
{
    Suite *s = suite_create("trust");
    TCase *tc = tcase_create("trust");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_option_is_taken_or_refused_from_the_lobby_as_its_game_declares);
    tcase_add_test(tc, files_that_are_not_regular_or_too_long_are_refused_without_reading);
    tcase_add_test(tc, verify_refuses_a_hostile_record_and_says_what_it_checked);
    tcase_add_test(tc, every_fairness_line_says_who_chose_the_seed_and_the_deal);
    tcase_add_test(tc, a_forged_mail_cannot_replace_or_extend_the_commands_that_wait);
    tcase_add_test(tc, invitations_from_every_path_share_one_budget);
    tcase_add_test(tc, an_invited_friend_joins_without_as_and_the_game_starts);
    tcase_add_test(tc, leave_and_unseat_always_work_before_the_start);
    tcase_add_test(tc, a_table_that_cannot_start_tells_its_host_why_and_what_fixes_it);
    tcase_add_test(tc, a_responder_that_hides_itself_is_answered_once_a_step);
    suite_add_tcase(s, tc);
    return s;
}
