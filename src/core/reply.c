/* reply.c: the answer to an order text, as the player reads it (printed by `ngoma order`, mailed back later). */
#include "core/reply.h"
#include "core/agree.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "lib/util.h"
#include "core/options.h"
#include "core/view.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *reply_quote(const char *line)
{
    struct strbuf sb = STRBUF_INIT;
    size_t n = strlen(line), cut = 0, cols = 0;
    if (str_columns(line, n) + 2 <= 72)
        return xstrdup(line);
    /* Cut at a character's start, within 66 columns, then "...": at a
     * space after the 40th column when there is one, a word never cut
     * in two. */
    size_t space = 0;
    for (size_t i = 0; i < n && cols < 66; i++) {
        if (((unsigned char)line[i] & 0xc0) != 0x80) {
            cols++;
            cut = i;
            if (line[i] == ' ' && cols > 40)
                space = i;
        }
    }
    if (space)
        cut = space;
    strbuf_add(&sb, line, cut);
    strbuf_addstr(&sb, " ...");
    return strbuf_detach(&sb);
}

void reply_add_text(cJSON *obj, const char *key, const char *text)
{
    struct strbuf sb = STRBUF_INIT;
    const char *p = text;

    /* Lines longer than a mail line are wrapped, keeping their indent. */
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = xstrndup(p, len);
        if (str_columns(line, len) > 72) {
            /* The line's own indent counts on its first line too. */
            int indent = (int)strspn(line, " ");
            strbuf_add_flowed(&sb, line, indent + 2, 72);
        } else {
            strbuf_addstr(&sb, line);
            strbuf_addch(&sb, '\n');
        }
        free(line);
        p += len + (nl ? 1 : 0);
    }
    while (sb.len && (sb.buf[sb.len - 1] == '\n' || sb.buf[sb.len - 1] == ' '))
        strbuf_setlen(&sb, sb.len - 1);
    cJSON_AddStringToObject(obj, key, sb.buf);
    strbuf_release(&sb);
}

/* The orders a LEGAL line answered with, for the mail's links:
 * legal_text (that part of the answer) and legal_links (label, order):
 * each order when it lists them one a line, else the groups that narrow
 * the list, each a LEGAL of its own. */
static void legal_links(const struct game_rec *g, int seat, const struct submission *s, cJSON *d)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct line_result *l = &s->lines[i];
        struct strlist labels = STRLIST_INIT, orders = STRLIST_INIT;
        struct strbuf block = STRBUF_INIT;
        const char *filter;
        if (l->status != LINE_INFO || !str_iprefix(l->text, "legal") || (l->text[5] && l->text[5] != ' '))
            continue;
        filter = l->text[5] ? l->text + 6 : NULL;
        options_choices(g, seat, filter, REPLY_LEGAL_LINKS, &labels, &orders);
        for (size_t k = 0; k < orders.n; k++)
            strbuf_addf(&block, "%s%s", k ? "\n" : "", orders.v[k]);
        if (orders.n) {
            cJSON *list = cJSON_CreateArray();
            bool listed = orders.n && strstr(l->body.buf, block.buf) != NULL;
            for (size_t k = 0; k < orders.n; k++) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "label", labels.v[k]);
                cJSON_AddStringToObject(o, "order", orders.v[k]);
                cJSON_AddItemToArray(list, o);
            }
            /* The listed orders become links; a summary is followed by the
             * links that narrow it. */
            cJSON_AddStringToObject(d, "legal_text", listed ? block.buf : l->body.buf);
            cJSON_AddItemToObject(d, "legal_links", list);
        }
        strlist_clear(&labels);
        strlist_clear(&orders);
        strbuf_release(&block);
        return;
    }
}

/* One clause of the headline, after those before it (reply.clauses
 * between: "; ", in French " ; "). */
static void clause(struct strbuf *out, const char *lang, const char *key, const char *name, const char *value,
                   const char *n)
{
    if (out->len)
        phrase_add(out, lang, "reply.clauses", NULL);
    phrase_add(out, lang, key, "n", n ? n : "0", name, value, NULL);
}

void reply_headline(const struct submission *s, const char *lang, const char *game, struct strbuf *out)
{
    size_t taken = 0, pending = 0, refused = 0, asked = 0, shown = 0, planned = 0, cancelled = 0;
    const char *asked_word = NULL;
    struct strbuf orders = STRBUF_INIT, press = STRBUF_INIT;
    char n[24];
    for (size_t i = 0; i < s->n; i++) {
        const struct line_result *l = &s->lines[i];
        taken += l->status == LINE_ACCEPTED || l->status == LINE_PENDING;
        pending += l->status == LINE_PENDING;
        refused += l->status == LINE_REJECTED;
        planned += l->status == LINE_PLANNED && !l->canonical;
        cancelled += l->status == LINE_PLANNED && l->canonical;
        if (l->status == LINE_INFO) {
            asked++;
            asked_word = asked_word ? asked_word : l->written ? l->written : l->text;
        }
    }
    /* What was taken first, by name (three at most). */
    for (size_t i = 0; i < s->n && taken; i++) {
        const struct line_result *l = &s->lines[i];
        if (l->status != LINE_ACCEPTED && l->status != LINE_PENDING)
            continue;
        if (shown == 3) {
            struct strbuf some = STRBUF_INIT;
            strbuf_addstr(&some, orders.buf);
            strbuf_reset(&orders);
            snprintf(n, sizeof(n), "%zu", taken - 3);
            phrase_add(&orders, lang, "reply.and-more", "orders", some.buf, "n", n, NULL);
            strbuf_release(&some);
            break;
        }
        {
            /* In her words: JOUER 2. */
            char *local = lexicon_local(lang, "common", game, l->canonical ? l->canonical : l->text);
            strbuf_addf(&orders, "%s%s", shown ? ", " : "", local);
            free(local);
        }
        shown++;
    }
    if (taken)
        clause(out, lang, pending ? "reply.taken-secret" : "reply.taken", "orders", orders.buf, NULL);
    /* Plans by how many, never by what: a headline may be read aloud. */
    snprintf(n, sizeof(n), "%zu", planned);
    if (planned)
        clause(out, lang, "reply.planned", NULL, NULL, n);
    if (cancelled)
        clause(out, lang, "reply.plans-cancelled", NULL, NULL, NULL);
    snprintf(n, sizeof(n), "%zu", refused);
    if (refused && (taken || refused > 1))
        clause(out, lang, "reply.lines-refused", NULL, NULL, n);
    else if (refused == 1)
        clause(out, lang, "reply.order-refused", NULL, NULL, NULL);
    /* Press said by what it did: "press to Bob sent", "Bob muted". */
    for (size_t i = 0, k = 0; i < s->n; i++) {
        const struct line_result *l = &s->lines[i];
        if (l->status != LINE_PRESS || !l->canonical)
            continue;
        strbuf_addf(&press, "%s%s", k ? ", " : "", l->canonical);
        k++;
    }
    if (press.len) {
        if (out->len)
            phrase_add(out, lang, "reply.clauses", NULL);
        strbuf_addstr(out, press.buf);
    }
    if (!taken && !refused && !planned && !cancelled && asked) {
        char word[16];
        size_t k = strcspn(asked_word, " ");
        for (size_t i = 0; i < k && i + 1 < sizeof(word) && i < 12; i++)
            word[i] = (char)toupper((unsigned char)asked_word[i]), word[i + 1] = '\0';
        if (!k)
            word[0] = '\0';
        clause(out, lang, asked > 1 ? "reply.answer-to-more" : "reply.answer-to", "word", word, NULL);
    }
    if (!out->len)
        clause(out, lang, "reply.no-order", NULL, NULL, NULL);
    strbuf_release(&orders);
    strbuf_release(&press);
}

cJSON *reply_data(sqlite3 *db, struct game_rec *g, int seat, const struct submission *s)
{
    static const char *const flags[] = { "accepted", "pending", "rejected", "info", "greeting", "press", "planned" };
    cJSON *d = cJSON_CreateObject(), *lines = cJSON_CreateArray();
    struct strbuf sb = STRBUF_INIT;
    bool any_rejected = false;
    char n[24];

    cJSON_AddNumberToObject(d, "game", (double)g->id);
    cJSON_AddStringToObject(d, "title", g->ops->title);
    cJSON_AddStringToObject(d, "player", g->names[seat]);
    cJSON_AddNumberToObject(d, "turn", g->turn);
    for (size_t i = 0; i < s->n; i++) {
        const struct line_result *l = &s->lines[i];
        cJSON *o = cJSON_CreateObject();
        char *q = reply_quote(l->written ? l->written : l->text);
        cJSON_AddStringToObject(o, "text", q);
        free(q);
        for (int f = 0; f < 7; f++)
            cJSON_AddBoolToObject(o, flags[f], (int)l->status == f);
        if (l->status == LINE_REJECTED) {
            /* "Rejected: " is part of the first line: wrapped with it. */
            strbuf_reset(&sb);
            phrase_add(&sb, g->seats[seat].lang, "reply.rejected", "reason", l->body.buf, NULL);
            reply_add_text(o, "body", sb.buf);
            strbuf_reset(&sb);
        } else {
            reply_add_text(o, "body", l->body.buf);
        }
        cJSON_AddItemToArray(lines, o);
        any_rejected |= l->status == LINE_REJECTED;
    }
    cJSON_AddItemToObject(d, "lines", lines);
    legal_links(g, seat, s, d);
    cJSON_AddBoolToObject(d, "no_lines", s->n == 0);
    cJSON_AddBoolToObject(d, "any_rejected", any_rejected);
    {
        /* The first line says what the mail did, wrapped like any other. */
        struct strbuf head = STRBUF_INIT;
        strbuf_reset(&sb);
        reply_headline(s, g->seats[seat].lang, g->ops->name, &sb);
        snprintf(n, sizeof(n), "%lld", (long long)g->id);
        phrase_add(&head, g->seats[seat].lang, "reply.headline", "title", g->ops->title, "game", n, "player",
                   g->names[seat], "what", sb.buf, NULL);
        reply_add_text(d, "headline", head.buf);
        strbuf_release(&head);
        strbuf_reset(&sb);
    }
    {
        /* The board only when she must act on it now: else what was taken
         * and who is awaited is all, and her next turn's mail shows it. */
        unsigned missing = 0;
        if (s->turn_after != s->turn_before && game_missing(db, g, &missing) == 0 && (missing >> seat) & 1 &&
            view_ascii(db, g, seat, &sb) == 0)
            reply_add_text(d, "board", sb.buf);
        strbuf_reset(&sb);
    }
    if (agree_status(db, g, seat, &sb) == 0)
        cJSON_AddStringToObject(d, "status", sb.buf);
    strbuf_reset(&sb);
    view_who_was_who(g, g->seats[seat].lang, &sb);
    if (sb.len)
        reply_add_text(d, "who_was_who", sb.buf);
    strbuf_release(&sb);
    return d;
}

int reply_render(sqlite3 *db, struct game_rec *g, int seat, const struct submission *s, struct strbuf *out)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *d = reply_data(db, g, seat, s);
    int rc = template_render_file("reply.txt", d, seat >= 0 && seat < g->nseats ? g->seats[seat].lang : NULL, out, &err);
    if (rc)
        error("%s", err.buf);
    cJSON_Delete(d);
    strbuf_release(&err);
    return rc;
}
