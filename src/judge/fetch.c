/* fetch.c: reading new mail from a Maildir or an IMAP mailbox, committing in groups, acknowledging only what is committed. */
#include "judge/fetch.h"
#include "store/db.h"
#include "mail/imapc.h"
#include "judge/inbound.h"
#include "store/settings.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Messages per transaction: one commit (one fsync) for the group, a
 * savepoint per message so that one bad message rolls back alone. */
#define GROUP 64

struct batch {
    sqlite3 *db;
    int in_group;
    bool open;
};

static void count(struct fetch_stats *st, const struct inbound_result *r)
{
    switch (r->status) {
    case INBOUND_PROCESSED: st->processed++; break;
    case INBOUND_DUPLICATE: st->duplicates++; break;
    case INBOUND_IGNORED: st->ignored++; break;
    case INBOUND_REFUSED: st->refused++; break;
    }
}

/* Handles one message inside the open group. 0, or -1 when the whole
 * group must be rolled back. */
static int handle(struct batch *b, const struct rawmsg *raw, const char *source, struct fetch_stats *st)
{
    struct inbound_result r;
    if (!b->open) {
        if (db_begin(b->db))
            return -1;
        b->open = true;
        b->in_group = 0;
    }
    if (db_savepoint(b->db, "msg"))
        return -1;
    st->messages++;
    if (inbound_process(b->db, raw, source, &r) == 0) {
        b->in_group++;
        count(st, &r);
        return db_release(b->db, "msg");
    }
    db_rollback_to(b->db, "msg");
    if (db_failure_is_temporary())
        return -1;
    /* A failure that will not go away: journal it, never lose it. */
    st->failed++;
    b->in_group++;
    return inbound_journal_failed(b->db, raw, source, "processing failed: see the error log of ngoma fetch");
}

static int commit(struct batch *b)
{
    if (!b->open)
        return 0;
    b->open = false;
    if (db_commit(b->db)) {
        db_rollback(b->db);
        return -1;
    }
    return 0;
}

/* ---- Maildir ------------------------------------------------------------------- */

static int ack_maildir(const char *dir, const struct strlist *names)
{
    int rc = 0;
    for (size_t i = 0; i < names->n; i++) {
        struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
        strbuf_addf(&from, "%s/new/%s", dir, names->v[i]);
        strbuf_addf(&to, "%s/cur/%s%s", dir, names->v[i], strstr(names->v[i], ":2,") ? "S" : ":2,S");
        if (rename(from.buf, to.buf) && errno != ENOENT)
            rc = error("cannot move %s to cur/: %s", from.buf, strerror(errno));
        strbuf_release(&from);
        strbuf_release(&to);
    }
    return rc;
}

int fetch_maildir(sqlite3 *db, const char *dir, struct fetch_stats *st, bool *temporary)
{
    struct strbuf path = STRBUF_INIT;
    struct strlist names = STRLIST_INIT, done = STRLIST_INIT;
    struct batch b = { db, 0, false };
    long long limit = setting_get_int(db, "max_message_size", 2097152);
    DIR *d;
    struct dirent *de;
    int rc = 0;

    *temporary = false;
    strbuf_addf(&path, "%s/new", dir);
    d = opendir(path.buf);
    if (!d) {
        rc = error("cannot read the Maildir %s: %s", path.buf, strerror(errno));
        *temporary = true;
        goto out;
    }
    while ((de = readdir(d)))
        if (de->d_name[0] != '.')
            strlist_push(&names, de->d_name);
    closedir(d);
    strlist_sort(&names); /* Maildir names start with the delivery time */
    for (size_t i = 0; i < names.n; i++) {
        struct rawmsg raw;
        strbuf_reset(&path);
        strbuf_addf(&path, "%s/new/%s", dir, names.v[i]);
        if (rawmsg_read_file(path.buf, (size_t)limit, &raw))
            continue; /* gone meanwhile (another fetch took it) */
        rc = handle(&b, &raw, "maildir", st);
        rawmsg_release(&raw);
        if (rc) {
            db_rollback(db);
            b.open = false;
            *temporary = db_failure_is_temporary();
            goto out;
        }
        strlist_push(&done, names.v[i]);
        if (b.in_group >= GROUP) {
            if (commit(&b)) {
                *temporary = true;
                rc = -1;
                goto out;
            }
            ack_maildir(dir, &done);
            strlist_clear(&done);
        }
    }
    if (commit(&b)) {
        *temporary = true;
        rc = -1;
        goto out;
    }
    ack_maildir(dir, &done);
out:
    strlist_clear(&names);
    strlist_clear(&done);
    strbuf_release(&path);
    return rc;
}

/* ---- IMAP --------------------------------------------------------------------------- */

static void ack_imap(struct imapc *im, const uint32_t *uids, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct strbuf err = STRBUF_INIT;
        /* Not marked: the next fetch reads it again and finds its Message-ID. */
        if (imapc_mark_seen(im, uids[i], &err))
            error("%s", err.buf);
        strbuf_release(&err);
    }
}

int fetch_imap(sqlite3 *db, struct fetch_stats *st, bool *temporary)
{
    char *url = setting_get(db, "imap_url"), *user = setting_get(db, "imap_user");
    char *pass = setting_get(db, "imap_password"), *tls = setting_get(db, "imap_tls");
    long long limit = setting_get_int(db, "max_message_size", 2097152);
    struct imapc im = { 0 };
    struct strbuf err = STRBUF_INIT;
    struct batch b = { db, 0, false };
    uint32_t *uids = NULL, *done = NULL;
    size_t n = 0, ndone = 0;
    int rc = -1;

    *temporary = true;
    if (!url || !user || !pass || !tls)
        goto out;
    if (imapc_open(&im, url, user, pass, tls, &err) || imapc_unseen(&im, &uids, &n, &err)) {
        error("%s", err.buf);
        goto out;
    }
    done = xcalloc(n ? n : 1, sizeof(*done));
    for (size_t i = 0; i < n; i++) {
        struct strbuf msg = STRBUF_INIT;
        struct rawmsg raw;
        strbuf_reset(&err);
        if (imapc_fetch(&im, uids[i], &msg, &err)) {
            error("%s", err.buf);
            strbuf_release(&msg);
            goto rollback;
        }
        /* The size limit applies as to any mail: keep at most limit bytes. */
        rawmsg_from_memory(msg.buf, msg.len, (size_t)limit, &raw);
        strbuf_release(&msg);
        rc = handle(&b, &raw, "imap", st);
        rawmsg_release(&raw);
        if (rc)
            goto rollback;
        done[ndone++] = uids[i];
        if (b.in_group >= GROUP) {
            if (commit(&b))
                goto rollback;
            ack_imap(&im, done, ndone);
            ndone = 0;
        }
    }
    if (commit(&b))
        goto rollback;
    ack_imap(&im, done, ndone);
    rc = 0;
    *temporary = false;
    goto out;
rollback:
    db_rollback(db);
    rc = -1;
out:
    imapc_close(&im);
    free(uids);
    free(done);
    free(url);
    free(user);
    free(pass);
    free(tls);
    strbuf_release(&err);
    return rc;
}
