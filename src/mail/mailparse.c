/* mailparse.c: reading an incoming RFC 5322 message: its limits, and GMime (in the mail module) for the rest. */
#include "mail/mailparse.h"
#include "mail/mime.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

char *mail_header_block(const char *data, size_t len, size_t max)
{
    size_t n = 0;
    /* The block ends at the first empty line (LF LF or CRLF CRLF). */
    while (n < len && n < max) {
        if (data[n] == '\n' && (n + 1 < len) &&
            (data[n + 1] == '\n' || (data[n + 1] == '\r' && n + 2 < len && data[n + 2] == '\n')))
            break;
        n++;
    }
    char *h = xmalloc(n + 2);
    memcpy(h, data, n);
    h[n] = n ? '\n' : '\0';
    h[n + (n ? 1 : 0)] = '\0';
    return h;
}

/* Where the header block ends (at its empty line, or the end). */
static size_t header_end(const char *data, size_t len)
{
    for (size_t n = 0; n + 1 < len; n++)
        if (data[n] == '\n' && (data[n + 1] == '\n' || (data[n + 1] == '\r' && n + 2 < len && data[n + 2] == '\n')))
            return n + 1;
    return len;
}

/* The message as the parser may read it: at most header_bytes of headers
 * (whole lines) and at most mime_parts boundary lines ("--..." at a line
 * start) in the body. NULL when it is within the limits as it is. */
static char *bounded(const char *data, size_t len, const struct mail_limits *lim, size_t *out_len)
{
    size_t hend = header_end(data, len), hkeep = hend, body = hend, bend = len, parts = 0;
    struct strbuf sb = STRBUF_INIT;
    if (hend > lim->header_bytes) {
        hkeep = lim->header_bytes;
        while (hkeep > 0 && data[hkeep - 1] != '\n')
            hkeep--;
    }
    for (size_t p = body; p < len; p++)
        if ((p == body || data[p - 1] == '\n') && p + 2 < len && data[p] == '-' && data[p + 1] == '-' &&
            ++parts > lim->mime_parts) {
            bend = p;
            break;
        }
    if (hkeep == hend && bend == len)
        return NULL;
    strbuf_add(&sb, data, hkeep);
    if (hkeep != hend)
        strbuf_addch(&sb, '\n');
    strbuf_add(&sb, data + hend, bend - hend);
    *out_len = sb.len;
    return strbuf_detach(&sb);
}

int inmail_parse(const char *data, size_t len, const struct mail_limits *limits, struct inmail *m)
{
    static const struct mail_limits defaults = MAIL_LIMITS_DEFAULT;
    const struct mail_limits *lim = limits ? limits : &defaults;
    struct strbuf err = STRBUF_INIT;
    const struct mime_api *api;
    char *copy;
    size_t copy_len = 0;
    int rc;

    memset(m, 0, sizeof(*m));
    if (!len)
        return -1;
    if (!(api = mime_api(&err))) {
        error("%s", err.buf);
        strbuf_release(&err);
        return -2;
    }
    if ((copy = bounded(data, len, lim, &copy_len))) {
        data = copy;
        len = copy_len;
        m->cut = true;
    }
    m->headers = mail_header_block(data, len, lim->header_bytes);
    rc = api->parse(data, len, lim, m);
    free(copy);
    return rc;
}

void inmail_release(struct inmail *m)
{
    free(m->message_id);
    free(m->from);
    free(m->return_path);
    free(m->subject);
    strlist_clear(&m->rcpts);
    strlist_clear(&m->delivered);
    free(m->auto_submitted);
    free(m->precedence);
    free(m->list_id);
    free(m->x_ngoma);
    free(m->date);
    free(m->auto_header);
    free(m->content_type);
    free(m->references);
    free(m->text);
    free(m->headers);
    memset(m, 0, sizeof(*m));
}
