/* takeover.c: a seat given to a new person (the host's REPLACE, a player's TAKE of an abandoned seat) or to a bot (KICK, a deadline's drop), and which seats of running games are open for the taking. */
#include "judge/takeover.h"
#include "core/engine.h"
#include "core/seatlife.h"
#include "judge/consent.h"
#include "judge/notice.h"
#include "judge/notify.h"
#include "store/db.h"
#include "lib/template.h"
#include "lib/util.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int takeover_give(sqlite3 *db, struct game_rec *g, int seat, const char *name, const char *email, const char *lang,
                  struct strbuf *out)
{
    bool was_bot = game_seat_bot(g, seat);
    bool anonymous = str_eq(engine_core_option(g->options, "anonymous"), "yes");
    enum seat_leave how = SEAT_TAKEN;
    struct notice told;
    char *secret;
    /* The holding before ends: a bot's as taken; a person's as replaced
     * if she missed a turn, else by consent. */
    if ((!was_bot && seatlife_replace_how(db, g, seat, &how)) || seatlife_leave(db, g, seat, how))
        return -1;
    secret = secret_new(10);
    /* An anonymous game keeps the seat's title: the newcomer's name is
     * told when it is over, as the others' are. */
    notice_init(&told, "notice.new-player.head");
    notice_say(&told, anonymous ? "notice.new-player-anon" : "notice.new-player");
    notice_set(&told, "name", name);
    notice_set_int(&told, "seat", seat + 1);
    notice_set(&told, "who", g->names[seat]);
    if (consent_lapse(db, g, &told)) {
        notice_release(&told);
        free(secret);
        return -1;
    }
    notice_text(&told, lang, out);
    if (db_do(db,
              "UPDATE seats SET name = ?, email = ?, secret = ?, bot = 0, bot_level = NULL, real_name = ? WHERE"
              " game_id = ? AND seat = ?",
              "ssssIi", anonymous ? g->names[seat] : name, email, secret, anonymous ? name : NULL, g->id, seat + 1)) {
        notice_release(&told);
        free(secret);
        return -1;
    }
    /* The record in memory follows, then everyone is told. */
    free(g->seats[seat].email);
    free(g->seats[seat].secret);
    free(g->seats[seat].real_name);
    g->seats[seat].real_name = NULL;
    if (anonymous) {
        g->seats[seat].real_name = xstrdup(name);
    } else {
        free(g->seats[seat].name);
        g->seats[seat].name = xstrdup(name);
    }
    g->seats[seat].email = xstrdup(email);
    g->seats[seat].secret = secret;
    g->seats[seat].bot = false;
    g->names[seat] = g->seats[seat].name;
    {
        int rc = seatlife_start(db, g, seat) || notify_notice_all(db, g, seat, &told) ||
                         notify_welcome_newcomer(db, g, seat, true)
                     ? -1
                     : 0;
        notice_release(&told);
        return rc;
    }
}

int takeover_to_bot(sqlite3 *db, struct game_rec *g, int seat, const char *level, enum seat_leave how)
{
    assert(seat >= 0 && seat < g->nseats && level && *level);
    if (seatlife_leave(db, g, seat, how))
        return -1;
    g->seats[seat].bot = true;
    snprintf(g->seats[seat].bot_level, sizeof(g->seats[seat].bot_level), "%s", level);
    return db_do(db, "UPDATE seats SET bot = 1, bot_level = ? WHERE game_id = ? AND seat = ?", "sIi", level, g->id,
                 seat + 1) ||
                   seatlife_start(db, g, seat)
               ? -1
               : 0;
}

int takeover_open(sqlite3 *db, const struct game_rec *g, int seat, bool *open)
{
    int64_t kicked;
    *open = false;
    if (str_eq(game_status_of(g->ops, g->st), "finished") ||
        str_eq(engine_core_option(g->options, "takeover"), "no") || !g->seats[seat].bot)
        return 0;
    /* A bot plays it since its person was kicked or dropped by the
     * deadlines (the seat's last holding before the bot's ended so). */
    if (db_get_int64(db, &kicked,
                     "SELECT how IN ('kicked', 'dropped') FROM seat_holders WHERE game_id = ? AND seat = ? AND to_step IS NOT NULL"
                     " ORDER BY id DESC LIMIT 1",
                     "Ii", g->id, seat + 1) < 0)
        return -1;
    *open = kicked != 0;
    return 0;
}

int takeover_list(sqlite3 *db, int max, const char *lang, struct strbuf *out)
{
    int64_t ids[64];
    int n = 0, listed = 0, rc;
    sqlite3_stmt *q = db_stmt(db,
                              "SELECT DISTINCT s.game_id FROM seats s JOIN games g ON g.id = s.game_id WHERE s.bot = 1"
                              " AND g.status <> 'finished' ORDER BY s.game_id LIMIT 64",
                              "");
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW)
        ids[n++] = sqlite3_column_int64(q, 0);
    db_finalize(q);
    if (rc < 0)
        return -1;
    for (int i = 0; i < n && listed < max; i++) {
        struct game_rec g;
        if (game_load(db, ids[i], &g))
            return -1;
        for (int s = 0; s < g.nseats && listed < max; s++) {
            bool open;
            char when[128];
            struct strbuf line = STRBUF_INIT;
            int64_t min_rel = 0, min_rating = -1;
            if (takeover_open(db, &g, s, &open)) {
                game_unload(&g);
                return -1;
            }
            if (!open)
                continue;
            if (db_get_int64(db, &min_rel, "SELECT min_reliability FROM lobby_tables WHERE id = ?", "I", g.id) < 0 ||
                db_get_int64(db, &min_rating, "SELECT coalesce(min_rating, -1) FROM lobby_tables WHERE id = ?", "I",
                             g.id) < 0) {
                game_unload(&g);
                return -1;
            }
            game_when_now_in(&g, lang, when);
            if (!listed++) {
                phrase_add(out, lang, "takeover.list-head", NULL);
                strbuf_addch(out, '\n');
            }
            {
                char game[24], seat[16], rel[24], rating[24];
                snprintf(game, sizeof(game), "%lld", (long long)g.id);
                snprintf(seat, sizeof(seat), "%d", s + 1);
                snprintf(rel, sizeof(rel), "%lld", (long long)min_rel);
                snprintf(rating, sizeof(rating), "%lld", (long long)min_rating);
                phrase_add(&line, lang,
                           min_rel && min_rating >= 0 ? "takeover.list-seat-gated"
                           : min_rel                  ? "takeover.list-seat-reliability"
                           : min_rating >= 0          ? "takeover.list-seat-rating"
                                                      : "takeover.list-seat",
                           "game", game, "title", g.ops->title, "seat", seat, "name", g.names[s], "when", when,
                           "reliability", rel, "rating", rating, NULL);
            }
            strbuf_add_flowed(out, line.buf, 2, 72);
            strbuf_release(&line);
        }
        game_unload(&g);
    }
    return 0;
}

int takeover_take(sqlite3 *db, int64_t id, const char *who, const char *name, const char *email, const char *lang,
                  struct strbuf *out)
{
    struct game_rec g;
    int seat, rc = 1;
    int64_t was;
    bool open;
    char game[24], asked[48], nth[16];
    snprintf(game, sizeof(game), "%lld", (long long)id);
    if (db_get_int64(db, &was, "SELECT count(*) FROM games WHERE id = ?", "I", id) < 0)
        return -1;
    if (!was) {
        phrase_add(out, lang, "takeover.no-game", "game", game, NULL);
        return 1;
    }
    if (game_load(db, id, &g))
        return -1;
    if ((seat = game_seat_find(&g, who)) < 0) {
        snprintf(asked, sizeof(asked), "%.40s", who);
        phrase_add(out, lang, "takeover.no-seat", "game", game, "seat", asked, NULL);
        goto out;
    }
    snprintf(nth, sizeof(nth), "%d", seat + 1);
    if (takeover_open(db, &g, seat, &open)) {
        rc = -1;
        goto out;
    }
    if (!open) {
        if (str_eq(engine_core_option(g.options, "takeover"), "no"))
            phrase_add(out, lang, "takeover.not-in-game", "game", game, NULL);
        else
            phrase_add(out, lang, "takeover.not-open", "game", game, "seat", nth, "name", g.names[seat], NULL);
        goto out;
    }
    /* Whoever was ever in the game, in any seat, takes none of its seats:
     * a player who abandons a game does not come back through another. */
    if (db_get_int64(db, &was, "SELECT count(*) FROM seat_holders WHERE game_id = ? AND address = ?", "Is", id,
                     email) < 0) {
        rc = -1;
        goto out;
    }
    if (was) {
        phrase_add(out, lang, "takeover.played-already", "game", game, NULL);
        goto out;
    }
    for (int s = 0; s < g.nseats; s++)
        if (s != seat && str_ieq(game_person(&g, s), name)) {
            phrase_add(out, lang, "takeover.name-taken", "game", game, "name", name, "seat", g.names[seat], NULL);
            goto out;
        }
    {
        struct strbuf told = STRBUF_INIT;
        bool acts = (g.ops->waiting_for(g.st) >> seat) & 1;
        if (takeover_give(db, &g, seat, name, email, lang, &told)) {
            strbuf_release(&told);
            rc = -1;
            goto out;
        }
        strbuf_release(&told);
        /* A full step to act: the step's clock starts again for her. */
        if (acts) {
            game_step_started(&g);
            if (db_do(db, "UPDATE games SET step_started_at = ?, deadline_at = nullif(?, '') WHERE id = ?", "ssI",
                      g.sched.step_started_at, g.sched.deadline_at ? g.sched.deadline_at : "", g.id)) {
                rc = -1;
                goto out;
            }
        }
        phrase_add(out, lang, acts ? "takeover.taken-acts" : "takeover.taken", "game", game, "seat", nth, "name",
                   g.names[seat], "title", g.ops->title, NULL);
        rc = 0;
    }
out:
    game_unload(&g);
    return rc;
}
