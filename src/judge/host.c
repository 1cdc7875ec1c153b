/* host.c: what a game's host may do, by command line or by mail: pause, resume, extend, roll back, replace, kick. */
#include "judge/host.h"
#include "judge/notice.h"
#include "lib/cmdtab.h"
#include "lib/order_text.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "judge/consent.h"
#include "store/db.h"
#include "core/engine.h"
#include "core/history.h"
#include "judge/notify.h"
#include "core/reply.h"
#include "judge/schedule.h"
#include "judge/standing.h"
#include "judge/takeover.h"
#include "core/seatlife.h"
#include "lib/util.h"
#include "core/view.h"
#include "lib/words.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The bots and forced orders the game now waits for play; the players
 * are told as their mail policy says, and the host learns of it. */
static int bots_play(sqlite3 *db, struct game_rec *g, const char *lang, struct strbuf *out)
{
    struct submission sub = { 0 };
    sub.turn_before = g->turn;
    if (engine_autoplay(db, g, NULL))
        return -1;
    sub.turn_after = g->turn;
    if (g->turn == sub.turn_before)
        return 0;
    {
        char when[128];
        game_when_now_in(g, lang, when);
        strbuf_addch(out, ' ');
        phrase_add(out, lang, "host.bots-played-on", "when", when, NULL);
    }
    return notify_submission(db, g, -1, &sub, NULL) ? -1 : 0;
}

static int save_schedule(sqlite3 *db, struct game_rec *g)
{
    return db_do(db, "UPDATE games SET paused = ?, step_started_at = ?, deadline_at = nullif(?, '') WHERE id = ?",
                 "issI", g->sched.paused ? 1 : 0, g->sched.step_started_at,
                 g->sched.deadline_at ? g->sched.deadline_at : "", g->id);
}

static int find_seat(const struct game_rec *g, const char *who, const char *lang, struct strbuf *out)
{
    int seat = game_seat_find(g, who);
    if (seat < 0) {
        struct strbuf names = STRBUF_INIT;
        char asked[48];
        snprintf(asked, sizeof(asked), "%.40s", who);
        game_names_in(g, (1u << g->nseats) - 1, lang, &names);
        phrase_add(out, lang, "host.no-player", "who", asked, "names", names.buf, NULL);
        strbuf_release(&names);
    }
    return seat;
}

static int do_pause(sqlite3 *db, struct game_rec *g, const char *lang, struct strbuf *out)
{
    if (g->sched.paused) {
        phrase_add(out, lang, "host.paused-already", NULL);
        return 1;
    }
    struct notice n;
    int rc;
    g->sched.paused = true;
    notice_init(&n, "notice.paused.head");
    notice_say(&n, "notice.paused");
    notice_text(&n, lang, out);
    rc = save_schedule(db, g) || notify_notice_all(db, g, -1, &n) ? -1 : 0;
    notice_release(&n);
    return rc;
}

static int do_resume(sqlite3 *db, struct game_rec *g, const char *lang, struct strbuf *out)
{
    char when[64];
    time_t t;
    if (!g->sched.paused) {
        phrase_add(out, lang, "host.not-paused", NULL);
        return 1;
    }
    struct notice n;
    int rc;
    g->sched.paused = false;
    game_step_started(g); /* a fresh deadline for the step */
    notice_init(&n, "notice.resumed.head");
    notice_say(&n, "notice.resumed");
    if (*g->sched.deadline_at && utc_parse(g->sched.deadline_at, &t)) {
        time_format_tz(t, "UTC", when);
        notice_say(&n, "notice.deadline");
        notice_set(&n, "deadline", when);
    }
    notice_text(&n, lang, out);
    rc = save_schedule(db, g) || notify_notice_all(db, g, -1, &n);
    notice_release(&n);
    if (rc)
        return -1;
    return bots_play(db, g, lang, out);
}

/* The step's deadline (*t); false when the game keeps none. */
static bool step_deadline(const struct game_rec *g, time_t *t)
{
    return g->sched.deadline_at && *g->sched.deadline_at && utc_parse(g->sched.deadline_at, t);
}

/* EXTEND's time (*secs) and the deadline it moves (*t); 1 with why in
 * out when there is none. */
static int extend_arg(const struct game_rec *g, const char *arg, long *secs, time_t *t, const char *lang, struct strbuf *out)
{
    if (!arg || !duration_parse(arg, secs) || *secs <= 0) {
        phrase_add(out, lang, "host.extend-usage", NULL);
        return 1;
    }
    if (!step_deadline(g, t)) {
        phrase_add(out, lang, "host.no-deadline", NULL);
        return 1;
    }
    return 0;
}

static int extend_by(sqlite3 *db, struct game_rec *g, long secs, time_t t, const char *lang, struct strbuf *out)
{
    char when[32], shown[64];
    utc_format(t + secs, when);
    free(g->sched.deadline_at);
    g->sched.deadline_at = xstrdup(when);
    struct notice n;
    int rc;
    time_format_tz(t + secs, "UTC", shown);
    notice_init(&n, "notice.extended.head");
    notice_say(&n, "notice.deadline-now");
    notice_set(&n, "deadline", shown);
    notice_text(&n, lang, out);
    rc = save_schedule(db, g) || notify_notice_all(db, g, -1, &n) ? -1 : 0;
    notice_release(&n);
    return rc;
}

static int do_extend(sqlite3 *db, struct game_rec *g, const char *arg, const char *lang, struct strbuf *out)
{
    long secs;
    time_t t;
    return extend_arg(g, arg, &secs, &t, lang, out) ? 1 : extend_by(db, g, secs, t, lang, out);
}

/* The opener's PAUSE or EXTEND: asked of the other players, done at once
 * when nobody else sits in the game. */
static int opener_asks(sqlite3 *db, struct game_rec *g, const struct words *w, const char *lang, struct strbuf *out)
{
    long secs = 0;
    time_t t = 0;
    int rc;
    if (str_eq(w->w[0], "pause") && g->sched.paused) {
        phrase_add(out, lang, "host.paused-already", NULL);
        return 1;
    }
    if (str_eq(w->w[0], "extend") && extend_arg(g, w->n == 2 ? w->w[1] : NULL, &secs, &t, lang, out))
        return 1;
    rc = consent_ask(db, g, g->sched.host_email ? g->sched.host_email : "", w->w[0], secs, lang, out);
    if (rc != 2)
        return rc;
    return str_eq(w->w[0], "pause") ? do_pause(db, g, lang, out) : extend_by(db, g, secs, t, lang, out);
}

int host_consented(sqlite3 *db, struct game_rec *g, const char *what, long secs, const char *lang,
                   struct strbuf *out)
{
    struct strbuf told = STRBUF_INIT; /* what the host's own command would answer: not said here */
    char game[24], d[32], shown[64];
    time_t t;
    int rc;
    snprintf(game, sizeof(game), "%lld", (long long)g->id);
    if (str_eq(what, "pause") && g->sched.paused) {
        phrase_add(out, lang, "agree.paused-already", "game", game, NULL);
        return 0;
    }
    if (str_eq(what, "pause")) {
        rc = do_pause(db, g, lang, &told);
        phrase_add(out, lang, "agree.done-pause", "game", game, NULL);
    } else if (!step_deadline(g, &t)) {
        phrase_add(out, lang, "agree.no-deadline", "game", game, NULL);
        rc = 0;
    } else {
        rc = extend_by(db, g, secs, t, lang, &told);
        duration_format(secs, d);
        time_format_tz(t + secs, "UTC", shown);
        phrase_add(out, lang, "agree.done-extend", "game", game, "time", d, "deadline", shown, NULL);
    }
    strbuf_release(&told);
    return rc;
}

/* ROLLBACK 3: back to where round (turn, move) 3 began; ROLLBACK STEP
 * 44: back to the position after step 44. */
static int do_rollback(sqlite3 *db, struct game_rec *g, const struct words *w, const char *lang, struct strbuf *out)
{
    struct game_when now;
    long long n;
    int first, last;
    char when[128];
    game_when_of(g->ops, g->st, &g->table, g->turn, &now);
    if (g->turn == 0) {
        phrase_add(out, lang, "host.no-step", NULL);
        return 1;
    }
    if (vis_hidden_information(g->ops) && vis_seed_revealed(g)) {
        char game[24];
        snprintf(game, sizeof(game), "%lld", (long long)g->id);
        phrase_add(out, lang, "host.seed-revealed", "game", game, "title", g->ops->title, NULL);
        return 1;
    }
    char last_step[16], prev[16], top[16];
    game_when_in(&now, lang, when);
    snprintf(last_step, sizeof(last_step), "%d", g->turn - 1);
    snprintf(prev, sizeof(prev), "%d", now.number - 1);
    snprintf(top, sizeof(top), "%d", now.number);
    if (w->n == 3 && str_eq(w->w[1], "step")) {
        if (!parse_int(w->w[2], 0, g->turn - 1, &n)) {
            phrase_add(out, lang, "host.rollback-step-usage", "last", last_step, NULL);
            return 1;
        }
    } else if (w->n == 2 && parse_int(w->w[1], 0, now.number, &n)) {
        if (history_steps_of(db, g, (int)n, &first, &last))
            return -1;
        n = first > 0 ? first - 1 : 0;
        if (n >= g->turn) {
            phrase_add(out, lang, "host.rollback-just-begun", "when", when, "prev", prev, NULL);
            return 1;
        }
    } else {
        phrase_add(out, lang, "host.rollback-usage", "when", when, "top", top, "last", last_step, NULL);
        return 1;
    }
    {
        /* Votes cast after the step go with it; the end it undoes, and
         * that end's rating, are withdrawn: the game is rated again when
         * it ends again. */
        bool was_over = str_eq(game_status_of(g->ops, g->st), "finished");
        if (db_do(db, "UPDATE turns SET rolled_back = 1 WHERE game_id = ? AND turn > ? AND rolled_back = 0", "Ii",
                  g->id, (int)n) ||
            db_do(db, "UPDATE orders SET status = 'superseded' WHERE game_id = ? AND status = 'pending'", "I",
                  g->id) ||
            seatlife_rolled_back(db, g, (int)n) || view_load_turn(db, g, (int)n))
            return -1;
        game_step_started(g);
        if (game_save(db, g) || (was_over && standing_retake(db)))
            return -1;
    }
    {
        struct notice told;
        int rc;
        game_when_now(g, when); /* a notice's "when" is English, told in each reader's words */
        notice_init(&told, "notice.rolled-back.head");
        notice_say(&told, "notice.rolled-back");
        notice_set(&told, "when", when);
        notice_set_int(&told, "step", n);
        notice_text(&told, lang, out);
        rc = notify_notice_all(db, g, -1, &told);
        notice_release(&told);
        if (rc)
            return -1;
    }
    return bots_play(db, g, lang, out);
}

static int do_replace(sqlite3 *db, struct game_rec *g, struct words *w, const char *line, const char *lang, struct strbuf *out)
{
    int seat;
    char *eq;
    const char *spec;
    struct strbuf err = STRBUF_INIT;
    /* The new name keeps its case: take it from the line as written. */
    spec = line + strlen(line);
    while (spec > line && spec[-1] == ' ')
        spec--;
    const char *end = spec;
    while (spec > line && spec[-1] != ' ')
        spec--;
    char *written = xstrndup(spec, (size_t)(end - spec));
    if (w->n != 3 || !(eq = strchr(written, '='))) {
        free(written);
        phrase_add(out, lang, "host.replace-usage", NULL);
        return 1;
    }
    if ((seat = find_seat(g, w->w[1], lang, out)) < 0) {
        free(written);
        return 1;
    }
    char *name = xstrndup(written, (size_t)(eq - written)), *email = str_lower(xstrdup(eq + 1));
    free(written);
    {
        const char *why = engine_check_name(name, &err)    ? "host.bad-name"
                          : str_eq(email, "bot")           ? "host.replace-bot"
                          : engine_check_email(email, &err) ? "host.bad-address"
                                                            : NULL;
        strbuf_release(&err); /* said in her words below */
        if (why) {
            char shown_name[48], shown_email[96];
            snprintf(shown_name, sizeof(shown_name), "%.40s", name);
            snprintf(shown_email, sizeof(shown_email), "%.80s", email);
            phrase_add(out, lang, why, "name", shown_name, "email", shown_email, NULL);
            free(name);
            free(email);
            return 1;
        }
    }
    for (int s = 0; s < g->nseats; s++)
        if (s != seat && str_ieq(g->names[s], name)) {
            phrase_add(out, lang, "host.replace-name-taken", "name", name, "seat", g->names[seat], "email", email, NULL);
            free(name);
            free(email);
            return 1;
        }
    {
        int rc = takeover_give(db, g, seat, name, email, lang, out);
        free(name);
        free(email);
        strbuf_release(&err);
        return rc ? -1 : 0;
    }
}

/* KICK Bob [bot:easy|bot:strong]: a bot of that level (plain: the host's
 * default) plays the seat from now on. */
static int do_kick(sqlite3 *db, struct game_rec *g, const char *who, const char *word, const char *lang, struct strbuf *out)
{
    int seat;
    const char *level;
    if (!who) {
        phrase_add(out, lang, "host.kick-usage", NULL);
        return 1;
    }
    if ((seat = find_seat(g, who, lang, out)) < 0)
        return 1;
    if (word && !engine_bot_word(word)) {
        char shown[48];
        snprintf(shown, sizeof(shown), "%.40s", word);
        phrase_add(out, lang, "host.bad-level", "word", shown, "name", g->names[seat], NULL);
        return 1;
    }
    if (g->seats[seat].bot) {
        phrase_add(out, lang, "host.bot-already", "name", g->names[seat], NULL);
        return 1;
    }
    level = engine_bot_level(db, word ? word : "bot");
    {
        struct notice n;
        int rc;
        notice_init(&n, "notice.kicked.head");
        notice_say(&n, str_eq(level, "easy") ? "notice.kicked-easy" : "notice.kicked-strong");
        notice_set(&n, "who", g->names[seat]);
        rc = consent_lapse(db, g, &n);
        notice_text(&n, lang, out);
        rc = rc || notify_notice_all(db, g, -1, &n);
        notice_release(&n);
        if (rc)
            return -1;
    }
    if (takeover_to_bot(db, g, seat, level, SEAT_KICKED))
        return -1;
    {
        /* The last person gone: the game ends, the bots do not play it out. */
        struct strbuf ended = STRBUF_INIT;
        int rc = engine_end_unpeopled(db, g, &ended);
        if (rc == 1) {
            strbuf_addch(out, ' ');
            phrase_add(out, lang, "event.engine.unpeopled", NULL);
            strbuf_trim(out);
            rc = notify_progress(db, g, -1) ? -1 : 0;
        }
        strbuf_release(&ended);
        if (rc)
            return -1;
        if (str_eq(game_status_of(g->ops, g->st), "finished"))
            return 0;
    }
    return bots_play(db, g, lang, out);
}

/* END [SCORE|ABANDON] reason: the game ends now, scored as it stands (the
 * default) or with no winner; the reason is kept as written. */
static int do_end(sqlite3 *db, struct game_rec *g, const struct words *w, const char *line, const char *lang, struct strbuf *out)
{
    const char *p = line;
    bool score = true;
    int skip = 1, rc;
    struct strbuf reason = STRBUF_INIT, what = STRBUF_INIT;

    if (w->n >= 2 && (str_eq(w->w[1], "score") || str_eq(w->w[1], "abandon"))) {
        score = str_eq(w->w[1], "score");
        skip = 2;
    }
    /* The reason as written: the line after its first words. */
    for (int i = 0; i < skip; i++) {
        while (*p == ' ' || *p == '\t')
            p++;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    strbuf_addstr(&reason, p);
    strbuf_trim(&reason);
    if (reason.len > 300) {
        char n[24];
        snprintf(n, sizeof(n), "%zu", reason.len);
        phrase_add(out, lang, "host.end-too-long", "n", n, NULL);
        strbuf_release(&reason);
        return 1;
    }
    if (!reason.len) {
        phrase_add(out, lang, "host.end-usage", NULL);
        strbuf_release(&reason);
        return 1;
    }
    rc = engine_end(db, g, score, reason.buf, &what);
    if (rc == 1) {
        phrase_add(out, lang, "host.over-already", NULL);
    } else if (rc == 0) {
        /* The host reads the step's log, the players the end, each in
         * their words (the game-over mail that follows tells the result). */
        struct notice n;
        if ((rc = history_render_range_in(db, g, -1, lang, g->turn, g->turn, out)) != 0)
            goto done;
        strbuf_trim(out);
        notice_init(&n, score ? "notice.ended.head" : "notice.abandoned.head");
        notice_say(&n, score ? "event.engine.host-ends-scored" : "event.engine.host-ends");
        notice_set(&n, "reason", reason.buf);
        rc = notify_notice_all(db, g, -1, &n) || notify_progress(db, g, -1) ? -1 : 0;
        notice_release(&n);
    }
done:
    strbuf_release(&reason);
    strbuf_release(&what);
    return rc;
}

int host_status(sqlite3 *db, struct game_rec *g, struct viewer who, const char *lang, struct strbuf *out)
{
    unsigned missing = 0, left = 0, dropped = 0;
    time_t t;
    char when[64], game[24], step[16];
    const char *st = game_status_of(g->ops, g->st), *status = catalog_term(lang, "lobby.status.", st, NULL);
    {
        char at[128];
        snprintf(game, sizeof(game), "%lld", (long long)g->id);
        snprintf(step, sizeof(step), "%d", g->turn);
        struct strbuf head = STRBUF_INIT;
        game_when_now_in(g, lang, at);
        phrase_add(&head, lang, g->sched.paused ? "host.status-paused" : "host.status", "game", game, "title",
                   g->ops->title, "status", status, "when", at, "step", step, NULL);
        strbuf_add_flowed(out, head.buf, 0, 72);
        strbuf_release(&head);
    }
    if (game_missing(db, g, &missing))
        return -1;
    if (missing) {
        struct strbuf names = STRBUF_INIT;
        game_names_in(g, missing, lang, &names);
        phrase_add(out, lang, "host.waiting-for", "names", names.buf, NULL);
        strbuf_addch(out, '\n');
        strbuf_release(&names);
    }
    if (!str_eq(st, "finished") && (t = game_deadline(g, missing))) {
        time_format_tz(t, "UTC", when);
        phrase_add(out, lang, t < clock_now() ? "host.deadline-passed" : "host.deadline", "deadline", when, "nmr",
                   catalog_term(lang, "lobby.nmr.", g->sched.nmr, NULL), NULL);
        strbuf_addch(out, '\n');
    }
    if (game_left(db, g, &left, &dropped))
        return -1;
    for (int s = 0; s < g->nseats; s++) {
        const char *v = g->seats[s].vacation_until;
        strbuf_addf(out, "  %d %s", s + 1, g->names[s]);
        if (vis_address(g, who, s))
            strbuf_addf(out, " <%s>", g->seats[s].email);
        if (g->seats[s].bot) {
            strbuf_addstr(out, ", ");
            phrase_add(out, lang, str_eq(g->seats[s].bot_level, "strong") ? "host.seat.strong-bot" : "host.seat.easy-bot",
                       NULL);
        }
        if (left & (1u << s)) {
            strbuf_addstr(out, ", ");
            phrase_add(out, lang, dropped & (1u << s) ? "host.seat.dropped" : "host.seat.resigned", NULL);
            strbuf_addch(out, '\n');
            continue;
        }
        if (!g->seats[s].bot) {
            /* When she is mailed (MAIL, its words as she writes them),
             * and how far her mails told her. */
            char period[32], *word;
            duration_format(g->seats[s].digest_secs, period);
            word = lexicon_local(lang, "common", NULL,
                                 str_eq(g->seats[s].mail_policy, "every")    ? "MAIL EVERY"
                                 : str_eq(g->seats[s].mail_policy, "digest") ? "MAIL DIGEST"
                                                                             : "MAIL TURN");
            strbuf_addf(out, ", %s%s%s", word, str_eq(g->seats[s].mail_policy, "digest") ? " " : "",
                        str_eq(g->seats[s].mail_policy, "digest") ? period : "");
            free(word);
            if (g->seats[s].told_step < g->turn) {
                strbuf_addstr(out, ", ");
                phrase_add(out, lang, "host.seat.news-pending", NULL);
            }
        }
        if (v && *v && utc_parse(v, &t) && t > clock_now()) {
            time_format_tz(t, "UTC", when);
            strbuf_addstr(out, ", ");
            phrase_add(out, lang, "host.seat.vacation", "until", when, NULL);
        }
        strbuf_addch(out, '\n');
    }
    return 0;
}

/* ---- the host's command table (lib/cmdtab.h) ------------------------------ */

#define OPENER_ASKS 1u /* a lobby opener's is asked of the other players */

struct host_row {
    struct cmdtab_row row;
    int (*run)(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
               const char *lang, struct strbuf *out);
};

static int run_pause(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                     const char *lang, struct strbuf *out)
{
    (void)who, (void)w, (void)line;
    return do_pause(db, g, lang, out);
}

static int run_resume(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                      const char *lang, struct strbuf *out)
{
    (void)who, (void)w, (void)line;
    return do_resume(db, g, lang, out);
}

static int run_extend(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                      const char *lang, struct strbuf *out)
{
    (void)who, (void)line;
    return do_extend(db, g, w->n == 2 ? w->w[1] : NULL, lang, out);
}

static int run_rollback(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                        const char *lang, struct strbuf *out)
{
    (void)who, (void)line;
    return do_rollback(db, g, w, lang, out);
}

static int run_replace(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                       const char *lang, struct strbuf *out)
{
    (void)who;
    return do_replace(db, g, w, line, lang, out);
}

static int run_kick(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                    const char *lang, struct strbuf *out)
{
    (void)who, (void)line;
    return w->n == 2 || w->n == 3 ? do_kick(db, g, w->w[1], w->n == 3 ? w->w[2] : NULL, lang, out)
                                  : do_kick(db, g, NULL, NULL, lang, out);
}

static int run_end(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                   const char *lang, struct strbuf *out)
{
    (void)who;
    return do_end(db, g, w, line, lang, out);
}

static int run_status(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                      const char *lang, struct strbuf *out)
{
    (void)w, (void)line;
    return host_status(db, g, who, lang, out);
}

static const struct host_row host_rows[] = {
    { { "pause", 0, 0, OPENER_ASKS, "PAUSE", "no deadline runs until RESUME" }, run_pause },
    { { "resume", 0, 0, 0, "RESUME", "the deadline runs again" }, run_resume },
    { { "extend", 0, CMDTAB_ANY, OPENER_ASKS, "EXTEND 2d", "more time for the step" }, run_extend },
    { { "rollback", 0, CMDTAB_ANY, 0, "ROLLBACK <round>", "back to where the round began" }, run_rollback },
    { { "replace", 0, CMDTAB_ANY, 0, "REPLACE <player> <name>=<address>", "a new player takes the seat" },
      run_replace },
    { { "kick", 0, CMDTAB_ANY, 0, "KICK <player> [bot:easy|bot:strong]", "a bot plays the seat from now on" },
      run_kick },
    { { "end", 0, CMDTAB_ANY, 0, "END [SCORE|ABANDON] <reason>", "the game ends now" }, run_end },
    { { "status", 0, 0, 0, "STATUS", "where the game stands, and who is waited for" }, run_status },
    { { NULL, 0, 0, 0, NULL, NULL }, NULL },
};

#define HOST_TABLE CMDTAB(host_rows)

bool host_command_word(const char *line)
{
    return cmdtab_find(HOST_TABLE, line) != NULL;
}

int host_command(sqlite3 *db, struct game_rec *g, struct viewer who, const char *lang, const char *line,
                 struct strbuf *out)
{
    struct words w;
    int rc = 1;
    const char *why;
    const struct host_row *r;
    words_split(&w, line, NULL);
    if (w.n == 0) {
        words_release(&w);
        return 1;
    }
    r = (const struct host_row *)cmdtab_find(HOST_TABLE, w.w[0]);
    if (r && !vis_host_command(who, r->row.name, &why)) {
        phrase_add(out, lang, why, NULL);
    } else if (r) {
        struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;
        cmdtab_add_loud(&name, r->row.name);
        if (cmdtab_arity(&r->row, w.n - 1, "word", &err))
        {
            char written[96];
            snprintf(written, sizeof(written), "%.80s", line);
            phrase_add(out, lang, "host.arity", "name", name.buf, "usage", r->row.usage, "line", written, NULL);
        }
        else if (who.kind == VIEWER_OPENER && (r->row.flags & OPENER_ASKS))
            rc = opener_asks(db, g, &w, lang, out);
        else
            rc = r->run(db, g, who, &w, line, lang, out);
        strbuf_release(&err);
        strbuf_release(&name);
    } else if ((r = (const struct host_row *)cmdtab_nearest(HOST_TABLE, w.w[0]))) {
        struct strbuf name = STRBUF_INIT;
        cmdtab_add_loud(&name, r->row.name);
        phrase_add(out, lang, "host.did-you-mean", "word", w.w[0], "near", name.buf, NULL);
        strbuf_release(&name);
    } else {
        struct strbuf names = STRBUF_INIT;
        cmdtab_names(HOST_TABLE, &names);
        phrase_add(out, lang, "host.not-command", "word", w.w[0], "names", names.buf, NULL);
        strbuf_release(&names);
    }
    words_release(&w);
    return rc;
}
