/* lobby_answers.c: the lobby's read-only answers: GAMES, LIST, RATINGS, PROFILE, MYGAMES. */
#include "judge/lobby_int.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"

/* A game's one-line summary in lang: the catalogue's where it has one,
 * else the game's own. */
static void summary_in(const struct game_ops *o, const char *lang, struct strbuf *out)
{
    char key[64];
    snprintf(key, sizeof(key), "summary.%s", o->name);
    if (catalog_has(lang_code(lang), key))
        phrase_add(out, lang, key, NULL);
    else
        strbuf_addstr(out, o->summary);
}

int lobby_games(struct lobby *l, const char *line, const struct args *a)
{
    (void)a;
    struct strbuf sb = STRBUF_INIT;
    for (int i = 0; game_registry[i]; i++) {
        const struct game_ops *o = game_registry[i];
        struct strbuf summary = STRBUF_INIT;
        char min[16], max[16];
        summary_in(o, l->lang, &summary);
        snprintf(min, sizeof(min), "%d", o->min_seats);
        snprintf(max, sizeof(max), "%d", o->max_seats);
        phrase_add(&sb, l->lang, o->min_seats == o->max_seats ? "lobby.games.line" : "lobby.games.range", "name",
                   o->name, "title", o->title, "n", min, "min", min, "max", max, "summary", summary.buf, NULL);
        strbuf_addch(&sb, '\n');
        strbuf_release(&summary);
    }
    phrase_add(&sb, l->lang, "lobby.games.new", NULL);
    lobby_answer(l, line, "%s", sb.buf);
    strbuf_release(&sb);
    return 0;
}

/* Under a LIST line: who sits there, with reliability and rating, and
 * who may join. */
static int seated_standing(sqlite3 *db, const char *lang, int64_t id, const struct game_ops *ops, bool anonymous,
                           struct strbuf *out)
{
    sqlite3_stmt *q = db_stmt(db, "SELECT name, email FROM lobby_players WHERE table_id = ? ORDER BY position", "I", id);
    struct strbuf line = STRBUF_INIT, seated = STRBUF_INIT;
    int64_t min_rel = 0, min_rating = 0;
    int rc, has_rating;
    if (!q)
        return -1;
    /* An anonymous game names nobody until it is over. */
    while (!anonymous && (rc = db_step(q)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(q, 0), *email = (const char *)sqlite3_column_text(q, 1);
        if (seated.len)
            strbuf_addstr(&seated, ", ");
        if (str_eq(email, "bot")) {
            phrase_add(&seated, lang, "lobby.list.bot", "name", name, NULL);
        } else {
            char *who = standing_person(db, email), shown[16];
            struct standing st;
            struct reliability r;
            if (!ops || standing_rating(db, who, ops->name, &st) || standing_reliability(db, who, &r)) {
                free(who);
                rc = -1;
                break;
            }
            standing_shown(&st, lang, shown);
            {
                char score[16];
                snprintf(score, sizeof(score), "%d", r.score);
                phrase_add(&seated, lang, "lobby.list.seat", "name", name, "reliability", score, "rating", shown, NULL);
            }
            free(who);
        }
    }
    db_finalize(q);
    if (seated.len)
        phrase_add(&line, lang, "lobby.list.seated", "seated", seated.buf, NULL);
    strbuf_release(&seated);
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
        char rel[24], rating[24];
        snprintf(rel, sizeof(rel), "%lld", (long long)min_rel);
        snprintf(rating, sizeof(rating), "%lld", (long long)min_rating);
        if (line.len)
            strbuf_addstr(&line, ". ");
        phrase_add(&line, lang,
                   min_rel && has_rating ? "lobby.list.needs-both"
                   : min_rel             ? "lobby.list.needs-reliability"
                                         : "lobby.list.needs-rating",
                   "reliability", rel, "rating", rating, NULL);
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

int lobby_list(struct lobby *l, const char *line, const struct args *a)
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
        struct strbuf clock = STRBUF_INIT, options = STRBUF_INIT, opened = STRBUF_INIT;
        char game[24], taken[16], seats[16];
        if (sqlite3_column_int64(q, 4)) {
            char d[32];
            duration_format((long)sqlite3_column_int64(q, 4), d);
            phrase_add(&clock, l->lang, "lobby.list.deadline", "time", d, "nmr",
                       catalog_term(l->lang, "lobby.nmr.", (const char *)sqlite3_column_text(q, 5), NULL), NULL);
        } else {
            phrase_add(&clock, l->lang, "lobby.list.no-deadline", NULL);
        }
        bool anonymous = str_eq(engine_core_option(opts, "anonymous"), "yes");
        /* The options it was opened with, those that are not the default. */
        cJSON_ArrayForEach(v, opts) {
            const struct game_option *o = ops ? ops->options : NULL;
            while (o && o->key && !str_eq(o->key, v->string))
                o++;
            if (cJSON_IsString(v) && (!o || !o->key || !str_eq(o->def, v->valuestring)))
                strbuf_addf(&opened, "%s%s=%s", opened.len ? ", " : "", v->string, v->valuestring);
        }
        phrase_add(&options, l->lang, opened.len ? "lobby.list.options" : "lobby.list.usual", "options", opened.buf,
                   NULL);
        snprintf(game, sizeof(game), "%lld", (long long)sqlite3_column_int64(q, 0));
        snprintf(taken, sizeof(taken), "%d", sqlite3_column_int(q, 7));
        snprintf(seats, sizeof(seats), "%d", sqlite3_column_int(q, 2));
        {
            struct strbuf who = STRBUF_INIT;
            if (anonymous)
                phrase_add(&who, l->lang, "lobby.list.anonymous", NULL);
            else if (sqlite3_column_text(q, 6))
                strbuf_addstr(&who, (const char *)sqlite3_column_text(q, 6));
            phrase_add(&sb, l->lang, "lobby.list.game", "game", game, "title",
                       ops ? ops->title : (const char *)sqlite3_column_text(q, 1), "taken", taken, "seats", seats, "who",
                       who.buf, "clock", clock.buf, "options", options.buf, NULL);
            strbuf_addch(&sb, '\n');
            strbuf_release(&who);
        }
        strbuf_release(&clock);
        strbuf_release(&options);
        strbuf_release(&opened);
        if (seated_standing(l->db, l->lang, sqlite3_column_int64(q, 0), ops, anonymous, &sb)) {
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
        lobby_offer(l, "JOIN %lld", (long long)sqlite3_column_int64(q, 0));
        n++;
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    if (!n)
        phrase_add(&sb, l->lang, "lobby.list.none", NULL);
    else {
        char english[40], *join;
        snprintf(english, sizeof(english), "JOIN %lld", (long long)first);
        join = lexicon_local(l->lang, "lobby", NULL, english);
        phrase_add(&sb, l->lang, "lobby.list.join", "join", join, "your_name",
                   catalog_text(l->lang, "lobby.invite.your-name", 1), NULL);
        free(join);
    }
    {
        /* The seats of running games a new player may take over. */
        struct strbuf open = STRBUF_INIT;
        if (takeover_list(l->db, LIST_MAX, l->lang, &open)) {
            strbuf_release(&open);
            strbuf_release(&sb);
            return -1;
        }
        if (open.len)
            strbuf_addf(&sb, "\n\n%s", open.buf);
        strbuf_release(&open);
    }
    lobby_answer(l, line, "%s", sb.buf);
    strbuf_release(&sb);
    return 0;
}

/* RATINGS kalimambo: the top 20 and where the asker stands. */
int lobby_ratings(struct lobby *l, const char *line, const struct args *a)
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
            phrase_add(&sb, l->lang, top ? "lobby.ratings-first" : "lobby.ratings-nobody", "title",
                       game_registry[i]->title, "name", top ? top : "", "module", game_registry[i]->name, NULL);
            strbuf_addch(&sb, '\n');
            free(top);
        }
        {
            struct strbuf head = STRBUF_INIT;
            phrase_add(&head, l->lang, "lobby.ratings-head", NULL);
            lobby_answer(l, line, "%s\n%s", head.buf, sb.buf);
            strbuf_release(&head);
        }
        strbuf_release(&sb);
        return 0;
    }
    if (!ops) {
        lobby_say(l, line, "lobby.ratings-no-game", "word", a->w[1], NULL);
        return 0;
    }
    me = standing_person(l->db, l->from);
    if (standing_catch_up(l->db) || standing_ratings_text(l->db, ops->name, me, false, l->lang, &sb)) {
        free(me);
        strbuf_release(&sb);
        return -1;
    }
    {
        struct strbuf head = STRBUF_INIT;
        phrase_add(&head, l->lang, "lobby.ratings-of", "title", ops->title, NULL);
        lobby_answer(l, line, "%s\n%s", head.buf, sb.buf);
        strbuf_release(&head);
    }
    free(me);
    strbuf_release(&sb);
    return 0;
}

/* PROFILE [address or name]: ratings, reliability and games. */
int lobby_profile(struct lobby *l, const char *line, const struct args *a)
{
    struct strbuf sb = STRBUF_INIT;
    char *who, *asked = a->n > 1 ? arg_rest(a, 1) : NULL;
    if (standing_catch_up(l->db)) {
        free(asked);
        return -1;
    }
    who = asked ? standing_find(l->db, asked) : standing_person(l->db, l->from);
    if (!who) {
        char shown[72];
        snprintf(shown, sizeof(shown), "%.64s", asked);
        lobby_say(l, line, "lobby.profile-nobody", "who", shown, NULL);
        free(asked);
        return 0;
    }
    if (standing_profile_text(l->db, who, false, l->lang, &sb)) {
        free(who);
        free(asked);
        strbuf_release(&sb);
        return -1;
    }
    strbuf_trim(&sb);
    lobby_answer(l, line, "%s", sb.buf);
    free(who);
    free(asked);
    strbuf_release(&sb);
    return 0;
}

/* MYGAMES: the sender's seats, open tables, hosted and watched games. */
int lobby_mygames(struct lobby *l, const char *line, const struct args *a)
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
        char game[24], seat[16];
        snprintf(game, sizeof(game), "%lld", (long long)sqlite3_column_int64(q, 0));
        snprintf(seat, sizeof(seat), "%d", sqlite3_column_int(q, 3));
        phrase_add(&sb, l->lang, "lobby.mygames.seat", "game", game, "module", (const char *)sqlite3_column_text(q, 1),
                   "status", catalog_term(l->lang, "lobby.status.", (const char *)sqlite3_column_text(q, 2), NULL),
                   "name", (const char *)sqlite3_column_text(q, 4), "seat", seat, NULL);
        strbuf_addf(&sb, "\n  %s\n", reply ? reply : "");
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
        char game[24];
        snprintf(game, sizeof(game), "%lld", (long long)sqlite3_column_int64(q, 0));
        phrase_add(&sb, l->lang, sqlite3_column_int(q, 3) ? "lobby.mygames.hosting" : "lobby.mygames.waiting", "game",
                   game, "module", (const char *)sqlite3_column_text(q, 1), "name",
                   (const char *)sqlite3_column_text(q, 2), NULL);
        strbuf_addch(&sb, '\n');
        n++;
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    q = db_stmt(l->db, "SELECT game_id FROM watchers WHERE email = ? ORDER BY game_id", "s", l->from);
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        char game[24];
        snprintf(game, sizeof(game), "%lld", (long long)sqlite3_column_int64(q, 0));
        phrase_add(&sb, l->lang, "lobby.mygames.watch", "game", game, NULL);
        strbuf_addch(&sb, '\n');
        n++;
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    if (!n)
        phrase_add(&sb, l->lang, "lobby.mygames.none", NULL);
    lobby_answer(l, line, "%s", sb.buf);
    strbuf_release(&sb);
    return 0;
}
