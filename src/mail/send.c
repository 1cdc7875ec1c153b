/* send.c: delivering the outbox: .eml files, SMTP through libcurl, or a sendmail program; retries with backoff. */
#include "mail/send.h"
#include "mail/mailout.h"
#include "render/render.h"
#include "lib/jsonx.h"
#include "store/db.h"
#include "store/settings.h"
#include "lib/strbuf.h"
#include "lib/paths.h"
#include "lib/util.h"

#include "mail/curlx.h"
#include "mail/tlsconf.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ATTEMPTS 12
#define CLAIM_LEASE 600 /* seconds before a claimed mail is taken up again */

/* Asked before each mail whether to stop (outbox_send_stop_when). */
static bool (*stop_fn)(void *);
static void *stop_arg;

/* SENT; TEMPORARY: this mail later; PERMANENT: this mail never; DEFER_ALL:
 * the server refused or broke the session, so this mail and every other
 * one waits for the next send (nothing is failed for it). */
enum outcome { SENT, TEMPORARY, PERMANENT, DEFER_ALL };

/* What the SMTP server said, as libcurl's transcript shows it: the
 * command each reply answers, the reply's code and words; and when the
 * session must end. (libcurl itself reads at most 300 KB of one reply.) */
struct smtp_talk {
    char cmd[12];          /* the last command sent: "" for the greeting, BODY for the mail itself */
    int code;              /* the last reply's code */
    char words[240];       /* its first line, as the server wrote it */
    bool in_reply;         /* within a multi-line reply ("250-...") */
    bool quit;             /* QUIT was sent: its reply is not the one that counts */
    time_t deadline;       /* the session's end (smtp_session_secs) */
    long session_secs;
};

struct sender {
    char *method;
    char *from;
    char *dir;      /* the dir method */
    char *smtp_url, *smtp_user, *smtp_password;
    struct tls_conf tls;
    char *sendmail;
    const struct curl_api *cu; /* libcurl, loaded on first use */
    CURL *curl;     /* one SMTP connection, reused */
    struct smtp_talk talk;
};

void send_summary(const struct send_stats *st, char out[320])
{
    if (*st->where)
        snprintf(out, 320, "written %d to %s, deferred %d, failed %d", st->sent, st->where, st->deferred, st->failed);
    else
        snprintf(out, 320, "sent %d, deferred %d, failed %d", st->sent, st->deferred, st->failed);
}

long send_backoff(int attempts)
{
    /* 1, 2, 4 ... minutes, at most 6 hours, up to MAX_ATTEMPTS tries. */
    long s = 60;
    if (attempts >= MAX_ATTEMPTS)
        return 0;
    for (int i = 1; i < attempts && s < 6 * 3600; i++)
        s *= 2;
    return s < 6 * 3600 ? s : 6 * 3600;
}

/* ---- dir -------------------------------------------------------------------- */

static enum outcome deliver_dir(struct sender *s, long long id, const char *rcpt, const char *mail, struct strbuf *why)
{
    struct strbuf path = STRBUF_INIT;
    enum outcome rc;

    if (mkdir_p(s->dir)) {
        strbuf_addf(why, "cannot create %s: %s", s->dir, strerror(errno));
        return TEMPORARY;
    }
    /* The name is fixed by the outbox row: a retry overwrites, never
     * doubles; and no address ever becomes part of a path. */
    (void)rcpt;
    strbuf_addf(&path, "%s/%06lld.eml", s->dir, id);
    rc = file_write_atomic(path.buf, mail, strlen(mail), why) ? TEMPORARY : SENT;
    strbuf_release(&path);
    return rc;
}

/* ---- SMTP --------------------------------------------------------------------- */

struct upload {
    const char *data;
    size_t len, pos;
};

static size_t read_cb(char *buf, size_t size, size_t nitems, void *arg)
{
    struct upload *u = arg;
    size_t room = size * nitems, n = u->len - u->pos < room ? u->len - u->pos : room;
    memcpy(buf, u->data + u->pos, n);
    u->pos += n;
    return n;
}

/* SMTP wants CRLF line ends; the outbox keeps LF. */
static char *crlf(const char *mail)
{
    struct strbuf sb = STRBUF_INIT;
    for (const char *p = mail; *p; p++) {
        if (*p == '\n' && (p == mail || p[-1] != '\r'))
            strbuf_addch(&sb, '\r');
        strbuf_addch(&sb, *p);
    }
    return strbuf_detach(&sb);
}

static int smtp_debug(CURL *c, curl_infotype type, char *data, size_t size, void *arg)
{
    struct smtp_talk *t = arg;
    (void)c;
    if (type == CURLINFO_HEADER_OUT) {
        char cmd[sizeof(t->cmd)];
        size_t n = 0;
        while (n < size && n < sizeof(cmd) - 1 && data[n] != ' ' && data[n] != '\r' && data[n] != '\n') {
            cmd[n] = (char)toupper((unsigned char)data[n]);
            n++;
        }
        cmd[n] = '\0';
        t->in_reply = false;
        /* libcurl says QUIT after a refusal: the refusal is what counts. */
        t->quit = str_eq(cmd, "QUIT");
        if (!t->quit)
            memcpy(t->cmd, cmd, n + 1);
    } else if (type == CURLINFO_DATA_OUT) {
        snprintf(t->cmd, sizeof(t->cmd), "BODY");
        t->in_reply = false;
    } else if (type == CURLINFO_HEADER_IN) {
        /* A reply line: "250-..." goes on, "250 ..." ends it; the first
         * line of a reply holds its code and words. */
        if (!t->in_reply && !t->quit && size >= 3 && isdigit((unsigned char)data[0]) && isdigit((unsigned char)data[1]) &&
            isdigit((unsigned char)data[2])) {
            size_t n = 0;
            t->code = (data[0] - '0') * 100 + (data[1] - '0') * 10 + (data[2] - '0');
            while (n < size && n < sizeof(t->words) - 1 && data[n] != '\r' && data[n] != '\n') {
                t->words[n] = (unsigned char)data[n] < 0x20 || (unsigned char)data[n] > 0x7e ? '?' : data[n];
                n++;
            }
            t->words[n] = '\0';
        }
        t->in_reply = size >= 4 && data[3] == '-';
    }
    return 0;
}

/* Whom a refusal concerns: a reply to RCPT or to the mail itself concerns
 * this mail; any other (the greeting, EHLO, STARTTLS, AUTH, MAIL FROM)
 * the session and every mail. */
static enum outcome smtp_refusal(const struct smtp_talk *t, struct strbuf *why)
{
    bool one = str_eq(t->cmd, "RCPT") || str_eq(t->cmd, "DATA") || str_eq(t->cmd, "BODY");
    const char *what = !*t->cmd                 ? "refused the session at its greeting"
                       : str_eq(t->cmd, "RCPT") ? "refused the recipient"
                       : one                    ? "refused this mail"
                       : str_eq(t->cmd, "MAIL") ? "refused the sender (MAIL FROM)"
                                                : NULL;
    if (what)
        strbuf_addf(why, "the server %s: %s", what, t->words);
    else
        strbuf_addf(why, "the server refused %s: %s", t->cmd, t->words);
    if (!one) {
        strbuf_addstr(why, "; every mail waits for the next send");
        return DEFER_ALL;
    }
    return t->code >= 500 ? PERMANENT : TEMPORARY;
}

static enum outcome deliver_smtp(struct sender *s, const char *rcpt, const char *mail, struct strbuf *why)
{
    struct curl_slist *rcpts = NULL;
    struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
    char *data = crlf(mail);
    struct upload u = { data, strlen(data), 0 };
    CURLcode res;

    if (!s->cu && !(s->cu = curl_api(why))) {
        free(data);
        return TEMPORARY;
    }
    if (!s->curl && !(s->curl = s->cu->easy_init())) {
        strbuf_addstr(why, "cannot start libcurl");
        free(data);
        return TEMPORARY;
    }
    CURL *c = s->curl;
    strbuf_addf(&from, "<%s>", s->from);
    strbuf_addf(&to, "<%s>", rcpt);
    rcpts = s->cu->slist_append(NULL, to.buf);
    s->cu->easy_setopt(c, CURLOPT_URL, s->smtp_url); /* as tls_url made it */
    s->cu->easy_setopt(c, CURLOPT_MAIL_FROM, from.buf);
    s->cu->easy_setopt(c, CURLOPT_MAIL_RCPT, rcpts);
    s->cu->easy_setopt(c, CURLOPT_READFUNCTION, read_cb);
    s->cu->easy_setopt(c, CURLOPT_READDATA, &u);
    s->cu->easy_setopt(c, CURLOPT_UPLOAD, 1L);
    s->cu->easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)u.len);
    {
        /* Two minutes a mail at most, and never past the session's end. */
        long left = (long)(s->talk.deadline - time(NULL));
        s->cu->easy_setopt(c, CURLOPT_CONNECTTIMEOUT, left < 20 ? (left > 0 ? left : 1L) : 20L);
        s->cu->easy_setopt(c, CURLOPT_TIMEOUT, left < 120 ? (left > 0 ? left : 1L) : 120L);
    }
    s->cu->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    /* The transcript tells which command a refusal answers. */
    s->talk.cmd[0] = s->talk.words[0] = '\0';
    s->talk.code = 0;
    s->talk.in_reply = s->talk.quit = false;
    s->cu->easy_setopt(c, CURLOPT_VERBOSE, 1L);
    s->cu->easy_setopt(c, CURLOPT_DEBUGFUNCTION, smtp_debug);
    s->cu->easy_setopt(c, CURLOPT_DEBUGDATA, &s->talk);
    if (*s->smtp_user) {
        s->cu->easy_setopt(c, CURLOPT_USERNAME, s->smtp_user);
        s->cu->easy_setopt(c, CURLOPT_PASSWORD, s->smtp_password);
    }
    tls_apply(s->cu, c, &s->tls);
    res = s->cu->easy_perform(c);
    s->cu->slist_free_all(rcpts);
    strbuf_release(&from);
    strbuf_release(&to);
    free(data);
    if (res == CURLE_OK)
        return SENT;
    strbuf_addf(why, "SMTP %s: ", s->smtp_url);
    if (strstr(s->tls.errbuf, "Too large response")) {
        strbuf_addstr(why, "a reply of the server passed the 300 KB libcurl reads of one reply, so the session was"
                           " cut; every mail waits for the next send");
        return DEFER_ALL;
    }
    if (time(NULL) >= s->talk.deadline) {
        strbuf_addf(why, "the session passed its %ld seconds (smtp_session_secs) and was cut; every mail waits for"
                         " the next send",
                    s->talk.session_secs);
        return DEFER_ALL;
    }
    /* The server answered with a refusal: said in its own words, for
     * whom it was meant. */
    if (s->talk.code >= 400)
        return smtp_refusal(&s->talk, why);
    /* No connection, TLS that failed, a server gone: all later. */
    tls_explain(&s->tls, s->cu, res, why);
    return DEFER_ALL;
}

/* ---- sendmail ------------------------------------------------------------------ */

static enum outcome deliver_sendmail(struct sender *s, const char *rcpt, const char *mail, struct strbuf *why)
{
    int fds[2], status;
    pid_t pid;
    size_t len = strlen(mail), done = 0;

    if (pipe(fds)) {
        strbuf_addf(why, "pipe: %s", strerror(errno));
        return TEMPORARY;
    }
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        strbuf_addf(why, "fork: %s", strerror(errno));
        return TEMPORARY;
    }
    if (pid == 0) {
        /* No shell: the address goes as one argument after "--". */
        char *argv[] = { s->sendmail, (char *)"-i", (char *)"-f", s->from, (char *)"--", (char *)rcpt, NULL };
        dup2(fds[0], 0);
        close(fds[0]);
        close(fds[1]);
        execv(s->sendmail, argv);
        _exit(EX_UNAVAILABLE);
    }
    close(fds[0]);
    signal(SIGPIPE, SIG_IGN);
    while (done < len) {
        ssize_t n = write(fds[1], mail + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    close(fds[1]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && done == len)
        return SENT;
    if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        strbuf_addf(why, "%s exited with status %d", s->sendmail, code);
        /* sysexits: a bad address or bad data will not get better. */
        return code == EX_NOUSER || code == EX_DATAERR || code == EX_USAGE || code == EX_NOHOST ? PERMANENT
                                                                                               : TEMPORARY;
    }
    strbuf_addf(why, "%s was killed", s->sendmail);
    return TEMPORARY;
}

/* ---- the queue ------------------------------------------------------------------ */

/* Takes the next due mail, marking it as being sent; 1 when one was
 * claimed, 0 when none is due. */
static int claim(sqlite3 *db, int64_t *id)
{
    char now[32], stale[32];
    int rc;
    utc_now(now);
    utc_format(clock_now() - CLAIM_LEASE, stale);
    if (db_begin(db))
        return -1;
    rc = db_get_int64(db, id,
                      "SELECT id FROM outbox WHERE (status = 'queued' AND next_attempt_at <= ?)"
                      " OR (status = 'sending' AND claimed_at < ?) ORDER BY id LIMIT 1",
                      "ss", now, stale);
    if (rc == 1 && db_do(db, "UPDATE outbox SET status = 'sending', claimed_at = ? WHERE id = ?", "sI", now, *id))
        rc = -1;
    if (rc < 0 || db_commit(db)) {
        db_rollback(db);
        return -1;
    }
    return rc;
}

static int record(sqlite3 *db, int64_t id, int attempts, enum outcome o, const char *why, struct send_stats *st)
{
    char now[32], next[32];
    long wait = send_backoff(attempts);
    int rc;

    utc_now(now);
    if (o == TEMPORARY && wait == 0)
        o = PERMANENT;
    utc_format(clock_now() + (o == DEFER_ALL ? 60 : wait), next);
    if (o == DEFER_ALL) {
        /* Not this mail's fault: its tries do not count, and it never
         * fails for it; it goes again at the next send. */
        st->deferred++;
        rc = db_do(db, "UPDATE outbox SET status = 'queued', next_attempt_at = ?, last_error = ?, claimed_at = NULL"
                       " WHERE id = ?",
                   "ssI", next, why, id);
    } else if (o == SENT) {
        st->sent++;
        rc = db_do(db, "UPDATE outbox SET status = 'sent', sent_at = ?, attempts = ?, last_error = NULL WHERE id = ?",
                   "siI", now, attempts, id);
    } else if (o == TEMPORARY) {
        st->deferred++;
        rc = db_do(db,
                   "UPDATE outbox SET status = 'queued', attempts = ?, next_attempt_at = ?, last_error = ?,"
                   " claimed_at = NULL WHERE id = ?",
                   "issI", attempts, next, why, id);
    } else {
        st->failed++;
        /* next_attempt_at keeps when it failed, for the host's alert. */
        rc = db_do(db,
                   "UPDATE outbox SET status = 'failed', attempts = ?, last_error = ?, claimed_at = NULL,"
                   " next_attempt_at = ? WHERE id = ?",
                   "issI", attempts, why, now, id);
    }
    return rc;
}

static void sender_release(struct sender *s)
{
    free(s->method);
    free(s->from);
    free(s->dir);
    free(s->smtp_url);
    free(s->smtp_user);
    free(s->smtp_password);
    tls_conf_release(&s->tls);
    free(s->sendmail);
    if (s->curl)
        s->cu->easy_cleanup(s->curl);
}

/* Draws the picture a queued mail names and adds it to *mail; a picture
 * that cannot be drawn leaves the mail as it is (its HTML says the alt
 * text) and is reported. -1 only on a database failure. */
static int with_picture(sqlite3 *db, int64_t id, char **mail)
{
    char *text = NULL, *with;
    struct strbuf err = STRBUF_INIT;
    struct render_out out;
    cJSON *pic;
    int rc = db_get_text(db, &text, "SELECT picture FROM outbox WHERE id = ? AND picture IS NOT NULL", "I", id);
    if (rc <= 0)
        return rc;
    pic = jx_parse(text, "picture", &err);
    free(text);
    render_out_init(&out);
    if (!pic || render_board(cJSON_GetObjectItemCaseSensitive(pic, "view"), cJSON_GetObjectItemCaseSensitive(pic, "prev"),
                             &out, &err)) {
        error("outbox mail %lld: its picture: %s", (long long)id, err.buf);
    } else if (cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pic, "cid")) &&
               (with = mail_attach_picture(*mail, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pic, "cid")),
                                           out.png.buf, out.png.len))) {
        free(*mail);
        *mail = with;
    }
    cJSON_Delete(pic);
    render_out_release(&out);
    strbuf_release(&err);
    return 0;
}

/* One round: every mail due now, under the send lock (waiting for it up
 * to wait seconds); *last is the newest mail there was when the round
 * began. */
static int send_round(sqlite3 *db, const char *db_path, double wait, struct send_stats *stats, int64_t *last)
{
    struct sender s = { 0 };
    int rc = -1, lock = -1;

    /* One sender at a time: then a mail still marked as being sent was
     * left so by a sender that died, and goes again now (it may have gone
     * out already: delivery is at least once; the dir method rewrites the
     * same file). */
    if (db_path && *db_path && !str_eq(db_path, ":memory:")) {
        struct strbuf path = STRBUF_INIT;
        strbuf_addf(&path, "%s.send.lock", db_path);
        lock = lock_file_wait(path.buf, wait);
        if (lock == -2)
            error("cannot lock %s: %s", path.buf, strerror(errno));
        strbuf_release(&path);
        if (lock == -1) {
            stats->busy = true;
            return 0;
        }
        if (lock < 0)
            return -1;
        if (db_do(db, "UPDATE outbox SET status = 'queued', claimed_at = NULL WHERE status = 'sending'", NULL)) {
            close(lock);
            return -1;
        }
    }
    if (db_get_int64(db, last, "SELECT coalesce(max(id), 0) FROM outbox", NULL) != 1)
        goto out;
    if (!(s.method = setting_get(db, "send_method")) || !(s.from = setting_get(db, "from")) ||
        !(s.dir = setting_outbox_dir(db, db_path)) || !(s.smtp_url = setting_get(db, "smtp_url")) ||
        !(s.smtp_user = setting_get(db, "smtp_user")) || !(s.smtp_password = setting_get(db, "smtp_password")) ||
        tls_conf_read(db, "smtp_tls", &s.tls) || !(s.sendmail = setting_get(db, "sendmail")))
        goto out;
    {
        char *u = tls_url(&s.tls, s.smtp_url);
        free(s.smtp_url);
        s.smtp_url = u;
    }
    if (str_eq(s.method, "dir"))
        snprintf(stats->where, sizeof(stats->where), "%s/", s.dir);
    s.talk.session_secs = (long)setting_get_int(db, "smtp_session_secs", 300);
    s.talk.deadline = time(NULL) + s.talk.session_secs;
    for (;;) {
        int64_t id;
        int attempts = 0, c;
        /* The process is asked to stop (ngoma serve's SIGTERM): the mail
         * under way went; what is left waits for the next start. */
        if (stop_fn && stop_fn(stop_arg)) {
            int64_t left = 0;
            if (db_get_int64(db, &left, "SELECT count(*) FROM outbox WHERE status = 'queued'", "") >= 0 && left)
                error("stopping: %lld mail%s left queued for the next start", (long long)left,
                      left == 1 ? "" : "s");
            stats->stopped = true;
            rc = 0;
            break;
        }
        /* The session's time is up: what is left waits, unclaimed. */
        if (str_eq(s.method, "smtp") && time(NULL) >= s.talk.deadline) {
            error("SMTP: the session passed its %ld seconds (smtp_session_secs): the rest of the outbox waits for"
                  " the next send", s.talk.session_secs);
            rc = 0;
            break;
        }
        c = claim(db, &id);
        char *rcpt = NULL, *mail = NULL;
        struct strbuf why = STRBUF_INIT;
        enum outcome o;
        int64_t n;

        if (c <= 0) {
            rc = c;
            break;
        }
        if (db_get_text(db, &rcpt, "SELECT rcpt FROM outbox WHERE id = ?", "I", id) != 1 ||
            db_get_text(db, &mail, "SELECT mail FROM outbox WHERE id = ?", "I", id) != 1 ||
            db_get_int64(db, &n, "SELECT attempts FROM outbox WHERE id = ?", "I", id) != 1) {
            free(rcpt);
            free(mail);
            break;
        }
        attempts = (int)n + 1;
        /* The board's picture is drawn now, outside any transaction. */
        if (with_picture(db, id, &mail)) {
            free(rcpt);
            free(mail);
            break;
        }
        if (str_eq(s.method, "smtp"))
            o = deliver_smtp(&s, rcpt, mail, &why);
        else if (str_eq(s.method, "sendmail"))
            o = deliver_sendmail(&s, rcpt, mail, &why);
        else
            o = deliver_dir(&s, (long long)id, rcpt, mail, &why);
        free(rcpt);
        free(mail);
        if (why.len)
            error("outbox mail %lld: %s", (long long)id, why.buf);
        if (db_begin(db) || record(db, id, attempts, o, why.buf, stats) || db_commit(db)) {
            db_rollback(db);
            strbuf_release(&why);
            break;
        }
        strbuf_release(&why);
        /* A server that refuses the session, is down or cut stays so for
         * this run: the rest of the queue waits, untouched. A sendmail
         * that fails temporarily is taken as the same. */
        if (o == DEFER_ALL || (o == TEMPORARY && str_eq(s.method, "sendmail"))) {
            rc = 0;
            break;
        }
    }
out:
    sender_release(&s);
    if (lock >= 0)
        close(lock);
    return rc;
}

int outbox_send_wait(sqlite3 *db, const char *db_path, double wait, struct send_stats *stats)
{
    memset(stats, 0, sizeof(*stats));
    /* Mail queued by another process while this one held the lock (that
     * process found it taken and left its mail to the holder) is sent by
     * another round; a bounded number of them. */
    for (int round = 0; round < 100; round++) {
        struct send_stats st = { 0 };
        int64_t last = 0, more = 0;
        char now[32];
        if (send_round(db, db_path, round ? 0 : wait, &st, &last))
            return -1;
        if (round == 0)
            stats->busy = st.busy;
        snprintf(stats->where, sizeof(stats->where), "%s", st.where);
        stats->sent += st.sent;
        stats->deferred += st.deferred;
        stats->failed += st.failed;
        stats->stopped |= st.stopped;
        if (st.busy || st.stopped)
            break;
        utc_now(now);
        if (db_get_int64(db, &more, "SELECT count(*) FROM outbox WHERE id > ? AND status = 'queued' AND"
                         " next_attempt_at <= ?", "Is", last, now) != 1)
            return -1;
        if (!more)
            break;
    }
    return 0;
}

void outbox_send_stop_when(bool (*fn)(void *), void *arg)
{
    stop_fn = fn;
    stop_arg = arg;
}

int outbox_send(sqlite3 *db, const char *db_path, struct send_stats *stats)
{
    return outbox_send_wait(db, db_path, 0, stats);
}
