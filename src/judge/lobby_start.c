/* lobby_start.c: START (a table becomes a game now), REMATCH (a finished game's players asked again), TAKE (a running game's seat taken over) and AGREE (its opener's asks agreed to). */
#include "judge/lobby_int.h"

/* START 12 [BOT:EASY|BOT:STRONG]: the host starts it, bots (of that
 * level; plain: the host's default) in the empty seats. */
int lobby_start(struct lobby *l, const char *line, const struct args *a)
{
    struct table t;
    int rc;
    int64_t id;
    struct strbuf note = STRBUF_INIT;
    if ((rc = table_open_named(l, line, a, false, "lobby.start-usage", NULL, &t)) <= 0)
        return rc;
    id = t.id;
    if (a->n > 3 || (a->n == 3 && !engine_bot_word(a->w[2]))) {
        lobby_answer(l, line, "START takes a game's number, and the bots' level if you like: START %lld, START %lld"
                        " BOT:EASY or START %lld BOT:STRONG", (long long)id, (long long)id, (long long)id);
        return 0;
    }
    if (!str_ieq(t.host, l->from)) {
        lobby_answer(l, line, "only the host of game %lld starts it (the address that opened it)", (long long)id);
        return 0;
    }
    if ((rc = table_start(l->db, id, true, a->n == 3 ? a->w[2] : "bot", &note)) < 0) {
        strbuf_release(&note);
        return -1;
    }
    if (rc == 1)
        lobby_answer(l, line, "%s. UNSEAT %lld Name frees a seat, LEAVE %lld closes the table.", note.buf, (long long)id,
               (long long)id);
    else
        lobby_answer(l, line, "%s%s%s%s", note.buf, t.taken < t.seats ? " Bots (" : "",
               t.taken < t.seats ? engine_bot_level(l->db, a->n == 3 ? a->w[2] : "bot") : "",
               t.taken < t.seats ? ") play the empty seats." : "");
    strbuf_release(&note);
    return 0;
}

/* REMATCH 12: the same game, the same players, a new deal. */
int lobby_rematch(struct lobby *l, const char *line, const struct args *a)
{
    struct game_rec g;
    int64_t id, nid, open;
    char commitment[65];
    int me = -1, humans = 0, rc = 0;
    struct strbuf note = STRBUF_INIT, uninvited = STRBUF_INIT;
    if (!table_number(a, 1, &id) || a->n > 3 || (a->n == 3 && !engine_bot_word(a->w[2]))) {
        lobby_answer(l, line, "REMATCH takes the number of a game you played, and its bots' level if it should change:"
                        " REMATCH 12, or REMATCH 12 BOT:EASY or BOT:STRONG");
        return 0;
    }
    if (db_get_int64(l->db, &open, "SELECT count(*) FROM games WHERE id = ?", "I", id) < 0)
        return -1;
    if (!open) {
        lobby_answer(l, line, "there is no game %lld", (long long)id);
        return 0;
    }
    if (game_load(l->db, id, &g))
        return -1;
    for (int s = 0; s < g.nseats; s++)
        if (str_ieq(g.seats[s].email, l->from))
            me = s;
    if (me < 0 || !str_eq(g.status, "finished")) {
        lobby_answer(l, line, me < 0 ? "only the players of game %lld ask for its rematch" : "game %lld is not over yet",
               (long long)id);
        goto out;
    }
    /* One rematch waiting at a time: asked again (by her, or by another
     * player of the game), it is the one to join. */
    if (db_get_int64(l->db, &open, "SELECT coalesce(max(id), 0) FROM lobby_tables WHERE rematch_of = ? AND status ="
                                   " 'open'", "I", id) < 0)
        goto fail;
    if (open) {
        lobby_answer(l, line, "the rematch of game %lld is game %lld already, waiting for its players: JOIN %lld takes your"
                        " seat in it, LIST shows who is in", (long long)id, (long long)open, (long long)open);
        goto out;
    }
    if (tables_open_of(l->db, l->from, &open))
        goto fail;
    if (open >= OPEN_TABLES_EACH) {
        lobby_answer(l, line, "you host %lld games waiting for players already", (long long)open);
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
                strbuf_addf(&uninvited, "%s%s", uninvited.len ? ", " : "", game_person(&g, s));
        }
    }
    if (!humans) {
        if ((rc = table_start(l->db, nid, false, "bot", &note)) < 0)
            goto fail;
        lobby_answer(l, line, "The rematch of game %lld is game %lld. %s", (long long)id, (long long)nid, note.buf);
    } else {
        lobby_answer(l, line,
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
int lobby_agree(struct lobby *l, const char *line, const struct args *a)
{
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    const char *what = NULL;
    long secs = 0;
    int64_t id, n;
    int rc;
    if (!table_number(a, 1, &id) || a->n != 2) {
        lobby_answer(l, line, "AGREE takes the number of a game you play in: AGREE 12");
        return 0;
    }
    if (db_get_int64(l->db, &n, "SELECT count(*) FROM games WHERE id = ?", "I", id) < 0)
        return -1;
    if (!n) {
        lobby_answer(l, line, "there is no game %lld: MYGAMES lists yours", (long long)id);
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
        lobby_answer(l, line, "TAKE takes a game's number and a seat: TAKE 12 Beta AS YourName (LIST shows the seats to"
                        " take over)");
        return 0;
    }
    seat = arg_phrase(a, &i);
    if (table_name_and_salt(l, line, a, i, &name, &salt))
        goto done;
    if (salt) {
        lobby_answer(l, line, "a seat taken over keeps its game's deal: write TAKE %lld %s AS YourName, without SALT",
               (long long)id, seat);
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
    if ((rc = takeover_take(l->db, id, seat, name, l->from, &out)) < 0)
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
