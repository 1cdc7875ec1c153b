/* mailparse.h: reading an incoming RFC 5322 message with GMime: its headers and its text as UTF-8. */
#ifndef NGOMA_MAILPARSE_H
#define NGOMA_MAILPARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strlist.h"

struct inmail {
    char *message_id;     /* without <>, NULL when absent or not well formed */
    char *from;           /* the From address, lower-cased; NULL when none */
    char *return_path;    /* the Return-Path address: "" for the null sender, NULL when absent */
    char *subject;        /* decoded UTF-8, control characters removed; "" when none */
    struct strlist rcpts; /* To, Cc, Delivered-To, X-Original-To and Envelope-To addresses */
    char *auto_submitted; /* these four: the header's value, NULL when absent */
    char *precedence;
    char *list_id;
    char *x_ngoma;        /* ngoma marks its own mail with X-Ngoma */
    char *references;     /* the message ids of In-Reply-To and References, space separated, "" when none */
    char *text;           /* the body as text (UTF-8, unflowed, LF line ends); "" when none */
    bool text_from_html;
    char *headers;        /* the raw header block */
};

/* Parses a message held in memory; never fails on content (garbage gives
 * empty fields), only on an empty input. Calls g_mime_init as needed. */
int inmail_parse(const char *data, size_t len, struct inmail *m);
void inmail_release(struct inmail *m);

/* The raw header block of a message: up to the first empty line, at most
 * max bytes. */
char *mail_header_block(const char *data, size_t len, size_t max);

/* A well-formed Message-ID (printable, no spaces or <>, at most 250
 * characters) without its brackets, owned; NULL otherwise. */
char *mail_clean_message_id(const char *raw);

/* The part of a reply that is the sender's own, owned: the text stops
 * where an unquoted copy of the previous message starts
 * ("-----Original Message-----", an Outlook separator, "Sent from my
 * ..."), and "On ... wrote:" attribution lines go (the '>' quote under
 * them is left to the order reader, which skips it). */
char *mail_own_text(const char *text);

#endif
