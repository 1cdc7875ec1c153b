/* verify.h: a game's public record (export) and the check anyone can run on it: the commitment, the salts, and every step replayed from the seed. */
#ifndef NGOMA_VERIFY_H
#define NGOMA_VERIFY_H

#include <sqlite3.h>
#include <stdbool.h>

#include "core/engine.h"
#include "core/gamerec.h"

/*
 * The public record of a game: module, options as stored, players, the
 * seed commitment, the salts, and every live step with its orders, its
 * public log and its observer view; the seed itself only when the game is
 * over, or when reveal (the host's own check). Owned JSON; NULL on a
 * database failure.
 */
cJSON *verify_export(sqlite3 *db, const struct game_rec *g, bool reveal);

/*
 * Checks a public record: the seed against the commitment, the seed that
 * deals from it and the salts, then every step replayed from it, each
 * order given by the seat that gave it and accepted by the rules there
 * and then, each public log and observer view as recorded. 0 when all
 * match (report says what was checked), 1 at the first difference or
 * when the record lacks the seed (report says which), -1 when the record
 * is not one. from says whose record it is: OPTIONS_RECORD for a file
 * anyone gives (the host's options must be at their defaults: no file
 * or layout it names is opened), OPTIONS_HOST for the host's own game.
 */
int verify_record(const cJSON *record, enum option_source from, struct strbuf *report);

/* verify_record on the game's own record, then the stored seed and every
 * stored state against the replay (engine_replay). */
int verify_game(sqlite3 *db, struct game_rec *g, struct strbuf *report);

#endif
