/* host.h: what a game's host may do, by command line or by mail: pause, resume, extend, roll back, replace, kick. */
#ifndef NGOMA_HOST_H
#define NGOMA_HOST_H

#include <sqlite3.h>

#include "core/gamerec.h"
#include "core/visibility.h"

/* Whether a line begins with a host command's word. */
bool host_command_word(const char *line);
/*
 * Runs one host command line (PAUSE, RESUME, EXTEND 2d, ROLLBACK 5,
 * REPLACE Bob Dora=dora@x.org, KICK Bob, END SCORE reason, STATUS) inside the caller's
 * transaction; every seat is told by mail of a change. 0 when done (what
 * was done in out), 1 when refused (why in out), -1 on a failure; out is
 * in lang, the host's (English at the shell).
 */
int host_command(sqlite3 *db, struct game_rec *g, struct viewer who, const char *lang, const char *line,
                 struct strbuf *out);
/* A lobby game's opener may PAUSE and EXTEND with the others' consent
 * (consent.c): what every one of them agreed to ("pause", or "extend" by
 * secs) is done now, every seat told; out says so in lang. 0, or -1 on a
 * failure. */
int host_consented(sqlite3 *db, struct game_rec *g, const char *what, long secs, const char *lang,
                   struct strbuf *out);
/* Where the game stands: status, step, who is missing, the deadline, the
 * seats (their addresses only where visibility.c lets who read them). */
int host_status(sqlite3 *db, struct game_rec *g, struct viewer v, const char *lang, struct strbuf *out);

#endif
