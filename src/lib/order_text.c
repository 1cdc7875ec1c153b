/* order_text.c: cutting the text a player sent into order lines. */
#include "lib/order_text.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <string.h>

static bool is_signature(const char *line, size_t len)
{
    /* "-- " is the standard separator; many clients strip the space. */
    while (len && (line[len - 1] == '\r'))
        len--;
    return (len == 3 && memcmp(line, "-- ", 3) == 0) || (len == 2 && memcmp(line, "--", 2) == 0);
}

void order_lines(const char *text, struct strlist *out)
{
    const char *p = text;

    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        struct strbuf line = STRBUF_INIT;
        bool space = false;

        if (is_signature(p, len))
            break;
        for (size_t i = 0; i < len; i++) {
            unsigned char c = (unsigned char)p[i];
            if (isspace(c) || c == 0) {
                space = line.len > 0;
                continue;
            }
            if (line.len >= ORDER_LINE_MAX)
                break;
            if (space)
                strbuf_addch(&line, ' ');
            space = false;
            strbuf_addch(&line, (char)c);
        }
        if (line.len && line.buf[0] != '>')
            strlist_push(out, line.buf);
        strbuf_release(&line);
        p += len;
        if (*p == '\n')
            p++;
    }
}
