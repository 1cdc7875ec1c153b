/* mailhtml.c: the HTML part of a mail, built for a phone from its plain text: paragraphs that wrap, the board's picture, the orders as mailto: links. */
#include "mail/mailhtml.h"
#include "lib/catalog.h"
#include "lib/template.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The narrowest width a mail's text is wrapped to (game logs at 70, the
 * rest at 72): a line was wrapped when the next word would not fit. */
#define WRAPPED_WIDTH 70
/* A line of a template wrapped by hand is at least this long. */
#define HAND_WRAPPED 50
/* Indents deeper than this many columns are shown as this deep. */
#define INDENT_MAX 8

char *mail_mailto(const char *to, const char *subject, const char *body)
{
    struct strbuf sb = STRBUF_INIT;
    const char *parts[2] = { subject, body }, *names[2] = { "subject", "body" };
    strbuf_addstr(&sb, "mailto:");
    for (const char *p = to; *p; p++) {
        unsigned char c = (unsigned char)*p;
        /* An address keeps its letters, + and @; the rest is encoded. */
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("@+-._", c))
            strbuf_addch(&sb, (char)c);
        else
            strbuf_addf(&sb, "%%%02X", c);
    }
    for (int i = 0, n = 0; i < 2; i++) {
        if (!parts[i] || !*parts[i])
            continue;
        strbuf_addf(&sb, "%c%s=", n++ ? '&' : '?', names[i]);
        for (const unsigned char *p = (const unsigned char *)parts[i]; *p; p++) {
            /* RFC 6068: unreserved characters as they are, all else as
             * %XX (a space as %20, a line break as %0D%0A). */
            if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                strchr("-._~", *p))
                strbuf_addch(&sb, (char)*p);
            else if (*p == '\n')
                strbuf_addstr(&sb, "%0D%0A");
            else
                strbuf_addf(&sb, "%%%02X", *p);
        }
    }
    return strbuf_detach(&sb);
}

/* ---- the text, block by block ------------------------------------------------ */

struct line {
    const char *p;
    size_t n;       /* bytes, without the newline */
    size_t indent;  /* leading spaces */
};

static bool blank(const struct line *l)
{
    return l->indent == l->n;
}

/* A line whose columns mean something: a run of spaces inside it, or the
 * rules and corners of a drawn table or board. */
static bool aligned(const struct line *l)
{
    for (size_t i = l->indent; i + 1 < l->n; i++) {
        if (l->p[i] == ' ' && l->p[i + 1] == ' ' && i + 2 < l->n && l->p[i + 2] != ' ')
            return true;
        if (l->p[i] == '|' || (l->p[i] == '+' && (l->p[i + 1] == '-' || (i && l->p[i - 1] == '-'))) ||
            (l->p[i] == '-' && l->p[i + 1] == '-' && i + 2 < l->n && l->p[i + 2] == '-'))
            return true;
    }
    return false;
}

/* Whether a line begins an item of its own ("- x", "* x", "3. x"). */
static bool item_start(const struct line *l)
{
    const char *p = l->p + l->indent, *e = l->p + l->n;
    if (e - p >= 2 && (p[0] == '-' || p[0] == '*') && p[1] == ' ')
        return true;
    while (p < e && *p >= '0' && *p <= '9')
        p++;
    return p > l->p + l->indent && p + 1 < e && (*p == '.' || *p == ')') && p[1] == ' ';
}

static void add_block(cJSON *blocks, const char *key, cJSON *value)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddItemToObject(b, key, value);
    cJSON_AddItemToArray(blocks, b);
}

static char *text_of(const struct line *l, size_t n)
{
    struct strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < n; i++)
        strbuf_addf(&sb, "%s%.*s", i ? "\n" : "", (int)l[i].n, l[i].p);
    return strbuf_detach(&sb);
}

/* Whether the text wrapped prev before next: next's first word (its two
 * words, when a flowed paragraph sent one down so as not to leave the
 * last alone) would not have fit on it. A line that ends with a colon
 * introduces what follows, as its own line. */
static bool was_wrapped(const struct line *prev, const struct line *next)
{
    const char *p = next->p + next->indent, *e = next->p + next->n;
    size_t w1 = 0, w2 = 0;
    while (p + w1 < e && p[w1] != ' ')
        w1++;
    if (p + w1 < e) {
        const char *q = p + w1 + 1;
        while (q + w2 < e && q[w2] != ' ')
            w2++;
        if (q + w2 < e)
            w2 = 0; /* three words or more: no word was sent down */
    }
    if (prev->n && prev->p[prev->n - 1] == ':')
        return false;
    if (prev->n + 1 + w1 > WRAPPED_WIDTH || (w2 && prev->n + 1 + w1 + 1 + w2 > WRAPPED_WIDTH))
        return true;
    /* A template wrapped by hand, with a name or a secret in it: a long
     * line that stops in mid-sentence goes on. */
    return prev->n >= HAND_WRAPPED && !strchr(".!?", prev->p[prev->n - 1]);
}

/* An item of a list: its text, and its indent in ems. */
static void add_item(cJSON *items, const char *text, double indent)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "text", text);
    cJSON_AddNumberToObject(o, "indent", indent);
    cJSON_AddItemToArray(items, o);
}

/* Lines of one block joined where the text wrapped them: each logical
 * line with its indent. */
static cJSON *logical_lines(const struct line *l, size_t n, size_t strip)
{
    cJSON *items = cJSON_CreateArray();
    struct strbuf sb = STRBUF_INIT;
    size_t first = 0;
    for (size_t i = 0; i < n; i++) {
        const struct line *x = &l[i];
        size_t from = x->indent > strip ? x->indent : strip < x->n ? strip : x->n;
        bool goes_on = i > first && was_wrapped(&l[i - 1], x) && !item_start(x) &&
                       (x->indent == l[first].indent || x->indent == l[first].indent + 2 ||
                        x->indent == l[first].indent + 4);
        if (i > first && !goes_on) {
            size_t indent = l[first].indent > strip ? l[first].indent - strip : 0;
            add_item(items, sb.buf, (double)(indent < INDENT_MAX ? indent : INDENT_MAX) / 2.0);
            strbuf_reset(&sb);
            first = i;
        }
        while (from < x->n && x->p[from] == ' ')
            from++;
        strbuf_addf(&sb, "%s%.*s", sb.len ? " " : "", (int)(x->n - from), x->p + from);
    }
    if (n) {
        size_t indent = l[first].indent > strip ? l[first].indent - strip : 0;
        add_item(items, sb.buf, (double)(indent < INDENT_MAX ? indent : INDENT_MAX) / 2.0);
    }
    strbuf_release(&sb);
    return items;
}

/* Where a run of two spaces or more inside a line ends (the column its
 * second text starts at), or 0 when it has none. */
static size_t second_column(const struct line *l)
{
    for (size_t i = l->indent; i + 2 < l->n; i++)
        if (l->p[i] != ' ' && l->p[i + 1] == ' ' && l->p[i + 2] == ' ') {
            size_t c = i + 1;
            while (c < l->n && l->p[c] == ' ')
                c++;
            return c < l->n ? c : 0;
        }
    return 0;
}

/* A table of two columns (a command, then what it does), under an
 * optional line that introduces it: as a list, an item a row ("PAUSE:
 * stop the clock"), so that a phone need not scroll it sideways. NULL
 * when the block is no such table (a board, a drawn table). */
static cJSON *table_items(const struct line *l, size_t n)
{
    cJSON *items = cJSON_CreateArray();
    struct strbuf row = STRBUF_INIT;
    size_t i = 0, rows = 0, indent = 0;
    bool ok = true;
    for (size_t k = 0; k < n; k++)
        for (size_t j = 0; j + 1 < l[k].n; j++)
            if (l[k].p[j] == '|' || (l[k].p[j] == '-' && l[k].p[j + 1] == '-') ||
                (l[k].p[j] == '+' && l[k].p[j + 1] == '-'))
                ok = false;
    /* The line that introduces it ("Orders:"). */
    for (; ok && i < n && l[i].indent == 0 && !second_column(&l[i]); i++)
        strbuf_addf(&row, "%s%.*s", row.len ? " " : "", (int)l[i].n, l[i].p);
    if (row.len)
        add_item(items, row.buf, 0);
    strbuf_reset(&row);
    for (; ok && i < n; i++) {
        size_t c = second_column(&l[i]);
        const char *p = l[i].p + l[i].indent;
        int len = (int)(l[i].n - l[i].indent);
        if (c && second_column(&(struct line){ l[i].p + c, l[i].n - c, 0 })) {
            ok = false; /* three columns or more: a real table */
        } else if (c && (!rows || l[i].indent == indent)) {
            /* A row: the command, then what it does. */
            if (row.len)
                add_item(items, row.buf, 1);
            strbuf_reset(&row);
            indent = l[i].indent;
            strbuf_addf(&row, "%.*s", (int)(c - l[i].indent), p);
            while (row.len && row.buf[row.len - 1] == ' ')
                strbuf_setlen(&row, row.len - 1);
            strbuf_addf(&row, ": %.*s", (int)(l[i].n - c), l[i].p + c);
            rows++;
        } else if (!c && rows && l[i].indent == indent) {
            /* A command too long for its column: what it does follows. */
            add_item(items, row.buf, 1);
            strbuf_reset(&row);
            strbuf_addf(&row, "%.*s:", len, p);
            rows++;
        } else if (!c && rows && l[i].indent > indent) {
            strbuf_addf(&row, " %.*s", len, p);
        } else {
            ok = false;
        }
    }
    if (row.len && ok)
        add_item(items, row.buf, 1);
    strbuf_release(&row);
    if (!ok || !rows || (rows < 2 && cJSON_GetArraySize(items) < 2)) {
        cJSON_Delete(items);
        return NULL;
    }
    return items;
}

/* One block of lines (no blank line in it). */
static void add_lines(cJSON *blocks, const struct line *l, size_t n, bool keep_aligned)
{
    bool quoted = n > 0, any_aligned = keep_aligned;
    for (size_t i = 0; i < n; i++) {
        quoted &= l[i].n > l[i].indent && l[i].p[l[i].indent] == '>';
        any_aligned |= aligned(&l[i]);
    }
    if (!n)
        return;
    if (quoted) {
        /* "> JOIN 12": what the mail answers, set off. */
        struct strbuf sb = STRBUF_INIT;
        for (size_t i = 0; i < n; i++) {
            const char *p = l[i].p + l[i].indent + 1, *e = l[i].p + l[i].n;
            while (p < e && *p == ' ')
                p++;
            strbuf_addf(&sb, "%s%.*s", sb.len ? " " : "", (int)(e - p), p);
        }
        add_block(blocks, "quote", cJSON_CreateString(sb.buf));
        strbuf_release(&sb);
        return;
    }
    if (any_aligned && !keep_aligned) {
        cJSON *items = table_items(l, n);
        if (items) {
            cJSON *g = cJSON_CreateObject();
            cJSON_AddItemToObject(g, "items", items);
            add_block(blocks, "group", g);
            return;
        }
    }
    if (any_aligned) {
        char *t = text_of(l, n);
        add_block(blocks, "pre", cJSON_CreateString(t));
        free(t);
        return;
    }
    {
        cJSON *items = logical_lines(l, n, 0);
        if (cJSON_GetArraySize(items) == 1 && l[0].indent == 0) {
            add_block(blocks, "p", cJSON_CreateString(cJSON_GetStringValue(
                                        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(items, 0), "text"))));
            cJSON_Delete(items);
        } else {
            cJSON *g = cJSON_CreateObject();
            cJSON_AddItemToObject(g, "items", items);
            add_block(blocks, "group", g);
        }
    }
}

/* The text from p to e as blocks; a footer ("--") gets the commands. */
static void add_text(cJSON *blocks, const char *p, const char *e, bool keep_aligned, cJSON *commands)
{
    struct line *lines = NULL;
    size_t n = 0, alloc = 0, start = 0;
    while (p < e) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(e - p), ind = 0;
        while (ind < len && p[ind] == ' ')
            ind++;
        if (n == alloc) {
            alloc = alloc ? 2 * alloc : 32;
            lines = xrealloc(lines, alloc * sizeof(*lines));
        }
        lines[n++] = (struct line){ p, len, ind };
        p = nl ? nl + 1 : e;
    }
    for (size_t i = 0; i <= n; i++) {
        if (i < n && !blank(&lines[i]) && !(lines[i].n == 2 && lines[i].p[0] == '-' && lines[i].p[1] == '-'))
            continue;
        add_lines(blocks, lines + start, i - start, keep_aligned);
        if (i < n && !blank(&lines[i])) {
            /* The signature line: the footer begins, with its commands. */
            add_block(blocks, "hr", cJSON_CreateTrue());
            if (commands && cJSON_GetArraySize(commands)) {
                cJSON *c = cJSON_CreateObject();
                cJSON_AddItemToObject(c, "links", cJSON_Duplicate(commands, 1));
                add_block(blocks, "choices", c);
            }
        }
        start = i + 1;
    }
    free(lines);
}

static cJSON *link_of(const struct mail_html_in *in, const char *to, const char *label, const char *order)
{
    cJSON *o = cJSON_CreateObject();
    char *href = mail_mailto(to, in->subject, order);
    cJSON_AddStringToObject(o, "href", href);
    cJSON_AddStringToObject(o, "label", label);
    free(href);
    return o;
}

cJSON *mail_html_blocks(const struct mail_html_in *in)
{
    cJSON *blocks = cJSON_CreateArray(), *commands = cJSON_CreateArray();
    const char *text = in->text, *end = text + strlen(text);
    const char *board = in->board && *in->board ? strstr(text, in->board) : NULL;
    const char *at[MAIL_LINKS_MAX] = { NULL };
    const char *p = text;
    bool links = in->reply_to && *in->reply_to;

    for (size_t i = 0; links && in->commands && i < in->commands->n; i++)
        cJSON_AddItemToArray(commands, link_of(in, in->reply_to, in->commands->v[i], in->commands->v[i]));
    if (in->more && in->more_to && *in->more_to)
        cJSON_AddItemToArray(commands, link_of(in, in->more_to, in->more, in->more));
    for (int k = 0; k < MAIL_LINKS_MAX; k++)
        if (links && in->links[k].text && *in->links[k].text && in->links[k].labels && in->links[k].labels->n)
            at[k] = strstr(text, in->links[k].text);
    /* Text, then the board or a list of orders wherever each stands. */
    while (p < end) {
        const char *next = end;
        int what = -2; /* -1: the board, k: links[k] */
        if (board && board >= p && board < next) {
            next = board;
            what = -1;
        }
        for (int k = 0; k < MAIL_LINKS_MAX; k++)
            if (at[k] && at[k] >= p && at[k] < next) {
                next = at[k];
                what = k;
            }
        add_text(blocks, p, next, false, commands);
        if (what == -2)
            break;
        if (what == -1) {
            if (in->cid) {
                cJSON *pic = cJSON_CreateObject();
                cJSON_AddStringToObject(pic, "cid", in->cid);
                cJSON_AddStringToObject(pic, "alt", in->alt ? in->alt : catalog_text(in->lang, "html.the-board", 1));
                add_block(blocks, "picture", pic);
            } else {
                add_text(blocks, board, board + strlen(in->board), true, NULL);
            }
            p = board + strlen(in->board);
            board = NULL;
        } else {
            const struct mail_links *ml = &in->links[what];
            cJSON *c = cJSON_CreateObject(), *l = cJSON_CreateArray();
            for (size_t i = 0; i < ml->labels->n && i < ml->orders->n; i++)
                cJSON_AddItemToArray(l, link_of(in, in->reply_to, ml->labels->v[i], ml->orders->v[i]));
            cJSON_AddStringToObject(c, "heading", catalog_text(in->lang, ml->heading ? ml->heading : "html.tap-one", 1));
            cJSON_AddItemToObject(c, "links", l);
            add_block(blocks, "choices", c);
            p = at[what] + strlen(ml->text);
            at[what] = NULL;
        }
    }
    cJSON_Delete(commands);
    return blocks;
}

char *mail_html(const struct mail_html_in *in, struct strbuf *err)
{
    struct strbuf out = STRBUF_INIT;
    cJSON *d = cJSON_CreateObject();
    cJSON_AddItemToObject(d, "blocks", mail_html_blocks(in));
    if (template_render_file("mail.html", d, in->lang, &out, err)) {
        cJSON_Delete(d);
        strbuf_release(&out);
        return NULL;
    }
    cJSON_Delete(d);
    return strbuf_detach(&out);
}
