/* server.c: ngoma serve: a resident process that takes mail by LMTP on its sockets, commits what arrives together in one transaction, sends the outbox at once and keeps the clock. */
#include "serve/server.h"
#include "serve/peer.h"
#include "serve/events.h"
#include "serve/rounds.h"
#include "serve/worker.h"
#include "intake/inbox.h"
#include "intake/intake.h"
#include "intake/wake.h"
#include "mail/lmtp.h"
#include "store/db.h"
#include "store/settings.h"
#include "lib/digest.h"
#include "lib/strbuf.h"
#include "lib/template.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define IN_BYTES 65536            /* a connection's input not yet read by its LMTP machine */
#define OUT_BACKLOG 65536         /* replies a client has not taken: it is not read from meanwhile */
#define HELD_BYTES (256u << 20)   /* mail held by all connections at once: past it, DATA waits (452) */
#define STOP_GRACE 30             /* seconds a mail under way may take once the server stops */
#define BUSY_MS 5000              /* a commit waits this long for another writer, then the mails get 451 */

struct conn {
    int fd;
    struct lmtp l;
    char in[IN_BYTES];
    size_t in_len;
    size_t out_off;          /* how much of l.out is written */
    time_t started, last;
    char peer[PEER_NAME_MAX]; /* who is at the other end (peer.c) */
    bool ready;              /* a whole mail waits for the group commit */
    struct rawmsg raw;       /* that mail as intake reads it (its bytes are l.data's) */
    int *codes;              /* a reply per recipient, made by the commit */
    char (*texts)[200];
};

struct server {
    const struct serve_opts *o;
    sqlite3 *db;
    sqlite3 *ib;             /* the inbox (lmtp_ack kept) */
    struct listener ls[LISTEN_MAX];
    int nls;
    struct conn **conns;
    int nconns, max_conns, per_peer;
    long idle_secs, session_secs;
    size_t message_bytes;
    bool ack_taken;          /* lmtp_ack taken: 250 once read and committed, not once kept */
    int wake_fd, wake_keep;
    struct worker sender, clock, reader, bots;
    bool stopping;
    time_t stop_at, next_tick;
    char host[128];
    struct intake_source lmtp;  /* LMTP's acknowledgement: each recipient's reply */
    struct intake_drain drain;
    bool taken;                 /* a group committed something since the last look */
    struct ev_loop ev;          /* the poll loop (events.c) */
};

static int sig_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
    int e = errno;
    unsigned char c = (unsigned char)sig;
    if (write(sig_pipe[1], &c, 1) < 0) {
        /* full: the loop has signals enough to read */
    }
    errno = e;
}

static void settings_read(struct server *s)
{
    char *templates = setting_get(s->db, "templates_dir");
    s->max_conns = (int)setting_get_int(s->db, "lmtp_connections", 32);
    s->per_peer = (int)setting_get_int(s->db, "lmtp_connections_per_peer", 16);
    s->idle_secs = (long)setting_get_int(s->db, "lmtp_idle_secs", 300);
    s->session_secs = (long)setting_get_int(s->db, "lmtp_session_secs", 3600);
    s->message_bytes = (size_t)setting_get_int(s->db, "max_message_size", 2097152);
    {
        char *ack = setting_get(s->db, "lmtp_ack");
        s->ack_taken = ack && str_eq(ack, "taken");
        free(ack);
    }
    if (templates && *templates)
        template_set_dir(templates);
    free(templates);
    db_failure_reset();
}

/* The fds a child closes: everything of the server's but its own pipe
 * (the other children's too, or those would never see their end). Owned. */
static int *child_fds(const struct server *s, int *n)
{
    int *fds = xmalloc((size_t)(s->nls + s->nconns + 8) * sizeof(int));
    *n = 0;
    for (int i = 0; i < s->nls; i++)
        fds[(*n)++] = s->ls[i].fd;
    for (int i = 0; i < s->nconns; i++)
        fds[(*n)++] = s->conns[i]->fd;
    fds[(*n)++] = s->wake_fd;
    fds[(*n)++] = s->wake_keep;
    fds[(*n)++] = sig_pipe[0];
    fds[(*n)++] = sig_pipe[1];
    fds[(*n)++] = s->sender.wake;
    fds[(*n)++] = s->clock.wake;
    fds[(*n)++] = s->reader.wake;
    fds[(*n)++] = s->bots.wake;
    return fds;
}

static void workers_tend(struct server *s)
{
    struct worker *ws[] = { &s->sender, &s->clock, &s->reader, &s->bots };
    time_t now = time(NULL);
    for (size_t i = 0; i < ARRAY_SIZE(ws); i++) {
        struct worker *w = ws[i];
        int n, *fds;
        if (s->stopping || w->pid || now < w->restart_at)
            continue;
        fds = child_fds(s, &n);
        if (worker_start(w, s->o->db_path, fds, n))
            w->restart_at = now + 5;
        free(fds);
    }
}

/* ---- connections -------------------------------------------------------------------- */

static void conn_close(struct server *s, int k)
{
    struct conn *c = s->conns[k];
    ev_forget(&s->ev, c); /* evicted by an accept: its turn this round is gone */
    close(c->fd);
    lmtp_release(&c->l);
    free(c->codes);
    free(c->texts);
    free(c);
    s->conns[k] = s->conns[--s->nconns];
}

/* Writes what the client may take now; -1 when the connection broke. */
static int conn_write(struct conn *c)
{
    while (c->out_off < c->l.out.len) {
        ssize_t n = send(c->fd, c->l.out.buf + c->out_off, c->l.out.len - c->out_off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
        }
        c->out_off += (size_t)n;
    }
    strbuf_reset(&c->l.out);
    c->out_off = 0;
    return 0;
}

static size_t held_bytes(const struct server *s)
{
    size_t n = 0;
    for (int i = 0; i < s->nconns; i++)
        n += s->conns[i]->l.data.alloc;
    return n;
}

/* Lets the LMTP machine read what came, up to the end of a mail. */
static void conn_feed(struct server *s, struct conn *c)
{
    size_t took;
    if (c->ready || c->l.state == LMTP_CLOSED || !c->in_len)
        return;
    c->l.full = held_bytes(s) + s->message_bytes > HELD_BYTES;
    took = lmtp_feed(&c->l, c->in, c->in_len);
    memmove(c->in, c->in + took, c->in_len - took);
    c->in_len -= took;
    if (c->l.state == LMTP_DELIVER)
        c->ready = true;
}

/* Closes the connection idle longest between mails (none in a mail, none
 * whose mail waits for its commit), to make room; false when none may go. */
static bool evict_idlest(struct server *s)
{
    int idlest = -1;
    for (int k = 0; k < s->nconns; k++) {
        const struct conn *c = s->conns[k];
        bool between = c->l.state == LMTP_GREETED || c->l.state == LMTP_READY;
        if (between && !c->ready && (idlest < 0 || c->last < s->conns[idlest]->last))
            idlest = k;
    }
    if (idlest < 0)
        return false;
    lmtp_shutdown(&s->conns[idlest]->l, "another client needs the connection: try again later");
    conn_write(s->conns[idlest]);
    conn_close(s, idlest);
    return true;
}

static void conn_accept(struct server *s, struct listener *l)
{
    char peer_of_new[PEER_NAME_MAX];
    for (;;) {
        int fd = accept(l->fd, NULL, NULL), one = 1;
        struct conn *c;
        if (fd < 0)
            return; /* EAGAIN: all taken; others: the next poll says */
        if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) || fcntl(fd, F_SETFD, FD_CLOEXEC)) {
            close(fd);
            continue;
        }
        {
            /* One peer holds at most per_peer connections; when the
             * server is full, the connection idle longest between mails
             * makes room, so that a peer that holds many silent ones
             * never shuts out another (the MTA among them). */
            char peer[PEER_NAME_MAX];
            const char *no = NULL;
            int mine = 0;
            peer_name(fd, peer);
            for (int k = 0; k < s->nconns; k++)
                mine += s->conns[k]->l.state != LMTP_CLOSED && str_eq(s->conns[k]->peer, peer);
            if (s->stopping)
                no = "421 4.3.2 the server is stopping: try again later\r\n";
            else if (s->per_peer && mine >= s->per_peer)
                no = "421 4.7.0 too many connections from you at once: try again when one ends\r\n";
            else if (s->nconns >= s->max_conns && !evict_idlest(s))
                no = "421 4.3.2 too many connections here: try again later\r\n";
            if (no) {
                if (send(fd, no, strlen(no), MSG_NOSIGNAL) < 0) {
                    /* it hears nothing either way */
                }
                close(fd);
                continue;
            }
            snprintf(peer_of_new, sizeof(peer_of_new), "%s", peer);
        }
        /* Each reply in one segment, without waiting for an ACK (Nagle
         * against the client's delayed ACK costs 40 ms a mail). */
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        c = xcalloc(1, sizeof(*c));
        c->fd = fd;
        c->started = c->last = time(NULL);
        snprintf(c->peer, sizeof(c->peer), "%s", peer_of_new);
        {
            struct lmtp_limits lim = LMTP_LIMITS_DEFAULT;
            lim.message_bytes = s->message_bytes;
            lmtp_init(&c->l, &lim, s->host);
        }
        s->conns = xrealloc(s->conns, (size_t)(s->nconns + 1) * sizeof(*s->conns));
        s->conns[s->nconns++] = c;
        conn_write(c);
    }
}

/* ---- the group commit ---------------------------------------------------------------- */

/* A reply's words from a result: one line of printable ASCII. */
static void reply_text(char out[200], const char *code, const char *words)
{
    size_t n = (size_t)snprintf(out, 200, "%s %s", code, words);
    for (size_t i = 0; i < n && i < 199; i++)
        if ((unsigned char)out[i] < 0x20 || (unsigned char)out[i] > 0x7e)
            out[i] = ' ';
}

/* LMTP's acknowledgement of a group: each recipient's reply. */
static int reply_each(void *ctx, const struct intake_group *gr, int rc)
{
    struct server *s = ctx;
    for (size_t i = 0; i < gr->n; i++) {
        const struct intake_item *p = &gr->p[i];
        struct conn *c = p->owner;
        if (rc) {
            c->codes[p->key] = 451;
            reply_text(c->texts[p->key], "4.3.0", "not taken now (the database is busy or failing): try again later");
        } else if (p->outcome == INTAKE_TAKEN) {
            c->codes[p->key] = 250;
            reply_text(c->texts[p->key], "2.0.0", p->r.summary);
            s->taken = true;
        } else {
            c->codes[p->key] = 451;
            reply_text(c->texts[p->key], "4.3.0", "not taken now (an internal error, kept for the admin): try again later");
        }
    }
    return 0;
}

/* Commits the group: each of its recipients gets a reply. */
static void group_commit(struct server *s)
{
    intake_drain_flush(&s->drain);
    db_failure_reset();
}

/* lmtp_ack kept: every recipient of every whole mail kept in the inbox
 * in one transaction; once it commits each gets its 250 (and the inbox
 * is read at once, after the replies are out). */
static bool keep_ready(struct server *s)
{
    bool any = false, failed = db_begin(s->ib) != 0;
    for (int k = 0; k < s->nconns; k++) {
        struct conn *c = s->conns[k];
        if (!c->ready || lmtp_oversize(&c->l))
            continue;
        any = true;
        for (size_t i = 0; i < c->l.rcpts.n && !failed; i++) {
            struct inbound_env env = { c->l.rcpts.v[i], c->l.from };
            int64_t id;
            int rc = inbox_put(s->ib, &c->raw, "lmtp", &env, &id);
            if (rc < 0) {
                failed = true;
            } else if (rc > 0) {
                c->codes[i] = 452;
                reply_text(c->texts[i], "4.3.1", "ngoma's inbox is full: try again later");
            } else {
                c->codes[i] = 250;
                reply_text(c->texts[i], "2.0.0", "kept: it is read now");
            }
        }
    }
    if (!any) {
        db_rollback(s->ib);
        return false;
    }
    if (failed || db_commit(s->ib)) {
        db_rollback(s->ib);
        for (int k = 0; k < s->nconns; k++) {
            struct conn *c = s->conns[k];
            if (!c->ready || lmtp_oversize(&c->l))
                continue;
            for (size_t i = 0; i < c->l.rcpts.n; i++) {
                c->codes[i] = 451;
                reply_text(c->texts[i], "4.3.0", "not kept now (the database is busy or failing): try again later");
            }
        }
        db_failure_reset();
        return false;
    }
    return true;
}

/* Every whole mail: each recipient prepared (the slow work, outside the
 * lock), all of them committed together, then every reply given (with
 * lmtp_ack kept: each kept in the inbox, then read once the replies are
 * out). */
static void commit_ready(struct server *s)
{
    struct intake_stats st = { 0 };
    bool any = false, kept = false;
    s->drain.st = &st;
    s->taken = false;
    for (int k = 0; k < s->nconns; k++) {
        struct conn *c = s->conns[k];
        size_t n = c->l.rcpts.n;
        if (!c->ready)
            continue;
        any = true;
        c->codes = xrealloc(c->codes, n * sizeof(*c->codes));
        c->texts = xrealloc(c->texts, n * sizeof(*c->texts));
        if (lmtp_oversize(&c->l)) {
            for (size_t i = 0; i < n; i++) {
                c->codes[i] = 552;
                snprintf(c->texts[i], sizeof(c->texts[i]), "5.3.4 the mail is over %zu bytes, the most this server"
                         " takes", s->message_bytes);
            }
            continue;
        }
        memset(&c->raw, 0, sizeof(c->raw));
        c->raw.data = c->l.data.buf;
        c->raw.len = c->raw.total = c->l.data.len;
        sha256_hex(c->raw.data, c->raw.len, c->raw.digest);
        if (!s->ack_taken)
            continue; /* kept below, all together */
        for (size_t i = 0; i < n; i++) {
            struct inbound_env env = { c->l.rcpts.v[i], c->l.from };
            /* A full group is committed first; a mail's recipients may
             * so go in two (each reply is its own recipient's). */
            struct intake_item *p;
            if (intake_full(s->drain.gr))
                group_commit(s);
            if (intake_drain_give(&s->drain, &c->raw, true, NULL, &env, &p)) {
                c->codes[i] = 451;
                reply_text(c->texts[i], "4.3.0", "not taken now (an internal error): try again later");
                continue;
            }
            p->owner = c;
            p->key = (int64_t)i;
        }
    }
    if (!any)
        return;
    if (s->ack_taken)
        group_commit(s);
    else
        kept = keep_ready(s);
    for (int k = 0; k < s->nconns; k++) {
        struct conn *c = s->conns[k];
        if (!c->ready)
            continue;
        {
            const char *texts[LMTP_RECIPIENTS_MAX];
            for (size_t i = 0; i < c->l.rcpts.n && i < LMTP_RECIPIENTS_MAX; i++)
                texts[i] = c->texts[i];
            lmtp_deliver_done(&c->l, c->codes, texts);
        }
        c->ready = false;
        c->last = time(NULL);
        /* The 250s go out before any worker is woken: on a busy machine
         * a woken worker can take this core for milliseconds. (A broken
         * connection is closed by the loop's own write after.) */
        (void)conn_write(c);
        conn_feed(s, c);
    }
    if (s->taken) {
        worker_wake(&s->sender);
        worker_wake(&s->clock);
        worker_wake(&s->bots);
    }
    if (kept)
        worker_wake(&s->reader); /* the reader takes them, in groups as they come */
}

/* The server was woken (a mail receive kept, a command, the reader's
 * round) or it starts: the reader reads the inbox, and whatever woke it
 * may have queued mail or moved a deadline. */
static void take_inbox(struct server *s)
{
    worker_wake(&s->reader);
    worker_wake(&s->clock);
    worker_wake(&s->sender);
    worker_wake(&s->bots);
}

/* ---- the loop -------------------------------------------------------------------------- */

static void reap(struct server *s)
{
    pid_t pid;
    int status;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        if (!worker_reaped(&s->sender, pid, s->stopping) && !worker_reaped(&s->clock, pid, s->stopping) &&
            !worker_reaped(&s->reader, pid, s->stopping))
            worker_reaped(&s->bots, pid, s->stopping);
}

static void signals(struct server *s)
{
    unsigned char buf[64];
    ssize_t n;
    while ((n = read(sig_pipe[0], buf, sizeof(buf))) > 0)
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] == SIGTERM || buf[i] == SIGINT) {
                if (!s->stopping) {
                    s->stopping = true;
                    s->stop_at = time(NULL) + STOP_GRACE;
                    for (int k = 0; k < s->nls; k++) {
                        ev_forget(&s->ev, &s->ls[k]);
                        listen_close(&s->ls[k]);
                    }
                    s->nls = 0;
                    fprintf(stderr, "ngoma serve: stopping: no new connections; %d in flight\n", s->nconns);
                }
            } else if (buf[i] == SIGHUP) {
                settings_read(s);
                s->sender.asked = s->clock.asked = s->reader.asked = s->bots.asked = true;
                worker_stop(&s->sender);
                worker_stop(&s->clock);
                worker_stop(&s->reader);
                worker_stop(&s->bots);
                fprintf(stderr, "ngoma serve: settings read again; the sender, the clock, the reader and the bots"
                                " start afresh\n");
            } else if (buf[i] == SIGCHLD) {
                reap(s);
            }
        }
}

/* Hangs up on connections idle or open too long, and, once stopping, on
 * those between mails (at once) and those still in a mail (after the
 * grace). */
static void timeouts(struct server *s, time_t now)
{
    for (int k = s->nconns - 1; k >= 0; k--) {
        struct conn *c = s->conns[k];
        bool between = c->l.state == LMTP_GREETED || c->l.state == LMTP_READY;
        if (c->l.state != LMTP_CLOSED) {
            if (now - c->last >= s->idle_secs)
                lmtp_shutdown(&c->l, "you said nothing for too long");
            else if (now - c->started >= s->session_secs)
                lmtp_shutdown(&c->l, "the connection has lasted too long");
            else if (s->stopping && (between || now >= s->stop_at))
                lmtp_shutdown(&c->l, "the server is stopping: try again later");
        }
        if (c->l.state == LMTP_CLOSED && !c->ready) {
            conn_write(c);
            conn_close(s, k);
        }
    }
}

static int poll_timeout(const struct server *s, time_t now)
{
    time_t next = s->next_tick;
    for (int k = 0; k < s->nconns; k++) {
        const struct conn *c = s->conns[k];
        if (c->last + s->idle_secs < next)
            next = c->last + s->idle_secs;
        if (c->started + s->session_secs < next)
            next = c->started + s->session_secs;
    }
    if (s->stopping && s->stop_at < next)
        next = s->stop_at;
    for (int k = 0; k < s->nconns; k++)
        if (s->conns[k]->ready)
            return 0; /* a mail read from what was buffered waits for its commit */
    if (!s->sender.pid && s->sender.restart_at && s->sender.restart_at < next)
        next = s->sender.restart_at;
    if (!s->clock.pid && s->clock.restart_at && s->clock.restart_at < next)
        next = s->clock.restart_at;
    if (!s->reader.pid && s->reader.restart_at && s->reader.restart_at < next)
        next = s->reader.restart_at;
    if (!s->bots.pid && s->bots.restart_at && s->bots.restart_at < next)
        next = s->bots.restart_at;
    return next <= now ? 0 : (int)(next - now) * 1000;
}

/* ---- the loop's handlers (events.c calls them) --------------------------------- */

static void on_signals(void *owner, void *ctx, int fd, short re)
{
    (void)ctx, (void)fd, (void)re;
    signals(owner);
}

static void on_wake(void *owner, void *ctx, int fd, short re)
{
    (void)ctx;
    if (re & POLLIN) {
        wake_drain(fd);
        take_inbox(owner);
    }
}

static void on_accept(void *owner, void *ctx, int fd, short re)
{
    (void)fd;
    if (re & POLLIN)
        conn_accept(owner, ctx);
}

/* What a connection sent: read, and fed to its LMTP machine. */
static void on_conn(void *owner, void *ctx, int fd, short re)
{
    struct server *s = owner;
    struct conn *c = ctx;
    ssize_t got;
    if (!(re & (POLLIN | POLLHUP | POLLERR)))
        return;
    got = recv(fd, c->in + c->in_len, IN_BYTES - c->in_len, 0);
    if (got > 0) {
        c->in_len += (size_t)got;
        c->last = time(NULL);
        conn_feed(s, c);
    } else if (got == 0 || (errno != EAGAIN && errno != EINTR && errno != EWOULDBLOCK)) {
        /* Gone: a mail it sent whole is still taken (its client will not
         * hear, and sends it again: the journal knows it then). */
        if (!c->ready) {
            for (int k = 0; k < s->nconns; k++)
                if (s->conns[k] == c) {
                    conn_close(s, k);
                    break;
                }
            return;
        }
        c->l.state = c->l.state == LMTP_DELIVER ? LMTP_DELIVER : LMTP_CLOSED;
    }
}

static void loop(struct server *s)
{
    ev_init(&s->ev, s);
    while (!s->stopping || s->nconns || s->sender.pid || s->clock.pid || s->reader.pid || s->bots.pid) {
        time_t now = time(NULL);
        int ms;
        if (s->stopping && !s->nconns) {
            /* The children end after their round once their pipes close. */
            worker_stop(&s->sender);
            worker_stop(&s->clock);
            worker_stop(&s->reader);
            worker_stop(&s->bots);
        }
        workers_tend(s);
        /* This round: the signals, the wake pipe, the listeners, then each
         * connection for what it may do now (read while its input and its
         * replies have room; write what it has not taken). A connection
         * accepted this round is watched from the next. */
        ev_round(&s->ev);
        ev_watch(&s->ev, sig_pipe[0], POLLIN, on_signals, NULL);
        ev_watch(&s->ev, s->wake_fd, POLLIN, on_wake, NULL);
        for (int i = 0; i < s->nls; i++)
            ev_watch(&s->ev, s->ls[i].fd, POLLIN, on_accept, &s->ls[i]);
        for (int k = 0; k < s->nconns; k++) {
            struct conn *c = s->conns[k];
            short ev = 0;
            if (!c->ready && c->in_len < IN_BYTES && c->l.out.len - c->out_off < OUT_BACKLOG &&
                c->l.state != LMTP_CLOSED)
                ev |= POLLIN;
            if (c->out_off < c->l.out.len)
                ev |= POLLOUT;
            ev_watch(&s->ev, c->fd, ev, on_conn, c);
        }
        ms = poll_timeout(s, now);
        if (s->stopping && !s->nconns)
            ms = ms > 1000 ? 1000 : ms; /* waiting only for the children */
        if (ev_wait(&s->ev, ms)) {
            error("ngoma serve: poll: %s", strerror(errno));
            break;
        }
        ev_dispatch(&s->ev);
        commit_ready(s);
        for (int k = s->nconns - 1; k >= 0; k--)
            if (conn_write(s->conns[k]) && !s->conns[k]->ready)
                conn_close(s, k);
        now = time(NULL);
        timeouts(s, now);
        if (now >= s->next_tick) {
            /* A kept mail that could not be taken is tried again. */
            s->next_tick = now + 60;
            if (inbox_count(s->o->db_path) > 0)
                worker_wake(&s->reader);
            db_failure_reset();
        }
    }
    ev_release(&s->ev);
}

int serve_run(const struct serve_opts *o)
{
    struct server s = { 0 };
    struct strbuf err = STRBUF_INIT;
    struct sigaction sa = { 0 };
    int rc = 0;

    s.o = o;
    s.wake_fd = s.wake_keep = -1;
    /* The sender at the server's own priority: other work on the host
     * does not starve the answers. */
    s.sender = (struct worker){ "sender", serve_send_round, 0, -1, 0, 0, false, true, 0 };
    s.clock = (struct worker){ "clock", serve_clock_round, 0, -1, 0, 0, false, false, 5 };
    s.reader = (struct worker){ "reader", serve_read_round, 0, -1, 0, 0, false, false, 0 };
    /* The strong bots search in a child of their own, below the clock:
     * a deadline never waits for a search. */
    s.bots = (struct worker){ "bots", serve_bots_round, 0, -1, 0, 0, false, false, 10 };
    if (gethostname(s.host, sizeof(s.host) - 1) || !*s.host)
        snprintf(s.host, sizeof(s.host), "localhost");
    if (wake_server(o->db_path)) {
        fprintf(stderr, "ngoma serve: another ngoma serve runs for %s already\n", o->db_path);
        return EX_TEMPFAIL;
    }
    if (!(s.db = db_open(o->db_path)))
        return EX_TEMPFAIL;
    if (!(s.ib = inbox_open(o->db_path))) {
        rc = EX_TEMPFAIL;
        goto out;
    }
    if (!getenv("NGOMA_BUSY_TIMEOUT_MS")) {
        db_set_busy_ms(s.db, BUSY_MS);
        db_set_busy_ms(s.ib, BUSY_MS);
    }
    settings_read(&s);
    s.nls = listen_inherited(s.ls, LISTEN_MAX);
    for (int i = 0; i < o->nlisten && s.nls < LISTEN_MAX; i++) {
        if (listen_open(o->listen[i], &o->lo, &s.ls[s.nls], &err)) {
            fprintf(stderr, "ngoma serve: %s\n", err.buf);
            rc = EX_CONFIG;
            goto out;
        }
        s.nls++;
    }
    if (!s.nls) {
        fprintf(stderr, "ngoma serve: nothing to listen on: give --listen unix:PATH or --listen HOST:PORT (or start"
                        " it from a systemd socket)\n");
        rc = EX_USAGE;
        goto out;
    }
    if ((s.wake_fd = wake_listen(o->db_path, &s.wake_keep, &err)) < 0) {
        fprintf(stderr, "ngoma serve: %s\n", err.buf);
        rc = EX_CANTCREAT;
        goto out;
    }
    if (pipe(sig_pipe)) {
        rc = EX_OSERR;
        goto out;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(sig_pipe[i], F_SETFL, fcntl(sig_pipe[i], F_GETFL) | O_NONBLOCK);
        fcntl(sig_pipe[i], F_SETFD, FD_CLOEXEC);
    }
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGCHLD, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    s.lmtp = (struct intake_source){ "lmtp", reply_each, &s };
    intake_drain_open(&s.drain, s.db, &s.lmtp, NULL);
    s.next_tick = time(NULL) + 60;
    {
        struct strbuf names = STRBUF_INIT;
        for (int i = 0; i < s.nls; i++)
            strbuf_addf(&names, "%s%s", i ? ", " : "", s.ls[i].name);
        fprintf(stderr, "ngoma serve: pid %ld, LMTP on %s, for %s\n", (long)getpid(), names.buf, o->db_path);
        strbuf_release(&names);
    }
    /* Mail kept while no server ran is taken first. */
    take_inbox(&s);
    loop(&s);
    fprintf(stderr, "ngoma serve: stopped\n");
out:
    for (int i = 0; i < s.nls; i++)
        listen_close(&s.ls[i]);
    while (s.nconns)
        conn_close(&s, s.nconns - 1);
    free(s.conns);
    intake_drain_close(&s.drain);
    if (s.wake_fd >= 0)
        close(s.wake_fd);
    if (s.wake_keep >= 0)
        close(s.wake_keep);
    db_close(s.ib);
    db_close(s.db);
    strbuf_release(&err);
    return rc;
}
