/* history.h: the story of a game turn by turn, as one seat (or an observer) may read it. */
#ifndef NGOMA_HISTORY_H
#define NGOMA_HISTORY_H

#include <sqlite3.h>

#include "core/gamerec.h"

/* Appends every resolved turn in the order played: its orders, its public
 * log, and the private notes of viewer (a seat, or -1 for none); turns a
 * host rolled back stay, marked. Pending orders never appear. */
/* The orders of steps first to last in a few words, at most three lines
 * of a mail ("Since your last mail: Bob MOVE c4, Ann MOVE d2."), the
 * newest when they are many: what a turn mail says before its board.
 * Nothing when the steps had none. */
int history_recap(sqlite3 *db, const struct game_rec *g, const char *lang, int first, int last, struct strbuf *out);
/* A stored log in lang: from its events (JSON) when it has them, else
 * its English lines. */
void history_stored_in(const char *lang, const char *events, const char *english, struct strbuf *out);
int history_render(sqlite3 *db, const struct game_rec *g, int viewer, struct strbuf *out);
/* The steps played in the game's round (turn, move) number: first..last;
 * -1 with a message when the game has none such. The position at its
 * start is the step first - 1. */
int history_steps_of(sqlite3 *db, const struct game_rec *g, int number, int *first, int *last);
/* Appends the live turns first..last only. */
int history_render_range(sqlite3 *db, const struct game_rec *g, int viewer, int first, int last, struct strbuf *out);
/* The same in lang (a watcher's: viewer -1). */
int history_render_range_in(sqlite3 *db, const struct game_rec *g, int viewer, const char *lang, int first, int last,
                            struct strbuf *out);

#endif
