/* check_press.c: press read apart from orders (blocks, channels, MUTE lines, bounds), whom a PRESS TO names, and the press mail against its golden copy. */
#include "test_support.h"

#include "core/press.h"
#include "lib/paths.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(blocks_apart_from_orders)
{
    struct press_text pt;
    press_split("MOVE 1\nPRESS TO Bob and Mary Ann: hi\nthere\n> quoted\n\nEND PRESS\nMOVE 2\n"
                "press to all\nsecond\nPRESS TO Dan\nthird\n",
                false, NULL, &pt);
    ck_assert_str_eq(pt.orders, "MOVE 1\nMOVE 2\n");
    ck_assert_int_eq((int)pt.n, 3);
    ck_assert_str_eq(pt.v[0].to, "Bob and Mary Ann");
    ck_assert_str_eq(pt.v[0].body.buf, "hi\nthere");
    ck_assert_str_eq(pt.v[0].line, "PRESS TO Bob and Mary Ann: hi");
    ck_assert_str_eq(pt.v[1].to, "all");
    ck_assert_str_eq(pt.v[1].body.buf, "second");
    ck_assert_str_eq(pt.v[2].to, "Dan");
    ck_assert_str_eq(pt.v[2].body.buf, "third");
    press_text_release(&pt);
}
END_TEST

START_TEST(what_is_not_press)
{
    struct press_text pt;
    /* Words that begin like PRESS TO are orders; a signature ends all. */
    press_split("pressure on Bob\nPRESSTO x\nMUTED\nmute\nPRESS TO Bob\nhello\n-- \nAnn Smith\nann@x.org\n", false,
                NULL, &pt);
    ck_assert_str_eq(pt.orders, "pressure on Bob\nPRESSTO x\nMUTED\nmute\n");
    ck_assert_int_eq((int)pt.n, 1);
    ck_assert_str_eq(pt.v[0].body.buf, "hello");
    press_text_release(&pt);
}
END_TEST

START_TEST(mute_lines)
{
    struct press_text pt;
    press_split("MUTE Bob\nUNMUTE Mary Ann\nBOARD\n", false, NULL, &pt);
    ck_assert_int_eq((int)pt.n, 2);
    ck_assert_int_eq(pt.v[0].kind, PRESS_MUTE);
    ck_assert_str_eq(pt.v[0].to, "Bob");
    ck_assert_int_eq(pt.v[1].kind, PRESS_UNMUTE);
    ck_assert_str_eq(pt.v[1].to, "Mary Ann");
    ck_assert_str_eq(pt.orders, "BOARD\n");
    press_text_release(&pt);
}
END_TEST

START_TEST(a_channel_reply)
{
    struct press_text pt;
    /* At a channel's address: MUTE at the top is a command, the rest one
     * message; quoted text goes, a later MUTE is words. */
    press_split("MUTE Dan\n\nYes, agreed.\n> Shall we?\nMUTE nothing, I mean it\n", true, NULL, &pt);
    ck_assert_int_eq((int)pt.n, 2);
    ck_assert_int_eq(pt.v[0].kind, PRESS_MUTE);
    ck_assert_int_eq(pt.v[1].kind, PRESS_MESSAGE);
    ck_assert_ptr_null(pt.v[1].to);
    ck_assert_str_eq(pt.v[1].body.buf, "Yes, agreed.\nMUTE nothing, I mean it");
    ck_assert_str_eq(pt.orders, "");
    press_text_release(&pt);
}
END_TEST

START_TEST(bounded)
{
    struct strbuf text = STRBUF_INIT;
    struct press_text pt;
    strbuf_addstr(&text, "PRESS TO Bob\n");
    for (int i = 0; i < 20000; i++)
        strbuf_addstr(&text, "0123456789\n");
    for (int i = 1; i < PRESS_ITEMS_MAX + 3; i++)
        strbuf_addf(&text, "PRESS TO Bob: %d\nMOVE %d\n", i, i);
    press_split(text.buf, false, NULL, &pt);
    ck_assert_int_eq((int)pt.n, PRESS_ITEMS_MAX);
    ck_assert_int_eq((int)pt.dropped, 3);
    /* A long message: kept up to the bound, counted whole; the lines of
     * a message not kept are not orders either. */
    ck_assert_uint_le(pt.v[0].body.len, PRESS_BODY_KEPT);
    ck_assert_uint_ge(pt.v[0].bytes, 20000 * 11);
    ck_assert_str_eq(pt.v[1].body.buf, "1\nMOVE 1");
    ck_assert_str_eq(pt.orders, "");
    press_text_release(&pt);
    strbuf_release(&text);
}
END_TEST

START_TEST(recipients)
{
    static const char *const names[] = { "Ann", "Bob", "Mary Ann", "Dan" };
    const struct game_table t = { 4, names, NULL };
    struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
    unsigned mask;
    bool all;
    ck_assert_int_eq(press_recipients("bob, MARY ANN & dan", &t, 0, &mask, &all, &err), 0);
    ck_assert_uint_eq(mask, 0xe);
    ck_assert(!all);
    ck_assert_int_eq(press_recipients("ALL", &t, 1, &mask, &all, &err), 0);
    ck_assert_uint_eq(mask, 0xd);
    ck_assert(all);
    /* Naming herself adds nothing; only herself is refused. */
    ck_assert_int_eq(press_recipients("Ann and Bob", &t, 0, &mask, &all, &err), 0);
    ck_assert_uint_eq(mask, 0x2);
    ck_assert_int_eq(press_recipients("Ann", &t, 0, &mask, &all, &err), -1);
    ck_assert_msg(strstr(err.buf, "names only you") != NULL, "%s", err.buf);
    strbuf_reset(&err);
    ck_assert_int_eq(press_recipients("Bob and Zed", &t, 0, &mask, &all, &err), -1);
    ck_assert_msg(strstr(err.buf, "\"Zed\"") && strstr(err.buf, "Bob, Mary Ann, Dan (or ALL)"), "%s", err.buf);
    press_names(&t, 0xe, -1, 2, &out);
    ck_assert_str_eq(out.buf, "you, Bob and Dan");
    strbuf_release(&err);
    strbuf_release(&out);
}
END_TEST

/* The press mail Bob reads, against tests/mail/press.golden. */
START_TEST(press_mail_golden)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf to = STRBUF_INIT, err = STRBUF_INIT;
    struct shown s;
    char *mail = NULL, *path = data_path("tests/mail", "press.golden"), *want;
    struct inbound_result r;
    t_new_game(db, "bantu", 4, 7, NULL, &g);
    strbuf_addf(&to, "ngoma+%lld-1-%s@localhost", (long long)g.id, g.seats[0].secret);
    r = t_mail_to(db, "Ann@example.org", to.buf, "Re: [ngoma 1] Bantu",
                  "PRESS TO Bob and Cleo: Shall we hold Dan back together? He is two pieces from home and neither of"
                  " us can stop him alone.\n\nI take lanes a and b.\nEND PRESS\n\nthanks, Ann",
                  NULL);
    ck_assert_int_eq(r.status, INBOUND_PROCESSED);
    ck_assert_int_eq(db_get_text(db, &mail, "SELECT mail FROM outbox WHERE rcpt = 'Bob@example.org' AND kind = 'press'",
                                 ""),
                     1);
    shown_of(mail, &s);
    want = file_read(path, 1 << 20, &err);
    ck_assert_msg(want != NULL, "%s", err.buf);
    ck_assert_msg(str_eq(s.text, want), "the press mail reads:\n%s\nnot:\n%s", s.text, want);
    ck_assert_str_eq(s.subject, "[ngoma 1] Bantu"); /* the game's: the mail stays in its thread */
    /* Ann, whose press went to all it named, gets no answer of its own. */
    ck_assert_int_eq((int)t_mails_to(db, "Ann@example.org", "reply"), 0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM press_recipients WHERE status = 'sent'"), 2);
    shown_release(&s);
    free(want);
    free(path);
    free(mail);
    strbuf_release(&to);
    strbuf_release(&err);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A lobby table opened anonymous and grey: LIST names nobody at it, the
 * game knows its seats by title, and its press goes without a sender. */
START_TEST(an_anonymous_grey_table_from_the_lobby)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    struct strbuf to = STRBUF_INIT;
    char *mail = NULL;
    struct shown s;
    t_confirmed(db, "ann@example.org");
    t_confirmed(db, "bob@example.org");
    t_confirmed(db, "walt@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW bantu SEATS 2 OPTION anonymous=yes OPTION press=grey AS Annabel");
    ck_assert(t_last_has(db, "ann@example.org", "is open"));
    t_lobby(db, "walt@example.org", "list", "LIST");
    ck_assert(t_last_has(db, "walt@example.org", "anonymous: named when it is over"));
    ck_assert(!t_last_has(db, "walt@example.org", "Annabel"));
    t_lobby(db, "bob@example.org", "join", "JOIN 1 AS Bobby");
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    /* The seats are in an order drawn from the seed: find Annabel's. */
    int ann = str_eq(g.seats[0].real_name, "Annabel") ? 0 : 1;
    ck_assert_str_eq(g.names[0], "Alpha");
    ck_assert_str_eq(g.seats[ann].real_name, "Annabel");
    ck_assert_str_eq(g.seats[!ann].real_name, "Bobby");
    /* No mail to Bob, the lobby's answers and his welcome among them,
     * names Annabel or her address. */
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'bob@example.org' AND (mail LIKE"
                                      " '%Annabel%' OR mail LIKE '%ann@example.org%')"),
                     0);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'ann@example.org' AND (mail LIKE"
                                      " '%Bobby%' OR mail LIKE '%bob@example.org%')"),
                     0);
    strbuf_addf(&to, "ngoma+1-%d-%s@localhost", ann + 1, g.seats[ann].secret);
    {
        char body[64];
        snprintf(body, sizeof(body), "PRESS TO %s: who am I?", g.names[!ann]);
        t_mail_to(db, "ann@example.org", to.buf, "Re: [ngoma 1] Bantu", body, NULL);
    }
    ck_assert_int_eq(db_get_text(db, &mail, "SELECT mail FROM outbox WHERE rcpt = 'bob@example.org' AND kind = 'press'",
                                 ""),
                     1);
    shown_of(mail, &s);
    ck_assert_msg(strstr(s.text, "Press from a player this game does not name") && !strstr(s.text, g.names[ann]) &&
                      !strstr(mail, "ann@example.org") && !strstr(mail, "Annabel"),
                  "%s", s.text);
    shown_release(&s);
    free(mail);
    strbuf_release(&to);
    game_unload(&g);
    db_close(db);
}
END_TEST

Suite *press_suite(void)
{
    Suite *s = suite_create("press");
    TCase *tc = tcase_create("press");
    tcase_add_test(tc, blocks_apart_from_orders);
    tcase_add_test(tc, what_is_not_press);
    tcase_add_test(tc, mute_lines);
    tcase_add_test(tc, a_channel_reply);
    tcase_add_test(tc, bounded);
    tcase_add_test(tc, recipients);
    tcase_add_test(tc, press_mail_golden);
    tcase_add_test(tc, an_anonymous_grey_table_from_the_lobby);
    suite_add_tcase(s, tc);
    return s;
}
