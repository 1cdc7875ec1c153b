/* rawmsg.c: an incoming message as read from a pipe, a file or memory: at most the size limit kept, all of it digested. */
#include "mail/rawmsg.h"
#include "lib/digest.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rawmsg_read_fd(int fd, size_t limit, struct rawmsg *r)
{
    struct sha256 sum;
    struct strbuf sb = STRBUF_INIT;
    char buf[65536];

    sha256_init(&sum);
    memset(r, 0, sizeof(*r));
    for (;;) {
        ssize_t n = read(fd, buf, sizeof(buf));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            strbuf_release(&sb);
            return error("cannot read the message: %s", strerror(errno));
        }
        if (n == 0)
            break;
        sha256_update(&sum, buf, (size_t)n);
        r->total += (size_t)n;
        if (sb.len < limit)
            strbuf_add(&sb, buf, (size_t)n < limit - sb.len ? (size_t)n : limit - sb.len);
    }
    sha256_final(&sum, r->digest);
    r->len = sb.len;
    r->data = strbuf_detach(&sb);
    return 0;
}

int rawmsg_read_file(const char *path, size_t limit, struct rawmsg *r)
{
    /* A FIFO or a device never ends: only a regular file is read, and a
     * FIFO opens without waiting for a writer to be refused as such. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), rc;
    struct stat st;
    if (fd < 0)
        return error("cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        close(fd);
        return error("%s is not a regular file: a mail is read from a file or from standard input", path);
    }
    rc = rawmsg_read_fd(fd, limit, r);
    close(fd);
    return rc;
}

void rawmsg_from_memory(const char *data, size_t len, size_t limit, struct rawmsg *r)
{
    sha256_hex(data, len, r->digest);
    r->total = len;
    r->len = len < limit ? len : limit;
    r->data = xmalloc(r->len + 1); /* not xstrndup: a mail may hold NUL bytes */
    memcpy(r->data, data, r->len);
    r->data[r->len] = '\0';
}

void rawmsg_release(struct rawmsg *r)
{
    free(r->data);
    memset(r, 0, sizeof(*r));
}
