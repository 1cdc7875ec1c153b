/* verify.c: a game's public record (export) and the check anyone can run on it: the commitment, the salts, and every step replayed from the seed. */
#include "core/verify.h"
#include "lib/catalog.h"
#include "core/engine.h"
#include "core/seed.h"
#include "store/db.h"
#include "lib/jsonx.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_FORMAT "ngoma public record 1"

/* Who held each seat, in the order the holdings began: a record names a
 * seat at each step by its holder then (an anonymous game by its title,
 * which never changes hands). */
struct holding {
    int seat;
    int64_t turns_after; /* -1: bounded by from_step */
    int from_step;
    char *name;
};

static int holdings_of(sqlite3 *db, const struct game_rec *g, struct holding **out, size_t *n)
{
    size_t cap = 0;
    int rc;
    sqlite3_stmt *q;
    *out = NULL;
    *n = 0;
    if (str_eq(engine_core_option(g->options, "anonymous"), "yes"))
        return 0;
    q = db_stmt(db, "SELECT seat, coalesce(turns_after, -1), from_step, name FROM seat_holders WHERE game_id = ?"
                    " ORDER BY id",
                "I", g->id);
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            *out = xrealloc(*out, cap * sizeof(**out));
        }
        (*out)[*n].seat = sqlite3_column_int(q, 0) - 1;
        (*out)[*n].turns_after = sqlite3_column_int64(q, 1);
        (*out)[*n].from_step = sqlite3_column_int(q, 2);
        (*out)[*n].name = xstrdup((const char *)sqlite3_column_text(q, 3));
        (*n)++;
    }
    db_finalize(q);
    return rc < 0 ? -1 : 0;
}

static void holdings_free(struct holding *h, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(h[i].name);
    free(h);
}

/* The names of the seats at the turn row id (step turn): each seat's
 * latest holding begun before it, else its first. */
static void names_at(const struct game_rec *g, const struct holding *h, size_t n, int64_t id, int turn,
                     const char *names[])
{
    for (int s = 0; s < g->nseats; s++)
        names[s] = g->names[s];
    for (int s = 0; s < g->nseats; s++) {
        const char *first = NULL, *latest = NULL;
        for (size_t i = 0; i < n; i++) {
            if (h[i].seat != s)
                continue;
            if (!first)
                first = h[i].name;
            if (h[i].turns_after >= 0 ? h[i].turns_after < id : h[i].from_step < turn)
                latest = h[i].name;
        }
        if (latest || first)
            names[s] = latest ? latest : first;
    }
}

cJSON *verify_export(sqlite3 *db, const struct game_rec *g, bool reveal)
{
    cJSON *r = cJSON_CreateObject(), *players = cJSON_CreateArray(), *turns = cJSON_CreateArray();
    char *options = NULL;
    struct holding *held = NULL;
    size_t nheld = 0;
    const char *shown[GAME_MAX_SEATS];
    sqlite3_stmt *st;
    int rc;

    if (db_get_text(db, &options, "SELECT options FROM games WHERE id = ?", "I", g->id) <= 0)
        goto fail;
    cJSON_AddStringToObject(r, "format", RECORD_FORMAT);
    cJSON_AddNumberToObject(r, "game", (double)g->id);
    cJSON_AddStringToObject(r, "module", g->ops->name);
    cJSON_AddStringToObject(r, "options", options); /* as stored: the commitment hashes this text */
    if (holdings_of(db, g, &held, &nheld))
        goto fail;
    /* The names as dealt: each seat's first holder's. */
    names_at(g, held, nheld, 0, 0, shown);
    for (int i = 0; i < g->nseats; i++)
        cJSON_AddItemToArray(players, cJSON_CreateString(shown[i]));
    cJSON_AddItemToObject(r, "players", players);
    players = NULL;
    cJSON_AddStringToObject(r, "commitment", g->commitment);
    /* Said as it is: a seed the host gave is no seed ngoma drew. */
    cJSON_AddBoolToObject(r, "seed_chosen", g->seed_chosen);
    cJSON_AddItemToObject(r, "salts", cJSON_Duplicate(g->salts, 1));
    if (reveal || str_eq(game_status_of(g->ops, g->st), "finished")) {
        /* As text: a JSON number would round a 63-bit seed. */
        char seed[24];
        snprintf(seed, sizeof(seed), "%lld", (long long)g->base_seed);
        cJSON_AddStringToObject(r, "seed", seed);
    }
    st = db_stmt(db,
                 "SELECT turn, kind, orders, log, public_view, id FROM turns WHERE game_id = ? AND rolled_back = 0"
                 " ORDER BY turn",
                 "I", g->id);
    if (!st)
        goto fail;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        cJSON *t = cJSON_CreateObject(), *orders, *view;
        struct strbuf err = STRBUF_INIT;
        const char *now[GAME_MAX_SEATS];
        bool changed = false;
        cJSON_AddNumberToObject(t, "turn", sqlite3_column_int(st, 0));
        /* A seat that changed hands is named by its new holder from
         * here on: the record says so where it happens. */
        names_at(g, held, nheld, sqlite3_column_int64(st, 5), sqlite3_column_int(st, 0), now);
        for (int i = 0; i < g->nseats; i++)
            if (!str_eq(now[i], shown[i])) {
                shown[i] = now[i];
                changed = true;
            }
        if (changed) {
            cJSON *names = cJSON_AddArrayToObject(t, "players");
            for (int i = 0; i < g->nseats; i++)
                cJSON_AddItemToArray(names, cJSON_CreateString(shown[i]));
        }
        cJSON_AddStringToObject(t, "kind", (const char *)sqlite3_column_text(st, 1));
        orders = jx_parse((const char *)sqlite3_column_text(st, 2), "orders", &err);
        cJSON_AddItemToObject(t, "orders", orders ? orders : cJSON_CreateArray());
        cJSON_AddStringToObject(t, "log", (const char *)sqlite3_column_text(st, 3));
        view = jx_parse((const char *)sqlite3_column_text(st, 4), "view", &err);
        cJSON_AddItemToObject(t, "view", view ? view : cJSON_CreateNull());
        cJSON_AddItemToArray(turns, t);
        strbuf_release(&err);
    }
    db_finalize(st);
    if (rc < 0)
        goto fail;
    cJSON_AddItemToObject(r, "turns", turns);
    free(options);
    holdings_free(held, nheld);
    return r;
fail:
    free(options);
    holdings_free(held, nheld);
    cJSON_Delete(players);
    cJSON_Delete(turns);
    cJSON_Delete(r);
    return NULL;
}

/* The record's fields, each checked; -1 with why in report. */
struct record {
    const struct game_ops *ops;
    const char *options_text, *commitment;
    cJSON *options;
    const char *names[GAME_MAX_SEATS];
    int nseats;
    int64_t seed;
    bool has_seed, seed_chosen;
    struct strlist salts;
    const cJSON *turns;
};

/* A step where a seat changed hands names its new holder from there on. */
static int renamed(struct record *r, const cJSON *turn, struct strbuf *report)
{
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(turn, "players"), *v;
    int i = 0;
    if (!players)
        return 0;
    if (!cJSON_IsArray(players) || cJSON_GetArraySize(players) != r->nseats) {
        strbuf_addf(report, "a step of the record names %d players, not the game's %d", cJSON_GetArraySize(players),
                    r->nseats);
        return -1;
    }
    cJSON_ArrayForEach(v, players) {
        if (!cJSON_IsString(v)) {
            strbuf_addstr(report, "a step of the record names its players by something other than names");
            return -1;
        }
        r->names[i++] = v->valuestring;
    }
    return 0;
}

static int read_record(const cJSON *j, struct record *r, struct strbuf *report)
{
    struct strbuf err = STRBUF_INIT;
    const char *format = jx_str(j, "format", &err), *module = jx_str(j, "module", &err);
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(j, "players"), *v;
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(j, "seed");
    memset(r, 0, sizeof(*r));
    r->options_text = jx_str(j, "options", &err);
    r->commitment = jx_str(j, "commitment", &err);
    r->turns = cJSON_GetObjectItemCaseSensitive(j, "turns");
    if (!format || !str_eq(format, RECORD_FORMAT) || !module || !r->options_text || !r->commitment ||
        !cJSON_IsArray(players) || !cJSON_IsArray(r->turns) || !cJSON_GetArraySize(r->turns)) {
        strbuf_addf(report, "this is not a public record of a game (ngoma export writes one)%s%s", err.len ? ": " : "",
                    err.buf);
        strbuf_release(&err);
        return -1;
    }
    if (!(r->ops = game_find(module))) {
        strbuf_addf(report, "the record is of a game ngoma does not know, \"%s\"", module);
        strbuf_release(&err);
        return -1;
    }
    cJSON_ArrayForEach(v, players) {
        if (!cJSON_IsString(v) || r->nseats == GAME_MAX_SEATS) {
            strbuf_addstr(report, "the record's players are not a list of names");
            strbuf_release(&err);
            return -1;
        }
        r->names[r->nseats++] = v->valuestring;
    }
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(j, "salts")) {
        if (!cJSON_IsString(v) || (*v->valuestring && !seed_salt_ok(v->valuestring, &err))) {
            strbuf_addf(report, "the record's salts are not salts: %s", err.buf);
            strbuf_release(&err);
            return -1;
        }
        strlist_push(&r->salts, v->valuestring);
    }
    if (r->salts.n != (size_t)r->nseats) {
        strbuf_addf(report, "the record has %zu salt%s for %d player%s: it needs exactly one a seat (\"\" for a"
                            " player who gave none)",
                    r->salts.n, r->salts.n == 1 ? "" : "s", r->nseats, r->nseats == 1 ? "" : "s");
        strbuf_release(&err);
        strlist_clear(&r->salts);
        return -1;
    }
    r->seed_chosen = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "seed_chosen"));
    if (seed) {
        long long n;
        if (!cJSON_IsString(seed) || !parse_int(seed->valuestring, 0, INT64_MAX, &n)) {
            strbuf_addstr(report, "the record's seed is not a whole number written as text");
            strbuf_release(&err);
            strlist_clear(&r->salts);
            return -1;
        }
        r->seed = n;
        r->has_seed = true;
    }
    r->options = jx_parse(r->options_text, "options", &err);
    strbuf_release(&err);
    if (!r->options) {
        strbuf_addstr(report, "the record's options are not JSON");
        strlist_clear(&r->salts);
        return -1;
    }
    return 0;
}

/* Where the replayed game ends up: over (who won, the scores), or how far
 * the record goes. */
static void outcome(const struct record *r, const struct game_table *t, const void *st, int steps,
                    struct strbuf *out)
{
    struct game_result res;
    struct game_when w;
    char at[128];
    r->ops->result(st, &res);
    if (!res.finished) {
        game_when_of(r->ops, st, t, steps, &w);
        game_when_text(&w, at);
        strbuf_addf(out, "The record goes to step %d (%s): the game is not over.", steps, at);
        return;
    }
    if (res.ended == GAME_END_ABANDONED) {
        strbuf_addstr(out, "The game is over: abandoned by its host, nobody won.");
        return;
    }
    strbuf_addstr(out, "The game is over: ");
    if (!res.winners) {
        strbuf_addstr(out, "nobody won");
    } else {
        int n = 0, k = __builtin_popcount(res.winners);
        for (int s = 0; s < t->nseats; s++)
            if (res.winners & (1u << s))
                strbuf_addf(out, "%s%s", n++ ? (n == k ? " and " : ", ") : "", t->names[s]);
        strbuf_addstr(out, res.ended == GAME_END_DRAWN ? (k == 1 ? " drew" : " agreed a draw")
                           : res.ended == GAME_END_CONCEDED ? " won: the others conceded"
                           : k == 1 ? " won" : " shared the win");
    }
    if (res.has_scores) {
        strbuf_addf(out, " (%s:", res.score_name ? res.score_name : "score");
        for (int s = 0; s < t->nseats; s++)
            strbuf_addf(out, "%s %s %d", s ? "," : "", t->names[s], res.scores[s]);
        strbuf_addch(out, ')');
    }
    strbuf_addch(out, '.');
}

/* The observer's view and, for a step of orders, the public log: as the
 * record has them? 1 (said in report) when not. */
static int compare_public(const struct record *r, const struct game_table *t, const void *st, const cJSON *turn,
                          const struct game_log *log, int k, struct strbuf *report)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *mine = r->ops->view_json(st, -1, t);
    const cJSON *view = cJSON_GetObjectItemCaseSensitive(turn, "view");
    const cJSON *stored = cJSON_GetObjectItemCaseSensitive(turn, "log");
    int rc = 0;
    if (jx_diff(view, mine, &err)) {
        strbuf_addf(report, "step %d: the position the seed deals differs from the record's at %s", k, err.buf);
        rc = 1;
    } else if (log && (!cJSON_IsString(stored) || !str_eq(stored->valuestring, log->pub.buf))) {
        strbuf_addf(report, "step %d: what the replay says happened differs from the record's log", k);
        rc = 1;
    }
    cJSON_Delete(mine);
    strbuf_release(&err);
    return rc;
}

int verify_record(const cJSON *j, enum option_source from, struct strbuf *report)
{
    struct record r;
    struct game_table t;
    struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
    char mine[65];
    void *st = NULL;
    int64_t deal;
    size_t salted = 0;
    int rc = 1, k = 0;
    const cJSON *turn;

    if (read_record(j, &r, report))
        return -1;
    /* Before anything is set up: a record names no file and no layout. */
    {
        cJSON *checked = engine_options_from(r.ops, r.options, from, &err);
        if (!checked) {
            strbuf_addf(report, "%s", err.buf);
            goto out;
        }
        cJSON_Delete(r.options);
        r.options = checked;
    }
    t.nseats = r.nseats;
    t.names = r.names;
    t.lang = NULL;
    if (!r.has_seed) {
        strbuf_addstr(report, "the record holds no seed: it is revealed when the game ends (or the host exports"
                              " it with ngoma verify)");
        goto out;
    }
    /* 1. The seed is the one committed to before the deal. */
    seed_commitment_line(r.ops->name, r.seed, r.options_text, &line);
    seed_commitment(r.ops->name, r.seed, r.options_text, mine);
    if (!str_eq(mine, r.commitment)) {
        strbuf_addf(report, "the seed %lld does not match the commitment: SHA-256 of \"%.*s\" is %s, not %s",
                    (long long)r.seed, (int)line.len - 1, line.buf, mine, r.commitment);
        goto out;
    }
    /* 2. The seed that deals: from it and every salt. */
    deal = seed_deal(r.seed, &r.salts);
    for (size_t i = 0; i < r.salts.n; i++)
        salted += r.salts.v[i][0] != '\0';
    st = r.ops->setup(r.options, r.nseats, (uint64_t)deal, &err);
    if (!st) {
        strbuf_addf(report, "the game cannot be set up from the record: %s", err.buf);
        goto out;
    }
    /* 3. Every step from the deal on, as recorded. */
    cJSON_ArrayForEach(turn, r.turns) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(turn, "turn");
        const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(turn, "kind"));
        struct game_log log;
        char *orders;
        int bad;
        if (!cJSON_IsNumber(n) || n->valueint != k || !kind) {
            strbuf_addf(report, "the record's step %d is missing or unreadable", k);
            goto out;
        }
        if (renamed(&r, turn, report))
            goto out;
        if (k == 0) {
            if (compare_public(&r, &t, st, turn, NULL, k, report))
                goto out;
            k++;
            continue;
        }
        orders = jx_print(cJSON_GetObjectItemCaseSensitive(turn, "orders"));
        bad = engine_apply_recorded(r.ops, &t, st, k, kind, orders, true, &log, report);
        free(orders);
        if (bad)
            goto out;
        bad = compare_public(&r, &t, st, turn, str_eq(kind, "orders") ? &log : NULL, k, report);
        game_log_release(&log);
        if (bad)
            goto out;
        k++;
    }
    {
        struct strbuf said = STRBUF_INIT, origin = STRBUF_INIT;
        seed_origin_text(r.ops, r.options, r.seed_chosen, LANG_ENGLISH, &origin);
        strbuf_addf(&said, "The seed %lld matches the commitment %s.", (long long)r.seed, r.commitment);
        strbuf_add_flowed(report, said.buf, 0, 72);
        strbuf_reset(&said);
        strbuf_addf(&said, "%s%s", origin.buf,
                    r.seed_chosen || from != OPTIONS_RECORD ? "" : " (So the record says: a seed ngoma drew is"
                                                                   " revealed only at the end.)");
        strbuf_add_flowed(report, said.buf, 0, 72);
        strbuf_reset(&said);
        strbuf_addf(&said, "With one salt a seat (%zu given) it deals from %lld.", salted, (long long)deal);
        strbuf_add_flowed(report, said.buf, 0, 72);
        strbuf_reset(&said);
        strbuf_addf(&said, "All %d steps replay as recorded: every order was one its seat could give, every log"
                           " and view is what the seed deals.", k - 1);
        strbuf_add_flowed(report, said.buf, 0, 72);
        strbuf_reset(&said);
        outcome(&r, &t, st, k - 1, &said);
        strbuf_add_flowed(report, said.buf, 0, 72);
        strbuf_setlen(report, report->len - 1); /* the caller ends the report's last line */
        strbuf_release(&said);
        strbuf_release(&origin);
    }
    rc = 0;
out:
    if (st)
        r.ops->free(st);
    cJSON_Delete(r.options);
    strlist_clear(&r.salts);
    strbuf_release(&err);
    strbuf_release(&line);
    return rc;
}

int verify_game(sqlite3 *db, struct game_rec *g, struct strbuf *report)
{
    struct strlist salts = STRLIST_INIT;
    const cJSON *v;
    cJSON *record;
    int rc;
    if (!*g->commitment) {
        strbuf_addf(report, "game %lld was made before ngoma committed to seeds: only replay can check it",
                    (long long)g->id);
        return 1;
    }
    cJSON_ArrayForEach(v, g->salts)
        if (cJSON_IsString(v))
            strlist_push(&salts, v->valuestring);
    /* The stored seed that deals is the one the commitment and salts make. */
    if (seed_deal(g->base_seed, &salts) != g->seed) {
        strbuf_addf(report, "game %lld deals from the seed %lld, but its committed seed and salts make %lld",
                    (long long)g->id, (long long)g->seed, (long long)seed_deal(g->base_seed, &salts));
        strlist_clear(&salts);
        return 1;
    }
    strlist_clear(&salts);
    if (!(record = verify_export(db, g, true)))
        return -1;
    rc = verify_record(record, OPTIONS_HOST, report);
    cJSON_Delete(record);
    if (rc == 0) {
        struct strbuf more = STRBUF_INIT;
        int r2 = engine_replay(db, g, &more);
        if (r2) {
            strbuf_reset(report);
            strbuf_addstr(report, more.buf);
            rc = r2;
        }
        strbuf_release(&more);
    }
    return rc;
}
