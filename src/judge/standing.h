/* standing.h: players across games: their ratings per game module, their reliability, merged addresses, and the texts that show them. */
#ifndef NGOMA_STANDING_H
#define NGOMA_STANDING_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdbool.h>

#include "lib/strbuf.h"

/* Rated games a player needs before her rating is shown as a number. */
#define STANDING_SHOWN_AFTER 5
/* The shown rating: 40 x (mu - 3 sigma), rounded. */
#define STANDING_SCALE 40.0

struct standing {
    double mu, sigma;
    int games;      /* rated games of this module */
    int shown;      /* STANDING_SCALE x ordinal, rounded */
    bool is_new;    /* fewer than STANDING_SHOWN_AFTER games: shown as "new" */
};

struct reliability {
    int asked, missed, left, abandoned;
    int score;      /* 100 - 200 x missed / asked - 10 x abandoned, within 0 and 100 */
};

/* Takes every finished game the ratings have not taken yet, in the order
 * the games ended (at most a few hundred a call): rated or not, and why. */
int standing_catch_up(sqlite3 *db);
/* A game counts for the ratings only when every rated seat gave this
 * many orders of its own. */
#define STANDING_OWN_ORDERS 3
/* Whether finished game id counts for the ratings, and if not why, in a
 * sentence (nothing before it is rated). */
int standing_game_text(sqlite3 *db, int64_t id, const char *lang, struct strbuf *out);
/* The person behind an address (the address it was merged into). Owned. */
char *standing_person(sqlite3 *db, const char *address);
int standing_rating(sqlite3 *db, const char *person, const char *module, struct standing *out);
/* A standing from a row's columns col (mu), col + 1 (sigma) and col + 2
 * (games), shown and is_new filled in. */
void standing_of_row(sqlite3_stmt *q, int col, struct standing *s);
int standing_reliability(sqlite3 *db, const char *person, struct reliability *out);
/* "1342", or "new" in lang. */
void standing_shown(const struct standing *s, const char *lang, char out[16]);
/* ngoma merge-player: alias's games count as keep's; every rating is
 * computed again in the order the games were taken. */
/* Every rating taken again from every finished game, in the order they
 * ended: after a merge, or a rollback that withdrew a game's end. */
int standing_retake(sqlite3 *db);
int standing_merge(sqlite3 *db, const char *keep, const char *alias, struct strbuf *out);

/* The top 20 of module and, when not among them, asker; for RATINGS and
 * `ngoma ratings`. names: players by their names (the lobby) or with
 * their addresses too (the host's shell). */
int standing_ratings_text(sqlite3 *db, const char *module, const char *asker, bool addresses, const char *lang,
                          struct strbuf *out);
/* A player's ratings, reliability and games: for PROFILE and `ngoma player`.
 * Both in lang (NULL: English). */
int standing_profile_text(sqlite3 *db, const char *person, bool addresses, const char *lang, struct strbuf *out);
/* The person a PROFILE names: an address, or a name some seat has had (the
 * most recent); NULL when none. Owned. */
char *standing_find(sqlite3 *db, const char *who);
/* A player's name as players know her: her latest seat's name. Owned. */
char *standing_name(sqlite3 *db, const char *person);

#endif
