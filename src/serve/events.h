/* events.h: serve's poll loop (Redis's ae.c the model): each round the descriptors watched and what to call when one is ready, one wait with a timeout, then each ready one's handler in the order watched. */
#ifndef NGOMA_EVENTS_H
#define NGOMA_EVENTS_H

#include <poll.h>
#include <stddef.h>

/* Called for a ready descriptor: the loop's owner, what was watched with
 * it, the descriptor and what poll said of it. */
typedef void ev_handler(void *owner, void *ctx, int fd, short revents);

struct ev_loop {
    void *owner;
    struct pollfd *pf;
    struct ev_watched {
        ev_handler *fn;  /* NULL: forgotten this round */
        void *ctx;
    } *w;
    size_t n, alloc;
};

void ev_init(struct ev_loop *e, void *owner);
/* A new round: nothing watched. */
void ev_round(struct ev_loop *e);
/* Watches fd for events (POLLIN, POLLOUT) this round. */
void ev_watch(struct ev_loop *e, int fd, short events, ev_handler *fn, void *ctx);
/* What was watched with ctx is not called this round (it was closed by
 * another handler). */
void ev_forget(struct ev_loop *e, const void *ctx);
/* Waits up to ms milliseconds: 0, or -1 when poll failed (not a signal). */
int ev_wait(struct ev_loop *e, int ms);
/* Calls the handler of each descriptor poll found ready. */
void ev_dispatch(struct ev_loop *e);
void ev_release(struct ev_loop *e);

#endif
