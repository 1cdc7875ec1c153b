/* lmtp.c: the server side of LMTP (RFC 2033) as a state machine over bytes: commands in, replies out, a mail and its recipients handed to the caller, one reply per recipient back. */
#include "mail/lmtp.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void lmtp_init(struct lmtp *l, const struct lmtp_limits *lim, const char *host)
{
    static const struct lmtp_limits defaults = LMTP_LIMITS_DEFAULT;
    memset(l, 0, sizeof(*l));
    l->lim = lim ? *lim : defaults;
    if (l->lim.recipients > LMTP_RECIPIENTS_MAX)
        l->lim.recipients = LMTP_RECIPIENTS_MAX;
    snprintf(l->host, sizeof(l->host), "%s", host && *host ? host : "localhost");
    strbuf_init(&l->out);
    strbuf_init(&l->line);
    strbuf_init(&l->data);
    strbuf_addf(&l->out, "220 %s LMTP ngoma ready\r\n", l->host);
    l->state = LMTP_GREETED;
}

static void reset(struct lmtp *l)
{
    free(l->from);
    l->from = NULL;
    strlist_clear(&l->rcpts);
    strbuf_release(&l->data);
    strbuf_init(&l->data);
    l->total = 0;
    l->data_at = 0;
    l->data_cr = false;
    l->data_crlf = true;
}

void lmtp_release(struct lmtp *l)
{
    reset(l);
    strbuf_release(&l->out);
    strbuf_release(&l->line);
}

static void reply(struct lmtp *l, const char *text)
{
    strbuf_addstr(&l->out, text);
    strbuf_addstr(&l->out, "\r\n");
}

void lmtp_shutdown(struct lmtp *l, const char *why)
{
    if (l->state == LMTP_CLOSED)
        return;
    strbuf_addf(&l->out, "421 4.3.2 %s %s\r\n", l->host, why);
    l->state = LMTP_CLOSED;
}

bool lmtp_oversize(const struct lmtp *l)
{
    return l->total > l->lim.message_bytes;
}

/* The path of "FROM:<path> params" or "TO:<path> params" after the
 * keyword: owned, without the brackets; *params points past it. NULL
 * when it is not <...> (spaces after the colon are allowed, as clients
 * send them). */
static char *path_of(const char *arg, const char **params)
{
    const char *open, *close;
    while (*arg == ' ')
        arg++;
    if (*arg != '<' || !(close = strchr(arg, '>')))
        return NULL;
    open = arg + 1;
    for (const char *p = open; p < close; p++)
        if ((unsigned char)*p <= ' ' || *p == '<' || (unsigned char)*p == 127)
            return NULL;
    *params = close + 1;
    return xstrndup(open, (size_t)(close - open));
}

/* MAIL FROM's parameters: SIZE=n (a mail over the limit is refused now)
 * and BODY=7BIT|8BITMIME; 0, or the reply to give. */
static const char *mail_params(const struct lmtp *l, const char *p)
{
    while (*p) {
        const char *end;
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        end = p + strcspn(p, " ");
        if (!strncasecmp(p, "SIZE=", 5)) {
            char num[24];
            long long size;
            size_t len = (size_t)(end - p - 5);
            if (len == 0 || len >= sizeof(num))
                return "501 5.5.4 SIZE takes a number of bytes";
            memcpy(num, p + 5, len);
            num[len] = '\0';
            if (!parse_int(num, 0, INT64_MAX, &size))
                return "501 5.5.4 SIZE takes a number of bytes";
            if ((unsigned long long)size > l->lim.message_bytes)
                return "552 5.3.4 the mail is over the size this server takes (see SIZE in the LHLO reply)";
        } else if (!strncasecmp(p, "BODY=", 5)) {
            if (strncasecmp(p + 5, "7BIT", (size_t)(end - p - 5)) && strncasecmp(p + 5, "8BITMIME", (size_t)(end - p - 5)))
                return "501 5.5.4 BODY is 7BIT or 8BITMIME";
        } else {
            return "555 5.5.4 only SIZE and BODY are known here";
        }
        p = end;
    }
    return NULL;
}

static bool is_cmd(const char *line, const char *cmd)
{
    size_t n = strlen(cmd);
    return !strncasecmp(line, cmd, n) && (line[n] == '\0' || line[n] == ' ' || line[n] == ':');
}

static void command(struct lmtp *l, const char *line)
{
    if (l->line_long) {
        reply(l, "500 5.5.2 the line is too long");
        return;
    }
    if (is_cmd(line, "LHLO")) {
        const char *name = line + 4;
        while (*name == ' ')
            name++;
        if (!*name) {
            reply(l, "501 5.5.4 LHLO takes the client's name");
            return;
        }
        reset(l);
        strbuf_addf(&l->out,
                    "250-%s\r\n250-PIPELINING\r\n250-ENHANCEDSTATUSCODES\r\n250-SIZE %zu\r\n250 8BITMIME\r\n",
                    l->host, l->lim.message_bytes);
        l->state = LMTP_READY;
    } else if (is_cmd(line, "HELO") || is_cmd(line, "EHLO")) {
        reply(l, "500 5.5.1 this is LMTP: say LHLO");
    } else if (is_cmd(line, "QUIT")) {
        strbuf_addf(&l->out, "221 2.0.0 %s closing\r\n", l->host);
        l->state = LMTP_CLOSED;
    } else if (is_cmd(line, "NOOP")) {
        reply(l, "250 2.0.0 ok");
    } else if (is_cmd(line, "RSET")) {
        reset(l);
        if (l->state != LMTP_GREETED)
            l->state = LMTP_READY;
        reply(l, "250 2.0.0 reset");
    } else if (is_cmd(line, "VRFY")) {
        reply(l, "252 2.5.0 not verified here; send the mail");
    } else if (is_cmd(line, "MAIL")) {
        const char *params;
        const char *why;
        char *path;
        if (l->state == LMTP_GREETED) {
            reply(l, "503 5.5.1 LHLO first");
            return;
        }
        if (l->state != LMTP_READY) {
            reply(l, "503 5.5.1 a mail is under way: RSET first");
            return;
        }
        if (strncasecmp(line + 4, " FROM:", 6) || !(path = path_of(line + 10, &params))) {
            reply(l, "501 5.5.4 write MAIL FROM:<address>");
            return;
        }
        if ((why = mail_params(l, params))) {
            free(path);
            reply(l, why);
            return;
        }
        l->from = path;
        l->state = LMTP_MAIL;
        reply(l, "250 2.1.0 sender ok");
    } else if (is_cmd(line, "RCPT")) {
        const char *params;
        char *path;
        if (l->state != LMTP_MAIL) {
            reply(l, "503 5.5.1 MAIL first");
            return;
        }
        if (strncasecmp(line + 4, " TO:", 4) || !(path = path_of(line + 8, &params))) {
            reply(l, "501 5.5.4 write RCPT TO:<address>");
            return;
        }
        while (*params == ' ')
            params++;
        if (*params) {
            free(path);
            reply(l, "555 5.5.4 RCPT takes no parameters here");
            return;
        }
        if (!*path || !strchr(path, '@')) {
            free(path);
            reply(l, "501 5.1.3 the recipient is no address");
            return;
        }
        if (l->rcpts.n >= l->lim.recipients) {
            free(path);
            reply(l, "452 4.5.3 too many recipients: the rest in another mail");
            return;
        }
        strlist_push_owned(&l->rcpts, path);
        reply(l, "250 2.1.5 recipient ok");
    } else if (is_cmd(line, "DATA")) {
        if (l->state != LMTP_MAIL || !l->rcpts.n) {
            reply(l, l->state == LMTP_MAIL ? "503 5.5.1 no valid recipients" : "503 5.5.1 MAIL and RCPT first");
            return;
        }
        if (l->full) {
            reply(l, "452 4.3.1 too many mails at once here: try again in a moment");
            return;
        }
        l->state = LMTP_DATA;
        l->data_at = 0;
        l->data_crlf = true; /* the DATA line's own CRLF */
        reply(l, "354 go ahead, end with a line of a single dot");
    } else if (is_cmd(line, "BDAT")) {
        reply(l, "502 5.5.1 BDAT is not offered: use DATA");
    } else {
        reply(l, "500 5.5.2 unknown command");
    }
}

static void data_add(struct lmtp *l, char c)
{
    l->total++;
    if (l->data.len < l->lim.message_bytes)
        strbuf_addch(&l->data, c);
}

/* One byte of the mail being read; true when it was the end: a line of a
 * single dot between two CRLFs, and only that (RFC 5321 4.1.1.4). A bare
 * LF ends a line of the mail as a CRLF would (as Postfix normalises it),
 * never the mail: a dot alone on such a line is kept as text. */
static bool data_byte(struct lmtp *l, char c)
{
    if (l->data_cr) {
        l->data_cr = false;
        if (c == '\n') {
            if (l->data_at == 1 && l->data_crlf)
                return true; /* CRLF . CRLF */
            if (l->data_at == 1)
                data_add(l, '.'); /* a dot alone after a bare LF: text */
            data_add(l, '\n');
            l->data_at = 0;
            l->data_crlf = true;
            return false;
        }
        /* A lone CR is part of the line. */
        data_add(l, '\r');
        l->data_at = 2;
    }
    if (c == '\r') {
        l->data_cr = true;
        return false;
    }
    if (c == '\n') {
        if (l->data_at == 1)
            data_add(l, '.'); /* ".\n": a bare LF ends no mail */
        data_add(l, '\n');
        l->data_at = 0;
        l->data_crlf = false;
        return false;
    }
    if (l->data_at == 0 && c == '.') {
        /* A leading dot is dropped (RFC 5321 4.5.2): a line of one is the end. */
        l->data_at = 1;
        return false;
    }
    l->data_at = 2;
    data_add(l, c);
    return false;
}

size_t lmtp_feed(struct lmtp *l, const char *buf, size_t n)
{
    size_t i = 0;
    while (i < n && l->state != LMTP_DELIVER && l->state != LMTP_CLOSED) {
        if (l->state == LMTP_DATA) {
            /* The text between line ends goes in one piece. */
            while (i < n) {
                char c = buf[i++];
                if (l->data_at == 2 && !l->data_cr && c != '\r' && c != '\n') {
                    size_t run = 1;
                    while (i < n && buf[i] != '\r' && buf[i] != '\n')
                        i++, run++;
                    l->total += run;
                    if (l->data.len < l->lim.message_bytes) {
                        size_t room = l->lim.message_bytes - l->data.len;
                        strbuf_add(&l->data, buf + i - run, run < room ? run : room);
                    }
                    continue;
                }
                if (data_byte(l, c)) {
                    l->state = LMTP_DELIVER;
                    l->mails++;
                    break;
                }
            }
            continue;
        }
        {
            char c = buf[i++];
            if (c == '\n') {
                if (l->line.len && l->line.buf[l->line.len - 1] == '\r')
                    strbuf_setlen(&l->line, l->line.len - 1);
                command(l, l->line.buf);
                strbuf_reset(&l->line);
                l->line_long = false;
            } else if (l->line.len < l->lim.line_bytes) {
                strbuf_addch(&l->line, c);
            } else {
                l->line_long = true;
            }
        }
    }
    return i;
}

void lmtp_deliver_done(struct lmtp *l, const int *codes, const char *const *texts)
{
    if (l->state != LMTP_DELIVER)
        return;
    for (size_t i = 0; i < l->rcpts.n; i++)
        strbuf_addf(&l->out, "%d %s\r\n", codes[i], texts[i]);
    reset(l);
    l->state = LMTP_READY;
}
