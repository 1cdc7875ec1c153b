/* languages.c: the language each player reads: the one she chose for her address (LANGUAGE fr), else the host's (the language setting). */
#include "store/languages.h"
#include "lib/catalog.h"
#include "lib/strbuf.h"
#include "lib/template.h"
#include "lib/util.h"
#include "store/db.h"
#include "store/settings.h"

#include <stdlib.h>

/* The address records are kept under: the one an alias was merged into. */
#define PERSON "coalesce((SELECT a.address FROM player_aliases a WHERE a.alias = ?1), ?1)"

char *language_of(sqlite3 *db, const char *address)
{
    char *code = NULL, *host;
    const char *known;
    if (address && *address &&
        db_get_text(db, &code, "SELECT language FROM player_languages WHERE address = " PERSON, "s", address) > 0) {
        known = lang_code(code);
        free(code);
        return xstrdup(known);
    }
    free(code);
    host = setting_get(db, "language");
    known = lang_code(host);
    free(host);
    return xstrdup(known);
}

int language_chosen(sqlite3 *db, const char *address)
{
    int64_t n = 0;
    if (db_get_int64(db, &n, "SELECT count(*) FROM player_languages WHERE address = " PERSON, "s", address) < 0)
        return -1;
    return n > 0;
}

int language_set(sqlite3 *db, const char *address, const char *code)
{
    char now[32];
    if (!code)
        return db_do(db, "DELETE FROM player_languages WHERE address = " PERSON, "s", address);
    utc_now(now);
    return db_do(db,
                 "INSERT INTO player_languages (address, language, set_at) VALUES (" PERSON ", ?2, ?3)"
                 " ON CONFLICT (address) DO UPDATE SET language = excluded.language, set_at = excluded.set_at",
                 "sss", address, lang_code(code), now);
}

int language_command(sqlite3 *db, const char *address, const char *arg, struct strbuf *out, bool *refused)
{
    const struct lang *want;
    struct strbuf codes = STRBUF_INIT;
    char *now = language_of(db, address);
    int rc = 0;
    while (*arg == ' ')
        arg++;
    lang_codes(&codes);
    want = lang_find(arg);
    *refused = *arg && !want && !str_ieq(arg, "default");
    if (!*arg)
        phrase_add(out, now, "language.now", "language", lang_find(now)->own_name, "codes", codes.buf, NULL);
    else if (*refused)
        phrase_add(out, now, "language.unknown", "word", arg, "codes", codes.buf, NULL);
    else if (!(rc = language_set(db, address, want ? want->code : NULL))) {
        free(now);
        now = language_of(db, address);
        phrase_add(out, now, want ? "language.set" : "language.default", "language", lang_find(now)->own_name,
                   NULL);
    }
    free(now);
    strbuf_release(&codes);
    return rc;
}
