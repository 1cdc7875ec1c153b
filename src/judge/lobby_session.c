/* lobby_session.c: what every lobby command uses of one mail's session: the words of its line, the answer (wrapped for a phone, no command broken), the taps it offers, the mails it queues. */
#include "judge/lobby_int.h"
#include "lib/lexicon.h"
#include "store/languages.h"

bool arg_is(const struct args *a, int i, const char *word)
{
    return i < a->n && strcasecmp(a->w[i], word) == 0;
}

/* A word that ends a name or a phrase: a term of a new game, AS or SALT. */
bool arg_keyword(const struct args *a, int i)
{
    return i < a->n && (game_spec_word(a->w[i], SPEC_LOBBY) || arg_is(a, i, "as") || arg_is(a, i, "salt"));
}

/* Words i.. up to the next keyword, joined by one space. */
char *arg_phrase(const struct args *a, int *i)
{
    struct strbuf sb = STRBUF_INIT;
    while (*i < a->n && !arg_keyword(a, *i)) {
        strbuf_addf(&sb, "%s%s", sb.len ? " " : "", a->w[*i]);
        (*i)++;
    }
    return strbuf_detach(&sb);
}

/* Every word from i to the end (a salt takes the rest of the line). */
char *arg_rest(const struct args *a, int i)
{
    struct strbuf sb = STRBUF_INIT;
    for (; i < a->n; i++)
        strbuf_addf(&sb, "%s%s", sb.len ? " " : "", a->w[i]);
    return strbuf_detach(&sb);
}

/* A tap the answer offers (a few at most, each once). */
void lobby_offer(struct lobby *l, const char *fmt, long long id)
{
    char c[64];
    snprintf(c, sizeof(c), fmt, id);
    if (l->offers.n < 6 && !strlist_contains(&l->offers, c))
        strlist_push(&l->offers, c);
}

/* A command in prose is never broken across lines ("INVITE 12
 * friend@example.org", "JOIN 12 AS YourName"): the spaces inside one
 * become \x01 for the wrapping, and spaces again after it. */
static void glue_commands(char *line)
{
    char *p = line;
    while (*p) {
        char *w = p, *end;
        bool glue = false;
        while (*p && *p != ' ')
            p++;
        end = p;
        if (!*p)
            break;
        {
            /* A command word in capitals (a word of capitals before a
             * number, an address or AS), a number after one, AS. */
            char save = *end;
            bool caps = end - w >= 2;
            for (char *q = w; q < end; q++)
                caps &= (*q >= 'A' && *q <= 'Z');
            *end = '\0';
            const char *next = end + 1;
            size_t nlen = strcspn(next, " ");
            bool arg = isdigit((unsigned char)next[0]) || next[0] == '#' || memchr(next, '@', nlen) != NULL ||
                       strncmp(next, "AS ", 3) == 0;
            glue = (caps && arg) || (caps && str_eq(w, "AS")) || str_eq(w, "SALT");
            if (!glue && w[0] >= '0' && w[0] <= '9' && w > line + 1) {
                /* "12 friend@x" and "12 AS": a number in a command goes on. */
                glue = strncmp(next, "AS ", 3) == 0 || (strchr(next, '@') && strchr(next, '@') < next + strcspn(next, " "));
            }
            *end = save;
        }
        if (glue)
            *p = '\x01';
        p++;
    }
}

/* Adds text under key, each line wrapped within 72 columns: prose flush,
 * an indented line under its own indent, no command broken. */
void lobby_add_prose(cJSON *obj, const char *key, const char *text)
{
    struct strbuf wrapped = STRBUF_INIT;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        char *line = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
        glue_commands(line);
        if (str_columns(line, strlen(line)) > 72)
            strbuf_add_flowed(&wrapped, line, (int)strspn(line, " ") + (line[0] == ' ' ? 2 : 0), 72);
        else
            strbuf_addf(&wrapped, "%s\n", line);
        free(line);
        p = nl ? nl + 1 : p + strlen(p);
    }
    for (size_t i = 0; i < wrapped.len; i++)
        if (wrapped.buf[i] == '\x01')
            wrapped.buf[i] = ' ';
    reply_add_text(obj, key, wrapped.buf);
    strbuf_release(&wrapped);
}

void lobby_answer(struct lobby *l, const char *text, const char *fmt, ...)
{
    struct strbuf body = STRBUF_INIT;
    cJSON *o = cJSON_CreateObject();
    va_list ap;
    va_start(ap, fmt);
    strbuf_vaddf(&body, fmt, ap);
    va_end(ap);
    {
        /* The line quoted in her words (it was read into English). */
        char *mine = lexicon_local(l->lang, "lobby", NULL, text), *q = reply_quote(mine);
        cJSON_AddStringToObject(o, "text", q);
        free(q);
        free(mine);
    }
    lobby_add_prose(o, "body", body.buf);
    cJSON_AddItemToArray(l->lines, o);
    strbuf_release(&body);
}

void lobby_say(struct lobby *l, const char *text, const char *key, ...)
{
    struct strbuf body = STRBUF_INIT;
    va_list ap;
    va_start(ap, key);
    phrase_addv(&body, l->lang, key, ap);
    va_end(ap);
    lobby_answer(l, text, "%s", body.buf);
    strbuf_release(&body);
}

int lobby_notice_to(struct lobby *l, const char *to, const char *head_key, const char *text)
{
    cJSON *d = cJSON_CreateObject(), *lines = cJSON_CreateArray(), *o = cJSON_CreateObject();
    struct strbuf head = STRBUF_INIT;
    char *lang = language_of(l->db, to);
    int rc;
    phrase_add(&head, lang, head_key, NULL);
    free(lang);
    cJSON_AddStringToObject(o, "text", "");
    lobby_add_prose(o, "body", text);
    cJSON_AddItemToArray(lines, o);
    cJSON_AddItemToObject(d, "lines", lines);
    cJSON_AddStringToObject(d, "headline", head.buf);
    strbuf_release(&head);
    rc = lobby_send(l->db, to, "lobby-notice", "lobby.txt", d, l->origin, false);
    cJSON_Delete(d);
    return rc;
}

/* Queues a lobby mail rendered from template name to one address. The
 * mail that caused it (origin) is kept with it, which the budgets count;
 * an lobby_answer (threaded) also names it in its headers, a mail to a third
 * party does not. */
/* A lobby mail, its taps (what she may do next) as links to the lobby. */
int lobby_send_offering(sqlite3 *db, const char *to, const char *kind, const char *name, cJSON *d,
                               const struct mail_origin *origin, bool threaded, const struct strlist *taps)
{
    struct outmail m = { 0 };
    struct strlist local = STRLIST_INIT;
    char *lobby = mail_reply_address(db, 0, 0, NULL), *lang = language_of(db, to);
    int rc;
    cJSON_AddStringToObject(d, "lobby_address", lobby ? lobby : "");
    free(lobby);
    /* Her taps in her words: LISTE, REJOINDRE 12. */
    for (size_t i = 0; taps && i < taps->n; i++) {
        char *w = lexicon_local(lang, "lobby", NULL, taps->v[i]);
        strlist_push(&local, w);
        free(w);
    }
    free(lang);
    m.kind = kind;
    m.to = to;
    m.lobby = true;
    m.commands = taps ? &local : NULL;
    if (origin) {
        m.answers = origin->row;
        if (threaded) {
            m.in_reply_to = origin->message_id;
            m.references = origin->references;
        }
    }
    rc = outbox_render(db, &m, name, d);
    strlist_clear(&local);
    return rc;
}

int lobby_send(sqlite3 *db, const char *to, const char *kind, const char *name, cJSON *d,
                      const struct mail_origin *origin, bool threaded)
{
    return lobby_send_offering(db, to, kind, name, d, origin, threaded, NULL);
}
