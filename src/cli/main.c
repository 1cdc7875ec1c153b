/* main.c: the ngoma program: global options, the command table, and one dispatcher that checks arity for all. */
#include "cli/cmd.h"
#include "lib/cmdtab.h"
#include "judge/gamespec.h"
#include "store/db.h"
#include "store/settings.h"
#include "lib/template.h"
#include "intake/wake.h"
#include "lib/util.h"
#include "lib/paths.h"

#include "lib/conffile.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct command commands[] = {
    { { "init", 0, 0, NEED_DB, "",
        "create the database, or upgrade it to the current schema" },
      cmd_init },
    { { "games", 0, 0, 0, "",
        "list the games ngoma can run" },
      cmd_games },
    { { "rules", 1, 1, 0, "GAME",
        "print the rules summary, order syntax and options of a game" },
      cmd_rules },
    { { "new", 1, 1, NEED_DB | BOTS, "GAME --player NAME=EMAIL|bot[:easy|:strong] ... [--seed N] {terms} [--host EMAIL]",
        "start a game; prints its id" },
      cmd_new },
    { { "list", 0, 0, NEED_DB | READS, "",
        "every game: status, step, deadline, who is missing" },
      cmd_list },
    { { "status", 1, 1, NEED_DB | READS, "GAME",
        "one game: status, deadline per player, policy, host, seats" },
      cmd_status },
    { { "order", 3, 3, NEED_DB | BOTS, "GAME PLAYER 'ORDER TEXT'",
        "give orders as PLAYER would by mail ('-' reads them from stdin); prints the reply" },
      cmd_order },
    { { "legal", 2, 2, NEED_DB | READS, "GAME PLAYER",
        "list every legal order of PLAYER now, one per line" },
      cmd_legal },
    { { "show", 1, 1, NEED_DB | READS, "GAME [--as PLAYER] [--json] [--turn N|--step N]",
        "show the game as PLAYER (or an observer) sees it" },
      cmd_show },
    { { "picture", 1, 1, NEED_DB | READS, "GAME [--as PLAYER] [--turn N|--step N] > board.png",
        "draw the board as PLAYER (or an observer) sees it, as a PNG on standard output" },
      cmd_picture },
    { { "history", 1, 1, NEED_DB | READS, "GAME [--as PLAYER] [--turn N|--step N]",
        "print the game round by round (turn by turn), or one round (--turn) or step (--step)" },
      cmd_history },
    { { "replay", 1, 1, NEED_DB | READS, "GAME",
        "rebuild the game from its seed and orders and check every turn" },
      cmd_replay },
    { { "verify", 0, 1, NEED_DB | OR_FILE | READS, "GAME | --file RECORD.json",
        "check the seed against its commitment and replay every deal and step from it (a record: no database)" },
      cmd_verify },
    { { "site", 1, 1, NEED_DB | READS, "DIR",
        "write the public record as a static web site: every game, its steps with pictures, its verification data" },
      cmd_site },
    { { "export", 1, 1, NEED_DB | READS, "GAME",
        "print the game's public record as JSON: orders, logs, observer views, commitment (the seed once over)" },
      cmd_export },
    { { "receive", 0, 1, NEED_DB | BOTS, "[--wait] [FILE]",
        "keep one mail (stdin, or FILE) as an MTA pipe, .forward or procmail delivers it, and have it read at once " "(--wait: read it here, and print what became of it)" },
      cmd_receive },
    { { "fetch", 0, 0, NEED_DB | BOTS, "[--mbox FILE]",
        "read new mail from the configured Maildir and/or IMAP mailbox (or every mail of an mbox file)" },
      cmd_fetch },
    { { "send", 0, 0, NEED_DB, "",
        "read what the inbox keeps, then deliver the outbox (dir, smtp or sendmail, per send_method), after any other " "ngoma at either" },
      cmd_send },
    { { "outbox", 0, 0, NEED_DB, "[--all] [--retry ID|--retry --all]",
        "list mails not yet sent, or send deferred and failed ones now" },
      cmd_outbox },
    { { "config", 0, 2, NEED_DB, "[KEY [VALUE]] [--unset KEY]",
        "list, show, set or unset a setting" },
      cmd_config },
    { { "run", 0, 0, NEED_DB, "",
        "what cron runs: fetch mail, apply deadlines and reminders, send the outbox" },
      cmd_run },
    { { "serve", 0, 0, NEED_DB, "[--listen unix:PATH | --listen HOST:PORT]... [--socket-mode 660] [--socket-group GROUP]",
        "run resident: take mail by LMTP and answer at once, send the outbox as it fills, keep the clock to the second " "(SIGTERM stops, SIGHUP rereads the settings)" },
      cmd_serve },
    { { "prune", 0, 0, NEED_DB, "[--before DURATION]",
        "delete sent mail, raw copies and journal rows older than DURATION (default: the retention setting)" },
      cmd_prune },
    { { "backup", 1, 1, NEED_DB | READS, "FILE",
        "write a consistent copy of the database to FILE, while mail arrives" },
      cmd_backup },
    { { "pause", 1, 1, NEED_DB | BOTS, "GAME",
        "host: stop the game and its clock" },
      cmd_host },
    { { "resume", 1, 1, NEED_DB | BOTS, "GAME",
        "host: go on, with a fresh deadline" },
      cmd_host },
    { { "extend", 2, 2, NEED_DB | BOTS, "GAME DURATION",
        "host: more time for the step (e.g. 2d, 12h)" },
      cmd_host },
    { { "rollback", 2, 3, NEED_DB | BOTS, "GAME ROUND|step N",
        "host: back to the start of a round (turn, move) as the game counts, or to a step; everyone is told" },
      cmd_host },
    { { "replace", 3, 3, NEED_DB | BOTS, "GAME PLAYER NAME=EMAIL",
        "host: a new player takes a seat" },
      cmd_host },
    { { "kick", 2, 3, NEED_DB | BOTS, "GAME PLAYER [bot:easy|bot:strong]",
        "host: a bot plays the seat from now on (plain: at the level bot_level)" },
      cmd_host },
    { { "end", 2, 64, NEED_DB, "GAME [--score|--abandon] REASON",
        "host: end the game now, scored as it stands (the default) or with no winner" },
      cmd_end },
    { { "ratings", 1, 1, NEED_DB, "GAME",
        "the top 20 players of a game by rating (Weng-Lin), with their addresses" },
      cmd_ratings },
    { { "player", 1, 1, NEED_DB, "ADDRESS|NAME",
        "a player's ratings, reliability and games" },
      cmd_player },
    { { "merge-player", 2, 2, NEED_DB, "KEEP OTHER",
        "host: OTHER is another address of KEEP's player: her games and ratings become one" },
      cmd_merge_player },
    { { NULL, 0, 0, 0, NULL, NULL }, NULL },
};

static void print_help(FILE *f)
{
    fputs("usage: ngoma [--db PATH] [--now TIME] COMMAND [ARGS...]\n\n"
          "ngoma is a play-by-email turn processor. The database is PATH, else\n"
          "$NGOMA_DB, else the db line of /etc/ngoma.conf ($NGOMA_CONFIG), else\n"
          "./ngoma.db (which only init creates). --now TIME (or $NGOMA_NOW) sets\n"
          "the clock: 2026-12-01T18:00Z, 2026-12-01 18:00, or @EPOCH seconds.\n\ncommands:\n", f);
    for (const struct command *c = commands; c->row.name; c++)
        fprintf(f, "  %-8s %s\n", c->row.name, c->row.help);
    fputs("\n'ngoma COMMAND --help' tells more about one command.\n", f);
}

/* Where the database is, and whether this user may use it: --db, else
 * $NGOMA_DB, else the configuration file's db, else ./ngoma.db, which
 * only init creates. A database (or, new, its directory) that belongs to
 * another user is refused: every file SQLite adds beside it (the WAL, the
 * shared memory, ngoma's locks) would be this user's, and the owner's
 * next run could not open them. */
/* Whether the user root is trying on (its effective ids) reaches the
 * database, its folder and ngoma's own files. */
static bool reaches(const char *db_path)
{
    char *dir = xstrdup(db_path), *slash = strrchr(dir, '/'), *lib = lib_path("");
    bool ok;
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    else
        strcpy(dir, ".");
    ok = !faccessat(AT_FDCWD, db_path, R_OK | W_OK, AT_EACCESS) &&
         !faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) &&
         !faccessat(AT_FDCWD, data_dir(), R_OK | X_OK, AT_EACCESS) && !faccessat(AT_FDCWD, lib, X_OK, AT_EACCESS);
    free(dir);
    free(lib);
    return ok;
}

/* Root becomes user uid for the rest of the run, when that user reaches
 * the database and ngoma's files from here; else nothing changes and 1. */
static int become_owner(uid_t uid, const char *db_path)
{
    struct passwd *pw = getpwuid(uid);
    bool ok;
    if (!pw || initgroups(pw->pw_name, pw->pw_gid) || setegid(pw->pw_gid) || seteuid(pw->pw_uid))
        return 1;
    ok = reaches(db_path);
    if (seteuid(0) || setegid(0))
        return -1;
    if (!ok)
        return 1;
    if (setgid(pw->pw_gid) || setuid(pw->pw_uid)) {
        fprintf(stderr, "ngoma: root could not act as %s, the database's owner: %s\n", pw->pw_name, strerror(errno));
        return -1;
    }
    return 0;
}

static int db_path_settle(struct cmd_ctx *c)
{
    static char *from_file;
    struct strbuf err = STRBUF_INIT;
    struct stat st;
    int bad;

    if (!c->db_path) {
        from_file = conffile_get("db", &bad, &err);
        if (bad) {
            fprintf(stderr, "ngoma: %s\n", err.buf);
            strbuf_release(&err);
            return EX_CONFIG;
        }
        c->db_path = from_file ? from_file : "ngoma.db";
        c->db_named = from_file != NULL;
    }
    strbuf_release(&err);
    if (str_eq(c->db_path, ":memory:"))
        return 0;
    if (stat(c->db_path, &st) == 0) {
        if (st.st_uid != geteuid() && geteuid() == 0 && st.st_uid != 0) {
            /* Root acts as the database's owner (as runuser would): what
             * it adds beside it stays the owner's, and a running server
             * keeps its files. Where the owner reaches none of it, the
             * refusal below says how to run it. */
            if (become_owner(st.st_uid, c->db_path) < 0)
                return EX_NOPERM;
        }
        if (st.st_uid != geteuid()) {
            struct passwd *pw = getpwuid(st.st_uid);
            const char *owner = pw ? pw->pw_name : "its owner";
            fprintf(stderr,
                    "ngoma: %s belongs to %s, and ngoma runs as another user: the files it would add beside it "
                    "could not be used by %s. Run it as %s (runuser -u %s -- ngoma ...), or make the database yours "
                    "(chown)\n",
                    c->db_path, owner, owner, owner, owner);
            return EX_NOPERM;
        }
        return 0;
    }
    if (!c->db_named && !str_eq(c->cmd->row.name, "init")) {
        fprintf(stderr,
                "ngoma: there is no database at %s: give --db PATH, set NGOMA_DB, name it in %s (db = PATH), or "
                "create one here with ngoma init\n",
                c->db_path, conffile_path());
        return EX_NOINPUT;
    }
    {
        /* A new database: its directory's owner should make it. */
        char *dir = xstrdup(c->db_path), *slash = strrchr(dir, '/');
        if (slash)
            *(slash == dir ? slash + 1 : slash) = '\0';
        else
            strcpy(dir, ".");
        if (stat(dir, &st) == 0 && st.st_uid != geteuid() && geteuid() == 0) {
            struct passwd *pw = getpwuid(st.st_uid);
            const char *owner = pw ? pw->pw_name : "its owner";
            fprintf(stderr,
                    "ngoma: %s is %s's directory: create the database as that user (runuser -u %s -- ngoma --db %s "
                    "init), so that its files are %s's\n",
                    dir, owner, owner, c->db_path, owner);
            free(dir);
            return EX_NOPERM;
        }
        free(dir);
    }
    return 0;
}

static void print_command_help(const struct command *c)
{
    struct strbuf args = STRBUF_INIT;
    cmd_args_text(c, &args);
    printf("usage: ngoma %s %s\n\n%s.\n", c->row.name, args.buf, c->row.help);
    strbuf_release(&args);
}

/* Counts positional arguments, skipping options and their values. */
static int positional(int argc, char **argv)
{
    static const char *const with_value[] = { "--player", "--seed", "--option", "--as", "--turn", "--retry", "--before", "--mbox", "--step", "--file",
                                              "--host", "--listen",
                                              "--socket-mode", "--socket-group", NULL };
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return n + argc - i - 1;
        if (argv[i][0] == '-' && argv[i][1] == '-') {
            /* A game's terms (--deadline 48h) take a value too. */
            if (!strchr(argv[i], '=') && game_spec_word(argv[i] + 2, SPEC_HOST))
                i++;
            else if (!strchr(argv[i], '='))
                for (const char *const *w = with_value; *w; w++)
                    if (strcmp(argv[i], *w) == 0) {
                        i++;
                        break;
                    }
            continue;
        }
        n++;
    }
    return n;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "db", required_argument, NULL, 'd' },
        { "now", required_argument, NULL, 'n' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct cmd_ctx ctx = { 0 };
    const struct command *cmd;
    int o, rc, n;

    ctx.db_path = getenv("NGOMA_DB");
    if (ctx.db_path && *ctx.db_path)
        ctx.db_named = true;
    else
        ctx.db_path = NULL;
    opterr = 0;
    while ((o = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
        switch (o) {
        case 'd':
            ctx.db_path = optarg;
            ctx.db_named = true;
            break;
        case 'n': {
            time_t t;
            /* The clock of this run, for tests and for replaying a day. */
            if (!utc_parse(optarg, &t)) {
                fprintf(stderr, "ngoma: --now takes a time like 2026-12-01T18:00Z or @EPOCH, not \"%s\"\n", optarg);
                return EX_USAGE;
            }
            setenv("NGOMA_NOW", optarg, 1);
            break;
        }
        case 'h':
            print_help(stdout);
            return 0;
        default:
            fprintf(stderr, "ngoma: unknown option %s (see ngoma --help)\n", argv[optind - 1]);
            return EX_USAGE;
        }
    }
    if (optind >= argc) {
        print_help(stderr);
        return EX_USAGE;
    }
    cmd = (const struct command *)cmdtab_find(CMDTAB(commands), argv[optind]);
    if (!cmd || !str_eq(cmd->row.name, argv[optind])) {
        const struct cmdtab_row *near = cmdtab_nearest(CMDTAB(commands), argv[optind]);
        if (near)
            fprintf(stderr, "ngoma: unknown command \"%s\": did you mean ngoma %s? (see ngoma --help)\n", argv[optind],
                    near->name);
        else
            fprintf(stderr, "ngoma: unknown command \"%s\" (see ngoma --help)\n", argv[optind]);
        return EX_USAGE;
    }
    ctx.cmd = cmd;
    argc -= optind;
    argv += optind;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_command_help(cmd);
            return 0;
        }
    n = positional(argc, argv);
    {
        struct strbuf err = STRBUF_INIT;
        if (cmdtab_arity(&cmd->row, n, "argument", &err)) {
            rc = cmd_usage(&ctx, "%s", err.buf);
            strbuf_release(&err);
            return rc;
        }
    }
    bool from_file = false;
    for (int i = 1; i < argc && (cmd->row.flags & OR_FILE); i++)
        from_file |= strcmp(argv[i], "--file") == 0;
    if ((cmd->row.flags & NEED_DB) && !from_file) {
        char *templates;
        if ((rc = db_path_settle(&ctx)))
            return rc;
        ctx.db = db_open(ctx.db_path);
        if (!ctx.db)
            return cmd_failed();
        /* A host's own templates, when configured, replace the installed ones. */
        templates = setting_get(ctx.db, "templates_dir");
        if (templates && *templates)
            template_set_dir(templates);
        free(templates);
    }
    rc = cmd->fn(&ctx, argc, argv);
    /* A strong bot the command left due plays now (a mail kept for the
     * worker leaves it to the worker; a running ngoma serve, woken, to
     * its bots child: a host's command never waits for a search then). */
    if (rc == 0 && ctx.db && (cmd->row.flags & BOTS) && !(ctx.after & AFTER_READ) &&
        !(ctx.db_path && wake_server(ctx.db_path)))
        cmd_strong_bots(&ctx);
    if (ctx.db) {
        db_rollback(ctx.db); /* nothing is left open on any path; this is a guard */
        db_close(ctx.db);
        ctx.db = NULL;
    }
    /* What a command changed (a new game's deadline, a host's EXTEND, a
     * setting), a running server hears of at once: its clock looks again. */
    if ((cmd->row.flags & NEED_DB) && !(cmd->row.flags & READS) && !ctx.after && ctx.db_path)
        wake_server(ctx.db_path);
    cmd_after(&ctx);
    fflush(stdout);
    if (ferror(stdout)) {
        fprintf(stderr, "ngoma: cannot write to standard output\n");
        return EX_IOERR;
    }
    return rc;
}
