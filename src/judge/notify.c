/* notify.c: which mail each seat gets when something happens in a game, rendered from templates/ into the outbox. */
#include "judge/notify.h"
#include "judge/notice.h"
#include "judge/press.h"
#include "judge/standing.h"
#include "core/agree.h"
#include "lib/order_text.h"
#include "lib/catalog.h"
#include "lib/dates.h"
#include "lib/lexicon.h"
#include "store/db.h"
#include "store/languages.h"
#include "core/history.h"
#include "core/options.h"
#include "core/plan.h"
#include "mail/mailout.h"
#include "core/reply.h"
#include "lib/template.h"
#include "lib/util.h"
#include "core/view.h"
#include "core/visibility.h"
#include "render/render.h"
#include "store/settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* IF lines an answer offers to tap at the most. */
#define PLAN_TAPS 3

cJSON *notify_seat_data(sqlite3 *db, struct game_rec *g, int seat)
{
    cJSON *d = cJSON_CreateObject();
    struct strbuf sb = STRBUF_INIT;
    char *reply = mail_reply_address(db, g->id, seat + 1, g->seats[seat].secret);
    unsigned missing = 0;

    cJSON_AddNumberToObject(d, "game", (double)g->id);
    cJSON_AddStringToObject(d, "title", g->ops->title);
    cJSON_AddStringToObject(d, "module", g->ops->name);
    cJSON_AddStringToObject(d, "player", g->names[seat]);
    cJSON_AddNumberToObject(d, "seat", seat + 1);
    cJSON_AddStringToObject(d, "secret", g->seats[seat].secret);
    cJSON_AddStringToObject(d, "reply_address", reply ? reply : "");
    cJSON_AddNumberToObject(d, "turn", g->turn);
    view_add_players(d, &g->table, -1);
    if (view_ascii(db, g, seat, &sb) == 0)
        reply_add_text(d, "board", sb.buf);
    strbuf_reset(&sb);
    if (agree_status(db, g, seat, &sb) == 0) {
        cJSON_AddStringToObject(d, "status", sb.buf);
        if (str_eq(game_status_of(g->ops, g->st), "finished")) {
            /* The game-over mail's first line names the winner. */
            struct strbuf head = STRBUF_INIT;
            const char *colon = strstr(sb.buf, ": ");
            char game[24];
            snprintf(game, sizeof(game), "%lld", (long long)g->id);
            phrase_add(&head, g->seats[seat].lang, "gameover.head", "title", g->ops->title, "game", game, "player",
                       g->names[seat], "result", colon ? colon + 2 : sb.buf, NULL);
            reply_add_text(d, "over_line", head.buf);
            strbuf_release(&head);
            {
                char *lobby = setting_get(db, "lobby");
                if (lobby && !str_eq(lobby, "off")) {
                    char *addr = mail_reply_address(db, 0, 0, NULL);
                    struct strbuf r = STRBUF_INIT;
                    phrase_add(&r, g->seats[seat].lang, "gameover.rematch", "game", game, "lobby", addr ? addr : "",
                               NULL);
                    reply_add_text(d, "rematch", r.buf);
                    strbuf_release(&r);
                    free(addr);
                }
                free(lobby);
            }
        }
    }
    game_missing(db, g, &missing);
    cJSON_AddBoolToObject(d, "your_turn", (missing >> seat) & 1);
    {
        char when[128];
        game_when_now_in(g, g->seats[seat].lang, when);
        cJSON_AddStringToObject(d, "when", when);
    }
    if ((missing >> seat) & 1) {
        /* What she may order, said compactly. */
        strbuf_reset(&sb);
        if (options_text(g, seat, NULL, OPTIONS_LIST_MAX, &sb))
            reply_add_text(d, "options", sb.buf);
    }
    if (!str_eq(game_status_of(g->ops, g->st), "finished")) {
        /* The step's deadline: a missing player's vacation holds it for all. */
        time_t t = game_deadline(g, missing);
        char when[DATE_TEXT_MAX];
        if (t) {
            date_text_in(t, g->seats[seat].timezone, g->seats[seat].lang, when);
            cJSON_AddStringToObject(d, "deadline", when);
        }
    }
    {
        char example[16];
        date_ahead(14, example);
        cJSON_AddStringToObject(d, "vacation_example", example);
    }
    cJSON_AddBoolToObject(d, "finished", str_eq(game_status_of(g->ops, g->st), "finished"));
    strbuf_reset(&sb);
    view_fairness(g, g->seats[seat].lang, &sb);
    if (sb.len)
        reply_add_text(d, "fairness", sb.buf);
    strbuf_reset(&sb);
    view_who_was_who(g, g->seats[seat].lang, &sb);
    if (sb.len)
        reply_add_text(d, "who_was_who", sb.buf);
    strbuf_reset(&sb);
    /* Whether it counts for the ratings, and if not why. */
    if (str_eq(game_status_of(g->ops, g->st), "finished") && standing_game_text(db, g->id, g->seats[seat].lang, &sb) == 0 && sb.len) {
        struct strbuf flowed = STRBUF_INIT;
        strbuf_add_flowed(&flowed, sb.buf, 0, 72);
        reply_add_text(d, "rated", flowed.buf);
        strbuf_release(&flowed);
    }
    /* Her plans: what was dropped since her last mail, what still waits. */
    strbuf_reset(&sb);
    if (vis_plans(viewer_seat(seat), seat) && plan_news(db, g, seat, &sb) == 0 && sb.len)
        reply_add_text(d, "plans", sb.buf);
    strbuf_reset(&sb);
    press_welcome(g, seat, &sb);
    reply_add_text(d, "press_line", sb.buf);
    free(reply);
    strbuf_release(&sb);
    return d;
}

/* Renders template `name` and queues it to one address: a seat's, or the
 * host's (seat -1). */
static int queue_mail(sqlite3 *db, struct game_rec *g, int seat, const char *kind, const char *name, cJSON *data,
                      const struct mail_origin *origin, int told_from)
{
    struct outmail m = { 0 };
    cJSON *view = NULL, *prev = NULL;
    struct strbuf alt = STRBUF_INIT, rematch = STRBUF_INIT;
    struct strlist labels = STRLIST_INIT, orders = STRLIST_INIT, commands = STRLIST_INIT, legal = STRLIST_INIT,
                   legal_labels = STRLIST_INIT, plan_lines = STRLIST_INIT;
    char *lobby = NULL;
    int rc;

    m.game_id = g->id;
    m.step = g->turn;
    m.told_from = told_from;
    m.kind = kind;
    if (seat >= 0 && g->seats[seat].images && cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(data, "board")) &&
        render_knows(g->ops->name) && setting_is_yes(db, "images")) {
        /* Her board as a picture too: what her view shows, the last
         * step's changes marked; drawn when the mail is sent. */
        view = view_json(db, g, seat);
        prev = view_module_at(db, g, g->turn - 1, seat);
        view_picture_words(view, g->seats[seat].lang, &alt);
        m.picture_view = view;
        m.picture_prev = prev;
        m.board = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(data, "board"));
        m.alt = alt.buf;
    }
    if (seat < 0) {
        m.to = g->sched.host_email;
        m.to_name = "host";
        m.secret = g->sched.host_secret;
        m.host = true;
    } else {
        bool over = str_eq(game_status_of(g->ops, g->st), "finished");
        m.seat = seat + 1;
        m.to = g->seats[seat].email;
        m.to_name = g->names[seat];
        m.secret = g->seats[seat].secret;
        /* Tap to order: her orders, and the commands every mail offers. */
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(data, "your_turn")) &&
            (m.links[0].text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(data, "options")))) {
            options_choices(g, seat, NULL, OPTIONS_LIST_MAX, &labels, &orders);
            m.links[0].labels = &labels;
            m.links[0].orders = &orders;
        }
        /* The orders a LEGAL answer lists, one a line, as links too. */
        if ((m.links[1].text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(data, "legal_text")))) {
            cJSON *v;
            cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(data, "legal_links")) {
                strlist_push(&legal_labels, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "label")));
                strlist_push(&legal, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "order")));
            }
            m.links[1].labels = &legal_labels;
            m.links[1].orders = &legal;
        }
        strlist_push(&commands, "BOARD");
        strlist_push(&commands, "HISTORY");
        if (!over) {
            strlist_push(&commands, "LEGAL");
            strlist_push(&commands, "HELP");
            /* The agreed ends, a tap away (each a vote, taken back with
             * NODRAW or NOCONCEDE). */
            strlist_push(&commands, "DRAW");
            strlist_push(&commands, "CONCEDE");
        }
        /* In her words: PLATEAU, HISTORIQUE... */
        for (size_t i = 0; i < commands.n; i++) {
            char *local = lexicon_local(g->seats[seat].lang, "common", NULL, commands.v[i]);
            free(commands.v[i]);
            commands.v[i] = local;
        }
        /* Plans a tap away: the IF lines her answer offers. */
        if ((m.links[2].text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(data, "plan_taps")))) {
            cJSON *v;
            cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(data, "plan_lines"))
                strlist_push(&plan_lines, cJSON_GetStringValue(v));
            m.links[2].labels = &plan_lines;
            m.links[2].orders = &plan_lines;
            m.links[2].heading = "html.tap-plan";
        }
        m.commands = &commands;
        if (over && (lobby = setting_get(db, "lobby")) && !str_eq(lobby, "off")) {
            char english[40], *local;
            free(lobby);
            lobby = mail_reply_address(db, 0, 0, NULL);
            snprintf(english, sizeof(english), "REMATCH %lld", (long long)g->id);
            local = lexicon_local(g->seats[seat].lang, "lobby", NULL, english);
            strbuf_addstr(&rematch, local);
            free(local);
            m.more = rematch.buf;
            m.more_to = lobby;
        }
    }
    if (origin) {
        m.in_reply_to = origin->message_id;
        m.references = origin->references;
        m.answers = origin->row;
    }
    rc = outbox_render(db, &m, name, data);
    cJSON_Delete(view);
    cJSON_Delete(prev);
    strbuf_release(&alt);
    strbuf_release(&rematch);
    strlist_clear(&labels);
    strlist_clear(&orders);
    strlist_clear(&commands);
    strlist_clear(&legal);
    strlist_clear(&legal_labels);
    strlist_clear(&plan_lines);
    free(lobby);
    return rc;
}

int notify_send(sqlite3 *db, struct game_rec *g, int seat, const char *kind, const char *name, cJSON *data,
                const struct mail_origin *origin)
{
    return game_seat_bot(g, seat) ? 0 : queue_mail(db, g, seat, kind, name, data, origin, 0);
}

/* The steps first..last as seat may read them, under key (nothing when
 * there are none). */
static int add_steps(sqlite3 *db, struct game_rec *g, int seat, int first, int last, cJSON *d, const char *key)
{
    struct strbuf sb = STRBUF_INIT;
    int rc = 0;
    if (first <= last && first >= 1) {
        rc = history_render_range(db, g, seat, first, last, &sb);
        if (!rc && sb.len)
            reply_add_text(d, key, sb.buf);
    }
    strbuf_release(&sb);
    return rc;
}

/* Seat has now been told the game up to its current step. */
static int mark_told(sqlite3 *db, struct game_rec *g, int seat)
{
    char now[32];
    utc_now(now);
    g->seats[seat].told_step = g->turn;
    free(g->seats[seat].told_at);
    g->seats[seat].told_at = xstrdup(now);
    return db_do(db, "UPDATE seats SET told_step = ?, told_at = ? WHERE game_id = ? AND seat = ?", "isIi", g->turn, now,
                 g->id, seat + 1);
}

int notify_tell(sqlite3 *db, struct game_rec *g, int seat, const char *kind, const char *name, cJSON *data,
                const struct mail_origin *origin)
{
    if (game_seat_bot(g, seat))
        return 0;
    int from = g->seats[seat].told_step + 1;
    if (add_steps(db, g, seat, from, g->turn, data, "turns"))
        return -1;
    if (from >= 1 && from <= g->turn) {
        /* The orders since, in a few lines before the board. */
        struct strbuf recap = STRBUF_INIT;
        int rc = history_recap(db, g, g->seats[seat].lang, from, g->turn, &recap);
        strbuf_trim(&recap);
        if (!rc && recap.len)
            cJSON_AddStringToObject(data, "recap", recap.buf);
        strbuf_release(&recap);
        if (rc)
            return -1;
    }
    if (queue_mail(db, g, seat, kind, name, data, origin, from <= g->turn ? from : 0))
        return -1;
    return mark_told(db, g, seat);
}

/* The watchers of the game: a mail each time its round (turn, move) has
 * moved on, and one at the end, as an observer sees it. */
static int tell_watchers(sqlite3 *db, struct game_rec *g, bool finished)
{
    struct game_when w;
    struct strlist to = STRLIST_INIT;
    int froms[64], rc = 0;
    size_t n = 0;
    sqlite3_stmt *q;
    game_when_of(g->ops, g->st, &g->table, g->turn, &w);
    q = db_stmt(db,
                "SELECT email, told_step FROM watchers WHERE game_id = ? AND told_step < ? AND (? OR told_when <> ?)"
                " ORDER BY email LIMIT 64",
                "Iiii", g->id, g->turn, finished ? 1 : 0, w.number);
    if (!q)
        return -1;
    while (db_step(q) == SQLITE_ROW && n < 64) {
        strlist_push(&to, (const char *)sqlite3_column_text(q, 0));
        froms[n++] = sqlite3_column_int(q, 1);
    }
    db_finalize(q);
    for (size_t i = 0; i < to.n && !rc; i++) {
        cJSON *d = cJSON_CreateObject();
        struct strbuf sb = STRBUF_INIT;
        struct outmail m = { 0 };
        char *lobby = mail_reply_address(db, 0, 0, NULL), when[128], *lang = language_of(db, to.v[i]);
        /* Everything in the watcher's language, as an observer sees it. */
        game_when_in(&w, lang, when);
        cJSON_AddNumberToObject(d, "game", (double)g->id);
        cJSON_AddStringToObject(d, "title", g->ops->title);
        cJSON_AddStringToObject(d, "when", when);
        cJSON_AddBoolToObject(d, "finished", finished);
        cJSON_AddStringToObject(d, "lobby_address", lobby ? lobby : "");
        free(lobby);
        if (froms[i] + 1 <= g->turn && froms[i] + 1 >= 1) {
            rc = history_render_range_in(db, g, -1, lang, froms[i] + 1, g->turn, &sb);
            if (!rc && sb.len)
                reply_add_text(d, "turns", sb.buf);
            strbuf_reset(&sb);
        }
        if (!rc && !(rc = view_ascii_in(db, g, -1, lang, &sb)))
            reply_add_text(d, "board", sb.buf);
        strbuf_reset(&sb);
        view_fairness(g, lang, &sb);
        if (sb.len && finished)
            reply_add_text(d, "fairness", sb.buf);
        strbuf_reset(&sb);
        view_who_was_who(g, lang, &sb);
        if (sb.len)
            reply_add_text(d, "who_was_who", sb.buf);
        m.game_id = g->id;
        m.kind = "watch";
        m.to = to.v[i];
        m.lobby = true;
        m.step = g->turn;
        m.told_from = froms[i] + 1;
        {
            /* The observer's board as a picture too. */
            cJSON *pv = NULL, *pp = NULL;
            struct strbuf alt = STRBUF_INIT;
            if (!rc && render_knows(g->ops->name) && setting_is_yes(db, "images")) {
                pv = view_json(db, g, -1);
                pp = view_module_at(db, g, g->turn - 1, -1);
                view_picture_words(pv, lang, &alt);
                m.picture_view = pv;
                m.picture_prev = pp;
                m.board = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "board"));
                m.alt = alt.buf;
            }
            if (!rc)
                rc = outbox_render(db, &m, "mail-watch.txt", d) ||
                     db_do(db, "UPDATE watchers SET told_step = ?, told_when = ? WHERE game_id = ? AND email = ?",
                           "iiIs", g->turn, w.number, g->id, to.v[i]);
            cJSON_Delete(pv);
            cJSON_Delete(pp);
            strbuf_release(&alt);
        }
        free(lang);
        strbuf_release(&sb);
        cJSON_Delete(d);
    }
    strlist_clear(&to);
    return rc ? -1 : 0;
}

/* The host learns the result once, when the game ends. */
static int tell_host_over(sqlite3 *db, struct game_rec *g)
{
    cJSON *d;
    struct strbuf sb = STRBUF_INIT;
    int rc;
    if (!g->sched.host_email)
        return 0;
    /* A host who plays has the result in her own game-over mail. */
    for (int s = 0; s < g->nseats; s++)
        if (str_ieq(g->seats[s].email, g->sched.host_email))
            return 0;
    if ((rc = notify_once(db, g, -1, "gameover")) <= 0)
        return rc;
    d = cJSON_CreateObject();
    {
        char *lang = language_of(db, g->sched.host_email);
        if (view_status_line(db, g, lang, &sb) == 0)
            cJSON_AddStringToObject(d, "status", sb.buf);
        free(lang);
    }
    strbuf_reset(&sb);
    if (view_ascii(db, g, -1, &sb) == 0)
        reply_add_text(d, "board", sb.buf);
    strbuf_reset(&sb);
    {
        char *host = language_of(db, g->sched.host_email);
        view_fairness(g, host, &sb);
        free(host);
    }
    if (sb.len)
        reply_add_text(d, "fairness", sb.buf);
    rc = notify_host(db, g, "host-gameover", "mail-host-gameover.txt", d, NULL);
    cJSON_Delete(d);
    strbuf_release(&sb);
    return rc;
}

int notify_progress(sqlite3 *db, struct game_rec *g, int except)
{
    bool finished = str_eq(game_status_of(g->ops, g->st), "finished");
    unsigned missing = 0;
    /* A game over counts for the ratings before anyone is told. */
    if ((finished && standing_catch_up(db)) || game_missing(db, g, &missing) || tell_watchers(db, g, finished) ||
        (finished && tell_host_over(db, g)))
        return -1;
    for (int s = 0; s < g->nseats; s++) {
        bool acts = (missing >> s) & 1, every = str_eq(g->seats[s].mail_policy, "every");
        cJSON *d;
        int rc;
        if (s == except || game_seat_bot(g, s) || g->seats[s].told_step >= g->turn)
            continue;
        /* MAIL TURN and MAIL DIGEST wait until she must act. */
        if (!finished && !acts && !every)
            continue;
        d = notify_seat_data(db, g, s);
        rc = notify_tell(db, g, s, finished ? "gameover" : "turn", finished ? "mail-gameover.txt" : "mail-turn.txt",
                         d, NULL);
        cJSON_Delete(d);
        if (rc)
            return -1;
    }
    return 0;
}

int notify_digest(sqlite3 *db, struct game_rec *g, int seat)
{
    cJSON *d = notify_seat_data(db, g, seat);
    int rc;
    cJSON_AddBoolToObject(d, "digest", true);
    rc = notify_tell(db, g, seat, "digest", "mail-turn.txt", d, NULL);
    cJSON_Delete(d);
    return rc;
}

int notify_welcome_seat(sqlite3 *db, struct game_rec *g, int s)
{
    return notify_welcome_newcomer(db, g, s, false);
}

int notify_welcome_newcomer(sqlite3 *db, struct game_rec *g, int s, bool midgame)
{
    struct strbuf players = STRBUF_INIT;
    cJSON *d = notify_seat_data(db, g, s);
    int rc;
    /* One who takes a seat in a running game sees it at once, her hand
     * with it (the seat's own view, nobody else's). */
    const char *lang = g->seats[s].lang;
    struct strbuf line = STRBUF_INIT;
    if (midgame) {
        phrase_add(&line, lang, "welcome.midgame", NULL);
        reply_add_text(d, "midgame", line.buf);
        strbuf_reset(&line);
    }
    /* Who plays, on one line; the rules are a HELP away. */
    for (int i = 0; i < g->nseats; i++) {
        strbuf_addf(&players, "%s%d ", i ? ", " : "", i + 1);
        game_seat_label_in(g, i, lang, &players);
    }
    phrase_add(&line, lang, "welcome.players", "players", players.buf, NULL);
    reply_add_text(d, "players_line", line.buf);
    strbuf_reset(&line);
    game_summary_in(g->ops, lang, &line);
    reply_add_text(d, "summary", line.buf);
    strbuf_release(&line);
    rc = notify_tell(db, g, s, "welcome", "mail-welcome.txt", d, NULL);
    cJSON_Delete(d);
    strbuf_release(&players);
    return rc;
}

int notify_welcome(sqlite3 *db, struct game_rec *g)
{
    for (int s = 0; s < g->nseats; s++)
        if (notify_welcome_seat(db, g, s))
            return -1;
    return notify_host_welcome(db, g);
}

/* A notice to seat, with its board: headline, then text. */
static int notice(sqlite3 *db, struct game_rec *g, int seat, const char *headline, const char *text)
{
    cJSON *d = notify_seat_data(db, g, seat);
    int rc;
    cJSON_AddStringToObject(d, "what", headline);
    reply_add_text(d, "notice", text);
    rc = notify_tell(db, g, seat, "notice", "mail-notice.txt", d, NULL);
    cJSON_Delete(d);
    return rc;
}

int notify_submission(sqlite3 *db, struct game_rec *g, int seat, const struct submission *sub,
                      const struct mail_origin *origin)
{
    if (origin) {
        cJSON *d = reply_data(db, g, seat, sub), *extra = notify_seat_data(db, g, seat), *item;
        int rc;
        /* The reply's own fields win over the shared ones; the board is
         * the reply's to show or not. */
        cJSON_ArrayForEach(item, extra)
            if (!cJSON_HasObjectItem(d, item->string) && !str_eq(item->string, "board"))
                cJSON_AddItemToObject(d, item->string, cJSON_Duplicate(item, 1));
        cJSON_Delete(extra);
        /* After her order, how to plan an answer to the next, and the
         * replies the easy bot thinks likely, each a tap away. */
        {
            bool ordered = false;
            for (size_t i = 0; i < sub->n; i++)
                ordered |= sub->lines[i].status == LINE_ACCEPTED && sub->lines[i].canonical &&
                           !str_eq(sub->lines[i].canonical, "RESIGN");
            if (ordered) {
                struct strlist lines = STRLIST_INIT;
                struct strbuf hint = STRBUF_INIT;
                if (vis_plans(viewer_seat(seat), seat) && plan_suggest(db, g, seat, PLAN_TAPS, &lines, &hint) == 0) {
                    if (hint.len) {
                        /* A paragraph, flowed as one: not an answer's
                         * line wrapped under itself. */
                        struct strbuf flowed = STRBUF_INIT;
                        strbuf_add_flowed(&flowed, hint.buf, 0, 72);
                        reply_add_text(d, "plan_hint", flowed.buf);
                        strbuf_release(&flowed);
                    }
                    if (lines.n) {
                        cJSON *list = cJSON_AddArrayToObject(d, "plan_lines");
                        struct strbuf block = STRBUF_INIT;
                        /* A line a plan, indented as the orders a mail
                         * offers are (ours, not hers), wrapped at 72. */
                        for (size_t i = 0; i < lines.n; i++) {
                            struct strbuf one = STRBUF_INIT;
                            cJSON_AddItemToArray(list, cJSON_CreateString(lines.v[i]));
                            strbuf_addf(&one, "  %s", lines.v[i]);
                            strbuf_add_flowed(&block, one.buf, 4, 72);
                            strbuf_release(&one);
                        }
                        while (block.len && block.buf[block.len - 1] == '\n')
                            strbuf_setlen(&block, block.len - 1);
                        cJSON_AddStringToObject(d, "plan_taps", block.buf);
                        strbuf_release(&block);
                    }
                }
                strlist_clear(&lines);
                strbuf_release(&hint);
            }
        }
        /* A mail with her secret from another address: she is told. */
        if (origin->sender && !str_ieq(origin->sender, g->seats[seat].email))
            cJSON_AddStringToObject(d, "other_sender", origin->sender);
        bool asks = sub->n > 0;
        for (size_t i = 0; i < sub->n; i++)
            asks &= sub->lines[i].status == LINE_INFO && engine_line_asks(sub->lines[i].text);
        /* What happened before her mail that no mail told her yet, and
         * what was played after her lines (bots, forced orders). */
        rc = add_steps(db, g, seat, g->seats[seat].told_step + 1, sub->turn_before, d, "since") ||
             add_steps(db, g, seat, sub->turn_lines + 1, sub->turn_after, d, "then");
        /* Answers that only inform are counted apart, for help_per_hour. */
        if (!rc && !game_seat_bot(g, seat))
            rc = queue_mail(db, g, seat, asks ? "help" : "reply", "mail-reply.txt", d, origin,
                            g->seats[seat].told_step < g->turn ? g->seats[seat].told_step + 1 : 0) ||
                 mark_told(db, g, seat);
        cJSON_Delete(d);
        if (rc)
            return -1;
    }
    if (sub->turn_after == sub->turn_before) {
        /* A vacation that holds the step's deadline: the others waited for
         * are told when it now is. */
        if (sub->deadline_after > sub->deadline_before && sub->deadline_before && seat >= 0) {
            unsigned missing = 0;
            if (game_missing(db, g, &missing))
                return -1;
            for (int s = 0; s < g->nseats; s++) {
                char when[DATE_TEXT_MAX];
                struct notice n;
                struct strbuf head = STRBUF_INIT, text = STRBUF_INIT;
                int rc;
                if (s == seat || !(missing & (1u << s)))
                    continue;
                date_text_in(sub->deadline_after, g->seats[s].timezone, g->seats[s].lang, when);
                notice_init(&n, "notice.vacation.head");
                notice_say(&n, "notice.vacation");
                notice_set(&n, "who", g->names[seat]);
                notice_set(&n, "deadline", when);
                notice_headline(&n, g->seats[s].lang, &head);
                notice_text(&n, g->seats[s].lang, &text);
                rc = notice(db, g, s, head.buf, text.buf);
                notice_release(&n);
                strbuf_release(&head);
                strbuf_release(&text);
                if (rc)
                    return -1;
            }
        }
        return 0;
    }
    return notify_progress(db, g, origin ? seat : -1);
}

int notify_host(sqlite3 *db, struct game_rec *g, const char *kind, const char *name, cJSON *data,
                const struct mail_origin *origin)
{
    char *reply;
    int rc;

    if (!g->sched.host_email)
        return 0;
    reply = mail_reply_address(db, g->id, -1, g->sched.host_secret);
    cJSON_AddStringToObject(data, "host_secret", g->sched.host_secret ? g->sched.host_secret : "");
    cJSON_AddStringToObject(data, "reply_address", reply ? reply : "");
    if (!cJSON_HasObjectItem(data, "game"))
        cJSON_AddNumberToObject(data, "game", (double)g->id);
    if (!cJSON_HasObjectItem(data, "title"))
        cJSON_AddStringToObject(data, "title", g->ops->title);
    rc = queue_mail(db, g, -1, kind, name, data, origin, 0);
    free(reply);
    return rc;
}

int notify_notice_all(sqlite3 *db, struct game_rec *g, int except, const struct notice *n)
{
    for (int s = 0; s < g->nseats; s++) {
        struct strbuf head = STRBUF_INIT, text = STRBUF_INIT;
        int rc = 0;
        if (s != except) {
            notice_headline(n, g->seats[s].lang, &head);
            notice_text(n, g->seats[s].lang, &text);
            rc = notice(db, g, s, head.buf, text.buf);
        }
        strbuf_release(&head);
        strbuf_release(&text);
        if (rc)
            return -1;
    }
    return 0;
}

int notify_host_welcome(sqlite3 *db, struct game_rec *g)
{
    cJSON *d = cJSON_CreateObject(), *players = cJSON_CreateArray();
    /* The host by mail (a lobby table's opener is one, and sits in the
     * game) reads what visibility.c lets her: the seats by name, no
     * address. */
    bool anonymous = str_eq(engine_core_option(g->options, "anonymous"), "yes");
    int rc;
    for (int i = 0; i < g->nseats; i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "seat", i + 1);
        cJSON_AddStringToObject(p, "name", g->names[i]);
        if (vis_address(g, viewer_of(VIEWER_HOST_MAIL), i))
            cJSON_AddStringToObject(p, "email", g->seats[i].email);
        cJSON_AddItemToArray(players, p);
    }
    cJSON_AddItemToObject(d, "players", players);
    cJSON_AddBoolToObject(d, "anonymous", anonymous);
    rc = notify_host(db, g, "host-welcome", "mail-host-welcome.txt", d, NULL);
    cJSON_Delete(d);
    return rc;
}

int notify_once(sqlite3 *db, struct game_rec *g, int seat, const char *kind)
{
    char now[32];
    utc_now(now);
    if (db_do(db,
              "INSERT OR IGNORE INTO notices(game_id, step, started_at, seat, kind, sent_at) VALUES (?, ?, ?, ?, ?, ?)",
              "Iisiss", g->id, g->turn, g->sched.step_started_at, seat + 1, kind, now))
        return -1;
    return sqlite3_changes(db) > 0;
}

/* The first lines of a text, quoted as a mail client quotes: "> ...",
 * each at most 72 columns, five lines at most. */
static void quote_lines(const char *text, struct strbuf *out)
{
    struct strlist lines = STRLIST_INIT;
    order_lines(text ? text : "", &lines);
    for (size_t i = 0; i < lines.n && i < 5; i++)
        strbuf_addf(out, "> %.70s\n", lines.v[i]);
    if (lines.n > 5)
        strbuf_addf(out, "> (and %zu more lines)\n", lines.n - 5);
    strlist_clear(&lines);
}

int notify_refused(sqlite3 *db, struct game_rec *g, int seat, const char *why, const char *text,
                   const struct mail_origin *origin)
{
    cJSON *d = notify_seat_data(db, g, seat);
    struct strbuf quoted = STRBUF_INIT;
    int rc;
    reply_add_text(d, "why", why);
    quote_lines(text, &quoted);
    if (quoted.len)
        reply_add_text(d, "quoted", quoted.buf);
    strbuf_release(&quoted);
    /* Not threaded to the refused mail (its sender may not be the
     * player), but linked to it in the outbox, for the rate limits. */
    struct mail_origin link = { NULL, NULL, origin ? origin->row : 0, NULL };
    rc = notify_send(db, g, seat, "refused", "mail-refused.txt", d, &link);
    cJSON_Delete(d);
    return rc;
}

int notify_left(sqlite3 *db, struct game_rec *g, const char *address, const char *name, const char *why,
                const char *text, const struct mail_origin *origin)
{
    struct outmail m = { 0 };
    cJSON *d = cJSON_CreateObject();
    struct strbuf quoted = STRBUF_INIT;
    char *lobby = mail_reply_address(db, 0, 0, NULL);
    int rc;
    cJSON_AddStringToObject(d, "title", g->ops->title);
    cJSON_AddNumberToObject(d, "game", (double)g->id);
    cJSON_AddStringToObject(d, "player", name);
    cJSON_AddStringToObject(d, "lobby_address", lobby ? lobby : "");
    reply_add_text(d, "why", why);
    quote_lines(text, &quoted);
    if (quoted.len)
        reply_add_text(d, "quoted", quoted.buf);
    /* From the lobby, with no seat's secret: a reply goes there. */
    m.kind = "left";
    m.to = address;
    m.to_name = name;
    m.lobby = true;
    m.answers = origin ? origin->row : 0;
    rc = outbox_render(db, &m, "mail-left.txt", d);
    free(lobby);
    strbuf_release(&quoted);
    cJSON_Delete(d);
    return rc;
}

int notify_limit(sqlite3 *db, struct game_rec *g, int seat, const char *limit, const char *what, const char *todo,
                 const struct mail_origin *origin)
{
    cJSON *d = notify_seat_data(db, g, seat);
    int rc;
    struct strbuf sentence = STRBUF_INIT;
    /* The limit's name is the host's word: the player reads what it is. */
    (void)limit;
    strbuf_addf(&sentence, "%s.", what);
    reply_add_text(d, "what", sentence.buf);
    reply_add_text(d, "todo", todo);
    strbuf_release(&sentence);
    rc = notify_send(db, g, seat, "limit", "mail-limit.txt", d, origin);
    cJSON_Delete(d);
    return rc;
}
