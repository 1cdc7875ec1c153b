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

#endif
