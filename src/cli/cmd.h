/* cmd.h: what every command of the ngoma program shares: its context, its table entry, and exit helpers. */
#ifndef NGOMA_CMD_H
#define NGOMA_CMD_H

#include <sqlite3.h>
#include <stdint.h>

#include "core/gamerec.h"
#include "lib/cmdtab.h"
#include "lib/strbuf.h"

#define NEED_DB 1u   /* the dispatcher opens (and migrates) the database first */
#define OR_FILE 2u   /* ... unless --file names what to read instead */
#define READS 4u     /* it only reads: a running ngoma serve is not told of it */
#define BOTS 8u      /* it may leave a game waiting for a strong bot: the bot plays after it (cmd_strong_bots) */

/* What a command leaves to be done once its database is closed. */
#define AFTER_READ 1u   /* the inbox: a mail was kept */
#define AFTER_SEND 2u   /* the outbox: answers were queued */

struct cmd_ctx {
    const char *db_path;
    bool db_named;      /* by --db, $NGOMA_DB or the configuration file: it may be created */
    sqlite3 *db;
    const struct command *cmd;
    unsigned after;     /* AFTER_READ | AFTER_SEND */
};

/* A row of lib/cmdtab.h's table (its usage: what follows the command's
 * name; its arity: the positional arguments, checked once by the
 * dispatcher; its flags: NEED_DB ...), and the command. */
struct command {
    struct cmdtab_row row;
    int (*fn)(struct cmd_ctx *c, int argc, char **argv);
};

extern const struct command commands[];

/* A command's arguments as shown: {terms} in them stands for a new game's
 * terms, as judge/gamespec.c declares them. */
void cmd_args_text(const struct command *c, struct strbuf *out);
/* "ngoma CMD: MESSAGE (usage: ...)" on stderr; returns EX_USAGE. */
int cmd_usage(const struct cmd_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The exit code after a failure already reported: EX_TEMPFAIL when the
 * database was busy or the disk failed, else EX_SOFTWARE. */
int cmd_failed(void);
/* Loads GAME; returns 0 or the exit code (EX_USAGE, EX_NOINPUT...). */
int cmd_load_game(struct cmd_ctx *c, const char *arg, struct game_rec *g);
/* Loads GAME and finds PLAYER in it; 0 or the exit code. */
int cmd_load_seat(struct cmd_ctx *c, const char *game, const char *player, struct game_rec *g, int *seat);
/* The strong bots the command left due play now, each searching with no
 * lock held (strong_bots_play); a mail command then sends what they
 * queued, as send_on_receive says. */
void cmd_strong_bots(struct cmd_ctx *c);
/* Finds PLAYER in g; returns the seat, or -1 after reporting. */
int cmd_seat(const struct game_rec *g, const char *who);
int cmd_init(struct cmd_ctx *c, int argc, char **argv);
int cmd_games(struct cmd_ctx *c, int argc, char **argv);
int cmd_rules(struct cmd_ctx *c, int argc, char **argv);
int cmd_new(struct cmd_ctx *c, int argc, char **argv);
int cmd_order(struct cmd_ctx *c, int argc, char **argv);
int cmd_legal(struct cmd_ctx *c, int argc, char **argv);
int cmd_show(struct cmd_ctx *c, int argc, char **argv);
int cmd_history(struct cmd_ctx *c, int argc, char **argv);
int cmd_picture(struct cmd_ctx *c, int argc, char **argv);
int cmd_replay(struct cmd_ctx *c, int argc, char **argv);
int cmd_verify(struct cmd_ctx *c, int argc, char **argv);
int cmd_export(struct cmd_ctx *c, int argc, char **argv);
int cmd_site(struct cmd_ctx *c, int argc, char **argv);
int cmd_receive(struct cmd_ctx *c, int argc, char **argv);
/* What c->after asks, once the command's database is closed: a running
 * ngoma serve is woken to do it, else a worker is started that does it
 * and ends, detached from the caller (the MTA's delivery is over). */
void cmd_after(struct cmd_ctx *c);
int cmd_fetch(struct cmd_ctx *c, int argc, char **argv);
int cmd_send(struct cmd_ctx *c, int argc, char **argv);
int cmd_outbox(struct cmd_ctx *c, int argc, char **argv);
int cmd_config(struct cmd_ctx *c, int argc, char **argv);
int cmd_run(struct cmd_ctx *c, int argc, char **argv);
int cmd_serve(struct cmd_ctx *c, int argc, char **argv);
int cmd_list(struct cmd_ctx *c, int argc, char **argv);
int cmd_status(struct cmd_ctx *c, int argc, char **argv);
/* pause, resume, extend, rollback, replace, kick: one host command each. */
int cmd_host(struct cmd_ctx *c, int argc, char **argv);
int cmd_end(struct cmd_ctx *c, int argc, char **argv);
int cmd_prune(struct cmd_ctx *c, int argc, char **argv);
int cmd_backup(struct cmd_ctx *c, int argc, char **argv);
int cmd_ratings(struct cmd_ctx *c, int argc, char **argv);
int cmd_player(struct cmd_ctx *c, int argc, char **argv);
int cmd_merge_player(struct cmd_ctx *c, int argc, char **argv);

#endif
