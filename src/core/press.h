/* press.h: press in a player's text: PRESS TO blocks and MUTE lines read apart from her orders, and whom a PRESS TO names. */
#ifndef NGOMA_PRESS_H
#define NGOMA_PRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "games/game.h"
#include "lib/strbuf.h"

#define PRESS_ITEMS_MAX 8         /* messages and MUTE lines one mail may carry */
#define PRESS_BODY_KEPT 65536     /* bytes of a message kept while reading (press_max_bytes says what is sent) */

enum press_kind { PRESS_MESSAGE, PRESS_MUTE, PRESS_UNMUTE };

struct press_item {
    enum press_kind kind;
    unsigned pulled;      /* its lines that read as orders, left out of it and taken as orders */
    char *line;           /* its first line as written: "PRESS TO Bob", "MUTE Bob" (at most 120 bytes) */
    char *to;             /* whom it names as written; NULL: the channel the mail came to */
    struct strbuf body;   /* the message, its lines as written, blank lines at either end dropped */
    size_t bytes;         /* the message's length as written, past PRESS_BODY_KEPT too */
};

struct press_text {
    const char *orders;   /* the text without its press, for the game: the text itself when it held none */
    struct strbuf own;    /* where orders is kept when press was cut out of it */
    struct press_item *v;
    size_t n;
    size_t dropped;       /* items past PRESS_ITEMS_MAX, not kept */
    unsigned pulled;      /* lines of messages that read as orders, kept with the orders */
    unsigned loose;       /* of those, the ones no message had begun to hold yet */
};

/* Whether a line reads as an order of the writer's game (orders,
 * votes, the game's commands): such a line is never relayed as press.
 * line is trimmed, len its length. */
struct press_sense {
    bool (*is_order)(void *ctx, const char *line, size_t len);
    void *ctx;
};

/*
 * Reads text (a mail's own words, its envelope lines gone): a line
 * "PRESS TO names" (or "PRESS TO names: first line") opens a message that
 * runs to a line "END PRESS", the next PRESS TO, or the end; outside
 * messages a line "MUTE name" or "UNMUTE name" is a command; the rest is
 * orders. With channel (the mail came to a press channel's address) the
 * text outside PRESS TO blocks is one message to that channel, MUTE and
 * UNMUTE lines at its top commands. A signature ("-- ") ends all, lines
 * quoted with '>' are dropped from messages. With sense, a line of a
 * message (its first line's words after the colon too) that sense reads
 * as an order is left out of the message and kept with the orders, in
 * its place (the item counts it in pulled): press never carries an
 * order, and no order is lost to press. Linear in text's length (given
 * a sense that is linear in the line); text must outlive out (orders may
 * point into it).
 */
void press_split(const char *text, bool channel, const struct press_sense *sense, struct press_text *out);
void press_text_release(struct press_text *p);

/*
 * The seats a PRESS TO names (a mask): names of the table separated by
 * commas, "and", "&" or spaces (a name may hold spaces), or ALL for
 * every seat but the sender's (self, 0-based; naming herself is allowed
 * and adds nothing). *all says whether ALL was written. -1 with what was
 * wrong, and what would be right, in err.
 */
int press_recipients(const char *to, const struct game_table *t, int self, unsigned *mask, bool *all,
                     struct strbuf *err);

/* "Bob", "Bob and Cleo", "Bob, Cleo and Dan": the seats of mask (0-based
 * bits) by name, but for skip (-1: none); "you" in place of you (-1:
 * none); in t's reader's language (t->lang), as are press_recipients'
 * refusals. */
void press_names(const struct game_table *t, unsigned mask, int skip, int you, struct strbuf *out);

#endif
