/* lobby.c: the bare address's dispatch: a mail's lines read as commands through one table and answered in one mail; lobby_session.c holds what every command uses, the files lobby_*.c the commands by concern. */
#include "judge/lobby_int.h"
#include "lib/cmdtab.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "store/languages.h"

struct lobby_command;

/* The first word of a line and its length. */
static size_t first_word(const char *line, const char **w)
{
    while (*line == ' ' || *line == '\t')
        line++;
    *w = line;
    return strcspn(line, " \t");
}

static void args_split(const char *line, struct args *a)
{
    char *save = NULL;
    a->buf = xstrdup(line);
    a->n = 0;
    for (char *t = strtok_r(a->buf, " \t", &save); t && a->n < 64; t = strtok_r(NULL, " \t", &save))
        a->w[a->n++] = t;
}


/* HELP: the commands in her words (one text a language, lobby-help.txt). */
static int cmd_help(struct lobby *l, const char *line, const struct args *a)
{
    struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
    cJSON *d = cJSON_CreateObject();
    char *lang;
    int rc;
    (void)a;
    lang = language_of(l->db, l->from);
    rc = template_render_file("lobby-help.txt", d, lang, &out, &err);
    free(lang);
    if (rc)
        error("%s", err.buf);
    else
        lobby_answer(l, line, "%s", out.buf);
    cJSON_Delete(d);
    strbuf_release(&out);
    strbuf_release(&err);
    return rc;
}

/* ---- the command table ------------------------------------------------------ */

/* A command waits for a confirmed address when it opens, joins or changes
 * anything, or mails anybody but the sender. */
#define NEEDS_CONFIRMED 1u
/* A yes to "Did you mean X?" runs X only when X only reads or seats her. */
#define ON_YES 2u

/* A row of lib/cmdtab.h's table, and its handler. The commands read
 * their own words (AS, SALT and the terms): the table gives any number. */
struct lobby_command {
    struct cmdtab_row row;
    int (*run)(struct lobby *l, const char *line, const struct args *a);
};

/* LANGUAGE fr: her mails in French, from the lobby and in every game
 * (kept for her address); alone: which she reads; DEFAULT: the host's. */
static int cmd_language(struct lobby *l, const char *line, const struct args *a)
{
    struct strbuf out = STRBUF_INIT;
    bool refused;
    int rc = language_command(l->db, l->from, line + 8, &out, &refused);
    (void)a;
    if (!rc)
        lobby_answer(l, line, "%s", out.buf);
    strbuf_release(&out);
    return rc;
}

/* HELP says what each does, in her words: lobby-help.txt, one a language. */
static const struct lobby_command lobby_commands[] = {
    { { "help", 0, CMDTAB_ANY, ON_YES, NULL, NULL }, cmd_help },
    { { "games", 0, CMDTAB_ANY, ON_YES, NULL, NULL }, lobby_games },
    { { "list", 0, CMDTAB_ANY, ON_YES, NULL, NULL }, lobby_list },
    { { "new", 0, CMDTAB_ANY, NEEDS_CONFIRMED, NULL, NULL }, lobby_new },
    { { "join", 0, CMDTAB_ANY, NEEDS_CONFIRMED | ON_YES, NULL, NULL }, lobby_join },
    { { "leave", 0, CMDTAB_ANY, NEEDS_CONFIRMED, NULL, NULL }, lobby_leave },
    { { "take", 0, CMDTAB_ANY, NEEDS_CONFIRMED, NULL, NULL }, lobby_take },
    { { "unseat", 0, CMDTAB_ANY, NEEDS_CONFIRMED, NULL, NULL }, lobby_unseat },
    { { "start", 0, CMDTAB_ANY, NEEDS_CONFIRMED, NULL, NULL }, lobby_start },
    { { "invite", 0, CMDTAB_ANY, NEEDS_CONFIRMED, NULL, NULL }, lobby_invite },
    { { "watch", 0, CMDTAB_ANY, NEEDS_CONFIRMED | ON_YES, NULL, NULL }, lobby_watch },
    { { "unwatch", 0, CMDTAB_ANY, 0, NULL, NULL }, lobby_unwatch },
    { { "agree", 0, CMDTAB_ANY, NEEDS_CONFIRMED, NULL, NULL }, lobby_agree },
    { { "rematch", 0, CMDTAB_ANY, NEEDS_CONFIRMED, NULL, NULL }, lobby_rematch },
    { { "mygames", 0, CMDTAB_ANY, ON_YES, NULL, NULL }, lobby_mygames },
    { { "ratings", 0, CMDTAB_ANY, ON_YES, NULL, NULL }, lobby_ratings },
    { { "profile", 0, CMDTAB_ANY, NEEDS_CONFIRMED | ON_YES, NULL, NULL }, lobby_profile },
    { { "language", 0, CMDTAB_ANY, NEEDS_CONFIRMED | ON_YES, NULL, NULL }, cmd_language },
    { { "confirm", 0, CMDTAB_ANY, 0, NULL, NULL }, lobby_confirm },
    { { "drop", 0, CMDTAB_ANY, 0, NULL, NULL }, lobby_drop },
    { { NULL, 0, 0, 0, NULL, NULL }, NULL },
};

#define LOBBY_TABLE CMDTAB(lobby_commands)

/* The command a line begins with, or NULL. */
static const struct lobby_command *command_of(const char *line)
{
    return (const struct lobby_command *)cmdtab_find(LOBBY_TABLE, line ? line : "");
}

static bool is_command(const char *english)
{
    return command_of(english) != NULL;
}

bool lobby_command_word(const char *text)
{
    /* In any language: REVANCHE 3 tapped at the lobby is REMATCH 3. */
    char *en;
    bool yes;
    if (command_of(text))
        return true;
    en = lexicon_english_any("lobby", text, strcspn(text, "\n"), is_command);
    yes = en != NULL;
    free(en);
    return yes;
}

static int run_line(struct lobby *l, const char *line)
{
    const struct lobby_command *c = command_of(line);
    struct args a;
    int rc = 0;
    if (!c) {
        struct strbuf names = STRBUF_INIT;
        int64_t table = 0;
        if (db_get_int64(l->db, &table,
                         "SELECT coalesce(max(i.table_id), 0) FROM lobby_invites i JOIN lobby_tables t ON t.id ="
                         " i.table_id WHERE i.email = ? AND t.status = 'open' AND NOT EXISTS (SELECT 1 FROM"
                         " lobby_players p WHERE p.table_id = t.id AND p.email = i.email)",
                         "s", l->from) < 0)
            return -1;
        cmdtab_names(LOBBY_TABLE, &names);
        {
            /* A command a letter or two off ("JION 1"): offered, with
             * the rest of the line as written. */
            const char *w;
            size_t n = first_word(line, &w), words = 1;
            const struct lobby_command *near = NULL;
            char word[24];
            bool letters = n > 0;
            /* A command is a word of letters and a few short words after
             * it: "Hello, I want to play" is prose, not a HELP mistyped. */
            for (size_t k = 0; k < n; k++)
                letters &= isalpha((unsigned char)w[k]) != 0;
            for (const char *p = line; *p; p++)
                words += *p == ' ';
            if (letters && words <= 5 && n < sizeof(word)) {
                memcpy(word, w, n);
                word[n] = '\0';
                near = (const struct lobby_command *)cmdtab_nearest(LOBBY_TABLE, word);
            }
            if (near) {
                struct strbuf meant = STRBUF_INIT;
                char *local;
                for (const char *p = near->row.name; *p; p++)
                    strbuf_addch(&meant, (char)toupper((unsigned char)*p));
                strbuf_addstr(&meant, w + n);
                /* In her words, so that her yes is read back. */
                local = lexicon_local(l->lang, "lobby", NULL, meant.buf);
                lobby_say(l, line, "lobby.did-you-mean", "command", local, NULL);
                free(local);
                strbuf_release(&meant);
                strbuf_release(&names);
                return 0;
            }
        }
        if (table) {
            char game[24], join[40], *local;
            snprintf(game, sizeof(game), "%lld", (long long)table);
            snprintf(join, sizeof(join), "JOIN %lld", (long long)table);
            local = lexicon_local(l->lang, "lobby", NULL, join);
            lobby_say(l, line, "lobby.not-command-invited", "game", game, "join", local, NULL);
            free(local);
        } else {
            /* The commands in her words. */
            char *local = lexicon_local(l->lang, "lobby", NULL, names.buf);
            lobby_say(l, line, "lobby.not-command", "names", local, NULL);
            free(local);
        }
        strbuf_release(&names);
        return 0;
    }
    if ((c->row.flags & NEEDS_CONFIRMED) && !l->confirmed) {
        l->wants_confirm = true;
        strbuf_addf(&l->waiting, "%s\n", line);
        lobby_say(l, line, "lobby.waits", NULL);
        return 0;
    }
    args_split(line, &a);
    rc = c->run(l, line, &a);
    free(a.buf);
    return rc;
}

int lobby_mail(sqlite3 *db, const struct inbound_mail *in, const struct mail_origin *origin, bool *answered,
               char *why, size_t n)
{
    struct lobby l = { 0 };
    struct strlist lines = STRLIST_INIT;
    struct strbuf err = STRBUF_INIT;
    char *token = NULL, *from = NULL, *mode = NULL;
    cJSON *d = NULL;
    bool drop = false;
    int greeted = 0;
    int rc = -1;

    *answered = false;
    l.db = db;
    l.in = in;
    l.origin = origin;
    strbuf_init(&l.notes);
    strbuf_init(&l.waiting);
    mode = setting_get(db, "lobby");
    l.mode = mode ? mode : "off";
    if (!in->m.from || address_check(in->m.from, "the sender", &err)) {
        snprintf(why, n, "lobby: the sender's address is not one ngoma writes to");
        rc = 0;
        goto out;
    }
    /* One identity however the address is written: Ann@ and ann@ are one. */
    l.from = from = str_lower(xstrdup(in->m.from));
    l.lang = language_of(db, l.from);
    if (lobby_identity(&l))
        goto out;
    {
        struct strlist now_lines = STRLIST_INIT, all = STRLIST_INIT, words = STRLIST_INIT;
        order_lines(in->e.orders, &all);
        /* REJOINDRE 12 from an address that reads French: JOIN 12. */
        for (size_t i = 0; i < all.n; i++) {
            char *en = lexicon_english(l.lang, "lobby", NULL, all.v[i]);
            free(all.v[i]);
            all.v[i] = en;
        }
        for (const struct lobby_command *c = lobby_commands; c->row.name; c++)
            strlist_push(&words, c->row.name);
        for (size_t i = 0; i < all.n; i++) {
            /* "Cheers, Ann", "thanks", "Ann": what people write around
             * commands, read as such. */
            if (!command_of(all.v[i]) && order_line_is_greeting(all.v[i], &words))
                greeted++;
            else
                strlist_push(&now_lines, all.v[i]);
        }
        if (now_lines.n == 1 && order_line_is_yes(now_lines.v[0])) {
            /* "yes" to our "Did you mean JOIN 1?": what it offered, when
             * it only reads or seats her. */
            char *offered = order_text_offered(in->e.orders);
            const struct lobby_command *c = offered ? command_of(offered) : NULL;
            if (c && (c->row.flags & ON_YES)) {
                free(now_lines.v[0]);
                now_lines.v[0] = offered;
                offered = NULL;
            }
            free(offered);
        }
        strlist_clear(&all);
        strlist_clear(&words);
        for (size_t i = 0; i < now_lines.n; i++) {
            const struct lobby_command *c = command_of(now_lines.v[i]);
            drop |= c && c->run == lobby_drop;
        }
        /* What waited on this mail's token comes first, unless dropped. */
        if (l.set_commands && !drop)
            order_lines(l.set_commands, &lines);
        for (size_t i = 0; i < now_lines.n; i++)
            /* A reply that confirms may say "yes, it is me": only commands count. */
            if (!str_iprefix(now_lines.v[i], "confirm ") &&
                (!(l.just_confirmed || l.invited_to) || command_of(now_lines.v[i])))
                strlist_push(&lines, now_lines.v[i]);
        strlist_clear(&now_lines);
    }
    if (!lines.n && l.invited_to) {
        /* "I'm in!" in answer to an invitation: she takes her seat. */
        char join[32];
        snprintf(join, sizeof(join), "JOIN %lld", (long long)l.invited_to);
        strlist_push(&lines, join);
    }
    if (!lines.n && greeted && l.confirmed && !l.just_confirmed && !l.set_commands) {
        /* "Thanks!": nothing to do, and nothing to answer. */
        snprintf(why, n, "lobby: only a greeting: not answered");
        rc = 0;
        goto out;
    }
    if (!lines.n)
        strlist_push(&lines, l.just_confirmed ? "CONFIRM" : "HELP");
    if (l.confirmed) {
        /* Answers are rationed per address: one note, then silence. */
        bool ok;
        if (limit_may_mail(db, l.from, "lobby", "lobby_per_hour", &ok))
            goto out;
        if (!ok) {
            int64_t noted;
            if (limit_mails_to(db, l.from, "lobby-limit", 3600, &noted))
                goto out;
            if (!noted) {
                d = cJSON_CreateObject();
                cJSON_AddBoolToObject(d, "limit", true);
                cJSON_AddNumberToObject(d, "per_hour", (double)setting_get_int(db, "lobby_per_hour", 10));
                if (lobby_send(db, l.from, "lobby-limit", "lobby.txt", d, origin, true))
                    goto out;
                *answered = true;
            }
            snprintf(why, n, "lobby: over lobby_per_hour; nothing done%s", noted ? "" : " (told once)");
            rc = 0;
            goto out;
        }
    }
    l.lines = cJSON_CreateArray();
    for (size_t i = 0; i < lines.n && i < LOBBY_LINES; i++)
        if (run_line(&l, lines.v[i]))
            goto out;
    if (lines.n > LOBBY_LINES) {
        char max[16];
        snprintf(max, sizeof(max), "%d", LOBBY_LINES);
        phrase_add(&l.notes, l.lang, "lobby.only-first", "n", max, NULL);
    }
    if (l.just_confirmed && lobby_other_waiting(&l))
        goto out;
    d = cJSON_CreateObject();
    if (!l.confirmed) {
        bool may_mail, kept;
        if (lobby_ask_confirmation(&l, &token, &may_mail, &kept))
            goto out;
        if (!may_mail) {
            snprintf(why, n, "lobby: an unconfirmed address, mailed this month already: not answered%s",
                     kept ? " (its commands wait with a token of their own)" : "");
            rc = 0;
            goto out;
        }
        if (l.wants_confirm && !kept) {
            char each[16];
            snprintf(each, sizeof(each), "%d", PENDING_EACH);
            phrase_add(&l.notes, l.lang, "lobby.too-many-waiting", "n", each, NULL);
        }
        cJSON_AddStringToObject(d, "token", token);
        cJSON_AddBoolToObject(d, "confirm", true);
        cJSON_AddBoolToObject(d, "waiting", kept);
        if (kept) {
            struct strbuf shown = STRBUF_INIT;
            for (const char *p = l.waiting.buf; *p; p++) {
                if (p == l.waiting.buf || p[-1] == '\n')
                    strbuf_addstr(&shown, "  ");
                strbuf_addch(&shown, *p);
            }
            reply_add_text(d, "waiting_lines", shown.buf);
            strbuf_release(&shown);
        }
    }
    cJSON_AddStringToObject(d, "to", l.from);
    {
        /* The first line says what the mail answers: "your NEW and INVITE",
         * in her words and her "and". */
        struct strbuf head = STRBUF_INIT, said = STRBUF_INIT;
        struct strlist words = STRLIST_INIT;
        size_t k = lines.n < LOBBY_LINES ? lines.n : LOBBY_LINES, shown = k < 4 ? k : 4;
        bool all_commands = true;
        for (size_t i = 0; i < shown; i++) {
            const struct lobby_command *c = command_of(lines.v[i]);
            char word[24], *local;
            size_t w = 0;
            all_commands &= c != NULL;
            for (const char *ch = c ? c->row.name : ""; *ch && w + 1 < sizeof(word); ch++)
                word[w++] = (char)toupper((unsigned char)*ch);
            word[w] = '\0';
            local = lexicon_local(l.lang, "lobby", NULL, word);
            strlist_push(&words, local);
            free(local);
        }
        phrase_list_and(&said, l.lang, &words);
        strlist_clear(&words);
        if (k > 4)
            strbuf_addstr(&said, " ...");
        phrase_add(&head, l.lang, all_commands && shown ? "lobby.answer-to" : "lobby.answer-to-mail", "commands",
                   said.buf, NULL);
        cJSON_AddStringToObject(d, "headline", head.buf);
        strbuf_release(&head);
        strbuf_release(&said);
    }
    cJSON_AddItemToObject(d, "lines", l.lines);
    l.lines = NULL;
    if (l.notes.len)
        reply_add_text(d, "notes", l.notes.buf);
    if (l.confirmed) {
        /* Then what any confirmed player may ask. */
        static const char *const always[] = { "LIST", "MYGAMES", "HELP" };
        for (size_t i = 0; i < ARRAY_SIZE(always); i++)
            if (!strlist_contains(&l.offers, always[i]))
                strlist_push(&l.offers, always[i]);
    }
    if (lobby_send_offering(db, l.from, "lobby", "lobby.txt", d, origin, true, &l.offers))
        goto out;
    *answered = true;
    snprintf(why, n, "lobby: %zu command(s) from %s%s%s", lines.n < LOBBY_LINES ? lines.n : LOBBY_LINES, l.from,
             l.confirmed ? "" : " (unconfirmed: asked to confirm)", drop && l.set_id ? " (what waited was dropped)" : "");
    rc = 0;
out:
    cJSON_Delete(d);
    cJSON_Delete(l.lines);
    strlist_clear(&lines);
    strbuf_release(&err);
    strbuf_release(&l.notes);
    strbuf_release(&l.waiting);
    strlist_clear(&l.offers);
    free(l.set_commands);
    free(l.lang);
    free(token);
    free(from);
    free(mode);
    return rc;
}
