/* notify.h: which mail each seat gets when something happens in a game, rendered from templates/ into the outbox. */
#ifndef NGOMA_NOTIFY_H
#define NGOMA_NOTIFY_H

#include <sqlite3.h>
#include <stdint.h>

#include "core/engine.h"

/* The mail an answer refers to: its Message-ID, its own references and its
 * journal row. */
struct mail_origin {
    const char *message_id;
    const char *references;
    int64_t row;
    const char *sender; /* its From address, NULL when unknown */
};

/* Each seat's welcome: the rules, its secret, how to reply, its board;
 * and the host's, when the game has a host. */
int notify_welcome(sqlite3 *db, struct game_rec *g);
/* One seat's welcome (a new player taking a seat). */
int notify_welcome_seat(sqlite3 *db, struct game_rec *g, int seat);
/* After an order text: the reply to its sender when it came by mail
 * (origin non-NULL), and for every other seat the new turns and its board,
 * or the final result. Seats playing as bots get no mail. seat -1: nobody
 * sent it (a deadline, a host), so every seat is told. */
int notify_submission(sqlite3 *db, struct game_rec *g, int seat, const struct submission *sub,
                      const struct mail_origin *origin);
/* A mail to the game's host (if it has one), rendered from template name. */
int notify_host(sqlite3 *db, struct game_rec *g, const char *kind, const char *name, cJSON *data,
                const struct mail_origin *origin);
/* The host's welcome: the host secret and the commands. */
int notify_host_welcome(sqlite3 *db, struct game_rec *g);
/* A mail refused (a wrong or missing secret, a mail too large...): the
 * registered address of the seat it claimed to come from is told why,
 * with the first lines of what it said quoted. */
int notify_refused(sqlite3 *db, struct game_rec *g, int seat, const char *why, const char *text,
                   const struct mail_origin *origin);
/* The one short answer to a mail over a limit: which (a setting), what it
 * was, and what to do. */
int notify_limit(sqlite3 *db, struct game_rec *g, int seat, const char *limit, const char *what, const char *todo,
                 const struct mail_origin *origin);
/* Records that a notice of kind went to seat (-1: the host) in the current
 * step: 1 the first time, 0 when it went before, -1 on failure. */
int notify_once(sqlite3 *db, struct game_rec *g, int seat, const char *kind);
/* The template data every mail to a seat shares (game, player, secret,
 * reply address, board, status, whose turn). */
cJSON *notify_seat_data(sqlite3 *db, struct game_rec *g, int seat);
/* Renders template `name` with data and queues it for seat. */
int notify_send(sqlite3 *db, struct game_rec *g, int seat, const char *kind, const char *name, cJSON *data,
                const struct mail_origin *origin);

#endif
