/* limits.c: the rate limits on what ngoma mails back: answers to one address, refusals a stranger's mail may cause. */
#include "judge/limits.h"
#include "store/db.h"
#include "store/settings.h"
#include "lib/util.h"

int limit_mails_to(sqlite3 *db, const char *rcpt, const char *kind, long secs, int64_t *n)
{
    char since[32];
    utc_format(clock_now() - secs, since);
    return db_get_int64(db, n,
                        "SELECT count(*) FROM outbox WHERE rcpt = ? AND created_at > ? AND (?3 IS NULL OR kind = ?3)",
                        "sss", rcpt, since, kind) < 0
               ? -1
               : 0;
}

int limit_answers_caused(sqlite3 *db, const char *sender, const char *kind, long secs, int64_t *n)
{
    char since[32];
    utc_format(clock_now() - secs, since);
    return db_get_int64(db, n,
                        /* The mails of the period first (by index), then the
                         * sender in any case: Ann@ and ann@ share one budget. */
                        "SELECT count(*) FROM messages m JOIN outbox o ON o.in_reply_to = m.id WHERE"
                        " m.received_at > ?1 AND m.from_addr = ?2 COLLATE NOCASE AND o.kind = ?3 AND o.created_at > ?1",
                        "sss", since, sender ? sender : "", kind) < 0
               ? -1
               : 0;
}

int limit_may_mail(sqlite3 *db, const char *rcpt, const char *kind, const char *per_hour_key, bool *ok)
{
    int64_t n;
    long long max = setting_get_int(db, per_hour_key, 4);
    if (limit_mails_to(db, rcpt, kind, 3600, &n))
        return -1;
    *ok = n < max;
    return 0;
}

int limit_unsolicited(sqlite3 *db, const char *rcpt, long secs, int64_t *n)
{
    char since[32];
    utc_format(clock_now() - secs, since);
    return db_get_int64(db, n,
                        "SELECT count(*) FROM outbox WHERE rcpt = ? AND created_at > ? AND kind IN ('invite', 'lobby')",
                        "ss", rcpt, since) < 0
               ? -1
               : 0;
}
