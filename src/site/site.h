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
 * Writes the site into dir, once in every language of the catalogues:
 * English at the root, each other language in a folder of its code
 * (fr/index.html), every page naming the others (one language a page,
 * with a choice). In each: index.html, and for every game
 * game-N.html and game-N/step-ID.png for each step, its picture labelled
 * in that language; the root has style.css and each game's public record
 * game-N.json (the seed once the game is over). Only what an observer may
 * see: the observer's views, the public logs, the resolved orders. With
 * changed_only, only the games that moved since the last write get their
 * page again. -1 on failure (said).
 */
int site_write(sqlite3 *db, const char *dir, bool changed_only, struct site_stats *st);

/* Where a page set goes: its folder, its language, the way back to the
 * root from it ("" or "../"). */
struct site_lang {
    const char *dir;
    const char *lang;
    const char *root;
};

/* Renders template tmpl with data into l's folder as name, atomically, in
 * l's language: data gets the page's language and the links to the same
 * page in every other. */
int site_write_template(const struct site_lang *l, const char *name, const char *tmpl, cJSON *data,
                        struct strbuf *err);
/* The standings: a page a game module (ratings-MODULE.html) and a page a
 * player (player-N.html), names only, never an address; the index's data
 * (index) gets the list of standings pages. */
int site_standing(sqlite3 *db, const struct site_lang *l, cJSON *index, struct strbuf *err);

#endif
