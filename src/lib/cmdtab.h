/* cmdtab.h: the one command-table mechanism of every command language (the shell's, the lobby's, the host's, the players' common orders): a row's name, arity, flags, usage and help; one lookup, one arity check, one list, one HELP, one "did you mean". */
#ifndef NGOMA_CMDTAB_H
#define NGOMA_CMDTAB_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

#define CMDTAB_ANY (-1) /* max_args: as many words as follow */

/* What every command language's row begins with. */
struct cmdtab_row {
    const char *name;       /* lower case, maybe two words ("no draw"); NULL ends a table */
    int min_args, max_args; /* the words after the name; max CMDTAB_ANY: any */
    unsigned flags;         /* the language's own */
    const char *usage;      /* as HELP shows it: "EXTEND 2d"; NULL: the name */
    const char *help;       /* one line, or NULL (the shell's --help; players read theirs in the catalogues) */
};

/* A table: an array of the language's rows, each a struct whose first
 * member is a struct cmdtab_row (stride: the struct's size), ending at a
 * row whose name is NULL. */
struct cmdtab {
    const void *rows;
    size_t stride;
};
#define CMDTAB(array) ((struct cmdtab){ (array), sizeof((array)[0]) })

/* The row a line begins with: its name, any case, then the end or a
 * space; NULL for none. */
const struct cmdtab_row *cmdtab_find(struct cmdtab t, const char *line);
/* The row whose name a word is a letter or two off ("JION": join), or NULL. */
const struct cmdtab_row *cmdtab_nearest(struct cmdtab t, const char *word);
/* How many words follow the row's name in line. */
int cmdtab_args(const struct cmdtab_row *r, const char *line);
/* 0 when nargs words fit the row; else 1, with "needs 2 NOUNs, got 1" or
 * "takes at most 1 NOUN, got 3" (noun: "argument", "word") in err. */
int cmdtab_arity(const struct cmdtab_row *r, int nargs, const char *noun, struct strbuf *err);
/* A name in capitals, as players write it: "no draw" -> "NO DRAW". */
void cmdtab_add_loud(struct strbuf *out, const char *name);
/* The names, in capitals, joined by ", ": "HELP, GAMES, ..." */
void cmdtab_names(struct cmdtab t, struct strbuf *out);
/* The i-th row (0-based), or NULL past the last. */
const struct cmdtab_row *cmdtab_row(struct cmdtab t, size_t i);

#endif
