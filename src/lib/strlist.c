/* strlist.c: a growable list of owned strings. */
#include "lib/strlist.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

void strlist_push_owned(struct strlist *l, char *s)
{
    if (l->n == l->alloc) {
        l->alloc = l->alloc ? l->alloc * 2 : 16;
        l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
    }
    l->v[l->n++] = s;
}

void strlist_push(struct strlist *l, const char *s)
{
    strlist_push_owned(l, xstrdup(s));
}

void strlist_pushf(struct strlist *l, const char *fmt, ...)
{
    struct strbuf sb = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    strbuf_vaddf(&sb, fmt, ap);
    va_end(ap);
    strlist_push_owned(l, strbuf_detach(&sb));
}

void strlist_clear(struct strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->alloc = 0;
}

bool strlist_contains(const struct strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return true;
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void strlist_sort(struct strlist *l)
{
    if (l->n > 1)
        qsort(l->v, l->n, sizeof(*l->v), cmp_str);
}

void strlist_sort_unique(struct strlist *l)
{
    size_t w = 0;
    strlist_sort(l);
    for (size_t i = 0; i < l->n; i++) {
        if (w && strcmp(l->v[w - 1], l->v[i]) == 0)
            free(l->v[i]);
        else
            l->v[w++] = l->v[i];
    }
    l->n = w;
}
