/* words.h: what game modules use to read order lines: lower-cased words and board squares. */
#ifndef NGOMA_WORDS_H
#define NGOMA_WORDS_H

#include <stdbool.h>

#define WORDS_MAX 48

struct words {
    char *buf;
    char *w[WORDS_MAX];
    int n;
    bool too_many; /* the line had more than WORDS_MAX words */
};

/* Splits line on white space (and on `sep` characters, e.g. "-," when a
 * path may be written c4-d5), lower-casing every word. */
void words_split(struct words *w, const char *line, const char *sep);
void words_release(struct words *w);
/* True when word i exists and equals one of the NULL-terminated names. */
bool words_is(const struct words *w, int i, const char *const *names);

/* "c4" -> file 2, rank 3 (both from 0) on a board of files x ranks. */
bool square_parse(const char *s, int files, int ranks, int *file, int *rank);
/* Writes "c4" for file 2, rank 3. */
void square_name(int file, int rank, char out[4]);

#endif
