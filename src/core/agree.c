/* agree.c: DRAW, NODRAW, CONCEDE: standing secret votes of the seats still playing, and the agreed end when they carry. */
#include "core/agree.h"
#include "lib/template.h"
#include "core/submission.h"
#include "core/view.h"
#include "store/db.h"
#include "lib/util.h"

#include <string.h>

/* The seats still playing: not left, in an unfinished game. */
static int playing(sqlite3 *db, struct game_rec *g, unsigned *mask)
{
    unsigned left = 0, dropped = 0;
    struct game_result r;
    g->ops->result(g->st, &r);
    *mask = 0;
    if (r.finished)
        return 0;
    if (game_left(db, g, &left, &dropped))
        return -1;
    *mask = ((1u << g->nseats) - 1) & ~left;
    return 0;
}

/* The seats with a standing vote of kind. */
static int voters(sqlite3 *db, struct game_rec *g, const char *kind, unsigned *mask)
{
    return game_seat_mask(db_stmt(db, "SELECT seat FROM votes WHERE game_id = ? AND kind = ?", "Is", g->id, kind), g,
                          mask);
}

static int cast(sqlite3 *db, struct game_rec *g, int seat, const char *kind)
{
    char now[32];
    utc_now(now);
    return db_do(db, "INSERT OR IGNORE INTO votes (game_id, seat, kind, cast_at, step) VALUES (?, ?, ?, ?, ?)",
                 "Iissi", g->id, seat + 1, kind, now, g->turn);
}

/* A bot seat votes for a draw when its own evaluation of the position
 * says another seat still playing stands better. */
static int bots_consider(sqlite3 *db, struct game_rec *g, unsigned live)
{
    long long eval[GAME_MAX_SEATS];
    if (!g->ops->evaluate)
        return 0;
    for (int s = 0; s < g->nseats; s++)
        if (live & (1u << s))
            eval[s] = g->ops->evaluate(g->st, s);
    for (int s = 0; s < g->nseats; s++) {
        bool behind = false;
        if (!(live & (1u << s)) || !g->seats[s].bot)
            continue;
        for (int o = 0; o < g->nseats; o++)
            behind |= o != s && (live & (1u << o)) && eval[s] < eval[o];
        if (behind && cast(db, g, s, "draw"))
            return -1;
    }
    return 0;
}

/* The seats of seat's side (partnership Bantu's partners), its own among
 * them; a seat alone in a game without sides. */
static unsigned side_of(const struct game_rec *g, int seat)
{
    return g->ops->side ? g->ops->side(g->st, seat) | (1u << seat) : 1u << seat;
}

int agree_settle(sqlite3 *db, struct game_rec *g, struct agree_end *end)
{
    unsigned live, draw, concede, sides = 0, standing = 0, winners = 0;
    int nsides = 0, nstanding = 0;
    memset(end, 0, sizeof(*end));
    if (playing(db, g, &live) || voters(db, g, "draw", &draw) || voters(db, g, "concede", &concede))
        return -1;
    if (!live)
        return 0;
    /* Agreed ends count sides: a side concedes when every player of it
     * still playing has conceded; a concession passes when every side
     * but one has, and that side wins together. A draw needs every seat
     * still playing. */
    for (int s = 0; s < g->nseats; s++) {
        unsigned side = side_of(g, s);
        if (!((live >> s) & 1) || (sides & side))
            continue;
        sides |= side;
        nsides++;
        if ((side & live & ~concede) != 0) {
            standing |= side;
            nstanding++;
        }
    }
    winners = standing;
    if ((draw & live) == live && nsides >= 2)
        *end = (struct agree_end){ true, GAME_END_DRAWN, live };
    else if (nstanding == 1 && nsides >= 2)
        *end = (struct agree_end){ true, GAME_END_CONCEDED, winners };
    else
        return 0;
    /* The votes did their work: none is kept past the end. */
    return db_do(db, "DELETE FROM votes WHERE game_id = ?", "I", g->id);
}

int agree_vote(sqlite3 *db, struct game_rec *g, int seat, enum vote v, struct line_result *l, struct agree_end *end)
{
    unsigned live, before;
    const char *kind = v == VOTE_DRAW || v == VOTE_NODRAW ? "draw" : "concede";
    int rc = -1;

    memset(end, 0, sizeof(*end));
    if (playing(db, g, &live))
        return -1;
    if (!(live & (1u << seat))) {
        struct game_result r;
        g->ops->result(g->st, &r);
        l->status = LINE_REJECTED;
        strbuf_addstr(&l->body, r.finished ? "the game is over already: there is nothing to vote on."
                                           : "you have left the game: only the players still in it vote.");
        return 0;
    }
    if (voters(db, g, kind, &before))
        return -1;
    if (v == VOTE_DRAW || v == VOTE_CONCEDE) {
        if (cast(db, g, seat, kind))
            goto out;
        if (v == VOTE_DRAW && !g->seats[seat].bot && bots_consider(db, g, live))
            goto out;
    } else if (db_do(db, "DELETE FROM votes WHERE game_id = ? AND seat = ? AND kind = ?", "Iis", g->id, seat + 1,
                     kind)) {
        goto out;
    }
    if (agree_settle(db, g, end))
        goto out;
    if (end->carried) {
        /* The vote carried: the caller ends the game and tells everyone. */
        l->status = LINE_ACCEPTED;
        l->canonical = xstrdup(v == VOTE_DRAW ? "DRAW" : "CONCEDE");
        rc = 0;
        goto out;
    }
    l->status = LINE_INFO;
    switch (v) {
    case VOTE_DRAW:
        strbuf_addstr(&l->body, before & (1u << seat) ? "You vote for a draw, as before. " : "You vote for a draw. ");
        strbuf_addstr(&l->body, "The game ends in a draw when every player still in it has voted for one; "
                                "nobody learns who has. Your vote stands until you write NODRAW.");
        break;
    case VOTE_CONCEDE:
        strbuf_addstr(&l->body, "You concede. The game ends when all the players but one have conceded, and "
                                "that one wins; nobody learns who has. Play on meanwhile: your concession stands "
                                "until you write NOCONCEDE.");
        break;
    case VOTE_NODRAW:
        strbuf_addstr(&l->body, before & (1u << seat) ? "Your vote for a draw is withdrawn."
                                                      : "You had not voted for a draw: nothing changes.");
        break;
    case VOTE_NOCONCEDE:
        strbuf_addstr(&l->body, before & (1u << seat) ? "Your concession is withdrawn: you play to win."
                                                      : "You had not conceded: nothing changes.");
        break;
    }
    rc = 0;
out:
    return rc;
}

int agree_status(sqlite3 *db, struct game_rec *g, int seat, struct strbuf *out)
{
    unsigned draw, concede, live;
    if (view_status_line(db, g, seat >= 0 && seat < g->nseats ? g->seats[seat].lang : NULL, out) || playing(db, g, &live) || voters(db, g, "draw", &draw) ||
        voters(db, g, "concede", &concede))
        return -1;
    if (!(live & (1u << seat)))
        return 0;
    if (draw & (1u << seat)) {
        strbuf_addch(out, ' ');
        phrase_add(out, g->seats[seat].lang, "vote.draw-standing", NULL);
    }
    if (concede & (1u << seat)) {
        strbuf_addch(out, ' ');
        phrase_add(out, g->seats[seat].lang, "vote.concede-standing", NULL);
    }
    return 0;
}
