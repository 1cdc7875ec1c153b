/* cmd_mail.c: the mail commands: receive, fetch, send, outbox and config. */
#include "cli/cmd.h"
#include "judge/strong.h"
#include "store/db.h"
#include "intake/fetch.h"
#include "judge/inbound.h"
#include "intake/inbox.h"
#include "intake/wake.h"
#include "lib/template.h"
#include "mail/send.h"
#include "store/settings.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The answers go out at once after the commit, when send_on_receive says
 * so: whatever becomes of them, the mail is taken (the exit status tells
 * the MTA about the mail, never about the answers). */
static void send_answers(struct cmd_ctx *c)
{
    struct send_stats st;
    if (setting_is_yes(c->db, "send_on_receive") && outbox_send_wait(c->db, c->db_path, 60, &st))
        error("the answers stay in the outbox for ngoma send or run");
    db_failure_reset();
}

/* The worker receive starts when no server runs: it reads the inbox,
 * sends what that queued, and ends. Its errors stay where they matter:
 * a mail not taken in mail_failures (list, status, the alert), a mail
 * not sent in the outbox. */
static void work(const char *db_path, unsigned after)
{
    sqlite3 *db = db_open(db_path);
    struct intake_stats st = { 0 };
    struct send_stats sst;
    char *templates;
    if (!db)
        return;
    templates = setting_get(db, "templates_dir");
    if (templates && *templates)
        template_set_dir(templates);
    free(templates);
    if (after & AFTER_READ)
        inbox_take(db, db_path, 0, &st);
    if ((after & AFTER_SEND) || (st.messages && setting_is_yes(db, "send_on_receive")))
        outbox_send(db, db_path, &sst);
    /* The answers are out; the strong bots the mail left due play, and
     * what they queued goes too. */
    if (st.messages) {
        struct schedule_stats ss;
        memset(&ss, 0, sizeof(ss));
        if (strong_bots_play(db, STRONG_MOVES_AFTER_MAIL, &ss) == 0 && ss.bot_steps && setting_is_yes(db, "send_on_receive"))
            outbox_send(db, db_path, &sst);
    }
    db_close(db);
}

void cmd_after(struct cmd_ctx *c)
{
    pid_t pid;
    int null;
    if (!c->after || wake_server(c->db_path))
        return;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        error("cannot start a worker (%s): ngoma run reads the inbox and sends the outbox later", strerror(errno));
        return;
    }
    if (pid > 0)
        return;
    /* The worker: a session of its own, holding none of the caller's
     * files open (an MTA waits for its pipes to close). */
    setsid();
    null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        if (null > 2)
            close(null);
    }
    work(c->db_path, c->after);
    _exit(0);
}

/* receive --wait: the mail taken in this process, what became of it
 * printed, and its answers sent before the end (for a host at the shell,
 * and procmail recipes that want the outcome). */
static int receive_now(struct cmd_ctx *c, struct rawmsg *raw, const char *source)
{
    struct inbound_mail in;
    struct inbound_result r;
    /* All the work a mail's size costs comes before the write lock. */
    if (inbound_prepare(c->db, raw, source, NULL, &in))
        return EX_TEMPFAIL;
    error_first_reset();
    if (db_begin(c->db) || inbound_take(c->db, &in, &r) || db_commit(c->db)) {
        /* Not the mail's fault (the database, a bug, a full disk): nothing
         * of it stays, the failure is kept for list, status and the alert,
         * and the MTA keeps the mail and offers it again. */
        char why[400];
        bool given_up;
        snprintf(why, sizeof(why), "%s", *error_first() ? error_first() : "processing failed");
        db_rollback(c->db);
        if (db_begin(c->db) || inbound_note_failure(c->db, &in, why, &given_up) || db_commit(c->db))
            db_rollback(c->db);
        error("the mail from %s is not taken (%s): the MTA keeps it and offers it again",
              in.m.from ? in.m.from : "no address", why);
        inbound_mail_release(&in);
        return EX_TEMPFAIL;
    }
    printf("%s\n", r.summary);
    inbound_mail_release(&in);
    send_answers(c);
    return 0;
}

int cmd_receive(struct cmd_ctx *c, int argc, char **argv)
{
    long long limit = setting_get_int(c->db, "max_message_size", 2097152);
    const char *file = NULL, *source;
    bool now = false;
    struct rawmsg raw;
    int64_t id;
    int rc;

    for (int i = 1; i < argc; i++) {
        if (str_eq(argv[i], "--wait"))
            now = true;
        else if (argv[i][0] == '-' && argv[i][1] == '-')
            return cmd_usage(c, "unknown option %s", argv[i]);
        else
            file = argv[i];
    }
    if (file && !str_eq(file, "-")) {
        if (access(file, R_OK)) {
            error("cannot read %s", file);
            return EX_NOINPUT;
        }
        if (rawmsg_read_file(file, (size_t)limit, &raw))
            return EX_NOINPUT; /* a device, a FIFO: the host gave no mail */
    } else if (rawmsg_read_fd(0, (size_t)limit, &raw)) {
        return EX_TEMPFAIL; /* the MTA keeps the message and tries again */
    } else {
        file = NULL;
    }
    source = file ? "file" : "stdin";
    if (now) {
        rc = receive_now(c, &raw, source);
        rawmsg_release(&raw);
        return rc;
    }
    /* Kept, durably, and the delivery is over: the server or a worker
     * reads it now (cmd_after), without the MTA waiting. */
    rc = inbox_keep(c->db_path, &raw, source, &id);
    rawmsg_release(&raw);
    if (rc > 0) {
        error("the inbox is full (%d mails or %lld MB not yet read): the MTA keeps this one and offers it again"
              " (ngoma serve or ngoma run reads them)", INBOX_MAX, INBOX_MAX_BYTES >> 20);
        return EX_TEMPFAIL;
    }
    if (rc < 0) {
        error("the mail is not kept: the MTA keeps it and offers it again");
        return EX_TEMPFAIL;
    }
    if (wake_server(c->db_path)) {
        printf("kept as inbox mail %lld: ngoma serve reads it now\n", (long long)id);
        return 0;
    }
    c->after |= AFTER_READ;
    if (setting_is_yes(c->db, "send_on_receive"))
        c->after |= AFTER_SEND;
    db_failure_reset();
    printf("kept as inbox mail %lld: a worker reads it now\n", (long long)id);
    return 0;
}

int cmd_fetch(struct cmd_ctx *c, int argc, char **argv)
{
    static const struct option opts[] = {
        { "mbox", required_argument, NULL, 'm' },
        { NULL, 0, NULL, 0 },
    };
    char *maildir = setting_get(c->db, "maildir"), *imap = setting_get(c->db, "imap_url");
    const char *mbox = NULL;
    struct intake_stats st = { 0 };
    bool temporary = false;
    int o, rc = 0;

    optind = 0;
    opterr = 0;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (o != 'm') {
            rc = cmd_usage(c, "unknown option %s", argv[optind - 1]);
            goto out;
        }
        mbox = optarg;
    }
    if (!maildir || !imap) {
        rc = cmd_failed();
        goto out;
    }
    if (mbox) {
        /* One mbox, now: nothing else is read. */
        if (fetch_mbox(c->db, mbox, &st, &temporary))
            rc = temporary ? EX_TEMPFAIL : EX_NOINPUT;
        goto report;
    }
    if (!*maildir && !*imap) {
        rc = cmd_usage(c, "nothing to fetch from: set maildir or imap_url with ngoma config");
        goto out;
    }
    if (*maildir && fetch_maildir(c->db, maildir, &st, &temporary))
        rc = temporary ? EX_TEMPFAIL : EX_SOFTWARE;
    if (!rc && *imap && fetch_imap(c->db, &st, &temporary))
        rc = temporary ? EX_TEMPFAIL : EX_SOFTWARE;
report:
    printf("fetched %d message%s: %d processed, %d duplicate, %d ignored, %d refused, %d not taken, %d failed\n",
           st.messages, st.messages == 1 ? "" : "s", st.processed, st.duplicates, st.ignored, st.refused, st.unseen,
           st.failed);
    if (!rc && st.unseen)
        rc = EX_TEMPFAIL; /* they stay unseen: the next fetch offers them again */
    if (st.messages)
        send_answers(c);
out:
    free(maildir);
    free(imap);
    return rc;
}

int cmd_send(struct cmd_ctx *c, int argc, char **argv)
{
    struct send_stats st;
    struct intake_stats in = { 0 };
    (void)argc;
    (void)argv;
    /* Everything owed goes now: mail kept in the inbox is read first (a
     * worker at it is waited for), then the outbox is sent (after any
     * other sender). */
    if (inbox_take(c->db, c->db_path, 60, &in) || outbox_send_wait(c->db, c->db_path, 60, &st))
        return cmd_failed();
    if (st.busy) {
        printf("another ngoma is sending the outbox: nothing to do\n");
    } else {
        char summary[320];
        send_summary(&st, summary);
        printf("%s\n", summary);
    }
    return 0;
}

int cmd_outbox(struct cmd_ctx *c, int argc, char **argv)
{
    static const struct option opts[] = {
        { "all", no_argument, NULL, 'a' },
        { "retry", required_argument, NULL, 'r' },
        { NULL, 0, NULL, 0 },
    };
    bool all = false, retry_all = false;
    long long retry = 0;
    sqlite3_stmt *st;
    int o, rc, n = 0;

    optind = 0;
    opterr = 0;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (o == 'a')
            all = true;
        else if (o == 'r' && (str_eq(optarg, "all") || str_eq(optarg, "--all")))
            retry_all = true;
        else if (o == 'r' && parse_int(optarg, 1, INT64_MAX, &retry))
            ;
        else
            return cmd_usage(c, "unknown option or bad value %s", argv[optind - 1]);
    }
    if (retry || retry_all) {
        /* Deferred or failed: due now, with its tries counted afresh, and
         * sent at once. */
        char now[32], summary[320];
        struct send_stats sst;
        int due;
        utc_now(now);
        if (db_do(c->db,
                  "UPDATE outbox SET status = 'queued', next_attempt_at = ?, attempts = 0 WHERE status IN ('queued',"
                  " 'failed') AND (? OR id = ?)",
                  "siI", now, retry_all ? 1 : 0, (int64_t)retry))
            return cmd_failed();
        due = sqlite3_changes(c->db);
        if (due == 0 && !retry_all) {
            error("outbox mail %lld is sent, or being sent, or not there: ngoma outbox lists what waits", retry);
            return EX_DATAERR;
        }
        if (outbox_send(c->db, c->db_path, &sst))
            return cmd_failed();
        send_summary(&sst, summary);
        printf("%d mail%s due now: %s\n", due, due == 1 ? "" : "s", sst.busy ? "another ngoma is sending them" : summary);
        return 0;
    }
    st = db_stmt(c->db,
                 "SELECT id, status, attempts, rcpt, subject, coalesce(last_error, ''), next_attempt_at FROM outbox"
                 " WHERE ? OR status <> 'sent' ORDER BY id",
                 "i", all ? 1 : 0);
    if (!st)
        return cmd_failed();
    while ((rc = db_step(st)) == SQLITE_ROW) {
        printf("%lld %-7s tries %d  %s  %s\n", (long long)sqlite3_column_int64(st, 0), sqlite3_column_text(st, 1),
               sqlite3_column_int(st, 2), sqlite3_column_text(st, 3), sqlite3_column_text(st, 4));
        if (*sqlite3_column_text(st, 5))
            printf("    last error: %s\n", sqlite3_column_text(st, 5));
        if (str_eq((const char *)sqlite3_column_text(st, 1), "queued") && sqlite3_column_int(st, 2))
            printf("    next try: %s\n", sqlite3_column_text(st, 6));
        n++;
    }
    db_finalize(st);
    if (rc < 0)
        return cmd_failed();
    if (!n)
        printf("the outbox holds no %smail\n", all ? "" : "unsent ");
    return 0;
}

int cmd_config(struct cmd_ctx *c, int argc, char **argv)
{
    struct strbuf err = STRBUF_INIT;
    const char *key = NULL, *value = NULL;
    bool unset = false;
    int rc = 0;

    for (int i = 1; i < argc; i++) {
        if (str_eq(argv[i], "--unset"))
            unset = true;
        else if (!key)
            key = argv[i];
        else if (!value)
            value = argv[i];
    }
    if (!key) {
        for (const struct setting_def *d = setting_defs; d->key; d++) {
            char *v = setting_get(c->db, d->key);
            if (!v)
                return cmd_failed();
            printf("%-17s %s\n", d->key, d->secret ? (*v ? "(set)" : "") : v);
            free(v);
        }
        return 0;
    }
    if (!setting_find(key))
        return cmd_usage(c, "there is no setting \"%s\" (ngoma config lists them)", key);
    if (unset) {
        if (value)
            return cmd_usage(c, "--unset takes only the key");
        return setting_unset(c->db, key) ? cmd_failed() : 0;
    }
    if (!value) {
        char *v = setting_get(c->db, key);
        if (!v)
            return cmd_failed();
        printf("%s\n", v);
        free(v);
        return 0;
    }
    if (setting_set(c->db, key, value, &err)) {
        if (err.len) {
            error("%s", err.buf);
            rc = EX_DATAERR;
        } else {
            rc = cmd_failed();
        }
    }
    strbuf_release(&err);
    return rc;
}
