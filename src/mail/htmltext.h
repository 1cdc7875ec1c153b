/* htmltext.h: turning an HTML mail body into plain text good enough to read orders from. */
#ifndef NGOMA_HTMLTEXT_H
#define NGOMA_HTMLTEXT_H

/* Tags go, block ends become line breaks, entities are decoded, and quoted
 * parts (blockquote, a mail client's quote of the previous message) come
 * out as lines starting with "> " so that they are not read as orders.
 * Returns an owned UTF-8 string. */
char *html_to_text(const char *html);

#endif
