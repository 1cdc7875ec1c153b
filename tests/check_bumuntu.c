/* check_bumuntu.c: Bumuntu scenarios: setup, entering, food, every animal and its exceptions, swaps, the end and scoring. */
#include "test_support.h"

#include "lib/jsonx.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "lib/words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct game_ops bumuntu_ops;
static const struct game_ops *ops = &bumuntu_ops;
static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan", "Eve" };
static const struct game_table table = { 5, names, NULL };

/* Every animal in play: the beginner set less Giraffe and Black Mamba,
 * plus Flamingo and Rhinoceros, so that all ten appear in the tests. */
#define WITH_ALL "Giraffe,Zebra,Chimpanzee,Tarantula,Lion,Crocodile,Flamingo,Rhinoceros"
#define WITH_MAMBA "Giraffe,Zebra,Chimpanzee,Tarantula,Lion,Crocodile,Black Mamba,Elephant"

/*
 * A position: rows rank 8 first, eight cells each ("GiA" a tile, "..." no
 * tile) separated by spaces; pawns as squares ("c4 e5", "--" off board);
 * chips per seat. The seat to move is 0 in the turn phase.
 */
static void *position(const char *animals, int nseats, const char *const rows[8], const char *pawns, const int *chips)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "animals", animals);
    cJSON_AddStringToObject(o, "data", "bumuntu.json");
    void *st = ops->setup(o, nseats, 1, &err);
    ck_assert_msg(st != NULL, "%s", err.buf);
    cJSON *j = ops->to_json(st), *codes = cJSON_GetObjectItem(j, "codes"), *board = cJSON_CreateArray();
    ops->free(st);
    cJSON_Delete(o);
    int cells[64];
    for (int r = 0; r < 8; r++) {
        const char *p = rows[r];
        for (int f = 0; f < 8; f++) {
            while (*p == ' ')
                p++;
            int tile = -1;
            if (p[0] != '.') {
                int slot = -1, kind = strchr("AFNY", p[2]) - "AFNY";
                for (int s = 0; s < 8; s++)
                    if (strncmp(cJSON_GetArrayItem(codes, s)->valuestring, p, 2) == 0)
                        slot = s;
                ck_assert_msg(slot >= 0, "no animal %.2s in play", p);
                tile = slot * 4 + kind;
            }
            cells[(7 - r) * 8 + f] = tile;
            p += 3;
        }
    }
    for (int i = 0; i < 64; i++)
        cJSON_AddItemToArray(board, cJSON_CreateNumber(cells[i]));
    cJSON_ReplaceItemInObject(j, "board", board);
    cJSON *pw = cJSON_CreateArray(), *ch = cJSON_CreateArray();
    struct words w;
    words_split(&w, pawns, NULL);
    for (int s = 0; s < nseats; s++) {
        int f, r;
        cJSON_AddItemToArray(pw, cJSON_CreateNumber(square_parse(w.w[s], 8, 8, &f, &r) ? r * 8 + f : -1));
        cJSON_AddItemToArray(ch, cJSON_CreateNumber(chips ? chips[s] : 0));
    }
    words_release(&w);
    cJSON_ReplaceItemInObject(j, "pawns", pw);
    cJSON_ReplaceItemInObject(j, "chips", ch);
    cJSON_ReplaceItemInObject(j, "phase", cJSON_CreateString("turn"));
    cJSON_ReplaceItemInObject(j, "to_move", cJSON_CreateNumber(0));
    cJSON_ReplaceItemInObject(j, "first", cJSON_CreateNumber(0));
    char *text = jx_print(j);
    st = t_state(ops, text);
    free(text);
    cJSON_Delete(j);
    strbuf_release(&err);
    return st;
}

static char *play(void *st, int seat, const char *order)
{
    return t_play(ops, st, &table, seat, order);
}

static void refused(void *st, int seat, const char *order, const char *reason)
{
    t_refused(ops, st, &table, seat, order, reason);
}

static char *canon_of(void *st, int seat, const char *order)
{
    struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
    ck_assert_msg(ops->check(st, seat, &table, order, &canon, &why) == 0, "\"%s\" refused: %s", order, why.buf);
    strbuf_release(&why);
    return strbuf_detach(&canon);
}

static bool legal_has(void *st, int seat, const char *order)
{
    struct strlist l = STRLIST_INIT;
    ops->legal(st, seat, &table, &l);
    bool has = strlist_contains(&l, order);
    strlist_clear(&l);
    return has;
}

static int get_int(void *st, const char *key, int index)
{
    cJSON *j = ops->to_json(st), *v = cJSON_GetObjectItem(j, key);
    int x = index < 0 ? v->valueint : cJSON_GetArrayItem(v, index)->valueint;
    cJSON_Delete(j);
    return x;
}

static int sq(const char *name)
{
    return (name[1] - '1') * 8 + (name[0] - 'a');
}

static const char *phase_of(void *st)
{
    static char buf[16];
    cJSON *j = ops->to_json(st);
    snprintf(buf, sizeof(buf), "%s", cJSON_GetObjectItem(j, "phase")->valuestring);
    cJSON_Delete(j);
    return buf;
}

#define EMPTY_ROW "... ... ... ... ... ... ... ..."

/* ---- setup and entering ------------------------------------------------------------- */

START_TEST(setup_lays_64_tiles_and_shuffles_the_favor_board)
{
    struct strbuf err = STRBUF_INIT;
    void *st = ops->setup(NULL, 3, 77, &err);
    int count[32] = { 0 };
    ck_assert_msg(st != NULL, "%s", err.buf);
    for (int i = 0; i < 64; i++)
        count[get_int(st, "board", i)]++;
    for (int slot = 0; slot < 8; slot++) {
        ck_assert_int_eq(count[slot * 4 + 0], 2); /* advancement */
        ck_assert_int_eq(count[slot * 4 + 1], 4); /* food */
        ck_assert_int_eq(count[slot * 4 + 2], 1); /* Nkisi */
        ck_assert_int_eq(count[slot * 4 + 3], 1); /* Yowa */
    }
    /* The beginner set: Giraffe 0, Zebra 2, Chimpanzee 1, Tarantula 4, Lion 5, Crocodile 6, Mamba 7, Elephant 9. */
    int seen = 0;
    for (int s = 0; s < 8; s++)
        seen |= 1 << get_int(st, "animals", s);
    ck_assert_int_eq(seen, (1 << 0) | (1 << 1) | (1 << 2) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 9));
    ck_assert_int_eq(get_int(st, "adv_total", -1), 16);
    ck_assert_str_eq(ops->phase(st), "setup");
    ck_assert_int_eq(get_int(st, "to_move", -1), get_int(st, "first", -1));
    ops->free(st);
    /* Another seed, another layout and favor board. */
    void *other = ops->setup(NULL, 3, 78, &err);
    st = ops->setup(NULL, 3, 77, &err);
    int same = 0;
    for (int i = 0; i < 64; i++)
        same += get_int(st, "board", i) == get_int(other, "board", i);
    ck_assert_int_lt(same, 64);
    ops->free(st);
    ops->free(other);
    strbuf_release(&err);
}
END_TEST

START_TEST(the_animals_option_is_checked)
{
    static const char *const bad[][2] = {
        { "Giraffe,Zebra,Chimpanzee,Tarantula,Lion,Crocodile,Black Mamba", "exactly 8" },
        { "Giraffe,Zebra,Chimpanzee,Tarantula,Lion,Crocodile,Black Mamba,Unicorn", "\"Unicorn\" is not an animal" },
        { "Giraffe,Zebra,Chimpanzee,Tarantula,Lion,Crocodile,Black Mamba,Zebra", "Zebra is named twice" },
        { "Giraffe,Zebra,Chimpanzee,Tarantula,Lion,Crocodile,Black Mamba,Elephant,Flamingo", "exactly 8" },
    };
    struct strbuf err = STRBUF_INIT;
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "animals", bad[i][0]);
        strbuf_reset(&err);
        ck_assert_ptr_null(ops->setup(o, 2, 1, &err));
        ck_assert_msg(strstr(err.buf, bad[i][1]) != NULL, "%s", err.buf);
        cJSON_Delete(o);
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "animals", "giraffe, zebra, chimpanzee, tarantula, lion, crocodile, flamingo, rhino");
    void *st = ops->setup(o, 2, 1, &err);
    ck_assert_msg(st != NULL, "%s", err.buf);
    ops->free(st);
    cJSON_Delete(o);
    strbuf_release(&err);
}
END_TEST

START_TEST(players_enter_the_outer_ring_in_seat_order)
{
    struct strbuf err = STRBUF_INIT;
    void *st = ops->setup(NULL, 3, 5, &err);
    int first = get_int(st, "first", -1);
    refused(st, first, "ENTER d4", "not on the outer ring");
    refused(st, (first + 1) % 3, "ENTER a1", "not your turn");
    free(play(st, first, "enter a1"));
    ck_assert_int_eq(get_int(st, "to_move", -1), (first + 1) % 3);
    refused(st, (first + 1) % 3, "ENTER a1", "taken");
    free(play(st, (first + 1) % 3, "h8"));
    free(play(st, (first + 2) % 3, "ENTER d1"));
    ck_assert_str_eq(ops->phase(st), "play");
    ck_assert_int_eq(get_int(st, "to_move", -1), first); /* the first player plays first */
    ops->free(st);
    strbuf_release(&err);
}
END_TEST

/* ---- moving ----------------------------------------------------------------------------- */

START_TEST(a_plain_step_and_an_empty_square)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         "... ... ... ZeF ... ... ... ...", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    void *st = position(WITH_MAMBA, 2, rows, "c4 c5", NULL);
    /* On an empty square: one step only, no ability. */
    refused(st, 0, "ZEBRA c8", "empty square");
    refused(st, 0, "MOVE c5", "holds another pawn");
    refused(st, 0, "MOVE c6", "not next to your pawn");
    char *log = play(st, 0, "MOVE d4");
    ck_assert(strstr(log, "Ann moves one step to d4") != NULL);
    ck_assert_int_eq(get_int(st, "board", sq("d4")) >= 0, 1); /* a plain step collects nothing */
    ck_assert_int_eq(get_int(st, "to_move", -1), 1);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(food_chips_buy_single_steps_first)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         "... ... ... ... LiF ... ... ...", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    int chips[2] = { 2, 0 };
    void *st = position(WITH_MAMBA, 2, rows, "c4 d4", chips);
    refused(st, 0, "FOOD d4-e4", "holds another pawn");
    refused(st, 0, "FOOD c5-c4", "may not end on the square it started from");
    refused(st, 0, "FOOD c5-d6-e7", "3 food chips and you have 2");
    refused(st, 1, "FOOD d5", "not your turn");
    char *c = canon_of(st, 0, "food e4");
    ck_assert_str_eq(c, "FOOD d3-e4"); /* a destination alone: the fewest chips, one path */
    free(c);
    char *log = play(st, 0, "FOOD d5-e4");
    ck_assert(strstr(log, "Ann spends 2 food chips") != NULL);
    ck_assert_int_eq(get_int(st, "chips", 0), 0);
    ck_assert_int_eq(get_int(st, "pawns", 0), sq("e4"));
    /* Still her turn: now the Lion under her, or a step. */
    ck_assert_int_eq(get_int(st, "to_move", -1), 0);
    refused(st, 0, "FOOD e5", "first in a turn");
    ck_assert(legal_has(st, 0, "MOVE e5"));
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(giraffe_moves_up_to_three_not_through_opponents)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         "... ... ... ... ... ... ... ...", EMPTY_ROW,
                                         "GiA ... ... ... ... ... ... ...", EMPTY_ROW };
    void *st = position(WITH_MAMBA, 2, rows, "a2 b2", NULL);
    /* b2 and the wall: a2-a3-a4-a5 is 3 steps; d2 lies beyond Bob. */
    ck_assert(legal_has(st, 0, "GIRAFFE a5"));
    ck_assert(legal_has(st, 0, "GIRAFFE c3"));
    ck_assert(!legal_has(st, 0, "GIRAFFE a6"));
    refused(st, 0, "GIRAFFE b2", "");
    refused(st, 0, "GIRAFFE a2-b2-c2", "holds another pawn");
    refused(st, 0, "ZEBRA a5", "Giraffe tile, not a Zebra");
    char *log = play(st, 0, "giraffe a3-b4-c3");
    ck_assert(strstr(log, "Ann uses the Giraffe: a2 -> c3") != NULL);
    ck_assert(strstr(log, "collects the Giraffe tile from a2: an advancement") != NULL);
    ck_assert_int_eq(get_int(st, "board", sq("a2")), -1);
    ck_assert_str_eq(phase_of(st), "swap");
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(chimpanzee_diagonal_and_zebra_straight)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         "... ... ChF ... ... ... ... ...", EMPTY_ROW,
                                         "... ... ... ... ... ... ... ...", "... ... ... ... ... ... ZeF ..." };
    void *st = position(WITH_MAMBA, 2, rows, "c4 e6", NULL);
    /* The Chimpanzee: diagonals, stopped by Bob on e6 (d5 still fine). */
    ck_assert(legal_has(st, 0, "CHIMPANZEE d5"));
    ck_assert(!legal_has(st, 0, "CHIMPANZEE e6"));
    ck_assert(!legal_has(st, 0, "CHIMPANZEE f7"));
    ck_assert(legal_has(st, 0, "CHIMPANZEE a2"));
    refused(st, 0, "CHIMPANZEE c7", "diagonally");
    refused(st, 0, "CHIMPANZEE f7", "blocked");
    free(play(st, 0, "CHIMPANZEE sw")); /* a direction alone: as far as it goes */
    ck_assert_int_eq(get_int(st, "pawns", 0), sq("a2"));
    ck_assert_int_eq(get_int(st, "chips", 0), 1); /* a food tile: a chip */
    ops->free(st);

    st = position(WITH_MAMBA, 2, rows, "g1 g4", NULL);
    ck_assert(legal_has(st, 0, "ZEBRA g3"));
    ck_assert(!legal_has(st, 0, "ZEBRA g5"));
    ck_assert(legal_has(st, 0, "ZEBRA a1"));
    refused(st, 0, "ZEBRA h2", "along ranks and files");
    ops->free(st);
}
END_TEST

START_TEST(flamingo_flies_to_a_free_flamingo_or_itself)
{
    static const char *const rows[8] = { "... ... ... ... ... ... ... FlN", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         "... ... FlA ... ... ... ... ...", EMPTY_ROW,
                                         "... ... ... ... ... ... ... ...", "FlF ... ... ... ... ... ... ..." };
    void *st = position(WITH_ALL, 2, rows, "c4 h8", NULL);
    /* h8's Flamingo is taken by Bob; a1's is free; its own counts too. */
    ck_assert(legal_has(st, 0, "FLAMINGO b2"));
    ck_assert(legal_has(st, 0, "FLAMINGO d5")); /* itself, then a step */
    ck_assert(!legal_has(st, 0, "FLAMINGO g7"));
    ck_assert(!legal_has(st, 0, "FLAMINGO c4")); /* never back to the start */
    refused(st, 0, "FLAMINGO g7", "not one step from a free Flamingo");
    char *log = play(st, 0, "FLAMINGO a1 b2");
    /* The tile collected is the one she started on, not the one she flew to. */
    ck_assert(strstr(log, "collects the Flamingo tile from c4") != NULL);
    ck_assert_int_eq(get_int(st, "board", sq("c4")), -1);
    ck_assert_int_ge(get_int(st, "board", sq("a1")), 0);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(tarantula_moves_then_may_move_a_tile)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "ZeF ... ... ... ... ... ... ...",
                                         "... ... TaN ... ... ... ... ...", EMPTY_ROW,
                                         "... ... ... ... ... ... ... GiF", EMPTY_ROW };
    void *st = position(WITH_MAMBA, 2, rows, "c4 h2", NULL);
    free(play(st, 0, "TARANTULA d5-e5"));
    ck_assert_str_eq(phase_of(st), "tile");
    ck_assert_int_eq(get_int(st, "to_move", -1), 0);
    refused(st, 0, "TILE h2 a1", "has a pawn on it");
    refused(st, 0, "TILE c4 a1", "the one you collect");
    refused(st, 0, "TILE a5 c4", "not empty");
    refused(st, 0, "TILE b2 a1", "holds no tile");
    ck_assert(legal_has(st, 0, "TILE NONE"));
    char *log = play(st, 0, "TILE a5 f8");
    ck_assert(strstr(log, "moves the Zebra tile from a5 to f8") != NULL);
    ck_assert(strstr(log, "collects the Tarantula tile from c4") != NULL);
    ck_assert_int_ge(get_int(st, "board", sq("f8")), 0);
    ck_assert_int_eq(get_int(st, "to_move", -1), 1);
    free(log);
    ops->free(st);
    /* The same in one line, without a tile move. */
    st = position(WITH_MAMBA, 2, rows, "c4 h2", NULL);
    free(play(st, 0, "TARANTULA e5 TILE NONE"));
    ck_assert_int_eq(get_int(st, "to_move", -1), 1);
    ops->free(st);
}
END_TEST

START_TEST(lion_moves_three_then_pushes_any_opponent_the_same_way)
{
    /* Ann on a Lion advancement tile on a1; the board is otherwise bare. */
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "LiA ... ... ... ... ... ... ..." };
    /* Bob far from the Lion's line, on c5: the Lion goes a1-d1 and Bob one
     * square east, c5-d5 (the rulebook's "an opponent", not the one in front). */
    void *st = position(WITH_MAMBA, 2, rows, "a1 c5", NULL);
    ck_assert(legal_has(st, 0, "LION e"));
    char *log = play(st, 0, "LION e SWAP 3 4");
    ck_assert_msg(strstr(log, "Ann uses the Lion: a1 -> d1") != NULL, "%s", log);
    ck_assert_msg(strstr(log, "Ann pushes Bob from c5 to d5") != NULL, "%s", log);
    ck_assert_int_eq(get_int(st, "pawns", 0), sq("d1"));
    ck_assert_int_eq(get_int(st, "pawns", 1), sq("d5"));
    free(log);
    ops->free(st);

    /* Two opponents can be pushed north (Bob c5, Cleo f7): the order names one. */
    st = position(WITH_MAMBA, 3, rows, "a1 c5 f7", NULL);
    refused(st, 0, "LION n", "the Lion may push Bob (c5), Cleo (f7): say which");
    ck_assert(!legal_has(st, 0, "LION n"));
    ck_assert(legal_has(st, 0, "LION n PUSH Bob"));
    ck_assert(legal_has(st, 0, "LION n PUSH Cleo"));
    char *canon = canon_of(st, 0, "lion north push cleo");
    ck_assert_str_eq(canon, "LION n PUSH Cleo");
    free(canon);
    canon = canon_of(st, 0, "LION a4 PUSH 3"); /* the landing square, the seat number */
    ck_assert_str_eq(canon, "LION n PUSH Cleo");
    free(canon);
    canon = canon_of(st, 0, "LION n PUSH f7"); /* the square she stands on */
    ck_assert_str_eq(canon, "LION n PUSH Cleo");
    free(canon);
    refused(st, 0, "LION n PUSH Zed", "\"zed\" is not a player of this game");
    refused(st, 0, "LION n PUSH Ann", "you push an opponent");
    log = play(st, 0, "LION n PUSH Cleo SWAP NONE");
    ck_assert_msg(strstr(log, "Ann pushes Cleo from f7 to f8") != NULL, "%s", log);
    ck_assert_int_eq(get_int(st, "pawns", 1), sq("c5"));
    free(log);
    ops->free(st);

    /* Cleo on the top edge cannot go north: Bob is the only one, no PUSH needed. */
    st = position(WITH_MAMBA, 3, rows, "a1 c5 f8", NULL);
    ck_assert(legal_has(st, 0, "LION n"));
    ck_assert(!legal_has(st, 0, "LION n PUSH Cleo"));
    refused(st, 0, "LION n PUSH Cleo", "off the board");
    canon = canon_of(st, 0, "LION n PUSH Bob");
    ck_assert_str_eq(canon, "LION n");
    free(canon);
    ops->free(st);

    /* Not onto a pawn: Bob c5 would land on Cleo d5, so only Cleo goes east. */
    st = position(WITH_MAMBA, 3, rows, "a1 c5 d5", NULL);
    canon = canon_of(st, 0, "LION e");
    ck_assert_str_eq(canon, "LION e");
    free(canon);
    log = play(st, 0, "LION e SWAP NONE");
    ck_assert_msg(strstr(log, "Ann pushes Cleo from d5 to e5") != NULL, "%s", log);
    free(log);
    ops->free(st);

    /* The square the Lion left is free by then: Bob on a1's west... a Lion
     * on b1 goes east to e1 and Bob on a1 is pushed onto b1. */
    static const char *const rows3[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                          EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "... LiA ... ... ... ... ... ..." };
    st = position(WITH_MAMBA, 2, rows3, "b1 a1", NULL);
    log = play(st, 0, "LION e SWAP NONE");
    ck_assert_msg(strstr(log, "Ann pushes Bob from a1 to b1") != NULL, "%s", log);
    free(log);
    ops->free(st);

    /* Nobody can be pushed east (Bob on the east edge): no Lion that way. */
    st = position(WITH_MAMBA, 2, rows, "a1 h5", NULL);
    refused(st, 0, "LION e", "push an opponent");
    ck_assert(!legal_has(st, 0, "LION e"));
    ck_assert(legal_has(st, 0, "LION n"));
    ops->free(st);

    /* An opponent on an Elephant cannot be moved; the line must be free. */
    static const char *const rows2[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "... ... ... ... ElF ... ... ...",
                                          EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "LiA ... ... ... ... ... ... ..." };
    st = position(WITH_MAMBA, 2, rows2, "a1 e5", NULL);
    refused(st, 0, "LION e", "not on an Elephant");
    ck_assert(!legal_has(st, 0, "LION n"));
    ops->free(st);
    st = position(WITH_MAMBA, 3, rows2, "a1 e5 b1", NULL);
    refused(st, 0, "LION e", "exactly 3 free spaces");
    refused(st, 0, "LION n PUSH Bob", "a pawn on an Elephant cannot be moved");
    ops->free(st);
}
END_TEST

/* A position with the stall rule set to `rounds` and `turns` turns already
 * played without a tile. */
static void *stalled(void *st, int rounds, int turns)
{
    cJSON *j = ops->to_json(st);
    cJSON_ReplaceItemInObject(j, "stall_rounds", cJSON_CreateNumber(rounds));
    cJSON_ReplaceItemInObject(j, "stall_turns", cJSON_CreateNumber(turns));
    char *text = jx_print(j);
    ops->free(st);
    st = t_state(ops, text);
    free(text);
    cJSON_Delete(j);
    return st;
}

static char *board_of(void *st, int viewer)
{
    struct strbuf sb = STRBUF_INIT;
    ops->view_ascii(st, viewer, &table, &sb);
    return strbuf_detach(&sb);
}

START_TEST(a_worked_out_jungle_ends_after_ten_rounds_without_a_tile)
{
    /* Two pawns walk a bare jungle; the only tiles (two advancements) sit
     * in a far corner nobody goes to. */
    static const char *const rows[8] = { "GiA ZeA ... ... ... ... ... ...", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    void *st = position(WITH_MAMBA, 2, rows, "d4 f4", NULL);
    struct game_result r;
    char *text;
    ck_assert_int_eq(get_int(st, "stall_rounds", -1), 10);
    /* Four full rounds (8 turns) with no tile: no warning yet. */
    for (int t = 0; t < 8; t++)
        free(play(st, t % 2, t % 4 < 2 ? (t % 2 ? "MOVE f5" : "MOVE d5") : (t % 2 ? "MOVE f4" : "MOVE d4")));
    ck_assert_int_eq(get_int(st, "stall_turns", -1), 8);
    text = board_of(st, 0);
    ck_assert_msg(strstr(text, "No tile collected in 4 full rounds: with none in the next 6,") != NULL, "%s", text);
    ck_assert(strstr(text, "the game ends and is scored (house rule stall_rounds).") != NULL);
    free(text);
    /* Eleven more turns: one turn short of ten full rounds. */
    for (int t = 8; t < 19; t++)
        free(play(st, t % 2, t % 4 < 2 ? (t % 2 ? "MOVE f5" : "MOVE d5") : (t % 2 ? "MOVE f4" : "MOVE d4")));
    ops->result(st, &r);
    ck_assert(!r.finished);
    text = board_of(st, 1);
    ck_assert_msg(strstr(text, "No tile collected in 9 full rounds: with none in the next 1,") != NULL, "%s", text);
    free(text);
    /* Bob's 10th turn without a tile ends the game, scored. */
    char *log = play(st, 1, "MOVE f4");
    ck_assert_msg(strstr(log, "No tile has been collected in 10 full rounds: the jungle is worked out") != NULL,
                  "%s", log);
    ck_assert(strstr(log, "The game is over. Favor:") != NULL);
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert(r.has_scores);
    ck_assert_uint_eq(ops->waiting_for(st), 0u);
    text = board_of(st, -1);
    ck_assert_msg(strstr(text, "The jungle was worked out: 10 full rounds passed with no tile.") != NULL, "%s", text);
    free(text);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(a_collected_tile_restarts_the_stall_count_and_zero_turns_the_rule_off)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "... ... ... GiF ... ... ... ...",
                                         EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    void *st = stalled(position(WITH_MAMBA, 2, rows, "d5 f4", NULL), 10, 17);
    struct game_result r;
    free(play(st, 0, "GIRAFFE d6")); /* collects the Giraffe food tile of d5 */
    ck_assert_int_eq(get_int(st, "stall_turns", -1), 0);
    free(play(st, 1, "MOVE f5"));
    ck_assert_int_eq(get_int(st, "stall_turns", -1), 1);
    ops->free(st);

    /* With stall_rounds 0 the game goes on however long nothing happens. */
    st = stalled(position(WITH_MAMBA, 2, rows, "d5 f4", NULL), 0, 0);
    for (int t = 0; t < 60; t++)
        free(play(st, t % 2, t % 4 < 2 ? (t % 2 ? "MOVE f5" : "MOVE c6") : (t % 2 ? "MOVE f4" : "MOVE d5")));
    ops->result(st, &r);
    ck_assert(!r.finished);
    char *text = board_of(st, 0);
    ck_assert(strstr(text, "stall_rounds") == NULL);
    free(text);
    ops->free(st);

    /* A player who cannot move forfeits: that turn counts too. */
    static const char *const bare[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    st = stalled(position(WITH_MAMBA, 4, bare, "c3 a1 a2 b1", NULL), 1, 2);
    char *log = play(st, 0, "MOVE b2"); /* Ann's turn (3), Bob forfeits (4 of 4): over */
    ck_assert_msg(strstr(log, "Bob cannot move at all and forfeits the turn.") != NULL, "%s", log);
    ck_assert_msg(strstr(log, "No tile has been collected in 1 full round:") != NULL, "%s", log);
    ops->result(st, &r);
    ck_assert(r.finished);
    free(log);
    ops->free(st);
}
END_TEST

/* Rounds left of the stall rule, as every view shows them. */
static int rounds_left(void *st)
{
    cJSON *v = ops->view_json(st, -1, &table);
    const cJSON *left = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(v, "stall"), "rounds_left");
    int n = cJSON_IsNumber(left) ? left->valueint : -99;
    cJSON_Delete(v);
    return n;
}

START_TEST(a_resignation_never_shortens_the_stall_rule)
{
    /* Three pawns walk a bare jungle with two rounds of the stall rule. */
    static const char *const rows[8] = { "GiA ZeA ... ... ... ... ... ...", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    void *st = stalled(position(WITH_MAMBA, 3, rows, "d4 f4 b4", NULL), 2, 0);
    struct game_log log;
    struct game_result r;
    free(play(st, 0, "MOVE d5"));
    free(play(st, 1, "MOVE f5"));
    free(play(st, 2, "MOVE b5"));
    ck_assert_int_eq(get_int(st, "stall_turns", -1), 3);
    /* Cleo leaves after one full round: her turn leaves the count with her. */
    game_log_init(&log);
    ops->resign(st, 2, &table, &log);
    game_log_release(&log);
    ck_assert_int_eq(get_int(st, "stall_turns", -1), 2);
    ck_assert_int_eq(rounds_left(st), 1);
    /* Ann's second turn: Bob has had one, so the game goes on. */
    free(play(st, 0, "MOVE d4"));
    ops->result(st, &r);
    ck_assert(!r.finished);
    ck_assert_int_eq(rounds_left(st), 1);
    /* Bob's second: every seat still playing has had two. */
    char *log2 = play(st, 1, "MOVE f4");
    ck_assert_msg(strstr(log2, "No tile has been collected in 2 full rounds") != NULL, "%s", log2);
    ops->result(st, &r);
    ck_assert(r.finished);
    free(log2);
    ops->free(st);

    /* Bob leaves on his own turn in the middle of the second round: the
     * count keeps Ann's and Cleo's turns only. */
    st = stalled(position(WITH_MAMBA, 3, rows, "d4 f4 b4", NULL), 2, 0);
    free(play(st, 0, "MOVE d5"));
    free(play(st, 1, "MOVE f5"));
    free(play(st, 2, "MOVE b5"));
    free(play(st, 0, "MOVE d4"));
    game_log_init(&log);
    ops->resign(st, 1, &table, &log); /* Bob, to move, had one turn */
    game_log_release(&log);
    ck_assert_int_eq(get_int(st, "stall_turns", -1), 3); /* Ann 2, Cleo 1 */
    ck_assert_int_eq(rounds_left(st), 1);
    ops->result(st, &r);
    ck_assert(!r.finished);
    ops->free(st);
}
END_TEST

START_TEST(crocodile_may_cross_and_land_on_opponents)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         EMPTY_ROW, "... ... ... ... ... ... ... ...",
                                         "... ... ... ... ... ... ... ...", "CrF ... ... ... ... ... ... ..." };
    void *st = position(WITH_MAMBA, 2, rows, "a1 b1", NULL);
    ck_assert(legal_has(st, 0, "CROCODILE c1"));         /* through Bob */
    ck_assert(legal_has(st, 0, "CROCODILE b1 PUSH c2")); /* onto Bob */
    refused(st, 0, "CROCODILE b1", "say where it goes");
    refused(st, 0, "CROCODILE b1 PUSH d1", "not a free square next to b1");
    char *log = play(st, 0, "CROCODILE b1 PUSH a1");
    /* Bob may be moved onto the square the Crocodile left. */
    ck_assert(strstr(log, "Ann moves Bob from b1 to a1") != NULL);
    ck_assert_int_eq(get_int(st, "pawns", 0), sq("b1"));
    free(log);
    ops->free(st);
    /* On an Elephant, Bob cannot be landed on. */
    static const char *const rows2[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                          EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "CrF ElA ... ... ... ... ... ..." };
    st = position(WITH_MAMBA, 2, rows2, "a1 b1", NULL);
    refused(st, 0, "CROCODILE b1 PUSH c2", "stands on an Elephant");
    ck_assert(legal_has(st, 0, "CROCODILE c1")); /* passing him is fine */
    ops->free(st);
    /* Boxed in by the edge and other pawns: no free square, no landing. */
    static const char *const rows3[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                          EMPTY_ROW, EMPTY_ROW, "... CrF ... ... ... ... ... ...", EMPTY_ROW };
    st = position(WITH_MAMBA, 4, rows3, "b2 a1 a2 b1", NULL);
    /* Cleo on a1 has a2 (Dan) and b1 (Eve... here Dan and seat 3) around her, and b2 is
     * where the Crocodile started: free once it has left. */
    ck_assert(legal_has(st, 0, "CROCODILE a1 PUSH b2"));
    ops->free(st);
}
END_TEST

START_TEST(black_mamba_drives_adjacent_opponents_away)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         EMPTY_ROW, "... ... ... ... ... ... ... ...",
                                         "... ... ... ... ... ... ... ...", "BmA ... ElF ... ... ... ... ..." };
    /* Ann a1 -> b2: Bob c3 goes to d4; Cleo on c1 (an Elephant) stays; Dan
     * on a3 is blocked by Eve on a4... a3 is pushed towards a4 (taken): stays. */
    void *st = position(WITH_MAMBA, 5, rows, "a1 c3 c1 a3 a4", NULL);
    char *log = play(st, 0, "MAMBA b2");
    ck_assert(strstr(log, "Ann drives Bob from c3 to d4") != NULL);
    ck_assert(strstr(log, "Cleo") == NULL);
    ck_assert_int_eq(get_int(st, "pawns", 2), sq("c1"));
    ck_assert_int_eq(get_int(st, "pawns", 3), sq("a3"));
    ck_assert_int_eq(get_int(st, "pawns", 1), sq("d4"));
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(rhinoceros_charges_to_the_edge_pushing)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "RhA ... ... ... ... ... ... ..." };
    /* Bob on c1 and Cleo on e1 are pushed to g1 and h1; Ann stops on f1. */
    void *st = position(WITH_ALL, 3, rows, "a1 c1 e1", NULL);
    char *log = play(st, 0, "RHINO e SWAP NONE");
    ck_assert(strstr(log, "Ann uses the Rhinoceros: a1 -> f1") != NULL);
    ck_assert_int_eq(get_int(st, "pawns", 0), sq("f1"));
    ck_assert_int_eq(get_int(st, "pawns", 1), sq("g1"));
    ck_assert_int_eq(get_int(st, "pawns", 2), sq("h1"));
    free(log);
    ops->free(st);
    /* Unobstructed, to the edge. */
    st = position(WITH_ALL, 2, rows, "a1 h8", NULL);
    free(play(st, 0, "RHINO n SWAP NONE"));
    ck_assert_int_eq(get_int(st, "pawns", 0), sq("a8"));
    ops->free(st);
    /* An opponent at the edge right in front cannot be pushed off. */
    static const char *const rows2[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                          EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "... ... ... ... ... ... RhA ..." };
    st = position(WITH_ALL, 2, rows2, "g1 h1", NULL);
    refused(st, 0, "RHINO e", "cannot move a single square");
    ops->free(st);
    /* A square is where the charge ends, else refused with the right one. */
    st = position(WITH_ALL, 2, rows, "a1 h8", NULL);
    refused(st, 0, "RHINO a3", "charges to the edge: n ends on a8, not a3; write RHINO n or RHINO a8");
    free(play(st, 0, "RHINO a8 SWAP NONE"));
    ck_assert_int_eq(get_int(st, "pawns", 0), sq("a8"));
    ops->free(st);
}
END_TEST

/* Any order that names a square ends the move there, or is refused: in
 * random positions, for every ability and every square, an order the game
 * takes leaves the pawn on the square it named. */
START_TEST(a_square_named_is_where_the_pawn_ends)
{
    static const char *const words_[] = { "MOVE",   "GIRAFFE", "CHIMPANZEE", "ZEBRA", "FLAMINGO", "TARANTULA",
                                          "LION",   "CROCODILE", "MAMBA",    "RHINO", "ELEPHANT", "FOOD" };
    struct rng r;
    int checked = 0;
    rng_seed(&r, 4242, 1);
    for (int game = 0; game < 6; game++) {
        struct strbuf err = STRBUF_INIT;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "animals", game % 2 ? WITH_ALL : WITH_MAMBA);
        cJSON_AddStringToObject(o, "data", "bumuntu.json");
        cJSON_AddStringToObject(o, "stall_rounds", "10");
        void *st = ops->setup(o, 3, (uint64_t)game + 1, &err);
        ck_assert_msg(st != NULL, "%s", err.buf);
        cJSON_Delete(o);
        for (int step = 0; step < 400 && ops->waiting_for(st); step++) {
            int seat = __builtin_ctz(ops->waiting_for(st));
            struct strlist legal = STRLIST_INIT;
            if (step % 3 == 0 && !str_eq(phase_of(st), "enter")) {
                for (size_t w = 0; w < ARRAY_SIZE(words_); w++)
                    for (int s = 0; s < 64; s++) {
                        struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
                        char order[32], name[4];
                        square_name(s % 8, s / 8, name);
                        snprintf(order, sizeof(order), "%s %s", words_[w], name);
                        if (ops->check(st, seat, &table, order, &canon, &why) == 0) {
                            void *copy = ops->clone(st);
                            const char *orders[5] = { NULL };
                            struct game_log log;
                            orders[seat] = canon.buf;
                            game_log_init(&log);
                            ck_assert_int_eq(ops->advance(copy, orders, &table, &log), 0);
                            ck_assert_msg(get_int(copy, "pawns", seat) == s, "\"%s\" taken as \"%s\": the pawn is on %d",
                                          order, canon.buf, get_int(copy, "pawns", seat));
                            game_log_release(&log);
                            ops->free(copy);
                            checked++;
                        }
                        strbuf_release(&canon);
                        strbuf_release(&why);
                    }
            }
            ops->legal(st, seat, &table, &legal);
            ck_assert_uint_gt(legal.n, 0);
            free(play(st, seat, t_pick(&legal, &r)));
            strlist_clear(&legal);
        }
        ops->free(st);
        strbuf_release(&err);
    }
    ck_assert_int_gt(checked, 500);
}
END_TEST

START_TEST(rhinoceros_stops_at_an_opponent_on_an_elephant)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "RhA ... ... ... ElF ... ... ..." };
    /* Elephant is not in WITH_ALL; give the square an Elephant via the mamba set? Use
     * WITH_ALL less Flamingo: Rhino and Elephant together. */
    const char *animals = "Giraffe,Zebra,Chimpanzee,Tarantula,Lion,Crocodile,Elephant,Rhinoceros";
    void *st = position(animals, 3, rows, "a1 c1 e1", NULL);
    /* Cleo on the Elephant (e1) holds: Bob is pushed up to d1, Ann stops on c1. */
    free(play(st, 0, "RHINO e SWAP NONE"));
    ck_assert_int_eq(get_int(st, "pawns", 0), sq("c1"));
    ck_assert_int_eq(get_int(st, "pawns", 1), sq("d1"));
    ck_assert_int_eq(get_int(st, "pawns", 2), sq("e1"));
    ops->free(st);
}
END_TEST

START_TEST(elephant_moves_exactly_two)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         "... ... ElN ... ... ... ... ...", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    void *st = position(WITH_MAMBA, 2, rows, "c4 c5", NULL);
    ck_assert(legal_has(st, 0, "ELEPHANT e6"));
    ck_assert(legal_has(st, 0, "ELEPHANT a4"));
    ck_assert(!legal_has(st, 0, "ELEPHANT c6")); /* Bob is in the way */
    refused(st, 0, "ELEPHANT n", "exactly 2");
    refused(st, 0, "ELEPHANT c7", "exactly 2");
    free(play(st, 0, "elephant ne"));
    ck_assert_int_eq(get_int(st, "pawns", 0), sq("e6"));
    ops->free(st);
}
END_TEST

START_TEST(swaps_are_between_neighbouring_spots)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         "... ... ZeA ... ... ... ... ...", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    void *st = position(WITH_MAMBA, 2, rows, "c4 h8", NULL);
    int top = get_int(st, "favor", 0), eighth = get_int(st, "favor", 7);
    free(play(st, 0, "ZEBRA c6"));
    refused(st, 0, "SWAP 1 8", "not neighbours");
    refused(st, 0, "SWAP 2 4", "not neighbours");
    refused(st, 0, "SWAP 0 1", "1 (top) to 8");
    refused(st, 0, "MOVE c7", "SWAP two neighbouring");
    free(play(st, 0, "SWAP 2 1"));
    ck_assert_int_eq(get_int(st, "favor", 1), top);
    ck_assert_int_eq(get_int(st, "favor", 7), eighth);
    ck_assert_int_eq(get_int(st, "adv_taken", -1), 1);
    ops->free(st);
}
END_TEST

START_TEST(the_sixteenth_advancement_ends_the_game_after_its_swap)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         "... ... ZeA ... ... ... ... ...", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    void *st = position(WITH_MAMBA, 2, rows, "c4 h8", NULL);
    cJSON *j = ops->to_json(st);
    cJSON_ReplaceItemInObject(j, "adv_taken", cJSON_CreateNumber(15));
    char *text = jx_print(j);
    ops->free(st);
    st = t_state(ops, text);
    free(text);
    cJSON_Delete(j);
    struct game_result r;
    free(play(st, 0, "ZEBRA c6"));
    ops->result(st, &r);
    ck_assert(!r.finished); /* the swap comes first */
    char *log = play(st, 0, "SWAP 4 5");
    ck_assert(strstr(log, "The game is over. Favor:") != NULL);
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(ops->waiting_for(st), 0u);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(a_player_without_a_move_forfeits)
{
    /* Bob on a1 boxed in by Ann b2, Cleo a2 and Dan b1, no tile under him. */
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    void *st = position(WITH_MAMBA, 4, rows, "c3 a1 a2 b1", NULL);
    char *log = play(st, 0, "MOVE b2");
    ck_assert_msg(strstr(log, "Bob cannot move at all and forfeits the turn.") != NULL, "%s", log);
    ck_assert_int_eq(get_int(st, "to_move", -1), 2);
    free(log);
    ops->free(st);
}
END_TEST

/* ---- scoring ----------------------------------------------------------------------------------------- */

/* A finished-on-the-next-order position with given shields (per seat:
 * "slot:kind=count ..."), favor order 0..7 top to bottom. */
static void *scoring_position(int nseats, const char *const *shields)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    void *st = position(WITH_MAMBA, nseats, rows, "a1 h8 a8 h1 d4", NULL);
    cJSON *j = ops->to_json(st), *sh = cJSON_CreateArray();
    ops->free(st);
    for (int p = 0; p < nseats; p++) {
        int flat[32] = { 0 };
        struct words w;
        words_split(&w, shields[p], NULL);
        for (int i = 0; i < w.n; i++) {
            int slot, kind, n;
            ck_assert(sscanf(w.w[i], "%d:%d=%d", &slot, &kind, &n) == 3);
            flat[slot * 4 + kind] = n;
        }
        words_release(&w);
        cJSON_AddItemToArray(sh, jx_int_array_new(flat, 32));
    }
    cJSON_ReplaceItemInObject(j, "shields", sh);
    cJSON_ReplaceItemInObject(j, "favor", jx_int_array_new((int[]){ 0, 1, 2, 3, 4, 5, 6, 7 }, 8));
    cJSON_ReplaceItemInObject(j, "adv_taken", cJSON_CreateNumber(16));
    cJSON_ReplaceItemInObject(j, "phase", cJSON_CreateString("swap"));
    char *text = jx_print(j);
    st = t_state(ops, text);
    free(text);
    cJSON_Delete(j);
    return st;
}

START_TEST(scoring_per_tile_majorities_nkisi_and_yowa)
{
    /*
     * Slots in favor order, top first: 0 (2 per tile), 1 (1 per tile),
     * 2 (9/4), 3 (8/4), 4 (7/3), 5 (6/3), 6 (5/2), 7 (4/2); kinds 0 A, 1 F,
     * 2 Nkisi, 3 Yowa. Worked by hand:
     *   slot 0: Ann 3 tiles x 2 = 6            slot 1: Ann 1 x 1 = 1
     *   slot 2: Ann 3 most = 9, Bob 2 second = 4
     *   slot 3: Ann 2 and Bob 2 tie for first: silver 4 each
     *   slot 4: Bob 3 most = 7; Ann 1 and Cleo 1 tie for second: 1 each
     *   slot 5: Cleo alone = 6                 slot 6: Ann 1, Cleo 1 tie: 2 each
     *   slot 7: Ann 1, Bob 1 tie: 2 each       Dan has no tile of any: nothing
     *   Nkisi: Ann 2 = 3, Bob 1 = 1
     *   Yowa: Ann 2 most = 6; Bob 1 and Cleo 1 tie for second: 1 each
     *   Ann 6+1+9+4+1+2+2+3+6 = 34, Bob 4+4+7+2+1+1 = 19, Cleo 1+6+2+1 = 10.
     */
    static const char *const shields[] = {
        "0:1=3 1:0=1 2:1=2 2:2=1 3:1=1 3:3=1 4:1=1 6:2=1 7:3=1",
        "2:1=2 3:1=1 3:2=1 4:1=3 7:3=1",
        "4:1=1 5:1=1 6:3=1",
        "",
    };
    void *st = scoring_position(4, shields);
    char *log = play(st, 0, "SWAP NONE");
    struct game_result r;
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_msg(r.scores[0] == 34, "Ann %d\n%s", r.scores[0], log);
    ck_assert_msg(r.scores[1] == 19, "Bob %d\n%s", r.scores[1], log);
    ck_assert_msg(r.scores[2] == 10, "Cleo %d\n%s", r.scores[2], log);
    ck_assert_msg(r.scores[3] == 0, "Dan %d\n%s", r.scores[3], log);
    ck_assert_uint_eq(r.winners, 1u);
    /* The final report, line by line. */
    ck_assert(strstr(log, "  Ann: 34 favor\n") != NULL);
    ck_assert(strstr(log, "Nkisi        2 = 3") != NULL);
    ck_assert(strstr(log, "Yowa         2, most (gold) = 6") != NULL);
    /* Each place said as it is: a tie for first, a tie for second, second. */
    ck_assert_msg(strstr(log, "2 tiles, tied for most (silver) = 4") != NULL, "%s", log);
    ck_assert_msg(strstr(log, "1 tile, tied for second = 1") != NULL, "%s", log);
    ck_assert_msg(strstr(log, "2 tiles, second (silver) = 4") != NULL, "%s", log);
    ck_assert_msg(strstr(log, "3 tiles, most (gold) = 9") != NULL, "%s", log);
    ck_assert(strstr(log, "second or shared") == NULL);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(equal_best_scores_share_the_win)
{
    static const char *const shields[] = { "0:1=2", "0:1=2" };
    void *st = scoring_position(2, shields);
    free(play(st, 0, "SWAP NONE"));
    struct game_result r;
    ops->result(st, &r);
    ck_assert_int_eq(r.scores[0], r.scores[1]);
    ck_assert_uint_eq(r.winners, 3u);
    ops->free(st);
}
END_TEST

START_TEST(others_see_only_counts_behind_the_shield)
{
    static const char *const shields[] = { "2:2=1 5:3=1", "0:1=2" };
    void *st = scoring_position(2, shields);
    struct strbuf ann = STRBUF_INIT, bob = STRBUF_INIT;
    ops->view_ascii(st, 0, &table, &ann);
    ops->view_ascii(st, 1, &table, &bob);
    ck_assert(strstr(ann.buf, "Ann's shield:") != NULL);
    ck_assert(strstr(bob.buf, "Ann's shield:") == NULL);
    ck_assert(strstr(bob.buf, "1 Ann") != NULL && strstr(bob.buf, " 2 tiles") != NULL);
    cJSON *v = ops->view_json(st, 1, &table);
    char *text = jx_print(v);
    ck_assert(strstr(text, "Nkisi") == NULL);
    free(text);
    cJSON_Delete(v);
    strbuf_release(&ann);
    strbuf_release(&bob);
    ops->free(st);
}
END_TEST

START_TEST(resigning_leaves_the_jungle)
{
    static const char *const rows[8] = { EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                         EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW };
    void *st = position(WITH_MAMBA, 3, rows, "a1 c3 e5", NULL);
    struct game_log log;
    struct game_result r;
    game_log_init(&log);
    ops->resign(st, 0, &table, &log);
    ck_assert_int_eq(get_int(st, "to_move", -1), 1);
    ck_assert_int_eq(get_int(st, "pawns", 0), -1);
    ops->resign(st, 2, &table, &log);
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(r.winners, 2u);
    game_log_release(&log);
    ops->free(st);
}
END_TEST

Suite *bumuntu_suite(void)
{
    Suite *s = suite_create("bumuntu");
    TCase *tc = tcase_create("bumuntu");
    tcase_add_test(tc, setup_lays_64_tiles_and_shuffles_the_favor_board);
    tcase_add_test(tc, the_animals_option_is_checked);
    tcase_add_test(tc, players_enter_the_outer_ring_in_seat_order);
    tcase_add_test(tc, a_plain_step_and_an_empty_square);
    tcase_add_test(tc, food_chips_buy_single_steps_first);
    tcase_add_test(tc, giraffe_moves_up_to_three_not_through_opponents);
    tcase_add_test(tc, chimpanzee_diagonal_and_zebra_straight);
    tcase_add_test(tc, flamingo_flies_to_a_free_flamingo_or_itself);
    tcase_add_test(tc, tarantula_moves_then_may_move_a_tile);
    tcase_add_test(tc, lion_moves_three_then_pushes_any_opponent_the_same_way);
    tcase_add_test(tc, a_worked_out_jungle_ends_after_ten_rounds_without_a_tile);
    tcase_add_test(tc, a_collected_tile_restarts_the_stall_count_and_zero_turns_the_rule_off);
    tcase_add_test(tc, a_resignation_never_shortens_the_stall_rule);
    tcase_add_test(tc, crocodile_may_cross_and_land_on_opponents);
    tcase_add_test(tc, black_mamba_drives_adjacent_opponents_away);
    tcase_add_test(tc, rhinoceros_charges_to_the_edge_pushing);
    tcase_add_test(tc, a_square_named_is_where_the_pawn_ends);
    tcase_add_test(tc, rhinoceros_stops_at_an_opponent_on_an_elephant);
    tcase_add_test(tc, elephant_moves_exactly_two);
    tcase_add_test(tc, swaps_are_between_neighbouring_spots);
    tcase_add_test(tc, the_sixteenth_advancement_ends_the_game_after_its_swap);
    tcase_add_test(tc, a_player_without_a_move_forfeits);
    tcase_add_test(tc, scoring_per_tile_majorities_nkisi_and_yowa);
    tcase_add_test(tc, equal_best_scores_share_the_win);
    tcase_add_test(tc, others_see_only_counts_behind_the_shield);
    tcase_add_test(tc, resigning_leaves_the_jungle);
    suite_add_tcase(s, tc);
    return s;
}
