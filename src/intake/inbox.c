/* inbox.c: mail the MTA handed over, kept until it is read, in a database of its own beside the main one (DB.inbox): receive and ngoma serve keep it and end the delivery; the server's reader, receive's worker, send and run read it. */
#include "intake/inbox.h"
#include "store/db.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS inbox ("
    " id INTEGER PRIMARY KEY,"
    " received_at TEXT NOT NULL,"
    " source TEXT NOT NULL,"       /* stdin, file, lmtp */
    " rcpt TEXT,"                  /* the envelope's recipient, when the transport said it (LMTP) */
    " sender TEXT,"                /* the envelope's sender ('' for the null sender), likewise */
    " total INTEGER NOT NULL,"     /* bytes the mail had */
    " digest TEXT NOT NULL,"       /* SHA-256 of all of them */
    " bytes INTEGER NOT NULL,"     /* bytes kept: length(raw) */
    " raw BLOB NOT NULL);";        /* at most max_message_size of them */

static char *inbox_path(const char *db_path)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "%s.inbox", db_path);
    return strbuf_detach(&sb);
}

static sqlite3 *open_it(const char *db_path, bool create)
{
    char *path;
    sqlite3 *ib;
    if (!db_path || !*db_path || str_eq(db_path, ":memory:")) {
        if (create)
            error("a database in memory has no inbox");
        return NULL;
    }
    path = inbox_path(db_path);
    ib = db_open_side(path, schema, create);
    free(path);
    return ib;
}

sqlite3 *inbox_open(const char *db_path)
{
    return open_it(db_path, true);
}

static int count_in(sqlite3 *ib)
{
    int64_t n;
    if (db_get_int64(ib, &n, "SELECT count(*) FROM (SELECT 1 FROM inbox LIMIT ?)", "i", INBOX_MAX) != 1)
        return -1;
    return (int)n;
}

int inbox_count(const char *db_path)
{
    sqlite3 *ib = open_it(db_path, false);
    int n;
    if (!ib)
        return 0;
    n = count_in(ib);
    db_close(ib);
    return n;
}

int inbox_put(sqlite3 *ib, const struct rawmsg *raw, const char *source, const struct inbound_env *env, int64_t *id)
{
    char now[32];
    sqlite3_stmt *st;
    int64_t bytes;
    int n;
    if ((n = count_in(ib)) < 0 || db_get_int64(ib, &bytes, "SELECT coalesce(sum(bytes), 0) FROM inbox", NULL) != 1)
        return -1;
    if (n >= INBOX_MAX || bytes + (int64_t)raw->len > INBOX_MAX_BYTES)
        return 1;
    utc_now(now);
    st = db_stmt(ib,
                 "INSERT INTO inbox(received_at, source, rcpt, sender, total, digest, bytes, raw)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 "ssssIsI", now, source, env ? env->rcpt : NULL, env ? env->sender : NULL, (int64_t)raw->total,
                 raw->digest, (int64_t)raw->len);
    if (!st)
        return -1;
    if (sqlite3_bind_blob(st, 8, raw->len ? raw->data : "", (int)raw->len, SQLITE_STATIC) != SQLITE_OK) {
        error("database: cannot bind the mail: %s", sqlite3_errmsg(ib));
        db_finalize(st);
        return -1;
    }
    if (db_step(st) != SQLITE_DONE) {
        db_finalize(st);
        return -1;
    }
    db_finalize(st);
    *id = sqlite3_last_insert_rowid(ib);
    return 0;
}

int inbox_keep(const char *db_path, const struct rawmsg *raw, const char *source, int64_t *id)
{
    sqlite3 *ib = inbox_open(db_path);
    int rc;
    if (!ib)
        return -1;
    if (db_begin(ib)) {
        db_close(ib);
        return -1;
    }
    rc = inbox_put(ib, raw, source, NULL, id);
    if (rc || db_commit(ib)) {
        db_rollback(ib);
        rc = rc > 0 ? 1 : -1;
    }
    db_close(ib);
    return rc;
}

/* Gives the drain the mails after *last, at most a full group of them
 * (committed as it fills): 0 with *n the mails read, -1 on failure. */
static int read_group(struct intake_drain *d, sqlite3 *ib, int64_t *last, int *n)
{
    sqlite3_stmt *st = db_stmt(ib,
                               "SELECT id, source, total, digest, raw, rcpt, sender FROM inbox WHERE id > ? ORDER BY id"
                               " LIMIT ?",
                               "Ii", *last, INTAKE_GROUP_MAX);
    int rc = SQLITE_DONE;
    *n = 0;
    if (!st)
        return -1;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        struct rawmsg raw = { 0 };
        struct intake_item *p;
        const void *blob = sqlite3_column_blob(st, 4);
        char *source = db_col_text(st, 1), *digest = db_col_text(st, 3);
        char *rcpt = sqlite3_column_type(st, 5) == SQLITE_NULL ? NULL : db_col_text(st, 5);
        char *sender = sqlite3_column_type(st, 6) == SQLITE_NULL ? NULL : db_col_text(st, 6);
        struct inbound_env env = { rcpt, sender };
        raw.len = (size_t)sqlite3_column_bytes(st, 4);
        raw.data = xmalloc(raw.len + 1);
        if (raw.len)
            memcpy(raw.data, blob, raw.len);
        raw.data[raw.len] = '\0';
        raw.total = (size_t)sqlite3_column_int64(st, 2);
        snprintf(raw.digest, sizeof(raw.digest), "%s", digest);
        /* The source names the transport it came by, as a string that
         * lives as long as the group. */
        rc = intake_drain_give(d, &raw, false,
                               str_eq(source, "file") ? "file" : str_eq(source, "lmtp") ? "lmtp" : "stdin", &env, &p);
        free(source);
        free(digest);
        free(rcpt);
        free(sender);
        if (rc) {
            db_finalize(st);
            return -1;
        }
        *last = sqlite3_column_int64(st, 0);
        p->key = *last;
        (*n)++;
    }
    db_finalize(st);
    return rc < 0 ? -1 : 0;
}

/* The rows of the mails the group took (or let go for good). Taken in the
 * main database first; a crash before the rows go leaves them, read again
 * as duplicates and then deleted. */
static int forget(void *ctx, const struct intake_group *gr, int rc)
{
    sqlite3 *ib = ctx;
    if (rc)
        return 0;
    if (db_begin(ib))
        return -1;
    for (size_t i = 0; i < gr->n; i++)
        if (gr->p[i].outcome == INTAKE_TAKEN && db_do(ib, "DELETE FROM inbox WHERE id = ?", "I", gr->p[i].key)) {
            db_rollback(ib);
            return -1;
        }
    if (db_commit(ib)) {
        db_rollback(ib);
        return -1;
    }
    return 0;
}

static int lock_inbox(const char *db_path, double wait)
{
    struct strbuf path = STRBUF_INIT;
    int fd;
    strbuf_addf(&path, "%s.inbox.lock", db_path);
    fd = lock_file_wait(path.buf, wait);
    if (fd == -2)
        error("cannot lock %s: %s", path.buf, strerror(errno));
    strbuf_release(&path);
    return fd;
}

int inbox_take(sqlite3 *db, const char *db_path, double wait, struct intake_stats *st)
{
    sqlite3 *ib = open_it(db_path, false);
    struct intake_source src = { "inbox", forget, NULL };
    struct intake_drain d;
    int64_t last = 0, more;
    int rc = 0, lock, n;

    if (!ib)
        return 0; /* nothing was ever kept */
    /* Its deletes need not outlast a power cut: a row that comes back is
     * a mail the journal knows, read again as a duplicate and deleted. */
    if (db_do(ib, "PRAGMA synchronous=NORMAL", NULL)) {
        db_close(ib);
        return -1;
    }
    src.ctx = ib;
    intake_drain_open(&d, db, &src, st);
    /* The inbox fills faster than it is read only under load: then groups
     * as large as a reader may take. */
    d.gr->max = INTAKE_GROUP_MAX;
    d.gr->max_bytes = INTAKE_BYTES_MAX;
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
        do {
            if (read_group(&d, ib, &last, &n) || intake_drain_flush(&d))
                rc = -1;
        } while (!rc && n);
        intake_clear(d.gr); /* what a failure left unflushed: offered again */
        close(lock);
        if (rc)
            break;
        if (db_get_int64(ib, &more, "SELECT count(*) FROM inbox WHERE id > ?", "I", last) != 1) {
            rc = -1;
            break;
        }
        if (!more)
            break;
    }
    intake_drain_close(&d);
    db_close(ib);
    return rc;
}
