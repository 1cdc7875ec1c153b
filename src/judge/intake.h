/* intake.h: taking mails in groups: read and prepared first, then one transaction with a savepoint each, acknowledged only after the commit. */
#ifndef NGOMA_INTAKE_H
#define NGOMA_INTAKE_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "judge/inbound.h"

/* Mails a transaction: one commit (one fsync) for the group, a savepoint
 * a mail so that one bad mail rolls back alone. A group holds at most
 * INTAKE_BYTES of mail. A reader that has more waiting (the server's,
 * under load) may take groups of up to INTAKE_GROUP_MAX mails and
 * INTAKE_BYTES_MAX bytes: fewer commits, the same work a mail. */
#define INTAKE_GROUP 64
#define INTAKE_BYTES (8u << 20)
#define INTAKE_GROUP_MAX 256
#define INTAKE_BYTES_MAX (32u << 20)

struct intake_stats {
    int messages;   /* read */
    int processed;
    int duplicates;
    int ignored;
    int refused;
    int unseen;     /* not taken (the database, a bug): left where it was, offered again */
    int failed;     /* not taken for days: journalled as failed, no longer offered */
};

enum intake_outcome {
    INTAKE_TAKEN,   /* committed: acknowledge it (r says what became of it) */
    INTAKE_UNSEEN,  /* not taken, for a reason not the mail's: offer it again */
};

struct intake_item {
    struct rawmsg raw;     /* owned, unless borrowed */
    bool borrowed;         /* raw belongs to the caller, who keeps it until the group is cleared */
    struct inbound_mail in;
    char *name;            /* a Maildir file, or NULL */
    uint32_t uid;          /* an IMAP UID, or 0 */
    int64_t inbox_id;      /* an inbox row, deleted once the mail is taken; 0: none */
    void *owner;           /* the caller's (a connection) */
    int index;             /* the caller's (a recipient) */
    enum intake_outcome outcome;
    struct inbound_result r;
};

struct intake_group {
    struct intake_item p[INTAKE_GROUP_MAX];
    size_t n, bytes;
    size_t max, max_bytes;  /* 0: INTAKE_GROUP and INTAKE_BYTES */
};

/* Adds a mail and prepares it, outside any transaction. raw is taken
 * over (zeroed), or with borrow only pointed to. env: what the transport
 * said of it (LMTP), or NULL. 0, or -1 on a database failure (the mail
 * is not added; an owned raw is released). */
int intake_add(sqlite3 *db, struct intake_group *gr, struct rawmsg *raw, bool borrow, const char *source,
               const struct inbound_env *env);
/* The last mail added, for the caller's marks (name, uid, inbox_id ...). */
struct intake_item *intake_last(struct intake_group *gr);
bool intake_full(const struct intake_group *gr);

/*
 * Takes every prepared mail of the group in one transaction, each in its
 * own savepoint; each item's outcome says what to acknowledge. 0 when it
 * committed; -1 when it was rolled back as a whole (the database busy or
 * failing: nothing of the group stays, nothing is acknowledged, st is as
 * before).
 */
int intake_commit(sqlite3 *db, struct intake_group *gr, struct intake_stats *st);
void intake_clear(struct intake_group *gr);

#endif
