/* worker.c: the children of ngoma serve (the sender, the clock, the reader, the bots): each a loop that works, then sleeps until it is due again or woken through its pipe. */
#include "serve/worker.h"
#include "mail/send.h"
#include "store/db.h"
#include "store/settings.h"
#include "lib/template.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static volatile sig_atomic_t told_to_stop;

static void on_term(int sig)
{
    (void)sig;
    told_to_stop = 1;
}

/* Whether the server asked this child to stop: SIGTERM, or its pipe
 * closed (the server stopping); a round that sends asks before each
 * mail, so that a long queue does not hold the stop. */
static bool stopping(void *arg)
{
    struct pollfd p = { *(int *)arg, POLLIN, 0 };
    return told_to_stop || (poll(&p, 1, 0) > 0 && (p.revents & POLLHUP));
}

static void child(struct worker *w, const char *db_path, int in)
{
    struct sigaction sa = { 0 };
    sqlite3 *db;
    char *templates;

    /* SIGTERM ends the loop after the round it is in; the server's own
     * signals are not the child's. */
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGPIPE, &sa, NULL);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGCHLD, &sa, NULL);
    /* Work off the path that acknowledges mail yields to it. */
    if (w->nice && setpriority(PRIO_PROCESS, 0, w->nice)) {
        /* it only runs at the server's priority */
    }
    if (!(db = db_open(db_path)))
        _exit(1);
    /* Off the path that acknowledges mail, its commits need not wait for
     * the disk to hold them (WAL keeps them through a crash): they hold
     * the write lock for less. */
    if (w->relaxed && db_do(db, "PRAGMA synchronous=NORMAL", NULL))
        _exit(1);
    outbox_send_stop_when(stopping, &in);
    templates = setting_get(db, "templates_dir");
    if (templates && *templates)
        template_set_dir(templates);
    free(templates);
    while (!told_to_stop) {
        double next = w->fn(db, db_path);
        struct pollfd p = { in, POLLIN, 0 };
        int ms = next <= 0 ? 0 : next >= 60 ? 60000 : (int)(next * 1000) + 1;
        db_failure_reset();
        if (poll(&p, 1, ms) < 0 && errno != EINTR)
            break;
        if (p.revents & (POLLIN | POLLHUP)) {
            char buf[256];
            ssize_t n = read(in, buf, sizeof(buf));
            if (n == 0)
                break; /* the server is gone or stopping */
            while (n > 0)
                n = read(in, buf, sizeof(buf));
        }
    }
    db_close(db);
    _exit(0);
}

int worker_start(struct worker *w, const char *db_path, const int *close_fds, int nclose)
{
    int fds[2];
    pid_t pid;
    if (pipe(fds))
        return error("%s: cannot make a pipe: %s", w->name, strerror(errno));
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return error("%s: cannot fork: %s", w->name, strerror(errno));
    }
    if (pid == 0) {
        close(fds[1]);
        for (int i = 0; i < nclose; i++)
            if (close_fds[i] >= 0)
                close(close_fds[i]);
        fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
        child(w, db_path, fds[0]);
    }
    close(fds[0]);
    fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    w->pid = pid;
    w->wake = fds[1];
    return 0;
}

void worker_wake(struct worker *w)
{
    /* A full pipe has wakes enough. */
    if (w->wake >= 0 && write(w->wake, "w", 1) < 0 && errno != EAGAIN)
        return;
}

void worker_stop(struct worker *w)
{
    if (w->wake >= 0)
        close(w->wake);
    w->wake = -1;
}

bool worker_reaped(struct worker *w, pid_t pid, bool stopping)
{
    if (!w->pid || w->pid != pid)
        return false;
    w->pid = 0;
    worker_stop(w);
    if (w->asked) {
        w->asked = false;
        w->restart_at = 0;
    } else if (!stopping) {
        /* Again soon, then later and later should it keep dying. */
        long wait = 1L << (w->deaths < 6 ? w->deaths : 6);
        w->deaths++;
        w->restart_at = time(NULL) + wait;
        error("ngoma serve: the %s stopped; it starts again in %ld s", w->name, wait);
    }
    return true;
}
