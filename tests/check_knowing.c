/* check_knowing.c: what each player may know where features meet: press never carries an order, grey press names no writer, anonymous titles and addresses stay hidden from players, the host by mail and the public views. */
#include "test_support.h"

#include "core/engine.h"
#include "core/visibility.h"
#include "lib/catalog.h"
#include "judge/host.h"
#include "lib/util.h"
#include "store/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The newest mail of kind to an address (owned). */
static char *last_mail(sqlite3 *db, const char *to, const char *kind)
{
    char *mail = NULL;
    ck_assert_msg(db_get_text(db, &mail, "SELECT mail FROM outbox WHERE rcpt = ? AND kind = ? ORDER BY id DESC LIMIT 1",
                              "ss", to, kind) == 1,
                  "no %s mail to %s", kind, to);
    return mail;
}

static char *seat_address(const struct game_rec *g, int seat)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "ngoma+%lld-%d-%s@localhost", (long long)g->id, seat + 1, g->seats[seat].secret);
    return strbuf_detach(&sb);
}

/* The text of the newest mail of kind to an address, as a client shows it
 * (owned). */
static char *last_text(sqlite3 *db, const char *to, const char *kind)
{
    char *mail = last_mail(db, to, kind), *text;
    struct shown s;
    shown_of(mail, &s);
    text = t_flat(s.text);
    shown_release(&s);
    free(mail);
    return text;
}

static long long pending_of(sqlite3 *db, const struct game_rec *g, int seat)
{
    char sql[200];
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM orders WHERE game_id = %lld AND seat = %d AND status = 'pending'",
             (long long)g->id, seat + 1);
    return t_count(db, sql);
}

/* Cleo answers a press mail with her card and a word; Bob writes a
 * one-line PRESS TO and his card under it: the cards are taken as their
 * orders, only the words are relayed, and each gets an answer. */
START_TEST(press_never_carries_an_order)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strlist legal = STRLIST_INIT;
    char *ann = NULL, *chan, *text, body[200];
    t_new_game(db, "kalimambo", 3, 11, NULL, &g);
    ann = seat_address(&g, 0);
    t_mail_to(db, "Ann@example.org", ann, "Re: [ngoma 1] Kalimambo", "PRESS TO Bob and Cleo: shall we share?", NULL);
    {
        char *mail = last_mail(db, "Cleo@example.org", "press");
        chan = t_reply_to(mail);
        free(mail);
    }
    ck_assert_msg(strstr(chan, "-p") != NULL, "%s", chan);
    g.ops->legal(g.st, 2, &g.table, &legal);
    ck_assert(legal.n > 0);
    snprintf(body, sizeof(body), "%s\nok with me\n\n> shall we share?\n", legal.v[0]);
    t_mail_to(db, "Cleo@example.org", chan, "Re: [ngoma 1] Kalimambo", body, NULL);
    ck_assert_int_eq((int)pending_of(db, &g, 2), 1);
    text = last_text(db, "Ann@example.org", "press");
    ck_assert_msg(strstr(text, "ok with me") && !strstr(text, legal.v[0]), "%s", text);
    free(text);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM press WHERE body LIKE '%PLAY%'"), 0);
    /* Cleo is answered: her order recorded, her press sent. */
    text = last_text(db, "Cleo@example.org", "reply");
    ck_assert_msg(strstr(text, "is recorded") && strstr(text, "reads as an order"), "%s", text);
    free(text);
    strlist_clear(&legal);

    /* Bob: "press to ann: can I trust you?" and his card on the next line. */
    game_unload(&g);
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    g.ops->legal(g.st, 1, &g.table, &legal);
    {
        char *bob = seat_address(&g, 1);
        snprintf(body, sizeof(body), "press to ann: can I trust you?\n%s\n", legal.v[legal.n - 1]);
        str_lower(body);
        t_mail_to(db, "Bob@example.org", bob, "Re: [ngoma 1] Kalimambo", body, NULL);
        free(bob);
    }
    ck_assert_int_eq((int)pending_of(db, &g, 1), 1);
    text = last_text(db, "Ann@example.org", "press");
    ck_assert_msg(strstr(text, "can i trust you?") && !strstr(text, "play "), "%s", text);
    free(text);
    text = last_text(db, "Bob@example.org", "reply");
    ck_assert_msg(strstr(text, "is recorded") && strstr(text, "Sent to Ann"), "%s", text);
    free(text);
    strlist_clear(&legal);
    free(chan);
    free(ann);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* An order in press that is not hers to give now is held back, named in
 * her answer, and not relayed; a sentence with an order's verb is press. */
START_TEST(an_order_out_of_turn_is_held_back)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    char *bob, *text;
    static const char *const from[] = { "Ann@example.org", "Bob@example.org" };
    int idle;
    struct strbuf body = STRBUF_INIT;
    t_new_game(db, "bantu", 2, 7, NULL, &g);
    /* The seat the game does not wait for writes to the other. */
    idle = (g.ops->waiting_for(g.st) & 1) ? 1 : 0;
    bob = seat_address(&g, idle);
    strbuf_addf(&body, "PRESS TO %s: hi there\nENTER 1 24a\nenter at your own risk, friend\n", g.names[!idle]);
    t_mail_to(db, from[idle], bob, "Re: [ngoma 1] Bantu", body.buf, NULL);
    strbuf_release(&body);
    text = last_text(db, from[!idle], "press");
    ck_assert_msg(strstr(text, "hi there") && strstr(text, "enter at your own risk") && !strstr(text, "ENTER 1"),
                  "%s", text);
    free(text);
    text = last_text(db, from[idle], "reply");
    ck_assert_msg(strstr(text, "ENTER 1 24a") && strstr(text, "not your turn") && strstr(text, "reads as an order"),
                  "%s", text);
    free(text);
    /* A mail whose press is all orders sends nothing, and says so. */
    strbuf_addf(&body, "PRESS TO %s: DRAW\n", g.names[!idle]);
    t_mail_to(db, from[idle], bob, "Re: [ngoma 1] Bantu", body.buf, NULL);
    strbuf_release(&body);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM press"), 1);
    text = last_text(db, from[idle], "reply");
    ck_assert_msg(strstr(text, "nothing was sent") && strstr(text, "draw"), "%s", text);
    free(text);
    free(bob);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* Grey press: no mail, answer, history or export names its writer, by
 * name or by elimination; each message has a reply address of its own;
 * a reply reaches the writer alone; MUTE works on a message, never a
 * name. */
START_TEST(grey_press_names_no_writer)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    char *addr[4], *r1, *r2, *text, *mail;
    t_new_game(db, "bantu", 4, 7, "{\"press\":\"grey\"}", &g);
    for (int i = 0; i < 4; i++)
        addr[i] = seat_address(&g, i);
    /* Dan writes to all: no mail lists the others it reached. */
    t_mail_to(db, "Dan@example.org", addr[3], "Re: [ngoma 1] Bantu", "PRESS TO ALL: who am I?\n", NULL);
    t_mail_to(db, "Dan@example.org", addr[3], "Re: [ngoma 1] Bantu", "PRESS TO ALL: and now?\n", NULL);
    for (int i = 0; i < 3; i++) {
        static const char *const to[] = { "Ann@example.org", "Bob@example.org", "Cleo@example.org" };
        text = last_text(db, to[i], "press");
        ck_assert_msg(strstr(text, "to all the players") && !strstr(text, "Dan") && !strstr(text, "Ann") &&
                          !strstr(text, "Bob") && !strstr(text, "Cleo"),
                      "%s", text);
        free(text);
    }
    /* Two messages of one writer: two reply addresses. */
    ck_assert_int_eq(db_get_text(db, &mail,
                                 "SELECT mail FROM outbox WHERE rcpt = 'Ann@example.org' AND kind = 'press' ORDER BY id"
                                 " LIMIT 1",
                                 ""),
                     1);
    r1 = t_reply_to(mail);
    free(mail);
    mail = last_mail(db, "Ann@example.org", "press");
    r2 = t_reply_to(mail);
    free(mail);
    ck_assert_msg(!str_eq(r1, r2) && strstr(r1, "-g") && strstr(r2, "-g"), "%s %s", r1, r2);
    /* Ann replies: only Dan gets it, and her answer names nobody. */
    t_mail_to(db, "Ann@example.org", r1, "Re: [ngoma 1] Bantu", "it is you, Dan?\n\n> who am I?\n", NULL);
    ck_assert_int_eq((int)t_mails_to(db, "Dan@example.org", "press"), 1);
    ck_assert_int_eq((int)t_mails_to(db, "Bob@example.org", "press"), 2);
    text = last_text(db, "Dan@example.org", "press");
    ck_assert_msg(strstr(text, "it is you, Dan?") && !strstr(text, "Ann"), "%s", text);
    free(text);
    /* Press sent, nothing else: her answer is the mail she sent. */
    ck_assert_int_eq((int)t_mails_to(db, "Ann@example.org", "reply"), 0);
    /* MUTE by name would test a suspect: refused. MUTE alone on a reply
     * mutes the message's writer, unnamed. */
    t_mail_to(db, "Bob@example.org", addr[1], "Re: [ngoma 1] Bantu", "MUTE Dan\n", NULL);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM press_mutes"), 0);
    text = last_text(db, "Bob@example.org", "reply");
    ck_assert_msg(strstr(text, "names nobody"), "%s", text);
    free(text);
    mail = last_mail(db, "Bob@example.org", "press");
    free(r1);
    r1 = t_reply_to(mail);
    free(mail);
    t_mail_to(db, "Bob@example.org", r1, "Re: [ngoma 1] Bantu", "MUTE\n", NULL);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM press_mutes WHERE seat = 2 AND muted = 4"), 1);
    text = last_text(db, "Bob@example.org", "reply");
    ck_assert_msg(strstr(text, "no longer reaches you") && !strstr(text, "Dan"), "%s", text);
    free(text);
    /* HISTORY: the messages Cleo read name nobody but her. */
    {
        struct inbound_result rr = t_mail_to(db, "Cleo@example.org", addr[2], "Re: [ngoma 1] Bantu", "HISTORY\n", NULL);
        ck_assert_msg(rr.status == INBOUND_PROCESSED, "%s", rr.summary);
    }
    text = last_text(db, "Cleo@example.org", "help");
    ck_assert_msg(strstr(text, "a player to all the players") && !strstr(text, "Dan"), "%s", text);
    free(text);
    for (int i = 0; i < 4; i++)
        free(addr[i]);
    free(r1);
    free(r2);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* An anonymous game: the public views tie no title to a person while it
 * runs, and reliability does not move with a seat's orders there; the
 * host by mail reads no address, the host at the shell does. */
START_TEST(anonymous_titles_stay_hidden)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    long long before;
    t_new_game(db, "kuniumi", 2, 5, "{\"anonymous\":\"yes\"}", &g);
    game_unload(&g);
    t_new_game(db, "bantu", 2, 7, NULL, &g);
    game_unload(&g);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_players WHERE game_id = 1"), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_players WHERE game_id = 2"), 2);
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    before = t_count(db, "SELECT coalesce(sum(asked), 0) FROM reliability");
    {
        struct strlist legal = STRLIST_INIT;
        unsigned w = g.ops->waiting_for(g.st);
        int s = (w & 1) ? 0 : 1;
        g.ops->legal(g.st, s, &g.table, &legal);
        t_ok(db, &g, s, legal.v[0]);
        strlist_clear(&legal);
    }
    ck_assert_int_eq((int)t_count(db, "SELECT coalesce(sum(asked), 0) FROM reliability"), (int)before);
    ck_assert_int_eq(host_status(db, &g, viewer_of(VIEWER_HOST_MAIL), LANG_ENGLISH, &out), 0);
    ck_assert_msg(!strstr(out.buf, "@example.org"), "%s", out.buf);
    strbuf_reset(&out);
    ck_assert_int_eq(host_status(db, &g, viewer_of(VIEWER_SHELL), LANG_ENGLISH, &out), 0);
    ck_assert_msg(strstr(out.buf, "Ann@example.org") != NULL, "%s", out.buf);
    /* Once over, it counts. */
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(engine_end(db, &g, false, "stop", &out), 0);
    ck_assert_int_eq(db_commit(db), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM seat_players WHERE game_id = 1"), 2);
    ck_assert_int_eq((int)t_count(db, "SELECT coalesce(sum(asked), 0) FROM reliability"), (int)before + 1);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* Once a game with hidden information is over its seed is out: no
 * rollback goes back past it. A game without may be rolled back. */
START_TEST(no_rollback_past_a_revealed_seed)
{
    static const char *const games[] = { "kalimambo", "african-empires", "bumuntu", "kuniumi", "bantu" };
    for (size_t i = 0; i < ARRAY_SIZE(games); i++) {
        sqlite3 *db = t_db();
        struct game_rec g;
        struct strbuf out = STRBUF_INIT;
        bool hidden;
        int rc;
        t_new_game(db, games[i], 3 - (str_eq(games[i], "kuniumi") || str_eq(games[i], "bantu")), 9, NULL, &g);
        hidden = vis_hidden_information(g.ops);
        ck_assert_msg(hidden == (i < 3), "%s: hidden information is %d", games[i], hidden);
        ck_assert_int_eq(db_begin(db), 0);
        {
            /* A step or two, then the host ends it. */
            for (int step = 0; step < 2 && g.ops->waiting_for(g.st); step++) {
                unsigned w = g.ops->waiting_for(g.st);
                for (int s = 0; s < g.nseats; s++)
                    if ((w >> s) & 1) {
                        struct strlist legal = STRLIST_INIT;
                        struct submission sub = { 0 };
                        g.ops->legal(g.st, s, &g.table, &legal);
                        ck_assert_int_eq(engine_submit(db, &g, s, legal.v[0], "cli", 0, &sub), 0);
                        submission_release(&sub);
                        strlist_clear(&legal);
                    }
            }
        }
        ck_assert_int_eq(engine_end(db, &g, true, "enough", &out), 0);
        strbuf_reset(&out);
        rc = host_command(db, &g, viewer_of(VIEWER_SHELL), LANG_ENGLISH, "ROLLBACK STEP 0", &out);
        ck_assert_int_eq(db_commit(db), 0);
        if (hidden)
            ck_assert_msg(rc == 1 && strstr(out.buf, "seed was revealed"), "%s: %d %s", games[i], rc, out.buf);
        else
            ck_assert_msg(rc == 0 && strstr(out.buf, "rolled back"), "%s: %d %s", games[i], rc, out.buf);
        strbuf_release(&out);
        game_unload(&g);
        db_close(db);
    }
}
END_TEST

/* An anonymous game seats its players in an order drawn from its secret
 * seed: Alpha is not whoever came first. */
START_TEST(anonymous_seats_are_not_the_joining_order)
{
    int first_is_alpha = 0, games = 24;
    for (int i = 0; i < games; i++) {
        sqlite3 *db = t_db();
        struct game_rec g;
        t_new_game(db, "bantu", 4, 100 + i, "{\"anonymous\":\"yes\"}", &g);
        ck_assert_str_eq(g.names[0], "Alpha");
        first_is_alpha += str_eq(g.seats[0].real_name, "Ann");
        /* The same seed seats them alike: verify and replay agree. */
        game_unload(&g);
        db_close(db);
    }
    /* By chance alone, 6 of 24 (a quarter); all 24 would be the order
     * they came in. */
    ck_assert_msg(first_is_alpha < games / 2, "Ann, who came first, was Alpha in %d of %d games", first_is_alpha, games);
}
END_TEST

Suite *knowing_suite(void)
{
    Suite *s = suite_create("knowing");
    TCase *tc = tcase_create("knowing");
    tcase_add_test(tc, press_never_carries_an_order);
    tcase_add_test(tc, an_order_out_of_turn_is_held_back);
    tcase_add_test(tc, grey_press_names_no_writer);
    tcase_add_test(tc, anonymous_titles_stay_hidden);
    tcase_add_test(tc, no_rollback_past_a_revealed_seed);
    tcase_add_test(tc, anonymous_seats_are_not_the_joining_order);
    suite_add_tcase(s, tc);
    return s;
}
