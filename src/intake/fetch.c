/* fetch.c: reading new mail from a Maildir or an IMAP mailbox, committing in groups, acknowledging only what is committed. */
#include "intake/fetch.h"
#include "store/db.h"
#include "mail/imapc.h"
#include "mail/mime.h"
#include "intake/intake.h"
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

/* ---- Maildir ------------------------------------------------------------------- */

/* Taken mails move to cur/ and are seen; the others stay in new/. */
static int ack_maildir(void *ctx, const struct intake_group *gr, int rc)
{
    const char *dir = ctx;
    for (size_t i = 0; i < gr->n && !rc; i++) {
        struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
        const char *name = gr->p[i].name;
        if (gr->p[i].outcome == INTAKE_UNSEEN || !name)
            continue;
        strbuf_addf(&from, "%s/new/%s", dir, name);
        strbuf_addf(&to, "%s/cur/%s%s", dir, name, strstr(name, ":2,") ? "S" : ":2,S");
        /* Not moved: the next fetch reads it again and finds it taken. */
        if (rename(from.buf, to.buf) && errno != ENOENT)
            error("cannot move %s to cur/: %s", from.buf, strerror(errno));
        strbuf_release(&from);
        strbuf_release(&to);
    }
    return 0;
}

int fetch_maildir(sqlite3 *db, const char *dir, struct intake_stats *st, bool *temporary)
{
    struct strbuf path = STRBUF_INIT;
    struct strlist names = STRLIST_INIT;
    const struct intake_source src = { "maildir", ack_maildir, (void *)dir };
    struct intake_drain d;
    long long limit = setting_get_int(db, "max_message_size", 2097152);
    DIR *dh;
    struct dirent *de;
    int rc = 0;

    *temporary = false;
    strbuf_addf(&path, "%s/new", dir);
    dh = opendir(path.buf);
    if (!dh) {
        rc = error("cannot read the Maildir %s: %s", path.buf, strerror(errno));
        *temporary = true;
        strbuf_release(&path);
        return rc;
    }
    while ((de = readdir(dh)))
        if (de->d_name[0] != '.')
            strlist_push(&names, de->d_name);
    closedir(dh);
    strlist_sort(&names); /* Maildir names start with the delivery time */
    intake_drain_open(&d, db, &src, st);
    for (size_t i = 0; i < names.n && !rc; i++) {
        struct rawmsg raw;
        struct intake_item *p;
        strbuf_reset(&path);
        strbuf_addf(&path, "%s/new/%s", dir, names.v[i]);
        if (rawmsg_read_file(path.buf, (size_t)limit, &raw))
            continue; /* gone meanwhile (another fetch took it) */
        if (intake_drain_give(&d, &raw, false, NULL, NULL, &p))
            rc = -1;
        else
            p->name = xstrdup(names.v[i]);
    }
    if (!rc)
        rc = intake_drain_flush(&d);
    *temporary = rc && d.temporary;
    intake_drain_close(&d);
    strlist_clear(&names);
    strbuf_release(&path);
    return rc;
}

/* ---- IMAP --------------------------------------------------------------------------- */

/* Taken mails are marked seen; at the first that cannot be, the rest
 * stay unseen: the next fetch reads them again and finds them taken. */
static int ack_imap(void *ctx, const struct intake_group *gr, int rc)
{
    struct imapc *im = ctx;
    for (size_t i = 0; i < gr->n && !rc; i++) {
        struct strbuf err = STRBUF_INIT;
        if (gr->p[i].outcome == INTAKE_UNSEEN)
            continue;
        if (imapc_mark_seen(im, (uint32_t)gr->p[i].key, &err)) {
            error("%s", err.buf);
            strbuf_release(&err);
            return 0;
        }
        strbuf_release(&err);
    }
    return 0;
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
    const struct intake_source src = { "imap", ack_imap, &im };
    struct intake_drain d;
    uint32_t *uids = NULL;
    size_t n = 0;
    int rc = -1;

    *temporary = true;
    if (tls_conf_read(db, "imap_tls", &tls)) {
        free(url);
        free(user);
        free(pass);
        return -1;
    }
    intake_drain_open(&d, db, &src, st);
    if (!url || !user || !pass)
        goto out;
    lim.response_bytes = (size_t)setting_get_int(db, "imap_response_bytes", 1048576);
    lim.literal_keep = (size_t)limit + 1;
    lim.session_secs = (long)setting_get_int(db, "imap_session_secs", 300);
    if (imapc_open(&im, url, user, pass, &tls, &lim, &err) || imapc_unseen(&im, &uids, &n, &err)) {
        error("%s", err.buf);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        struct strbuf msg = STRBUF_INIT;
        struct rawmsg raw;
        struct intake_item *p;
        size_t total;
        strbuf_reset(&err);
        /* The network and the parse both come before the write lock. */
        if (imapc_fetch(&im, uids[i], &msg, &total, &err)) {
            error("%s", err.buf);
            strbuf_release(&msg);
            /* What is prepared is taken: the cut costs only the rest. */
            intake_drain_flush(&d);
            goto out;
        }
        /* The size limit applies as to any mail: keep at most limit
         * bytes (of a longer one only limit + 1 came in at all). */
        rawmsg_from_memory(msg.buf, msg.len, (size_t)limit, &raw);
        raw.total = total;
        strbuf_release(&msg);
        if (intake_drain_give(&d, &raw, false, NULL, NULL, &p))
            goto out;
        p->key = uids[i];
    }
    if (intake_drain_flush(&d))
        goto out;
    rc = 0;
    *temporary = false;
out:
    intake_drain_close(&d);
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
    struct intake_drain d;
    long long limit;
    bool failed;
};

static int mbox_take(void *ctx, const char *data, size_t len)
{
    struct mbox_run *mr = ctx;
    struct rawmsg raw;
    rawmsg_from_memory(data, len, (size_t)mr->limit, &raw);
    if (intake_drain_give(&mr->d, &raw, false, NULL, NULL, NULL)) {
        mr->failed = true;
        return -1;
    }
    return 0;
}

int fetch_mbox(sqlite3 *db, const char *path, struct intake_stats *st, bool *temporary)
{
    struct strbuf err = STRBUF_INIT;
    const struct mime_api *api = mime_api(&err);
    const struct intake_source src = { "mbox", NULL, NULL };
    struct mbox_run mr = { .limit = setting_get_int(db, "max_message_size", 2097152) };
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
    intake_drain_open(&mr.d, db, &src, st);
    /* Each message as GMime reads it back out of the mbox ("From " lines
     * and their quoting undone). */
    if (api->mbox_each(path, mbox_take, &mr, &err)) {
        if (!mr.failed)
            error("%s", err.buf);
        rc = -1;
        *temporary = mr.failed && mr.d.temporary;
    } else if (intake_drain_flush(&mr.d)) {
        rc = -1;
        *temporary = true;
    }
    intake_drain_close(&mr.d);
    strbuf_release(&err);
    return rc;
}
