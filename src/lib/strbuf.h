/* strbuf.h: a growable, always NUL-terminated string buffer (git's strbuf). */
#ifndef NGOMA_STRBUF_H
#define NGOMA_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
    char *buf;
    size_t len;
    size_t alloc;
};

extern char strbuf_empty[];
#define STRBUF_INIT { strbuf_empty, 0, 0 }
/* A sink: a buffer that drops what it is given and always reads "". A
 * bot's look-ahead plays thousands of steps whose logs nobody reads; a
 * sink spares their formatting. Growing one by hand (strbuf_grow) makes
 * it an ordinary buffer. */
extern char strbuf_sink[];
#define STRBUF_SINK { strbuf_sink, 0, 0 }

void strbuf_init(struct strbuf *sb);
/* An empty buffer for words bound for dest: a sink when dest is one. */
void strbuf_init_for(struct strbuf *sb, const struct strbuf *dest);
void strbuf_release(struct strbuf *sb);
/* Hands the buffer to the caller (who frees it) and resets sb. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Puts formatted text in front of what sb holds. */
void strbuf_prefixf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends c n times. */
void strbuf_addchars(struct strbuf *sb, char c, size_t n);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_trim(struct strbuf *sb);
/* Appends text as words wrapped into lines of at most width columns (a
 * longer word stands alone), continuation lines indented by indent spaces;
 * ends with a newline. */
void strbuf_add_wrapped(struct strbuf *sb, const char *text, int indent, int width);
/* The columns the first n bytes of s take: its UTF-8 characters. */
size_t str_columns(const char *s, size_t n);
/* s, then spaces up to width columns (UTF-8 characters, not bytes), as
 * printf's %-Ns pads ASCII; nothing more when s is as wide already. */
void strbuf_add_padded(struct strbuf *sb, const char *s, int width);
/* The same for what people read in a mail or an answer: no word left
 * alone on the last line (the one before goes down with it). Game logs
 * keep strbuf_add_wrapped: their words are part of every record. */
void strbuf_add_flowed(struct strbuf *sb, const char *text, int indent, int width);
/* Makes sure a non-empty buffer ends with a newline. */
void strbuf_complete_line(struct strbuf *sb);

#endif
