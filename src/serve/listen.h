/* listen.h: the sockets ngoma serve listens on: unix:PATH and HOST:PORT from the command line, or those systemd passes (socket activation). */
#ifndef NGOMA_LISTEN_H
#define NGOMA_LISTEN_H

#include <stdbool.h>
#include <sys/types.h>

#include "lib/strbuf.h"

#define LISTEN_MAX 8

struct listener {
    int fd;
    char name[300];    /* as given: unix:/run/ngoma/lmtp, 127.0.0.1:2424, or systemd:3 */
    char *unix_path;   /* a socket this process made, removed when it ends */
};

/* Unix sockets made here: this mode, and this group when it is set. */
struct listen_opts {
    mode_t mode;
    const char *group;
};

/* Opens spec (unix:PATH, HOST:PORT, [IPv6]:PORT) listening and
 * non-blocking: 0, or -1 with why in err. A unix socket path where a
 * socket is left but nobody listens is taken over; a live one is refused. */
int listen_open(const char *spec, const struct listen_opts *o, struct listener *l, struct strbuf *err);

/* The sockets systemd passed (LISTEN_PID is this process, LISTEN_FDS of
 * them from fd 3); how many were added to ls (at most max). */
int listen_inherited(struct listener *ls, int max);

void listen_close(struct listener *l);

#endif
