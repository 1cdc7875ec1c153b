/* lobby_invite.c: what the lobby mails to third parties: invitations within one budget, and watchers of a game. */
#include "judge/lobby_int.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "store/languages.h"

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
        /* In the invitee's language, her JOIN in her words. */
        char *module = NULL, *lang = language_of(l->db, to), *join = lexicon_local(lang, "lobby", NULL, "JOIN");
        struct strbuf intro = STRBUF_INIT, summary = STRBUF_INIT;
        char game[24];
        cJSON_AddStringToObject(d, "join_word", join);
        snprintf(game, sizeof(game), "%lld", (long long)id);
        if (db_get_text(l->db, &module, "SELECT module FROM lobby_tables WHERE id = ?", "I", id) > 0) {
            const struct game_ops *ops = game_find(module);
            char key[64];
            cJSON_AddStringToObject(d, "title", ops ? ops->title : module);
            snprintf(key, sizeof(key), "summary.%s", module);
            /* The game's summary in her language where the catalogue has
             * it, else the game's own (English). */
            if (ops && catalog_has(lang_code(lang), key))
                phrase_add(&summary, lang, key, NULL);
            else
                strbuf_addstr(&summary, ops ? ops->summary : "");
            phrase_add(&intro, lang, "lobby.invite-intro", "inviter", inviter_name, "address", l->from, "title",
                       ops ? ops->title : module, "game", game, "summary", summary.buf, NULL);
            lobby_add_prose(d, "intro", intro.buf);
        }
        strbuf_release(&intro);
        strbuf_release(&summary);
        free(module);
        free(lang);
        free(join);
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
    char n[24], english[40], *join;
    snprintf(n, sizeof(n), "%lld", setting_get_int(l->db, "invites_per_hour", 5));
    snprintf(english, sizeof(english), "JOIN %lld", (long long)id);
    join = lexicon_local(l->lang, "lobby", NULL, english);
    lobby_say(l, line, how == INVITE_BUDGET ? "lobby.invite-budget" : "lobby.invite-lately", "to", to, "n", n, "join",
              join, NULL);
    free(join);
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
    char game[24];
    if ((rc = table_open_named(l, line, a, true, "lobby.invite-usage", NULL, &t)) <= 0)
        return rc;
    id = t.id;
    if ((rc = db_get_text(l->db, &me, "SELECT name FROM lobby_players WHERE table_id = ? AND email = ?", "Is", id,
                          l->from)) < 0)
        return -1;
    snprintf(game, sizeof(game), "%lld", (long long)id);
    if (!rc) {
        lobby_say(l, line, "lobby.invite-players-only", "game", game, NULL);
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
        lobby_say(l, line, "lobby.invited", "to", to, "game", game, NULL);
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
    char now[32], game[24], count[24];
    if (!table_number(a, 1, &id)) {
        char *word = lexicon_local(l->lang, "lobby", NULL, on ? "WATCH" : "UNWATCH");
        lobby_say(l, line, "lobby.watch-usage", "word", word, NULL);
        free(word);
        return 0;
    }
    snprintf(game, sizeof(game), "%lld", (long long)id);
    if (!on) {
        if (db_do(l->db, "DELETE FROM watchers WHERE game_id = ? AND email = ?", "Is", id, l->from))
            return -1;
        lobby_say(l, line, sqlite3_changes(l->db) ? "lobby.unwatched" : "lobby.not-watched", "game", game, NULL);
        return 0;
    }
    if (db_get_int64(l->db, &exists,
                     "SELECT (SELECT count(*) FROM games WHERE id = ?1) + (SELECT count(*) FROM lobby_tables WHERE"
                     " id = ?1 AND status = 'open')", "I", id) < 0 ||
        db_get_int64(l->db, &n, "SELECT count(*) FROM watchers WHERE game_id = ?", "I", id) < 0 ||
        db_get_int64(l->db, &step, "SELECT coalesce((SELECT turn FROM games WHERE id = ?), 0)", "I", id) < 0)
        return -1;
    if (!exists) {
        lobby_say(l, line, "lobby.no-game-to-watch", "game", game, NULL);
        return 0;
    }
    if (n >= WATCHERS_EACH) {
        snprintf(count, sizeof(count), "%d", WATCHERS_EACH);
        lobby_say(l, line, "lobby.watchers-full", "game", game, "n", count, NULL);
        return 0;
    }
    if (db_get_int64(l->db, &n, "SELECT count(*) FROM watchers WHERE email = ? AND game_id <> ?", "sI", l->from, id) <
        0)
        return -1;
    if (n >= WATCHING_EACH) {
        snprintf(count, sizeof(count), "%d", WATCHING_EACH);
        lobby_say(l, line, "lobby.watching-full", "n", count, NULL);
        return 0;
    }
    utc_now(now);
    if (db_do(l->db, "INSERT OR IGNORE INTO watchers(game_id, email, told_step, told_when, since) VALUES (?, ?, ?, 0, ?)",
              "IsIs", id, l->from, step, now))
        return -1;
    {
        char english[40], *unwatch;
        snprintf(english, sizeof(english), "UNWATCH %lld", (long long)id);
        unwatch = lexicon_local(l->lang, "lobby", NULL, english);
        lobby_say(l, line, "lobby.watching", "game", game, "unwatch", unwatch, NULL);
        free(unwatch);
    }
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
