/* check_db.c: tests of the store: migrations applied once, pragmas, constraints and JSON columns. */
#include "test_support.h"

#include "store/db.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *tmp_path(void)
{
    char *p = xstrdup("/tmp/ngoma-test-XXXXXX");
    int fd = mkstemp(p);
    ck_assert_int_ge(fd, 0);
    close(fd);
    unlink(p);
    return p;
}

static void remove_db(const char *p)
{
    char buf[512];
    unlink(p);
    snprintf(buf, sizeof(buf), "%s-wal", p);
    unlink(buf);
    snprintf(buf, sizeof(buf), "%s-shm", p);
    unlink(buf);
}

START_TEST(migrations_apply_once)
{
    char *path = tmp_path();
    sqlite3 *db = db_open(path);
    int applied = -1, version = 0, latest = 0;
    ck_assert_ptr_nonnull(db);
    for (const struct migration *m = migrations; m->version; m++)
        latest = m->version;
    ck_assert_int_eq(db_schema_version(db, &version), 0);
    ck_assert_int_eq(version, latest);
    ck_assert_int_eq(db_migrate(db, &applied), 0);
    ck_assert_int_eq(applied, 0);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM schema_version"), latest);
    db_close(db);
    /* Opening again changes nothing. */
    db = db_open(path);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM schema_version"), latest);
    db_close(db);
    remove_db(path);
    free(path);
}
END_TEST

/* The pending migrations go in one transaction: one that fails leaves
 * the database as it was, the ones before it in the same run undone too.
 * Here 021 (two tables) and 023 (two columns) are undone by hand, and 022
 * marked pending while its changes stay: 021 then applies, 022 fails, and
 * 021 must be undone. (Later migrations, pending too, change nothing.) */
START_TEST(a_failed_upgrade_changes_nothing)
{
    char *path = tmp_path();
    sqlite3 *db = db_open(path);
    int applied = -1;
    ck_assert_ptr_nonnull(db);
    ck_assert_int_eq(db_do(db, "DROP TABLE consent_asks", NULL), 0);
    ck_assert_int_eq(db_do(db, "DROP TABLE consent_given", NULL), 0);
    ck_assert_int_eq(db_do(db, "ALTER TABLE lobby_tables DROP COLUMN grace_secs", NULL), 0);
    ck_assert_int_eq(db_do(db, "ALTER TABLE lobby_tables DROP COLUMN reminder_secs", NULL), 0);
    ck_assert_int_eq(db_do(db, "DELETE FROM schema_version WHERE version >= 21", NULL), 0);
    error_set_quiet(true);
    ck_assert_int_ne(db_migrate(db, &applied), 0);
    error_set_quiet(false);
    ck_assert_int_eq(applied, 0);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM schema_version"), 20);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'consent_asks'"), 0);
    ck_assert_int_eq(t_count(db, "PRAGMA foreign_keys"), 1);
    db_close(db);
    remove_db(path);
    free(path);
}
END_TEST

START_TEST(pragmas_are_set)
{
    char *path = tmp_path(), *mode = NULL;
    sqlite3 *db = db_open(path);
    ck_assert_int_eq(db_get_text(db, &mode, "PRAGMA journal_mode", NULL), 1);
    ck_assert_str_eq(mode, "wal");
    ck_assert_int_eq(t_count(db, "PRAGMA foreign_keys"), 1);
    ck_assert_int_eq(t_count(db, "PRAGMA synchronous"), 2);
    free(mode);
    db_close(db);
    remove_db(path);
    free(path);
}
END_TEST

START_TEST(newer_schema_is_refused)
{
    char *path = tmp_path();
    sqlite3 *db = db_open(path);
    ck_assert_int_eq(db_do(db, "INSERT INTO schema_version VALUES (999, 'future', 'now')", NULL), 0);
    db_close(db);
    error_set_quiet(true);
    ck_assert_ptr_null(db_open(path));
    error_set_quiet(false);
    remove_db(path);
    free(path);
}
END_TEST

START_TEST(constraints_hold)
{
    sqlite3 *db = t_db();
    error_set_quiet(true);
    /* state must be JSON, seats must belong to a game, status is a known word */
    ck_assert_int_eq(db_do(db, "INSERT INTO games(module, options, seed, status, state, created_at, updated_at)"
                               " VALUES ('kuniumi', '{}', 1, 'active', 'not json', 'x', 'x')", NULL), -1);
    ck_assert_int_eq(db_do(db, "INSERT INTO games(module, options, seed, status, state, created_at, updated_at)"
                               " VALUES ('kuniumi', '{}', 1, 'sleeping', '{}', 'x', 'x')", NULL), -1);
    ck_assert_int_eq(db_do(db, "INSERT INTO seats VALUES (42, 1, 'Ann', 'a@b', 's')", NULL), -1);
    error_set_quiet(false);
    db_close(db);
}
END_TEST

START_TEST(state_is_readable_with_json_extract)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    char *phase = NULL;
    t_new_game(db, "kuniumi", 2, 1, NULL, &g);
    ck_assert_int_eq(db_get_text(db, &phase, "SELECT json_extract(state, '$.phase') FROM games WHERE id = ?", "I",
                                 g.id), 1);
    ck_assert_str_eq(phase, "place");
    free(phase);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(statement_helpers_bind_every_type)
{
    sqlite3 *db = t_db();
    char *s = NULL;
    int64_t n = 0;
    ck_assert_int_eq(db_do(db, "INSERT INTO settings VALUES (?, ?)", "ss", "k", "it's \"quoted\"; DROP TABLE x"), 0);
    ck_assert_int_eq(db_get_text(db, &s, "SELECT value FROM settings WHERE key = ?", "s", "k"), 1);
    ck_assert_str_eq(s, "it's \"quoted\"; DROP TABLE x");
    free(s);
    ck_assert_int_eq(db_get_int64(db, &n, "SELECT ? + ?", "iI", 2, (int64_t)40), 1);
    ck_assert_int_eq(n, 42);
    ck_assert_int_eq(db_get_int64(db, &n, "SELECT 1 WHERE 0", NULL), 0);
    db_close(db);
}
END_TEST

Suite *db_suite(void)
{
    Suite *s = suite_create("db");
    TCase *tc = tcase_create("db");
    tcase_add_test(tc, migrations_apply_once);
    tcase_add_test(tc, a_failed_upgrade_changes_nothing);
    tcase_add_test(tc, pragmas_are_set);
    tcase_add_test(tc, newer_schema_is_refused);
    tcase_add_test(tc, constraints_hold);
    tcase_add_test(tc, state_is_readable_with_json_extract);
    tcase_add_test(tc, statement_helpers_bind_every_type);
    suite_add_tcase(s, tc);
    return s;
}
