/* order_text.h: cutting the text a player sent into order lines. */
#ifndef NGOMA_ORDER_TEXT_H
#define NGOMA_ORDER_TEXT_H

#include "lib/strlist.h"

/* The longest order line kept whole; longer lines are cut there. */
#define ORDER_LINE_MAX 400

/* One order per line: blank lines, lines quoted with '>' and everything
 * after a signature separator ("-- ") are dropped; white space is trimmed
 * and collapsed. */
void order_lines(const char *text, struct strlist *out);

/*
 * Whether a line is what people write around their orders: a greeting
 * or a sign-off ("Hi", "thanks, Ann", "Cheers, Bob", "Best regards",
 * "Merci", "Grüße, Jan") or a bare name ("Ann", "- Bob"), in the
 * languages players write in. A line whose first word is one of
 * `verbs` (the game's order words, any case; may be NULL) is not.
 */
#include <stdbool.h>
bool order_line_is_greeting(const char *line, const struct strlist *verbs);

/* The edit distance of a and b, ignoring case, or limit + 1 once it is
 * more than limit (so that far strings cost little). */
#include <stddef.h>
size_t order_distance(const char *a, const char *b, size_t limit);

/* Whether a line says yes, alone ("yes", "Oui!", "sim", "ndiyo"). */
bool order_line_is_yes(const char *line);
/* What a "Did you mean X?" of ours, in text's quoted ('>') lines, offered:
 * X (owned) when it was one thing, else NULL. A "yes" under it does what
 * it offered. */
char *order_text_offered(const char *text);
/* Whether the len bytes at line are a signature separator ("-- ", "--"). */
bool order_line_is_signature(const char *line, size_t len);
/* Which of words (commands, any case) word is a letter or two off (one
 * for a word of three letters or fewer), the nearest; -1 when none: the
 * "did you mean" of the lobby and the host's address. */
int order_nearest_word(const char *word, const char *const *words, size_t n);

#endif
