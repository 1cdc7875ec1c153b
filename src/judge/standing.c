/* standing.c: what ratings and reliability store: each finished game rated once, in the order games ended, and the texts that show a player's standing. */
#include "judge/standing.h"
#include "lib/catalog.h"
#include "lib/template.h"
#include "core/engine.h"
#include "core/gamerec.h"
#include "core/rating.h"
#include "store/db.h"
#include "store/settings.h"
#include "lib/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Games one call takes: a backlog is worked off over a few calls. */
#define CATCH_UP_MAX 256
#define RATINGS_TOP 20

char *standing_person(sqlite3 *db, const char *address)
{
    char *p = NULL;
    if (db_get_text(db, &p, "SELECT address FROM player_aliases WHERE alias = ?", "s", address) <= 0 || !p || !*p) {
        free(p);
        p = xstrdup(address);
    }
    return str_lower(p);
}

static void standing_fill(struct standing *s)
{
    struct rating r = { s->mu, s->sigma };
    s->shown = (int)lround(STANDING_SCALE * rating_ordinal(&r));
    s->is_new = s->games < STANDING_SHOWN_AFTER;
}

void standing_of_row(sqlite3_stmt *q, int col, struct standing *s)
{
    s->mu = sqlite3_column_double(q, col);
    s->sigma = sqlite3_column_double(q, col + 1);
    s->games = sqlite3_column_int(q, col + 2);
    standing_fill(s);
}

int standing_rating(sqlite3 *db, const char *person, const char *module, struct standing *out)
{
    struct rating_model m;
    sqlite3_stmt *q = db_stmt(db, "SELECT mu, sigma, games FROM player_ratings WHERE address = ? AND module = ?", "ss",
                              person, module);
    int rc;
    rating_defaults(&m);
    out->mu = m.mu;
    out->sigma = m.sigma;
    out->games = 0;
    if (!q)
        return -1;
    if ((rc = db_step(q)) == SQLITE_ROW)
        standing_of_row(q, 0, out);
    else
        standing_fill(out);
    db_finalize(q);
    return rc < 0 ? -1 : 0;
}

void standing_shown(const struct standing *s, const char *lang, char out[16])
{
    const char *fresh = catalog_text(lang, "standing.new", 0);
    if (s->is_new)
        snprintf(out, 16, "%s", fresh ? fresh : "new");
    else
        snprintf(out, 16, "%d", s->shown);
}

int standing_reliability(sqlite3 *db, const char *person, struct reliability *out)
{
    sqlite3_stmt *q = db_stmt(db, "SELECT asked, missed, left, abandoned, score FROM people_reliability WHERE address = ?",
                              "s", person);
    int rc;
    memset(out, 0, sizeof(*out));
    out->score = 100;
    if (!q)
        return -1;
    if ((rc = db_step(q)) == SQLITE_ROW) {
        out->asked = sqlite3_column_int(q, 0);
        out->missed = sqlite3_column_int(q, 1);
        out->left = sqlite3_column_int(q, 2);
        out->abandoned = sqlite3_column_int(q, 3);
        out->score = sqlite3_column_int(q, 4);
    }
    db_finalize(q);
    return rc < 0 ? -1 : 0;
}

/* Why game g is not rated (static text), or NULL when it is. */
static const char *not_rated(sqlite3 *db, const struct game_rec *g, const struct game_result *r, int people)
{
    char *on = setting_get(db, "ratings");
    const char *rated = engine_core_option(g->options, "rated");
    bool off = on && str_ieq(on, "no");
    free(on);
    if (off)
        return "ratings are off on this ngoma (setting ratings)";
    if (r->ended == GAME_END_ABANDONED)
        return "abandoned by its host";
    if (str_eq(rated, "no"))
        return "opened with rated=no";
    if (people < 2)
        return "fewer than two people played it (bots are never rated)";
    return NULL;
}

/* A rated seat that gave fewer than STANDING_OWN_ORDERS orders of its
 * own (votes, press, RESIGN and the orders bots, deadlines and forced
 * moves gave are not): why the game does not count, in why. */
static int too_few_orders(sqlite3 *db, const struct game_rec *g, unsigned rated, char *why, size_t size)
{
    *why = '\0';
    for (int s = 0; s < g->nseats; s++) {
        int64_t own;
        if (!((rated >> s) & 1))
            continue;
        if (db_get_int64(db, &own,
                         "SELECT count(*) FROM orders o JOIN turns t ON t.id = o.turn_id AND t.rolled_back = 0 WHERE"
                         " o.game_id = ? AND o.seat = ? AND o.status = 'accepted' AND o.canonical <> 'RESIGN' AND"
                         " o.source NOT IN ('bot', 'nmr', 'forced')",
                         "Ii", g->id, s + 1) < 0)
            return -1;
        if (own < STANDING_OWN_ORDERS) {
            snprintf(why, size,
                     "seat %d (%s) gave %lld order%s of its own, and a game counts for ratings only when every rated"
                     " seat gave at least %d",
                     s + 1, g->names[s], (long long)own, own == 1 ? "" : "s", STANDING_OWN_ORDERS);
            return 0;
        }
    }
    return 0;
}

/* The rank of a holding: the winners first, then those still in it at
 * the end, then those who left (resigned, dropped, kicked, or replaced
 * after missing a turn). */
static int holding_rank(const char *how, unsigned winners, unsigned left, int seat)
{
    if (how)
        return 3;
    return (winners & (1u << seat)) ? 1 : (left & (1u << seat)) ? 3 : 2;
}

static int rate_game(sqlite3 *db, int64_t id)
{
    struct game_rec g;
    struct game_result r;
    struct rating_model m;
    struct rating now[RATING_TEAMS_MAX][RATING_TEAM_SIZE_MAX], before[GAME_MAX_SEATS * 2];
    int size[RATING_TEAMS_MAX], rank[RATING_TEAMS_MAX], seat_of[RATING_TEAMS_MAX], n = 0, rc = -1;
    char *person[RATING_TEAMS_MAX] = { NULL }, at[32], few[200];
    unsigned left = 0, dropped = 0, rated_seats = 0;
    int64_t seq;
    const char *why;
    sqlite3_stmt *q;

    if (game_load(db, id, &g))
        return -1;
    g.ops->result(g.st, &r);
    if (game_left(db, &g, &left, &dropped))
        goto out;
    /* Each person once, from the seats' lineage: whoever held a seat at
     * the end by its result, whoever left one before with those who
     * left; one who gave her seat up by consent is not rated, nor is a
     * bot. */
    q = db_stmt(db,
                "SELECT seat, address, how FROM seat_holders WHERE game_id = ? AND address <> 'bot' AND"
                " coalesce(how, '') NOT IN ('consent', 'taken') ORDER BY to_step IS NOT NULL, id",
                "I", id);
    if (!q)
        goto out;
    while (db_step(q) == SQLITE_ROW && n < RATING_TEAMS_MAX) {
        int s = sqlite3_column_int(q, 0) - 1;
        const char *how = (const char *)sqlite3_column_text(q, 2);
        bool dup = false;
        char *p;
        if (s < 0 || s >= g.nseats)
            continue;
        p = standing_person(db, (const char *)sqlite3_column_text(q, 1));
        for (int k = 0; k < n; k++)
            dup |= str_eq(person[k], p);
        if (dup) {
            free(p);
            continue;
        }
        person[n] = p;
        seat_of[n] = s;
        rank[n] = holding_rank(how, r.winners, left, s);
        size[n] = 1;
        rated_seats |= 1u << s;
        n++;
    }
    db_finalize(q);
    why = not_rated(db, &g, &r, n);
    if (!why) {
        if (too_few_orders(db, &g, rated_seats, few, sizeof(few)))
            goto out;
        if (*few)
            why = few;
    }
    utc_now(at);
    if (db_get_int64(db, &seq, "SELECT coalesce(max(seq), 0) + 1 FROM rated_games", "") < 0 ||
        db_do(db, "INSERT INTO rated_games (game_id, seq, module, rated, why, at) VALUES (?, ?, ?, ?, ?, ?)", "IIsiss",
              id, seq, g.ops->name, why ? 0 : 1, why, at))
        goto out;
    if (why) {
        rc = 0;
        goto out;
    }
    rating_defaults(&m);
    for (int k = 0; k < n; k++) {
        struct standing st;
        if (standing_rating(db, person[k], g.ops->name, &st))
            goto out;
        now[k][0] = before[k] = (struct rating){ st.mu, st.sigma };
    }
    if (rating_update(&m, n, size, now, rank))
        goto out;
    for (int k = 0; k < n; k++)
        if (db_do(db,
                  "INSERT INTO rating_changes (game_id, seat, address, module, rank, mu_before, sigma_before, mu,"
                  " sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  "Iissidddd", id, seat_of[k] + 1, person[k], g.ops->name, rank[k], before[k].mu, before[k].sigma,
                  now[k][0].mu, now[k][0].sigma) ||
            db_do(db,
                  "INSERT INTO player_ratings (address, module, mu, sigma, games) VALUES (?, ?, ?, ?, 1)"
                  " ON CONFLICT (address, module) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                  " games = games + 1",
                  "ssdd", person[k], g.ops->name, now[k][0].mu, now[k][0].sigma))
            goto out;
    rc = 0;
out:
    for (int k = 0; k < n; k++)
        free(person[k]);
    game_unload(&g);
    return rc;
}

int standing_game_text(sqlite3 *db, int64_t id, const char *lang, struct strbuf *out)
{
    int64_t rated;
    char *why = NULL;
    int found = db_get_int64(db, &rated, "SELECT rated FROM rated_games WHERE game_id = ?", "I", id);
    if (found < 0)
        return -1;
    if (!found)
        return 0;
    if (rated) {
        phrase_add(out, lang, "rated.yes", NULL);
        return 0;
    }
    if (db_get_text(db, &why, "SELECT coalesce(why, '') FROM rated_games WHERE game_id = ?", "I", id) < 0)
        return -1;
    phrase_add(out, lang, "rated.no", "why", why ? why : "", NULL);
    free(why);
    return 0;
}

int standing_catch_up(sqlite3 *db)
{
    int64_t ids[CATCH_UP_MAX];
    int n = 0, rc;
    sqlite3_stmt *q = db_stmt(db,
                              "SELECT g.id FROM games g WHERE g.status = 'finished'"
                              " AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id)"
                              " ORDER BY (SELECT max(t.created_at) FROM turns t WHERE t.game_id = g.id"
                              " AND t.rolled_back = 0), g.id LIMIT ?",
                              "i", CATCH_UP_MAX);
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW)
        ids[n++] = sqlite3_column_int64(q, 0);
    db_finalize(q);
    if (rc < 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (rate_game(db, ids[i]))
            return -1;
    return 0;
}

int standing_retake(sqlite3 *db)
{
    int64_t left;
    if (db_do(db, "DELETE FROM rating_changes", "") || db_do(db, "DELETE FROM player_ratings", "") ||
        db_do(db, "DELETE FROM rated_games", ""))
        return -1;
    do {
        if (standing_catch_up(db) ||
            db_get_int64(db, &left,
                         "SELECT count(*) FROM games g WHERE g.status = 'finished' AND NOT EXISTS"
                         " (SELECT 1 FROM rated_games r WHERE r.game_id = g.id)",
                         "") < 0)
            return -1;
    } while (left > 0);
    return 0;
}

int standing_merge(sqlite3 *db, const char *keep, const char *alias, struct strbuf *out)
{
    char *k = standing_person(db, keep), *a = standing_person(db, alias), at[32];
    int64_t seats;
    int rc = -1;
    if (str_eq(k, a)) {
        strbuf_addf(out, "%s and %s are one player already", keep, alias);
        rc = 1;
        goto done;
    }
    utc_now(at);
    /* Every alias of alias follows it; then the ratings are taken again,
     * game by game in the order they were first taken. */
    if (db_do(db, "UPDATE player_aliases SET address = ? WHERE address = ?", "ss", k, a) ||
        db_do(db, "INSERT OR REPLACE INTO player_aliases (alias, address, merged_at) VALUES (?, ?, ?)", "sss", a, k,
              at) ||
        standing_retake(db))
        goto done;
    if (db_get_int64(db, &seats, "SELECT count(*) FROM seat_people WHERE address = ?", "s", k) < 0)
        goto done;
    strbuf_addf(out, "%s is now %s: %lld seats in all, ratings taken again from every finished game.", a, k,
                (long long)seats);
    rc = 0;
done:
    free(k);
    free(a);
    return rc;
}

char *standing_name(sqlite3 *db, const char *person)
{
    char *name = NULL;
    if (db_get_text(db, &name,
                    "SELECT coalesce(real_name, name) FROM seat_people WHERE address = ? ORDER BY game_id DESC LIMIT 1",
                    "s", person) <= 0 || !name) {
        free(name);
        /* No seat yet: the address's first part, as the lobby names her. */
        name = xstrdup(person);
        char *at = strchr(name, '@');
        if (at)
            *at = '\0';
    }
    return name;
}

char *standing_find(sqlite3 *db, const char *who)
{
    char *p = NULL;
    if (strchr(who, '@')) {
        int64_t n;
        char *q = standing_person(db, who);
        if (db_get_int64(db, &n,
                         "SELECT (SELECT count(*) FROM seat_people WHERE address = ?)"
                         " + (SELECT count(*) FROM lobby_addresses WHERE address = ? AND confirmed_at IS NOT NULL)",
                         "ss", q, q) < 0 || !n) {
            free(q);
            return NULL;
        }
        return q;
    }
    if (db_get_text(db, &p,
                    "SELECT address FROM seat_people WHERE coalesce(real_name, name) = ? COLLATE NOCASE ORDER BY"
                    " game_id DESC LIMIT 1",
                    "s", who) <= 0) {
        free(p);
        return NULL;
    }
    return p;
}

/* One line of the standings: place, name, rating, games, mu and sigma. */
/* A count phrase of lang over n, into a fresh string. */
static void count_in(const char *lang, const char *key, int n, struct strbuf *out)
{
    char v[16];
    snprintf(v, sizeof(v), "%d", n);
    phrase_add(out, lang, key, "n", v, NULL);
}

static void rating_line(sqlite3 *db, int place, const char *person, const struct standing *s, bool addresses,
                        const char *lang, struct strbuf *out)
{
    char *name = standing_name(db, person), shown[16];
    struct strbuf games = STRBUF_INIT;
    standing_shown(s, lang, shown);
    if (place)
        strbuf_addf(out, "%3d. ", place);
    else
        strbuf_addstr(out, "  -  ");
    count_in(lang, "standing.games", s->games, &games);
    strbuf_addf(out, "%-24s %5s  %-9s (mu %.1f, sigma %.1f)\n", name, shown, games.buf, s->mu, s->sigma);
    strbuf_release(&games);
    if (addresses)
        strbuf_addf(out, "     %s\n", person);
    free(name);
}

int standing_ratings_text(sqlite3 *db, const char *module, const char *asker, bool addresses, const char *lang,
                          struct strbuf *out)
{
    /* Players with a shown rating first, by it; then the new ones. */
    sqlite3_stmt *q = db_stmt(db,
                              "SELECT address, mu, sigma, games FROM player_ratings WHERE module = ?"
                              " ORDER BY games < ? , mu - 3 * sigma DESC, address LIMIT ?",
                              "sii", module, STANDING_SHOWN_AFTER, RATINGS_TOP);
    int rc, place = 0;
    bool asker_shown = false;
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        struct standing s;
        char *addr = db_col_text(q, 0);
        standing_of_row(q, 1, &s);
        if (!place) {
            phrase_add(out, lang, "standing.table-head", NULL);
            strbuf_addch(out, '\n');
        }
        rating_line(db, ++place, addr, &s, addresses, lang, out);
        asker_shown |= asker && str_ieq(addr, asker);
        free(addr);
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    if (!place) {
        phrase_add(out, lang, "standing.nobody", NULL);
        strbuf_addch(out, '\n');
    }
    if (asker && !asker_shown) {
        struct standing s;
        int64_t above = 0;
        if (standing_rating(db, asker, module, &s) ||
            db_get_int64(db, &above,
                         "SELECT count(*) FROM player_ratings WHERE module = ? AND (games >= ?) >= (? >= ?)"
                         " AND mu - 3 * sigma > ?",
                         "siiid", module, STANDING_SHOWN_AFTER, s.games, STANDING_SHOWN_AFTER, s.mu - 3 * s.sigma) < 0)
            return -1;
        rating_line(db, s.games ? (int)above + 1 : 0, asker, &s, addresses, lang, out);
    }
    count_in(lang, "standing.about", STANDING_SHOWN_AFTER, out);
    return 0;
}

int standing_profile_text(sqlite3 *db, const char *person, bool addresses, const char *lang, struct strbuf *out)
{
    char *name = standing_name(db, person);
    struct reliability rel;
    sqlite3_stmt *q;
    int rc, n = 0;
    int64_t played, won, drawn;

    if (standing_reliability(db, person, &rel) ||
        db_get_int64(db, &played,
                     "SELECT count(*) FROM seat_people p JOIN games g ON g.id = p.game_id WHERE p.address = ?"
                     " AND g.status = 'finished'",
                     "s", person) < 0 ||
        db_get_int64(db, &won,
                     "SELECT count(*) FROM rating_changes c WHERE c.address = ?"
                     " AND c.rank = 1 AND (SELECT count(*) FROM rating_changes o WHERE o.game_id = c.game_id AND o.rank = 1) = 1",
                     "s", person) < 0 ||
        db_get_int64(db, &drawn,
                     "SELECT count(*) FROM rating_changes c WHERE c.address = ? AND c.rank = 1 AND"
                     " (SELECT count(*) FROM rating_changes o WHERE o.game_id = c.game_id AND o.rank = 1) > 1",
                     "s", person) < 0) {
        free(name);
        return -1;
    }
    strbuf_addf(out, "%s%s%s%s\n", name, addresses ? " <" : "", addresses ? person : "", addresses ? ">" : "");
    {
        char score[16], asked[16], missed[16], left[16], abandoned[16], p[24], w[24], d[24];
        snprintf(score, sizeof(score), "%d", rel.score);
        snprintf(asked, sizeof(asked), "%d", rel.asked);
        snprintf(missed, sizeof(missed), "%d", rel.missed);
        snprintf(left, sizeof(left), "%d", rel.left);
        snprintf(abandoned, sizeof(abandoned), "%d", rel.abandoned);
        snprintf(p, sizeof(p), "%lld", (long long)played);
        snprintf(w, sizeof(w), "%lld", (long long)won);
        snprintf(d, sizeof(d), "%lld", (long long)drawn);
        phrase_add(out, lang, "standing.reliability", "score", score, "asked", asked, "missed", missed, "left", left,
                   "abandoned", abandoned, NULL);
        strbuf_addch(out, '\n');
        phrase_add(out, lang, "standing.finished", "played", p, "won", w, "drawn", d, NULL);
        strbuf_addch(out, '\n');
    }
    q = db_stmt(db, "SELECT module, mu, sigma, games FROM player_ratings WHERE address = ? ORDER BY module", "s",
                person);
    if (!q) {
        free(name);
        return -1;
    }
    while ((rc = db_step(q)) == SQLITE_ROW) {
        struct standing s;
        char shown[16], *module = db_col_text(q, 0);
        const struct game_ops *ops = game_find(module);
        standing_of_row(q, 1, &s);
        standing_shown(&s, lang, shown);
        if (!n++) {
            phrase_add(out, lang, "standing.ratings-head", NULL);
            strbuf_addch(out, '\n');
        }
        {
            struct strbuf games = STRBUF_INIT;
            count_in(lang, "standing.rated-games", s.games, &games);
            strbuf_addf(out, "  %-16s %5s  (%s)\n", ops ? ops->title : module, shown, games.buf);
            strbuf_release(&games);
        }
        free(module);
    }
    db_finalize(q);
    if (!n) {
        phrase_add(out, lang, "standing.ratings-none", NULL);
        strbuf_addch(out, '\n');
    }
    free(name);
    return rc < 0 ? -1 : 0;
}
