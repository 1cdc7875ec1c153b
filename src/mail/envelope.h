/* envelope.h: what an incoming mail says about itself: which game and seat, which secret, and whether a machine sent it. */
#ifndef NGOMA_ENVELOPE_H
#define NGOMA_ENVELOPE_H

#include <stdint.h>

#include "mail/mailparse.h"

struct envelope {
    int64_t game;  /* 0: no game named */
    int seat;      /* the seat number a plus address names, 0: none */
    char *secret;  /* from the plus address or a SECRET line; NULL: none */
    int64_t channel; /* the press channel a plus address LOCAL+G-S-SECRET-pC names; -M: the grey message M its -gM names; 0: none */
    char *player;  /* from a PLAYER line; NULL: none */
    char *orders;  /* the sender's own text without the envelope lines */
    char *address; /* the game address it came to (Delivered-To first, then To, Cc); NULL: none */
    bool by_subject; /* the game is named by the subject's tag alone */
};

/*
 * Reads the envelope, most explicit first: GAME, SECRET and PLAYER lines
 * at the top of the text; then a plus address LOCAL+G-S-SECRET@... (or
 * LOCAL+G@..., or LOCAL+G-S-SECRET-pC@... for press channel C) among the recipients (where it was delivered first, then
 * To and Cc), where LOCAL is the from setting's local part; then a
 * "[ngoma G]" tag in the subject.
 */
void envelope_read(const struct inmail *m, const char *from_setting, struct envelope *e);
void envelope_release(struct envelope *e);

/* Why the mail must get no answer and no processing (RFC 3834: an
 * automatic reply, a bounce, a list or bulk mail, our own mail come back),
 * or NULL when it may be handled. */
const char *envelope_automatic(const struct inmail *m, const char *from_setting);

#endif
