/* engine.c: the core of ngoma: creating games, taking orders, resolving steps when every order is in, and replaying. */
#include "core/engine.h"
#include "lib/cmdtab.h"
#include "core/agree.h"
#include "core/bot.h"
#include "core/search.h"
#include "core/seatlife.h"
#include "core/stuck.h"
#include "store/db.h"
#include "store/settings.h"
#include "core/history.h"
#include "core/options.h"
#include "core/seed.h"
#include "core/view.h"
#include "lib/address.h"
#include "lib/jsonx.h"
#include "lib/order_text.h"
#include "lib/paths.h"
#include "lib/rng.h"
#include "lib/template.h"
#include "lib/util.h"
#include "lib/words.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LEGAL_HINT "Send LEGAL for the list of legal orders."

/* ---- options and new games ---------------------------------------------- */

cJSON *engine_options(const struct game_ops *ops, const cJSON *given, struct strbuf *err)
{
    return engine_options_from(ops, given, OPTIONS_HOST, err);
}

/* The options players may set, for the answer that refuses one of the host's. */
static void players_options(const struct game_ops *ops, struct strbuf *out)
{
    int n = 0;
    for (const struct game_option *o = ops->options; o->key; o++)
        if (!(o->flags & OPTION_HOST))
            strbuf_addf(out, "%s%s", n++ ? ", " : "; players may set ", o->key);
    if (!n)
        strbuf_addf(out, "; players set none of %s's options", ops->title);
}

/* Whether the value of option o may come from `from`: the host's options
 * only from the shell (from a record, only at their default), a file only
 * by its name in seeds/ unless the host gives a path. */
static int option_allowed(const struct game_ops *ops, const struct game_option *o, const char *value,
                          enum option_source from, struct strbuf *err)
{
    if (from != OPTIONS_HOST && strlen(value) > OPTION_VALUE_MAX) {
        strbuf_addf(err, "option %s is %zu characters long: at most %d are taken", o->key, strlen(value),
                    OPTION_VALUE_MAX);
        return -1;
    }
    if (from == OPTIONS_LOBBY && (o->flags & OPTION_HOST)) {
        strbuf_addf(err, "option %s is set only by the host of this ngoma, at the shell (ngoma new --option %s=...)",
                    o->key, o->key);
        players_options(ops, err);
        return -1;
    }
    if (from == OPTIONS_RECORD && (o->flags & OPTION_HOST) && !str_eq(value, o->def)) {
        strbuf_addf(err, "the record sets option %s, which only the host sets (at the shell): verify --file opens"
                         " no file and takes no layout a record names; the host checks such a game with ngoma"
                         " verify GAME", o->key);
        return -1;
    }
    if ((o->flags & OPTION_FILE) && from != OPTIONS_HOST && !seed_name_ok(value)) {
        strbuf_addf(err, "option %s names a file of the seeds folder by its name alone (letters, digits, . - _),"
                         " not \"%.60s\"", o->key, value);
        return -1;
    }
    return 0;
}

/* The options every game takes beside its module's own, each stored only
 * when not at its default (so a game opened before one existed reads the
 * same, and its commitment with it). */
static const struct core_option {
    const char *key, *def, *values[5], *says;
} core_options[] = {
    { "rated", "yes", { "yes", "no" }, "yes (the game counts for the ratings, the default) or no" },
    { "press", "full", { "full", "public", "grey", "none" },
      "full (players write to any of the others, the default), public (only PRESS TO ALL), grey (press"
      " without its sender's name) or none (no press)" },
    { "anonymous", "no", { "no", "yes" },
      "no (the default) or yes (seats are known by titles, Alpha, Beta ..., until the game ends)" },
    { "takeover", "yes", { "yes", "no" },
      "yes (a seat a bot plays since its player was kicked may be taken over by a new player with TAKE in the"
      " lobby, the default) or no" },
    { NULL, NULL, { NULL }, NULL },
};

static const struct core_option *core_option_find(const char *key)
{
    for (const struct core_option *c = core_options; c->key; c++)
        if (str_ieq(c->key, key))
            return c;
    return NULL;
}

const char *engine_core_option(const cJSON *options, const char *key)
{
    const struct core_option *c = core_option_find(key);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(options, key);
    if (!c)
        return NULL;
    for (int i = 0; cJSON_IsString(v) && c->values[i]; i++)
        if (str_eq(c->values[i], v->valuestring))
            return c->values[i];
    return c->def;
}

/* The value of a core option as given, checked; NULL with why in err. */
static const char *core_option_value(const struct core_option *c, const cJSON *v, struct strbuf *err)
{
    for (int i = 0; cJSON_IsString(v) && c->values[i]; i++)
        if (str_ieq(c->values[i], v->valuestring))
            return c->values[i];
    strbuf_addf(err, "option %s takes %s", c->key, c->says);
    return NULL;
}

cJSON *engine_options_from(const struct game_ops *ops, const cJSON *given, enum option_source from,
                           struct strbuf *err)
{
    cJSON *opts = cJSON_CreateObject();
    const cJSON *v;

    cJSON_ArrayForEach(v, given) {
        const struct game_option *o = ops->options;
        if (core_option_find(v->string)) {
            if (!core_option_value(core_option_find(v->string), v, err))
                goto fail;
            continue;
        }
        while (o->key && !str_ieq(o->key, v->string))
            o++;
        if (!o->key) {
            strbuf_addf(err, "%s has no option \"%s\"", ops->title, v->string);
            if (ops->options[0].key) {
                strbuf_addstr(err, "; its options are:");
                for (o = ops->options; o->key; o++)
                    strbuf_addf(err, " %s", o->key);
            } else {
                strbuf_addstr(err, "; it has none of its own");
            }
            strbuf_addstr(err, "; every game takes");
            for (const struct core_option *c = core_options; c->key; c++)
                strbuf_addf(err, " %s", c->key);
            goto fail;
        }
        if (!cJSON_IsString(v)) {
            strbuf_addf(err, "option \"%s\" must be given as text", o->key);
            goto fail;
        }
        if (option_allowed(ops, o, v->valuestring, from, err))
            goto fail;
    }
    for (const struct game_option *o = ops->options; o->key; o++) {
        const cJSON *g = NULL;
        cJSON_ArrayForEach(v, given)
            if (str_ieq(o->key, v->string))
                g = v;
        cJSON_AddStringToObject(opts, o->key, g ? g->valuestring : o->def);
    }
    for (const struct core_option *c = core_options; c->key; c++) {
        const char *value = NULL;
        cJSON_ArrayForEach(v, given)
            if (str_ieq(c->key, v->string))
                value = core_option_value(c, v, err);
        if (value && !str_eq(value, c->def))
            cJSON_AddStringToObject(opts, c->key, value);
    }
    return opts;
fail:
    cJSON_Delete(opts);
    return NULL;
}

int engine_check_name(const char *name, struct strbuf *err)
{
    size_t len = strlen(name);
    if (len == 0 || len > 24) {
        strbuf_addf(err, "player name \"%s\" must have 1 to 24 characters", name);
        return -1;
    }
    for (const char *p = name; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (!isalnum(c) && c != ' ' && c != '-' && c != '_' && c != '.' && c != '\'') {
            strbuf_addf(err, "player name \"%s\" may hold only letters, digits, spaces and - _ . '", name);
            return -1;
        }
    }
    if (isdigit((unsigned char)name[0])) {
        strbuf_addf(err, "player name \"%s\" must not start with a digit (seat numbers do)", name);
        return -1;
    }
    return 0;
}

const char *engine_bot_word(const char *word)
{
    if (str_ieq(word, "bot"))
        return "";
    if (str_ieq(word, "bot:easy"))
        return "easy";
    if (str_ieq(word, "bot:strong"))
        return "strong";
    return NULL;
}

const char *engine_bot_level(sqlite3 *db, const char *word)
{
    const char *level = engine_bot_word(word);
    if (level && *level)
        return level;
    /* The host's default: strong unless set. */
    char *v = setting_get(db, "bot_level");
    bool easy = v && str_eq(v, "easy");
    free(v);
    return easy ? "easy" : "strong";
}

int engine_check_email(const char *email, struct strbuf *err)
{
    if (engine_bot_word(email))
        return 0;
    if (str_iprefix(email, "bot:")) {
        strbuf_addf(err, "\"%s\" is no bot: write bot (the host's level), bot:easy or bot:strong", email);
        return -1;
    }
    return address_check(email, "the player's address", err);
}

/* Stores one resolved step as a turn row; sets *turn_id. */
static int record_turn(sqlite3 *db, struct game_rec *g, const char *kind, const cJSON *orders,
                       const struct game_log *log, int64_t *turn_id)
{
    cJSON *state = g->ops->to_json(g->st), *view = g->ops->view_json(g->st, -1, &g->table);
    cJSON *priv = cJSON_CreateObject();
    char *state_text = jx_print(state), *view_text = jx_print(view), *orders_text = jx_print(orders), *priv_text;
    char now[32], when[128];
    struct game_when w;
    int rc;

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
               " when_number, when_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               "Iisssssssis", g->id, g->turn, kind, orders_text, log->pub.buf, priv_text, state_text, view_text, now,
               w.number, when);
    *turn_id = sqlite3_last_insert_rowid(db);
    cJSON_Delete(state);
    cJSON_Delete(view);
    cJSON_Delete(priv);
    free(state_text);
    free(view_text);
    free(orders_text);
    free(priv_text);
    return rc;
}

int engine_new(sqlite3 *db, const struct game_ops *ops, int nseats, const char *const *names,
               const char *const *emails, const cJSON *options, int64_t seed, bool seed_chosen, int64_t *id,
               struct strbuf *err)
{
    struct new_game ng = { ops, nseats, names, emails, options, seed, NULL, 0, seed_chosen };
    return engine_new_game(db, &ng, id, err);
}

int engine_next_id(sqlite3 *db, int64_t *id)
{
    return db_get_int64(db, id,
                        "SELECT max(coalesce((SELECT max(id) FROM games), 0), coalesce((SELECT max(id) FROM"
                        " lobby_tables), 0)) + 1",
                        NULL) < 0
               ? -1
               : 0;
}

const char *engine_seat_title(int seat)
{
    static const char *const titles[] = { "Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta" };
    return seat >= 0 && seat < (int)(sizeof(titles) / sizeof(titles[0])) ? titles[seat] : "Omega";
}

int engine_new_game(sqlite3 *db, const struct new_game *ng, int64_t *id, struct strbuf *err)
{
    const struct game_ops *ops = ng->ops;
    int nseats = ng->nseats;
    const char *const *names = ng->names, *const *emails = ng->emails;
    struct strlist seat_salts = STRLIST_INIT;
    int64_t seed;
    struct game_rec g;
    struct game_log log;
    cJSON *opts, *state, *empty, *salts;
    char *opts_text, *state_text, *salts_text, now[32], commitment[65];
    int64_t turn_id, want = ng->id;
    const char *seat_names[GAME_MAX_SEATS], *seat_emails[GAME_MAX_SEATS];
    int order[GAME_MAX_SEATS];
    bool anonymous;
    int rc = -1;

    if (nseats < ops->min_seats || nseats > ops->max_seats) {
        if (ops->min_seats == ops->max_seats)
            strbuf_addf(err, "%s needs exactly %d players, not %d", ops->title, ops->min_seats, nseats);
        else
            strbuf_addf(err, "%s needs %d to %d players, not %d", ops->title, ops->min_seats, ops->max_seats,
                        nseats);
        return -1;
    }
    for (int i = 0; i < nseats; i++) {
        if (engine_check_name(names[i], err) || engine_check_email(emails[i], err))
            return -1;
        for (int j = 0; j < i; j++)
            if (str_ieq(names[i], names[j])) {
                strbuf_addf(err, "two players are called \"%s\": names must differ", names[i]);
                return -1;
            }
    }
    if (!(opts = engine_options(ops, ng->options, err)))
        return -1;
    if (!want && engine_next_id(db, &want)) {
        cJSON_Delete(opts);
        return -1;
    }
    /* An anonymous game seats its players in an order drawn from the
     * secret seed, not the order they came in: who joined a table when
     * must not tell who is behind Alpha. */
    anonymous = str_eq(engine_core_option(opts, "anonymous"), "yes");
    for (int i = 0; i < nseats; i++)
        order[i] = i;
    if (anonymous) {
        struct rng r;
        rng_seed(&r, (uint64_t)ng->base_seed, 0x616e6f6e);
        rng_shuffle(&r, order, (size_t)nseats, sizeof(int));
    }
    for (int i = 0; i < nseats; i++) {
        seat_names[i] = names[order[i]];
        seat_emails[i] = emails[order[i]];
    }
    names = seat_names;
    emails = seat_emails;
    /* Exactly one salt a seat, "" where the player gave none: what verify
     * counts and what deals. */
    for (int i = 0; i < nseats; i++)
        strlist_push(&seat_salts, ng->salts && (size_t)order[i] < ng->salts->n ? ng->salts->v[order[i]] : "");
    seed = seed_deal(ng->base_seed, &seat_salts);
    memset(&g, 0, sizeof(g));
    g.ops = ops;
    g.st = ops->setup(opts, nseats, (uint64_t)seed, err);
    if (!g.st) {
        cJSON_Delete(opts);
        strlist_clear(&seat_salts);
        return -1;
    }
    g.nseats = nseats;
    /* An anonymous game knows its seats by their titles alone, from the
     * first step to the last and in its record; the names given are kept
     * apart (seats.real_name), told when it is over. */
    for (int i = 0; i < nseats; i++)
        g.names[i] = anonymous ? engine_seat_title(i) : names[i];
    g.table.nseats = nseats;
    g.table.names = g.names;

    state = ops->to_json(g.st);
    state_text = jx_print(state);
    opts_text = jx_print(opts);
    salts = cJSON_CreateArray();
    for (size_t i = 0; i < seat_salts.n; i++)
        cJSON_AddItemToArray(salts, cJSON_CreateString(seat_salts.v[i]));
    salts_text = jx_print(salts);
    cJSON_Delete(salts);
    /* Published before anything is dealt: the seed stays secret until
     * the end, its hash binds it (and the options) now. */
    seed_commitment(ops->name, ng->base_seed, opts_text, commitment);
    utc_now(now);
    if (db_do(db,
              "INSERT INTO games(id, module, options, seed, status, turn, state, created_at, updated_at,"
              " step_started_at, hidden_information, base_seed, seed_commitment, salts, seed_chosen)"
              " VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              "IssIsssssiIssi", want, ops->name, opts_text, seed, game_status_of(ops, g.st), state_text, now, now,
              now, game_hides_anything(ops) ? 1 : 0, ng->base_seed, commitment, salts_text, ng->seed_chosen ? 1 : 0))
        goto out;
    g.id = *id = want;
    for (int i = 0; i < nseats; i++) {
        char *secret = secret_new(10);
        bool bot = engine_bot_word(emails[i]) != NULL;
        int r = db_do(db,
                      "INSERT INTO seats(game_id, seat, name, email, secret, bot, real_name, bot_level) VALUES (?, ?, ?,"
                      " ?, ?, ?, ?, ?)",
                      "Iisssiss", g.id, i + 1, g.names[i], bot ? "bot" : emails[i], secret, bot ? 1 : 0,
                      anonymous ? names[i] : NULL, bot ? engine_bot_level(db, emails[i]) : NULL);
        free(secret);
        if (r)
            goto out;
    }
    if (seatlife_begin_game(db, g.id))
        goto out;
    game_log_init(&log);
    strbuf_addf(&log.pub, "A game of %s begins.\n", ops->title);
    empty = cJSON_CreateArray();
    rc = record_turn(db, &g, "setup", empty, &log, &turn_id);
    cJSON_Delete(empty);
    game_log_release(&log);
out:
    ops->free(g.st);
    cJSON_Delete(state);
    cJSON_Delete(opts);
    free(state_text);
    free(opts_text);
    free(salts_text);
    strlist_clear(&seat_salts);
    return rc;
}

/* ---- orders --------------------------------------------------------------- */

/* Stores one order line; turn_id 0 leaves it unlinked to a turn. */
/* Where the orders being stored came from: a source name and the mail row. */
struct origin {
    const char *source;
    int64_t message_row;
    const char *bot_level; /* the bot that chose it (easy, strong); NULL: a person */
};

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
        /* Who gave it, when not the player: a bot standing in, the
         * deadline's stand-in, or the core for a forced order. */
        if (sqlite3_column_text(st, 2) &&
            (str_eq((const char *)sqlite3_column_text(st, 2), "nmr") ||
             str_eq((const char *)sqlite3_column_text(st, 2), "forced")))
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
    if (record_turn(db, g, "orders", list, log, &turn_id) || save_after_turn(db, g, turn_id))
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

static void add_log(struct strbuf *body, const struct game_log *log, int seat)
{
    strbuf_addstr(body, log->pub.buf);
    if (log->priv[seat].len) {
        strbuf_complete_line(body);
        strbuf_addstr(body, log->priv[seat].buf);
    }
}

static void reject(struct line_result *l, const char *why)
{
    l->status = LINE_REJECTED;
    strbuf_addstr(&l->body, why);
}

/* The verbs (first words) of seat's legal orders now. */
static void verbs_of(const struct game_rec *g, int seat, struct strlist *verbs)
{
    struct strlist legal = STRLIST_INIT;
    g->ops->legal(g->st, seat, &g->table, &legal);
    for (size_t i = 0; i < legal.n; i++) {
        char *v = xstrndup(legal.v[i], strcspn(legal.v[i], " "));
        if (!strlist_contains(verbs, v))
            strlist_push(verbs, v);
        free(v);
    }
    strlist_clear(&legal);
}

/* Whether a line the game refused is a greeting or a sign-off. */
static bool greeting(const struct game_rec *g, int seat, const char *line)
{
    struct strlist verbs = STRLIST_INIT;
    bool yes;
    verbs_of(g, seat, &verbs);
    yes = order_line_is_greeting(line, &verbs);
    strlist_clear(&verbs);
    return yes;
}

/* The number a line ends with after its verb ("PLAY 4": 4), if it is
 * VERB NUMBER; the verb's length in *verb. */
static bool verb_number(const char *line, size_t *verb, long *n)
{
    const char *sp = strchr(line, ' ');
    char *end;
    if (!sp || sp == line)
        return false;
    *verb = (size_t)(sp - line);
    errno = 0;
    *n = strtol(sp + 1, &end, 10);
    return end != sp + 1 && !*end && !errno;
}

enum command { CMD_NONE, CMD_HELP, CMD_BOARD, CMD_LEGAL, CMD_HISTORY, CMD_RESIGN, CMD_VACATION, CMD_TIMEZONE, CMD_MAIL,
               CMD_IMAGES, CMD_DRAW, CMD_NODRAW, CMD_CONCEDE, CMD_NOCONCEDE };

/* The orders every game takes, one table (lib/cmdtab.h). */
#define ASKS 1u  /* it only asks: answered, nothing changes */
#define MEANT 2u /* a refused line whose word it is may mean it ("Draw please") */

static const struct common_row {
    struct cmdtab_row row;
    enum command cmd;
} common_rows[] = {
    { { "help", 0, 0, ASKS, "HELP", "the rules summary and how to write orders" }, CMD_HELP },
    { { "rules", 0, 0, ASKS, "RULES", "the same" }, CMD_HELP },
    { { "board", 0, 0, ASKS, "BOARD", "the board as you see it" }, CMD_BOARD },
    { { "show", 0, 0, ASKS, "SHOW", "the same" }, CMD_BOARD },
    { { "legal", 0, CMDTAB_ANY, ASKS, "LEGAL [order]", "your legal orders now" }, CMD_LEGAL },
    { { "history", 0, 0, ASKS, "HISTORY", "what happened so far" }, CMD_HISTORY },
    { { "resign", 0, 0, 0, "RESIGN", "leave the game" }, CMD_RESIGN },
    { { "draw", 0, 0, MEANT, "DRAW", "vote to end the game drawn" }, CMD_DRAW },
    { { "nodraw", 0, 0, 0, "NODRAW", "take that vote back" }, CMD_NODRAW },
    { { "no draw", 0, 0, 0, "NO DRAW", "the same" }, CMD_NODRAW },
    { { "concede", 0, 0, MEANT, "CONCEDE", "vote to end the game as it stands" }, CMD_CONCEDE },
    { { "noconcede", 0, 0, 0, "NOCONCEDE", "take that vote back" }, CMD_NOCONCEDE },
    { { "no concede", 0, 0, 0, "NO CONCEDE", "the same" }, CMD_NOCONCEDE },
    { { "mail", 0, CMDTAB_ANY, 0, "MAIL TURN|EVERY|DIGEST 1d", "when you are mailed" }, CMD_MAIL },
    { { "images", 0, CMDTAB_ANY, 0, "IMAGES ON|OFF", "pictures in your mails" }, CMD_IMAGES },
    { { "vacation", 0, CMDTAB_ANY, 0, "VACATION 7d|OFF", "no deadline for you until then" }, CMD_VACATION },
    { { "timezone", 0, CMDTAB_ANY, 0, "TIMEZONE Africa/Lagos", "the zone your times are in" }, CMD_TIMEZONE },
    { { NULL, 0, 0, 0, NULL, NULL }, CMD_NONE },
};

/* The common order a line is (its name, then as many words as it takes),
 * else NULL: a game's order. */
static const struct common_row *common_of(const char *line)
{
    const struct cmdtab_row *r = cmdtab_find(CMDTAB(common_rows), line);
    struct strbuf err = STRBUF_INIT;
    bool fits = r && !cmdtab_arity(r, cmdtab_args(r, line), "word", &err);
    strbuf_release(&err);
    return fits ? (const struct common_row *)r : NULL;
}

static enum command command_of(const char *line)
{
    const struct common_row *c = common_of(line);
    return c ? c->cmd : CMD_NONE;
}

bool engine_line_asks(const char *line)
{
    const struct common_row *c = common_of(line);
    return c && (c->row.flags & ASKS);
}

bool engine_line_is_command(const char *line)
{
    return command_of(line) != CMD_NONE;
}

/* The common order a line that is not one may mean: "Draw please",
 * "I concede" (a word of it is DRAW or CONCEDE, a letter off at most). */
static const char *common_meant(const char *line)
{
    const char *p = line;
    while (*p) {
        size_t n = strcspn(p, " ,.!?;:");
        char w[16];
        if (n && n < sizeof(w)) {
            memcpy(w, p, n);
            w[n] = '\0';
            for (const struct common_row *c = common_rows; c->row.name; c++)
                if ((c->row.flags & MEANT) && order_distance(w, c->row.name, n >= 5 ? 1 : 0) <= (n >= 5 ? 1u : 0u))
                    return c->row.usage;
        }
        p += n;
        while (*p && strchr(" ,.!?;:", *p))
            p++;
    }
    return NULL;
}

/* "Did you mean ...?": the legal orders nearest a refused line (a few
 * letters off; for VERB NUMBER, the nearest numbers), or the common
 * order its words name (DRAW, CONCEDE); never played for her. One
 * offered may be taken by a reply of yes. False when none is near. */
static bool near_orders(const struct game_rec *g, int seat, const char *line, struct strbuf *out)
{
    struct strlist legal = STRLIST_INIT, near = STRLIST_INIT;
    size_t len = strlen(line), limit = len / 5 > 2 ? len / 5 : 2, best = limit + 1, verb;
    long n;
    bool found;
    const char *common = common_meant(line);
    g->ops->legal(g->st, seat, &g->table, &legal);
    if (verb_number(line, &verb, &n)) {
        /* PLAY 4 with the 4 gone: PLAY 3 or PLAY 5, not PLAY 0. */
        long gap = -1;
        for (size_t i = 0; i < legal.n; i++) {
            size_t v;
            long m;
            if (!verb_number(legal.v[i], &v, &m) || v != verb || strncasecmp(line, legal.v[i], v) != 0)
                continue;
            if (gap < 0 || labs(m - n) < gap) {
                gap = labs(m - n);
                strlist_clear(&near);
            }
            if (labs(m - n) == gap && near.n < 3)
                strlist_push(&near, legal.v[i]);
        }
    }
    for (size_t i = 0, numbered = near.n > 0; i < legal.n && !numbered; i++) {
        size_t d = order_distance(line, legal.v[i], best < limit ? best : limit);
        if (d < best) {
            best = d;
            strlist_clear(&near);
        }
        if (d == best && d <= limit && near.n < 3)
            strlist_push(&near, legal.v[i]);
    }
    if (!near.n && common)
        strlist_push(&near, common);
    if (near.n) {
        strbuf_addstr(out, "Did you mean ");
        for (size_t i = 0; i < near.n; i++)
            strbuf_addf(out, "%s%s", i ? (i + 1 == near.n ? " or " : ", ") : "", near.v[i]);
        if (near.n == 1)
            strbuf_addstr(out, "? Reply yes to give it, or write it as you mean it; " LEGAL_HINT);
        else
            strbuf_addstr(out, "? Write it as you mean it; " LEGAL_HINT);
    }
    found = near.n > 0;
    strlist_clear(&legal);
    strlist_clear(&near);
    return found;
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
        strbuf_addstr(&why, "the game is over: no more orders are taken.");
    } else if (g->sched.paused) {
        strbuf_addstr(&why, "the game is paused by its host: no orders are taken until it resumes.");
    } else if (!(waiting & (1u << seat))) {
        strbuf_addstr(&why, "it is not your turn: the game waits for ");
        game_names_of(g, waiting, &why);
        strbuf_addch(&why, '.');
    } else if (g->ops->check(g->st, seat, &g->table, l->text, &canon, &why)) {
        strbuf_addstr(&why, ". ");
        if (!near_orders(g, seat, l->text, &why))
            strbuf_addstr(&why, LEGAL_HINT);
    } else {
        goto valid;
    }
    if (greeting(g, seat, l->text)) {
        /* "thanks, Ann": no order, and no refusal either. */
        l->status = LINE_GREETING;
        strbuf_addstr(&l->body, "Read as a greeting, not an order.");
        rc = 0;
        goto out;
    }
    reject(l, why.buf);
    rc = store_order(db, g, seat, g->turn + 1, l->text, NULL, "rejected", why.buf, o, 0);
    goto out;

valid:
    l->canonical = xstrdup(canon.buf);
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
            add_log(&l->body, &log, seat);
        } else if (!rc) {
            unsigned missing = 0;
            rc = game_missing(db, g, &missing);
            l->status = LINE_PENDING;
            if (replaced && !str_eq(replaced, canon.buf))
                strbuf_addf(&l->body, "Your order %s replaces %s; it stays secret until the step resolves.\n",
                            canon.buf, replaced);
            else if (replaced)
                strbuf_addf(&l->body, "Your order %s stands, as before; it stays secret until the step resolves.\n",
                            canon.buf);
            else
                strbuf_addf(&l->body, "Your order %s is recorded; it stays secret until the step resolves.\n",
                            canon.buf);
            strbuf_addstr(&l->body, "Still to come: ");
            game_names_of(g, missing, &l->body);
            strbuf_addstr(&l->body, ". You may replace yours until the last is in.");
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
    if (record_turn(db, g, "resign", list, &log, &turn_id) ||
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
static int end_turn(sqlite3 *db, struct game_rec *g, enum game_end how, unsigned winners, cJSON *item,
                    const char *head, struct strbuf *out)
{
    struct game_log log;
    cJSON *list = cJSON_CreateArray();
    struct game_result res;
    int64_t turn_id;
    int rc = -1;

    cJSON_AddItemToArray(list, item);
    g->ops->result(g->st, &res);
    if (res.finished) {
        strbuf_addstr(out, "the game is over already");
        cJSON_Delete(list);
        return 1;
    }
    game_log_init(&log);
    strbuf_addstr(&log.pub, head);
    if (db_do(db, "UPDATE orders SET status = 'superseded' WHERE game_id = ? AND status = 'pending'", "I", g->id))
        goto out;
    g->ops->end(g->st, how, winners, &g->table, &log);
    g->turn++;
    game_step_started(g);
    if (record_turn(db, g, "end", list, &log, &turn_id) || game_save(db, g))
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
    struct strbuf head = STRBUF_INIT;
    int rc;
    cJSON_AddStringToObject(item, "order", score ? "END SCORE" : "END ABANDON");
    cJSON_AddStringToObject(item, "reason", reason);
    strbuf_addf(&head, "The host ends the game%s: %s\n", score ? " and scores it as it stands" : "", reason);
    rc = end_turn(db, g, score ? GAME_END_SCORED : GAME_END_ABANDONED, 0, item, head.buf, out);
    strbuf_release(&head);
    return rc;
}

int engine_end_unpeopled(sqlite3 *db, struct game_rec *g, struct strbuf *out)
{
    struct game_result r;
    unsigned left = 0, dropped = 0;
    int64_t people;
    cJSON *item;
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
    rc = end_turn(db, g, GAME_END_SCORED, 0, item,
                  "No person is left in the game: it is scored as it stands, not played out by bots.\n", out);
    return rc < 0 ? -1 : rc == 0 ? 1 : 0;
}

/* What everyone reads when the players agree the end. */
static void agreed_log(const struct game_table *t, enum game_end how, unsigned winners, struct strbuf *out)
{
    struct strbuf names = STRBUF_INIT;
    int n = 0;
    for (int s = 0; s < t->nseats; s++)
        if (winners & (1u << s)) {
            n++;
            if (names.len)
                strbuf_addstr(&names, __builtin_popcount(winners >> (s + 1)) ? ", " : " and ");
            strbuf_addstr(&names, t->names[s]);
        }
    if (how == GAME_END_DRAWN)
        strbuf_addf(out, "The players agree to a draw: %s share%s it.\n", names.buf, n == 1 ? "s" : "");
    else
        strbuf_addf(out, "The others concede: %s win%s the game.\n", names.buf, n == 1 ? "s" : "");
    strbuf_release(&names);
}

int engine_end_agreed(sqlite3 *db, struct game_rec *g, enum game_end how, unsigned winners, struct strbuf *out)
{
    cJSON *item, *seats;
    struct strbuf head = STRBUF_INIT;
    int rc;
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
    agreed_log(&g->table, how, winners, &head);
    rc = end_turn(db, g, how, winners, item, head.buf, out);
    strbuf_release(&head);
    return rc;
}

/* ---- the generic commands ------------------------------------------------ */

/* Orders LEGAL lists one per line; a longer list is summed up by kind. */
#define LEGAL_LIST_MAX 40

/* LEGAL, or LEGAL FOOD: the orders (those beginning so) one per line, a
 * long list summed up by kind. */
static void legal_text(const struct game_rec *g, int seat, const char *filter, struct strbuf *out)
{
    struct strlist legal = STRLIST_INIT;
    options_orders(g, seat, filter, &legal);
    if (!legal.n && filter && *filter && g->ops->waiting_for(g->st) & (1u << seat)) {
        strbuf_addf(out, "None of your orders now begins with \"%s\"; LEGAL alone lists them all.", filter);
    } else if (legal.n > LEGAL_LIST_MAX) {
        strbuf_addf(out, "%zu legal orders now%s%s, by kind:\n", legal.n, filter && *filter ? " beginning " : "",
                    filter && *filter ? filter : "");
        options_text(g, seat, filter, 0, out);
        strbuf_addstr(out, "LEGAL and the first words of an order (LEGAL FOOD c4) lists those\n"
                           "orders one per line.");
    } else if (!legal.n) {
        unsigned waiting = g->ops->waiting_for(g->st);
        if (!waiting)
            strbuf_addstr(out, "The game is over: there are no legal orders.");
        else {
            strbuf_addstr(out, "You have no order to give now: the game waits for ");
            game_names_of(g, waiting, out);
            strbuf_addch(out, '.');
        }
    } else {
        strbuf_addf(out, "%zu legal order%s now:\n", legal.n, legal.n == 1 ? "" : "s");
        for (size_t i = 0; i < legal.n; i++)
            strbuf_addf(out, "%s\n", legal.v[i]);
    }
    if (g->ops->waiting_for(g->st) && !filter)
        /* What ends a game by agreement, given at any step. */
        strbuf_addstr(out, "\nAt any time: DRAW offers a draw, drawn when every player offers one; CONCEDE gives"
                           " the game up, ended when all but one concede; NODRAW and NOCONCEDE take yours back.");
    strlist_clear(&legal);
}

static void rules_text(const struct game_rec *g, struct strbuf *out)
{
    struct strbuf name = STRBUF_INIT, err = STRBUF_INIT;
    cJSON *data = cJSON_CreateObject();
    cJSON_AddStringToObject(data, "title", g->ops->title);
    strbuf_addf(&name, "rules/%s.txt", g->ops->name);
    if (template_render_file(name.buf, data, out, &err))
        strbuf_addf(out, "%s: %s\n(the rules summary is missing: %s)", g->ops->title, g->ops->summary, err.buf);
    cJSON_Delete(data);
    strbuf_release(&name);
    strbuf_release(&err);
}

#define MAX_VACATION (30L * 86400)

/* VACATION UNTIL 2026-12-10 (UTC) | VACATION 7d | VACATION OFF: no reminders and
 * no deadline for the seat until then (at most 30 days). */
static int vacation(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l)
{
    const char *arg = line + 8;
    char until[32] = "", shown[64], example[16];
    time_t t, now = clock_now();
    long secs;
    date_ahead(14, example);
    while (*arg == ' ')
        arg++;
    if (str_iprefix(arg, "until "))
        arg += 6;
    if (str_ieq(arg, "off") || str_ieq(arg, "none") || str_ieq(arg, "end")) {
        strbuf_addstr(&l->body, "Your vacation is over: reminders and deadlines apply again.");
    } else if (duration_parse(arg, &secs) || (utc_parse(arg, &t) && (secs = (long)(t - now)) > 0)) {
        if (secs > MAX_VACATION) {
            l->status = LINE_REJECTED;
            strbuf_addf(&l->body, "a vacation lasts at most 30 days: write VACATION UNTIL %s, VACATION 7d, or VACATION OFF.",
                        example);
            return 0;
        }
        utc_format(now + secs, until);
        time_format_tz(now + secs, g->seats[seat].timezone, shown);
        strbuf_addf(&l->body, "You are on vacation until %s: no reminders, and the game waits for you.", shown);
    } else {
        l->status = LINE_REJECTED;
        strbuf_addf(&l->body, "write VACATION UNTIL %s (a date, UTC), VACATION 7d (a time from now, at most 30 days),"
                              " or VACATION OFF.", example);
        return 0;
    }
    l->status = LINE_INFO;
    free(g->seats[seat].vacation_until);
    g->seats[seat].vacation_until = xstrdup(until);
    return db_do(db, "UPDATE seats SET vacation_until = nullif(?, '') WHERE game_id = ? AND seat = ?", "sIi", until,
                 g->id, seat + 1);
}

void engine_mail_policy_text(const struct seat_info *s, struct strbuf *out)
{
    char period[32];
    duration_format(s->digest_secs, period);
    if (str_eq(s->mail_policy, "every"))
        strbuf_addstr(out, "a mail after every step of the game");
    else if (str_eq(s->mail_policy, "digest"))
        strbuf_addf(out, "a mail at once when you must act, else at most one every %s of what happened", period);
    else
        strbuf_addstr(out, "a mail when you must act, when the game ends and when the host acts");
}

#define MAIL_FORMS "write MAIL TURN (a mail when you must act), MAIL EVERY (a mail every step) or MAIL DIGEST 1d" \
                   " (also at most one a day of what happened; any time from 1h to 7d)"

/* MAIL TURN | MAIL EVERY | MAIL DIGEST 1d: when the seat is mailed. */
static int mail_cmd(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l)
{
    struct seat_info *s = &g->seats[seat];
    struct words w;
    long secs = s->digest_secs;
    const char *policy = NULL;
    words_split(&w, line, NULL);
    if (w.n == 2 && str_eq(w.w[1], "turn"))
        policy = "turn";
    else if (w.n == 2 && str_eq(w.w[1], "every"))
        policy = "every";
    else if ((w.n == 2 || w.n == 3) && str_eq(w.w[1], "digest") &&
             (w.n == 2 || (duration_parse(w.w[2], &secs) && secs >= 3600 && secs <= 7 * 86400)))
        policy = "digest";
    words_release(&w);
    l->status = LINE_INFO;
    if (!policy) {
        if (str_ieq(line, "mail")) {
            strbuf_addstr(&l->body, "You get ");
            engine_mail_policy_text(s, &l->body);
            strbuf_addstr(&l->body, "; every mail tells all since your last. To change it, " MAIL_FORMS ".");
        } else {
            l->status = LINE_REJECTED;
            strbuf_addstr(&l->body, MAIL_FORMS ".");
        }
        return 0;
    }
    snprintf(s->mail_policy, sizeof(s->mail_policy), "%s", policy);
    s->digest_secs = secs;
    strbuf_addstr(&l->body, "From now on you get ");
    engine_mail_policy_text(s, &l->body);
    strbuf_addstr(&l->body, ", each telling all since your last.");
    return db_do(db, "UPDATE seats SET mail_policy = ?, digest_secs = ? WHERE game_id = ? AND seat = ?", "sIIi", policy,
                 (int64_t)secs, g->id, seat + 1);
}

/* IMAGES ON | IMAGES OFF: whether her mails show the board as a picture. */
static int images_cmd(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l)
{
    const char *arg = line + 6;
    bool on;
    while (*arg == ' ')
        arg++;
    l->status = LINE_INFO;
    if (str_ieq(arg, "on") || str_ieq(arg, "yes"))
        on = true;
    else if (str_ieq(arg, "off") || str_ieq(arg, "no"))
        on = false;
    else {
        if (*arg)
            l->status = LINE_REJECTED;
        strbuf_addf(&l->body, "%sYour mails %s the board as a picture; write IMAGES OFF or IMAGES ON.",
                    *arg ? "write IMAGES ON or IMAGES OFF. " : "", g->seats[seat].images ? "show" : "do not show");
        return 0;
    }
    g->seats[seat].images = on;
    strbuf_addstr(&l->body, on ? "Your mails show the board as a picture too (in their HTML part)."
                               : "Your mails show the board as text only.");
    return db_do(db, "UPDATE seats SET images = ? WHERE game_id = ? AND seat = ?", "iIi", on ? 1 : 0, g->id, seat + 1);
}

/* TIMEZONE Europe/Berlin: deadlines are shown in it. */
static int timezone_cmd(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l)
{
    const char *arg = line + 8;
    while (*arg == ' ')
        arg++;
    if (!timezone_valid(arg)) {
        l->status = LINE_REJECTED;
        strbuf_addf(&l->body, "\"%s\" is not a time zone: write one like UTC, Europe/Berlin or America/New_York.",
                    arg);
        return 0;
    }
    l->status = LINE_INFO;
    strbuf_addf(&l->body, "Deadlines will be shown in %s.", arg);
    free(g->seats[seat].timezone);
    g->seats[seat].timezone = xstrdup(arg);
    return db_do(db, "UPDATE seats SET timezone = ? WHERE game_id = ? AND seat = ?", "sIi", arg, g->id, seat + 1);
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
        for (int s = 0; s < g->nseats && seat < 0; s++)
            if ((waiting & ~in & (1u << s)) && (plays_inline(g, s) || (forced = engine_forced_order(g, s))))
                seat = s;
        if (seat < 0)
            break;
        int r = forced ? give_for(db, g, seat, "forced", NULL, forced, NULL) : engine_play_for(db, g, seat, "bot", NULL);
        if (r < 0)
            return -1;
        if (r > 0)
            break; /* stuck: kept for the host; the next run tries again */
        n++;
    }
    if (played)
        *played += n;
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
            *any = plays_inline(g, s) || forced;
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
        enum command c = command_of(l->text);
        switch (c) {
        case CMD_HELP:
            l->status = LINE_INFO;
            rules_text(g, &l->body);
            break;
        case CMD_BOARD:
            l->status = LINE_INFO;
            rc = view_ascii(db, g, seat, &l->body);
            break;
        case CMD_LEGAL:
            l->status = LINE_INFO;
            legal_text(g, seat, l->text[5] ? l->text + 5 + strspn(l->text + 5, " \t") : NULL, &l->body);
            break;
        case CMD_HISTORY:
            l->status = LINE_INFO;
            rc = history_render(db, g, seat, &l->body);
            break;
        case CMD_RESIGN:
            g->ops->result(g->st, &res);
            if (res.finished) {
                reject(l, "the game is over already");
                rc = store_order(db, g, seat, g->turn + 1, l->text, NULL, "rejected", l->body.buf, &o, 0);
            } else {
                l->status = LINE_ACCEPTED;
                l->canonical = xstrdup("RESIGN");
                rc = resign_seat(db, g, seat, &o, &l->body);
            }
            break;
        case CMD_VACATION:
            rc = vacation(db, g, seat, l->text, l);
            break;
        case CMD_TIMEZONE:
            rc = timezone_cmd(db, g, seat, l->text, l);
            break;
        case CMD_MAIL:
            rc = mail_cmd(db, g, seat, l->text, l);
            break;
        case CMD_IMAGES:
            rc = images_cmd(db, g, seat, l->text, l);
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
        case CMD_NONE:
            rc = submit_order(db, g, seat, l, &o);
            break;
        }
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
            agreed_log(table, how, winners, &log.pub);
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
