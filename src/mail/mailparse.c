/* mailparse.c: reading an incoming RFC 5322 message with GMime: its headers and its text as UTF-8. */
#include "mail/mailparse.h"
#include "mail/htmltext.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <ctype.h>
#include <gmime/gmime.h>
#include <stdlib.h>
#include <string.h>

static void gmime_ready(void)
{
    static bool done;
    if (!done) {
        g_mime_init();
        done = true;
    }
}

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
static char *clean_header(const char *v)
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

static char *dup_header(GMimeObject *obj, const char *name)
{
    const char *v = g_mime_object_get_header(obj, name);
    return v ? clean_header(v) : NULL;
}

static void add_addresses(struct strlist *out, InternetAddressList *list)
{
    int n = list ? internet_address_list_length(list) : 0;
    for (int i = 0; i < n; i++) {
        InternetAddress *ia = internet_address_list_get_address(list, i);
        if (INTERNET_ADDRESS_IS_MAILBOX(ia)) {
            const char *addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
            if (addr && *addr) {
                char *a = clean_header(addr);
                strlist_push_owned(out, str_lower(a));
            }
        } else if (INTERNET_ADDRESS_IS_GROUP(ia)) {
            add_addresses(out, internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia)));
        }
    }
}

static char *first_address(InternetAddressList *list)
{
    struct strlist l = STRLIST_INIT;
    char *a = NULL;
    add_addresses(&l, list);
    if (l.n)
        a = xstrdup(l.v[0]);
    strlist_clear(&l);
    return a;
}

/* The first non-attachment text part of the given subtype, depth first. */
static GMimeObject *find_text(GMimeObject *obj, const char *subtype, int depth)
{
    if (!obj || depth > 32)
        return NULL;
    if (GMIME_IS_MULTIPART(obj)) {
        int n = g_mime_multipart_get_count(GMIME_MULTIPART(obj));
        for (int i = 0; i < n; i++) {
            GMimeObject *found = find_text(g_mime_multipart_get_part(GMIME_MULTIPART(obj), i), subtype, depth + 1);
            if (found)
                return found;
        }
        return NULL;
    }
    if (GMIME_IS_TEXT_PART(obj)) {
        GMimeContentType *ct = g_mime_object_get_content_type(obj);
        if (ct && g_mime_content_type_is_type(ct, "text", subtype) && !g_mime_part_is_attachment(GMIME_PART(obj)))
            return obj;
    }
    return NULL; /* forwarded messages and other parts are not the sender's text */
}

/* RFC 3676: joins soft-broken lines of a format=flowed text. */
static char *unflow(const char *text, bool delsp)
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

static char *strip_cr(const char *s)
{
    struct strbuf sb = STRBUF_INIT;
    for (; *s; s++)
        if (*s != '\r')
            strbuf_addch(&sb, *s);
    return strbuf_detach(&sb);
}

static char *part_text(GMimeObject *part, bool *flowed_out)
{
    GMimeContentType *ct = g_mime_object_get_content_type(part);
    const char *format = ct ? g_mime_content_type_get_parameter(ct, "format") : NULL;
    const char *delsp = ct ? g_mime_content_type_get_parameter(ct, "delsp") : NULL;
    char *raw = g_mime_text_part_get_text(GMIME_TEXT_PART(part)), *valid, *text;

    if (!raw)
        return xstrdup("");
    /* Undeclared or wrong charsets can leave invalid UTF-8 behind. */
    valid = g_utf8_make_valid(raw, -1);
    g_free(raw);
    text = strip_cr(valid);
    g_free(valid);
    *flowed_out = format && g_ascii_strcasecmp(format, "flowed") == 0;
    if (*flowed_out) {
        char *u = unflow(text, delsp && g_ascii_strcasecmp(delsp, "yes") == 0);
        free(text);
        text = u;
    }
    return text;
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
static void cut_utf8(char *s, size_t max)
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
static void ids_add(struct strlist *ids, const char *value)
{
    char *v = clean_header(value), *save = NULL;
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
static bool automatic_header(const char *name)
{
    static const char *const names[] = {
        "X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Auto-Response-Suppress", "X-Autogenerated",
        "X-Mailer-Autoreply", "X-Vacation", "X-Failed-Recipients", "List-Unsubscribe", "List-Post", "List-Help",
        "List-Owner", "List-Subscribe", "List-Archive", "Feedback-Type", "X-Loop",
    };
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (!g_ascii_strcasecmp(name, names[i]))
            return true;
    return false;
}

int inmail_parse(const char *data, size_t len, const struct mail_limits *limits, struct inmail *m)
{
    static const struct mail_limits defaults = MAIL_LIMITS_DEFAULT;
    const struct mail_limits *lim = limits ? limits : &defaults;
    GMimeStream *stream;
    GMimeParser *parser;
    GMimeMessage *msg;
    GMimeObject *obj, *part;
    GMimeHeaderList *hl;
    struct strbuf refs = STRBUF_INIT;
    struct strlist ref_ids = STRLIST_INIT, reply_ids = STRLIST_INIT;
    char *copy;
    size_t copy_len = 0;

    memset(m, 0, sizeof(*m));
    if (!len)
        return -1;
    gmime_ready();
    if ((copy = bounded(data, len, lim, &copy_len))) {
        data = copy;
        len = copy_len;
        m->cut = true;
    }
    m->headers = mail_header_block(data, len, lim->header_bytes);
    stream = g_mime_stream_mem_new_with_buffer(data, len);
    parser = g_mime_parser_new_with_stream(stream);
    msg = g_mime_parser_construct_message(parser, NULL);
    g_object_unref(parser);
    g_object_unref(stream);
    if (!msg) {
        m->subject = xstrdup("");
        m->references = xstrdup("");
        m->text = xstrdup("");
        free(copy);
        return 0;
    }
    obj = GMIME_OBJECT(msg);
    m->message_id = mail_clean_message_id(g_mime_message_get_message_id(msg));
    m->from = first_address(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_FROM));
    m->subject = clean_header(g_mime_message_get_subject(msg));
    cut_utf8(m->subject, lim->subject_bytes);
    add_addresses(&m->rcpts, g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO));
    add_addresses(&m->rcpts, g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_CC));
    hl = g_mime_object_get_header_list(obj);
    for (int i = 0, n = hl ? g_mime_header_list_get_count(hl) : 0; i < n; i++) {
        GMimeHeader *h = g_mime_header_list_get_header_at(hl, i);
        const char *name = g_mime_header_get_name(h), *value = g_mime_header_get_value(h);
        if (!name || !value)
            continue;
        if (!g_ascii_strcasecmp(name, "Delivered-To") || !g_ascii_strcasecmp(name, "X-Original-To") ||
            !g_ascii_strcasecmp(name, "Envelope-To")) {
            InternetAddressList *l = internet_address_list_parse(NULL, value);
            add_addresses(&m->delivered, l);
            if (l)
                g_object_unref(l);
        } else if (!g_ascii_strcasecmp(name, "Return-Path") && !m->return_path) {
            char *v = clean_header(value);
            if (strcmp(v, "<>") == 0 || !*v) {
                m->return_path = xstrdup("");
            } else {
                InternetAddressList *l = internet_address_list_parse(NULL, v);
                m->return_path = first_address(l);
                if (!m->return_path)
                    m->return_path = xstrdup(v);
                if (l)
                    g_object_unref(l);
            }
            free(v);
        } else if (!m->auto_header && automatic_header(name)) {
            struct strbuf sb = STRBUF_INIT;
            char *v = clean_header(value);
            strbuf_addf(&sb, "%s: %.60s", name, v);
            free(v);
            m->auto_header = strbuf_detach(&sb);
        } else if (!g_ascii_strcasecmp(name, "References")) {
            ids_add(&ref_ids, value);
        } else if (!g_ascii_strcasecmp(name, "In-Reply-To")) {
            ids_add(&reply_ids, value);
        }
    }
    /* The thread oldest first: References as written, then what
     * In-Reply-To adds; a long one keeps its first id and its newest. */
    for (size_t i = 0; i < reply_ids.n; i++)
        if (!strlist_contains(&ref_ids, reply_ids.v[i]))
            strlist_push(&ref_ids, reply_ids.v[i]);
    for (size_t i = 0; i < ref_ids.n; i++)
        if (i == 0 || ref_ids.n - i <= 20)
            strbuf_addf(&refs, "%s%s", refs.len ? " " : "", ref_ids.v[i]);
    strlist_clear(&ref_ids);
    strlist_clear(&reply_ids);
    m->references = strbuf_detach(&refs);
    m->auto_submitted = dup_header(obj, "Auto-Submitted");
    m->precedence = dup_header(obj, "Precedence");
    m->list_id = dup_header(obj, "List-Id");
    m->x_ngoma = dup_header(obj, "X-Ngoma");
    m->date = dup_header(obj, "Date");
    {
        GMimeObject *top = g_mime_message_get_mime_part(msg);
        GMimeContentType *ct = top ? g_mime_object_get_content_type(top) : NULL;
        char *t = ct ? g_mime_content_type_get_mime_type(ct) : NULL;
        m->content_type = t ? xstrdup(t) : NULL;
        g_free(t);
    }

    part = find_text(g_mime_message_get_mime_part(msg), "plain", 0);
    if (part) {
        bool flowed;
        m->text = part_text(part, &flowed);
    } else if ((part = find_text(g_mime_message_get_mime_part(msg), "html", 0))) {
        bool flowed;
        char *html = part_text(part, &flowed);
        m->text = html_to_text(html);
        m->text_from_html = true;
        free(html);
    } else {
        m->text = xstrdup("");
    }
    g_object_unref(msg);
    free(copy);
    return 0;
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
