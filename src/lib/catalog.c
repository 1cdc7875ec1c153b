/* catalog.c: the phrases a player reads, in her language: one catalogue a language (templates/lang/LL.po, gettext's format, keyed by message), CLDR plural forms, English where a phrase is missing. */
#include "lib/catalog.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* A catalogue file's bound (gettext's format, about 1,000 phrases). */
#define CATALOG_MAX_BYTES (1u << 20)
/* A key's bound: "lobby.join.taken" and the like. */
#define KEY_MAX 96
#define FORMS_MAX 3

static const struct lang langs[] = {
    { "en", "English", "English", 2 },
    { "fr", "Français", "French", 3 },
    { "pt", "Português", "Portuguese", 3 },
    { "sw", "Kiswahili", "Swahili", 2 },
};
#define NLANGS (sizeof(langs) / sizeof(langs[0]))

const struct lang *lang_at(size_t i)
{
    return i < NLANGS ? &langs[i] : NULL;
}

/* "Français" -> "francais", "CLASSIFICAÇÃO" -> "classificacao": ASCII
 * lower case, the accents of the Latin-1 letters (two bytes in UTF-8,
 * 0xc3 then 0x80 to 0xbf) dropped. */
void lang_fold(const char *s, char *out, size_t size)
{
    /* The letters of U+00E0 to U+00FF without their accents. */
    static const char plain[] = "aaaaaaaceeeeiiiidnooooo/ouuuuyty";
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 1 < size; p++) {
        if (*p == 0xc3 && p[1] >= 0x80 && p[1] <= 0xbf) {
            unsigned c = p[1] < 0xa0 ? p[1] + 0x20u : p[1]; /* capitals as small letters */
            out[n++] = plain[c - 0xa0];
            p++;
        } else
            out[n++] = (char)tolower(*p);
    }
    out[n] = '\0';
}

const struct lang *lang_find(const char *word)
{
    char w[32], name[32];
    if (!word || strlen(word) >= sizeof(w))
        return NULL;
    lang_fold(word, w, sizeof(w));
    for (size_t i = 0; i < NLANGS; i++) {
        if (str_eq(w, langs[i].code))
            return &langs[i];
        lang_fold(langs[i].own_name, name, sizeof(name));
        if (str_eq(w, name))
            return &langs[i];
        lang_fold(langs[i].english_name, name, sizeof(name));
        if (str_eq(w, name))
            return &langs[i];
    }
    /* The names players may write in the other languages. */
    static const struct { const char *word, *code; } more[] = {
        { "anglais", "en" }, { "ingles", "en" }, { "kiingereza", "en" },
        { "francais", "fr" }, { "frances", "fr" }, { "kifaransa", "fr" },
        { "portugais", "pt" }, { "portugues", "pt" }, { "kireno", "pt" },
        { "swahili", "sw" }, { "souahili", "sw" }, { "suaili", "sw" },
    };
    for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
        if (str_eq(w, more[i].word))
            return lang_find(more[i].code);
    return NULL;
}

const char *lang_code(const char *lang)
{
    for (size_t i = 0; lang && i < NLANGS; i++)
        if (str_eq(lang, langs[i].code))
            return langs[i].code;
    return LANG_ENGLISH;
}

void lang_codes(struct strbuf *out)
{
    for (size_t i = 0; i < NLANGS; i++)
        strbuf_addf(out, "%s%s", i ? ", " : "", langs[i].code);
}

static int nplurals(const char *lang)
{
    for (size_t i = 0; i < NLANGS; i++)
        if (str_eq(lang, langs[i].code))
            return langs[i].nplurals;
    return 2;
}

int plural_form(const char *lang, long n)
{
    unsigned long a = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;
    lang = lang_code(lang);
    if (str_eq(lang, "fr"))
        return a <= 1 ? 0 : a % 1000000 == 0 ? 1 : 2;
    if (str_eq(lang, "pt"))
        return a == 1 ? 0 : a && a % 1000000 == 0 ? 1 : 2;
    return a == 1 ? 0 : 1; /* en, sw */
}

/* ---- a catalogue -------------------------------------------------------- */

struct entry {
    char *key;
    char *forms[FORMS_MAX]; /* one without plural forms */
    int nforms;             /* given; 0: untranslated */
    bool plural, fuzzy;
    bool flowed;            /* "#, flowed": its caller wraps it to 72 columns */
};

struct catalog {
    struct entry *v;
    size_t n, alloc;
};

void catalog_free(struct catalog *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i].key);
        for (int k = 0; k < FORMS_MAX; k++)
            free(c->v[i].forms[k]);
    }
    free(c->v);
    free(c);
}

size_t catalog_size(const struct catalog *c)
{
    return c ? c->n : 0;
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->key, ((const struct entry *)b)->key);
}

/* A quoted string at p ("..."), its escapes undone, added to out; the
 * rest of the line must be empty. */
static int quoted(const char *p, struct strbuf *out, struct strbuf *err)
{
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '"')
        return strbuf_addstr(err, "a quoted text (\"...\") must follow"), -1;
    for (p++; *p && *p != '"'; p++) {
        if (*p != '\\') {
            strbuf_addch(out, *p);
            continue;
        }
        switch (*++p) {
        case 'n': strbuf_addch(out, '\n'); break;
        case 't': strbuf_addch(out, '\t'); break;
        case '"': strbuf_addch(out, '"'); break;
        case '\\': strbuf_addch(out, '\\'); break;
        default: return strbuf_addstr(err, "an escape must be \\n, \\t, \\\" or \\\\"), -1;
        }
    }
    if (*p != '"')
        return strbuf_addstr(err, "the quoted text is not closed"), -1;
    for (p++; *p == ' ' || *p == '\t' || *p == '\r'; p++)
        ;
    if (*p)
        return strbuf_addstr(err, "nothing may follow the closing quote"), -1;
    return 0;
}

struct parse {
    struct catalog *c;
    const char *lang;
    struct entry cur;
    bool open;           /* cur has its msgid */
    bool next_fuzzy;     /* a "#, fuzzy" flag before it */
    bool next_flowed;    /* a "#, flowed" flag before it */
    struct strbuf *last; /* the string a continuation line adds to */
    struct strbuf id, plural_id, forms[FORMS_MAX];
    bool has_form[FORMS_MAX], has_plain;
};

static bool key_ok(const char *k)
{
    size_t n = strlen(k);
    if (!n || n > KEY_MAX || !islower((unsigned char)k[0]))
        return false;
    for (; *k; k++)
        if (!islower((unsigned char)*k) && !isdigit((unsigned char)*k) && !strchr("._-", *k))
            return false;
    return true;
}

/* Ends the entry being read: checks it, keeps it unless it is the header. */
static int finish(struct parse *ps, struct strbuf *err)
{
    struct entry e = { 0 };
    int want = nplurals(ps->lang);
    if (!ps->open)
        return 0;
    ps->open = false;
    ps->last = NULL;
    if (!ps->id.len) /* the header: Language, Plural-Forms */
        goto done;
    if (!key_ok(ps->id.buf))
        return strbuf_addf(err, "the key \"%s\" must be lower-case letters, digits, dots and dashes", ps->id.buf), -1;
    e.plural = ps->plural_id.len > 0;
    e.fuzzy = ps->next_fuzzy;
    e.flowed = ps->next_flowed;
    if (e.plural) {
        if (ps->has_plain)
            return strbuf_addf(err, "%s has plural forms: write msgstr[0] to msgstr[%d], not msgstr", ps->id.buf,
                               want - 1), -1;
        if (!str_eq(ps->plural_id.buf, ps->id.buf))
            return strbuf_addf(err, "%s: msgid_plural must repeat the key", ps->id.buf), -1;
        for (int k = 0; k < FORMS_MAX; k++)
            if (ps->has_form[k] != (k < want))
                return strbuf_addf(err, "%s: this language has %d plural forms, msgstr[0] to msgstr[%d]", ps->id.buf,
                                   want, want - 1), -1;
        e.nforms = want;
        for (int k = 0; k < want; k++)
            if (!ps->forms[k].len)
                e.nforms = 0; /* not all translated: none is */
    } else {
        for (int k = 0; k < FORMS_MAX; k++)
            if (ps->has_form[k])
                return strbuf_addf(err, "%s has no msgid_plural: write msgstr, not msgstr[%d]", ps->id.buf, k), -1;
        if (!ps->has_plain)
            return strbuf_addf(err, "%s has no msgstr", ps->id.buf), -1;
        e.nforms = ps->forms[0].len > 0;
    }
    e.key = xstrdup(ps->id.buf);
    for (int k = 0; k < e.nforms; k++)
        e.forms[k] = xstrdup(ps->forms[k].buf);
    if (ps->c->n == ps->c->alloc) {
        ps->c->alloc = ps->c->alloc ? 2 * ps->c->alloc : 256;
        ps->c->v = xrealloc(ps->c->v, ps->c->alloc * sizeof(*ps->c->v));
    }
    ps->c->v[ps->c->n++] = e;
done:
    ps->next_fuzzy = false;
    ps->next_flowed = false;
    return 0;
}

static void begin(struct parse *ps)
{
    strbuf_reset(&ps->id);
    strbuf_reset(&ps->plural_id);
    for (int k = 0; k < FORMS_MAX; k++) {
        strbuf_reset(&ps->forms[k]);
        ps->has_form[k] = false;
    }
    ps->has_plain = false;
    ps->open = true;
}

static int parse_line(struct parse *ps, const char *line, struct strbuf *err)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p || *p == '\r')
        return finish(ps, err);
    if (*p == '#') {
        if (p[1] == ',' && (strstr(p, "fuzzy") || strstr(p, "flowed"))) {
            bool fuzzy = strstr(p, "fuzzy") != NULL, flowed = strstr(p, "flowed") != NULL;
            if (finish(ps, err))
                return -1;
            ps->next_fuzzy |= fuzzy;
            ps->next_flowed |= flowed;
        }
        return 0;
    }
    if (*p == '"') {
        if (!ps->last)
            return strbuf_addstr(err, "a quoted line must continue a msgid or msgstr"), -1;
        return quoted(p, ps->last, err);
    }
    if (!strncmp(p, "msgid_plural", 12) && (p[12] == ' ' || p[12] == '"')) {
        if (!ps->open || ps->has_plain || ps->has_form[0])
            return strbuf_addstr(err, "msgid_plural must follow its msgid"), -1;
        ps->last = &ps->plural_id;
        return quoted(p + 12, ps->last, err);
    }
    if (!strncmp(p, "msgid", 5) && (p[5] == ' ' || p[5] == '"')) {
        bool fuzzy = ps->next_fuzzy, flowed = ps->next_flowed;
        if (finish(ps, err))
            return -1;
        ps->next_fuzzy = fuzzy;
        ps->next_flowed = flowed;
        begin(ps);
        ps->last = &ps->id;
        return quoted(p + 5, ps->last, err);
    }
    if (!strncmp(p, "msgstr[", 7)) {
        int k = p[7] - '0';
        if (k < 0 || k >= FORMS_MAX || p[8] != ']')
            return strbuf_addf(err, "a plural form is msgstr[0] to msgstr[%d]", FORMS_MAX - 1), -1;
        if (!ps->open || ps->has_form[k])
            return strbuf_addf(err, "msgstr[%d] must follow its msgid once", k), -1;
        ps->has_form[k] = true;
        ps->last = &ps->forms[k];
        return quoted(p + 9, ps->last, err);
    }
    if (!strncmp(p, "msgstr", 6) && (p[6] == ' ' || p[6] == '"')) {
        if (!ps->open || ps->has_plain)
            return strbuf_addstr(err, "msgstr must follow its msgid once"), -1;
        ps->has_plain = true;
        ps->last = &ps->forms[0];
        return quoted(p + 6, ps->last, err);
    }
    if (!strncmp(p, "msgctxt", 7))
        return strbuf_addstr(err, "msgctxt is not used: the msgid is the phrase's whole key"), -1;
    return strbuf_addstr(err, "a line must be a comment, msgid, msgid_plural, msgstr, msgstr[N] or a quoted text"), -1;
}

struct catalog *catalog_parse(const char *text, const char *lang, struct strbuf *err)
{
    struct parse ps = { .lang = lang_code(lang) };
    struct strbuf line = STRBUF_INIT, why = STRBUF_INIT;
    int lineno = 0, rc = 0;
    const char *p = text;
    ps.c = xcalloc(1, sizeof(*ps.c));
    strbuf_init(&ps.id);
    strbuf_init(&ps.plural_id);
    for (int k = 0; k < FORMS_MAX; k++)
        strbuf_init(&ps.forms[k]);
    while (!rc && *p) {
        size_t n = strcspn(p, "\n");
        lineno++;
        strbuf_reset(&line);
        strbuf_add(&line, p, n);
        rc = parse_line(&ps, line.buf, &why);
        p += n + (p[n] == '\n');
    }
    if (!rc)
        rc = finish(&ps, &why);
    if (!rc && ps.c->n) {
        qsort(ps.c->v, ps.c->n, sizeof(*ps.c->v), by_key);
        for (size_t i = 1; i < ps.c->n && !rc; i++)
            if (str_eq(ps.c->v[i - 1].key, ps.c->v[i].key)) {
                strbuf_addf(&why, "the key %s is given twice", ps.c->v[i].key);
                lineno = 0;
                rc = -1;
            }
    }
    if (rc) {
        if (lineno)
            strbuf_addf(err, "line %d: %s", lineno, why.buf);
        else
            strbuf_add(err, why.buf, why.len);
        catalog_free(ps.c);
        ps.c = NULL;
    }
    strbuf_release(&line);
    strbuf_release(&why);
    strbuf_release(&ps.id);
    strbuf_release(&ps.plural_id);
    for (int k = 0; k < FORMS_MAX; k++)
        strbuf_release(&ps.forms[k]);
    return ps.c;
}

static const struct entry *find(const struct catalog *c, const char *key)
{
    size_t lo = 0, hi = c ? c->n : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int d = strcmp(key, c->v[mid].key);
        if (!d)
            return &c->v[mid];
        if (d < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* ---- the catalogues of the templates directory ---------------------------- */

/* Each language's catalogue, read once and again when its file changes (a
 * host who mends a phrase needs no restart); looked at on disk at most once
 * a second. A replaced catalogue may still be rendering: it is kept. */
static struct loaded {
    char *dir;  /* the templates directory it was read from */
    struct catalog *c;
    char *why; /* why there is none */
    struct timespec mtime;
    off_t size;
    time_t looked;
} loaded[NLANGS];

static void keep_retired(struct catalog *c)
{
    static struct catalog **retired;
    static size_t n, alloc;
    if (!c)
        return;
    if (n == alloc) {
        alloc = alloc ? 2 * alloc : 4;
        retired = xrealloc(retired, alloc * sizeof(*retired));
    }
    retired[n++] = c;
}

static int lang_index(const char *lang)
{
    for (size_t i = 0; lang && i < NLANGS; i++)
        if (str_eq(lang, langs[i].code))
            return (int)i;
    return 0;
}

/* lang's catalogue; NULL when there is none or it is malformed, and why
 * in err (or, without err, on stderr once a version of the file). */
static const struct catalog *catalog_of(const char *lang, struct strbuf *err)
{
    int i = lang_index(lang);
    struct loaded *l = &loaded[i];
    struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
    struct stat sb;
    time_t now = time(NULL);
    const char *dir = template_dir();
    bool same = l->dir && str_eq(l->dir, dir);
    /* Looked at this second already: nothing to build or ask the disk. */
    if (same && l->looked == now && (l->c || !err))
        return l->c;
    strbuf_addf(&path, "%s/lang/%s.po", dir, langs[i].code);
    if (!same || l->looked != now) {
        if (stat(path.buf, &sb) != 0)
            sb = (struct stat){ .st_size = -1 };
        if (!same || sb.st_size != l->size || sb.st_mtim.tv_sec != l->mtime.tv_sec ||
            sb.st_mtim.tv_nsec != l->mtime.tv_nsec) {
            char *text = sb.st_size < 0 ? NULL : file_read(path.buf, CATALOG_MAX_BYTES, &why);
            struct catalog *c = text ? catalog_parse(text, langs[i].code, &why) : NULL;
            if (sb.st_size < 0)
                strbuf_addstr(&why, "no such catalogue");
            if (!c && sb.st_size >= 0)
                error("%s: %s (its phrases are read in English)", path.buf, why.buf);
            free(text);
            keep_retired(l->c);
            free(l->dir);
            free(l->why);
            *l = (struct loaded){ xstrdup(dir), c, c ? NULL : xstrdup(why.buf), sb.st_mtim, sb.st_size, 0 };
        }
        l->looked = now;
    }
    if (!l->c && err)
        strbuf_addf(err, "%s: %s", path.buf, l->why);
    strbuf_release(&path);
    strbuf_release(&why);
    return l->c;
}

static const struct entry *given(const char *lang, const char *key)
{
    const struct entry *e = find(catalog_of(lang_code(lang), NULL), key);
    return e && e->nforms && !e->fuzzy ? e : NULL;
}

const char *catalog_text(const char *lang, const char *key, long n)
{
    const char *code = lang_code(lang);
    const struct entry *e = given(code, key);
    if (!e && !str_eq(code, LANG_ENGLISH)) {
        code = LANG_ENGLISH;
        e = given(code, key);
    }
    if (!e)
        return NULL;
    if (!e->plural)
        return e->forms[0];
    int k = plural_form(code, n);
    return e->forms[k < e->nforms ? k : e->nforms - 1];
}

const char *catalog_term(const char *lang, const char *prefix, const char *name, const char *otherwise)
{
    char key[96];
    snprintf(key, sizeof(key), "%s%.60s", prefix, name ? name : "");
    return catalog_has(LANG_ENGLISH, key) ? catalog_text(lang, key, 0) : otherwise ? otherwise : name;
}

bool catalog_has(const char *lang, const char *key)
{
    return given(lang, key) != NULL;
}

void catalog_each(const char *lang, const char *prefix, void (*fn)(const char *key, const char *text, void *arg),
                  void *arg)
{
    const struct catalog *c = catalog_of(lang_code(lang), NULL);
    size_t n = strlen(prefix), lo = 0, hi = c ? c->n : 0;
    while (lo < hi) { /* the first key not before prefix */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(c->v[mid].key, prefix) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; c && i < c->n && !strncmp(c->v[i].key, prefix, n); i++)
        if (c->v[i].nforms && !c->v[i].fuzzy)
            fn(c->v[i].key, c->v[i].forms[0], arg);
}

const void *catalog_version(const char *lang)
{
    return catalog_of(lang_code(lang), NULL);
}

bool catalog_is_flowed(const char *lang, const char *key)
{
    const struct entry *e = given(lang, key), *en = given(LANG_ENGLISH, key);
    return (e && e->flowed) || (en && en->flowed);
}

bool catalog_is_plural(const char *key)
{
    const struct entry *e = given(LANG_ENGLISH, key);
    return e && e->plural;
}

int catalog_keys(const char *lang, struct strlist *out, struct strbuf *err)
{
    const struct catalog *c = catalog_of(lang_code(lang), err);
    if (!c)
        return -1;
    for (size_t i = 0; i < c->n; i++)
        strlist_push(out, c->v[i].key);
    return 0;
}
