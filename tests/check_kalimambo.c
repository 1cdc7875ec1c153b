/* check_kalimambo.c: Kalimambo scenarios on hand-built positions, secrecy of cards, setup, and a 12-round game checked by hand. */
#include "test_support.h"

#include "lib/jsonx.h"
#include "lib/util.h"
#include "core/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const struct game_ops kalimambo_ops;
static const struct game_ops *ops = &kalimambo_ops;
static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan" };
static const struct game_table table = { 4, names, NULL };

/* A round-1 position on the 32-space track: explorer spaces, Kali, Mambo,
 * the dung heaps, and Kali's top card (her other cards follow in order). */
static void *position(int n, const int *explorers, int kali, int mambo, const char *dung, int kali_top)
{
    struct strbuf j = STRBUF_INIT;
    strbuf_addf(&j, "{\"nseats\":%d,\"track\":32,\"penalty\":3,\"cards\":[0,1,2,3,4,5,6,7,8,9,10,11],\"round\":0,"
                    "\"mambo\":%d,\"kali\":%d,\"explorers\":[", n, mambo, kali);
    for (int i = 0; i < n; i++)
        strbuf_addf(&j, "%s%d", i ? "," : "", explorers[i]);
    strbuf_addf(&j, "],\"dung\":[%s],\"hands\":[", dung);
    for (int i = 0; i < n; i++)
        strbuf_addf(&j, "%s[0,1,2,3,4,5,6,7,8,9,10,11]", i ? "," : "");
    strbuf_addf(&j, "],\"kali_deck\":[%d", kali_top);
    for (int c = 0; c < 12; c++)
        if (c != kali_top)
            strbuf_addf(&j, ",%d", c);
    strbuf_addstr(&j, "],\"scores\":[");
    for (int i = 0; i < n; i++)
        strbuf_addf(&j, "%s0", i ? "," : "");
    strbuf_addstr(&j, "],\"resigned\":0,\"last\":[");
    for (int i = 0; i < n; i++)
        strbuf_addf(&j, "%s-1", i ? "," : "");
    strbuf_addstr(&j, "],\"last_kali\":-1,\"colours\":[");
    {
        static const char *const c[] = { "red", "blue", "green", "yellow" };
        for (int i = 0; i < n; i++)
            strbuf_addf(&j, "%s\"%s\"", i ? "," : "", c[i]);
    }
    strbuf_addstr(&j, "],\"rng\":{\"state\":\"1\",\"inc\":\"1\"}}");
    void *st = t_state(ops, j.buf);
    strbuf_release(&j);
    return st;
}

/* Plays one round with the given cards; returns the public log. */
static char *round_with(void *st, int n, const int *cards)
{
    char buf[GAME_MAX_SEATS][16];
    const char *orders[GAME_MAX_SEATS] = { NULL };
    struct game_log log;
    struct strbuf why = STRBUF_INIT;
    for (int s = 0; s < n; s++) {
        snprintf(buf[s], sizeof(buf[s]), "PLAY %d", cards[s]);
        ck_assert_msg(t_check(ops, st, s, buf[s], &why) == 0, "%s refused: %s", buf[s], why.buf);
        orders[s] = buf[s];
    }
    game_log_init(&log);
    ck_assert_int_eq(ops->advance(st, orders, &table, &log), 0);
    char *text = xstrdup(log.pub.buf);
    game_log_release(&log);
    strbuf_release(&why);
    return text;
}

static int get(void *st, const char *key, int index)
{
    cJSON *j = ops->to_json(st), *v = cJSON_GetObjectItem(j, key);
    int x = index < 0 ? v->valueint : cJSON_GetArrayItem(v, index)->valueint;
    cJSON_Delete(j);
    return x;
}

#define LOG_HAS(log, text) ck_assert_msg(strstr(log, text) != NULL, "log lacks \"%s\":\n%s", text, log)

START_TEST(highest_card_first_each_to_the_front)
{
    static const int ex[] = { 1, 2, 3 };
    void *st = position(3, ex, 4, 0, "20", 0);
    char *log = round_with(st, 3, (int[]){ 9, 5, 2 });
    /* Ann (9) first: to 5; then Bob (5) to 6; then Cleo (2) to 7. */
    ck_assert_int_eq(get(st, "explorers", 0), 5);
    ck_assert_int_eq(get(st, "explorers", 1), 6);
    ck_assert_int_eq(get(st, "explorers", 2), 7);
    ck_assert(strstr(log, "Ann moves 1 -> 5") < strstr(log, "Bob moves 2 -> 6"));
    ck_assert(strstr(log, "Bob moves 2 -> 6") < strstr(log, "Cleo moves 3 -> 7"));
    LOG_HAS(log, "Played 0: Kali (0 does not move)");
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(a_zero_card_stays)
{
    static const int ex[] = { 1, 2, 3 };
    void *st = position(3, ex, 4, 0, "20", 6);
    char *log = round_with(st, 3, (int[]){ 0, 5, 2 });
    ck_assert_int_eq(get(st, "explorers", 0), 1);
    LOG_HAS(log, "Played 0: Ann");
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(the_frontmost_figure_stays)
{
    static const int ex[] = { 1, 2, 5 };
    void *st = position(3, ex, 4, 0, "20", 1);
    char *log = round_with(st, 3, (int[]){ 2, 3, 11 });
    /* Cleo is at the front with the highest card: she stays. */
    ck_assert_int_eq(get(st, "explorers", 2), 5);
    LOG_HAS(log, "Cleo is at the front already and stays on 5");
    ck_assert_int_eq(get(st, "explorers", 1), 6);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(a_tie_moves_only_the_rearmost_explorer)
{
    static const int ex[] = { 3, 1, 2 };
    void *st = position(3, ex, 4, 0, "20", 0);
    char *log = round_with(st, 3, (int[]){ 7, 7, 7 });
    /* Bob is rearmost of the three sevens: he alone moves. */
    LOG_HAS(log, "7 was played 3 times: only the rearmost, Bob, moves; Ann and Cleo stay.");
    ck_assert_int_eq(get(st, "explorers", 1), 5);
    ck_assert_int_eq(get(st, "explorers", 0), 3);
    ck_assert_int_eq(get(st, "explorers", 2), 2);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(a_tie_with_kali_moves_the_rearmost_of_them)
{
    static const int ex[] = { 5, 2, 3 };
    /* Kali (on 1) and Ann (on 5) both show 8: Kali is farther back and moves. */
    void *st = position(3, ex, 1, 0, "20", 8);
    char *log = round_with(st, 3, (int[]){ 8, 1, 2 });
    LOG_HAS(log, "8 was played 2 times: only the rearmost, Kali, moves; Ann stays.");
    ck_assert_int_eq(get(st, "kali", -1), 6);
    ck_assert_int_eq(get(st, "explorers", 0), 5);
    free(log);
    ops->free(st);

    /* And the other way round: Ann is farther back than Kali. */
    static const int ex2[] = { 1, 2, 3 };
    st = position(3, ex2, 4, 0, "20", 8);
    log = round_with(st, 3, (int[]){ 8, 1, 2 });
    LOG_HAS(log, "only the rearmost, Ann, moves; Kali stays.");
    ck_assert_int_eq(get(st, "kali", -1), 4);
    ck_assert_int_eq(get(st, "explorers", 0), 5);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(landing_on_dung_costs_three)
{
    static const int ex[] = { 2, 3, 1 };
    void *st = position(3, ex, 4, 0, "5", 0);
    char *log = round_with(st, 3, (int[]){ 6, 2, 1 });
    /* Ann moves first, onto the heap on 5. */
    LOG_HAS(log, "Ann lands on the dung heap on 5.");
    LOG_HAS(log, "Ann takes 3 points (dung)");
    ck_assert_int_eq(get(st, "scores", 0), 3);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(kali_in_the_dung_charges_every_lowest_card)
{
    /* Kali on 1 plays 11 and lands on the heap on 5; Bob and Cleo share the
     * lowest card, 2. Then Mambo runs into Ann (1), and the tie of twos moves
     * Bob alone, so Mambo rams Bob and then Cleo (1 each). */
    static const int ex[] = { 2, 3, 4 };
    void *st = position(3, ex, 1, 0, "5", 11);
    char *log = round_with(st, 3, (int[]){ 9, 2, 2 });
    LOG_HAS(log, "Kali lands on the dung heap on 5.");
    LOG_HAS(log, "Bob played the lowest card (2) and takes 3 points for Kali (dung)");
    LOG_HAS(log, "Cleo played the lowest card (2) and takes 3 points for Kali (dung)");
    ck_assert_int_eq(get(st, "scores", 0), 1);
    ck_assert_int_eq(get(st, "scores", 1), 4);
    ck_assert_int_eq(get(st, "scores", 2), 4);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(mambo_rams_the_rearmost_explorer)
{
    /* Mambo on 0; Ann on 1, a gap, Bob on 4: Ann's move lets Mambo run 3 to Bob. */
    static const int ex[] = { 1, 4, 5 };
    void *st = position(3, ex, 6, 0, "20", 0);
    char *log = round_with(st, 3, (int[]){ 9, 0, 0 });
    LOG_HAS(log, "Ann moves 1 -> 7");
    LOG_HAS(log, "Mambo charges 0 -> 3 (3 spaces) and rams Bob.");
    LOG_HAS(log, "Bob takes 3 points (Mambo ran 3 spaces)");
    ck_assert_int_eq(get(st, "mambo", -1), 3);
    ck_assert_int_eq(get(st, "scores", 1), 3);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(mambo_ramming_kali_charges_the_lowest_card)
{
    static const int ex[] = { 1, 3, 4 };
    void *st = position(3, ex, 2, 0, "20", 0);
    char *log = round_with(st, 3, (int[]){ 9, 5, 4 });
    /* Ann leaves space 1: Mambo runs one space into Kali; Cleo played the lowest, 4. */
    LOG_HAS(log, "Mambo charges 0 -> 1 (1 space) and rams Kali.");
    LOG_HAS(log, "Cleo played the lowest card (4) and takes 1 point for Kali (Mambo ran 1 space)");
    ck_assert_int_eq(get(st, "scores", 2), 1);
    ck_assert_int_eq(get(st, "scores", 0), 0);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(the_loop_wraps_around)
{
    /* Mambo on 28, the group across 31 and 0. */
    static const int ex[] = { 29, 30, 0 };
    void *st = position(3, ex, 31, 28, "1", 0);
    char *log = round_with(st, 3, (int[]){ 11, 2, 1 });
    LOG_HAS(log, "Ann moves 29 -> 1, in front of Cleo.");
    LOG_HAS(log, "Ann lands on the dung heap on 1.");
    LOG_HAS(log, "Mambo charges 28 -> 29 (1 space) and rams Bob.");
    LOG_HAS(log, "Bob moves 30 -> 2");
    LOG_HAS(log, "Mambo charges 29 -> 30 (1 space) and rams Kali.");
    ck_assert_int_eq(get(st, "mambo", -1), 30);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(played_cards_are_gone)
{
    static const int ex[] = { 1, 2, 3 };
    void *st = position(3, ex, 4, 0, "20", 0);
    struct strbuf why = STRBUF_INIT;
    free(round_with(st, 3, (int[]){ 7, 5, 2 }));
    ck_assert_int_eq(t_check(ops, st, 0, "PLAY 7", &why), -1);
    ck_assert_msg(strstr(why.buf, "you have no 7 left: your cards are 0 1 2 3 4 5 6 8 9 10 11"), "%s", why.buf);
    strbuf_reset(&why);
    ck_assert_int_eq(t_check(ops, st, 0, "PLAY 12", &why), -1);
    strbuf_reset(&why);
    ck_assert_int_eq(t_check(ops, st, 0, "dance", &why), -1);
    ck_assert(strstr(why.buf, "e.g. PLAY 7") != NULL);
    ck_assert_int_eq(t_check(ops, st, 0, "card 8", &why), 0);
    ck_assert_int_eq(t_check(ops, st, 0, "8", &why), 0);
    strbuf_release(&why);
    ops->free(st);
}
END_TEST

START_TEST(the_default_setup_follows_the_clarifications)
{
    for (int n = 2; n <= 7; n++) {
        struct strbuf err = STRBUF_INIT;
        void *st = ops->setup(NULL, n, (uint64_t)n * 31, &err);
        int seen[8] = { 0 }, dung[6];
        ck_assert_msg(st != NULL, "%s", err.buf);
        ck_assert_int_eq(get(st, "mambo", -1), 0);
        ck_assert_int_eq(get(st, "kali", -1), n + 1);
        for (int s = 0; s < n; s++) {
            int p = get(st, "explorers", s);
            ck_assert(p >= 1 && p <= n);
            seen[p]++;
        }
        for (int p = 1; p <= n; p++)
            ck_assert_int_eq(seen[p], 1);
        for (int i = 0; i < 6; i++) {
            dung[i] = get(st, "dung", i);
            ck_assert(dung[i] >= n + 2 && dung[i] <= 31);
            if (i)
                ck_assert_int_gt(dung[i] - dung[i - 1], 1); /* never adjacent */
        }
        /* Spread evenly: the gaps differ by at most one. */
        int lo = 99, hi = 0;
        for (int i = 1; i < 6; i++) {
            int gap = dung[i] - dung[i - 1];
            lo = gap < lo ? gap : lo;
            hi = gap > hi ? gap : hi;
        }
        ck_assert_int_le(hi - lo, 1);
        ops->free(st);
        strbuf_release(&err);
    }
}
END_TEST

START_TEST(options_change_the_data_and_the_layout)
{
    struct strbuf err = STRBUF_INIT;
    char path[] = "/tmp/ngoma-kali-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("{\"track_length\":20,\"dung_heaps\":3,\"dung_penalty\":5,\"mambo_start\":2,"
          "\"cards\":[0,1,2,3,4,5],\"colours\":[\"red\",\"blue\",\"green\",\"yellow\",\"purple\",\"orange\",\"white\"]}",
          f);
    fclose(f);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "data", path);
    cJSON_AddStringToObject(o, "setup", "");
    void *st = ops->setup(o, 3, 1, &err);
    ck_assert_msg(st != NULL, "%s", err.buf);
    ck_assert_int_eq(get(st, "track", -1), 20);
    ck_assert_int_eq(get(st, "penalty", -1), 5);
    ck_assert_int_eq(get(st, "mambo", -1), 2);
    ops->free(st);

    cJSON_ReplaceItemInObject(o, "setup", cJSON_CreateString("{\"mambo\":5,\"kali\":9,\"explorers\":[6,8,7],"
                                                             "\"dung\":[12,15],\"scores\":[1,2,3]}"));
    st = ops->setup(o, 3, 1, &err);
    ck_assert_msg(st != NULL, "%s", err.buf);
    ck_assert_int_eq(get(st, "explorers", 1), 8);
    ck_assert_int_eq(get(st, "scores", 2), 3);
    ops->free(st);

    static const char *const bad[] = {
        "{\"mambo\":5,\"kali\":6,\"explorers\":[6,8,7],\"dung\":[]}", /* two on 6 */
        "{\"mambo\":5,\"kali\":9,\"explorers\":[6,8],\"dung\":[]}",   /* one explorer short */
        "{\"mambo\":5,\"kali\":9,\"explorers\":[6,8,70],\"dung\":[]}", /* off the track */
        "not json",
        "@/nonexistent/setup.json",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        strbuf_reset(&err);
        cJSON_ReplaceItemInObject(o, "setup", cJSON_CreateString(bad[i]));
        ck_assert_msg(ops->setup(o, 3, 1, &err) == NULL, "accepted %s", bad[i]);
        ck_assert_uint_gt(err.len, 0);
    }
    cJSON_ReplaceItemInObject(o, "setup", cJSON_CreateString(""));
    cJSON_ReplaceItemInObject(o, "data", cJSON_CreateString("/nonexistent.json"));
    strbuf_reset(&err);
    ck_assert_ptr_null(ops->setup(o, 3, 1, &err));
    ck_assert(strstr(err.buf, "cannot open /nonexistent.json") != NULL);
    cJSON_Delete(o);
    unlink(path);
    strbuf_release(&err);
}
END_TEST

START_TEST(no_view_shows_kalis_next_card_and_every_view_every_hand)
{
    static const int ex[] = { 1, 2, 3 };
    void *a = position(3, ex, 4, 0, "20", 9), *b = position(3, ex, 4, 0, "20", 2);
    /* Two states that differ only in Kali's hidden deck order look alike to everyone. */
    for (int viewer = -1; viewer < 3; viewer++) {
        cJSON *va = ops->view_json(a, viewer, &table), *vb = ops->view_json(b, viewer, &table);
        struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
        ck_assert(cJSON_Compare(va, vb, 1));
        ops->view_ascii(a, viewer, &table, &sa);
        ops->view_ascii(b, viewer, &table, &sb);
        ck_assert_str_eq(sa.buf, sb.buf);
        /* Every card played is public, so every seat's cards in hand are
         * in every view (the clarifications). */
        cJSON *e = cJSON_GetObjectItem(va, "explorers"), *x;
        cJSON_ArrayForEach(x, e)
            ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(x, "cards")),
                             cJSON_GetObjectItem(x, "cards_left")->valueint);
        cJSON_Delete(va);
        cJSON_Delete(vb);
        strbuf_release(&sa);
        strbuf_release(&sb);
    }
    ops->free(a);
    ops->free(b);
}
END_TEST

START_TEST(a_round_resolves_only_when_the_last_card_is_in)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission s;
    t_new_game(db, "kalimambo", 3, 8, NULL, &g);
    t_submit(db, &g, 0, "PLAY 5", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_PENDING);
    ck_assert(strstr(s.lines[0].body.buf, "Still to come: Bob and Cleo.") != NULL);
    submission_release(&s);
    t_submit(db, &g, 0, "PLAY 9", &s); /* she changes her mind */
    submission_release(&s);
    t_submit(db, &g, 2, "PLAY 1", &s);
    ck_assert(strstr(s.lines[0].body.buf, "Still to come: Bob.") != NULL);
    submission_release(&s);
    ck_assert_int_eq(g.turn, 0);
    /* Bob sees neither card anywhere. */
    cJSON *v = view_json(db, &g, 1);
    char *text = jx_print(v);
    ck_assert(strstr(text, "\"last_card\"") == NULL);
    free(text);
    cJSON_Delete(v);
    t_submit(db, &g, 1, "PLAY 4", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_ACCEPTED);
    ck_assert_msg(strstr(s.lines[0].body.buf, "Cards: Ann 9, Bob 4, Cleo 1, Kali"), "%s",
                  s.lines[0].body.buf);
    submission_release(&s);
    ck_assert_int_eq(g.turn, 1);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(a_whole_game_checked_by_hand)
{
    /* The layout of the rule book for three players, Kali's deck fixed. */
    static const char *const opts =
        "{\"setup\":\"{\\\"mambo\\\":0,\\\"kali\\\":4,\\\"explorers\\\":[1,2,3],"
        "\\\"dung\\\":[7,11,16,20,25,29],\\\"kali_deck\\\":[6,0,11,1,10,2,9,3,8,4,7,5]}\"}";
    static const int cards[12][3] = {
        { 11, 0, 5 }, { 10, 1, 6 }, { 9, 2, 7 }, { 8, 3, 8 }, { 7, 4, 9 },  { 6, 5, 10 },
        { 5, 6, 11 }, { 4, 7, 0 }, { 3, 8, 1 }, { 2, 9, 2 }, { 1, 10, 3 }, { 0, 11, 4 },
    };
    /* Worked out round by round on paper (docs/games/kalimambo.md). */
    static const int scores_after[12][3] = {
        { 0, 1, 3 },  { 0, 5, 3 },   { 2, 10, 4 },  { 2, 13, 6 },  { 4, 18, 6 },   { 4, 18, 10 },
        { 5, 18, 16 }, { 5, 21, 16 }, { 5, 21, 22 }, { 7, 21, 23 }, { 13, 22, 23 }, { 18, 22, 24 },
    };
    sqlite3 *db = t_db();
    struct game_rec g;
    struct game_result r;
    struct strbuf report = STRBUF_INIT;
    t_new_game(db, "kalimambo", 3, 1, opts, &g);
    for (int round = 0; round < 12; round++) {
        /* Round 12 is played by ngoma at once: each has one card left. */
        for (int s = 0; s < 3 && round < 11; s++) {
            char order[16];
            snprintf(order, sizeof(order), "PLAY %d", cards[round][s]);
            t_ok(db, &g, s, order);
        }
        ck_assert_int_eq(g.turn, round == 10 ? 12 : round + 1);
        for (int s = 0; s < 3 && round != 10; s++)
            ck_assert_msg(get(g.st, "scores", s) == scores_after[round][s], "round %d, %s has %d, expected %d",
                          round + 1, names[s], get(g.st, "scores", s), scores_after[round][s]);
    }
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM orders WHERE step = 12 AND source = 'forced'"), 3);
    ck_assert_int_eq(get(g.st, "mambo", -1), 8);
    ck_assert_int_eq(get(g.st, "kali", -1), 11);
    ck_assert_int_eq(get(g.st, "explorers", 0), 9);
    ck_assert_int_eq(get(g.st, "explorers", 1), 10);
    ck_assert_int_eq(get(g.st, "explorers", 2), 12);
    g.ops->result(g.st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(r.winners, 1u);
    ck_assert_str_eq(g.status, "finished");
    ck_assert_int_eq(engine_replay(db, &g, &report), 0);
    strbuf_release(&report);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(equal_lowest_scores_share_the_win_and_resigning_leaves)
{
    static const int ex[] = { 1, 2, 3 };
    void *st = position(3, ex, 4, 0, "20", 0);
    struct game_log log;
    struct game_result r;
    game_log_init(&log);
    ops->resign(st, 0, &table, &log);
    ck_assert(strstr(log.pub.buf, "Ann resigns") != NULL);
    ck_assert(strstr(log.pub.buf, "Mambo walks up to 1") != NULL);
    ck_assert_uint_eq(ops->waiting_for(st), 6u);
    ops->resign(st, 1, &table, &log);
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(r.winners, 4u);
    game_log_release(&log);
    ops->free(st);

    /* The last round of a two-player game: everybody shows 0, nobody
     * moves, and the level scores share the win. */
    st = t_state(ops, "{\"nseats\":2,\"track\":32,\"penalty\":3,\"cards\":[0,1,2,3,4,5,6,7,8,9,10,11],"
                      "\"round\":11,\"mambo\":0,\"kali\":3,\"explorers\":[1,2],\"dung\":[],\"hands\":[[0],[0]],"
                      "\"kali_deck\":[0],\"scores\":[4,4],\"resigned\":0,\"last\":[5,6],\"last_kali\":7,"
                      "\"colours\":[\"red\",\"blue\"],\"rng\":{\"state\":\"1\",\"inc\":\"1\"}}");
    ops->result(st, &r);
    ck_assert(!r.finished);
    char *text = round_with(st, 2, (int[]){ 0, 0 });
    ck_assert(strstr(text, "That was the last round") != NULL);
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_int_eq(r.scores[0], 4);
    ck_assert_int_eq(r.scores[1], 4);
    ck_assert_uint_eq(r.winners, 3u);
    ck_assert_uint_eq(ops->waiting_for(st), 0u);
    free(text);
    ops->free(st);
}
END_TEST

Suite *kalimambo_suite(void)
{
    Suite *s = suite_create("kalimambo");
    TCase *tc = tcase_create("kalimambo");
    tcase_add_test(tc, highest_card_first_each_to_the_front);
    tcase_add_test(tc, a_zero_card_stays);
    tcase_add_test(tc, the_frontmost_figure_stays);
    tcase_add_test(tc, a_tie_moves_only_the_rearmost_explorer);
    tcase_add_test(tc, a_tie_with_kali_moves_the_rearmost_of_them);
    tcase_add_test(tc, landing_on_dung_costs_three);
    tcase_add_test(tc, kali_in_the_dung_charges_every_lowest_card);
    tcase_add_test(tc, mambo_rams_the_rearmost_explorer);
    tcase_add_test(tc, mambo_ramming_kali_charges_the_lowest_card);
    tcase_add_test(tc, the_loop_wraps_around);
    tcase_add_test(tc, played_cards_are_gone);
    tcase_add_test(tc, the_default_setup_follows_the_clarifications);
    tcase_add_test(tc, options_change_the_data_and_the_layout);
    tcase_add_test(tc, no_view_shows_kalis_next_card_and_every_view_every_hand);
    tcase_add_test(tc, a_round_resolves_only_when_the_last_card_is_in);
    tcase_add_test(tc, a_whole_game_checked_by_hand);
    tcase_add_test(tc, equal_lowest_scores_share_the_win_and_resigning_leaves);
    suite_add_tcase(s, tc);
    return s;
}
