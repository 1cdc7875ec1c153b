/* gamerec.h: one game as the core holds it: its database row, its seats, and its module state. */
#ifndef NGOMA_GAMEREC_H
#define NGOMA_GAMEREC_H

#include <sqlite3.h>
#include <stdint.h>
#include <time.h>

#include "games/game.h"

struct seat_info {
    char *name;
    char *email;
    char *secret;
    bool bot;              /* a bot plays this seat */
    char bot_level[8];     /* its level when it does: easy or strong */
    char *timezone;        /* deadlines are shown in it */
    char *vacation_until;  /* UTC, NULL or "" when none */
    char mail_policy[8];   /* turn, every, digest (MAIL) */
    long digest_secs;      /* the period of a digest */
    int told_step;         /* the last step her mails have told her */
    char *told_at;         /* when the last such mail went (UTC), "" never */
    bool images;           /* IMAGES ON: her mails show the board as a picture */
    char *real_name;       /* anonymous=yes: the name she gave (name is her title); NULL otherwise */
    char lang[8];          /* the language she reads (store/languages.h) */
};

/* How a game keeps time: its deadline per step, reminders, grace, and
 * what happens to a missing order. */
struct game_schedule {
    long deadline_secs;    /* 0: no deadline */
    long reminders[8];     /* seconds before the deadline, largest first */
    int nreminders;
    long grace_secs;
    char nmr[8];           /* wait, bot, drop */
    char nmr_level[8];     /* nmr bot: the level of the bot that plays (easy, strong) */
    bool paused;
    char *step_started_at; /* UTC */
    char *deadline_at;     /* UTC; NULL or "" when none */
    char *host_email;      /* NULL when the game has no host */
    char *host_secret;
};

/* The reminders a games or lobby_tables row stores (a JSON list of seconds
 * before the deadline), at most 8; false when none is stored (NULL). */
bool game_reminders_read(const char *text, long reminders[8], int *n);

struct game_rec {
    int64_t id;
    const struct game_ops *ops;
    cJSON *options;
    int64_t seed;          /* the seed that deals */
    int64_t base_seed;     /* the committed one (secret until the end) */
    char commitment[65];   /* its SHA-256, "" for a game from before commitments */
    cJSON *salts;          /* the players' salts, in seat order */
    bool seed_chosen;      /* the host gave the seed (ngoma new --seed): ngoma did not draw it */
    char status[16];   /* setup, active, finished */
    int turn;          /* resolved steps so far */
    void *st;          /* the module's state */
    int nseats;
    struct seat_info seats[GAME_MAX_SEATS];
    const char *names[GAME_MAX_SEATS];
    struct game_table table;
    struct game_schedule sched;
};

/* Reads a GAME argument ("12" or "#12"). */
int game_id_parse(const char *s, int64_t *id);
/* Loads game id; -1 after reporting (a missing game says so). */
int game_load(sqlite3 *db, int64_t id, struct game_rec *g);
void game_unload(struct game_rec *g);
/* Finds a seat by player name (any case) or seat number (1..n); -1 when none. */
int game_seat_find(const struct game_rec *g, const char *who);
/* The name seat's player gave: her real name behind an anonymous game's
 * title, else the seat's name. Only for what may name her (a finished
 * game's rematch, the host). */
const char *game_person(const struct game_rec *g, int seat);
/* Whether a bot plays seat: one seated as a bot, or one a bot took over
 * from its person (kicked, dropped at the deadlines). */
bool game_seat_bot(const struct game_rec *g, int seat);
/* The seats (1..n) a query's first column names, as a mask; steps and
 * finalizes st (NULL: its preparing failed). 0, or -1. */
int game_seat_mask(sqlite3_stmt *st, const struct game_rec *g, unsigned *mask);
/* The status the core stores for the module's state. */
const char *game_status_of(const struct game_ops *ops, const void *st);
/* Whether the game keeps anything from some seat (a module with secrets
 * or with something to deal anew for its bots: hands, shields, decks). */
bool game_hides_anything(const struct game_ops *ops);
/* The module's phase: "setup" or "play" (a game without a phase op is in play). */
const char *game_phase_of(const struct game_ops *ops, const void *st);
/* Where the game stands in players' words (the module's when, else the
 * steps counted). */
void game_when_of(const struct game_ops *ops, const void *st, const struct game_table *t, int steps,
                  struct game_when *w);
/* "round 3 of 12", "turn 2, second play phase", "move 7", "setup". */
void game_when_text(const struct game_when *w, char out[128]);
/* The same for the game as it stands. */
void game_when_now(const struct game_rec *g, char out[128]);
/* w in lang ("manche 3 sur 12"): the catalogue's when.UNIT and
 * phase.PHASE (a phase it lacks as the game says it). */
void game_when_in(const struct game_when *w, const char *lang, char out[128]);
/* A when as game_when_text wrote it in English (stored with each step) in
 * lang; as it is when it is no such text. */
void game_when_text_in(const char *english, const char *lang, char out[128]);
/* The game as it stands, in lang. */
void game_when_now_in(const struct game_rec *g, const char *lang, char out[128]);

/* The effective deadline of the step (vacations of the missing seats push
 * it out), 0 when none. */
time_t game_deadline(const struct game_rec *g, unsigned missing);
/* Starts the clock of a new step: its deadline counted from now. */
void game_step_started(struct game_rec *g);
/* Writes the in-memory state, turn, status, result and step clock to the games row. */
int game_save(sqlite3 *db, struct game_rec *g);
/* The seat's name, and "(strong bot)" or "(easy bot)" after a bot's:
 * where the players are listed once (a board's Players line, the site). */
void game_seat_label(const struct game_rec *g, int seat, struct strbuf *out);
/* The same in lang: "Zola (robot fort)". */
void game_seat_label_in(const struct game_rec *g, int seat, const char *lang, struct strbuf *out);
/* g's table for a reader of lang: a game's board and refusals in her words. */
struct game_table game_table_in(const struct game_rec *g, const char *lang);
/* The game in a line (its ops->summary), in lang when her catalogue has
 * summary.GAME. */
void game_summary_in(const struct game_ops *ops, const char *lang, struct strbuf *out);
/* The names of the seats in mask, "Ann and Bob" style, appended to out. */
void game_names_of(const struct game_rec *g, unsigned mask, struct strbuf *out);
/* The same in lang: "Ama, Bo et Cida" (the catalogue's list.and). */
void game_names_in(const struct game_rec *g, unsigned mask, const char *lang, struct strbuf *out);
/* The result as JSON: {"finished":..,"winners":[names],"scores":{name:n}}. */
cJSON *game_result_json(const struct game_rec *g);

/* The seats whose order for the step is in, waiting for the others (a mask). */
int game_pending(sqlite3 *db, struct game_rec *g, unsigned *mask);
/* The seats the step waits for whose order has not come (a mask). */
int game_missing(sqlite3 *db, struct game_rec *g, unsigned *missing_mask);
/* The seats that left the game (a live RESIGN), and of them those dropped
 * at a missed deadline (masks). */
int game_left(sqlite3 *db, struct game_rec *g, unsigned *left, unsigned *dropped);

#endif
