/* site.h: the public record as a static web site: an index of games, each game's history with the observer's picture of every step, its result and its verification data. */
#ifndef NGOMA_SITE_H
#define NGOMA_SITE_H

#include <sqlite3.h>
#include <stdbool.h>
#include <cjson/cJSON.h>

struct strbuf;

struct site_stats {
    int games;     /* pages written */
    int pictures;  /* pictures drawn (those already there are kept) */
};

/*
 * Writes the site into dir: index.html, style.css, and for every game
 * game-N.html, its public record game-N.json (the seed once the game is
 * over) and game-N/step-ID.png for each step. Only what an observer may
 * see: the observer's views, the public logs, the resolved orders. With
 * changed_only, only the games that moved since the last write get their
 * page again. -1 on failure (said).
 */
int site_write(sqlite3 *db, const char *dir, bool changed_only, struct site_stats *st);

/* Renders template tmpl with data into dir/name, atomically. */
int site_write_template(const char *dir, const char *name, const char *tmpl, const cJSON *data, struct strbuf *err);
/* The standings: a page a game module (ratings-MODULE.html) and a page a
 * player (player-N.html), names only, never an address; the index's data
 * (index) gets the list of standings pages. */
int site_standing(sqlite3 *db, const char *dir, cJSON *index, struct strbuf *err);

#endif
