/* strlist.h: a growable list of owned strings. */
#ifndef NGOMA_STRLIST_H
#define NGOMA_STRLIST_H

#include <stdbool.h>
#include <stddef.h>

struct strlist {
    char **v;
    size_t n;
    size_t alloc;
};

#define STRLIST_INIT { NULL, 0, 0 }

void strlist_push(struct strlist *l, const char *s);
void strlist_pushf(struct strlist *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Takes ownership of s. */
void strlist_push_owned(struct strlist *l, char *s);
void strlist_clear(struct strlist *l);
bool strlist_contains(const struct strlist *l, const char *s);
void strlist_sort(struct strlist *l);
/* Sorts and drops repeated entries. */
void strlist_sort_unique(struct strlist *l);

#endif
