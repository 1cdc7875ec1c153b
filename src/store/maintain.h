/* maintain.h: keeping the database small and safe: pruning old mail and journal rows, online backups. */
#ifndef NGOMA_MAINTAIN_H
#define NGOMA_MAINTAIN_H

#include <sqlite3.h>
#include <stdint.h>
#include <time.h>

struct prune_stats {
    int64_t sent;      /* sent mails deleted from the outbox */
    int64_t raw;       /* raw copies of incoming mail dropped */
    int64_t journal;   /* journal rows deleted (mail no order and no kept answer points to) */
    int64_t runs;      /* rows of old runs deleted */
    int64_t addresses; /* lobby addresses that never confirmed, deleted */
};

/*
 * Everything older than before, in one transaction: sent mail (and failed
 * mail) leaves the outbox; incoming mail keeps no raw copy; journal rows
 * that no order and no kept mail point to go, the others keep their
 * headers and status; lobby addresses that never confirmed go. Games,
 * seats, turns, orders and notices, the history, are never touched.
 */
int db_prune(sqlite3 *db, time_t before, struct prune_stats *st);

/* A consistent copy of the whole database at path (written beside it and
 * renamed), taken with SQLite's online backup while others write. */
int db_backup(sqlite3 *db, const char *path);

#endif
