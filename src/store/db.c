/* db.c: opening the SQLite database, applying migrations, and checked prepared-statement helpers. */
#include "store/db.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/stat.h>

static int last_failure; /* the primary SQLite code of the last failure */

static int fail(sqlite3 *db, int rc, const char *what)
{
    last_failure = rc & 0xff;
    return error("database: %s: %s", what, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
}

bool db_failure_is_temporary(void)
{
    switch (last_failure) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_NOMEM:
    case SQLITE_PROTOCOL:
        return true;
    default:
        return false;
    }
}

void db_failure_reset(void)
{
    last_failure = 0;
}

static int bind_args(sqlite3 *db, sqlite3_stmt *st, const char *fmt, va_list ap)
{
    int rc = SQLITE_OK;
    for (int i = 1; fmt && *fmt && rc == SQLITE_OK; fmt++, i++) {
        switch (*fmt) {
        case 'i':
            rc = sqlite3_bind_int(st, i, va_arg(ap, int));
            break;
        case 'I':
            rc = sqlite3_bind_int64(st, i, va_arg(ap, int64_t));
            break;
        case 'd':
            rc = sqlite3_bind_double(st, i, va_arg(ap, double));
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            rc = s ? sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i);
            break;
        }
        default:
            die("db: bad bind format letter '%c'", *fmt);
        }
    }
    return rc == SQLITE_OK ? 0 : fail(db, rc, "bind");
}

/* Prepared statements are kept for reuse: a batch of mails runs the same
 * few dozen statements thousands of times, and preparing them was a fifth
 * of its time. A statement is found by its connection and its text; one
 * in use (a loop over it calling code that runs it again) is not shared:
 * that caller gets a statement of its own. */
#define CACHE_SIZE 160
static struct cached {
    sqlite3 *db;
    char *sql;
    sqlite3_stmt *st;
    bool busy;
} cache[CACHE_SIZE];

static sqlite3_stmt *cache_take(sqlite3 *db, const char *sql)
{
    for (int i = 0; i < CACHE_SIZE; i++)
        if (cache[i].db == db && !cache[i].busy && str_eq(cache[i].sql, sql)) {
            cache[i].busy = true;
            return cache[i].st;
        }
    return NULL;
}

static void cache_put(sqlite3 *db, const char *sql, sqlite3_stmt *st)
{
    for (int i = 0; i < CACHE_SIZE; i++)
        if (!cache[i].db) {
            cache[i] = (struct cached){ db, xstrdup(sql), st, true };
            return;
        }
}

/* Finalizes every kept statement of db, before it closes. */
static void cache_drop(sqlite3 *db)
{
    for (int i = 0; i < CACHE_SIZE; i++)
        if (cache[i].db == db) {
            sqlite3_finalize(cache[i].st);
            free(cache[i].sql);
            cache[i] = (struct cached){ 0 };
        }
}

static sqlite3_stmt *vstmt(sqlite3 *db, const char *sql, const char *fmt, va_list ap)
{
    sqlite3_stmt *st = cache_take(db, sql);
    if (!st) {
        int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
        if (rc != SQLITE_OK) {
            fail(db, rc, "prepare");
            sqlite3_finalize(st);
            return NULL;
        }
        cache_put(db, sql, st);
    }
    if (bind_args(db, st, fmt, ap)) {
        db_finalize(st);
        return NULL;
    }
    return st;
}

sqlite3_stmt *db_stmt(sqlite3 *db, const char *sql, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sqlite3_stmt *st = vstmt(db, sql, fmt, ap);
    va_end(ap);
    return st;
}

int db_step(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return rc;
    fail(sqlite3_db_handle(st), rc, "step");
    return -1;
}

void db_finalize(sqlite3_stmt *st)
{
    /* Errors were reported by db_step already. */
    for (int i = 0; st && i < CACHE_SIZE; i++)
        if (cache[i].st == st) {
            sqlite3_reset(st);
            sqlite3_clear_bindings(st);
            cache[i].busy = false;
            return;
        }
    sqlite3_finalize(st);
}

int db_do(sqlite3 *db, const char *sql, const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    sqlite3_stmt *st = vstmt(db, sql, fmt, ap);
    va_end(ap);
    if (!st)
        return -1;
    while ((rc = db_step(st)) == SQLITE_ROW)
        ;
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Prepares, binds and steps once: the statement positioned on its first
 * row (*rc SQLITE_ROW), or finalized and NULL (*rc SQLITE_DONE or -1). */
static sqlite3_stmt *first_row(sqlite3 *db, const char *sql, const char *fmt, va_list ap, int *rc)
{
    sqlite3_stmt *st = vstmt(db, sql, fmt, ap);
    *rc = -1;
    if (!st)
        return NULL;
    *rc = db_step(st);
    if (*rc == SQLITE_ROW)
        return st;
    db_finalize(st);
    return NULL;
}

int db_get_int64(sqlite3 *db, int64_t *out, const char *sql, const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    sqlite3_stmt *st = first_row(db, sql, fmt, ap, &rc);
    va_end(ap);
    if (st) {
        *out = sqlite3_column_int64(st, 0);
        db_finalize(st);
    }
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int db_get_text(sqlite3 *db, char **out, const char *sql, const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    sqlite3_stmt *st = first_row(db, sql, fmt, ap, &rc);
    va_end(ap);
    if (st) {
        *out = db_col_text(st, 0);
        db_finalize(st);
    }
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

char *db_col_text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return xstrdup(t ? (const char *)t : "");
}

int db_begin(sqlite3 *db)
{
    return db_do(db, "BEGIN IMMEDIATE", NULL);
}

int db_commit(sqlite3 *db)
{
    return db_do(db, "COMMIT", NULL);
}

void db_rollback(sqlite3 *db)
{
    if (!sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

/* Runs a statement naming a savepoint (names are ours, never input). */
static int exec_named(sqlite3 *db, const char *fmt, const char *name)
{
    struct strbuf sql = STRBUF_INIT;
    strbuf_addf(&sql, fmt, name);
    int rc = db_do(db, sql.buf, NULL);
    strbuf_release(&sql);
    return rc;
}

int db_savepoint(sqlite3 *db, const char *name)
{
    return exec_named(db, "SAVEPOINT \"%s\"", name);
}

int db_release(sqlite3 *db, const char *name)
{
    return exec_named(db, "RELEASE \"%s\"", name);
}

void db_rollback_to(sqlite3 *db, const char *name)
{
    exec_named(db, "ROLLBACK TO \"%s\"", name);
    exec_named(db, "RELEASE \"%s\"", name);
}

/* Runs every statement of a migration script, one prepared statement at a time. */
static int exec_script(sqlite3 *db, const char *sql, const char *name)
{
    const char *tail = sql;
    while (tail && *tail) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(db, tail, -1, &st, &tail);
        if (rc != SQLITE_OK) {
            sqlite3_finalize(st);
            return fail(db, rc, name);
        }
        if (!st)
            continue; /* only white space or comments were left */
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            ;
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE)
            return fail(db, rc, name);
    }
    return 0;
}

int db_schema_version(sqlite3 *db, int *version)
{
    int64_t v = 0;
    int rc = db_get_int64(db, &v, "SELECT coalesce(max(version), 0) FROM schema_version", NULL);
    if (rc < 0)
        return -1;
    *version = (int)v;
    return 0;
}

int db_migrate(sqlite3 *db, int *applied)
{
    int latest = 0, current;

    *applied = 0;
    for (const struct migration *m = migrations; m->version; m++)
        latest = m->version;
    if (db_do(db, "CREATE TABLE IF NOT EXISTS schema_version ("
                  " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)", NULL))
        return -1;
    if (db_schema_version(db, &current))
        return -1;
    if (current > latest)
        return error("the database schema is version %d, newer than this ngoma knows (%d): "
                     "use a newer ngoma", current, latest);
    if (current == latest)
        return 0;
    /* Foreign keys are off while a migration runs (a table rebuilt to
     * change a constraint would break them on the way), and checked after
     * each; the pragma works only outside a transaction. Every pending
     * migration goes in one transaction (a new database: one commit, not
     * 23), and a failure leaves the database as it was. */
    if (db_do(db, "PRAGMA foreign_keys = OFF", NULL))
        return -1;
    if (db_begin(db))
        goto fail;
    /* Another process may have applied them while we waited for the lock. */
    if (db_schema_version(db, &current))
        goto fail;
    for (const struct migration *m = migrations; m->version; m++) {
        char now[32];
        int64_t broken;
        if (m->version <= current)
            continue;
        if (exec_script(db, m->sql, m->name))
            goto fail;
        switch (db_get_int64(db, &broken, "SELECT count(*) FROM pragma_foreign_key_check", NULL)) {
        case 1:
            if (broken == 0)
                break;
            error("%s leaves %lld rows whose foreign keys point nowhere", m->name, (long long)broken);
            /* fall through */
        default:
            goto fail;
        }
        utc_now(now);
        if (db_do(db, "INSERT INTO schema_version(version, name, applied_at) VALUES (?, ?, ?)", "iss",
                  m->version, m->name, now))
            goto fail;
        (*applied)++;
    }
    if (db_commit(db))
        goto fail;
    return db_do(db, "PRAGMA foreign_keys = ON", NULL);
fail:
    db_rollback(db);
    *applied = 0;
    db_do(db, "PRAGMA foreign_keys = ON", NULL);
    return error("migration failed; the database is unchanged by it");
}

/* Waiting for another writer: SQLite's own handler sleeps 1, 2, 5, 10 ...
 * ms, far longer than a commit here takes; this one looks again every
 * 0.1 ms for the first 10 ms, then every ms, until the timeout (ms). */
static int busy_wait(void *arg, int n)
{
    long long ms = *(const long long *)arg, waited_us = n < 100 ? 100LL * n : 10000 + 1000LL * (n - 100);
    struct timespec pause = { 0, n < 100 ? 100 * 1000 : 1000 * 1000 };
    if (waited_us >= ms * 1000)
        return 0;
    nanosleep(&pause, NULL);
    return 1;
}

static long long busy_ms = 30000;

void db_set_busy_ms(sqlite3 *db, long long ms)
{
    busy_ms = ms;
    sqlite3_busy_handler(db, busy_wait, &busy_ms);
}

/* A connection to path, as every one of ngoma's is: WAL, synchronous
 * FULL, the busy wait, no checkpoint on close; then schema run on it (the
 * migrations when NULL). */
static sqlite3 *open_conn(const char *path, const char *schema, int flags)
{
    sqlite3 *db = NULL;
    int applied, rc;
    const char *timeout = getenv("NGOMA_BUSY_TIMEOUT_MS");
    long long ms = 30000;

    rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        fail(db, rc, path);
        sqlite3_close(db);
        return NULL;
    }
    if (timeout && !parse_int(timeout, 0, 3600000, &ms))
        ms = 30000;
    db_set_busy_ms(db, ms);
    sqlite3_extended_result_codes(db, 0);
    /* A process does not checkpoint as it closes (db_close does, once the
     * WAL has grown): a mail then costs one fsync, not four. */
    rc = sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
    if (rc != SQLITE_OK) {
        fail(db, rc, path);
        sqlite3_close(db);
        return NULL;
    }
    if (((flags & SQLITE_OPEN_READWRITE) && db_do(db, "PRAGMA journal_mode=WAL", NULL)) ||
        db_do(db, "PRAGMA foreign_keys=ON", NULL) || db_do(db, "PRAGMA synchronous=FULL", NULL) ||
        (schema ? exec_script(db, schema, path) : db_migrate(db, &applied))) {
        error("cannot use the database %s", path);
        cache_drop(db);
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

sqlite3 *db_open(const char *path)
{
    return open_conn(path, NULL, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
}

sqlite3 *db_open_side(const char *path, const char *schema, bool create)
{
    if (!create && access(path, F_OK))
        return NULL;
    return open_conn(path, schema, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0));
}

/* Past this size the closing process checkpoints and empties the WAL. A
 * new process that finds no other one open must rebuild the WAL's index
 * by reading all of it, so the WAL is kept short; a checkpoint at every
 * close would cost three more fsyncs a mail. */
#define WAL_KEEP_BYTES (256 * 1024)

void db_close(sqlite3 *db)
{
    const char *path;
    struct stat sb;
    if (!db)
        return;
    cache_drop(db);
    path = sqlite3_db_filename(db, "main");
    if (path && *path) {
        char *wal = xmalloc(strlen(path) + 5);
        sprintf(wal, "%s-wal", path);
        if (stat(wal, &sb) == 0 && sb.st_size > WAL_KEEP_BYTES) {
            /* Never wait for a reader: the next process will try again. */
            sqlite3_busy_timeout(db, 0);
            sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
        }
        free(wal);
    }
    if (sqlite3_close(db) != SQLITE_OK)
        error("database: close: %s", sqlite3_errmsg(db));
}
