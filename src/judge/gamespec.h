/* gamespec.h: a game's terms (seats, options, clock, missed turns, gates) read by one table from ngoma new's flags and the lobby's words, kept with a lobby table, and the one way a game starts. */
#ifndef NGOMA_GAMESPEC_H
#define NGOMA_GAMESPEC_H

#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/engine.h"
#include "judge/schedule.h"
#include "lib/strbuf.h"

/* Who gives the terms: the host at the shell (--deadline 48h) or anyone
 * at the lobby (DEADLINE 48h), who may set less and within narrower
 * bounds. */
enum spec_from { SPEC_HOST = 1, SPEC_LOBBY = 2 };

struct game_spec {
    const struct game_ops *ops;
    int seats;                   /* the lobby's SEATS (ngoma new counts its players) */
    cJSON *options;              /* as given: key to text, checked when the game is made */
    struct schedule_opts clock;  /* deadline, reminders, grace, nmr (points into nmr), host */
    char nmr[12];                /* wait, drop, bot, bot:easy, bot:strong */
    int min_reliability;         /* the lobby's gates: 0 none */
    int min_rating;
    bool gate_rating;
    const char *lang;            /* the lobby's errors in it (NULL: English); the shell's are English */
};

/* The game's usual terms: seats as the lobby offers by default (4, within
 * the game's), no options, no clock, NMR wait, no gates. */
void game_spec_init(struct game_spec *s, const struct game_ops *ops);
void game_spec_release(struct game_spec *s);

/* The i-th term from takes, lower case ("deadline"); NULL past the last.
 * ngoma new's flags are these words after "--". */
const char *game_spec_term(int i, enum spec_from from);
/* Whether word (any case) is a term from takes. */
bool game_spec_word(const char *word, enum spec_from from);
/* Sets the term word (any case) to value: 0; 1 with what was wrong and
 * what would be right in err. */
int game_spec_set(struct game_spec *s, const char *word, const char *value, enum spec_from from, struct strbuf *err);
/* After the last term, what the terms together cannot be (a REMIND, GRACE
 * or NMR without a DEADLINE): 1 with err. */
int game_spec_check(const struct game_spec *s, enum spec_from from, struct strbuf *err);
/* The terms as written from: "[SEATS 2 to 5] [OPTION key=value] ..." or
 * "[--option KEY=VALUE ...] [--deadline 48h] ...". */
void game_spec_usage(const struct game_ops *ops, enum spec_from from, struct strbuf *out);

/* A lobby table's terms, stored with it and read back (the clock, NMR and
 * gates; seats and options have their columns too). */
int game_spec_save_table(sqlite3 *db, int64_t table, const struct game_spec *s);
int game_spec_load_table(sqlite3 *db, int64_t table, struct game_spec *s);
/* The terms a finished game was played under, for its rematch. */
int game_spec_load_game(const struct game_rec *g, struct game_spec *s);

/*
 * Starts a game: made as ng says (engine_new_game), its clock and host set
 * from s, bots and forced orders played, every seat welcomed. Inside the
 * caller's transaction; -1 with the reason in err for terms or players the
 * game refuses (err empty: a failure of the database).
 */
int game_start(sqlite3 *db, const struct new_game *ng, const struct game_spec *s, int64_t *id, struct strbuf *err);

#endif
