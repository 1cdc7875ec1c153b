/* inbox.h: mail the MTA handed over, kept until it is read, in a database of its own beside the main one (DB.inbox): receive and ngoma serve keep it and end the delivery; the server's reader, receive's worker, send and run read it. */
#ifndef NGOMA_INBOX_H
#define NGOMA_INBOX_H

#include <sqlite3.h>
#include <stdint.h>

#include "judge/inbound.h"
#include "intake/intake.h"
#include "lib/strbuf.h"
#include "mail/rawmsg.h"

/* Mails, and bytes of them, the inbox keeps at most: past either a mail
 * is not kept (receive exits EX_TEMPFAIL, serve says 452) until they are
 * read. */
#define INBOX_MAX 10000
#define INBOX_MAX_BYTES (64LL << 20)

/*
 * The inbox of the database at db_path (DB.inbox, made when missing). It
 * is a file of its own so that keeping a mail never waits for the
 * transaction that takes others: a mail is taken in the main database,
 * then its inbox row deleted; a crash between leaves the row, and the
 * mail read again is recognised by the journal and only deleted. NULL
 * after reporting.
 */
sqlite3 *inbox_open(const char *db_path);

/* Keeps a mail inside the caller's transaction on ib, with what the
 * transport said of it (env, or NULL): 0 with its row in *id, 1 when the
 * inbox is full, -1 on failure. */
int inbox_put(sqlite3 *ib, const struct rawmsg *raw, const char *source, const struct inbound_env *env, int64_t *id);

/* The same in a transaction of its own on the inbox of db_path. */
int inbox_keep(const char *db_path, const struct rawmsg *raw, const char *source, int64_t *id);

/*
 * Reads every mail of the inbox of db_path and takes it into db (intake.c:
 * in groups of up to 64, a savepoint each, one commit), then deletes the
 * rows taken. One process reads at a time (a lock beside the database):
 * another that finds it taken returns at once (or waits up to wait
 * seconds), and the holder, once it lets go, reads again what came
 * meanwhile. A mail that cannot be taken stays for the next reader. -1
 * only when a database fails.
 */
int inbox_take(sqlite3 *db, const char *db_path, double wait, struct intake_stats *st);

/* How many mails wait in the inbox of db_path (at most INBOX_MAX; 0 when
 * it has none yet), -1 on failure. */
int inbox_count(const char *db_path);

#endif
