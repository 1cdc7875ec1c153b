/* engine_int.h: what the engine's files share: the common orders' kinds, and the helpers one file gives the others. */
#ifndef NGOMA_ENGINE_INT_H
#define NGOMA_ENGINE_INT_H

#include "core/engine.h"
#include "lib/cmdtab.h"
#include "core/agree.h"
#include "core/bot.h"
#include "core/search.h"
#include "core/seatlife.h"
#include "core/stuck.h"
#include "store/db.h"
#include "store/settings.h"
#include "core/history.h"
#include "core/options.h"
#include "core/seed.h"
#include "core/view.h"
#include "lib/address.h"
#include "lib/jsonx.h"
#include "lib/order_text.h"
#include "lib/paths.h"
#include "lib/rng.h"
#include "lib/template.h"
#include "lib/util.h"
#include "lib/words.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum command { CMD_NONE, CMD_HELP, CMD_BOARD, CMD_LEGAL, CMD_HISTORY, CMD_RESIGN, CMD_VACATION, CMD_TIMEZONE, CMD_MAIL,
               CMD_IMAGES, CMD_LANGUAGE, CMD_DRAW, CMD_NODRAW, CMD_CONCEDE, CMD_NOCONCEDE, CMD_PLANS, CMD_CANCEL };

/* Refuses line l, saying why. */
void engine_reject(struct line_result *l, const char *why);

/* Whether a line the game refused is a greeting or a sign-off. */
bool engine_is_greeting(const struct game_rec *g, int seat, const char *line);

/* The common order a line is, or CMD_NONE: one of the game's. */
enum command engine_command_of(const char *line);

/* "Did you mean ...?": the legal orders nearest a refused line (a few
 * letters off; for VERB NUMBER, the nearest numbers), or the common
 * order its words name (DRAW, CONCEDE); never played for her. One
 * offered may be taken by a reply of yes. False when none is near. */
bool engine_near_orders(const struct game_rec *g, int seat, const char *line, struct strbuf *out);
/* The same as a bare question, "Did you mean ...?": no yes is taken for
 * it (a plan's orders are no order given now). */
bool engine_near_plain(const struct game_rec *g, int seat, const char *line, struct strbuf *out);

/* LEGAL, or LEGAL FOOD: the orders (those beginning so) one per line, a
 * long list summed up by kind. */
void engine_legal_text(const struct game_rec *g, int seat, const char *filter, struct strbuf *out);

/* HELP: the game's rules summary and how orders are written. */
void engine_rules_text(const struct game_rec *g, int seat, struct strbuf *out);

/* VACATION UNTIL 2026-12-10 (UTC) | VACATION 7d | VACATION OFF: no reminders and
 * no deadline for the seat until then (at most 30 days). */
int engine_vacation(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l);

/* MAIL TURN | MAIL EVERY | MAIL DIGEST 1d: when the seat is mailed. */
int engine_mail_cmd(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l);

/* IMAGES ON | IMAGES OFF: whether her mails show the board as a picture. */
int engine_images_cmd(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l);
int engine_language_cmd(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l);

/* TIMEZONE Europe/Berlin: deadlines are shown in it. */
int engine_timezone_cmd(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l);

/* Stores one resolved step as a turn row; sets *turn_id. */
int engine_record_turn(sqlite3 *db, struct game_rec *g, const char *kind, const cJSON *orders,
                       const struct game_log *log, int64_t *turn_id);

/* What everyone reads when the players agree the end. */
void engine_agreed_log(const struct game_table *t, enum game_end how, unsigned winners, struct game_log *log);

#endif
