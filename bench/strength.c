/* strength.c: the strong bot's matches against the easy bot, seats rotated: win rate or mean rank with a 95% interval, and the time of a move. */
#include "bench.h"
#include "core/bot.h"
#include "core/engine.h"
#include "core/search.h"
#include "lib/rng.h"
#include "lib/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define STEP_CAP 4000 /* a game still running after this many steps counts as unfinished */

static const char *const seat_names[GAME_MAX_SEATS] = { "Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal" };

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The place of seat in a finished game, 1 best; seats that tie share the
 * mean of their places. Scores rank when the game keeps them (the
 * winners first, the others by score, higher or lower as the winners'
 * is), else the winners share the first places. */
static double place_of(const struct game_result *r, int nseats, int seat)
{
    double better = 0, same = 0;
    int dir = 1;
    /* Which way the scores go: the winners hold the best (Kalimambo's
     * penalty points are fewest). */
    for (int w = 0; w < nseats; w++)
        for (int s = 0; s < nseats && (r->winners >> w) & 1u; s++)
            if (!((r->winners >> s) & 1u) && r->scores[s] > r->scores[w])
                dir = -1;
    for (int s = 0; s < nseats; s++) {
        int ws = (r->winners >> s) & 1u, wme = (r->winners >> seat) & 1u;
        int cmp;
        if (ws != wme)
            cmp = ws ? 1 : -1;
        else if (r->has_scores)
            cmp = dir * ((r->scores[s] > r->scores[seat]) - (r->scores[s] < r->scores[seat]));
        else
            cmp = 0;
        if (cmp > 0)
            better++;
        else if (cmp == 0)
            same++;
    }
    return better + (same + 1) / 2.0;
}

struct tally {
    double sum, sumsq;
    int n, unfinished;
    double *move_ms;
    size_t moves, cap;
    long long iterations;
    size_t max_bytes;
};

static void tally_move(struct tally *t, const struct search_stats *ss)
{
    if (t->moves == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 1024;
        t->move_ms = xrealloc(t->move_ms, t->cap * sizeof(double));
    }
    t->move_ms[t->moves++] = ss->ms;
    t->iterations += ss->iterations;
    if (ss->bytes > t->max_bytes)
        t->max_bytes = ss->bytes;
}

/* One game: the strong bot in seat strong, the easy bot elsewhere. Its
 * score for the strong seat (a win's share, or its place) goes to t. */
static int play_match(const struct game_ops *ops, int nseats, int strong, uint64_t seed,
                      const struct search_budget *b, struct tally *t)
{
    struct strbuf err = STRBUF_INIT;
    struct game_table table = { nseats, seat_names, NULL };
    cJSON *opts = engine_options(ops, NULL, &err);
    void *st = opts ? ops->setup(opts, nseats, (int64_t)seed, &err) : NULL;
    int steps = 0;
    if (!st) {
        fprintf(stderr, "strength: %s\n", err.buf);
        cJSON_Delete(opts);
        strbuf_release(&err);
        return -1;
    }
    for (; ops->waiting_for(st) && steps < STEP_CAP; steps++) {
        unsigned w = ops->waiting_for(st);
        const char *orders[GAME_MAX_SEATS] = { NULL };
        char *own[GAME_MAX_SEATS] = { NULL };
        struct game_log log;
        uint64_t salt = seed * 0x9e3779b97f4a7c15ULL ^ (uint64_t)steps;
        for (int s = 0; s < nseats; s++) {
            if (!(w & (1u << s)))
                continue;
            if (s == strong) {
                struct search_stats ss;
                own[s] = search_choose(ops, st, s, &table, salt, b, &ss);
                if (ss.iterations)
                    tally_move(t, &ss);
            } else {
                own[s] = bot_choose(ops, st, s, &table, salt ^ (uint64_t)s);
            }
            orders[s] = own[s];
        }
        game_log_init(&log);
        int rc = ops->advance(st, orders, &table, &log);
        game_log_release(&log);
        for (int s = 0; s < nseats; s++)
            free(own[s]);
        if (rc) {
            fprintf(stderr, "strength: %s seed %llu: a step failed\n", ops->name, (unsigned long long)seed);
            break;
        }
    }
    if (ops->waiting_for(st)) {
        t->unfinished++;
    } else {
        struct game_result r;
        double x;
        memset(&r, 0, sizeof(r));
        ops->result(st, &r);
        if (nseats == 2) {
            int k = __builtin_popcount(r.winners);
            x = k ? ((r.winners >> strong) & 1u) / (double)k : 0.5;
        } else {
            x = place_of(&r, nseats, strong);
        }
        t->sum += x;
        t->sumsq += x * x;
        t->n++;
    }
    ops->free(st);
    cJSON_Delete(opts);
    strbuf_release(&err);
    return 0;
}

int bench_strength(const char *game, int nseats, int ngames, int ms, int iterations)
{
    const struct game_ops *ops = game_find(game);
    struct search_budget b = SEARCH_BUDGET_DEFAULT;
    struct tally t;
    if (!ops || nseats < ops->min_seats || nseats > ops->max_seats || ngames < 1) {
        fprintf(stderr, "strength: GAME SEATS GAMES MS [ITERATIONS]: no game \"%s\" of %d seats\n", game, nseats);
        return 2;
    }
    b.ms = ms;
    b.iterations = iterations;
    /* For tuning by hand: the search's other parameters. */
    if (getenv("NGOMA_SEARCH_DEPTH"))
        b.depth = atoi(getenv("NGOMA_SEARCH_DEPTH"));
    if (getenv("NGOMA_SEARCH_C"))
        b.uct_c = atof(getenv("NGOMA_SEARCH_C"));
    memset(&t, 0, sizeof(t));
    /* Seats rotate: game i seats the strong bot at i mod seats. With
     * STRENGTH_SECS set, no game begins after that many seconds: the line
     * says how many were played. */
    double secs = getenv("STRENGTH_SECS") ? atof(getenv("STRENGTH_SECS")) : 0, start = wall_s();
    for (int i = 0; i < ngames && !(secs > 0 && wall_s() - start > secs); i++)
        if (play_match(ops, nseats, i % nseats, (uint64_t)i + 1, &b, &t))
            return 1;
    double mean = t.n ? t.sum / t.n : 0;
    double var = t.n > 1 ? (t.sumsq - t.n * mean * mean) / (t.n - 1) : 0;
    double half = t.n > 1 ? 1.96 * sqrt(var > 0 ? var : 0) / sqrt(t.n) : 1;
    double p95 = 0, mean_ms = 0;
    if (t.moves) {
        qsort(t.move_ms, t.moves, sizeof(double), cmp_double);
        p95 = t.move_ms[(size_t)(0.95 * (double)(t.moves - 1))];
        for (size_t i = 0; i < t.moves; i++)
            mean_ms += t.move_ms[i];
        mean_ms /= (double)t.moves;
    }
    /* One line: game seats games unfinished measure value half target met p95 mean budget iterations/move
     * tree-MB process-MB. */
    if (nseats == 2)
        printf("%-16s %d %5d %3d wins %6.3f %5.3f >=0.65 %-3s", game, nseats, t.n, t.unfinished, mean, half,
               mean - half >= 0.65 ? "yes" : mean >= 0.65 ? "~" : "no");
    else
        printf("%-16s %d %5d %3d rank %6.3f %5.3f <=%.2f %-3s", game, nseats, t.n, t.unfinished, mean, half,
               (nseats + 1) / 2.0 - 0.5, mean + half <= (nseats + 1) / 2.0 - 0.5 ? "yes"
               : mean <= (nseats + 1) / 2.0 - 0.5                                ? "~"
                                                                                  : "no");
    {
        /* The whole process at its peak: every search, both bots, the games. */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf(" %7.1f %7.1f %5d %8.0f %6.1f %6.1f\n", p95, mean_ms, ms,
               t.moves ? (double)t.iterations / (double)t.moves : 0, (double)t.max_bytes / 1048576.0,
               (double)ru.ru_maxrss / 1024.0);
    }
    free(t.move_ms);
    return 0;
}

int bench_iterations(const char *game, int nseats, int moves, int ms)
{
    const struct game_ops *ops = game_find(game);
    struct search_budget b = SEARCH_BUDGET_DEFAULT;
    struct strbuf err = STRBUF_INIT;
    struct game_table table = { nseats, seat_names, NULL };
    cJSON *opts;
    void *st;
    long long iterations = 0;
    double cpu = 0, wall = 0;
    int searched = 0;
    if (!ops || nseats < ops->min_seats || nseats > ops->max_seats || moves < 1 || ms < 10) {
        fprintf(stderr, "iterations: GAME SEATS MOVES MS: no game \"%s\" of %d seats\n", game, nseats);
        return 2;
    }
    b.ms = ms;
    opts = engine_options(ops, NULL, &err);
    st = opts ? ops->setup(opts, nseats, 1, &err) : NULL;
    if (!st) {
        fprintf(stderr, "iterations: %s\n", err.buf);
        cJSON_Delete(opts);
        strbuf_release(&err);
        return 1;
    }
    /* The easy bots play every seat, so that the positions are the same
     * however busy the machine; at each of seat 1's steps the strong bot
     * searches too, its choice set aside. */
    for (int step = 0; ops->waiting_for(st) && searched < moves && step < STEP_CAP; step++) {
        unsigned w = ops->waiting_for(st);
        const char *orders[GAME_MAX_SEATS] = { NULL };
        char *own[GAME_MAX_SEATS] = { NULL };
        struct game_log log;
        for (int s = 0; s < nseats; s++) {
            if (!(w & (1u << s)))
                continue;
            if (s == 0) {
                struct search_stats ss;
                free(search_choose(ops, st, s, &table, (uint64_t)step, &b, &ss));
                if (ss.iterations) {
                    iterations += ss.iterations;
                    cpu += ss.cpu_ms;
                    wall += ss.ms;
                    searched++;
                }
            }
            own[s] = bot_choose(ops, st, s, &table, (uint64_t)step ^ (uint64_t)s);
            orders[s] = own[s];
        }
        game_log_init(&log);
        int rc = ops->advance(st, orders, &table, &log);
        game_log_release(&log);
        for (int s = 0; s < nseats; s++)
            free(own[s]);
        if (rc)
            break;
    }
    ops->free(st);
    cJSON_Delete(opts);
    strbuf_release(&err);
    if (!searched)
        return 1;
    /* ITERATIONS CPU_MS WALL_MS, each a move's mean. */
    printf("%.0f %.1f %.1f\n", (double)iterations / searched, cpu / searched, wall / searched);
    return 0;
}
