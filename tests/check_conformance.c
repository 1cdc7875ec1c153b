/* check_conformance.c: the suite every game in the registry must pass: random playouts, legality, round trips, replay, views, secrecy. */
#include "test_support.h"

#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "playout.h"

#include "core/options.h"
#include <sys/stat.h>
#include "lib/paths.h"
#include "render/render.h"

#include "store/db.h"
#include "lib/jsonx.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "core/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAYOUTS 12
/* Every game ends by its own rules (check_termination.c states the bounds);
 * a playout longer than this is a failure, never cut short. */
#define MAX_STEPS 10000
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
    if (ops->clone) {
        /* The bots' copy is the same state as the JSON's. */
        void *copy = ops->clone(st);
        cJSON *c = ops->to_json(copy);
        char *tc = jx_print(c);
        CHECK(strcmp(ta, tc) == 0, "%s: a clone differs from its original", ops->name);
        free(tc);
        cJSON_Delete(c);
        ops->free(copy);
    }
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

/* Every square, card or word a summary of seat's orders offers ("any
 * of: a1 b2 ...") is in one of her legal orders: a summary never offers
 * what the game would refuse. */
static void assert_summary(const struct game_rec *g, int seat, const struct strlist *legal)
{
    struct strbuf out = STRBUF_INIT;
    const char *p;
    options_text(g, seat, NULL, 1, &out);
    for (p = strstr(out.buf, "any of:"); p; p = strstr(p, "any of:")) {
        p += strlen("any of:");
        while (*p && *p != ';' && *p != '\n' && *p != '(') {
            size_t n;
            bool found = false;
            char word[64];
            while (*p == ' ')
                p++;
            n = strcspn(p, " ;\n(");
            if (!n || n >= sizeof(word))
                break;
            memcpy(word, p, n);
            word[n] = '\0';
            p += n;
            if (str_eq(word, "...") || str_eq(word, "or"))
                continue;
            for (size_t i = 0; i < legal->n && !found; i++) {
                const char *q = legal->v[i];
                size_t wl = strlen(word);
                while ((q = strstr(q, word)) != NULL && !found) {
                    found = (q == legal->v[i] || q[-1] == ' ' || q[-1] == '-') &&
                            (!q[wl] || q[wl] == ' ' || q[wl] == '-');
                    q++;
                }
            }
            CHECK(found, "%s: seat %d's summary offers \"%s\", which no legal order has:\n%s", g->ops->name, seat,
                  word, out.buf);
        }
    }
    strbuf_release(&out);
}

/* The contract at every step of a game through the engine (a check of
 * playout.h): the state's JSON round trips, every view is printable and
 * holds no other seat's secret, and the game is over exactly when it
 * waits for nobody. */
static void contract_at_every_step(struct playout *p, unsigned w, int steps, void *arg)
{
    struct game_result res;
    (void)steps;
    (void)arg;
    assert_round_trip(p->ops, p->g->st);
    assert_views(p->db, p->g);
    p->ops->result(p->g->st, &res);
    CHECK(res.finished == (w == 0), "%s: %s", p->what, w ? "not finished but waits for nobody" : "finished but waits");
}

/* Before each seat's order: a seat not waited for has no legal order;
 * one waited for has some, each checks and reads back as itself, garbage
 * and near misses are refused with a reason, and her summary offers
 * nothing the game would refuse. */
static void contract_for_every_seat(struct playout *p, unsigned w, int s, const struct strlist *legal, void *arg)
{
    const struct game_rec *g = p->g;
    const struct game_ops *ops = p->ops;
    (void)arg;
    if (!(w & (1u << s))) {
        CHECK(legal->n == 0, "%s: seat %d has legal orders out of turn", ops->name, s);
        return;
    }
    CHECK(legal->n > 0, "%s: seat %d is waited for but has no legal order", ops->name, s);
    for (size_t k = 0; k < legal->n && k < CHECK_SAMPLE; k++) {
        size_t i = legal->n <= CHECK_SAMPLE ? k : rng_below(p->r, (uint32_t)legal->n);
        struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
        CHECK(ops->check(g->st, s, &g->table, legal->v[i], &canon, &why) == 0, "%s: legal \"%s\" refused: %s",
              ops->name, legal->v[i], why.buf);
        CHECK(strcmp(canon.buf, legal->v[i]) == 0, "%s: legal \"%s\" reads back as \"%s\"", ops->name, legal->v[i],
              canon.buf);
        /* In each language: as LEGAL writes it for her, read back as
         * she would send it, it is the same order. */
        for (size_t l = 1; lang_at(l); l++) {
            char *local = lexicon_local(lang_at(l)->code, "common", ops->name, legal->v[i]);
            char *back = lexicon_english(lang_at(l)->code, "common", ops->name, local);
            strbuf_reset(&canon);
            strbuf_reset(&why);
            CHECK(ops->check(g->st, s, &g->table, back, &canon, &why) == 0 && str_eq(canon.buf, legal->v[i]),
                  "%s: legal \"%s\", written in %s \"%s\", reads back as \"%s\": %s", ops->name, legal->v[i],
                  lang_at(l)->code, local, back, why.len ? why.buf : canon.buf);
            free(local);
            free(back);
        }
        strbuf_release(&canon);
        strbuf_release(&why);
    }
    assert_refusals(ops, g->st, s, &g->table, legal, p->r);
    assert_summary(g, s, legal);
}

/* A game that writes its log as events writes every step's so (no step
 * fell back to English lines alone), their English is the log word for
 * word, and they read in every language. */
static void events_read_in_every_language(sqlite3 *db, const struct game_rec *g, const char *what)
{
    sqlite3_stmt *st = db_stmt(db,
                               "SELECT turn, log, events, private_log, private_events FROM turns WHERE game_id = ? AND"
                               " kind = 'orders'",
                               "I", g->id);
    int with = 0, without = 0, notes = 0, notes_without = 0;
    CHECK(st != NULL, "%s: turns", what);
    while (db_step(st) == SQLITE_ROW) {
        const char *log = (const char *)sqlite3_column_text(st, 1), *events = (const char *)sqlite3_column_text(st, 2);
        cJSON *j, *priv = cJSON_Parse((const char *)sqlite3_column_text(st, 3)), *note;
        cJSON *priv_events = sqlite3_column_text(st, 4) ? cJSON_Parse((const char *)sqlite3_column_text(st, 4)) : NULL;
        /* Each seat's notes: as events, saying all of them, read in
         * every language. */
        cJSON_ArrayForEach(note, priv) {
            const cJSON *ev = cJSON_GetObjectItemCaseSensitive(priv_events, note->string);
            struct strbuf text = STRBUF_INIT;
            if (!ev) {
                notes_without++;
                continue;
            }
            notes++;
            game_events_text(ev, LANG_ENGLISH, &text);
            CHECK(str_eq(text.buf, note->valuestring), "%s step %d: seat %s's note events say\n%s\nand its note\n%s",
                  what, sqlite3_column_int(st, 0), note->string, text.buf, note->valuestring);
            for (size_t l = 1; lang_at(l); l++) {
                strbuf_reset(&text);
                game_events_text(ev, lang_at(l)->code, &text);
                CHECK(text.len > 0, "%s step %d: no %s note", what, sqlite3_column_int(st, 0), lang_at(l)->code);
            }
            strbuf_release(&text);
        }
        cJSON_Delete(priv);
        cJSON_Delete(priv_events);
        if (!events) {
            without++;
            continue;
        }
        with++;
        j = cJSON_Parse(events);
        for (size_t l = 0; lang_at(l); l++) {
            struct strbuf text = STRBUF_INIT;
            game_events_text(j, lang_at(l)->code, &text);
            CHECK(text.len > 0 || !*log, "%s step %d: no %s text", what, sqlite3_column_int(st, 0), lang_at(l)->code);
            if (!l)
                CHECK(str_eq(text.buf, log), "%s step %d: its events say\n%s\nand its log\n%s", what,
                      sqlite3_column_int(st, 0), text.buf, log);
            strbuf_release(&text);
        }
        cJSON_Delete(j);
    }
    db_finalize(st);
    CHECK(!with || !without, "%s: %d steps have events and %d only English lines", what, with, without);
    /* A game that writes events writes its notes so too. */
    CHECK(!notes_without || (!with && !notes), "%s: %d seats' notes are English lines only (%d are events)", what,
          notes_without, notes);
}

/* One game through the engine by random legal orders (playout.c), the
 * contract checked at every step and before every order, then replayed. */
static void playout(const struct game_ops *ops, uint64_t seed)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct rng r;
    struct strbuf report = STRBUF_INIT, what = STRBUF_INIT;
    int nseats = ops->min_seats + (int)(seed % (uint64_t)(ops->max_seats - ops->min_seats + 1));

    rng_seed(&r, seed, 99);
    t_new_game(db, ops->name, nseats, (int64_t)seed, NULL, &g);
    strbuf_addf(&what, "%s, %d seats, seed %llu", ops->name, nseats, (unsigned long long)seed);
    struct playout p = { ops, &g.table, NULL, &r, false, MAX_STEPS - 1, what.buf, db, &g };
    playout_run(&p, contract_at_every_step, contract_for_every_seat, NULL);
    CHECK(engine_replay(db, &g, &report) == 0, "%s seed %llu: %s", ops->name, (unsigned long long)seed,
                  report.buf);
    events_read_in_every_language(db, &g, what.buf);
    strbuf_release(&report);
    strbuf_release(&what);
    game_unload(&g);
    db_close(db);
}

/* A game is its files and one registry row: each registered game is
 * drawn, has its page in docs/games/, and seeds for the fuzz targets of
 * states and orders; its conformance runs come from the registry. */
START_TEST(every_game_has_its_files)
{
    for (size_t i = 0; game_registry[i]; i++) {
        const char *name = game_registry[i]->name;
        char file[96], *path;
        struct stat st;
        CHECK(render_knows(name), "%s has no picture: a row in RENDER_GAMES (src/render/render.h) and its drawing",
              name);
        snprintf(file, sizeof(file), "%s.md", name);
        path = data_path("docs/games", file);
        CHECK(stat(path, &st) == 0, "%s has no page: %s", name, path);
        free(path);
        snprintf(file, sizeof(file), "%s-0.json", name);
        path = data_path("tests/fuzz/corpus/state", file);
        CHECK(stat(path, &st) == 0, "%s has no state for the fuzz target: %s", name, path);
        free(path);
    }
}
END_TEST

START_TEST(random_playouts_obey_the_contract)
{
    const struct game_ops *ops = games_under_test(_i);
    for (uint64_t seed = 1; seed <= (uint64_t)t_sample(PLAYOUTS); seed++)
        playout(ops, seed * 7919);
}
END_TEST

/* The module's own name for where the game is (its view's "phase"), or
 * the core's when it has none. */
static char *phase_name(const struct game_ops *ops, const void *st)
{
    cJSON *v = ops->view_json(st, -1, NULL), *p = cJSON_GetObjectItem(v, "phase");
    char *name = xstrdup(cJSON_IsString(p) ? p->valuestring : game_phase_of(ops, st));
    cJSON_Delete(v);
    return name;
}

/* Seat resigns on a copy of st: the game must go on by the contract (or be
 * over), pass her over, and with play_on still end by its rules. */
static void resign_on_a_copy(const struct game_ops *ops, const void *st, const struct game_table *t, int seat,
                             bool play_on, struct rng *r)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *j = ops->to_json(st);
    void *c = ops->from_json(j, &err);
    struct game_log log;
    struct game_result res;
    int steps = 0;

    CHECK(c != NULL, "%s: %s", ops->name, err.buf);
    game_log_init(&log);
    ops->resign(c, seat, t, &log);
    CHECK(log.pub.len > 0, "%s: a resignation says nothing", ops->name);
    game_log_release(&log);
    for (unsigned w; (w = ops->waiting_for(c)); steps++) {
        const char *orders[GAME_MAX_SEATS] = { NULL };
        struct strlist legal[GAME_MAX_SEATS];
        CHECK(!(w & (1u << seat)), "%s: the game waits for the seat that resigned", ops->name);
        for (int s = 0; s < t->nseats; s++) {
            memset(&legal[s], 0, sizeof(legal[s]));
            ops->legal(c, s, t, &legal[s]);
            if (s == seat)
                CHECK(legal[s].n == 0, "%s: the seat that resigned has legal orders", ops->name);
            if (w & (1u << s)) {
                CHECK(legal[s].n > 0, "%s: after a resignation seat %d is waited for with no legal order", ops->name,
                      s);
                orders[s] = t_pick(&legal[s], r);
            }
        }
        if (!play_on || steps > MAX_STEPS) {
            for (int s = 0; s < t->nseats; s++)
                strlist_clear(&legal[s]);
            CHECK(steps <= MAX_STEPS, "%s: no end after a resignation", ops->name);
            break;
        }
        game_log_init(&log);
        CHECK(ops->advance(c, orders, t, &log) == 0, "%s: advance failed after a resignation", ops->name);
        game_log_release(&log);
        for (int s = 0; s < t->nseats; s++)
            strlist_clear(&legal[s]);
    }
    ops->result(c, &res);
    CHECK(res.finished == (ops->waiting_for(c) == 0), "%s: finished and waiting disagree after a resignation",
          ops->name);
    if (res.finished)
        CHECK(!(res.winners & (1u << seat)) || __builtin_popcount(res.winners) > 1,
              "%s: the seat that resigned wins alone", ops->name);
    ops->free(c);
    cJSON_Delete(j);
    strbuf_release(&err);
}

/* The host (scored, abandoned) or the players (a draw, a concession)
 * end the game on a copy of st: it is over at once, waits for nobody,
 * takes no order, and says how it ended; abandoned, nobody wins; agreed,
 * the agreed seats win, and a copy through JSON says the same. */
static void end_on_a_copy(const struct game_ops *ops, const void *st, const struct game_table *t, enum game_end how)
{
    struct strbuf err = STRBUF_INIT, view = STRBUF_INIT;
    cJSON *j = ops->to_json(st), *j2;
    void *c = ops->from_json(j, &err), *c2;
    struct game_log log;
    struct game_result res, res2;
    /* A draw between the first and last seats; a concession to the last. */
    unsigned agreed = how == GAME_END_DRAWN ? 1u | (1u << (t->nseats - 1)) : 1u << (t->nseats - 1);

    CHECK(c != NULL, "%s: %s", ops->name, err.buf);
    game_log_init(&log);
    ops->end(c, how, game_end_agreed(how) ? agreed : 0, t, &log);
    CHECK(game_end_agreed(how) || log.pub.len > 0, "%s: the host's end says nothing", ops->name);
    ops->result(c, &res);
    CHECK(res.finished && ops->waiting_for(c) == 0, "%s: ended but not over", ops->name);
    CHECK(res.ended == how, "%s: the result does not say how it ended", ops->name);
    CHECK(how != GAME_END_ABANDONED || res.winners == 0, "%s: an abandoned game has winners", ops->name);
    CHECK(!game_end_agreed(how) || (res.winners == agreed && !res.has_scores && !res.tied),
          "%s: an agreed end does not give the agreed winners", ops->name);
    j2 = ops->to_json(c);
    c2 = ops->from_json(j2, &err);
    CHECK(c2 != NULL, "%s: an ended game does not read back: %s", ops->name, err.buf);
    ops->result(c2, &res2);
    CHECK(res2.finished && res2.ended == how && res2.winners == res.winners, "%s: how it ended is lost in JSON",
          ops->name);
    for (int s = 0; s < t->nseats; s++) {
        struct strlist l = STRLIST_INIT;
        ops->legal(c, s, t, &l);
        CHECK(l.n == 0, "%s: seat %d has legal orders in a game that ended", ops->name, s);
        strlist_clear(&l);
    }
    ops->view_ascii(c, -1, t, &view);
    assert_printable(ops->name, view.buf);
    assert_printable(ops->name, log.pub.buf);
    CHECK(!game_end_agreed(how) || !strstr(view.buf, "host"), "%s: a game the players ended says the host did: %s",
          ops->name, view.buf);
    {
        /* Nor does what an observer's JSON says. */
        cJSON *v = ops->view_json(c, -1, t);
        char *text = cJSON_PrintUnformatted(v);
        CHECK(!game_end_agreed(how) || !strstr(text, "host"), "%s: the view of a game the players ended names the host",
              ops->name);
        free(text);
        cJSON_Delete(v);
    }
    game_log_release(&log);
    ops->free(c);
    ops->free(c2);
    cJSON_Delete(j);
    cJSON_Delete(j2);
    strbuf_release(&err);
    strbuf_release(&view);
}

/* The step's part of the test below, a check of playout.h: notes the
 * phase; each seat resigns on a copy, and the four ends are tried on
 * copies. */
struct resigning {
    struct strlist phases;
};

static void resign_at_every_step(struct playout *p, unsigned w, int steps, void *arg)
{
    struct resigning *rs = arg;
    char *phase;
    (void)steps;
    if (!w)
        return;
    phase = phase_name(p->ops, p->st);
    if (!strlist_contains(&rs->phases, phase))
        strlist_push(&rs->phases, phase);
    free(phase);
    for (int s = 0; s < p->t->nseats; s++)
        resign_on_a_copy(p->ops, p->st, p->t, s, rng_below(p->r, 40) == 0, p->r);
    end_on_a_copy(p->ops, p->st, p->t, GAME_END_SCORED);
    end_on_a_copy(p->ops, p->st, p->t, GAME_END_ABANDONED);
    end_on_a_copy(p->ops, p->st, p->t, GAME_END_DRAWN);
    end_on_a_copy(p->ops, p->st, p->t, GAME_END_CONCEDED);
}

/* At every step of a few random games (through playout.c), each seat in
 * turn resigns (on a copy): in every phase of every game the others go
 * on, and now and then the copy is played to its end; the host's END,
 * scored and abandoned, and the players' draw and concession work at
 * every step too. Says which phases it saw. */
START_TEST(resigning_in_every_phase_keeps_the_contract)
{
    const struct game_ops *ops = games_under_test(_i);
    struct resigning rs = { STRLIST_INIT };
    struct strbuf seen = STRBUF_INIT;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        int nseats = ops->min_seats + (int)(seed % (uint64_t)(ops->max_seats - ops->min_seats + 1));
        struct game_table t = { nseats, (const char *const[]){ "Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal" }, NULL };
        struct strbuf err = STRBUF_INIT;
        cJSON *opts = engine_options(ops, NULL, &err);
        struct rng r;
        struct playout p = { ops, &t, ops->setup(opts, nseats, seed * 31, &err), &r, false, MAX_STEPS, ops->name,
                             NULL, NULL };
        CHECK(p.st != NULL, "%s: %s", ops->name, err.buf);
        rng_seed(&r, seed, 5);
        playout_run(&p, resign_at_every_step, NULL, &rs);
        ops->free(p.st);
        cJSON_Delete(opts);
        strbuf_release(&err);
    }
    strlist_sort(&rs.phases);
    for (size_t i = 0; i < rs.phases.n; i++)
        strbuf_addf(&seen, " %s", rs.phases.v[i]);
    fprintf(stderr, "conformance: %s: resigned in every step of the phases%s\n", ops->name, seen.buf);
    strlist_clear(&rs.phases);
    strbuf_release(&seen);
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
    tcase_add_test(tc, every_game_has_its_files);
    tcase_add_loop_test(tc, random_playouts_obey_the_contract, 0, n);
    tcase_add_loop_test(tc, damaged_json_never_crashes_the_loader, 0, n);
    tcase_add_loop_test(tc, resigning_in_every_phase_keeps_the_contract, 0, n);
    suite_add_tcase(s, tc);
    return s;
}
