/* words.c: what game modules use to read order lines: lower-cased words and board squares. */
#include "lib/words.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void words_split(struct words *w, const char *line, const char *sep)
{
    char *p;

    w->buf = xstrdup(line);
    w->n = 0;
    w->too_many = false;
    p = w->buf;
    for (;;) {
        while (*p && (isspace((unsigned char)*p) || (sep && strchr(sep, *p))))
            p++;
        if (!*p)
            break;
        if (w->n == WORDS_MAX) {
            w->too_many = true;
            break;
        }
        w->w[w->n++] = p;
        while (*p && !isspace((unsigned char)*p) && !(sep && strchr(sep, *p))) {
            *p = (char)tolower((unsigned char)*p);
            p++;
        }
        if (*p)
            *p++ = '\0';
    }
}

void words_release(struct words *w)
{
    free(w->buf);
    w->buf = NULL;
    w->n = 0;
}

bool words_is(const struct words *w, int i, const char *const *names)
{
    if (i < 0 || i >= w->n)
        return false;
    for (; *names; names++)
        if (strcmp(w->w[i], *names) == 0)
            return true;
    return false;
}

bool square_parse(const char *s, int files, int ranks, int *file, int *rank)
{
    int f, r = 0;
    const char *p;

    if (!s || !isalpha((unsigned char)s[0]))
        return false;
    f = tolower((unsigned char)s[0]) - 'a';
    p = s + 1;
    if (!isdigit((unsigned char)*p) || *p == '0')
        return false;
    while (isdigit((unsigned char)*p)) {
        r = r * 10 + (*p - '0');
        if (r > 99)
            return false;
        p++;
    }
    if (*p || f < 0 || f >= files || r < 1 || r > ranks)
        return false;
    *file = f;
    *rank = r - 1;
    return true;
}

void square_name(int file, int rank, char out[4])
{
    out[0] = (char)('a' + file);
    if (rank + 1 >= 10) {
        out[1] = (char)('0' + (rank + 1) / 10);
        out[2] = (char)('0' + (rank + 1) % 10);
        out[3] = '\0';
    } else {
        out[1] = (char)('0' + rank + 1);
        out[2] = '\0';
    }
}
