/* alert.c: the host's daily alert: mail that will not go out, a queue that stalls, runs that fail. */
#include "judge/alert.h"
#include "core/reply.h"
#include "mail/mailout.h"
#include "store/db.h"
#include "store/settings.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int count(sqlite3 *db, const char *sql, const char *since, int64_t *n)
{
    return db_get_int64(db, n, sql, "s", since) < 0 ? -1 : 0;
}

/* Each game stuck at its step that no alert told of yet, once: a line
 * each, and marked told. */
static int stuck_games(sqlite3 *db, struct strbuf *what)
{
    sqlite3_stmt *q = db_stmt(db,
                              "SELECT g.id, s.since, s.why FROM game_stuck s JOIN games g ON g.id = s.game_id WHERE"
                              " s.alerted = 0 AND s.turn = g.turn AND g.status <> 'finished' ORDER BY g.id",
                              NULL);
    int rc;
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        struct strbuf line = STRBUF_INIT;
        strbuf_addf(&line, "- Game %lld cannot move on since %s (not a player's doing): %s ngoma status %lld says"
                           " the same; the next run tries again.",
                    (long long)sqlite3_column_int64(q, 0), (const char *)sqlite3_column_text(q, 1),
                    (const char *)sqlite3_column_text(q, 2), (long long)sqlite3_column_int64(q, 0));
        strbuf_add_wrapped(what, line.buf, 2, 72);
        strbuf_release(&line);
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    return db_do(db,
                 "UPDATE game_stuck SET alerted = 1 WHERE alerted = 0 AND turn = (SELECT turn FROM games g WHERE"
                 " g.id = game_stuck.game_id)",
                 NULL);
}

int alert_host(sqlite3 *db, bool *sent)
{
    char *admin = setting_get(db, "admin"), *last_error = NULL, day[32], hour[32];
    int64_t failed = 0, retried = 0, waiting = 0, runs = 0, alerts = 0, untaken = 0, stuck = 0;
    char *untaken_why = NULL;
    struct strbuf what = STRBUF_INIT;
    int rc = -1;

    *sent = false;
    if (!admin)
        return -1;
    if (!*admin) {
        free(admin);
        return 0;
    }
    utc_format(clock_now() - 86400, day);
    utc_format(clock_now() - 3600, hour);
    if (count(db, "SELECT count(*) FROM outbox WHERE kind = 'alert' AND created_at > ?", day, &alerts) ||
        count(db, "SELECT count(*) FROM outbox WHERE status = 'failed' AND next_attempt_at > ?", day, &failed) ||
        db_get_int64(db, &retried, "SELECT count(*) FROM outbox WHERE status = 'queued' AND attempts >= 3", NULL) < 0 ||
        count(db, "SELECT count(*) FROM outbox WHERE status = 'queued' AND created_at < ?", hour, &waiting) ||
        count(db, "SELECT count(*) FROM runs WHERE errors > 0 AND started_at > ?", day, &runs) ||
        db_get_int64(db, &untaken, "SELECT count(*) FROM mail_failures WHERE taken_at IS NULL AND given_up_at IS NULL",
                     NULL) < 0 ||
        db_get_text(db, &untaken_why,
                    "SELECT reason FROM mail_failures WHERE taken_at IS NULL AND given_up_at IS NULL ORDER BY last_at"
                    " DESC LIMIT 1",
                    NULL) < 0 ||
        db_get_int64(db, &stuck,
                     "SELECT count(*) FROM game_stuck s JOIN games g ON g.id = s.game_id WHERE s.alerted = 0 AND"
                     " s.turn = g.turn AND g.status <> 'finished'",
                     NULL) < 0 ||
        db_get_text(db, &last_error,
                    "SELECT coalesce(last_error, '') FROM outbox WHERE last_error IS NOT NULL ORDER BY id DESC LIMIT 1",
                    NULL) < 0)
        goto out;
    rc = 0;
    if (alerts || !(failed || retried || waiting || runs || untaken || stuck))
        goto out;
    if (stuck && stuck_games(db, &what)) {
        rc = -1;
        goto out;
    }
    if (untaken)
        strbuf_addf(&what, "- %lld mail%s to ngoma could not be taken (not the mail's fault): the MTA or fetch offers"
                           " %s again, and ngoma list shows why.\n  The last reason: %s\n",
                    (long long)untaken, untaken == 1 ? "" : "s", untaken == 1 ? "it" : "them",
                    untaken_why ? untaken_why : "");
    if (failed)
        strbuf_addf(&what, "- %lld mail%s failed for good in the last day (ngoma outbox lists them; ngoma outbox "
                           "--retry --all sends them again).\n",
                    (long long)failed, failed == 1 ? "" : "s");
    if (retried)
        strbuf_addf(&what, "- %lld mail%s were deferred three times or more.\n", (long long)retried,
                    retried == 1 ? "" : "s");
    if (waiting)
        strbuf_addf(&what, "- %lld mail%s have waited in the outbox for over an hour.\n", (long long)waiting,
                    waiting == 1 ? "" : "s");
    if (last_error && *last_error)
        strbuf_addf(&what, "  The last delivery error: %s\n", last_error);
    if (runs)
        strbuf_addf(&what, "- %lld run%s of ngoma run met errors (ngoma list shows the last one's).\n",
                    (long long)runs, runs == 1 ? "" : "s");
    {
        struct outmail m = { 0 };
        cJSON *d = cJSON_CreateObject();
        reply_add_text(d, "what", what.buf);
        m.kind = "alert";
        m.to = admin;
        m.to_name = "ngoma's host";
        rc = outbox_render(db, &m, "mail-alert.txt", d);
        *sent = rc == 0;
        cJSON_Delete(d);
    }
out:
    free(admin);
    free(last_error);
    free(untaken_why);
    strbuf_release(&what);
    return rc;
}
