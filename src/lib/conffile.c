/* conffile.c: the system's ngoma configuration file (/etc/ngoma.conf, or $NGOMA_CONFIG): "key = value" lines. */
#include "lib/conffile.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *conffile_path(void)
{
    const char *p = getenv("NGOMA_CONFIG");
    return p && *p ? p : "/etc/ngoma.conf";
}

char *conffile_get(const char *key, int *bad, struct strbuf *err)
{
    const char *path = conffile_path();
    char *text, *found = NULL;
    int n = 0;

    *bad = 0;
    if (access(path, F_OK) && errno == ENOENT)
        return NULL;
    if (!(text = file_read(path, FILE_MAX_TEXT, err))) {
        *bad = -1;
        return NULL;
    }
    /* Line by line, empty lines kept so that the numbers are right. */
    for (char *line = text, *next; line; line = next) {
        char *p = line, *eq, *k, *v;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
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
    free(text);
    if (*bad) {
        free(found);
        return NULL;
    }
    return found;
}
