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
/* The same for one who takes the seat over (midgame: the board, with what
 * the seat holds, even when it is not her turn). */
int notify_welcome_newcomer(sqlite3 *db, struct game_rec *g, int seat, bool midgame);
/* Orders listed one a line in a mail asking to act (more: a summary). */
#define OPTIONS_LIST_MAX 12

/* After an order text: the reply to its sender when it came by mail
 * (origin non-NULL): the steps no mail told her yet, what became of each
 * line, what was played after them, the board and what she may do; then
 * notify_progress for the others. Seats playing as bots get no mail.
 * seat -1: nobody sent it (a deadline, the bots). */
int notify_submission(sqlite3 *db, struct game_rec *g, int seat, const struct submission *sub,
                      const struct mail_origin *origin);
/* The game moved on: every seat (but except) that must act now, and every
 * seat when the game is over, gets one mail telling all since its last
 * (MAIL EVERY: every seat at every step); the others wait. */
int notify_progress(sqlite3 *db, struct game_rec *g, int except);
/* Renders template name for seat with everything since its last mail
 * ("turns") and queues it; the seat is then told up to the current step. */
int notify_tell(sqlite3 *db, struct game_rec *g, int seat, const char *kind, const char *name, cJSON *data,
                const struct mail_origin *origin);
/* The MAIL DIGEST mail: what happened since the seat's last mail. */
int notify_digest(sqlite3 *db, struct game_rec *g, int seat);
/* A mail to the game's host (if it has one), rendered from template name. */
int notify_host(sqlite3 *db, struct game_rec *g, const char *kind, const char *name, cJSON *data,
                const struct mail_origin *origin);
/* A notice to every seat but except (-1: none), with its board: what the
 * host did, or who took a seat; each reads it in her language. */
struct notice;
int notify_notice_all(sqlite3 *db, struct game_rec *g, int except, const struct notice *n);
/* The host's welcome: the host secret and the commands. */
int notify_host_welcome(sqlite3 *db, struct game_rec *g);
/* A mail refused (a wrong or missing secret, a mail too large...): the
 * registered address of the seat it claimed to come from is told why,
 * with the first lines of what it said quoted. */
int notify_refused(sqlite3 *db, struct game_rec *g, int seat, const char *why, const char *text,
                   const struct mail_origin *origin);
/* The one short answer to a mail over a limit: which (a setting), what it
 * was, and what to do. */
/* To one who left a seat and mails it still (address, the name she
 * played under): nothing was taken, why, and the lobby. */
int notify_left(sqlite3 *db, struct game_rec *g, const char *address, const char *name, const char *why,
                const char *text, const struct mail_origin *origin);
int notify_limit(sqlite3 *db, struct game_rec *g, int seat, const char *limit, const char *what, const char *todo,
                 const struct mail_origin *origin);
/* Records that a notice of kind went to seat (-1: the host) in the current
 * step: 1 the first time, 0 when it went before, -1 on failure. */
int notify_once(sqlite3 *db, struct game_rec *g, int seat, const char *kind);
/* The template data every mail to a seat shares (game, player, secret,
 * reply address, board, status, whose turn, where the game stands, and
 * when she must act what she may order). */
cJSON *notify_seat_data(sqlite3 *db, struct game_rec *g, int seat);
/* Renders template `name` with data and queues it for seat. */
int notify_send(sqlite3 *db, struct game_rec *g, int seat, const char *kind, const char *name, cJSON *data,
                const struct mail_origin *origin);

#endif
