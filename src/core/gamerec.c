/* gamerec.c: one game as the core holds it: its database row, its seats, and its module state. */
#include "core/gamerec.h"
#include "lib/catalog.h"
#include "lib/template.h"
#include "store/db.h"
#include "lib/jsonx.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int game_id_parse(const char *s, int64_t *id)
{
    long long v;
    if (s && *s == '#')
        s++;
    if (!parse_int(s, 1, INT64_MAX, &v))
        return -1;
    *id = v;
    return 0;
}

bool game_reminders_read(const char *text, long reminders[8], int *n)
{
    cJSON *r = text ? cJSON_Parse(text) : NULL, *v;
    bool list = cJSON_IsArray(r);
    *n = 0;
    cJSON_ArrayForEach(v, r)
        if (cJSON_IsNumber(v) && v->valuedouble > 0 && *n < 8)
            reminders[(*n)++] = (long)v->valuedouble;
    cJSON_Delete(r);
    return list;
}

int game_load(sqlite3 *db, int64_t id, struct game_rec *g)
{
    sqlite3_stmt *st;
    struct strbuf err = STRBUF_INIT;
    cJSON *state = NULL;
    int rc;

    memset(g, 0, sizeof(*g));
    g->id = id;
    st = db_stmt(db,
                 "SELECT module, options, seed, status, turn, state, deadline_secs, reminder_secs, grace_secs, nmr,"
                 " paused, step_started_at, deadline_at, host_email, host_secret, base_seed, seed_commitment, salts,"
                 " seed_chosen, nmr_level FROM games WHERE id = ?",
                 "I", id);
    if (!st)
        return -1;
    rc = db_step(st);
    if (rc != SQLITE_ROW) {
        db_finalize(st);
        return rc < 0 ? -1 : error("no game %lld", (long long)id);
    }
    g->ops = game_find((const char *)sqlite3_column_text(st, 0));
    if (!g->ops) {
        error("game %lld is of an unknown kind \"%s\"", (long long)id, sqlite3_column_text(st, 0));
        db_finalize(st);
        return -1;
    }
    g->options = jx_parse((const char *)sqlite3_column_text(st, 1), "options", &err);
    g->seed = sqlite3_column_int64(st, 2);
    snprintf(g->status, sizeof(g->status), "%s", sqlite3_column_text(st, 3));
    g->turn = sqlite3_column_int(st, 4);
    state = jx_parse((const char *)sqlite3_column_text(st, 5), "state", &err);
    g->sched.deadline_secs = (long)sqlite3_column_int64(st, 6);
    game_reminders_read((const char *)sqlite3_column_text(st, 7), g->sched.reminders, &g->sched.nreminders);
    g->sched.grace_secs = (long)sqlite3_column_int64(st, 8);
    snprintf(g->sched.nmr, sizeof(g->sched.nmr), "%s", sqlite3_column_text(st, 9));
    snprintf(g->sched.nmr_level, sizeof(g->sched.nmr_level), "%s", sqlite3_column_text(st, 19));
    g->sched.paused = sqlite3_column_int(st, 10) != 0;
    g->sched.step_started_at = db_col_text(st, 11);
    g->sched.deadline_at = db_col_text(st, 12);
    g->sched.host_email = sqlite3_column_type(st, 13) == SQLITE_NULL ? NULL : db_col_text(st, 13);
    g->sched.host_secret = sqlite3_column_type(st, 14) == SQLITE_NULL ? NULL : db_col_text(st, 14);
    g->base_seed = sqlite3_column_int64(st, 15);
    if (sqlite3_column_type(st, 16) != SQLITE_NULL)
        snprintf(g->commitment, sizeof(g->commitment), "%s", sqlite3_column_text(st, 16));
    g->salts = jx_parse((const char *)sqlite3_column_text(st, 17), "salts", &err);
    g->seed_chosen = sqlite3_column_int(st, 18) != 0;
    if (!cJSON_IsArray(g->salts)) {
        cJSON_Delete(g->salts);
        g->salts = cJSON_CreateArray();
    }
    db_finalize(st);
    if (!g->options || !state)
        goto bad;
    g->st = g->ops->from_json(state, &err);
    cJSON_Delete(state);
    state = NULL;
    if (!g->st)
        goto bad;

    st = db_stmt(db,
                 "SELECT seat, name, email, secret, bot, timezone, coalesce(vacation_until, ''), mail_policy,"
                 " digest_secs, told_step, coalesce(told_at, ''), images, real_name, coalesce(bot_level, 'easy'),"
                 " coalesce((SELECT l.language FROM player_languages l WHERE l.address = coalesce((SELECT a.address"
                 " FROM player_aliases a WHERE a.alias = seats.email), seats.email)), (SELECT value FROM settings"
                 " WHERE key = 'language'), '" LANG_ENGLISH "') FROM seats WHERE game_id = ? ORDER BY seat",
                 "I", id);
    if (!st)
        goto fail;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        int seat = sqlite3_column_int(st, 0);
        if (seat != g->nseats + 1 || g->nseats == GAME_MAX_SEATS) {
            db_finalize(st);
            strbuf_addstr(&err, "its seats are not numbered 1, 2, ...");
            goto bad;
        }
        g->seats[g->nseats].name = db_col_text(st, 1);
        g->seats[g->nseats].email = db_col_text(st, 2);
        g->seats[g->nseats].secret = db_col_text(st, 3);
        g->seats[g->nseats].bot = sqlite3_column_int(st, 4) != 0;
        g->seats[g->nseats].timezone = db_col_text(st, 5);
        g->seats[g->nseats].vacation_until = db_col_text(st, 6);
        snprintf(g->seats[g->nseats].mail_policy, sizeof(g->seats[g->nseats].mail_policy), "%s",
                 (const char *)sqlite3_column_text(st, 7));
        g->seats[g->nseats].digest_secs = (long)sqlite3_column_int64(st, 8);
        g->seats[g->nseats].told_step = sqlite3_column_int(st, 9);
        g->seats[g->nseats].told_at = db_col_text(st, 10);
        g->seats[g->nseats].images = sqlite3_column_int(st, 11) != 0;
        g->seats[g->nseats].real_name = sqlite3_column_type(st, 12) == SQLITE_NULL ? NULL : db_col_text(st, 12);
        snprintf(g->seats[g->nseats].bot_level, sizeof(g->seats[g->nseats].bot_level), "%s",
                 (const char *)sqlite3_column_text(st, 13));
        snprintf(g->seats[g->nseats].lang, sizeof(g->seats[g->nseats].lang), "%s",
                 lang_code((const char *)sqlite3_column_text(st, 14)));
        g->names[g->nseats] = g->seats[g->nseats].name;
        g->nseats++;
    }
    db_finalize(st);
    if (rc < 0)
        goto fail;
    g->table.nseats = g->nseats;
    g->table.names = g->names;
    strbuf_release(&err);
    return 0;
bad:
    error("game %lld is damaged in the database: %s", (long long)id, err.buf);
fail:
    cJSON_Delete(state);
    strbuf_release(&err);
    game_unload(g);
    return -1;
}

void game_unload(struct game_rec *g)
{
    if (g->st)
        g->ops->free(g->st);
    cJSON_Delete(g->options);
    cJSON_Delete(g->salts);
    for (int i = 0; i < g->nseats; i++) {
        free(g->seats[i].name);
        free(g->seats[i].email);
        free(g->seats[i].secret);
        free(g->seats[i].timezone);
        free(g->seats[i].vacation_until);
        free(g->seats[i].told_at);
        free(g->seats[i].real_name);
    }
    free(g->sched.step_started_at);
    free(g->sched.deadline_at);
    free(g->sched.host_email);
    free(g->sched.host_secret);
    memset(g, 0, sizeof(*g));
}

const char *game_person(const struct game_rec *g, int seat)
{
    return g->seats[seat].real_name ? g->seats[seat].real_name : g->names[seat];
}

bool game_seat_bot(const struct game_rec *g, int seat)
{
    return g->seats[seat].bot || str_eq(g->seats[seat].email, "bot");
}

int game_seat_find(const struct game_rec *g, const char *who)
{
    long long n;
    for (int i = 0; i < g->nseats; i++)
        if (str_ieq(g->seats[i].name, who))
            return i;
    if (parse_int(who, 1, g->nseats, &n))
        return (int)n - 1;
    return -1;
}

bool game_hides_anything(const struct game_ops *ops)
{
    return ops->secrets || ops->determinize;
}

const char *game_phase_of(const struct game_ops *ops, const void *st)
{
    return ops->phase ? ops->phase(st) : "play";
}

const char *game_status_of(const struct game_ops *ops, const void *st)
{
    struct game_result r;
    ops->result(st, &r);
    if (r.finished)
        return "finished";
    return str_eq(game_phase_of(ops, st), "setup") ? "setup" : "active";
}

cJSON *game_result_json(const struct game_rec *g)
{
    struct game_result r;
    cJSON *j = cJSON_CreateObject(), *w = cJSON_CreateArray();

    g->ops->result(g->st, &r);
    cJSON_AddBoolToObject(j, "finished", r.finished);
    if (r.finished)
        cJSON_AddStringToObject(j, "ended_by", r.ended == GAME_END_ABANDONED ? "host, abandoned"
                                               : r.ended == GAME_END_SCORED  ? "host, scored"
                                               : r.ended == GAME_END_DRAWN   ? "players, drawn"
                                               : r.ended == GAME_END_CONCEDED ? "players, conceded"
                                                                             : "rules");
    for (int i = 0; i < g->nseats; i++)
        if (r.finished && (r.winners & (1u << i)))
            cJSON_AddItemToArray(w, cJSON_CreateString(g->names[i]));
    cJSON_AddItemToObject(j, "winners", w);
    if (r.has_scores) {
        cJSON *s = cJSON_CreateObject();
        for (int i = 0; i < g->nseats; i++)
            cJSON_AddNumberToObject(s, g->names[i], r.scores[i]);
        cJSON_AddItemToObject(j, "scores", s);
        cJSON_AddStringToObject(j, "score_name", r.score_name ? r.score_name : "points");
    }
    return j;
}

void game_step_started(struct game_rec *g)
{
    char now[32], deadline[32] = "";
    utc_now(now);
    if (g->sched.deadline_secs > 0)
        utc_format(clock_now() + g->sched.deadline_secs, deadline);
    free(g->sched.step_started_at);
    free(g->sched.deadline_at);
    g->sched.step_started_at = xstrdup(now);
    g->sched.deadline_at = xstrdup(deadline);
}

int game_save(sqlite3 *db, struct game_rec *g)
{
    cJSON *state = g->ops->to_json(g->st);
    char *text = jx_print(state), *result = NULL, now[32];
    int rc;

    cJSON_Delete(state);
    snprintf(g->status, sizeof(g->status), "%s", game_status_of(g->ops, g->st));
    if (str_eq(g->status, "finished")) {
        cJSON *r = game_result_json(g);
        result = jx_print(r);
        cJSON_Delete(r);
    }
    utc_now(now);
    rc = db_do(db,
               "UPDATE games SET state = ?, turn = ?, status = ?, result = ?, updated_at = ?, step_started_at = ?,"
               " deadline_at = nullif(?, '') WHERE id = ?",
               "sisssssI", text, g->turn, g->status, result, now, g->sched.step_started_at, g->sched.deadline_at,
               g->id);
    free(text);
    free(result);
    return rc;
}

void game_seat_label(const struct game_rec *g, int seat, struct strbuf *out)
{
    game_seat_label_in(g, seat, LANG_ENGLISH, out);
}

void game_seat_label_in(const struct game_rec *g, int seat, const char *lang, struct strbuf *out)
{
    if (g->seats[seat].bot)
        phrase_add(out, lang, str_eq(g->seats[seat].bot_level, "strong") ? "seat.strong-bot" : "seat.easy-bot",
                   "name", g->names[seat], NULL);
    else
        strbuf_addstr(out, g->names[seat]);
}

struct game_table game_table_in(const struct game_rec *g, const char *lang)
{
    struct game_table t = g->table;
    t.lang = lang;
    return t;
}

void game_summary_in(const struct game_ops *ops, const char *lang, struct strbuf *out)
{
    struct strbuf key = STRBUF_INIT;
    strbuf_addf(&key, "summary.%s", ops->name);
    if (catalog_has(lang, key.buf))
        phrase_add(out, lang, key.buf, NULL);
    else
        strbuf_addstr(out, ops->summary);
    strbuf_release(&key);
}

void game_names_of(const struct game_rec *g, unsigned mask, struct strbuf *out)
{
    game_names_in(g, mask, LANG_ENGLISH, out);
}

void game_names_in(const struct game_rec *g, unsigned mask, const char *lang, struct strbuf *out)
{
    struct strlist names = STRLIST_INIT;
    for (int i = 0; i < g->nseats; i++)
        if ((mask >> i) & 1)
            strlist_push(&names, g->names[i]);
    phrase_list_and(out, lang, &names);
    strlist_clear(&names);
}

time_t game_deadline(const struct game_rec *g, unsigned missing)
{
    time_t d;
    if (!g->sched.deadline_at || !*g->sched.deadline_at || !utc_parse(g->sched.deadline_at, &d))
        return 0;
    /* A missing player on vacation holds the deadline until she is back,
     * and then has a day (or the whole step, when shorter) to send. */
    long back = g->sched.deadline_secs < 86400 ? g->sched.deadline_secs : 86400;
    for (int s = 0; s < g->nseats; s++) {
        time_t until;
        const char *v = g->seats[s].vacation_until;
        if ((missing & (1u << s)) && v && *v && utc_parse(v, &until) && until + back > d)
            d = until + back;
    }
    return d;
}

void game_when_of(const struct game_ops *ops, const void *st, const struct game_table *t, int steps,
                  struct game_when *w)
{
    memset(w, 0, sizeof(*w));
    if (ops->when) {
        ops->when(st, t, w);
        return;
    }
    w->unit = "step";
    w->number = steps + 1;
}

void game_when_now(const struct game_rec *g, char out[128])
{
    struct game_when w;
    game_when_of(g->ops, g->st, &g->table, g->turn, &w);
    game_when_text(&w, out);
}

void game_when_now_in(const struct game_rec *g, const char *lang, char out[128])
{
    struct game_when w;
    game_when_of(g->ops, g->st, &g->table, g->turn, &w);
    game_when_in(&w, lang, out);
}

void game_when_text(const struct game_when *w, char out[128])
{
    if (w->number == 0)
        snprintf(out, 128, "%s", *w->phase ? w->phase : "setup");
    else if (w->of)
        snprintf(out, 128, "%s %d of %d%s%s", w->unit, w->number, w->of, *w->phase ? ", " : "", w->phase);
    else
        snprintf(out, 128, "%s %d%s%s", w->unit, w->number, *w->phase ? ", " : "", w->phase);
}

/* A phase in lang: phase.WORDS-DASHED, or as the game says it. */
static void phase_in(const char *phase, const char *lang, struct strbuf *out)
{
    struct strbuf key = STRBUF_INIT;
    strbuf_addstr(&key, "phase.");
    for (const char *p = phase; *p; p++)
        strbuf_addch(&key, *p == ' ' ? '-' : *p);
    if (catalog_text(lang, key.buf, 0))
        phrase_add(out, lang, key.buf, NULL);
    else
        strbuf_addstr(out, phase);
    strbuf_release(&key);
}

void game_when_in(const struct game_when *w, const char *lang, char out[128])
{
    struct strbuf sb = STRBUF_INIT, key = STRBUF_INIT;
    char number[16], of[16];
    if (str_eq(lang_code(lang), LANG_ENGLISH)) {
        game_when_text(w, out);
        return;
    }
    if (w->number == 0)
        phase_in(*w->phase ? w->phase : "setup", lang, &sb);
    else {
        snprintf(number, sizeof(number), "%d", w->number);
        snprintf(of, sizeof(of), "%d", w->of);
        strbuf_addf(&key, "when.%s", w->unit);
        if (catalog_text(lang, key.buf, 0))
            phrase_add(&sb, lang, key.buf, "number", number, "of", w->of ? of : "", NULL);
        else
            game_when_text(w, out), strbuf_addstr(&sb, out);
        if (*w->phase && catalog_text(lang, key.buf, 0)) {
            strbuf_addstr(&sb, ", ");
            phase_in(w->phase, lang, &sb);
        }
    }
    snprintf(out, 128, "%s", sb.buf);
    strbuf_release(&sb);
    strbuf_release(&key);
}

void game_when_text_in(const char *english, const char *lang, char out[128])
{
    static const char *const units[] = { "round", "turn", "move" };
    struct game_when w = { 0 };
    const char *comma = strstr(english, ", ");
    char head[128];
    int n = 0, of = 0, used = 0;
    snprintf(head, sizeof(head), "%.*s", comma ? (int)(comma - english) : (int)strlen(english), english);
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]) && !w.unit; i++) {
        size_t len = strlen(units[i]);
        if (strncmp(head, units[i], len) || head[len] != ' ')
            continue;
        if ((sscanf(head + len, " %d of %d%n", &n, &of, &used) == 2 && !head[len + (size_t)used]) ||
            (of = 0, used = 0, sscanf(head + len, " %d%n", &n, &used) == 1 && !head[len + (size_t)used]))
            w.unit = units[i];
    }
    if (!w.unit) { /* a phase alone: "setup", "entering" */
        snprintf(w.phase, sizeof(w.phase), "%s", english);
        w.unit = "round";
    } else {
        w.number = n;
        w.of = of;
        if (comma)
            snprintf(w.phase, sizeof(w.phase), "%s", comma + 2);
    }
    game_when_in(&w, lang, out);
}

int game_seat_mask(sqlite3_stmt *st, const struct game_rec *g, unsigned *mask)
{
    int rc;
    *mask = 0;
    if (!st)
        return -1;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        int seat = sqlite3_column_int(st, 0);
        if (seat >= 1 && seat <= g->nseats)
            *mask |= 1u << (seat - 1);
    }
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* ---- what the record says of a step's orders ------------------------------ */

int game_pending(sqlite3 *db, struct game_rec *g, unsigned *mask)
{
    return game_seat_mask(db_stmt(db, "SELECT seat FROM orders WHERE game_id = ? AND step = ? AND status = 'pending'",
                                  "Ii", g->id, g->turn + 1),
                          g, mask);
}

int game_missing(sqlite3 *db, struct game_rec *g, unsigned *missing_mask)
{
    unsigned in;
    if (game_pending(db, g, &in))
        return -1;
    *missing_mask = g->ops->waiting_for(g->st) & ~in;
    return 0;
}

int game_left(sqlite3 *db, struct game_rec *g, unsigned *left, unsigned *dropped)
{
    sqlite3_stmt *st = db_stmt(db,
                               "SELECT o.seat, o.source FROM orders o JOIN turns t ON t.id = o.turn_id AND"
                               " t.rolled_back = 0 WHERE o.game_id = ? AND o.status = 'accepted' AND o.canonical ="
                               " 'RESIGN'",
                               "I", g->id);
    int rc;
    *left = *dropped = 0;
    if (!st)
        return -1;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        int seat = sqlite3_column_int(st, 0);
        if (seat < 1 || seat > g->nseats)
            continue;
        *left |= 1u << (seat - 1);
        if (str_eq((const char *)sqlite3_column_text(st, 1), "nmr"))
            *dropped |= 1u << (seat - 1);
    }
    db_finalize(st);
    return rc < 0 ? -1 : 0;
}
