/* check_languages.c: tests of the catalogues (every phrase in every language, plural forms, 72 columns), the order words of each language, and a seat who reads French in a game beside one who reads English. */
#include "test_support.h"
#include "core/view.h"
#include "render/render.h"

#include "core/engine.h"
#include "core/history.h"
#include "judge/host.h"
#include "games/game.h"
#include "core/reply.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "lib/order_text.h"
#include "mail/replytext.h"
#include "lib/paths.h"
#include "lib/strlist.h"
#include "lib/template.h"
#include "lib/util.h"
#include "store/db.h"
#include "store/languages.h"

#include <dirent.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(plural_forms_follow_cldr)
{
    /* en and sw: one is 1 alone. */
    ck_assert_int_eq(plural_form("en", 1), 0);
    ck_assert_int_eq(plural_form("en", 0), 1);
    ck_assert_int_eq(plural_form("en", 2), 1);
    ck_assert_int_eq(plural_form("sw", 1), 0);
    ck_assert_int_eq(plural_form("sw", 0), 1);
    ck_assert_int_eq(plural_form("sw", 21), 1);
    /* fr: 0 and 1 are one; a whole million is many ("1 000 000 de"). */
    ck_assert_int_eq(plural_form("fr", 0), 0);
    ck_assert_int_eq(plural_form("fr", 1), 0);
    ck_assert_int_eq(plural_form("fr", 2), 2);
    ck_assert_int_eq(plural_form("fr", 1000000), 1);
    ck_assert_int_eq(plural_form("fr", 3000000), 1);
    ck_assert_int_eq(plural_form("fr", 1000001), 2);
    /* pt as Angola, Mozambique and Portugal write it: 0 is other. */
    ck_assert_int_eq(plural_form("pt", 0), 2);
    ck_assert_int_eq(plural_form("pt", 1), 0);
    ck_assert_int_eq(plural_form("pt", 1000000), 1);
    ck_assert_int_eq(plural_form("pt", 7), 2);
    /* An unknown language counts as English. */
    ck_assert_int_eq(plural_form("xx", 1), 0);
    ck_assert_int_eq(plural_form(NULL, 5), 1);
}
END_TEST

START_TEST(a_plural_phrase_takes_its_form)
{
    struct strbuf out = STRBUF_INIT;
    const struct {
        const char *lang, *n, *want;
    } cases[] = {
        { "en", "1", "1 legal order now:" },       { "en", "0", "0 legal orders now:" },
        { "fr", "0", "0 ordre possible maintenant :" }, { "fr", "2", "2 ordres possibles maintenant :" },
        { "fr", "1000000", "1000000 d'ordres possibles maintenant :" },
        { "pt", "0", "0 ordens possíveis agora:" }, { "pt", "1", "1 ordem possível agora:" },
        { "sw", "3", "Amri 3 halali sasa:" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        strbuf_reset(&out);
        ck_assert_int_eq(phrase_add(&out, cases[i].lang, "count.legal-orders", "n", cases[i].n, NULL), 0);
        ck_assert_str_eq(out.buf, cases[i].want);
    }
    strbuf_release(&out);
}
END_TEST

START_TEST(a_bad_catalogue_is_refused_with_its_line)
{
    const struct {
        const char *text, *why;
    } bad[] = {
        { "msgid \"a.b\"\n", "a.b has no msgstr" },
        { "msgid \"a.b\"\nmsgstr \"x\\q\"\n", "line 2: an escape must be" },
        { "msgid \"A b\"\nmsgstr \"x\"\n", "must be lower-case letters" },
        { "msgid \"a.b\"\nmsgstr \"x\"\n\nmsgid \"a.b\"\nmsgstr \"y\"\n", "the key a.b is given twice" },
        { "msgid \"a.b\"\nmsgid_plural \"a.b\"\nmsgstr[0] \"x\"\nmsgstr[1] \"y\"\n", "3 plural forms" },
        { "msgctxt \"x\"\n", "msgctxt is not used" },
        { "msgid \"a.b\"\nmsgstr \"x\n", "not closed" },
        { "\"lost\"\n", "must continue a msgid or msgstr" },
        { "hello\n", "a line must be a comment" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        struct strbuf err = STRBUF_INIT;
        struct catalog *c = catalog_parse(bad[i].text, "fr", &err);
        ck_assert_msg(c == NULL, "case %zu was taken", i);
        ck_assert_msg(strstr(err.buf, bad[i].why) != NULL, "case %zu: %s", i, err.buf);
        strbuf_release(&err);
    }
    {
        /* Continued strings join; the header is no phrase; fuzzy and
         * empty translations are kept as untranslated. */
        struct strbuf err = STRBUF_INIT;
        struct catalog *c = catalog_parse("msgid \"\"\nmsgstr \"Language: fr\\n\"\n\nmsgid \"a.b\"\nmsgstr \"\"\n"
                                          "\"x\"\n\"y\"\n\n#, fuzzy\nmsgid \"a.c\"\nmsgstr \"z\"\n",
                                          "fr", &err);
        ck_assert_msg(c != NULL, "%s", err.buf);
        ck_assert_int_eq(catalog_size(c), 2);
        catalog_free(c);
        strbuf_release(&err);
    }
}
END_TEST

/* The {{%key}} tags of a text, pushed to keys. */
static void tags_of(const char *text, struct strlist *keys)
{
    for (const char *p = text; (p = strstr(p, "{{%"));) {
        size_t n = strcspn(p + 3, " }");
        char *k = xstrndup(p + 3, n);
        strlist_push(keys, k);
        free(k);
        p += 3 + n;
    }
}

/* Every phrase a template asks for is in the English catalogue, and
 * every phrase of the English catalogue is in each other one (none left
 * untranslated or fuzzy), and no catalogue has a phrase English lacks
 * besides its order words. The missing ones are listed by language. */
START_TEST(every_phrase_is_in_every_catalogue)
{
    struct strlist en = STRLIST_INIT, used = STRLIST_INIT;
    struct strbuf err = STRBUF_INIT, missing = STRBUF_INIT;
    char *dir = data_path("templates", "");
    DIR *dh = opendir(dir);
    struct dirent *de;
    ck_assert_msg(catalog_keys("en", &en, &err) == 0, "%s", err.buf);
    ck_assert_int_gt(en.n, 40);
    ck_assert_ptr_nonnull(dh);
    while ((de = readdir(dh))) {
        char *path, *text;
        if (!strstr(de->d_name, ".txt") && !strstr(de->d_name, ".html"))
            continue;
        path = data_path("templates", de->d_name);
        text = file_read(path, FILE_MAX_TEXT, &err);
        ck_assert_msg(text != NULL, "%s", err.buf);
        tags_of(text, &used);
        free(text);
        free(path);
    }
    closedir(dh);
    free(dir);
    strlist_sort_unique(&used);
    ck_assert_int_gt(used.n, 30);
    for (size_t i = 0; i < used.n; i++)
        ck_assert_msg(strlist_contains(&en, used.v[i]), "a template asks for %s, which en.po lacks", used.v[i]);
    /* Each game's summary: English's is the game's own (ops->summary). */
    for (size_t i = 0; game_registry[i]; i++)
        strlist_pushf(&en, "summary.%s", game_registry[i]->name);
    for (size_t l = 1; lang_at(l); l++) {
        const char *code = lang_at(l)->code;
        struct strlist keys = STRLIST_INIT;
        size_t lacks = 0;
        ck_assert_msg(catalog_keys(code, &keys, &err) == 0, "%s", err.buf);
        for (size_t i = 0; i < en.n; i++)
            if (!catalog_has(code, en.v[i])) {
                strbuf_addf(&missing, "%s.po lacks %s\n", code, en.v[i]);
                lacks++;
            }
        for (size_t i = 0; i < keys.n; i++)
            if (strncmp(keys.v[i], "word.", 5) != 0)
                ck_assert_msg(strlist_contains(&en, keys.v[i]), "%s.po has %s, which en.po lacks", code, keys.v[i]);
        {
            size_t phrases = 0, words = 0;
            for (size_t i = 0; i < en.n; i++)
                phrases += strncmp(en.v[i], "word.", 5) != 0;
            for (size_t i = 0; i < keys.n; i++)
                words += strncmp(keys.v[i], "word.", 5) == 0;
            printf("%s.po: %zu of %zu phrases translated, %zu order words\n", code, phrases - lacks, phrases, words);
        }
        strlist_clear(&keys);
    }
    ck_assert_msg(missing.len == 0, "phrases missing:\n%s", missing.buf);
    strlist_clear(&en);
    strlist_clear(&used);
    strbuf_release(&err);
    strbuf_release(&missing);
}
END_TEST

/* The values a phrase names in all its forms ({{game}}, {{#from}}...):
 * their names, the section marks dropped, phrases it asks for left. */
static void values_of(const char *lang, const char *key, struct strlist *out)
{
    for (long n = 0; n < 3; n++) {
        const char *t = catalog_text(lang, key, n);
        for (const char *p = t; p && (p = strstr(p, "{{"));) {
            size_t len = strcspn(p + 2, "}");
            const char *name = p + 2;
            if (*name == '#' || *name == '^' || *name == '/')
                name++, len--;
            if (*name != '%' && *name != '!' && len) {
                char *v = xstrndup(name, len);
                if (!strlist_contains(out, v))
                    strlist_push(out, v);
                free(v);
            }
            p += 2 + strcspn(p + 2, "}");
        }
    }
}

/* A translation names the values its English names: none misspelt (it
 * would read as nothing), none left out but the count its plural form
 * says in words ("l'autre joueur"). */
START_TEST(every_translation_names_the_values_of_its_english)
{
    struct strlist en = STRLIST_INIT;
    struct strbuf err = STRBUF_INIT, wrong = STRBUF_INIT;
    int compared = 0;
    ck_assert_msg(catalog_keys("en", &en, &err) == 0, "%s", err.buf);
    for (size_t l = 1; lang_at(l); l++)
        for (size_t i = 0; i < en.n; i++) {
            struct strlist want = STRLIST_INIT, got = STRLIST_INIT;
            const char *code = lang_at(l)->code;
            /* A date's format names the fields its language writes. */
            if (!catalog_has(code, en.v[i]) || str_eq(en.v[i], "date.format"))
                continue;
            values_of("en", en.v[i], &want);
            values_of(code, en.v[i], &got);
            for (size_t k = 0; k < got.n; k++)
                if (!strlist_contains(&want, got.v[k]))
                    strbuf_addf(&wrong, "%s.po %s names {{%s}}, which English does not\n", code, en.v[i], got.v[k]);
            for (size_t k = 0; k < want.n; k++)
                if (!strlist_contains(&got, want.v[k]) && !str_eq(want.v[k], "n"))
                    strbuf_addf(&wrong, "%s.po %s leaves out {{%s}}\n", code, en.v[i], want.v[k]);
            compared++;
            strlist_clear(&want);
            strlist_clear(&got);
        }
    ck_assert_int_gt(compared, 2000);
    ck_assert_msg(wrong.len == 0, "%s", wrong.buf);
    strlist_clear(&en);
    strbuf_release(&err);
    strbuf_release(&wrong);
}
END_TEST

/* Every line of every phrase fits a mail's 72 columns, its values
 * counted at the width a long one takes. */
START_TEST(every_phrase_fits_a_mail)
{
    struct strbuf err = STRBUF_INIT;
    for (size_t l = 0; lang_at(l); l++) {
        const char *code = lang_at(l)->code;
        struct strlist keys = STRLIST_INIT;
        ck_assert_msg(catalog_keys(code, &keys, &err) == 0, "%s", err.buf);
        for (size_t i = 0; i < keys.n; i++)
            /* An event's line is one logical line: a mail wraps it. */
            for (long n = 0; n < 3 && strncmp(keys.v[i], "event.", 6) != 0 && !catalog_is_flowed(code, keys.v[i]); n++) {
                const char *t = catalog_text(code, keys.v[i], n);
                size_t cols = 0;
                ck_assert_ptr_nonnull(t);
                for (const char *p = t; *p; p++) {
                    if (*p == '\n') {
                        cols = 0;
                        continue;
                    }
                    if (p[0] == '{' && p[1] == '{') {
                        /* A value: a game number, a name, a title; a
                         * section's tags take no room. */
                        const char *e = strstr(p, "}}");
                        ck_assert_ptr_nonnull(e);
                        cols += p[2] == '#' || p[2] == '/' || p[2] == '^' ? 0
                                : strncmp(p, "{{game}}", 8) == 0 || strncmp(p, "{{seat}}", 8) == 0 || strncmp(p, "{{n}}", 5) == 0 ? 2
                                : 8;
                        p = e + 1;
                        continue;
                    }
                    cols += ((unsigned char)*p & 0xc0) != 0x80;
                    ck_assert_msg(cols <= 72, "%s.po %s: a line is longer than 72 columns", code, keys.v[i]);
                }
            }
        strlist_clear(&keys);
    }
    strbuf_release(&err);
}
END_TEST

/* The tags of a template that are not comments ({{title}},
 * {{>rules-common.txt}}), in order. */
static void non_comment_tags(const char *text, struct strlist *out)
{
    for (const char *p = text; (p = strstr(p, "{{"));) {
        const char *e = strstr(p, "}}");
        if (!e)
            break;
        if (p[2] != '!')
            strlist_pushf(out, "%.*s", (int)(e + 2 - p), p);
        p = e + 2;
    }
}

/* A lobby word of a catalogue, in the language's words (its first
 * spelling), kept when its HELP text lacks it. */
struct help_look {
    const char *text;
    struct strbuf *lacks;
    const char *code;
};

static void lobby_word_in_help(const char *key, const char *local, void *arg)
{
    struct help_look *h = arg;
    char word[64];
    if (str_eq(h->code, "en")) { /* English's word is the key's */
        size_t k = 0;
        for (const char *p = strrchr(key, '.') + 1; *p && k + 1 < sizeof(word); p++)
            word[k++] = (char)toupper((unsigned char)*p);
        word[k] = '\0';
    } else {
        snprintf(word, sizeof(word), "%.*s", (int)strcspn(local, "|"), local);
    }
    if (!strstr(h->text, word))
        strbuf_addf(h->lacks, "%s: the lobby's HELP lacks %s (%s)\n", h->code, word, key);
}

/* The lobby's HELP (one text a language) names every lobby command in
 * that language's words: a command added to the lobby's table and its
 * catalogue is added to each HELP too. */
START_TEST(the_lobby_help_names_every_command_in_each_language)
{
    struct strbuf lacks = STRBUF_INIT;
    for (size_t l = 0; lang_at(l); l++) {
        char rel[64], *path, *text;
        struct help_look h = { NULL, &lacks, lang_at(l)->code };
        if (l)
            snprintf(rel, sizeof(rel), "lang/%s/lobby-help.txt", lang_at(l)->code);
        else
            snprintf(rel, sizeof(rel), "lobby-help.txt");
        path = data_path("templates", rel);
        text = file_read(path, FILE_MAX_TEXT, NULL);
        ck_assert_msg(text != NULL, "no %s", rel);
        h.text = text;
        /* English's commands are the keys of any other catalogue's words. */
        catalog_each(l ? lang_at(l)->code : lang_at(1)->code, "word.lobby.", lobby_word_in_help, &h);
        free(text);
        free(path);
    }
    ck_assert_msg(lacks.len == 0, "%s", lacks.buf);
    strbuf_release(&lacks);
}
END_TEST

/*
 * The texts too long for phrases (the rules summaries HELP sends, the
 * orders every game takes, the lobby's HELP, the host's commands) are in
 * every language's folder, with the
 * English text's tags and no more, every line within 72 columns; the
 * missing ones are listed by language.
 */
START_TEST(every_long_text_is_in_every_language)
{
    struct strlist names = STRLIST_INIT;
    struct strbuf err = STRBUF_INIT, missing = STRBUF_INIT;
    strlist_push(&names, "rules-common.txt");
    strlist_push(&names, "lobby-help.txt");
    strlist_push(&names, "host-commands.txt");
    for (size_t i = 0; game_registry[i]; i++) {
        /* Each game's summary (the test game has none). */
        char rel[64], *path, *text;
        snprintf(rel, sizeof(rel), "rules/%s.txt", game_registry[i]->name);
        path = data_path("templates", rel);
        text = file_read(path, FILE_MAX_TEXT, NULL);
        if (text)
            strlist_push(&names, rel);
        free(text);
        free(path);
    }
    ck_assert_uint_ge(names.n, 8);
    for (size_t l = 1; lang_at(l); l++) {
        const char *code = lang_at(l)->code;
        size_t have = 0;
        for (size_t i = 0; i < names.n; i++) {
            struct strlist want = STRLIST_INIT, got = STRLIST_INIT;
            char *en_path = data_path("templates", names.v[i]), *en = file_read(en_path, FILE_MAX_TEXT, &err);
            char *rel = xmalloc(strlen(names.v[i]) + 16), *path, *text;
            sprintf(rel, "lang/%s/%s", code, names.v[i]);
            path = data_path("templates", rel);
            text = file_read(path, FILE_MAX_TEXT, NULL);
            ck_assert_msg(en != NULL, "%s", err.buf);
            if (!text) {
                strbuf_addf(&missing, "templates/%s is missing\n", rel);
            } else {
                int line = 1;
                have++;
                non_comment_tags(en, &want);
                non_comment_tags(text, &got);
                ck_assert_msg(want.n == got.n, "templates/%s has %zu tags, the English text %zu", rel, got.n, want.n);
                for (size_t k = 0; k < want.n; k++)
                    ck_assert_msg(str_eq(want.v[k], got.v[k]), "templates/%s: %s where English has %s", rel, got.v[k],
                                  want.v[k]);
                for (const char *p = text; *p; line++) {
                    size_t n = strcspn(p, "\n"), cols = 0;
                    for (size_t k = 0; k < n; k++)
                        cols += ((unsigned char)p[k] & 0xc0) != 0x80;
                    ck_assert_msg(cols <= 72 || strncmp(p, "{{!", 3) == 0, "templates/%s line %d has %zu columns",
                                  rel, line, cols);
                    p += n + (p[n] == '\n');
                }
            }
            strlist_clear(&want);
            strlist_clear(&got);
            free(text);
            free(path);
            free(rel);
            free(en);
            free(en_path);
        }
        printf("%s: %zu of %zu long texts translated\n", code, have, names.n);
    }
    ck_assert_msg(missing.len == 0, "long texts missing:\n%s", missing.buf);
    strlist_clear(&names);
    strbuf_release(&err);
    strbuf_release(&missing);
}
END_TEST

/* HELP in her language: her rules summary, the common orders in her
 * words too (the partial read from her language's folder). */
START_TEST(help_is_sent_in_her_language)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission s;
    t_new_game(db, "kalimambo", 3, 7, NULL, &g);
    t_submit(db, &g, 1, "LANGUE fr\nAIDE", &s);
    ck_assert_int_eq(s.lines[1].status, LINE_INFO);
    ck_assert_msg(strstr(s.lines[1].body.buf, "Kalimambo : les règles en bref") != NULL, "%s", s.lines[1].body.buf);
    ck_assert_msg(strstr(s.lines[1].body.buf, "MESSAGE À Bob") != NULL, "%s", s.lines[1].body.buf);
    submission_release(&s);
    t_submit(db, &g, 0, "HELP", &s);
    ck_assert_msg(strstr(s.lines[0].body.buf, "Kalimambo: rules in brief") != NULL, "%s", s.lines[0].body.buf);
    ck_assert_msg(strstr(s.lines[0].body.buf, "PRESS TO Bob") != NULL, "%s", s.lines[0].body.buf);
    submission_release(&s);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* Press meets languages: the words of press are read in any language
 * (MESSAGE À Cleo, FIN MESSAGE, BLOQUER), each reader's mail says in hers
 * who wrote to whom, the message goes as written, and the writer's
 * answer is in hers; the common orders' settings in her words too. */
START_TEST(press_and_settings_in_each_language)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct inbound_result r;
    char *text;
    t_new_game(db, "kalimambo", 3, 7, NULL, &g);
    ck_assert_int_eq(language_set(db, g.seats[1].email, "fr"), 0);
    ck_assert_int_eq(language_set(db, g.seats[2].email, "sw"), 0);
    r = t_seat_mail(db, &g, 1, g.seats[1].email,
                    "Message à Cleo et Ann\nBonjour à vous deux, on s'allie ?\nFin message\nJOUER 4\n");
    ck_assert_int_eq(r.status, INBOUND_PROCESSED);
    text = t_last_text(db, g.seats[2].email, "press");
    ck_assert_msg(strstr(text, "Ujumbe kutoka kwa Bob kwa wewe na Ann, Kalimambo mchezo 1:") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "Bonjour à vous deux, on s'allie ?") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "ZUIA Bob") != NULL, "%s", text);
    free(text);
    text = t_last_text(db, g.seats[0].email, "press");
    ck_assert_msg(strstr(text, "Press from Bob to you and Cleo, Kalimambo game 1:") != NULL, "%s", text);
    free(text);
    text = t_last_text(db, g.seats[1].email, "reply");
    ck_assert_msg(strstr(text, "JOUER 4 pris en compte, en secret ; message à Ann et Cleo envoyé") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "Envoyé à Ann et Cleo.") != NULL, "%s", text);
    free(text);
    /* Her refusal in hers; a muted writer, in hers. */
    r = t_seat_mail(db, &g, 2, g.seats[2].email, "ZUIA Bob\nUJUMBE KWA Zed\nhabari\n");
    ck_assert_int_eq(r.status, INBOUND_PROCESSED);
    text = t_last_text(db, g.seats[2].email, "reply");
    ck_assert_msg(strstr(text, "hakuna mchezaji wa mchezo huu anayeitwa \"Zed\"") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "Ujumbe wa Bob haukufikii tena") != NULL, "%s", text);
    free(text);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM press_mutes WHERE seat = 3 AND muted = 2"), 1);
    /* The settings' words: COURRIER CHAQUE, IMAGES NON. */
    r = t_seat_mail(db, &g, 1, g.seats[1].email, "COURRIER CHAQUE\nIMAGES NON\n");
    ck_assert_int_eq(r.status, INBOUND_PROCESSED);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM seats WHERE seat = 2 AND mail_policy = 'every'"), 1);
    text = t_last_text(db, g.seats[1].email, "reply");
    ck_assert_msg(strstr(text, "Désormais vous recevez un message après chaque étape") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "Vos messages montrent le plateau en texte seulement") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "Refusé") == NULL, "%s", text);
    free(text);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A picture in her language: every game's labels from the catalogue, the
 * game and where it stands in her words; the same view without a
 * language draws English. */
START_TEST(pictures_are_labelled_in_her_language)
{
    static const struct {
        const char *game;
        int seats;
        const char *fr, *en;
    } games[] = { { "kalimambo", 3, "Cartes restantes de Kali", "Kali's cards left" },
                  { "kuniumi", 2, "Jetons Terre", "Land tokens" },
                  { "bumuntu", 3, "Tableau de faveur, de haut en bas :", "Favor board, top to bottom:" },
                  { "bantu", 2, "Au trait", "To move" },
                  { "african-empires", 3, "Pioche", "Deck" } };
    for (size_t i = 0; i < ARRAY_SIZE(games); i++) {
        sqlite3 *db = t_db();
        struct game_rec g;
        struct render_out out;
        struct strbuf err = STRBUF_INIT;
        cJSON *v;
        t_new_game(db, games[i].game, games[i].seats, 7, NULL, &g);
        v = view_json(db, &g, 1);
        render_out_init(&out);
        ck_assert_msg(render_board(v, NULL, &out, &err) == 0, "%s", err.buf);
        ck_assert_msg(strstr(out.texts, games[i].en) != NULL, "%s: %s", games[i].game, out.texts);
        render_out_release(&out);
        cJSON_AddStringToObject(v, "lang", "fr");
        cJSON_AddStringToObject(v, "when_text", "manche 1 sur 12");
        render_out_init(&out);
        ck_assert_msg(render_board(v, NULL, &out, &err) == 0, "%s", err.buf);
        ck_assert_msg(strstr(out.texts, games[i].fr) != NULL, "%s: %s", games[i].game, out.texts);
        ck_assert_msg(strstr(out.texts, ", partie 1") != NULL, "%s: %s", games[i].game, out.texts);
        ck_assert_msg(strstr(out.texts, games[i].en) == NULL, "%s: %s", games[i].game, out.texts);
        render_out_release(&out);
        cJSON_Delete(v);
        strbuf_release(&err);
        game_unload(&g);
        db_close(db);
    }
}
END_TEST

/* The lobby meets a stranger who reads French: its confirmation in
 * French (its subject's token still the proof), CONFIRMER TOKEN taken,
 * a slip offered back in her words, her taps in her words. */
START_TEST(the_lobby_answers_in_her_language)
{
    sqlite3 *db = t_lobby_db("open");
    const char *ama = "ama@example.org";
    char *token, *text;
    ck_assert_int_eq(language_set(db, ama, "fr"), 0);
    t_lobby(db, ama, "salut", "LISTE");
    text = t_last_text(db, ama, "lobby");
    ck_assert_msg(strstr(text, "Salon ngoma : la réponse à votre LISTE.") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "répondez une fois à ce message") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "Une commande par ligne ; AIDE les liste.") != NULL, "%s", text);
    free(text);
    token = t_token_of(db, ama, "confirmer");
    {
        char body[64];
        snprintf(body, sizeof(body), "CONFIRMER %s", token);
        t_lobby(db, ama, "ok", body);
    }
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_addresses WHERE address = 'ama@example.org' AND"
                                 " confirmed_at IS NOT NULL"),
                     1);
    free(token);
    t_lobby(db, ama, "re", "LISTEE");
    text = t_last_text(db, ama, "lobby");
    ck_assert_msg(strstr(text, "Vouliez-vous dire LISTE ?") != NULL, "%s", text);
    free(text);
    {
        char *mail = NULL;
        ck_assert_int_eq(db_get_text(db, &mail, "SELECT mail FROM outbox WHERE rcpt = ? ORDER BY id DESC LIMIT 1", "s",
                                     ama),
                         1);
        ck_assert_msg(strstr(mail, "MES PARTIES") != NULL || strstr(mail, "MES%20PARTIES") != NULL, "%s", mail);
        free(mail);
    }
    /* She opens a table and invites a friend who reads Portuguese: the
     * invitation is in his, her answer in hers. */
    ck_assert_int_eq(language_set(db, "bo@example.org", "pt"), 0);
    t_lobby(db, ama, "new", "NOUVELLE kalimambo SEATS 3 AS Ama\nINVITER 1 bo@example.org");
    text = t_last_text(db, ama, "lobby");
    ck_assert_msg(strstr(text, "bo@example.org est invité à la partie 1 : un seul message") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "La partie 1 (Kalimambo, 3 places) est ouverte") != NULL, "%s", text);
    free(text);
    text = t_last_text(db, "bo@example.org", "invite");
    ck_assert_msg(strstr(text, "Ama (ama@example.org) convida-o para Kalimambo, jogo 1.") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "ENTRAR 1 AS SeuNome") != NULL, "%s", text);
    free(text);
    /* LIST and MYGAMES in hers. */
    t_lobby(db, ama, "list", "LISTE\nMES PARTIES");
    text = t_last_text(db, ama, "lobby");
    ck_assert_msg(strstr(text, "Partie 1 : Kalimambo, 1 sur 3 places prises (Ama) ; pas de date limite ;") != NULL,
                  "%s", text);
    ck_assert_msg(strstr(text, "REJOINDRE 1 AS VotreNom.") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "vous y êtes assis sous le nom Ama, son hôte.") != NULL, "%s", text);
    free(text);
    /* Her JOIN of a full table's seat, her LEAVE. */
    t_lobby(db, ama, "join", "REJOINDRE 1 AS Zed\nQUITTER 9");
    text = t_last_text(db, ama, "lobby");
    ck_assert_msg(strstr(text, "vous êtes déjà assis à la partie 1") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "la partie 9 n'attend pas de joueurs") != NULL, "%s", text);
    free(text);
    db_close(db);
}
END_TEST

START_TEST(languages_are_found_by_code_and_name)
{
    ck_assert_str_eq(lang_find("fr")->code, "fr");
    ck_assert_str_eq(lang_find("FR")->code, "fr");
    ck_assert_str_eq(lang_find("Français")->code, "fr");
    ck_assert_str_eq(lang_find("FRANÇAIS")->code, "fr");
    ck_assert_str_eq(lang_find("francais")->code, "fr");
    ck_assert_str_eq(lang_find("Portuguese")->code, "pt");
    ck_assert_str_eq(lang_find("português")->code, "pt");
    ck_assert_str_eq(lang_find("Kiswahili")->code, "sw");
    ck_assert_str_eq(lang_find("swahili")->code, "sw");
    ck_assert_str_eq(lang_find("english")->code, "en");
    ck_assert_ptr_null(lang_find("klingon"));
    ck_assert_ptr_null(lang_find(""));
    ck_assert_str_eq(lang_code("de"), "en");
}
END_TEST

/* Orders in her words are read in English; English is always read;
 * accents and case never count; an order is written back in hers. */
START_TEST(order_words_are_read_in_each_language)
{
    const struct {
        const char *lang, *scope, *game, *line, *want;
    } cases[] = {
        { "fr", "common", "kalimambo", "JOUER 7", "PLAY 7" },
        { "fr", "common", "kalimambo", "jouer 7", "PLAY 7" },
        { "pt", "common", "kalimambo", "Jogar 7", "PLAY 7" },
        { "sw", "common", "kalimambo", "CHEZA 7", "PLAY 7" },
        { "fr", "common", "kalimambo", "PLAY 7", "PLAY 7" },
        { "fr", "common", "kalimambo", "RÈGLES", "RULES" },
        { "fr", "common", "kalimambo", "regles", "RULES" },
        { "fr", "common", "kalimambo", "sans  nulle", "NODRAW" },
        { "fr", "common", "kalimambo", "NULLE", "DRAW" },
        { "sw", "common", "kalimambo", "futa sare", "NODRAW" },
        { "pt", "common", "kalimambo", "HISTORICO", "HISTORY" },
        { "fr", "lobby", NULL, "MES PARTIES", "MYGAMES" },
        { "sw", "lobby", NULL, "michezo yangu", "MYGAMES" },
        { "sw", "lobby", NULL, "MICHEZO", "GAMES" },
        { "pt", "lobby", NULL, "CLASSIFICAÇÃO kalimambo", "RATINGS kalimambo" },
        { "pt", "lobby", NULL, "classificacao kalimambo", "RATINGS kalimambo" },
        { "fr", "lobby", NULL, "REJOINDRE 12 AS Zola", "JOIN 12 AS Zola" },
        { "en", "lobby", NULL, "REJOINDRE 12", "REJOINDRE 12" },
        /* LANGUAGE in her own words, whatever she reads now. */
        { "en", "lobby", NULL, "LANGUE fr", "LANGUAGE fr" },
        { "en", "common", "kalimambo", "lugha sw", "LANGUAGE sw" },
        /* Only a line's first words: a sentence that holds one is no order. */
        { "fr", "common", "kalimambo", "Je veux JOUER 7", "Je veux JOUER 7" },
        /* A game's later words after its first; two English words as one. */
        { "sw", "common", "bumuntu", "SIMBA c4", "LION c4" },
        { "fr", "common", "kuniumi", "poser dieu-terre c3", "PLACE EARTH GOD c3" },
        { "pt", "common", "african-empires", "MOVER Mali DE a PARA b", "MOVE Mali FROM a TO b" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        char *got = lexicon_english(cases[i].lang, cases[i].scope, cases[i].game, cases[i].line);
        ck_assert_msg(str_eq(got, cases[i].want), "%s %s: \"%s\" read as \"%s\"", cases[i].lang, cases[i].line,
                      cases[i].line, got);
        free(got);
    }
    {
        char *local = lexicon_local("fr", "common", "kalimambo", "PLAY 7\nPLAY 8\nHELP");
        ck_assert_str_eq(local, "JOUER 7\nJOUER 8\nAIDE");
        free(local);
        local = lexicon_local("fr", "common", "kuniumi", "PLACE EARTH GOD c3\nMOVE d4");
        ck_assert_str_eq(local, "POSER DIEU-TERRE c3\nDÉPLACER d4");
        free(local);
        /* Only the game's words: a card's name is as it is. */
        local = lexicon_local("fr", "common", "african-empires", "PLAY Great Move");
        ck_assert_str_eq(local, "JOUER Great Move");
        free(local);
        local = lexicon_local("en", "common", "kalimambo", "PLAY 7");
        ck_assert_str_eq(local, "PLAY 7");
        free(local);
    }
}
END_TEST

/* A reply's greeting, sign-off and quote header in her language are read
 * as such: the orders are what is left. */
START_TEST(replies_are_read_in_each_language)
{
    static const char *const verbs_[] = { "PLAY" };
    struct strlist verbs = STRLIST_INIT;
    const struct {
        const char *mail, *own;
    } replies[] = {
        { "Habari!\nCHEZA 7\nAsante sana\n\nMnamo Jumatano, 2 Des 2026 saa 10:00, ngoma <ngoma@example.org>"
          " aliandika:\n> Zamu yako\n",
          "Habari!\nCHEZA 7\nAsante sana\n" },
        { "JOGAR 3\nCumprimentos\n\nNo dia 2/12/2026, \xc3\xa0s 10:00, ngoma <ngoma@example.org> escreveu:\n> \xc3\x89 a sua vez\n",
          "JOGAR 3\nCumprimentos\n" },
        { "JOUER 2\nBien \xc3\xa0 vous\n\nLe mer. 2 d\xc3\xa9\x63. 2026 \xc3\xa0 10:00, ngoma <ngoma@example.org> a \xc3\xa9\x63rit :\n> \xc3\x80 vous\n",
          "JOUER 2\nBien \xc3\xa0 vous\n" },
        { "CHEZA 4\n\nImetumwa kutoka iPhone yangu\n", "CHEZA 4\n" },
    };
    static const char *const greetings[] = { "Asante sana", "Habari yako", "Habari", "Kwaheri", "Cumprimentos",
                                              "Um abra\xc3\xa7o", "Bien \xc3\xa0 vous", "Bonsoir", "Salamu wote" };
    strlist_push(&verbs, verbs_[0]);
    for (size_t i = 0; i < ARRAY_SIZE(replies); i++) {
        char *own = mail_own_text(replies[i].mail);
        struct strlist lines = STRLIST_INIT;
        struct strbuf kept = STRBUF_INIT;
        /* Quoted lines are left for the order reader, which skips them. */
        order_lines(own, &lines);
        for (size_t k = 0; k < lines.n; k++)
            strbuf_addf(&kept, "%s\n", lines.v[k]);
        strlist_clear(&lines);
        free(own);
        own = strbuf_detach(&kept);
        char *flat_own = t_flat(own), *flat_want = t_flat(replies[i].own);
        ck_assert_msg(str_eq(flat_own, flat_want), "reply %zu read as \"%s\"", i, own);
        free(own);
        free(flat_own);
        free(flat_want);
    }
    for (size_t i = 0; i < ARRAY_SIZE(greetings); i++)
        ck_assert_msg(order_line_is_greeting(greetings[i], &verbs), "\"%s\" is not read as a greeting", greetings[i]);
    ck_assert(!order_line_is_greeting("CHEZA 7", &verbs));
    strlist_clear(&verbs);
}
END_TEST

/* No word of a language means two things in one command language: a
 * translation is never another row's English name, nor the same as
 * another row's translation. */
static void words_of(const char *key, const char *text, void *arg)
{
    struct strlist *l = arg;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "|");
        char one[96], folded[96];
        snprintf(one, sizeof(one), "%.*s", (int)n, p);
        lang_fold(one, folded, sizeof(folded));
        strlist_pushf(l, "%s=%s", folded, strrchr(key, '.') + 1);
        p += n + (p[n] == '|');
    }
}

START_TEST(no_order_word_means_two_things)
{
    /* The lobby's words; press's and the envelope's (read at every
     * address); and each game's with the orders every game takes. */
    const char *scopes[16][2] = { { "lobby", NULL }, { "press", NULL }, { "envelope", NULL } };
    size_t nscopes = 3;
    for (size_t i = 0; game_registry[i] && nscopes < ARRAY_SIZE(scopes); i++) {
        scopes[nscopes][0] = "common";
        scopes[nscopes++][1] = game_registry[i]->name;
    }
    for (size_t l = 1; lang_at(l); l++)
        for (size_t s = 0; s < nscopes; s++) {
            struct strlist words = STRLIST_INIT;
            struct strbuf prefix = STRBUF_INIT;
            for (int k = 0; k < 2; k++)
                if (scopes[s][k]) {
                    strbuf_reset(&prefix);
                    strbuf_addf(&prefix, "word.%s.", scopes[s][k]);
                    catalog_each(lang_at(l)->code, prefix.buf, words_of, &words);
                }
            ck_assert_int_gt(words.n, 0);
            for (size_t i = 0; i < words.n; i++)
                for (size_t j = 0; j < words.n; j++) {
                    const char *wi = words.v[i], *ei = strchr(wi, '=') + 1, *wj = words.v[j], *ej = strchr(wj, '=') + 1;
                    size_t ni = (size_t)(ei - 1 - wi);
                    char english[96];
                    lang_fold(ej, english, sizeof(english));
                    for (char *c = english; *c; c++)
                        if (*c == '-')
                            *c = ' ';
                    if (str_eq(ei, ej))
                        continue;
                    /* Two rows, one word. */
                    ck_assert_msg(!(ni == (size_t)(strchr(wj, '=') - wj) && !strncmp(wi, wj, ni)),
                                  "%s: %s means %s and %s", lang_at(l)->code, wi, ei, ej);
                    /* A translation that is another row's English name. */
                    ck_assert_msg(!(strlen(english) == ni && !strncmp(wi, english, ni)),
                                  "%s: %s is the English of %s", lang_at(l)->code, wi, ej);
                }
            strlist_clear(&words);
            strbuf_release(&prefix);
        }
}
END_TEST

/* A seat who reads French and one who reads English in one game: each
 * her own answer, her order words taken, the other's untouched. */
START_TEST(two_seats_two_languages)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission s;
    struct strbuf out = STRBUF_INIT;
    t_new_game(db, "kalimambo", 3, 7, NULL, &g);
    ck_assert_str_eq(g.seats[0].lang, "en");
    t_submit(db, &g, 1, "LANGUAGE fr", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_INFO);
    ck_assert_str_eq(g.seats[1].lang, "fr");
    ck_assert_msg(strstr(s.lines[0].body.buf, "ngoma vous écrit en Français") != NULL, "%s", s.lines[0].body.buf);
    submission_release(&s);
    t_submit(db, &g, 1, "jouer 4\nCOUPS", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_PENDING);
    ck_assert_str_eq(s.lines[0].written, "jouer 4");
    ck_assert_int_eq(reply_render(db, &g, 1, &s, &out), 0);
    ck_assert_msg(strstr(out.buf, "> jouer 4\n") != NULL, "%s", out.buf);
    ck_assert_msg(strstr(out.buf, "ordres possibles maintenant :\nJOUER 0\n") != NULL, "%s", out.buf);
    submission_release(&s);
    strbuf_reset(&out);
    /* English is always read, and the other seat is untouched. */
    t_submit(db, &g, 0, "PLAY 3\nJOUER 2", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_PENDING);
    ck_assert_int_eq(s.lines[1].status, LINE_REJECTED);
    ck_assert_int_eq(reply_render(db, &g, 0, &s, &out), 0);
    ck_assert_msg(strstr(out.buf, "LANGUAGE") == NULL && strstr(out.buf, "Accepté") == NULL, "%s", out.buf);
    submission_release(&s);
    /* The round resolves: each reads its log in her language, from the
     * same events, and the English log is kept as written. */
    t_submit(db, &g, 2, "PLAY 5", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_ACCEPTED);
    submission_release(&s);
    strbuf_reset(&out);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM turns WHERE kind = 'orders' AND events IS NOT NULL"), 1);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM turns WHERE kind = 'orders' AND log LIKE 'Cards: %'"), 1);
    ck_assert_int_eq(history_render(db, &g, 1, &out), 0);
    ck_assert_msg(strstr(out.buf, "Cartes : Ann 3, Bob 4, ") != NULL, "%s", out.buf);
    ck_assert_msg(strstr(out.buf, "Cards:") == NULL && strstr(out.buf, "Scores:") == NULL, "%s", out.buf);
    strbuf_reset(&out);
    ck_assert_int_eq(history_render(db, &g, 0, &out), 0);
    ck_assert_msg(strstr(out.buf, "Cards: Ann 3, Bob 4, ") != NULL, "%s", out.buf);
    strbuf_reset(&out);
    /* A word she does not know is refused, with what would be right. */
    t_submit(db, &g, 1, "LANGUE klingon", &s);
    ck_assert_int_eq(s.lines[0].status, LINE_REJECTED);
    ck_assert_msg(strstr(s.lines[0].body.buf, "en, fr, pt, sw") != NULL, "%s", s.lines[0].body.buf);
    submission_release(&s);
    /* Kept for her address; DEFAULT gives her the host's again. */
    {
        char *lang = language_of(db, g.seats[1].email);
        ck_assert_str_eq(lang, "fr");
        free(lang);
    }
    t_submit(db, &g, 1, "LANGUE default", &s);
    ck_assert_int_eq(language_chosen(db, g.seats[1].email), 0);
    ck_assert_str_eq(g.seats[1].lang, "en");
    submission_release(&s);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* The seat whose address is addr. */
static int seat_of(const struct game_rec *g, const char *addr)
{
    for (int s = 0; s < g->nseats; s++)
        if (str_ieq(g->seats[s].email, addr))
            return s;
    ck_abort_msg("no seat for %s", addr);
    return -1;
}

/*
 * Languages meet the other features in one game: an anonymous Kalimambo
 * with grey press, its seats reading French, Swahili and English. Grey
 * press written in French reaches the Swahili reader in hers without
 * naming its writer; the host replaces the English seat with a player
 * who reads Portuguese (welcomed in hers, the title kept, the others
 * told in theirs); a draw offered as NULLE and SARE and EMPATE ends the
 * game; each game-over mail says who was who in its reader's language.
 */
START_TEST(languages_meet_anonymity_grey_press_a_replacement_and_a_draw)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    char *text, line[160];
    int ann, bob, cleo, n = 0;
    ck_assert_int_eq(language_set(db, "Bob@example.org", "fr"), 0);
    ck_assert_int_eq(language_set(db, "Cleo@example.org", "sw"), 0);
    ck_assert_int_eq(language_set(db, "zoe@example.org", "pt"), 0);
    t_new_game(db, "kalimambo", 3, 11, "{\"anonymous\":\"yes\",\"press\":\"grey\"}", &g);
    ann = seat_of(&g, "Ann@example.org");
    bob = seat_of(&g, "Bob@example.org");
    cleo = seat_of(&g, "Cleo@example.org");
    t_reply_mail(db, g.id, bob, "MESSAGE À TOUS\nSalut à tous\nFIN MESSAGE", ++n);
    text = t_last_text(db, "Cleo@example.org", "press");
    ck_assert_msg(strstr(text, "Salut à tous") && !strstr(text, "Bob") && !strstr(text, g.names[bob]) &&
                      !strstr(text, "grey") && !strstr(text, "press"),
                  "%s", text);
    free(text);
    text = t_last_text(db, "Ann@example.org", "press");
    ck_assert_msg(strstr(text, "grey") && !strstr(text, "Bob"), "%s", text);
    free(text);
    /* The host gives Ann's seat to Zoe, who reads Portuguese. */
    snprintf(line, sizeof(line), "REPLACE %s Zoe=zoe@example.org", g.names[ann]);
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_msg(host_command(db, &g, viewer_of(VIEWER_SHELL), "en", line, &out) == 0, "%s", out.buf);
    ck_assert_int_eq(db_commit(db), 0);
    t_reload(db, &g);
    text = t_last_text(db, "zoe@example.org", "welcome");
    ck_assert_msg(strstr(text, "Boas-vindas ao Kalimambo") && strstr(text, g.names[ann]), "%s", text);
    free(text);
    text = t_last_text(db, "Bob@example.org", "notice");
    ck_assert_msg(strstr(text, g.names[ann]) && !strstr(text, "Zoe") && !strstr(text, "player"), "%s", text);
    free(text);
    /* A draw in three languages' words. */
    t_reply_mail(db, g.id, bob, "NULLE", ++n);
    t_reply_mail(db, g.id, cleo, "SARE", ++n);
    t_reply_mail(db, g.id, ann, "EMPATE", ++n);
    t_reload(db, &g);
    ck_assert_str_eq(g.status, "finished");
    text = t_last_text(db, "Bob@example.org", "gameover");
    ck_assert_msg(strstr(text, "était Bob") && strstr(text, "était Zoe") && strstr(text, "nulle"), "%s", text);
    free(text);
    text = t_last_text(db, "Cleo@example.org", "gameover");
    ck_assert_msg(strstr(text, "alikuwa Cleo") && strstr(text, "sare"), "%s", text);
    free(text);
    text = t_last_text(db, "zoe@example.org", "reply"); /* her EMPATE ended it: her answer says so */
    ck_assert_msg(strstr(text, "era Zoe") && strstr(text, "empate"), "%s", text);
    free(text);
    strbuf_release(&out);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* Languages meet standing: an address the host merged into another reads
 * that person's language, in a game and by language_of; her own choice
 * made under the alias is kept for the person. */
START_TEST(a_merged_address_reads_its_persons_language)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    char *lang;
    t_new_game(db, "kalimambo", 3, 7, NULL, &g);
    ck_assert_int_eq(language_set(db, "person@example.org", "sw"), 0);
    ck_assert_int_eq(db_do(db, "INSERT INTO player_aliases (alias, address, merged_at) VALUES (?, ?, 'now')", "ss",
                           g.seats[1].email, "person@example.org"),
                     0);
    game_unload(&g);
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    ck_assert_str_eq(g.seats[1].lang, "sw");
    ck_assert_str_eq(g.seats[0].lang, "en");
    lang = language_of(db, g.seats[1].email);
    ck_assert_str_eq(lang, "sw");
    free(lang);
    /* LANGUAGE under the alias: the person's choice. */
    ck_assert_int_eq(language_set(db, g.seats[1].email, "pt"), 0);
    lang = language_of(db, "person@example.org");
    ck_assert_str_eq(lang, "pt");
    free(lang);
    game_unload(&g);
    db_close(db);
}
END_TEST

Suite *languages_suite(void)
{
    Suite *s = suite_create("languages");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, plural_forms_follow_cldr);
    tcase_add_test(tc, a_plural_phrase_takes_its_form);
    tcase_add_test(tc, a_bad_catalogue_is_refused_with_its_line);
    tcase_add_test(tc, every_phrase_is_in_every_catalogue);
    tcase_add_test(tc, every_phrase_fits_a_mail);
    tcase_add_test(tc, every_translation_names_the_values_of_its_english);
    tcase_add_test(tc, every_long_text_is_in_every_language);
    tcase_add_test(tc, the_lobby_help_names_every_command_in_each_language);
    tcase_add_test(tc, help_is_sent_in_her_language);
    tcase_add_test(tc, press_and_settings_in_each_language);
    tcase_add_test(tc, pictures_are_labelled_in_her_language);
    tcase_add_test(tc, the_lobby_answers_in_her_language);
    tcase_add_test(tc, languages_are_found_by_code_and_name);
    tcase_add_test(tc, order_words_are_read_in_each_language);
    tcase_add_test(tc, no_order_word_means_two_things);
    tcase_add_test(tc, replies_are_read_in_each_language);
    tcase_add_test(tc, a_merged_address_reads_its_persons_language);
    tcase_add_test(tc, two_seats_two_languages);
    tcase_add_test(tc, languages_meet_anonymity_grey_press_a_replacement_and_a_draw);
    suite_add_tcase(s, tc);
    return s;
}
