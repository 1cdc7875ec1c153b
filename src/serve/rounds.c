/* rounds.c: what the children of ngoma serve do each round: the sender sends what is due, the clock runs the chores when they fall due, the bots child plays the strong bots. */
#include "serve/rounds.h"
#include "serve/chores.h"
#include "intake/inbox.h"
#include "judge/strong.h"
#include "intake/wake.h"
#include "mail/send.h"
#include "store/db.h"
#include "lib/util.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

double serve_send_round(sqlite3 *db, const char *db_path)
{
    struct send_stats st;
    int64_t next = 0;
    time_t now;
    if (outbox_send(db, db_path, &st))
        return 5; /* the database failed: again in a moment */
    if (st.busy)
        return 1; /* another sender is at it, and takes what is queued */
    now = clock_now();
    if (db_get_int64(db, &next,
                     "SELECT coalesce(min(unixepoch(next_attempt_at)), 0) FROM outbox WHERE status = 'queued'",
                     NULL) != 1 || next == 0)
        return 60;
    return next > now ? (double)(next - now) : 0.2;
}

double serve_read_round(sqlite3 *db, const char *db_path)
{
    struct intake_stats st = { 0 };
    if (inbox_take(db, db_path, 0, &st))
        return 5; /* the database failed: again in a moment */
    /* What it took queued answers and may have begun steps: the server
     * wakes the sender, and the clock, which plays the strong bots the
     * mail left due within their share (the reader never searches: the
     * next mail's answer does not wait for a bot). */
    if (st.messages)
        wake_server(db_path);
    /* A mail that could not be taken is tried again within a minute. */
    return 60;
}

/* What the clock knows between rounds: the child lives as long as the
 * server. */
static time_t next_pass, last_pass, bots_at;

/* Whether any game waits with a strong bot in it (a partial index: as
 * many rows as strong bots). */
static bool strong_pending(sqlite3 *db)
{
    int64_t n = 0;
    return db_get_int64(db, &n,
                        "SELECT EXISTS (SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id WHERE s.bot = 1 AND"
                        " s.bot_level = 'strong' AND g.status <> 'finished' AND g.paused = 0)",
                        NULL) == 1 &&
           n;
}

double serve_bots_round(sqlite3 *db, const char *db_path)
{
    /* A pass a second at most: the server wakes this child with every
     * mail and every wake of its own (one this pass asks for too). */
    static double next_at;
    struct schedule_stats ss = { 0 };
    double now = monotonic_ms() / 1000.0;
    if (now < next_at)
        return next_at - now;
    if (!strong_pending(db))
        return 60;
    if (strong_bots_play(db, 0, &ss))
        return 5; /* the database failed: again in a moment */
    next_at = now + 1;
    /* What the moves queued goes out now: the server wakes the sender. */
    if (ss.bot_steps)
        wake_server(db_path);
    now = monotonic_ms() / 1000.0;
    return strong_pending(db) ? (next_at > now ? next_at - now : 0) : 60;
}

double serve_clock_round(sqlite3 *db, const char *db_path)
{
    time_t now = clock_now(), when = 0, due;
    /* Asked afresh each round (a mail just taken may have begun a step):
     * what falls after the last pass, which did what was due by then. */
    int found = schedule_next_due(db, last_pass, &when);
    due = found == 1 ? when : 0;
    if (bots_at && (!due || bots_at < due))
        due = bots_at;
    if (now >= next_pass || (due && now >= due)) {
        static char errors[8192];
        struct chores_stats cs = { 0 };
        struct strbuf summary = STRBUF_INIT;
        int64_t run;
        int lock = chores_lock(db_path);
        if (lock == -1)
            return 5; /* an `ngoma run` is at it: look again soon */
        if (lock < 0)
            return 60;
        if (chores_run_begin(db, &run, errors, sizeof(errors)) == 0) {
            chores_do(db, false, &cs); /* the strong bots are the bots child's */
            strbuf_addstr(&summary, "serve: ");
            chores_summary(&cs, &summary);
            strbuf_addf(&summary, "; %d site pages; pruned %lld mails and %lld journal rows", cs.site_pages,
                        (long long)cs.pruned.sent, (long long)cs.pruned.journal);
            chores_run_end(db, run, &summary, errors);
            strbuf_release(&summary);
        }
        close(lock);
        /* What the chores queued goes out now: the server wakes the sender. */
        wake_server(db_path);
        next_pass = now + 300;
        last_pass = now;
        /* Bots that stopped at bot_steps play on in a second. */
        bots_at = cs.ss.bot_steps > 0 ? now + 1 : 0;
        found = schedule_next_due(db, last_pass, &when);
        due = found == 1 ? when : 0;
        if (bots_at && (!due || bots_at < due))
            due = bots_at;
    }
    when = due && due < next_pass ? due : next_pass;
    return when > now ? (double)(when - now) : 0;
}
