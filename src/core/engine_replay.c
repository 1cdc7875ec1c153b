/* engine_replay.c: replay: a game rebuilt from its seed and recorded orders, step by step, and compared with what was stored. */
#include "core/engine_int.h"

/* ---- replay ---------------------------------------------------------------- */

static int apply_recorded(struct game_rec *g, void *st, int turn, const char *kind, const char *orders_text,
                          struct strbuf *report)
{
    return engine_apply_recorded(g->ops, &g->table, st, turn, kind, orders_text, false, NULL, report);
}

/* Hands a step's log to out (when the caller wants it), else drops it. */
static void give_log(struct game_log *log, struct game_log *out)
{
    if (out)
        *out = *log;
    else
        game_log_release(log);
}

int engine_apply_recorded(const struct game_ops *ops, const struct game_table *table, void *st, int turn,
                          const char *kind, const char *orders_text, bool check, struct game_log *out,
                          struct strbuf *report)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *orders = jx_parse(orders_text, "orders", &err), *o;
    const char *list[GAME_MAX_SEATS] = { NULL };
    struct game_log log;
    int rc = -1;

    if (!cJSON_IsArray(orders)) {
        strbuf_addf(report, "turn %d: its orders are unreadable: %s", turn, err.buf);
        goto out;
    }
    if (str_eq(kind, "end")) {
        /* The host's END: [{"order":"END SCORE" or "END ABANDON", "reason":...}];
         * the players': [{"order":"END DRAW" or "END CONCEDE", "seats":[winners]}] */
        const cJSON *first = cJSON_GetArrayItem(orders, 0);
        const char *order = jx_str(first, "order", &err);
        enum game_end how;
        unsigned winners = 0;
        if (order && str_eq(order, "END SCORE"))
            how = GAME_END_SCORED;
        else if (order && str_eq(order, "END ABANDON"))
            how = GAME_END_ABANDONED;
        else if (order && (str_eq(order, "END DRAW") || str_eq(order, "END CONCEDE"))) {
            const cJSON *seats = jx_array(first, "seats", 1, table->nseats, &err), *v;
            how = str_eq(order, "END DRAW") ? GAME_END_DRAWN : GAME_END_CONCEDED;
            cJSON_ArrayForEach(v, seats) {
                int seat;
                if (jx_int_value(v, "a winner", 1, table->nseats, &seat, &err))
                    break;
                winners |= 1u << (seat - 1);
            }
            if (!seats || err.len) {
                strbuf_addf(report, "turn %d: the players' end is unreadable: %s", turn, err.buf);
                goto out;
            }
        } else {
            strbuf_addf(report, "turn %d: the end is unreadable", turn);
            goto out;
        }
        game_log_init(&log);
        if (game_end_agreed(how))
            engine_agreed_log(table, how, winners, &log);
        ops->end(st, how, winners, table, &log);
        give_log(&log, out);
        rc = 0;
        goto out;
    }
    cJSON_ArrayForEach(o, orders) {
        int seat;
        const char *order = jx_str(o, "order", &err);
        if (jx_int(o, "seat", 1, table->nseats, &seat, &err) || !order) {
            strbuf_addf(report, "turn %d: its orders are unreadable: %s", turn, err.buf);
            goto out;
        }
        list[seat - 1] = order;
    }
    if (check && !str_eq(kind, "resign")) {
        /* Each order must be one its seat could give there and then: a
         * card played was in the hand the seed dealt. */
        unsigned waiting = ops->waiting_for(st);
        for (int s = 0; s < table->nseats; s++) {
            struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
            bool ok = ((waiting >> s) & 1) == (list[s] != NULL);
            if (ok && list[s])
                ok = ops->check(st, s, table, list[s], &canon, &why) == 0 && str_eq(canon.buf, list[s]);
            if (!ok)
                strbuf_addf(report, "turn %d: %s's order %s%s%s could not be given there%s%s", turn, table->names[s],
                            list[s] ? "\"" : "(none)", list[s] ? list[s] : "", list[s] ? "\"" : "",
                            why.len ? ": " : "", why.buf);
            strbuf_release(&canon);
            strbuf_release(&why);
            if (!ok)
                goto out;
        }
    }
    game_log_init(&log);
    if (str_eq(kind, "resign")) {
        const cJSON *src = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(orders, 0), "source");
        log.dropped = cJSON_IsString(src) && str_eq(src->valuestring, "nmr");
        for (int s = 0; s < table->nseats; s++)
            if (list[s])
                ops->resign(st, s, table, &log);
        rc = 0;
    } else {
        rc = ops->advance(st, list, table, &log);
        if (rc)
            strbuf_addf(report, "turn %d: the game module refused its orders", turn);
    }
    give_log(&log, out);
out:
    cJSON_Delete(orders);
    strbuf_release(&err);
    return rc;
}

static int compare_state(const struct game_rec *g, const void *st, const char *stored_text, int turn,
                         struct strbuf *report)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *stored = jx_parse(stored_text, "state", &err), *mine = g->ops->to_json(st);
    int rc = 0;

    if (!stored) {
        strbuf_addf(report, "turn %d: the stored state is unreadable: %s", turn, err.buf);
        rc = 1;
    } else if (jx_diff(stored, mine, &err)) {
        const char *path = err.buf;
        strbuf_addf(report, "turn %d: the replayed state differs from the stored one at %s", turn, path);
        rc = 1;
    }
    cJSON_Delete(stored);
    cJSON_Delete(mine);
    strbuf_release(&err);
    return rc;
}

int engine_replay(sqlite3 *db, struct game_rec *g, struct strbuf *report)
{
    struct strbuf err = STRBUF_INIT;
    sqlite3_stmt *st;
    void *state;
    int rc, expect = 0, result = 0;

    state = g->ops->setup(g->options, g->nseats, (uint64_t)g->seed, &err);
    if (!state) {
        strbuf_addf(report, "setup failed: %s", err.buf);
        strbuf_release(&err);
        return 1;
    }
    st = db_stmt(db,
                 "SELECT turn, kind, orders, state FROM turns WHERE game_id = ? AND rolled_back = 0 ORDER BY turn",
                 "I", g->id);
    if (!st) {
        g->ops->free(state);
        return -1;
    }
    while (!result && (rc = db_step(st)) == SQLITE_ROW) {
        int turn = sqlite3_column_int(st, 0);
        const char *kind = (const char *)sqlite3_column_text(st, 1);
        if (turn != expect) {
            strbuf_addf(report, "turn %d is missing from the history", expect);
            result = 1;
            break;
        }
        if (turn > 0 && apply_recorded(g, state, turn, kind, (const char *)sqlite3_column_text(st, 2), report)) {
            result = 1;
            break;
        }
        result = compare_state(g, state, (const char *)sqlite3_column_text(st, 3), turn, report);
        expect++;
    }
    db_finalize(st);
    if (rc < 0 && !result)
        result = -1;
    if (!result && expect != g->turn + 1) {
        strbuf_addf(report, "the game is at turn %d but the history ends at turn %d", g->turn, expect - 1);
        result = 1;
    }
    if (!result) {
        cJSON *cur = g->ops->to_json(g->st);
        char *text = jx_print(cur);
        result = compare_state(g, state, text, g->turn, report);
        if (result)
            strbuf_addstr(report, " (the game's current state)");
        free(text);
        cJSON_Delete(cur);
    }
    g->ops->free(state);
    strbuf_release(&err);
    return result;
}
