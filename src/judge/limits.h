/* limits.h: the rate limits on what ngoma mails back: answers to one address, refusals a stranger's mail may cause. */
#ifndef NGOMA_LIMITS_H
#define NGOMA_LIMITS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

/* Mails of kind (a comma-free word, or NULL for any) queued to rcpt in the
 * last secs seconds. */
int limit_mails_to(sqlite3 *db, const char *rcpt, const char *kind, long secs, int64_t *n);
/* Mails of kind that mail from sender caused in the last secs seconds
 * (wherever they went: a refusal goes to the seat it claimed). */
int limit_answers_caused(sqlite3 *db, const char *sender, const char *kind, long secs, int64_t *n);
/* Whether another mail of kind may go to rcpt now, by the setting
 * per_hour_key (a number a hour); *ok says. */
int limit_may_mail(sqlite3 *db, const char *rcpt, const char *kind, const char *per_hour_key, bool *ok);

/* Mails an address did not ask for itself that went to rcpt in the last
 * secs seconds: invitations and the lobby's confirmations, one budget for
 * an address that never confirmed. */
int limit_unsolicited(sqlite3 *db, const char *rcpt, long secs, int64_t *n);

#endif
