/* fetch.c: reading new mail from a Maildir or an IMAP mailbox, committing in groups, acknowledging only what is committed. */
#include "judge/fetch.h"
#include "store/db.h"
#include "mail/imapc.h"
#include "mail/mime.h"
#include "judge/intake.h"
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

/* Adds a message read into raw (taken over) and prepares it; 0, or -1 on
 * a database failure. */
static int group_add(sqlite3 *db, struct intake_group *gr, struct rawmsg *raw, const char *source, const char *name,
                     uint32_t uid)
{
    struct intake_item *p;
    if (intake_add(db, gr, raw, false, source, NULL))
        return -1;
    p = intake_last(gr);
    p->name = name ? xstrdup(name) : NULL;
    p->uid = uid;
    return 0;
}

/* ---- Maildir ------------------------------------------------------------------- */

static int ack_maildir(const char *dir, const struct intake_group *gr)
{
    int rc = 0;
    for (size_t i = 0; i < gr->n; i++) {
        struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
        const char *name = gr->p[i].name;
        if (gr->p[i].outcome == INTAKE_UNSEEN || !name)
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

int fetch_maildir(sqlite3 *db, const char *dir, struct intake_stats *st, bool *temporary)
{
    struct strbuf path = STRBUF_INIT;
    struct strlist names = STRLIST_INIT;
    struct intake_group *gr = xcalloc(1, sizeof(*gr));
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
            if (!intake_full(gr))
                continue;
        }
        if (intake_commit(db, gr, st)) {
            *temporary = true;
            rc = -1;
            goto out;
        }
        ack_maildir(dir, gr);
        intake_clear(gr);
    }
out:
    intake_clear(gr);
    free(gr);
    strlist_clear(&names);
    strbuf_release(&path);
    return rc;
}

/* ---- IMAP --------------------------------------------------------------------------- */

static void ack_imap(struct imapc *im, const struct intake_group *gr)
{
    for (size_t i = 0; i < gr->n; i++) {
        struct strbuf err = STRBUF_INIT;
        if (gr->p[i].outcome == INTAKE_UNSEEN)
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

int fetch_imap(sqlite3 *db, struct intake_stats *st, bool *temporary)
{
    char *url = setting_get(db, "imap_url"), *user = setting_get(db, "imap_user");
    char *pass = setting_get(db, "imap_password");
    struct tls_conf tls;
    long long limit = setting_get_int(db, "max_message_size", 2097152);
    struct imapc im = { 0 };
    struct imapc_limits lim;
    struct strbuf err = STRBUF_INIT;
    struct intake_group *gr = xcalloc(1, sizeof(*gr));
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
                if (intake_commit(db, gr, st) == 0)
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
            if (!intake_full(gr))
                continue;
        }
        if (intake_commit(db, gr, st))
            goto out;
        ack_imap(&im, gr);
        intake_clear(gr);
    }
    rc = 0;
    *temporary = false;
out:
    intake_clear(gr);
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
    struct intake_group *gr;
    struct intake_stats *st;
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
    if (intake_full(mr->gr)) {
        if (intake_commit(mr->db, mr->gr, mr->st)) {
            *mr->temporary = true;
            mr->failed = true;
            return -1;
        }
        intake_clear(mr->gr);
    }
    return 0;
}

int fetch_mbox(sqlite3 *db, const char *path, struct intake_stats *st, bool *temporary)
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
    } else if (intake_commit(db, mr.gr, st)) {
        rc = -1;
        *temporary = true;
    }
    intake_clear(mr.gr);
    free(mr.gr);
    strbuf_release(&err);
    return rc;
}
