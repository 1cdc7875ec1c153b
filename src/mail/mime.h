/* mime.h: the GMime module (ngoma-mime.so): what it does for the program, and the plain helpers it calls back. */
#ifndef NGOMA_MIME_H
#define NGOMA_MIME_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "mail/inmail.h"

/* Bumped whenever what the module and the program share changes: a
 * module of another build is refused, not called. */
#define MIME_ABI 1
/* The number both sides compare: the ABI and the sizes of what they share. */
#define MIME_ABI_CHECK \
    ((int)(MIME_ABI * 1000000 + (sizeof(struct inmail) * 31 + sizeof(struct mime_mail) * 7 + sizeof(struct mail_limits)) % 1000000))

/* One mail to compose: every header already decided by the caller. */
struct mime_mail {
    const char *from_name, *from;
    const char *to_name, *to;
    const char *reply_to;      /* NULL: none */
    const char *subject;       /* UTF-8 */
    time_t date;
    const char *message_id;    /* without <> */
    const char *in_reply_to;   /* "<id>", or NULL */
    const char *references;    /* "<id> <id>", or NULL */
    const char *auto_submitted;
    const char *x_ngoma;
    const char *text, *html;   /* the two alternatives, UTF-8 */
};

/* Called for each message of an mbox: 0 to go on, -1 to stop there. */
typedef int mime_mbox_fn(void *ctx, const char *data, size_t len);

struct mime_api {
    /* Everything inmail_parse promises, for a message already cut to
     * the limits (mailparse.c cuts it). */
    int (*parse)(const char *data, size_t len, const struct mail_limits *lim, struct inmail *m);
    /* The whole message, multipart/alternative text and HTML, both
     * quoted-printable UTF-8. Owned. */
    char *(*compose)(const struct mime_mail *mm);
    /* mail_attach_picture (mailout.h). */
    char *(*attach_picture)(const char *mail, const char *cid, const void *png, size_t n);
    /* Every message of the mbox at path, as GMime reads it back out
     * ("From " lines and their quoting undone); -1 with why in err when
     * the file cannot be read, or fn's -1. */
    int (*mbox_each)(const char *path, mime_mbox_fn *fn, void *ctx, struct strbuf *err);
};

/* The module's only symbol: its ABI and its functions. */
typedef const struct mime_api *mime_module_fn(int *abi);
mime_module_fn ngoma_mime_module;

/* The module, loaded the first time a process reads or writes a mail
 * (mimex.c); NULL with why in err when it cannot be. */
const struct mime_api *mime_api(struct strbuf *err);

#endif
