/* tally.c: a tiny test-only game of simultaneous secret picks, to prove the engine's simultaneous steps. */
#include "tally.h"

#include "lib/jsonx.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "lib/words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Each round every seat secretly picks 1, 2 or 3; picks are revealed at
 * once and added to the seats' totals. After `rounds` rounds the highest
 * total wins. Each seat holds a secret word only it may see. With option
 * last=one the last round allows PICK 1 alone (the core plays it); with
 * last=zero, PICK 0 alone, which each seat still gives herself (it is her
 * word that she is done: keep_choice). With last=balky the last round's
 * only legal order is PICK 7, which the game then refuses: a defective
 * game, for the tests of a game that cannot move on (core/stuck.c).
 */
struct tally {
    int nseats, round, rounds;
    int last; /* 0 free, 1 one, 2 zero, 3 balky */
    int total[GAME_MAX_SEATS];
    unsigned resigned;
    int ended; /* enum game_end */
    unsigned agreed;
    char word[GAME_MAX_SEATS][16];
    struct rng rng;
};

static void *tally_setup(const cJSON *options, int nseats, uint64_t seed, struct strbuf *err)
{
    struct tally *t;
    long long rounds;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(options, "rounds");
    if (!cJSON_IsString(r) || !parse_int(r->valuestring, 1, 50, &rounds)) {
        strbuf_addstr(err, "option rounds must be a number from 1 to 50");
        return NULL;
    }
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(options, "last");
    t = xcalloc(1, sizeof(*t));
    t->nseats = nseats;
    t->rounds = (int)rounds;
    t->last = !cJSON_IsString(l)                ? 0
              : str_eq(l->valuestring, "one")   ? 1
              : str_eq(l->valuestring, "zero")  ? 2
              : str_eq(l->valuestring, "balky") ? 3
                                                : 0;
    rng_seed(&t->rng, seed, 7);
    for (int i = 0; i < nseats; i++)
        snprintf(t->word[i], sizeof(t->word[i]), "zq%08x", rng_next(&t->rng));
    return t;
}

static cJSON *tally_to_json(const void *st)
{
    const struct tally *t = st;
    cJSON *j = cJSON_CreateObject(), *w = cJSON_CreateArray();
    cJSON_AddNumberToObject(j, "nseats", t->nseats);
    cJSON_AddNumberToObject(j, "round", t->round);
    cJSON_AddNumberToObject(j, "rounds", t->rounds);
    cJSON_AddNumberToObject(j, "last", t->last);
    cJSON_AddNumberToObject(j, "resigned", t->resigned);
    cJSON_AddNumberToObject(j, "ended", t->ended);
    cJSON_AddNumberToObject(j, "agreed", t->agreed);
    cJSON_AddItemToObject(j, "total", jx_int_array_new(t->total, (size_t)t->nseats));
    for (int i = 0; i < t->nseats; i++)
        cJSON_AddItemToArray(w, cJSON_CreateString(t->word[i]));
    cJSON_AddItemToObject(j, "words", w);
    cJSON_AddItemToObject(j, "rng", rng_to_json(&t->rng));
    return j;
}

static void *tally_from_json(const cJSON *j, struct strbuf *err)
{
    struct tally *t = xcalloc(1, sizeof(*t));
    int resigned;
    const cJSON *w, *v;
    int i = 0;
    if (jx_int(j, "nseats", 2, GAME_MAX_SEATS, &t->nseats, err) || jx_int(j, "rounds", 1, 50, &t->rounds, err) ||
        jx_int(j, "round", 0, t->rounds, &t->round, err) || jx_int_opt(j, "last", 0, 3, 0, &t->last, err) || jx_int(j, "resigned", 0, 255, &resigned, err) ||
        jx_int_opt(j, "ended", GAME_END_RULES, GAME_END_LAST, GAME_END_RULES, &t->ended, err) ||
        jx_mask_opt(j, "agreed", GAME_MAX_SEATS, &t->agreed, err) ||
        jx_int_array(j, "total", t->total, (size_t)t->nseats, 0, 1000, err) ||
        !(w = jx_array(j, "words", t->nseats, t->nseats, err)) ||
        rng_from_json(&t->rng, cJSON_GetObjectItemCaseSensitive(j, "rng"), err))
        goto fail;
    t->resigned = (unsigned)resigned;
    cJSON_ArrayForEach(v, w) {
        if (!cJSON_IsString(v) || strlen(v->valuestring) >= sizeof(t->word[0])) {
            strbuf_addstr(err, "words must be short strings");
            goto fail;
        }
        strcpy(t->word[i++], v->valuestring);
    }
    return t;
fail:
    free(t);
    return NULL;
}

static const char *tally_phase(const void *st)
{
    (void)st;
    return "play";
}

static unsigned tally_waiting_for(const void *st)
{
    const struct tally *t = st;
    unsigned all = (1u << t->nseats) - 1;
    if (t->ended || t->round >= t->rounds || __builtin_popcount(all & ~t->resigned) < 2)
        return 0;
    return all & ~t->resigned;
}

static int tally_check(const void *st, int seat, const struct game_table *tab, const char *order, struct strbuf *canon,
                       struct strbuf *why)
{
    (void)tab;
    const struct tally *t = st;
    struct words w;
    long long n;
    bool last = t->last && t->round == t->rounds - 1;
    (void)seat;
    words_split(&w, order, NULL);
    if (w.n != 2 || strcmp(w.w[0], "pick") != 0 || !parse_int(w.w[1], last ? t->last % 2 : 1, last ? t->last % 2 : 3, &n)) {
        strbuf_addstr(why, !last ? "write PICK 1, PICK 2 or PICK 3" : t->last % 2 ? "write PICK 1" : "write PICK 0");
        words_release(&w);
        return -1;
    }
    strbuf_addf(canon, "PICK %lld", n);
    words_release(&w);
    return 0;
}

static int tally_advance(void *st, const char *const *orders, const struct game_table *tab, struct game_log *log)
{
    struct tally *t = st;
    unsigned waiting = tally_waiting_for(st);
    strbuf_addf(&log->pub, "Round %d:", t->round + 1);
    for (int i = 0; i < t->nseats; i++) {
        if (!(waiting & (1u << i)))
            continue;
        if (!orders[i] || strncmp(orders[i], "PICK ", 5) != 0)
            return -1;
        int n = atoi(orders[i] + 5);
        t->total[i] += n;
        strbuf_addf(&log->pub, " %s picks %d;", tab->names[i], n);
        strbuf_addf(&log->priv[i], "Your word stays %s.", t->word[i]);
    }
    strbuf_addch(&log->pub, '\n');
    t->round++;
    return 0;
}

static void tally_legal(const void *st, int seat, const struct game_table *tab, struct strlist *out)
{
    const struct tally *t = st;
    (void)tab;
    if (!(tally_waiting_for(st) & (1u << seat)))
        return;
    if (t->last && t->round == t->rounds - 1) {
        strlist_push(out, t->last == 1 ? "PICK 1" : t->last == 3 ? "PICK 7" : "PICK 0");
        return;
    }
    strlist_push(out, "PICK 1");
    strlist_push(out, "PICK 2");
    strlist_push(out, "PICK 3");
}

static bool tally_keep_choice(const void *st, int seat, const char *order)
{
    (void)st;
    (void)seat;
    return strcmp(order, "PICK 0") == 0;
}

static cJSON *tally_view_json(const void *st, int viewer, const struct game_table *tab)
{
    const struct tally *t = st;
    cJSON *j = cJSON_CreateObject();
    (void)tab;
    cJSON_AddNumberToObject(j, "round", t->round);
    cJSON_AddItemToObject(j, "total", jx_int_array_new(t->total, (size_t)t->nseats));
    if (viewer >= 0)
        cJSON_AddStringToObject(j, "word", t->word[viewer]);
    return j;
}

static void tally_view_ascii(const void *st, int viewer, const struct game_table *tab, struct strbuf *out)
{
    const struct tally *t = st;
    strbuf_addf(out, "Round %d of %d\n", t->round + 1, t->rounds);
    for (int i = 0; i < t->nseats; i++)
        strbuf_addf(out, "  %-10s %3d\n", tab->names[i], t->total[i]);
    if (viewer >= 0)
        strbuf_addf(out, "Your word: %s\n", t->word[viewer]);
}

static void tally_result(const void *st, struct game_result *r)
{
    const struct tally *t = st;
    int best = -1;
    memset(r, 0, sizeof(*r));
    r->finished = tally_waiting_for(st) == 0;
    r->ended = (enum game_end)t->ended;
    r->has_scores = true;
    r->score_name = "points";
    for (int i = 0; i < t->nseats; i++) {
        r->scores[i] = t->total[i];
        if (!(t->resigned & (1u << i)) && t->total[i] > best)
            best = t->total[i];
    }
    if (r->finished && t->ended != GAME_END_ABANDONED)
        for (int i = 0; i < t->nseats; i++)
            if (!(t->resigned & (1u << i)) && t->total[i] == best)
                r->winners |= 1u << i;
    game_result_agreed(r, t->ended, t->agreed);
}

static void tally_resign(void *st, int seat, const struct game_table *tab, struct game_log *log)
{
    struct tally *t = st;
    t->resigned |= 1u << seat;
    strbuf_addf(&log->pub, "%s %s.\n", tab->names[seat], GAME_LEAVES(log));
}

static void tally_end(void *st, enum game_end how, unsigned agreed, const struct game_table *tab,
                      struct game_log *log)
{
    struct tally *t = st;
    bool score = how == GAME_END_SCORED;
    (void)tab;
    t->ended = how;
    t->agreed = agreed;
    if (game_end_agreed(how))
        return;
    strbuf_addstr(&log->pub, score ? "The totals stand: the highest wins.\n" : "Abandoned.\n");
}

static void tally_secrets(const void *st, int seat, const struct game_table *tab, struct strlist *out)
{
    (void)tab;
    const struct tally *t = st;
    strlist_push(out, t->word[seat]);
}

const struct game_ops tally_ops = {
    .name = "tally",
    .title = "Tally",
    .summary = "A test game: everyone secretly picks 1 to 3 each round.",
    .min_seats = 2,
    .max_seats = 6,
    .options = (const struct game_option[]){ { "rounds", "3", "how many rounds", 0 },
                                             { "last", "free", "the last round: free, one (PICK 1 only), zero (PICK 0"
                                                               " only, still given), balky (PICK 7, refused)", 0 },
                                             { NULL, NULL, NULL, 0 } },
    .setup = tally_setup,
    .free = free, /* the state is one block */
    .to_json = tally_to_json,
    .from_json = tally_from_json,
    .phase = tally_phase,
    .waiting_for = tally_waiting_for,
    .check = tally_check,
    .advance = tally_advance,
    .legal = tally_legal,
    .keep_choice = tally_keep_choice,
    .view_json = tally_view_json,
    .view_ascii = tally_view_ascii,
    .result = tally_result,
    .resign = tally_resign,
    .end = tally_end,
    .secrets = tally_secrets,
};
