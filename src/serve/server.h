/* server.h: ngoma serve: a resident process that takes mail by LMTP on its sockets, commits what arrives together in one transaction, sends the outbox at once and keeps the clock. */
#ifndef NGOMA_SERVER_H
#define NGOMA_SERVER_H

#include "serve/listen.h"

struct serve_opts {
    const char *db_path;
    const char *listen[LISTEN_MAX]; /* unix:PATH or HOST:PORT */
    int nlisten;
    struct listen_opts lo;
};

/*
 * Runs until SIGTERM or SIGINT: then it takes no new connection, answers
 * what is in flight (421 to idle connections, at most 30 s more for a
 * mail under way), lets its children finish their round, and returns 0.
 * SIGHUP rereads the settings and restarts the children. Returns an
 * exit status (sysexits) when it cannot start.
 */
int serve_run(const struct serve_opts *o);

#endif
