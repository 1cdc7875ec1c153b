/* reply.h: the answer to an order text, as the player reads it (printed by `ngoma order`, mailed back later). */
#ifndef NGOMA_REPLY_H
#define NGOMA_REPLY_H

#include <sqlite3.h>

#include "core/engine.h"

/* The template data for a submission by seat: each line with what became
 * of it, the seat's board when a turn resolved, and the game's status. */
cJSON *reply_data(sqlite3 *db, struct game_rec *g, int seat, const struct submission *s);
/* The most orders of a LEGAL answer shown as links (as many as it lists
 * one a line). */
#define REPLY_LEGAL_LINKS 40

/* A line as an answer quotes it ("> line"): whole when it fits a mail's
 * line, else cut with "...". Owned. */
char *reply_quote(const char *line);

/* What a mail's answer says first: what was taken ("PLAY 7 taken"), what
 * was refused, or what it answers ("the answer to your LEGAL"). */
void reply_headline(const struct submission *s, const char *lang, const char *game, struct strbuf *out);
/* Renders templates/reply.txt for the submission into out. */
int reply_render(sqlite3 *db, struct game_rec *g, int seat, const struct submission *s, struct strbuf *out);
/* Adds text to obj under key without its trailing line breaks. */
void reply_add_text(cJSON *obj, const char *key, const char *text);

#endif
