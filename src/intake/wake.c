/* wake.c: waking a running ngoma serve: a FIFO beside the database that only the server reads. */
#include "intake/wake.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *fifo_path(const char *db_path)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "%s.wake", db_path);
    return strbuf_detach(&sb);
}

bool wake_server(const char *db_path)
{
    char *path;
    struct stat sb;
    bool woken = false;
    int fd;
    if (!db_path || !*db_path || str_eq(db_path, ":memory:"))
        return false;
    path = fifo_path(db_path);
    /* No reader: ENXIO, so no server (a FIFO left by one killed is
     * harmless). Anything but a FIFO there is not written to. */
    fd = open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    free(path);
    if (fd < 0)
        return false;
    if (fstat(fd, &sb) == 0 && S_ISFIFO(sb.st_mode)) {
        /* A full FIFO (EAGAIN) has wakes enough waiting. */
        woken = write(fd, "w", 1) == 1 || errno == EAGAIN;
    }
    close(fd);
    return woken;
}

int wake_listen(const char *db_path, int *keep_open, struct strbuf *err)
{
    char *path = fifo_path(db_path);
    struct stat sb;
    int fd = -1;
    *keep_open = -1;
    if (lstat(path, &sb) == 0 && !S_ISFIFO(sb.st_mode)) {
        strbuf_addf(err, "%s is there and is no FIFO: remove it", path);
        goto out;
    }
    if (mkfifo(path, 0600) && errno != EEXIST) {
        strbuf_addf(err, "cannot make the FIFO %s: %s", path, strerror(errno));
        goto out;
    }
    fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0)
        *keep_open = open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || *keep_open < 0) {
        strbuf_addf(err, "cannot open the FIFO %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        fd = -1;
    }
out:
    free(path);
    return fd;
}

void wake_drain(int fd)
{
    char buf[512];
    while (read(fd, buf, sizeof(buf)) > 0)
        ;
}
