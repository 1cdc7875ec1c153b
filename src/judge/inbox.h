/* inbox.h: mail the MTA handed over, kept until it is read: receive keeps it and ends the delivery; the server, the worker receive starts, and run read it. */
#ifndef NGOMA_INBOX_H
#define NGOMA_INBOX_H

#include <sqlite3.h>
#include <stdint.h>

#include "judge/inbound.h"
#include "judge/intake.h"
#include "lib/strbuf.h"
#include "mail/rawmsg.h"

/* Mails, and bytes of them, the inbox keeps at most: past either receive
 * makes the MTA wait (EX_TEMPFAIL) until they are read. */
#define INBOX_MAX 10000
#define INBOX_MAX_BYTES (64LL << 20)

/* Keeps a mail, in a transaction of its own: 0 with its row in *id; 1
 * when the inbox is full; -1 on a database failure. */
int inbox_keep(sqlite3 *db, const struct rawmsg *raw, const char *source, int64_t *id);

/* The same inside the caller's transaction, with what the transport
 * said of it (env, or NULL): 0, 1 when the inbox is full, -1. */
int inbox_put(sqlite3 *db, const struct rawmsg *raw, const char *source, const struct inbound_env *env, int64_t *id);

/*
 * Reads every mail of the inbox and takes it (intake.c: in groups, each
 * row deleted in the savepoint that takes it). One process reads the
 * inbox at a time (a lock beside the database at db_path): another that
 * finds it taken returns at once, and the holder, once it lets go, reads
 * again what came meanwhile (wait: seconds to wait for the other
 * instead). A mail that cannot be taken stays for the next reader. -1
 * only when the database fails.
 */
int inbox_take(sqlite3 *db, const char *db_path, double wait, struct intake_stats *st);

/* How many mails wait in the inbox (at most INBOX_MAX), -1 on failure. */
int inbox_count(sqlite3 *db);

#endif
