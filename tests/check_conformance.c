/* check_conformance.c: the suite every game in the registry must pass: random playouts, legality, round trips, replay, views, secrecy. */
#include "test_support.h"

#include "store/db.h"
#include "lib/jsonx.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "core/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAYOUTS 12
/* After this many steps the players resign one by one: a game like
 * Bumuntu may wander for ever under random play, and RESIGN is an order
 * of every game. */
#define RESIGN_AFTER 1500
#define MAX_STEPS 3000
/* Legal lists longer than this are checked on a random sample. */
#define CHECK_SAMPLE 200

static const struct game_ops *games_under_test(int i)
{
    /* Every registered game, then the test-only simultaneous game. */
    int n = 0;
    while (game_registry[n])
        n++;
    if (i < n)
        return game_registry[i];
    return i == n ? game_find("tally") : NULL;
}

static void assert_printable(const char *what, const char *text)
{
    int col = 0, line = 1;
    for (const char *p = text; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n') {
            CHECK(col == 0 || p[-1] != ' ', "%s line %d ends with a space", what, line);
            col = 0;
            line++;
            continue;
        }
        CHECK(c >= 0x20 && c < 0x7f, "%s line %d holds byte 0x%02x", what, line, c);
        col++;
        CHECK(col <= 72, "%s line %d is longer than 72 columns", what, line);
    }
}

static void assert_round_trip(const struct game_ops *ops, const void *st)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *a = ops->to_json(st);
    char *ta = jx_print(a);
    void *back = ops->from_json(a, &err);
    CHECK(back != NULL, "%s: its own JSON is refused: %s", ops->name, err.buf);
    cJSON *b = ops->to_json(back);
    char *tb = jx_print(b);
    CHECK(strcmp(ta, tb) == 0, "%s: JSON does not round-trip", ops->name);
    ops->free(back);
    cJSON_Delete(a);
    cJSON_Delete(b);
    free(ta);
    free(tb);
    strbuf_release(&err);
}

static void assert_views(sqlite3 *db, struct game_rec *g)
{
    struct strlist secrets[GAME_MAX_SEATS];
    for (int s = 0; s < g->nseats; s++) {
        memset(&secrets[s], 0, sizeof(secrets[s]));
        if (g->ops->secrets)
            g->ops->secrets(g->st, s, &g->table, &secrets[s]);
    }
    for (int viewer = -1; viewer < g->nseats; viewer++) {
        struct strbuf ascii = STRBUF_INIT;
        cJSON *j = view_json(db, g, viewer);
        char *text = jx_print(j);
        CHECK(view_ascii(db, g, viewer, &ascii) == 0, "view_ascii failed");
        assert_printable(g->ops->name, ascii.buf);
        for (int s = 0; s < g->nseats; s++) {
            if (s == viewer)
                continue;
            for (size_t k = 0; k < secrets[s].n; k++) {
                CHECK(!strstr(text, secrets[s].v[k]), "%s: seat %d's secret %s shows in %d's JSON view",
                              g->ops->name, s, secrets[s].v[k], viewer);
                CHECK(!strstr(ascii.buf, secrets[s].v[k]), "%s: seat %d's secret %s shows in %d's board",
                              g->ops->name, s, secrets[s].v[k], viewer);
            }
        }
        free(text);
        cJSON_Delete(j);
        strbuf_release(&ascii);
    }
    for (int s = 0; s < g->nseats; s++)
        strlist_clear(&secrets[s]);
}

/* Garbage and near misses: refused with a reason, or (a near miss that
 * happens to be legal) read as one of the legal orders. */
static void assert_refusals(const struct game_ops *ops, const void *st, int seat, const struct game_table *t,
                            const struct strlist *legal, struct rng *r)
{
    static const char *const garbage[] = {
        "", "?", "MOVE", "MOVE MOVE MOVE", "PLACE", "xyzzy", "DROP TABLE games;", "\x01\x02\xff", "0", "-1",
        "PICK 99999999999999999999", "a1 a1 a1 a1 a1 a1 a1 a1 a1 a1 a1 a1", "\xc3\xa9t\xc3\xa9",
    };
    struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
    for (size_t i = 0; i < ARRAY_SIZE(garbage); i++) {
        strbuf_reset(&canon);
        strbuf_reset(&why);
        if (ops->check(st, seat, t, garbage[i], &canon, &why) == 0)
            CHECK(strlist_contains(legal, canon.buf), "%s: garbage \"%s\" accepted as \"%s\"", ops->name,
                          garbage[i], canon.buf);
        else
            CHECK(why.len > 0, "%s: \"%s\" refused without a reason", ops->name, garbage[i]);
    }
    for (int k = 0; k < 8 && legal->n; k++) {
        struct strbuf m = STRBUF_INIT;
        const char *base = legal->v[rng_below(r, (uint32_t)legal->n)];
        size_t len = strlen(base);
        strbuf_addstr(&m, base);
        switch (rng_below(r, 4)) {
        case 0: /* change one character */
            m.buf[rng_below(r, (uint32_t)len)] = "az09 -Z"[rng_below(r, 7)];
            break;
        case 1: /* cut the end */
            strbuf_setlen(&m, rng_below(r, (uint32_t)len));
            break;
        case 2: /* one word too many */
            strbuf_addstr(&m, " extra");
            break;
        default: /* a digit pushed out of range */
            strbuf_addstr(&m, "9");
            break;
        }
        strbuf_reset(&canon);
        strbuf_reset(&why);
        if (ops->check(st, seat, t, m.buf, &canon, &why) == 0)
            CHECK(strlist_contains(legal, canon.buf), "%s: near miss \"%s\" accepted as \"%s\", not legal",
                          ops->name, m.buf, canon.buf);
        else
            CHECK(why.len > 0, "%s: \"%s\" refused without a reason", ops->name, m.buf);
        strbuf_release(&m);
    }
    strbuf_release(&canon);
    strbuf_release(&why);
}

/* A random legal order: first a random verb (the first word), then a
 * random order of that verb, so that a verb with many variants (a food
 * path, a tile move) does not crowd out the rest. */
static const char *pick(const struct strlist *legal, struct rng *r)
{
    struct strlist verbs = STRLIST_INIT;
    const char *chosen = NULL;
    for (size_t i = 0; i < legal->n; i++) {
        size_t n = strcspn(legal->v[i], " ");
        char *verb = xstrndup(legal->v[i], n);
        if (!strlist_contains(&verbs, verb))
            strlist_push(&verbs, verb);
        free(verb);
    }
    const char *verb = verbs.v[rng_below(r, (uint32_t)verbs.n)];
    size_t vlen = strlen(verb), count = 0, k;
    for (size_t i = 0; i < legal->n; i++)
        count += strncmp(legal->v[i], verb, vlen) == 0 && (legal->v[i][vlen] == ' ' || !legal->v[i][vlen]);
    k = rng_below(r, (uint32_t)count);
    for (size_t i = 0; i < legal->n && !chosen; i++)
        if (strncmp(legal->v[i], verb, vlen) == 0 && (legal->v[i][vlen] == ' ' || !legal->v[i][vlen]) && k-- == 0)
            chosen = legal->v[i];
    strlist_clear(&verbs);
    return chosen;
}

static void playout(const struct game_ops *ops, uint64_t seed)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct rng r;
    struct strbuf report = STRBUF_INIT;
    int steps = 0, nseats = ops->min_seats + (int)(seed % (uint64_t)(ops->max_seats - ops->min_seats + 1));

    rng_seed(&r, seed, 99);
    t_new_game(db, ops->name, nseats, (int64_t)seed, NULL, &g);
    for (;;) {
        struct game_result res;
        unsigned waiting = ops->waiting_for(g.st);
        assert_round_trip(ops, g.st);
        assert_views(db, &g);
        ops->result(g.st, &res);
        if (res.finished) {
            CHECK(waiting == 0, "%s: finished but waits", ops->name);
            break;
        }
        CHECK(waiting != 0, "%s: not finished but waits for nobody", ops->name);
        CHECK(++steps < MAX_STEPS, "%s: seed %llu does not end", ops->name, (unsigned long long)seed);
        for (int s = 0; s < nseats; s++) {
            struct strlist legal = STRLIST_INIT;
            ops->legal(g.st, s, &g.table, &legal);
            if (!(waiting & (1u << s))) {
                CHECK(legal.n == 0, "%s: seat %d has legal orders out of turn", ops->name, s);
                continue;
            }
            CHECK(legal.n > 0, "%s: seat %d is waited for but has no legal order", ops->name, s);
            for (size_t k = 0; k < legal.n && k < CHECK_SAMPLE; k++) {
                size_t i = legal.n <= CHECK_SAMPLE ? k : rng_below(&r, (uint32_t)legal.n);
                struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
                CHECK(ops->check(g.st, s, &g.table, legal.v[i], &canon, &why) == 0, "%s: legal \"%s\" refused: %s",
                              ops->name, legal.v[i], why.buf);
                CHECK(strcmp(canon.buf, legal.v[i]) == 0, "%s: legal \"%s\" reads back as \"%s\"",
                              ops->name, legal.v[i], canon.buf);
                strbuf_release(&canon);
                strbuf_release(&why);
            }
            assert_refusals(ops, g.st, s, &g.table, &legal, &r);
            t_ok(db, &g, s, steps > RESIGN_AFTER ? "RESIGN" : pick(&legal, &r));
            strlist_clear(&legal);
            if (ops->waiting_for(g.st) != waiting)
                break; /* the step resolved: the next one starts over */
        }
    }
    CHECK(engine_replay(db, &g, &report) == 0, "%s seed %llu: %s", ops->name, (unsigned long long)seed,
                  report.buf);
    strbuf_release(&report);
    game_unload(&g);
    db_close(db);
}

START_TEST(random_playouts_obey_the_contract)
{
    const struct game_ops *ops = games_under_test(_i);
    for (uint64_t seed = 1; seed <= PLAYOUTS; seed++)
        playout(ops, seed * 7919);
}
END_TEST

START_TEST(damaged_json_never_crashes_the_loader)
{
    const struct game_ops *ops = games_under_test(_i);
    struct strbuf err = STRBUF_INIT;
    void *st = ops->setup(NULL, ops->min_seats, 5, &err);
    cJSON *opts = NULL;
    if (!st) {
        /* A game whose options are required gets its defaults. */
        opts = engine_options(ops, NULL, &err);
        st = ops->setup(opts, ops->min_seats, 5, &err);
    }
    CHECK(st != NULL, "%s setup: %s", ops->name, err.buf);
    cJSON *good = ops->to_json(st);
    struct rng r;
    rng_seed(&r, 3, 3);
    /* Remove each key in turn, then replace each value with wrong types. */
    cJSON *key;
    cJSON_ArrayForEach(key, good) {
        static const char *const wrong[] = { "null", "\"x\"", "-1", "1e300", "[]", "{}", "true", "99999" };
        for (size_t w = 0; w <= ARRAY_SIZE(wrong); w++) {
            cJSON *copy = cJSON_Duplicate(good, 1);
            if (w == ARRAY_SIZE(wrong))
                cJSON_DeleteItemFromObjectCaseSensitive(copy, key->string);
            else
                cJSON_ReplaceItemInObjectCaseSensitive(copy, key->string, cJSON_Parse(wrong[w]));
            strbuf_reset(&err);
            void *back = ops->from_json(copy, &err);
            if (back) {
                /* Accepted: it must then work as a state. */
                struct strlist l = STRLIST_INIT;
                for (int s = 0; s < ops->min_seats; s++)
                    ops->legal(back, s, NULL, &l);
                strlist_clear(&l);
                ops->free(back);
            } else {
                CHECK(err.len > 0, "%s: refused without a reason", ops->name);
            }
            cJSON_Delete(copy);
        }
    }
    cJSON_Delete(good);
    cJSON_Delete(opts);
    ops->free(st);
    strbuf_release(&err);
}
END_TEST

Suite *conformance_suite(void)
{
    Suite *s = suite_create("conformance");
    TCase *tc = tcase_create("conformance");
    int n = 0;
    while (games_under_test(n))
        n++;
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, random_playouts_obey_the_contract, 0, n);
    tcase_add_loop_test(tc, damaged_json_never_crashes_the_loader, 0, n);
    suite_add_tcase(s, tc);
    return s;
}
