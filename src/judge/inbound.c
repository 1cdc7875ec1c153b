/* inbound.c: one incoming mail from raw bytes to stored orders and queued replies, journalled once by Message-ID. */
#include "judge/inbound.h"
#include "store/db.h"
#include "core/engine.h"
#include "judge/host.h"
#include "lib/order_text.h"
#include "mail/envelope.h"
#include "mail/mailparse.h"
#include "judge/notify.h"
#include "core/reply.h"
#include "store/settings.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rawmsg_read_fd(int fd, size_t limit, struct rawmsg *r)
{
    GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
    struct strbuf sb = STRBUF_INIT;
    char buf[65536];

    memset(r, 0, sizeof(*r));
    for (;;) {
        ssize_t n = read(fd, buf, sizeof(buf));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            g_checksum_free(sum);
            strbuf_release(&sb);
            return error("cannot read the message: %s", strerror(errno));
        }
        if (n == 0)
            break;
        g_checksum_update(sum, (const guchar *)buf, (gsize)n);
        r->total += (size_t)n;
        if (sb.len < limit)
            strbuf_add(&sb, buf, (size_t)n < limit - sb.len ? (size_t)n : limit - sb.len);
    }
    snprintf(r->digest, sizeof(r->digest), "%s", g_checksum_get_string(sum));
    g_checksum_free(sum);
    r->len = sb.len;
    r->data = strbuf_detach(&sb);
    return 0;
}

int rawmsg_read_file(const char *path, size_t limit, struct rawmsg *r)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
    if (fd < 0)
        return error("cannot open %s: %s", path, strerror(errno));
    rc = rawmsg_read_fd(fd, limit, r);
    close(fd);
    return rc;
}

void rawmsg_from_memory(const char *data, size_t len, size_t limit, struct rawmsg *r)
{
    GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
    g_checksum_update(sum, (const guchar *)data, (gssize)len);
    snprintf(r->digest, sizeof(r->digest), "%s", g_checksum_get_string(sum));
    g_checksum_free(sum);
    r->total = len;
    r->len = len < limit ? len : limit;
    r->data = xmalloc(r->len + 1); /* not xstrndup: a mail may hold NUL bytes */
    memcpy(r->data, data, r->len);
    r->data[r->len] = '\0';
}

void rawmsg_release(struct rawmsg *r)
{
    free(r->data);
    memset(r, 0, sizeof(*r));
}

/* Secrets compared in time independent of where they differ. */
static bool secret_eq(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned char d = la != lb;
    for (size_t i = 0; i < la && i < lb; i++)
        d |= (unsigned char)(a[i] ^ b[i]);
    return d == 0;
}

static int seat_by_secret(const struct game_rec *g, const char *secret)
{
    int found = -1;
    for (int s = 0; secret && s < g->nseats; s++)
        if (secret_eq(g->seats[s].secret, secret))
            found = s;
    return found;
}

/* The seat a mail says it is from, without proof: its plus address, its
 * PLAYER line, or its From address. -1: none. */
static int seat_claimed(const struct game_rec *g, const struct envelope *e, const struct inmail *m)
{
    if (e->seat >= 1 && e->seat <= g->nseats)
        return e->seat - 1;
    if (e->player) {
        int s = game_seat_find(g, e->player);
        if (s >= 0)
            return s;
    }
    for (int s = 0; m->from && s < g->nseats; s++)
        if (str_ieq(g->seats[s].email, m->from))
            return s;
    return -1;
}

static int journal(sqlite3 *db, const struct rawmsg *raw, const struct inmail *m, const char *key, const char *source,
                   bool keep_raw, int64_t *row)
{
    char now[32];
    sqlite3_stmt *st;
    int rc;

    utc_now(now);
    st = db_stmt(db,
                 "INSERT INTO messages(message_id, received_at, source, from_addr, subject, size, digest, headers,"
                 " raw, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'processed')",
                 "sssssIss", key, now, source, m->from, m->subject, (int64_t)raw->total, raw->digest, m->headers);
    if (!st)
        return -1;
    rc = keep_raw ? sqlite3_bind_blob(st, 9, raw->data, (int)raw->len, SQLITE_STATIC) : sqlite3_bind_null(st, 9);
    if (rc != SQLITE_OK) {
        db_finalize(st);
        return error("database: bind: %s", sqlite3_errmsg(db));
    }
    rc = db_step(st);
    db_finalize(st);
    *row = sqlite3_last_insert_rowid(db);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int finish(sqlite3 *db, int64_t row, struct inbound_result *r, enum inbound_status status, const char *why)
{
    static const char *const names[] = { "processed", "processed", "ignored", "refused" };
    r->status = status;
    snprintf(r->summary, sizeof(r->summary), "%s%s%s", names[status], why ? ": " : "", why ? why : "");
    return db_do(db, "UPDATE messages SET status = ?, reason = ?, game_id = nullif(?, 0), seat = nullif(?, 0)"
                     " WHERE id = ?",
                 "ssIiI", names[status], why, r->game, r->seat, row);
}

/* The host's commands, one a line, answered to the host's address; only
 * from that address (with the host secret) are they taken. */
static int host_mail(sqlite3 *db, struct game_rec *g, const struct inmail *m, const struct envelope *e,
                     const struct mail_origin *origin, struct inbound_result *r)
{
    struct strlist lines = STRLIST_INIT;
    cJSON *d = cJSON_CreateObject(), *list = cJSON_CreateArray();
    struct strbuf status = STRBUF_INIT;
    char why[200];
    int rc = 0;

    if (!m->from || !g->sched.host_email || !str_ieq(m->from, g->sched.host_email)) {
        cJSON_Delete(list);
        snprintf(why, sizeof(why), "a mail with the host secret came from %.80s, not from the host's address",
                 m->from ? m->from : "no address");
        cJSON_AddStringToObject(d, "missing", "");
        cJSON_AddStringToObject(d, "why", why);
        rc = notify_host(db, g, "refused", "mail-host-refused.txt", d, NULL);
        cJSON_Delete(d);
        return rc ? -1 : finish(db, origin->row, r, INBOUND_REFUSED, why);
    }
    order_lines(e->orders, &lines);
    for (size_t i = 0; i < lines.n && rc >= 0; i++) {
        struct strbuf out = STRBUF_INIT;
        cJSON *l = cJSON_CreateObject();
        rc = host_command(db, g, lines.v[i], &out);
        struct strbuf body = STRBUF_INIT;
        strbuf_addf(&body, "%s%s", rc == 1 ? "Refused: " : "", out.buf);
        cJSON_AddStringToObject(l, "text", lines.v[i]);
        reply_add_text(l, "body", body.buf);
        strbuf_release(&body);
        cJSON_AddItemToArray(list, l);
        strbuf_release(&out);
    }
    strlist_clear(&lines);
    if (rc >= 0) {
        cJSON_AddItemToObject(d, "lines", list);
        list = NULL;
        host_status(db, g, &status);
        cJSON_AddStringToObject(d, "status", status.buf);
        rc = notify_host(db, g, "host", "mail-host.txt", d, origin) ? -1 : 0;
    }
    cJSON_Delete(list);
    cJSON_Delete(d);
    strbuf_release(&status);
    if (rc < 0)
        return -1;
    snprintf(why, sizeof(why), "game %lld: the host's commands", (long long)g->id);
    return finish(db, origin->row, r, INBOUND_PROCESSED, why);
}

/* Handles an authenticated seat's orders. */
static int take_orders(sqlite3 *db, struct game_rec *g, int seat, const struct envelope *e,
                       const struct mail_origin *origin, struct inbound_result *r)
{
    struct submission sub = { 0 };
    int rc = engine_submit(db, g, seat, e->orders, "mail", origin->row, &sub);
    if (!rc)
        rc = notify_submission(db, g, seat, &sub, origin);
    if (!rc) {
        size_t accepted = 0, rejected = 0;
        for (size_t i = 0; i < sub.n; i++) {
            accepted += sub.lines[i].status == LINE_ACCEPTED || sub.lines[i].status == LINE_PENDING;
            rejected += sub.lines[i].status == LINE_REJECTED;
        }
        r->seat = seat + 1;
        char why[160];
        snprintf(why, sizeof(why), "game %lld, %s: %zu line(s), %zu taken, %zu refused", (long long)g->id,
                 g->names[seat], sub.n, accepted, rejected);
        rc = finish(db, origin->row, r, INBOUND_PROCESSED, why);
    }
    submission_release(&sub);
    return rc;
}

int inbound_process(sqlite3 *db, const struct rawmsg *raw, const char *source, struct inbound_result *r)
{
    struct inmail m;
    struct envelope e = { 0 };
    struct game_rec g = { 0 };
    struct mail_origin origin = { 0 };
    char *from_setting = NULL, *key = NULL, why[200];
    long long limit;
    int64_t row = 0, existing;
    struct strbuf refs = STRBUF_INIT;
    bool oversize, loaded = false;
    int rc = -1, seat;

    memset(r, 0, sizeof(*r));
    if (inmail_parse(raw->data, raw->len, &m)) {
        /* Nothing at all: journal it by digest like any other garbage. */
        memset(&m, 0, sizeof(m));
        m.headers = xstrdup("");
        m.subject = xstrdup("");
        m.text = xstrdup("");
        m.references = xstrdup("");
    }
    key = m.message_id ? xstrdup(m.message_id) : NULL;
    if (!key) {
        struct strbuf k = STRBUF_INIT;
        strbuf_addf(&k, "sha256.%s@ngoma.invalid", raw->digest);
        key = strbuf_detach(&k);
    }
    rc = db_get_int64(db, &existing, "SELECT id FROM messages WHERE message_id = ?", "s", key);
    if (rc != 0) {
        if (rc > 0) {
            r->status = INBOUND_DUPLICATE;
            snprintf(r->summary, sizeof(r->summary), "duplicate of message %lld: nothing done", (long long)existing);
            rc = 0;
        }
        goto out;
    }
    rc = -1;
    limit = setting_get_int(db, "max_message_size", 2097152);
    oversize = raw->total > (size_t)limit;
    if (!(from_setting = setting_get(db, "from")) ||
        journal(db, raw, &m, key, source, !oversize, &row))
        goto out;

    const char *automatic = envelope_automatic(&m, from_setting);
    if (automatic) {
        rc = finish(db, row, r, INBOUND_IGNORED, automatic);
        goto out;
    }
    envelope_read(&m, from_setting, &e);
    if (!e.game) {
        rc = finish(db, row, r, INBOUND_IGNORED, "it names no game (no [ngoma N] tag, plus address or GAME line)");
        goto out;
    }
    rc = db_get_int64(db, &existing, "SELECT id FROM games WHERE id = ?", "I", e.game);
    if (rc <= 0) {
        snprintf(why, sizeof(why), "there is no game %lld", (long long)e.game);
        rc = rc < 0 ? -1 : finish(db, row, r, INBOUND_IGNORED, why);
        goto out;
    }
    if (game_load(db, e.game, &g))
        goto out;
    loaded = true;
    r->game = g.id;
    strbuf_addstr(&refs, m.references ? m.references : "");
    origin.message_id = m.message_id;
    origin.references = refs.buf;
    origin.row = row;

    seat = seat_by_secret(&g, e.secret);
    if (!oversize && seat < 0 && e.secret && g.sched.host_secret && secret_eq(g.sched.host_secret, e.secret)) {
        rc = host_mail(db, &g, &m, &e, &origin, r);
        goto out;
    }
    if (oversize || seat < 0) {
        int claimed = seat >= 0 ? seat : seat_claimed(&g, &e, &m);
        if (oversize)
            snprintf(why, sizeof(why),
                     "it was %zu bytes long, over the limit of %lld: send your orders as plain text, "
                     "without attachments",
                     raw->total, limit);
        else
            snprintf(why, sizeof(why), "it %s: answer a mail of the game, or write the line SECRET and your secret",
                     e.secret ? "carried a wrong secret" : "carried no secret");
        if (claimed < 0) {
            rc = finish(db, row, r, INBOUND_IGNORED, why);
            goto out;
        }
        r->seat = claimed + 1;
        rc = notify_refused(db, &g, claimed, why, &origin);
        if (!rc)
            rc = finish(db, row, r, INBOUND_REFUSED, why);
        goto out;
    }
    if (e.player && game_seat_find(&g, e.player) != seat) {
        snprintf(why, sizeof(why), "it carried %s's secret but named the player \"%.40s\"", g.names[seat], e.player);
        r->seat = seat + 1;
        rc = notify_refused(db, &g, seat, why, &origin);
        if (!rc)
            rc = finish(db, row, r, INBOUND_REFUSED, why);
        goto out;
    }
    rc = take_orders(db, &g, seat, &e, &origin, r);
out:
    if (loaded)
        game_unload(&g);
    envelope_release(&e);
    inmail_release(&m);
    strbuf_release(&refs);
    free(from_setting);
    free(key);
    return rc;
}

int inbound_journal_failed(sqlite3 *db, const struct rawmsg *raw, const char *source, const char *why)
{
    struct inmail m;
    char now[32], *key;
    struct strbuf k = STRBUF_INIT;
    int rc;

    if (inmail_parse(raw->data, raw->len, &m) || !m.message_id)
        strbuf_addf(&k, "sha256.%s@ngoma.invalid", raw->digest);
    else
        strbuf_addstr(&k, m.message_id);
    key = strbuf_detach(&k);
    utc_now(now);
    rc = db_do(db,
               "INSERT OR IGNORE INTO messages(message_id, received_at, source, from_addr, subject, size, digest,"
               " headers, status, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'failed', ?)",
               "sssssIsss", key, now, source, m.from, m.subject ? m.subject : "", (int64_t)raw->total, raw->digest,
               m.headers ? m.headers : "", why);
    free(key);
    inmail_release(&m);
    return rc;
}
