/* paths.c: where ngoma finds its data files (templates, seeds) at run time. */
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NGOMA_DATADIR
#define NGOMA_DATADIR "/usr/local/share/ngoma"
#endif

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

char *file_read(const char *path, struct strbuf *err)
{
    FILE *f = fopen(path, "rb");
    struct strbuf sb = STRBUF_INIT;
    char buf[8192];
    size_t n;

    if (!f) {
        strbuf_addf(err, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        strbuf_add(&sb, buf, n);
    if (ferror(f)) {
        strbuf_addf(err, "cannot read %s: %s", path, strerror(errno));
        fclose(f);
        strbuf_release(&sb);
        return NULL;
    }
    fclose(f);
    return strbuf_detach(&sb);
}
