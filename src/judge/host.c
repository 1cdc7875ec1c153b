/* host.c: what a game's host may do, by command line or by mail: pause, resume, extend, roll back, replace, kick. */
#include "judge/host.h"
#include "judge/notice.h"
#include "lib/cmdtab.h"
#include "lib/order_text.h"
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
static int bots_play(sqlite3 *db, struct game_rec *g, struct strbuf *out)
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
        game_when_now(g, when);
        strbuf_addf(out, " Bots and forced orders then played on to %s.", when);
    }
    return notify_submission(db, g, -1, &sub, NULL) ? -1 : 0;
}

static int save_schedule(sqlite3 *db, struct game_rec *g)
{
    return db_do(db, "UPDATE games SET paused = ?, step_started_at = ?, deadline_at = nullif(?, '') WHERE id = ?",
                 "issI", g->sched.paused ? 1 : 0, g->sched.step_started_at,
                 g->sched.deadline_at ? g->sched.deadline_at : "", g->id);
}

static int find_seat(const struct game_rec *g, const char *who, struct strbuf *out)
{
    int seat = game_seat_find(g, who);
    if (seat < 0) {
        strbuf_addf(out, "there is no player \"%s\": the players are ", who);
        game_names_of(g, (1u << g->nseats) - 1, out);
    }
    return seat;
}

static int do_pause(sqlite3 *db, struct game_rec *g, struct strbuf *out)
{
    if (g->sched.paused) {
        strbuf_addstr(out, "the game is paused already");
        return 1;
    }
    struct notice n;
    int rc;
    g->sched.paused = true;
    notice_init(&n, "notice.paused.head");
    notice_say(&n, "notice.paused");
    notice_text(&n, NULL, out);
    rc = save_schedule(db, g) || notify_notice_all(db, g, -1, &n) ? -1 : 0;
    notice_release(&n);
    return rc;
}

static int do_resume(sqlite3 *db, struct game_rec *g, struct strbuf *out)
{
    char when[64];
    time_t t;
    if (!g->sched.paused) {
        strbuf_addstr(out, "the game is not paused");
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
    notice_text(&n, NULL, out);
    rc = save_schedule(db, g) || notify_notice_all(db, g, -1, &n);
    notice_release(&n);
    if (rc)
        return -1;
    return bots_play(db, g, out);
}

/* The step's deadline (*t); false when the game keeps none. */
static bool step_deadline(const struct game_rec *g, time_t *t)
{
    return g->sched.deadline_at && *g->sched.deadline_at && utc_parse(g->sched.deadline_at, t);
}

/* EXTEND's time (*secs) and the deadline it moves (*t); 1 with why in
 * out when there is none. */
static int extend_arg(const struct game_rec *g, const char *arg, long *secs, time_t *t, struct strbuf *out)
{
    if (!arg || !duration_parse(arg, secs) || *secs <= 0) {
        strbuf_addstr(out, "EXTEND takes a time, like EXTEND 2d or EXTEND 12h");
        return 1;
    }
    if (!step_deadline(g, t)) {
        strbuf_addstr(out, "the game has no deadline to extend");
        return 1;
    }
    return 0;
}

static int extend_by(sqlite3 *db, struct game_rec *g, long secs, time_t t, struct strbuf *out)
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
    notice_text(&n, NULL, out);
    rc = save_schedule(db, g) || notify_notice_all(db, g, -1, &n) ? -1 : 0;
    notice_release(&n);
    return rc;
}

static int do_extend(sqlite3 *db, struct game_rec *g, const char *arg, struct strbuf *out)
{
    long secs;
    time_t t;
    return extend_arg(g, arg, &secs, &t, out) ? 1 : extend_by(db, g, secs, t, out);
}

/* The opener's PAUSE or EXTEND: asked of the other players, done at once
 * when nobody else sits in the game. */
static int opener_asks(sqlite3 *db, struct game_rec *g, const struct words *w, struct strbuf *out)
{
    long secs = 0;
    time_t t = 0;
    int rc;
    if (str_eq(w->w[0], "pause") && g->sched.paused) {
        strbuf_addstr(out, "the game is paused already");
        return 1;
    }
    if (str_eq(w->w[0], "extend") && extend_arg(g, w->n == 2 ? w->w[1] : NULL, &secs, &t, out))
        return 1;
    rc = consent_ask(db, g, g->sched.host_email ? g->sched.host_email : "", w->w[0], secs, out);
    if (rc != 2)
        return rc;
    return str_eq(w->w[0], "pause") ? do_pause(db, g, out) : extend_by(db, g, secs, t, out);
}

int host_consented(sqlite3 *db, struct game_rec *g, const char *what, long secs, const char *lang,
                   struct strbuf *out)
{
    struct strbuf told = STRBUF_INIT; /* the notice's English, for the host */
    char game[24], d[32], shown[64];
    time_t t;
    int rc;
    snprintf(game, sizeof(game), "%lld", (long long)g->id);
    if (str_eq(what, "pause") && g->sched.paused) {
        phrase_add(out, lang, "agree.paused-already", "game", game, NULL);
        return 0;
    }
    if (str_eq(what, "pause")) {
        rc = do_pause(db, g, &told);
        phrase_add(out, lang, "agree.done-pause", "game", game, NULL);
    } else if (!step_deadline(g, &t)) {
        phrase_add(out, lang, "agree.no-deadline", "game", game, NULL);
        rc = 0;
    } else {
        rc = extend_by(db, g, secs, t, &told);
        duration_format(secs, d);
        time_format_tz(t + secs, "UTC", shown);
        phrase_add(out, lang, "agree.done-extend", "game", game, "time", d, "deadline", shown, NULL);
    }
    strbuf_release(&told);
    return rc;
}

/* ROLLBACK 3: back to where round (turn, move) 3 began; ROLLBACK STEP
 * 44: back to the position after step 44. */
static int do_rollback(sqlite3 *db, struct game_rec *g, const struct words *w, struct strbuf *out)
{
    struct game_when now;
    long long n;
    int first, last;
    char when[128];
    game_when_of(g->ops, g->st, &g->table, g->turn, &now);
    if (g->turn == 0) {
        strbuf_addstr(out, "the game has no step to roll back");
        return 1;
    }
    if (vis_hidden_information(g->ops) && vis_seed_revealed(g)) {
        strbuf_addf(out, "game %lld is over, and its seed was revealed at the end: %s keeps hands or cards from"
                         " the players, and from the seed every one of them at every earlier step can be"
                         " computed, so it cannot be rolled back (a game without hidden information can be)",
                    (long long)g->id, g->ops->title);
        return 1;
    }
    if (w->n == 3 && str_eq(w->w[1], "step")) {
        if (!parse_int(w->w[2], 0, g->turn - 1, &n)) {
            strbuf_addf(out, "ROLLBACK STEP takes a step to go back to, 0 to %d", g->turn - 1);
            return 1;
        }
    } else if (w->n == 2 && parse_int(w->w[1], 0, now.number, &n)) {
        if (history_steps_of(db, g, (int)n, &first, &last))
            return -1;
        n = first > 0 ? first - 1 : 0;
        if (n >= g->turn) {
            strbuf_addf(out, "%s %s has just begun: ROLLBACK %d goes back to the start of %s %d", now.unit,
                         w->w[1], now.number - 1, now.unit, now.number - 1);
            return 1;
        }
    } else {
        strbuf_addf(out, "ROLLBACK takes a %s of the game, 0 (the start) to %d, and goes back to where it began;"
                         " or STEP and a step, 0 to %d",
                    now.unit, now.number, g->turn - 1);
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
        game_when_now(g, when);
        notice_init(&told, "notice.rolled-back.head");
        notice_say(&told, "notice.rolled-back");
        notice_set(&told, "when", when);
        notice_set_int(&told, "step", n);
        notice_text(&told, NULL, out);
        rc = notify_notice_all(db, g, -1, &told);
        notice_release(&told);
        if (rc)
            return -1;
    }
    return bots_play(db, g, out);
}

static int do_replace(sqlite3 *db, struct game_rec *g, struct words *w, const char *line, struct strbuf *out)
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
        strbuf_addstr(out, "REPLACE takes the player and the new one as NAME=ADDRESS, e.g. REPLACE Bob Dora=dora@x.org");
        return 1;
    }
    if ((seat = find_seat(g, w->w[1], out)) < 0) {
        free(written);
        return 1;
    }
    char *name = xstrndup(written, (size_t)(eq - written)), *email = str_lower(xstrdup(eq + 1));
    free(written);
    if (engine_check_name(name, out) || engine_check_email(email, out) || str_eq(email, "bot")) {
        if (str_eq(email, "bot"))
            strbuf_addstr(out, "a bot takes a seat with KICK");
        free(name);
        free(email);
        return 1;
    }
    for (int s = 0; s < g->nseats; s++)
        if (s != seat && str_ieq(g->names[s], name)) {
            strbuf_addf(out, "another player is called %s: give the newcomer a name of her own, e.g. REPLACE %s %s2=%s",
                        name, g->names[seat], name, email);
            free(name);
            free(email);
            return 1;
        }
    {
        int rc = takeover_give(db, g, seat, name, email, out);
        free(name);
        free(email);
        strbuf_release(&err);
        return rc ? -1 : 0;
    }
}

/* KICK Bob [bot:easy|bot:strong]: a bot of that level (plain: the host's
 * default) plays the seat from now on. */
static int do_kick(sqlite3 *db, struct game_rec *g, const char *who, const char *word, struct strbuf *out)
{
    int seat;
    const char *level;
    if (!who) {
        strbuf_addstr(out, "KICK takes the player whose seat a bot plays from now on, and the bot's level if not"
                           " the host's: KICK Bob, KICK Bob bot:easy, KICK Bob bot:strong");
        return 1;
    }
    if ((seat = find_seat(g, who, out)) < 0)
        return 1;
    if (word && !engine_bot_word(word)) {
        strbuf_addf(out, "\"%s\" is no bot's level: KICK %s bot:easy, or KICK %s bot:strong", word, g->names[seat],
                    g->names[seat]);
        return 1;
    }
    if (g->seats[seat].bot) {
        strbuf_addf(out, "a bot plays %s's seat already: REPLACE %s Name=address gives it to a person, and a new"
                         " player may TAKE it in the lobby", g->names[seat], g->names[seat]);
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
        notice_text(&n, NULL, out);
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
            strbuf_addf(out, " %s", ended.buf);
            strbuf_trim(out);
            rc = notify_progress(db, g, -1) ? -1 : 0;
        }
        strbuf_release(&ended);
        if (rc)
            return -1;
        if (str_eq(game_status_of(g->ops, g->st), "finished"))
            return 0;
    }
    return bots_play(db, g, out);
}

/* END [SCORE|ABANDON] reason: the game ends now, scored as it stands (the
 * default) or with no winner; the reason is kept as written. */
static int do_end(sqlite3 *db, struct game_rec *g, const struct words *w, const char *line, struct strbuf *out)
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
        strbuf_addf(out, "END's reason is %zu characters long: at most 300, please", reason.len);
        strbuf_release(&reason);
        return 1;
    }
    if (!reason.len) {
        strbuf_addstr(out, "END takes a reason the players will read, e.g. END SCORE the players agreed to stop, "
                           "or END ABANDON nobody has played for a month");
        strbuf_release(&reason);
        return 1;
    }
    rc = engine_end(db, g, score, reason.buf, &what);
    if (rc == 1) {
        strbuf_addstr(out, what.buf);
    } else if (rc == 0) {
        /* The host reads the step's log; the players the end in their
         * words (the game-over mail that follows tells the result). */
        struct notice n;
        strbuf_addstr(out, what.buf);
        strbuf_trim(out);
        notice_init(&n, score ? "notice.ended.head" : "notice.abandoned.head");
        notice_say(&n, score ? "event.engine.host-ends-scored" : "event.engine.host-ends");
        notice_set(&n, "reason", reason.buf);
        rc = notify_notice_all(db, g, -1, &n) || notify_progress(db, g, -1) ? -1 : 0;
        notice_release(&n);
    }
    strbuf_release(&reason);
    strbuf_release(&what);
    return rc;
}

int host_status(sqlite3 *db, struct game_rec *g, struct viewer who, struct strbuf *out)
{
    unsigned missing = 0, left = 0, dropped = 0;
    time_t t;
    char when[64];
    {
        char at[128];
        game_when_now(g, at);
        strbuf_addf(out, "Game %lld (%s): %s, %s (step %d)%s.\n", (long long)g->id, g->ops->title,
                    game_status_of(g->ops, g->st), at, g->turn, g->sched.paused ? ", paused" : "");
    }
    if (game_missing(db, g, &missing))
        return -1;
    if (missing) {
        strbuf_addstr(out, "Waiting for ");
        game_names_of(g, missing, out);
        strbuf_addstr(out, ".\n");
    }
    if (!str_eq(game_status_of(g->ops, g->st), "finished") && (t = game_deadline(g, missing))) {
        time_format_tz(t, "UTC", when);
        strbuf_addf(out, "Deadline: %s%s; missing orders: %s.\n", when, t < clock_now() ? " (passed)" : "",
                    g->sched.nmr);
    }
    if (game_left(db, g, &left, &dropped))
        return -1;
    for (int s = 0; s < g->nseats; s++) {
        const char *v = g->seats[s].vacation_until;
        strbuf_addf(out, "  %d %s", s + 1, g->names[s]);
        if (vis_address(g, who, s))
            strbuf_addf(out, " <%s>", g->seats[s].email);
        strbuf_addstr(out, !g->seats[s].bot                             ? ""
                           : str_eq(g->seats[s].bot_level, "strong") ? ", a strong bot"
                                                                     : ", an easy bot");
        if (left & (1u << s)) {
            strbuf_addstr(out, dropped & (1u << s) ? ", left the game: dropped at a missed deadline\n"
                                                   : ", left the game: resigned\n");
            continue;
        }
        if (!g->seats[s].bot) {
            /* When she is mailed (MAIL), and how far her mails told her. */
            char period[32];
            duration_format(g->seats[s].digest_secs, period);
            strbuf_addf(out, ", MAIL %s%s%s", str_eq(g->seats[s].mail_policy, "every")    ? "EVERY"
                                              : str_eq(g->seats[s].mail_policy, "digest") ? "DIGEST "
                                                                                          : "TURN",
                        str_eq(g->seats[s].mail_policy, "digest") ? period : "",
                        g->seats[s].told_step < g->turn ? ", news not yet mailed" : "");
        }
        if (v && *v && utc_parse(v, &t) && t > clock_now()) {
            time_format_tz(t, "UTC", when);
            strbuf_addf(out, ", on vacation until %s", when);
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
               struct strbuf *out);
};

static int run_pause(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                     struct strbuf *out)
{
    (void)who, (void)w, (void)line;
    return do_pause(db, g, out);
}

static int run_resume(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                      struct strbuf *out)
{
    (void)who, (void)w, (void)line;
    return do_resume(db, g, out);
}

static int run_extend(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                      struct strbuf *out)
{
    (void)who, (void)line;
    return do_extend(db, g, w->n == 2 ? w->w[1] : NULL, out);
}

static int run_rollback(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                        struct strbuf *out)
{
    (void)who, (void)line;
    return do_rollback(db, g, w, out);
}

static int run_replace(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                       struct strbuf *out)
{
    (void)who;
    return do_replace(db, g, w, line, out);
}

static int run_kick(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                    struct strbuf *out)
{
    (void)who, (void)line;
    return w->n == 2 || w->n == 3 ? do_kick(db, g, w->w[1], w->n == 3 ? w->w[2] : NULL, out)
                                  : do_kick(db, g, NULL, NULL, out);
}

static int run_end(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                   struct strbuf *out)
{
    (void)who;
    return do_end(db, g, w, line, out);
}

static int run_status(sqlite3 *db, struct game_rec *g, struct viewer who, struct words *w, const char *line,
                      struct strbuf *out)
{
    (void)w, (void)line;
    return host_status(db, g, who, out);
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

int host_command(sqlite3 *db, struct game_rec *g, struct viewer who, const char *line, struct strbuf *out)
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
    if (!vis_host_command(who, w.w[0], &why)) {
        strbuf_addf(out, "%s.", why);
        words_release(&w);
        return 1;
    }
    r = (const struct host_row *)cmdtab_find(HOST_TABLE, w.w[0]);
    if (r) {
        struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;
        cmdtab_add_loud(&name, r->row.name);
        if (cmdtab_arity(&r->row, w.n - 1, "word", &err))
            strbuf_addf(out, "%s %s: write %s.", name.buf, err.buf, r->row.usage);
        else if (who.kind == VIEWER_OPENER && (r->row.flags & OPENER_ASKS))
            rc = opener_asks(db, g, &w, out);
        else
            rc = r->run(db, g, who, &w, line, out);
        strbuf_release(&err);
        strbuf_release(&name);
    } else if ((r = (const struct host_row *)cmdtab_nearest(HOST_TABLE, w.w[0]))) {
        struct strbuf name = STRBUF_INIT;
        cmdtab_add_loud(&name, r->row.name);
        strbuf_addf(out, "\"%s\" is not a host command. Did you mean %s? Write it as you mean it.", w.w[0],
                    name.buf);
        strbuf_release(&name);
    } else {
        struct strbuf usages = STRBUF_INIT;
        cmdtab_usages(HOST_TABLE, &usages);
        strbuf_addf(out, "\"%s\" is not a host command: %s", w.w[0], usages.buf);
        strbuf_release(&usages);
    }
    words_release(&w);
    return rc;
}
