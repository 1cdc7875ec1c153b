/* worker.h: the children of ngoma serve (the sender, the clock, the reader, the bots): each a loop that works, then sleeps until it is due again or woken through its pipe. */
#ifndef NGOMA_WORKER_H
#define NGOMA_WORKER_H

#include <sqlite3.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

/* One round of a child's work on its own database connection; returns
 * the seconds until it is due again (it sleeps at most a minute). */
typedef double worker_fn(sqlite3 *db, const char *db_path);

struct worker {
    const char *name;
    worker_fn *fn;
    pid_t pid;        /* 0: not running */
    int wake;         /* the write end of its pipe, -1: none */
    time_t restart_at;/* after it died: when to start it again */
    int deaths;
    bool asked;       /* stopped on purpose (SIGHUP): started again at once */
    /* Its commits need not survive a power cut, only a crash (SQLite's
     * synchronous NORMAL): the sender's marks, a mail being sent and a
     * mail sent, whose loss in a power cut only sends a mail again. */
    bool relaxed;
    int nice;         /* its priority below the server's (setpriority) */
};

/*
 * Forks the child: it closes the fds listed (the server's sockets), opens
 * the database at db_path and loops until its pipe's other end closes
 * (the server stopping, or killed), finishing the round it is in. 0, or
 * -1 when it cannot fork.
 */
int worker_start(struct worker *w, const char *db_path, const int *close_fds, int nclose);
/* A byte down its pipe: it works now (many wakes, one round). */
void worker_wake(struct worker *w);
/* Closes its pipe: it ends after the round it is in. */
void worker_stop(struct worker *w);
/* Marks it dead after waitpid gave its pid; true when it was this one. */
bool worker_reaped(struct worker *w, pid_t pid, bool stopping);

#endif
