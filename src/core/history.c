/* history.c: the story of a game turn by turn, as one seat (or an observer) may read it. */
#include "core/history.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "store/db.h"
#include "lib/jsonx.h"
#include "lib/util.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The narrowest width a game wraps its log lines to: a line was wrapped
 * there only when the next line's first word would not fit on it. */
#define WRAPPED_WIDTH 70
/* What a recap of the orders may take: three lines of a mail. */
#define RECAP_CHARS 180

/* The log under a heading, indented by `by` and flowed into a mail's 72
 * columns once: a line a game wrapped is joined with its continuation
 * lines first, so that indenting it never strands a word on a line. */
static void indent(struct strbuf *out, const char *text, const char *by)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p), own = strspn(p, " ");
        struct strbuf logical = STRBUF_INIT, at = STRBUF_INIT;
        if (!len) {
            strbuf_addch(out, '\n');
            p += nl ? 1 : 0;
            continue;
        }
        strbuf_add(&logical, p + own, len - own);
        /* Its continuations, under a line that was full: deeper lines, or
         * one as deep when the full one stopped in mid-sentence. */
        while (nl) {
            const char *q = nl + 1, *qnl = strchr(q, '\n');
            size_t qlen = qnl ? (size_t)(qnl - q) : strlen(q), qown = strspn(q, " ");
            size_t word = strcspn(q + qown, " \n");
            bool mid = !strchr(".:;!?)", nl[-1]);
            if (len > 72 || len + 1 + word <= WRAPPED_WIDTH || qown < own || (qown == own && !mid) || qown >= qlen)
                break;
            strbuf_addch(&logical, ' ');
            strbuf_add(&logical, q + qown, qlen - qown);
            nl = qnl;
            len = qlen;
        }
        strbuf_addf(&at, "%s%*s", by, (int)own, "");
        {
            /* The indent is spaces: the wrapper counts them as the text's. */
            size_t indent = at.len;
            strbuf_add(&at, logical.buf, logical.len);
            strbuf_add_flowed(out, at.buf, (int)indent + 2, 72);
        }
        strbuf_release(&logical);
        strbuf_release(&at);
        p = nl ? nl + 1 : p + strlen(p);
    }
}

/* "  Ann: MOVE b3", one line an order; false when the step had none. */
static bool orders_lines(const struct game_rec *g, const char *lang, const char *orders_text, struct strbuf *out)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *orders = jx_parse(orders_text, "orders", &err), *o;
    bool any = false;

    cJSON_ArrayForEach(o, orders) {
        int seat;
        const char *order = jx_str(o, "order", &err);
        const cJSON *src = cJSON_GetObjectItemCaseSensitive(o, "source");
        if (jx_int(o, "seat", 1, g->nseats, &seat, &err) || !order)
            continue;
        const char *bot = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "bot"));
        bool nmr = cJSON_IsString(src) && str_eq(src->valuestring, "nmr");
        char *local = lexicon_local(lang, "common", g->ops->name, order);
        strbuf_addstr(out, "  ");
        phrase_add(out, lang, "history.order", "name", g->names[seat - 1], "order", local, NULL);
        free(local);
        /* How it was given: the only order, or at the deadline (and by
         * which bot; a bot seat's level its Players line tells). */
        if (cJSON_IsString(src) && str_eq(src->valuestring, "forced")) {
            strbuf_addstr(out, "  ");
            phrase_add(out, lang, "history.forced", NULL);
        } else if (cJSON_IsString(src) && str_eq(src->valuestring, "plan")) {
            strbuf_addstr(out, "  ");
            phrase_add(out, lang, "history.plan", NULL);
        } else if (nmr) {
            strbuf_addstr(out, "  ");
            phrase_add(out, lang, bot ? "history.nmr-bot" : "history.nmr", "bot", bot, "strong",
                       bot && str_eq(bot, "strong") ? "yes" : "", NULL);
        }
        strbuf_addch(out, '\n');
        any = true;
    }
    cJSON_Delete(orders);
    strbuf_release(&err);
    return any;
}

/* Where the game stood after a stored step, in players' words: stored
 * with the step, or (a step stored before ngoma counted so) read from
 * its snapshot. */
static void when_of_row(const struct game_rec *g, sqlite3_stmt *st, int text_col, int state_col, char out[128])
{
    const char *text = (const char *)sqlite3_column_text(st, text_col);
    struct strbuf err = STRBUF_INIT;
    cJSON *j;
    void *s;
    if (text) {
        snprintf(out, 128, "%s", text);
        return;
    }
    snprintf(out, 128, "step %d", sqlite3_column_int(st, 0));
    j = jx_parse((const char *)sqlite3_column_text(st, state_col), "state", &err);
    if (j && (s = g->ops->from_json(j, &err))) {
        struct game_when w;
        game_when_of(g->ops, s, &g->table, sqlite3_column_int(st, 0), &w);
        game_when_text(&w, out);
        g->ops->free(s);
    }
    cJSON_Delete(j);
    strbuf_release(&err);
}

void history_stored_in(const char *lang, const char *events, const char *english, struct strbuf *out)
{
    if (events && !str_eq(lang, LANG_ENGLISH)) {
        cJSON *j = cJSON_Parse(events);
        game_events_text(j, lang, out);
        cJSON_Delete(j);
    }
    if (!out->len)
        strbuf_addstr(out, english ? english : "");
}

/* The turns first..last in the order they were played; with all, the
 * rolled-back ones too, marked, where they happened. Steps come under the
 * round (turn, move) they were played in, a heading each time it changes:
 * where the game stood after the step before. */
static int render(sqlite3 *db, const struct game_rec *g, int viewer, const char *lang, int first, int last, bool all,
                  struct strbuf *out)
{
    sqlite3_stmt *st;
    int rc;
    char key[16], before[128] = "", head[128] = "";

    snprintf(key, sizeof(key), "%d", viewer + 1);
    if (first > 0) {
        sqlite3_stmt *q = db_stmt(db,
                                  "SELECT turn, when_text, CASE WHEN when_text IS NULL THEN state END FROM turns"
                                  " WHERE game_id = ? AND rolled_back = 0 AND turn < ? ORDER BY turn DESC LIMIT 1",
                                  "Ii", g->id, first);
        if (!q)
            return -1;
        if ((rc = db_step(q)) == SQLITE_ROW)
            when_of_row(g, q, 1, 2, before);
        db_finalize(q);
        if (rc < 0)
            return -1;
    }
    st = db_stmt(db,
                 "SELECT turn, orders, log, json_extract(private_log, '$.\"' || ? || '\"'), rolled_back, when_text,"
                 " CASE WHEN when_text IS NULL THEN state END, events, json_extract(private_events, '$.\"' || ?1 || '\"')"
                 " FROM turns WHERE game_id = ? AND (rolled_back = 0 OR ?)"
                 " AND turn BETWEEN ? AND ? ORDER BY id",
                 "sIiii", key, g->id, all ? 1 : 0, first, last);
    if (!st)
        return -1;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        const char *priv = (const char *)sqlite3_column_text(st, 3);
        bool gone = sqlite3_column_int(st, 4) != 0, any;
        char after[128];
        when_of_row(g, st, 5, 6, after);
        /* The game's first step opens where it then stands. */
        if (!*before)
            memcpy(before, after, sizeof(before));
        if (strcmp(before, head) != 0) {
            char shown[128];
            memcpy(head, before, sizeof(head));
            game_when_text_in(head, lang, shown);
            strbuf_addf(out, "%c%s\n", shown[0] >= 'a' && shown[0] <= 'z' ? shown[0] - 'a' + 'A' : shown[0],
                        shown + 1);
        }
        any = orders_lines(g, lang, (const char *)sqlite3_column_text(st, 1), out);
        if (gone) {
            strbuf_addstr(out, any ? "    " : "  ");
            phrase_add(out, lang, "history.rolled-back", NULL);
            strbuf_addch(out, '\n');
        }
        {
            /* The step's story, and her notes, in her language. */
            struct strbuf local = STRBUF_INIT;
            history_stored_in(lang, (const char *)sqlite3_column_text(st, 7), (const char *)sqlite3_column_text(st, 2),
                      &local);
            indent(out, local.buf, any ? "    " : "  ");
            if (priv && *priv) {
                strbuf_reset(&local);
                history_stored_in(lang, (const char *)sqlite3_column_text(st, 8), priv, &local);
                strbuf_addstr(out, any ? "    " : "  ");
                phrase_add(out, lang, "history.own-eyes", NULL);
                strbuf_addch(out, '\n');
                indent(out, local.buf, any ? "      " : "    ");
            }
            strbuf_release(&local);
        }
        if (!gone)
            memcpy(before, after, sizeof(before));
    }
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* A seat's language, English for anyone else. */
static const char *lang_of(const struct game_rec *g, int viewer)
{
    return viewer >= 0 && viewer < g->nseats ? g->seats[viewer].lang : LANG_ENGLISH;
}

int history_render_range(sqlite3 *db, const struct game_rec *g, int viewer, int first, int last, struct strbuf *out)
{
    return render(db, g, viewer, lang_of(g, viewer), first, last, false, out);
}

int history_render_range_in(sqlite3 *db, const struct game_rec *g, int viewer, const char *lang, int first, int last,
                            struct strbuf *out)
{
    return render(db, g, viewer, lang, first, last, false, out);
}

int history_recap(sqlite3 *db, const struct game_rec *g, const char *lang, int first, int last, struct strbuf *out)
{
    assert(first >= 0 && first <= last);
    struct strlist items = STRLIST_INIT;
    struct strbuf line = STRBUF_INIT, err = STRBUF_INIT;
    size_t from, len = 0;
    int rc;
    sqlite3_stmt *st = db_stmt(db,
                               "SELECT orders FROM turns WHERE game_id = ? AND rolled_back = 0 AND turn BETWEEN ? AND ?"
                               " ORDER BY turn",
                               "Iii", g->id, first, last);
    if (!st)
        return -1;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        cJSON *orders = jx_parse((const char *)sqlite3_column_text(st, 0), "orders", &err), *o;
        cJSON_ArrayForEach(o, orders) {
            int seat;
            const char *order = jx_str(o, "order", &err);
            if (jx_int(o, "seat", 1, g->nseats, &seat, &err) || !order)
                continue;
            char *local = lexicon_local(lang, "common", g->ops->name, order);
            strbuf_reset(&line);
            strbuf_addf(&line, "%s %s", g->names[seat - 1], local);
            strlist_push(&items, line.buf);
            free(local);
        }
        cJSON_Delete(orders);
        strbuf_reset(&err);
    }
    db_finalize(st);
    if (rc < 0) {
        strlist_clear(&items);
        strbuf_release(&line);
        strbuf_release(&err);
        return -1;
    }
    /* The newest that fit in three lines of a mail. */
    for (from = items.n; from > 0 && len + strlen(items.v[from - 1]) + 2 <= RECAP_CHARS; from--)
        len += strlen(items.v[from - 1]) + 2;
    if (items.n) {
        struct strbuf orders = STRBUF_INIT;
        for (size_t i = from; i < items.n; i++)
            strbuf_addf(&orders, "%s%s", i > from ? ", " : "", items.v[i]);
        strbuf_reset(&line);
        phrase_add(&line, lang, from ? "recap.lately" : "recap.since", "orders", orders.buf, NULL);
        strbuf_add_flowed(out, line.buf, 0, 72);
        strbuf_release(&orders);
    }
    strlist_clear(&items);
    strbuf_release(&line);
    strbuf_release(&err);
    return 0;
}

int history_render(sqlite3 *db, const struct game_rec *g, int viewer, struct strbuf *out)
{
    /* Which seats bots play, and at which level, before the story. */
    const char *lang = lang_of(g, viewer);
    struct strbuf bots = STRBUF_INIT;
    for (int s = 0; s < g->nseats; s++)
        if (g->seats[s].bot) {
            if (bots.len)
                strbuf_addstr(&bots, ", ");
            game_seat_label_in(g, s, lang, &bots);
        }
    if (bots.len) {
        phrase_add(out, lang, "history.bots", "bots", bots.buf, NULL);
        strbuf_addch(out, '\n');
    }
    strbuf_release(&bots);
    return render(db, g, viewer, lang, 0, INT32_MAX, true, out);
}

int history_steps_of(sqlite3 *db, const struct game_rec *g, int number, int *first, int *last)
{
    int64_t start, next, top;
    /* Round N began with the step after which the game stood in it; it
     * lasts to the step that took the game past it. */
    if (db_get_int64(db, &start,
                     "SELECT coalesce(min(turn), -1) FROM turns WHERE game_id = ? AND rolled_back = 0 AND when_number = ?",
                     "Ii", g->id, number) < 0)
        return -1;
    if (start < 0) {
        struct game_when w;
        game_when_of(g->ops, g->st, &g->table, g->turn, &w);
        return error("game %lld has no %s %d: its %ss so far are 0 (the start) to %d", (long long)g->id, w.unit,
                     number, w.unit, w.number);
    }
    if (db_get_int64(db, &top, "SELECT max(turn) FROM turns WHERE game_id = ? AND rolled_back = 0", "I", g->id) < 0 ||
        db_get_int64(db, &next,
                     "SELECT coalesce(min(turn), -1) FROM turns WHERE game_id = ? AND rolled_back = 0 AND turn > ?"
                     " AND when_number > ?",
                     "IIi", g->id, start, number) < 0)
        return -1;
    *first = number == 0 ? 0 : (int)start + 1;
    *last = next < 0 ? (int)top : (int)next;
    return 0;
}
