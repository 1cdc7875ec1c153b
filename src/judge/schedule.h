/* schedule.h: deadlines, reminders and missing-order policies, applied by `ngoma run` once per game and run. */
#ifndef NGOMA_SCHEDULE_H
#define NGOMA_SCHEDULE_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "core/gamerec.h"
#include "judge/runstats.h"

/* What `ngoma new` sets for a game's clock. */
struct schedule_opts {
    long deadline;         /* seconds per step, 0: none */
    long reminders[8];     /* seconds before the deadline */
    int nreminders;
    bool reminders_given;  /* else the defaults (24h and 2h before, those that fit) */
    long grace;
    const char *nmr;       /* wait, bot or drop; NULL: wait */
    const char *host;      /* the host's address, or NULL */
};

/* Stores the clock and host of a new game and starts its first step's
 * deadline. -1 with a reason in err for bad values. */
int schedule_configure(sqlite3 *db, int64_t id, const struct schedule_opts *o, struct strbuf *err);
/* Reads "24h,2h" into o->reminders. */
int schedule_parse_reminders(const char *list, struct schedule_opts *o, struct strbuf *err);


/*
 * For every game with a deadline, in its own transaction: sends the
 * reminder now due (one: those missed while ngoma was down are skipped),
 * and when the deadline and grace have passed, applies the game's policy
 * to the seats still missing, once. The next step's deadline counts from
 * now, so an outage never fires a cascade.
 */
int schedule_run(sqlite3 *db, struct schedule_stats *st);

/* Every unfinished game that waits for an easy bot or a forced order,
 * each in its own transaction: they play on (bot_steps at most a game
 * and run), and the players are told. The strong bots are
 * strong_bots_play's (judge/strong.h). */
int schedule_bots(sqlite3 *db, struct schedule_stats *st);

/* Every seat on MAIL DIGEST with news no mail told it, whose last mail is
 * a period old, gets its digest (each game in its own transaction). */
int schedule_digests(sqlite3 *db, struct schedule_stats *st);

/* When a reminder, a deadline with its grace, the end of a vacation or a
 * digest next falls after now, for a server that keeps the clock: 1 with
 * the time in *when, 0 when nothing is due ever, -1 on failure. It may
 * name a time at which nothing turns out to be due (a seat that sent its
 * order meanwhile): a run then does nothing. */
int schedule_next_due(sqlite3 *db, time_t now, time_t *when);


#endif
