/* engine_new.c: new games: their options (the game's and those every game takes), players' names and addresses checked, bot words, the deal from a committed seed. */
#include "core/engine_int.h"

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
    game_event(&log, 0, "engine.begins", EV_STR, "title", ops->title, EV_END);
    empty = cJSON_CreateArray();
    rc = engine_record_turn(db, &g, "setup", empty, &log, &turn_id);
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
