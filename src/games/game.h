/* game.h: the interface every game module implements, and the registry of games. */
#ifndef NGOMA_GAME_H
#define NGOMA_GAME_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "lib/strbuf.h"
#include "lib/strlist.h"

struct rng;

#define GAME_MAX_SEATS 8
/* Orders of one kind (or one card, one piece) this few are listed in full
 * in every mail, never summed up: a summary that names a handful makes
 * a player ask for them. */
#define GAME_ORDERS_IN_FULL 8

/* Who may set an option, and what it touches (game_option.flags). An
 * option without OPTION_HOST is the players': seats, variants, house
 * rules, set from the lobby as from the shell. */
#define OPTION_HOST 1u /* only the host, at the shell: never from the lobby or a record */
#define OPTION_FILE 2u /* names a data file: a name in seeds/, or a path the host gives */
#define OPTION_DEAL 4u /* fixes what the shuffle would decide (a layout, a deck) */

/* One option a game accepts with `ngoma new --option KEY=VALUE`. */
struct game_option {
    const char *key;
    const char *def;  /* the default, as text */
    const char *help; /* what it means and which values it takes */
    unsigned flags;   /* OPTION_HOST, OPTION_FILE, OPTION_DEAL */
};

/* What the core tells a module about the players: modules know no names,
 * addresses or database rows otherwise. Seats are numbered from 0. */
struct game_table {
    int nseats;
    const char *const *names;
    const char *lang; /* the reader's language, for view_ascii's words (lib/catalog.h); NULL: English */
};

/* What a step produced: the public log every seat and observer may read,
 * and notes meant for one seat only (a card drawn, a tile collected). */
struct game_log {
    struct strbuf pub;
    struct strbuf priv[GAME_MAX_SEATS];
    /* The public log as events (game_event), when the game writes them:
     * each reader reads them in her language. NULL: English lines only. */
    cJSON *events;
    /* Each seat's notes as events (game_note), likewise. */
    cJSON *priv_events[GAME_MAX_SEATS];
    /* The bytes of pub (of priv[i]) its events wrote: they say all of it
     * when that is its length (game_log_evented). */
    size_t evented, priv_evented[GAME_MAX_SEATS];
    /* For resign: the seat leaves because it missed a deadline, not by
     * its own RESIGN; the log says which (GAME_LEAVES gives the words). */
    bool dropped;
};
/*
 * A step's public log as events: each event is a phrase of the catalogues
 * (event.KEY in templates/lang/LL.po) and its values. game_event writes
 * its English line to log->pub at once and keeps the event in
 * log->events, and each reader reads the step in her language. The values
 * follow the key as (type, name, value) and end with EV_END:
 *   EV_INT, name, int          a number (the one named n picks a plural)
 *   EV_STR, name, const char * a name or a word shown as it is
 *   EV_NAMES, name, const char *const *names, int n
 *                              names listed with the reader's "and":
 *                              "Ama, Bo and Cida"
 *   EV_TERM, name, const char *term
 *                              a word of the game the catalogue gives as
 *                              term.TERM ("kuniumi.earth-god": Earth God)
 *   EV_TERMPAD, name, const char *term, int width
 *                              the same, padded to width columns (a table)
 *   EV_ANDS, name, const char *const *names, int n
 *                              the same with "and" between each two:
 *                              "Ama and Bo and Cida"
 * depth: the line's indent in steps of two spaces; EV_WRAPPED: the line
 * wrapped at 72 columns, its continuation indented two. A step whose log
 * has events is read from them only if every line of it is one (checked
 * when it is stored); else its English lines are read.
 */
enum { EV_END, EV_INT, EV_STR, EV_NAMES, EV_ANDS, EV_TERM, EV_TERMPAD };
#define EV_WRAPPED (-1)
#define EV_WRAPPED_DEEP (-2) /* indented two, wrapped at 70 with its continuation at four */
void game_event(struct game_log *log, int depth, const char *key, ...);
/* The same from a va_list (a game's own helper that passes them on);
 * a NULL log (a dry run) writes nothing. */
void game_eventv(struct game_log *log, int depth, const char *key, va_list ap);
/* A note for seat alone (a card drawn), as game_event writes the public
 * log: to log->priv[seat] in English and log->priv_events[seat]. */
void game_note(struct game_log *log, int seat, int depth, const char *key, ...);
/* Whether events say all of the public log (seat < 0) or of seat's
 * notes: nothing was written to it but by game_event or game_note. */
bool game_log_evented(const struct game_log *log, int seat);
/* Whether a log is read (not a bot's look-ahead, whose words are dropped):
 * a game builds the values of an event only then. */
static inline bool game_log_read(const struct game_log *log)
{
    return log && log->pub.buf != strbuf_sink;
}
/* The lines of events (a step's log->events, or as stored) in lang. */
void game_events_text(const cJSON *events, const char *lang, struct strbuf *out);

/* "resigns" or "missed the deadline and leaves": how a log says a seat left. */
#define GAME_LEAVES(log) ((log)->dropped ? "missed the deadline and leaves the game" : "resigns")

/* Where a game stands in the words players use: "round 3 of 12", "turn
 * 2, second play phase", "move 7". number counts from 1; 0 is the setup,
 * before the first (phase then names it: "setup", "entering"). Who is to
 * act the core adds from waiting_for. */
struct game_when {
    const char *unit;  /* "round", "turn", "move" (static) */
    int number;
    int of;            /* how many there are, when the rules fix it; else 0 */
    char phase[48];    /* the part of the turn, or "" */
};

/* How a game ended: by its rules, by its host (ngoma end), or by the
 * players' agreement (a draw they all voted for, or all but one
 * conceding). */
enum game_end { GAME_END_RULES, GAME_END_SCORED, GAME_END_ABANDONED, GAME_END_DRAWN, GAME_END_CONCEDED };
#define GAME_END_LAST GAME_END_CONCEDED

/* Whether the players agreed the end: the winners are then the seats
 * they agreed on (a draw's, or the one who did not concede). */
static inline bool game_end_agreed(int ended)
{
    return ended == GAME_END_DRAWN || ended == GAME_END_CONCEDED;
}

struct game_result {
    bool finished;
    enum game_end ended;          /* for a finished game: who ended it, and how */
    unsigned winners;             /* bitmask of seats; several share a win */
    bool has_scores;
    int scores[GAME_MAX_SEATS];
    const char *score_name;       /* "points", "favor", "VT"... */
    /* A win the rules gave on a tie-break: the seats that tied (the
     * winner among them), how the tie was broken (static text, "in seat
     * order from the King's Marker holder") and from which seat (-1:
     * none); tied is 0 when no tie was broken. */
    unsigned tied;
    const char *tie_rule;
    int tie_from;
};

/* For a game the players ended by agreement: its winners are theirs, and
 * no score or tie-break decided it. */
static inline void game_result_agreed(struct game_result *r, int ended, unsigned agreed)
{
    if (!r->finished || !game_end_agreed(ended))
        return;
    r->winners = agreed;
    r->has_scores = false;
    r->tied = 0;
}

/*
 * A game module owns only its rules: the core owns transactions, turn
 * numbers, pending orders, history and mail. A state is the module's own
 * opaque object; everything a replay needs, the seeded generator included,
 * is in it and in its JSON.
 */
struct game_ops {
    const char *name;             /* module name used on the command line */
    const char *title;
    const char *summary;          /* one line: what the game is */
    int min_seats, max_seats;
    const struct game_option *options; /* terminated by a NULL key */

    /* options: an object holding every declared key (defaults filled in),
     * values as strings. NULL with a reason in err when a value is bad. */
    void *(*setup)(const cJSON *options, int nseats, uint64_t seed, struct strbuf *err);
    void (*free)(void *st);
    /* Optional: a copy of the state, for the bots' look-ahead (without it
     * the core copies through to_json and from_json). */
    void *(*clone)(const void *st);
    cJSON *(*to_json)(const void *st);
    /* Must reject anything malformed with a reason and never crash. */
    void *(*from_json)(const cJSON *json, struct strbuf *err);

    /* Optional: "setup" while the game's own setup steps are being played,
     * else "play"; a game without setup steps leaves it out. */
    const char *(*phase)(const void *st);
    /* Optional: the round (or turn, or move) players count, for every
     * mail, history line and show; without it the core counts steps. */
    void (*when)(const void *st, const struct game_table *t, struct game_when *w);
    /* The seats whose orders the next step needs, as a bitmask: one seat for
     * a sequential step, several for a simultaneous one, 0 when finished. */
    unsigned (*waiting_for)(const void *st);
    /* Checks one order line for a waited-for seat (t: the players' names,
     * which some orders name). On success writes the
     * canonical text (a form `legal` lists) to canon and returns 0; else
     * writes why to why and returns -1. Never changes the state. */
    int (*check)(const void *st, int seat, const struct game_table *t, const char *order, struct strbuf *canon,
                 struct strbuf *why);
    /* Resolves the step: orders[seat] is the canonical order of every
     * waited-for seat, NULL for the others. Returns -1 only on an internal
     * inconsistency (the core then rolls back). */
    int (*advance)(void *st, const char *const *orders, const struct game_table *t, struct game_log *log);
    /* Every legal order of seat now, canonical, as it could be mailed. */
    void (*legal)(const void *st, int seat, const struct game_table *t, struct strlist *out);
    /* Optional: true when order, though seat's only legal one, is still
     * hers to give (choosing it says something the rules care about). The
     * core plays every other single legal order at once, for her. */
    bool (*keep_choice)(const void *st, int seat, const char *order);
    /* Optional: a line (or a few, each within 72 columns) saying which
     * orders of one kind seat may give: orders all begin with the same
     * word, as legal lists them. False when the core's own summary does;
     * e.g. "FOOD first, up to 4 steps: FOOD c4, or a path FOOD c4-d5". */
    bool (*summarize)(const void *st, int seat, const struct game_table *t, const struct strlist *orders,
                      struct strbuf *out);
    /* What viewer (a seat, or -1 for an observer) may see. */
    cJSON *(*view_json)(const void *st, int viewer, const struct game_table *t);
    void (*view_ascii)(const void *st, int viewer, const struct game_table *t, struct strbuf *out);
    void (*result)(const void *st, struct game_result *r);
    /* The seat leaves the game by the game's rules. */
    void (*resign)(void *st, int seat, const struct game_table *t, struct game_log *log);
    /* The unfinished game ends now, how: GAME_END_SCORED (the host's: the
     * position is scored as the rules score a finished game), _ABANDONED
     * (no winner), _DRAWN or _CONCEDED (the players agreed: the winners
     * are agreed, a mask, and the core writes the log). The result says
     * which (ended), and for an agreed end its winners are agreed. */
    void (*end)(void *st, enum game_end how, unsigned agreed, const struct game_table *t, struct game_log *log);
    /* Optional: how good the state is for seat (higher is better), for the
     * bots' one-step look-ahead; without it bots play at random. */
    long long (*evaluate)(const void *st, int seat);
    /* Optional: strings that only `seat` may ever see (its hand, its
     * shield); the conformance suite checks no other view contains them. */
    void (*secrets)(const void *st, int seat, const struct game_table *t, struct strlist *out);
    /* Optional, for games with hidden cards: deals anew, at random from
     * salt, everything seat cannot see (decks, the others' hands) and
     * keeps all it can. The bots look ahead on such a state only, so a
     * bot knows no more than a player in its seat. */
    void (*determinize)(void *st, int seat, uint64_t salt);
    /* Optional: the seats on seat's side, its own among them, in a game
     * played by sides (partnership Bantu: seats 1 and 3, 2 and 4); a side
     * concedes, wins and is rated together. Without it every seat is a
     * side of its own. */
    unsigned (*side)(const void *st, int seat);
    /* Optional: the steps a strong bot's playout plays before evaluate()
     * scores it, as measured for the game (bench/strength.sh); 0 for
     * none (the tree's leaf is scored as it stands); unset (-1 is
     * never given): SEARCH_DEPTH_DEFAULT. */
    int search_depth;
    bool search_depth_set;
};

/* The registry: every game ngoma knows, in one table. */
extern const struct game_ops *const game_registry[];
const struct game_ops *game_find(const char *name);
/* The game words name as people write it: by its name or title, with or
 * without spaces and dashes, or a prefix of three letters or more that
 * names one game ("African Empires", "africanempires", "kali"); up to
 * three words of n, how many in *used. NULL: none, or several. */
const struct game_ops *game_named(char *const *words, int n, int *used);
/* Tests add their own tiny games here. */
void game_register_extra(const struct game_ops *ops);

void game_log_init(struct game_log *log);
/* A log whose words are dropped (strbuf sinks): for the steps a bot
 * only looks ahead at, which nobody reads. */
void game_log_init_quiet(struct game_log *log);
void game_log_release(struct game_log *log);

#endif
