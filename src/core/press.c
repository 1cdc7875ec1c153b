/* press.c: press in a player's text: PRESS TO blocks and MUTE lines read apart from her orders, and whom a PRESS TO names. */
#include "core/press.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LINE_KEPT 120 /* bytes of an item's first line kept for the answer */

/* The line [p, p + len) without white space at either end. */
static void trim(const char **p, size_t *len)
{
    while (*len && isspace((unsigned char)**p)) {
        (*p)++;
        (*len)--;
    }
    while (*len && isspace((unsigned char)(*p)[*len - 1]))
        (*len)--;
}

/* Whether the line begins with word (any case), then a space, a colon or
 * its end; *rest is what follows (trimmed). */
static bool starts_word(const char *p, size_t len, const char *word, const char **rest, size_t *rest_len)
{
    size_t n = strlen(word);
    if (len < n || strncasecmp(p, word, n) != 0 || (len > n && p[n] != ' ' && p[n] != '\t' && p[n] != ':'))
        return false;
    *rest = p + n;
    *rest_len = len - n;
    trim(rest, rest_len);
    return true;
}

/* "PRESS TO names[: text]": *to and *first (either may be empty). */
static bool press_line(const char *p, size_t len, const char **to, size_t *to_len, const char **first,
                       size_t *first_len)
{
    const char *r, *colon;
    size_t rl;
    if (!starts_word(p, len, "press", &r, &rl) || !starts_word(r, rl, "to", &r, &rl))
        return false;
    colon = memchr(r, ':', rl);
    *to = r;
    *to_len = colon ? (size_t)(colon - r) : rl;
    trim(to, to_len);
    *first = colon ? colon + 1 : r + rl;
    *first_len = colon ? rl - (size_t)(colon + 1 - r) : 0;
    trim(first, first_len);
    return true;
}

/*
 * A line of press words in any language read in English: MESSAGE À Bob,
 * MENSAGEM PARA Bob, UJUMBE KWA Bob are PRESS TO Bob; FIN MESSAGE is END
 * PRESS; BLOQUER Bob is MUTE Bob (the catalogues' word.press.*). The
 * writer's language is not asked: press is read before her orders, and a
 * line in any language's press words is press. NULL when the line begins
 * with no such words (owned).
 */
/* Press words that begin a line of press (not ALL, not "and"). */
static bool opens_press(const char *english)
{
    return str_iprefix(english, "press to") || str_iprefix(english, "end press") || str_iprefix(english, "mute") ||
           str_iprefix(english, "unmute");
}

static char *press_english(const char *t, size_t tl)
{
    return tl && tl <= PRESS_BODY_KEPT ? lexicon_english_any("press", t, tl, opens_press) : NULL;
}

static struct press_item *add_item(struct press_text *out, enum press_kind kind, const char *line, size_t len,
                                   const char *to, size_t to_len, bool has_to)
{
    struct press_item *it;
    if (out->n == PRESS_ITEMS_MAX) {
        out->dropped++;
        return NULL;
    }
    if (!out->v)
        out->v = xcalloc(PRESS_ITEMS_MAX, sizeof(*out->v));
    it = &out->v[out->n++];
    it->kind = kind;
    it->line = xstrndup(line, len < LINE_KEPT ? len : LINE_KEPT);
    it->to = has_to ? xstrndup(to, to_len) : NULL;
    strbuf_init(&it->body);
    return it;
}

/* One line of a message; blank lines at its top are not kept. */
static void body_line(struct press_item *it, const char *p, size_t len)
{
    it->bytes += len + 1;
    if (!it->body.len && !len)
        return;
    if (it->body.len + len + 1 > PRESS_BODY_KEPT)
        return;
    strbuf_add(&it->body, p, len);
    strbuf_addch(&it->body, '\n');
}

static void body_end(struct press_item *it)
{
    while (it->body.len && isspace((unsigned char)it->body.buf[it->body.len - 1]))
        it->body.len--;
    if (it->body.buf)
        it->body.buf[it->body.len] = '\0';
}

/* The first line that is not an order: the orders become a copy of the
 * text before it, and grow line by line from there (a text without
 * press is never copied). */
static void cut_here(struct press_text *out, const char *text, const char *line, bool *cut)
{
    if (*cut)
        return;
    strbuf_add(&out->own, text, (size_t)(line - text));
    *cut = true;
}

/* A line of a message that reads as an order goes to the orders, not
 * to the message. */
static bool pulled_out(const struct press_sense *sense, struct press_item *it, struct press_text *out,
                       const char *text, const char *line, bool *cut, const char *t, size_t tl)
{
    if (!sense || !tl || t[0] == '>' || !sense->is_order(sense->ctx, t, tl))
        return false;
    cut_here(out, text, line, cut);
    strbuf_add(&out->own, t, tl);
    strbuf_addch(&out->own, '\n');
    if (it)
        it->pulled++;
    else
        out->loose++;
    out->pulled++;
    return true;
}

void press_split(const char *text, bool channel, const struct press_sense *sense, struct press_text *out)
{
    struct press_item *cur = NULL, *implicit = NULL;
    bool in_block = false, top = true, cut = channel;
    char *english = NULL;
    const char *written;
    size_t written_len;
    memset(out, 0, sizeof(*out));
    strbuf_init(&out->own);
    text = text ? text : "";
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n'), *line = p, *t = p, *to, *first;
        size_t len = nl ? (size_t)(nl - p) : strlen(p), tl, to_len, first_len;
        const char *rest;
        size_t rest_len;
        p += len + (nl != NULL);
        while (len && line[len - 1] == '\r')
            len--;
        if ((len == 3 && memcmp(line, "-- ", 3) == 0) || (len == 2 && memcmp(line, "--", 2) == 0))
            break; /* a signature: nothing after it is hers to send */
        tl = len;
        trim(&t, &tl);
        /* Her press words read in English: the line as it is below. */
        free(english);
        english = NULL;
        written = t;
        written_len = tl;
        if (tl && t[0] != '>' && (english = press_english(t, tl))) {
            t = english;
            tl = strlen(english);
        }
        if (press_line(t, tl, &to, &to_len, &first, &first_len)) {
            cut_here(out, text, line, &cut);
            if (cur)
                body_end(cur);
            cur = add_item(out, PRESS_MESSAGE, written, written_len, to, to_len, true);
            in_block = true;
            top = false;
            if (cur && first_len && !pulled_out(sense, cur, out, text, line, &cut, first, first_len))
                body_line(cur, first, first_len);
            continue;
        }
        if (in_block) {
            if (tl == 9 && strncasecmp(t, "end press", 9) == 0) {
                if (cur)
                    body_end(cur);
                cur = NULL;
                in_block = false;
                continue;
            }
            if (pulled_out(sense, cur, out, text, line, &cut, t, tl))
                continue;
            if (cur && !(tl && t[0] == '>'))
                body_line(cur, line, len);
            continue;
        }
        /* MUTE alone, at the top of a reply to a message: its writer. */
        if ((!channel || top) && tl <= 40 &&
            (starts_word(t, tl, "mute", &rest, &rest_len) || starts_word(t, tl, "unmute", &rest, &rest_len)) &&
            (rest_len || channel)) {
            cut_here(out, text, line, &cut);
            add_item(out, tolower((unsigned char)t[0]) == 'u' ? PRESS_UNMUTE : PRESS_MUTE, written, written_len, rest,
                     rest_len, true);
            continue;
        }
        if (!channel) {
            if (cut) {
                strbuf_add(&out->own, line, len);
                strbuf_addch(&out->own, '\n');
            }
            continue;
        }
        /* A reply to a channel: its words are one message to it. */
        if (tl && t[0] == '>')
            continue;
        if (!implicit && !tl)
            continue;
        if (pulled_out(sense, implicit, out, text, line, &cut, t, tl)) {
            top = false;
            continue;
        }
        if (!implicit && !(implicit = add_item(out, PRESS_MESSAGE, t, tl, NULL, 0, false)))
            continue;
        if (implicit->bytes == 0) {
            implicit->pulled += out->loose; /* the orders above its first words */
            out->loose = 0;
        }
        top = false;
        body_line(implicit, line, len);
    }
    free(english);
    if (cur)
        body_end(cur);
    if (implicit)
        body_end(implicit);
    out->orders = cut ? (out->own.buf ? out->own.buf : "") : text;
}

void press_text_release(struct press_text *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->v[i].line);
        free(p->v[i].to);
        strbuf_release(&p->v[i].body);
    }
    free(p->v);
    strbuf_release(&p->own);
    memset(p, 0, sizeof(*p));
}

/* The seat whose name is words [w, w + n) of the list, -1: none. */
static int seat_named(const struct game_table *t, const char *const *w, size_t n)
{
    char name[128];
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(w[i]);
        if (len + l + 2 > sizeof(name))
            return -1;
        if (i)
            name[len++] = ' ';
        memcpy(name + len, w[i], l);
        len += l;
    }
    name[len] = '\0';
    for (int s = 0; s < t->nseats; s++)
        if (str_ieq(t->names[s], name))
            return s;
    return -1;
}

/* A word of the recipients' list in English (TOUS: ALL), any language
 * (owned). */
static char *list_word(const char *w)
{
    char *en = lexicon_english_any("press", w, strlen(w), NULL);
    return en ? en : xstrdup(w);
}

static bool joiner(const char *w)
{
    char *en;
    bool and;
    if (str_eq(w, "&") || str_eq(w, "+"))
        return true;
    en = list_word(w);
    and = str_ieq(en, "and");
    free(en);
    return and;
}

static bool everyone(const char *w)
{
    char *en = list_word(w);
    bool all = str_ieq(en, "all") || str_ieq(en, "everyone") || str_ieq(en, "everybody");
    free(en);
    return all;
}

/* Refuses in t's reader's language, naming the others (who she may
 * write to). */
static void refuse_to(const struct game_table *t, int self, const char *key, const char *word, struct strbuf *err)
{
    struct strbuf names = STRBUF_INIT;
    int n = 0;
    for (int s = 0; s < t->nseats; s++)
        if (s != self)
            strbuf_addf(&names, "%s%s", n++ ? ", " : "", t->names[s]);
    phrase_add(err, t->lang, key, "names", names.buf, "word", word, NULL);
    strbuf_release(&names);
}

int press_recipients(const char *to, const struct game_table *t, int self, unsigned *mask, bool *all,
                     struct strbuf *err)
{
    char *copy = xstrdup(to ? to : ""), *save = NULL;
    const char *w[64];
    size_t n = 0;
    int rc = 0;
    *mask = 0;
    *all = false;
    for (char *tok = strtok_r(copy, " \t,;", &save); tok; tok = strtok_r(NULL, " \t,;", &save)) {
        if (n == sizeof(w) / sizeof(w[0])) {
            phrase_add(err, t->lang, "press.err.too-many", NULL);
            free(copy);
            return -1;
        }
        w[n++] = tok;
    }
    if (!n) {
        refuse_to(t, self, "press.err.nobody", NULL, err);
        free(copy);
        return -1;
    }
    for (size_t i = 0; i < n && !rc;) {
        size_t take = 0;
        int seat = -1;
        if (joiner(w[i])) {
            i++;
            continue;
        }
        if (everyone(w[i])) {
            *all = true;
            i++;
            continue;
        }
        /* The longest name that starts here (names have up to 24
         * characters, so a few words). */
        for (size_t k = n - i < 4 ? n - i : 4; k >= 1 && seat < 0; k--)
            if ((seat = seat_named(t, w + i, k)) >= 0)
                take = k;
        if (seat < 0) {
            char word[48];
            snprintf(word, sizeof(word), "%.40s", w[i]);
            refuse_to(t, self, "press.err.no-such", word, err);
            rc = -1;
            break;
        }
        *mask |= 1u << seat;
        i += take;
    }
    free(copy);
    if (rc)
        return -1;
    if (*all)
        for (int s = 0; s < t->nseats; s++)
            *mask |= 1u << s;
    if (self >= 0)
        *mask &= ~(1u << self);
    if (!*mask) {
        refuse_to(t, self, "press.err.only-you", NULL, err);
        return -1;
    }
    return 0;
}

void press_names(const struct game_table *t, unsigned mask, int skip, int you, struct strbuf *out)
{
    struct strlist names = STRLIST_INIT;
    /* "you" first, then the others in seat order; the last joined by
     * "and" in t's reader's language. */
    for (int k = -1; k < t->nseats; k++) {
        int s = k < 0 ? you : k;
        if (s < 0 || s == skip || !((mask >> s) & 1) || (k >= 0 && s == you))
            continue;
        strlist_push(&names, s == you ? catalog_text(t->lang, "press.you", 1) : t->names[s]);
    }
    phrase_list_and(out, t->lang, &names);
    strlist_clear(&names);
}
