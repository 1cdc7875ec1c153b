/* inbound_mail.h: a mail made ready to be taken (parsed, its envelope and journal key read) and what its transport said of it: what the inbound path hands the lobby and the drain. */
#ifndef NGOMA_INBOUND_MAIL_H
#define NGOMA_INBOUND_MAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/press.h"
#include "mail/envelope.h"
#include "mail/mailparse.h"
#include "mail/rawmsg.h"

/*
 * A mail made ready outside any transaction: parsed within the limits,
 * its text out of its HTML, its envelope read, its journal key made. All
 * the work that grows with a mail's size happens here, so that no mail
 * holds the write lock for long.
 */
struct inbound_mail {
    const struct rawmsg *raw;
    const char *source;
    struct inmail m;
    struct envelope e;
    char *from_setting;
    char *message_id;      /* the Message-ID, or sha256.DIGEST@ngoma.invalid */
    char *key;             /* Message-ID, digest of what it carries, game address: seen once */
    const char *automatic; /* why no machine-sent mail is answered, or NULL */
    bool oversize;
    long long size_limit;
    size_t order_lines;    /* lines of orders in the text, its press aside */
    struct press_text press; /* its press and MUTE lines (core/press.h), its orders in press.orders */
};

/* What the transport says of a mail besides its bytes (LMTP's MAIL and
 * RCPT): where it was delivered, before any Delivered-To it carries, and
 * its envelope sender ("" for the null sender), before any Return-Path.
 * NULL fields: not said. */
struct inbound_env {
    const char *rcpt;
    const char *sender;
};

#endif
