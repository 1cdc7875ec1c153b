/* settings.h: the host's settings (addresses, servers, limits), kept in the database and checked on the way in. */
#ifndef NGOMA_SETTINGS_H
#define NGOMA_SETTINGS_H

#include <sqlite3.h>
#include <stdbool.h>

struct strbuf;

struct setting_def {
    const char *key;
    const char *def;     /* the default, as text ("" for none) */
    const char *help;
    bool secret;         /* a password: listed as (set), never printed */
    /* Checks a new value; 0, or -1 with the reason in err. */
    int (*check)(const char *value, struct strbuf *err);
};

extern const struct setting_def setting_defs[];

const struct setting_def *setting_find(const char *key);
/* The value (owned by the caller): the stored one, else the default. NULL
 * only on a database failure, after reporting. */
char *setting_get(sqlite3 *db, const char *key);
long long setting_get_int(sqlite3 *db, const char *key, long long fallback);
/* Whether a yes-or-no setting says yes (false on a database failure). */
bool setting_is_yes(sqlite3 *db, const char *key);
/* Checks and stores; -1 with the reason in err. */
int setting_set(sqlite3 *db, const char *key, const char *value, struct strbuf *err);
int setting_unset(sqlite3 *db, const char *key);
/* The directory the "dir" send method writes to: outbox_dir, else
 * outbox/ beside the database file. */
char *setting_outbox_dir(sqlite3 *db, const char *db_path);

#endif
