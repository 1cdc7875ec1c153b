/* rawmsg.h: an incoming message as read from a pipe, a file or memory: at most the size limit kept, all of it digested. */
#ifndef NGOMA_RAWMSG_H
#define NGOMA_RAWMSG_H

#include <stddef.h>

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

#endif
