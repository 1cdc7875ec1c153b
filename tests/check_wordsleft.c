/* check_wordsleft.c: a whole game of each kind played by mail in each language, every seat writing her orders in her words, and no English word left in any mail she reads (a check against an English stop-word list). */
#include "test_support.h"

#include "lib/catalog.h"
#include "lib/jsonx.h"
#include "lib/lexicon.h"
#include "lib/paths.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "judge/host.h"
#include "judge/notify.h"
#include "judge/schedule.h"
#include "store/settings.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Words of English that are no word of French, Portuguese or Swahili:
 * one of them in a mail to a seat who reads one of those is a sentence
 * left in English. (Not "a", "as", "no", "me", "on", "or", "in": words
 * of those languages too.)
 */
static const char *const stop_words[] = {
    "the",   "and",   "you",   "your",  "yours", "with",   "for",   "this",  "that",   "these", "those",  "not",
    "has",   "have",  "had",   "was",   "were",  "will",   "would", "are",   "been",   "from",  "what",   "when",
    "who",   "which", "there", "their", "they",  "them",   "it",    "its",   "be",     "by",    "if",     "at",
    "an",    "all",   "of",    "to",    "is",    "now",    "here",  "game",  "turn",   "round", "orders", "order",
    "reply", "wrote", "please", "seat", "wins",  "won",    "score", "cards", "card",   "next",  "each",   "every",
    "yet",   "until", "then",  "than",  "after", "before", "only",  "also",  "still",  "into",  "out",    "over",
    "him",   "her",   "his",   "she",   "he",    "we",     "our",   "may",   "can",    "must",  "should", "could",
    "more",  "most",  "any",   "some",  "other", "one",    "two",   "three", "four",   "five",  "none",
    "left",  "right", "moves", "play",  "plays",  "played", "pass", "passed", "board", "player", "players",
    "mail",  "mails", "since", "last",  "first", "see",    "send",  "sent",  "write",  "given", "taken",  "refused",
    "accepted", "deadline", "hours", "days", "minutes", "because", "without", "about", "how", "why", "where",
};

static bool is_stop_word(const char *w)
{
    for (size_t i = 0; i < ARRAY_SIZE(stop_words); i++)
        if (str_eq(stop_words[i], w))
            return true;
    return false;
}

struct left {
    int found;           /* stop words seen */
    struct strbuf lines; /* the first lines they were on */
    struct strlist names; /* proper names, read as printed: not looked at */
    struct strlist orders; /* English order words her language writes otherwise (GIRAFFE: TWIGA) */
};

/* An order word of a catalogue (word.SCOPE.ENGLISH = LOCAL|ALT) whose
 * English differs from its local spelling: one word, in capitals. */
static void order_word(const char *key, const char *text, void *arg)
{
    struct strlist *out = arg;
    const char *en = strrchr(key, '.') + 1;
    char english[32], local[64], a[64], b[64];
    size_t k = 0;
    if (strchr(en, '-'))
        return;
    for (; en[k] && k + 1 < sizeof(english); k++)
        english[k] = (char)toupper((unsigned char)en[k]);
    english[k] = '\0';
    snprintf(local, sizeof(local), "%.*s", (int)strcspn(text, "|"), text);
    lang_fold(english, a, sizeof(a));
    lang_fold(local, b, sizeof(b));
    if (!str_eq(a, b) && !strlist_contains(out, english))
        strlist_push(out, english);
}

/* The order words of game and of every game her language writes in its
 * own words: one of them in capitals in her mail is an order left in
 * English. */
static void orders_of(const char *lang, const char *game, struct strlist *out)
{
    char prefix[64];
    catalog_each(lang, "word.common.", order_word, out);
    snprintf(prefix, sizeof(prefix), "word.%s.", game);
    catalog_each(lang, prefix, order_word, out);
}

/* African Empires' cards and kingdoms keep the names printed on them
 * (Center of Learning, Mali), as the glossary says: proper names. */
static void names_of_cards(struct strlist *names)
{
    struct strbuf err = STRBUF_INIT;
    char *path = data_path("seeds", "african-empires.json");
    cJSON *d = jx_load_file(path, FILE_MAX_DATA, &err), *item;
    ck_assert_msg(d != NULL, "%s", err.buf);
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(d, "cards"))
        strlist_push(names, cJSON_GetStringValue(cJSON_GetObjectItem(item, "name")));
    cJSON_Delete(d);
    free(path);
    strbuf_release(&err);
}

/* The text but its quoted lines ("> ", what she wrote), as one line (a
 * name the mail wrapped is whole again), the proper names blanked; each
 * word of ASCII letters and digits read in lower case, addresses left. */
static void look(const char *what, const char *text, struct left *l)
{
    struct strbuf own = STRBUF_INIT;
    char *flat, word[32], raw[32];
    size_t k = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (*p != '>') {
            strbuf_add(&own, p, n);
            strbuf_addch(&own, '\n');
        }
        p += n + (p[n] == '\n');
    }
    flat = t_flat(own.buf);
    for (size_t i = 0; i < l->names.n; i++)
        for (char *at; (at = strstr(flat, l->names.v[i]));)
            memset(at, ' ', strlen(l->names.v[i]));
    for (size_t i = 0, n = strlen(flat); i <= n; i++) {
        unsigned char c = i < n ? (unsigned char)flat[i] : ' ';
        if (isalnum(c) || (c & 0x80) || c == '@' || c == '.' || c == '+' || c == '-' || c == '_') {
            if (k < sizeof(word) - 1) {
                raw[k] = (char)c;
                word[k++] = (char)tolower(c);
            }
            continue;
        }
        word[k] = raw[k] = '\0';
        /* A word ends at a full stop: "game." is "game". */
        while (k && word[k - 1] == '.') {
            k--;
            word[k] = raw[k] = '\0';
        }
        if (k && !strchr(word, '@') && (is_stop_word(word) || strlist_contains(&l->orders, raw))) {
            size_t from = i > k + 40 ? i - k - 40 : 0;
            if (l->found < 8)
                strbuf_addf(&l->lines, "%s: \"%s\" in: ...%.*s...\n", what, word, (int)(i + 30 < n ? i + 30 - from : n - from), flat + from);
            if (getenv("NGOMA_SHOW_ENGLISH"))
                fprintf(stderr, "%s: \"%s\" in: ...%.*s...\n", what, word, (int)(i + 30 < n ? i + 30 - from : n - from), flat + from);
            l->found++;
        }
        k = 0;
    }
    free(flat);
    strbuf_release(&own);
}

/* Every line of a mail's text within 72 columns (characters), in her
 * language as in English. */
static void fits(const char *what, const char *text)
{
    int line = 1;
    for (const char *p = text; *p; line++) {
        size_t n = strcspn(p, "\n"), cols = 0;
        for (size_t k = 0; k < n; k++)
            cols += ((unsigned char)p[k] & 0xc0) != 0x80;
        CHECK(cols <= 72, "%s: line %d has %zu columns: %.*s", what, line, cols, (int)n, p);
        p += n + (p[n] == '\n');
    }
}

/* No English word was found (else the first lines it was in), and what
 * the look kept is released. */
static void nothing_left(struct left *l, int mails)
{
    CHECK(l->found == 0, "%d lines in English in %d mails; the first:\n%s", l->found, mails, l->lines.buf);
    strbuf_release(&l->lines);
    strlist_clear(&l->names);
    strlist_clear(&l->orders);
}

/* Every mail to a seat so far (with all, every mail: the lobby's, the
 * host's, a watcher's), its subject, text and HTML, looked at. */
static void look_at_mails(sqlite3 *db, const char *game, const char *lang, bool all, struct left *l, int *mails)
{
    sqlite3_stmt *st = db_stmt(db, "SELECT coalesce(seat, 0), mail, kind, rcpt FROM outbox WHERE ? OR seat IS NOT NULL"
                                   " ORDER BY id", "i", all ? 1 : 0);
    int rc;
    *mails = 0;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        struct shown s;
        char what[96];
        shown_of((const char *)sqlite3_column_text(st, 1), &s);
        snprintf(what, sizeof(what), "%s in %s, mail %d (%s to seat %d, %s)", game, lang, ++*mails,
                 (const char *)sqlite3_column_text(st, 2), sqlite3_column_int(st, 0),
                 (const char *)sqlite3_column_text(st, 3));
        if (getenv("NGOMA_SHOW_MAILS")) /* for a translator: every mail as she reads it */
            fprintf(stderr, "==== %s\nSubject: %s\n%s\n", what, s.subject, s.text);
        look(what, s.subject, l);
        look(what, s.text, l);
        look(what, s.html, l);
        fits(what, s.text);
        shown_release(&s);
    }
    db_finalize(st);
    ck_assert_int_eq(rc, SQLITE_DONE);
}

static const struct {
    const char *game;
    int seats;
} plays[] = {
    { "kuniumi", 2 }, { "kalimambo", 4 }, { "bumuntu", 3 }, { "bantu", 3 }, { "african-empires", 4 },
};
static const char *const langs[] = { "fr", "pt", "sw" };

START_TEST(no_english_word_is_left_in_a_game_by_mail)
{
    int game = _i / (int)ARRAY_SIZE(langs);
    const char *lang = langs[_i % (int)ARRAY_SIZE(langs)];
    sqlite3 *db = t_db();
    struct game_rec g;
    struct rng r;
    struct strbuf err = STRBUF_INIT;
    struct left l = { 0, STRBUF_INIT, STRLIST_INIT, STRLIST_INIT };
    int n = 0, mails;
    if (_i == 0) {
        const char *names[ARRAY_SIZE(plays)];
        for (size_t i = 0; i < ARRAY_SIZE(plays); i++)
            names[i] = plays[i].game;
        t_covers_registry("the games played in each language", names, ARRAY_SIZE(plays));
    }
    names_of_cards(&l.names);
    orders_of(lang, plays[game].game, &l.orders);
    /* Every seat reads the host's language. */
    ck_assert_int_eq(setting_set(db, "language", lang, &err), 0);
    t_new_game(db, plays[game].game, plays[game].seats, 31 + _i, NULL, &g);
    rng_seed(&r, 31, (uint64_t)_i);
    for (unsigned w; (w = g.ops->waiting_for(g.st)) && n < 3000;) {
        for (int s = 0; s < g.nseats; s++) {
            struct strlist legal = STRLIST_INIT;
            char *mine;
            if (!(w & (1u << s)))
                continue;
            g.ops->legal(g.st, s, &g.table, &legal);
            ck_assert_uint_gt(legal.n, 0);
            /* Her order in her words, as LEGAL gives it. */
            mine = lexicon_local(lang, NULL, g.ops->name, t_pick(&legal, &r));
            if (++n % 7 == 0) {
                /* Now and then a slip, a question and a wrong setting. */
                char text[512], *asks = lexicon_local(lang, "common", NULL, n % 2 ? "LEGAL" : "HELP");
                snprintf(text, sizeof(text), "XYZZY 99\n%s\n%s", asks, mine);
                t_reply_mail(db, g.id, s, text, n);
                free(asks);
            } else {
                t_reply_mail(db, g.id, s, mine, n);
            }
            free(mine);
            strlist_clear(&legal);
            game_unload(&g);
            ck_assert_int_eq(game_load(db, 1, &g), 0);
            if (g.ops->waiting_for(g.st) != w)
                break;
        }
    }
    ck_assert_str_eq(g.status, "finished");
    /* Every mail to a seat, its subject, its text and its HTML part. */
    look_at_mails(db, g.ops->name, lang, false, &l, &mails);
    ck_assert_int_gt(mails, g.nseats);
    nothing_left(&l, mails);
    strbuf_release(&err);
    game_unload(&g);
    db_close(db);
}
END_TEST


static void host(sqlite3 *db, struct game_rec *g, const char *line)
{
    struct strbuf out = STRBUF_INIT;
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_msg(host_command(db, g, viewer_of(VIEWER_SHELL), "en", line, &out) == 0, "%s: %s", line, out.buf);
    ck_assert_int_eq(db_commit(db), 0);
    strbuf_release(&out);
    t_reload(db, g);
}

/* The clock moves on: NGOMA_NOW an hour and a half later, and the
 * scheduler runs (reminders, deadlines, digests). */
static void time_passes(sqlite3 *db, struct game_rec *g, time_t *at)
{
    struct schedule_stats st;
    char when[32];
    *at += 5400;
    utc_format(*at, when);
    setenv("NGOMA_NOW", when, 1);
    memset(&st, 0, sizeof(st));
    ck_assert_int_eq(schedule_run(db, &st), 0);
    memset(&st, 0, sizeof(st));
    ck_assert_int_eq(schedule_digests(db, &st), 0);
    t_reload(db, g);
}

/*
 * The mails of a game's whole life, by mail in each language: a welcome,
 * press to all and its answer, a digest, reminders before a deadline and
 * the missing-order mail after it, the host's pause, resume, extension and
 * rollback told to every seat, a resignation, a vacation, the end and its
 * rematch offer; no English word in any of them.
 */
START_TEST(no_english_word_is_left_in_a_games_life)
{
    const char *lang = langs[_i];
    static const char *const hello[] = { "Bonjour à tous", "Olá a todos", "Habari zenu" };
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
    struct left l = { 0, STRBUF_INIT, STRLIST_INIT, STRLIST_INIT };
    struct schedule_opts o = { .deadline = 3 * 3600, .nmr = "bot" };
    time_t at = 1796119200; /* 2026-12-01T10:00:00Z */
    char *w;
    int mails, n = 0;
    setenv("NGOMA_NOW", "2026-12-01T10:00:00Z", 1);
    orders_of(lang, "kalimambo", &l.orders);
    ck_assert_int_eq(setting_set(db, "language", lang, &err), 0);
    ck_assert_int_eq(setting_set(db, "bot_level", "easy", &err), 0);
    t_new_game(db, "kalimambo", 3, 5, NULL, &g);
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(notify_welcome(db, &g), 0);
    ck_assert_int_eq(db_commit(db), 0);
    ck_assert_int_eq(schedule_parse_reminders("2h,1h", &o, &err), 0);
    ck_assert_int_eq(schedule_configure(db, g.id, &o, &err), 0);
    t_reload(db, &g);
    /* Press to all in her words, a digest asked for, a vacation. */
    w = lexicon_local(lang, "press", NULL, "PRESS TO ALL");
    strbuf_addf(&text, "%s\n%s\n", w, hello[_i]);
    free(w);
    w = lexicon_local(lang, "press", NULL, "END PRESS");
    strbuf_addf(&text, "%s\n", w);
    free(w);
    w = lexicon_local(lang, "common", NULL, "MAIL DIGEST");
    strbuf_addf(&text, "%s 2h\n", w);
    free(w);
    t_reply_mail(db, g.id, 0, text.buf, ++n);
    w = lexicon_local(lang, "common", NULL, "VACATION");
    strbuf_reset(&text);
    strbuf_addf(&text, "%s 1d\n", w);
    free(w);
    t_reply_mail(db, g.id, 1, text.buf, ++n);
    t_reload(db, &g);
    /* Two hours pass: reminders; then the deadline: the missing-order
     * mail, a bot plays for those silent. */
    for (int i = 0; i < 3; i++)
        time_passes(db, &g, &at);
    /* The game played to its end by mail, a seat resigning on the way,
     * the host acting once some steps are done. */
    for (unsigned wait; (wait = g.ops->waiting_for(g.st)) && n < 400;) {
        if (g.turn == 3 && !l.found) {
            host(db, &g, "PAUSE");
            host(db, &g, "RESUME");
            host(db, &g, "EXTEND 1d");
            host(db, &g, "ROLLBACK STEP 2");
            l.found = -1; /* once */
            continue;
        }
        for (int s = 0; s < g.nseats; s++) {
            struct strlist legal = STRLIST_INIT;
            char *mine;
            if (!(wait & (1u << s)) || g.seats[s].bot)
                continue;
            g.ops->legal(g.st, s, &g.table, &legal);
            ck_assert_uint_gt(legal.n, 0);
            mine = lexicon_local(lang, "common", g.ops->name, n == 12 && s == 2 ? "RESIGN" : legal.v[legal.n / 2]);
            t_reply_mail(db, g.id, s, mine, ++n);
            free(mine);
            strlist_clear(&legal);
            t_reload(db, &g);
        }
        if (g.ops->waiting_for(g.st) == wait)
            time_passes(db, &g, &at);
    }
    ck_assert_str_eq(g.status, "finished");
    ck_assert_int_eq(l.found, -1);
    l.found = 0;
    look_at_mails(db, "kalimambo", lang, false, &l, &mails);
    {
        /* The kinds of mail it read. */
        sqlite3_stmt *st = db_stmt(db, "SELECT group_concat(DISTINCT kind) FROM outbox WHERE seat IS NOT NULL", NULL);
        ck_assert_int_eq(db_step(st), SQLITE_ROW);
        printf("wordsleft: %s, %d mails of kinds %s\n", lang, mails, (const char *)sqlite3_column_text(st, 0));
        db_finalize(st);
    }
    nothing_left(&l, mails);
    unsetenv("NGOMA_NOW");
    strbuf_release(&text);
    strbuf_release(&err);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* The words the lobby's terms and the host's commands keep in every
 * language (the glossary says so), in capitals as written. */
static void kept_keywords(struct strlist *names)
{
    static const char *const kept[] = { "MINRELIABILITY", "MINRATING", "DEADLINE", "REMIND", "GRACE", "OPTION",
                                        "SEATS", "SALT", "NMR", "ROLLBACK", "REPLACE", "RESUME", "EXTEND", "STATUS",
                                        "ABANDON", "SCORE", "PAUSE", "KICK", "STEP", "END" };
    for (size_t i = 0; i < ARRAY_SIZE(kept); i++)
        strlist_push(names, kept[i]);
}

/* A lobby word in her language (owned). */
static char *lw(const char *lang, const char *english)
{
    return lexicon_local(lang, "lobby", NULL, english);
}

/* One line to the lobby from, its command in her words and the rest as
 * written. */
static void lobby_line(sqlite3 *db, const char *lang, const char *from, const char *english, const char *rest)
{
    char *w = lw(lang, english), body[256];
    snprintf(body, sizeof(body), "%s%s%s", w, rest ? " " : "", rest ? rest : "");
    t_lobby(db, from, "lobby", body);
    free(w);
}

/* The game's host secret's address (owned). */
static char *host_address(sqlite3 *db, int64_t game)
{
    char *secret = NULL, *to = xmalloc(128);
    ck_assert_int_eq(db_get_text(db, &secret, "SELECT host_secret FROM games WHERE id = ?", "I", game), 1);
    snprintf(to, 128, "ngoma+%lld-host-%s@localhost", (long long)game, secret);
    free(secret);
    return to;
}

/*
 * The lobby and a table's life in each language: a stranger's first
 * mail, HELP, GAMES, LIST, RATINGS, PROFILE, slips in NEW's terms, a
 * table opened, a friend invited who joins, START with a bot, the
 * opener's PAUSE asked and agreed, her STATUS and a command not hers,
 * the game played out, its REMATCH and a watcher's mails; every mail
 * (the lobby's, the seats', the host's, the watcher's) read for English.
 */
START_TEST(no_english_word_is_left_at_the_lobby)
{
    const char *lang = langs[_i];
    const char *ama = "ama@example.org", *bo = "bo@example.org", *cy = "cy@example.org";
    sqlite3 *db = t_lobby_db("open");
    struct strbuf err = STRBUF_INIT;
    struct left l = { 0, STRBUF_INIT, STRLIST_INIT, STRLIST_INIT };
    struct game_rec g;
    struct rng r;
    char *to, line[160];
    int mails, n = 0;
    orders_of(lang, "kalimambo", &l.orders);
    kept_keywords(&l.names);
    t_confirmed(db, ama);
    t_confirmed(db, bo);
    ck_assert_int_eq(db_do(db, "DELETE FROM outbox", NULL), 0); /* their confirmations, in English */
    ck_assert_int_eq(setting_set(db, "language", lang, &err), 0);
    ck_assert_int_eq(setting_set(db, "bot_level", "easy", &err), 0);
    ck_assert_int_eq(setting_set(db, "lobby_per_hour", "100", &err), 0);
    /* A stranger's first mail: the confirmation, and her CONFIRM. */
    lobby_line(db, lang, cy, "HELP", NULL);
    {
        char *word = str_lower(lw(lang, "CONFIRM")), *token = t_token_of(db, cy, word);
        lobby_line(db, lang, cy, "CONFIRM", token);
        free(token);
        free(word);
    }
    lobby_line(db, lang, ama, "HELP", NULL);
    lobby_line(db, lang, ama, "GAMES", NULL);
    lobby_line(db, lang, ama, "LIST", NULL);
    lobby_line(db, lang, ama, "RATINGS", NULL);
    lobby_line(db, lang, ama, "RATINGS", "kalimambo");
    lobby_line(db, lang, ama, "RATINGS", "xyzzy");
    lobby_line(db, lang, ama, "PROFILE", NULL);
    lobby_line(db, lang, ama, "PROFILE", "nobody@example.org");
    lobby_line(db, lang, ama, "NEW", "xyzzy");
    lobby_line(db, lang, ama, "NEW", "kalimambo DEADLINE 99y");
    lobby_line(db, lang, ama, "NEW", "kalimambo SEATS 3 DEADLINE 48h AS Ama");
    lobby_line(db, lang, ama, "INVITE", "1 bo@example.org");
    lobby_line(db, lang, bo, "JOIN", "1 AS Bo");
    lobby_line(db, lang, bo, "AGREE", "1");
    lobby_line(db, lang, ama, "START", "1");
    if (game_load(db, 1, &g)) {
        char *said = NULL;
        db_get_text(db, &said, "SELECT group_concat(rcpt || ' ' || kind, ', ') FROM outbox", NULL);
        ck_abort_msg("no game 1: %s", said);
    }
    lobby_line(db, lang, bo, "AGREE", "1");
    lobby_line(db, lang, cy, "TAKE", "1 Zed");
    lobby_line(db, lang, cy, "WATCH", "1");
    /* The opener's host mail: a pause asked, agreed; her status; a
     * command not hers and a slip. */
    to = host_address(db, 1);
    t_mail_to(db, ama, to, "Re: host", "PAUSE", NULL);
    lobby_line(db, lang, bo, "AGREE", "1");
    t_mail_to(db, ama, to, "Re: host", "RESUME\nSTATUS\nKICK Bo\nEXTEND\nXYZZY", NULL);
    t_reload(db, &g);
    ck_assert(!g.sched.paused);
    /* The game played out by mail, in their words. */
    rng_seed(&r, 7, (uint64_t)_i);
    for (unsigned w; (w = g.ops->waiting_for(g.st)) && n < 400;) {
        for (int s = 0; s < g.nseats; s++) {
            struct strlist legal = STRLIST_INIT;
            char *mine;
            if (!(w & (1u << s)) || g.seats[s].bot)
                continue;
            g.ops->legal(g.st, s, &g.table, &legal);
            mine = lexicon_local(lang, NULL, g.ops->name, t_pick(&legal, &r));
            t_reply_mail(db, g.id, s, mine, ++n);
            free(mine);
            strlist_clear(&legal);
            t_reload(db, &g);
        }
    }
    ck_assert_str_eq(g.status, "finished");
    lobby_line(db, lang, ama, "RATINGS", "kalimambo");
    lobby_line(db, lang, bo, "PROFILE", NULL);
    {
        /* Her REMATCH as the game-over mail's tap sends it: to the
         * lobby, under the game's subject, in her words. */
        char *w = lw(lang, "REMATCH");
        snprintf(line, sizeof(line), "%s 1", w);
        t_lobby(db, ama, "Re: [ngoma 1] Kalimambo", line);
        free(w);
        ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_tables WHERE rematch_of = 1"), 1);
    }
    snprintf(line, sizeof(line), "%s AS Bo", "2");
    lobby_line(db, lang, bo, "JOIN", line);
    lobby_line(db, lang, ama, "MYGAMES", NULL);
    look_at_mails(db, "the lobby", lang, true, &l, &mails);
    ck_assert_int_gt(t_mails_to(db, cy, "watch"), 0);
    ck_assert_int_gt(t_mails_to(db, ama, "host"), 1);
    nothing_left(&l, mails);
    free(to);
    strbuf_release(&err);
    game_unload(&g);
    db_close(db);
}
END_TEST

Suite *wordsleft_suite(void)
{
    Suite *s = suite_create("wordsleft");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 240);
    tcase_add_loop_test(tc, no_english_word_is_left_in_a_game_by_mail, 0,
                        t_sample((int)(ARRAY_SIZE(plays) * ARRAY_SIZE(langs))));
    tcase_add_loop_test(tc, no_english_word_is_left_in_a_games_life, 0, t_sample((int)ARRAY_SIZE(langs)));
    tcase_add_loop_test(tc, no_english_word_is_left_at_the_lobby, 0, t_sample((int)ARRAY_SIZE(langs)));
    suite_add_tcase(s, tc);
    return s;
}
