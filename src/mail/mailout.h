/* mailout.h: composing a well-formed outgoing mail (GMime, in the mail module) and queuing it in the outbox table. */
#ifndef NGOMA_MAILOUT_H
#define NGOMA_MAILOUT_H

#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strlist.h"
#include "mail/mailhtml.h"

struct outmail {
    int64_t game_id;          /* 0: about no game */
    int seat;                 /* 1-based, 0: none */
    const char *kind;         /* welcome, reply, turn, gameover, reminder, refused, toobig */
    const char *to;           /* always a registered address */
    const char *to_name;
    const char *subject;      /* without the [ngoma G] tag, which is added */
    const char *text;         /* the plain text body */
    const char *secret;       /* the seat's secret: its reply address carries it */
    const char *in_reply_to;  /* the Message-ID answered (no <>), or NULL */
    const char *references;   /* earlier ids, space separated, or NULL */
    int64_t answers;          /* messages.id answered, or 0 */
    bool host;                /* to the game's host: the reply address carries the host secret */
    int step;                 /* the game's step it shows (with game_id) */
    int told_from;            /* the first step whose story it tells, 0: none */
    bool lobby;               /* from the lobby: no game tag, replies go to the bare address */
    int64_t channel;          /* press: replies go to this press channel (with the seat's secret); -M: to the
                               * writer of grey message M alone; 0: none */
    /* A picture of the board: drawn from view (and prev, for the marks of
     * the last step) when the mail is sent, shown in the HTML part where
     * the text has board; NULL: none. */
    const cJSON *picture_view, *picture_prev;
    const char *board, *alt;
    /* Tap to order: the HTML shows each links[k].text (a part of text) as
     * links, each of its labels mailing its order to the mail's reply
     * address; the footer's commands likewise, and more to more_to
     * (REMATCH 12 to the lobby). NULL: none. */
    struct mail_links links[MAIL_LINKS_MAX];
    const struct strlist *commands;
    const char *more, *more_to;
    const char *lang;         /* the language to reads (store/languages.h); NULL: looked up from to */
};

/* The address replies come back to: LOCAL+G-S-SECRET@DOMAIN for a seat,
 * LOCAL+G-host-SECRET@DOMAIN for the host (seat -1), LOCAL+G@DOMAIN for a
 * game, from the `from` setting. Owned. */
char *mail_reply_address(sqlite3 *db, int64_t game_id, int seat, const char *secret);
/* The same for a seat's replies to press channel channel (0: none):
 * LOCAL+G-S-SECRET-pC@DOMAIN; for a channel -M, a reply to grey message
 * M: LOCAL+G-S-SECRET-gM@DOMAIN. Owned. */
char *mail_channel_address(sqlite3 *db, int64_t game_id, int seat, const char *secret, int64_t channel);
/* The Message-ID of a seat's latest welcome mail, the root every later
 * mail of the game to that seat refers to; with fresh, the one for a new
 * welcome (a player who takes over a seat starts a thread of her own).
 * Owned, without <>; NULL when the database fails. */
char *mail_thread_root(sqlite3 *db, int64_t game_id, int seat, bool fresh);

/* Renders the whole message (headers, text/plain and text/html
 * alternatives) and inserts it into the outbox, queued, in the caller's
 * transaction. */
int outbox_enqueue(sqlite3 *db, const struct outmail *m);

/* The stored message with its picture: png (n bytes) added to the HTML
 * part as the image its cid names (multipart/related). Owned; NULL when
 * the message cannot be read. */
char *mail_attach_picture(const char *mail, const char *cid, const void *png, size_t n);

/* Renders a mail template: its first line "Subject: ..." becomes *subject,
 * the rest the body. Both owned. */
int mail_template(const char *name, const void *data, const char *lang, char **subject, char **body);
/* Renders template name with data into m's subject and text, in the
 * language m->to reads (store/languages.h), and queues it (m's other
 * fields as the caller set them). */
int outbox_render(sqlite3 *db, struct outmail *m, const char *name, const void *data);

#endif
