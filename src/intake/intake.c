/* intake.c: taking mails in groups: read and prepared first, then one transaction with a savepoint each, acknowledged only after the commit. */
#include "intake/intake.h"
#include "store/db.h"
#include "lib/util.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void count(struct intake_stats *st, const struct inbound_result *r)
{
    switch (r->status) {
    case INBOUND_PROCESSED: st->processed++; break;
    case INBOUND_DUPLICATE: st->duplicates++; break;
    case INBOUND_IGNORED: st->ignored++; break;
    case INBOUND_REFUSED: st->refused++; break;
    }
}

void intake_clear(struct intake_group *gr)
{
    for (size_t i = 0; i < gr->n; i++) {
        inbound_mail_release(&gr->p[i].in);
        if (!gr->p[i].borrowed)
            rawmsg_release(&gr->p[i].raw);
        free(gr->p[i].name);
    }
    gr->n = gr->bytes = 0;
}

int intake_add(sqlite3 *db, struct intake_group *gr, struct rawmsg *raw, bool borrow, const char *source,
               const struct inbound_env *env)
{
    struct intake_item *p = &gr->p[gr->n];
    memset(p, 0, sizeof(*p));
    p->raw = *raw;
    p->borrowed = borrow;
    if (!borrow)
        memset(raw, 0, sizeof(*raw));
    if (inbound_prepare(db, &p->raw, source, env, &p->in)) {
        if (!borrow)
            rawmsg_release(&p->raw);
        return -1;
    }
    gr->n++;
    gr->bytes += p->raw.len;
    return 0;
}

struct intake_item *intake_last(struct intake_group *gr)
{
    return gr->n ? &gr->p[gr->n - 1] : NULL;
}

bool intake_full(const struct intake_group *gr)
{
    size_t max = gr->max && gr->max <= INTAKE_GROUP_MAX ? gr->max : INTAKE_GROUP;
    return gr->n >= max || gr->bytes >= (gr->max_bytes ? gr->max_bytes : INTAKE_BYTES);
}

int intake_commit(sqlite3 *db, struct intake_group *gr, struct intake_stats *st)
{
    struct intake_stats before = *st;
    if (!gr->n)
        return 0;
    if (db_begin(db))
        return -1;
    for (size_t i = 0; i < gr->n; i++) {
        struct intake_item *p = &gr->p[i];
        char why[400];
        bool given_up;
        if (db_savepoint(db, "msg"))
            goto fail;
        error_first_reset();
        st->messages++;
        if (inbound_take(db, &p->in, &p->r) == 0) {
            p->outcome = INTAKE_TAKEN;
            count(st, &p->r);
            if (db_release(db, "msg"))
                goto fail;
            continue;
        }
        snprintf(why, sizeof(why), "%s", *error_first() ? error_first() : "processing failed");
        db_rollback_to(db, "msg");
        if (db_failure_is_temporary())
            goto fail;
        /* Not the mail's fault, and it will not pass by waiting a moment:
         * the others go on, this one is offered again. */
        if (inbound_note_failure(db, &p->in, why, &given_up))
            goto fail;
        if (given_up) {
            /* Journalled as failed: let it go. */
            p->outcome = INTAKE_TAKEN;
            p->r.status = INBOUND_IGNORED;
            snprintf(p->r.summary, sizeof(p->r.summary), "not taken for days (%s): kept as failed", why);
            st->failed++;
            error("mail %s from %s could not be taken for days (%s): kept as failed, no longer offered",
                  p->in.message_id, p->in.m.from ? p->in.m.from : "no address", why);
        } else {
            p->outcome = INTAKE_UNSEEN;
            st->unseen++;
            error("mail %s from %s is not taken (%s): it is offered again", p->in.message_id,
                  p->in.m.from ? p->in.m.from : "no address", why);
        }
    }
    if (db_commit(db))
        goto fail;
    return 0;
fail:
    db_rollback(db);
    *st = before;
    for (size_t i = 0; i < gr->n; i++)
        gr->p[i].outcome = INTAKE_UNSEEN;
    return -1;
}

/* ---- the drain -------------------------------------------------------------- */

void intake_drain_open(struct intake_drain *d, sqlite3 *db, const struct intake_source *src, struct intake_stats *st)
{
    memset(d, 0, sizeof(*d));
    d->db = db;
    d->src = src;
    d->st = st;
    d->gr = xcalloc(1, sizeof(*d->gr));
}

int intake_drain_flush(struct intake_drain *d)
{
    int rc, acked;
    assert(d->gr);
    if (!d->gr->n)
        return 0;
    rc = intake_commit(d->db, d->gr, d->st);
    acked = d->src->ack ? d->src->ack(d->src->ctx, d->gr, rc) : 0;
    intake_clear(d->gr);
    if (rc) {
        d->temporary = true;
        return -1;
    }
    if (acked) {
        d->temporary = db_failure_is_temporary();
        return -1;
    }
    return 0;
}

int intake_drain_give(struct intake_drain *d, struct rawmsg *raw, bool borrow, const char *source,
                      const struct inbound_env *env, struct intake_item **item)
{
    if (intake_full(d->gr) && intake_drain_flush(d)) {
        if (!borrow)
            rawmsg_release(raw);
        return 1;
    }
    if (intake_add(d->db, d->gr, raw, borrow, source ? source : d->src->name, env)) {
        d->temporary = db_failure_is_temporary();
        return -1;
    }
    if (item)
        *item = intake_last(d->gr);
    return 0;
}

void intake_drain_close(struct intake_drain *d)
{
    if (!d->gr)
        return;
    intake_clear(d->gr);
    free(d->gr);
    d->gr = NULL;
}
