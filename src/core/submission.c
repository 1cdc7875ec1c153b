/* submission.c: what became of one order text: its lines, each with its outcome and answer. */
#include "core/submission.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

void submission_release(struct submission *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->lines[i].text);
        free(s->lines[i].written);
        free(s->lines[i].canonical);
        strbuf_release(&s->lines[i].body);
    }
    free(s->lines);
    memset(s, 0, sizeof(*s));
}

struct line_result *submission_line(struct submission *s, const char *text)
{
    struct line_result *l;
    if (s->n == s->alloc) {
        s->alloc = s->alloc ? 2 * s->alloc : 8;
        s->lines = xrealloc(s->lines, s->alloc * sizeof(*s->lines));
    }
    l = &s->lines[s->n++];
    memset(l, 0, sizeof(*l));
    l->text = xstrdup(text);
    strbuf_init(&l->body);
    return l;
}
