/* consent.c: what a lobby game's opener asks of its players (a pause, more time for the step): asked once, agreed by each other person by AGREE at the lobby, done when all have. */
#include "judge/consent.h"
#include "judge/notice.h"
#include "judge/notify.h"
#include "mail/mailout.h"
#include "store/db.h"
#include "lib/template.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The seats of g a person other than by holds (each address once). */
static unsigned others_of(const struct game_rec *g, const char *by)
{
    unsigned m = 0;
    for (int s = 0; s < g->nseats; s++) {
        bool seen = false;
        if (g->seats[s].bot || str_ieq(g->seats[s].email, by))
            continue;
        for (int t = 0; t < s; t++)
            seen |= ((m >> t) & 1u) && str_ieq(g->seats[t].email, g->seats[s].email);
        if (!seen)
            m |= 1u << s;
    }
    return m;
}

int consent_ask(sqlite3 *db, struct game_rec *g, const char *by, const char *what, long secs, const char *lang,
                struct strbuf *out)
{
    unsigned others = others_of(g, by);
    struct notice n;
    char now[32], *lobby, d[32];
    int rc = -1, me = -1;
    if (!others)
        return 2;
    utc_now(now);
    if (db_do(db, "DELETE FROM consent_given WHERE game_id = ?", "I", g->id) ||
        db_do(db,
              "INSERT OR REPLACE INTO consent_asks (game_id, what, secs, turn, asked_by, asked_at) VALUES (?, ?, ?,"
              " ?, ?, ?)",
              "IsIiss", g->id, what, (int64_t)secs, g->turn, by, now))
        return -1;
    lobby = mail_reply_address(db, 0, 0, NULL);
    /* No name: in an anonymous game the opener's is hidden too. */
    duration_format(secs, d);
    notice_init(&n, "notice.asks.head");
    notice_say(&n, str_eq(what, "pause") ? "notice.asks-pause" : "notice.asks-time");
    notice_set(&n, "time", d);
    notice_set_int(&n, "game", g->id);
    notice_set(&n, "lobby", lobby ? lobby : "");
    for (int s = 0; s < g->nseats; s++)
        if (str_ieq(g->seats[s].email, by))
            me = s;
    rc = notify_notice_all(db, g, me, &n) ? -1 : 0;
    notice_release(&n);
    if (!rc) {
        char game[24];
        snprintf(game, sizeof(game), "%lld", (long long)g->id);
        phrase_add(out, lang, str_eq(what, "pause") ? "host.asked-pause" : "host.asked-time", "time", d, "game", game,
                   NULL);
        rc = 0;
    }
    free(lobby);
    return rc;
}

int consent_agree(sqlite3 *db, struct game_rec *g, const char *address, const char *lang, const char **what,
                  long *secs, struct strbuf *out)
{
    char game[24];
    sqlite3_stmt *q;
    char *by = NULL, *kind = NULL, now[32];
    int turn = -1, rc = 1;
    int64_t s64 = 0, agreed = 0;
    unsigned others;
    q = db_stmt(db, "SELECT what, secs, turn, asked_by FROM consent_asks WHERE game_id = ?", "I", g->id);
    if (!q)
        return -1;
    if ((rc = db_step(q)) == SQLITE_ROW) {
        kind = db_col_text(q, 0);
        s64 = sqlite3_column_int64(q, 1);
        turn = sqlite3_column_int(q, 2);
        by = db_col_text(q, 3);
    }
    db_finalize(q);
    if (rc < 0)
        return -1;
    rc = 1;
    snprintf(game, sizeof(game), "%lld", (long long)g->id);
    if (!kind || turn != g->turn || str_eq(g->status, "finished")) {
        phrase_add(out, lang, "agree.nothing-asked", "game", game, NULL);
        goto out;
    }
    others = others_of(g, by);
    if (str_ieq(address, by)) {
        phrase_add(out, lang, "agree.own-ask", "game", game, NULL);
        goto out;
    }
    {
        bool sits = false;
        for (int s = 0; s < g->nseats; s++)
            sits |= !g->seats[s].bot && str_ieq(g->seats[s].email, address);
        if (!sits) {
            phrase_add(out, lang, "agree.players-only", "game", game, NULL);
            goto out;
        }
    }
    utc_now(now);
    if (db_do(db, "INSERT OR IGNORE INTO consent_given (game_id, address, at) VALUES (?, ?, ?)", "Iss", g->id,
              address, now))
        goto fail;
    /* Every other person's address, agreed? */
    for (int s = 0; s < g->nseats; s++) {
        int64_t one = 0;
        if (!((others >> s) & 1u))
            continue;
        if (db_get_int64(db, &one, "SELECT count(*) FROM consent_given WHERE game_id = ? AND address = ?", "Is",
                         g->id, g->seats[s].email) < 0)
            goto fail;
        agreed += one > 0;
    }
    if (agreed < __builtin_popcount(others)) {
        char n[16];
        snprintf(n, sizeof(n), "%d", __builtin_popcount(others) - (int)agreed);
        phrase_add(out, lang, "agree.waiting", "game", game, "n", n, NULL);
        rc = 0;
        goto out;
    }
    *what = str_eq(kind, "pause") ? "pause" : "extend";
    *secs = (long)s64;
    if (db_do(db, "DELETE FROM consent_asks WHERE game_id = ?", "I", g->id) ||
        db_do(db, "DELETE FROM consent_given WHERE game_id = ?", "I", g->id))
        goto fail;
    rc = 2;
    goto out;
fail:
    rc = -1;
out:
    free(kind);
    free(by);
    return rc;
}

int consent_lapse(sqlite3 *db, const struct game_rec *g, struct notice *told)
{
    char *what = NULL;
    int64_t secs = 0;
    int found = db_get_text(db, &what, "SELECT what FROM consent_asks WHERE game_id = ? AND turn = ?", "Ii", g->id,
                            g->turn);
    int rc = found < 0 ? -1 : 0;
    if (found > 0) {
        if (db_get_int64(db, &secs, "SELECT secs FROM consent_asks WHERE game_id = ?", "I", g->id) < 0 ||
            db_do(db, "DELETE FROM consent_asks WHERE game_id = ?", "I", g->id) ||
            db_do(db, "DELETE FROM consent_given WHERE game_id = ?", "I", g->id)) {
            rc = -1;
        } else {
            char d[32];
            duration_format((long)secs, d);
            notice_say(told, str_eq(what, "pause") ? "notice.ask-lapses-pause" : "notice.ask-lapses-time");
            notice_set(told, "time", d);
        }
    }
    free(what);
    return rc;
}
