/* mailparse.h: reading an incoming RFC 5322 message (GMime, in the mail module): its headers and its text as UTF-8. */
#ifndef NGOMA_MAILPARSE_H
#define NGOMA_MAILPARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "mail/inmail.h"
#include "mail/mailtext.h"

/* Parses a message held in memory within limits (NULL: the defaults);
 * never fails on content (garbage gives empty fields): -1 only for an
 * empty input, -2 (reported) when the mail module cannot be loaded. */
int inmail_parse(const char *data, size_t len, const struct mail_limits *limits, struct inmail *m);
void inmail_release(struct inmail *m);

/* The raw header block of a message: up to the first empty line, at most
 * max bytes. */
char *mail_header_block(const char *data, size_t len, size_t max);



#endif
