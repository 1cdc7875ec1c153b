/* fetch.c: reading new mail from a Maildir or an IMAP mailbox, committing in groups, acknowledging only what is committed. */
#include "judge/fetch.h"
#include "store/db.h"
#include "mail/imapc.h"
#include "mail/mime.h"
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
#include <sys/stat.h>

/* Messages per transaction: one commit (one fsync) for the group, a
 * savepoint per message so that one bad message rolls back alone. A group
 * is read and prepared (parsed) before its transaction begins, and holds
 * at most GROUP_BYTES of mail. */
#define GROUP 64
#define GROUP_BYTES (8u << 20)

struct pending {
    struct rawmsg raw;
    struct inbound_mail in;
    char *name;        /* its Maildir file, or NULL */
    uint32_t uid;      /* its IMAP UID, or 0 */
    bool unseen;       /* not taken: left where it is, offered again */
};

struct group {
    struct pending p[GROUP];
    size_t n, bytes;
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

static void group_clear(struct group *gr)
{
    for (size_t i = 0; i < gr->n; i++) {
        inbound_mail_release(&gr->p[i].in);
        rawmsg_release(&gr->p[i].raw);
        free(gr->p[i].name);
    }
    gr->n = gr->bytes = 0;
}

/* Adds a message read into raw (taken over) and prepares it; 0, or -1 on
 * a database failure. */
static int group_add(sqlite3 *db, struct group *gr, struct rawmsg *raw, const char *source, const char *name,
                     uint32_t uid)
{
    struct pending *p = &gr->p[gr->n];
    memset(p, 0, sizeof(*p));
    p->raw = *raw;
    memset(raw, 0, sizeof(*raw));
    if (inbound_prepare(db, &p->raw, source, &p->in)) {
        rawmsg_release(&p->raw);
        return -1;
    }
    p->name = name ? xstrdup(name) : NULL;
    p->uid = uid;
    gr->n++;
    gr->bytes += p->raw.len;
    return 0;
}

static bool group_full(const struct group *gr)
{
    return gr->n == GROUP || gr->bytes >= GROUP_BYTES;
}

/* Takes every prepared message of the group in one transaction. 0 when it
 * committed; -1 when it was rolled back (nothing of the group stays). */
static int group_commit(sqlite3 *db, struct group *gr, struct fetch_stats *st)
{
    struct fetch_stats before = *st;
    if (!gr->n)
        return 0;
    if (db_begin(db))
        return -1;
    for (size_t i = 0; i < gr->n; i++) {
        struct pending *p = &gr->p[i];
        struct inbound_result r;
        char why[400];
        bool given_up;
        if (db_savepoint(db, "msg"))
            goto fail;
        st->messages++;
        error_first_reset();
        if (inbound_take(db, &p->in, &r) == 0) {
            count(st, &r);
            if (db_release(db, "msg"))
                goto fail;
            continue;
        }
        snprintf(why, sizeof(why), "%s", *error_first() ? error_first() : "processing failed");
        db_rollback_to(db, "msg");
        if (db_failure_is_temporary())
            goto fail;
        /* Not the mail's fault, and it will not pass by waiting a moment:
         * the others go on, this one stays unseen for the next fetch. */
        if (inbound_note_failure(db, &p->in, why, &given_up))
            goto fail;
        if (given_up) {
            st->failed++;
            error("mail %s from %s could not be taken for days (%s): kept as failed, no longer offered",
                  p->in.message_id, p->in.m.from ? p->in.m.from : "no address", why);
        } else {
            p->unseen = true;
            st->unseen++;
            error("mail %s from %s is not taken (%s): it stays unseen and is tried again", p->in.message_id,
                  p->in.m.from ? p->in.m.from : "no address", why);
        }
    }
    if (db_commit(db))
        goto fail;
    return 0;
fail:
    db_rollback(db);
    *st = before;
    return -1;
}

/* ---- Maildir ------------------------------------------------------------------- */

static int ack_maildir(const char *dir, const struct group *gr)
{
    int rc = 0;
    for (size_t i = 0; i < gr->n; i++) {
        struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
        const char *name = gr->p[i].name;
        if (gr->p[i].unseen || !name)
            continue;
        strbuf_addf(&from, "%s/new/%s", dir, name);
        strbuf_addf(&to, "%s/cur/%s%s", dir, name, strstr(name, ":2,") ? "S" : ":2,S");
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
    struct strlist names = STRLIST_INIT;
    struct group *gr = xcalloc(1, sizeof(*gr));
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
    for (size_t i = 0; i <= names.n; i++) {
        if (i < names.n) {
            struct rawmsg raw;
            strbuf_reset(&path);
            strbuf_addf(&path, "%s/new/%s", dir, names.v[i]);
            if (rawmsg_read_file(path.buf, (size_t)limit, &raw))
                continue; /* gone meanwhile (another fetch took it) */
            if (group_add(db, gr, &raw, "maildir", names.v[i], 0)) {
                rawmsg_release(&raw);
                rc = -1;
                *temporary = db_failure_is_temporary();
                goto out;
            }
            if (!group_full(gr))
                continue;
        }
        if (group_commit(db, gr, st)) {
            *temporary = true;
            rc = -1;
            goto out;
        }
        ack_maildir(dir, gr);
        group_clear(gr);
    }
out:
    group_clear(gr);
    free(gr);
    strlist_clear(&names);
    strbuf_release(&path);
    return rc;
}

/* ---- IMAP --------------------------------------------------------------------------- */

static void ack_imap(struct imapc *im, const struct group *gr)
{
    for (size_t i = 0; i < gr->n; i++) {
        struct strbuf err = STRBUF_INIT;
        if (gr->p[i].unseen)
            continue;
        /* Not marked: the next fetch reads it again and finds it taken. */
        if (imapc_mark_seen(im, gr->p[i].uid, &err)) {
            error("%s", err.buf);
            strbuf_release(&err);
            return;
        }
        strbuf_release(&err);
    }
}

int fetch_imap(sqlite3 *db, struct fetch_stats *st, bool *temporary)
{
    char *url = setting_get(db, "imap_url"), *user = setting_get(db, "imap_user");
    char *pass = setting_get(db, "imap_password");
    struct tls_conf tls;
    long long limit = setting_get_int(db, "max_message_size", 2097152);
    struct imapc im = { 0 };
    struct imapc_limits lim;
    struct strbuf err = STRBUF_INIT;
    struct group *gr = xcalloc(1, sizeof(*gr));
    uint32_t *uids = NULL;
    size_t n = 0;
    int rc = -1;

    *temporary = true;
    if (tls_conf_read(db, "imap_tls", &tls)) {
        free(url);
        free(user);
        free(pass);
        free(gr);
        return -1;
    }
    if (!url || !user || !pass)
        goto out;
    lim.response_bytes = (size_t)setting_get_int(db, "imap_response_bytes", 1048576);
    lim.literal_keep = (size_t)limit + 1;
    lim.session_secs = (long)setting_get_int(db, "imap_session_secs", 300);
    if (imapc_open(&im, url, user, pass, &tls, &lim, &err) || imapc_unseen(&im, &uids, &n, &err)) {
        error("%s", err.buf);
        goto out;
    }
    for (size_t i = 0; i <= n; i++) {
        if (i < n) {
            struct strbuf msg = STRBUF_INIT;
            struct rawmsg raw;
            size_t total;
            strbuf_reset(&err);
            /* The network and the parse both come before the write lock. */
            if (imapc_fetch(&im, uids[i], &msg, &total, &err)) {
                error("%s", err.buf);
                strbuf_release(&msg);
                /* What is prepared is taken: the cut costs only the rest. */
                if (group_commit(db, gr, st) == 0)
                    ack_imap(&im, gr);
                goto out;
            }
            /* The size limit applies as to any mail: keep at most limit
             * bytes (of a longer one only limit + 1 came in at all). */
            rawmsg_from_memory(msg.buf, msg.len, (size_t)limit, &raw);
            raw.total = total;
            strbuf_release(&msg);
            if (group_add(db, gr, &raw, "imap", NULL, uids[i])) {
                rawmsg_release(&raw);
                goto out;
            }
            if (!group_full(gr))
                continue;
        }
        if (group_commit(db, gr, st))
            goto out;
        ack_imap(&im, gr);
        group_clear(gr);
    }
    rc = 0;
    *temporary = false;
out:
    group_clear(gr);
    free(gr);
    imapc_close(&im);
    free(uids);
    free(url);
    free(user);
    free(pass);
    tls_conf_release(&tls);
    strbuf_release(&err);
    return rc;
}

/* ---- an mbox ------------------------------------------------------------------------------ */

struct mbox_run {
    sqlite3 *db;
    struct group *gr;
    struct fetch_stats *st;
    long long limit;
    bool *temporary;
    bool failed;
};

static int mbox_take(void *ctx, const char *data, size_t len)
{
    struct mbox_run *mr = ctx;
    struct rawmsg raw;
    rawmsg_from_memory(data, len, (size_t)mr->limit, &raw);
    if (group_add(mr->db, mr->gr, &raw, "mbox", NULL, 0)) {
        rawmsg_release(&raw);
        *mr->temporary = db_failure_is_temporary();
        mr->failed = true;
        return -1;
    }
    if (group_full(mr->gr)) {
        if (group_commit(mr->db, mr->gr, mr->st)) {
            *mr->temporary = true;
            mr->failed = true;
            return -1;
        }
        group_clear(mr->gr);
    }
    return 0;
}

int fetch_mbox(sqlite3 *db, const char *path, struct fetch_stats *st, bool *temporary)
{
    struct strbuf err = STRBUF_INIT;
    const struct mime_api *api = mime_api(&err);
    struct mbox_run mr = { db, NULL, st, setting_get_int(db, "max_message_size", 2097152), temporary, false };
    struct stat sb;
    int rc = 0;

    *temporary = false;
    if (!api) {
        *temporary = true;
        rc = error("%s", err.buf);
        strbuf_release(&err);
        return rc;
    }
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return error("the mbox %s is not a regular file", path);
    mr.gr = xcalloc(1, sizeof(*mr.gr));
    /* Each message as GMime reads it back out of the mbox ("From " lines
     * and their quoting undone). */
    if (api->mbox_each(path, mbox_take, &mr, &err)) {
        if (!mr.failed)
            error("%s", err.buf);
        rc = -1;
    } else if (group_commit(db, mr.gr, st)) {
        rc = -1;
        *temporary = true;
    }
    group_clear(mr.gr);
    free(mr.gr);
    strbuf_release(&err);
    return rc;
}
