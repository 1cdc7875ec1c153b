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
    /* What its source acknowledges it by: */
    char *name;            /* a name (a Maildir file), freed with the item, or NULL */
    int64_t key;           /* a number (an IMAP UID, an inbox row, an LMTP recipient) */
    void *owner;           /* a place (an LMTP connection) */
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

/* ---- the one drain loop every way mail arrives shares --------------------- */

/* A way mail arrives (a Maildir, an IMAP mailbox, an mbox, the inbox,
 * LMTP): its name in the journal, and how it learns what became of a
 * group it gave. ack runs after each group's commit (rc 0: each item's
 * outcome says whether to acknowledge it) or its rollback as a whole
 * (rc -1: nothing is taken); it returns -1 when the acknowledgement
 * itself failed (the mails are offered again, and found taken). */
struct intake_source {
    const char *name;
    int (*ack)(void *ctx, const struct intake_group *gr, int rc);
    void *ctx;
};

/* Mails given one by one, prepared at once, committed a group at a time,
 * each group acknowledged to its source after its commit. */
struct intake_drain {
    sqlite3 *db;
    const struct intake_source *src;
    struct intake_stats *st;
    struct intake_group *gr;
    bool temporary;  /* after a failure: it will pass (the database busy) */
};

void intake_drain_open(struct intake_drain *d, sqlite3 *db, const struct intake_source *src, struct intake_stats *st);
/* Gives a mail (raw taken over, or with borrow only pointed to) as
 * intake_add does, committing the group first when it is full; *item
 * (when not NULL) is its place, for the source's marks. 0; 1 when the full
 * group could not be committed (the mail is not added); -1 when the mail
 * could not be prepared. */
int intake_drain_give(struct intake_drain *d, struct rawmsg *raw, bool borrow, const char *source,
                      const struct inbound_env *env, struct intake_item **item);
/* Commits and acknowledges what was given: 0, or -1 (d->temporary). */
int intake_drain_flush(struct intake_drain *d);
/* Lets go of what was given and not flushed (offered again next time). */
void intake_drain_close(struct intake_drain *d);

#endif
