/* chores.c: what `ngoma run` and the clock of ngoma serve do when due: deadlines, reminders and policies, bots, digests, the admin's alert, pruning, the site. */
#include "serve/chores.h"
#include "judge/standing.h"
#include "judge/alert.h"
#include "site/site.h"
#include "judge/strong.h"
#include "store/db.h"
#include "store/settings.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

int chores_do(sqlite3 *db, bool strong, struct chores_stats *st)
{
    int rc = 0;
    memset(st, 0, sizeof(*st));
    if (schedule_run(db, &st->ss))
        rc = -1;
    /* Games of bots play on where the last command stopped; the strong
     * bots search with no lock held, each move then given in a
     * transaction of its own. */
    if (schedule_bots(db, &st->ss) || (strong && strong_bots_play(db, 0, &st->ss)))
        rc = -1;
    /* MAIL DIGEST: the news of the period. */
    if (schedule_digests(db, &st->ss))
        rc = -1;
    /* Finished games the ratings have not taken yet (a game ended by an
     * older ngoma, or a backlog) are taken in the order they ended. */
    if (db_begin(db) || standing_catch_up(db) || alert_host(db, &st->alerted) || db_commit(db)) {
        db_rollback(db);
        rc = -1;
    }
    {
        /* What is older than the retention goes (sent mail, raw copies,
         * journal rows); the games' history stays. */
        char *age = setting_get(db, "retention");
        long secs;
        if (age && duration_parse(age, &secs) && db_prune(db, clock_now() - secs, &st->pruned))
            rc = -1;
        free(age);
    }
    {
        /* The public site, when the host keeps one: the games that moved. */
        char *site = setting_get(db, "site_dir");
        struct site_stats ss = { 0 };
        if (site && *site && site_write(db, site, true, &ss))
            rc = -1;
        st->site_pages = ss.games;
        free(site);
    }
    return rc;
}

void chores_summary(const struct chores_stats *st, struct strbuf *out)
{
    const struct schedule_stats *ss = &st->ss;
    strbuf_addf(out,
                "%d games with deadlines: %d reminders, %d orders played by bots, %d seats dropped, %d hosts told of"
                " stalls; %d bot steps in %d games; %d digests",
                ss->games, ss->reminders, ss->bots, ss->drops, ss->stalled, ss->bot_steps, ss->bot_games, ss->digests);
}

int chores_lock(const char *db_path)
{
    struct strbuf path = STRBUF_INIT;
    int fd;
    strbuf_addf(&path, "%s.lock", db_path);
    fd = lock_file(path.buf);
    strbuf_release(&path);
    return fd;
}

int chores_run_begin(sqlite3 *db, int64_t *id, char *errors, size_t size)
{
    char now[32];
    utc_now(now);
    if (db_do(db, "INSERT INTO runs(started_at) VALUES (?)", "s", now))
        return -1;
    *id = sqlite3_last_insert_rowid(db);
    /* Every failure of the run is kept in its row, for list, status and
     * the host's alert. */
    error_capture(errors, size);
    return 0;
}

int chores_run_end(sqlite3 *db, int64_t id, struct strbuf *summary, const char *errors)
{
    char now[32];
    int n = error_captured();
    utc_now(now);
    error_capture(NULL, 0);
    if (n)
        strbuf_addf(summary, "; %d error%s", n, n == 1 ? "" : "s");
    return db_do(db, "UPDATE runs SET finished_at = ?, summary = ?, errors = ?, error_text = nullif(?, '') WHERE id = ?",
                 "ssisI", now, summary->buf, n, errors, id);
}
