/* bot.c: the bots that play seats nobody plays (and missing orders): a one-step look-ahead on each game's own evaluation. */
#include "core/bot.h"
#include "lib/rng.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

#define CANDIDATES 48 /* orders tried at the most */
#define BUDGET 192    /* look-ahead steps per choice, shared among the candidates */

char *bot_random(const struct game_ops *ops, const void *st, int seat, const struct game_table *t, uint64_t salt)
{
    struct strlist legal = STRLIST_INIT;
    struct rng r;
    char *pick = NULL;
    ops->legal(st, seat, t, &legal);
    rng_seed(&r, salt, (uint64_t)seat + 1);
    if (legal.n)
        pick = xstrdup(legal.v[rng_below(&r, (uint32_t)legal.n)]);
    strlist_clear(&legal);
    return pick;
}

void *bot_copy_state(const struct game_ops *ops, const void *st)
{
    struct strbuf err = STRBUF_INIT;
    if (ops->clone)
        return ops->clone(st);
    cJSON *j = ops->to_json(st);
    void *c = ops->from_json(j, &err);
    cJSON_Delete(j);
    strbuf_release(&err);
    return c;
}

/* The value for seat of playing `order`, averaged over random orders of
 * the other seats the step waits for. */
static long long try_order(const struct game_ops *ops, const void *st, int seat, const struct game_table *t,
                           const char *order, int samples, struct rng *r)
{
    unsigned waiting = ops->waiting_for(st);
    long long total = 0;

    for (int k = 0; k < samples; k++) {
        const char *orders[GAME_MAX_SEATS] = { NULL };
        char *filled[GAME_MAX_SEATS] = { NULL };
        struct game_log log;
        void *c = bot_copy_state(ops, st);
        if (!c)
            return 0;
        /* What seat cannot see is dealt anew: the bot does not peek. */
        if (ops->determinize)
            ops->determinize(c, seat, rng_next(r));
        orders[seat] = order;
        for (int s = 0; s < t->nseats; s++)
            if (s != seat && (waiting & (1u << s))) {
                filled[s] = bot_random(ops, c, s, t, rng_next(r));
                orders[s] = filled[s];
            }
        game_log_init_quiet(&log);
        if (ops->advance(c, orders, t, &log) == 0)
            total += ops->evaluate(c, seat);
        game_log_release(&log);
        ops->free(c);
        for (int s = 0; s < t->nseats; s++)
            free(filled[s]);
    }
    return total / samples;
}

/* How many random fillings each of tried orders gets (the budget shared). */
static int samples_for(const struct game_ops *ops, const void *st, int seat, size_t tried)
{
    bool unknown = (ops->waiting_for(st) & ~(1u << seat)) || ops->determinize;
    return unknown ? (int)(BUDGET / tried > 3 ? BUDGET / tried : 3) : 1;
}

void bot_rank(const struct game_ops *ops, const void *st, int seat, const struct game_table *t, uint64_t salt, int k,
              struct strlist *out)
{
    struct strlist legal = STRLIST_INIT;
    long long value[CANDIDATES];
    struct rng r;
    ops->legal(st, seat, t, &legal);
    rng_seed(&r, salt, (uint64_t)seat + 211);
    rng_shuffle(&r, legal.v, legal.n, sizeof(char *));
    size_t tried = legal.n < CANDIDATES ? legal.n : CANDIDATES;
    int samples = tried ? samples_for(ops, st, seat, tried) : 0;
    for (size_t i = 0; i < tried; i++)
        value[i] = ops->evaluate ? try_order(ops, st, seat, t, legal.v[i], samples, &r) : 0;
    /* The best k, in order; among equals the earlier of the shuffle. */
    for (int n = 0; n < k && (size_t)n < tried; n++) {
        size_t best = (size_t)n;
        for (size_t i = (size_t)n + 1; i < tried; i++)
            if (value[i] > value[best])
                best = i;
        char *v = legal.v[best];
        long long x = value[best];
        memmove(&legal.v[n + 1], &legal.v[n], (best - (size_t)n) * sizeof(char *));
        memmove(&value[n + 1], &value[n], (best - (size_t)n) * sizeof(long long));
        legal.v[n] = v;
        value[n] = x;
        strlist_push(out, v);
    }
    strlist_clear(&legal);
}

char *bot_choose(const struct game_ops *ops, const void *st, int seat, const struct game_table *t, uint64_t salt)
{
    struct strlist legal = STRLIST_INIT;
    struct rng r;
    char *best = NULL;
    long long best_value = 0;
    int ties = 0;

    if (!ops->evaluate)
        return bot_random(ops, st, seat, t, salt);
    ops->legal(st, seat, t, &legal);
    rng_seed(&r, salt, (uint64_t)seat + 101);
    if (legal.n == 0)
        goto out;
    /* A long list is sampled: a random choice of CANDIDATES orders. */
    rng_shuffle(&r, legal.v, legal.n, sizeof(char *));
    /* Random fillings of the other seats of a simultaneous step, or of
     * what seat cannot see: as many as the budget allows, 3 at least. */
    size_t tried = legal.n < CANDIDATES ? legal.n : CANDIDATES;
    int samples = samples_for(ops, st, seat, tried);
    for (size_t i = 0; i < tried; i++) {
        long long v = try_order(ops, st, seat, t, legal.v[i], samples, &r);
        /* Among equals, each is kept with an equal chance. */
        if (!best || v > best_value) {
            best = legal.v[i];
            best_value = v;
            ties = 1;
        } else if (v == best_value && rng_below(&r, (uint32_t)++ties) == 0) {
            best = legal.v[i];
        }
    }
    best = xstrdup(best);
out:
    strlist_clear(&legal);
    return best;
}
