/* lobby.c: the bare address's command language: confirmed addresses, games opened and filled by mail, invitations, watchers, rematches. */
#include "judge/lobby.h"
#include "judge/consent.h"
#include "judge/gamespec.h"
#include "judge/host.h"
#include "judge/standing.h"
#include "judge/takeover.h"
#include "core/engine.h"
#include "core/history.h"
#include "core/reply.h"
#include "core/seed.h"
#include "core/view.h"
#include "judge/limits.h"
#include "judge/schedule.h"
#include "lib/address.h"
#include "lib/jsonx.h"
#include "lib/order_text.h"
#include "lib/template.h"
#include "lib/util.h"
#include "mail/mailout.h"
#include "store/db.h"
#include "store/settings.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TOKEN_LEN 10
/* An address that never confirmed gets one lobby mail in this long. */
#define QUIET (30L * 86400)
#define LOBBY_LINES 10          /* commands taken from one mail */
#define OPEN_TABLES_EACH 5      /* open games one address may host at once */
#define WATCHERS_EACH 50        /* watchers a game may have */
#define WATCHING_EACH 20        /* games one address may watch */
#define PENDING_EACH 5          /* sets of commands waiting for one address's confirmation */
#define INVITE_AGAIN 86400L     /* one invitation from one inviter to one invitee in this long */
#define LIST_MAX 20             /* open games LIST shows */

/* The first word of a line and its length. */
static size_t first_word(const char *line, const char **w)
{
    while (*line == ' ' || *line == '\t')
        line++;
    *w = line;
    return strcspn(line, " \t");
}

/* ---- the words of a command, case kept ---------------------------------- */

struct args {
    char *buf;
    char *w[64];
    int n;
};

static void args_split(const char *line, struct args *a)
{
    char *save = NULL;
    a->buf = xstrdup(line);
    a->n = 0;
    for (char *t = strtok_r(a->buf, " \t", &save); t && a->n < 64; t = strtok_r(NULL, " \t", &save))
        a->w[a->n++] = t;
}

static bool is(const struct args *a, int i, const char *word)
{
    return i < a->n && strcasecmp(a->w[i], word) == 0;
}

/* A word that ends a name or a phrase: a term of a new game, AS or SALT. */
static bool keyword(const struct args *a, int i)
{
    return i < a->n && (game_spec_word(a->w[i], SPEC_LOBBY) || is(a, i, "as") || is(a, i, "salt"));
}

/* Words i.. up to the next keyword, joined by one space. */
static char *phrase(const struct args *a, int *i)
{
    struct strbuf sb = STRBUF_INIT;
    while (*i < a->n && !keyword(a, *i)) {
        strbuf_addf(&sb, "%s%s", sb.len ? " " : "", a->w[*i]);
        (*i)++;
    }
    return strbuf_detach(&sb);
}

/* Every word from i to the end (a salt takes the rest of the line). */
static char *rest(const struct args *a, int i)
{
    struct strbuf sb = STRBUF_INIT;
    for (; i < a->n; i++)
        strbuf_addf(&sb, "%s%s", sb.len ? " " : "", a->w[i]);
    return strbuf_detach(&sb);
}

/* ---- what one mail is doing ---------------------------------------------- */

struct lobby {
    sqlite3 *db;
    const struct inbound_mail *in;
    const struct mail_origin *origin;
    const char *from;
    const char *mode;       /* off, invite, open */
    bool confirmed;
    bool just_confirmed;    /* by this very mail */
    bool wants_confirm;     /* a command waits for the confirmation */
    struct strbuf waiting;  /* those commands, a line each */
    int64_t set_id;         /* a waiting set whose token this mail carries, else 0 */
    int64_t invited_to;     /* the open table an invitation this mail answers names, else 0 */
    char *set_commands;     /* its commands */
    cJSON *lines;           /* [{text, body}] answered */
    struct strbuf notes;    /* said once, after the lines */
    struct strlist offers;  /* what she may do next, a tap each (JOIN 12, START 12) */
};

/* A tap the answer offers (a few at most, each once). */
static void offer(struct lobby *l, const char *fmt, long long id)
{
    char c[64];
    snprintf(c, sizeof(c), fmt, id);
    if (l->offers.n < 6 && !strlist_contains(&l->offers, c))
        strlist_push(&l->offers, c);
}

static const struct lobby_command *command_of(const char *line);

/* A command in prose is never broken across lines ("INVITE 12
 * friend@example.org", "JOIN 12 AS YourName"): the spaces inside one
 * become \x01 for the wrapping, and spaces again after it. */
static void glue_commands(char *line)
{
    char *p = line;
    while (*p) {
        char *w = p, *end;
        bool glue = false;
        while (*p && *p != ' ')
            p++;
        end = p;
        if (!*p)
            break;
        {
            /* A command word in capitals, a number after one, AS. */
            char save = *end;
            bool caps = end - w >= 2;
            for (char *q = w; q < end; q++)
                caps &= (*q >= 'A' && *q <= 'Z');
            *end = '\0';
            glue = (caps && command_of(w)) || (caps && str_eq(w, "AS")) || str_eq(w, "SALT");
            if (!glue && w[0] >= '0' && w[0] <= '9' && w > line + 1) {
                /* "12 friend@x" and "12 AS": a number in a command goes on. */
                const char *next = end + 1;
                glue = strncmp(next, "AS ", 3) == 0 || (strchr(next, '@') && strchr(next, '@') < next + strcspn(next, " "));
            }
            *end = save;
        }
        if (glue)
            *p = '\x01';
        p++;
    }
}

/* Adds text under key, each line wrapped within 72 columns: prose flush,
 * an indented line under its own indent, no command broken. */
static void add_prose(cJSON *obj, const char *key, const char *text)
{
    struct strbuf wrapped = STRBUF_INIT;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        char *line = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
        glue_commands(line);
        if (strlen(line) > 72)
            strbuf_add_flowed(&wrapped, line, (int)strspn(line, " ") + (line[0] == ' ' ? 2 : 0), 72);
        else
            strbuf_addf(&wrapped, "%s\n", line);
        free(line);
        p = nl ? nl + 1 : p + strlen(p);
    }
    for (size_t i = 0; i < wrapped.len; i++)
        if (wrapped.buf[i] == '\x01')
            wrapped.buf[i] = ' ';
    reply_add_text(obj, key, wrapped.buf);
    strbuf_release(&wrapped);
}

static void answer(struct lobby *l, const char *text, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void answer(struct lobby *l, const char *text, const char *fmt, ...)
{
    struct strbuf body = STRBUF_INIT;
    cJSON *o = cJSON_CreateObject();
    va_list ap;
    va_start(ap, fmt);
    strbuf_vaddf(&body, fmt, ap);
    va_end(ap);
    {
        char *q = reply_quote(text);
        cJSON_AddStringToObject(o, "text", q);
        free(q);
    }
    add_prose(o, "body", body.buf);
    cJSON_AddItemToArray(l->lines, o);
    strbuf_release(&body);
}

/* Queues a lobby mail rendered from template name to one address. The
 * mail that caused it (origin) is kept with it, which the budgets count;
 * an answer (threaded) also names it in its headers, a mail to a third
 * party does not. */
/* A lobby mail, its taps (what she may do next) as links to the lobby. */
static int lobby_send_offering(sqlite3 *db, const char *to, const char *kind, const char *name, cJSON *d,
                               const struct mail_origin *origin, bool threaded, const struct strlist *taps)
{
    struct outmail m = { 0 };
    char *lobby = mail_reply_address(db, 0, 0, NULL);
    cJSON_AddStringToObject(d, "lobby_address", lobby ? lobby : "");
    free(lobby);
    m.kind = kind;
    m.to = to;
    m.lobby = true;
    m.commands = taps;
    if (origin) {
        m.answers = origin->row;
        if (threaded) {
            m.in_reply_to = origin->message_id;
            m.references = origin->references;
        }
    }
    return outbox_render(db, &m, name, d);
}

static int lobby_send(sqlite3 *db, const char *to, const char *kind, const char *name, cJSON *d,
                      const struct mail_origin *origin, bool threaded)
{
    return lobby_send_offering(db, to, kind, name, d, origin, threaded, NULL);
}

/* Mails to third parties (invitations, notices to players at a table) the
 * sender's mails caused in the last hour: one budget, invites_per_hour,
 * whichever command asks. *left says how many more may go. */
static int third_party_budget(struct lobby *l, int64_t *left)
{
    long long per_hour = setting_get_int(l->db, "invites_per_hour", 5);
    int64_t invites, notices;
    if (limit_answers_caused(l->db, l->from, "invite", 3600, &invites) ||
        limit_answers_caused(l->db, l->from, "lobby-notice", 3600, &notices))
        return -1;
    *left = per_hour - invites - notices;
    return 0;
}

/* A player's name from her address when she gives none: its local part's
 * letters and digits, capitalised. */
static void name_from_address(const char *addr, char out[25])
{
    size_t n = 0;
    for (const char *p = addr; *p && *p != '@' && n < 24; p++)
        if (isalnum((unsigned char)*p)) {
            out[n] = n == 0 ? (char)toupper((unsigned char)*p) : *p;
            n++;
        }
    out[n] = '\0';
    if (!n)
        snprintf(out, 25, "Player");
}

static int table_exists(sqlite3 *db, int64_t id, char status[16], char host[256], int *seats, int *taken)
{
    sqlite3_stmt *q = db_stmt(db,
                              "SELECT status, host_email, seats, (SELECT count(*) FROM lobby_players WHERE table_id = t.id)"
                              " FROM lobby_tables t WHERE id = ?",
                              "I", id);
    int rc;
    if (!q)
        return -1;
    rc = db_step(q);
    if (rc == SQLITE_ROW) {
        snprintf(status, 16, "%s", sqlite3_column_text(q, 0));
        snprintf(host, 256, "%s", sqlite3_column_text(q, 1));
        *seats = sqlite3_column_int(q, 2);
        *taken = sqlite3_column_int(q, 3);
    }
    db_finalize(q);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* A table a command names, as it stands. */
struct table {
    int64_t id;
    char status[16], host[256];
    int seats, taken;
};

static bool game_number(const struct args *a, int i, int64_t *id);

/* The open table the command's number names: 1 when there is one; 0 when
 * the answer is said (usage, or not waiting: said); -1 on failure. */
static int open_table_named(struct lobby *l, const char *line, const struct args *a, bool exact3, const char *usage,
                            const char *started, struct table *t)
{
    int rc;
    if (!game_number(a, 1, &t->id) || (exact3 && a->n != 3)) {
        answer(l, line, "%s", usage);
        return 0;
    }
    if ((rc = table_exists(l->db, t->id, t->status, t->host, &t->seats, &t->taken)) < 0)
        return -1;
    if (!rc || !str_eq(t->status, "open")) {
        answer(l, line, "game %lld is not waiting for players%s", (long long)t->id, rc ? started : "");
        return 0;
    }
    return 1;
}

/* "NEW 12"-style game numbers. */
static bool game_number(const struct args *a, int i, int64_t *id)
{
    long long n;
    const char *w = i < a->n ? a->w[i] : "";
    if (*w == '#')
        w++;
    if (!parse_int(w, 1, INT64_MAX, &n))
        return false;
    *id = n;
    return true;
}

/* ---- starting a game from its table -------------------------------------- */

/* The strong bots a table of host's would seat (strong) against her
 * share of the host's CPU: at most lobby_strong_bots in the unfinished
 * games she opened, and as many started in the last hour (a game she
 * leaves ends at once when no person is left: the hour stops churning).
 * 1 with why in note when they do not fit. */
static int strong_bots_fit(sqlite3 *db, int64_t id, const char *host, int strong, struct strbuf *note)
{
    long long each = setting_get_int(db, "lobby_strong_bots", 6);
    int64_t running = 0, lately = 0;
    char hour[32];
    if (!strong)
        return 0;
    utc_format(clock_now() - 3600, hour);
    if (db_get_int64(db, &running,
                     "SELECT count(*) FROM seats s JOIN games g ON g.id = s.game_id JOIN lobby_tables t ON t.id = g.id"
                     " WHERE t.host_email = ? AND g.status <> 'finished' AND s.bot = 1 AND s.bot_level = 'strong'",
                     "s", host) < 0 ||
        db_get_int64(db, &lately,
                     "SELECT count(*) FROM seats s JOIN games g ON g.id = s.game_id JOIN lobby_tables t ON t.id = g.id"
                     " WHERE t.host_email = ? AND g.created_at > ? AND s.bot = 1 AND s.bot_level = 'strong'",
                     "ss", host, hour) < 0)
        return -1;
    if (running + strong <= each && lately + strong <= each)
        return 0;
    strbuf_addf(note,
                "game %lld cannot start with %d strong bot%s: the games its host opened here may seat %lld strong"
                " bots at once, and as many an hour (they have %lld now, %lld started in the last hour). START"
                " %lld BOT:EASY plays the empty seats with easy bots",
                (long long)id, strong, strong == 1 ? "" : "s", each, (long long)running, (long long)lately,
                (long long)id);
    return 1;
}

/* Starts table id as game id: the seats as joined (bots for the empty ones
 * with fill, of the level bot_word names: "bot" for the host's), its committed seed and the salts; every seat is welcomed.
 * 1 with why in note when the game cannot start (nothing changed). */
static int start_table(sqlite3 *db, int64_t id, bool fill, const char *bot_word, struct strbuf *note)
{
    sqlite3_stmt *q;
    char *module = NULL, *options_text = NULL, *host = NULL, *commitment = NULL, *made = NULL;
    char *names[GAME_MAX_SEATS] = { NULL }, *emails[GAME_MAX_SEATS] = { NULL };
    struct strlist salts = STRLIST_INIT;
    struct strbuf err = STRBUF_INIT;
    int seats = 0, n = 0, rc = -1;
    int64_t base = 0, gid;
    cJSON *options = NULL;
    const struct game_ops *ops;
    struct game_spec spec = { 0 };

    q = db_stmt(db, "SELECT module, options, seats, host_email, base_seed, seed_commitment FROM lobby_tables WHERE id = ?",
                "I", id);
    if (!q || db_step(q) != SQLITE_ROW) {
        db_finalize(q);
        return -1;
    }
    module = db_col_text(q, 0);
    options_text = db_col_text(q, 1);
    seats = sqlite3_column_int(q, 2);
    host = db_col_text(q, 3);
    base = sqlite3_column_int64(q, 4);
    commitment = db_col_text(q, 5);
    db_finalize(q);
    q = db_stmt(db,
                "SELECT name, CASE WHEN email = 'bot' AND bot_level IS NOT NULL THEN 'bot:' || bot_level ELSE email END,"
                " salt FROM lobby_players WHERE table_id = ? ORDER BY position",
                "I", id);
    if (!q)
        goto out;
    while (db_step(q) == SQLITE_ROW && n < GAME_MAX_SEATS) {
        names[n] = db_col_text(q, 0);
        emails[n] = db_col_text(q, 1);
        strlist_push(&salts, sqlite3_column_type(q, 2) != SQLITE_NULL ? (const char *)sqlite3_column_text(q, 2) : "");
        n++;
    }
    db_finalize(q);
    for (int b = 1; fill && n < seats; b++) {
        char name[16];
        bool taken = false;
        snprintf(name, sizeof(name), "Bot %d", b);
        for (int i = 0; i < n; i++)
            taken |= str_ieq(names[i], name);
        if (taken)
            continue;
        names[n] = xstrdup(name);
        emails[n++] = xstrdup(bot_word);
        strlist_push(&salts, "");
    }
    ops = game_find(module);
    options = jx_parse(options_text, "options", &err);
    if (!ops || !options)
        goto out;
    game_spec_init(&spec, ops);
    if (game_spec_load_table(db, id, &spec))
        goto out;
    spec.clock.host = host;
    {
        int strong = 0;
        for (int i = 0; i < n; i++)
            strong += engine_bot_word(emails[i]) && str_eq(engine_bot_level(db, emails[i]), "strong");
        if ((rc = strong_bots_fit(db, id, host, strong, note)) != 0)
            goto out;
        rc = -1;
    }
    if (db_savepoint(db, "start"))
        goto out;
    {
        struct new_game ng = { ops, n, (const char *const *)names, (const char *const *)emails, options, base,
                               &salts, id, false };
        if (game_start(db, &ng, &spec, &gid, &err)) {
            db_rollback_to(db, "start");
            if (!err.len)
                goto out;
            strbuf_addf(note, "game %lld cannot start: %s", (long long)id, err.buf);
            rc = 1;
            goto out;
        }
    }
    /* The game deals from what was committed to when the table opened. */
    if (db_get_text(db, &made, "SELECT seed_commitment FROM games WHERE id = ?", "I", id) <= 0 ||
        !str_eq(made, commitment)) {
        error("game %lld: its commitment changed between the table and the game", (long long)id);
        db_rollback_to(db, "start");
        goto out;
    }
    rc = 0;
    if (db_do(db, "UPDATE lobby_tables SET status = 'started' WHERE id = ?", "I", id) || db_release(db, "start"))
        rc = -1;
    if (!rc)
        strbuf_addf(note, "Game %lld starts with %d players: each gets a welcome mail with a secret of her own.",
                    (long long)id, n);
out:
    for (int i = 0; i < GAME_MAX_SEATS; i++) {
        free(names[i]);
        free(emails[i]);
    }
    if (spec.ops)
        game_spec_release(&spec);
    strlist_clear(&salts);
    strbuf_release(&err);
    cJSON_Delete(options);
    free(module);
    free(options_text);
    free(host);
    free(commitment);
    free(made);
    return rc;
}

/* ---- the commands -------------------------------------------------------- */

static void commands_help(struct strbuf *out);

static int cmd_help(struct lobby *l, const char *line, const struct args *a)
{
    struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, list = STRBUF_INIT;
    cJSON *d = cJSON_CreateObject();
    int rc;
    (void)a;
    commands_help(&list);
    cJSON_AddStringToObject(d, "commands", list.buf);
    strbuf_release(&list);
    rc = template_render_file("lobby-help.txt", d, &out, &err);
    if (rc)
        error("%s", err.buf);
    else
        answer(l, line, "%s", out.buf);
    cJSON_Delete(d);
    strbuf_release(&out);
    strbuf_release(&err);
    return rc;
}

static int cmd_games(struct lobby *l, const char *line, const struct args *a)
{
    (void)a;
    struct strbuf sb = STRBUF_INIT;
    for (int i = 0; game_registry[i]; i++) {
        const struct game_ops *o = game_registry[i];
        if (o->min_seats == o->max_seats)
            strbuf_addf(&sb, "%s (%s, %d players): %s\n", o->name, o->title, o->min_seats, o->summary);
        else
            strbuf_addf(&sb, "%s (%s, %d to %d players): %s\n", o->name, o->title, o->min_seats, o->max_seats,
                        o->summary);
    }
    strbuf_addstr(&sb, "NEW and a game's name opens one, e.g. NEW kalimambo SEATS 4.");
    answer(l, line, "%s", sb.buf);
    strbuf_release(&sb);
    return 0;
}

/* Under a LIST line: who sits there, with reliability and rating, and
 * who may join. */
static int seated_standing(sqlite3 *db, int64_t id, const struct game_ops *ops, bool anonymous, struct strbuf *out)
{
    sqlite3_stmt *q = db_stmt(db, "SELECT name, email FROM lobby_players WHERE table_id = ? ORDER BY position", "I", id);
    struct strbuf line = STRBUF_INIT;
    int64_t min_rel = 0, min_rating = 0;
    int rc, has_rating;
    if (!q)
        return -1;
    /* An anonymous game names nobody until it is over. */
    while (!anonymous && (rc = db_step(q)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(q, 0), *email = (const char *)sqlite3_column_text(q, 1);
        if (str_eq(email, "bot")) {
            strbuf_addf(&line, "%s%s (a bot)", line.len ? ", " : "Seated: ", name);
        } else {
            char *who = standing_person(db, email), shown[16];
            struct standing st;
            struct reliability r;
            if (!ops || standing_rating(db, who, ops->name, &st) || standing_reliability(db, who, &r)) {
                free(who);
                rc = -1;
                break;
            }
            standing_shown(&st, shown);
            strbuf_addf(&line, "%s%s (reliability %d, rating %s)", line.len ? ", " : "Seated: ", name, r.score, shown);
            free(who);
        }
    }
    db_finalize(q);
    if (anonymous)
        rc = SQLITE_DONE;
    if (rc != SQLITE_DONE ||
        db_get_int64(db, &min_rel, "SELECT min_reliability FROM lobby_tables WHERE id = ?", "I", id) < 0 ||
        (has_rating = db_get_int64(db, &min_rating,
                                   "SELECT min_rating FROM lobby_tables WHERE id = ? AND min_rating IS NOT NULL", "I",
                                   id)) < 0) {
        strbuf_release(&line);
        return -1;
    }
    if (min_rel || has_rating) {
        strbuf_addf(&line, "%sJoins need", line.len ? ". " : "");
        if (min_rel)
            strbuf_addf(&line, " reliability %lld", (long long)min_rel);
        if (has_rating)
            strbuf_addf(&line, "%s rating %lld", min_rel ? " and" : "", (long long)min_rating);
        strbuf_addstr(&line, " or an invitation");
    }
    if (line.len) {
        strbuf_addch(&line, '.');
        strbuf_addstr(out, "  ");
        strbuf_add_flowed(out, line.buf, 2, 72);
        strbuf_complete_line(out);
    }
    strbuf_release(&line);
    return 0;
}

static int cmd_list(struct lobby *l, const char *line, const struct args *a)
{
    struct strbuf sb = STRBUF_INIT;
    sqlite3_stmt *q = db_stmt(l->db,
                              "SELECT t.id, t.module, t.seats, t.options, t.deadline_secs, t.nmr,"
                              " (SELECT group_concat(name, ', ') FROM (SELECT name FROM lobby_players p"
                              "  WHERE p.table_id = t.id ORDER BY position)),"
                              " (SELECT count(*) FROM lobby_players p WHERE p.table_id = t.id)"
                              " FROM lobby_tables t WHERE status = 'open' ORDER BY id DESC LIMIT ?",
                              "i", LIST_MAX);
    int rc, n = 0;
    int64_t first = 0;
    (void)a;
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        const struct game_ops *ops = game_find((const char *)sqlite3_column_text(q, 1));
        struct strbuf err = STRBUF_INIT;
        cJSON *opts = jx_parse((const char *)sqlite3_column_text(q, 3), "options", &err), *v;
        char per[48] = "no deadline", nmr[48] = "";
        bool other = false;
        if (sqlite3_column_int64(q, 4)) {
            char d[32];
            duration_format((long)sqlite3_column_int64(q, 4), d);
            snprintf(per, sizeof(per), "deadline %s", d);
            snprintf(nmr, sizeof(nmr), ", missing orders: %s", sqlite3_column_text(q, 5));
        }
        bool anonymous = str_eq(engine_core_option(opts, "anonymous"), "yes");
        strbuf_addf(&sb, "Game %lld: %s, %d of %d seats taken (%s); %s%s; ", (long long)sqlite3_column_int64(q, 0),
                    ops ? ops->title : (const char *)sqlite3_column_text(q, 1), sqlite3_column_int(q, 7),
                    sqlite3_column_int(q, 2),
                    anonymous                     ? "anonymous: named when it is over"
                    : sqlite3_column_text(q, 6) ? (const char *)sqlite3_column_text(q, 6)
                                                  : "",
                    per, nmr);
        /* The options it was opened with, those that are not the default. */
        cJSON_ArrayForEach(v, opts) {
            const struct game_option *o = ops ? ops->options : NULL;
            while (o && o->key && !str_eq(o->key, v->string))
                o++;
            if (cJSON_IsString(v) && (!o || !o->key || !str_eq(o->def, v->valuestring))) {
                strbuf_addf(&sb, "%s%s=%s", other ? ", " : "options ", v->string, v->valuestring);
                other = true;
            }
        }
        strbuf_addstr(&sb, other ? "\n" : "the usual options\n");
        if (seated_standing(l->db, sqlite3_column_int64(q, 0), ops, anonymous, &sb)) {
            cJSON_Delete(opts);
            strbuf_release(&err);
            db_finalize(q);
            strbuf_release(&sb);
            return -1;
        }
        cJSON_Delete(opts);
        strbuf_release(&err);
        if (!first)
            first = sqlite3_column_int64(q, 0);
        offer(l, "JOIN %lld", (long long)sqlite3_column_int64(q, 0));
        n++;
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    if (!n)
        strbuf_addstr(&sb, "No game is waiting for players. NEW kalimambo (or any of GAMES) opens one.");
    else
        strbuf_addf(&sb, "JOIN and the number takes a seat: JOIN %lld AS YourName.", (long long)first);
    {
        /* The seats of running games a new player may take over. */
        struct strbuf open = STRBUF_INIT;
        if (takeover_list(l->db, LIST_MAX, &open)) {
            strbuf_release(&open);
            strbuf_release(&sb);
            return -1;
        }
        if (open.len)
            strbuf_addf(&sb, "\n\n%s", open.buf);
        strbuf_release(&open);
    }
    answer(l, line, "%s", sb.buf);
    strbuf_release(&sb);
    return 0;
}

static bool may_create(struct lobby *l)
{
    char *list;
    bool ok = false;
    if (str_eq(l->mode, "open"))
        return true;
    list = setting_get(l->db, "lobby_creators");
    if (list) {
        char *save = NULL, *at = strchr(l->from, '@');
        for (char *t = strtok_r(list, ", ", &save); t && !ok; t = strtok_r(NULL, ", ", &save))
            ok = *t == '@' ? at && str_ieq(at, t) : str_ieq(t, l->from);
    }
    free(list);
    return ok;
}

/* Seats the sender at table id as name (salt may be NULL). */
static int seat_at(struct lobby *l, int64_t id, const char *name, const char *salt)
{
    char now[32];
    utc_now(now);
    return db_do(l->db,
                 "INSERT INTO lobby_players(table_id, position, name, email, salt, joined_at) VALUES (?,"
                 " (SELECT coalesce(max(position), 0) + 1 FROM lobby_players WHERE table_id = ?), ?, ?, ?, ?)",
                 "IIssss", id, id, name, l->from, salt, now);
}

/* The name and salt of a JOIN or NEW, from word i on; 1 when refused. */
static int name_and_salt(struct lobby *l, const char *line, const struct args *a, int i, char **name, char **salt)
{
    struct strbuf err = STRBUF_INIT;
    *name = *salt = NULL;
    for (; i < a->n;) {
        if (is(a, i, "as")) {
            i++;
            free(*name);
            *name = phrase(a, &i);
        } else if (keyword(a, i) && !is(a, i, "salt") && str_iprefix(line, "new ")) {
            i += 2; /* NEW's own, read before: its options may follow AS */
        } else if (is(a, i, "salt")) {
            *salt = rest(a, i + 1);
            break;
        } else {
            answer(l, line, "\"%s\" is not understood here: write AS YourName, then SALT and any words", a->w[i]);
            goto bad;
        }
    }
    if (!*name) {
        char def[25];
        name_from_address(l->from, def);
        *name = xstrdup(def);
    }
    if (engine_check_name(*name, &err)) {
        answer(l, line, "%s: write AS and another name", err.buf);
        goto bad;
    }
    if (*salt && !seed_salt_ok(*salt, &err)) {
        answer(l, line, "%s", err.buf);
        goto bad;
    }
    strbuf_release(&err);
    return 0;
bad:
    free(*name);
    free(*salt);
    *name = *salt = NULL;
    strbuf_release(&err);
    return 1;
}

/* Opens a table: the game, its seats and terms (spec), its options filled
 * in (opts), the committed seed. */
static int open_table(struct lobby *l, const struct game_spec *spec, const cJSON *opts, int64_t rematch_of, int64_t *id,
                      char commitment[65])
{
    char *opts_text = jx_print(opts), now[32];
    uint64_t r;
    int64_t base;
    int rc;
    os_random(&r, sizeof(r));
    base = (int64_t)(r >> 1);
    seed_commitment(spec->ops->name, base, opts_text, commitment);
    utc_now(now);
    rc = engine_next_id(l->db, id) ||
         db_do(l->db,
               "INSERT INTO lobby_tables(id, module, seats, options, host_email, base_seed, seed_commitment, rematch_of,"
               " status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, nullif(?, 0), 'open', ?)",
               "IsissIsIs", *id, spec->ops->name, spec->seats, opts_text, l->from, base, commitment, rematch_of, now) ||
         game_spec_save_table(l->db, *id, spec);
    free(opts_text);
    return rc ? -1 : 0;
}

static int open_tables_of(sqlite3 *db, const char *addr, int64_t *n)
{
    return db_get_int64(db, n, "SELECT count(*) FROM lobby_tables WHERE host_email = ? AND status = 'open'", "s",
                        addr) < 0
               ? -1
               : 0;
}

/* NEW kalimambo [SEATS 4] [OPTION k=v ...] [DEADLINE 48h] [NMR bot] ... [AS Name] [SALT words]:
 * the terms are judge/gamespec.c's, as ngoma new takes them. */
static int cmd_new(struct lobby *l, const char *line, const struct args *a)
{
    int named = 0;
    const struct game_ops *ops = a->n > 1 ? game_named(a->w + 1, a->n - 1, &named) : NULL;
    struct strbuf err = STRBUF_INIT;
    struct game_spec spec = { 0 };
    cJSON *opts = NULL;
    char *name = NULL, *salt = NULL, commitment[65];
    int64_t id, open;
    int i = 1 + named, rc = 0, name_at = 0;
    void *probe;

    if (!may_create(l)) {
        answer(l, line, "on this ngoma only the addresses its host lists open games (setting lobby_creators);"
                        " JOIN one that is open (LIST shows them)");
        goto out;
    }
    if (!ops) {
        answer(l, line, "NEW takes a game: %s%s%s", a->n > 1 ? "there is no game here called " : "",
               a->n > 1 ? a->w[1] : "NEW kalimambo, for example (GAMES lists them)",
               a->n > 1 ? " (GAMES lists them: NEW takes a name, a title or its first letters)" : "");
        goto out;
    }
    if (open_tables_of(l->db, l->from, &open))
        goto fail;
    if (open >= OPEN_TABLES_EACH) {
        answer(l, line, "you host %lld games waiting for players already: START or LEAVE one first", (long long)open);
        goto out;
    }
    game_spec_init(&spec, ops);
    while (i < a->n && !is(a, i, "salt")) {
        if (is(a, i, "as")) {
            /* The name ends at the next keyword; terms may follow it. */
            if (!name_at)
                name_at = i;
            i++;
            free(phrase(a, &i));
        } else if (game_spec_word(a->w[i], SPEC_LOBBY) && i + 1 < a->n) {
            if (game_spec_set(&spec, a->w[i], a->w[i + 1], SPEC_LOBBY, &err)) {
                answer(l, line, "%s", err.buf);
                goto out;
            }
            i += 2;
        } else {
            struct strbuf usage = STRBUF_INIT;
            game_spec_usage(ops, SPEC_LOBBY, &usage);
            answer(l, line, "\"%s\" is not understood: write NEW %s %s [AS YourName] [SALT any words]", a->w[i],
                   ops->name, usage.buf);
            strbuf_release(&usage);
            goto out;
        }
    }
    if (game_spec_check(&spec, SPEC_LOBBY, &err)) {
        answer(l, line, "%s", err.buf);
        goto out;
    }
    if (name_and_salt(l, line, a, name_at ? name_at : i, &name, &salt))
        goto out;
    if (!(opts = engine_options_from(ops, spec.options, OPTIONS_LOBBY, &err))) {
        answer(l, line, "%s", err.buf);
        goto out;
    }
    /* The options must make a game: tried once, thrown away. */
    if (!(probe = ops->setup(opts, spec.seats, 1, &err))) {
        answer(l, line, "%s", err.buf);
        goto out;
    }
    ops->free(probe);
    if (open_table(l, &spec, opts, 0, &id, commitment) || seat_at(l, id, name, salt))
        goto fail;
    answer(l, line,
           "Game %lld (%s, %d seats) is open, and you sit in seat 1 as %s; you are its host. Others join with"
           " JOIN %lld AS TheirName; INVITE %lld friend@example.org mails a friend; START %lld starts it with"
           " bots in the empty seats. It starts by itself when every seat is taken.\n"
           "Seed commitment (SHA-256), published before the deal:\n  %s",
           (long long)id, ops->title, spec.seats, name, (long long)id, (long long)id, (long long)id, commitment);
    offer(l, "START %lld", (long long)id);
    goto out;
fail:
    rc = -1;
out:
    if (spec.ops)
        game_spec_release(&spec);
    cJSON_Delete(opts);
    free(name);
    free(salt);
    strbuf_release(&err);
    return rc;
}

/* A name nobody at table id has: name itself, else "Name 2", "Name 3"...
 * (within the 24 characters a name may have). 1 when none is free. */
static int free_name(sqlite3 *db, int64_t id, char **name)
{
    for (int k = 1; k <= GAME_MAX_SEATS + 1; k++) {
        char want[32];
        int64_t dup;
        if (k == 1)
            snprintf(want, sizeof(want), "%s", *name);
        else
            snprintf(want, sizeof(want), "%.21s %d", *name, k);
        if (db_get_int64(db, &dup, "SELECT count(*) FROM lobby_players WHERE table_id = ? AND name = ? COLLATE NOCASE",
                         "Is", id, want) < 0)
            return -1;
        if (!dup) {
            free(*name);
            *name = xstrdup(want);
            return 0;
        }
    }
    return 1;
}

/* Why a table could not start, said to its host with what fixes it (the
 * host who sent START reads it in her answer instead). */
static int tell_host_cannot_start(struct lobby *l, const struct table *t, const char *why)
{
    cJSON *d = cJSON_CreateObject(), *lines = cJSON_CreateArray(), *o = cJSON_CreateObject();
    struct strbuf text = STRBUF_INIT;
    int rc;
    strbuf_addf(&text, "%s. UNSEAT %lld Name frees a seat, START %lld tries again, LEAVE %lld closes the table.",
                why, (long long)t->id, (long long)t->id, (long long)t->id);
    cJSON_AddStringToObject(o, "text", "");
    add_prose(o, "body", text.buf);
    cJSON_AddItemToArray(lines, o);
    cJSON_AddItemToObject(d, "lines", lines);
    cJSON_AddStringToObject(d, "headline", "a game you host cannot start");
    rc = lobby_send(l->db, t->host, "lobby-notice", "lobby.txt", d, l->origin, false);
    cJSON_Delete(d);
    strbuf_release(&text);
    return rc;
}

/* A table's MINRELIABILITY and MINRATING: 1 when the joiner is below
 * either (said), 0 when she may join; an invitation lets her in. */
static int join_gate(struct lobby *l, const char *line, int64_t id)
{
    sqlite3_stmt *q = db_stmt(l->db,
                              "SELECT min_reliability, min_rating, module,"
                              " EXISTS (SELECT 1 FROM lobby_invites i WHERE i.table_id = t.id AND i.email = ?)"
                              " FROM lobby_tables t WHERE id = ?",
                              "sI", l->from, id);
    int min_rel = 0, min_rating = 0, rc, refused = 0;
    bool gate_rating = false, invited = false;
    char *module = NULL, *who;
    struct standing st;
    struct reliability r;
    if (!q)
        return -1;
    if ((rc = db_step(q)) == SQLITE_ROW) {
        min_rel = sqlite3_column_int(q, 0);
        gate_rating = sqlite3_column_type(q, 1) != SQLITE_NULL;
        min_rating = sqlite3_column_int(q, 1);
        module = db_col_text(q, 2);
        invited = sqlite3_column_int(q, 3) != 0;
    }
    db_finalize(q);
    if (rc != SQLITE_ROW) {
        free(module);
        return -1;
    }
    if (invited || (!min_rel && !gate_rating)) {
        free(module);
        return 0;
    }
    who = standing_person(l->db, l->from);
    if (standing_catch_up(l->db) || standing_rating(l->db, who, module, &st) ||
        standing_reliability(l->db, who, &r)) {
        free(who);
        free(module);
        return -1;
    }
    if (r.score < min_rel) {
        answer(l, line, "game %lld takes players of reliability %d or more, and yours is %d (PROFILE shows how it"
                        " is counted): ask its host for an INVITE, or JOIN a game without the limit (LIST shows them)",
               (long long)id, min_rel, r.score);
        refused = 1;
    } else if (gate_rating && st.shown < min_rating) {
        char shown[16];
        standing_shown(&st, shown);
        answer(l, line, "game %lld takes players rated %d or more, and your rating in it is %s%s: ask its host for an"
                        " INVITE, or JOIN a game without the limit (LIST shows them)",
               (long long)id, min_rating, shown, st.is_new ? " (fewer than 5 rated games)" : "");
        refused = 1;
    }
    free(who);
    free(module);
    return refused;
}

/* RATINGS kalimambo: the top 20 and where the asker stands. */
static int cmd_ratings(struct lobby *l, const char *line, const struct args *a)
{
    int named = 0;
    const struct game_ops *ops = a->n > 1 ? game_named(a->w + 1, a->n - 1, &named) : NULL;
    struct strbuf sb = STRBUF_INIT;
    char *me;
    if (a->n == 1) {
        /* Every game's leader, and the command for its whole table. */
        if (standing_catch_up(l->db))
            return -1;
        for (size_t i = 0; game_registry[i]; i++) {
            char *top = NULL;
            if (db_get_text(l->db, &top,
                            "SELECT n.player FROM player_ratings r JOIN people_names n ON n.address = r.address WHERE"
                            " r.module = ? ORDER BY r.games < ?, r.mu - 3 * r.sigma DESC LIMIT 1",
                            "si", game_registry[i]->name, STANDING_SHOWN_AFTER) < 0)
                return -1;
            strbuf_addf(&sb, "%s: %s%s. RATINGS %s shows its table.\n", game_registry[i]->title,
                        top ? "first is " : "nobody is rated yet", top ? top : "", game_registry[i]->name);
            free(top);
        }
        answer(l, line, "Ratings, game by game:\n%s", sb.buf);
        strbuf_release(&sb);
        return 0;
    }
    if (!ops) {
        answer(l, line, "RATINGS takes a game: there is no game here called %s (GAMES lists them; RATINGS alone"
                        " gives each game's first)", a->w[1]);
        return 0;
    }
    me = standing_person(l->db, l->from);
    if (standing_catch_up(l->db) || standing_ratings_text(l->db, ops->name, me, false, &sb)) {
        free(me);
        strbuf_release(&sb);
        return -1;
    }
    answer(l, line, "%s ratings:\n%s", ops->title, sb.buf);
    free(me);
    strbuf_release(&sb);
    return 0;
}

/* PROFILE [address or name]: ratings, reliability and games. */
static int cmd_profile(struct lobby *l, const char *line, const struct args *a)
{
    struct strbuf sb = STRBUF_INIT;
    char *who, *asked = a->n > 1 ? rest(a, 1) : NULL;
    if (standing_catch_up(l->db)) {
        free(asked);
        return -1;
    }
    who = asked ? standing_find(l->db, asked) : standing_person(l->db, l->from);
    if (!who) {
        answer(l, line, "nobody called or at \"%s\" has played here: PROFILE alone shows yours", asked);
        free(asked);
        return 0;
    }
    if (standing_profile_text(l->db, who, false, &sb)) {
        free(who);
        free(asked);
        strbuf_release(&sb);
        return -1;
    }
    strbuf_trim(&sb);
    answer(l, line, "%s", sb.buf);
    free(who);
    free(asked);
    strbuf_release(&sb);
    return 0;
}

/* JOIN 12 [AS Name] [SALT words] */
static int cmd_join(struct lobby *l, const char *line, const struct args *a)
{
    char *name = NULL, *salt = NULL, *invited = NULL;
    struct table t;
    int rc;
    int64_t id, dup;
    bool named = false;
    struct strbuf note = STRBUF_INIT;
    if ((rc = open_table_named(l, line, a, false, "JOIN takes a game's number: JOIN 12 AS YourName (LIST shows the"
                                                  " open ones)", " (it has started)", &t)) <= 0)
        return rc;
    id = t.id;
    if (db_get_int64(l->db, &dup, "SELECT count(*) FROM lobby_players WHERE table_id = ? AND email = ?", "Is", id,
                     l->from) < 0)
        return -1;
    if (dup) {
        answer(l, line, "you sit at game %lld already", (long long)id);
        return 0;
    }
    if (t.taken >= t.seats) {
        answer(l, line, "every seat of game %lld is taken: it waits for its host to start it", (long long)id);
        return 0;
    }
    if ((rc = join_gate(l, line, id)) != 0)
        return rc < 0 ? -1 : 0;
    if (name_and_salt(l, line, a, 2, &name, &salt))
        return 0;
    for (int i = 2; i < a->n && !is(a, i, "salt"); i++)
        named |= is(a, i, "as");
    if (!named) {
        /* A rematch keeps her name when she gives none, if it is still a
         * name; else her address names her. */
        struct strbuf err = STRBUF_INIT;
        if (db_get_text(l->db, &invited, "SELECT name FROM lobby_invites WHERE table_id = ? AND email = ?", "Is",
                        id, l->from) < 0) {
            strbuf_release(&err);
            goto fail;
        }
        if (invited && *invited && !engine_check_name(invited, &err)) {
            free(name);
            name = invited;
            invited = NULL;
        }
        free(invited);
        strbuf_release(&err);
        /* A name she did not choose is made free if it is taken. */
        if ((rc = free_name(l->db, id, &name)) < 0)
            goto fail;
    } else {
        if (db_get_int64(l->db, &dup,
                         "SELECT count(*) FROM lobby_players WHERE table_id = ? AND name = ? COLLATE NOCASE", "Is", id,
                         name) < 0)
            goto fail;
        rc = dup ? 1 : 0;
    }
    if (rc) {
        answer(l, line, "someone at game %lld is called %s already: write JOIN %lld AS AnotherName", (long long)id,
               name, (long long)id);
        goto done;
    }
    if (seat_at(l, id, name, salt))
        goto fail;
    if (t.taken + 1 >= t.seats) {
        if ((rc = start_table(l->db, id, false, "bot", &note)) < 0)
            goto fail;
        if (rc == 1 && !str_ieq(t.host, l->from) && tell_host_cannot_start(l, &t, note.buf))
            goto fail;
        answer(l, line, "You sit at game %lld as %s, in seat %d: the last one. %s%s", (long long)id, name,
               t.taken + 1, note.buf, rc == 1 ? ". Its host is told what fixes it." : "");
    } else {
        answer(l, line, "You sit at game %lld as %s, in seat %d of %d. It starts when every seat is taken, or"
                        " when its host sends START %lld.",
               (long long)id, name, t.taken + 1, t.seats, (long long)id);
    }
done:
    free(name);
    free(salt);
    strbuf_release(&note);
    return 0;
fail:
    free(name);
    free(salt);
    strbuf_release(&note);
    return -1;
}

/* The seats of table id close up in the order they were taken (1, 2, ...). */
static int close_up(sqlite3 *db, int64_t id)
{
    /* Through positions above any in use, so that no two rows ever share one. */
    return db_do(db,
                 "UPDATE lobby_players SET position = r.n + 1000 FROM (SELECT rowid AS rid, row_number() OVER (ORDER"
                 " BY position) AS n FROM lobby_players WHERE table_id = ?) AS r WHERE lobby_players.rowid = r.rid",
                 "I", id) ||
                   db_do(db, "UPDATE lobby_players SET position = position - 1000 WHERE table_id = ?", "I", id)
               ? -1
               : 0;
}

/* Tells the players still at a closed table, once each. */
static int tell_closed(struct lobby *l, int64_t id)
{
    sqlite3_stmt *q = db_stmt(l->db, "SELECT email FROM lobby_players WHERE table_id = ? AND email <> 'bot'", "I", id);
    struct strlist to = STRLIST_INIT;
    int rc = 0;
    if (!q)
        return -1;
    while (db_step(q) == SQLITE_ROW)
        strlist_push(&to, (const char *)sqlite3_column_text(q, 0));
    db_finalize(q);
    for (size_t i = 0; i < to.n && !rc; i++) {
        cJSON *d = cJSON_CreateObject(), *lines = cJSON_CreateArray(), *o = cJSON_CreateObject();
        char text[200];
        snprintf(text, sizeof(text), "Game %lld will not start: its host (%s) left it.", (long long)id, l->from);
        cJSON_AddStringToObject(o, "text", "");
        cJSON_AddStringToObject(o, "body", text);
        cJSON_AddItemToArray(lines, o);
        cJSON_AddItemToObject(d, "lines", lines);
        cJSON_AddStringToObject(d, "headline", "a game you joined is closed");
        rc = lobby_send(l->db, to.v[i], "lobby-notice", "lobby.txt", d, l->origin, false);
        cJSON_Delete(d);
    }
    strlist_clear(&to);
    return rc;
}

/* LEAVE 12: before it starts; the host leaving closes it. */
static int cmd_leave(struct lobby *l, const char *line, const struct args *a)
{
    struct table t;
    int rc;
    int64_t id;
    if ((rc = open_table_named(l, line, a, false, "LEAVE takes a game's number: LEAVE 12",
                               ": a game that has started is left with RESIGN, by replying to one of its mails", &t)) <=
        0)
        return rc;
    id = t.id;
    if (db_do(l->db, "DELETE FROM lobby_players WHERE table_id = ? AND email = ?", "Is", id, l->from))
        return -1;
    if (!sqlite3_changes(l->db)) {
        answer(l, line, "you do not sit at game %lld", (long long)id);
        return 0;
    }
    if (str_ieq(t.host, l->from)) {
        if (db_do(l->db, "UPDATE lobby_tables SET status = 'closed' WHERE id = ?", "I", id) || tell_closed(l, id))
            return -1;
        answer(l, line, "You left game %lld, which you hosted: it is closed, and the others are told.", (long long)id);
        return 0;
    }
    if (close_up(l->db, id))
        return -1;
    answer(l, line, "You left game %lld.", (long long)id);
    return 0;
}

/* UNSEAT 12 Name: the host frees a seat before the start; its player is told. */
static int cmd_unseat(struct lobby *l, const char *line, const struct args *a)
{
    struct table t;
    char *email = NULL, *name;
    int rc, i = 2;
    if ((rc = open_table_named(l, line, a, false, "UNSEAT takes a game's number and a player's name: UNSEAT 12 Name",
                               ": a game that has started keeps its players (its host may REPLACE or KICK them)",
                               &t)) <= 0)
        return rc;
    if (!str_ieq(t.host, l->from)) {
        answer(l, line, "only the host of game %lld frees its seats (the address that opened it)", (long long)t.id);
        return 0;
    }
    name = phrase(a, &i);
    if (!*name) {
        answer(l, line, "UNSEAT takes the name of the player whose seat you free: UNSEAT %lld Name", (long long)t.id);
        free(name);
        return 0;
    }
    if ((rc = db_get_text(l->db, &email, "SELECT email FROM lobby_players WHERE table_id = ? AND name = ? COLLATE"
                                         " NOCASE", "Is", t.id, name)) < 0)
        goto fail;
    if (!rc) {
        answer(l, line, "nobody at game %lld is called %s (MYGAMES or LIST shows who sits there)", (long long)t.id,
               name);
        goto done;
    }
    if (str_ieq(email, l->from)) {
        answer(l, line, "that is your own seat: LEAVE %lld gives it back and closes the table", (long long)t.id);
        goto done;
    }
    if (db_do(l->db, "DELETE FROM lobby_players WHERE table_id = ? AND name = ? COLLATE NOCASE", "Is", t.id, name) ||
        close_up(l->db, t.id))
        goto fail;
    if (!str_eq(email, "bot")) {
        cJSON *d = cJSON_CreateObject(), *lines = cJSON_CreateArray(), *o = cJSON_CreateObject();
        char text[200];
        snprintf(text, sizeof(text), "Your seat at game %lld was freed by its host (%.80s) before the start.",
                 (long long)t.id, l->from);
        cJSON_AddStringToObject(o, "text", "");
        add_prose(o, "body", text);
        cJSON_AddItemToArray(lines, o);
        cJSON_AddItemToObject(d, "lines", lines);
        cJSON_AddStringToObject(d, "headline", "your seat at a game was freed");
        rc = lobby_send(l->db, email, "lobby-notice", "lobby.txt", d, l->origin, false);
        cJSON_Delete(d);
        if (rc)
            goto fail;
    }
    answer(l, line, "%s no longer sits at game %lld%s.", name, (long long)t.id,
           str_eq(email, "bot") ? "" : ", and is told");
done:
    free(name);
    free(email);
    return 0;
fail:
    free(name);
    free(email);
    return -1;
}

/* START 12 [BOT:EASY|BOT:STRONG]: the host starts it, bots (of that
 * level; plain: the host's default) in the empty seats. */
static int cmd_start(struct lobby *l, const char *line, const struct args *a)
{
    struct table t;
    int rc;
    int64_t id;
    struct strbuf note = STRBUF_INIT;
    if ((rc = open_table_named(l, line, a, false,
                               "START takes a game's number, and the bots' level if you like: START 12, START 12"
                               " BOT:EASY or START 12 BOT:STRONG",
                               "", &t)) <= 0)
        return rc;
    id = t.id;
    if (a->n > 3 || (a->n == 3 && !engine_bot_word(a->w[2]))) {
        answer(l, line, "START takes a game's number, and the bots' level if you like: START %lld, START %lld"
                        " BOT:EASY or START %lld BOT:STRONG", (long long)id, (long long)id, (long long)id);
        return 0;
    }
    if (!str_ieq(t.host, l->from)) {
        answer(l, line, "only the host of game %lld starts it (the address that opened it)", (long long)id);
        return 0;
    }
    if ((rc = start_table(l->db, id, true, a->n == 3 ? a->w[2] : "bot", &note)) < 0) {
        strbuf_release(&note);
        return -1;
    }
    if (rc == 1)
        answer(l, line, "%s. UNSEAT %lld Name frees a seat, LEAVE %lld closes the table.", note.buf, (long long)id,
               (long long)id);
    else
        answer(l, line, "%s%s%s%s", note.buf, t.taken < t.seats ? " Bots (" : "",
               t.taken < t.seats ? engine_bot_level(l->db, a->n == 3 ? a->w[2] : "bot") : "",
               t.taken < t.seats ? ") play the empty seats." : "");
    strbuf_release(&note);
    return 0;
}

/* What became of one invitation. */
enum invited { INVITE_SENT, INVITE_LATELY, INVITE_BUDGET };

/* Mails one invitation, within the limits every path shares: the sender's
 * one budget for third parties (invites_per_hour), one invitation from her
 * to an invitee a day (whatever the table), one an invitee and game, and
 * for an address that never confirmed one unsolicited mail a month,
 * whoever asks. */
static int invite(struct lobby *l, int64_t id, const char *to, const char *name, const char *inviter_name,
                  enum invited *how)
{
    int64_t before, lately = 0, confirmed, left, from_her;
    char now[32], since[32], *token;
    cJSON *d;
    int rc;
    *how = INVITE_LATELY;
    utc_format(clock_now() - INVITE_AGAIN, since);
    if (third_party_budget(l, &left) ||
        db_get_int64(l->db, &before, "SELECT count(*) FROM lobby_invites WHERE table_id = ? AND email = ?", "Is", id,
                     to) < 0 ||
        db_get_int64(l->db, &from_her,
                     "SELECT count(*) FROM lobby_invites WHERE email = ? AND inviter = ? COLLATE NOCASE AND sent_at > ?",
                     "sss", to, l->from, since) < 0 ||
        db_get_int64(l->db, &confirmed, "SELECT count(*) FROM lobby_addresses WHERE address = ? AND confirmed_at IS"
                                        " NOT NULL", "s", to) < 0 ||
        (!confirmed && limit_unsolicited(l->db, to, QUIET, &lately)))
        return -1;
    if (left <= 0) {
        *how = INVITE_BUDGET;
        return 0;
    }
    if (before || from_her || lately)
        return 0;
    token = secret_new(TOKEN_LEN);
    utc_now(now);
    d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "game", (double)id);
    cJSON_AddStringToObject(d, "inviter", inviter_name);
    cJSON_AddStringToObject(d, "token", token);
    if (name)
        cJSON_AddStringToObject(d, "name", name);
    {
        char *module = NULL;
        struct strbuf intro = STRBUF_INIT;
        if (db_get_text(l->db, &module, "SELECT module FROM lobby_tables WHERE id = ?", "I", id) > 0) {
            const struct game_ops *ops = game_find(module);
            cJSON_AddStringToObject(d, "title", ops ? ops->title : module);
            strbuf_addf(&intro, "%s (%s) invites you to %s game %lld. %s", inviter_name, l->from,
                        ops ? ops->title : module, (long long)id, ops ? ops->summary : "");
            add_prose(d, "intro", intro.buf);
        }
        strbuf_release(&intro);
        free(module);
    }
    rc = db_do(l->db, "INSERT INTO lobby_invites(table_id, email, inviter, token, name, sent_at) VALUES (?, ?, ?, ?, ?,"
                      " ?)", "Isssss", id, to, l->from, token, name, now) ||
         lobby_send(l->db, to, "invite", "lobby-invite.txt", d, l->origin, false);
    if (rc == 0)
        *how = INVITE_SENT;
    cJSON_Delete(d);
    free(token);
    return rc ? -1 : 0;
}

/* The answer for an invitation that did not go. */
static void not_invited(struct lobby *l, const char *line, const char *to, int64_t id, enum invited how)
{
    if (how == INVITE_BUDGET)
        answer(l, line, "%s is not invited: your mails caused %lld mails to others in the last hour, the most this"
                        " ngoma sends for one address; try again later, or tell %s to JOIN %lld",
               to, setting_get_int(l->db, "invites_per_hour", 5), to, (long long)id);
    else
        answer(l, line, "%s was invited lately already: no second mail goes (JOIN %lld works for %s all the same)", to,
               (long long)id, to);
}

/* INVITE 12 friend@example.org */
static int cmd_invite(struct lobby *l, const char *line, const struct args *a)
{
    char *me = NULL, *to = NULL;
    struct table t;
    int rc;
    int64_t id;
    struct strbuf err = STRBUF_INIT;
    enum invited how;
    if ((rc = open_table_named(l, line, a, true, "INVITE takes a game's number and one address: INVITE 12"
                                                 " friend@example.org", "", &t)) <= 0)
        return rc;
    id = t.id;
    if ((rc = db_get_text(l->db, &me, "SELECT name FROM lobby_players WHERE table_id = ? AND email = ?", "Is", id,
                          l->from)) < 0)
        return -1;
    if (!rc) {
        answer(l, line, "only the players at game %lld invite to it", (long long)id);
        return 0;
    }
    if (address_check(a->w[2], "the invitation", &err)) {
        answer(l, line, "%s", err.buf);
        goto out;
    }
    /* One address however it is written: Carol@ and carol@ share the limits. */
    to = str_lower(xstrdup(a->w[2]));
    if (invite(l, id, to, NULL, me, &how))
        goto fail;
    if (how == INVITE_SENT)
        answer(l, line, "%s is invited to game %lld: one mail, saying you asked.", to, (long long)id);
    else
        not_invited(l, line, to, id, how);
out:
    free(me);
    free(to);
    strbuf_release(&err);
    return 0;
fail:
    free(me);
    free(to);
    strbuf_release(&err);
    return -1;
}

/* WATCH 12 / UNWATCH 12 */
static int watch(struct lobby *l, const char *line, const struct args *a, bool on)
{
    int64_t id, n, exists, step = 0;
    char now[32];
    if (!game_number(a, 1, &id)) {
        answer(l, line, "%s takes a game's number: %s 12", on ? "WATCH" : "UNWATCH", on ? "WATCH" : "UNWATCH");
        return 0;
    }
    if (!on) {
        if (db_do(l->db, "DELETE FROM watchers WHERE game_id = ? AND email = ?", "Is", id, l->from))
            return -1;
        answer(l, line, sqlite3_changes(l->db) ? "You no longer watch game %lld." : "You did not watch game %lld.",
               (long long)id);
        return 0;
    }
    if (db_get_int64(l->db, &exists,
                     "SELECT (SELECT count(*) FROM games WHERE id = ?1) + (SELECT count(*) FROM lobby_tables WHERE"
                     " id = ?1 AND status = 'open')", "I", id) < 0 ||
        db_get_int64(l->db, &n, "SELECT count(*) FROM watchers WHERE game_id = ?", "I", id) < 0 ||
        db_get_int64(l->db, &step, "SELECT coalesce((SELECT turn FROM games WHERE id = ?), 0)", "I", id) < 0)
        return -1;
    if (!exists) {
        answer(l, line, "there is no game %lld to watch (LIST shows the open ones)", (long long)id);
        return 0;
    }
    if (n >= WATCHERS_EACH) {
        answer(l, line, "game %lld has %d watchers, the most a game has", (long long)id, WATCHERS_EACH);
        return 0;
    }
    if (db_get_int64(l->db, &n, "SELECT count(*) FROM watchers WHERE email = ? AND game_id <> ?", "sI", l->from, id) <
        0)
        return -1;
    if (n >= WATCHING_EACH) {
        answer(l, line, "you watch %d games already, the most one address watches: UNWATCH one first",
               WATCHING_EACH);
        return 0;
    }
    utc_now(now);
    if (db_do(l->db, "INSERT OR IGNORE INTO watchers(game_id, email, told_step, told_when, since) VALUES (?, ?, ?, 0, ?)",
              "IsIs", id, l->from, step, now))
        return -1;
    answer(l, line,
           "You watch game %lld: a mail each round (turn, move) with what happened, as an observer sees it (no"
           " player's secrets), and one at the end. UNWATCH %lld stops them.",
           (long long)id, (long long)id);
    return 0;
}

static int cmd_watch(struct lobby *l, const char *line, const struct args *a)
{
    return watch(l, line, a, true);
}

static int cmd_unwatch(struct lobby *l, const char *line, const struct args *a)
{
    return watch(l, line, a, false);
}

/* REMATCH 12: the same game, the same players, a new deal. */
static int cmd_rematch(struct lobby *l, const char *line, const struct args *a)
{
    struct game_rec g;
    int64_t id, nid, open;
    char commitment[65];
    int me = -1, humans = 0, rc = 0;
    struct strbuf note = STRBUF_INIT, uninvited = STRBUF_INIT;
    if (!game_number(a, 1, &id) || a->n > 3 || (a->n == 3 && !engine_bot_word(a->w[2]))) {
        answer(l, line, "REMATCH takes the number of a game you played, and its bots' level if it should change:"
                        " REMATCH 12, or REMATCH 12 BOT:EASY or BOT:STRONG");
        return 0;
    }
    if (db_get_int64(l->db, &open, "SELECT count(*) FROM games WHERE id = ?", "I", id) < 0)
        return -1;
    if (!open) {
        answer(l, line, "there is no game %lld", (long long)id);
        return 0;
    }
    if (game_load(l->db, id, &g))
        return -1;
    for (int s = 0; s < g.nseats; s++)
        if (str_ieq(g.seats[s].email, l->from))
            me = s;
    if (me < 0 || !str_eq(g.status, "finished")) {
        answer(l, line, me < 0 ? "only the players of game %lld ask for its rematch" : "game %lld is not over yet",
               (long long)id);
        goto out;
    }
    /* One rematch waiting at a time: asked again (by her, or by another
     * player of the game), it is the one to join. */
    if (db_get_int64(l->db, &open, "SELECT coalesce(max(id), 0) FROM lobby_tables WHERE rematch_of = ? AND status ="
                                   " 'open'", "I", id) < 0)
        goto fail;
    if (open) {
        answer(l, line, "the rematch of game %lld is game %lld already, waiting for its players: JOIN %lld takes your"
                        " seat in it, LIST shows who is in", (long long)id, (long long)open, (long long)open);
        goto out;
    }
    if (open_tables_of(l->db, l->from, &open))
        goto fail;
    if (open >= OPEN_TABLES_EACH) {
        answer(l, line, "you host %lld games waiting for players already", (long long)open);
        goto out;
    }
    {
        struct game_spec spec;
        game_spec_init(&spec, g.ops);
        rc = game_spec_load_game(l->db, &g, &spec) || open_table(l, &spec, g.options, id, &nid, commitment);
        game_spec_release(&spec);
        if (rc)
            goto fail;
    }
    /* Seated in the order they sat: she at once, bots at once, the others
     * when they accept the invitation each gets. */
    if (seat_at(l, nid, game_person(&g, me), NULL))
        goto fail;
    for (int s = 0; s < g.nseats; s++) {
        if (s == me)
            continue;
        if (g.seats[s].bot) {
            char now[32];
            utc_now(now);
            if (db_do(l->db,
                      "INSERT INTO lobby_players(table_id, position, name, email, joined_at, bot_level) VALUES (?,"
                      " (SELECT coalesce(max(position), 0) + 1 FROM lobby_players WHERE table_id = ?), ?, 'bot', ?, ?)",
                      "IIsss", nid, nid, game_person(&g, s), now,
                      a->n == 3 ? engine_bot_level(l->db, a->w[2]) : g.seats[s].bot_level))
                goto fail;
        } else {
            enum invited how;
            humans++;
            if (invite(l, nid, g.seats[s].email, game_person(&g, s), game_person(&g, me), &how))
                goto fail;
            if (how != INVITE_SENT)
                strbuf_addf(&uninvited, "%s%s", uninvited.len ? ", " : "", game_person(&g, s));
        }
    }
    if (!humans) {
        if ((rc = start_table(l->db, nid, false, "bot", &note)) < 0)
            goto fail;
        answer(l, line, "The rematch of game %lld is game %lld. %s", (long long)id, (long long)nid, note.buf);
    } else {
        answer(l, line,
               "The rematch of game %lld is game %lld: you sit in it as %s, and the %d other player%s of game %lld"
               " %s invited (each JOINs it); it starts when all are in, or at START %lld.%s%s%s\n"
               "Seed commitment (SHA-256), published before the deal:\n  %s",
               (long long)id, (long long)nid, game_person(&g, me), humans, humans == 1 ? "" : "s", (long long)id,
               humans == 1 ? "is" : "are", (long long)nid,
               uninvited.len ? " No invitation went to " : "", uninvited.buf,
               uninvited.len ? " (invited lately, or over the mails one address may cause in an hour): they may"
                               " JOIN it all the same." : "",
               commitment);
    }
out:
    strbuf_release(&note);
    strbuf_release(&uninvited);
    game_unload(&g);
    return 0;
fail:
    strbuf_release(&note);
    strbuf_release(&uninvited);
    game_unload(&g);
    return -1;
}

/* AGREE 12: a player agrees to what game 12's opener asks (a pause, more
 * time for the step); done when every other player has. */
static int cmd_agree(struct lobby *l, const char *line, const struct args *a)
{
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    const char *what = NULL;
    long secs = 0;
    int64_t id, n;
    int rc;
    if (!game_number(a, 1, &id) || a->n != 2) {
        answer(l, line, "AGREE takes the number of a game you play in: AGREE 12");
        return 0;
    }
    if (db_get_int64(l->db, &n, "SELECT count(*) FROM games WHERE id = ?", "I", id) < 0)
        return -1;
    if (!n) {
        answer(l, line, "there is no game %lld: MYGAMES lists yours", (long long)id);
        return 0;
    }
    if (game_load(l->db, id, &g))
        return -1;
    rc = consent_agree(l->db, &g, l->from, &what, &secs, &out);
    if (rc == 2) {
        strbuf_reset(&out);
        strbuf_addstr(&out, "Every player agreed. ");
        rc = host_consented(l->db, &g, what, secs, &out);
    }
    if (rc >= 0)
        answer(l, line, "%s", out.buf);
    strbuf_release(&out);
    game_unload(&g);
    return rc < 0 ? -1 : 0;
}

/* TAKE 12 Beta [AS YourName]: a seat of a running game that a bot plays
 * since its player left, taken over by a confirmed player new to the
 * game, within the gates its table was opened with. */
static int cmd_take(struct lobby *l, const char *line, const struct args *a)
{
    int64_t id, table;
    int i = 2, rc;
    char *seat = NULL, *name = NULL, *salt = NULL;
    struct strbuf out = STRBUF_INIT;
    if (!game_number(a, 1, &id) || a->n < 3 || is(a, 2, "as")) {
        answer(l, line, "TAKE takes a game's number and a seat: TAKE 12 Beta AS YourName (LIST shows the seats to"
                        " take over)");
        return 0;
    }
    seat = phrase(a, &i);
    if (name_and_salt(l, line, a, i, &name, &salt))
        goto done;
    if (salt) {
        answer(l, line, "a seat taken over keeps its game's deal: write TAKE %lld %s AS YourName, without SALT",
               (long long)id, seat);
        goto done;
    }
    /* The gates of the table it began at, if it began at one. */
    if (db_get_int64(l->db, &table, "SELECT count(*) FROM lobby_tables WHERE id = ?", "I", id) < 0)
        goto fail;
    if (table && (rc = join_gate(l, line, id)) != 0) {
        if (rc < 0)
            goto fail;
        goto done;
    }
    if ((rc = takeover_take(l->db, id, seat, name, l->from, &out)) < 0)
        goto fail;
    answer(l, line, "%s", out.buf);
done:
    free(seat);
    free(name);
    free(salt);
    strbuf_release(&out);
    return 0;
fail:
    free(seat);
    free(name);
    free(salt);
    strbuf_release(&out);
    return -1;
}

/* MYGAMES: the sender's seats, open tables, hosted and watched games. */
static int cmd_mygames(struct lobby *l, const char *line, const struct args *a)
{
    struct strbuf sb = STRBUF_INIT;
    sqlite3_stmt *q;
    int rc, n = 0;
    (void)a;
    q = db_stmt(l->db,
                "SELECT g.id, g.module, g.status, s.seat, s.name, s.secret FROM seats s JOIN games g ON g.id ="
                " s.game_id WHERE s.email = ? AND s.bot = 0 ORDER BY g.status = 'finished', g.id DESC LIMIT 30",
                "s", l->from);
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        char *reply = mail_reply_address(l->db, sqlite3_column_int64(q, 0), sqlite3_column_int(q, 3),
                                         (const char *)sqlite3_column_text(q, 5));
        strbuf_addf(&sb, "Game %lld (%s, %s): you play %s, seat %d; your orders go to\n  %s\n",
                    (long long)sqlite3_column_int64(q, 0), sqlite3_column_text(q, 1), sqlite3_column_text(q, 2),
                    sqlite3_column_text(q, 4), sqlite3_column_int(q, 3), reply ? reply : "");
        free(reply);
        n++;
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    q = db_stmt(l->db,
                "SELECT t.id, t.module, p.name, t.host_email = ?1 FROM lobby_players p JOIN lobby_tables t ON t.id ="
                " p.table_id WHERE p.email = ?1 AND t.status = 'open' ORDER BY t.id",
                "s", l->from);
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        strbuf_addf(&sb, "Game %lld (%s) waits for players: you sit in it as %s%s.\n",
                    (long long)sqlite3_column_int64(q, 0), sqlite3_column_text(q, 1), sqlite3_column_text(q, 2),
                    sqlite3_column_int(q, 3) ? ", its host" : "");
        n++;
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    q = db_stmt(l->db, "SELECT game_id FROM watchers WHERE email = ? ORDER BY game_id", "s", l->from);
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        strbuf_addf(&sb, "You watch game %lld.\n", (long long)sqlite3_column_int64(q, 0));
        n++;
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    if (!n)
        strbuf_addstr(&sb, "You play, host and watch no game here. LIST shows the games waiting for players.");
    answer(l, line, "%s", sb.buf);
    strbuf_release(&sb);
    return 0;
}

/* CONFIRM TOKEN: said about the address; the token itself was read
 * before any command ran. */
static int cmd_confirm(struct lobby *l, const char *line, const struct args *a)
{
    (void)a;
    answer(l, line, l->confirmed ? "Your address is confirmed: NEW, JOIN, INVITE and WATCH work for it now."
                                 : "that is not the token ngoma mailed you");
    return 0;
}

/* DROP, in a reply to a confirmation: the commands that waited on its
 * token were dropped (before any command ran), not done. */
static int cmd_drop(struct lobby *l, const char *line, const struct args *a)
{
    (void)a;
    answer(l, line, l->set_id ? "Nothing that waited for your confirmation ran: those commands are dropped. Your"
                                " address is confirmed."
                              : "nothing waited on this mail's token (DROP answers a confirmation mail)");
    return 0;
}

/* ---- the command table ------------------------------------------------------ */

/* A command waits for a confirmed address when it opens, joins or changes
 * anything, or mails anybody but the sender. */
#define NEEDS_CONFIRMED 1u

struct lobby_command {
    const char *name;
    int (*run)(struct lobby *l, const char *line, const struct args *a);
    unsigned flags;
    const char *usage; /* as HELP shows it */
    const char *help;  /* one line */
};

static const struct lobby_command lobby_commands[] = {
    { "help", cmd_help, 0, "HELP", "this list" },
    { "games", cmd_games, 0, "GAMES", "the games this ngoma runs" },
    { "list", cmd_list, 0, "LIST", "the games waiting for players, their seats, options" },
    { "new", cmd_new, NEEDS_CONFIRMED,
      "NEW kalimambo [SEATS 4] [OPTION key=value] [DEADLINE 48h] [REMIND 24h,2h] [GRACE 12h] [NMR bot]"
      " [MINRELIABILITY 80] [MINRATING 400] [AS YourName] [SALT any words]",
      "open a game: you host it and sit in seat 1" },
    { "join", cmd_join, NEEDS_CONFIRMED, "JOIN 12 [AS YourName] [SALT any words]",
      "take a seat; the game starts when all are taken" },
    { "leave", cmd_leave, NEEDS_CONFIRMED, "LEAVE 12", "give your seat back before the game starts" },
    { "take", cmd_take, NEEDS_CONFIRMED, "TAKE 12 Beta [AS YourName]",
      "take over a seat a bot plays since its player left (LIST shows them)" },
    { "unseat", cmd_unseat, NEEDS_CONFIRMED, "UNSEAT 12 Name", "(its host) free a seat before the start" },
    { "start", cmd_start, NEEDS_CONFIRMED, "START 12 [BOT:EASY]", "(its host) start now, bots in the empty seats" },
    { "invite", cmd_invite, NEEDS_CONFIRMED, "INVITE 12 friend@example.org", "one mail to a friend, saying who asked" },
    { "watch", cmd_watch, NEEDS_CONFIRMED, "WATCH 12", "a mail each round, as an observer sees the game" },
    { "unwatch", cmd_unwatch, 0, "UNWATCH 12", "no more of those" },
    { "agree", cmd_agree, NEEDS_CONFIRMED, "AGREE 12",
      "agree to what the player who opened game 12 asks (a pause, more time)" },
    { "rematch", cmd_rematch, NEEDS_CONFIRMED, "REMATCH 12 [BOT:EASY]", "the same players, a new game (each is invited)" },
    { "mygames", cmd_mygames, 0, "MYGAMES", "your games, seats, open games and watched games" },
    { "ratings", cmd_ratings, 0, "RATINGS kalimambo", "a game's top 20 players by rating, and you" },
    { "profile", cmd_profile, NEEDS_CONFIRMED, "PROFILE [Name]", "your (or a player's) ratings, reliability, games" },
    { "confirm", cmd_confirm, 0, "CONFIRM token", "confirm your address (the token is in ngoma's mail)" },
    { "drop", cmd_drop, 0, "DROP", "(in a reply to a confirmation) confirm, but run nothing that waited" },
    { NULL, NULL, 0, NULL, NULL },
};

/* The command a line begins with, or NULL. */
static const struct lobby_command *command_of(const char *line)
{
    const char *w;
    size_t n = first_word(line ? line : "", &w);
    for (const struct lobby_command *c = lobby_commands; n && c->name; c++)
        if (strlen(c->name) == n && strncasecmp(w, c->name, n) == 0)
            return c;
    return NULL;
}

bool lobby_command_word(const char *text)
{
    return command_of(text) != NULL;
}

/* HELP's list: each usage, then its line (beside it when it fits). */
static void commands_help(struct strbuf *out)
{
    for (const struct lobby_command *c = lobby_commands; c->name; c++) {
        if (strlen(c->usage) <= 16) {
            strbuf_addf(out, "  %-16s %s\n", c->usage, c->help);
        } else {
            struct strbuf usage = STRBUF_INIT;
            strbuf_addstr(&usage, "  ");
            strbuf_add_flowed(&usage, c->usage, 6, 72);
            strbuf_addstr(out, usage.buf);
            strbuf_addf(out, "%19s%s\n", "", c->help);
            strbuf_release(&usage);
        }
    }
}

/* The names of the commands, "HELP, GAMES, ...", for the refusal. */
static void command_names(struct strbuf *out)
{
    for (const struct lobby_command *c = lobby_commands; c->name; c++) {
        strbuf_addstr(out, c == lobby_commands ? "" : ", ");
        for (const char *p = c->name; *p; p++)
            strbuf_addch(out, (char)toupper((unsigned char)*p));
    }
}

static int run_line(struct lobby *l, const char *line)
{
    const struct lobby_command *c = command_of(line);
    struct args a;
    int rc = 0;
    if (!c) {
        struct strbuf names = STRBUF_INIT;
        int64_t table = 0;
        if (db_get_int64(l->db, &table,
                         "SELECT coalesce(max(i.table_id), 0) FROM lobby_invites i JOIN lobby_tables t ON t.id ="
                         " i.table_id WHERE i.email = ? AND t.status = 'open' AND NOT EXISTS (SELECT 1 FROM"
                         " lobby_players p WHERE p.table_id = t.id AND p.email = i.email)",
                         "s", l->from) < 0)
            return -1;
        command_names(&names);
        {
            /* A command a letter or two off ("JION 1"): offered, with
             * the rest of the line as written. */
            const char *w;
            size_t n = first_word(line, &w), words = 1;
            const struct lobby_command *near = NULL;
            char word[24];
            bool letters = n > 0;
            /* A command is a word of letters and a few short words after
             * it: "Hello, I want to play" is prose, not a HELP mistyped. */
            for (size_t k = 0; k < n; k++)
                letters &= isalpha((unsigned char)w[k]) != 0;
            for (const char *p = line; *p; p++)
                words += *p == ' ';
            if (letters && words <= 5 && n < sizeof(word)) {
                const char *cmds[ARRAY_SIZE(lobby_commands)];
                size_t count = 0;
                int k;
                memcpy(word, w, n);
                word[n] = '\0';
                for (const struct lobby_command *lc = lobby_commands; lc->name; lc++)
                    cmds[count++] = lc->name;
                if ((k = order_nearest_word(word, cmds, count)) >= 0)
                    near = &lobby_commands[k];
            }
            if (near) {
                struct strbuf meant = STRBUF_INIT;
                for (const char *p = near->name; *p; p++)
                    strbuf_addch(&meant, (char)toupper((unsigned char)*p));
                strbuf_addstr(&meant, w + n);
                answer(l, line, "this is not a lobby command. Did you mean %s? Reply yes to do it, or write it as"
                                " you mean it (HELP lists the commands).", meant.buf);
                strbuf_release(&meant);
                strbuf_release(&names);
                return 0;
            }
        }
        if (table)
            answer(l, line, "this is not a lobby command. To take your seat at game %lld, to which you were invited,"
                            " write JOIN %lld (or JOIN %lld AS YourName). HELP lists the other commands.",
                   (long long)table, (long long)table, (long long)table);
        else
            answer(l, line, "this is not a lobby command: HELP lists them (%s)", names.buf);
        strbuf_release(&names);
        return 0;
    }
    if ((c->flags & NEEDS_CONFIRMED) && !l->confirmed) {
        l->wants_confirm = true;
        strbuf_addf(&l->waiting, "%s\n", line);
        answer(l, line, "waits until you confirm your address (see below); then it is done");
        return 0;
    }
    args_split(line, &a);
    rc = c->run(l, line, &a);
    free(a.buf);
    return rc;
}

/* ---- identity: the confirmation round trip ------------------------------- */

/* A token carried by the mail: "confirm TOKEN" or "join TOKEN" in its
 * subject, or a line CONFIRM TOKEN. */
static bool carries(const struct inbound_mail *in, const char *token)
{
    const char *s = in->m.subject ? in->m.subject : "";
    struct strlist lines = STRLIST_INIT;
    bool yes = strstr(s, token) != NULL;
    order_lines(in->e.orders, &lines);
    for (size_t i = 0; i < lines.n && !yes; i++)
        yes = str_iprefix(lines.v[i], "confirm ") && strstr(lines.v[i] + 8, token);
    strlist_clear(&lines);
    return yes;
}

/* Whether the sender's address is confirmed now (a token this mail
 * carries counts: the address's, an invitation's, or a waiting set's),
 * and which waiting set of commands, if any, this mail answers: that one
 * alone runs (l->set_id, l->set_commands). */
static int identity(struct lobby *l)
{
    sqlite3_stmt *q;
    char *token = NULL, now[32];
    bool confirmed = false;
    int rc;
    q = db_stmt(l->db, "SELECT token, confirmed_at IS NOT NULL FROM lobby_addresses WHERE address = ?", "s", l->from);
    if (!q)
        return -1;
    rc = db_step(q);
    if (rc == SQLITE_ROW) {
        token = db_col_text(q, 0);
        confirmed = sqlite3_column_int(q, 1) != 0;
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    l->confirmed = confirmed;
    if (!confirmed && token && carries(l->in, token))
        confirmed = true;
    /* A waiting set is bound to its own token: only the mail that carries
     * it runs it, and nothing else runs in its name. */
    q = db_stmt(l->db, "SELECT id, token, commands FROM lobby_pending WHERE address = ? ORDER BY id", "s", l->from);
    if (!q) {
        free(token);
        return -1;
    }
    while (!l->set_id && (rc = db_step(q)) == SQLITE_ROW)
        if (carries(l->in, (const char *)sqlite3_column_text(q, 1))) {
            l->set_id = sqlite3_column_int64(q, 0);
            l->set_commands = db_col_text(q, 2);
            confirmed = true;
        }
    db_finalize(q);
    {
        /* An invitation's token proves the invitee reads her mail too, and
         * says which game she answers. */
        q = db_stmt(l->db,
                    "SELECT i.token, i.table_id, t.status = 'open' FROM lobby_invites i JOIN lobby_tables t ON t.id ="
                    " i.table_id WHERE i.email = ?",
                    "s", l->from);
        if (!q) {
            free(token);
            return -1;
        }
        while (!l->invited_to && db_step(q) == SQLITE_ROW)
            if (carries(l->in, (const char *)sqlite3_column_text(q, 0))) {
                confirmed = true;
                if (sqlite3_column_int(q, 2))
                    l->invited_to = sqlite3_column_int64(q, 1);
            }
        db_finalize(q);
    }
    l->just_confirmed = confirmed && !l->confirmed;
    utc_now(now);
    if (l->just_confirmed) {
        char *fresh = token ? NULL : secret_new(TOKEN_LEN);
        rc = db_do(l->db,
                   "INSERT INTO lobby_addresses(address, token, token_sent_at, confirmed_at) VALUES (?, ?, ?, ?)"
                   " ON CONFLICT(address) DO UPDATE SET confirmed_at = coalesce(confirmed_at, excluded.confirmed_at)",
                   "ssss", l->from, token ? token : fresh, now, now);
        free(fresh);
        if (rc) {
            free(token);
            return -1;
        }
    }
    if (l->set_id && db_do(l->db, "DELETE FROM lobby_pending WHERE id = ?", "I", l->set_id)) {
        free(token);
        return -1;
    }
    l->confirmed = confirmed;
    free(token);
    return 0;
}

/* An unconfirmed address: the commands of this mail that wait (if any)
 * become a set of their own, under a token of its own, and one mail a
 * month at most carries a token (the set's, else the address's). */
static int ask_confirmation(struct lobby *l, char **token, bool *may_mail, bool *kept)
{
    int64_t lately, sets;
    char now[32], *fresh = secret_new(TOKEN_LEN);
    int rc;
    utc_now(now);
    *kept = false;
    if (limit_mails_to(l->db, l->from, "lobby", QUIET, &lately) ||
        db_get_int64(l->db, &sets, "SELECT count(*) FROM lobby_pending WHERE address = ?", "s", l->from) < 0) {
        free(fresh);
        return -1;
    }
    *may_mail = lately == 0;
    rc = db_do(l->db,
               "INSERT INTO lobby_addresses(address, token, token_sent_at) VALUES (?, ?, ?)"
               " ON CONFLICT(address) DO UPDATE SET token = CASE WHEN ? THEN excluded.token ELSE token END,"
               " token_sent_at = CASE WHEN ? THEN excluded.token_sent_at ELSE token_sent_at END",
               "sssii", l->from, fresh, now, *may_mail ? 1 : 0, *may_mail ? 1 : 0);
    free(fresh);
    if (rc)
        return -1;
    if (l->waiting.len && sets < PENDING_EACH) {
        char *set_token = secret_new(TOKEN_LEN);
        rc = db_do(l->db,
                   "INSERT INTO lobby_pending(address, token, commands, message_id, asked_at, mailed) VALUES (?, ?, ?,"
                   " ?, ?, ?)",
                   "sssssi", l->from, set_token, l->waiting.buf, l->in->message_id ? l->in->message_id : "", now,
                   *may_mail ? 1 : 0);
        if (rc) {
            free(set_token);
            return -1;
        }
        *kept = true;
        *token = set_token;
        return 0;
    }
    return db_get_text(l->db, token, "SELECT token FROM lobby_addresses WHERE address = ?", "s", l->from) < 0 ? -1 : 0;
}

/* Once an address is confirmed: the sets other mails from it left
 * waiting, each with the token that runs it (they never run unasked). */
static int other_waiting(struct lobby *l)
{
    sqlite3_stmt *q = db_stmt(l->db, "SELECT token, commands, asked_at FROM lobby_pending WHERE address = ? ORDER BY id",
                              "s", l->from);
    int rc;
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        struct strbuf what = STRBUF_INIT;
        const char *c = (const char *)sqlite3_column_text(q, 1);
        for (const char *p = c; *p; p++) {
            if (*p != '\n')
                strbuf_addch(&what, *p);
            else if (p[1])
                strbuf_addstr(&what, "; ");
        }
        strbuf_addf(&l->notes,
                    "Another mail from your address (%.16s UTC) asked for: %s. It did not run; a mail with the line"
                    " CONFIRM %s runs it.\n",
                    (const char *)sqlite3_column_text(q, 2), what.buf, (const char *)sqlite3_column_text(q, 0));
        strbuf_release(&what);
    }
    db_finalize(q);
    return rc < 0 ? -1 : 0;
}

int lobby_mail(sqlite3 *db, const struct inbound_mail *in, const struct mail_origin *origin, bool *answered,
               char *why, size_t n)
{
    struct lobby l = { 0 };
    struct strlist lines = STRLIST_INIT;
    struct strbuf err = STRBUF_INIT;
    char *token = NULL, *from = NULL, *mode = NULL;
    cJSON *d = NULL;
    bool drop = false;
    int greeted = 0;
    int rc = -1;

    *answered = false;
    l.db = db;
    l.in = in;
    l.origin = origin;
    strbuf_init(&l.notes);
    strbuf_init(&l.waiting);
    mode = setting_get(db, "lobby");
    l.mode = mode ? mode : "off";
    if (!in->m.from || address_check(in->m.from, "the sender", &err)) {
        snprintf(why, n, "lobby: the sender's address is not one ngoma writes to");
        rc = 0;
        goto out;
    }
    /* One identity however the address is written: Ann@ and ann@ are one. */
    l.from = from = str_lower(xstrdup(in->m.from));
    if (identity(&l))
        goto out;
    {
        struct strlist now_lines = STRLIST_INIT, all = STRLIST_INIT, words = STRLIST_INIT;
        order_lines(in->e.orders, &all);
        for (const struct lobby_command *c = lobby_commands; c->name; c++)
            strlist_push(&words, c->name);
        for (size_t i = 0; i < all.n; i++) {
            /* "Cheers, Ann", "thanks", "Ann": what people write around
             * commands, read as such. */
            if (!command_of(all.v[i]) && order_line_is_greeting(all.v[i], &words))
                greeted++;
            else
                strlist_push(&now_lines, all.v[i]);
        }
        if (now_lines.n == 1 && order_line_is_yes(now_lines.v[0])) {
            /* "yes" to our "Did you mean JOIN 1?": what it offered, when
             * it only reads or seats her. */
            char *offered = order_text_offered(in->e.orders);
            const struct lobby_command *c = offered ? command_of(offered) : NULL;
            if (c && (c->run == cmd_join || c->run == cmd_list || c->run == cmd_games || c->run == cmd_help ||
                      c->run == cmd_mygames || c->run == cmd_ratings || c->run == cmd_watch ||
                      c->run == cmd_profile)) {
                free(now_lines.v[0]);
                now_lines.v[0] = offered;
                offered = NULL;
            }
            free(offered);
        }
        strlist_clear(&all);
        strlist_clear(&words);
        for (size_t i = 0; i < now_lines.n; i++) {
            const struct lobby_command *c = command_of(now_lines.v[i]);
            drop |= c && c->run == cmd_drop;
        }
        /* What waited on this mail's token comes first, unless dropped. */
        if (l.set_commands && !drop)
            order_lines(l.set_commands, &lines);
        for (size_t i = 0; i < now_lines.n; i++)
            /* A reply that confirms may say "yes, it is me": only commands count. */
            if (!str_iprefix(now_lines.v[i], "confirm ") &&
                (!(l.just_confirmed || l.invited_to) || command_of(now_lines.v[i])))
                strlist_push(&lines, now_lines.v[i]);
        strlist_clear(&now_lines);
    }
    if (!lines.n && l.invited_to) {
        /* "I'm in!" in answer to an invitation: she takes her seat. */
        char join[32];
        snprintf(join, sizeof(join), "JOIN %lld", (long long)l.invited_to);
        strlist_push(&lines, join);
    }
    if (!lines.n && greeted && l.confirmed && !l.just_confirmed && !l.set_commands) {
        /* "Thanks!": nothing to do, and nothing to answer. */
        snprintf(why, n, "lobby: only a greeting: not answered");
        rc = 0;
        goto out;
    }
    if (!lines.n)
        strlist_push(&lines, l.just_confirmed ? "CONFIRM" : "HELP");
    if (l.confirmed) {
        /* Answers are rationed per address: one note, then silence. */
        bool ok;
        if (limit_may_mail(db, l.from, "lobby", "lobby_per_hour", &ok))
            goto out;
        if (!ok) {
            int64_t noted;
            if (limit_mails_to(db, l.from, "lobby-limit", 3600, &noted))
                goto out;
            if (!noted) {
                d = cJSON_CreateObject();
                cJSON_AddBoolToObject(d, "limit", true);
                cJSON_AddNumberToObject(d, "per_hour", (double)setting_get_int(db, "lobby_per_hour", 10));
                if (lobby_send(db, l.from, "lobby-limit", "lobby.txt", d, origin, true))
                    goto out;
                *answered = true;
            }
            snprintf(why, n, "lobby: over lobby_per_hour; nothing done%s", noted ? "" : " (told once)");
            rc = 0;
            goto out;
        }
    }
    l.lines = cJSON_CreateArray();
    for (size_t i = 0; i < lines.n && i < LOBBY_LINES; i++)
        if (run_line(&l, lines.v[i]))
            goto out;
    if (lines.n > LOBBY_LINES)
        strbuf_addf(&l.notes, "Only the first %d commands of a mail are taken.", LOBBY_LINES);
    if (l.just_confirmed && other_waiting(&l))
        goto out;
    d = cJSON_CreateObject();
    if (!l.confirmed) {
        bool may_mail, kept;
        if (ask_confirmation(&l, &token, &may_mail, &kept))
            goto out;
        if (!may_mail) {
            snprintf(why, n, "lobby: an unconfirmed address, mailed this month already: not answered%s",
                     kept ? " (its commands wait with a token of their own)" : "");
            rc = 0;
            goto out;
        }
        if (l.wants_confirm && !kept)
            strbuf_addf(&l.notes, "%d sets of commands wait for this address already: confirm it first.",
                        PENDING_EACH);
        cJSON_AddStringToObject(d, "token", token);
        cJSON_AddBoolToObject(d, "confirm", true);
        cJSON_AddBoolToObject(d, "waiting", kept);
        if (kept) {
            struct strbuf shown = STRBUF_INIT;
            for (const char *p = l.waiting.buf; *p; p++) {
                if (p == l.waiting.buf || p[-1] == '\n')
                    strbuf_addstr(&shown, "  ");
                strbuf_addch(&shown, *p);
            }
            reply_add_text(d, "waiting_lines", shown.buf);
            strbuf_release(&shown);
        }
    }
    cJSON_AddStringToObject(d, "to", l.from);
    {
        /* The first line says what the mail answers: "your NEW and INVITE". */
        struct strbuf head = STRBUF_INIT;
        size_t k = lines.n < LOBBY_LINES ? lines.n : LOBBY_LINES;
        for (size_t i = 0; i < k && i < 4; i++) {
            const struct lobby_command *c = command_of(lines.v[i]);
            strbuf_addstr(&head, i == 0 ? "the answer to your " : i + 1 == k || i == 3 ? " and " : ", ");
            if (!c)
                strbuf_addstr(&head, "mail");
            for (const char *ch = c ? c->name : ""; *ch; ch++)
                strbuf_addch(&head, (char)toupper((unsigned char)*ch));
        }
        if (k > 4)
            strbuf_addstr(&head, " ...");
        cJSON_AddStringToObject(d, "headline", head.buf);
        strbuf_release(&head);
    }
    cJSON_AddItemToObject(d, "lines", l.lines);
    l.lines = NULL;
    if (l.notes.len)
        reply_add_text(d, "notes", l.notes.buf);
    if (l.confirmed) {
        /* Then what any confirmed player may ask. */
        static const char *const always[] = { "LIST", "MYGAMES", "HELP" };
        for (size_t i = 0; i < ARRAY_SIZE(always); i++)
            if (!strlist_contains(&l.offers, always[i]))
                strlist_push(&l.offers, always[i]);
    }
    if (lobby_send_offering(db, l.from, "lobby", "lobby.txt", d, origin, true, &l.offers))
        goto out;
    *answered = true;
    snprintf(why, n, "lobby: %zu command(s) from %s%s%s", lines.n < LOBBY_LINES ? lines.n : LOBBY_LINES, l.from,
             l.confirmed ? "" : " (unconfirmed: asked to confirm)", drop && l.set_id ? " (what waited was dropped)" : "");
    rc = 0;
out:
    cJSON_Delete(d);
    cJSON_Delete(l.lines);
    strlist_clear(&lines);
    strbuf_release(&err);
    strbuf_release(&l.notes);
    strbuf_release(&l.waiting);
    strlist_clear(&l.offers);
    free(l.set_commands);
    free(token);
    free(from);
    free(mode);
    return rc;
}
