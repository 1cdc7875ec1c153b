/* consent.h: what a lobby game's opener asks of its players (a pause, more time for the step): asked once, agreed by each other person by AGREE at the lobby, done when all have. */
#ifndef NGOMA_CONSENT_H
#define NGOMA_CONSENT_H

#include <sqlite3.h>

#include "core/gamerec.h"
#include "lib/strbuf.h"

/* The opener (address by) asks for what ("pause", or "extend" by secs)
 * in g: 2 when no other person sits in g (the caller does it now); 0
 * when asked (the others told, out says so); -1 on a failure. */
int consent_ask(sqlite3 *db, struct game_rec *g, const char *by, const char *what, long secs, const char *lang,
                struct strbuf *out);

/* AGREE from address to g's standing ask: 1 refused (why in out); 0
 * agreed, others still to; 2 when every other person has agreed: *what
 * ("pause" or "extend", static) and *secs say what to do now (the ask is
 * then closed); -1 on a failure. What out says is in lang. */
int consent_agree(sqlite3 *db, struct game_rec *g, const char *address, const char *lang, const char **what,
                  long *secs, struct strbuf *out);

/* A seat of g changes hands: the ask standing in this step lapses (who
 * agreed held the seats as they were), and told, the others' notice of
 * the change, says so. -1 on a failure. */
struct notice;
int consent_lapse(sqlite3 *db, const struct game_rec *g, struct notice *told);

#endif
