/* template.c: a small logic-less template engine over cJSON data for every mail and reply ngoma writes. */
#include "lib/template.h"
#include "lib/strlist.h"
#include "lib/catalog.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DEPTH 32

struct render {
    const cJSON *stack[MAX_DEPTH];
    int depth;
    bool html;
    const char *lang; /* the reader's: {{%key}} is her catalogue's phrase */
    bool fit;         /* a mail's text: a phrase beginning a line is kept within 72 columns */
    int partials; /* nesting of {{>name}}, bounded against loops */
    struct strbuf *out;
    struct strbuf *err;
    const char *base; /* the whole template, for line numbers */
};

enum tag_type { TAG_VAR, TAG_RAW, TAG_SECTION, TAG_INVERTED, TAG_CLOSE, TAG_COMMENT, TAG_PARTIAL, TAG_PHRASE };

struct tag {
    const char *start, *end;        /* "{{" .. after "}}" */
    const char *cut_start, *cut_end; /* what the tag takes out of the text */
    enum tag_type type;
    char name[128];
};

static int line_of(const struct render *r, const char *p)
{
    int line = 1;
    for (const char *q = r->base; q < p && *q; q++)
        line += *q == '\n';
    return line;
}

static int fail(struct render *r, const char *at, const char *msg)
{
    strbuf_addf(r->err, "template line %d: %s", line_of(r, at), msg);
    return -1;
}

/* Finds the next tag at or after p, before end; 0 when none, -1 on a bad tag. */
static int next_tag(struct render *r, const char *begin, const char *p, const char *end, struct tag *t)
{
    const char *open = NULL, *close, *n, *ne;
    bool triple;

    for (const char *q = p; q + 1 < end; q++)
        if (q[0] == '{' && q[1] == '{') {
            open = q;
            break;
        }
    if (!open)
        return 0;
    triple = open + 2 < end && open[2] == '{';
    n = open + (triple ? 3 : 2);
    close = NULL;
    for (const char *q = n; q + 1 < end; q++)
        if (q[0] == '}' && q[1] == '}') {
            close = q;
            break;
        }
    if (!close)
        return fail(r, open, "a tag is not closed with }}");
    t->start = open;
    t->end = close + 2;
    if (triple) {
        if (t->end >= end || *t->end != '}')
            return fail(r, open, "{{{ must be closed with }}}");
        t->end++;
        t->type = TAG_RAW;
    } else {
        switch (*n) {
        case '#': t->type = TAG_SECTION; n++; break;
        case '^': t->type = TAG_INVERTED; n++; break;
        case '/': t->type = TAG_CLOSE; n++; break;
        case '!': t->type = TAG_COMMENT; n++; break;
        case '&': t->type = TAG_RAW; n++; break;
        case '>': t->type = TAG_PARTIAL; n++; break;
        case '%': t->type = TAG_PHRASE; n++; break;
        default: t->type = TAG_VAR; break;
        }
    }
    while (n < close && (*n == ' ' || *n == '\t'))
        n++;
    ne = close;
    while (ne > n && (ne[-1] == ' ' || ne[-1] == '\t'))
        ne--;
    if (t->type != TAG_COMMENT) {
        size_t len = (size_t)(ne - n);
        if (len == 0 || len >= sizeof(t->name))
            return fail(r, open, "a tag needs a name of 1 to 127 characters");
        for (const char *c = n; c < ne; c++)
            if (*c == '{' || *c == '}' || *c == '\n')
                return fail(r, open, "a tag name may not hold braces or line breaks");
        memcpy(t->name, n, len);
        t->name[len] = '\0';
    } else {
        t->name[0] = '\0';
    }
    t->cut_start = t->start;
    t->cut_end = t->end;
    /* A block tag alone on its line takes the whole line. */
    if (t->type == TAG_SECTION || t->type == TAG_INVERTED || t->type == TAG_CLOSE || t->type == TAG_COMMENT) {
        const char *ls = t->start, *le = t->end;
        while (ls > begin && (ls[-1] == ' ' || ls[-1] == '\t'))
            ls--;
        bool at_line_start = ls == r->base || ls[-1] == '\n';
        while (le < end && (*le == ' ' || *le == '\t' || *le == '\r'))
            le++;
        if (at_line_start && (le == end || *le == '\n')) {
            t->cut_start = ls;
            t->cut_end = le < end ? le + 1 : le;
        }
    }
    return 1;
}

static const cJSON *lookup(const struct render *r, const char *name)
{
    const cJSON *v = NULL;
    char buf[128], *seg, *save = NULL;

    if (strcmp(name, ".") == 0)
        return r->depth ? r->stack[r->depth - 1] : NULL;
    snprintf(buf, sizeof(buf), "%s", name);
    seg = strtok_r(buf, ".", &save);
    if (!seg)
        return NULL;
    for (int i = r->depth - 1; i >= 0 && !v; i--)
        if (cJSON_IsObject(r->stack[i]))
            v = cJSON_GetObjectItemCaseSensitive(r->stack[i], seg);
    while (v && (seg = strtok_r(NULL, ".", &save)))
        v = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, seg) : NULL;
    return v;
}

static bool truthy(const cJSON *v)
{
    if (!v || cJSON_IsFalse(v) || cJSON_IsNull(v))
        return false;
    if (cJSON_IsString(v))
        return v->valuestring && *v->valuestring;
    if (cJSON_IsNumber(v))
        return v->valuedouble != 0;
    if (cJSON_IsArray(v))
        return cJSON_GetArraySize(v) > 0;
    return true;
}

static void emit_value(struct render *r, const cJSON *v, bool escape)
{
    char num[64];
    const char *s = "";

    if (cJSON_IsString(v))
        s = v->valuestring ? v->valuestring : "";
    else if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (isfinite(d) && d == floor(d) && fabs(d) < 1e15)
            snprintf(num, sizeof(num), "%.0f", d);
        else
            snprintf(num, sizeof(num), "%g", d);
        s = num;
    } else if (cJSON_IsBool(v))
        s = cJSON_IsTrue(v) ? "yes" : "no";
    if (!escape) {
        strbuf_addstr(r->out, s);
        return;
    }
    for (; *s; s++) {
        switch (*s) {
        case '&': strbuf_addstr(r->out, "&amp;"); break;
        case '<': strbuf_addstr(r->out, "&lt;"); break;
        case '>': strbuf_addstr(r->out, "&gt;"); break;
        case '"': strbuf_addstr(r->out, "&quot;"); break;
        case '\'': strbuf_addstr(r->out, "&#39;"); break;
        default: strbuf_addch(r->out, *s);
        }
    }
}

static int render_range(struct render *r, const char *begin, const char *end);

/* Finds the {{/name}} that closes the section opened by `open`. */
static int find_close(struct render *r, const struct tag *open, const char *end, struct tag *close)
{
    int level = 1;
    const char *p = open->end;
    struct tag t;
    int rc;

    while ((rc = next_tag(r, open->cut_end, p, end, &t)) > 0) {
        if ((t.type == TAG_SECTION || t.type == TAG_INVERTED) && strcmp(t.name, open->name) == 0)
            level++;
        else if (t.type == TAG_CLOSE && strcmp(t.name, open->name) == 0 && --level == 0) {
            *close = t;
            return 0;
        }
        p = t.end;
    }
    if (rc < 0)
        return -1;
    strbuf_addf(r->err, "template line %d: {{#%s}} is never closed with {{/%s}}", line_of(r, open->start),
                open->name, open->name);
    return -1;
}

static int push(struct render *r, const char *at, const cJSON *v)
{
    if (r->depth == MAX_DEPTH)
        return fail(r, at, "sections nest too deeply");
    r->stack[r->depth++] = v;
    return 0;
}

static int render_section(struct render *r, const struct tag *open, const char *end, const char **resume)
{
    struct tag close;
    const cJSON *v;
    int rc = 0;

    if (find_close(r, open, end, &close))
        return -1;
    *resume = close.cut_end;
    v = lookup(r, open->name);
    if (open->type == TAG_INVERTED)
        return truthy(v) ? 0 : render_range(r, open->cut_end, close.cut_start);
    if (!truthy(v))
        return 0;
    if (cJSON_IsArray(v)) {
        const cJSON *item;
        cJSON_ArrayForEach(item, v) {
            if (push(r, open->start, item))
                return -1;
            rc = render_range(r, open->cut_end, close.cut_start);
            r->depth--;
            if (rc)
                return rc;
        }
        return 0;
    }
    if (push(r, open->start, v))
        return -1;
    rc = render_range(r, open->cut_end, close.cut_start);
    r->depth--;
    return rc;
}

/* Template files read once a process, and again only when they change on
 * disk: a batch of mails renders the same few thousands of times. */
#define KEPT_FILES 48
static struct kept {
    char *path;
    char *text;
    struct timespec mtime;
    off_t size;
} kept[KEPT_FILES];

/* A text replaced in the cache may still be rendering (a partial that
 * changed on disk while its includer renders): it is kept, never freed. */
static void retire(char *text)
{
    static char **retired;
    static size_t n, alloc;
    if (!text)
        return;
    if (n == alloc) {
        alloc = alloc ? 2 * alloc : 8;
        retired = xrealloc(retired, alloc * sizeof(char *));
    }
    retired[n++] = text;
}

/* The text of the template file at path, owned by the cache; NULL and why. */
static const char *template_file(const char *path, struct strbuf *err)
{
    struct stat sb;
    int slot = -1;
    if (stat(path, &sb) == 0)
        for (int i = 0; i < KEPT_FILES; i++) {
            if (kept[i].path && str_eq(kept[i].path, path)) {
                if (kept[i].size == sb.st_size && kept[i].mtime.tv_sec == sb.st_mtim.tv_sec &&
                    kept[i].mtime.tv_nsec == sb.st_mtim.tv_nsec)
                    return kept[i].text;
                slot = i;
                break;
            }
            if (!kept[i].path && slot < 0)
                slot = i;
        }
    char *text = file_read(path, FILE_MAX_TEXT, err);
    if (!text)
        return NULL;
    if (slot < 0)
        slot = 0; /* full: the first goes */
    free(kept[slot].path);
    retire(kept[slot].text);
    kept[slot] = (struct kept){ xstrdup(path), text, sb.st_mtim, sb.st_size };
    return text;
}

/*
 * The path of template name for a reader of lang: her language's own text
 * where the templates have one (templates/lang/fr/rules/kalimambo.txt, a
 * text too long for phrases: the rules summaries), else the one text of
 * every language, its words from the catalogues (owned).
 */
static char *template_path(const char *name, const char *lang)
{
    struct strbuf sb = STRBUF_INIT;
    struct stat st;
    const char *code = lang_code(lang);
    if (!str_eq(code, LANG_ENGLISH)) {
        strbuf_addf(&sb, "%s/lang/%s/%s", template_dir(), code, name);
        if (stat(sb.buf, &st) == 0 && S_ISREG(st.st_mode))
            return strbuf_detach(&sb);
        strbuf_reset(&sb);
    }
    strbuf_addf(&sb, "%s/%s", template_dir(), name);
    return strbuf_detach(&sb);
}

static int render_partial(struct render *r, const struct tag *t)
{
    struct strbuf err = STRBUF_INIT;
    const char *save_base = r->base, *text;
    char *path;
    int rc;

    if (strchr(t->name, '/') || t->name[0] == '.')
        return fail(r, t->start, "a partial must name a file of the templates directory");
    if (r->partials >= 8)
        return fail(r, t->start, "partials nest too deeply");
    path = template_path(t->name, r->lang);
    text = template_file(path, &err);
    free(path);
    if (!text) {
        rc = fail(r, t->start, err.buf);
        strbuf_release(&err);
        return rc;
    }
    r->partials++;
    r->base = text;
    rc = render_range(r, text, text + strlen(text));
    r->base = save_base;
    r->partials--;
    strbuf_release(&err);
    return rc;
}

/* Wraps each line of out from at on that is longer than 72 columns (its
 * words flowed, the continuation flush); lines within 72 stay as they
 * are, and so does a line that does not end where out ends unless it is
 * whole. */
static void fit_lines(struct strbuf *out, size_t at)
{
    char *tail;
    bool too_long = false;
    size_t cols = 0;
    for (size_t i = at; i < out->len && !too_long; i++) {
        if (out->buf[i] == '\n')
            cols = 0;
        else
            too_long = (cols += ((unsigned char)out->buf[i] & 0xc0) != 0x80) > 72;
    }
    if (!too_long)
        return;
    tail = xstrdup(out->buf + at);
    strbuf_setlen(out, at);
    for (const char *p = tail; *p;) {
        size_t n = strcspn(p, "\n");
        char *line = xstrndup(p, n);
        if (str_columns(line, n) > 72) {
            strbuf_add_flowed(out, line, 0, 72);
            if (!p[n])
                strbuf_setlen(out, out->len - 1); /* the text had no newline there */
        } else {
            strbuf_add(out, line, n);
            if (p[n])
                strbuf_addch(out, '\n');
        }
        free(line);
        p += n + (p[n] == '\n');
    }
    free(tail);
}

/* {{%key}} or {{%key count}}: the phrase key of the reader's catalogue,
 * itself a template over the same data; a phrase with plural forms takes
 * the one for the number named count (n when none is named). */
static int render_phrase(struct render *r, const struct tag *t)
{
    char key[sizeof(t->name)];
    const char *count = "n", *sp = strchr(t->name, ' '), *save_base = r->base, *text;
    const cJSON *v;
    long n = 0;
    int rc;
    snprintf(key, sizeof(key), "%s", t->name);
    if (sp) {
        key[sp - t->name] = '\0';
        for (count = sp; *count == ' '; count++)
            ;
    }
    v = lookup(r, count);
    if (cJSON_IsNumber(v))
        n = v->valuedouble >= -1e15 && v->valuedouble <= 1e15 ? (long)v->valuedouble : 0;
    else if (cJSON_IsString(v) && v->valuestring)
        n = strtol(v->valuestring, NULL, 10);
    else if (cJSON_IsArray(v))
        n = cJSON_GetArraySize(v);
    text = catalog_text(r->lang, key, n);
    if (!text) {
        struct strbuf why = STRBUF_INIT;
        strbuf_addf(&why, "no catalogue has the phrase %s", key);
        rc = fail(r, t->start, why.buf);
        strbuf_release(&why);
        return rc;
    }
    if (r->partials >= 8)
        return fail(r, t->start, "phrases and partials nest too deeply");
    r->partials++;
    r->base = text;
    {
        size_t at = r->out->len;
        rc = render_range(r, text, text + strlen(text));
        /* A phrase that begins a line of a mail's text keeps it within 72
         * columns: a language's sentence is longer than English's (a
         * date written out, a long name of a phase). */
        if (!rc && r->fit && (at == 0 || r->out->buf[at - 1] == '\n'))
            fit_lines(r->out, at);
    }
    r->base = save_base;
    r->partials--;
    return rc;
}

static int render_range(struct render *r, const char *begin, const char *end)
{
    const char *p = begin;
    struct tag t;
    int rc;

    while ((rc = next_tag(r, begin, p, end, &t)) > 0) {
        strbuf_add(r->out, p, (size_t)(t.cut_start - p));
        p = t.cut_end;
        switch (t.type) {
        case TAG_VAR:
        case TAG_RAW:
            emit_value(r, lookup(r, t.name), t.type == TAG_VAR && r->html);
            break;
        case TAG_SECTION:
        case TAG_INVERTED:
            if (render_section(r, &t, end, &p))
                return -1;
            break;
        case TAG_CLOSE:
            return fail(r, t.start, "{{/...}} closes no open section");
        case TAG_COMMENT:
            break;
        case TAG_PARTIAL:
            if (render_partial(r, &t))
                return -1;
            break;
        case TAG_PHRASE:
            if (render_phrase(r, &t))
                return -1;
            break;
        }
    }
    if (rc < 0)
        return -1;
    strbuf_add(r->out, p, (size_t)(end - p));
    return 0;
}

static int render_text(const char *tmpl, const cJSON *data, const char *lang, bool html, bool fit, struct strbuf *out,
                       struct strbuf *err)
{
    struct render r = { .html = html, .lang = lang_code(lang), .fit = fit, .out = out, .err = err, .base = tmpl };
    size_t len = out->len;
    r.stack[r.depth++] = data;
    if (render_range(&r, tmpl, tmpl + strlen(tmpl))) {
        strbuf_setlen(out, len);
        return -1;
    }
    return 0;
}

int template_render(const char *tmpl, const cJSON *data, const char *lang, bool html, struct strbuf *out,
                    struct strbuf *err)
{
    return render_text(tmpl, data, lang, html, false, out, err);
}

int template_phrase(const char *key, const cJSON *data, const char *lang, struct strbuf *out, struct strbuf *err)
{
    struct strbuf tag = STRBUF_INIT, why = STRBUF_INIT;
    int rc;
    strbuf_addf(&tag, "{{%%%s}}", key);
    rc = template_render(tag.buf, data, lang, false, out, err ? err : &why);
    if (rc && !err)
        error("%s", why.buf);
    strbuf_release(&tag);
    strbuf_release(&why);
    return rc;
}

void phrase_list_and(struct strbuf *out, const char *lang, const struct strlist *items)
{
    struct strbuf first = STRBUF_INIT;
    if (items->n < 2) {
        strbuf_addstr(out, items->n ? items->v[0] : "");
        return;
    }
    for (size_t i = 0; i + 1 < items->n; i++) {
        if (i)
            strbuf_addstr(&first, ", ");
        strbuf_addstr(&first, items->v[i]);
    }
    phrase_add(out, lang, "list.and", "first", first.buf, "last", items->v[items->n - 1], NULL);
    strbuf_release(&first);
}

int phrase_addv(struct strbuf *out, const char *lang, const char *key, va_list ap)
{
    cJSON *d = cJSON_CreateObject();
    const char *name, *value;
    int rc;
    while ((name = va_arg(ap, const char *))) {
        value = va_arg(ap, const char *);
        cJSON_AddStringToObject(d, name, value ? value : "");
    }
    rc = template_phrase(key, d, lang, out, NULL);
    cJSON_Delete(d);
    return rc;
}

int phrase_add(struct strbuf *out, const char *lang, const char *key, ...)
{
    va_list ap;
    int rc;
    va_start(ap, key);
    rc = phrase_addv(out, lang, key, ap);
    va_end(ap);
    return rc;
}

int template_render_file(const char *name, const cJSON *data, const char *lang, struct strbuf *out, struct strbuf *err)
{
    char *path = template_path(name, lang);
    const char *text;
    size_t n = strlen(name);
    bool html = n > 5 && strcmp(name + n - 5, ".html") == 0;
    int rc;

    text = template_file(path, err);
    if (!text) {
        free(path);
        return -1;
    }
    rc = render_text(text, data, lang, html, !html, out, err);
    if (rc)
        strbuf_addf(err, " (in %s)", path);
    free(path);
    return rc;
}
