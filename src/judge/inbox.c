/* inbox.c: mail the MTA handed over, kept until it is read: receive keeps it and ends the delivery; the server, the worker receive starts, and run read it. */
#include "judge/inbox.h"
#include "store/db.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int inbox_count(sqlite3 *db)
{
    int64_t n;
    if (db_get_int64(db, &n, "SELECT count(*) FROM (SELECT 1 FROM inbox LIMIT ?)", "i", INBOX_MAX) != 1)
        return -1;
    return (int)n;
}

int inbox_put(sqlite3 *db, const struct rawmsg *raw, const char *source, const struct inbound_env *env, int64_t *id)
{
    char now[32];
    sqlite3_stmt *st;
    int64_t bytes;
    int n;
    if ((n = inbox_count(db)) < 0 || db_get_int64(db, &bytes, "SELECT coalesce(sum(bytes), 0) FROM inbox", NULL) != 1)
        return -1;
    if (n >= INBOX_MAX || bytes + (int64_t)raw->len > INBOX_MAX_BYTES)
        return 1;
    utc_now(now);
    st = db_stmt(db,
                 "INSERT INTO inbox(received_at, source, rcpt, sender, total, digest, bytes, raw)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 "ssssIsI", now, source, env ? env->rcpt : NULL, env ? env->sender : NULL, (int64_t)raw->total,
                 raw->digest, (int64_t)raw->len);
    if (!st)
        return -1;
    if (sqlite3_bind_blob(st, 8, raw->len ? raw->data : "", (int)raw->len, SQLITE_STATIC) != SQLITE_OK) {
        error("database: cannot bind the mail: %s", sqlite3_errmsg(db));
        db_finalize(st);
        return -1;
    }
    if (db_step(st) != SQLITE_DONE) {
        db_finalize(st);
        return -1;
    }
    db_finalize(st);
    *id = sqlite3_last_insert_rowid(db);
    return 0;
}

int inbox_keep(sqlite3 *db, const struct rawmsg *raw, const char *source, int64_t *id)
{
    int rc;
    if (db_begin(db))
        return -1;
    rc = inbox_put(db, raw, source, NULL, id);
    if (rc || db_commit(db)) {
        db_rollback(db);
        return rc > 0 ? 1 : -1;
    }
    return 0;
}

/* Reads the next group of mails after *last into gr; 0 with gr->n mails
 * (none: the inbox holds nothing after *last), -1 on failure. */
static int read_group(sqlite3 *db, struct intake_group *gr, int64_t *last)
{
    sqlite3_stmt *st = db_stmt(db,
                               "SELECT id, source, total, digest, raw, rcpt, sender FROM inbox WHERE id > ? ORDER BY id"
                               " LIMIT ?",
                               "Ii", *last, INTAKE_GROUP);
    int rc = SQLITE_DONE;
    if (!st)
        return -1;
    while (!intake_full(gr) && (rc = db_step(st)) == SQLITE_ROW) {
        struct rawmsg raw = { 0 };
        const void *blob = sqlite3_column_blob(st, 4);
        char *source = db_col_text(st, 1), *digest = db_col_text(st, 3);
        raw.len = (size_t)sqlite3_column_bytes(st, 4);
        raw.data = xmalloc(raw.len + 1);
        if (raw.len)
            memcpy(raw.data, blob, raw.len);
        raw.data[raw.len] = '\0';
        raw.total = (size_t)sqlite3_column_int64(st, 2);
        snprintf(raw.digest, sizeof(raw.digest), "%s", digest);
        *last = sqlite3_column_int64(st, 0);
        char *rcpt = sqlite3_column_type(st, 5) == SQLITE_NULL ? NULL : db_col_text(st, 5);
        char *sender = sqlite3_column_type(st, 6) == SQLITE_NULL ? NULL : db_col_text(st, 6);
        struct inbound_env env = { rcpt, sender };
        /* The source names the transport it came by, as a string that
         * lives as long as the group. */
        rc = intake_add(db, gr, &raw, false,
                        str_eq(source, "file") ? "file" : str_eq(source, "lmtp") ? "lmtp" : "stdin", &env);
        free(source);
        free(digest);
        free(rcpt);
        free(sender);
        if (rc) {
            db_finalize(st);
            return -1;
        }
        intake_last(gr)->inbox_id = *last;
    }
    db_finalize(st);
    return rc < 0 ? -1 : 0;
}

static int lock_inbox(const char *db_path, double wait)
{
    struct strbuf path = STRBUF_INIT;
    int fd;
    if (!db_path || !*db_path || str_eq(db_path, ":memory:"))
        return -3; /* no file beside it: no other process either */
    strbuf_addf(&path, "%s.inbox.lock", db_path);
    fd = lock_file_wait(path.buf, wait);
    if (fd == -2)
        error("cannot lock %s: %s", path.buf, strerror(errno));
    strbuf_release(&path);
    return fd;
}

int inbox_take(sqlite3 *db, const char *db_path, double wait, struct intake_stats *st)
{
    struct intake_group *gr = xcalloc(1, sizeof(*gr));
    int64_t last = 0, more;
    int rc = 0, lock;

    /* A bounded number of rounds: each reads what came while the last one
     * held the lock. */
    for (int round = 0; round < 100; round++) {
        lock = lock_inbox(db_path, round ? 0 : wait);
        if (lock == -1)
            break; /* another reader holds it, and reads ours after */
        if (lock == -2) {
            rc = -1;
            break;
        }
        for (;;) {
            if (read_group(db, gr, &last)) {
                rc = -1;
                break;
            }
            if (!gr->n)
                break;
            if (intake_commit(db, gr, st)) {
                rc = -1;
                break;
            }
            intake_clear(gr);
        }
        intake_clear(gr);
        if (lock >= 0)
            close(lock);
        if (rc)
            break;
        if (db_get_int64(db, &more, "SELECT count(*) FROM inbox WHERE id > ?", "I", last) != 1) {
            rc = -1;
            break;
        }
        if (!more)
            break;
    }
    free(gr);
    return rc;
}
