/* engine.h: the core of ngoma: creating games, taking orders, resolving steps when every order is in, and replaying. */
#ifndef NGOMA_ENGINE_H
#define NGOMA_ENGINE_H

#include <sqlite3.h>
#include <stdint.h>

#include "core/gamerec.h"
#include "core/submission.h"

struct search_stats;

/* Whether line (trimmed) is one of the commands every game takes: HELP,
 * BOARD, LEGAL, HISTORY, RESIGN, DRAW, CONCEDE and the like. */
bool engine_line_is_command(const char *line);


/* Who gives a game's options: the host at the shell sets any; a player
 * from the lobby only the players' (game_option.flags); a record that
 * verify --file reads only the players', the host's at their defaults.
 * A file option from anyone but the host is a name in seeds/. */
enum option_source { OPTIONS_HOST, OPTIONS_LOBBY, OPTIONS_RECORD };
#define OPTION_VALUE_MAX 256 /* characters of a value from the lobby or a record */

/* Every declared option with defaults filled in; NULL with a reason when a
 * key is unknown, a value is not text, or `from` may not set it. */
cJSON *engine_options_from(const struct game_ops *ops, const cJSON *given, enum option_source from,
                           struct strbuf *err);
/* The value of an option every game takes (rated, press, anonymous) in
 * a game's stored options: as stored, else its default. NULL for a key
 * that is no such option. */
const char *engine_core_option(const cJSON *options, const char *key);
/* The same for the host at the shell. */
cJSON *engine_options(const struct game_ops *ops, const cJSON *given, struct strbuf *err);

/* The level a bot word names: "bot" (""), "bot:easy" ("easy"),
 * "bot:strong" ("strong"), any case; NULL for any other word. */
const char *engine_bot_word(const char *word);
/* easy or strong: the level of a bot word, plain "bot" the host's
 * default (setting bot_level, strong unless set). */
const char *engine_bot_level(sqlite3 *db, const char *word);

/* A player's name (1 to 24 letters, digits, spaces, - _ . ') and mail
 * address (a bot word for a bot), checked; -1 with the reason in err. */
int engine_check_name(const char *name, struct strbuf *err);
int engine_check_email(const char *email, struct strbuf *err);

/*
 * Creates a game: checks the players, runs the module's setup with the
 * seed, stores the game, its seats (each with a fresh secret) and turn 0.
 * Runs inside the caller's transaction.
 */
int engine_new(sqlite3 *db, const struct game_ops *ops, int nseats, const char *const *names,
               const char *const *emails, const cJSON *options, int64_t seed, bool seed_chosen, int64_t *id,
               struct strbuf *err);

/* A new game as the lobby makes one: the committed seed and the players'
 * salts (the seed that deals is seed_deal of both), and the number to
 * take (a lobby table's), 0 for the next. */
struct new_game {
    const struct game_ops *ops;
    int nseats;
    const char *const *names, *const *emails;
    const cJSON *options;
    int64_t base_seed;
    const struct strlist *salts;  /* NULL: none; one a seat is stored, "" for none */
    int64_t id;
    bool seed_chosen;             /* the host gave base_seed: ngoma did not draw it */
};
int engine_new_game(sqlite3 *db, const struct new_game *ng, int64_t *id, struct strbuf *err);
/* The title of seat (0-based) in an anonymous game: Alpha, Beta, ... */
const char *engine_seat_title(int seat);
/* The next number for a game or a lobby table (they share one). */
int engine_next_id(sqlite3 *db, int64_t *id);

/*
 * Takes an order text from seat: each line in turn, checked in the position
 * the previous one left. A step resolves as soon as every seat it waits for
 * has a valid order in. Runs inside the caller's transaction; -1 means a
 * database or internal failure (roll back, and drop g: its state may have
 * moved). message_row links each stored order to the mail that carried it
 * (0: none).
 */
int engine_submit(sqlite3 *db, struct game_rec *g, int seat, const char *text, const char *source,
                  int64_t message_row, struct submission *out);

/* A bot chooses and gives seat's order (source says why: "bot", "nmr");
 * *played (owned) tells which, when not NULL. 1 when the game is stuck:
 * the bot found no order, or the game refused it (kept by stuck_mark,
 * nothing played); 0 when played. */
int engine_play_for(sqlite3 *db, struct game_rec *g, int seat, const char *source, char **played);
/* The strong bot's choice for seat (owned; NULL: no legal order): a
 * search of bot_ms (a setting). Touches no table: a caller runs it
 * outside any transaction, on a game it read, and gives the order with
 * engine_play_given once it holds the lock again and the game has not
 * moved. */
char *engine_search_for(sqlite3 *db, const struct game_rec *g, int seat, struct search_stats *stats);
/* Gives the strong bot's order for seat (takes order), as engine_play_for. */
/* Keeps game g stuck at its step: seat's bot (of level) found no order. 1. */
int engine_stuck_no_order(sqlite3 *db, struct game_rec *g, int seat, const char *level);
int engine_play_given(sqlite3 *db, struct game_rec *g, int seat, const char *source, char *order, char **played);
/* The seat of a strong bot the game waits for now (*seat, -1: none). */
int engine_strong_due(sqlite3 *db, struct game_rec *g, int *seat);
/* The order the core plays for seat now (owned), NULL when it is hers to
 * choose: her only legal order, unless the game keeps it hers. */
char *engine_forced_order(const struct game_rec *g, int seat);
/* Plays what nobody needs to choose: the orders of the easy bots the game
 * waits for, and every forced order (source "forced"), until it waits for
 * a person's choice, is over, or bot_steps (a setting) orders were given
 * in this call: a game of bots never holds a command long, and `ngoma
 * run` plays on where the last call stopped. *played (when not NULL)
 * grows by the orders given. */
int engine_autoplay(sqlite3 *db, struct game_rec *g, int *played);
/* Whether the game waits for an easy bot or a forced order now (*any).
 * A strong bot's order waits for the caller that searches outside the
 * lock (schedule_strong_bots). */
int engine_autoplay_due(sqlite3 *db, struct game_rec *g, bool *any);

/* The host ends the game now (a turn of kind 'end'): scored as the rules
 * score a finished game, or abandoned with no winner; reason goes into the
 * history. 0 when done (what happened in out), 1 when the game is over
 * already, -1 on failure. */
int engine_end(sqlite3 *db, struct game_rec *g, bool score, const char *reason, struct strbuf *out);
/* A game people played in which no person is left (every seat a bot's,
 * or left) ends at once, scored as it stands: bots do not play it out
 * on the host's time. 1 when it ended (the log in out), 0 when a person
 * plays on (or none ever did: the host's bot games play out), -1 on a
 * failure. */
int engine_end_unpeopled(sqlite3 *db, struct game_rec *g, struct strbuf *out);

/* The players end the game by agreement (a turn of kind 'end'): how is
 * GAME_END_DRAWN or GAME_END_CONCEDED, winners the seats the draw is
 * shared by or the one who did not concede. 0 when done (the log in
 * out), 1 when the game is over already, -1 on failure. */
int engine_end_agreed(sqlite3 *db, struct game_rec *g, enum game_end how, unsigned winners, struct strbuf *out);

/* The seat leaves the game by its rules (RESIGN), recorded as a turn. */
int engine_resign(sqlite3 *db, struct game_rec *g, int seat, const char *source, struct strbuf *log);

/* Applies one stored step (its kind and orders JSON) to st: what replay
 * and verify do. With check, every order must first pass the game's
 * check for its seat, canonical as stored. out (when not NULL) gets the
 * step's log, to release. -1 with the reason in report. */
int engine_apply_recorded(const struct game_ops *ops, const struct game_table *table, void *st, int turn,
                          const char *kind, const char *orders_text, bool check, struct game_log *out,
                          struct strbuf *report);

/*
 * Rebuilds the game from its seed and its resolved orders and compares
 * every stored turn. 0 when all match, 1 at the first difference (said in
 * report), -1 on failure.
 */
int engine_replay(sqlite3 *db, struct game_rec *g, struct strbuf *report);

/* Whether an order line only asks (HELP, BOARD, LEGAL, HISTORY): its
 * answer changes nothing in the game. */
bool engine_line_asks(const char *line);


#endif
