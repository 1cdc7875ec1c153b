/* inbound.c: one incoming mail from raw bytes to stored orders and queued replies, journalled once by what it is and where it went. */
#include "judge/inbound.h"
#include "store/languages.h"
#include "lib/template.h"
#include "lib/catalog.h"
#include "judge/lobby.h"
#include "judge/press.h"
#include "core/engine.h"
#include "core/ordersense.h"
#include "core/reply.h"
#include "judge/host.h"
#include "judge/limits.h"
#include "judge/notify.h"
#include "lib/digest.h"
#include "lib/order_text.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "store/db.h"
#include "store/settings.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- preparing, outside the transaction ------------------------------------------------ */

/* What the mail carries, whatever the path it took: its sender, date and
 * subject and the bytes of its body, not the trace headers relays add. A
 * genuine redelivery has the same digest; a stranger's mail with a copied
 * Message-ID has another. */
static void content_digest(const struct rawmsg *raw, const struct inmail *m, char out[17])
{
    struct sha256 sum;
    char hex[65];
    size_t body = 0;
    sha256_init(&sum);
    for (size_t n = 0; n + 1 < raw->len; n++)
        if (raw->data[n] == '\n' &&
            (raw->data[n + 1] == '\n' || (raw->data[n + 1] == '\r' && n + 2 < raw->len && raw->data[n + 2] == '\n'))) {
            body = n + 1;
            break;
        }
    sha256_update(&sum, m->from ? m->from : "", strlen(m->from ? m->from : ""));
    sha256_update(&sum, "\n", 1);
    sha256_update(&sum, m->date ? m->date : "", strlen(m->date ? m->date : ""));
    sha256_update(&sum, "\n", 1);
    sha256_update(&sum, m->subject ? m->subject : "", strlen(m->subject ? m->subject : ""));
    sha256_update(&sum, "\n", 1);
    sha256_update(&sum, raw->data + body, raw->len - body);
    sha256_final(&sum, hex);
    snprintf(out, 17, "%.16s", hex);
}

int inbound_prepare(sqlite3 *db, const struct rawmsg *raw, const char *source, const struct inbound_env *env,
                    struct inbound_mail *in)
{
    struct mail_limits lim = MAIL_LIMITS_DEFAULT;
    struct strbuf sb = STRBUF_INIT;
    struct strlist lines = STRLIST_INIT;
    char digest[17];

    memset(in, 0, sizeof(*in));
    in->raw = raw;
    in->source = source;
    if (!(in->from_setting = setting_get(db, "from")))
        return -1;
    in->size_limit = setting_get_int(db, "max_message_size", 2097152);
    lim.header_bytes = (size_t)setting_get_int(db, "max_header_bytes", 32768);
    lim.subject_bytes = (size_t)setting_get_int(db, "max_subject_bytes", 200);
    in->oversize = raw->total > (size_t)in->size_limit;
    int parsed = inmail_parse(raw->data, raw->len, &lim, &in->m);
    if (parsed == -2) {
        inbound_mail_release(in); /* the mail module is missing: not the mail's fault */
        return -1;
    }
    if (parsed) {
        /* Nothing at all: journal it by digest like any other garbage. */
        memset(&in->m, 0, sizeof(in->m));
        in->m.headers = xstrdup("");
        in->m.subject = xstrdup("");
        in->m.text = xstrdup("");
        in->m.references = xstrdup("");
    }
    if (env && env->sender && !in->m.return_path)
        in->m.return_path = str_lower(xstrdup(env->sender));
    if (env && env->rcpt && *env->rcpt) {
        /* The envelope's recipient first: where this copy was delivered. */
        struct strlist d = STRLIST_INIT;
        strlist_push_owned(&d, str_lower(xstrdup(env->rcpt)));
        for (size_t i = 0; i < in->m.delivered.n; i++)
            strlist_push(&d, in->m.delivered.v[i]);
        strlist_clear(&in->m.delivered);
        in->m.delivered = d;
    }
    if (in->m.message_id)
        in->message_id = xstrdup(in->m.message_id);
    else {
        strbuf_addf(&sb, "sha256.%s@ngoma.invalid", raw->digest);
        in->message_id = strbuf_detach(&sb);
    }
    in->automatic = envelope_automatic(&in->m, in->from_setting);
    envelope_read(&in->m, in->from_setting, &in->e);
    /* Press and MUTE lines apart from the orders (of a mail to a game: the
     * lobby's are its own): a reply to a press channel is press, its MUTE
     * lines at the top aside. */
    press_split(in->e.game ? in->e.orders : "", in->e.channel != 0, NULL, &in->press);
    order_lines(in->press.orders, &lines);
    in->order_lines = lines.n;
    strlist_clear(&lines);
    content_digest(raw, &in->m, digest);
    strbuf_addf(&sb, "%s %s %s", in->message_id, digest, in->e.address ? in->e.address : "-");
    in->key = strbuf_detach(&sb);
    return 0;
}

void inbound_mail_release(struct inbound_mail *in)
{
    inmail_release(&in->m);
    envelope_release(&in->e);
    press_text_release(&in->press);
    free(in->from_setting);
    free(in->message_id);
    free(in->key);
    memset(in, 0, sizeof(*in));
}

/* ---- inside the transaction --------------------------------------------------------- */

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

/* The journal row; a whole copy only of mail that carried a seat's or the
 * host's secret (and of ignored mail when the host keeps some:
 * ignored_raw_kept). */
static int journal(sqlite3 *db, const struct inbound_mail *in, const char *status, bool keep_raw, int64_t *row)
{
    char now[32];
    sqlite3_stmt *st;
    int rc;

    utc_now(now);
    st = db_stmt(db,
                 "INSERT INTO messages(message_id, dedupe_key, rcpt, received_at, source, from_addr, subject, size,"
                 " digest, headers, raw, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 "sssssssIss", in->message_id, in->key, in->e.address, now, in->source, in->m.from, in->m.subject,
                 (int64_t)in->raw->total, in->raw->digest, in->m.headers);
    if (!st)
        return -1;
    rc = keep_raw && !in->oversize ? sqlite3_bind_blob(st, 11, in->raw->data, (int)in->raw->len, SQLITE_STATIC)
                                   : sqlite3_bind_null(st, 11);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 12, status, -1, SQLITE_STATIC);
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

/* Journals a mail nothing is done with, keeping the newest ignored_raw_kept
 * whole copies of such mail and no more. */
static int ignore(sqlite3 *db, const struct inbound_mail *in, struct inbound_result *r, const char *why)
{
    long long keep = setting_get_int(db, "ignored_raw_kept", 0);
    int64_t row;
    if (journal(db, in, "ignored", keep > 0, &row) || finish(db, row, r, INBOUND_IGNORED, why))
        return -1;
    if (keep > 0 &&
        db_do(db,
              "UPDATE messages SET raw = NULL WHERE status = 'ignored' AND raw IS NOT NULL AND id <="
              " (SELECT id FROM messages WHERE status = 'ignored' AND raw IS NOT NULL ORDER BY id DESC LIMIT 1 OFFSET ?)",
              "I", (int64_t)keep))
        return -1;
    return 0;
}

/* Whether a refusal may go to seat now: one a step, refusals_per_hour a
 * seat and a sender. */
static int may_refuse(sqlite3 *db, struct game_rec *g, int seat, const struct inmail *m, bool *ok)
{
    long long max = setting_get_int(db, "refusals_per_hour", 4);
    int64_t from_sender;
    int fresh;
    if (limit_may_mail(db, g->seats[seat].email, "refused", "refusals_per_hour", ok) ||
        limit_answers_caused(db, m->from, "refused", 3600, &from_sender))
        return -1;
    *ok = *ok && from_sender < max;
    if (!*ok)
        return 0;
    if ((fresh = notify_once(db, g, seat, "refused")) < 0)
        return -1;
    *ok = fresh == 1;
    return 0;
}

/* Tells the claimed seat why a mail in its name was refused, within the
 * limits; the mail is journalled as refused either way. */
static int refuse(sqlite3 *db, struct game_rec *g, int seat, const struct inbound_mail *in,
                  const struct mail_origin *origin, struct inbound_result *r, const char *why)
{
    bool ok;
    char reason[300];
    r->seat = seat + 1;
    if (may_refuse(db, g, seat, &in->m, &ok))
        return -1;
    if (ok && notify_refused(db, g, seat, why, in->e.orders, origin))
        return -1;
    snprintf(reason, sizeof(reason), "%s%s", why, ok ? "" : " (not told: a refusal limit was reached)");
    return finish(db, origin->row, r, INBOUND_REFUSED, reason);
}

/* Whether address held seat of g once, and holds it no more. */
static bool left_seat(sqlite3 *db, const struct game_rec *g, int seat, const char *address)
{
    int64_t n = 0;
    if (seat < 0 || !address || str_ieq(g->seats[seat].email, address))
        return false;
    return db_get_int64(db, &n,
                        "SELECT count(*) FROM seat_holders WHERE game_id = ? AND seat = ? AND address = ? AND to_step"
                        " IS NOT NULL",
                        "Iis", g->id, seat + 1, address) > 0 &&
           n > 0;
}

/* A mail from one who left seat: nothing taken; she is told at address
 * (within the refusal limits), by the name she played under. */
static int refuse_leaver(sqlite3 *db, struct game_rec *g, int seat, const char *address,
                         const struct inbound_mail *in, const struct mail_origin *origin, struct inbound_result *r)
{
    char why[300], reason[360], *name = NULL;
    bool ok;
    r->seat = seat + 1;
    if (db_get_text(db, &name,
                    "SELECT name FROM seat_holders WHERE game_id = ? AND seat = ? AND address = ? ORDER BY id DESC"
                    " LIMIT 1",
                    "Iis", g->id, seat + 1, address) < 0)
        return -1;
    snprintf(why, sizeof(why),
             "You no longer play seat %d of game %lld: %s plays it since you left it, and a seat is played by"
             " whoever holds it now.",
             seat + 1, (long long)g->id, g->seats[seat].bot ? "a bot" : "another player");
    if (limit_may_mail(db, address, "left", "refusals_per_hour", &ok) ||
        (ok && notify_left(db, g, address, name ? name : g->names[seat], why, in->e.orders, origin))) {
        free(name);
        return -1;
    }
    free(name);
    snprintf(reason, sizeof(reason), "game %lld, seat %d: a mail from %s, who left the seat%s", (long long)g->id,
             seat + 1, address, ok ? "" : " (not told: a refusal limit was reached)");
    return finish(db, origin->row, r, INBOUND_REFUSED, reason);
}

/* The host's commands, one a line, answered to the host's address; only
 * from that address (with the host secret) are they taken. */
static int host_mail(sqlite3 *db, struct game_rec *g, const struct inbound_mail *in, const struct mail_origin *origin,
                     struct inbound_result *r)
{
    const struct inmail *m = &in->m;
    struct strlist lines = STRLIST_INIT;
    cJSON *d = cJSON_CreateObject(), *list = cJSON_CreateArray();
    struct strbuf status = STRBUF_INIT;
    char why[200];
    int rc = 0;

    if (!m->from || !g->sched.host_email || !str_ieq(m->from, g->sched.host_email)) {
        bool ok;
        cJSON_Delete(list);
        snprintf(why, sizeof(why), "a mail with the host secret came from %.80s, not from the host's address",
                 m->from ? m->from : "no address");
        cJSON_AddStringToObject(d, "missing", "");
        cJSON_AddStringToObject(d, "from", m->from ? m->from : "");
        rc = limit_may_mail(db, g->sched.host_email ? g->sched.host_email : "", "refused", "refusals_per_hour", &ok);
        if (!rc && ok)
            rc = notify_host(db, g, "refused", "mail-host-refused.txt", d, NULL);
        cJSON_Delete(d);
        return rc ? -1 : finish(db, origin->row, r, INBOUND_REFUSED, why);
    }
    order_lines(in->e.orders, &lines);
    /* A game that began at a lobby table: its host is the table's opener,
     * a player, with a player's powers (visibility.c). */
    int64_t opened = 0;
    if (db_get_int64(db, &opened, "SELECT count(*) FROM lobby_tables WHERE id = ?", "I", g->id) < 0)
        rc = -1;
    struct viewer who = viewer_of(opened ? VIEWER_OPENER : VIEWER_HOST_MAIL);
    char *lang = language_of(db, g->sched.host_email); /* the host's answers in hers */
    for (size_t i = 0; i < lines.n && rc >= 0; i++) {
        struct strbuf out = STRBUF_INIT, body = STRBUF_INIT;
        cJSON *l;
        /* "Thanks, Ann": around the commands, not one of them. */
        if (order_line_is_greeting(lines.v[i], NULL) && !host_command_word(lines.v[i]))
            continue;
        l = cJSON_CreateObject();
        rc = host_command(db, g, who, lang, lines.v[i], &out);
        if (rc == 1)
            phrase_add(&body, lang, "reply.rejected", "reason", out.buf, NULL);
        else
            strbuf_addstr(&body, out.buf);
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
        host_status(db, g, who, lang, &status);
        cJSON_AddStringToObject(d, "status", status.buf);
        rc = notify_host(db, g, "host", "mail-host.txt", d, origin) ? -1 : 0;
    }
    cJSON_Delete(list);
    cJSON_Delete(d);
    strbuf_release(&status);
    free(lang);
    if (rc < 0)
        return -1;
    snprintf(why, sizeof(why), "game %lld: the host's commands", (long long)g->id);
    return finish(db, origin->row, r, INBOUND_PROCESSED, why);
}

/* The one short answer to a mail over a limit: which limit, and what to
 * do. The game is as it was. */
static int over_limit(sqlite3 *db, struct game_rec *g, int seat, const struct mail_origin *origin,
                      struct inbound_result *r, const char *limit, const char *what, const char *todo)
{
    char why[360];
    int64_t sent;
    long long max = setting_get_int(db, "refusals_per_hour", 4);
    /* Notes about limits are limited too: a machine that keeps sending
     * gets a few, then silence. */
    if (limit_mails_to(db, g->seats[seat].email, "limit", 3600, &sent))
        return -1;
    snprintf(why, sizeof(why), "over %s: %s%s", limit, what, sent < max ? "" : " (not told: a limit note went already)");
    r->seat = seat + 1;
    if (sent < max && notify_limit(db, g, seat, limit, what, todo, origin))
        return -1;
    return finish(db, origin->row, r, INBOUND_REFUSED, why);
}

/* A seat's mail whose every line was refused (no order taken, nothing
 * asked): answered when its text is new this step and the seat had fewer
 * than refusals_per_hour such answers in the last hour. A responder that
 * hides what it is sends the same text again and again: it gets one
 * answer a step. *ok says whether to answer; why says why not. */
static int may_answer_refusal(sqlite3 *db, struct game_rec *g, int seat, const struct submission *sub, int64_t row,
                              bool *ok, char *why, size_t n)
{
    struct strbuf text = STRBUF_INIT;
    long long max = setting_get_int(db, "refusals_per_hour", 4);
    char digest[65], since[32];
    int64_t same, lately;
    *ok = true;
    for (size_t i = 0; i < sub->n; i++) {
        /* Case and spacing do not make a text new. */
        bool space = false;
        for (const char *p = sub->lines[i].text; *p; p++) {
            if (*p == ' ' || *p == '\t') {
                space = text.len > 0;
                continue;
            }
            if (space)
                strbuf_addch(&text, ' ');
            space = false;
            strbuf_addch(&text, (char)tolower((unsigned char)*p));
        }
        strbuf_addch(&text, '\n');
    }
    sha256_hex(text.buf, text.len, digest);
    strbuf_release(&text);
    utc_format(clock_now() - 3600, since);
    if (db_do(db, "UPDATE messages SET refused_digest = ?, refused_step = ? WHERE id = ?", "siI", digest,
              sub->turn_before, row) ||
        db_get_int64(db, &same,
                     "SELECT count(*) FROM messages WHERE game_id = ? AND seat = ? AND refused_step = ? AND"
                     " refused_digest = ? AND id <> ?",
                     "IiisI", g->id, seat + 1, sub->turn_before, digest, row) < 0 ||
        db_get_int64(db, &lately,
                     "SELECT count(*) FROM messages m JOIN outbox o ON o.in_reply_to = m.id WHERE m.game_id = ? AND"
                     " m.seat = ? AND m.refused_digest IS NOT NULL AND o.created_at > ?",
                     "Iis", g->id, seat + 1, since) < 0)
        return -1;
    if (same) {
        *ok = false;
        snprintf(why, n, "the same text as an earlier mail this step, which was answered once: not answered again");
    } else if (lately >= max) {
        *ok = false;
        snprintf(why, n, "%lld refusals answered in the last hour (refusals_per_hour): not answered", (long long)lately);
    }
    return 0;
}

/* A seat's mail that gets no answer: journalled as processed, with why. */
static int unanswered(sqlite3 *db, struct game_rec *g, int seat, const struct mail_origin *origin,
                      struct inbound_result *r, const char *why)
{
    char reason[200];
    if (db_release(db, "orders"))
        return -1;
    r->seat = seat + 1;
    snprintf(reason, sizeof(reason), "game %lld, %s: %s: not answered", (long long)g->id, g->names[seat], why);
    return finish(db, origin->row, r, INBOUND_PROCESSED, reason);
}

/* Whether the game offered seat "Did you mean offered?" in this step:
 * the reason of her last refused order says so. */
static bool offered_here(sqlite3 *db, const struct game_rec *g, int seat, const char *offered)
{
    char *reason = NULL;
    bool yes = false;
    if (db_get_text(db, &reason,
                    "SELECT reason FROM orders WHERE game_id = ? AND seat = ? AND step = ? AND status = 'rejected'"
                    " ORDER BY id DESC LIMIT 1",
                    "Iii", g->id, seat + 1, g->turn + 1) > 0 && reason) {
        /* In the language she read it in: its "Did you mean" and X. */
        for (size_t l = 0; lang_at(l) && !yes; l++) {
            const char *opener = catalog_text(lang_at(l)->code, "near.opener", 0);
            struct strbuf want = STRBUF_INIT;
            strbuf_addf(&want, "%s %s", opener ? opener : "", offered);
            yes = opener && strstr(reason, want.buf) != NULL;
            strbuf_release(&want);
        }
    }
    free(reason);
    return yes;
}

/* A legal order of seat's written where orders are not read: below her
 * signature, or on a quoted line of its own (the options of our mail are
 * indented, so they are not hers). Owned, or NULL. */
static char *order_below(const struct game_rec *g, int seat, const char *text)
{
    const char *p = text;
    bool signed_off = false;
    int looked = 0;
    while (*p && looked < 200) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p), k = 0;
        bool quoted = *p == '>';
        if (order_line_is_signature(p, len))
            signed_off = true;
        else if ((signed_off || quoted) && len && len < ORDER_LINE_MAX) {
            struct strbuf line = STRBUF_INIT, canon = STRBUF_INIT, why = STRBUF_INIT;
            while (quoted && k < len && p[k] == '>')
                k++;
            if (quoted && k < len && p[k] == ' ')
                k++;
            strbuf_add(&line, p + k, len - k);
            strbuf_trim(&line);
            looked++;
            if (line.len && (k == len || p[k] != ' ') &&
                !g->ops->check(g->st, seat, &g->table, line.buf, &canon, &why)) {
                strbuf_release(&line);
                strbuf_release(&why);
                return strbuf_detach(&canon);
            }
            strbuf_release(&line);
            strbuf_release(&canon);
            strbuf_release(&why);
        }
        p += len + (nl != NULL);
    }
    return NULL;
}

/* Handles an authenticated seat's orders, within the mail limits. */
static int take_orders(sqlite3 *db, struct game_rec *g, int seat, struct inbound_mail *in,
                       const struct mail_origin *origin, struct inbound_result *r)
{
    struct submission sub = { 0 };
    long long max_lines = setting_get_int(db, "max_order_lines", 40);
    long long max_reply = setting_get_int(db, "max_reply_bytes", 262144);
    bool only_asks = true, ok;
    int64_t reply_len = 0;
    char what[200];
    int rc;
    size_t nlines;

    /* Read again against her game: a line of press that reads as an
     * order is hers to give, not to relay. */
    {
        struct order_sense os;
        struct press_sense ps;
        struct strlist lines = STRLIST_INIT;
        order_sense_init(&os, g, seat, &ps);
        press_text_release(&in->press);
        press_split(in->e.orders, in->e.channel != 0, &ps, &in->press);
        order_sense_release(&os);
        order_lines(in->press.orders, &lines);
        nlines = lines.n;
        if (lines.n == 1 && order_line_is_yes(lines.v[0])) {
            /* "yes" to our "Did you mean X?": she gives X. */
            char *offered = order_text_offered(in->e.orders);
            if (offered && !offered_here(db, g, seat, offered)) {
                /* Not ours (a quoted press message may say anything). */
                free(offered);
                offered = NULL;
            }
            if (offered) {
                strbuf_reset(&in->press.own);
                strbuf_addstr(&in->press.own, offered);
                in->press.orders = in->press.own.buf;
                free(offered);
            }
        }
        strlist_clear(&lines);
    }
    if (nlines > (size_t)max_lines) {
        snprintf(what, sizeof(what), "your mail held %zu lines of orders, and at most %lld are taken from one mail",
                 nlines, max_lines);
        return over_limit(db, g, seat, origin, r, "max_order_lines", what,
                          "Nothing in it was done: send the orders in several mails, or fewer at a time.");
    }
    if (db_savepoint(db, "orders"))
        return -1;
    rc = engine_submit(db, g, seat, in->press.orders, "mail", origin->row, &sub);
    if (!rc)
        rc = press_take(db, g, seat, &in->press, in->e.channel, in->m.attachments, origin->row, &sub);
    if (!rc)
        rc = press_history(db, g, seat, &sub);
    for (size_t i = 0; i < sub.n; i++)
        only_asks &= sub.lines[i].status == LINE_INFO;
    only_asks &= sub.n > 0;
    if (!rc && only_asks) {
        /* Asking costs the game nothing, but its answers are rationed. */
        rc = limit_may_mail(db, g->seats[seat].email, "help", "help_per_hour", &ok);
        if (!rc && !ok) {
            submission_release(&sub);
            db_rollback_to(db, "orders");
            snprintf(what, sizeof(what), "you asked for HELP, LEGAL, BOARD or HISTORY %lld times in the last hour",
                     setting_get_int(db, "help_per_hour", 12));
            return over_limit(db, g, seat, origin, r, "help_per_hour", what,
                              "Orders are answered as always; the next answer to a question comes within the hour.");
        }
    }
    {
        bool refused = sub.n > 0, greets = sub.n > 0;
        for (size_t i = 0; i < sub.n; i++) {
            refused &= sub.lines[i].status == LINE_REJECTED;
            greets &= sub.lines[i].status == LINE_GREETING;
        }
        bool quiet = false, all_quiet = sub.n > 0;
        for (size_t i = 0; i < sub.n; i++) {
            quiet |= sub.lines[i].quiet;
            all_quiet &= sub.lines[i].quiet || sub.lines[i].status == LINE_GREETING;
        }
        unsigned missing = 0;
        if (!rc && greets && !g->sched.paused && !str_eq(game_status_of(g->ops, g->st), "finished") &&
            game_missing(db, g, &missing))
            rc = -1;
        if (!rc && greets && ((missing >> seat) & 1)) {
            /* A greeting from a seat the game waits for: she may think she
             * played. Told so, with what she may have meant. */
            struct line_result *l = &sub.lines[sub.n - 1];
            char *below = order_below(g, seat, in->e.orders);
            strbuf_addstr(&l->body, " The game waits for your order: write it at the top of your reply (LEGAL"
                                    " lists them).");
            if (below)
                strbuf_addf(&l->body, " Your mail has %s where nothing is read as an order (quoted, or under your"
                                      " signature): write it at the top to give it.", below);
            free(below);
            greets = false;
        }
        if (!rc && ((quiet && all_quiet) || greets)) {
            /* "Thanks!": nothing to do, and nothing to answer; press sent
             * to all it named: the recipients' mails are its answer, as
             * any mail sent is its own. */
            submission_release(&sub);
            return unanswered(db, g, seat, origin, r, greets ? "only a greeting, no order" : "press sent, nothing else");
        }
        if (!rc && refused) {
            char why[200];
            if ((rc = may_answer_refusal(db, g, seat, &sub, origin->row, &ok, why, sizeof(why))) == 0 && !ok) {
                /* Journalled with its refused lines; no mail goes. */
                char reason[300];
                submission_release(&sub);
                if (db_release(db, "orders"))
                    return -1;
                r->seat = seat + 1;
                snprintf(reason, sizeof(reason), "game %lld, %s: every line refused; %s", (long long)g->id,
                         g->names[seat], why);
                return finish(db, origin->row, r, INBOUND_REFUSED, reason);
            }
        }
    }
    if (!rc)
        rc = notify_submission(db, g, seat, &sub, origin);
    if (!rc && db_get_int64(db, &reply_len, "SELECT coalesce(max(length(mail)), 0) FROM outbox WHERE in_reply_to = ?",
                            "I", origin->row) < 0)
        rc = -1;
    if (!rc && reply_len > max_reply) {
        /* Nothing of it stays: the game is as before the mail. */
        submission_release(&sub);
        db_rollback_to(db, "orders");
        game_unload(g);
        if (game_load(db, r->game, g))
            return -1;
        snprintf(what, sizeof(what), "the answer to your mail would be %lld bytes long, and at most %lld are sent",
                 (long long)reply_len, max_reply);
        return over_limit(db, g, seat, origin, r, "max_reply_bytes", what,
                          "Nothing in it was done: ask for less in one mail (one HELP or HISTORY is enough).");
    }
    if (rc) {
        submission_release(&sub);
        return -1;
    }
    if (db_release(db, "orders")) {
        submission_release(&sub);
        return -1;
    }
    {
        size_t accepted = 0, rejected = 0, planned = 0;
        for (size_t i = 0; i < sub.n; i++) {
            accepted += sub.lines[i].status == LINE_ACCEPTED || sub.lines[i].status == LINE_PENDING;
            rejected += sub.lines[i].status == LINE_REJECTED;
            planned += sub.lines[i].status == LINE_PLANNED;
        }
        r->seat = seat + 1;
        char why[192];
        int n = snprintf(why, sizeof(why), "game %lld, %s: %zu line(s), %zu taken, %zu refused", (long long)g->id,
                         g->names[seat], sub.n, accepted, rejected);
        /* How many plans, never what: the journal is the host's, not hers. */
        if (planned && n > 0 && (size_t)n < sizeof(why))
            snprintf(why + n, sizeof(why) - (size_t)n, ", %zu planned", planned);
        rc = finish(db, origin->row, r, INBOUND_PROCESSED, why);
    }
    submission_release(&sub);
    return rc;
}

static int take(sqlite3 *db, struct inbound_mail *in, struct inbound_result *r)
{
    const struct inmail *m = &in->m;
    const struct envelope *e = &in->e;
    struct game_rec g = { 0 };
    struct mail_origin origin = { 0 };
    int64_t existing, row;
    char why[200];
    int rc, seat, claimed;

    memset(r, 0, sizeof(*r));
    rc = db_get_int64(db, &existing, "SELECT id FROM messages WHERE dedupe_key = ?", "s", in->key);
    if (rc != 0) {
        if (rc > 0) {
            r->status = INBOUND_DUPLICATE;
            snprintf(r->summary, sizeof(r->summary), "duplicate of message %lld: nothing done", (long long)existing);
            return 0;
        }
        return -1;
    }
    if (in->automatic)
        return ignore(db, in, r, in->automatic);
    if (!e->secret && !e->seat && (!e->game || (e->by_subject && !e->address && lobby_command_word(e->orders)))) {
        /* The bare address, or a watcher's answer: the lobby's. */
        char *mode = setting_get(db, "lobby");
        bool on = mode && !str_eq(mode, "off"), answered;
        free(mode);
        if (on) {
            char lobby_why[300];
            if (journal(db, in, "processed", false, &row))
                return -1;
            origin.message_id = m->message_id;
            origin.references = m->references ? m->references : "";
            origin.sender = m->from;
            origin.row = row;
            if (lobby_mail(db, in, &origin, &answered, lobby_why, sizeof(lobby_why)))
                return -1;
            return finish(db, row, r, answered ? INBOUND_PROCESSED : INBOUND_IGNORED, lobby_why);
        }
    }
    if (!e->game)
        return ignore(db, in, r, "it names no game (no [ngoma N] tag, plus address or GAME line)");
    rc = db_get_int64(db, &existing, "SELECT id FROM games WHERE id = ?", "I", e->game);
    if (rc <= 0) {
        snprintf(why, sizeof(why), "there is no game %lld", (long long)e->game);
        return rc < 0 ? -1 : ignore(db, in, r, why);
    }
    if (game_load(db, e->game, &g))
        return -1;
    r->game = g.id;
    seat = seat_by_secret(&g, e->secret);
    if (!in->oversize && seat < 0 && e->secret && g.sched.host_secret && secret_eq(g.sched.host_secret, e->secret))
        seat = -2; /* the host */
    if (seat == -1 && seat_claimed(&g, e, m) < 0) {
        snprintf(why, sizeof(why), "it %s and claims no seat of game %lld",
                 e->secret ? "carried a wrong secret" : "carried no secret", (long long)g.id);
        rc = ignore(db, in, r, why);
        goto out;
    }
    /* Kept whole (within the size limit) only when it proved to be a
     * seat's or the host's: a mail in a seat's name with a wrong secret is
     * kept by its headers, as junk is. */
    if (journal(db, in, "processed", seat != -1, &row))
        goto fail;
    origin.message_id = m->message_id;
    origin.references = m->references ? m->references : "";
    origin.sender = m->from;
    origin.row = row;
    if (seat == -2) {
        rc = host_mail(db, &g, in, &origin, r);
        goto out;
    }
    claimed = seat >= 0 ? seat : seat_claimed(&g, e, m);
    if (!in->oversize && ((seat >= 0 && g.seats[seat].bot && !str_eq(g.seats[seat].email, "bot")) ||
                          (seat < 0 && left_seat(db, &g, claimed, m->from)))) {
        /* She left it (kicked, dropped, replaced, taken over): told so,
         * at her own address, never at the seat's new holder's. */
        rc = refuse_leaver(db, &g, claimed, seat >= 0 ? g.seats[seat].email : m->from, in, &origin, r);
        goto out;
    }
    if (in->oversize || seat < 0) {
        if (in->oversize)
            snprintf(why, sizeof(why),
                     "it was %zu bytes long, over the limit of %lld (max_message_size): send your orders as plain "
                     "text, without attachments",
                     in->raw->total, in->size_limit);
        else
            snprintf(why, sizeof(why), "it %s: answer a mail of the game, or write the line SECRET and your secret",
                     e->secret ? "carried a wrong secret" : "carried no secret");
        rc = refuse(db, &g, claimed, in, &origin, r, why);
        goto out;
    }
    if (e->player && game_seat_find(&g, e->player) != seat) {
        snprintf(why, sizeof(why), "it carried %s's secret but named the player \"%.40s\"", g.names[seat], e->player);
        rc = refuse(db, &g, seat, in, &origin, r, why);
        goto out;
    }
    rc = take_orders(db, &g, seat, in, &origin, r);
    goto out;
fail:
    rc = -1;
out:
    game_unload(&g);
    return rc;
}

int inbound_take(sqlite3 *db, struct inbound_mail *in, struct inbound_result *r)
{
    char now[32];
    if (take(db, in, r))
        return -1;
    /* A mail that failed before is taken now: once, as the journal says. */
    utc_now(now);
    return db_do(db, "UPDATE mail_failures SET taken_at = ? WHERE dedupe_key = ? AND taken_at IS NULL", "ss", now,
                 in->key);
}

int inbound_note_failure(sqlite3 *db, const struct inbound_mail *in, const char *why, bool *given_up)
{
    char now[32], since[32];
    int64_t old = 0;
    utc_now(now);
    utc_format(clock_now() - INBOUND_GIVE_UP_SECS, since);
    *given_up = false;
    if (db_do(db,
              "INSERT INTO mail_failures(dedupe_key, message_id, source, from_addr, subject, game_id, first_at, last_at,"
              " reason) VALUES (?, ?, ?, ?, ?, nullif(?, 0), ?, ?, ?) ON CONFLICT(dedupe_key) DO UPDATE SET"
              " last_at = excluded.last_at, tries = tries + 1, reason = excluded.reason, taken_at = NULL",
              "sssssIsss", in->key, in->message_id, in->source, in->m.from, in->m.subject ? in->m.subject : "",
              in->e.game, now, now, why) ||
        db_get_int64(db, &old, "SELECT count(*) FROM mail_failures WHERE dedupe_key = ? AND first_at < ?", "ss",
                     in->key, since) < 0)
        return -1;
    if (!old)
        return 0;
    /* Offered for days and never taken: kept in the journal as failed, and
     * no longer offered. */
    *given_up = true;
    return db_do(db, "UPDATE mail_failures SET given_up_at = ? WHERE dedupe_key = ?", "ss", now, in->key) ||
                   inbound_journal_failed(db, in, why)
               ? -1
               : 0;
}

int inbound_process(sqlite3 *db, const struct rawmsg *raw, const char *source, struct inbound_result *r)
{
    struct inbound_mail in;
    int rc = inbound_prepare(db, raw, source, NULL, &in);
    if (!rc)
        rc = inbound_take(db, &in, r);
    inbound_mail_release(&in);
    return rc;
}

int inbound_journal_failed(sqlite3 *db, const struct inbound_mail *in, const char *why)
{
    char now[32];
    utc_now(now);
    return db_do(db,
                 "INSERT OR IGNORE INTO messages(message_id, dedupe_key, rcpt, received_at, source, from_addr, subject,"
                 " size, digest, headers, status, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'failed', ?)",
                 "sssssssIsss", in->message_id, in->key, in->e.address, now, in->source, in->m.from,
                 in->m.subject ? in->m.subject : "", (int64_t)in->raw->total, in->raw->digest,
                 in->m.headers ? in->m.headers : "", why);
}
