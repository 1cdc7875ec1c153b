/* registry.c: the table of every game ngoma knows (Postfix's dict_open_info done for games). */
#include "games/game.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include "lib/catalog.h"
#include "lib/template.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

extern const struct game_ops kuniumi_ops;
extern const struct game_ops kalimambo_ops;
extern const struct game_ops bumuntu_ops;
extern const struct game_ops bantu_ops;
extern const struct game_ops african_empires_ops;

const struct game_ops *const game_registry[] = {
    &kuniumi_ops,
    &kalimambo_ops,
    &bumuntu_ops,
    &bantu_ops,
    &african_empires_ops,
    NULL,
};

static const struct game_ops *extra[4];

void game_register_extra(const struct game_ops *ops)
{
    for (size_t i = 0; i < ARRAY_SIZE(extra); i++) {
        if (!extra[i] || extra[i] == ops) {
            extra[i] = ops;
            return;
        }
    }
    die("too many extra games registered");
}

const struct game_ops *game_find(const char *name)
{
    for (size_t i = 0; game_registry[i]; i++)
        if (str_ieq(game_registry[i]->name, name))
            return game_registry[i];
    for (size_t i = 0; i < ARRAY_SIZE(extra) && extra[i]; i++)
        if (str_ieq(extra[i]->name, name))
            return extra[i];
    return NULL;
}

/* A name or title written loosely: its letters and digits, lower case. */
static void squeeze(const char *from, char *to, size_t size)
{
    size_t n = 0;
    for (; *from && n + 1 < size; from++)
        if (isalnum((unsigned char)*from))
            to[n++] = (char)tolower((unsigned char)*from);
    to[n] = '\0';
}

const struct game_ops *game_named(char *const *words, int n, int *used)
{
    const struct game_ops *found = NULL;
    char want[64], name[64], title[64];
    *used = 0;
    /* The most words first: "African Empires" before "African". */
    for (int k = n < 3 ? n : 3; k >= 1 && !found; k--) {
        struct strbuf joined = STRBUF_INIT;
        int hits = 0;
        for (int i = 0; i < k; i++)
            strbuf_addstr(&joined, words[i]);
        squeeze(joined.buf, want, sizeof(want));
        strbuf_release(&joined);
        if (!*want)
            continue;
        for (size_t i = 0; game_registry[i]; i++) {
            squeeze(game_registry[i]->name, name, sizeof(name));
            squeeze(game_registry[i]->title, title, sizeof(title));
            if (str_eq(want, name) || str_eq(want, title)) {
                found = game_registry[i];
                hits = 1;
                break;
            }
            /* A prefix of three letters or more names one game. */
            if (strlen(want) >= 3 && (!strncmp(name, want, strlen(want)) || !strncmp(title, want, strlen(want)))) {
                found = hits++ ? NULL : game_registry[i];
            }
        }
        if (hits != 1)
            found = NULL;
        if (found)
            *used = k;
    }
    if (!found && n >= 1 && (found = game_find(words[0])))
        *used = 1;
    return found;
}

void game_log_init(struct game_log *log)
{
    log->dropped = false;
    log->events = NULL;
    memset(log->priv_events, 0, sizeof(log->priv_events));
    log->evented = 0;
    memset(log->priv_evented, 0, sizeof(log->priv_evented));
    strbuf_init(&log->pub);
    for (int i = 0; i < GAME_MAX_SEATS; i++)
        strbuf_init(&log->priv[i]);
}

void game_log_init_quiet(struct game_log *log)
{
    static const struct strbuf sink = STRBUF_SINK;
    log->dropped = false;
    log->events = NULL;
    memset(log->priv_events, 0, sizeof(log->priv_events));
    log->evented = 0;
    memset(log->priv_evented, 0, sizeof(log->priv_evented));
    log->pub = sink;
    for (int i = 0; i < GAME_MAX_SEATS; i++)
        log->priv[i] = sink;
}

void game_log_release(struct game_log *log)
{
    cJSON_Delete(log->events);
    log->events = NULL;
    for (int i = 0; i < GAME_MAX_SEATS; i++) {
        cJSON_Delete(log->priv_events[i]);
        log->priv_events[i] = NULL;
    }
    strbuf_release(&log->pub);
    for (int i = 0; i < GAME_MAX_SEATS; i++)
        strbuf_release(&log->priv[i]);
}

/* One event's line in lang: its phrase over its values (names lists
 * joined with lang's "and"), indented or wrapped as its depth says. */
static void event_line(const cJSON *e, const char *lang, struct strbuf *out)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(e, "k"), *d = cJSON_GetObjectItemCaseSensitive(e, "d"),
                *v = cJSON_GetObjectItemCaseSensitive(e, "v"), *f;
    cJSON *data = cJSON_CreateObject();
    struct strbuf key = STRBUF_INIT, text = STRBUF_INIT;
    int depth = cJSON_IsNumber(d) ? d->valueint : 0;
    if (!cJSON_IsString(k) || depth < EV_WRAPPED_DEEP || depth > 8)
        goto out;
    cJSON_ArrayForEach(f, v) {
        const cJSON *ands = cJSON_IsObject(f) ? cJSON_GetObjectItemCaseSensitive(f, "ands") : NULL;
        const cJSON *term = cJSON_IsObject(f) ? cJSON_GetObjectItemCaseSensitive(f, "term") : NULL;
        if (cJSON_IsString(term)) {
            /* A word of the game: its catalogue's term.TERM, padded to a
             * column's width when the event says so. */
            const cJSON *pad = cJSON_GetObjectItemCaseSensitive(f, "pad");
            struct strbuf tkey = STRBUF_INIT, word = STRBUF_INIT;
            strbuf_addf(&tkey, "term.%s", term->valuestring);
            if (template_phrase(tkey.buf, NULL, lang, &word, NULL))
                strbuf_addstr(&word, term->valuestring);
            if (cJSON_IsNumber(pad) && pad->valueint > 0 && pad->valueint <= 40) {
                char *bare = xstrdup(word.buf);
                strbuf_reset(&word);
                strbuf_add_padded(&word, bare, pad->valueint);
                free(bare);
            }
            cJSON_AddStringToObject(data, f->string, word.buf);
            strbuf_release(&tkey);
            strbuf_release(&word);
        } else if (cJSON_IsArray(ands)) {
            /* "Ama and Bo and Cida": the reader's "and" between each two. */
            struct strbuf list = STRBUF_INIT, next = STRBUF_INIT;
            const cJSON *name;
            cJSON_ArrayForEach(name, ands) {
                if (!cJSON_IsString(name))
                    continue;
                if (!list.len) {
                    strbuf_addstr(&list, name->valuestring);
                    continue;
                }
                strbuf_reset(&next);
                phrase_add(&next, lang, "list.and", "first", list.buf, "last", name->valuestring, NULL);
                strbuf_reset(&list);
                strbuf_addstr(&list, next.buf);
            }
            cJSON_AddStringToObject(data, f->string, list.buf);
            strbuf_release(&list);
            strbuf_release(&next);
        } else if (cJSON_IsArray(f)) {
            /* Names: "Ama, Bo and Cida", the reader's "and". */
            struct strlist names = STRLIST_INIT;
            struct strbuf list = STRBUF_INIT;
            const cJSON *name;
            cJSON_ArrayForEach(name, f)
                if (cJSON_IsString(name))
                    strlist_push(&names, name->valuestring);
            phrase_list_and(&list, lang, &names);
            cJSON_AddStringToObject(data, f->string, list.buf);
            strlist_clear(&names);
            strbuf_release(&list);
        } else
            cJSON_AddItemToObject(data, f->string, cJSON_Duplicate(f, 1));
    }
    strbuf_addf(&key, "event.%s", k->valuestring);
    if (template_phrase(key.buf, data, lang, &text, NULL))
        goto out;
    if (depth == EV_WRAPPED)
        strbuf_add_wrapped(out, text.buf, 2, 72);
    else if (depth == EV_WRAPPED_DEEP) {
        strbuf_addstr(out, "  ");
        strbuf_add_wrapped(out, text.buf, 4, 70);
    } else {
        for (int i = 0; i < depth; i++)
            strbuf_addstr(out, "  ");
        strbuf_addstr(out, text.buf);
        strbuf_complete_line(out);
    }
out:
    cJSON_Delete(data);
    strbuf_release(&key);
    strbuf_release(&text);
}

void game_event(struct game_log *log, int depth, const char *key, ...)
{
    va_list ap;
    va_start(ap, key);
    game_eventv(log, depth, key, ap);
    va_end(ap);
}

/* One event made of its typed values, into *list, its line in English
 * to text; *evented counts the bytes it wrote there. */
static void event_make(cJSON **list, struct strbuf *text, size_t *evented, int depth, const char *key, va_list ap);

void game_eventv(struct game_log *log, int depth, const char *key, va_list ap)
{
    if (!game_log_read(log))
        return; /* a quiet log: a bot's look-ahead */
    event_make(&log->events, &log->pub, &log->evented, depth, key, ap);
}

void game_note(struct game_log *log, int seat, int depth, const char *key, ...)
{
    va_list ap;
    if (!game_log_read(log) || seat < 0 || seat >= GAME_MAX_SEATS)
        return;
    va_start(ap, key);
    event_make(&log->priv_events[seat], &log->priv[seat], &log->priv_evented[seat], depth, key, ap);
    va_end(ap);
}

bool game_log_evented(const struct game_log *log, int seat)
{
    if (seat < 0)
        return log->events && log->evented == log->pub.len;
    return seat < GAME_MAX_SEATS && log->priv_events[seat] && log->priv_evented[seat] == log->priv[seat].len;
}

static void event_make(cJSON **list, struct strbuf *text, size_t *evented, int depth, const char *key, va_list ap)
{
    size_t before = text->len;
    cJSON *e, *v;
    int type;
    e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "k", key);
    cJSON_AddNumberToObject(e, "d", depth);
    v = cJSON_AddObjectToObject(e, "v");
    while ((type = va_arg(ap, int)) != EV_END) {
        const char *name = va_arg(ap, const char *);
        if (type == EV_INT)
            cJSON_AddNumberToObject(v, name, va_arg(ap, int));
        else if (type == EV_STR) {
            const char *s = va_arg(ap, const char *);
            cJSON_AddStringToObject(v, name, s ? s : "");
        } else if (type == EV_TERM) {
            cJSON_AddStringToObject(cJSON_AddObjectToObject(v, name), "term", va_arg(ap, const char *));
        } else if (type == EV_TERMPAD) {
            cJSON *t = cJSON_AddObjectToObject(v, name);
            cJSON_AddStringToObject(t, "term", va_arg(ap, const char *));
            cJSON_AddNumberToObject(t, "pad", va_arg(ap, int));
        } else {
            /* Names: an array; joined by "and" each: {"ands": [...]}. */
            const char *const *names = va_arg(ap, const char *const *);
            int n = va_arg(ap, int);
            cJSON *a = type == EV_ANDS ? cJSON_AddArrayToObject(cJSON_AddObjectToObject(v, name), "ands")
                                       : cJSON_AddArrayToObject(v, name);
            for (int i = 0; i < n; i++)
                cJSON_AddItemToArray(a, cJSON_CreateString(names[i]));
        }
    }
    if (!*list)
        *list = cJSON_CreateArray();
    cJSON_AddItemToArray(*list, e);
    event_line(e, LANG_ENGLISH, text);
    *evented += text->len - before;
}

void game_events_text(const cJSON *events, const char *lang, struct strbuf *out)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
        event_line(e, lang, out);
}
