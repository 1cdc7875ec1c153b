/* plans.c: `bench_ngoma plans`: how many mails a game of each kind takes with and without plans, both players planning two moves ahead with the easy bot as planner, as a ratio in one run. */
#include "bench.h"
#include "core/engine.h"
#include "core/visibility.h"
#include "lib/util.h"
#include "store/db.h"
#include "../tests/planner.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MAILS_MAX 5000 /* a game that takes more is cut there (none does) */

/* One game of ops by mail, every player's mail her order and (plan) her
 * IF lines: the mails the players sent; *planned the orders their plans
 * played. */
static long one_game(sqlite3 *db, const struct game_ops *ops, int seats, int64_t seed, bool plan, long *planned,
                     bool *together)
{
    static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan" };
    static const char *const emails[] = { "ann@example.org", "bob@example.org", "cleo@example.org",
                                          "dan@example.org" };
    struct strbuf err = STRBUF_INIT;
    cJSON *opts = cJSON_CreateObject();
    struct game_rec g;
    int64_t id, n;
    long mails = 0;
    if (db_begin(db) || engine_new(db, ops, seats, names, emails, opts, seed, true, &id, &err) || db_commit(db))
        die("%s", err.len ? err.buf : "engine_new failed");
    cJSON_Delete(opts);
    strbuf_release(&err);
    if (game_load(db, id, &g))
        die("game_load");
    while (ops->waiting_for(g.st) && mails < MAILS_MAX) {
        unsigned missing = 0;
        if (game_missing(db, &g, &missing) || !missing)
            die("%s: a game waits for nobody missing", ops->name);
        *together |= (ops->waiting_for(g.st) & (ops->waiting_for(g.st) - 1)) != 0;
        for (int s = 0; s < seats; s++) {
            struct submission sub = { 0 };
            char *text;
            if (!(missing & (1u << s)))
                continue;
            text = planner_mail(&g, s, plan, (uint64_t)seed * 7919 + (uint64_t)g.turn * 31 + (uint64_t)s);
            if (!text)
                die("%s: no order for seat %d", ops->name, s + 1);
            if (db_begin(db) || engine_submit(db, &g, s, text, "bench", 0, &sub) || db_commit(db))
                die("%s: submit failed", ops->name);
            submission_release(&sub);
            free(text);
            mails++;
            break; /* the game moved on: ask it again who is missing */
        }
    }
    if (db_get_int64(db, &n, "SELECT count(*) FROM orders WHERE game_id = ? AND source = 'plan' AND status = 'accepted'",
                     "I", id) < 0)
        die("count");
    *planned += (long)n;
    game_unload(&g);
    return mails;
}

int bench_plans(const char *dir, int ngames)
{
    char path[4096];
    sqlite3 *db;
    snprintf(path, sizeof(path), "%s/plans.db", dir);
    unlink(path);
    if (!(db = db_open(path)))
        return 1;
    printf("%-16s %5s %14s %14s %8s %11s  %s\n", "game", "seats", "mails without", "mails with", "ratio",
           "from plans", "");
    for (size_t i = 0; game_registry[i]; i++) {
        const struct game_ops *ops = game_registry[i];
        int seats = ops->min_seats > 2 ? ops->min_seats : 2;
        long without = 0, with = 0, planned = 0, none = 0;
        bool together = false;
        for (int k = 0; k < ngames; k++) {
            without += one_game(db, ops, seats, 1000 + k, false, &none, &together);
            with += one_game(db, ops, seats, 1000 + k, true, &planned, &together);
        }
        printf("%-16s %5d %14.1f %14.1f %8.2f %10.0f%%  %s\n", ops->name, seats, (double)without / ngames,
               (double)with / ngames, without ? (double)with / (double)without : 0.0,
               with ? 100.0 * (double)planned / (double)(with + planned) : 0.0,
               together                        ? "(orders given together: no plans)"
               : vis_hidden_information(ops) ? "(hidden information: the easy bot offers no plans)"
                                               : "");
    }
    printf("(mails: those the players sent, a game's average over %d; ratio: with plans over without, in this run;"
           " from plans: of the orders the players gave, those their plans played)\n",
           ngames);
    db_close(db);
    unlink(path);
    return 0;
}
