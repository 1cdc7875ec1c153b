/* mailhtml.h: the HTML part of a mail, built for a phone from its plain text: paragraphs that wrap, the board's picture, the orders as mailto: links. */
#ifndef NGOMA_MAILHTML_H
#define NGOMA_MAILHTML_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "lib/strbuf.h"
#include "lib/strlist.h"

/* What a mail's HTML is made from: its text, and the parts of the text
 * the HTML shows otherwise. */
/* Orders a part of the text lists, shown as links instead: each
 * labels[i] mails orders[i] as the body, To reply_to with the thread's
 * subject. */
struct mail_links {
    const char *text;        /* the part of the text, or NULL */
    const struct strlist *labels, *orders;
    const char *heading;     /* the key of the phrase above them; NULL: html.tap-one */
};
#define MAIL_LINKS_MAX 3

struct mail_html_in {
    const char *text;        /* the plain text part, as sent */
    const char *board;       /* the board's text in it, or NULL */
    const char *cid, *alt;   /* the board's picture (cid:), or NULL: the board stays text */
    struct mail_links links[MAIL_LINKS_MAX];
    const char *reply_to;    /* where the links mail to, or NULL: no links */
    const char *subject;     /* the subject of a reply ("Re: [ngoma 12] Kalimambo") */
    /* The footer's commands, each a link of its own (BOARD, HELP...);
     * more goes to more_to instead (REMATCH 12 to the lobby). */
    const struct strlist *commands;
    const char *more, *more_to;
    const char *lang;        /* the reader's language (lib/catalog.h) */
};

/*
 * The HTML: blocks of text as paragraphs that wrap (a line wrapped at 72
 * columns joined again, a list kept a line an item), aligned text (a
 * board, a table) in a box of its own that scrolls, quoted lines set off,
 * the picture at the board's place, the orders and commands as mailto:
 * links (RFC 6068) that open a reply needing only Send. Rendered through
 * templates/mail.html (inline styles only: mail clients drop <style>).
 * Owned; NULL with why in err when the template fails.
 */
char *mail_html(const struct mail_html_in *in, struct strbuf *err);

/* The blocks mail_html renders (for tests): an array of objects, each
 * with one of p, lines, pre, quote, picture, choices, hr. Owned. */
cJSON *mail_html_blocks(const struct mail_html_in *in);

/* A mailto: URL (RFC 6068) for a reply: to, subject and body encoded.
 * Owned. */
char *mail_mailto(const char *to, const char *subject, const char *body);

#endif
