/* inbound.h: one incoming mail from raw bytes to stored orders and queued replies, journalled once by what it is and where it went. */
#ifndef NGOMA_INBOUND_H
#define NGOMA_INBOUND_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/inbound_mail.h"

enum inbound_status {
    INBOUND_PROCESSED, /* orders taken, replies queued */
    INBOUND_DUPLICATE, /* this mail, to this address, was seen before: nothing done */
    INBOUND_IGNORED,   /* journalled only: automatic mail, no game, unknown sender */
    INBOUND_REFUSED,   /* journalled, and the seat it claimed told why (within the rate limits) */
};

struct inbound_result {
    enum inbound_status status;
    int64_t game;
    int seat; /* 1-based, 0: none */
    char summary[512];
};

/* Prepares raw (which must outlive in). Reads settings but writes nothing.
 * env may be NULL. -1 (in released) when the mail module cannot be
 * loaded. */
int inbound_prepare(sqlite3 *db, const struct rawmsg *raw, const char *source, const struct inbound_env *env,
                    struct inbound_mail *in);
void inbound_mail_release(struct inbound_mail *in);

/*
 * Journals and handles a prepared mail inside the caller's transaction (or
 * savepoint). -1 means a database or internal failure: the caller rolls
 * back, and the message counts as not received.
 */
int inbound_take(sqlite3 *db, struct inbound_mail *in, struct inbound_result *r);

/* inbound_prepare and inbound_take in one, for callers that hold no lock
 * worth sparing (tests, the fuzzer). */
int inbound_process(sqlite3 *db, const struct rawmsg *raw, const char *source, struct inbound_result *r);

/* Journals a message whose processing failed for good, so that it is
 * neither lost nor retried forever (inside the caller's transaction). */
int inbound_journal_failed(sqlite3 *db, const struct inbound_mail *in, const char *why);

/*
 * Taking a mail failed for a reason that is not the mail's (the database,
 * an internal error, a full disk), and its transaction was rolled back:
 * the failure is kept (mail_failures: tries, the reason, the game) for
 * list, status and the admin's alert, and the mail is offered again
 * (receive exits EX_TEMPFAIL; fetch leaves it unseen). A mail that has
 * failed for INBOUND_GIVE_UP_SECS is journalled as failed instead, and
 * *given_up says the fetch may let it go. Inside the caller's transaction.
 */
#define INBOUND_GIVE_UP_SECS (5L * 86400)
int inbound_note_failure(sqlite3 *db, const struct inbound_mail *in, const char *why, bool *given_up);

#endif
