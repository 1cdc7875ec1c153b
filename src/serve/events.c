/* events.c: serve's poll loop: descriptors watched a round at a time, one wait, each ready one's handler. */
#include "serve/events.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void ev_init(struct ev_loop *e, void *owner)
{
    memset(e, 0, sizeof(*e));
    e->owner = owner;
}

void ev_round(struct ev_loop *e)
{
    e->n = 0;
}

void ev_watch(struct ev_loop *e, int fd, short events, ev_handler *fn, void *ctx)
{
    if (e->n == e->alloc) {
        e->alloc = e->alloc ? 2 * e->alloc : 16;
        e->pf = xrealloc(e->pf, e->alloc * sizeof(*e->pf));
        e->w = xrealloc(e->w, e->alloc * sizeof(*e->w));
    }
    e->pf[e->n] = (struct pollfd){ fd, events, 0 };
    e->w[e->n] = (struct ev_watched){ fn, ctx };
    e->n++;
}

void ev_forget(struct ev_loop *e, const void *ctx)
{
    for (size_t i = 0; i < e->n; i++)
        if (e->w[i].ctx == ctx)
            e->w[i].fn = NULL;
}

int ev_wait(struct ev_loop *e, int ms)
{
    if (poll(e->pf, e->n, ms) < 0) {
        if (errno != EINTR)
            return -1;
        for (size_t i = 0; i < e->n; i++)
            e->pf[i].revents = 0;
    }
    return 0;
}

void ev_dispatch(struct ev_loop *e)
{
    /* A handler may watch nothing new (the round is fixed) but may
     * forget: each entry is read when its turn comes. */
    for (size_t i = 0; i < e->n; i++)
        if (e->pf[i].revents && e->w[i].fn)
            e->w[i].fn(e->owner, e->w[i].ctx, e->pf[i].fd, e->pf[i].revents);
}

void ev_release(struct ev_loop *e)
{
    free(e->pf);
    free(e->w);
    memset(e, 0, sizeof(*e));
}
