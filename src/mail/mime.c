/* mime.c: the GMime module (ngoma-mime.so): a message parsed, a mail composed, a picture added, an mbox read. */
#include "mail/mime.h"
#include "mail/htmltext.h"
#include "mail/mailtext.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <errno.h>
#include <gmime/gmime.h>
#include <stdio.h>
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

/* ---- reading ------------------------------------------------------------------------- */

static char *dup_header(GMimeObject *obj, const char *name)
{
    const char *v = g_mime_object_get_header(obj, name);
    return v ? mail_clean_header(v) : NULL;
}

static void add_addresses(struct strlist *out, InternetAddressList *list)
{
    int n = list ? internet_address_list_length(list) : 0;
    for (int i = 0; i < n; i++) {
        InternetAddress *ia = internet_address_list_get_address(list, i);
        if (INTERNET_ADDRESS_IS_MAILBOX(ia)) {
            const char *addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
            if (addr && *addr) {
                char *a = mail_clean_header(addr);
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

/* The parts that are not the sender's text: attachments, and leaves that
 * are neither text/plain nor text/html (a picture, a forwarded mail). */
static int count_attachments(GMimeObject *obj, int depth)
{
    int n = 0;
    if (!obj || depth > 32)
        return 0;
    if (GMIME_IS_MULTIPART(obj)) {
        for (int i = 0, k = g_mime_multipart_get_count(GMIME_MULTIPART(obj)); i < k; i++)
            n += count_attachments(g_mime_multipart_get_part(GMIME_MULTIPART(obj), i), depth + 1);
        return n;
    }
    if (GMIME_IS_PART(obj) && g_mime_part_is_attachment(GMIME_PART(obj)))
        return 1;
    {
        GMimeContentType *ct = g_mime_object_get_content_type(obj);
        return ct && g_mime_content_type_is_type(ct, "text", "plain") ? 0
               : ct && g_mime_content_type_is_type(ct, "text", "html") ? 0
                                                                         : 1;
    }
}

static char *part_text(GMimeObject *part)
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
    text = mail_strip_cr(valid);
    g_free(valid);
    if (format && g_ascii_strcasecmp(format, "flowed") == 0) {
        char *u = mail_unflow(text, delsp && g_ascii_strcasecmp(delsp, "yes") == 0);
        free(text);
        text = u;
    }
    return text;
}

static void read_headers(GMimeObject *obj, const struct mail_limits *lim, struct inmail *m)
{
    GMimeHeaderList *hl = g_mime_object_get_header_list(obj);
    struct strbuf refs = STRBUF_INIT;
    struct strlist ref_ids = STRLIST_INIT, reply_ids = STRLIST_INIT;
    (void)lim;
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
            char *v = mail_clean_header(value);
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
        } else if (!m->auto_header && mail_automatic_header(name)) {
            struct strbuf sb = STRBUF_INIT;
            char *v = mail_clean_header(value);
            strbuf_addf(&sb, "%s: %.60s", name, v);
            free(v);
            m->auto_header = strbuf_detach(&sb);
        } else if (!g_ascii_strcasecmp(name, "References")) {
            mail_ids_add(&ref_ids, value);
        } else if (!g_ascii_strcasecmp(name, "In-Reply-To")) {
            mail_ids_add(&reply_ids, value);
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
}

static int parse(const char *data, size_t len, const struct mail_limits *lim, struct inmail *m)
{
    GMimeStream *stream;
    GMimeParser *parser;
    GMimeMessage *msg;
    GMimeObject *obj, *part;

    gmime_ready();
    stream = g_mime_stream_mem_new_with_buffer(data, len);
    parser = g_mime_parser_new_with_stream(stream);
    msg = g_mime_parser_construct_message(parser, NULL);
    g_object_unref(parser);
    g_object_unref(stream);
    if (!msg) {
        m->subject = xstrdup("");
        m->references = xstrdup("");
        m->text = xstrdup("");
        return 0;
    }
    obj = GMIME_OBJECT(msg);
    m->message_id = mail_clean_message_id(g_mime_message_get_message_id(msg));
    m->from = first_address(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_FROM));
    m->subject = mail_clean_header(g_mime_message_get_subject(msg));
    mail_cut_utf8(m->subject, lim->subject_bytes);
    add_addresses(&m->rcpts, g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO));
    add_addresses(&m->rcpts, g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_CC));
    read_headers(obj, lim, m);
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
    m->attachments = count_attachments(g_mime_message_get_mime_part(msg), 0);
    part = find_text(g_mime_message_get_mime_part(msg), "plain", 0);
    if (part) {
        m->text = part_text(part);
    } else if ((part = find_text(g_mime_message_get_mime_part(msg), "html", 0))) {
        char *html = part_text(part);
        m->text = html_to_text(html);
        m->text_from_html = true;
        free(html);
    } else {
        m->text = xstrdup("");
    }
    g_object_unref(msg);
    return 0;
}

/* ---- writing ------------------------------------------------------------------------- */

static GMimeObject *text_part(const char *subtype, const char *text)
{
    GMimeTextPart *tp = g_mime_text_part_new_with_subtype(subtype);
    GMimeStream *stream = g_mime_stream_mem_new_with_buffer(text, strlen(text));
    GMimeDataWrapper *content = g_mime_data_wrapper_new_with_stream(stream, GMIME_CONTENT_ENCODING_DEFAULT);
    /* Our text is UTF-8 and says so (set_text would pick a narrower charset). */
    g_mime_part_set_content(GMIME_PART(tp), content);
    g_object_unref(content);
    g_object_unref(stream);
    g_mime_object_set_content_type_parameter(GMIME_OBJECT(tp), "charset", "utf-8");
    /* Quoted-printable keeps the board's lines intact through any relay. */
    g_mime_part_set_content_encoding(GMIME_PART(tp), GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE);
    return GMIME_OBJECT(tp);
}

static char *to_text(GMimeMessage *msg)
{
    char *s = g_mime_object_to_string(GMIME_OBJECT(msg), NULL), *out = xstrdup(s);
    g_free(s);
    return out;
}

static char *compose(const struct mime_mail *mm)
{
    GMimeMessage *msg;
    GMimeMultipart *alt;
    GDateTime *date;
    char *out;

    gmime_ready();
    msg = g_mime_message_new(TRUE);
    g_mime_message_add_mailbox(msg, GMIME_ADDRESS_TYPE_FROM, mm->from_name, mm->from);
    g_mime_message_add_mailbox(msg, GMIME_ADDRESS_TYPE_TO, mm->to_name ? mm->to_name : "", mm->to);
    if (mm->reply_to)
        g_mime_message_add_mailbox(msg, GMIME_ADDRESS_TYPE_REPLY_TO, mm->from_name, mm->reply_to);
    g_mime_message_set_subject(msg, mm->subject, "utf-8");
    date = g_date_time_new_from_unix_utc((gint64)mm->date);
    g_mime_message_set_date(msg, date);
    g_date_time_unref(date);
    g_mime_message_set_message_id(msg, mm->message_id);
    if (mm->in_reply_to)
        g_mime_object_set_header(GMIME_OBJECT(msg), "In-Reply-To", mm->in_reply_to, NULL);
    if (mm->references && *mm->references)
        g_mime_object_set_header(GMIME_OBJECT(msg), "References", mm->references, NULL);
    g_mime_object_set_header(GMIME_OBJECT(msg), "Auto-Submitted", mm->auto_submitted, NULL);
    g_mime_object_set_header(GMIME_OBJECT(msg), "X-Ngoma", mm->x_ngoma, NULL);
    alt = g_mime_multipart_new_with_subtype("alternative");
    {
        GMimeObject *plain = text_part("plain", mm->text), *rich = text_part("html", mm->html);
        g_mime_multipart_add(alt, plain); /* the multipart takes its own reference */
        g_mime_multipart_add(alt, rich);
        g_object_unref(plain);
        g_object_unref(rich);
    }
    g_mime_message_set_mime_part(msg, GMIME_OBJECT(alt));
    g_object_unref(alt);
    out = to_text(msg);
    g_object_unref(msg);
    return out;
}

static char *attach_picture(const char *mail, const char *cid, const void *png, size_t n)
{
    GMimeStream *stream, *data;
    GMimeParser *parser;
    GMimeMessage *msg;
    GMimeObject *body, *html;
    GMimeMultipart *related;
    GMimePart *image;
    GMimeDataWrapper *content;
    char *out;

    gmime_ready();
    stream = g_mime_stream_mem_new_with_buffer(mail, strlen(mail));
    parser = g_mime_parser_new_with_stream(stream);
    msg = g_mime_parser_construct_message(parser, NULL);
    g_object_unref(parser);
    g_object_unref(stream);
    if (!msg)
        return NULL;
    body = g_mime_message_get_mime_part(msg);
    if (!GMIME_IS_MULTIPART(body) || g_mime_multipart_get_count(GMIME_MULTIPART(body)) != 2) {
        g_object_unref(msg);
        return NULL;
    }
    /* alternative(plain, html) becomes alternative(plain, related(html, png)). */
    html = g_mime_multipart_get_part(GMIME_MULTIPART(body), 1);
    g_object_ref(html);
    related = g_mime_multipart_new_with_subtype("related");
    g_mime_object_set_content_type_parameter(GMIME_OBJECT(related), "type", "text/html");
    g_mime_multipart_add(related, html);
    g_object_unref(html);
    image = g_mime_part_new_with_type("image", "png");
    data = g_mime_stream_mem_new_with_buffer(png, n);
    content = g_mime_data_wrapper_new_with_stream(data, GMIME_CONTENT_ENCODING_DEFAULT);
    g_mime_part_set_content(image, content);
    g_object_unref(content);
    g_object_unref(data);
    g_mime_part_set_content_encoding(image, GMIME_CONTENT_ENCODING_BASE64);
    g_mime_object_set_content_id(GMIME_OBJECT(image), cid);
    g_mime_object_set_disposition(GMIME_OBJECT(image), "inline");
    g_mime_part_set_filename(image, "board.png");
    g_mime_multipart_add(related, GMIME_OBJECT(image));
    g_object_unref(image);
    g_mime_multipart_replace(GMIME_MULTIPART(body), 1, GMIME_OBJECT(related));
    g_object_unref(related);
    out = to_text(msg);
    g_object_unref(msg);
    return out;
}

/* ---- an mbox ------------------------------------------------------------------------- */

static int mbox_each(const char *path, mime_mbox_fn *fn, void *ctx, struct strbuf *err)
{
    GMimeStream *stream;
    GMimeParser *parser;
    FILE *f = fopen(path, "r");
    int rc = 0;

    if (!f) {
        strbuf_addf(err, "cannot read the mbox %s: %s", path, strerror(errno));
        return -1;
    }
    gmime_ready();
    stream = g_mime_stream_file_new(f); /* owns f */
    parser = g_mime_parser_new_with_stream(stream);
    g_mime_parser_set_format(parser, GMIME_FORMAT_MBOX);
    while (rc == 0 && !g_mime_parser_eos(parser)) {
        GMimeMessage *msg = g_mime_parser_construct_message(parser, NULL);
        char *text;
        if (!msg)
            break;
        text = g_mime_object_to_string(GMIME_OBJECT(msg), NULL);
        g_object_unref(msg);
        rc = fn(ctx, text, strlen(text));
        g_free(text);
    }
    g_object_unref(parser);
    g_object_unref(stream);
    return rc;
}

const struct mime_api *ngoma_mime_module(int *abi)
{
    static const struct mime_api api = { parse, compose, attach_picture, mbox_each };
    *abi = MIME_ABI_CHECK;
    return &api;
}
