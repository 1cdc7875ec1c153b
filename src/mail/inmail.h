/* inmail.h: an incoming mail as read (its headers and its text as UTF-8), and the bounds on reading one: what the parser and the GMime module share. */
#ifndef NGOMA_INMAIL_H
#define NGOMA_INMAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strlist.h"

struct inmail {
    char *message_id;     /* without <>, NULL when absent or not well formed */
    char *from;           /* the From address, lower-cased; NULL when none */
    char *return_path;    /* the Return-Path address: "" for the null sender, NULL when absent */
    char *subject;        /* decoded UTF-8, control characters removed; "" when none */
    char *date;           /* the Date header as written, NULL when none */
    struct strlist delivered; /* Delivered-To, X-Original-To and Envelope-To: where the MTA delivered it, latest first */
    struct strlist rcpts; /* To and Cc addresses */
    char *auto_submitted; /* these four: the header's value, NULL when absent */
    char *precedence;
    char *list_id;
    char *x_ngoma;        /* ngoma marks its own mail with X-Ngoma */
    char *auto_header;    /* the first header that marks automatic mail (X-Autoreply, List-Unsubscribe...), "Name: value" */
    char *content_type;   /* of the message's body, "type/subtype" */
    char *references;     /* the message ids of In-Reply-To and References, space separated, "" when none */
    char *text;           /* the body as text (UTF-8, unflowed, LF line ends); "" when none */
    bool text_from_html;
    int attachments;      /* parts that are not the text (attachments, pictures, forwarded mail), not read */
    char *headers;        /* the raw header block, at most limits->header_bytes */
    bool cut;             /* the headers or the MIME parts went over the limits: the rest was not read */
};

/* What one mail may make the parser do: every bound is on the work, so
 * that the cost of a mail is linear in its size whatever its shape. */
struct mail_limits {
    size_t header_bytes;  /* of the header block; lines beyond are not read */
    size_t subject_bytes; /* of the decoded subject kept */
    size_t mime_parts;    /* boundary lines read; the body stops at the next */
};
#define MAIL_LIMITS_DEFAULT { 32768, 200, 256 }

#endif
