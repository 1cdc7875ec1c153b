/* maintain.c: keeping the database small and safe: pruning old mail and journal rows, online backups. */
#include "store/maintain.h"
#include "store/db.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int changes(sqlite3 *db, int64_t *n, const char *sql, const char *cutoff)
{
    if (db_do(db, sql, "s", cutoff))
        return -1;
    *n += sqlite3_changes(db);
    return 0;
}

int db_prune(sqlite3 *db, time_t before, struct prune_stats *st)
{
    char cutoff[32];
    memset(st, 0, sizeof(*st));
    utc_format(before, cutoff);
    if (db_begin(db))
        return -1;
    if (changes(db, &st->sent,
                "DELETE FROM outbox WHERE (status = 'sent' AND sent_at < ?1) OR (status = 'failed' AND created_at < ?1)",
                cutoff) ||
        changes(db, &st->raw, "UPDATE messages SET raw = NULL WHERE raw IS NOT NULL AND received_at < ?", cutoff) ||
        changes(db, &st->journal,
                "DELETE FROM messages WHERE received_at < ? AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.message_id ="
                " messages.id) AND NOT EXISTS (SELECT 1 FROM outbox x WHERE x.in_reply_to = messages.id) AND NOT EXISTS"
                " (SELECT 1 FROM press p WHERE p.message_id = messages.id)",
                cutoff) ||
        changes(db, &st->runs, "DELETE FROM runs WHERE started_at < ?", cutoff) ||
        /* Addresses that never confirmed: what waited for them goes too. */
        changes(db, &st->addresses, "DELETE FROM lobby_addresses WHERE confirmed_at IS NULL AND token_sent_at < ?",
                cutoff) ||
        db_commit(db)) {
        db_rollback(db);
        return -1;
    }
    return 0;
}

int db_backup(sqlite3 *db, const char *path)
{
    struct strbuf tmp = STRBUF_INIT;
    sqlite3 *to = NULL;
    sqlite3_backup *b;
    int rc;

    strbuf_addf(&tmp, "%s.tmp", path);
    unlink(tmp.buf);
    if (sqlite3_open_v2(tmp.buf, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        rc = error("cannot create %s: %s", tmp.buf, to ? sqlite3_errmsg(to) : "out of memory");
        goto out;
    }
    if (!(b = sqlite3_backup_init(to, "main", db, "main"))) {
        rc = error("backup: %s", sqlite3_errmsg(to));
        goto out;
    }
    /* One step copies every page inside one read transaction: the copy is
     * the database as it stood at one moment, while writers go on. */
    do {
        rc = sqlite3_backup_step(b, -1);
        if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
            sqlite3_sleep(50);
    } while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
    sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) {
        rc = error("backup to %s: %s", tmp.buf, sqlite3_errstr(rc));
        goto out;
    }
    if (sqlite3_close(to) != SQLITE_OK) {
        to = NULL;
        rc = error("cannot close %s", tmp.buf);
        goto out;
    }
    to = NULL;
    if (rename(tmp.buf, path)) {
        rc = error("cannot rename %s to %s: %s", tmp.buf, path, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    if (to)
        sqlite3_close(to);
    if (rc)
        unlink(tmp.buf);
    strbuf_release(&tmp);
    return rc;
}
