/* check_seats.c: seats that change hands: the lineage each change writes, votes that belong to their person, agreed ends by sides, and ratings that follow the record (rollback, leavers, three orders of one's own). */
#include "test_support.h"

#include "core/engine.h"
#include "core/verify.h"
#include "core/visibility.h"
#include "judge/schedule.h"
#include "store/settings.h"
#include "judge/standing.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "store/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A line of text as seat, in its own transaction; what it answered (owned). */
static char *say(sqlite3 *db, struct game_rec *g, int seat, const char *text)
{
    struct submission sub;
    struct strbuf all = STRBUF_INIT;
    t_submit(db, g, seat, text, &sub);
    for (size_t i = 0; i < sub.n; i++)
        strbuf_addf(&all, "%s\n", sub.lines[i].body.buf ? sub.lines[i].body.buf : "");
    submission_release(&sub);
    t_reload(db, g);
    return strbuf_detach(&all);
}


/* Every seat the game waits for gives a legal order, n rounds. */
static void play_rounds(sqlite3 *db, struct game_rec *g, int n)
{
    for (int round = 0; round < n; round++)
        for (int s = 0; s < g->nseats; s++) {
            struct strlist legal = STRLIST_INIT;
            if (!((g->ops->waiting_for(g->st) >> s) & 1) || g->seats[s].bot)
                continue;
            g->ops->legal(g->st, s, &g->table, &legal);
            if (legal.n)
                free(say(db, g, s, legal.v[legal.n / 2]));
            strlist_clear(&legal);
        }
}

static bool over(const struct game_rec *g)
{
    return str_eq(game_status_of(g->ops, g->st), "finished");
}

/* Cleo concedes, Dan takes her seat, Bob concedes: the game goes on, for
 * Cleo's vote was hers; a kick clears a vote as well. */
START_TEST(a_vote_belongs_to_its_person)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    t_new_game(db, "kalimambo", 3, 3, NULL, &g);
    free(say(db, &g, 2, "CONCEDE"));
    ck_assert_int_eq(t_host(db, &g, "REPLACE Cleo Dan=dan@example.org", &out), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM votes WHERE seat = 3"), 0);
    free(say(db, &g, 1, "CONCEDE"));
    ck_assert_msg(!over(&g), "the game ended on a concession Dan never made");
    /* The lineage: Cleo held seat 3 from the start and gave it up before
     * missing a turn (consent); Dan holds it now. */
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_holders WHERE game_id = 1 AND seat = 3 AND address ="
                                      " 'Cleo@example.org' AND how = 'consent' AND to_step IS NOT NULL"),
                     1);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_holders WHERE game_id = 1 AND seat = 3 AND address ="
                                      " 'dan@example.org' AND to_step IS NULL"),
                     1);
    /* Bob's concession is his: a kick of Bob takes it away. */
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM votes WHERE seat = 2"), 1);
    ck_assert_int_eq(t_host(db, &g, "KICK Bob bot:easy", &out), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM votes WHERE seat = 2"), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_holders WHERE game_id = 1 AND seat = 2 AND how ="
                                      " 'kicked'"),
                     1);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_holders WHERE game_id = 1 AND seat = 2 AND address ="
                                      " 'bot' AND to_step IS NULL"),
                     1);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* Partnership Bantu: a side concedes together, and wins together. */
START_TEST(sides_agree_together)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    char *text;
    t_new_game(db, "bantu", 4, 5, "{\"partnership\":\"yes\"}", &g);
    free(say(db, &g, 1, "CONCEDE"));
    ck_assert(!over(&g));
    free(say(db, &g, 2, "CONCEDE"));
    ck_assert_msg(!over(&g), "one player of each side conceded, and the game ended");
    text = say(db, &g, 3, "CONCEDE");
    ck_assert_msg(over(&g), "both of side 2+4 conceded, and the game goes on: %s", text);
    free(text);
    {
        struct game_result r;
        g.ops->result(g.st, &r);
        ck_assert_uint_eq(r.winners, 0x5); /* seats 1 and 3 */
    }
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A game counts for the ratings only when every rated seat gave three
 * orders of its own; the reason it does not is stored and told. */
START_TEST(sock_puppets_are_not_rated)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    t_new_game(db, "kuniumi", 2, 5, NULL, &g);
    free(say(db, &g, 0, "CONCEDE"));
    ck_assert(over(&g));
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(standing_catch_up(db), 0);
    ck_assert_int_eq(db_commit(db), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM rated_games WHERE rated = 0 AND why LIKE '%gave 0 orders%'"),
                     1);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM player_ratings"), 0);
    ck_assert_int_eq(standing_game_text(db, g.id, NULL, &out), 0);
    ck_assert_msg(strstr(out.buf, "does not count for the ratings") && strstr(out.buf, "at least 3"), "%s", out.buf);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A rollback withdraws the rating of the end it undoes; the game is
 * rated again when it ends again. Whoever the host removed after she
 * missed a turn, or kicked, is ranked with those who left. */
START_TEST(ratings_follow_the_record)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    t_new_game(db, "bantu", 3, 8, NULL, &g);
    play_rounds(db, &g, 4);
    ck_assert(!over(&g));
    ck_assert_int_eq(t_host(db, &g, "KICK Cleo bot:easy", &out), 0);
    free(say(db, &g, 0, "CONCEDE"));
    ck_assert(!over(&g));
    ck_assert_int_eq(t_host(db, &g, "END SCORE enough for a test", &out), 0);
    ck_assert(over(&g));
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(standing_catch_up(db), 0);
    ck_assert_int_eq(db_commit(db), 0);
    ck_assert_msg(t_count(db, "SELECT rated FROM rated_games WHERE game_id = 1") == 1, "not rated: %lld",
                  t_count(db, "SELECT count(*) FROM rated_games"));
    ck_assert_int_eq((int)t_count(db, "SELECT rank FROM rating_changes WHERE address = 'cleo@example.org'"), 3);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM rating_changes WHERE game_id = 1"), 3);
    /* Back before the end: the rating is withdrawn. */
    ck_assert_int_eq(t_host(db, &g, "ROLLBACK STEP 2", &out), 0);
    ck_assert(!over(&g));
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM rated_games WHERE game_id = 1"), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM rating_changes"), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM player_ratings"), 0);
    /* Ann's concession came after step 2: it went with the rollback. */
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM votes"), 0);
    ck_assert_int_eq(t_host(db, &g, "END SCORE again", &out), 0);
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(standing_catch_up(db), 0);
    ck_assert_int_eq(db_commit(db), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM rated_games WHERE game_id = 1"), 1);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST


static void mail_as(sqlite3 *db, const struct game_rec *g, int seat, const char *body)
{
    struct strbuf to = STRBUF_INIT;
    strbuf_addf(&to, "ngoma+%lld-%d-%s@localhost", (long long)g->id, seat + 1, g->seats[seat].secret);
    t_mail_to(db, g->seats[seat].email, to.buf, "Re: game", body, NULL);
    strbuf_release(&to);
}

/* A newcomer's HISTORY shows no press of the seat's former holder. */
START_TEST(a_newcomer_reads_no_former_press)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    char *text;
    t_new_game(db, "bantu", 3, 9, NULL, &g);
    mail_as(db, &g, 0, "PRESS TO Cleo: a secret plan for Cleo only");
    mail_as(db, &g, 2, "HISTORY");
    text = t_last_text(db, "Cleo@example.org", "help");
    ck_assert_msg(strstr(text, "a secret plan") != NULL, "%s", text);
    free(text);
    ck_assert_int_eq(t_host(db, &g, "REPLACE Cleo Dan=dan@example.org", &out), 0);
    mail_as(db, &g, 2, "HISTORY");
    text = t_last_text(db, "dan@example.org", "help");
    ck_assert_msg(!strstr(text, "a secret plan") && strstr(text, "No press of yours"), "the newcomer reads Cleo's press: %s",
                  text);
    free(text);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A lobby table's opener is a player with a table: by her host address
 * she may ask STATUS, never roll back, end, or put an address into a
 * seat; and she reads no address. */
START_TEST(an_opener_is_no_host)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    char *secret = NULL, *text;
    struct strbuf to = STRBUF_INIT;
    t_confirmed(db, "ann@example.org");
    t_confirmed(db, "bob@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi SEATS 2 AS Ann");
    t_lobby(db, "bob@example.org", "join", "JOIN 1 AS Bob");
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    ck_assert_int_eq(db_get_text(db, &secret, "SELECT host_secret FROM games WHERE id = 1", ""), 1);
    strbuf_addf(&to, "ngoma+1-host-%s@localhost", secret);
    t_mail_to(db, "ann@example.org", to.buf, "Re: [ngoma 1] host",
              "ROLLBACK STEP 0\nEND SCORE I was losing\nREPLACE Bob Vic=victim@example.org\nKICK Bob\nSTATUS", NULL);
    t_reload(db, &g);
    ck_assert(!over(&g));
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'victim@example.org'"), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seats WHERE bot = 1"), 0);
    text = t_last_text(db, "ann@example.org", "host");
    ck_assert_msg(strstr(text, "not its host") && strstr(text, "put nobody into a seat") &&
                      !strstr(text, "bob@example.org"),
                  "%s", text);
    free(text);
    free(secret);
    strbuf_release(&to);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* Ann opens Kalimambo game 1 in the lobby (NEW with options), Bob and Cy
 * join: g loaded, to her host address; her host secret (owned). */
static char *opened_by_ann(sqlite3 *db, const char *options, struct game_rec *g, struct strbuf *to)
{
    char *secret = NULL, line[160];
    t_confirmed(db, "ann@example.org");
    t_confirmed(db, "bob@example.org");
    t_confirmed(db, "cy@example.org");
    snprintf(line, sizeof(line), "NEW kalimambo SEATS 3 DEADLINE 48h%s AS Ann", options);
    t_lobby(db, "ann@example.org", "new", line);
    t_lobby(db, "bob@example.org", "join", "JOIN 1 AS Bob");
    t_lobby(db, "cy@example.org", "join", "JOIN 1 AS Cy");
    ck_assert_int_eq(game_load(db, 1, g), 0);
    ck_assert_int_eq(db_get_text(db, &secret, "SELECT host_secret FROM games WHERE id = 1", ""), 1);
    strbuf_addf(to, "ngoma+1-host-%s@localhost", secret);
    return secret;
}

/* The opener's PAUSE and EXTEND wait for the others' consent: asked (the
 * others told, without her name), nothing changes until each agrees by
 * AGREE at the lobby; a stranger's or her own AGREE counts for nothing;
 * the ask lapses when the step ends. */
START_TEST(an_opener_pauses_with_the_others_consent)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    char *secret = NULL, *text;
    struct strbuf to = STRBUF_INIT;
    t_confirmed(db, "eve@example.org");
    secret = opened_by_ann(db, "", &g, &to);
    t_mail_to(db, "ann@example.org", to.buf, "Re: [ngoma 1] host", "PAUSE", NULL);
    t_reload(db, &g);
    ck_assert(!g.sched.paused);
    text = t_last_text(db, "ann@example.org", "host");
    ck_assert_msg(strstr(text, "every other player agrees"), "%s", text);
    free(text);
    text = t_last_text(db, "bob@example.org", "notice");
    ck_assert_msg(strstr(text, "AGREE 1") && strstr(text, "The player who opened this game's table asks"), "%s",
                  text);
    free(text);
    /* Her own AGREE and a stranger's count for nothing. */
    t_lobby(db, "ann@example.org", "agree", "AGREE 1");
    ck_assert(t_last_has(db, "ann@example.org", "you asked it yourself"));
    t_lobby(db, "eve@example.org", "agree", "AGREE 1");
    ck_assert(t_last_has(db, "eve@example.org", "only the players of game 1"));
    t_lobby(db, "bob@example.org", "agree", "AGREE 1");
    ck_assert(t_last_has(db, "bob@example.org", "waits for 1 more player"));
    t_reload(db, &g);
    ck_assert(!g.sched.paused);
    t_lobby(db, "cy@example.org", "agree", "AGREE 1");
    ck_assert(t_last_has(db, "cy@example.org", "Every player agreed: game "));
    t_reload(db, &g);
    ck_assert(g.sched.paused);
    /* RESUME is hers alone; an EXTEND asked, then the step ends: it lapses. */
    t_mail_to(db, "ann@example.org", to.buf, "Re: [ngoma 1] host", "RESUME\nEXTEND 2d", NULL);
    t_reload(db, &g);
    ck_assert(!g.sched.paused);
    {
        char *before = xstrdup(g.sched.deadline_at);
        for (int s = 0; s < 3; s++) {
            struct strlist legal = STRLIST_INIT;
            g.ops->legal(g.st, s, &g.table, &legal);
            t_ok(db, &g, s, legal.v[0]);
            strlist_clear(&legal);
        }
        ck_assert_int_eq(g.turn, 1);
        t_lobby(db, "bob@example.org", "agree", "AGREE 1");
        ck_assert(t_last_has(db, "bob@example.org", "nobody asks anything"));
        free(before);
    }
    free(secret);
    strbuf_release(&to);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A seat changes hands between the opener's ask and the last AGREE (a
 * kick, then a takeover): the ask lapses, everyone reads so in the
 * notice of the change (in an anonymous game, naming nobody), a later
 * AGREE counts for nothing, and an ask made anew waits for the newcomer. */
START_TEST(an_ask_lapses_when_a_seat_changes_hands)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    char *secret = NULL, *text;
    struct strbuf to = STRBUF_INIT, out = STRBUF_INIT;
    t_confirmed(db, "vera@example.org");
    secret = opened_by_ann(db, " OPTION anonymous=yes", &g, &to);
    t_mail_to(db, "ann@example.org", to.buf, "Re: [ngoma 1] host", "PAUSE", NULL);
    t_lobby(db, "bob@example.org", "agree", "AGREE 1");
    ck_assert(t_last_has(db, "bob@example.org", "waits for 1 more player"));
    /* The shell's host kicks Cy: the ask lapses, and all read why. */
    t_reload(db, &g);
    {
        int cy = -1;
        char line[64];
        for (int s = 0; s < 3; s++)
            if (str_eq(g.seats[s].email, "cy@example.org"))
                cy = s;
        ck_assert_int_ge(cy, 0);
        snprintf(line, sizeof(line), "KICK %s bot:easy", g.names[cy]);
        ck_assert_int_eq(t_host(db, &g, line, &out), 0);
        text = t_last_text(db, "bob@example.org", "notice");
        ck_assert_msg(strstr(text, "ask for a pause") && strstr(text, "lapses") && !strstr(text, "Cy") &&
                          !strstr(text, "Ann"),
                      "%s", text);
        free(text);
        ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM consent_asks"), 0);
        t_lobby(db, "bob@example.org", "agree", "AGREE 1");
        ck_assert(t_last_has(db, "bob@example.org", "nobody asks anything"));
        t_reload(db, &g);
        ck_assert(!g.sched.paused);
        /* Asked anew, Ann's ask is Bob's alone to agree (a bot sits in
         * Cy's seat): done at his AGREE. */
        t_mail_to(db, "ann@example.org", to.buf, "Re: [ngoma 1] host", "PAUSE", NULL);
        t_lobby(db, "bob@example.org", "agree", "AGREE 1");
        ck_assert(t_last_has(db, "bob@example.org", "Every player agreed: game "));
        t_mail_to(db, "ann@example.org", to.buf, "Re: [ngoma 1] host", "RESUME\nEXTEND 1d", NULL);
        ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM consent_asks"), 1);
        /* Vera takes the seat over: the EXTEND lapses; asked anew, it
         * waits for her too. */
        snprintf(line, sizeof(line), "TAKE 1 %s AS Vera", g.names[cy]);
        t_lobby(db, "vera@example.org", "take", line);
        ck_assert(t_last_has(db, "vera@example.org", "You take over seat"));
        ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM consent_asks"), 0);
        text = t_last_text(db, "bob@example.org", "notice");
        ck_assert_msg(strstr(text, "A new player takes over seat") && strstr(text, "1d more for this step") &&
                          strstr(text, "lapses") && !strstr(text, "Vera"),
                      "%s", text);
        free(text);
        t_mail_to(db, "ann@example.org", to.buf, "Re: [ngoma 1] host", "PAUSE", NULL);
        t_lobby(db, "bob@example.org", "agree", "AGREE 1");
        ck_assert(t_last_has(db, "bob@example.org", "waits for 1 more player"));
        t_lobby(db, "vera@example.org", "agree", "AGREE 1");
        ck_assert(t_last_has(db, "vera@example.org", "Every player agreed: game "));
        t_reload(db, &g);
        ck_assert(g.sched.paused);
    }
    free(secret);
    strbuf_release(&to);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A takeover in an anonymous game: the seat is listed and taken by its
 * title; the others' notice names neither who left nor who came, the
 * newcomer reads no one's name, and the public views hold none of them
 * while the game runs. */
START_TEST(a_takeover_keeps_anonymity)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    char *text;
    t_new_game(db, "kuniumi", 2, 21, "{\"anonymous\":\"yes\"}", &g);
    t_confirmed(db, "vera@example.org");
    ck_assert_int_eq(t_host(db, &g, "KICK Beta bot:easy", &out), 0);
    t_lobby(db, "vera@example.org", "list", "LIST");
    ck_assert_msg(t_last_has(db, "vera@example.org", "TAKE 1 Beta"), "LIST shows no seat to take by its title");
    ck_assert(!t_last_has(db, "vera@example.org", "Bob"));
    t_lobby(db, "vera@example.org", "take", "TAKE 1 Beta AS Vera");
    ck_assert_msg(t_last_has(db, "vera@example.org", "You take over seat 2"), "TAKE was not taken");
    text = t_last_text(db, "vera@example.org", "welcome");
    ck_assert_msg(!strstr(text, "Ann") && !strstr(text, "Bob"), "the newcomer reads a name: %s", text);
    free(text);
    text = t_last_text(db, "Ann@example.org", "notice");
    ck_assert_msg(strstr(text, "seat 2") && !strstr(text, "Vera") && !strstr(text, "Bob"),
                  "the others read who left or came: %s", text);
    free(text);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_players WHERE game_id = 1"), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM player_ratings WHERE address = 'vera@example.org'"), 0);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A seat a bot plays since its player was kicked is listed in the lobby
 * and taken over by a new player, who reads her seat's hand and nobody
 * else's; whoever was in the game takes none of its seats. */
START_TEST(a_new_player_takes_over)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    struct strlist mine = STRLIST_INIT, others = STRLIST_INIT;
    char *text, *mail = NULL;
    t_new_game(db, "african-empires", 3, 21, NULL, &g);
    t_confirmed(db, "vera@example.org");
    t_confirmed(db, "cleo@example.org");
    t_lobby(db, "vera@example.org", "list", "LIST");
    ck_assert(!t_last_has(db, "vera@example.org", "TAKE 1"));
    ck_assert_int_eq(t_host(db, &g, "KICK Cleo bot:easy", &out), 0);
    t_lobby(db, "vera@example.org", "list", "LIST");
    ck_assert_msg(t_last_has(db, "vera@example.org", "TAKE 1 Cleo takes it"), "LIST shows no seat to take");
    /* Cleo, who left it, does not come back through the lobby. */
    t_lobby(db, "cleo@example.org", "take", "TAKE 1 Cleo AS Cleo");
    ck_assert(t_last_has(db, "cleo@example.org", "played in game 1 already"));
    t_lobby(db, "vera@example.org", "take", "TAKE 1 Cleo AS Vera");
    ck_assert_msg(t_last_has(db, "vera@example.org", "You take over seat 3"), "TAKE was not taken");
    t_reload(db, &g);
    ck_assert_str_eq(g.seats[2].email, "vera@example.org");
    ck_assert(!g.seats[2].bot);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_holders WHERE game_id = 1 AND seat = 3"), 3);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_holders WHERE game_id = 1 AND seat = 3 AND how ="
                                      " 'taken' AND address = 'bot'"),
                     1);
    /* Her welcome shows her hand, and no other. */
    g.ops->secrets(g.st, 2, &g.table, &mine);
    g.ops->secrets(g.st, 0, &g.table, &others);
    g.ops->secrets(g.st, 1, &g.table, &others);
    ck_assert_int_eq(db_get_text(db, &mail, "SELECT mail FROM outbox WHERE rcpt = 'vera@example.org' AND kind ="
                                            " 'welcome' ORDER BY id DESC LIMIT 1",
                                 ""),
                     1);
    {
        char *raw = t_readable(mail);
        text = t_flat(raw); /* a card's name may wrap */
        free(raw);
    }
    for (size_t i = 0; i < mine.n; i++)
        ck_assert_msg(strstr(text, mine.v[i]) != NULL, "her welcome lacks her card %s", mine.v[i]);
    for (size_t i = 0; i < others.n; i++) {
        bool hers = false;
        for (size_t k = 0; k < mine.n; k++)
            hers |= str_eq(mine.v[k], others.v[i]);
        ck_assert_msg(hers || !strstr(text, others.v[i]), "her welcome shows another's card %s", others.v[i]);
    }
    free(text);
    free(mail);
    /* The others are told; the seat is no longer to be taken. */
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM outbox WHERE kind = 'notice' AND rcpt IN"
                                      " ('Ann@example.org', 'Bob@example.org') AND mail LIKE '%takes over seat 3%'"),
                     2);
    t_lobby(db, "vera@example.org", "take", "TAKE 1 Vera AS Vera");
    ck_assert(t_last_has(db, "vera@example.org", "not open for the taking"));
    {
        /* Cleo, by her old address and secret: told at her own address
         * that the seat is no longer hers; Vera hears nothing of it. */
        struct strbuf to = STRBUF_INIT;
        long long vera = t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'vera@example.org'");
        strbuf_addf(&to, "ngoma+1-3-%s@localhost", "oldsecret0");
        struct inbound_result rr = t_mail_to(db, "Cleo@example.org", to.buf, "Re: game", "PLAY 1\n", NULL);
        ck_assert_msg(rr.status == INBOUND_REFUSED, "%s", rr.summary);
        ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'vera@example.org'"), vera);
        text = t_last_text(db, "cleo@example.org", "left");
        ck_assert_msg(strstr(text, "You no longer play seat 3 of game 1: another player plays it") &&
                          !strstr(text, "Vera"),
                      "%s", text);
        free(text);
        strbuf_release(&to);
    }
    /* The game goes on by mail, Vera's orders hers: every one she sends
     * from her seat's address is taken, none of Cleo's old secret is. */
    {
        int vera_orders = 0;
        struct rng r;
        rng_seed(&r, 5, 1);
        for (int step = 0; step < 40 && !over(&g); step++) {
            unsigned w = g.ops->waiting_for(g.st);
            for (int s = 0; s < g.nseats; s++) {
                struct strlist legal = STRLIST_INIT;
                if (!((w >> s) & 1) || g.seats[s].bot)
                    continue;
                g.ops->legal(g.st, s, &g.table, &legal);
                if (legal.n) {
                    mail_as(db, &g, s, t_pick(&legal, &r));
                    vera_orders += s == 2;
                }
                strlist_clear(&legal);
                t_reload(db, &g);
            }
        }
        ck_assert_msg(vera_orders >= 3, "Vera gave %d orders", vera_orders);
        /* The host's record replays, with the seat named by its holder. */
        strbuf_reset(&out);
        ck_assert_msg(verify_game(db, &g, &out) == 0, "%s", out.buf);
        ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM orders o JOIN seats s ON s.game_id = o.game_id AND"
                                          " s.seat = o.seat WHERE o.seat = 3 AND o.source = 'mail' AND o.status ="
                                          " 'rejected'"),
                         0);
    }
    strlist_clear(&mine);
    strlist_clear(&others);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A grey message's writer leaves her seat to another: a reply to it
 * reaches nobody (neither she, who left, nor the newcomer, who wrote
 * nothing), and the answer reads as it would if it had. */
START_TEST(a_grey_reply_to_a_former_holder_reaches_nobody)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    char *mail, *reply, *text;
    t_new_game(db, "bantu", 4, 7, "{\"press\":\"grey\"}", &g);
    mail_as(db, &g, 2, "PRESS TO ALL: an alliance, anyone?");
    ck_assert_int_eq(db_get_text(db, &mail, "SELECT mail FROM outbox WHERE rcpt = 'Ann@example.org' AND kind ="
                                            " 'press' ORDER BY id DESC LIMIT 1", ""),
                     1);
    reply = t_reply_to(mail);
    free(mail);
    /* Before the change, the reply reaches its writer. */
    t_mail_to(db, "Ann@example.org", reply, "Re: [ngoma 1] Bantu", "yes, with you\n", NULL);
    ck_assert_int_eq((int)t_mails_to(db, "Cleo@example.org", "press"), 1);
    ck_assert_msg(t_host(db, &g, "REPLACE Cleo Eve=eve@example.org", &out) == 0, "%s", out.buf);
    t_mail_to(db, "Ann@example.org", reply, "Re: [ngoma 1] Bantu", "still there?\n", NULL);
    ck_assert_int_eq((int)t_mails_to(db, "Cleo@example.org", "press"), 1);
    ck_assert_int_eq((int)t_mails_to(db, "eve@example.org", "press"), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM press_recipients r JOIN press p ON p.id = r.press_id"
                                      " WHERE p.body LIKE 'still there?%' AND r.status = 'left'"),
                     1);
    /* Her answer (none: press sent is its own answer) says nothing of it. */
    ck_assert_int_eq((int)t_mails_to(db, "Ann@example.org", "reply"), 0);
    /* Dan's own grey message gets its own replies. */
    mail_as(db, &g, 2, "PRESS TO ALL: I am new here");
    text = NULL;
    ck_assert_int_eq(db_get_text(db, &text, "SELECT mail FROM outbox WHERE rcpt = 'Ann@example.org' AND kind ="
                                            " 'press' ORDER BY id DESC LIMIT 1", ""),
                     1);
    free(reply);
    reply = t_reply_to(text);
    free(text);
    t_mail_to(db, "Ann@example.org", reply, "Re: [ngoma 1] Bantu", "welcome\n", NULL);
    ck_assert_int_eq((int)t_mails_to(db, "eve@example.org", "press"), 1);
    free(reply);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* Reliability as the host's view has it for an address. */
static long long asked_of(sqlite3 *db, const char *address)
{
    char sql[200];
    snprintf(sql, sizeof(sql), "SELECT coalesce(max(asked), 0) FROM people_reliability WHERE address = '%s'", address);
    return t_count(db, sql);
}

/* A rollback to before a kick and a takeover: the newcomer keeps the
 * seat (a rollback moves the position, not who sits), the orders she
 * gives on the steps played again are hers, never the leaver's, and the
 * game ends rated with the leaver among those who left. */
START_TEST(a_rollback_past_a_takeover_keeps_the_newcomer)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    long long cleo, vera, holders;
    int back;
    t_new_game(db, "bantu", 3, 23, NULL, &g);
    play_rounds(db, &g, 3);
    back = g.turn;
    ck_assert_int_eq(t_host(db, &g, "KICK Cleo bot:easy", &out), 0);
    play_rounds(db, &g, 2);
    t_confirmed(db, "vera@example.org");
    t_lobby(db, "vera@example.org", "take", "TAKE 1 Cleo AS Vera");
    ck_assert_msg(t_last_has(db, "vera@example.org", "You take over seat 3"), "TAKE was not taken");
    t_reload(db, &g);
    play_rounds(db, &g, 2);
    cleo = asked_of(db, "Cleo@example.org");
    vera = asked_of(db, "vera@example.org");
    holders = t_count(db, "SELECT count(*) FROM seat_holders WHERE game_id = 1");
    ck_assert_int_gt(vera, 0);
    ck_assert_int_eq(t_host(db, &g, "ROLLBACK STEP 0", &out), 0);
    (void)back;
    ck_assert_int_eq(g.turn, 0);
    /* Vera still sits, and the lineage is as it was. */
    ck_assert_str_eq(g.seats[2].email, "vera@example.org");
    ck_assert(!g.seats[2].bot);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM seat_holders WHERE game_id = 1"), holders);
    ck_assert(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'vera@example.org' AND kind = 'notice' AND mail"
                          " LIKE '%rolled back%'") == 1);
    /* The steps played again: Vera's orders are hers. */
    play_rounds(db, &g, 4);
    ck_assert_int_eq(asked_of(db, "Cleo@example.org"), cleo);
    ck_assert_int_gt(asked_of(db, "vera@example.org"), vera);
    ck_assert_int_eq(t_host(db, &g, "END SCORE enough", &out), 0);
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(standing_catch_up(db), 0);
    ck_assert_int_eq(db_commit(db), 0);
    ck_assert_msg(t_count(db, "SELECT rated FROM rated_games WHERE game_id = 1") == 1, "not rated");
    ck_assert_int_eq((int)t_count(db, "SELECT rank FROM rating_changes WHERE address = 'cleo@example.org'"), 3);
    ck_assert_int_lt((int)t_count(db, "SELECT rank FROM rating_changes WHERE address = 'vera@example.org'"), 3);
    /* The record replays: Cleo's name up to the takeover, Vera's after,
     * through the rollback. */
    strbuf_reset(&out);
    ck_assert_msg(verify_game(db, &g, &out) == 0, "%s", out.buf);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* Ann and Bob play what the game asks of them; the deadline plays for
 * Cleo, who is silent: n deadlines passed, an hour apart from at. */
static void deadlines_pass(sqlite3 *db, struct game_rec *g, int n, time_t *at)
{
    for (int i = 0; i < n; i++) {
        struct schedule_stats st;
        char when[32];
        for (int s = 0; s < 2; s++) {
            struct strlist legal = STRLIST_INIT;
            if (!((g->ops->waiting_for(g->st) >> s) & 1) || g->seats[s].bot)
                continue;
            g->ops->legal(g->st, s, &g->table, &legal);
            if (legal.n)
                t_ok(db, g, s, legal.v[0]);
            strlist_clear(&legal);
        }
        *at += 2 * 3600;
        utc_format(*at, when);
        setenv("NGOMA_NOW", when, 1);
        memset(&st, 0, sizeof(st));
        ck_assert_int_eq(schedule_run(db, &st), 0);
        t_reload(db, g);
    }
}

static void with_deadline(sqlite3 *db, struct game_rec *g)
{
    struct schedule_opts o = { .deadline = 3600, .nmr = "bot" };
    struct strbuf err = STRBUF_INIT;
    ck_assert_int_eq(schedule_configure(db, g->id, &o, &err), 0);
    strbuf_release(&err);
    t_reload(db, g);
}

/* A player a bot stood in for drop_after deadlines in a row leaves her
 * seat to the bot: the lineage says dropped, her reliability counts it
 * abandoned and her missed turns hers, the others are told, and the
 * lobby offers the seat; a game with takeover=no keeps her, and so does
 * drop_after 0. */
START_TEST(a_silent_player_leaves_her_seat_to_a_bot)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    struct strbuf err = STRBUF_INIT;
    time_t at = 1796119200; /* 2026-12-01T10:00:00Z */
    char *text;
    setenv("NGOMA_NOW", "2026-12-01T10:00:00Z", 1);
    ck_assert_int_eq(setting_set(db, "bot_level", "easy", &err), 0);
    t_new_game(db, "kalimambo", 3, 31, NULL, &g);
    with_deadline(db, &g);
    deadlines_pass(db, &g, 2, &at);
    ck_assert(!g.seats[2].bot);
    deadlines_pass(db, &g, 1, &at);
    ck_assert_msg(g.seats[2].bot, "Cleo keeps her seat after %lld missed deadlines",
                  t_count(db, "SELECT count(*) FROM orders WHERE seat = 3 AND source = 'nmr'"));
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_holders WHERE game_id = 1 AND seat = 3 AND how ="
                                      " 'dropped' AND address = 'Cleo@example.org'"),
                     1);
    ck_assert_int_eq((int)t_count(db, "SELECT missed FROM people_reliability WHERE address = 'Cleo@example.org'"), 3);
    ck_assert_int_eq((int)t_count(db, "SELECT abandoned FROM people_reliability WHERE address = 'Cleo@example.org'"), 1);
    text = t_last_text(db, "Cleo@example.org", "nmr");
    ck_assert_msg(strstr(text, "missed 3 deadlines in a row") && strstr(text, "no longer yours"), "%s", text);
    free(text);
    text = t_last_text(db, "Ann@example.org", "notice");
    ck_assert_msg(strstr(text, "Cleo missed 3 deadlines in a row") && strstr(text, "take it over"), "%s", text);
    free(text);
    t_confirmed(db, "vera@example.org");
    t_lobby(db, "vera@example.org", "list", "LIST");
    ck_assert_msg(t_last_has(db, "vera@example.org", "TAKE 1 Cleo takes it"), "LIST shows no seat to take");
    /* The bot plays on; the next deadline drops nobody else, mails Cleo nothing. */
    {
        long long mails = t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Cleo@example.org'");
        deadlines_pass(db, &g, 1, &at);
        ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Cleo@example.org'"), mails);
    }
    game_unload(&g);

    /* takeover=no keeps her; so does drop_after 0. */
    t_new_game(db, "kalimambo", 3, 32, "{\"takeover\":\"no\"}", &g);
    with_deadline(db, &g);
    deadlines_pass(db, &g, 4, &at);
    ck_assert(!g.seats[2].bot);
    game_unload(&g);
    ck_assert_int_eq(setting_set(db, "drop_after", "0", &err), 0);
    t_new_game(db, "kalimambo", 3, 33, NULL, &g);
    with_deadline(db, &g);
    deadlines_pass(db, &g, 4, &at);
    ck_assert(!g.seats[2].bot);
    /* (Game 1 went on meanwhile, Ann and Bob silent in it too: each was
     * dropped in turn, and with no person left it ended.) */
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_holders WHERE how = 'dropped' AND game_id > 1"), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_holders WHERE how = 'dropped' AND game_id = 1"), 3);
    ck_assert_str_eq(t_count(db, "SELECT status = 'finished' FROM games WHERE id = 1") ? "ended" : "runs", "ended");
    unsetenv("NGOMA_NOW");
    strbuf_release(&err);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A player whose seat a bot plays now (kicked, or dropped by the
 * deadlines) plays it no more by mail: her old secret is refused, and
 * she is told why. */
START_TEST(a_kicked_player_plays_no_more)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    long long before, orders;
    char *text;
    t_new_game(db, "kalimambo", 3, 51, NULL, &g);
    ck_assert_int_eq(t_host(db, &g, "KICK Cleo bot:easy", &out), 0);
    orders = t_count(db, "SELECT count(*) FROM orders WHERE seat = 3 AND source = 'mail'");
    before = t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Cleo@example.org'");
    mail_as(db, &g, 2, "PLAY 5");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders WHERE seat = 3 AND source = 'mail'"), orders);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Cleo@example.org'"), before + 1);
    text = t_last_text(db, "Cleo@example.org", "left");
    ck_assert_msg(strstr(text, "a bot plays") != NULL, "%s", text);
    free(text);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* takeover=no: the host keeps a kicked seat to the bot. */
START_TEST(takeover_can_be_off)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    t_new_game(db, "bantu", 3, 22, "{\"takeover\":\"no\"}", &g);
    t_confirmed(db, "vera@example.org");
    /* A host command a letter off is offered, never done. */
    ck_assert_int_eq(t_host(db, &g, "KIKC Cleo bot:easy", &out), 1);
    ck_assert_msg(strstr(out.buf, "Did you mean KICK?") != NULL, "%s", out.buf);
    ck_assert(!g.seats[2].bot);
    /* The host's table checks a command's words once, as the shell's. */
    strbuf_reset(&out);
    ck_assert_int_eq(t_host(db, &g, "PAUSE now please", &out), 1);
    ck_assert_msg(strstr(out.buf, "PAUSE is written PAUSE, not \"PAUSE now please\".") != NULL, "%s", out.buf);
    ck_assert(!g.sched.paused);
    ck_assert_int_eq(t_host(db, &g, "KICK Cleo bot:easy", &out), 0);
    t_lobby(db, "vera@example.org", "list", "LIST");
    ck_assert(!t_last_has(db, "vera@example.org", "TAKE 1"));
    t_lobby(db, "vera@example.org", "take", "TAKE 1 Cleo");
    ck_assert(t_last_has(db, "vera@example.org", "takeover=no"));
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A stranger who loops REPLACE or INVITE at one address sends it at most
 * one mail it did not ask for. */
START_TEST(unasked_mail_is_budgeted)
{
    sqlite3 *db = t_lobby_db("open");
    char *secret = NULL;
    struct strbuf body = STRBUF_INIT, to = STRBUF_INIT;
    t_confirmed(db, "ann@example.org");
    t_confirmed(db, "bob@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi SEATS 2 AS Ann");
    /* INVITE forty times, then the table starts. */
    for (int i = 0; i < 40; i++)
        strbuf_addstr(&body, "INVITE 1 victim@example.org\n");
    t_lobby(db, "ann@example.org", "invite", body.buf);
    t_lobby(db, "bob@example.org", "join", "JOIN 1 AS Bob");
    ck_assert_int_eq(db_get_text(db, &secret, "SELECT host_secret FROM games WHERE id = 1", ""), 1);
    strbuf_reset(&body);
    for (int i = 0; i < 40; i++)
        strbuf_addf(&body, "REPLACE %s Vic%d=victim@example.org\n", i % 2 ? "Ann" : "Bob", i);
    strbuf_addf(&to, "ngoma+1-host-%s@localhost", secret);
    t_mail_to(db, "ann@example.org", to.buf, "Re: [ngoma 1] host", body.buf, NULL);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'victim@example.org'"), 1);
    /* REMATCH forty times: Bob's other player is invited once. */
    {
        struct game_rec g;
        long long before = t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'ann@example.org'");
        ck_assert_int_eq(game_load(db, 1, &g), 0);
        free(say(db, &g, 1, "CONCEDE"));
        ck_assert(over(&g));
        game_unload(&g);
        before = t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'ann@example.org'");
        strbuf_reset(&body);
        for (int i = 0; i < 40; i++)
            strbuf_addstr(&body, "REMATCH 1\n");
        t_lobby(db, "bob@example.org", "rematch", body.buf);
        ck_assert_int_le(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'ann@example.org'") - before, 1);
        ck_assert_int_le(t_count(db, "SELECT count(*) FROM lobby_tables"), 2);
    }
    /* TAKE forty times: the seat is taken once, and the others told once. */
    {
        struct game_rec g;
        struct strbuf out = STRBUF_INIT;
        long long before;
        t_new_game(db, "bantu", 3, 24, NULL, &g);
        ck_assert_int_eq(t_host(db, &g, "KICK Cleo bot:easy", &out), 0);
        t_confirmed(db, "vera@example.org");
        before = t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Ann@example.org'");
        strbuf_reset(&body);
        for (int i = 0; i < 40; i++)
            strbuf_addf(&body, "TAKE %lld Cleo AS Vera\n", (long long)g.id);
        t_lobby(db, "vera@example.org", "take", body.buf);
        ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Ann@example.org'") - before, 1);
        ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_holders WHERE address = 'vera@example.org'"), 1);
        strbuf_release(&out);
        game_unload(&g);
    }
    free(secret);
    strbuf_release(&body);
    strbuf_release(&to);
    db_close(db);
}
END_TEST

/* A turn the deadline played for Bob is charged to Bob, not to Dora who
 * took his seat after; the host's REPLACE of one who missed a turn ranks
 * him with those who left. */
START_TEST(missed_turns_stay_with_the_leaver)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    char *played = NULL;
    int waited;
    t_new_game(db, "kuniumi", 2, 4, NULL, &g);
    play_rounds(db, &g, 2);
    waited = (g.ops->waiting_for(g.st) & 1) ? 0 : 1;
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(engine_play_for(db, &g, waited, "nmr", &played), 0);
    ck_assert_int_eq(db_commit(db), 0);
    free(played);
    t_reload(db, &g);
    strbuf_addf(&out, "REPLACE %s Dora=dora@example.org", g.names[waited]);
    {
        char *line = strbuf_detach(&out);
        ck_assert_int_eq(t_host(db, &g, line, &out), 0);
        free(line);
    }
    play_rounds(db, &g, 2);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_holders WHERE how = 'replaced'"), 1);
    ck_assert_int_eq((int)t_count(db, "SELECT missed FROM people_reliability WHERE address = 'dora@example.org'"), 0);
    ck_assert_msg(t_count(db, "SELECT asked FROM people_reliability WHERE address = 'dora@example.org'") >= 1,
                  "Dora's own orders are not hers");
    {
        char sql[160];
        snprintf(sql, sizeof(sql), "SELECT missed FROM people_reliability WHERE address = '%s'",
                 waited ? "Bob@example.org" : "Ann@example.org");
        ck_assert_int_eq((int)t_count(db, sql), 1);
    }
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A game people played ends once none is left: three strong bots do not
 * play it out on the host's time; a game the host opened for bots alone
 * does play. */
START_TEST(no_person_left_ends_the_game)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    t_new_game(db, "bantu", 3, 12, NULL, &g);
    ck_assert_int_eq(t_host(db, &g, "KICK Ann bot:strong", &out), 0);
    ck_assert(!over(&g));
    free(say(db, &g, 1, "RESIGN"));
    ck_assert(!over(&g));
    ck_assert_int_eq(t_host(db, &g, "KICK Cleo bot:strong", &out), 0);
    ck_assert_msg(over(&g), "three bots play on: %s", out.buf);
    ck_assert_msg(strstr(out.buf, "No person is left"), "%s", out.buf);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM turns WHERE kind = 'end'"), 1);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

Suite *seats_suite(void)
{
    Suite *s = suite_create("seats");
    TCase *tc = tcase_create("seats");
    tcase_add_test(tc, a_vote_belongs_to_its_person);
    tcase_add_test(tc, sides_agree_together);
    tcase_add_test(tc, sock_puppets_are_not_rated);
    tcase_add_test(tc, ratings_follow_the_record);
    tcase_add_test(tc, a_newcomer_reads_no_former_press);
    tcase_add_test(tc, an_opener_is_no_host);
    tcase_add_test(tc, an_opener_pauses_with_the_others_consent);
    tcase_add_test(tc, an_ask_lapses_when_a_seat_changes_hands);
    tcase_add_test(tc, a_takeover_keeps_anonymity);
    tcase_add_test(tc, a_new_player_takes_over);
    tcase_add_test(tc, takeover_can_be_off);
    tcase_add_test(tc, a_kicked_player_plays_no_more);
    tcase_add_test(tc, a_grey_reply_to_a_former_holder_reaches_nobody);
    tcase_add_test(tc, a_rollback_past_a_takeover_keeps_the_newcomer);
    tcase_add_test(tc, a_silent_player_leaves_her_seat_to_a_bot);
    tcase_add_test(tc, unasked_mail_is_budgeted);
    tcase_add_test(tc, missed_turns_stay_with_the_leaver);
    tcase_add_test(tc, no_person_left_ends_the_game);
    suite_add_tcase(s, tc);
    return s;
}
