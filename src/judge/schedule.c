/* schedule.c: deadlines, reminders and missing-order policies, applied by `ngoma run` once per game and run. */
#include "judge/schedule.h"
#include "judge/notice.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "judge/strong.h"
#include "judge/consent.h"
#include "judge/takeover.h"
#include "core/seatlife.h"
#include "store/settings.h"
#include "lib/dates.h"
#include "store/db.h"
#include "core/engine.h"
#include "lib/address.h"
#include "lib/jsonx.h"
#include "mail/mailout.h"
#include "judge/notify.h"
#include "core/reply.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "core/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int schedule_parse_reminders(const char *list, struct schedule_opts *o, struct strbuf *err)
{
    char *copy = xstrdup(list), *save = NULL;
    o->nreminders = 0;
    o->reminders_given = true;
    if (!str_ieq(list, "none"))
        for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
            long secs;
            if (!duration_parse(tok, &secs) || secs <= 0 || o->nreminders == 8) {
                strbuf_addf(err, "--remind takes up to 8 times before the deadline, like 24h,2h (or none), not \"%s\"",
                            tok);
                free(copy);
                return -1;
            }
            o->reminders[o->nreminders++] = secs;
        }
    free(copy);
    return 0;
}

/* The strong bot's orders for a game's overdue seats, searched before
 * its transaction begins (strong_nmr_plan): used when the game is still
 * at the step they were searched for. */
static struct strong_plan plan;

static int cmp_desc(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x < y) - (x > y);
}

int schedule_configure(sqlite3 *db, int64_t id, const struct schedule_opts *o, struct strbuf *err)
{
    static const long defaults[] = { 86400, 7200 };
    long rem[8];
    int n = 0;
    const char *nmr = o->nmr ? o->nmr : "wait";
    char *secret = NULL, now[32], deadline[32] = "";
    cJSON *list = cJSON_CreateArray();
    int rc = -1;

    const char *level = engine_bot_word(nmr) ? engine_bot_level(db, nmr) : "easy";
    if (!str_eq(nmr, "wait") && !engine_bot_word(nmr) && !str_eq(nmr, "drop")) {
        strbuf_addf(err, "--nmr is wait, bot (the host's level), bot:easy, bot:strong or drop, not \"%s\"", nmr);
        goto out;
    }
    if (engine_bot_word(nmr))
        nmr = "bot";
    if (!o->deadline && (o->grace || (o->reminders_given && o->nreminders) || o->nmr)) {
        strbuf_addstr(err, "--remind, --grace and --nmr need a --deadline");
        goto out;
    }
    if (o->host) {
        if (address_check(o->host, "--host takes the host's mail address:", err))
            goto out;
        secret = secret_new(10);
    }
    /* The reminders that come before the deadline, the earliest first. */
    if (o->reminders_given) {
        for (int i = 0; i < o->nreminders; i++)
            if (o->reminders[i] < o->deadline)
                rem[n++] = o->reminders[i];
    } else {
        for (size_t i = 0; i < ARRAY_SIZE(defaults); i++)
            if (defaults[i] < o->deadline)
                rem[n++] = defaults[i];
    }
    qsort(rem, (size_t)n, sizeof(long), cmp_desc);
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(list, cJSON_CreateNumber((double)rem[i]));
    char *rem_text = jx_print(list);
    utc_now(now);
    if (o->deadline)
        utc_format(clock_now() + o->deadline, deadline);
    rc = db_do(db,
               "UPDATE games SET deadline_secs = ?, reminder_secs = ?, grace_secs = ?, nmr = ?, host_email = ?,"
               " host_secret = ?, step_started_at = ?, deadline_at = nullif(?, ''), nmr_level = ? WHERE id = ?",
               "IsIssss" "ssI", (int64_t)o->deadline, rem_text, (int64_t)o->grace, nmr, o->host, secret, now,
               deadline, level, id);
    free(rem_text);
out:
    cJSON_Delete(list);
    free(secret);
    return rc;
}

static bool on_vacation(const struct game_rec *g, int seat, time_t now, time_t *until)
{
    time_t t;
    const char *v = g->seats[seat].vacation_until;
    if (!v || !*v || !utc_parse(v, &t) || t <= now)
        return false;
    if (until)
        *until = t;
    return true;
}

/* The line a reminder says what the deadline does (a phrase key). */
static const char *policy_key(const struct game_rec *g)
{
    if (str_eq(g->sched.nmr, "bot"))
        return "reminder.policy.bot";
    if (str_eq(g->sched.nmr, "drop"))
        return "reminder.policy.drop";
    return "reminder.policy.wait";
}

static int remind(sqlite3 *db, struct game_rec *g, int seat, time_t deadline, const char *kind)
{
    cJSON *d = notify_seat_data(db, g, seat);
    char when[DATE_TEXT_MAX];
    int rc;
    date_text_in(deadline, g->seats[seat].timezone, g->seats[seat].lang, when);
    cJSON_ReplaceItemInObject(d, "deadline", cJSON_CreateString(when));
    {
        /* Said in a line of its own, wrapped like any other. */
        struct strbuf line = STRBUF_INIT;
        phrase_add(&line, g->seats[seat].lang, policy_key(g), NULL);
        reply_add_text(d, "policy", line.buf);
        strbuf_release(&line);
    }
    cJSON_AddBoolToObject(d, "overdue", str_eq(kind, "overdue"));
    rc = notify_tell(db, g, seat, "reminder", "mail-reminder.txt", d, NULL);
    cJSON_Delete(d);
    return rc;
}

/* The reminder due now for seat, once: the latest whose time has come.
 * Earlier ones missed (ngoma was down) are marked sent, never sent late. */
static int reminders(sqlite3 *db, struct game_rec *g, int seat, time_t deadline, time_t now,
                     struct schedule_stats *st)
{
    int due = -1;
    for (int i = 0; i < g->sched.nreminders; i++)
        if (deadline - g->sched.reminders[i] <= now && now < deadline)
            due = i; /* the list runs from the earliest to the latest */
    if (due < 0)
        return 0;
    for (int i = 0; i <= due; i++) {
        char kind[32];
        int rc;
        snprintf(kind, sizeof(kind), "reminder:%ld", g->sched.reminders[i]);
        rc = notify_once(db, g, seat, kind);
        if (rc < 0)
            return -1;
        if (rc == 1 && i == due) {
            if (remind(db, g, seat, deadline, kind))
                return -1;
            st->reminders++;
        }
    }
    return 0;
}

static int tell_host_stalled(sqlite3 *db, struct game_rec *g, unsigned missing, time_t deadline)
{
    cJSON *d = cJSON_CreateObject();
    struct strbuf who = STRBUF_INIT, board = STRBUF_INIT;
    char when[64], grace[32];
    int rc;
    if (!g->sched.host_email)
        return 0;
    game_names_of(g, missing, &who);
    time_format_tz(deadline, "UTC", when);
    duration_format(g->sched.grace_secs, grace);
    cJSON_AddNumberToObject(d, "game", (double)g->id);
    cJSON_AddStringToObject(d, "title", g->ops->title);
    cJSON_AddStringToObject(d, "missing", who.buf);
    cJSON_AddStringToObject(d, "deadline", when);
    if (g->sched.grace_secs)
        cJSON_AddStringToObject(d, "grace", grace);
    cJSON_AddNumberToObject(d, "turn", g->turn);
    view_ascii(db, g, -1, &board);
    reply_add_text(d, "board", board.buf);
    rc = notify_host(db, g, "stalled", "mail-stalled.txt", d, NULL);
    cJSON_Delete(d);
    strbuf_release(&who);
    strbuf_release(&board);
    return rc;
}

/* Tells seat what its missing order brought. */
static int tell_nmr(sqlite3 *db, struct game_rec *g, int seat, const char *what)
{
    cJSON *d = notify_seat_data(db, g, seat);
    int rc;
    cJSON_AddStringToObject(d, "what", what);
    rc = notify_tell(db, g, seat, "nmr", "mail-nmr.txt", d, NULL);
    cJSON_Delete(d);
    return rc;
}

/* Whether the player a bot just stood in for leaves her seat to the bot
 * for good: *due, the deadlines she missed in a row when they reach
 * drop_after (a game with takeover=no keeps her), else 0. What she is
 * told is added to what. */
static int drop_due(sqlite3 *db, struct game_rec *g, int seat, struct strbuf *what, int64_t *due)
{
    long long after = setting_get_int(db, "drop_after", 3);
    int64_t missed;
    struct strbuf said = STRBUF_INIT;
    *due = 0;
    if (after <= 0 || g->seats[seat].bot || str_eq(engine_core_option(g->options, "takeover"), "no") ||
        str_eq(game_status_of(g->ops, g->st), "finished"))
        return 0;
    if (seatlife_missed_in_a_row(db, g, seat, &missed))
        return -1;
    if (missed < after)
        return 0;
    *due = missed;
    {
        char n[24];
        snprintf(n, sizeof(n), "%lld", (long long)missed);
        phrase_add(&said, g->seats[seat].lang, "nmr.dropped", "n", n, NULL);
    }
    strbuf_addstr(what, "\n\n");
    strbuf_add_flowed(what, said.buf, 0, 72);
    strbuf_trim(what);
    strbuf_release(&said);
    return 0;
}

/* The seat passes to the bot (she was told): the others are told, and
 * a new player may take it over in the lobby. The last person gone, the
 * game ends (the step's mails, the caller's, say so). */
static int drop_to_bot(sqlite3 *db, struct game_rec *g, int seat, int64_t missed, struct schedule_stats *st)
{
    struct strbuf ended = STRBUF_INIT;
    struct notice told;
    int rc;
    notice_init(&told, "notice.dropped.head");
    notice_say(&told, "notice.dropped");
    notice_set(&told, "who", g->names[seat]);
    notice_set_int(&told, "n", missed);
    notice_set_int(&told, "seat", seat + 1);
    rc = consent_lapse(db, g, &told) || notify_notice_all(db, g, seat, &told) ||
                 takeover_to_bot(db, g, seat, g->sched.nmr_level, SEAT_ABANDONED) ||
                 engine_end_unpeopled(db, g, &ended) < 0
             ? -1
             : 0;
    notice_release(&told);
    strbuf_release(&ended);
    st->drops += !rc;
    return rc;
}

static int overdue(sqlite3 *db, struct game_rec *g, unsigned missing, time_t deadline, struct schedule_stats *st)
{
    struct submission sub = { 0 };
    int rc = 0;

    sub.turn_before = g->turn;
    if (str_eq(g->sched.nmr, "wait")) {
        for (int s = 0; s < g->nseats && !rc; s++) {
            if (!(missing & (1u << s)))
                continue;
            rc = notify_once(db, g, s, "overdue");
            if (rc == 1)
                rc = remind(db, g, s, deadline, "overdue");
            rc = rc < 0 ? -1 : 0;
        }
        if (!rc && (rc = notify_once(db, g, -1, "stalled")) == 1) {
            rc = tell_host_stalled(db, g, missing, deadline);
            st->stalled += g->sched.host_email != NULL;
        }
        return rc < 0 ? -1 : 0;
    }
    for (int s = 0; s < g->nseats && !rc; s++) {
        struct strbuf what = STRBUF_INIT;
        int64_t drop = 0;
        if (!(missing & (1u << s)))
            continue;
        if (str_eq(g->sched.nmr, "bot")) {
            char *played = NULL, *planned = strong_plan_take(&plan, g->id, g->turn, s);
            rc = planned ? engine_play_given(db, g, s, "nmr", planned, &played)
                         : engine_play_for(db, g, s, "nmr", &played);
            if (!rc) {
                /* In her words: JOUER 7. */
                char *local = lexicon_local(g->seats[s].lang, "common", g->ops->name, played);
                phrase_add(&what, g->seats[s].lang, "nmr.bot-played", "order", local, NULL);
                free(local);
                st->bots++;
                rc = drop_due(db, g, s, &what, &drop);
            }
            free(played);
            if (rc > 0) {
                /* Stuck (kept for the host): nothing played, nobody told;
                 * the next pass tries again. */
                strbuf_release(&what);
                rc = 0;
                continue;
            }
        } else {
            struct strbuf log = STRBUF_INIT;
            /* What the step did comes in the mail's own account of it. */
            rc = engine_resign(db, g, s, "nmr", &log);
            phrase_add(&what, g->seats[s].lang, "nmr.left", NULL);
            strbuf_release(&log);
            st->drops++;
        }
        if (!rc)
            rc = tell_nmr(db, g, s, what.buf);
        if (!rc && drop)
            rc = drop_to_bot(db, g, s, drop, st);
        strbuf_release(&what);
        /* Once the step has moved on, the others are no longer missing it. */
        if (g->turn != sub.turn_before)
            break;
    }
    if (!rc)
        rc = engine_autoplay(db, g, &st->bot_steps);
    sub.turn_after = g->turn;
    if (!rc && sub.turn_after != sub.turn_before)
        rc = notify_submission(db, g, -1, &sub, NULL);
    return rc;
}

/* The seats of g whose orders are missing and overdue at now (bots and
 * players on vacation are excused), and the step's deadline: 1 when the
 * game keeps time now (unfinished, unpaused, with a deadline), else 0. */
static int overdue_mask(sqlite3 *db, struct game_rec *g, time_t now, unsigned *missing, unsigned *overdue,
                        time_t *deadline)
{
    unsigned excused = 0;
    *missing = *overdue = 0;
    *deadline = 0;
    if (str_eq(game_status_of(g->ops, g->st), "finished") || g->sched.paused || !g->sched.deadline_at ||
        !*g->sched.deadline_at)
        return 0;
    if (game_missing(db, g, missing))
        return -1;
    for (int s = 0; s < g->nseats; s++)
        if ((*missing & (1u << s)) && (g->seats[s].bot || on_vacation(g, s, now, NULL)))
            excused |= 1u << s;
    *missing &= ~excused;
    *deadline = game_deadline(g, *missing);
    if (*missing && now >= *deadline + g->sched.grace_secs)
        *overdue = *missing;
    return 1;
}

static int handle_game(sqlite3 *db, int64_t id, struct schedule_stats *st)
{
    struct game_rec g;
    unsigned missing, late;
    time_t now = clock_now(), deadline;
    int rc;

    if (game_load(db, id, &g))
        return -1;
    rc = overdue_mask(db, &g, now, &missing, &late, &deadline);
    if (rc == 1) {
        rc = 0;
        st->games++;
        for (int s = 0; s < g.nseats && !rc; s++)
            if (missing & (1u << s))
                rc = reminders(db, &g, s, deadline, now, st);
        if (!rc && late)
            rc = overdue(db, &g, late, deadline, st);
    }
    game_unload(&g);
    return rc;
}

/* Before a game's transaction: the strong bot searches the overdue
 * seats' orders of a game whose missing orders a strong bot plays. */
static int plan_game(sqlite3 *db, int64_t id)
{
    struct game_rec g;
    unsigned missing, late;
    time_t deadline;
    int64_t strong = 0;
    strong_plan_clear(&plan);
    /* Most games' missing orders are no strong bot's: one row says so. */
    if (db_get_int64(db, &strong, "SELECT nmr = 'bot' AND nmr_level = 'strong' FROM games WHERE id = ?", "I", id) < 0)
        return -1;
    if (!strong)
        return 0;
    if (strong_snapshot(db, id, &g))
        return -1;
    if (str_eq(g.sched.nmr, "bot") && str_eq(g.sched.nmr_level, "strong") &&
        overdue_mask(db, &g, clock_now(), &missing, &late, &deadline) == 1 && late)
        strong_nmr_plan(db, &g, late, &plan);
    game_unload(&g);
    return 0;
}

/* The ids of the games a query lists (one column). */
static int game_ids(sqlite3 *db, const char *sql, int64_t **ids, size_t *n)
{
    sqlite3_stmt *q = db_stmt(db, sql, NULL);
    size_t alloc = 0;
    int rc;
    *ids = NULL;
    *n = 0;
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        if (*n == alloc) {
            alloc = alloc ? 2 * alloc : 64;
            *ids = xrealloc(*ids, alloc * sizeof(**ids));
        }
        (*ids)[(*n)++] = sqlite3_column_int64(q, 0);
    }
    db_finalize(q);
    return rc < 0 ? -1 : 0;
}

/* Runs fn on every game the query lists, each in a transaction of its
 * own, the game read afresh inside it: a receive or another run in
 * between changes nothing twice. A game that fails is reported (what it
 * could not do) and the others go on; a busy database stops the run.
 * prepare (when not NULL) runs before each game's transaction. */
static int each_game(sqlite3 *db, const char *sql, int (*prepare)(sqlite3 *, int64_t),
                     int (*fn)(sqlite3 *, int64_t, struct schedule_stats *), struct schedule_stats *st,
                     const char *what)
{
    int64_t *ids;
    size_t n;
    int rc = 0;
    if (game_ids(db, sql, &ids, &n))
        return -1;
    for (size_t i = 0; i < n; i++) {
        /* What must not hold the lock (a strong bot's search) first. */
        if (prepare && prepare(db, ids[i])) {
            rc = -1;
            break;
        }
        if (db_begin(db)) {
            rc = -1;
            break;
        }
        if (fn(db, ids[i], st) || db_commit(db)) {
            db_rollback(db);
            if (db_failure_is_temporary()) {
                rc = -1;
                break;
            }
            error("game %lld: %s", (long long)ids[i], what);
        }
    }
    free(ids);
    return rc;
}

static int bots_game(sqlite3 *db, int64_t id, struct schedule_stats *st)
{
    struct game_rec g;
    struct submission sub = { 0 };
    bool any;
    int rc, before = st->bot_steps;
    if (game_load(db, id, &g))
        return -1;
    sub.turn_before = g.turn;
    rc = engine_autoplay_due(db, &g, &any);
    if (!rc && any)
        rc = engine_autoplay(db, &g, &st->bot_steps);
    sub.turn_after = g.turn;
    if (!rc && sub.turn_after != sub.turn_before)
        rc = notify_submission(db, &g, -1, &sub, NULL);
    st->bot_games += st->bot_steps > before;
    game_unload(&g);
    return rc;
}

int schedule_bots(sqlite3 *db, struct schedule_stats *st)
{
    if (each_game(db,
                  "SELECT id FROM games g WHERE status <> 'finished' AND paused = 0"
                  " AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.bot = 1) ORDER BY id",
                  NULL, bots_game, st, "its bots could not play"))
        return -1;
    return 0;
}

/* The digests due in one game. */
static int digest_game(sqlite3 *db, int64_t id, struct schedule_stats *st)
{
    struct game_rec g;
    time_t now = clock_now(), told;
    int rc = 0;
    if (game_load(db, id, &g))
        return -1;
    for (int s = 0; s < g.nseats && !rc; s++) {
        const struct seat_info *si = &g.seats[s];
        if (!str_eq(si->mail_policy, "digest") || si->bot || si->told_step >= g.turn)
            continue;
        if (si->told_at && *si->told_at && utc_parse(si->told_at, &told) && told + si->digest_secs > now)
            continue;
        rc = notify_digest(db, &g, s);
        st->digests += !rc;
    }
    game_unload(&g);
    return rc;
}

int schedule_digests(sqlite3 *db, struct schedule_stats *st)
{
    return each_game(db,
                     "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.mail_policy = 'digest'"
                     " AND s.bot = 0 AND s.told_step < g.turn ORDER BY g.id",
                     NULL, digest_game, st, "its digests could not be sent");
}

int schedule_run(sqlite3 *db, struct schedule_stats *st)
{
    int rc;
    memset(st, 0, sizeof(*st));
    rc = each_game(db,
                   "SELECT id FROM games WHERE status <> 'finished' AND paused = 0 AND deadline_at IS NOT NULL"
                   " ORDER BY deadline_at",
                   plan_game, handle_game, st, "its schedule could not be applied");
    strong_plan_clear(&plan);
    return rc ? -1 : 0;
}

int schedule_next_due(sqlite3 *db, time_t now, time_t *when)
{
    int64_t t;
    int rc = db_get_int64(
        db, &t,
        "WITH g AS (SELECT id, turn, unixepoch(deadline_at) AS d, grace_secs AS grace, reminder_secs AS rem,"
        "            min(deadline_secs, 86400) AS back FROM games"
        "            WHERE status <> 'finished' AND paused = 0 AND deadline_at IS NOT NULL),"
        " v AS (SELECT g.id, unixepoch(s.vacation_until) + g.back AS d, g.grace, g.rem FROM seats s"
        "       JOIN g ON g.id = s.game_id WHERE unixepoch(s.vacation_until) > ?1),"
        " dl AS (SELECT id, d, grace, rem FROM g UNION ALL SELECT * FROM v),"
        " t(t) AS (SELECT d + grace FROM dl"
        "          UNION ALL SELECT dl.d - r.value FROM dl, json_each(dl.rem) r"
        "          UNION ALL SELECT unixepoch(s.vacation_until) FROM seats s JOIN g ON g.id = s.game_id"
        "          UNION ALL SELECT coalesce(unixepoch(s.told_at), 0) + s.digest_secs FROM seats s"
        "            JOIN games gg ON gg.id = s.game_id WHERE s.mail_policy = 'digest' AND s.bot = 0"
        "            AND s.told_step < gg.turn AND gg.status <> 'finished')"
        " SELECT min(t) FROM t WHERE t > ?1",
        "I", (int64_t)now);
    if (rc < 0)
        return -1;
    if (rc == 0 || t == 0)
        return 0;
    *when = (time_t)t;
    return 1;
}
