/* lexicon.c: the order words of each language: a line a player wrote in hers read in English (JOUER 7 -> PLAY 7), an order written in hers (PLAY 7 -> JOUER 7), from the catalogues' word.SCOPE.WORD phrases. */
#include "lib/lexicon.h"
#include "lib/catalog.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORD_MAX 64
#define PAIRS_MAX 256

struct pair {
    char local[WORD_MAX];   /* folded, words by single spaces */
    char shown[WORD_MAX];   /* the first spelling, as the catalogue writes it */
    char english[WORD_MAX]; /* in capitals, words by single spaces */
    int words;
    bool game;
};

struct pairs {
    struct pair v[PAIRS_MAX];
    int n;
    bool game;
};

static void add_pair(const char *key, const char *text, void *arg)
{
    struct pairs *ps = arg;
    const char *en = strrchr(key, '.') + 1;
    char english[WORD_MAX];
    size_t k = 0;
    for (; en[k] && k + 1 < sizeof(english); k++)
        english[k] = en[k] == '-' ? ' ' : (char)toupper((unsigned char)en[k]);
    english[k] = '\0';
    char first[WORD_MAX];
    snprintf(first, sizeof(first), "%.*s", (int)strcspn(text, "|"), text);
    for (const char *p = text; *p && ps->n < PAIRS_MAX;) {
        size_t n = strcspn(p, "|");
        struct pair *q = &ps->v[ps->n];
        char one[WORD_MAX];
        if (n && n < sizeof(one)) {
            memcpy(one, p, n);
            one[n] = '\0';
            lang_fold(one, q->local, sizeof(q->local));
            snprintf(q->shown, sizeof(q->shown), "%s", first);
            snprintf(q->english, sizeof(q->english), "%s", english);
            q->words = 1;
            for (const char *c = q->local; *c; c++)
                q->words += *c == ' ';
            q->game = ps->game;
            ps->n++;
        }
        p += n + (p[n] == '|');
    }
}

static void load_one(struct pairs *ps, const char *lang, const char *scope, const char *game);


/* lang's words, and English's (LANGUAGE in every language) beside them:
 * made once for each language, scope and game, and again when a
 * catalogue changes. Owned by the cache. */
#define KEPT 32
static const struct pairs *load(const char *lang, const char *scope, const char *game)
{
    static struct kept {
        char key[96];
        const void *version, *english;
        struct pairs *ps;
    } kept[KEPT];
    static int next;
    char key[96];
    const void *version = catalog_version(lang), *english = catalog_version(LANG_ENGLISH);
    struct kept *k = NULL;
    snprintf(key, sizeof(key), "%s/%s/%s", lang, scope ? scope : "", game ? game : "");
    for (int i = 0; i < KEPT && !k; i++)
        if (kept[i].ps && str_eq(kept[i].key, key))
            k = &kept[i];
    if (k && k->version == version && k->english == english)
        return k->ps;
    if (!k) {
        k = &kept[next];
        next = (next + 1) % KEPT;
        free(k->ps);
    } else
        free(k->ps);
    snprintf(k->key, sizeof(k->key), "%s", key);
    k->version = version;
    k->english = english;
    k->ps = xmalloc(sizeof(*k->ps));
    k->ps->n = 0;
    load_one(k->ps, lang, scope, game);
    if (!str_eq(lang, LANG_ENGLISH))
        load_one(k->ps, LANG_ENGLISH, scope, game);
    return k->ps;
}

static void load_one(struct pairs *ps, const char *lang, const char *scope, const char *game)
{
    struct strbuf prefix = STRBUF_INIT;
    if (scope) {
        ps->game = false;
        strbuf_addf(&prefix, "word.%s.", scope);
        catalog_each(lang, prefix.buf, add_pair, ps);
    }
    if (game) {
        ps->game = true;
        strbuf_reset(&prefix);
        strbuf_addf(&prefix, "word.%s.", game);
        catalog_each(lang, prefix.buf, add_pair, ps);
    }
    strbuf_release(&prefix);
}

/* An order word is at most this many words ("ne plus suivre" is three);
 * a longer one in a catalogue is never read. */
#define WORDS_MAX 8

/* The first k words at p, one space between, folded (out: WORD_MAX * 2),
 * and how far they reach in p; false when they do not fit. */
static bool first_words(const char *p, int k, char *out, size_t *reach)
{
    char raw[WORD_MAX * 2];
    const char *e = p;
    size_t n = 0;
    for (int w = 0; w < k; w++) {
        if (w)
            while (*e == ' ' || *e == '\t')
                e++;
        e += strcspn(e, " \t");
    }
    if ((size_t)(e - p) >= sizeof(raw))
        return false;
    for (const char *c = p; c < e; c++) {
        if (*c == ' ' || *c == '\t') {
            if (n && raw[n - 1] != ' ')
                raw[n++] = ' ';
            continue;
        }
        raw[n++] = *c;
    }
    raw[n] = '\0';
    lang_fold(raw, out, WORD_MAX * 2);
    *reach = (size_t)(e - p);
    return true;
}

/* The pair the words at p begin with (the one of most words), its length
 * in the line in *len; NULL for none. The line's first words are folded
 * once, not once a pair. */
static const struct pair *match(const struct pairs *ps, const char *p, bool game_only, size_t *len)
{
    char folded[WORDS_MAX + 1][WORD_MAX * 2];
    size_t reach[WORDS_MAX + 1];
    bool fits[WORDS_MAX + 1];
    const struct pair *best = NULL;
    for (int k = 1; k <= WORDS_MAX; k++)
        fits[k] = first_words(p, k, folded[k], &reach[k]);
    for (int i = 0; i < ps->n; i++) {
        const struct pair *q = &ps->v[i];
        if ((game_only && !q->game) || q->words > WORDS_MAX || !fits[q->words])
            continue;
        if (str_eq(folded[q->words], q->local) && (!best || q->words > best->words)) {
            best = q;
            *len = reach[q->words];
        }
    }
    return best;
}

const char *lexicon_word(const char *lang, const char *scope, const char *game, const char *line)
{
    size_t len;
    return lexicon_word_len(lang, scope, game, line, &len);
}

const char *lexicon_word_len(const char *lang, const char *scope, const char *game, const char *line, size_t *len)
{
    const struct pairs *ps = load(lang_code(lang), scope, game);
    const struct pair *q;
    *len = 0;
    q = ps->n ? match(ps, line, false, len) : NULL;
    return q ? q->english : NULL;
}

char *lexicon_english_any(const char *scope, const char *line, size_t len, bool (*wanted)(const char *english))
{
    char head[160];
    size_t n = len < sizeof(head) - 1 ? len : sizeof(head) - 1;
    memcpy(head, line, n);
    head[n] = '\0';
    for (size_t i = 1; lang_at(i); i++) {
        const char *en = lexicon_word(lang_at(i)->code, scope, NULL, head);
        if (en && (!wanted || wanted(en))) {
            char *whole = xstrndup(line, len), *english = lexicon_english(lang_at(i)->code, scope, NULL, whole);
            free(whole);
            return english;
        }
    }
    return NULL;
}

char *lexicon_english(const char *lang, const char *scope, const char *game, const char *line)
{
    const struct pairs *ps = load(lang_code(lang), scope, game);
    struct strbuf out = STRBUF_INIT;
    const char *p = line;
    const struct pair *q;
    size_t len = 0;
    q = ps->n ? match(ps, p, false, &len) : NULL;
    if (!q)
        return xstrdup(line);
    strbuf_addstr(&out, q->english);
    p += len;
    /* After a game's word, its other words: LION c4 -> ... */
    while (q->game && *p) {
        const struct pair *w;
        size_t gap = strspn(p, " \t");
        strbuf_add(&out, p, gap);
        p += gap;
        if (!*p)
            break;
        if ((w = match(ps, p, true, &len)) != NULL) {
            strbuf_addstr(&out, w->english);
            p += len;
        } else {
            len = strcspn(p, " \t");
            strbuf_add(&out, p, len);
            p += len;
        }
    }
    strbuf_addstr(&out, p);
    return strbuf_detach(&out);
}

char *lexicon_local(const char *lang, const char *scope, const char *game, const char *order)
{
    const struct pairs *ps;
    struct strbuf out = STRBUF_INIT;
    const char *p = order;
    if (str_eq(lang_code(lang), LANG_ENGLISH))
        return xstrdup(order);
    ps = load(lang_code(lang), scope, game);
    while (*p) {
        size_t gap = 0, n = 0, best = 0;
        const struct pair *hit = NULL;
        /* Words are parted by spaces and by the marks (control
         * characters) of options.c. */
        while (p[gap] == ' ' || (p[gap] && (unsigned char)p[gap] < 0x20))
            gap++;
        strbuf_add(&out, p, gap);
        p += gap;
        /* The English words of most words that begin here (a word may
         * end at a space, at the punctuation of a summary, "SEA;", or at
         * a mark options.c puts for its words, "GIRAFFE\x01"). */
        for (int i = 0; i < ps->n; i++) {
            size_t m = strlen(ps->v[i].english);
            if (m > best && !strncmp(p, ps->v[i].english, m) &&
                (!p[m] || strchr(" \t\n;,:)", p[m]) || (unsigned char)p[m] < 0x20)) {
                best = m;
                hit = &ps->v[i];
            }
        }
        if (hit) {
            strbuf_addstr(&out, hit->shown);
            p += best;
            continue;
        }
        while (p[n] && p[n] != ' ' && (unsigned char)p[n] >= 0x20)
            n++;
        strbuf_add(&out, p, n);
        p += n;
    }
    return strbuf_detach(&out);
}
