/* mailtext.h: the plain helpers for headers and text that the parser and the GMime module (which calls them back) both use. */
#ifndef NGOMA_MAILTEXT_H
#define NGOMA_MAILTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strlist.h"

char *mail_clean_header(const char *v);          /* control characters as spaces, trimmed; owned */
void mail_ids_add(struct strlist *ids, const char *value); /* the well-formed ids of a References value */
bool mail_automatic_header(const char *name);    /* a header only machines put on mail */
void mail_cut_utf8(char *s, size_t max);         /* at most max bytes, whole characters */
char *mail_unflow(const char *text, bool delsp); /* RFC 3676; owned */
char *mail_strip_cr(const char *s);              /* owned */
/* A well-formed Message-ID (left@right, printable, no spaces or <>, at
 * most 250 characters) without its brackets, owned; NULL otherwise. */
char *mail_clean_message_id(const char *raw);

#endif
