/* cmd_sched.c: the commands of the cron side and of hosts: run, list, status, pause, resume, extend, rollback, replace, kick. */
#include "cli/cmd.h"
#include "lib/catalog.h"
#include "store/db.h"
#include "core/engine.h"
#include "core/stuck.h"
#include "serve/chores.h"
#include "intake/fetch.h"
#include "judge/host.h"
#include "judge/standing.h"
#include "intake/inbox.h"
#include "judge/schedule.h"
#include "mail/send.h"
#include "store/settings.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int cmd_run(struct cmd_ctx *c, int argc, char **argv)
{
    char *maildir = setting_get(c->db, "maildir"), *imap = setting_get(c->db, "imap_url"), sent[320];
    static char errors[8192];
    struct intake_stats fs = { 0 };
    struct chores_stats cs;
    struct send_stats sends = { 0 };
    struct strbuf summary = STRBUF_INIT;
    bool temporary = false;
    int lock, rc = 0;
    int64_t run;
    (void)argc;
    (void)argv;

    /* One run at a time per database (the server's clock counts as one):
     * a second finds the lock taken and leaves the work to the first. */
    lock = chores_lock(c->db_path);
    if (lock == -1) {
        printf("another ngoma run is at work on %s: nothing to do\n", c->db_path);
        goto out;
    }
    if (lock < 0) {
        error("cannot lock %s.lock: %s", c->db_path, strerror(errno));
        rc = EX_CANTCREAT;
        goto out;
    }
    if (chores_run_begin(c->db, &run, errors, sizeof(errors))) {
        rc = cmd_failed();
        goto unlock;
    }
    /* Mail first: an order that came in time beats its deadline; what
     * receive kept and no server or worker read yet comes first. */
    if (inbox_take(c->db, c->db_path, 0, &fs))
        rc = cmd_failed();
    if (maildir && *maildir && fetch_maildir(c->db, maildir, &fs, &temporary))
        rc = temporary ? EX_TEMPFAIL : EX_SOFTWARE;
    if (imap && *imap && fetch_imap(c->db, &fs, &temporary))
        rc = temporary ? EX_TEMPFAIL : EX_SOFTWARE;
    if (chores_do(c->db, true, &cs))
        rc = cmd_failed();
    if (outbox_send(c->db, c->db_path, &sends))
        rc = cmd_failed();
    send_summary(&sends, sent);
    strbuf_addf(&summary, "fetched %d (%d processed, %d not taken); ", fs.messages, fs.processed, fs.unseen);
    chores_summary(&cs, &summary);
    strbuf_addf(&summary, "; %s; %d site pages; pruned %lld mails and %lld journal rows", sent, cs.site_pages,
                (long long)cs.pruned.sent, (long long)cs.pruned.journal);
    if (chores_run_end(c->db, run, &summary, errors))
        rc = cmd_failed();
    printf("%s\n", summary.buf);
unlock:
    close(lock);
out:
    free(maildir);
    free(imap);
    strbuf_release(&summary);
    return rc;
}

/* When the last `ngoma run` was, and what went wrong in it. */
static int last_run(sqlite3 *db, struct strbuf *out)
{
    sqlite3_stmt *st = db_stmt(db,
                               "SELECT started_at, errors, coalesce(error_text, ''), finished_at IS NULL FROM runs"
                               " ORDER BY id DESC LIMIT 1",
                               NULL);
    int rc;
    if (!st)
        return -1;
    rc = db_step(st);
    if (rc == SQLITE_ROW) {
        int n = sqlite3_column_int(st, 1);
        strbuf_addf(out, "Last run: %s%s, %d error%s%s\n", sqlite3_column_text(st, 0),
                    sqlite3_column_int(st, 3) ? " (never finished)" : "", n, n == 1 ? "" : "s", n ? ":" : ".");
        for (const char *p = (const char *)sqlite3_column_text(st, 2); n && *p;) {
            const char *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);
            strbuf_addf(out, "  %.*s\n", (int)len, p);
            p += len + (nl ? 1 : 0);
        }
    } else if (rc == SQLITE_DONE) {
        strbuf_addstr(out, "Last run: none yet (cron or the systemd timer runs ngoma run).\n");
    }
    db_finalize(st);
    return rc < 0 ? -1 : 0;
}

/* Mail that could not be taken and is offered again (every game's, or one
 * game's): how many, and the last reason; and mail kept and not yet read. */
static int untaken_mail(sqlite3 *db, const char *db_path, int64_t game, struct strbuf *out)
{
    int kept = game ? 0 : inbox_count(db_path);
    if (kept < 0)
        return -1;
    if (kept)
        strbuf_addf(out, "Inbox: %d%s mail%s kept and not yet read (ngoma serve, or the next ngoma run, reads %s).\n",
                    kept, kept >= INBOX_MAX ? " (full)" : "", kept == 1 ? "" : "s", kept == 1 ? "it" : "them");
    sqlite3_stmt *st = db_stmt(db,
                               "SELECT count(*), max(tries), (SELECT reason FROM mail_failures WHERE taken_at IS NULL"
                               " AND given_up_at IS NULL AND (?1 = 0 OR game_id = ?1) ORDER BY last_at DESC LIMIT 1)"
                               " FROM mail_failures WHERE taken_at IS NULL AND given_up_at IS NULL AND (?1 = 0 OR"
                               " game_id = ?1)",
                               "I", game);
    int rc;
    if (!st)
        return -1;
    rc = db_step(st);
    if (rc == SQLITE_ROW && sqlite3_column_int(st, 0) > 0) {
        int n = sqlite3_column_int(st, 0);
        strbuf_addf(out, "Mail not taken: %d (tried up to %d times; it is offered again). The last reason:\n  %s\n", n,
                    sqlite3_column_int(st, 1), sqlite3_column_text(st, 2));
    }
    db_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

static void deadline_text(struct game_rec *g, unsigned missing, struct strbuf *out)
{
    time_t t;
    char when[64];
    if (g->sched.paused)
        strbuf_addstr(out, "paused");
    else if (str_eq(g->status, "finished"))
        strbuf_addstr(out, "-");
    else if ((t = game_deadline(g, missing))) {
        time_format_tz(t, "UTC", when);
        strbuf_addstr(out, when);
        if (t < clock_now())
            strbuf_addstr(out, " (passed)");
    } else
        strbuf_addstr(out, "-");
}

/* Why g cannot move on, when it cannot (a bot's fault, not a player's),
 * each line indented by indent spaces. */
static int stuck_text(sqlite3 *db, const struct game_rec *g, int indent, struct strbuf *out)
{
    char *why = NULL, since[32];
    struct strbuf line = STRBUF_INIT;
    if (str_eq(g->status, "finished"))
        return 0;
    if (stuck_why(db, g->id, g->turn, &why, since))
        return -1;
    if (!why)
        return 0;
    strbuf_addchars(&line, ' ', (size_t)indent);
    strbuf_addf(&line, "Stuck since %s: %s The next run or clock pass tries again.", since, why);
    strbuf_add_wrapped(out, line.buf, indent, 72);
    strbuf_release(&line);
    free(why);
    return 0;
}

int cmd_list(struct cmd_ctx *c, int argc, char **argv)
{
    sqlite3_stmt *st = db_stmt(c->db, "SELECT id FROM games ORDER BY id", NULL);
    int rc, n = 0;
    (void)argc;
    (void)argv;
    if (!st)
        return cmd_failed();
    printf("%-5s %-16s %-9s %-14s %-33s %s\n", "game", "module", "status", "at", "deadline (UTC)", "waiting for");
    while ((rc = db_step(st)) == SQLITE_ROW) {
        struct game_rec g;
        struct strbuf dl = STRBUF_INIT, who = STRBUF_INIT;
        unsigned missing = 0;
        if (game_load(c->db, sqlite3_column_int64(st, 0), &g)) {
            printf("%-5lld (damaged: see ngoma status)\n", (long long)sqlite3_column_int64(st, 0));
            continue;
        }
        game_missing(c->db, &g, &missing);
        deadline_text(&g, missing, &dl);
        game_names_of(&g, missing, &who);
        {
            /* Where the game stands as its players count: round 3 of 12. */
            struct game_when w;
            char at[128];
            game_when_of(g.ops, g.st, &g.table, g.turn, &w);
            w.phase[0] = w.number ? '\0' : w.phase[0];
            game_when_text(&w, at);
            printf("%-5lld %-16s %-9s %-14s %-33s %s\n", (long long)g.id, g.ops->name, g.status, at, dl.buf,
                   missing ? who.buf : "-");
        }
        {
            struct strbuf stuck = STRBUF_INIT;
            if (!stuck_text(c->db, &g, 6, &stuck))
                fputs(stuck.buf, stdout);
            strbuf_release(&stuck);
        }
        strbuf_release(&dl);
        strbuf_release(&who);
        game_unload(&g);
        n++;
    }
    db_finalize(st);
    if (rc < 0)
        return cmd_failed();
    if (!n)
        printf("no games yet: ngoma new starts one\n");
    {
        struct strbuf runs = STRBUF_INIT;
        rc = last_run(c->db, &runs) || untaken_mail(c->db, c->db_path, 0, &runs);
        fputs(runs.buf, stdout);
        strbuf_release(&runs);
        if (rc)
            return cmd_failed();
    }
    return 0;
}

int cmd_status(struct cmd_ctx *c, int argc, char **argv)
{
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    time_t t;
    int rc;
    if ((rc = cmd_load_game(c, argv[argc - 1], &g)))
        return rc;
    if (host_status(c->db, &g, viewer_of(VIEWER_SHELL), LANG_ENGLISH, &out) ||
        (str_eq(g.status, "finished") && standing_game_text(c->db, g.id, LANG_ENGLISH, &out))) {
        rc = cmd_failed();
        goto out;
    }
    strbuf_complete_line(&out);
    if (stuck_text(c->db, &g, 0, &out)) {
        rc = cmd_failed();
        goto out;
    }
    if (g.sched.deadline_secs) {
        char per[32], grace[32];
        duration_format(g.sched.deadline_secs, per);
        duration_format(g.sched.grace_secs, grace);
        strbuf_addf(&out, "Each step: %s, %s%s, reminders", per, g.sched.grace_secs ? "grace " : "no grace",
                    g.sched.grace_secs ? grace : "");
        for (int i = 0; i < g.sched.nreminders; i++) {
            char r[32];
            duration_format(g.sched.reminders[i], r);
            strbuf_addf(&out, " %s", r);
        }
        strbuf_addstr(&out, g.sched.nreminders ? " before.\n" : " none.\n");
        /* Only the seats the step waits for have a deadline; "her order
         * is in" only where an order came. */
        unsigned missing = 0, waited = g.ops->waiting_for(g.st);
        if (!str_eq(g.status, "finished") && !game_missing(c->db, &g, &missing) &&
            (t = game_deadline(&g, missing)))
            for (int s = 0; s < g.nseats; s++) {
                char when[64];
                if (!(waited & (1u << s)))
                    continue;
                time_format_tz(t, g.seats[s].timezone, when);
                strbuf_addf(&out, "  deadline for %s: %s%s\n", g.names[s], when,
                            missing & (1u << s) ? "" : " (her order is in)");
            }
    }
    strbuf_addf(&out, "Host: %s\n", g.sched.host_email ? g.sched.host_email : "none");
    if (last_run(c->db, &out) || untaken_mail(c->db, c->db_path, g.id, &out)) {
        rc = cmd_failed();
        goto out;
    }
    fputs(out.buf, stdout);
out:
    strbuf_release(&out);
    game_unload(&g);
    return rc;
}

/* A host command from the command line: the same as by mail. */
static int host_cli(struct cmd_ctx *c, const char *game, const char *line)
{
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    int rc;
    if ((rc = cmd_load_game(c, game, &g)))
        return rc;
    if (db_begin(c->db)) {
        game_unload(&g);
        return cmd_failed();
    }
    rc = host_command(c->db, &g, viewer_of(VIEWER_SHELL), LANG_ENGLISH, line, &out);
    if (rc < 0 || (rc == 0 && db_commit(c->db))) {
        db_rollback(c->db);
        rc = cmd_failed();
    } else if (rc == 1) {
        db_rollback(c->db);
        error("%s", out.buf);
        rc = EX_DATAERR;
    } else {
        printf("%s\n", out.buf);
    }
    strbuf_release(&out);
    game_unload(&g);
    return rc;
}

/* pause, resume, extend, rollback, replace and kick: the host command of
 * the same name, with the rest of the line as written. */
int cmd_host(struct cmd_ctx *c, int argc, char **argv)
{
    struct strbuf line = STRBUF_INIT;
    int rc;
    for (const char *p = c->cmd->row.name; *p; p++)
        strbuf_addch(&line, (char)(*p - 'a' + 'A'));
    for (int i = 2; i < argc; i++)
        strbuf_addf(&line, " %s", argv[i]);
    rc = host_cli(c, argv[1], line.buf);
    strbuf_release(&line);
    return rc;
}

/* end GAME [--score|--abandon] REASON...: the host command END. */
int cmd_end(struct cmd_ctx *c, int argc, char **argv)
{
    struct strbuf line = STRBUF_INIT;
    const char *game = NULL, *how = "SCORE";
    int rc;
    for (int i = 1; i < argc; i++) {
        if (str_eq(argv[i], "--score"))
            how = "SCORE";
        else if (str_eq(argv[i], "--abandon"))
            how = "ABANDON";
        else if (argv[i][0] == '-' && argv[i][1] == '-')
            return cmd_usage(c, "unknown option %s", argv[i]);
        else if (!game)
            game = argv[i];
        else
            strbuf_addf(&line, " %s", argv[i]);
    }
    strbuf_prefixf(&line, "END %s", how);
    rc = host_cli(c, game, line.buf);
    strbuf_release(&line);
    return rc;
}
