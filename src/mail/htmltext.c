/* htmltext.c: turning an HTML mail body into plain text good enough to read orders from. */
#include "mail/htmltext.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct conv {
    struct strbuf out;
    int quote;        /* blockquote depth (one "> " marks a quoted line, whatever the depth) */
    bool line_start;
    bool space;       /* white space seen since the last word */
};

static void newline(struct conv *c)
{
    strbuf_addch(&c->out, '\n');
    c->line_start = true;
    c->space = false;
}

static void emit(struct conv *c, const char *s, size_t n)
{
    if (c->line_start) {
        /* One marker, not one a level: the order reader skips any line
         * that starts with '>', and the text stays as long as the input. */
        if (c->quote > 0)
            strbuf_addstr(&c->out, "> ");
        c->line_start = false;
    } else if (c->space) {
        strbuf_addch(&c->out, ' ');
    }
    c->space = false;
    strbuf_add(&c->out, s, n);
}

static void add_utf8(struct conv *c, unsigned long cp)
{
    char b[4];
    size_t n;
    if (cp == 0xa0)
        cp = ' ';
    if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        cp = '?';
    if (cp < 0x80) {
        b[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xc0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xe0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        b[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        b[0] = (char)(0xf0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        b[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    if (cp == ' ') {
        c->space = !c->line_start;
        return;
    }
    emit(c, b, n);
}

/* Decodes the entity at p (after '&'); returns how much it used. */
static size_t entity(struct conv *c, const char *p)
{
    static const struct {
        const char *name;
        unsigned long cp;
    } names[] = {
        { "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' }, { "apos", '\'' }, { "nbsp", 0xa0 },
        { "ndash", 0x2013 }, { "mdash", 0x2014 }, { "hellip", 0x2026 }, { "rsquo", 0x2019 }, { "lsquo", 0x2018 },
        { "ldquo", 0x201c }, { "rdquo", 0x201d },
    };
    /* An entity is short: look for its ';' in the next few bytes only, so
     * that a text of '&' costs one pass, not one pass a character. */
    const char *semi = NULL;
    for (int i = 0; i <= 10 && p[i]; i++)
        if (p[i] == ';') {
            semi = p + i;
            break;
        }
    if (!semi) {
        emit(c, "&", 1);
        return 0;
    }
    if (*p == '#') {
        unsigned long cp = p[1] == 'x' || p[1] == 'X' ? strtoul(p + 2, NULL, 16) : strtoul(p + 1, NULL, 10);
        add_utf8(c, cp);
        return (size_t)(semi - p) + 1;
    }
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if ((size_t)(semi - p) == strlen(names[i].name) && strncmp(p, names[i].name, strlen(names[i].name)) == 0) {
            add_utf8(c, names[i].cp);
            return (size_t)(semi - p) + 1;
        }
    emit(c, "&", 1);
    return 0;
}

static bool tag_is(const char *name, size_t len, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == len && strncasecmp(name, *list, len) == 0)
            return true;
    return false;
}

char *html_to_text(const char *html)
{
    static const char *const blocks[] = { "p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6",
                                          "pre", "table", "ul", "ol", "hr", NULL };
    static const char *const skipped[] = { "style", "script", "head", "title", NULL };
    struct conv c = { STRBUF_INIT, 0, true, false };
    const char *p = html;

    while (*p) {
        if (*p == '<') {
            const char *end = strchr(p, '>'), *n = p + 1;
            bool closing = false;
            size_t len;
            if (!end)
                break;
            if (strncmp(p, "<!--", 4) == 0) {
                const char *e = strstr(p + 4, "-->");
                p = e ? e + 3 : p + strlen(p);
                continue;
            }
            if (*n == '/') {
                closing = true;
                n++;
            }
            len = strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
            if (!closing && tag_is(n, len, skipped)) {
                /* Skip to the matching close tag. */
                char close[16];
                snprintf(close, sizeof(close), "</%.*s", (int)len, n);
                const char *e = str_casestr(end, close);
                p = e ? e : p + strlen(p);
                continue;
            }
            if (len == 10 && strncasecmp(n, "blockquote", 10) == 0) {
                if (!c.line_start)
                    newline(&c);
                c.quote += closing ? (c.quote > 0 ? -1 : 0) : (c.quote < 1000 ? 1 : 0);
            } else if (tag_is(n, len, blocks) && !c.line_start) {
                newline(&c);
            } else if (tag_is(n, len, blocks) && len == 2 && strncasecmp(n, "br", 2) == 0) {
                newline(&c);
            }
            /* A client's quote of the previous message begins here. */
            if (!closing && len == 3 && strncasecmp(n, "div", 3) == 0) {
                const char *attrs = n + len;
                size_t alen = (size_t)(end - attrs);
                char *a = xstrndup(attrs, alen);
                if (str_casestr(a, "gmail_quote") || str_casestr(a, "divRplyFwdMsg") ||
                    str_casestr(a, "moz-cite-prefix") || str_casestr(a, "AppleOriginalContents"))
                    c.quote = c.quote < 1000 ? c.quote + 1 : c.quote; /* never closed: the rest is the quote */
                free(a);
            }
            p = end + 1;
        } else if (*p == '&') {
            p++;
            p += entity(&c, p);
        } else if (isspace((unsigned char)*p)) {
            c.space = !c.line_start;
            p++;
        } else {
            const char *s = p;
            while (*p && *p != '<' && *p != '&' && !isspace((unsigned char)*p))
                p++;
            emit(&c, s, (size_t)(p - s));
        }
    }
    if (!c.line_start)
        newline(&c);
    return strbuf_detach(&c.out);
}
