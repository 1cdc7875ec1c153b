/* reply.c: the answer to an order text, as the player reads it (printed by `ngoma order`, mailed back later). */
#include "core/reply.h"
#include "lib/template.h"
#include "lib/util.h"
#include "core/view.h"

#include <stdlib.h>
#include <string.h>

void reply_add_text(cJSON *obj, const char *key, const char *text)
{
    struct strbuf sb = STRBUF_INIT;
    const char *p = text;

    /* Lines longer than a mail line are wrapped, keeping their indent. */
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = xstrndup(p, len);
        if (len > 72) {
            /* The line's own indent counts on its first line too. */
            int indent = (int)strspn(line, " ");
            strbuf_add_wrapped(&sb, line, indent + 2, 72);
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

cJSON *reply_data(sqlite3 *db, struct game_rec *g, int seat, const struct submission *s)
{
    static const char *const flags[] = { "accepted", "pending", "rejected", "info" };
    cJSON *d = cJSON_CreateObject(), *lines = cJSON_CreateArray();
    struct strbuf sb = STRBUF_INIT;
    bool any_rejected = false;

    cJSON_AddNumberToObject(d, "game", (double)g->id);
    cJSON_AddStringToObject(d, "title", g->ops->title);
    cJSON_AddStringToObject(d, "player", g->names[seat]);
    cJSON_AddNumberToObject(d, "turn", g->turn);
    for (size_t i = 0; i < s->n; i++) {
        const struct line_result *l = &s->lines[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "text", l->text);
        for (int f = 0; f < 4; f++)
            cJSON_AddBoolToObject(o, flags[f], (int)l->status == f);
        if (l->status == LINE_REJECTED) {
            /* "Rejected: " is part of the first line: wrapped with it. */
            strbuf_reset(&sb);
            strbuf_addf(&sb, "Rejected: %s", l->body.buf);
            reply_add_text(o, "body", sb.buf);
            strbuf_reset(&sb);
        } else {
            reply_add_text(o, "body", l->body.buf);
        }
        cJSON_AddItemToArray(lines, o);
        any_rejected |= l->status == LINE_REJECTED;
    }
    cJSON_AddItemToObject(d, "lines", lines);
    cJSON_AddBoolToObject(d, "no_lines", s->n == 0);
    cJSON_AddBoolToObject(d, "any_rejected", any_rejected);
    if (s->turn_after != s->turn_before && view_ascii(db, g, seat, &sb) == 0) {
        /* The whole view, its status line included. */
        reply_add_text(d, "board", sb.buf);
        strbuf_reset(&sb);
    }
    if (view_status_line(db, g, &sb) == 0)
        cJSON_AddStringToObject(d, "status", sb.buf);
    strbuf_release(&sb);
    return d;
}

int reply_render(sqlite3 *db, struct game_rec *g, int seat, const struct submission *s, struct strbuf *out)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *d = reply_data(db, g, seat, s);
    int rc = template_render_file("reply.txt", d, out, &err);
    if (rc)
        error("%s", err.buf);
    cJSON_Delete(d);
    strbuf_release(&err);
    return rc;
}
