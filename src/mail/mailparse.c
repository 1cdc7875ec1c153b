/* mailparse.c: reading an incoming RFC 5322 message: its limits, its plain helpers, and GMime (in the mail module) for the rest. */
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

char *mail_clean_message_id(const char *raw)
{
    const char *p, *end;
    if (!raw)
        return NULL;
    while (*raw == ' ' || *raw == '\t' || *raw == '<')
        raw++;
    end = raw + strlen(raw);
    while (end > raw && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '>' || end[-1] == '\r' || end[-1] == '\n'))
        end--;
    if (end == raw || end - raw > 250)
        return NULL;
    for (p = raw; p < end; p++)
        if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 127 || *p == '<' || *p == '>')
            return NULL;
    /* left@right, as RFC 5322 has it: a mail client's parser (GMime's
     * among them) drops the rest of a References list at anything else. */
    p = memchr(raw, '@', (size_t)(end - raw));
    if (!p || p == raw || p + 1 == end)
        return NULL;
    return xstrndup(raw, (size_t)(end - raw));
}

/* Removes control characters (and so any line break) from a header value. */
char *mail_clean_header(const char *v)
{
    struct strbuf sb = STRBUF_INIT;
    for (; v && *v; v++) {
        unsigned char c = (unsigned char)*v;
        if (c < 0x20 || c == 0x7f)
            strbuf_addch(&sb, ' ');
        else
            strbuf_addch(&sb, (char)c);
    }
    strbuf_trim(&sb);
    return strbuf_detach(&sb);
}

/* RFC 3676: joins soft-broken lines of a format=flowed text. */
char *mail_unflow(const char *text, bool delsp)
{
    struct strbuf out = STRBUF_INIT;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        bool quoted = len && p[0] == '>';
        const char *line = p;
        if (!quoted && len && line[0] == ' ') { /* space-stuffed */
            line++;
            len--;
        }
        bool soft = !quoted && len && line[len - 1] == ' ' && !(len == 3 && strncmp(line, "-- ", 3) == 0);
        strbuf_add(&out, line, soft && delsp ? len - 1 : len);
        if (!soft && nl)
            strbuf_addch(&out, '\n');
        p += (nl ? (size_t)(nl - p) + 1 : strlen(p));
    }
    return strbuf_detach(&out);
}

char *mail_strip_cr(const char *s)
{
    struct strbuf sb = STRBUF_INIT;
    for (; *s; s++)
        if (*s != '\r')
            strbuf_addch(&sb, *s);
    return strbuf_detach(&sb);
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

/* At most max bytes of s, not cutting a UTF-8 character in two. */
void mail_cut_utf8(char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max)
        return;
    while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
        max--;
    s[max] = '\0';
}

/* Adds the well-formed message ids of a References or In-Reply-To value
 * to ids, in order, each once (they go back out in our headers). */
void mail_ids_add(struct strlist *ids, const char *value)
{
    char *v = mail_clean_header(value), *save = NULL;
    for (char *tok = strtok_r(v, " \t,", &save); tok && ids->n < 200; tok = strtok_r(NULL, " \t,", &save)) {
        char *id = mail_clean_message_id(tok);
        if (id && !strlist_contains(ids, id))
            strlist_push(ids, id);
        free(id);
    }
    free(v);
}

/* Headers that only machines put on mail: autoresponders that do not
 * say Auto-Submitted (RFC 3834), mailing lists (RFC 2369, 2919), bounces. */
bool mail_automatic_header(const char *name)
{
    static const char *const names[] = {
        "X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Auto-Response-Suppress", "X-Autogenerated",
        "X-Mailer-Autoreply", "X-Vacation", "X-Failed-Recipients", "List-Unsubscribe", "List-Post", "List-Help",
        "List-Owner", "List-Subscribe", "List-Archive", "Feedback-Type", "X-Loop",
    };
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (!strcasecmp(name, names[i]))
            return true;
    return false;
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
