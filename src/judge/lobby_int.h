/* lobby_int.h: what the lobby's files share: one mail's session, the words of a command, a table as it stands, and each file's commands and helpers. */
#ifndef NGOMA_LOBBY_INT_H
#define NGOMA_LOBBY_INT_H

#include "judge/lobby.h"
#include "judge/consent.h"
#include "judge/gamespec.h"
#include "judge/notice.h"
#include "judge/host.h"
#include "judge/standing.h"
#include "judge/takeover.h"
#include "core/engine.h"
#include "core/history.h"
#include "core/reply.h"
#include "core/seed.h"
#include "core/view.h"
#include "judge/limits.h"
#include "judge/schedule.h"
#include "lib/address.h"
#include "lib/jsonx.h"
#include "lib/order_text.h"
#include "lib/template.h"
#include "lib/util.h"
#include "mail/mailout.h"
#include "store/db.h"
#include "store/settings.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TOKEN_LEN 10
/* An address that never confirmed gets one lobby mail in this long. */
#define QUIET (30L * 86400)
#define LOBBY_LINES 10          /* commands taken from one mail */
#define OPEN_TABLES_EACH 5      /* open games one address may host at once */
#define WATCHERS_EACH 50        /* watchers a game may have */
#define WATCHING_EACH 20        /* games one address may watch */
#define PENDING_EACH 5          /* sets of commands waiting for one address's confirmation */
#define INVITE_AGAIN 86400L     /* one invitation from one inviter to one invitee in this long */
#define LIST_MAX 20             /* open games LIST shows */

/* The words of a command, case kept. */
struct args {
    char *buf;
    char *w[64];
    int n;
};

/* What one mail to the lobby is doing. */
struct lobby {
    sqlite3 *db;
    const struct inbound_mail *in;
    const struct mail_origin *origin;
    const char *from;
    char *lang;             /* the sender's language (her answers are in it) */
    const char *mode;       /* off, invite, open */
    bool confirmed;
    bool just_confirmed;    /* by this very mail */
    bool wants_confirm;     /* a command waits for the confirmation */
    struct strbuf waiting;  /* those commands, a line each */
    int64_t set_id;         /* a waiting set whose token this mail carries, else 0 */
    int64_t invited_to;     /* the open table an invitation this mail answers names, else 0 */
    char *set_commands;     /* its commands */
    cJSON *lines;           /* [{text, body}] answered */
    struct strbuf notes;    /* said once, after the lines */
    struct strlist offers;  /* what she may do next, a tap each (JOIN 12, START 12) */
};

/* A table a command names, as it stands. */
struct table {
    int64_t id;
    char status[16], host[256];
    int seats, taken;
};

/* What became of one invitation. */
enum invited { INVITE_SENT, INVITE_LATELY, INVITE_BUDGET };

/* ---- lobby_session.c: the session ---- */
bool arg_is(const struct args *a, int i, const char *word);

/* A word that ends a name or a phrase: a term of a new game, AS or SALT. */
bool arg_keyword(const struct args *a, int i);

/* Words i.. up to the next keyword, joined by one space. */
char *arg_phrase(const struct args *a, int *i);

/* Every word from i to the end (a salt takes the rest of the line). */
char *arg_rest(const struct args *a, int i);

/* A tap the answer offers (a few at most, each once). */
void lobby_offer(struct lobby *l, const char *fmt, long long id);

/* Adds text under key, each line wrapped within 72 columns: prose flush,
 * an indented line under its own indent, no command broken. */
void lobby_add_prose(cJSON *obj, const char *key, const char *text);

void lobby_answer(struct lobby *l, const char *text, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same from the catalogue: phrase key in her language over pairs of
 * strings, name then value, ended by NULL. */
void lobby_say(struct lobby *l, const char *text, const char *key, ...) __attribute__((sentinel));
/* A lobby notice to one address (not an answer): the headline phrase
 * head_key and the text, both in her language. */
int lobby_notice_to(struct lobby *l, const char *to, const char *head_key, const char *text);

/* A lobby mail, its taps (what she may do next) as links to the lobby. */
int lobby_send_offering(sqlite3 *db, const char *to, const char *kind, const char *name, cJSON *d,
                        const struct mail_origin *origin, bool threaded, const struct strlist *taps);
int lobby_send(sqlite3 *db, const char *to, const char *kind, const char *name, cJSON *d,
                      const struct mail_origin *origin, bool threaded);

/* ---- lobby_invite.c ---- */
/* Mails one invitation, within the limits every path shares: the sender's
 * one budget for third parties (invites_per_hour), one invitation from her
 * to an invitee a day (whatever the table), one an invitee and game, and
 * for an address that never confirmed one unsolicited mail a month,
 * whoever asks. */
int invite_one(struct lobby *l, int64_t id, const char *to, const char *name, const char *inviter_name,
                  enum invited *how);

/* INVITE 12 friend@example.org */
int lobby_invite(struct lobby *l, const char *line, const struct args *a);

/* WATCH 12 / UNWATCH 12 */
int watch_set(struct lobby *l, const char *line, const struct args *a, bool on);

int lobby_watch(struct lobby *l, const char *line, const struct args *a);

int lobby_unwatch(struct lobby *l, const char *line, const struct args *a);

/* ---- lobby_tables.c ---- */
/* The open table the command's number names: 1 when there is one; 0 when
 * the answer is said (usage, a phrase key; or not waiting: started, the
 * phrase key that says so for a table that started, NULL for the plain
 * one); -1 on failure. */
int table_open_named(struct lobby *l, const char *line, const struct args *a, bool exact3, const char *usage,
                            const char *started, struct table *t);

/* "NEW 12"-style game numbers. */
bool table_number(const struct args *a, int i, int64_t *id);

/* Seats the sender at table id as name (salt may be NULL). */
int table_seat_at(struct lobby *l, int64_t id, const char *name, const char *salt);

/* The name and salt of a JOIN or NEW, from word i on; 1 when refused. */
int table_name_and_salt(struct lobby *l, const char *line, const struct args *a, int i, char **name, char **salt);

/* Opens a table: the game, its seats and terms (spec), its options filled
 * in (opts), the committed seed. */
int table_open(struct lobby *l, const struct game_spec *spec, const cJSON *opts, int64_t rematch_of, int64_t *id,
                      char commitment[65]);

int tables_open_of(sqlite3 *db, const char *addr, int64_t *n);

/* NEW kalimambo [SEATS 4] [OPTION k=v ...] [DEADLINE 48h] [NMR bot] ... [AS Name] [SALT words]:
 * the terms are judge/gamespec.c's, as ngoma new takes them. */
int lobby_new(struct lobby *l, const char *line, const struct args *a);

/* A table's MINRELIABILITY and MINRATING: 1 when the joiner is below
 * either (said), 0 when she may join; an invitation lets her in. */
int table_join_gate(struct lobby *l, const char *line, int64_t id);

/* JOIN 12 [AS Name] [SALT words] */
int lobby_join(struct lobby *l, const char *line, const struct args *a);

/* LEAVE 12: before it starts; the host leaving closes it. */
int lobby_leave(struct lobby *l, const char *line, const struct args *a);

/* UNSEAT 12 Name: the host frees a seat before the start; its player is told. */
int lobby_unseat(struct lobby *l, const char *line, const struct args *a);

/* Starts table id as game id: the seats as joined (bots for the empty
 * ones with fill, of the level bot_word names: "bot" for the host's), its
 * committed seed and the salts; every seat is welcomed. What happened is
 * in note (its sentences: it starts, or why it cannot), which the caller
 * releases; 1 when the game cannot start (nothing changed). */
int table_start(sqlite3 *db, int64_t id, bool fill, const char *bot_word, struct notice *note);

/* ---- lobby_start.c ---- */

/* START 12 [BOT:EASY|BOT:STRONG]: the host starts it, bots (of that
 * level; plain: the host's default) in the empty seats. */
int lobby_start(struct lobby *l, const char *line, const struct args *a);

/* REMATCH 12: the same game, the same players, a new deal. */
int lobby_rematch(struct lobby *l, const char *line, const struct args *a);

/* AGREE 12: a player agrees to what game 12's opener asks (a pause, more
 * time for the step); done when every other player has. */
int lobby_agree(struct lobby *l, const char *line, const struct args *a);

/* TAKE 12 Beta [AS YourName]: a seat of a running game that a bot plays
 * since its player left, taken over by a confirmed player new to the
 * game, within the gates its table was opened with. */
int lobby_take(struct lobby *l, const char *line, const struct args *a);

/* ---- lobby_answers.c ---- */
int lobby_games(struct lobby *l, const char *line, const struct args *a);

int lobby_list(struct lobby *l, const char *line, const struct args *a);

/* RATINGS kalimambo: the top 20 and where the asker stands. */
int lobby_ratings(struct lobby *l, const char *line, const struct args *a);

/* PROFILE [address or name]: ratings, reliability and games. */
int lobby_profile(struct lobby *l, const char *line, const struct args *a);

/* MYGAMES: the sender's seats, open tables, hosted and watched games. */
int lobby_mygames(struct lobby *l, const char *line, const struct args *a);

/* ---- lobby_confirm.c ---- */
/* CONFIRM TOKEN: said about the address; the token itself was read
 * before any command ran. */
int lobby_confirm(struct lobby *l, const char *line, const struct args *a);

/* DROP, in a reply to a confirmation: the commands that waited on its
 * token were dropped (before any command ran), not done. */
int lobby_drop(struct lobby *l, const char *line, const struct args *a);

/* Whether the sender's address is confirmed now (a token this mail
 * carries counts: the address's, an invitation's, or a waiting set's),
 * and which waiting set of commands, if any, this mail answers: that one
 * alone runs (l->set_id, l->set_commands). */
int lobby_identity(struct lobby *l);

/* An unconfirmed address: the commands of this mail that wait (if any)
 * become a set of their own, under a token of its own, and one mail a
 * month at most carries a token (the set's, else the address's). */
int lobby_ask_confirmation(struct lobby *l, char **token, bool *may_mail, bool *kept);

/* Once an address is confirmed: the sets other mails from it left
 * waiting, each with the token that runs it (they never run unasked). */
int lobby_other_waiting(struct lobby *l);

#endif
