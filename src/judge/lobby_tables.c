/* lobby_tables.c: the lobby's open tables: NEW, JOIN, LEAVE and UNSEAT, the seats, names and gates of a table, and a table becoming its game (table_start). */
#include "judge/lobby_int.h"
#include "store/languages.h"
#include "lib/lexicon.h"

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

/* The open table the command's number names: 1 when there is one; 0 when
 * the answer is said (usage, or not waiting: said); -1 on failure. */
int table_open_named(struct lobby *l, const char *line, const struct args *a, bool exact3, const char *usage,
                            const char *started, struct table *t)
{
    int rc;
    char game[24];
    if (!table_number(a, 1, &t->id) || (exact3 && a->n != 3)) {
        lobby_say(l, line, usage, NULL);
        return 0;
    }
    if ((rc = table_exists(l->db, t->id, t->status, t->host, &t->seats, &t->taken)) < 0)
        return -1;
    if (!rc || !str_eq(t->status, "open")) {
        snprintf(game, sizeof(game), "%lld", (long long)t->id);
        lobby_say(l, line, rc && started ? started : "lobby.not-waiting", "game", game, NULL);
        return 0;
    }
    return 1;
}

/* "NEW 12"-style game numbers. */
bool table_number(const struct args *a, int i, int64_t *id)
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
int table_seat_at(struct lobby *l, int64_t id, const char *name, const char *salt)
{
    char now[32];
    utc_now(now);
    return db_do(l->db,
                 "INSERT INTO lobby_players(table_id, position, name, email, salt, joined_at) VALUES (?,"
                 " (SELECT coalesce(max(position), 0) + 1 FROM lobby_players WHERE table_id = ?), ?, ?, ?, ?)",
                 "IIssss", id, id, name, l->from, salt, now);
}

/* The name and salt of a JOIN or NEW, from word i on; 1 when refused. */
int table_name_and_salt(struct lobby *l, const char *line, const struct args *a, int i, char **name, char **salt)
{
    struct strbuf err = STRBUF_INIT;
    *name = *salt = NULL;
    for (; i < a->n;) {
        if (arg_is(a, i, "as")) {
            i++;
            free(*name);
            *name = arg_phrase(a, &i);
        } else if (arg_keyword(a, i) && !arg_is(a, i, "salt") && str_iprefix(line, "new ")) {
            i += 2; /* NEW's own, read before: its options may follow AS */
        } else if (arg_is(a, i, "salt")) {
            *salt = arg_rest(a, i + 1);
            break;
        } else {
            lobby_say(l, line, "lobby.not-as-salt", "word", a->w[i], NULL);
            goto bad;
        }
    }
    if (!*name) {
        char def[25];
        name_from_address(l->from, def);
        *name = xstrdup(def);
    }
    if (engine_check_name(*name, &err)) {
        char shown[48];
        snprintf(shown, sizeof(shown), "%.40s", *name);
        lobby_say(l, line, "lobby.bad-name", "name", shown, NULL);
        goto bad;
    }
    if (*salt && !seed_salt_ok(*salt, &err)) {
        char max[16];
        snprintf(max, sizeof(max), "%d", SALT_MAX);
        lobby_say(l, line, "lobby.bad-salt", "max", max, NULL);
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
int table_open(struct lobby *l, const struct game_spec *spec, const cJSON *opts, int64_t rematch_of, int64_t *id,
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

int tables_open_of(sqlite3 *db, const char *addr, int64_t *n)
{
    return db_get_int64(db, n, "SELECT count(*) FROM lobby_tables WHERE host_email = ? AND status = 'open'", "s",
                        addr) < 0
               ? -1
               : 0;
}

/* NEW kalimambo [SEATS 4] [OPTION k=v ...] [DEADLINE 48h] [NMR bot] ... [AS Name] [SALT words]:
 * the terms are judge/gamespec.c's, as ngoma new takes them. */
int lobby_new(struct lobby *l, const char *line, const struct args *a)
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
        lobby_say(l, line, "lobby.creators-only", NULL);
        goto out;
    }
    if (!ops) {
        if (a->n > 1)
            lobby_say(l, line, "lobby.new-no-game", "word", a->w[1], NULL);
        else
            lobby_say(l, line, "lobby.new-usage", NULL);
        goto out;
    }
    if (tables_open_of(l->db, l->from, &open))
        goto fail;
    if (open >= OPEN_TABLES_EACH) {
        char n[24];
        snprintf(n, sizeof(n), "%lld", (long long)open);
        lobby_say(l, line, "lobby.too-many-open", "n", n, NULL);
        goto out;
    }
    game_spec_init(&spec, ops);
    spec.lang = l->lang;
    while (i < a->n && !arg_is(a, i, "salt")) {
        if (arg_is(a, i, "as")) {
            /* The name ends at the next keyword; terms may follow it. */
            if (!name_at)
                name_at = i;
            i++;
            free(arg_phrase(a, &i));
        } else if (game_spec_word(a->w[i], SPEC_LOBBY) && i + 1 < a->n) {
            if (game_spec_set(&spec, a->w[i], a->w[i + 1], SPEC_LOBBY, &err)) {
                lobby_answer(l, line, "%s", err.buf);
                goto out;
            }
            i += 2;
        } else {
            struct strbuf usage = STRBUF_INIT;
            game_spec_usage(ops, SPEC_LOBBY, &usage);
            char *w = lexicon_local(l->lang, "lobby", NULL, "NEW");
            struct strbuf how = STRBUF_INIT;
            strbuf_addf(&how, "%s %s %s", w, ops->name, usage.buf);
            lobby_say(l, line, "lobby.new-not-understood", "word", a->w[i], "usage", how.buf, NULL);
            strbuf_release(&how);
            free(w);
            strbuf_release(&usage);
            goto out;
        }
    }
    if (game_spec_check(&spec, SPEC_LOBBY, &err)) {
        lobby_answer(l, line, "%s", err.buf);
        goto out;
    }
    if (table_name_and_salt(l, line, a, name_at ? name_at : i, &name, &salt))
        goto out;
    if (!(opts = engine_options_from(ops, spec.options, OPTIONS_LOBBY, &err))) {
        lobby_answer(l, line, "%s", err.buf);
        goto out;
    }
    /* The options must make a game: tried once, thrown away. */
    if (!(probe = ops->setup(opts, spec.seats, 1, &err))) {
        lobby_answer(l, line, "%s", err.buf);
        goto out;
    }
    ops->free(probe);
    if (table_open(l, &spec, opts, 0, &id, commitment) || table_seat_at(l, id, name, salt))
        goto fail;
    {
        char game[24], seats[16];
        snprintf(game, sizeof(game), "%lld", (long long)id);
        snprintf(seats, sizeof(seats), "%d", spec.seats);
        lobby_say(l, line, "lobby.opened", "game", game, "title", ops->title, "seats", seats, "name", name,
                  "commitment", commitment, NULL);
    }
    lobby_offer(l, "START %lld", (long long)id);
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
static int tell_host_cannot_start(struct lobby *l, const struct table *t, const struct notice *why)
{
    struct strbuf text = STRBUF_INIT, said = STRBUF_INIT;
    char *lang = language_of(l->db, t->host), game[24];
    int rc;
    snprintf(game, sizeof(game), "%lld", (long long)t->id);
    notice_prose(why, lang, &said);
    phrase_add(&text, lang, "lobby.cannot-start", "why", said.buf, "game", game, NULL);
    free(lang);
    rc = lobby_notice_to(l, t->host, "lobby.cannot-start.head", text.buf);
    strbuf_release(&text);
    strbuf_release(&said);
    return rc;
}

/* A table's MINRELIABILITY and MINRATING: 1 when the joiner is below
 * either (said), 0 when she may join; an invitation lets her in. */
int table_join_gate(struct lobby *l, const char *line, int64_t id)
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
    char game[24], min[16], yours[16];
    snprintf(game, sizeof(game), "%lld", (long long)id);
    if (r.score < min_rel) {
        snprintf(min, sizeof(min), "%d", min_rel);
        snprintf(yours, sizeof(yours), "%d", r.score);
        lobby_say(l, line, "lobby.gate-reliability", "game", game, "min", min, "yours", yours, NULL);
        refused = 1;
    } else if (gate_rating && st.shown < min_rating) {
        snprintf(min, sizeof(min), "%d", min_rating);
        standing_shown(&st, l->lang, yours);
        lobby_say(l, line, st.is_new ? "lobby.gate-rating-new" : "lobby.gate-rating", "game", game, "min", min, "yours",
                  yours, NULL);
        refused = 1;
    }
    free(who);
    free(module);
    return refused;
}

/* JOIN 12 [AS Name] [SALT words] */
int lobby_join(struct lobby *l, const char *line, const struct args *a)
{
    char *name = NULL, *salt = NULL, *invited = NULL;
    struct table t;
    int rc;
    int64_t id, dup;
    bool named = false;
    struct notice note = { 0 };
    char game[24];
    if ((rc = table_open_named(l, line, a, false, "lobby.join-usage", "lobby.not-waiting-join", &t)) <= 0)
        return rc;
    id = t.id;
    snprintf(game, sizeof(game), "%lld", (long long)id);
    if (db_get_int64(l->db, &dup, "SELECT count(*) FROM lobby_players WHERE table_id = ? AND email = ?", "Is", id,
                     l->from) < 0)
        return -1;
    if (dup) {
        lobby_say(l, line, "lobby.already-seated", "game", game, NULL);
        return 0;
    }
    if (t.taken >= t.seats) {
        lobby_say(l, line, "lobby.full", "game", game, NULL);
        return 0;
    }
    if ((rc = table_join_gate(l, line, id)) != 0)
        return rc < 0 ? -1 : 0;
    if (table_name_and_salt(l, line, a, 2, &name, &salt))
        return 0;
    for (int i = 2; i < a->n && !arg_is(a, i, "salt"); i++)
        named |= arg_is(a, i, "as");
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
        lobby_say(l, line, "lobby.name-taken", "game", game, "name", name, NULL);
        goto done;
    }
    if (table_seat_at(l, id, name, salt))
        goto fail;
    if (t.taken + 1 >= t.seats) {
        if ((rc = table_start(l->db, id, false, "bot", &note)) < 0)
            goto fail;
        if (rc == 1 && !str_ieq(t.host, l->from) && tell_host_cannot_start(l, &t, &note))
            goto fail;
        char seat[16];
        struct strbuf said = STRBUF_INIT;
        snprintf(seat, sizeof(seat), "%d", t.taken + 1);
        notice_prose(&note, l->lang, &said);
        lobby_say(l, line, rc == 1 ? "lobby.seated-last-host" : "lobby.seated-last", "game", game, "name", name, "seat",
                  seat, "note", said.buf, NULL);
        strbuf_release(&said);
    } else {
        char seat[16], seats[16];
        snprintf(seat, sizeof(seat), "%d", t.taken + 1);
        snprintf(seats, sizeof(seats), "%d", t.seats);
        lobby_say(l, line, "lobby.seated", "game", game, "name", name, "seat", seat, "seats", seats, NULL);
    }
done:
    free(name);
    free(salt);
    notice_release(&note);
    return 0;
fail:
    free(name);
    free(salt);
    notice_release(&note);
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
        struct strbuf text = STRBUF_INIT;
        char game[24], *lang = language_of(l->db, to.v[i]);
        snprintf(game, sizeof(game), "%lld", (long long)id);
        phrase_add(&text, lang, "lobby.notice.closed", "game", game, "host", l->from, NULL);
        free(lang);
        rc = lobby_notice_to(l, to.v[i], "lobby.notice.closed.head", text.buf);
        strbuf_release(&text);
    }
    strlist_clear(&to);
    return rc;
}

/* LEAVE 12: before it starts; the host leaving closes it. */
int lobby_leave(struct lobby *l, const char *line, const struct args *a)
{
    struct table t;
    int rc;
    int64_t id;
    char game[24];
    if ((rc = table_open_named(l, line, a, false, "lobby.leave-usage", "lobby.not-waiting-leave", &t)) <= 0)
        return rc;
    id = t.id;
    snprintf(game, sizeof(game), "%lld", (long long)id);
    if (db_do(l->db, "DELETE FROM lobby_players WHERE table_id = ? AND email = ?", "Is", id, l->from))
        return -1;
    if (!sqlite3_changes(l->db)) {
        lobby_say(l, line, "lobby.not-seated", "game", game, NULL);
        return 0;
    }
    if (str_ieq(t.host, l->from)) {
        if (db_do(l->db, "UPDATE lobby_tables SET status = 'closed' WHERE id = ?", "I", id) || tell_closed(l, id))
            return -1;
        lobby_say(l, line, "lobby.left-host", "game", game, NULL);
        return 0;
    }
    if (close_up(l->db, id))
        return -1;
    lobby_say(l, line, "lobby.left", "game", game, NULL);
    return 0;
}

/* UNSEAT 12 Name: the host frees a seat before the start; its player is told. */
int lobby_unseat(struct lobby *l, const char *line, const struct args *a)
{
    struct table t;
    char *email = NULL, *name;
    int rc, i = 2;
    char game[24];
    if ((rc = table_open_named(l, line, a, false, "lobby.unseat-usage", "lobby.not-waiting-unseat", &t)) <= 0)
        return rc;
    snprintf(game, sizeof(game), "%lld", (long long)t.id);
    if (!str_ieq(t.host, l->from)) {
        lobby_say(l, line, "lobby.unseat-host-only", "game", game, NULL);
        return 0;
    }
    name = arg_phrase(a, &i);
    if (!*name) {
        lobby_say(l, line, "lobby.unseat-name", "game", game, NULL);
        free(name);
        return 0;
    }
    if ((rc = db_get_text(l->db, &email, "SELECT email FROM lobby_players WHERE table_id = ? AND name = ? COLLATE"
                                         " NOCASE", "Is", t.id, name)) < 0)
        goto fail;
    if (!rc) {
        lobby_say(l, line, "lobby.unseat-nobody", "game", game, "name", name, NULL);
        goto done;
    }
    if (str_ieq(email, l->from)) {
        lobby_say(l, line, "lobby.unseat-self", "game", game, NULL);
        goto done;
    }
    if (db_do(l->db, "DELETE FROM lobby_players WHERE table_id = ? AND name = ? COLLATE NOCASE", "Is", t.id, name) ||
        close_up(l->db, t.id))
        goto fail;
    if (!str_eq(email, "bot")) {
        struct strbuf text = STRBUF_INIT;
        char host[96], *lang = language_of(l->db, email);
        snprintf(host, sizeof(host), "%.80s", l->from);
        phrase_add(&text, lang, "lobby.notice.freed", "game", game, "host", host, NULL);
        free(lang);
        rc = lobby_notice_to(l, email, "lobby.notice.freed.head", text.buf);
        strbuf_release(&text);
        if (rc)
            goto fail;
    }
    lobby_say(l, line, str_eq(email, "bot") ? "lobby.unseated-bot" : "lobby.unseated", "name", name, "game", game, NULL);
done:
    free(name);
    free(email);
    return 0;
fail:
    free(name);
    free(email);
    return -1;
}

/* The strong bots a table of host's would seat (strong) against her
 * share of the host's CPU: at most lobby_strong_bots in the unfinished
 * games she opened, and as many started in the last hour (a game she
 * leaves ends at once when no person is left: the hour stops churning).
 * 1 with why in note when they do not fit. */
static int strong_bots_fit(sqlite3 *db, const char *host, int strong, struct notice *note)
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
    notice_say(note, "lobby.start.strong-bots");
    notice_set_int(note, "n", strong);
    notice_set_int(note, "each", each);
    notice_set_int(note, "running", running);
    notice_set_int(note, "lately", lately);
    return 1;
}

/* Starts table id as game id: the seats as joined (bots for the empty ones
 * with fill, of the level bot_word names: "bot" for the host's), its committed seed and the salts; every seat is welcomed.
 * 1 with why in note when the game cannot start (nothing changed). */
int table_start(sqlite3 *db, int64_t id, bool fill, const char *bot_word, struct notice *note)
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

    notice_init(note, "lobby.cannot-start.head");
    notice_set_int(note, "game", id);
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
        if ((rc = strong_bots_fit(db, host, strong, note)) != 0)
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
            notice_say(note, "lobby.start.cannot");
            notice_set(note, "why", err.buf);
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
    if (!rc) {
        notice_say(note, "lobby.start.starts");
        notice_set_int(note, "n", n);
    }
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
