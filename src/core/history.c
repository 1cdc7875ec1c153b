/* history.c: the story of a game turn by turn, as one seat (or an observer) may read it. */
#include "core/history.h"
#include "store/db.h"
#include "lib/jsonx.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void indent(struct strbuf *out, const char *text)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len) {
            strbuf_addstr(out, "  ");
            strbuf_add(out, p, len);
        }
        strbuf_addch(out, '\n');
        p += len + (nl ? 1 : 0);
    }
}

static void orders_line(const struct game_rec *g, const char *orders_text, struct strbuf *out)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *orders = jx_parse(orders_text, "orders", &err), *o;
    bool first = true;

    cJSON_ArrayForEach(o, orders) {
        int seat;
        const char *order = jx_str(o, "order", &err);
        if (jx_int(o, "seat", 1, g->nseats, &seat, &err) || !order)
            continue;
        strbuf_addf(out, "%s%s: %s", first ? " - " : "; ", g->names[seat - 1], order);
        first = false;
    }
    cJSON_Delete(orders);
    strbuf_release(&err);
}

/* The turns first..last in the order they were played; with all, the
 * rolled-back ones too, marked, where they happened. */
static int render(sqlite3 *db, const struct game_rec *g, int viewer, int first, int last, bool all,
                  struct strbuf *out)
{
    sqlite3_stmt *st;
    int rc;
    char key[16];

    snprintf(key, sizeof(key), "%d", viewer + 1);
    st = db_stmt(db,
                 "SELECT turn, orders, log, json_extract(private_log, '$.\"' || ? || '\"'), rolled_back"
                 " FROM turns WHERE game_id = ? AND (rolled_back = 0 OR ?) AND turn BETWEEN ? AND ? ORDER BY id",
                 "sIiii", key, g->id, all ? 1 : 0, first, last);
    if (!st)
        return -1;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        const char *priv = (const char *)sqlite3_column_text(st, 3);
        strbuf_addf(out, "Step %d%s", sqlite3_column_int(st, 0), sqlite3_column_int(st, 4) ? " (rolled back)" : "");
        orders_line(g, (const char *)sqlite3_column_text(st, 1), out);
        strbuf_addch(out, '\n');
        indent(out, (const char *)sqlite3_column_text(st, 2));
        if (viewer >= 0 && priv && *priv) {
            strbuf_addstr(out, "  (for your eyes only)\n");
            indent(out, priv);
        }
    }
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int history_render_range(sqlite3 *db, const struct game_rec *g, int viewer, int first, int last, struct strbuf *out)
{
    return render(db, g, viewer, first, last, false, out);
}

int history_render(sqlite3 *db, const struct game_rec *g, int viewer, struct strbuf *out)
{
    return render(db, g, viewer, 0, INT32_MAX, true, out);
}
