/* view.h: what one seat (or an observer) sees of a game: its board and status, as text and as JSON. */
#ifndef NGOMA_VIEW_H
#define NGOMA_VIEW_H

#include <sqlite3.h>

#include "core/gamerec.h"

/* The game as viewer (a seat, or -1) may see it: game, module, status,
 * turn, phase, waiting_for (names still missing), players, winners, and
 * the module's own view under "view". */
cJSON *view_json(sqlite3 *db, struct game_rec *g, int viewer);
/* Adds view_json's "players" (seat, name) and "viewer" (her name, for a seat) to j. */
void view_add_players(cJSON *j, const struct game_table *t, int viewer);
/* A header line, the module's board, and whose orders are awaited. */
int view_ascii(sqlite3 *db, struct game_rec *g, int viewer, struct strbuf *out);
/* The same in lang (a seat's is hers; an observer's, a watcher's). */
int view_ascii_in(sqlite3 *db, struct game_rec *g, int viewer, const char *lang, struct strbuf *out);
/* "Waiting for Ann." / "Waiting for 2 players." / "Game over: Ann wins." */
int view_status_line(sqlite3 *db, struct game_rec *g, const char *lang, struct strbuf *out);
/* Replaces g's state with the snapshot stored for turn (for show --turn). */
int view_load_turn(sqlite3 *db, struct game_rec *g, int turn);

/* The module's view of viewer (-1: an observer) at a stored step, NULL
 * when there is none: what a picture marks the changes against. */
cJSON *view_module_at(sqlite3 *db, const struct game_rec *g, int step, int viewer);

/* The seed commitment, the salts and (once the game is over) the seed,
 * a few lines for show and the mails; nothing for a game from before
 * commitments. */
void view_fairness(const struct game_rec *g, const char *lang, struct strbuf *out);
/* Once an anonymous game is over, who played each title ("Alpha was
 * Ann, ..."), wrapped for a mail; nothing before, or for another game. */
/* A picture's words in lang (NULL: the observer's, English): its alt
 * text, where the game stands in her words; with a language, the view
 * says it and that place (render/draw.c reads them). */
void view_picture_words(cJSON *view, const char *lang, struct strbuf *alt);
void view_who_was_who(const struct game_rec *g, const char *lang, struct strbuf *out);

#endif
