/* cmdtab.c: the one command-table mechanism of every command language: lookup, arity, lists, HELP and "did you mean". */
#include "lib/cmdtab.h"
#include "lib/order_text.h"

#include <assert.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

const struct cmdtab_row *cmdtab_row(struct cmdtab t, size_t i)
{
    const struct cmdtab_row *r;
    assert(t.stride >= sizeof(struct cmdtab_row));
    for (size_t k = 0;; k++) {
        r = (const struct cmdtab_row *)((const char *)t.rows + k * t.stride);
        if (!r->name)
            return NULL;
        if (k == i)
            return r;
    }
}

/* Whether line begins with the name (any case), then ends or a space. */
static bool begins_with(const char *line, const char *name)
{
    size_t n = strlen(name);
    return strncasecmp(line, name, n) == 0 && (line[n] == '\0' || line[n] == ' ' || line[n] == '\t');
}

const struct cmdtab_row *cmdtab_find(struct cmdtab t, const char *line)
{
    const struct cmdtab_row *r, *best = NULL;
    while (*line == ' ' || *line == '\t')
        line++;
    /* The longest name that fits: "no draw" before a row "no". */
    for (size_t i = 0; (r = cmdtab_row(t, i)); i++)
        if (begins_with(line, r->name) && (!best || strlen(r->name) > strlen(best->name)))
            best = r;
    return best;
}

const struct cmdtab_row *cmdtab_nearest(struct cmdtab t, const char *word)
{
    const char *names[64];
    size_t n = 0;
    const struct cmdtab_row *r;
    int k;
    for (size_t i = 0; (r = cmdtab_row(t, i)) && n < 64; i++)
        names[n++] = r->name;
    k = order_nearest_word(word, names, n);
    return k >= 0 ? cmdtab_row(t, (size_t)k) : NULL;
}

int cmdtab_args(const struct cmdtab_row *r, const char *line)
{
    int n = 0;
    while (*line == ' ' || *line == '\t')
        line++;
    line += strlen(r->name);
    for (;;) {
        while (*line == ' ' || *line == '\t')
            line++;
        if (!*line)
            return n;
        n++;
        line += strcspn(line, " \t");
    }
}

int cmdtab_arity(const struct cmdtab_row *r, int nargs, const char *noun, struct strbuf *err)
{
    if (nargs < r->min_args) {
        strbuf_addf(err, "needs %d %s%s, got %d", r->min_args, noun, r->min_args == 1 ? "" : "s", nargs);
        return 1;
    }
    if (r->max_args != CMDTAB_ANY && nargs > r->max_args) {
        if (r->max_args == 0)
            strbuf_addf(err, "takes no %ss, got %d", noun, nargs);
        else
            strbuf_addf(err, "takes at most %d %s%s, got %d", r->max_args, noun, r->max_args == 1 ? "" : "s", nargs);
        return 1;
    }
    return 0;
}

void cmdtab_add_loud(struct strbuf *out, const char *name)
{
    for (const char *p = name; *p; p++)
        strbuf_addch(out, (char)toupper((unsigned char)*p));
}

void cmdtab_names(struct cmdtab t, struct strbuf *out)
{
    const struct cmdtab_row *r;
    for (size_t i = 0; (r = cmdtab_row(t, i)); i++) {
        if (i)
            strbuf_addstr(out, ", ");
        cmdtab_add_loud(out, r->name);
    }
}

