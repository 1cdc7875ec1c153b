/* languages.h: the language each player reads: the one she chose for her address (LANGUAGE fr), else the host's (the language setting). */
#ifndef NGOMA_LANGUAGES_H
#define NGOMA_LANGUAGES_H

#include <sqlite3.h>
#include <stdbool.h>

/* The code of the language address reads (an address merged into another
 * reads that one's); the host's when she chose none, English when the
 * database fails. Owned. */
char *language_of(sqlite3 *db, const char *address);
/* Whether address chose one herself (0 or 1; -1 on a database failure). */
int language_chosen(sqlite3 *db, const char *address);
/* Keeps code (a code of lib/catalog.h) for address; NULL forgets hers, so
 * that she reads the host's. In the caller's transaction. */
int language_set(sqlite3 *db, const char *address, const char *code);

struct strbuf;
/* LANGUAGE ARG by address, in a game or the lobby: ARG empty says which
 * she reads and which there are; a language (a code or a name) keeps it;
 * DEFAULT forgets hers. The answer in out, in the language she reads
 * after it; *refused when ARG names none. -1 on a database failure. */
int language_command(sqlite3 *db, const char *address, const char *arg, struct strbuf *out, bool *refused);

#endif
