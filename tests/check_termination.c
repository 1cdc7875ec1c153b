/* check_termination.c: every game, at every player count, ends by its own rules within a stated bound, under random play and under bots; on the first of each, what the rules make public is in every view. */
#include "test_support.h"
#include "playout.h"

#include "lib/rng.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * One configuration and the most steps a game of it may take. Where the
 * rules bound a game, the bound is theirs; where they do not (Bantu's
 * captures and African Empires' collapses may repeat), it is the longest
 * game the seeds below ever needed, with room to spare, and a game that
 * needs more fails: a rules defect to fix, not a bound to raise. No
 * player resigns, and nothing cuts a game short but its own end.
 */
struct config {
    const char *game;
    int seats;
    const char *options; /* JSON, or NULL */
    int bound;           /* steps */
    const char *why;
};

/* Bumuntu: each seat enters (one step), then a turn is at most three
 * steps (FOOD, the move, TILE or SWAP); at most 64 turns collect a tile,
 * and between two of them at most 10 rounds of turns pass before the
 * stall rule ends the game: seats + 3 * 65 * 10 * seats. */
#define BUMUNTU_BOUND(n) ((n) + 3 * 65 * 10 * (n))

static const struct config configs[] = {
    { "kuniumi", 2, NULL, 37, "6 placements, the choice, at most one move for each of the 30 free squares" },
    { "kalimambo", 2, NULL, 12, "12 rounds, each one simultaneous step" },
    { "kalimambo", 3, NULL, 12, "12 rounds" },
    { "kalimambo", 4, NULL, 12, "12 rounds" },
    { "kalimambo", 5, NULL, 12, "12 rounds" },
    { "kalimambo", 6, NULL, 12, "12 rounds" },
    { "kalimambo", 7, NULL, 12, "12 rounds" },
    { "bumuntu", 2, NULL, BUMUNTU_BOUND(2), "64 tiles, each within 10 rounds (stall_rounds)" },
    { "bumuntu", 3, NULL, BUMUNTU_BOUND(3), "64 tiles, each within 10 rounds" },
    { "bumuntu", 4, NULL, BUMUNTU_BOUND(4), "64 tiles, each within 10 rounds" },
    { "bumuntu", 5, NULL, BUMUNTU_BOUND(5), "64 tiles, each within 10 rounds" },
    { "bumuntu", 3, "{\"animals\":\"Giraffe,Zebra,Chimpanzee,Flamingo,Lion,Crocodile,Rhinoceros,Elephant\"}",
      BUMUNTU_BOUND(3), "the Flamingo and the Rhinoceros in play" },
    { "bumuntu", 4, "{\"animals\":\"Tarantula,Zebra,Chimpanzee,Flamingo,Lion,Black Mamba,Rhinoceros,Elephant\"}",
      BUMUNTU_BOUND(4), "the Tarantula's tiles, the Mamba and the Rhinoceros" },
    { "bantu", 2, NULL, 600, "no rule bound (captures): about 4 times the longest seen" },
    { "bantu", 3, NULL, 900, "no rule bound: about 4 times the longest seen" },
    { "bantu", 4, NULL, 1200, "no rule bound: about 4 times the longest seen" },
    { "bantu", 3, "{\"short\":\"yes\"}", 900, "the short game" },
    { "bantu", 4, "{\"partnership\":\"yes\"}", 1200, "the partnership game" },
    { "african-empires", 3, NULL, 9 * 60, "no rule bound (collapses): 60 game turns of 3 phases" },
    { "african-empires", 4, NULL, 12 * 60, "60 game turns" },
    { "african-empires", 5, NULL, 15 * 60, "60 game turns" },
    { "african-empires", 6, NULL, 18 * 60, "60 game turns" },
};

static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal" };

/* How many games of each kind: 200 random and 50 of bots; two of each
 * when the run plays samples (the sanitizer run checks memory on them; the
 * gcc run checks the bounds on them all). */
static int games_of(int full)
{
    return t_sampled() && full > 2 ? 2 : full;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Plays one game to its end (playout.c): random legal orders (a random
 * verb, then one of its orders) or the bots' for every seat. Returns its
 * steps. */
static int play_to_the_end(const struct config *c, const struct game_ops *ops, uint64_t seed, bool bots,
                           playout_check *check, void *arg)
{
    struct strbuf err = STRBUF_INIT, what = STRBUF_INIT;
    struct game_table t = { c->seats, names, NULL };
    cJSON *given = c->options ? cJSON_Parse(c->options) : cJSON_CreateObject();
    cJSON *opts = engine_options(ops, given, &err);
    struct rng r;
    struct game_result res;
    int steps;

    CHECK(opts != NULL, "%s: options: %s", c->game, err.buf);
    strbuf_addf(&what, "%s, %d seats%s%s, seed %llu (bound: %s)", c->game, c->seats, c->options ? " " : "",
                c->options ? c->options : "", (unsigned long long)seed, c->why);
    rng_seed(&r, seed, 17);
    struct playout p = { ops, &t, ops->setup(opts, c->seats, seed, &err), &r, bots, c->bound, what.buf, NULL, NULL };
    CHECK(p.st != NULL, "%s: setup: %s", c->game, err.buf);
    steps = playout_run(&p, check, NULL, arg);
    ops->result(p.st, &res);
    CHECK(res.finished, "%s: waits for nobody but is not finished", what.buf);
    ops->free(p.st);
    cJSON_Delete(opts);
    cJSON_Delete(given);
    strbuf_release(&err);
    strbuf_release(&what);
    return steps;
}

/* The first game of each kind in its rules' own options (random and
 * bots') is also looked at for what the rules make public, at every other
 * step (check_public.c): the same games, checked for both. */
static void run(const struct config *c, bool bots)
{
    const struct game_ops *ops = game_find(c->game);
    int n = games_of(bots ? 50 : 200), *steps = xcalloc((size_t)n, sizeof(int));
    struct public_look look = { 0 };

    ck_assert_ptr_nonnull(ops);
    for (int g = 0; g < n; g++)
        steps[g] = play_to_the_end(c, ops, (uint64_t)(bots ? 50000 : 10000) + (uint64_t)g * 7919, bots,
                                   g == 0 && !c->options ? public_check : NULL, &look);
    CHECK(c->options || look.looked > 20, "%s, %d seats: only %d public items looked for", c->game, c->seats,
          look.looked);
    qsort(steps, (size_t)n, sizeof(int), cmp_int);
    fprintf(stderr, "termination: %s, %d seats%s%s, %s: %d games, longest %d steps, median %d (bound %d)%s\n",
            c->game, c->seats, c->options ? " " : "", c->options ? c->options : "", bots ? "bots" : "random", n,
            steps[n - 1], steps[n / 2], c->bound, look.looked ? "; public items in every view" : "");
    free(steps);
}

START_TEST(random_games_end_by_the_rules)
{
    run(&configs[_i], false);
}
END_TEST

START_TEST(bot_games_end_by_the_rules)
{
    run(&configs[_i], true);
}
END_TEST

Suite *termination_suite(void)
{
    Suite *s = suite_create("termination");
    TCase *tc = tcase_create("termination");
    tcase_set_timeout(tc, 900);
    tcase_add_loop_test(tc, random_games_end_by_the_rules, 0, (int)ARRAY_SIZE(configs));
    tcase_add_loop_test(tc, bot_games_end_by_the_rules, 0, (int)ARRAY_SIZE(configs));
    suite_add_tcase(s, tc);
    return s;
}
