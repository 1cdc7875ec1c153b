/* lmtp.h: the server side of LMTP (RFC 2033) as a state machine over bytes: commands in, replies out, a mail and its recipients handed to the caller, one reply per recipient back. */
#ifndef NGOMA_LMTP_H
#define NGOMA_LMTP_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strlist.h"

struct lmtp_limits {
    size_t message_bytes; /* max_message_size: SIZE says it, and a longer mail gets 552 */
    size_t line_bytes;    /* of a command line (RFC 5321's 512, with room for extensions) */
    size_t recipients;    /* a transaction's RCPTs (at most LMTP_RECIPIENTS_MAX); more get 452 */
};
/* RFC 5321 4.5.3.1.8: a server takes at least 100 recipients a mail. */
#define LMTP_RECIPIENTS_MAX 100
#define LMTP_LIMITS_DEFAULT { 2097152, 2048, LMTP_RECIPIENTS_MAX }

enum lmtp_state {
    LMTP_GREETED,  /* waiting for LHLO */
    LMTP_READY,    /* waiting for MAIL */
    LMTP_MAIL,     /* MAIL taken: RCPT, then DATA */
    LMTP_DATA,     /* reading the mail */
    LMTP_DELIVER,  /* a mail is whole: the caller takes it, then lmtp_deliver_done */
    LMTP_CLOSED,   /* QUIT answered, or the peer misbehaved past repair: flush and close */
};

struct lmtp {
    struct lmtp_limits lim;
    enum lmtp_state state;
    char host[128];
    struct strbuf out;        /* replies not yet written: the caller writes and consumes them */
    struct strbuf line;       /* the command line being read */
    bool line_long;           /* it passed the limit: the rest of it is dropped */
    char *from;               /* MAIL FROM's path ("" for <>) */
    struct strlist rcpts;     /* RCPT TO's paths, as given */
    /* The mail being read: CRLF as LF, dots unstuffed, at most
     * message_bytes kept; total counts all of it. */
    struct strbuf data;
    size_t total;
    int data_at;              /* where in a line the reader is: 0 start, 1 after a leading dot, 2 within */
    bool data_cr;             /* the last byte was a CR, not yet known to end the line */
    bool data_crlf;           /* the line under way began after a CRLF (a bare LF ends no mail) */
    int mails;                /* transactions so far */
    bool full;                /* set by the caller: no room for another mail now, DATA gets 452 */
};

/* Queues the greeting; host is the name the replies give. */
void lmtp_init(struct lmtp *l, const struct lmtp_limits *lim, const char *host);
void lmtp_release(struct lmtp *l);

/*
 * Reads n bytes: commands are answered (into out) as they come, whole
 * lines only (PIPELINING: many at once is fine). Returns how many bytes
 * it took: it stops at the end of a mail (state LMTP_DELIVER) and when
 * closed, and the caller keeps the rest for later. Linear in n.
 */
size_t lmtp_feed(struct lmtp *l, const char *buf, size_t n);

/* In LMTP_DELIVER: whether the mail passed the size limit (its bytes
 * were counted, not kept). */
bool lmtp_oversize(const struct lmtp *l);

/*
 * The replies for the mail in LMTP_DELIVER, one per recipient in RCPT
 * order (codes[i] 250, 4xx or 5xx, texts[i] its enhanced code and words,
 * "2.0.0 taken"); then the transaction is over and the state LMTP_READY.
 */
void lmtp_deliver_done(struct lmtp *l, const int *codes, const char *const *texts);

/* Queues 421 (closing) and closes: the server's end, or a timeout. */
void lmtp_shutdown(struct lmtp *l, const char *why);

#endif
