/* engine.c: the step machine: orders taken and stored, a step resolved when every order is in, resignations and the ends of a game, the bots and forced orders played at once; engine_*.c hold the rest by concern. */
#include "core/engine_int.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "core/plan.h"

/* ---- orders --------------------------------------------------------------- */

/* Where the orders being stored came from: a source name and the mail row. */
struct origin {
    const char *source;
    int64_t message_row;
    const char *bot_level; /* the bot that chose it (easy, strong); NULL: a person */
};

/* Stores one resolved step as a turn row; sets *turn_id. */
int engine_record_turn(sqlite3 *db, struct game_rec *g, const char *kind, const cJSON *orders,
                       const struct game_log *log, int64_t *turn_id)
{
    cJSON *state = g->ops->to_json(g->st), *view = g->ops->view_json(g->st, -1, &g->table);
    cJSON *priv = cJSON_CreateObject();
    char *state_text = jx_print(state), *view_text = jx_print(view), *orders_text = jx_print(orders), *priv_text;
    char now[32], when[128], *events_text = NULL, *priv_events_text = NULL;
    cJSON *priv_events = cJSON_CreateObject();
    struct game_when w;
    int rc;

    /* Its events stand for its log only when they say all of it; a
     * seat's notes likewise, each seat's on its own. */
    if (game_log_evented(log, -1))
        events_text = jx_print(log->events);
    for (int i = 0; i < g->nseats; i++) {
        char key[16];
        snprintf(key, sizeof(key), "%d", i + 1);
        if (game_log_evented(log, i))
            cJSON_AddItemToObject(priv_events, key, cJSON_Duplicate(log->priv_events[i], 1));
    }
    if (cJSON_GetArraySize(priv_events))
        priv_events_text = jx_print(priv_events);
    cJSON_Delete(priv_events);

    for (int i = 0; i < g->nseats; i++) {
        if (log->priv[i].len) {
            char key[16];
            snprintf(key, sizeof(key), "%d", i + 1);
            cJSON_AddStringToObject(priv, key, log->priv[i].buf);
        }
    }
    priv_text = jx_print(priv);
    utc_now(now);
    game_when_of(g->ops, g->st, &g->table, g->turn, &w);
    game_when_text(&w, when);
    rc = db_do(db,
               "INSERT INTO turns(game_id, turn, kind, orders, log, private_log, state, public_view, created_at,"
               " when_number, when_text, events, private_events) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               "Iisssssssisss", g->id, g->turn, kind, orders_text, log->pub.buf, priv_text, state_text, view_text, now,
               w.number, when, events_text, priv_events_text);
    *turn_id = sqlite3_last_insert_rowid(db);
    cJSON_Delete(state);
    cJSON_Delete(view);
    cJSON_Delete(priv);
    free(state_text);
    free(view_text);
    free(orders_text);
    free(priv_text);
    free(events_text);
    free(priv_events_text);
    return rc;
}

/* Stores one order line; turn_id 0 leaves it unlinked to a turn. */
static int store_order(sqlite3 *db, struct game_rec *g, int seat, int step, const char *text, const char *canonical,
                       const char *status, const char *reason, const struct origin *o, int64_t turn_id)
{
    char now[32];
    utc_now(now);
    return db_do(db,
                 "INSERT INTO orders(game_id, seat, step, text, canonical, status, reason, source, turn_id,"
                 " received_at, message_id, bot_level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, nullif(?, 0), ?, nullif(?, 0),"
                 " ?)",
                 "IiisssssIsIs", g->id, seat + 1, step, text, canonical, status, reason, o->source, turn_id, now,
                 o->message_row, o->bot_level);
}

/* The seats with a pending order for the current step, as a mask. */
static int save_after_turn(sqlite3 *db, struct game_rec *g, int64_t turn_id)
{
    if (db_do(db, "UPDATE orders SET status = 'accepted', turn_id = ? WHERE game_id = ? AND step = ? AND status = 'pending'",
              "IIi", turn_id, g->id, g->turn))
        return -1;
    return game_save(db, g);
}

/* Resolves the current step with every pending order; log gets what happened. */
static int resolve_step(sqlite3 *db, struct game_rec *g, struct game_log *log)
{
    char *orders[GAME_MAX_SEATS] = { NULL };
    cJSON *list = cJSON_CreateArray();
    sqlite3_stmt *st;
    int64_t turn_id;
    int rc;

    st = db_stmt(db,
                 "SELECT seat, canonical, source, bot_level FROM orders WHERE game_id = ? AND step = ? AND status ="
                 " 'pending' ORDER BY seat",
                 "Ii", g->id, g->turn + 1);
    if (!st)
        goto fail;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        int seat = sqlite3_column_int(st, 0) - 1;
        if (seat < 0 || seat >= g->nseats || orders[seat])
            continue;
        orders[seat] = db_col_text(st, 1);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "seat", seat + 1);
        cJSON_AddStringToObject(o, "order", orders[seat]);
        /* Who gave it, when not the player by hand: a bot standing in,
         * the deadline's stand-in, the core for a forced order, or her
         * plan (IF ... THEN) when its condition came true. */
        if (sqlite3_column_text(st, 2) &&
            (str_eq((const char *)sqlite3_column_text(st, 2), "nmr") ||
             str_eq((const char *)sqlite3_column_text(st, 2), "forced") ||
             str_eq((const char *)sqlite3_column_text(st, 2), "plan")))
            cJSON_AddStringToObject(o, "source", (const char *)sqlite3_column_text(st, 2));
        /* Which bot chose it: the history and the site say so. */
        if (sqlite3_column_type(st, 3) == SQLITE_TEXT)
            cJSON_AddStringToObject(o, "bot", (const char *)sqlite3_column_text(st, 3));
        cJSON_AddItemToArray(list, o);
    }
    db_finalize(st);
    if (rc < 0)
        goto fail;
    if (g->ops->advance(g->st, (const char *const *)orders, &g->table, log)) {
        error("game %lld: the %s module could not resolve turn %d", (long long)g->id, g->ops->name, g->turn + 1);
        goto fail;
    }
    g->turn++;
    game_step_started(g);
    if (engine_record_turn(db, g, "orders", list, log, &turn_id) || save_after_turn(db, g, turn_id))
        goto fail;
    for (int i = 0; i < GAME_MAX_SEATS; i++)
        free(orders[i]);
    cJSON_Delete(list);
    return 0;
fail:
    for (int i = 0; i < GAME_MAX_SEATS; i++)
        free(orders[i]);
    cJSON_Delete(list);
    return -1;
}

/* Resolves the step when every order it waits for is in; *resolved says whether it did. */
static int maybe_resolve(sqlite3 *db, struct game_rec *g, struct game_log *log, bool *resolved)
{
    unsigned waiting = g->ops->waiting_for(g->st), in;
    *resolved = false;
    if (!waiting || game_pending(db, g, &in))
        return waiting ? -1 : 0;
    if ((in & waiting) != waiting)
        return 0;
    *resolved = true;
    return resolve_step(db, g, log);
}

/* The public log (whose -1) or a seat's notes in lang: from its events
 * when they say all of it, else its English lines. */
static void log_text_in(const struct game_log *log, int whose, const char *lang, struct strbuf *out)
{
    const struct strbuf *text = whose < 0 ? &log->pub : &log->priv[whose];
    if (!str_eq(lang, LANG_ENGLISH) && game_log_evented(log, whose))
        game_events_text(whose < 0 ? log->events : log->priv_events[whose], lang, out);
    else
        strbuf_addstr(out, text->buf);
}

static void add_log(struct strbuf *body, const struct game_log *log, const struct game_rec *g, int seat)
{
    log_text_in(log, -1, g->seats[seat].lang, body);
    if (log->priv[seat].len) {
        strbuf_complete_line(body);
        log_text_in(log, seat, g->seats[seat].lang, body);
    }
}

/* The game's check of seat's order, its refusal in her language. */
static int check_in(const struct game_rec *g, int seat, const char *order, struct strbuf *canon, struct strbuf *why)
{
    struct game_table t = game_table_in(g, g->seats[seat].lang);
    return g->ops->check(g->st, seat, &t, order, canon, why);
}

static int submit_order(sqlite3 *db, struct game_rec *g, int seat, struct line_result *l, const struct origin *o)
{
    struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
    struct game_result res;
    char *replaced = NULL;
    unsigned waiting;
    bool resolved;
    int rc = -1;

    g->ops->result(g->st, &res);
    waiting = g->ops->waiting_for(g->st);
    if (res.finished) {
        phrase_add(&why, g->seats[seat].lang, "refused.over", NULL);
    } else if (g->sched.paused) {
        phrase_add(&why, g->seats[seat].lang, "refused.paused", NULL);
    } else if (!(waiting & (1u << seat))) {
        struct strbuf names = STRBUF_INIT;
        game_names_in(g, waiting, g->seats[seat].lang, &names);
        phrase_add(&why, g->seats[seat].lang, "refused.not-your-turn", "names", names.buf, NULL);
        strbuf_release(&names);
    } else if (check_in(g, seat, l->text, &canon, &why)) {
        strbuf_addstr(&why, ". ");
        if (!engine_near_orders(g, seat, l->written ? l->written : l->text, &why))
            phrase_add(&why, g->seats[seat].lang, "legal.hint", NULL);
    } else {
        goto valid;
    }
    if (engine_is_greeting(g, seat, l->text)) {
        /* "thanks, Ann": no order, and no refusal either. */
        l->status = LINE_GREETING;
        strbuf_addstr(&l->body, "Read as a greeting, not an order.");
        rc = 0;
        goto out;
    }
    engine_reject(l, why.buf);
    rc = store_order(db, g, seat, g->turn + 1, l->text, NULL, "rejected", why.buf, o, 0);
    goto out;

valid:
    l->canonical = xstrdup(canon.buf);
    /* Her own order: the plans she made before it no longer apply. */
    if (!o->bot_level && !str_eq(o->source, "plan") && !str_eq(o->source, "forced") && !str_eq(o->source, "nmr")) {
        int cleared = 0;
        if (plan_clear(db, g, seat, PLAN_CLEAR_ORDER, &cleared))
            goto out;
        if (cleared) {
            char n[16];
            snprintf(n, sizeof(n), "%d", cleared);
            phrase_add(&l->body, g->seats[seat].lang, "plan.cleared", "n", n, NULL);
            strbuf_complete_line(&l->body);
        }
    }
    /* The order it replaces, if any: the reply says so. */
    if (db_get_text(db, &replaced,
                    "SELECT canonical FROM orders WHERE game_id = ? AND step = ? AND seat = ? AND status = 'pending'"
                    " ORDER BY id DESC LIMIT 1",
                    "Iii", g->id, g->turn + 1, seat + 1) < 0)
        goto out;
    if (db_do(db,
              "UPDATE orders SET status = 'superseded' WHERE game_id = ? AND step = ? AND seat = ?"
              " AND status = 'pending'",
              "Iii", g->id, g->turn + 1, seat + 1) ||
        store_order(db, g, seat, g->turn + 1, l->text, canon.buf, "pending", NULL, o, 0))
        goto out;
    {
        struct game_log log;
        game_log_init(&log);
        rc = maybe_resolve(db, g, &log, &resolved);
        if (!rc && resolved) {
            l->status = LINE_ACCEPTED;
            add_log(&l->body, &log, g, seat);
        } else if (!rc) {
            unsigned missing = 0;
            rc = game_missing(db, g, &missing);
            l->status = LINE_PENDING;
            const char *lang = g->seats[seat].lang;
            char *mine = lexicon_local(lang, "common", g->ops->name, canon.buf);
            char *before = replaced ? lexicon_local(lang, "common", g->ops->name, replaced) : NULL;
            struct strbuf names = STRBUF_INIT;
            game_names_in(g, missing, lang, &names);
            phrase_add(&l->body, lang,
                       replaced && !str_eq(replaced, canon.buf) ? "order.secret.replaces"
                       : replaced                               ? "order.secret.stands"
                                                                : "order.secret.recorded",
                       "order", mine, "before", before, "names", names.buf, NULL);
            free(mine);
            free(before);
            strbuf_release(&names);
        }
        game_log_release(&log);
    }
out:
    free(replaced);
    strbuf_release(&canon);
    strbuf_release(&why);
    return rc;
}

static int resign_seat(sqlite3 *db, struct game_rec *g, int seat, const struct origin *o, struct strbuf *out)
{
    struct game_log log;
    cJSON *list = cJSON_CreateArray(), *item = cJSON_CreateObject();
    int64_t turn_id;
    bool resolved;
    int rc = -1;

    cJSON_AddNumberToObject(item, "seat", seat + 1);
    cJSON_AddStringToObject(item, "order", "RESIGN");
    game_log_init(&log);
    /* Dropped at a deadline: the log says so, and the record too, so that
     * a replay writes the same words. */
    log.dropped = str_eq(o->source, "nmr");
    if (log.dropped)
        cJSON_AddStringToObject(item, "source", "nmr");
    cJSON_AddItemToArray(list, item);
    /* Her own pending order goes; the others' carry over to the next step. */
    if (db_do(db, "UPDATE orders SET status = 'superseded' WHERE game_id = ? AND seat = ? AND status = 'pending'",
              "Ii", g->id, seat + 1))
        goto out;
    g->ops->resign(g->st, seat, &g->table, &log);
    g->turn++;
    game_step_started(g);
    /* Her holding ends with the step her RESIGN is recorded at, and her
     * vote with it; the RESIGN is the last order of hers. */
    if (engine_record_turn(db, g, "resign", list, &log, &turn_id) ||
        store_order(db, g, seat, g->turn, "RESIGN", "RESIGN", "accepted", NULL, o, turn_id) ||
        seatlife_leave(db, g, seat, log.dropped ? SEAT_DROPPED : SEAT_RESIGNED) ||
        db_do(db, "UPDATE orders SET step = ? WHERE game_id = ? AND status = 'pending'", "iI", g->turn + 1, g->id) ||
        game_save(db, g))
        goto out;
    strbuf_addstr(out, log.pub.buf);
    game_log_release(&log);
    game_log_init(&log);
    rc = maybe_resolve(db, g, &log, &resolved);
    if (!rc && resolved) {
        strbuf_complete_line(out);
        strbuf_addstr(out, log.pub.buf);
    }
    /* The votes of the seats left may carry now; and a game with no
     * person left ends. */
    if (!rc) {
        struct strbuf ended = STRBUF_INIT;
        struct agree_end end;
        rc = agree_settle(db, g, &end);
        if (!rc && end.carried && engine_end_agreed(db, g, end.how, end.winners, &ended) < 0)
            rc = -1;
        if (!rc && !ended.len && engine_end_unpeopled(db, g, &ended) < 0)
            rc = -1;
        if (!rc && ended.len) {
            strbuf_complete_line(out);
            strbuf_addstr(out, ended.buf);
        }
        strbuf_release(&ended);
    }
out:
    game_log_release(&log);
    cJSON_Delete(list);
    return rc;
}

int engine_resign(sqlite3 *db, struct game_rec *g, int seat, const char *source, struct strbuf *out)
{
    struct origin o = { source, 0, NULL };
    return resign_seat(db, g, seat, &o, out);
}

/* Ends the unfinished game now, how, in a turn of kind 'end' recorded as
 * item (taken); its log begins with head. Orders given for the step that
 * never comes are dropped, unread. 1 when the game is over already. */
/* The step that ends the game how, its log begun in log (an event that
 * says who ended it); log is released. */
static int end_turn(sqlite3 *db, struct game_rec *g, enum game_end how, unsigned winners, cJSON *item,
                    struct game_log *begun, struct strbuf *out)
{
    struct game_log log = *begun;
    cJSON *list = cJSON_CreateArray();
    struct game_result res;
    int64_t turn_id;
    int rc = -1;

    cJSON_AddItemToArray(list, item);
    g->ops->result(g->st, &res);
    if (res.finished) {
        strbuf_addstr(out, "the game is over already");
        cJSON_Delete(list);
        game_log_release(&log);
        return 1;
    }
    /* Orders for a step that never comes, and plans for it, go. */
    if (db_do(db, "UPDATE orders SET status = 'superseded' WHERE game_id = ? AND status = 'pending'", "I", g->id) ||
        plan_clear(db, g, -1, PLAN_CLEAR_OVER, NULL))
        goto out;
    g->ops->end(g->st, how, winners, &g->table, &log);
    g->turn++;
    game_step_started(g);
    if (engine_record_turn(db, g, "end", list, &log, &turn_id) || game_save(db, g))
        goto out;
    strbuf_addstr(out, log.pub.buf);
    rc = 0;
out:
    game_log_release(&log);
    cJSON_Delete(list);
    return rc;
}

int engine_end(sqlite3 *db, struct game_rec *g, bool score, const char *reason, struct strbuf *out)
{
    cJSON *item = cJSON_CreateObject();
    struct game_log log;
    cJSON_AddStringToObject(item, "order", score ? "END SCORE" : "END ABANDON");
    cJSON_AddStringToObject(item, "reason", reason);
    game_log_init(&log);
    game_event(&log, 0, score ? "engine.host-ends-scored" : "engine.host-ends", EV_STR, "reason", reason, EV_END);
    return end_turn(db, g, score ? GAME_END_SCORED : GAME_END_ABANDONED, 0, item, &log, out);
}

int engine_end_unpeopled(sqlite3 *db, struct game_rec *g, struct strbuf *out)
{
    struct game_result r;
    unsigned left = 0, dropped = 0;
    int64_t people;
    cJSON *item;
    struct game_log log;
    int rc;
    g->ops->result(g->st, &r);
    if (r.finished || game_left(db, g, &left, &dropped))
        return r.finished ? 0 : -1;
    for (int s = 0; s < g->nseats; s++)
        if (!game_seat_bot(g, s) && !((left >> s) & 1))
            return 0; /* a person plays on */
    /* Only a game people played ends so: the host's bot games play out. */
    if (db_get_int64(db, &people, "SELECT count(*) FROM seat_holders WHERE game_id = ? AND address <> 'bot'", "I",
                     g->id) < 0)
        return -1;
    if (!people)
        return 0;
    item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "order", "END SCORE");
    cJSON_AddStringToObject(item, "reason", "no person is left in the game");
    game_log_init(&log);
    game_event(&log, 0, "engine.unpeopled", EV_END);
    rc = end_turn(db, g, GAME_END_SCORED, 0, item, &log, out);
    return rc < 0 ? -1 : rc == 0 ? 1 : 0;
}

/* What everyone reads when the players agree the end. */
void engine_agreed_log(const struct game_table *t, enum game_end how, unsigned winners, struct game_log *log)
{
    const char *names[GAME_MAX_SEATS];
    int n = 0;
    for (int s = 0; s < t->nseats; s++)
        if (winners & (1u << s))
            names[n++] = t->names[s];
    game_event(log, 0, how == GAME_END_DRAWN ? "engine.draw-agreed" : "engine.conceded", EV_NAMES, "names", names, n,
               EV_INT, "n", n, EV_END);
}

int engine_end_agreed(sqlite3 *db, struct game_rec *g, enum game_end how, unsigned winners, struct strbuf *out)
{
    cJSON *item, *seats;
    struct game_log log;
    if (!winners) {
        strbuf_addstr(out, "the game is over already");
        return 1;
    }
    item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "order", how == GAME_END_DRAWN ? "END DRAW" : "END CONCEDE");
    seats = cJSON_AddArrayToObject(item, "seats");
    for (int s = 0; s < g->nseats; s++)
        if (winners & (1u << s))
            cJSON_AddItemToArray(seats, cJSON_CreateNumber(s + 1));
    game_log_init(&log);
    engine_agreed_log(&g->table, how, winners, &log);
    return end_turn(db, g, how, winners, item, &log, out);
}

/* Gives order for seat as source ("bot", "nmr", "forced"), chosen by the
 * bot of level (NULL: the core); takes order. */
static int give_for(sqlite3 *db, struct game_rec *g, int seat, const char *source, const char *level, char *order,
                    char **played)
{
    struct origin o = { source, 0, level };
    struct line_result l;
    int rc;
    memset(&l, 0, sizeof(l));
    l.text = order;
    strbuf_init(&l.body);
    rc = submit_order(db, g, seat, &l, &o);
    if (!rc && l.status == LINE_REJECTED) {
        /* The game's fault, not a player's: kept, and the host told. */
        struct strbuf why = STRBUF_INIT;
        strbuf_addf(&why, "the %s order of seat %d (%s), \"%s\", was refused by the game: %s",
                    level ? (str_eq(level, "strong") ? "strong bot's" : "easy bot's") : "forced", seat + 1,
                    g->names[seat], order, l.body.buf);
        rc = stuck_mark(db, g->id, g->turn, why.buf) ? -1 : 1;
        strbuf_release(&why);
    } else if (!rc) {
        rc = stuck_clear(db, g->id);
    }
    free(l.canonical);
    strbuf_release(&l.body);
    if (played && !rc)
        *played = order;
    else
        free(order);
    return rc;
}

/* What a bot's choice for seat at this step is seeded with. */
static uint64_t bot_salt(const struct game_rec *g, int seat)
{
    return (uint64_t)g->seed ^ ((uint64_t)g->turn * 0x9e3779b97f4a7c15ULL) ^ (uint64_t)seat;
}

int engine_stuck_no_order(sqlite3 *db, struct game_rec *g, int seat, const char *level)
{
    struct strbuf why = STRBUF_INIT;
    int rc;
    strbuf_addf(&why, "the %s bot of seat %d (%s) found no legal order, though the game waits for it.", level,
                seat + 1, g->names[seat]);
    rc = stuck_mark(db, g->id, g->turn, why.buf) ? -1 : 1;
    strbuf_release(&why);
    return rc;
}

int engine_play_for(sqlite3 *db, struct game_rec *g, int seat, const char *source, char **played)
{
    char *order = bot_choose(g->ops, g->st, seat, &g->table, bot_salt(g, seat));
    if (!order)
        return engine_stuck_no_order(db, g, seat, "easy");
    return give_for(db, g, seat, source, "easy", order, played);
}

char *engine_search_for(sqlite3 *db, const struct game_rec *g, int seat, struct search_stats *stats)
{
    struct search_budget b = SEARCH_BUDGET_DEFAULT;
    b.ms = (int)setting_get_int(db, "bot_ms", 200);
    return search_choose(g->ops, g->st, seat, &g->table, bot_salt(g, seat), &b, stats);
}

int engine_play_given(sqlite3 *db, struct game_rec *g, int seat, const char *source, char *order, char **played)
{
    return give_for(db, g, seat, source, "strong", order, played);
}

char *engine_forced_order(const struct game_rec *g, int seat)
{
    struct strlist legal = STRLIST_INIT;
    char *order = NULL;
    g->ops->legal(g->st, seat, &g->table, &legal);
    if (legal.n == 1 && !(g->ops->keep_choice && g->ops->keep_choice(g->st, seat, legal.v[0])))
        order = xstrdup(legal.v[0]);
    strlist_clear(&legal);
    return order;
}

/* Whether the core plays seat's orders at once: an easy bot's. */
static bool plays_inline(const struct game_rec *g, int s)
{
    return g->seats[s].bot && !str_eq(g->seats[s].bot_level, "strong");
}

int engine_autoplay(sqlite3 *db, struct game_rec *g, int *played)
{
    long long limit = setting_get_int(db, "bot_steps", 64);
    int n = 0;
    for (;;) {
        unsigned waiting = g->ops->waiting_for(g->st), in;
        int seat = -1;
        char *forced = NULL;
        if (!waiting || g->sched.paused || n >= limit)
            break;
        if (game_pending(db, g, &in))
            return -1;
        char *planned = NULL;
        for (int s = 0; s < g->nseats && seat < 0; s++) {
            if (!(waiting & ~in & (1u << s)))
                continue;
            /* Her plan first: its answer when its condition came true. */
            if (!plays_inline(g, s) && plan_due(db, g, s, &planned))
                return -1;
            if (planned || plays_inline(g, s) || (forced = engine_forced_order(g, s)))
                seat = s;
        }
        if (seat < 0)
            break;
        int r = planned  ? give_for(db, g, seat, "plan", NULL, planned, NULL)
                : forced ? give_for(db, g, seat, "forced", NULL, forced, NULL)
                         : engine_play_for(db, g, seat, "bot", NULL);
        if (r < 0)
            return -1;
        if (r > 0)
            break; /* stuck: kept for the host; the next run tries again */
        n++;
    }
    if (played)
        *played += n;
    /* A game over keeps no plans. */
    if (!g->ops->waiting_for(g->st) && plan_clear(db, g, -1, PLAN_CLEAR_OVER, NULL))
        return -1;
    return 0;
}

int engine_strong_due(sqlite3 *db, struct game_rec *g, int *seat)
{
    unsigned waiting = g->ops->waiting_for(g->st), in;
    *seat = -1;
    if (!waiting || g->sched.paused || str_eq(g->status, "finished"))
        return 0;
    if (game_pending(db, g, &in))
        return -1;
    for (int s = 0; s < g->nseats && *seat < 0; s++)
        if ((waiting & ~in & (1u << s)) && g->seats[s].bot && str_eq(g->seats[s].bot_level, "strong"))
            *seat = s;
    return 0;
}

int engine_autoplay_due(sqlite3 *db, struct game_rec *g, bool *any)
{
    unsigned waiting = g->ops->waiting_for(g->st), in;
    *any = false;
    if (!waiting || g->sched.paused)
        return 0;
    if (game_pending(db, g, &in))
        return -1;
    for (int s = 0; s < g->nseats && !*any; s++)
        if (waiting & ~in & (1u << s)) {
            char *forced = plays_inline(g, s) ? NULL : engine_forced_order(g, s);
            bool planned = false;
            if (!plays_inline(g, s) && !forced && plan_ready(db, g, s, &planned))
                return -1;
            *any = plays_inline(g, s) || forced || planned;
            free(forced);
        }
    return 0;
}

int engine_submit(sqlite3 *db, struct game_rec *g, int seat, const char *text, const char *source,
                  int64_t message_row, struct submission *out)
{
    struct strlist lines = STRLIST_INIT;
    struct origin o = { source, message_row, NULL };
    int rc = 0;

    out->turn_before = out->turn_after = g->turn;
    {
        unsigned missing = 0;
        game_missing(db, g, &missing);
        out->deadline_before = game_deadline(g, missing);
    }
    order_lines(text, &lines);
    for (size_t i = 0; i < lines.n && !rc; i++) {
        struct line_result *l = submission_line(out, lines.v[i]);
        struct game_result res;
        enum command c;
        /* IF ... THEN ...: a plan, taken after her other lines (below),
         * in the position her orders leave. */
        if (plan_line_is(g->seats[seat].lang, l->text)) {
            l->status = LINE_PLANNED;
            continue;
        }
        {
            /* JOUER 7 from a seat who reads French: PLAY 7. */
            char *en = lexicon_english(g->seats[seat].lang, "common", g->ops->name, l->text);
            if (str_eq(en, l->text))
                free(en);
            else {
                l->written = l->text;
                l->text = en;
            }
        }
        c = engine_command_of(l->text);
        switch (c) {
        case CMD_HELP:
            l->status = LINE_INFO;
            engine_rules_text(g, seat, &l->body);
            break;
        case CMD_BOARD:
            l->status = LINE_INFO;
            rc = view_ascii(db, g, seat, &l->body);
            break;
        case CMD_LEGAL:
            l->status = LINE_INFO;
            engine_legal_text(g, seat, l->text[5] ? l->text + 5 + strspn(l->text + 5, " \t") : NULL, &l->body);
            break;
        case CMD_HISTORY:
            l->status = LINE_INFO;
            rc = history_render(db, g, seat, &l->body);
            break;
        case CMD_RESIGN:
            g->ops->result(g->st, &res);
            if (res.finished) {
                engine_reject(l, "the game is over already");
                rc = store_order(db, g, seat, g->turn + 1, l->text, NULL, "rejected", l->body.buf, &o, 0);
            } else {
                l->status = LINE_ACCEPTED;
                l->canonical = xstrdup("RESIGN");
                rc = resign_seat(db, g, seat, &o, &l->body);
            }
            break;
        case CMD_VACATION:
            rc = engine_vacation(db, g, seat, l->text, l);
            break;
        case CMD_TIMEZONE:
            rc = engine_timezone_cmd(db, g, seat, l->text, l);
            break;
        case CMD_MAIL:
            rc = engine_mail_cmd(db, g, seat, l->text, l);
            break;
        case CMD_LANGUAGE:
            rc = engine_language_cmd(db, g, seat, l->text, l);
            break;
        case CMD_IMAGES:
            rc = engine_images_cmd(db, g, seat, l->text, l);
            break;
        case CMD_DRAW:
        case CMD_NODRAW:
        case CMD_CONCEDE:
        case CMD_NOCONCEDE:
            {
                struct agree_end end;
                rc = agree_vote(db, g, seat,
                                c == CMD_DRAW      ? VOTE_DRAW
                                : c == CMD_NODRAW  ? VOTE_NODRAW
                                : c == CMD_CONCEDE ? VOTE_CONCEDE
                                                   : VOTE_NOCONCEDE,
                                l, &end);
                /* Carried: the game ends here, and the line says how. */
                if (!rc && end.carried) {
                    rc = engine_end_agreed(db, g, end.how, end.winners, &l->body) < 0 ? -1 : 0;
                    strbuf_trim(&l->body);
                }
            }
            break;
        case CMD_PLANS:
            l->status = LINE_INFO;
            rc = plan_list(db, g, seat, &l->body);
            break;
        case CMD_CANCEL:
            rc = plan_cancel(db, g, seat, l->text + 6 + strspn(l->text + 6, " \t"), l);
            break;
        case CMD_NONE:
            rc = submit_order(db, g, seat, l, &o);
            break;
        }
    }
    for (size_t i = 0, taken = 0; i < out->n && !rc; i++)
        if (out->lines[i].status == LINE_PLANNED && !out->lines[i].body.len) {
            rc = plan_give(db, g, seat, &out->lines[i], engine_near_plain, taken > 0);
            taken += out->lines[i].status == LINE_PLANNED;
        }
    out->turn_lines = g->turn;
    /* Bots answer at once when the game waits for them, and forced orders
     * are played (as far as the bot_steps setting lets one command go:
     * `run` plays on). */
    if (!rc)
        rc = engine_autoplay(db, g, NULL);
    out->turn_after = g->turn;
    if (!rc) {
        unsigned missing = 0;
        rc = game_missing(db, g, &missing);
        out->deadline_after = game_deadline(g, missing);
    }
    strlist_clear(&lines);
    return rc;
}
