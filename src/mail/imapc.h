/* imapc.h: the few IMAP commands ngoma needs, spoken over a connection libcurl opens, logs in and secures. */
#ifndef NGOMA_IMAPC_H
#define NGOMA_IMAPC_H

#include "mail/curlx.h"
#include "mail/tlsconf.h"
#include <stdint.h>
#include <time.h>

#include "lib/strbuf.h"

/* What one session may cost, whatever the server does: each answer's
 * bytes besides the literal it brings, the bytes of a literal kept (the
 * rest is read and dropped), and the whole session's seconds. */
struct imapc_limits {
    size_t response_bytes; /* imap_response_bytes */
    size_t literal_keep;   /* max_message_size + 1: a longer mail is known to be longer */
    long session_secs;     /* imap_session_secs */
};

struct imapc {
    const struct curl_api *cu; /* libcurl, loaded on first use */
    CURL *curl;
    int tag;
    struct strbuf in; /* received and not yet read */
    size_t pos;
    char *mailbox;
    struct imapc_limits lim;
    time_t deadline;  /* the session ends by then */
    size_t literal_total; /* the size of the last literal read (kept or not) */
    bool broken;      /* a command failed: the connection is not used again */
};

/* Connects to imap[s]://host[:port]/MAILBOX, logs in (libcurl does the
 * greeting, TLS as tls says, certificates checked, and AUTHENTICATE) and
 * SELECTs the mailbox, within lim from then on. A failure says which
 * setting would fix it. */
int imapc_open(struct imapc *im, const char *url, const char *user, const char *password, struct tls_conf *tls,
               const struct imapc_limits *lim, struct strbuf *err);
/* Sends one command and reads to its tagged answer. Untagged lines go to
 * lines (one per line), the first literal's bytes to literal (may be NULL),
 * at most lim.literal_keep of them. 0 on OK; -1 with the server's words
 * (or the limit passed) in err. */
int imapc_command(struct imapc *im, const char *cmd, struct strbuf *lines, struct strbuf *literal,
                  struct strbuf *err);
/* UID SEARCH UNSEEN: the UIDs, ascending, in *uids (owned), their count in *n. */
int imapc_unseen(struct imapc *im, uint32_t **uids, size_t *n, struct strbuf *err);
/* UID FETCH uid BODY.PEEK[]: the message (at most lim.literal_keep bytes
 * of it; *total says how long it was), leaving it unseen. */
int imapc_fetch(struct imapc *im, uint32_t uid, struct strbuf *message, size_t *total, struct strbuf *err);
/* UID STORE uid +FLAGS.SILENT (\Seen). */
int imapc_mark_seen(struct imapc *im, uint32_t uid, struct strbuf *err);
void imapc_close(struct imapc *im);

#endif
