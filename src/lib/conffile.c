/* conffile.c: the system's ngoma configuration file (/etc/ngoma.conf, or $NGOMA_CONFIG): "key = value" lines. */
#include "lib/conffile.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *conffile_path(void)
{
    const char *p = getenv("NGOMA_CONFIG");
    return p && *p ? p : "/etc/ngoma.conf";
}

char *conffile_get(const char *key, int *bad, struct strbuf *err)
{
    const char *path = conffile_path();
    FILE *f = fopen(path, "r");
    char line[4096], *found = NULL;
    int n = 0;

    *bad = 0;
    if (!f) {
        if (errno != ENOENT) {
            strbuf_addf(err, "cannot read %s: %s", path, strerror(errno));
            *bad = -1;
        }
        return NULL;
    }
    while (fgets(line, sizeof(line), f)) {
        char *p = line, *eq, *k, *v;
        n++;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            continue;
        eq = strchr(p, '=');
        if (!eq) {
            strbuf_addf(err, "%s line %d: write key = value (for example db = /var/lib/ngoma/ngoma.db)", path, n);
            *bad = -1;
            break;
        }
        *eq = '\0';
        k = p;
        v = eq + 1;
        for (char *e = eq; e > k && isspace((unsigned char)e[-1]);)
            *--e = '\0';
        while (isspace((unsigned char)*v))
            v++;
        for (char *e = v + strlen(v); e > v && isspace((unsigned char)e[-1]);)
            *--e = '\0';
        if (str_eq(k, key)) {
            free(found);
            found = xstrdup(v);
        }
    }
    fclose(f);
    if (*bad) {
        free(found);
        return NULL;
    }
    return found;
}
