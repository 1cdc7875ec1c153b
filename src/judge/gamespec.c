/* gamespec.c: a game's terms read by one table from ngoma new's flags and the lobby's words, kept with a lobby table, and the one way a game starts. */
#include "judge/gamespec.h"
#include "judge/notify.h"
#include "lib/template.h"
#include "lib/util.h"
#include "store/db.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lobby's clock: a stranger's game waits at least an hour a step and
 * at most a month (the host at the shell may set any). */
#define LOBBY_DEADLINE_MIN 3600L
#define LOBBY_DEADLINE_MAX (30L * 86400)

/* A term refused at the lobby: the phrase key over its value, in the
 * lobby player's language. 1. */
static int refused(const struct game_spec *s, struct strbuf *err, const char *key, const char *value)
{
    char v[48], min[16], max[16];
    snprintf(v, sizeof(v), "%.40s", value);
    snprintf(min, sizeof(min), "%d", s->ops->min_seats);
    snprintf(max, sizeof(max), "%d", s->ops->max_seats);
    phrase_add(err, s->lang, key, "value", v, "min", min, "max", max, "title", s->ops->title, NULL);
    return 1;
}

typedef int (*term_set)(struct game_spec *s, const char *value, enum spec_from from, struct strbuf *err);

static int set_seats(struct game_spec *s, const char *value, enum spec_from from, struct strbuf *err)
{
    long long n;
    (void)from;
    if (parse_int(value, s->ops->min_seats, s->ops->max_seats, &n)) {
        s->seats = (int)n;
        return 0;
    }
    return refused(s, err, "spec.seats", value);
}

static int set_option(struct game_spec *s, const char *value, enum spec_from from, struct strbuf *err)
{
    const char *eq = strchr(value, '=');
    if (!eq || eq == value) {
        if (from == SPEC_LOBBY)
            return refused(s, err, "spec.option", value);
        strbuf_addf(err, "--option takes key=value, like rated=no, not \"%s\"", value);
        return 1;
    }
    char *key = xstrndup(value, (size_t)(eq - value));
    cJSON_DeleteItemFromObjectCaseSensitive(s->options, key);
    cJSON_AddStringToObject(s->options, key, eq + 1);
    free(key);
    return 0;
}

static int set_time(const struct game_spec *s, long *into, const char *word, const char *value, enum spec_from from,
                    long min, struct strbuf *err)
{
    long t;
    if (from == SPEC_LOBBY && str_eq(word, "deadline")) {
        if (duration_parse(value, &t) && t >= LOBBY_DEADLINE_MIN && t <= LOBBY_DEADLINE_MAX) {
            *into = t;
            return 0;
        }
        return refused(s, err, "spec.deadline", value);
    }
    if (duration_parse(value, &t) && t >= min) {
        *into = t;
        return 0;
    }
    if (from == SPEC_LOBBY)
        return refused(s, err, "spec.grace", value);
    strbuf_addf(err, "--%s takes a time like 90m, 48h or 3d, not \"%s\"", word, value);
    return 1;
}

static int set_deadline(struct game_spec *s, const char *value, enum spec_from from, struct strbuf *err)
{
    return set_time(s, &s->clock.deadline, "deadline", value, from, 1, err);
}

static int set_grace(struct game_spec *s, const char *value, enum spec_from from, struct strbuf *err)
{
    return set_time(s, &s->clock.grace, "grace", value, from, 0, err);
}

static int set_remind(struct game_spec *s, const char *value, enum spec_from from, struct strbuf *err)
{
    struct strbuf why = STRBUF_INIT;
    int rc = 0;
    if (schedule_parse_reminders(value, &s->clock, &why)) {
        if (from == SPEC_LOBBY)
            refused(s, err, "spec.remind", value);
        else
            strbuf_addf(err, "--remind takes up to 8 times before the deadline, like 24h,2h (or none), not \"%s\"",
                        value);
        rc = 1;
    }
    strbuf_release(&why);
    return rc;
}

static int set_nmr(struct game_spec *s, const char *value, enum spec_from from, struct strbuf *err)
{
    static const char *const words[] = { "wait", "bot", "bot:easy", "bot:strong", "drop" };
    for (size_t i = 0; i < ARRAY_SIZE(words); i++)
        if (str_ieq(value, words[i])) {
            snprintf(s->nmr, sizeof(s->nmr), "%s", words[i]);
            s->clock.nmr = s->nmr;
            return 0;
        }
    if (from == SPEC_LOBBY)
        return refused(s, err, "spec.nmr", value);
    strbuf_addf(err, "--nmr is wait, bot (the host's level), bot:easy, bot:strong or drop, not \"%s\"", value);
    return 1;
}

static int set_min_reliability(struct game_spec *s, const char *value, enum spec_from from, struct strbuf *err)
{
    long long n;
    (void)from;
    if (parse_int(value, 0, 100, &n)) {
        s->min_reliability = (int)n;
        return 0;
    }
    return refused(s, err, "spec.minreliability", value);
}

static int set_min_rating(struct game_spec *s, const char *value, enum spec_from from, struct strbuf *err)
{
    long long n;
    (void)from;
    if (parse_int(value, -10000, 10000, &n)) {
        s->min_rating = (int)n;
        s->gate_rating = true;
        return 0;
    }
    return refused(s, err, "spec.minrating", value);
}

/* Every term, once: its word, who may give it, how it is written. A term
 * added here is a flag of ngoma new and a word of the lobby's NEW. */
static const struct term {
    const char *word;
    unsigned from;          /* SPEC_HOST | SPEC_LOBBY */
    const char *lobby;      /* its usage at the lobby (%d: the seats) */
    const char *host;       /* at the shell */
    term_set set;
} terms[] = {
    { "seats", SPEC_LOBBY, "[SEATS %d to %d]", NULL, set_seats },
    { "option", SPEC_HOST | SPEC_LOBBY, "[OPTION key=value]", "[--option KEY=VALUE ...]", set_option },
    { "deadline", SPEC_HOST | SPEC_LOBBY, "[DEADLINE 48h (1h to 30d)]", "[--deadline 48h]", set_deadline },
    { "remind", SPEC_HOST | SPEC_LOBBY, "[REMIND 24h,2h]", "[--remind 24h,2h]", set_remind },
    { "grace", SPEC_HOST | SPEC_LOBBY, "[GRACE 12h]", "[--grace 12h]", set_grace },
    { "nmr", SPEC_HOST | SPEC_LOBBY, "[NMR wait|bot|bot:easy|bot:strong|drop]",
      "[--nmr wait|bot|bot:easy|bot:strong|drop]", set_nmr },
    { "minreliability", SPEC_LOBBY, "[MINRELIABILITY 0 to 100]", NULL, set_min_reliability },
    { "minrating", SPEC_LOBBY, "[MINRATING 400]", NULL, set_min_rating },
};

static const struct term *term_named(const char *word, enum spec_from from)
{
    for (size_t i = 0; i < ARRAY_SIZE(terms); i++)
        if ((terms[i].from & from) && str_ieq(word, terms[i].word))
            return &terms[i];
    return NULL;
}

void game_spec_init(struct game_spec *s, const struct game_ops *ops)
{
    memset(s, 0, sizeof(*s));
    s->ops = ops;
    s->seats = ops->min_seats > 4 ? ops->min_seats : ops->max_seats < 4 ? ops->max_seats : 4;
    s->options = cJSON_CreateObject();
    snprintf(s->nmr, sizeof(s->nmr), "wait");
}

void game_spec_release(struct game_spec *s)
{
    cJSON_Delete(s->options);
    s->options = NULL;
}

const char *game_spec_term(int i, enum spec_from from)
{
    for (size_t k = 0; k < ARRAY_SIZE(terms); k++)
        if ((terms[k].from & from) && i-- == 0)
            return terms[k].word;
    return NULL;
}

bool game_spec_word(const char *word, enum spec_from from)
{
    return term_named(word, from) != NULL;
}

int game_spec_set(struct game_spec *s, const char *word, const char *value, enum spec_from from, struct strbuf *err)
{
    const struct term *t = term_named(word, from);
    assert(s->ops && s->options);
    if (!t) {
        if (from == SPEC_LOBBY)
            return refused(s, err, "spec.no-term", word);
        strbuf_addf(err, "\"%s\" is no term of a new game", word);
        return 1;
    }
    return t->set(s, value, from, err);
}

int game_spec_check(const struct game_spec *s, enum spec_from from, struct strbuf *err)
{
    bool clocked = s->clock.grace || (s->clock.reminders_given && s->clock.nreminders) || s->clock.nmr;
    if (s->clock.deadline || !clocked)
        return 0;
    if (from == SPEC_LOBBY)
        return refused(s, err, "spec.needs-deadline", "");
    strbuf_addstr(err, "--remind, --grace and --nmr need a --deadline");
    return 1;
}

void game_spec_usage(const struct game_ops *ops, enum spec_from from, struct strbuf *out)
{
    bool first = true;
    for (size_t i = 0; i < ARRAY_SIZE(terms); i++) {
        if (!(terms[i].from & from))
            continue;
        if (!first)
            strbuf_addch(out, ' ');
        first = false;
        if (from == SPEC_HOST)
            strbuf_addstr(out, terms[i].host);
        else if (terms[i].set == set_seats)
            strbuf_addf(out, terms[i].lobby, ops->min_seats, ops->max_seats);
        else
            strbuf_addstr(out, terms[i].lobby);
    }
}

/* ---- kept with a lobby table, read from a game ----------------------------- */

static char *reminders_json(const struct schedule_opts *c)
{
    cJSON *list;
    char *text;
    if (!c->reminders_given)
        return NULL;
    list = cJSON_CreateArray();
    for (int i = 0; i < c->nreminders; i++)
        cJSON_AddItemToArray(list, cJSON_CreateNumber((double)c->reminders[i]));
    text = cJSON_PrintUnformatted(list);
    cJSON_Delete(list);
    return text;
}

int game_spec_save_table(sqlite3 *db, int64_t table, const struct game_spec *s)
{
    char *rem = reminders_json(&s->clock);
    int rc = db_do(db,
                   "UPDATE lobby_tables SET deadline_secs = ?, grace_secs = ?, reminder_secs = ?, nmr = ?,"
                   " nmr_level = ?, min_reliability = ?, min_rating = CASE WHEN ? THEN ? END WHERE id = ?",
                   "IIsssiiiI", (int64_t)s->clock.deadline, (int64_t)s->clock.grace, rem,
                   engine_bot_word(s->nmr) ? "bot" : s->nmr,
                   engine_bot_word(s->nmr) ? engine_bot_level(db, s->nmr) : "easy", s->min_reliability,
                   s->gate_rating ? 1 : 0, s->min_rating, table);
    free(rem);
    return rc ? -1 : 0;
}

/* A stored NMR (nmr, nmr_level) as the term that gives it; a game with no
 * clock has no missed turns to play. */
static void nmr_stored(struct game_spec *s, const char *nmr, const char *level)
{
    if (nmr && str_eq(nmr, "bot"))
        snprintf(s->nmr, sizeof(s->nmr), "bot:%s", level && str_eq(level, "strong") ? "strong" : "easy");
    else
        snprintf(s->nmr, sizeof(s->nmr), "%s", nmr && str_eq(nmr, "drop") ? "drop" : "wait");
    s->clock.nmr = s->clock.deadline ? s->nmr : NULL;
}

int game_spec_load_table(sqlite3 *db, int64_t table, struct game_spec *s)
{
    sqlite3_stmt *q = db_stmt(db,
                              "SELECT deadline_secs, grace_secs, reminder_secs, nmr, nmr_level, min_reliability,"
                              " min_rating FROM lobby_tables WHERE id = ?",
                              "I", table);
    int rc = -1;
    if (!q)
        return -1;
    if (db_step(q) == SQLITE_ROW) {
        s->clock.deadline = (long)sqlite3_column_int64(q, 0);
        s->clock.grace = (long)sqlite3_column_int64(q, 1);
        s->clock.reminders_given = game_reminders_read((const char *)sqlite3_column_text(q, 2), s->clock.reminders,
                                                       &s->clock.nreminders);
        nmr_stored(s, (const char *)sqlite3_column_text(q, 3), (const char *)sqlite3_column_text(q, 4));
        s->min_reliability = sqlite3_column_int(q, 5);
        s->gate_rating = sqlite3_column_type(q, 6) != SQLITE_NULL;
        s->min_rating = sqlite3_column_int(q, 6);
        rc = 0;
    }
    db_finalize(q);
    return rc;
}

int game_spec_load_game(const struct game_rec *g, struct game_spec *s)
{
    /* The game's clock as loaded, its reminders as they were kept. */
    s->clock.deadline = g->sched.deadline_secs;
    s->clock.grace = g->sched.grace_secs;
    s->clock.reminders_given = true;
    s->clock.nreminders = g->sched.nreminders;
    memcpy(s->clock.reminders, g->sched.reminders, sizeof(s->clock.reminders));
    nmr_stored(s, g->sched.nmr, g->sched.nmr_level);
    /* The game's options as stored: every declared one, filled in. */
    cJSON_Delete(s->options);
    s->options = cJSON_Duplicate(g->options, true);
    s->seats = g->nseats;
    return s->options ? 0 : -1;
}

/* ---- the start ------------------------------------------------------------- */

int game_start(sqlite3 *db, const struct new_game *ng, const struct game_spec *s, int64_t *id, struct strbuf *err)
{
    struct game_rec g;
    int rc;
    if (game_spec_check(s, SPEC_HOST, err) || engine_new_game(db, ng, id, err) ||
        schedule_configure(db, *id, &s->clock, err))
        return -1;
    /* Bots and forced orders play at once; then each player's welcome
     * mail goes out, telling what they played. */
    if (game_load(db, *id, &g))
        return -1;
    rc = engine_autoplay(db, &g, NULL) || notify_welcome(db, &g) ? -1 : 0;
    game_unload(&g);
    return rc;
}
