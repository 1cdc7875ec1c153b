/* lmtp_client.c: the benchmarks' LMTP client: mails from files to ngoma serve, one at a time (connect to 250, each timed) or many over a few connections at once. */
#include "bench.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* where: unix:PATH or a TCP port on 127.0.0.1. */
static int dial(const char *where)
{
    int fd, one = 1;
    if (!strncmp(where, "unix:", 5)) {
        struct sockaddr_un sa = { 0 };
        sa.sun_family = AF_UNIX;
        snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", where + 5);
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
            if (fd >= 0)
                close(fd);
            return -1;
        }
        return fd;
    }
    struct sockaddr_in sa = { 0 };
    sa.sin_family = AF_INET;
    sa.sin_port = htons((unsigned short)atoi(where));
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return fd;
}

struct peer {
    int fd;
    char buf[8192];
    size_t len;
};

/* The next whole reply (its last line's code), -1 when the server hung up. */
static int reply(struct peer *p)
{
    for (;;) {
        char *nl;
        while ((nl = memchr(p->buf, '\n', p->len))) {
            size_t line = (size_t)(nl - p->buf) + 1;
            int code = atoi(p->buf), more = line > 4 && p->buf[3] == '-';
            memmove(p->buf, p->buf + line, p->len - line);
            p->len -= line;
            if (!more)
                return code;
        }
        if (p->len == sizeof(p->buf))
            p->len = 0;
        ssize_t n = recv(p->fd, p->buf + p->len, sizeof(p->buf) - p->len, 0);
        if (n <= 0)
            return -1;
        p->len += (size_t)n;
    }
}

static int put(struct peer *p, const char *s, size_t n)
{
    while (n) {
        ssize_t w = send(p->fd, s, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The To: address of a mail file (the seat's reply address). */
static char *rcpt_of(const char *mail)
{
    const char *to = strstr(mail, "\nTo: ");
    const char *lt, *gt;
    if (!to)
        return NULL;
    to += 5;
    lt = strchr(to, '<');
    const char *eol = strchr(to, '\n');
    if (lt && (!eol || lt < eol) && (gt = strchr(lt, '>')))
        return xstrndup(lt + 1, (size_t)(gt - lt - 1));
    return xstrndup(to, eol ? (size_t)(eol - to) : strlen(to));
}

/* One mail in a transaction on an open session: MAIL, RCPT, DATA
 * pipelined, the text dot-stuffed; the code of the final reply. */
static int transact(struct peer *p, const char *mail)
{
    struct strbuf sb = STRBUF_INIT;
    char *rcpt = rcpt_of(mail);
    int c1, c2, c3, code;
    if (!rcpt)
        return -1;
    strbuf_addf(&sb, "MAIL FROM:<player@example.org>\r\nRCPT TO:<%s>\r\nDATA\r\n", rcpt);
    free(rcpt);
    if (put(p, sb.buf, sb.len)) {
        strbuf_release(&sb);
        return -1;
    }
    c1 = reply(p), c2 = reply(p), c3 = reply(p);
    if (c1 != 250 || c2 != 250 || c3 != 354) {
        strbuf_release(&sb);
        return c1 != 250 ? c1 : c2 != 250 ? c2 : c3;
    }
    strbuf_reset(&sb);
    for (const char *l = mail; *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        if (*l == '.')
            strbuf_addch(&sb, '.');
        strbuf_add(&sb, l, n);
        strbuf_addstr(&sb, "\r\n");
        l += n + (nl ? 1 : 0);
    }
    strbuf_addstr(&sb, ".\r\n");
    code = put(p, sb.buf, sb.len) ? -1 : reply(p);
    strbuf_release(&sb);
    return code;
}

static int session(struct peer *p, const char *where)
{
    memset(p, 0, sizeof(*p));
    if ((p->fd = dial(where)) < 0 || reply(p) != 220 || put(p, "LHLO bench\r\n", 12) || reply(p) != 250)
        return -1;
    return 0;
}

static char *read_mail(const char *path)
{
    struct strbuf err = STRBUF_INIT;
    char *m = file_read(path, 64u << 20, &err);
    if (!m)
        fprintf(stderr, "lmtp: %s\n", err.buf);
    strbuf_release(&err);
    return m;
}

/* lmtp-one WHERE FILE...: each mail on a connection of its own; prints
 * the milliseconds from connect to its 250, one line a mail. */
int bench_lmtp_one(const char *where, int nfiles, char **files)
{
    for (int i = 0; i < nfiles; i++) {
        struct peer p;
        char *mail = read_mail(files[i]);
        double t0;
        int code;
        if (!mail)
            return 1;
        t0 = now_ms();
        code = session(&p, where) ? -1 : transact(&p, mail);
        printf("%.3f\n", now_ms() - t0);
        if (code != 250) {
            fprintf(stderr, "lmtp: %s got %d\n", files[i], code);
            return 1;
        }
        put(&p, "QUIT\r\n", 6);
        reply(&p);
        close(p.fd);
        free(mail);
    }
    return 0;
}

/* lmtp-many WHERE CONNS LIST: the mails LIST names (a line "GAME PATH"
 * each) over CONNS connections at once, connection k taking those of the
 * games that are k modulo CONNS, in order (a game's mails one after
 * another, as its players send them); prints "MAILS SECONDS". */
int bench_lmtp_many(const char *where, int conns, const char *list)
{
    struct strbuf err = STRBUF_INIT;
    char *text = file_read(list, 64u << 20, &err);
    double t0;
    int mails = 0, bad = 0;
    if (!text) {
        fprintf(stderr, "lmtp: %s\n", err.buf);
        return 1;
    }
    for (const char *p = text; *p; p++)
        mails += *p == '\n';
    t0 = now_ms();
    for (int k = 0; k < conns; k++) {
        pid_t pid = fork();
        if (pid < 0)
            return 1;
        if (pid)
            continue;
        struct peer p;
        if (session(&p, where))
            _exit(2);
        for (char *l = text, *nl; *l; l = nl + 1) {
            char *path;
            nl = strchr(l, '\n');
            if (!nl)
                break;
            *nl = '\0';
            path = strchr(l, ' ');
            if (!path || atoi(l) % conns != k)
                continue;
            char *mail = read_mail(path + 1);
            if (!mail || transact(&p, mail) != 250) {
                fprintf(stderr, "lmtp: %s was not taken\n", l);
                _exit(3);
            }
            free(mail);
        }
        put(&p, "QUIT\r\n", 6);
        _exit(0);
    }
    for (int k = 0; k < conns; k++) {
        int status;
        if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
            bad++;
    }
    printf("%d %.3f\n", mails, (now_ms() - t0) / 1e3);
    free(text);
    return bad ? 1 : 0;
}
