/* check_bots.c: each game's bot plays only legal orders and beats the random bot over many seeded games. */
#include "test_support.h"

#include "core/bot.h"
#include "lib/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct match {
    const char *game;
    int seats;
    int games;
    int max_steps; /* a game still going then is judged on evaluate() */
};

/* Plays `m->games` seeded games, the bot in a different seat each game
 * and the random bot in the others; every order the bot gives must pass
 * the game's own check. Returns the bot's wins, shared wins counting as
 * a share. */
static double bot_wins(const struct match *m, int *unfinished)
{
    static const char *names[] = { "A", "B", "C", "D", "E", "F" };
    const struct game_ops *ops = game_find(m->game);
    struct game_table t = { m->seats, names };
    double wins = 0;

    ck_assert_ptr_nonnull(ops);
    ck_assert_ptr_nonnull(ops->evaluate);
    *unfinished = 0;
    for (int g = 0; g < m->games; g++) {
        struct strbuf err = STRBUF_INIT;
        cJSON *opts = cJSON_CreateObject();
        void *st = ops->setup(opts, m->seats, 7000 + g, &err);
        int bot = g % m->seats, steps = 0;
        struct game_result r;

        CHECK(st != NULL, "%s: setup failed: %s", m->game, err.buf);
        for (unsigned w; (w = ops->waiting_for(st)) && steps < m->max_steps; steps++) {
            const char *orders[GAME_MAX_SEATS] = { NULL };
            char *own[GAME_MAX_SEATS] = { NULL };
            struct game_log log;
            for (int s = 0; s < m->seats; s++) {
                if (!(w & (1u << s)))
                    continue;
                own[s] = s == bot ? bot_choose(ops, st, s, &t, (uint64_t)g * 7919 + (uint64_t)steps)
                                  : bot_random(ops, st, s, &t, (uint64_t)g * 31 + (uint64_t)steps * 7 + (uint64_t)s);
                CHECK(own[s] != NULL, "%s game %d step %d: seat %d has no order", m->game, g, steps, s);
                if (s == bot) {
                    struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
                    CHECK(ops->check(st, s, &t, own[s], &canon, &why) == 0, "%s game %d: the bot's \"%s\" is illegal: %s",
                          m->game, g, own[s], why.buf);
                    strbuf_release(&canon);
                    strbuf_release(&why);
                }
                orders[s] = own[s];
            }
            game_log_init(&log);
            CHECK(ops->advance(st, orders, &t, &log) == 0, "%s game %d: advance failed", m->game, g);
            game_log_release(&log);
            for (int s = 0; s < m->seats; s++)
                free(own[s]);
        }
        ops->result(st, &r);
        if (!r.finished) {
            /* Judged by the game's own reckoning of the position. */
            (*unfinished)++;
            wins += ops->evaluate(st, bot) > 0;
        } else if (r.winners & (1u << bot)) {
            wins += 1.0 / __builtin_popcount(r.winners);
        }
        ops->free(st);
        cJSON_Delete(opts);
        strbuf_release(&err);
    }
    return wins;
}

/* The bot must win more often than a random player's share by three
 * standard deviations of the binomial count: luck does not pass this. */
static void assert_beats_random(const struct match *m)
{
    int unfinished;
    double wins = bot_wins(m, &unfinished), p = 1.0 / m->seats;
    double expected = m->games * p, sd = sqrt(m->games * p * (1 - p));
    fprintf(stderr, "bots: %s, %d seats: the bot won %.1f of %d games (random share %.1f, %d judged unfinished)\n",
            m->game, m->seats, wins, m->games, expected, unfinished);
    ck_assert_msg(wins > expected + 3 * sd, "%s: the bot won %.1f of %d games; a random player expects %.1f",
                  m->game, wins, m->games, expected);
}

START_TEST(kuniumi_bot)
{
    assert_beats_random(&(struct match){ "kuniumi", 2, 100, 1000 });
}
END_TEST

START_TEST(kalimambo_bot)
{
    assert_beats_random(&(struct match){ "kalimambo", 3, 120, 1000 });
    assert_beats_random(&(struct match){ "kalimambo", 5, 100, 1000 });
}
END_TEST

START_TEST(bantu_bot)
{
    assert_beats_random(&(struct match){ "bantu", 2, 16, 2000 });
}
END_TEST

START_TEST(african_empires_bot)
{
    assert_beats_random(&(struct match){ "african-empires", 3, 9, 3000 });
}
END_TEST

START_TEST(bumuntu_bot)
{
    /* Games between a bot and a random player seldom reach the last
     * advancement tile: at 300 steps the favor each would score if the
     * game ended there decides. */
    assert_beats_random(&(struct match){ "bumuntu", 2, 16, 300 });
}
END_TEST

/* A determinized state looks the same to its seat as the true one, and
 * differs from it somewhere when there is something hidden left. */
static void assert_determinize_keeps_view(const char *game, int seats)
{
    static const char *names[] = { "A", "B", "C", "D", "E", "F" };
    const struct game_ops *ops = game_find(game);
    struct game_table t = { seats, names };
    struct strbuf err = STRBUF_INIT;
    cJSON *opts = cJSON_CreateObject();
    void *st = ops->setup(opts, seats, 99, &err);
    int changed = 0;

    ck_assert_ptr_nonnull(ops->determinize);
    for (int step = 0; step < 40 && ops->waiting_for(st); step++) {
        unsigned w = ops->waiting_for(st);
        const char *orders[GAME_MAX_SEATS] = { NULL };
        char *own[GAME_MAX_SEATS] = { NULL };
        struct game_log log;
        for (int s = 0; s < seats; s++) {
            cJSON *tj = ops->to_json(st), *v1 = ops->view_json(st, s, &t);
            void *c = ops->from_json(tj, &err);
            ck_assert_ptr_nonnull(c);
            ops->determinize(c, s, (uint64_t)step * 13 + (uint64_t)s);
            cJSON *cj = ops->to_json(c), *v2 = ops->view_json(c, s, &t);
            char *a = cJSON_PrintUnformatted(v1), *b = cJSON_PrintUnformatted(v2);
            char *x = cJSON_PrintUnformatted(tj), *y = cJSON_PrintUnformatted(cj);
            CHECK(strcmp(a, b) == 0, "%s step %d: seat %d sees a determinized state differently", game, step, s);
            changed += strcmp(x, y) != 0;
            free(a), free(b), free(x), free(y);
            cJSON_Delete(tj), cJSON_Delete(cj), cJSON_Delete(v1), cJSON_Delete(v2);
            ops->free(c);
        }
        for (int s = 0; s < seats; s++)
            if (w & (1u << s))
                orders[s] = own[s] = bot_random(ops, st, s, &t, (uint64_t)step * 5 + (uint64_t)s);
        game_log_init(&log);
        ck_assert_int_eq(ops->advance(st, orders, &t, &log), 0);
        game_log_release(&log);
        for (int s = 0; s < seats; s++)
            free(own[s]);
    }
    ck_assert_msg(changed > 0, "%s: determinize never dealt anything anew", game);
    ops->free(st);
    cJSON_Delete(opts);
    strbuf_release(&err);
}

START_TEST(determinize_hides_nothing_seen)
{
    assert_determinize_keeps_view("kalimambo", 4);
    assert_determinize_keeps_view("african-empires", 4);
}
END_TEST

Suite *bots_suite(void)
{
    Suite *s = suite_create("bots");
    TCase *tc = tcase_create("beat-random");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, kuniumi_bot);
    tcase_add_test(tc, kalimambo_bot);
    tcase_add_test(tc, bantu_bot);
    tcase_add_test(tc, african_empires_bot);
    tcase_add_test(tc, bumuntu_bot);
    tcase_add_test(tc, determinize_hides_nothing_seen);
    suite_add_tcase(s, tc);
    return s;
}
