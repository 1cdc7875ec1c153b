/* stuck.c: games that cannot move on for a reason that is not a player's: kept once a step, told to the host, named by list and status. */
#include "core/stuck.h"
#include "store/db.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int stuck_mark(sqlite3 *db, int64_t game, int turn, const char *why)
{
    char now[32], *was = NULL;
    utc_now(now);
    if (stuck_why(db, game, turn, &was, NULL))
        return -1;
    /* Once a step in the log; the alert tells the host once. */
    if (!was || strncmp(was, why, strlen(why)) != 0)
        fprintf(stderr, "ngoma: game %lld cannot move on at step %d: %s\n", (long long)game, turn, why);
    free(was);
    /* A whole sentence, whatever the refusal's text ended with. */
    size_t n = strlen(why);
    const char *stop = n && strchr(".!?", why[n - 1]) ? "" : ".";
    return db_do(db,
                 "INSERT INTO game_stuck (game_id, turn, why, since) VALUES (?1, ?2, ?3 || ?4, ?5) ON CONFLICT (game_id) DO"
                 " UPDATE SET why = excluded.why, since = CASE WHEN turn = excluded.turn THEN since ELSE excluded.since"
                 " END, alerted = CASE WHEN turn = excluded.turn THEN alerted ELSE 0 END, turn = excluded.turn",
                 "Iisss", game, turn, why, stop, now);
}

int stuck_clear(sqlite3 *db, int64_t game)
{
    return db_do(db, "DELETE FROM game_stuck WHERE game_id = ?", "I", game);
}

int stuck_why(sqlite3 *db, int64_t game, int turn, char **why, char since[32])
{
    sqlite3_stmt *st = db_stmt(db, "SELECT why, since FROM game_stuck WHERE game_id = ? AND turn = ?", "Ii", game, turn);
    int rc;
    *why = NULL;
    if (!st)
        return -1;
    rc = db_step(st);
    if (rc == SQLITE_ROW) {
        *why = xstrdup((const char *)sqlite3_column_text(st, 0));
        if (since)
            snprintf(since, 32, "%s", (const char *)sqlite3_column_text(st, 1));
    }
    db_finalize(st);
    return rc < 0 ? -1 : 0;
}
