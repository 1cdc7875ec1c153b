/* wake.h: waking a running ngoma serve: a FIFO beside the database that only the server reads. */
#ifndef NGOMA_WAKE_H
#define NGOMA_WAKE_H

#include <stdbool.h>

/* Tells the server of db_path that work came (a mail kept, mail queued):
 * true when a server is there to read it (the FIFO has a reader), false
 * when none runs: the caller does the work or starts a worker. */
bool wake_server(const char *db_path);

/* The server's end: makes the FIFO (mode 0600) and opens it for reading
 * without blocking; the fd, or -1 with why in err (a struct strbuf *).
 * The server also holds it open for writing, so that it never reads an
 * end of file. */
struct strbuf;
int wake_listen(const char *db_path, int *keep_open, struct strbuf *err);

/* Empties the FIFO after a wake (many wakes ask for one round of work). */
void wake_drain(int fd);

#endif
