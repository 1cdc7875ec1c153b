/* imapc.h: the few IMAP commands ngoma needs, spoken over a connection libcurl opens, logs in and secures. */
#ifndef NGOMA_IMAPC_H
#define NGOMA_IMAPC_H

#include "mail/curlx.h"
#include "mail/tlsconf.h"
#include <stdint.h>

#include "lib/strbuf.h"

struct imapc {
    const struct curl_api *cu; /* libcurl, loaded on first use */
    CURL *curl;
    int tag;
    struct strbuf in; /* received and not yet read */
    size_t pos;
    char *mailbox;
};

/* Connects to imap[s]://host[:port]/MAILBOX, logs in (libcurl does the
 * greeting, TLS as tls says, certificates checked, and AUTHENTICATE) and
 * SELECTs the mailbox. A failure says which setting would fix it. */
int imapc_open(struct imapc *im, const char *url, const char *user, const char *password, struct tls_conf *tls,
               struct strbuf *err);
/* Sends one command and reads to its tagged answer. Untagged lines go to
 * lines (one per line), the first literal's bytes to literal (may be NULL).
 * 0 on OK; -1 with the server's words in err. */
int imapc_command(struct imapc *im, const char *cmd, struct strbuf *lines, struct strbuf *literal,
                  struct strbuf *err);
/* UID SEARCH UNSEEN: the UIDs, ascending, in *uids (owned), their count in *n. */
int imapc_unseen(struct imapc *im, uint32_t **uids, size_t *n, struct strbuf *err);
/* UID FETCH uid BODY.PEEK[]: the whole message, leaving it unseen. */
int imapc_fetch(struct imapc *im, uint32_t uid, struct strbuf *message, struct strbuf *err);
/* UID STORE uid +FLAGS.SILENT (\Seen). */
int imapc_mark_seen(struct imapc *im, uint32_t uid, struct strbuf *err);
void imapc_close(struct imapc *im);

#endif
