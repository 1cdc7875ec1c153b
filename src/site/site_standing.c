/* site_standing.c: the site's standings: a page of ratings a game module and a page a player, by name only. */
#include "site/site.h"
#include "judge/standing.h"
#include "games/game.h"
#include "store/db.h"
#include "lib/catalog.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>

/* Players on the site: at most this many pages. */
#define SITE_PLAYERS_MAX 5000

/* Every person who has sat in a game (one that is anonymous counts once
 * it is over), numbered by her first game: her page is player-N.html. */
struct people {
    char **addr;
    int n;
};

static int people_load(sqlite3 *db, struct people *p)
{
    /* A seat of an anonymous game that runs names nobody yet. */
    sqlite3_stmt *q = db_stmt(db,
                              "SELECT p.address FROM seat_people p JOIN games g ON g.id = p.game_id WHERE p.real_name IS"
                              " NULL OR g.status = 'finished' GROUP BY p.address ORDER BY min(p.game_id), p.address"
                              " LIMIT ?",
                              "i", SITE_PLAYERS_MAX);
    int rc;
    p->addr = NULL;
    p->n = 0;
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        p->addr = xrealloc(p->addr, sizeof(*p->addr) * (size_t)(p->n + 1));
        p->addr[p->n++] = db_col_text(q, 0);
    }
    db_finalize(q);
    return rc == SQLITE_DONE ? 0 : -1;
}

static void people_free(struct people *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->addr[i]);
    free(p->addr);
}

static int people_find(const struct people *p, const char *addr)
{
    for (int i = 0; i < p->n; i++)
        if (str_ieq(p->addr[i], addr))
            return i + 1;
    return 0;
}

static int ratings_page(sqlite3 *db, const struct site_lang *l, const struct game_ops *ops, const struct people *p,
                        struct strbuf *err)
{
    cJSON *d = cJSON_CreateObject(), *rows = cJSON_CreateArray();
    sqlite3_stmt *q = db_stmt(db,
                              "SELECT address, mu, sigma, games FROM player_ratings WHERE module = ?"
                              " ORDER BY games < ?, mu - 3 * sigma DESC, address",
                              "si", ops->name, STANDING_SHOWN_AFTER);
    char file[96];
    int rc, place = 0;
    if (!q) {
        cJSON_Delete(d);
        cJSON_Delete(rows);
        return -1;
    }
    while ((rc = db_step(q)) == SQLITE_ROW) {
        cJSON *row = cJSON_CreateObject();
        struct standing s;
        char shown[16], *addr = db_col_text(q, 0), *name = standing_name(db, addr);
        standing_of_row(q, 1, &s);
        standing_shown(&s, l->lang, shown);
        cJSON_AddNumberToObject(row, "place", ++place);
        cJSON_AddStringToObject(row, "name", name);
        cJSON_AddNumberToObject(row, "player", people_find(p, addr));
        cJSON_AddStringToObject(row, "rating", shown);
        cJSON_AddNumberToObject(row, "games", s.games);
        cJSON_AddItemToArray(rows, row);
        free(addr);
        free(name);
    }
    db_finalize(q);
    cJSON_AddStringToObject(d, "title", ops->title);
    cJSON_AddItemToObject(d, "rows", rows);
    cJSON_AddNumberToObject(d, "after", STANDING_SHOWN_AFTER);
    snprintf(file, sizeof(file), "ratings-%s.html", ops->name);
    if (rc == SQLITE_DONE && site_write_template(l, file, "site-ratings.html", d, err))
        rc = -1;
    cJSON_Delete(d);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int player_page(sqlite3 *db, const struct site_lang *l, const char *addr, int number, struct strbuf *err)
{
    cJSON *d = cJSON_CreateObject(), *ratings = cJSON_CreateArray(), *games = cJSON_CreateArray();
    struct reliability r;
    char *name = standing_name(db, addr), file[64];
    sqlite3_stmt *q;
    int rc = -1;

    cJSON_AddStringToObject(d, "name", name);
    if (standing_reliability(db, addr, &r))
        goto out;
    cJSON_AddNumberToObject(d, "reliability", r.score);
    cJSON_AddNumberToObject(d, "asked", r.asked);
    cJSON_AddNumberToObject(d, "missed", r.missed);
    cJSON_AddNumberToObject(d, "left", r.left);
    cJSON_AddNumberToObject(d, "abandoned", r.abandoned);
    if (!(q = db_stmt(db, "SELECT module, mu, sigma, games FROM player_ratings WHERE address = ? ORDER BY module", "s",
                      addr)))
        goto out;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        cJSON *row = cJSON_CreateObject();
        struct standing s;
        char shown[16], *module = db_col_text(q, 0);
        const struct game_ops *ops = game_find(module);
        standing_of_row(q, 1, &s);
        standing_shown(&s, l->lang, shown);
        cJSON_AddStringToObject(row, "game", ops ? ops->title : module);
        cJSON_AddStringToObject(row, "module", module);
        cJSON_AddStringToObject(row, "rating", shown);
        cJSON_AddNumberToObject(row, "games", s.games);
        cJSON_AddItemToArray(ratings, row);
        free(module);
    }
    db_finalize(q);
    if (rc != SQLITE_DONE)
        goto out;
    /* Her games, newest first, as the observer's pages show them. */
    if (!(q = db_stmt(db,
                      "SELECT p.game_id, g.module, g.status, p.name FROM seat_people p JOIN games g ON g.id = p.game_id"
                      " WHERE p.address = ? AND (p.real_name IS NULL OR g.status = 'finished')"
                      " ORDER BY p.game_id DESC LIMIT 200",
                      "s", addr)))
        goto out;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        cJSON *row = cJSON_CreateObject();
        char *module = db_col_text(q, 1), *status = db_col_text(q, 2), *as = db_col_text(q, 3);
        const struct game_ops *ops = game_find(module);
        cJSON_AddNumberToObject(row, "game", (double)sqlite3_column_int64(q, 0));
        cJSON_AddStringToObject(row, "title", ops ? ops->title : module);
        /* Where it stands in the page's words. */
        cJSON_AddStringToObject(row, "status", catalog_term(l->lang, "lobby.status.", status, NULL));
        cJSON_AddStringToObject(row, "as", as);
        cJSON_AddItemToArray(games, row);
        free(module);
        free(status);
        free(as);
    }
    db_finalize(q);
    if (rc != SQLITE_DONE)
        goto out;
    cJSON_AddItemToObject(d, "ratings", ratings);
    cJSON_AddItemToObject(d, "games", games);
    ratings = games = NULL;
    snprintf(file, sizeof(file), "player-%d.html", number);
    rc = site_write_template(l, file, "site-player.html", d, err) ? -1 : 0;
out:
    if (rc == SQLITE_DONE || rc == SQLITE_ROW)
        rc = -1;
    cJSON_Delete(d);
    cJSON_Delete(ratings);
    cJSON_Delete(games);
    free(name);
    return rc;
}

int site_standing(sqlite3 *db, const struct site_lang *l, cJSON *index, struct strbuf *err)
{
    struct people p;
    cJSON *list = cJSON_CreateArray();
    int rc = -1;
    if (standing_catch_up(db) || people_load(db, &p)) {
        cJSON_Delete(list);
        return -1;
    }
    for (int i = 0; game_registry[i]; i++) {
        cJSON *item = cJSON_CreateObject();
        if (ratings_page(db, l, game_registry[i], &p, err)) {
            cJSON_Delete(item);
            goto out;
        }
        cJSON_AddStringToObject(item, "module", game_registry[i]->name);
        cJSON_AddStringToObject(item, "title", game_registry[i]->title);
        cJSON_AddItemToArray(list, item);
    }
    for (int i = 0; i < p.n; i++)
        if (player_page(db, l, p.addr[i], i + 1, err))
            goto out;
    rc = 0;
out:
    cJSON_AddItemToObject(index, "standings", list);
    people_free(&p);
    return rc;
}
