/* seatlife.c: one path for every way a seat changes hands: who held it from when to when and why she left (seat_holders), her vote cleared, her press closed to the newcomer, the leaver kept for reliability. */
#include "core/seatlife.h"
#include "core/plan.h"
#include "store/db.h"
#include "lib/util.h"

#include <assert.h>

const char *seatlife_word(enum seat_leave how)
{
    static const char *const words[] = { "resigned", "dropped", "kicked", "replaced", "consent", "taken", "dropped" };
    assert((size_t)how < sizeof(words) / sizeof(words[0]));
    return words[how];
}

int seatlife_begin_game(sqlite3 *db, int64_t id)
{
    char now[32];
    utc_now(now);
    return db_do(db,
                 "INSERT INTO seat_holders (game_id, seat, address, name, bot_level, from_step, from_at, press_after,"
                 " orders_after, turns_after) SELECT game_id, seat, email, coalesce(real_name, name), bot_level, 0,"
                 " ?, (SELECT coalesce(max(id), 0) FROM press), (SELECT coalesce(max(id), 0) FROM orders), 0 FROM"
                 " seats WHERE game_id = ? ORDER BY seat",
                 "sI", now, id);
}

int seatlife_start(sqlite3 *db, const struct game_rec *g, int seat)
{
    assert(seat >= 0 && seat < g->nseats);
    const struct seat_info *s = &g->seats[seat];
    bool bot = game_seat_bot(g, seat);
    char now[32];
    utc_now(now);
    return db_do(db,
                 "INSERT INTO seat_holders (game_id, seat, address, name, bot_level, from_step, from_at, press_after,"
                 " orders_after, turns_after) VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(id), 0) FROM press),"
                 " (SELECT coalesce(max(id), 0) FROM orders), (SELECT coalesce(max(id), 0) FROM turns))",
                 "Iisssis", g->id, seat + 1, bot ? "bot" : s->email, game_person(g, seat), bot ? s->bot_level : NULL,
                 g->turn, now);
}

int seatlife_leave(sqlite3 *db, const struct game_rec *g, int seat, enum seat_leave how)
{
    assert(seat >= 0 && seat < g->nseats && how <= SEAT_ABANDONED);
    char now[32];
    utc_now(now);
    if (db_do(db,
              "UPDATE seat_holders SET to_step = ?, to_at = ?, how = ?, orders_to = (SELECT coalesce(max(id), 0) FROM"
              " orders) WHERE id = (SELECT max(id) FROM seat_holders"
              " WHERE game_id = ? AND seat = ? AND to_step IS NULL)",
              "issIi", g->turn, now, seatlife_word(how), g->id, seat + 1) ||
        db_do(db, "DELETE FROM votes WHERE game_id = ? AND seat = ?", "Ii", g->id, seat + 1) ||
        /* Her mutes, and the others' of her, were hers, not a newcomer's;
         * and her plans, and what her mails were to tell of them. */
        db_do(db, "DELETE FROM press_mutes WHERE game_id = ? AND (seat = ?2 OR muted = ?2)", "Ii", g->id, seat + 1) ||
        plan_clear(db, g, seat, PLAN_CLEAR_SEAT, NULL))
        return -1;
    if ((how == SEAT_KICKED || how == SEAT_REPLACED || how == SEAT_ABANDONED) && !game_seat_bot(g, seat))
        return db_do(db, "INSERT INTO seat_leavers (game_id, seat, address, how, at) VALUES (?, ?, ?, ?, ?)", "Iisss",
                     g->id, seat + 1, g->seats[seat].email,
                     how == SEAT_KICKED ? "kicked" : how == SEAT_REPLACED ? "replaced" : "dropped", now);
    return 0;
}

int seatlife_replace_how(sqlite3 *db, const struct game_rec *g, int seat, enum seat_leave *how)
{
    int64_t missed;
    if (db_get_int64(db, &missed,
                     "SELECT count(*) FROM orders o JOIN seat_holders h ON h.id = (SELECT max(id) FROM seat_holders"
                     " WHERE game_id = ?1 AND seat = ?2) WHERE o.game_id = ?1 AND o.seat = ?2 AND o.source = 'nmr'"
                     " AND o.status = 'accepted' AND CASE WHEN h.orders_after IS NULL THEN o.step > h.from_step ELSE"
                     " o.id > h.orders_after END",
                     "Ii", g->id, seat + 1) < 0)
        return -1;
    *how = missed ? SEAT_REPLACED : SEAT_CONSENT;
    return 0;
}

int seatlife_missed_in_a_row(sqlite3 *db, const struct game_rec *g, int seat, int64_t *missed)
{
    /* The steps a deadline played for her since her last own order (or
     * since her holding began). */
    return db_get_int64(db, missed,
                        "WITH h AS (SELECT coalesce(orders_after, 0) AS after FROM seat_holders WHERE id = (SELECT"
                        " max(id) FROM seat_holders WHERE game_id = ?1 AND seat = ?2)),"
                        " own AS (SELECT coalesce(max(o.id), (SELECT after FROM h)) AS last FROM orders o WHERE"
                        " o.game_id = ?1 AND o.seat = ?2 AND o.id > (SELECT after FROM h) AND o.source NOT IN"
                        " ('nmr', 'bot', 'forced'))"
                        " SELECT count(DISTINCT o.step) FROM orders o WHERE o.game_id = ?1 AND o.seat = ?2 AND"
                        " o.source = 'nmr' AND o.status = 'accepted' AND o.id > (SELECT last FROM own)",
                        "Ii", g->id, seat + 1) < 0
               ? -1
               : 0;
}

int seatlife_rolled_back(sqlite3 *db, const struct game_rec *g, int step)
{
    /* Plans were made for a position that is gone: every seat's goes. */
    return db_do(db, "DELETE FROM votes WHERE game_id = ? AND step > ?", "Ii", g->id, step) ||
                   plan_clear(db, g, -1, PLAN_CLEAR_ROLLBACK, NULL)
               ? -1
               : 0;
}

int seatlife_press_after(sqlite3 *db, const struct game_rec *g, int seat, int64_t *after)
{
    int found = db_get_int64(db, after,
                             "SELECT press_after FROM seat_holders WHERE game_id = ? AND seat = ? ORDER BY id DESC"
                             " LIMIT 1",
                             "Ii", g->id, seat + 1);
    if (found < 0)
        return -1;
    if (!found)
        *after = 0;
    return 0;
}
