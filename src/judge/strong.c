/* strong.c: the strong bots' moves: each searched on a snapshot of its game with no write lock held, then given in a transaction of its own if the game has not moved meanwhile. */
#include "judge/strong.h"
#include "core/engine.h"
#include "core/search.h"
#include "judge/notify.h"
#include "store/db.h"
#include "store/settings.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A consistent read of game id (a read transaction: writers go on). */
int strong_snapshot(sqlite3 *db, int64_t id, struct game_rec *g)
{
    int rc;
    if (db_do(db, "BEGIN DEFERRED", NULL))
        return -1;
    rc = game_load(db, id, g);
    if (db_do(db, "COMMIT", NULL)) {
        if (!rc)
            game_unload(g);
        return -1;
    }
    return rc;
}

/* Gives order for seat at step turn (NULL: the search found none), if
 * the game still waits for it there: in one transaction, with the easy
 * bots and forced orders it then waits for, and the players told. 1 when
 * the game had moved, 2 when it is stuck (kept for the host). */
static int give(sqlite3 *db, int64_t id, int seat, int turn, char *order, struct schedule_stats *st)
{
    struct game_rec g;
    struct submission sub = { 0 };
    int rc, due;
    if (db_begin(db)) {
        free(order);
        return -1;
    }
    if (game_load(db, id, &g)) {
        free(order);
        db_rollback(db);
        return -1;
    }
    rc = engine_strong_due(db, &g, &due);
    if (!rc && (g.turn != turn || due != seat)) {
        free(order);
        game_unload(&g);
        return db_commit(db) ? -1 : 1;
    }
    sub.turn_before = g.turn;
    if (!rc && !order)
        rc = engine_stuck_no_order(db, &g, seat, "strong");
    else if (!rc)
        rc = engine_play_given(db, &g, seat, "bot", order, NULL);
    if (rc > 0) {
        /* Stuck (kept for the host, nothing played): the next pass tries again. */
        game_unload(&g);
        return db_commit(db) ? -1 : 2;
    }
    rc = rc || engine_autoplay(db, &g, &st->bot_steps);
    if (!rc)
        st->bot_steps++;
    sub.turn_after = g.turn;
    if (!rc && sub.turn_after != sub.turn_before)
        rc = notify_submission(db, &g, -1, &sub, NULL);
    game_unload(&g);
    if (rc || db_commit(db)) {
        db_rollback(db);
        return -1;
    }
    return 0;
}

/* Plays game id's strong bots, limit moves at most: how many it played,
 * -1 on a failure. */
static int play_game(sqlite3 *db, int64_t id, long long limit, struct schedule_stats *st)
{
    int moved = 0;
    for (long long n = 0; n < limit; n++) {
        struct game_rec g;
        int seat, turn, rc;
        char *order;
        if (strong_snapshot(db, id, &g))
            return -1;
        if (engine_strong_due(db, &g, &seat) || seat < 0) {
            game_unload(&g);
            break;
        }
        turn = g.turn;
        /* The search: no transaction is open. */
        order = engine_search_for(db, &g, seat, NULL);
        game_unload(&g);
        rc = give(db, id, seat, turn, order, st);
        if (rc < 0)
            return -1;
        if (rc == 2)
            break;
        moved += rc == 0;
    }
    return moved;
}

/* The host's one budget for the strong bots: every process that searches
 * for a database takes DB.bots (flock) for its pass and keeps there the
 * second it counts (the monotonic clock's, the same for every process)
 * and what was spent in it. A database without a file (the tests') keeps
 * it in the process. */
struct share {
    int fd; /* -1: the process's own */
    double window, spent;
};
static double own_window, own_spent;

/* 0 with the budget read; 1 when another process searches now. A
 * command waits a little for it (its moves are then played here); a
 * pass leaves them to the process searching. */
static int share_take(sqlite3 *db, bool wait, struct share *sh)
{
    const char *file = sqlite3_db_filename(db, "main");
    char buf[64];
    sh->fd = -1;
    sh->window = own_window;
    sh->spent = own_spent;
    if (file && *file) {
        struct strbuf path = STRBUF_INIT;
        strbuf_addf(&path, "%s.bots", file);
        sh->fd = wait ? lock_file_wait(path.buf, 5) : lock_file(path.buf);
        strbuf_release(&path);
        if (sh->fd == -1)
            return 1;
        if (sh->fd < 0) {
            sh->fd = -1; /* no lock file here (a read-only folder): the process's own */
        } else {
            ssize_t n = pread(sh->fd, buf, sizeof(buf) - 1, 0);
            buf[n > 0 ? n : 0] = '\0';
            if (sscanf(buf, "%lf %lf", &sh->window, &sh->spent) != 2)
                sh->window = sh->spent = 0;
        }
    }
    return 0;
}

static void share_give(struct share *sh)
{
    if (sh->fd < 0) {
        /* The process's own (a database without a file). */
        own_window = sh->window;
        own_spent = sh->spent;
        return;
    }
    char buf[64];
    int n = snprintf(buf, sizeof(buf), "%.3f %.3f\n", sh->window, sh->spent);
    if (pwrite(sh->fd, buf, (size_t)n, 0) != n || ftruncate(sh->fd, n))
        error("the strong bots' share could not be kept: %s", strerror(errno));
    close(sh->fd);
}

int strong_bots_play(sqlite3 *db, int moves, struct schedule_stats *st)
{
    long long per_game = setting_get_int(db, "bot_steps", 64);
    /* The host's share: bot_share percent of each second, for every
     * search of every process for this database within it. */
    struct share sh;
    double budget = 10.0 * (double)setting_get_int(db, "bot_share", 50), start;
    if (share_take(db, moves > 0, &sh))
        return 0; /* another process searches now: its pass plays them */
    start = monotonic_ms();
    if (start - sh.window >= 1000.0) {
        sh.window = start;
        sh.spent = 0;
    }
    budget -= sh.spent;
    /* From the strong bots' seats (a partial index): as many rows as
     * there are strong bots, whatever the number of games. A command or
     * a mail plays the game it touched first (the one that moved last);
     * a pass of the clock, the game that waits longest first. */
    sqlite3_stmt *q = db_stmt(db,
                              moves > 0
                                  ? "SELECT DISTINCT g.id FROM seats s JOIN games g ON g.id = s.game_id WHERE s.bot = 1"
                                    " AND s.bot_level = 'strong' AND g.status <> 'finished' AND g.paused = 0 ORDER BY"
                                    " g.updated_at DESC, g.id DESC"
                                  : "SELECT DISTINCT g.id FROM seats s JOIN games g ON g.id = s.game_id WHERE s.bot = 1"
                                    " AND s.bot_level = 'strong' AND g.status <> 'finished' AND g.paused = 0 ORDER BY"
                                    " g.step_started_at, g.id",
                              NULL);
    int64_t *ids = NULL;
    int *played = NULL;
    size_t n = 0, cap = 0;
    int searched = 0; /* strong moves played */
    bool any = true;
    int rc;
    if (!q) {
        share_give(&sh);
        return -1;
    }
    while ((rc = db_step(q)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            ids = xrealloc(ids, cap * sizeof(int64_t));
        }
        ids[n++] = sqlite3_column_int64(q, 0);
    }
    db_finalize(q);
    rc = rc < 0 ? -1 : 0;
    played = xcalloc(n ? n : 1, sizeof(int));
    /* Round robin: a move a game a round, within the pass's budget of
     * time, the moves a command may play, and bot_steps a game. */
    while (any && !rc) {
        any = false;
        for (size_t i = 0; i < n && !rc; i++) {
            int m;
            /* A command plays its moves (the host's own, or a mail's
             * few in receive's worker); the passes keep to the share. */
            /* (A pass plays one move whatever it has spent: a game of
             * strong bots always moves on.) */
            if ((moves > 0 && searched >= moves) || (moves == 0 && searched && monotonic_ms() - start >= budget)) {
                any = false;
                break;
            }
            if (played[i] < 0 || played[i] >= per_game)
                continue;
            /* A command plays the game it touched first, its moves in
             * a row; a pass, a move a game a round. */
            long long limit = 1;
            if (moves > 0)
                limit = per_game < moves - searched ? per_game : moves - searched;
            if ((m = play_game(db, ids[i], limit, st)) < 0) {
                if (db_failure_is_temporary())
                    rc = -1;
                else
                    error("game %lld: its strong bots could not play", (long long)ids[i]);
                played[i] = -1;
                continue;
            }
            if (m == 0) {
                played[i] = -1; /* not due (it waits for a person), or it moved meanwhile: the next pass */
                continue;
            }
            st->bot_games += played[i] == 0;
            played[i] += m;
            searched += m;
            any = moves == 0;
            if (moves > 0)
                played[i] = -1; /* its moves played in a row */
        }
    }
    sh.spent += monotonic_ms() - start;
    share_give(&sh);
    free(played);
    free(ids);
    return rc;
}

void strong_nmr_plan(sqlite3 *db, const struct game_rec *g, unsigned seats, struct strong_plan *p)
{
    strong_plan_clear(p);
    p->game = g->id;
    p->turn = g->turn;
    /* Each seat's order is searched on the step as it stands; the seats
     * of a simultaneous step choose apart, as their players would. */
    for (int s = 0; s < g->nseats; s++)
        if (seats & (1u << s))
            p->order[s] = engine_search_for(db, g, s, NULL);
}

char *strong_plan_take(struct strong_plan *p, int64_t game, int turn, int seat)
{
    char *o;
    if (p->game != game || p->turn != turn || seat < 0 || seat >= GAME_MAX_SEATS)
        return NULL;
    o = p->order[seat];
    p->order[seat] = NULL;
    return o;
}

void strong_plan_clear(struct strong_plan *p)
{
    for (int s = 0; s < GAME_MAX_SEATS; s++)
        free(p->order[s]);
    memset(p, 0, sizeof(*p));
}
