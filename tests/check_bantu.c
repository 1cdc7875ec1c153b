/* check_bantu.c: Bantu scenarios: the board file and its checks, entering, counts abreast, paths, captures, passes, Finish, variants. */
#include "test_support.h"

#include "lib/jsonx.h"
#include "lib/paths.h"
#include "lib/rng.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const struct game_ops bantu_ops;
static const struct game_ops *ops = &bantu_ops;
static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan" };
static const struct game_table table = { 4, names, NULL };

static int circle(const char *name)
{
    int sec = atoi(name);
    return sec * 4 + (name[strlen(name) - 1] - 'a');
}

/*
 * A position on the shipped board: for each seat a string of its pieces
 * 1..4: a circle ("4a"), "s" (starting space) or "f" (Finish). Seat 0
 * (Red, Ann) is to move.
 */
static void *position(int nseats, const char *const *pieces, const char *options)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *o = options ? cJSON_Parse(options) : cJSON_CreateObject();
    void *st = ops->setup(o, nseats, 1, &err);
    ck_assert_msg(st != NULL, "%s", err.buf);
    cJSON *j = ops->to_json(st), *pos = cJSON_CreateArray();
    ops->free(st);
    cJSON_Delete(o);
    for (int s = 0; s < nseats; s++) {
        int p[4];
        char buf[64], *save = NULL;
        snprintf(buf, sizeof(buf), "%s", pieces[s]);
        char *tok = strtok_r(buf, " ", &save);
        for (int k = 0; k < 4; k++) {
            ck_assert_ptr_nonnull(tok);
            p[k] = str_eq(tok, "s") ? -1 : str_eq(tok, "f") ? -2 : circle(tok);
            tok = strtok_r(NULL, " ", &save);
        }
        cJSON_AddItemToArray(pos, jx_int_array_new(p, 4));
    }
    cJSON_ReplaceItemInObject(j, "positions", pos);
    cJSON_ReplaceItemInObject(j, "to_move", cJSON_CreateNumber(0));
    char *text = jx_print(j);
    st = t_state(ops, text);
    free(text);
    cJSON_Delete(j);
    strbuf_release(&err);
    return st;
}

static void legal_of(void *st, struct strlist *l)
{
    ops->legal(st, 0, &table, l);
    strlist_sort(l);
}

/* The destinations LEGAL gives piece k, as "5c 6b ...", sorted. */
static char *dests(void *st, int k)
{
    struct strlist l = STRLIST_INIT;
    struct strbuf out = STRBUF_INIT;
    char prefix[16];
    snprintf(prefix, sizeof(prefix), "MOVE %d ", k);
    legal_of(st, &l);
    for (size_t i = 0; i < l.n; i++)
        if (strncmp(l.v[i], prefix, strlen(prefix)) == 0)
            strbuf_addf(&out, "%s%s", out.len ? " " : "", l.v[i] + strlen(prefix));
    strlist_clear(&l);
    return strbuf_detach(&out);
}

static char *play(void *st, int seat, const char *order)
{
    return t_play(ops, st, &table, seat, order);
}

static void refused(void *st, const char *order, const char *reason)
{
    t_refused(ops, st, NULL, 0, order, reason);
}

static int pos_of(void *st, int seat, int k)
{
    cJSON *j = ops->to_json(st);
    int v = cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "positions"), seat), k - 1)->valueint;
    cJSON_Delete(j);
    return v;
}

#define DESTS(st, k, want)                                                                                             \
    do {                                                                                                               \
        char *d_ = dests(st, k);                                                                                       \
        ck_assert_str_eq(d_, want);                                                                                    \
        free(d_);                                                                                                      \
    } while (0)

/* ---- the board file ----------------------------------------------------------------------- */

/* Writes the shipped board with one change made by fix(), and sets it up. */
static void broken(void (*fix)(cJSON *sections), const char *reason)
{
    struct strbuf err = STRBUF_INIT;
    char *path = data_path("seeds", "bantu-board.json"), tmp[] = "/tmp/ngoma-bantu-XXXXXX";
    cJSON *d = jx_load_file(path, FILE_MAX_DATA, &err);
    ck_assert_ptr_nonnull(d);
    fix(cJSON_GetObjectItem(d, "sections"));
    int fd = mkstemp(tmp);
    char *text = cJSON_Print(d);
    ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "board", tmp);
    ck_assert_ptr_null(ops->setup(o, 2, 1, &err));
    ck_assert_msg(strstr(err.buf, reason) != NULL, "\"%s\" lacks \"%s\"", err.buf, reason);
    ck_assert(strstr(err.buf, tmp) != NULL); /* the message names the file */
    unlink(tmp);
    free(text);
    free(path);
    cJSON_Delete(o);
    cJSON_Delete(d);
    strbuf_release(&err);
}

static cJSON *circle_of(cJSON *sections, int s, int lane)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(sections, s), "circles"), lane);
}

static void move_start_line(cJSON *s)
{
    cJSON_DeleteItemFromObject(cJSON_GetArrayItem(s, 8), "start");
    cJSON_AddNumberToObject(cJSON_GetArrayItem(s, 9), "start", 3);
}

static void link_to_nothing(cJSON *s)
{
    /* 2d leads to 3d, which does not exist (3 has b and c only). */
    cJSON_ReplaceItemInObject(circle_of(s, 2, 3), "next", cJSON_CreateStringArray((const char *[]){ "d" }, 1));
}

static void unreachable_circle(cJSON *s)
{
    /* Nothing leads to 4a any more: 3b goes to 4b only. */
    cJSON_ReplaceItemInObject(circle_of(s, 3, 0), "next", cJSON_CreateStringArray((const char *[]){ "b" }, 1));
}

static void dead_end(cJSON *s)
{
    /* 31a leads nowhere but itself would: make it an ordinary circle. */
    cJSON_ReplaceItemInObject(circle_of(s, 31, 0), "next", cJSON_CreateStringArray((const char *[]){ "FINISH", "b" }, 2));
}

static void split_start_line(cJSON *s)
{
    cJSON_ReplaceItemInObject(circle_of(s, 16, 3), "row", cJSON_CreateNumber(1));
}

static void no_row_of_three(cJSON *s)
{
    /* Each row of 3 loses its last circle to a row of its own. */
    cJSON *sec;
    cJSON_ArrayForEach(sec, s) {
        cJSON *circles = cJSON_GetObjectItem(sec, "circles"), *c, *last[4] = { NULL };
        int size[4] = { 0 };
        cJSON_ArrayForEach(c, circles) {
            int row = cJSON_GetObjectItem(c, "row")->valueint;
            size[row]++;
            last[row] = c;
        }
        for (int r = 0; r < 4; r++)
            if (size[r] == 3)
                cJSON_ReplaceItemInObject(last[r], "row", cJSON_CreateNumber(3));
    }
}

static void link_across_a_lane(cJSON *s)
{
    /* 5a would lead to 6c, across 6b: the drawn board cannot show it. */
    cJSON_ReplaceItemInObject(circle_of(s, 5, 0), "next", cJSON_CreateStringArray((const char *[]){ "c" }, 1));
}

/* The row of four in cross-section 5 entered only at its last lane:
 * cross-section 4 keeps its circles c and d, both leading to 5d. */
static void row_entered_at_its_end(cJSON *s)
{
    cJSON *circles = cJSON_GetObjectItem(cJSON_GetArrayItem(s, 4), "circles");
    cJSON_DeleteItemFromArray(circles, 0);
    cJSON_DeleteItemFromArray(circles, 0);
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(circles, 0), "next", cJSON_CreateStringArray((const char *[]){ "d" }, 1));
    cJSON_ReplaceItemInObject(circle_of(s, 3, 0), "next", cJSON_CreateStringArray((const char *[]){ "c" }, 1));
}

/* Writes the shipped board with one change made by fix() to a file; its
 * path is owned by the caller. */
static char *board_file(void (*fix)(cJSON *sections))
{
    struct strbuf err = STRBUF_INIT;
    char *path = data_path("seeds", "bantu-board.json"), *tmp = xstrdup("/tmp/ngoma-bantu-XXXXXX");
    cJSON *d = jx_load_file(path, FILE_MAX_DATA, &err);
    ck_assert_ptr_nonnull(d);
    fix(cJSON_GetObjectItem(d, "sections"));
    int fd = mkstemp(tmp);
    char *text = cJSON_Print(d);
    ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    free(text);
    free(path);
    cJSON_Delete(d);
    strbuf_release(&err);
    return tmp;
}

START_TEST(a_row_may_be_entered_at_any_lane_and_every_link_is_drawn)
{
    struct strbuf err = STRBUF_INIT, view = STRBUF_INIT;
    char *file = board_file(row_entered_at_its_end);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "board", file);
    void *st = ops->setup(o, 2, 1, &err);
    ck_assert_msg(st != NULL, "a board whose row is entered at its last lane: %s", err.buf);
    /* A piece on 5d with count 3 (Red 3 alone) may go sideways to 5a. */
    cJSON *j = ops->to_json(st), *pos = cJSON_CreateArray();
    cJSON_AddItemToArray(pos, jx_int_array_new((int[]){ -1, -1, circle("5d"), -1 }, 4));
    cJSON_AddItemToArray(pos, jx_int_array_new((int[]){ -1, -1, -1, -1 }, 4));
    cJSON_ReplaceItemInObject(j, "positions", pos);
    cJSON_ReplaceItemInObject(j, "to_move", cJSON_CreateNumber(0));
    char *text = jx_print(j);
    ops->free(st);
    st = t_state(ops, text);
    char *d = dests(st, 3);
    ck_assert_msg(strstr(d, "5a") != NULL, "piece 3 on 5d may go to %s", d);
    free(d);
    /* The view draws both links into 5d. */
    ops->view_ascii(st, -1, &table, &view);
    ck_assert_msg(strstr(view.buf, "   4               (..)   (..)\n                        \\   |\n") != NULL, "%s",
                  view.buf);
    free(text);
    cJSON_Delete(j);
    ops->free(st);
    unlink(file);
    free(file);
    cJSON_Delete(o);
    strbuf_release(&err);
    strbuf_release(&view);
}
END_TEST

START_TEST(the_board_file_is_checked)
{
    struct strbuf err = STRBUF_INIT;
    void *st = ops->setup(NULL, 2, 1, &err);
    ck_assert_msg(st != NULL, "the shipped board: %s", err.buf);
    ops->free(st);
    strbuf_release(&err);
    broken(move_start_line, "starting line 3 must be cross-section 8");
    broken(link_to_nothing, "circle 2d leads to 3d, which does not exist");
    broken(unreachable_circle, "circle 4a cannot be reached");
    broken(dead_end, "only the arrow circles");
    broken(split_start_line, "starting line 2 (cross-section 16) must be 4 joined circles");
    broken(no_row_of_three, "rows of 1, 2, 3 and 4 circles must all occur");
    broken(link_across_a_lane, "circle 5a leads to 6c: a link goes to the same lane of the next cross-section or a "
                               "lane beside it");
}
END_TEST

/* ---- moves ---------------------------------------------------------------------------------------- */

START_TEST(entering_is_a_whole_move_onto_the_own_starting_line)
{
    const char *p[] = { "s s s s", "24a s s s" };
    void *st = position(2, p, NULL);
    refused(st, "ENTER 1 24a", "is taken");
    refused(st, "ENTER 1 8b", "its own starting line, cross-section 24");
    char *log = play(st, 0, "enter 1 24b");
    ck_assert(strstr(log, "Ann enters R1 on 24b") != NULL);
    ck_assert_int_eq(pos_of(st, 0, 1), circle("24b"));
    ck_assert_int_eq(ops->waiting_for(st), 2u);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(a_lone_piece_moves_its_own_number)
{
    const char *p[] = { "s s 4a s", "s s s s" };
    void *st = position(2, p, NULL);
    /* From 4a: 5a, then 6b or 5b, then 7a 7b 6c, or 6b 5c (never back to 5a). */
    DESTS(st, 3, "5c 6b 6c 7a 7b");
    refused(st, "MOVE 3 8a", "must move exactly 3 (its own number)");
    ops->free(st);
}
END_TEST

START_TEST(pieces_abreast_move_the_sum_of_their_row)
{
    /* Two abreast: R1 on 9a and G2 on 9b, one row: Red's 1 moves 3:
     * 10a (a lone circle), 11b, then 11c, 12a or 12b. */
    const char *two[] = { "9a s s s", "s 9b s s" };
    void *st = position(2, two, NULL);
    DESTS(st, 1, "11c 12a 12b");
    ops->free(st);
    /* Three abreast on 10 b-c-d: 1 + 2 + 3 = 6 for each. */
    const char *three[] = { "10b s s s", "s 10c s s", "s s 10d s" };
    st = position(3, three, NULL);
    char *d = dests(st, 1);
    /* Six straight steps reach 16a; seven would be needed for 17. */
    ck_assert_msg(strstr(d, "16a") != NULL && strstr(d, "17") == NULL, "six steps from 10b, got %s", d);
    free(d);
    ops->free(st);
    /* The rulebook's example: Red 2, Green 3, Blue 4 and Yellow 4 abreast: 13. */
    const char *four[] = { "s 16a s s", "s s 16b s", "s s s 16c", "s s s 16d" };
    st = position(4, four, NULL);
    d = dests(st, 2);
    /* 13 steps from 16a: as far as cross-section 29, never 30 or Finish. */
    ck_assert_msg(strstr(d, "29") && !strstr(d, "30") && !strstr(d, "31") && !strstr(d, "FINISH"),
                  "13 steps from 16a, got %s", d);
    free(d);
    ops->free(st);
}
END_TEST

START_TEST(sideways_along_a_row_never_back_over_a_circle)
{
    const char *p[] = { "s 2a s s", "s s s s" };
    void *st = position(2, p, NULL);
    /* 2a-2b-2c sideways, or 2a-3b then on; never back to 2a. */
    DESTS(st, 2, "2c 3b 3c 4a 4b");
    ops->free(st);
}
END_TEST

START_TEST(paths_never_pass_over_a_piece_and_use_the_full_count)
{
    /* Bob's piece on 5a closes 4a's only way on: Red's 3 cannot move. */
    const char *p[] = { "s s 4a s", "5a s s s" };
    void *st = position(2, p, NULL);
    DESTS(st, 3, "");
    refused(st, "MOVE 3 5a", "");
    ops->free(st);
    /* A piece on 6b cuts the paths through it: 5a-5b-5c, or 5a-5b-6b,
     * landing on it (a lone piece: captured). */
    const char *q[] = { "s s 4a s", "s s s 6b" };
    st = position(2, q, NULL);
    DESTS(st, 3, "5c 6b");
    ops->free(st);
}
END_TEST

START_TEST(exact_landing_on_a_lone_opponent_captures)
{
    const char *p[] = { "s s 4a s", "7a s s s" };
    void *st = position(2, p, NULL);
    char *log = play(st, 0, "MOVE 3 7a");
    ck_assert(strstr(log, "G1 of Bob is captured and goes back to starting space 1") != NULL);
    ck_assert_int_eq(pos_of(st, 1, 1), -1);
    ck_assert_int_eq(pos_of(st, 0, 3), circle("7a"));
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(starting_lines_and_abreast_pieces_are_safe)
{
    /* Green's 1 sits on starting line 3 (8a): safe. Red's 4 on 5a moves 4... */
    const char *p[] = { "s s s 4b", "8b s s s" };
    void *st = position(2, p, NULL);
    refused(st, "MOVE 4 8b", "safe on its starting line");
    ops->free(st);
    /* Green 1 and Blue 2 abreast on 7b-7c: neither can be taken. */
    const char *q[] = { "s s 4a s", "7b s s s", "s 7c s s" };
    st = position(3, q, NULL);
    refused(st, "MOVE 3 7b", "abreast");
    ops->free(st);
    /* Its own side's piece: never two on a circle. */
    const char *r[] = { "7a s 4a s", "s s s s" };
    st = position(2, r, NULL);
    refused(st, "MOVE 3 7a", "a piece of your side");
    ops->free(st);
}
END_TEST

START_TEST(a_player_who_cannot_move_passes_and_is_told)
{
    /* Red's 1 steps sideways to 5a, in front of Green's 4 on 4a, whose
     * only way on is 5a; Green's other pieces are home: Green passes. */
    const char *p[] = { "5b f f f", "f f f 4a" };
    void *st = position(2, p, NULL);
    struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
    struct game_log log;
    const char *orders[4] = { "MOVE 1 5a", NULL };
    ck_assert_msg(ops->check(st, 0, &table, orders[0], &canon, &why) == 0, "%s", why.buf);
    game_log_init(&log);
    ck_assert_int_eq(ops->advance(st, orders, &table, &log), 0);
    ck_assert_msg(strstr(log.pub.buf, "Bob cannot move and passes.") != NULL, "%s", log.pub.buf);
    ck_assert(strstr(log.priv[1].buf, "You could not move this turn") != NULL);
    ck_assert_uint_eq(ops->waiting_for(st), 1u); /* Red again */
    game_log_release(&log);
    strbuf_release(&canon);
    strbuf_release(&why);
    ops->free(st);
}
END_TEST

START_TEST(finish_by_overshoot_from_an_arrow_circle)
{
    const char *p[] = { "f f 30a f", "s s s s" };
    void *st = position(2, p, NULL);
    /* 30a, 31a (an arrow), and the third step into Finish. */
    struct strlist l = STRLIST_INIT;
    legal_of(st, &l);
    ck_assert(strlist_contains(&l, "MOVE 3 FINISH"));
    strlist_clear(&l);
    char *log = play(st, 0, "3 home");
    ck_assert(strstr(log, "into Finish") != NULL);
    ck_assert(strstr(log, "All of Ann's pieces are home: Ann wins.") != NULL);
    struct game_result r;
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(r.winners, 1u);
    free(log);
    ops->free(st);
    /* Not from before the arrows with too few steps. */
    const char *q[] = { "f 29a f f", "s s s s" };
    st = position(2, q, NULL);
    refused(st, "MOVE 2 FINISH", "cannot reach Finish");
    ops->free(st);
}
END_TEST

/* Plays a game to its end with random legal orders (through the engine). */
static void play_out(const char *options, int nseats, unsigned *winners, int *pieces)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct rng r;
    rng_seed(&r, 5, 5);
    t_new_game(db, "bantu", nseats, 9, options, &g);
    for (int steps = 0; steps < 5000; steps++) {
        unsigned w = g.ops->waiting_for(g.st);
        struct strlist l = STRLIST_INIT;
        if (!w)
            break;
        int s = __builtin_ctz(w);
        g.ops->legal(g.st, s, &g.table, &l);
        ck_assert_uint_gt(l.n, 0);
        t_ok(db, &g, s, l.v[rng_below(&r, (uint32_t)l.n)]);
        strlist_clear(&l);
    }
    struct game_result res;
    g.ops->result(g.st, &res);
    ck_assert_msg(res.finished, "the game did not end");
    *winners = res.winners;
    for (int s = 0; s < nseats; s++)
        pieces[s] = res.scores[s];
    struct strbuf report = STRBUF_INIT;
    ck_assert_int_eq(engine_replay(db, &g, &report), 0);
    strbuf_release(&report);
    game_unload(&g);
    db_close(db);
}

START_TEST(the_short_game_plays_to_the_end_with_three_pieces)
{
    unsigned winners;
    int home[4];
    play_out("{\"short\":\"yes\"}", 3, &winners, home);
    ck_assert_int_eq(__builtin_popcount(winners), 1);
    int w = __builtin_ctz(winners);
    ck_assert_int_eq(home[w], 3);
}
END_TEST

START_TEST(partnership_plays_to_the_end_and_a_side_wins)
{
    unsigned winners;
    int home[4];
    play_out("{\"partnership\":\"yes\"}", 4, &winners, home);
    ck_assert_msg(winners == 5u || winners == 10u, "winners %u", winners);
    int a = __builtin_ctz(winners), b = a + 2;
    ck_assert_int_eq(home[a], 4);
    ck_assert_int_eq(home[b], 4);
    /* Partners do not capture each other: checked by the rule itself. */
    const char *p[] = { "s s 4a s", "s s s s", "7a s s s", "s s s s" };
    void *st = position(4, p, "{\"partnership\":\"yes\"}");
    refused(st, "MOVE 3 7a", "a piece of your side");
    ops->free(st);
    struct strbuf err = STRBUF_INIT;
    cJSON *o = cJSON_Parse("{\"partnership\":\"yes\"}");
    ck_assert_ptr_null(ops->setup(o, 3, 1, &err));
    ck_assert(strstr(err.buf, "needs 4 players") != NULL);
    cJSON_Delete(o);
    strbuf_release(&err);
}
END_TEST

START_TEST(the_board_shows_circles_rows_and_pieces)
{
    const char *p[] = { "9a s 4a f", "s 9b s s" };
    void *st = position(2, p, NULL);
    struct strbuf out = STRBUF_INIT;
    ops->view_ascii(st, -1, &table, &out);
    ck_assert(strstr(out.buf, "   9 (R1)===(G2)   (..)===(..)") != NULL);
    ck_assert(strstr(out.buf, "   4 (..)   (..)   (..)   (..)") == NULL); /* R3 stands on 4a */
    ck_assert(strstr(out.buf, "   4 (R3)   (..)   (..)   (..)") != NULL);
    ck_assert(strstr(out.buf, "starting line 3") != NULL);
    ck_assert(strstr(out.buf, "Finish: R4") != NULL);
    ck_assert(strstr(out.buf, "1: G1") != NULL);
    strbuf_release(&out);
    ops->free(st);
}
END_TEST

Suite *bantu_suite(void)
{
    Suite *s = suite_create("bantu");
    TCase *tc = tcase_create("bantu");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, the_board_file_is_checked);
    tcase_add_test(tc, a_row_may_be_entered_at_any_lane_and_every_link_is_drawn);
    tcase_add_test(tc, entering_is_a_whole_move_onto_the_own_starting_line);
    tcase_add_test(tc, a_lone_piece_moves_its_own_number);
    tcase_add_test(tc, pieces_abreast_move_the_sum_of_their_row);
    tcase_add_test(tc, sideways_along_a_row_never_back_over_a_circle);
    tcase_add_test(tc, paths_never_pass_over_a_piece_and_use_the_full_count);
    tcase_add_test(tc, exact_landing_on_a_lone_opponent_captures);
    tcase_add_test(tc, starting_lines_and_abreast_pieces_are_safe);
    tcase_add_test(tc, a_player_who_cannot_move_passes_and_is_told);
    tcase_add_test(tc, finish_by_overshoot_from_an_arrow_circle);
    tcase_add_test(tc, the_short_game_plays_to_the_end_with_three_pieces);
    tcase_add_test(tc, partnership_plays_to_the_end_and_a_side_wins);
    tcase_add_test(tc, the_board_shows_circles_rows_and_pieces);
    suite_add_tcase(s, tc);
    return s;
}
