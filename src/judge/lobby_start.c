/* lobby_start.c: START (a table becomes a game now), REMATCH (a finished game's players asked again), TAKE (a running game's seat taken over) and AGREE (its opener's asks agreed to). */
#include "judge/lobby_int.h"

/* START 12 [BOT:EASY|BOT:STRONG]: the host starts it, bots (of that
 * level; plain: the host's default) in the empty seats. */
int lobby_start(struct lobby *l, const char *line, const struct args *a)
{
    struct table t;
    int rc;
    int64_t id;
    struct notice note = { 0 };
    struct strbuf said = STRBUF_INIT;
    char game[24];
    if ((rc = table_open_named(l, line, a, false, "lobby.start-usage", NULL, &t)) <= 0)
        return rc;
    id = t.id;
    snprintf(game, sizeof(game), "%lld", (long long)id);
    if (a->n > 3 || (a->n == 3 && !engine_bot_word(a->w[2]))) {
        lobby_say(l, line, "lobby.start-usage", NULL);
        return 0;
    }
    if (!str_ieq(t.host, l->from)) {
        lobby_say(l, line, "lobby.start-host-only", "game", game, NULL);
        return 0;
    }
    if ((rc = table_start(l->db, id, true, a->n == 3 ? a->w[2] : "bot", &note)) < 0) {
        notice_release(&note);
        return -1;
    }
    notice_prose(&note, l->lang, &said);
    if (rc == 1)
        lobby_say(l, line, "lobby.start-failed", "note", said.buf, "game", game, NULL);
    else if (t.taken < t.seats)
        lobby_say(l, line,
                  str_eq(engine_bot_level(l->db, a->n == 3 ? a->w[2] : "bot"), "strong") ? "lobby.started-strong-bots"
                                                                                        : "lobby.started-easy-bots",
                  "note", said.buf, NULL);
    else
        lobby_answer(l, line, "%s", said.buf);
    notice_release(&note);
    strbuf_release(&said);
    return 0;
}

/* REMATCH 12: the same game, the same players, a new deal. */
int lobby_rematch(struct lobby *l, const char *line, const struct args *a)
{
    struct game_rec g;
    int64_t id, nid, open;
    char commitment[65];
    int me = -1, humans = 0, rc = 0;
    struct strbuf uninvited = STRBUF_INIT;
    unsigned missed = 0;
    struct notice note = { 0 };
    char old[24], game[24];
    if (!table_number(a, 1, &id) || a->n > 3 || (a->n == 3 && !engine_bot_word(a->w[2]))) {
        lobby_say(l, line, "lobby.rematch-usage", NULL);
        return 0;
    }
    snprintf(old, sizeof(old), "%lld", (long long)id);
    if (db_get_int64(l->db, &open, "SELECT count(*) FROM games WHERE id = ?", "I", id) < 0)
        return -1;
    if (!open) {
        lobby_say(l, line, "lobby.no-game", "game", old, NULL);
        return 0;
    }
    if (game_load(l->db, id, &g))
        return -1;
    for (int s = 0; s < g.nseats; s++)
        if (str_ieq(g.seats[s].email, l->from))
            me = s;
    if (me < 0 || !str_eq(g.status, "finished")) {
        lobby_say(l, line, me < 0 ? "lobby.rematch-players-only" : "lobby.rematch-not-over", "game", old, NULL);
        goto out;
    }
    /* One rematch waiting at a time: asked again (by her, or by another
     * player of the game), it is the one to join. */
    if (db_get_int64(l->db, &open, "SELECT coalesce(max(id), 0) FROM lobby_tables WHERE rematch_of = ? AND status ="
                                   " 'open'", "I", id) < 0)
        goto fail;
    if (open) {
        snprintf(game, sizeof(game), "%lld", (long long)open);
        lobby_say(l, line, "lobby.rematch-waiting", "old", old, "game", game, NULL);
        goto out;
    }
    if (tables_open_of(l->db, l->from, &open))
        goto fail;
    if (open >= OPEN_TABLES_EACH) {
        snprintf(game, sizeof(game), "%lld", (long long)open);
        lobby_say(l, line, "lobby.too-many-open", "n", game, NULL);
        goto out;
    }
    {
        struct game_spec spec;
        game_spec_init(&spec, g.ops);
        rc = game_spec_load_game(&g, &spec) || table_open(l, &spec, g.options, id, &nid, commitment);
        game_spec_release(&spec);
        if (rc)
            goto fail;
    }
    /* Seated in the order they sat: she at once, bots at once, the others
     * when they accept the invitation each gets. */
    if (table_seat_at(l, nid, game_person(&g, me), NULL))
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
            if (invite_one(l, nid, g.seats[s].email, game_person(&g, s), game_person(&g, me), &how))
                goto fail;
            if (how != INVITE_SENT)
                missed |= 1u << s;
        }
    }
    snprintf(game, sizeof(game), "%lld", (long long)nid);
    if (!humans) {
        struct strbuf said = STRBUF_INIT;
        if ((rc = table_start(l->db, nid, false, "bot", &note)) < 0)
            goto fail;
        notice_prose(&note, l->lang, &said);
        lobby_say(l, line, "lobby.rematch-bots", "old", old, "game", game, "note", said.buf, NULL);
        strbuf_release(&said);
    } else {
        char n[16];
        snprintf(n, sizeof(n), "%d", humans);
        if (missed) {
            struct strbuf names = STRBUF_INIT;
            game_names_in(&g, missed, l->lang, &names);
            strbuf_addch(&uninvited, ' ');
            phrase_add(&uninvited, l->lang, "lobby.rematch-uninvited", "names", names.buf, NULL);
            strbuf_release(&names);
        }
        lobby_say(l, line, "lobby.rematch-invited", "old", old, "game", game, "name", game_person(&g, me), "n", n,
                  "uninvited", uninvited.buf, "commitment", commitment, NULL);
    }
out:
    notice_release(&note);
    strbuf_release(&uninvited);
    game_unload(&g);
    return 0;
fail:
    notice_release(&note);
    strbuf_release(&uninvited);
    game_unload(&g);
    return -1;
}

/* AGREE 12: a player agrees to what game 12's opener asks (a pause, more
 * time for the step); done when every other player has. */
int lobby_agree(struct lobby *l, const char *line, const struct args *a)
{
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    const char *what = NULL;
    long secs = 0;
    int64_t id, n;
    int rc;
    if (!table_number(a, 1, &id) || a->n != 2) {
        lobby_say(l, line, "lobby.agree-usage", NULL);
        return 0;
    }
    if (db_get_int64(l->db, &n, "SELECT count(*) FROM games WHERE id = ?", "I", id) < 0)
        return -1;
    if (!n) {
        char game[24];
        snprintf(game, sizeof(game), "%lld", (long long)id);
        lobby_say(l, line, "lobby.no-game-mine", "game", game, NULL);
        return 0;
    }
    if (game_load(l->db, id, &g))
        return -1;
    rc = consent_agree(l->db, &g, l->from, l->lang, &what, &secs, &out);
    if (rc == 2) {
        strbuf_reset(&out);
        rc = host_consented(l->db, &g, what, secs, l->lang, &out);
    }
    if (rc >= 0)
        lobby_answer(l, line, "%s", out.buf);
    strbuf_release(&out);
    game_unload(&g);
    return rc < 0 ? -1 : 0;
}

/* TAKE 12 Beta [AS YourName]: a seat of a running game that a bot plays
 * since its player left, taken over by a confirmed player new to the
 * game, within the gates its table was opened with. */
int lobby_take(struct lobby *l, const char *line, const struct args *a)
{
    int64_t id, table;
    int i = 2, rc;
    char *seat = NULL, *name = NULL, *salt = NULL;
    struct strbuf out = STRBUF_INIT;
    if (!table_number(a, 1, &id) || a->n < 3 || arg_is(a, 2, "as")) {
        lobby_say(l, line, "lobby.take-usage", NULL);
        return 0;
    }
    seat = arg_phrase(a, &i);
    if (table_name_and_salt(l, line, a, i, &name, &salt))
        goto done;
    if (salt) {
        char game[24];
        snprintf(game, sizeof(game), "%lld", (long long)id);
        lobby_say(l, line, "lobby.take-no-salt", "game", game, "seat", seat, NULL);
        goto done;
    }
    /* The gates of the table it began at, if it began at one. */
    if (db_get_int64(l->db, &table, "SELECT count(*) FROM lobby_tables WHERE id = ?", "I", id) < 0)
        goto fail;
    if (table && (rc = table_join_gate(l, line, id)) != 0) {
        if (rc < 0)
            goto fail;
        goto done;
    }
    if ((rc = takeover_take(l->db, id, seat, name, l->from, l->lang, &out)) < 0)
        goto fail;
    lobby_answer(l, line, "%s", out.buf);
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
