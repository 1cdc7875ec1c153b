/* listen.c: the sockets ngoma serve listens on: unix:PATH and HOST:PORT from the command line, or those systemd passes (socket activation). */
#include "serve/listen.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int nonblocking(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) || fcntl(fd, F_SETFD, FD_CLOEXEC) ? -1 : 0;
}

/* Whether a process listens on the unix socket at path. */
static bool alive(const struct sockaddr_un *sa)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool up;
    if (fd < 0)
        return true; /* cannot tell: do not take it over */
    up = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0 || errno == EAGAIN;
    close(fd);
    return up;
}

static int open_unix(const char *path, const struct listen_opts *o, struct listener *l, struct strbuf *err)
{
    struct sockaddr_un sa = { 0 };
    struct stat st;
    mode_t old;
    int fd;

    if (*path != '/' || strlen(path) >= sizeof(sa.sun_path)) {
        strbuf_addf(err, "unix:%s: the socket's path must be absolute and under %zu bytes", path,
                    sizeof(sa.sun_path));
        return -1;
    }
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, path, strlen(path) + 1);
    if (lstat(path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            strbuf_addf(err, "unix:%s is there and is no socket: remove it, or listen elsewhere", path);
            return -1;
        }
        if (alive(&sa)) {
            strbuf_addf(err, "unix:%s: another server listens there (ngoma serve runs already?)", path);
            return -1;
        }
        unlink(path); /* left by a server that died */
    }
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        strbuf_addf(err, "unix:%s: %s", path, strerror(errno));
        return -1;
    }
    /* Made with its mode, never wider for a moment. */
    old = umask((mode_t)(~o->mode & 0777));
    if (bind(fd, (const struct sockaddr *)&sa, sizeof(sa))) {
        umask(old);
        strbuf_addf(err, "unix:%s: cannot bind: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    umask(old);
    if (o->group && *o->group) {
        struct group *g = getgrnam(o->group);
        if (!g || chown(path, (uid_t)-1, g->gr_gid)) {
            strbuf_addf(err, "unix:%s: cannot give it to the group %s: %s", path, o->group,
                        g ? strerror(errno) : "no such group");
            close(fd);
            unlink(path);
            return -1;
        }
    }
    if (chmod(path, o->mode) || listen(fd, 128) || nonblocking(fd)) {
        strbuf_addf(err, "unix:%s: %s", path, strerror(errno));
        close(fd);
        unlink(path);
        return -1;
    }
    l->fd = fd;
    l->unix_path = xstrdup(path);
    return 0;
}

static int open_tcp(const char *spec, struct listener *l, struct strbuf *err)
{
    char host[256];
    const char *port, *colon = strrchr(spec, ':');
    struct addrinfo hints = { 0 }, *res = NULL;
    int fd = -1, one = 1, rc;
    size_t hlen;

    if (!colon || !colon[1] || colon == spec) {
        strbuf_addf(err, "%s: write unix:PATH or HOST:PORT (127.0.0.1:2424, [::1]:2424)", spec);
        return -1;
    }
    hlen = (size_t)(colon - spec);
    if (spec[0] == '[' && hlen >= 2 && spec[hlen - 1] == ']') {
        spec++;
        hlen -= 2;
    }
    if (hlen >= sizeof(host)) {
        strbuf_addf(err, "%s: the host is too long", spec);
        return -1;
    }
    memcpy(host, spec, hlen);
    host[hlen] = '\0';
    port = colon + 1;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    if ((rc = getaddrinfo(*host ? host : NULL, port, &hints, &res))) {
        strbuf_addf(err, "%s: %s", l->name, gai_strerror(rc));
        return -1;
    }
    fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, 0);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
        bind(fd, res->ai_addr, res->ai_addrlen) || listen(fd, 128) || nonblocking(fd)) {
        strbuf_addf(err, "%s: cannot listen: %s", l->name, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(res);
        return -1;
    }
    freeaddrinfo(res);
    l->fd = fd;
    return 0;
}

int listen_open(const char *spec, const struct listen_opts *o, struct listener *l, struct strbuf *err)
{
    memset(l, 0, sizeof(*l));
    l->fd = -1;
    snprintf(l->name, sizeof(l->name), "%s", spec);
    if (!strncmp(spec, "unix:", 5))
        return open_unix(spec + 5, o, l, err);
    return open_tcp(spec, l, err);
}

int listen_inherited(struct listener *ls, int max)
{
    const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
    long long p, n;
    int got = 0;
    if (!pid || !fds || !parse_int(pid, 1, INT64_MAX, &p) || p != (long long)getpid() ||
        !parse_int(fds, 1, LISTEN_MAX, &n))
        return 0;
    for (int i = 0; i < n && got < max; i++) {
        struct listener *l = &ls[got];
        memset(l, 0, sizeof(*l));
        l->fd = 3 + i;
        snprintf(l->name, sizeof(l->name), "systemd:%d", l->fd);
        if (nonblocking(l->fd) == 0)
            got++;
    }
    /* Not for the children it starts. */
    unsetenv("LISTEN_PID");
    unsetenv("LISTEN_FDS");
    unsetenv("LISTEN_FDNAMES");
    return got;
}

void listen_close(struct listener *l)
{
    if (l->fd >= 0)
        close(l->fd);
    if (l->unix_path) {
        unlink(l->unix_path);
        free(l->unix_path);
    }
    memset(l, 0, sizeof(*l));
    l->fd = -1;
}
