/* paths.c: where ngoma finds its data files (templates, seeds) and its drawing module at run time, and how it writes files whole. */
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef NGOMA_DATADIR
#define NGOMA_DATADIR "/usr/local/share/ngoma"
#endif

#ifndef NGOMA_LIBDIR
#define NGOMA_LIBDIR "/usr/local/lib/ngoma"
#endif

char *lib_path(const char *file)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "%s/%s", NGOMA_LIBDIR, file);
    return strbuf_detach(&sb);
}

const char *data_dir(void)
{
    const char *env = getenv("NGOMA_DATADIR");
    return env && *env ? env : NGOMA_DATADIR;
}

char *data_path(const char *sub, const char *file)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "%s/%s/%s", data_dir(), sub, file);
    return strbuf_detach(&sb);
}

char *seed_path(const char *file)
{
    return strchr(file, '/') ? xstrdup(file) : data_path("seeds", file);
}

bool seed_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (!n || n > 100 || name[0] == '.' || strstr(name, ".."))
        return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
              *p == '-' || *p == '_'))
            return false;
    return true;
}

char *file_read(const char *path, size_t max, struct strbuf *err)
{
    /* O_NONBLOCK: a FIFO opens without waiting for a writer, and is then
     * refused as what it is. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct strbuf sb = STRBUF_INIT;
    struct stat st;
    char buf[8192];

    if (fd < 0) {
        strbuf_addf(err, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        strbuf_addf(err, "%s is not a regular file (%s): give a file", path,
                    S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket");
        close(fd);
        return NULL;
    }
    if ((unsigned long long)st.st_size > max) {
        strbuf_addf(err, "%s is %lld bytes long, over the %zu bytes ngoma reads from such a file", path,
                    (long long)st.st_size, max);
        close(fd);
        return NULL;
    }
    for (;;) {
        ssize_t n = read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            strbuf_addf(err, "cannot read %s: %s", path, strerror(errno));
            close(fd);
            strbuf_release(&sb);
            return NULL;
        }
        if (n == 0)
            break;
        strbuf_add(&sb, buf, (size_t)n);
        if (sb.len > max) {
            /* It grew while being read. */
            strbuf_addf(err, "%s is over the %zu bytes ngoma reads from such a file", path, max);
            close(fd);
            strbuf_release(&sb);
            return NULL;
        }
    }
    close(fd);
    return strbuf_detach(&sb);
}

int mkdir_p(const char *path)
{
    char *p = xstrdup(path);
    int rc;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) && errno != EEXIST) {
            free(p);
            return -1;
        }
        *s = '/';
    }
    rc = mkdir(p, 0755) && errno != EEXIST ? -1 : 0;
    free(p);
    return rc;
}

int file_write_atomic(const char *path, const void *data, size_t n, struct strbuf *err)
{
    struct strbuf tmp = STRBUF_INIT;
    const char *slash = strrchr(path, '/');
    size_t done = 0;
    int fd, rc = -1;

    /* The temporary name: a dot file beside the file, never listed. */
    if (slash)
        strbuf_addf(&tmp, "%.*s/.%s.tmp", (int)(slash - path), path, slash + 1);
    else
        strbuf_addf(&tmp, ".%s.tmp", path);
    fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        strbuf_addf(err, "cannot write %s: %s", tmp.buf, strerror(errno));
        goto out;
    }
    while (done < n) {
        ssize_t w = write(fd, (const char *)data + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            strbuf_addf(err, "cannot write %s: %s", tmp.buf, strerror(errno));
            close(fd);
            unlink(tmp.buf);
            goto out;
        }
        done += (size_t)w;
    }
    if (fsync(fd) || close(fd) || rename(tmp.buf, path)) {
        strbuf_addf(err, "cannot store %s: %s", path, strerror(errno));
        unlink(tmp.buf);
        goto out;
    }
    strbuf_reset(&tmp);
    strbuf_addf(&tmp, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    fd = open(tmp.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    rc = 0;
out:
    strbuf_release(&tmp);
    return rc;
}

/* ---- the templates directory ---- */

static char *tmpl_dir;

const char *template_dir(void)
{
    static char *def;
    const char *env = getenv("NGOMA_TEMPLATES");
    if (tmpl_dir)
        return tmpl_dir;
    if (env && *env)
        return env;
    if (!def) {
        struct strbuf sb = STRBUF_INIT;
        strbuf_addf(&sb, "%s/templates", data_dir());
        def = strbuf_detach(&sb);
    }
    return def;
}

void template_set_dir(const char *dir)
{
    free(tmpl_dir);
    tmpl_dir = dir ? xstrdup(dir) : NULL;
}
