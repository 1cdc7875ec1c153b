/* inbound.h: one incoming mail from raw bytes to stored orders and queued replies, journalled once by Message-ID. */
#ifndef NGOMA_INBOUND_H
#define NGOMA_INBOUND_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* A message as read: at most the size limit of it is kept. */
struct rawmsg {
    char *data;
    size_t len;        /* bytes kept */
    size_t total;      /* bytes the message had */
    char digest[65];   /* SHA-256 of all of it, hex */
};

/* Reads a message from fd (to its end) or a file, keeping at most limit
 * bytes (the rest is counted and digested, never stored). */
int rawmsg_read_fd(int fd, size_t limit, struct rawmsg *r);
int rawmsg_read_file(const char *path, size_t limit, struct rawmsg *r);
/* The same for a message already in memory (copied). */
void rawmsg_from_memory(const char *data, size_t len, size_t limit, struct rawmsg *r);
void rawmsg_release(struct rawmsg *r);

enum inbound_status {
    INBOUND_PROCESSED, /* orders taken, replies queued */
    INBOUND_DUPLICATE, /* its Message-ID was seen before: nothing done */
    INBOUND_IGNORED,   /* journalled only: automatic mail, no game, unknown sender */
    INBOUND_REFUSED,   /* journalled, and the seat it claimed told why */
};

struct inbound_result {
    enum inbound_status status;
    int64_t game;
    int seat; /* 1-based, 0: none */
    char summary[256];
};

/*
 * Journals and handles one message inside the caller's transaction (or
 * savepoint). -1 means a database or internal failure: the caller rolls
 * back, and the message counts as not received.
 */
int inbound_process(sqlite3 *db, const struct rawmsg *raw, const char *source, struct inbound_result *r);

/* Journals a message whose processing failed for good, so that it is
 * neither lost nor retried forever (inside the caller's transaction). */
int inbound_journal_failed(sqlite3 *db, const struct rawmsg *raw, const char *source, const char *why);

#endif
