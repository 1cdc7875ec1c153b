/* strbuf.c: a growable, always NUL-terminated string buffer (git's strbuf). */
#include "lib/strbuf.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

char strbuf_empty[1];
char strbuf_sink[1];

#define SINK(sb) ((sb)->buf == strbuf_sink)

void strbuf_init(struct strbuf *sb)
{
    sb->buf = strbuf_empty;
    sb->len = 0;
    sb->alloc = 0;
}

void strbuf_init_for(struct strbuf *sb, const struct strbuf *dest)
{
    strbuf_init(sb);
    if (SINK(dest))
        sb->buf = strbuf_sink;
}

void strbuf_release(struct strbuf *sb)
{
    if (sb->alloc)
        free(sb->buf);
    strbuf_init(sb);
}

char *strbuf_detach(struct strbuf *sb)
{
    char *p = sb->alloc ? sb->buf : xstrdup("");
    strbuf_init(sb);
    return p;
}

void strbuf_reset(struct strbuf *sb)
{
    strbuf_setlen(sb, 0);
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    if (need <= sb->alloc)
        return;
    size_t n = sb->alloc ? sb->alloc : 64;
    while (n < need)
        n *= 2;
    if (sb->alloc) {
        sb->buf = xrealloc(sb->buf, n);
    } else {
        sb->buf = xmalloc(n);
        sb->buf[0] = '\0';
    }
    sb->alloc = n;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
    if (SINK(sb))
        return;
    strbuf_grow(sb, len);
    if (len) /* data may be NULL then, which memcpy may not be given */
        memcpy(sb->buf + sb->len, data, len);
    strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
    strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
    if (SINK(sb))
        return;
    strbuf_grow(sb, 1);
    sb->buf[sb->len++] = c;
    sb->buf[sb->len] = '\0';
}

void strbuf_addchars(struct strbuf *sb, char c, size_t n)
{
    if (SINK(sb))
        return;
    strbuf_grow(sb, n);
    memset(sb->buf + sb->len, c, n);
    strbuf_setlen(sb, sb->len + n);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
    va_list cp;
    int n;

    if (SINK(sb))
        return;
    va_copy(cp, ap);
    n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0)
        die("vsnprintf failed for format \"%s\"", fmt);
    strbuf_grow(sb, (size_t)n);
    vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void strbuf_prefixf(struct strbuf *sb, const char *fmt, ...)
{
    struct strbuf front = STRBUF_INIT;
    va_list ap;
    if (SINK(sb))
        return;
    va_start(ap, fmt);
    strbuf_vaddf(&front, fmt, ap);
    va_end(ap);
    strbuf_add(&front, sb->buf, sb->len);
    strbuf_release(sb);
    *sb = front;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vaddf(sb, fmt, ap);
    va_end(ap);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
    if (SINK(sb))
        return;
    if (!sb->alloc) {
        if (len)
            die("strbuf_setlen beyond an empty buffer");
        return;
    }
    sb->len = len;
    sb->buf[len] = '\0';
}

void strbuf_trim(struct strbuf *sb)
{
    size_t start = 0, end = sb->len;
    while (end > 0 && isspace((unsigned char)sb->buf[end - 1]))
        end--;
    while (start < end && isspace((unsigned char)sb->buf[start]))
        start++;
    if (!sb->alloc)
        return;
    memmove(sb->buf, sb->buf + start, end - start);
    strbuf_setlen(sb, end - start);
}

void strbuf_complete_line(struct strbuf *sb)
{
    if (sb->len && sb->buf[sb->len - 1] != '\n')
        strbuf_addch(sb, '\n');
}

/* No word alone on the last line of a wrapped text (sb from start, the
 * last line not ended yet): the last word of the line above goes down
 * with it, when that line keeps two words or more and both fit. */
/* A mark French writes after a space, alone as a word (";", ":", "!",
 * "?", "»"). */
static bool glued_mark(const char *q)
{
    size_t n = strcspn(q, " \n");
    return (n == 1 && strchr(";:!?", q[0])) || (n == 2 && (unsigned char)q[0] == 0xc2 && (unsigned char)q[1] == 0xbb);
}

/* The word [w, end) is an opening guillemet alone: it goes with the next. */
static bool glued_opening(const char *w, const char *end)
{
    return end - w == 2 && (unsigned char)w[0] == 0xc2 && (unsigned char)w[1] == 0xab && end[1] && end[1] != ' ';
}

static void widow(struct strbuf *sb, size_t start, int indent, int width)
{
    char *base = sb->buf + start, *end = sb->buf + sb->len, *nl = NULL, *above, *word, *cut = NULL;
    int words = 1;
    for (char *q = base; q < end; q++)
        if (*q == '\n')
            nl = q;
    if (!nl)
        return;
    for (word = nl + 1; word < end && *word == ' '; word++)
        ;
    if (word == end || memchr(word, ' ', (size_t)(end - word)))
        return;
    for (above = nl; above > base && above[-1] != '\n'; above--)
        ;
    while (above < nl && *above == ' ')
        above++;
    for (char *q = above; q < nl; q++)
        if (*q == ' ' && q + 1 < nl && q[1] != ' ') {
            words++;
            /* Never between a word and its French mark. */
            if (!glued_mark(q + 1) && !(q - above >= 2 && (unsigned char)q[-2] == 0xc2 && (unsigned char)q[-1] == 0xab))
                cut = q;
        }
    if (words < 3 || !cut ||
        (size_t)indent + str_columns(cut + 1, (size_t)(nl - cut - 1)) + 1 + str_columns(word, (size_t)(end - word)) >
            (size_t)width)
        return;
    {
        char *moved = xstrndup(cut + 1, (size_t)(nl - cut - 1)), *last = xstrndup(word, (size_t)(end - word));
        strbuf_setlen(sb, (size_t)(cut - sb->buf));
        while (sb->len > start && sb->buf[sb->len - 1] == ' ')
            strbuf_setlen(sb, sb->len - 1);
        strbuf_addch(sb, '\n');
        strbuf_addchars(sb, ' ', (size_t)indent);
        strbuf_addf(sb, "%s %s", moved, last);
        free(moved);
        free(last);
    }
}

static void add_wrapped_open(struct strbuf *sb, const char *text, int indent, int width)
{
    int col = 0;
    const char *p = text;

    while (*p) {
        const char *gap = p, *w;
        int spaces, len;
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        spaces = (int)(p - gap);
        w = p;
        while (*p && *p != ' ')
            p++;
        /* French spaces its high punctuation: "jouer ; puis", « cite »;
         * the mark stays on the line of the word it follows (and an
         * opening « with the word after it). */
        while (*p == ' ' && (glued_mark(p + 1) || glued_opening(w, p)))
            for (p++; *p && *p != ' '; p++)
                ;
        len = (int)(p - w);
        /* Break before a word that would pass the width (in columns:
         * UTF-8 characters); keep the text's own spacing otherwise. */
        if (col > indent && col + spaces + (int)str_columns(w, (size_t)len) > width) {
            strbuf_addch(sb, '\n');
            strbuf_addchars(sb, ' ', (size_t)indent);
            col = indent;
        } else {
            strbuf_add(sb, gap, (size_t)spaces);
            col += spaces;
        }
        strbuf_add(sb, w, (size_t)len);
        col += (int)str_columns(w, (size_t)len);
    }
}

size_t str_columns(const char *s, size_t n)
{
    size_t cols = 0;
    for (size_t i = 0; i < n && s[i]; i++)
        cols += ((unsigned char)s[i] & 0xc0) != 0x80;
    return cols;
}

void strbuf_add_padded(struct strbuf *sb, const char *s, int width)
{
    int cols = (int)str_columns(s, strlen(s));
    strbuf_addstr(sb, s);
    for (; cols < width; cols++)
        strbuf_addch(sb, ' ');
}

void strbuf_add_wrapped(struct strbuf *sb, const char *text, int indent, int width)
{
    if (SINK(sb))
        return;
    add_wrapped_open(sb, text, indent, width);
    strbuf_addch(sb, '\n');
}

void strbuf_add_flowed(struct strbuf *sb, const char *text, int indent, int width)
{
    size_t start = sb->len;
    if (SINK(sb))
        return;
    add_wrapped_open(sb, text, indent, width);
    widow(sb, start, indent, width);
    strbuf_addch(sb, '\n');
}
