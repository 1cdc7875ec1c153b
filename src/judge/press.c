/* press.c: what press stores and sends: each message in its channel, a mail to each recipient, mutes, a seat's press in her HISTORY, and a finished game's press when the host publishes it. */
#include "judge/press.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "core/engine.h"
#include "core/reply.h"
#include "core/seatlife.h"
#include "core/visibility.h"
#include "mail/mailout.h"
#include "store/db.h"
#include "store/settings.h"
#include "lib/strlist.h"
#include "lib/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HISTORY_MESSAGES 10 /* the latest messages a HISTORY shows */
#define HISTORY_QUOTE 48    /* characters of each message's first line it quotes */

/* A message's lines wrapped for a mail (72 columns), each keeping its
 * own indent. */
static void wrapped_body(const char *body, struct strbuf *out)
{
    for (const char *p = body; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = xstrndup(p, len);
        if (len > 72)
            strbuf_add_flowed(out, line, (int)strspn(line, " "), 72);
        else
            strbuf_addf(out, "%s\n", line);
        free(line);
        p += len + (nl != NULL);
    }
    while (out->len && out->buf[out->len - 1] == '\n')
        strbuf_setlen(out, out->len - 1);
}

/* Refuses an item of seat's: the catalogue's phrase key in her language
 * over pairs of strings, name then value, ended by NULL. */
static struct line_result *refused(struct submission *sub, const struct press_item *it, const char *lang,
                                   const char *key, ...) __attribute__((sentinel));
static struct line_result *refused(struct submission *sub, const struct press_item *it, const char *lang,
                                   const char *key, ...)
{
    struct line_result *l = submission_line(sub, it->line);
    va_list ap;
    va_start(ap, key);
    phrase_addv(&l->body, lang, key, ap);
    va_end(ap);
    l->status = LINE_REJECTED;
    return l;
}

/* A press word (MUTE) in her words (owned). */
static char *press_word(const char *lang, const char *english)
{
    return lexicon_local(lang, "press", NULL, english);
}

/* The channel of the seats of mask, made when new. */
static int channel_of(sqlite3 *db, const struct game_rec *g, unsigned mask, int64_t *id)
{
    if (db_do(db, "INSERT OR IGNORE INTO press_channels(game_id, seats) VALUES (?, ?)", "II", g->id, (int64_t)mask))
        return -1;
    return db_get_int64(db, id, "SELECT id FROM press_channels WHERE game_id = ? AND seats = ?", "II", g->id,
                        (int64_t)mask) > 0 ? 0 : -1;
}

/* What a press mail says of the message it carries. */
struct press_mail {
    int seat;         /* its writer */
    unsigned to;      /* whom it went to */
    unsigned members; /* the channel: to and the writer */
    int64_t channel;  /* where a reply goes: a channel, or -id of a grey message */
    bool grey;        /* its writer is not named */
    bool grey_reply;  /* it answers a grey message: to its writer alone */
    const char *body;
    int attachments;
    int64_t row;
};

/* The mail to recipient r: who wrote to whom, the message, and how a
 * reply reaches the same seats. A grey message names neither its writer
 * nor the others it went to (by elimination they would name her): it
 * came to you, or to all; a reply to it reaches its writer alone, by an
 * address that is this message's only, so that no two messages are
 * linked to one writer. */
static int mail_one(sqlite3 *db, struct game_rec *g, int r, const struct press_mail *pm)
{
    struct outmail m = { 0 };
    struct strlist commands = STRLIST_INIT;
    struct strbuf sb = STRBUF_INIT, mute = STRBUF_INIT;
    cJSON *d = cJSON_CreateObject();
    unsigned others = 0;
    int rc;
    struct strbuf line = STRBUF_INIT, names = STRBUF_INIT;
    const char *lang = g->seats[r].lang;
    const struct game_table t = game_table_in(g, lang);
    char game[24];
    char *word;
    for (int s = 0; s < g->nseats; s++)
        if (s != pm->seat)
            others |= 1u << s;
    bool named = vis_press_writer(viewer_seat(r), pm->grey, pm->seat);
    snprintf(game, sizeof(game), "%lld", (long long)g->id);
    cJSON_AddNumberToObject(d, "game", (double)g->id);
    cJSON_AddStringToObject(d, "title", g->ops->title);
    if (named)
        cJSON_AddStringToObject(d, "from", g->names[pm->seat]);
    /* The first line says who wrote to whom; wrapped, as is the reply's. */
    if (pm->grey_reply || !named)
        phrase_add(&line, lang,
                   pm->grey_reply         ? "press.head.grey-reply"
                   : pm->to == others     ? "press.head.grey-all"
                                          : "press.head.grey-you",
                   "title", g->ops->title, "game", game, NULL);
    else {
        press_names(&t, pm->to, -1, r, &names);
        phrase_add(&line, lang, "press.head.named", "from", g->names[pm->seat], "to", names.buf, "title",
                   g->ops->title, "game", game, NULL);
        strbuf_reset(&names);
    }
    strbuf_add_flowed(&sb, line.buf, 0, 72);
    reply_add_text(d, "head", sb.buf);
    strbuf_reset(&sb);
    strbuf_reset(&line);
    if (!named)
        phrase_add(&line, lang, "press.reply.grey", NULL);
    else {
        press_names(&t, pm->members, r, -1, &names);
        phrase_add(&line, lang, "press.reply.named", "names", names.buf, NULL);
    }
    strbuf_add_flowed(&sb, line.buf, 0, 72);
    reply_add_text(d, "reply", sb.buf);
    strbuf_reset(&sb);
    strbuf_reset(&line);
    phrase_add(&line, lang, named ? "press.mute.named" : "press.mute.grey", "from", g->names[pm->seat], NULL);
    strbuf_add_flowed(&sb, line.buf, 0, 72);
    reply_add_text(d, "mute", sb.buf);
    strbuf_reset(&sb);
    strbuf_release(&line);
    strbuf_release(&names);
    wrapped_body(pm->body, &sb);
    cJSON_AddStringToObject(d, "body", sb.buf);
    if (pm->attachments) {
        char n[24];
        snprintf(n, sizeof(n), "%d", pm->attachments);
        phrase_add(&sb, lang, "press.dropped", "n", n, NULL);
        cJSON_AddStringToObject(d, "dropped", sb.buf);
        strbuf_reset(&sb);
    }
    m.game_id = g->id;
    m.seat = r + 1;
    m.kind = "press";
    m.to = g->seats[r].email;
    m.to_name = g->names[r];
    m.secret = g->seats[r].secret;
    m.channel = pm->channel;
    m.step = g->turn;
    m.answers = pm->row;
    /* One tap mutes the writer: the line goes to the channel (or to the
     * grey message), which reads it as the command it is. */
    /* In her words: BLOQUER Bob. */
    word = press_word(lang, "MUTE");
    if (!named)
        strbuf_addstr(&mute, word);
    else
        strbuf_addf(&mute, "%s %s", word, g->names[pm->seat]);
    free(word);
    strlist_push(&commands, mute.buf);
    m.commands = &commands;
    rc = outbox_render(db, &m, "mail-press.txt", d);
    cJSON_Delete(d);
    strlist_clear(&commands);
    strbuf_release(&sb);
    strbuf_release(&mute);
    return rc;
}

/* The grey message -channel, as seat may answer it: its writer. 0 and
 * *writer -1 when it is no grey message of this game that reached seat. */
static int grey_writer(sqlite3 *db, const struct game_rec *g, int seat, int64_t channel, int *writer)
{
    int64_t w;
    int found = db_get_int64(db, &w,
                             "SELECT p.seat FROM press p JOIN press_recipients r ON r.press_id = p.id AND r.seat = ?"
                             " WHERE p.id = ? AND p.game_id = ? AND p.grey = 1",
                             "iII", seat + 1, -channel, g->id);
    *writer = -1;
    if (found < 0)
        return -1;
    if (found && w >= 1 && w <= g->nseats && w - 1 != seat)
        *writer = (int)w - 1;
    return 0;
}

/* Whether press row id was written in seat's current holding (a former
 * holder's message is not the newcomer's to be answered on). */
static int of_this_holding(sqlite3 *db, const struct game_rec *g, int seat, int64_t id, bool *yes)
{
    int64_t after;
    if (seatlife_press_after(db, g, seat, &after))
        return -1;
    *yes = id > after;
    return 0;
}

/* One message of pt from seat. */
static int message(sqlite3 *db, struct game_rec *g, int seat, const struct press_item *it, int64_t channel,
                   int attachments, int64_t row, struct submission *sub)
{
    const char *mode = engine_core_option(g->options, "press");
    long long max_bytes = setting_get_int(db, "press_max_bytes", 4000),
              per_hour = setting_get_int(db, "press_per_hour", 30);
    unsigned others = 0, to = 0, left = 0, dropped = 0, sent = 0, gone = 0, bots = 0;
    bool all = false, grey = str_eq(mode, "grey"), grey_reply = !it->to && channel < 0, current = true;
    struct strbuf err = STRBUF_INIT, names = STRBUF_INIT;
    struct line_result *l;
    int64_t lately, id, members_id;
    char since[32], now[32], game[24], n[24], m[24];
    int rc = 0;
    const char *lang = g->seats[seat].lang;
    const struct game_table t = game_table_in(g, lang);

    snprintf(game, sizeof(game), "%lld", (long long)g->id);
    for (int s = 0; s < g->nseats; s++)
        if (s != seat)
            others |= 1u << s;
    if (str_eq(mode, "none")) {
        refused(sub, it, lang, "press.refused.none", "game", game, NULL);
        return 0;
    }
    if (it->to) {
        if (press_recipients(it->to, &t, seat, &to, &all, &err)) {
            struct line_result *bad = submission_line(sub, it->line);
            bad->status = LINE_REJECTED;
            strbuf_addstr(&bad->body, err.buf);
            strbuf_release(&err);
            return 0;
        }
    } else if (grey_reply) {
        int writer;
        if (grey_writer(db, g, seat, channel, &writer))
            return -1;
        if (writer < 0) {
            refused(sub, it, lang, "press.refused.no-grey", "game", game, NULL);
            return 0;
        }
        to = 1u << writer;
        grey = true;
        if (of_this_holding(db, g, writer, -channel, &current))
            return -1;
    } else if (grey) {
        /* A channel names its seats: in grey press, replies go to one
         * grey message's writer alone. */
        refused(sub, it, lang, "press.refused.grey-channel", "game", game, NULL);
        return 0;
    } else {
        int64_t seats;
        int found = db_get_int64(db, &seats, "SELECT seats FROM press_channels WHERE id = ? AND game_id = ?", "II",
                                 channel, g->id);
        if (found < 0)
            return -1;
        if (!found || !((seats >> seat) & 1)) {
            refused(sub, it, lang, "press.refused.no-channel", "game", game, NULL);
            return 0;
        }
        to = (unsigned)seats & others;
        all = to == others;
    }
    if (str_eq(mode, "public") && !all && to != others) {
        refused(sub, it, lang, "press.refused.public", "game", game, NULL);
        return 0;
    }
    if (!it->body.len && it->pulled) {
        snprintf(n, sizeof(n), "%u", it->pulled);
        refused(sub, it, lang, "press.refused.only-orders", "line", it->line, "n", n, NULL);
        return 0;
    }
    if (!it->body.len) {
        refused(sub, it, lang, "press.refused.empty", "line", it->line, NULL);
        return 0;
    }
    if (it->bytes > (size_t)max_bytes) {
        snprintf(n, sizeof(n), "%zu", it->bytes);
        snprintf(m, sizeof(m), "%lld", max_bytes);
        refused(sub, it, lang, "press.refused.too-long", "bytes", n, "max", m, NULL);
        return 0;
    }
    utc_format(clock_now() - 3600, since);
    if (db_get_int64(db, &lately, "SELECT count(*) FROM press WHERE game_id = ? AND seat = ? AND sent_at > ?", "Iis",
                     g->id, seat + 1, since) < 0)
        return -1;
    if (lately >= per_hour) {
        snprintf(n, sizeof(n), "%lld", (long long)lately);
        refused(sub, it, lang, "press.refused.per-hour", "n", n, NULL);
        return 0;
    }
    if (game_left(db, g, &left, &dropped))
        return -1;
    if (((left >> seat) & 1) && !str_eq(game_status_of(g->ops, g->st), "finished")) {
        refused(sub, it, lang, "press.refused.left", "game", game, NULL);
        return 0;
    }
    if (channel_of(db, g, to | (1u << seat), &members_id))
        return -1;
    utc_now(now);
    if (db_do(db,
              "INSERT INTO press(game_id, channel_id, seat, step, grey, body, message_id, sent_at) VALUES (?, ?, ?,"
              " ?, ?, ?, nullif(?, 0), ?)",
              "IIiiisIs", g->id, members_id, seat + 1, g->turn, grey ? 1 : 0, it->body.buf, row, now))
        return -1;
    id = sqlite3_last_insert_rowid(db);
    {
        struct press_mail pm = { seat, to, to | (1u << seat), grey ? -id : members_id, grey, grey_reply,
                                 it->body.buf, attachments, row };
        for (int r = 0; r < g->nseats && !rc; r++) {
            const char *status = "sent";
            int64_t muted = 0;
            if (!((to >> r) & 1))
                continue;
            if (((left >> r) & 1) || !current) {
                /* Left the game, or (a grey reply) the seat changed hands
                 * since its writer wrote. */
                status = "left";
                gone |= 1u << r;
            } else if (game_seat_bot(g, r)) {
                status = "bot";
                bots |= 1u << r;
            } else if (db_get_int64(db, &muted, "SELECT count(*) FROM press_mutes WHERE game_id = ? AND seat = ? AND"
                                                " muted = ?", "Iii", g->id, r + 1, seat + 1) < 0) {
                return -1;
            } else if (muted) {
                status = "muted"; /* told to nobody: the sender reads it as sent */
                sent |= 1u << r;
            } else {
                sent |= 1u << r;
                rc = mail_one(db, g, r, &pm);
            }
            if (!rc && db_do(db, "INSERT INTO press_recipients(press_id, seat, status) VALUES (?, ?, ?)", "Iis", id,
                             r + 1, status))
                rc = -1;
        }
    }
    if (rc)
        return -1;
    l = submission_line(sub, it->line);
    l->status = LINE_PRESS;
    if (grey_reply) {
        /* Whether it reached her would say who she is (one who left, a
         * seat a bot took): the answer is the same either way. */
        phrase_add(&names, lang, "press.done.grey-reply", NULL);
        phrase_add(&l->body, lang, "press.sent.grey-reply", NULL);
    } else {
        /* "press to Bob sent" reads as what it did, for the first line. */
        struct strbuf who = STRBUF_INIT;
        press_names(&t, to, -1, -1, &who);
        phrase_add(&names, lang, sent ? "press.done.sent" : "press.done.not-sent", "names", who.buf, NULL);
        strbuf_reset(&who);
        if (sent) {
            press_names(&t, sent, -1, -1, &who);
            phrase_add(&l->body, lang, grey ? "press.sent.to-grey" : "press.sent.to", "names", who.buf, NULL);
        } else {
            phrase_add(&l->body, lang, "press.sent.none", NULL);
        }
        strbuf_release(&who);
        for (int r = 0; r < g->nseats; r++)
            if (((gone | bots) >> r) & 1) {
                strbuf_addch(&l->body, ' ');
                phrase_add(&l->body, lang, (gone >> r) & 1 ? "press.sent.left" : "press.sent.bot", "who", g->names[r],
                           NULL);
            }
    }
    if (attachments && (sent || grey_reply)) {
        strbuf_addch(&l->body, ' ');
        phrase_add(&l->body, lang, "press.sent.attachments", NULL);
    }
    if (it->pulled) {
        snprintf(n, sizeof(n), "%u", it->pulled);
        strbuf_addch(&l->body, ' ');
        phrase_add(&l->body, lang, "press.sent.pulled", "n", n, NULL);
    }
    l->quiet = (grey_reply || sent == to) && !attachments && !it->pulled;
    l->canonical = strbuf_detach(&names);
    return 0;
}

/* MUTE name / UNMUTE name; in a game with grey press, MUTE or UNMUTE
 * alone at the top of a reply to a grey message, for its writer (a name
 * would let a player test whether grey press comes from it). */
static int mute(sqlite3 *db, struct game_rec *g, int seat, const struct press_item *it, int64_t channel,
                struct submission *sub)
{
    bool on = it->kind == PRESS_MUTE, grey = str_eq(engine_core_option(g->options, "press"), "grey");
    const char *lang = g->seats[seat].lang;
    char *word = press_word(lang, on ? "MUTE" : "UNMUTE"), game[24];
    int who = -1;
    struct line_result *l;
    char now[32];
    snprintf(game, sizeof(game), "%lld", (long long)g->id);
    if (grey) {
        if (channel >= 0 || (it->to && *it->to)) {
            refused(sub, it, lang, "press.refused.mute-grey-names", "game", game, "word", word, NULL);
            free(word);
            return 0;
        }
        if (grey_writer(db, g, seat, channel, &who)) {
            free(word);
            return -1;
        }
        if (who < 0) {
            refused(sub, it, lang, "press.refused.mute-no-grey", "game", game, "word", word, NULL);
            free(word);
            return 0;
        }
    } else if ((who = game_seat_find(g, it->to)) < 0 || who == seat) {
        struct strbuf list = STRBUF_INIT;
        for (int s = 0, n = 0; s < g->nseats; s++)
            if (s != seat)
                strbuf_addf(&list, "%s%s", n++ ? ", " : "", g->names[s]);
        refused(sub, it, lang, who == seat ? "press.refused.mute-you" : "press.refused.mute-nobody", "word", word,
                "names", list.buf, NULL);
        strbuf_release(&list);
        free(word);
        return 0;
    }
    free(word);
    utc_now(now);
    if (on ? db_do(db, "INSERT OR IGNORE INTO press_mutes(game_id, seat, muted, at) VALUES (?, ?, ?, ?)", "Iiis",
                   g->id, seat + 1, who + 1, now)
           : db_do(db, "DELETE FROM press_mutes WHERE game_id = ? AND seat = ? AND muted = ?", "Iii", g->id, seat + 1,
                   who + 1))
        return -1;
    l = submission_line(sub, it->line);
    l->status = LINE_PRESS;
    phrase_add(&l->body, lang,
               grey && on ? "press.muted.grey-on"
               : grey     ? "press.muted.grey-off"
               : on       ? "press.muted.on"
                          : "press.muted.off",
               "who", g->names[who], NULL);
    {
        struct strbuf c = STRBUF_INIT;
        phrase_add(&c, lang,
                   grey && on ? "press.done.writer-muted"
                   : grey     ? "press.done.writer-unmuted"
                   : on       ? "press.done.muted"
                              : "press.done.unmuted",
                   "who", g->names[who], NULL);
        l->canonical = strbuf_detach(&c);
    }
    return 0;
}

int press_take(sqlite3 *db, struct game_rec *g, int seat, const struct press_text *pt, int64_t channel,
               int attachments, int64_t message_row, struct submission *sub)
{
    for (size_t i = 0; i < pt->n; i++) {
        const struct press_item *it = &pt->v[i];
        int rc = it->kind == PRESS_MESSAGE ? message(db, g, seat, it, channel, attachments, message_row, sub)
                                           : mute(db, g, seat, it, channel, sub);
        if (rc)
            return -1;
    }
    if (pt->dropped) {
        struct line_result *l = submission_line(sub, "PRESS TO ...");
        char max[24], n[24];
        snprintf(max, sizeof(max), "%d", PRESS_ITEMS_MAX);
        snprintf(n, sizeof(n), "%zu", pt->dropped);
        l->status = LINE_REJECTED;
        phrase_add(&l->body, g->seats[seat].lang, "press.refused.too-many-items", "max", max, "n", n, NULL);
    }
    return 0;
}

/* A message's recipients as the press_recipients rows have them (a mask). */
static int recipients_of(sqlite3 *db, int64_t id, unsigned *mask)
{
    sqlite3_stmt *q = db_stmt(db, "SELECT seat FROM press_recipients WHERE press_id = ?", "I", id);
    int rc;
    *mask = 0;
    if (!q)
        return -1;
    while ((rc = db_step(q)) == SQLITE_ROW)
        *mask |= 1u << (sqlite3_column_int(q, 0) - 1);
    db_finalize(q);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Whether a message of from reached every other seat. */
static bool press_to_all(const struct game_rec *g, int from, unsigned to)
{
    for (int s = 0; s < g->nseats; s++)
        if (s != from && !((to >> s) & 1))
            return false;
    return true;
}

/* Her press: the channels she wrote or read in (not in grey press, whose
 * channels would name its writers), then the latest messages. */
static int history_text(sqlite3 *db, struct game_rec *g, int seat, struct strbuf *out)
{
    sqlite3_stmt *q;
    int rc, n = 0;
    /* Hers: what her seat wrote or read since she took it (a former
     * holder's press is not the newcomer's). */
    const char *mine = "(p.seat = ?2 OR EXISTS (SELECT 1 FROM press_recipients r WHERE r.press_id = p.id AND"
                       " r.seat = ?2 AND r.status = 'sent')) AND p.id > ?3";
    struct strbuf sql = STRBUF_INIT;
    int64_t after;
    const char *lang = g->seats[seat].lang;
    const struct game_table t = game_table_in(g, lang);
    if (seatlife_press_after(db, g, seat, &after))
        return -1;
    strbuf_addf(&sql,
                "SELECT c.seats, count(*) FROM press p JOIN press_channels c ON c.id = p.channel_id WHERE"
                " p.game_id = ?1 AND p.grey = 0 AND %s GROUP BY c.id ORDER BY max(p.id) DESC LIMIT 20",
                mine);
    q = db_stmt(db, sql.buf, "IiI", g->id, seat + 1, after);
    if (!q) {
        strbuf_release(&sql);
        return -1;
    }
    while ((rc = db_step(q)) == SQLITE_ROW) {
        struct strbuf names = STRBUF_INIT;
        char count[24];
        snprintf(count, sizeof(count), "%d", sqlite3_column_int(q, 1));
        if (!n++) {
            phrase_add(out, lang, "press.history.channels", NULL);
            strbuf_addch(out, '\n');
        }
        press_names(&t, (unsigned)sqlite3_column_int64(q, 0), seat, -1, &names);
        phrase_add(out, lang, "press.history.channel", "names", names.buf, "n", count, NULL);
        strbuf_addch(out, '\n');
        strbuf_release(&names);
    }
    db_finalize(q);
    if (rc != SQLITE_DONE) {
        strbuf_release(&sql);
        return -1;
    }
    strbuf_reset(&sql);
    strbuf_addf(&sql,
                "SELECT p.id, p.seat, p.step, p.grey, p.body FROM press p WHERE p.game_id = ?1 AND %s ORDER BY p.id"
                " DESC LIMIT %d",
                mine, HISTORY_MESSAGES);
    q = db_stmt(db, sql.buf, "IiI", g->id, seat + 1, after);
    strbuf_release(&sql);
    if (!q)
        return -1;
    n = 0;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        int from = sqlite3_column_int(q, 1) - 1;
        const char *body = (const char *)sqlite3_column_text(q, 4);
        size_t len = strcspn(body, "\n");
        unsigned to;
        struct strbuf line = STRBUF_INIT;
        if (recipients_of(db, sqlite3_column_int64(q, 0), &to)) {
            db_finalize(q);
            return -1;
        }
        struct strbuf whom = STRBUF_INIT, quote = STRBUF_INIT;
        char step[24];
        bool named = vis_press_writer(viewer_seat(seat), sqlite3_column_int(q, 3), from);
        if (!n++) {
            if (out->len)
                strbuf_addch(out, '\n');
            phrase_add(out, lang, "press.history.latest", NULL);
            strbuf_addch(out, '\n');
        }
        snprintf(step, sizeof(step), "%d", sqlite3_column_int(q, 2));
        if (!named)
            /* Grey: the others it reached would name its writer. */
            strbuf_addstr(&whom, catalog_text(lang, press_to_all(g, from, to) ? "press.all-players" : "press.you", 1));
        else
            press_names(&t, to, -1, seat, &whom);
        strbuf_addf(&quote, "%.*s%s", (int)(len > HISTORY_QUOTE ? HISTORY_QUOTE : len), body,
                    len > HISTORY_QUOTE ? "..." : "");
        phrase_add(&line, lang, "press.history.line", "step", step, "from",
                   from == seat ? catalog_text(lang, "press.you", 1)
                   : !named     ? catalog_text(lang, "press.a-player", 1)
                                : g->names[from],
                   "to", whom.buf, "text", quote.buf, NULL);
        strbuf_release(&whom);
        strbuf_release(&quote);
        strbuf_add_flowed(out, line.buf, 4, 72);
        strbuf_release(&line);
    }
    db_finalize(q);
    if (rc != SQLITE_DONE)
        return -1;
    if (!out->len) {
        struct strbuf none = STRBUF_INIT;
        phrase_add(&none, lang, "press.history.none", NULL);
        strbuf_add_flowed(out, none.buf, 0, 72);
        strbuf_release(&none);
    }
    return 0;
}

int press_history(sqlite3 *db, struct game_rec *g, int seat, struct submission *sub)
{
    for (size_t i = 0; i < sub->n; i++) {
        struct line_result *l = &sub->lines[i];
        struct strbuf text = STRBUF_INIT;
        if (l->status != LINE_INFO || !str_iprefix(l->text, "history") || (l->text[7] && l->text[7] != ' '))
            continue;
        if (history_text(db, g, seat, &text)) {
            strbuf_release(&text);
            return -1;
        }
        strbuf_complete_line(&l->body);
        strbuf_addf(&l->body, "\n%s", text.buf);
        strbuf_release(&text);
    }
    return 0;
}

void press_welcome(const struct game_rec *g, int seat, struct strbuf *out)
{
    const char *mode = engine_core_option(g->options, "press");
    const char *other = g->names[seat == 0 && g->nseats > 1 ? 1 : 0];
    const char *lang = g->seats[seat].lang;
    struct strbuf line = STRBUF_INIT;
    phrase_add(&line, lang,
               str_eq(mode, "none")     ? "press.welcome.none"
               : str_eq(mode, "public") ? "press.welcome.public"
               : str_eq(mode, "grey")   ? "press.welcome.grey"
                                        : "press.welcome.named",
               "other", other, NULL);
    if (str_eq(engine_core_option(g->options, "anonymous"), "yes")) {
        strbuf_addch(&line, ' ');
        phrase_add(&line, lang, "press.welcome.anonymous", NULL);
    }
    strbuf_add_flowed(out, line.buf, 0, 72);
    strbuf_release(&line);
}

int press_publish(sqlite3 *db, const struct game_rec *g, cJSON *record)
{
    char *after = setting_get(db, "press_after");
    bool public = after && str_eq(after, "public");
    cJSON *list;
    sqlite3_stmt *q;
    int rc;
    free(after);
    if (!public || !str_eq(game_status_of(g->ops, g->st), "finished"))
        return 0;
    if (!(q = db_stmt(db, "SELECT id, seat, step, grey, body, sent_at FROM press WHERE game_id = ? ORDER BY id", "I",
                      g->id)))
        return -1;
    list = cJSON_AddArrayToObject(record, "press");
    while ((rc = db_step(q)) == SQLITE_ROW) {
        cJSON *m = cJSON_CreateObject(), *to = cJSON_CreateArray();
        unsigned mask;
        int from = sqlite3_column_int(q, 1) - 1;
        if (recipients_of(db, sqlite3_column_int64(q, 0), &mask)) {
            cJSON_Delete(m);
            cJSON_Delete(to);
            db_finalize(q);
            return -1;
        }
        cJSON_AddNumberToObject(m, "step", sqlite3_column_int(q, 2));
        if (!vis_press_writer(viewer_of(VIEWER_PUBLIC), sqlite3_column_int(q, 3), from) || from < 0 ||
            from >= g->nseats) {
            /* Grey: neither its writer nor, as they would name her by
             * elimination, the others it went to; whether it went to all. */
            cJSON_AddNullToObject(m, "from");
            cJSON_AddBoolToObject(m, "to_all", from >= 0 && from < g->nseats && press_to_all(g, from, mask));
        } else {
            cJSON_AddStringToObject(m, "from", g->names[from]);
            for (int s = 0; s < g->nseats; s++)
                if ((mask >> s) & 1)
                    cJSON_AddItemToArray(to, cJSON_CreateString(g->names[s]));
        }
        cJSON_AddItemToObject(m, "to", to);
        cJSON_AddStringToObject(m, "text", (const char *)sqlite3_column_text(q, 4));
        cJSON_AddStringToObject(m, "sent_at", (const char *)sqlite3_column_text(q, 5));
        cJSON_AddItemToArray(list, m);
    }
    db_finalize(q);
    return rc == SQLITE_DONE ? 0 : -1;
}
