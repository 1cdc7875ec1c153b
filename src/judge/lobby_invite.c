/* lobby_invite.c: what the lobby mails to third parties: invitations within one budget, and watchers of a game. */
#include "judge/lobby_int.h"

/* Mails to third parties (invitations, notices to players at a table) the
 * sender's mails caused in the last hour: one budget, invites_per_hour,
 * whichever command asks. *left says how many more may go. */
static int third_party_budget(struct lobby *l, int64_t *left)
{
    long long per_hour = setting_get_int(l->db, "invites_per_hour", 5);
    int64_t invites, notices;
    if (limit_answers_caused(l->db, l->from, "invite", 3600, &invites) ||
        limit_answers_caused(l->db, l->from, "lobby-notice", 3600, &notices))
        return -1;
    *left = per_hour - invites - notices;
    return 0;
}

/* Mails one invitation, within the limits every path shares: the sender's
 * one budget for third parties (invites_per_hour), one invitation from her
 * to an invitee a day (whatever the table), one an invitee and game, and
 * for an address that never confirmed one unsolicited mail a month,
 * whoever asks. */
int invite_one(struct lobby *l, int64_t id, const char *to, const char *name, const char *inviter_name,
                  enum invited *how)
{
    int64_t before, lately = 0, confirmed, left, from_her;
    char now[32], since[32], *token;
    cJSON *d;
    int rc;
    *how = INVITE_LATELY;
    utc_format(clock_now() - INVITE_AGAIN, since);
    if (third_party_budget(l, &left) ||
        db_get_int64(l->db, &before, "SELECT count(*) FROM lobby_invites WHERE table_id = ? AND email = ?", "Is", id,
                     to) < 0 ||
        db_get_int64(l->db, &from_her,
                     "SELECT count(*) FROM lobby_invites WHERE email = ? AND inviter = ? COLLATE NOCASE AND sent_at > ?",
                     "sss", to, l->from, since) < 0 ||
        db_get_int64(l->db, &confirmed, "SELECT count(*) FROM lobby_addresses WHERE address = ? AND confirmed_at IS"
                                        " NOT NULL", "s", to) < 0 ||
        (!confirmed && limit_unsolicited(l->db, to, QUIET, &lately)))
        return -1;
    if (left <= 0) {
        *how = INVITE_BUDGET;
        return 0;
    }
    if (before || from_her || lately)
        return 0;
    token = secret_new(TOKEN_LEN);
    utc_now(now);
    d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "game", (double)id);
    cJSON_AddStringToObject(d, "inviter", inviter_name);
    cJSON_AddStringToObject(d, "token", token);
    if (name)
        cJSON_AddStringToObject(d, "name", name);
    {
        char *module = NULL;
        struct strbuf intro = STRBUF_INIT;
        if (db_get_text(l->db, &module, "SELECT module FROM lobby_tables WHERE id = ?", "I", id) > 0) {
            const struct game_ops *ops = game_find(module);
            cJSON_AddStringToObject(d, "title", ops ? ops->title : module);
            strbuf_addf(&intro, "%s (%s) invites you to %s game %lld. %s", inviter_name, l->from,
                        ops ? ops->title : module, (long long)id, ops ? ops->summary : "");
            lobby_add_prose(d, "intro", intro.buf);
        }
        strbuf_release(&intro);
        free(module);
    }
    rc = db_do(l->db, "INSERT INTO lobby_invites(table_id, email, inviter, token, name, sent_at) VALUES (?, ?, ?, ?, ?,"
                      " ?)", "Isssss", id, to, l->from, token, name, now) ||
         lobby_send(l->db, to, "invite", "lobby-invite.txt", d, l->origin, false);
    if (rc == 0)
        *how = INVITE_SENT;
    cJSON_Delete(d);
    free(token);
    return rc ? -1 : 0;
}

/* The answer for an invitation that did not go. */
static void not_invited(struct lobby *l, const char *line, const char *to, int64_t id, enum invited how)
{
    if (how == INVITE_BUDGET)
        lobby_answer(l, line, "%s is not invited: your mails caused %lld mails to others in the last hour, the most this"
                        " ngoma sends for one address; try again later, or tell %s to JOIN %lld",
               to, setting_get_int(l->db, "invites_per_hour", 5), to, (long long)id);
    else
        lobby_answer(l, line, "%s was invited lately already: no second mail goes (JOIN %lld works for %s all the same)", to,
               (long long)id, to);
}

/* INVITE 12 friend@example.org */
int lobby_invite(struct lobby *l, const char *line, const struct args *a)
{
    char *me = NULL, *to = NULL;
    struct table t;
    int rc;
    int64_t id;
    struct strbuf err = STRBUF_INIT;
    enum invited how;
    if ((rc = table_open_named(l, line, a, true, "INVITE takes a game's number and one address: INVITE 12"
                                                 " friend@example.org", "", &t)) <= 0)
        return rc;
    id = t.id;
    if ((rc = db_get_text(l->db, &me, "SELECT name FROM lobby_players WHERE table_id = ? AND email = ?", "Is", id,
                          l->from)) < 0)
        return -1;
    if (!rc) {
        lobby_answer(l, line, "only the players at game %lld invite to it", (long long)id);
        return 0;
    }
    if (address_check(a->w[2], "the invitation", &err)) {
        lobby_answer(l, line, "%s", err.buf);
        goto out;
    }
    /* One address however it is written: Carol@ and carol@ share the limits. */
    to = str_lower(xstrdup(a->w[2]));
    if (invite_one(l, id, to, NULL, me, &how))
        goto fail;
    if (how == INVITE_SENT)
        lobby_answer(l, line, "%s is invited to game %lld: one mail, saying you asked.", to, (long long)id);
    else
        not_invited(l, line, to, id, how);
out:
    free(me);
    free(to);
    strbuf_release(&err);
    return 0;
fail:
    free(me);
    free(to);
    strbuf_release(&err);
    return -1;
}

/* WATCH 12 / UNWATCH 12 */
int watch_set(struct lobby *l, const char *line, const struct args *a, bool on)
{
    int64_t id, n, exists, step = 0;
    char now[32];
    if (!table_number(a, 1, &id)) {
        lobby_answer(l, line, "%s takes a game's number: %s 12", on ? "WATCH" : "UNWATCH", on ? "WATCH" : "UNWATCH");
        return 0;
    }
    if (!on) {
        if (db_do(l->db, "DELETE FROM watchers WHERE game_id = ? AND email = ?", "Is", id, l->from))
            return -1;
        lobby_answer(l, line, sqlite3_changes(l->db) ? "You no longer watch game %lld." : "You did not watch game %lld.",
               (long long)id);
        return 0;
    }
    if (db_get_int64(l->db, &exists,
                     "SELECT (SELECT count(*) FROM games WHERE id = ?1) + (SELECT count(*) FROM lobby_tables WHERE"
                     " id = ?1 AND status = 'open')", "I", id) < 0 ||
        db_get_int64(l->db, &n, "SELECT count(*) FROM watchers WHERE game_id = ?", "I", id) < 0 ||
        db_get_int64(l->db, &step, "SELECT coalesce((SELECT turn FROM games WHERE id = ?), 0)", "I", id) < 0)
        return -1;
    if (!exists) {
        lobby_answer(l, line, "there is no game %lld to watch_set (LIST shows the open ones)", (long long)id);
        return 0;
    }
    if (n >= WATCHERS_EACH) {
        lobby_answer(l, line, "game %lld has %d watchers, the most a game has", (long long)id, WATCHERS_EACH);
        return 0;
    }
    if (db_get_int64(l->db, &n, "SELECT count(*) FROM watchers WHERE email = ? AND game_id <> ?", "sI", l->from, id) <
        0)
        return -1;
    if (n >= WATCHING_EACH) {
        lobby_answer(l, line, "you watch %d games already, the most one address watches: UNWATCH one first",
               WATCHING_EACH);
        return 0;
    }
    utc_now(now);
    if (db_do(l->db, "INSERT OR IGNORE INTO watchers(game_id, email, told_step, told_when, since) VALUES (?, ?, ?, 0, ?)",
              "IsIs", id, l->from, step, now))
        return -1;
    lobby_answer(l, line,
           "You watch game %lld: a mail each round (turn, move) with what happened, as an observer sees it (no"
           " player's secrets), and one at the end. UNWATCH %lld stops them.",
           (long long)id, (long long)id);
    return 0;
}

int lobby_watch(struct lobby *l, const char *line, const struct args *a)
{
    return watch_set(l, line, a, true);
}

int lobby_unwatch(struct lobby *l, const char *line, const struct args *a)
{
    return watch_set(l, line, a, false);
}
