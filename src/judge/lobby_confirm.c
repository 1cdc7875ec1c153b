/* lobby_confirm.c: the lobby's confirmation round trip: who a mail is from, the token that proves it, the commands that wait for it. */
#include "judge/lobby_int.h"

/* CONFIRM TOKEN: said about the address; the token itself was read
 * before any command ran. */
int lobby_confirm(struct lobby *l, const char *line, const struct args *a)
{
    (void)a;
    lobby_say(l, line, l->confirmed ? "lobby.confirmed" : "lobby.wrong-token", NULL);
    return 0;
}

/* DROP, in a reply to a confirmation: the commands that waited on its
 * token were dropped (before any command ran), not done. */
int lobby_drop(struct lobby *l, const char *line, const struct args *a)
{
    (void)a;
    lobby_say(l, line, l->set_id ? "lobby.dropped" : "lobby.nothing-dropped", NULL);
    return 0;
}

/* A token carried by the mail: "confirm TOKEN" or "join TOKEN" in its
 * subject, or a line CONFIRM TOKEN. */
static bool carries(const struct inbound_mail *in, const char *token)
{
    const char *s = in->m.subject ? in->m.subject : "";
    struct strlist lines = STRLIST_INIT;
    bool yes = strstr(s, token) != NULL;
    order_lines(in->e.orders, &lines);
    for (size_t i = 0; i < lines.n && !yes; i++)
        /* CONFIRM TOKEN in any language (CONFIRMER, THIBITISHA): the
         * token is the proof. */
        yes = strstr(lines.v[i], token) != NULL;
    strlist_clear(&lines);
    return yes;
}

/* Whether the sender's address is confirmed now (a token this mail
 * carries counts: the address's, an invitation's, or a waiting set's),
 * and which waiting set of commands, if any, this mail answers: that one
 * alone runs (l->set_id, l->set_commands). */
int lobby_identity(struct lobby *l)
{
    sqlite3_stmt *q;
    char *token = NULL, now[32];
    bool confirmed = false;
    int rc;
    q = db_stmt(l->db, "SELECT token, confirmed_at IS NOT NULL FROM lobby_addresses WHERE address = ?", "s", l->from);
    if (!q)
        return -1;
    rc = db_step(q);
    if (rc == SQLITE_ROW) {
        token = db_col_text(q, 0);
        confirmed = sqlite3_column_int(q, 1) != 0;
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    l->confirmed = confirmed;
    if (!confirmed && token && carries(l->in, token))
        confirmed = true;
    /* A waiting set is bound to its own token: only the mail that carries
     * it runs it, and nothing else runs in its name. */
    q = db_stmt(l->db, "SELECT id, token, commands FROM lobby_pending WHERE address = ? ORDER BY id", "s", l->from);
    if (!q) {
        free(token);
        return -1;
    }
    while (!l->set_id && (rc = db_step(q)) == SQLITE_ROW)
        if (carries(l->in, (const char *)sqlite3_column_text(q, 1))) {
            l->set_id = sqlite3_column_int64(q, 0);
            l->set_commands = db_col_text(q, 2);
            confirmed = true;
        }
    db_finalize(q);
    {
        /* An invitation's token proves the invitee reads her mail too, and
         * says which game she answers. */
        q = db_stmt(l->db,
                    "SELECT i.token, i.table_id, t.status = 'open' FROM lobby_invites i JOIN lobby_tables t ON t.id ="
                    " i.table_id WHERE i.email = ?",
                    "s", l->from);
        if (!q) {
            free(token);
            return -1;
        }
        while (!l->invited_to && db_step(q) == SQLITE_ROW)
            if (carries(l->in, (const char *)sqlite3_column_text(q, 0))) {
                confirmed = true;
                if (sqlite3_column_int(q, 2))
                    l->invited_to = sqlite3_column_int64(q, 1);
            }
        db_finalize(q);
    }
    l->just_confirmed = confirmed && !l->confirmed;
    utc_now(now);
    if (l->just_confirmed) {
        char *fresh = token ? NULL : secret_new(TOKEN_LEN);
        rc = db_do(l->db,
                   "INSERT INTO lobby_addresses(address, token, token_sent_at, confirmed_at) VALUES (?, ?, ?, ?)"
                   " ON CONFLICT(address) DO UPDATE SET confirmed_at = coalesce(confirmed_at, excluded.confirmed_at)",
                   "ssss", l->from, token ? token : fresh, now, now);
        free(fresh);
        if (rc) {
            free(token);
            return -1;
        }
    }
    if (l->set_id && db_do(l->db, "DELETE FROM lobby_pending WHERE id = ?", "I", l->set_id)) {
        free(token);
        return -1;
    }
    l->confirmed = confirmed;
    free(token);
    return 0;
}

/* An unconfirmed address: the commands of this mail that wait (if any)
 * become a set of their own, under a token of its own, and one mail a
 * month at most carries a token (the set's, else the address's). */
int lobby_ask_confirmation(struct lobby *l, char **token, bool *may_mail, bool *kept)
{
    int64_t lately, sets;
    char now[32], *fresh = secret_new(TOKEN_LEN);
    int rc;
    utc_now(now);
    *kept = false;
    if (limit_mails_to(l->db, l->from, "lobby", QUIET, &lately) ||
        db_get_int64(l->db, &sets, "SELECT count(*) FROM lobby_pending WHERE address = ?", "s", l->from) < 0) {
        free(fresh);
        return -1;
    }
    *may_mail = lately == 0;
    rc = db_do(l->db,
               "INSERT INTO lobby_addresses(address, token, token_sent_at) VALUES (?, ?, ?)"
               " ON CONFLICT(address) DO UPDATE SET token = CASE WHEN ? THEN excluded.token ELSE token END,"
               " token_sent_at = CASE WHEN ? THEN excluded.token_sent_at ELSE token_sent_at END",
               "sssii", l->from, fresh, now, *may_mail ? 1 : 0, *may_mail ? 1 : 0);
    free(fresh);
    if (rc)
        return -1;
    if (l->waiting.len && sets < PENDING_EACH) {
        char *set_token = secret_new(TOKEN_LEN);
        rc = db_do(l->db,
                   "INSERT INTO lobby_pending(address, token, commands, message_id, asked_at, mailed) VALUES (?, ?, ?,"
                   " ?, ?, ?)",
                   "sssssi", l->from, set_token, l->waiting.buf, l->in->message_id ? l->in->message_id : "", now,
                   *may_mail ? 1 : 0);
        if (rc) {
            free(set_token);
            return -1;
        }
        *kept = true;
        *token = set_token;
        return 0;
    }
    return db_get_text(l->db, token, "SELECT token FROM lobby_addresses WHERE address = ?", "s", l->from) < 0 ? -1 : 0;
}

/* Once an address is confirmed: the sets other mails from it left
 * waiting, each with the token that runs it (they never run unasked). */
int lobby_other_waiting(struct lobby *l)
{
    sqlite3_stmt *q = db_stmt(l->db, "SELECT token, commands, asked_at FROM lobby_pending WHERE address = ? ORDER BY id",
                              "s", l->from);
    int rc;
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        struct strbuf what = STRBUF_INIT;
        const char *c = (const char *)sqlite3_column_text(q, 1);
        for (const char *p = c; *p; p++) {
            if (*p != '\n')
                strbuf_addch(&what, *p);
            else if (p[1])
                strbuf_addstr(&what, "; ");
        }
        char when[24];
        snprintf(when, sizeof(when), "%.16s", (const char *)sqlite3_column_text(q, 2));
        phrase_add(&l->notes, l->lang, "lobby.other-waiting", "when", when, "what", what.buf, "token",
                   (const char *)sqlite3_column_text(q, 0), NULL);
        strbuf_addch(&l->notes, '\n');
        strbuf_release(&what);
    }
    db_finalize(q);
    return rc < 0 ? -1 : 0;
}
