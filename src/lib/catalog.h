/* catalog.h: the phrases a player reads, in her language: one catalogue a language (templates/lang/LL.po, gettext's format, keyed by message), CLDR plural forms, English where a phrase is missing. */
#ifndef NGOMA_CATALOG_H
#define NGOMA_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;
struct strlist;

/* The language every catalogue falls back to, and the host's default
 * until `ngoma config language` says another. */
#define LANG_ENGLISH "en"

/* A language ngoma speaks: its code (ISO 639-1), its name in itself and in
 * English, and how many plural forms its catalogue gives (msgstr[0..n-1]). */
struct lang {
    const char *code;
    const char *own_name;
    const char *english_name;
    int nplurals;
};

/* The languages, English first; NULL past the last. */
const struct lang *lang_at(size_t i);
/* The language a word names, any case: its code ("fr"), its own name
 * ("Français", "francais") or its English one ("French"); NULL for none. */
const struct lang *lang_find(const char *word);
/* lang's code when it is a language ngoma speaks, else English's. */
const char *lang_code(const char *lang);
/* A word as it is compared across languages: ASCII lower case, the
 * accents of the Latin-1 letters dropped ("RÈGLES" -> "regles"). */
void lang_fold(const char *s, char *out, size_t size);
/* "en, fr, pt, sw" */
void lang_codes(struct strbuf *out);

/* Which of lang's plural forms a count takes (CLDR's rules for integers):
 *   en, sw: one (1), other;
 *   fr:     one (0, 1), many (a whole million or more), other;
 *   pt:     one (1), many (a whole million or more), other: Portugal's
 *           rule, which Angola and Mozambique follow (Brazil's one also
 *           takes 0; the catalogue words nothing so that 0 reads wrong).
 * The index of msgstr[] in that language's catalogue. */
int plural_form(const char *lang, long n);

/* The text of key in lang's catalogue, the form for n when it has plural
 * forms; where lang's catalogue lacks it (or marks it fuzzy), English's;
 * NULL when no catalogue has it. Owned by the catalogue. */
const char *catalog_text(const char *lang, const char *key, long n);
/* A stored word said in lang: the text of the key prefix + name
 * ("lobby.status." "finished") when English's catalogue has that key;
 * else otherwise, or name itself when otherwise is NULL (a value no
 * catalogue words: bot:easy). Owned by the catalogue or the caller. */
const char *catalog_term(const char *lang, const char *prefix, const char *name, const char *otherwise);
/* Whether lang's own catalogue gives key (not fuzzy, every form given). */
bool catalog_has(const char *lang, const char *key);
/* Every key of lang's catalogue, sorted. -1 with why when it cannot be
 * read or is malformed (its file and line). */
int catalog_keys(const char *lang, struct strlist *out, struct strbuf *err);
/* Calls fn with each key of lang's own catalogue that begins with prefix,
 * and its text (its first form), in key order. */
void catalog_each(const char *lang, const char *prefix, void (*fn)(const char *key, const char *text, void *arg),
                  void *arg);
/* lang's catalogue as it is now read: another pointer once its file
 * changed (for those who keep what they derived from it). */
const void *catalog_version(const char *lang);
/* Whether lang's catalogue or English's marks key "#, flowed": the code
 * that uses it wraps it to a mail's 72 columns. */
bool catalog_is_flowed(const char *lang, const char *key);
/* Whether key has plural forms in English's catalogue. */
bool catalog_is_plural(const char *key);

/* Reads a catalogue's text (a .po file) into a fresh table: for tests and
 * for `ngoma check-catalogue`. -1 with the line and what was wrong. */
struct catalog;
struct catalog *catalog_parse(const char *text, const char *lang, struct strbuf *err);
void catalog_free(struct catalog *c);
size_t catalog_size(const struct catalog *c);

#endif
