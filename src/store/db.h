/* db.h: opening the SQLite database, applying migrations, and checked prepared-statement helpers. */
#ifndef NGOMA_DB_H
#define NGOMA_DB_H

#include <stdbool.h>
#include <stdint.h>
#include <sqlite3.h>

struct migration {
    int version;
    const char *name;
    const char *sql;
};
/* Generated at build time from migrations/NNN_name.sql, ending with a zero version. */
extern const struct migration migrations[];

/* Opens (creating when needed) the database at path: WAL, foreign keys, a
 * busy timeout, synchronous FULL, then applies pending migrations. NULL
 * after reporting the error. */
sqlite3 *db_open(const char *path);
void db_close(sqlite3 *db);
/* A database of ngoma's beside the main one (the inbox): the same
 * connection settings, schema (CREATE ... IF NOT EXISTS) run on it, no
 * migrations. Without create, NULL (and nothing said) when there is no
 * file; NULL after reporting on failure. */
sqlite3 *db_open_side(const char *path, const char *schema, bool create);
/* How long a statement waits for another writer before it fails as busy
 * (db_open: 30 s, or $NGOMA_BUSY_TIMEOUT_MS). */
void db_set_busy_ms(sqlite3 *db, long long ms);
/* Applies every migration newer than the schema; sets *applied to how
 * many were applied. */
int db_migrate(sqlite3 *db, int *applied);
int db_schema_version(sqlite3 *db, int *version);

/*
 * Statement helpers. Arguments are bound by fmt, one letter each:
 *   i int, I int64_t, s const char * (NULL binds NULL), d double.
 * Every failure is reported with error() and remembered for
 * db_failure_is_temporary().
 */
sqlite3_stmt *db_stmt(sqlite3 *db, const char *sql, const char *fmt, ...);
/* Steps: returns SQLITE_ROW, SQLITE_DONE, or -1 after reporting. */
int db_step(sqlite3_stmt *st);
void db_finalize(sqlite3_stmt *st);
/* Runs a statement to completion; 0 or -1. */
int db_do(sqlite3 *db, const char *sql, const char *fmt, ...);
/* Runs a one-row query and reads its first column. 1 when a row came,
 * 0 when none, -1 on error. *out is owned by the caller (text) */
int db_get_int64(sqlite3 *db, int64_t *out, const char *sql, const char *fmt, ...);
int db_get_text(sqlite3 *db, char **out, const char *sql, const char *fmt, ...);
/* The column as an owned string ("" for NULL). */
char *db_col_text(sqlite3_stmt *st, int col);

int db_begin(sqlite3 *db);     /* BEGIN IMMEDIATE: writers queue, never deadlock */
int db_commit(sqlite3 *db);
void db_rollback(sqlite3 *db); /* quiet when nothing is open */
int db_savepoint(sqlite3 *db, const char *name);
int db_release(sqlite3 *db, const char *name);
/* Undoes everything since the savepoint and ends it (ROLLBACK TO, then
 * RELEASE): the caller does not release it again. */
void db_rollback_to(sqlite3 *db, const char *name);

/* True when the last failure was the database being busy or the disk
 * failing: the caller should retry later (EX_TEMPFAIL). */
bool db_failure_is_temporary(void);
void db_failure_reset(void);

#endif
