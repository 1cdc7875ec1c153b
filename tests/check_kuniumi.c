/* check_kuniumi.c: KuniUmi scenarios: setup, faction choice, rook moves, closed groups, draws, no move, resign. */
#include "test_support.h"

#include "lib/jsonx.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct game_ops kuniumi_ops;
static const struct game_ops *ops = &kuniumi_ops;
static const char *const names[] = { "Ann", "Bob" };
static const struct game_table table = { 2, names, NULL };

/* A position from six rows written rank 6 first, as the board is drawn. */
static void *position(const char *const rows[6], const char *phase, int land_seat, int to_move)
{
    char board[37], json[512];
    for (int r = 0; r < 6; r++)
        memcpy(board + (5 - r) * 6, rows[r], 6);
    board[36] = '\0';
    snprintf(json, sizeof(json),
             "{\"board\":\"%s\",\"phase\":\"%s\",\"land_seat\":%d,\"to_move\":%d,\"winner\":-1,\"end\":\"\","
             "\"moves\":0,\"rng\":{\"state\":\"1\",\"inc\":\"1\"}}",
             board, phase, land_seat, to_move);
    return t_state(ops, json);
}

/* Checks and resolves one order, which must be legal; returns the log. */
static char *play(void *st, int seat, const char *order)
{
    return t_play(ops, st, &table, seat, order);
}

static void refused(void *st, int seat, const char *order, const char *reason)
{
    t_refused(ops, st, NULL, seat, order, reason);
}

static char square(void *st, const char *sq)
{
    cJSON *j = ops->to_json(st);
    const char *b = cJSON_GetObjectItem(j, "board")->valuestring;
    char c = b[(sq[1] - '1') * 6 + (sq[0] - 'a')];
    cJSON_Delete(j);
    return c;
}

static void legal_is(void *st, int seat, const char *const *want, size_t n)
{
    struct strlist l = STRLIST_INIT;
    ops->legal(st, seat, &table, &l);
    strlist_sort(&l);
    ck_assert_uint_eq(l.n, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(strlist_contains(&l, want[i]), "%s is not legal", want[i]);
    strlist_clear(&l);
}

START_TEST(setup_places_every_piece_once_then_the_second_player_chooses)
{
    struct strbuf err = STRBUF_INIT;
    void *st = ops->setup(NULL, 2, 1, &err);
    struct game_result r;
    char *log;
    ck_assert_ptr_nonnull(st);
    ck_assert_str_eq(ops->phase(st), "setup");
    ck_assert_uint_eq(ops->waiting_for(st), 1u);
    free(play(st, 0, "place earth god c3"));
    refused(st, 0, "PLACE EARTH GOD d3", "already on the board");
    refused(st, 0, "PLACE SEA GOD c3", "already occupied");
    refused(st, 0, "PLACE SEA GOD", "needs a square");
    refused(st, 0, "PLACE SEA GOD g7", "not a square");
    refused(st, 0, "PLACE DRAGON a1", "expected PLACE");
    refused(st, 1, "PLACE SEA GOD a1", "not your turn");
    free(play(st, 0, "sea god d4"));
    free(play(st, 0, "PLACE LAND a1"));
    free(play(st, 0, "PLACE land token a2"));
    refused(st, 0, "PLACE LAND a3", "already on the board");
    free(play(st, 0, "PLACE SEA f6"));
    log = play(st, 0, "PLACE SEA f5");
    ck_assert(strstr(log, "Bob now chooses") != NULL);
    free(log);
    ck_assert_uint_eq(ops->waiting_for(st), 2u);
    refused(st, 1, "CHOOSE FIRE", "CHOOSE LAND");
    static const char *const choices[] = { "CHOOSE LAND", "CHOOSE SEA" };
    legal_is(st, 1, choices, 2);
    log = play(st, 1, "choose green");
    ck_assert(strstr(log, "Bob chooses Land; Ann plays Sea") != NULL);
    free(log);
    ck_assert_str_eq(ops->phase(st), "play");
    ck_assert_uint_eq(ops->waiting_for(st), 1u); /* the first player moves first */
    ops->result(st, &r);
    ck_assert(!r.finished);
    ops->free(st);
    strbuf_release(&err);
}
END_TEST

START_TEST(the_god_moves_like_a_rook_from_itself_and_its_group)
{
    /* Earth God c2 with Land tokens b2 and b3: lines start from all three. */
    static const char *const rows[6] = {
        ".....S", "......", "......", ".l....", ".lL...", "......",
    };
    static const char *const want[] = {
        "MOVE a2", "MOVE a3", "MOVE b1", "MOVE b4", "MOVE b5", "MOVE b6", "MOVE c1", "MOVE c3",
        "MOVE c4", "MOVE c5", "MOVE c6", "MOVE d2", "MOVE d3", "MOVE e2", "MOVE e3", "MOVE f2", "MOVE f3",
    };
    void *st = position(rows, "play", 0, 0);
    legal_is(st, 0, want, ARRAY_SIZE(want));
    refused(st, 0, "MOVE a1", "cannot reach a1");
    refused(st, 0, "MOVE b2", "occupied");
    refused(st, 0, "MOVE b2-b4", "your God stands on c2");
    free(play(st, 0, "c2-a3"));
    ck_assert_int_eq(square(st, "a3"), 'L');
    ck_assert_int_eq(square(st, "c2"), 'l'); /* the token left behind */
    ops->free(st);
}
END_TEST

START_TEST(lines_stop_before_any_piece)
{
    /* Earth God a1, a Sea token on a3 blocks the file; a Land token on c1 blocks the rank. */
    static const char *const rows[6] = {
        ".....S", "......", "......", "s.....", "......", "L.l...",
    };
    static const char *const want[] = { "MOVE a2", "MOVE b1" };
    void *st = position(rows, "play", 0, 0);
    legal_is(st, 0, want, 2);
    refused(st, 0, "MOVE a4", "cannot reach");
    refused(st, 0, "MOVE d1", "cannot reach");
    ops->free(st);
}
END_TEST

START_TEST(a_god_next_to_its_tokens_joins_their_group)
{
    /* The Sea God d4 touches Sea token d3, whose line reaches a3. */
    static const char *const rows[6] = {
        "L.....", "......", "...S..", "...s..", "......", "......",
    };
    struct strbuf why = STRBUF_INIT;
    void *st = position(rows, "play", 0, 1);
    ck_assert_int_eq(t_check(ops, st, 1, "MOVE a3", &why), 0);
    ck_assert_int_eq(t_check(ops, st, 1, "MOVE d1", &why), 0);
    ops->free(st);
    strbuf_release(&why);
}
END_TEST

START_TEST(a_group_closed_by_the_edge_wins_for_its_owner)
{
    /* Sea moves its God off b1, leaving a Sea token there: Land's lone a1
     * token is shut in by a2, b1 and the edges, so Land wins. */
    static const char *const rows[6] = {
        "......", "....L.", "......", "......", "s.....", "lS....",
    };
    void *st = position(rows, "play", 0, 1);
    struct game_result r;
    char *log = play(st, 1, "MOVE b4");
    ck_assert_msg(strstr(log, "Ann's Land group of 1 piece is closed: Ann wins") != NULL, "%s", log);
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(r.winners, 1u);
    ck_assert_uint_eq(ops->waiting_for(st), 0u);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(two_closed_groups_at_once_the_bigger_wins)
{
    /* Land's only move, b3, closes Land's group of 3 and Sea's group of 5. */
    static const char *const rows[6] = {
        "......", "ll....", "ssl..S", "s.s...", "sls...", "sLs...",
    };
    static const char *const only[] = { "MOVE b3" };
    void *st = position(rows, "play", 0, 0);
    struct game_result r;
    legal_is(st, 0, only, 1);
    char *log = play(st, 0, "MOVE b3");
    ck_assert_msg(strstr(log, "Ann's largest has 3 pieces, Bob's 5") != NULL, "%s", log);
    ck_assert(strstr(log, "Bob wins") != NULL);
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(r.winners, 2u);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(two_equal_closed_groups_draw)
{
    static const char *const rows[6] = {
        "......", "......", "ls...S", "s.s...", "sls...", "sLs...",
    };
    void *st = position(rows, "play", 0, 0);
    struct game_result r;
    char *log = play(st, 0, "MOVE b3");
    ck_assert_msg(strstr(log, "drawn") != NULL, "%s", log);
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(r.winners, 3u);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(a_group_the_setup_closed_wins_for_whoever_gets_it)
{
    /* The setup shut the Earth God in a corner (Sea tokens on a2 and b1):
     * a closed group with no owner until the sides are chosen. */
    static const char *const rows[6] = {
        "......", "......", "....S.", "......", "s.....", "Ls..l.",
    };
    void *st = position(rows, "choose", -1, 1);
    struct game_result r;
    struct strlist l = STRLIST_INIT;
    /* Bob takes Sea: Ann gets the Earth God and its closed group, and wins. */
    char *log = play(st, 1, "CHOOSE SEA");
    ck_assert_msg(strstr(log, "Ann's Land group of 1 piece is closed: Ann wins.") != NULL, "%s", log);
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(r.winners, 1u);
    ops->legal(st, 0, &table, &l);
    ck_assert_uint_eq(l.n, 0);
    free(log);
    ops->free(st);
    /* Bob takes Land, the shut-in God: he wins before anyone moves. */
    st = position(rows, "choose", -1, 1);
    log = play(st, 1, "CHOOSE LAND");
    ck_assert_msg(strstr(log, "Bob's Land group of 1 piece is closed: Bob wins.") != NULL, "%s", log);
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(r.winners, 2u);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(resigning_gives_the_opponent_the_win)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct game_result r;
    t_new_game(db, "kuniumi", 2, 3, NULL, &g);
    t_ok(db, &g, 1, "resign");
    g.ops->result(g.st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(r.winners, 1u);
    ck_assert_str_eq(g.status, "finished");
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(damaged_states_are_refused)
{
    static const char *const bad[] = {
        "{}",
        "{\"board\":\"x\",\"phase\":\"play\",\"land_seat\":0,\"to_move\":0,\"winner\":-1,\"end\":\"\",\"moves\":0,"
        "\"rng\":{\"state\":\"1\",\"inc\":\"1\"}}",
        /* play without the Gods on the board */
        "{\"board\":\"....................................\",\"phase\":\"play\",\"land_seat\":0,\"to_move\":0,"
        "\"winner\":-1,\"end\":\"\",\"moves\":0,\"rng\":{\"state\":\"1\",\"inc\":\"1\"}}",
        /* play without a faction */
        "{\"board\":\"L...................................\",\"phase\":\"play\",\"land_seat\":-1,\"to_move\":0,"
        "\"winner\":-1,\"end\":\"\",\"moves\":0,\"rng\":{\"state\":\"1\",\"inc\":\"1\"}}",
        "{\"board\":\"LLS.................................\",\"phase\":\"place\",\"land_seat\":-1,\"to_move\":0,"
        "\"winner\":-1,\"end\":\"\",\"moves\":0,\"rng\":{\"state\":\"1\",\"inc\":\"1\"}}",
        "{\"board\":\"L...................................\",\"phase\":\"nap\",\"land_seat\":-1,\"to_move\":0,"
        "\"winner\":-1,\"end\":\"\",\"moves\":0,\"rng\":{\"state\":\"1\",\"inc\":\"1\"}}",
    };
    struct strbuf err = STRBUF_INIT;
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        cJSON *j = cJSON_Parse(bad[i]);
        strbuf_reset(&err);
        ck_assert_ptr_null(ops->from_json(j, &err));
        ck_assert_uint_gt(err.len, 0);
        cJSON_Delete(j);
    }
    strbuf_release(&err);
}
END_TEST

START_TEST(the_board_fits_and_names_everything)
{
    static const char *const rows[6] = {
        "......", "....L.", "......", "......", "s.....", "lS....",
    };
    void *st = position(rows, "play", 0, 1);
    struct strbuf out = STRBUF_INIT;
    ops->view_ascii(st, -1, &table, &out);
    ck_assert(strstr(out.buf, "  1 | x |[S]|") != NULL);
    ck_assert(strstr(out.buf, "  5 |   |   |   |   |[E]|") != NULL);
    ck_assert(strstr(out.buf, "Land  Ann") != NULL && strstr(out.buf, "16 tokens in hand") != NULL);
    ck_assert(strstr(out.buf, "To move: Bob (Sea)") != NULL);
    strbuf_release(&out);
    ops->free(st);
}
END_TEST

Suite *kuniumi_suite(void)
{
    Suite *s = suite_create("kuniumi");
    TCase *tc = tcase_create("kuniumi");
    tcase_add_test(tc, setup_places_every_piece_once_then_the_second_player_chooses);
    tcase_add_test(tc, the_god_moves_like_a_rook_from_itself_and_its_group);
    tcase_add_test(tc, lines_stop_before_any_piece);
    tcase_add_test(tc, a_god_next_to_its_tokens_joins_their_group);
    tcase_add_test(tc, a_group_closed_by_the_edge_wins_for_its_owner);
    tcase_add_test(tc, two_closed_groups_at_once_the_bigger_wins);
    tcase_add_test(tc, two_equal_closed_groups_draw);
    tcase_add_test(tc, a_group_the_setup_closed_wins_for_whoever_gets_it);
    tcase_add_test(tc, resigning_gives_the_opponent_the_win);
    tcase_add_test(tc, damaged_states_are_refused);
    tcase_add_test(tc, the_board_fits_and_names_everything);
    suite_add_tcase(s, tc);
    return s;
}
