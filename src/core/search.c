/* search.c: the strong bot: information-set Monte Carlo tree search (single observer, max^n) within a budget of time and iterations. */
#include "core/search.h"
#include "core/bot.h"
#include "lib/rng.h"
#include "lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PLAYOUT_CANDIDATES 3 /* orders a playout step weighs by evaluate() */
#define PLAYOUT_RANDOM 8     /* in 100: a playout step that plays at random */
#define NO_NODE UINT32_MAX

/* One order of one seat at a node: how often it was chosen, how often it
 * was there to choose (determinizations differ), and its value summed. */
struct arm {
    uint32_t order; /* interned */
    uint32_t visits;
    uint32_t avail;
    float total;
};

/* The choice of one seat at a node. */
struct decision {
    int seat;
    uint32_t narms, cap;
    struct arm *arms;
};

struct child {
    uint64_t key; /* the orders the seats chose, hashed */
    uint32_t node;
};

struct node {
    int ndec;
    struct decision *dec;
    uint32_t nkids, cap;
    struct child *kids;
};

/* Every order text the tree names, once. */
struct interned {
    char **text;
    uint32_t n, cap;
    uint64_t *hash;   /* open addressing: hash in the slot's high bits, id + 1 low */
    uint32_t slots;   /* a power of two */
};

struct tree {
    const struct game_ops *ops;
    const struct game_table *t;
    const struct search_budget *b;
    struct rng r;
    struct node *nodes;
    uint32_t nnodes, cap;
    struct interned in;
    size_t bytes;
    double scale; /* the evaluation's spread, learned as the playouts go */
    double spread_sum;
    long spread_n;
};

static uint64_t hash_text(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static uint32_t intern(struct tree *tr, const char *s)
{
    struct interned *in = &tr->in;
    uint64_t h = hash_text(s), tag = h & ~0xffffffffULL;
    if ((in->n + 1) * 2 > in->slots) {
        uint32_t slots = in->slots ? in->slots * 2 : 1024;
        uint64_t *grown = xcalloc(slots, sizeof(uint64_t));
        for (uint32_t i = 0; i < in->slots; i++)
            if (in->hash[i]) {
                uint32_t id = (uint32_t)(in->hash[i] & 0xffffffffULL) - 1;
                uint32_t j = (uint32_t)hash_text(in->text[id]) & (slots - 1);
                while (grown[j])
                    j = (j + 1) & (slots - 1);
                grown[j] = in->hash[i];
            }
        tr->bytes += (size_t)(slots - in->slots) * sizeof(uint64_t);
        free(in->hash);
        in->hash = grown;
        in->slots = slots;
    }
    uint32_t j = (uint32_t)h & (in->slots - 1);
    for (; in->hash[j]; j = (j + 1) & (in->slots - 1)) {
        uint32_t id = (uint32_t)(in->hash[j] & 0xffffffffULL) - 1;
        if ((in->hash[j] & ~0xffffffffULL) == tag && str_eq(in->text[id], s))
            return id;
    }
    if (in->n == in->cap) {
        in->cap = in->cap ? in->cap * 2 : 256;
        in->text = xrealloc(in->text, in->cap * sizeof(char *));
    }
    in->text[in->n] = xstrdup(s);
    tr->bytes += strlen(s) + 1 + sizeof(char *);
    in->hash[j] = tag | (uint64_t)(in->n + 1);
    return in->n++;
}

static uint32_t node_new(struct tree *tr)
{
    if (tr->bytes > tr->b->max_bytes)
        return NO_NODE;
    if (tr->nnodes == tr->cap) {
        tr->cap = tr->cap ? tr->cap * 2 : 256;
        tr->nodes = xrealloc(tr->nodes, tr->cap * sizeof(struct node));
        tr->bytes += tr->cap / 2 * sizeof(struct node);
    }
    memset(&tr->nodes[tr->nnodes], 0, sizeof(struct node));
    return tr->nnodes++;
}

static struct decision *decision_of(struct tree *tr, struct node *n, int seat)
{
    for (int i = 0; i < n->ndec; i++)
        if (n->dec[i].seat == seat)
            return &n->dec[i];
    n->dec = xrealloc(n->dec, (size_t)(n->ndec + 1) * sizeof(struct decision));
    tr->bytes += sizeof(struct decision);
    memset(&n->dec[n->ndec], 0, sizeof(struct decision));
    n->dec[n->ndec].seat = seat;
    return &n->dec[n->ndec++];
}

/* The arm of order at d; hint: where the last visit found it. */
static uint32_t arm_of(struct tree *tr, struct decision *d, uint32_t order, uint32_t hint)
{
    if (hint < d->narms && d->arms[hint].order == order)
        return hint;
    for (uint32_t i = 0; i < d->narms; i++)
        if (d->arms[i].order == order)
            return i;
    if (d->narms == d->cap) {
        uint32_t cap = d->cap ? d->cap * 2 : 8;
        d->arms = xrealloc(d->arms, cap * sizeof(struct arm));
        tr->bytes += (cap - d->cap) * sizeof(struct arm);
        d->cap = cap;
    }
    d->arms[d->narms] = (struct arm){ order, 0, 0, 0 };
    return d->narms++;
}

/* The searching thread's CPU time: a move is as strong on a busy host as
 * on a quiet one. */
static double cpu_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
        return monotonic_ms();
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* What each seat is worth where a simulation stopped, in [0, 1]: a
 * finished game pays its winners; else the evaluation against the best
 * of the others, through a logistic on the spread seen so far. */
static void values_of(struct tree *tr, const void *st, double v[GAME_MAX_SEATS])
{
    const struct game_ops *ops = tr->ops;
    int n = tr->t->nseats;
    if (!ops->waiting_for(st)) {
        struct game_result res;
        int k = 0;
        memset(&res, 0, sizeof(res));
        ops->result(st, &res);
        for (int s = 0; s < n; s++)
            k += (res.winners >> s) & 1u;
        for (int s = 0; s < n; s++)
            v[s] = k ? ((res.winners >> s) & 1u) / (double)k : 1.0 / n;
        return;
    }
    if (!ops->evaluate) {
        for (int s = 0; s < n; s++)
            v[s] = 0.5;
        return;
    }
    double e[GAME_MAX_SEATS];
    for (int s = 0; s < n; s++)
        e[s] = (double)ops->evaluate(st, s);
    for (int s = 0; s < n; s++) {
        double best = -INFINITY;
        for (int o = 0; o < n; o++)
            if (o != s && e[o] > best)
                best = e[o];
        double d = e[s] - best;
        tr->spread_sum += fabs(d);
        tr->spread_n++;
        v[s] = d;
    }
    tr->scale = tr->spread_sum / (double)tr->spread_n;
    if (tr->scale < 1)
        tr->scale = 1;
    for (int s = 0; s < n; s++)
        v[s] = 1.0 / (1.0 + exp(-v[s] / tr->scale));
}

/* A playout's order for seat: of a few random legal ones, the one
 * evaluate() likes best one step on (the other seats of the step at
 * random); now and then one at random. */
static char *playout_order(struct tree *tr, const void *st, int seat, unsigned waiting)
{
    const struct game_ops *ops = tr->ops;
    struct strlist legal = STRLIST_INIT;
    char *pick = NULL;
    ops->legal(st, seat, tr->t, &legal);
    if (!legal.n)
        return NULL;
    if (legal.n == 1 || !ops->evaluate || rng_below(&tr->r, 100) < PLAYOUT_RANDOM) {
        pick = xstrdup(legal.v[rng_below(&tr->r, (uint32_t)legal.n)]);
        strlist_clear(&legal);
        return pick;
    }
    long long best = 0;
    for (int k = 0; k < PLAYOUT_CANDIDATES; k++) {
        const char *cand = legal.v[rng_below(&tr->r, (uint32_t)legal.n)];
        const char *orders[GAME_MAX_SEATS] = { NULL };
        char *filled[GAME_MAX_SEATS] = { NULL };
        struct game_log log;
        void *c = bot_copy_state(ops, st);
        if (!c)
            break;
        orders[seat] = cand;
        for (int s = 0; s < tr->t->nseats; s++)
            if (s != seat && (waiting & (1u << s)))
                orders[s] = filled[s] = bot_random(ops, c, s, tr->t, rng_next(&tr->r));
        game_log_init_quiet(&log);
        if (ops->advance(c, orders, tr->t, &log) == 0) {
            long long v = ops->evaluate(c, seat);
            if (!pick || v > best) {
                free(pick);
                pick = xstrdup(cand);
                best = v;
            }
        }
        game_log_release(&log);
        ops->free(c);
        for (int s = 0; s < tr->t->nseats; s++)
            free(filled[s]);
    }
    if (!pick)
        pick = xstrdup(legal.v[0]);
    strlist_clear(&legal);
    return pick;
}

/* Plays on from st for depth steps at most (st is changed). */
static void playout(struct tree *tr, void *st)
{
    const struct game_ops *ops = tr->ops;
    int depth = tr->b->depth >= 0 ? tr->b->depth : ops->search_depth_set ? ops->search_depth : SEARCH_DEPTH_DEFAULT;
    for (int step = 0; step < depth; step++) {
        unsigned waiting = ops->waiting_for(st);
        char *chosen[GAME_MAX_SEATS] = { NULL };
        const char *orders[GAME_MAX_SEATS] = { NULL };
        struct game_log log;
        bool ok = waiting != 0;
        for (int s = 0; s < tr->t->nseats && ok; s++)
            if (waiting & (1u << s))
                ok = (orders[s] = chosen[s] = playout_order(tr, st, s, waiting)) != NULL;
        game_log_init_quiet(&log);
        ok = ok && ops->advance(st, orders, tr->t, &log) == 0;
        game_log_release(&log);
        for (int s = 0; s < tr->t->nseats; s++)
            free(chosen[s]);
        if (!ok)
            break;
    }
}

/* One step of a simulation: where it went in the tree. */
struct visit {
    uint32_t node;
    int dec;
    uint32_t arm;
};

/* Chooses seat's order at node n: an order never tried there first, else
 * UCB1 with availability (the count of visits it was legal in). */
static uint32_t select_arm(struct tree *tr, struct decision *d, const struct strlist *legal, uint32_t *ids)
{
    uint32_t pick = UINT32_MAX, untried = 0;
    double best = -INFINITY;
    for (size_t i = 0; i < legal->n; i++) {
        uint32_t a = arm_of(tr, d, intern(tr, legal->v[i]), (uint32_t)i);
        ids[i] = a;
        d->arms[a].avail++;
        if (d->arms[a].visits == 0 && rng_below(&tr->r, ++untried) == 0)
            pick = a;
    }
    if (untried)
        return pick;
    for (size_t i = 0; i < legal->n; i++) {
        const struct arm *a = &d->arms[ids[i]];
        double u = a->total / a->visits + tr->b->uct_c * sqrt(log((double)a->avail) / a->visits);
        if (u > best) {
            best = u;
            pick = ids[i];
        }
    }
    return pick;
}

/* One simulation from a determinization of the root. */
static void simulate(struct tree *tr, const void *root, int seat, bool hidden, struct visit **path, size_t *cap)
{
    const struct game_ops *ops = tr->ops;
    void *st = bot_copy_state(ops, root);
    uint32_t node = 0, ids_cap = 0, *ids = NULL;
    size_t depth = 0;
    double v[GAME_MAX_SEATS];
    if (!st)
        return;
    if (hidden)
        ops->determinize(st, seat, ((uint64_t)rng_next(&tr->r) << 32) | rng_next(&tr->r));
    while (node != NO_NODE) {
        unsigned waiting = ops->waiting_for(st);
        const char *orders[GAME_MAX_SEATS] = { NULL };
        uint64_t key = 1469598103934665603ULL;
        struct game_log log;
        bool ok = waiting != 0;
        for (int s = 0; s < tr->t->nseats && ok; s++) {
            struct strlist legal = STRLIST_INIT;
            if (!(waiting & (1u << s)))
                continue;
            ops->legal(st, s, tr->t, &legal);
            if (!legal.n) {
                ok = false;
                break;
            }
            if (legal.n > ids_cap) {
                ids_cap = (uint32_t)legal.n;
                ids = xrealloc(ids, ids_cap * sizeof(uint32_t));
            }
            /* The nodes may have moved: every pointer is taken afresh. */
            struct node *n = &tr->nodes[node];
            struct decision *d = decision_of(tr, n, s);
            uint32_t a = select_arm(tr, d, &legal, ids);
            uint32_t order = d->arms[a].order;
            if (depth == *cap) {
                *cap = *cap ? *cap * 2 : 32;
                *path = xrealloc(*path, *cap * sizeof(struct visit));
            }
            (*path)[depth++] = (struct visit){ node, (int)(d - n->dec), a };
            orders[s] = tr->in.text[order];
            key = (key ^ ((uint64_t)s << 32 | order)) * 1099511628211ULL;
            strlist_clear(&legal);
        }
        if (!ok)
            break;
        game_log_init_quiet(&log);
        ok = ops->advance(st, orders, tr->t, &log) == 0;
        game_log_release(&log);
        if (!ok)
            break;
        /* Down to the child of these orders; a new one ends the descent. */
        struct node *n = &tr->nodes[node];
        uint32_t next = NO_NODE;
        for (uint32_t i = 0; i < n->nkids; i++)
            if (n->kids[i].key == key) {
                next = n->kids[i].node;
                break;
            }
        if (next != NO_NODE) {
            node = next;
            continue;
        }
        next = node_new(tr);
        if (next != NO_NODE) {
            n = &tr->nodes[node];
            if (n->nkids == n->cap) {
                n->cap = n->cap ? n->cap * 2 : 4;
                n->kids = xrealloc(n->kids, n->cap * sizeof(struct child));
                tr->bytes += n->cap / 2 * sizeof(struct child);
            }
            n->kids[n->nkids++] = (struct child){ key, next };
        }
        break;
    }
    playout(tr, st);
    values_of(tr, st, v);
    /* max^n: each seat's choices are scored by that seat's value. */
    for (size_t i = 0; i < depth; i++) {
        struct decision *d = &tr->nodes[(*path)[i].node].dec[(*path)[i].dec];
        struct arm *a = &d->arms[(*path)[i].arm];
        a->visits++;
        a->total += (float)v[d->seat];
    }
    free(ids);
    ops->free(st);
}

static void tree_free(struct tree *tr)
{
    for (uint32_t i = 0; i < tr->nnodes; i++) {
        for (int d = 0; d < tr->nodes[i].ndec; d++)
            free(tr->nodes[i].dec[d].arms);
        free(tr->nodes[i].dec);
        free(tr->nodes[i].kids);
    }
    free(tr->nodes);
    for (uint32_t i = 0; i < tr->in.n; i++)
        free(tr->in.text[i]);
    free(tr->in.text);
    free(tr->in.hash);
}

static bool losing_order(const struct strlist *legal, const unsigned char *losing, const char *order)
{
    for (size_t i = 0; i < legal->n; i++)
        if (losing[i] && str_eq(legal->v[i], order))
            return true;
    return false;
}

/* What one order of actor does at once, on a copy of st: true when the
 * game ends, its winners in *winners; else *after (owned, NULL when the
 * order could not be played) is the state after it. */
static bool ends(const struct game_ops *ops, const void *st, int actor, const struct game_table *t, const char *order,
                 unsigned *winners, void **after)
{
    const char *orders[GAME_MAX_SEATS] = { NULL };
    void *c = bot_copy_state(ops, st);
    struct game_log log;
    struct game_result r;
    int rc;
    *after = NULL;
    *winners = 0;
    orders[actor] = order;
    game_log_init_quiet(&log);
    rc = ops->advance(c, orders, t, &log);
    game_log_release(&log);
    if (rc) {
        ops->free(c);
        return false;
    }
    memset(&r, 0, sizeof(r));
    ops->result(c, &r);
    if (!r.finished) {
        *after = c;
        return false;
    }
    *winners = r.winners;
    ops->free(c);
    return true;
}

#define LOOKAHEAD_MAX 4000 /* replies weighed before the search, at most */

/*
 * Before any search, a step seat takes alone: an order that ends the game
 * with her among the winners is played (a game's last move is never
 * left for later); and, in a game that hides nothing, the orders after
 * which the one seat to act next has an order that ends it with her out
 * are marked in *losing (bit i: legal order i), when some order is not
 * so. A game that hides anything is looked at from a determinization of
 * seat's view, so the bot knows no more than its seat. NULL: no win now.
 */
static char *win_now(const struct game_ops *ops, const void *st, int seat, const struct game_table *t, uint64_t salt,
                     const struct strlist *legal, unsigned char *losing)
{
    void *base;
    char *win = NULL;
    size_t weighed = 0;
    bool some_safe = false;
    if (ops->waiting_for(st) != (1u << seat))
        return NULL;
    base = bot_copy_state(ops, st);
    if (ops->determinize)
        ops->determinize(base, seat, salt ^ 0x77696e6e6f77ULL);
    for (size_t i = 0; i < legal->n && !win; i++) {
        void *after;
        unsigned winners;
        if (ends(ops, base, seat, t, legal->v[i], &winners, &after)) {
            if ((winners >> seat) & 1u)
                win = xstrdup(legal->v[i]);
            else
                losing[i] = 1;
        }
        if (after) {
            unsigned next = ops->waiting_for(after);
            if (!ops->determinize && next && !(next & (next - 1)) && next != (1u << seat)) {
                /* One opponent acts next: can she end it, without us? */
                int opp = __builtin_ctz(next);
                struct strlist replies = STRLIST_INIT;
                ops->legal(after, opp, t, &replies);
                for (size_t k = 0; k < replies.n && weighed < LOOKAHEAD_MAX && !losing[i]; k++, weighed++) {
                    void *again;
                    if (ends(ops, after, opp, t, replies.v[k], &winners, &again) && !((winners >> seat) & 1u))
                        losing[i] = 1;
                    if (again)
                        ops->free(again);
                }
                strlist_clear(&replies);
            }
            ops->free(after);
        }
        some_safe |= !losing[i];
    }
    if (!some_safe)
        memset(losing, 0, legal->n);
    ops->free(base);
    return win;
}

char *search_choose(const struct game_ops *ops, const void *st, int seat, const struct game_table *t, uint64_t salt,
                    const struct search_budget *b, struct search_stats *out)
{
    struct strlist legal = STRLIST_INIT;
    struct tree tr;
    struct visit *path = NULL;
    size_t path_cap = 0;
    double start = monotonic_ms(), cpu_start = cpu_ms();
    char *pick = NULL;
    unsigned char *losing;
    bool hidden = ops->determinize != NULL;

    if (out)
        memset(out, 0, sizeof(*out));
    ops->legal(st, seat, t, &legal);
    if (legal.n <= 1 || (b->ms <= 0 && b->iterations <= 0)) {
        pick = legal.n ? xstrdup(legal.v[0]) : NULL;
        strlist_clear(&legal);
        return pick;
    }
    losing = xcalloc(legal.n, 1);
    if ((pick = win_now(ops, st, seat, t, salt, &legal, losing))) {
        strlist_clear(&legal);
        free(losing);
        return pick;
    }
    memset(&tr, 0, sizeof(tr));
    tr.ops = ops;
    tr.t = t;
    tr.b = b;
    tr.scale = 1;
    rng_seed(&tr.r, salt, (uint64_t)seat + 0x5ea7c4);
    node_new(&tr);
    int it = 0;
    for (;;) {
        if (b->iterations > 0 && it >= b->iterations)
            break;
        /* The budget is CPU time; the wall clock caps it at a few times
         * that, so a starved host still gets its move. */
        if (b->ms > 0 && (cpu_ms() - cpu_start >= b->ms || monotonic_ms() - start >= SEARCH_WALL_FACTOR * b->ms))
            break;
        simulate(&tr, st, seat, hidden, &path, &path_cap);
        it++;
    }
    /* The root's most visited order of seat (its best value among equals). */
    struct node *root = &tr.nodes[0];
    for (int i = 0; i < root->ndec; i++) {
        const struct decision *d = &root->dec[i];
        const struct arm *best = NULL;
        if (d->seat != seat)
            continue;
        for (uint32_t k = 0; k < d->narms; k++) {
            const struct arm *a = &d->arms[k];
            if (losing_order(&legal, losing, tr.in.text[a->order]))
                continue; /* the one to act next would end it, without us */
            if (!best || a->visits > best->visits ||
                (a->visits == best->visits && a->visits && a->total / a->visits > best->total / best->visits))
                best = a;
        }
        if (best)
            pick = xstrdup(tr.in.text[best->order]);
    }
    if (!pick) {
        /* Every order the search tried lets the next seat end it (or it
         * tried none): one it did not try that does not, if any. */
        size_t safe = 0;
        for (size_t i = 0; i < legal.n; i++)
            safe += !losing[i];
        if (safe && safe < legal.n) {
            size_t k = (size_t)(salt % safe);
            for (size_t i = 0; i < legal.n && !pick; i++)
                if (!losing[i] && k-- == 0)
                    pick = xstrdup(legal.v[i]);
        }
    }
    strlist_clear(&legal);
    free(losing);
    if (out) {
        out->iterations = it;
        out->nodes = (int)tr.nnodes;
        out->bytes = tr.bytes;
        out->ms = monotonic_ms() - start;
        out->cpu_ms = cpu_ms() - cpu_start;
    }
    free(path);
    tree_free(&tr);
    /* A search that could not run (no iteration) plays like the easy bot. */
    return pick ? pick : bot_choose(ops, st, seat, t, salt);
}
