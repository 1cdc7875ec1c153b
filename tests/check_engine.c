/* check_engine.c: tests of the core: sequential and simultaneous steps, secrecy of pending orders, history, replay. */
#include "test_support.h"

#include "store/db.h"
#include "core/history.h"
#include "lib/jsonx.h"
#include "lib/util.h"
#include "core/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kuniumi_setup[] = {
    "PLACE EARTH GOD c3", "PLACE SEA GOD d4", "PLACE LAND c4", "PLACE LAND a1", "PLACE SEA d3", "PLACE SEA b2",
};

START_TEST(sequential_order_resolves_a_turn)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission s;
    t_new_game(db, "kuniumi", 2, 5, NULL, &g);
    ck_assert_str_eq(g.status, "setup");
    t_submit(db, &g, 0, "place earth god c3", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_ACCEPTED);
    ck_assert_str_eq(s.lines[0].canonical, "PLACE EARTH GOD c3");
    ck_assert(strstr(s.lines[0].body.buf, "Earth God on c3") != NULL);
    ck_assert_int_eq(s.turn_before, 0);
    ck_assert_int_eq(s.turn_after, 1);
    submission_release(&s);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM turns WHERE turn = 1 AND kind = 'orders'"), 1);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders WHERE status = 'accepted' AND turn_id IS NOT NULL"), 1);
    ck_assert_int_eq(t_count(db, "SELECT turn FROM games"), 1);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(rejected_orders_are_kept_with_reason)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission s;
    t_new_game(db, "kuniumi", 2, 5, NULL, &g);
    t_submit(db, &g, 0, "PLACE EARTH GOD z9\nfly away", &s);
    ck_assert_uint_eq(s.n, 2);
    ck_assert_int_eq(s.lines[0].status, LINE_REJECTED);
    ck_assert(strstr(s.lines[0].body.buf, "not a square") != NULL);
    ck_assert(strstr(s.lines[0].body.buf, "Send LEGAL") != NULL);
    ck_assert_int_eq(s.lines[1].status, LINE_REJECTED);
    submission_release(&s);
    t_submit(db, &g, 1, "CHOOSE LAND", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_REJECTED);
    ck_assert(strstr(s.lines[0].body.buf, "not your turn: the game waits for Ann") != NULL);
    submission_release(&s);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders WHERE status = 'rejected' AND reason <> ''"), 3);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM rejections WHERE player = 'Bob'"), 1);
    ck_assert_int_eq(g.turn, 0);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(several_orders_in_one_text_apply_in_turn)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission s;
    struct strbuf text = STRBUF_INIT;
    t_new_game(db, "kuniumi", 2, 5, NULL, &g);
    for (size_t i = 0; i < ARRAY_SIZE(kuniumi_setup); i++)
        strbuf_addf(&text, "%s\n", kuniumi_setup[i]);
    strbuf_addstr(&text, "MOVE c5\n");
    t_submit(db, &g, 0, text.buf, &s);
    ck_assert_uint_eq(s.n, 7);
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(s.lines[i].status, LINE_ACCEPTED);
    /* The seventh is no longer hers to give: Bob chooses a faction first. */
    ck_assert_int_eq(s.lines[6].status, LINE_REJECTED);
    ck_assert_int_eq(s.turn_after, 6);
    submission_release(&s);
    strbuf_release(&text);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(generic_commands_answer_without_storing)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission s;
    t_new_game(db, "kuniumi", 2, 5, NULL, &g);
    t_submit(db, &g, 0, "LEGAL\nboard\nHelp\nHISTORY", &s);
    ck_assert_uint_eq(s.n, 4);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(s.lines[i].status, LINE_INFO);
    ck_assert(strstr(s.lines[0].body.buf, "PLACE EARTH GOD a1\n") != NULL);
    ck_assert(strstr(s.lines[1].body.buf, "a   b   c") != NULL);
    ck_assert(strstr(s.lines[2].body.buf, "CHOOSE LAND") != NULL);
    ck_assert(strstr(s.lines[3].body.buf, "Setup\n") != NULL);
    ck_assert(strstr(s.lines[3].body.buf, "Step 0") == NULL);
    submission_release(&s);
    t_submit(db, &g, 1, "LEGAL", &s);
    ck_assert(strstr(s.lines[0].body.buf, "waits for Ann") != NULL);
    submission_release(&s);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders"), 0);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A seat's only legal order is played for her at once; the history says
 * so; an order the game keeps hers is not. */
/* A log line its game wrapped is flowed as one; a long line that was
 * whole keeps the line under it its own (a line of 56 columns or more
 * once swallowed the next). */
START_TEST(history_keeps_each_log_line_whole)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf hist = STRBUF_INIT;
    t_new_game(db, "tally", 2, 11, "{\"rounds\":\"2\"}", &g);
    t_ok(db, &g, 0, "PICK 3");
    t_ok(db, &g, 1, "PICK 2");
    ck_assert_int_eq(db_do(db, "UPDATE turns SET log = ? WHERE game_id = 1 AND turn = 1", "s",
                           "Cards: Ann 11, Bob 10, Cleo 8, Dora 3, Eve 5, Kali 6, Mo 2.\n"
                           "  Ann moves 7 -> 11, in front of Kali.\n"
                           "  10 was played 3 times: only the rearmost, Bob, moves; Ann and\n"
                           "    Dora stay.\n"
                           "Scores: Ann 13, Bob 19.\n"),
                     0);
    ck_assert_int_eq(history_render(db, &g, 0, &hist), 0);
    ck_assert_msg(strstr(hist.buf, "Mo 2.\n      Ann moves 7 -> 11, in front of Kali.\n"), "%s", hist.buf);
    ck_assert_msg(strstr(hist.buf, "moves; Ann and\n        Dora stay.\n"), "%s", hist.buf);
    strbuf_release(&hist);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(a_forced_order_is_played_at_once)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf hist = STRBUF_INIT, report = STRBUF_INIT;
    t_new_game(db, "tally", 3, 11, "{\"rounds\":\"2\",\"last\":\"one\"}", &g);
    t_ok(db, &g, 0, "PICK 3");
    t_ok(db, &g, 1, "PICK 2");
    ck_assert_int_eq(g.turn, 0);
    t_ok(db, &g, 2, "PICK 1");
    /* Round 2 allows PICK 1 alone: nobody waits for it. */
    ck_assert_int_eq(g.turn, 2);
    ck_assert_str_eq(g.status, "finished");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders WHERE step = 2 AND source = 'forced'"), 3);
    ck_assert_int_eq(history_render(db, &g, 0, &hist), 0);
    ck_assert_msg(strstr(hist.buf, "  Ann: PICK 1  (the only order: played at once)\n"), "%s", hist.buf);
    ck_assert_int_eq(engine_replay(db, &g, &report), 0);
    game_unload(&g);

    /* last=zero: PICK 0 is the only order, but each gives it herself. */
    t_new_game(db, "tally", 2, 11, "{\"rounds\":\"2\",\"last\":\"zero\"}", &g);
    t_ok(db, &g, 0, "PICK 3");
    t_ok(db, &g, 1, "PICK 2");
    ck_assert_int_eq(g.turn, 1);
    ck_assert_ptr_null(engine_forced_order(&g, 0));
    t_ok(db, &g, 0, "PICK 0");
    ck_assert_int_eq(g.turn, 1);
    t_ok(db, &g, 1, "PICK 0");
    ck_assert_int_eq(g.turn, 2);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders WHERE source = 'forced'"), 3);
    strbuf_release(&hist);
    strbuf_release(&report);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(simultaneous_orders_stay_secret_until_all_are_in)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission s;
    struct strbuf hist = STRBUF_INIT;
    t_new_game(db, "tally", 3, 11, "{\"rounds\":\"2\"}", &g);
    ck_assert_uint_eq(g.ops->waiting_for(g.st), 7u);

    t_submit(db, &g, 0, "PICK 3", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_PENDING);
    ck_assert(strstr(s.lines[0].body.buf, "Still to come: Bob and Cleo.") != NULL);
    submission_release(&s);
    /* Replaced before the step resolves. */
    t_submit(db, &g, 0, "pick 2", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_PENDING);
    submission_release(&s);
    t_submit(db, &g, 1, "PICK 1", &s);
    ck_assert(strstr(s.lines[0].body.buf, "Still to come: Cleo.") != NULL);
    ck_assert(strstr(s.lines[0].body.buf, "PICK 2") == NULL);
    submission_release(&s);
    ck_assert_int_eq(g.turn, 0);

    /* Nobody else sees a pending order: not in views, history or replies. */
    for (int viewer = -1; viewer < 3; viewer++) {
        cJSON *v = view_json(db, &g, viewer);
        char *text = jx_print(v);
        ck_assert(strstr(text, "PICK") == NULL);
        cJSON *w = cJSON_GetObjectItem(v, "waiting_for");
        ck_assert_int_eq(cJSON_GetArraySize(w), 1);
        ck_assert_str_eq(cJSON_GetArrayItem(w, 0)->valuestring, "Cleo");
        free(text);
        cJSON_Delete(v);
    }
    ck_assert_int_eq(history_render(db, &g, 2, &hist), 0);
    ck_assert(strstr(hist.buf, "PICK") == NULL);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM moves"), 0);

    t_submit(db, &g, 2, "PICK 3", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_ACCEPTED);
    ck_assert(strstr(s.lines[0].body.buf, "Ann picks 2; Bob picks 1; Cleo picks 3;") != NULL);
    ck_assert(strstr(s.lines[0].body.buf, "Your word stays") != NULL);
    submission_release(&s);
    ck_assert_int_eq(g.turn, 1);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders WHERE status = 'superseded'"), 1);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM moves WHERE turn = 1"), 3);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders WHERE status = 'pending'"), 0);

    /* A private note reaches its seat only. */
    strbuf_reset(&hist);
    ck_assert_int_eq(history_render(db, &g, 1, &hist), 0);
    ck_assert(strstr(hist.buf, "Your word stays") != NULL);
    strbuf_reset(&hist);
    ck_assert_int_eq(history_render(db, &g, -1, &hist), 0);
    ck_assert(strstr(hist.buf, "Your word stays") == NULL);
    strbuf_release(&hist);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(resign_keeps_other_pending_orders)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission s;
    t_new_game(db, "tally", 3, 11, NULL, &g);
    t_ok(db, &g, 0, "PICK 1");
    t_submit(db, &g, 1, "RESIGN", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_ACCEPTED);
    ck_assert(strstr(s.lines[0].body.buf, "Bob resigns") != NULL);
    submission_release(&s);
    ck_assert_int_eq(g.turn, 1);
    ck_assert_uint_eq(g.ops->waiting_for(g.st), 5u);
    /* Ann's pick carried over; Cleo's completes the round. */
    t_submit(db, &g, 2, "PICK 2", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_ACCEPTED);
    ck_assert(strstr(s.lines[0].body.buf, "Ann picks 1") != NULL);
    submission_release(&s);
    ck_assert_int_eq(g.turn, 2);
    struct strbuf report = STRBUF_INIT;
    ck_assert_int_eq(engine_replay(db, &g, &report), 0);
    strbuf_release(&report);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(finished_games_take_no_orders)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission s;
    t_new_game(db, "tally", 2, 1, "{\"rounds\":\"1\"}", &g);
    t_ok(db, &g, 0, "PICK 3");
    t_ok(db, &g, 1, "PICK 1");
    ck_assert_str_eq(g.status, "finished");
    ck_assert_int_eq(t_count(db, "SELECT json_array_length(result, '$.winners') FROM games"), 1);
    t_submit(db, &g, 1, "PICK 2\nRESIGN", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_REJECTED);
    ck_assert(strstr(s.lines[0].body.buf, "game is over") != NULL);
    ck_assert_int_eq(s.lines[1].status, LINE_REJECTED);
    submission_release(&s);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(replay_matches_and_finds_tampering)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf report = STRBUF_INIT;
    t_new_game(db, "kuniumi", 2, 5, NULL, &g);
    for (size_t i = 0; i < ARRAY_SIZE(kuniumi_setup); i++)
        t_ok(db, &g, 0, kuniumi_setup[i]);
    t_ok(db, &g, 1, "CHOOSE SEA");
    t_ok(db, &g, 0, "MOVE c5");
    ck_assert_int_eq(engine_replay(db, &g, &report), 0);
    ck_assert_int_eq(db_do(db, "UPDATE turns SET state = json_set(state, '$.moves', 99) WHERE turn = 8", NULL), 0);
    ck_assert_int_eq(engine_replay(db, &g, &report), 1);
    ck_assert_msg(strstr(report.buf, "turn 8") && strstr(report.buf, "$.moves"), "report: %s", report.buf);
    strbuf_release(&report);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(new_game_checks_players_and_options)
{
    sqlite3 *db = t_db();
    struct strbuf err = STRBUF_INIT;
    const char *names[] = { "Ann", "ann", "Cleo" }, *emails[] = { "a@x.org", "b@x.org", "c@x.org" };
    const char *bad_names[] = { "Ann", "Bo<b>" }, *bad_mail[] = { "a@x.org", "not-an-address" };
    cJSON *opts = cJSON_CreateObject();
    int64_t id;
    const struct game_ops *ku = game_find("kuniumi"), *ta = game_find("tally");

    ck_assert_int_eq(engine_new(db, ku, 3, names, emails, opts, 1, true, &id, &err), -1);
    ck_assert(strstr(err.buf, "exactly 2 players") != NULL);
    strbuf_reset(&err);
    ck_assert_int_eq(engine_new(db, ku, 2, names, emails, opts, 1, true, &id, &err), -1);
    ck_assert(strstr(err.buf, "two players are called") != NULL);
    strbuf_reset(&err);
    ck_assert_int_eq(engine_new(db, ku, 2, bad_names, emails, opts, 1, true, &id, &err), -1);
    strbuf_reset(&err);
    ck_assert_int_eq(engine_new(db, ku, 2, names + 1, bad_mail, opts, 1, true, &id, &err), -1);
    ck_assert(strstr(err.buf, "not a mail address") != NULL);
    strbuf_reset(&err);
    cJSON_AddStringToObject(opts, "colour", "red");
    ck_assert_int_eq(engine_new(db, ta, 2, names + 1, emails, opts, 1, true, &id, &err), -1);
    ck_assert(strstr(err.buf, "no option \"colour\"; its options are: rounds") != NULL);
    strbuf_reset(&err);
    cJSON_DeleteItemFromObject(opts, "colour");
    cJSON_AddStringToObject(opts, "rounds", "many");
    ck_assert_int_eq(engine_new(db, ta, 2, names + 1, emails, opts, 1, true, &id, &err), -1);
    ck_assert(strstr(err.buf, "rounds") != NULL);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM games"), 0);
    cJSON_Delete(opts);
    strbuf_release(&err);
    db_close(db);
}
END_TEST

START_TEST(seats_have_distinct_secrets)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    t_new_game(db, "tally", 4, 1, NULL, &g);
    ck_assert_int_eq(t_count(db, "SELECT count(DISTINCT secret) FROM seats WHERE length(secret) >= 10"), 4);
    ck_assert_int_eq(game_seat_find(&g, "cleo"), 2);
    ck_assert_int_eq(game_seat_find(&g, "4"), 3);
    ck_assert_int_eq(game_seat_find(&g, "5"), -1);
    ck_assert_int_eq(game_seat_find(&g, "Zed"), -1);
    game_unload(&g);
    db_close(db);
}
END_TEST

Suite *engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *tc = tcase_create("engine");
    tcase_add_test(tc, sequential_order_resolves_a_turn);
    tcase_add_test(tc, history_keeps_each_log_line_whole);
    tcase_add_test(tc, rejected_orders_are_kept_with_reason);
    tcase_add_test(tc, several_orders_in_one_text_apply_in_turn);
    tcase_add_test(tc, generic_commands_answer_without_storing);
    tcase_add_test(tc, simultaneous_orders_stay_secret_until_all_are_in);
    tcase_add_test(tc, resign_keeps_other_pending_orders);
    tcase_add_test(tc, finished_games_take_no_orders);
    tcase_add_test(tc, replay_matches_and_finds_tampering);
    tcase_add_test(tc, a_forced_order_is_played_at_once);
    tcase_add_test(tc, new_game_checks_players_and_options);
    tcase_add_test(tc, seats_have_distinct_secrets);
    suite_add_tcase(s, tc);
    return s;
}
