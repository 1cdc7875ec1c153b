/* send.h: delivering the outbox: .eml files, SMTP through libcurl, or a sendmail program; retries with backoff. */
#ifndef NGOMA_SEND_H
#define NGOMA_SEND_H

#include <sqlite3.h>
#include <stdbool.h>

struct send_stats {
    char where[256]; /* the dir method's directory, "" for smtp and sendmail */
    int sent;
    int deferred;  /* a temporary failure: tried again later */
    int failed;    /* a permanent failure: recorded, shown by ngoma outbox */
    bool busy;     /* another ngoma was sending: nothing was done */
    bool stopped;  /* asked to stop: the rest waits, queued */
};

/* Before each mail the sender asks fn(arg) whether it is to stop (ngoma
 * serve stopping): then the rest waits, queued for the next start, and
 * how many is said. NULL: never. */
void outbox_send_stop_when(bool (*fn)(void *), void *arg);

/* Delivers every due mail of the outbox by the send_method setting. A
 * mail is marked sent only after the server (or the file system) took it.
 * One process sends at a time (a lock beside the database at db_path);
 * another finds stats->busy, and the holder, once it lets go, sends what
 * the other queued meanwhile. -1 only on a database failure. */
int outbox_send(sqlite3 *db, const char *db_path, struct send_stats *stats);
/* The same, waiting up to wait seconds for another sender to finish
 * (then sending what it left): after it, everything due has been tried. */
int outbox_send_wait(sqlite3 *db, const char *db_path, double wait, struct send_stats *stats);

/* "sent 3, deferred 0, failed 0", or for the dir method "written 3 to
 * DIR/, ..." (mail in a directory has not reached anyone yet). */
void send_summary(const struct send_stats *st, char out[320]);

/* After attempt n (1, 2, ...) the next comes this many seconds later; 0
 * means give up. */
long send_backoff(int attempts);

#endif
