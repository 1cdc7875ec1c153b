/* test_support.h: what the Check suites share: a fresh database, a new game, orders, and the list of suites. */
#ifndef NGOMA_TEST_SUPPORT_H
#define NGOMA_TEST_SUPPORT_H

#include <check.h>
#include <sqlite3.h>

#include "store/db.h"
#include "core/engine.h"

/* An assertion for hot loops: Check's own ck_assert records every passing
 * call through a pipe to the parent, which costs a system call each. */
#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond))                                                                                                   \
            ck_abort_msg(__VA_ARGS__);                                                                                 \
    } while (0)

/* An in-memory database with every migration applied. */
sqlite3 *t_db(void);
/* Creates a game of module with n players named A, B, C... and loads it. */
void t_new_game(sqlite3 *db, const char *module, int n, int64_t seed, const char *options_json,
                struct game_rec *g);
/* The game g as the database holds it now (g loaded again). */
void t_reload(sqlite3 *db, struct game_rec *g);
/* A host command at the shell (in English), in its own transaction; g
 * loaded again after it. Its answer in out; host_command's result. */
int t_host(sqlite3 *db, struct game_rec *g, const char *line, struct strbuf *out);
/* Submits text as seat inside a transaction; returns the submission. */
void t_submit(sqlite3 *db, struct game_rec *g, int seat, const char *text, struct submission *s);
/* Submits one order that must be accepted or pending. */
void t_ok(sqlite3 *db, struct game_rec *g, int seat, const char *order);
/* Checks an order directly against a module state; returns 0 or -1 and the reason. */
int t_check(const struct game_ops *ops, const void *st, int seat, const char *order, struct strbuf *why);
/* Checks and resolves one order of seat directly on a module state; the
 * order must be taken. Returns the public log of the step (owned). */
char *t_play(const struct game_ops *ops, void *st, const struct game_table *t, int seat, const char *order);
/* The order must be refused with a reason holding `reason`. */
void t_refused(const struct game_ops *ops, const void *st, const struct game_table *t, int seat, const char *order,
               const char *reason);
/* A module state from JSON text; fails the test when it is refused. */
void *t_state(const struct game_ops *ops, const char *json);
struct rng;
/* A random legal order: first a random verb (the first word), then a
 * random order of that verb, so that a verb with many variants (a food
 * path, a tile move) does not crowd out the rest. */
const char *t_pick(const struct strlist *legal, struct rng *r);
/* A queued mail as a client shows it: its subject, Message-ID,
 * References, the text of its plain part, and the words its HTML part
 * shows ("" when it has none; tags and the quotes of her own mail left
 * out) (all owned). */
struct shown {
    char *subject, *message_id, *references, *text, *html;
};
void shown_of(const char *mail, struct shown *s);
void shown_release(struct shown *s);
/* A player's answer to her seat's latest mail, through the judge's
 * intake: orders at the top, the quote below, to the mail's reply address;
 * n numbers its Message-ID. The mail must be processed. */
void t_reply_mail(sqlite3 *db, int64_t game, int seat, const char *orders, int n);
/* Text with every run of white space one space, so that a wrapped line
 * reads as the line it was (owned). */
char *t_flat(const char *text);
/* The text of the newest mail of kind to an address, white space
 * flattened (owned). */
char *t_last_text(sqlite3 *db, const char *to, const char *kind);
/* Fails unless every game of the registry is among names (a per-game
 * list of a test: a new game is never left out unseen). */
void t_covers_registry(const char *what, const char *const *names, size_t n);
/* How many of full a test plays: all of them, or under the sanitizers
 * (make check-unit-san sets NGOMA_TEST_SAMPLE=K) one in K, at least one:
 * that run checks memory on a sample, the gcc run every count in full. */
int t_sample(int full);
/* Whether this run plays samples. */
bool t_sampled(void);
/* The address a queued mail's replies go to (owned). */
char *t_reply_to(const char *mail);
/* A queued mail as its reader sees it: quoted-printable soft breaks and
 * escapes undone (a name may be cut across two lines); owned. */
char *t_readable(const char *mail);
/* Counts rows of a query returning one integer. */
long long t_count(sqlite3 *db, const char *sql);

/* Mail to the lobby through the inbound path, and what it answers. */
#include "judge/inbound.h"
/* A mail from `from` to `to` (extra header lines may be NULL), taken in
 * its own transaction. */
struct inbound_result t_mail_to(sqlite3 *db, const char *from, const char *to, const char *subject, const char *body,
                                const char *headers);
/* The same to the bare address. */
struct inbound_result t_lobby(sqlite3 *db, const char *from, const char *subject, const char *body);
/* The same to game g's seat (0-based), as its player's reply to her turn
 * mail: at her seat's address with its secret. */
struct inbound_result t_seat_mail(sqlite3 *db, const struct game_rec *g, int seat, const char *from, const char *body);
/* Mails queued to an address (of kind, or any when NULL). */
int64_t t_mails_to(sqlite3 *db, const char *to, const char *kind);
/* t_last_has and t_token_of read the last mail to an address, of this
 * kind only when it is set. */
extern const char *t_want_kind;
bool t_last_has(sqlite3 *db, const char *to, const char *text);
/* The token after `word` in the subject of the last mail to an address (owned). */
char *t_token_of(sqlite3 *db, const char *to, const char *word);
/* A database with the lobby setting as mode. */
sqlite3 *t_lobby_db(const char *mode);
/* Confirms an address: its first command, then the reply to the token. */
void t_confirmed(sqlite3 *db, const char *addr);

Suite *util_suite(void);
Suite *plans_suite(void);
Suite *languages_suite(void);
Suite *wordsleft_suite(void);
Suite *trust_suite(void);
Suite *replies_suite(void);
Suite *template_suite(void);
Suite *db_suite(void);
Suite *engine_suite(void);
Suite *conformance_suite(void);
Suite *kuniumi_suite(void);
Suite *kalimambo_suite(void);
Suite *mail_suite(void);
Suite *bumuntu_suite(void);
Suite *bantu_suite(void);
Suite *african_empires_suite(void);
Suite *bots_suite(void);
Suite *secrets_suite(void);
Suite *termination_suite(void);
Suite *mailflow_suite(void);
Suite *public_suite(void);
Suite *lobby_suite(void);
Suite *render_suite(void);
Suite *lmtp_suite(void);
Suite *rating_suite(void);
Suite *press_suite(void);
Suite *knowing_suite(void);
Suite *oracle_suite(void);
Suite *seats_suite(void);

#endif
