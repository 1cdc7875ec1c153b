/* mailout.c: composing a well-formed outgoing mail (GMime, in the mail module) and queuing it in the outbox table. */
#include "mail/mailout.h"
#include "mail/mailhtml.h"
#include "mail/mime.h"
#include "store/db.h"
#include "store/languages.h"
#include "store/settings.h"
#include "lib/strbuf.h"
#include "lib/template.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits the from setting into its local part and domain. */
static int from_parts(sqlite3 *db, char **local, char **domain)
{
    char *from = setting_get(db, "from"), *at;
    if (!from)
        return -1;
    at = strchr(from, '@');
    if (!at) {
        *local = from;
        *domain = xstrdup("localhost");
        return 0;
    }
    *local = xstrndup(from, (size_t)(at - from));
    *domain = xstrdup(at + 1);
    free(from);
    return 0;
}

char *mail_reply_address(sqlite3 *db, int64_t game_id, int seat, const char *secret)
{
    return mail_channel_address(db, game_id, seat, secret, 0);
}

char *mail_channel_address(sqlite3 *db, int64_t game_id, int seat, const char *secret, int64_t channel)
{
    char *local, *domain;
    struct strbuf sb = STRBUF_INIT;
    if (from_parts(db, &local, &domain))
        return NULL;
    if (seat > 0 && secret && channel > 0)
        strbuf_addf(&sb, "%s+%lld-%d-%s-p%lld@%s", local, (long long)game_id, seat, secret, (long long)channel,
                    domain);
    else if (seat > 0 && secret && channel < 0)
        strbuf_addf(&sb, "%s+%lld-%d-%s-g%lld@%s", local, (long long)game_id, seat, secret, -(long long)channel,
                    domain);
    else if (seat > 0 && secret)
        strbuf_addf(&sb, "%s+%lld-%d-%s@%s", local, (long long)game_id, seat, secret, domain);
    else if (seat < 0 && secret)
        strbuf_addf(&sb, "%s+%lld-host-%s@%s", local, (long long)game_id, secret, domain);
    else if (game_id)
        strbuf_addf(&sb, "%s+%lld@%s", local, (long long)game_id, domain);
    else
        strbuf_addf(&sb, "%s@%s", local, domain);
    free(local);
    free(domain);
    return strbuf_detach(&sb);
}

char *mail_thread_root(sqlite3 *db, int64_t game_id, int seat, bool fresh)
{
    char *local, *domain, *last = NULL;
    struct strbuf sb = STRBUF_INIT;
    long long welcomes = 0;
    sqlite3_stmt *q;
    int rc;
    if (from_parts(db, &local, &domain))
        return NULL;
    q = db_stmt(db,
                "SELECT message_id, (SELECT count(*) FROM outbox WHERE game_id = ?1 AND seat = ?2 AND kind = 'welcome')"
                " FROM outbox WHERE game_id = ?1 AND seat = ?2 AND kind = 'welcome' ORDER BY id DESC LIMIT 1",
                "Ii", game_id, seat);
    if (!q || (rc = db_step(q)) < 0) {
        db_finalize(q);
        free(local);
        free(domain);
        return NULL;
    }
    if (rc == SQLITE_ROW) {
        last = xstrdup((const char *)sqlite3_column_text(q, 0));
        welcomes = sqlite3_column_int64(q, 1);
    }
    db_finalize(q);
    if (last && !fresh)
        strbuf_addstr(&sb, last);
    else if (welcomes)
        strbuf_addf(&sb, "ngoma.%lld.%d.welcome.%lld@%s", (long long)game_id, seat, welcomes + 1, domain);
    else
        strbuf_addf(&sb, "ngoma.%lld.%d.welcome@%s", (long long)game_id, seat, domain);
    free(last);
    free(local);
    free(domain);
    return strbuf_detach(&sb);
}

int mail_template(const char *name, const void *data, const char *lang, char **subject, char **body)
{
    struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
    const char *p;
    if (template_render_file(name, data, lang, &out, &err)) {
        error("%s", err.buf);
        strbuf_release(&out);
        strbuf_release(&err);
        return -1;
    }
    strbuf_release(&err);
    if (strncmp(out.buf, "Subject:", 8) != 0) {
        *subject = xstrdup("ngoma");
        *body = strbuf_detach(&out);
        return 0;
    }
    p = strchr(out.buf, '\n');
    *subject = xstrndup(out.buf + 8, p ? (size_t)(p - out.buf - 8) : strlen(out.buf + 8));
    {
        struct strbuf s = STRBUF_INIT;
        strbuf_addstr(&s, *subject);
        strbuf_trim(&s);
        free(*subject);
        *subject = strbuf_detach(&s);
    }
    p = p ? p + 1 : out.buf + out.len;
    while (*p == '\n')
        p++;
    *body = xstrdup(p);
    strbuf_release(&out);
    return 0;
}

int outbox_render(sqlite3 *db, struct outmail *m, const char *name, const void *data)
{
    char *subject = NULL, *body = NULL, *lang = language_of(db, m->to);
    int rc = mail_template(name, data, lang, &subject, &body);
    if (!rc) {
        m->subject = subject;
        m->text = body;
        m->lang = lang; /* its HTML part in the same, not looked up again */
        rc = outbox_enqueue(db, m);
        m->subject = m->text = m->lang = NULL;
    }
    free(subject);
    free(body);
    free(lang);
    return rc;
}

/* The HTML part (mailhtml.c); should its template fail, the text in <pre>,
 * so that a host's broken template never stops the mail. */
static char *render_html(const struct mail_html_in *in)
{
    struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
    char *html = mail_html(in, &err);
    if (html) {
        strbuf_release(&err);
        return html;
    }
    error("%s", err.buf);
    strbuf_addstr(&out, "<html><body><pre>");
    for (const char *p = in->text; *p; p++) {
        if (*p == '<')
            strbuf_addstr(&out, "&lt;");
        else if (*p == '>')
            strbuf_addstr(&out, "&gt;");
        else if (*p == '&')
            strbuf_addstr(&out, "&amp;");
        else
            strbuf_addch(&out, *p);
    }
    strbuf_addstr(&out, "</pre></body></html>\n");
    strbuf_release(&err);
    return strbuf_detach(&out);
}

int outbox_enqueue(sqlite3 *db, const struct outmail *m)
{
    struct strbuf err = STRBUF_INIT;
    const struct mime_api *api = mime_api(&err);
    char *from = setting_get(db, "from"), *from_name = setting_get(db, "from_name"), *html = NULL, *text_out = NULL;
    char *reply_to = NULL, *root = NULL, *local = NULL, *domain = NULL, *lobby_addr = NULL, now[32], rnd[24];
    struct strbuf subject = STRBUF_INIT, id = STRBUF_INIT, refs = STRBUF_INIT, tag = STRBUF_INIT, cid = STRBUF_INIT;
    struct strbuf irt = STRBUF_INIT;
    struct mime_mail mm = { 0 };
    cJSON *picture = NULL;
    char *picture_text = NULL, *lang = NULL;
    bool shown;
    unsigned char r[8];
    int rc = -1;

    if (!api) {
        error("%s", err.buf);
        goto out;
    }
    if (!from || !from_name || from_parts(db, &local, &domain))
        goto out;
    os_random(r, sizeof(r));
    for (int i = 0; i < 8; i++)
        snprintf(rnd + 2 * i, 3, "%02x", r[i]);
    if (m->game_id && !m->lobby)
        strbuf_addf(&subject, "[ngoma %lld] %s", (long long)m->game_id, m->subject);
    else
        strbuf_addf(&subject, "[ngoma] %s", m->subject);
    if (m->game_id && m->seat && !(root = mail_thread_root(db, m->game_id, m->seat, str_eq(m->kind, "welcome"))))
        goto out;
    /* The welcome mail is the root of its seat's thread. */
    if (root && str_eq(m->kind, "welcome"))
        strbuf_addstr(&id, root);
    else
        strbuf_addf(&id, "ngoma.%lld.%d.%s.%s@%s", (long long)m->game_id, m->seat, m->kind, rnd, domain);

    mm.from_name = from_name;
    mm.from = from;
    mm.to_name = m->to_name;
    mm.to = m->to;
    if (m->game_id && !m->lobby)
        mm.reply_to = reply_to = mail_channel_address(db, m->game_id, m->host ? -1 : m->seat, m->secret, m->channel);
    mm.subject = subject.buf;
    mm.date = clock_now();
    mm.message_id = id.buf;
    /* Thread every mail of a game to a seat under its welcome mail. */
    if (m->in_reply_to) {
        strbuf_addf(&irt, "<%s>", m->in_reply_to);
        mm.in_reply_to = irt.buf;
    }
    if (root && !str_eq(root, id.buf))
        strbuf_addf(&refs, "<%s>", root);
    if (m->references && *m->references) {
        char *copy = xstrdup(m->references), *save = NULL;
        for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
            if (!root || !str_eq(t, root))
                strbuf_addf(&refs, "%s<%s>", refs.len ? " " : "", t);
        free(copy);
    }
    if (m->in_reply_to && !(m->references && strstr(m->references, m->in_reply_to)))
        strbuf_addf(&refs, "%s<%s>", refs.len ? " " : "", m->in_reply_to);
    mm.references = refs.buf;
    mm.auto_submitted = m->in_reply_to ? "auto-replied" : "auto-generated";
    strbuf_addf(&tag, "game=%lld; seat=%d; kind=%s", (long long)m->game_id, m->seat, m->kind);
    mm.x_ngoma = tag.buf;
    /* A picture only where the text shows the board: a mail that shows
     * none (a welcome before her turn) carries no part nothing shows. */
    shown = m->picture_view && m->board && *m->board && strstr(m->text, m->board);
    if (shown) {
        /* The picture's part, drawn when the mail goes, is named now. */
        strbuf_addf(&cid, "board.%s@%s", rnd, domain);
        picture = cJSON_CreateObject();
        cJSON_AddStringToObject(picture, "cid", cid.buf);
        cJSON_AddItemToObject(picture, "view", cJSON_Duplicate(m->picture_view, 1));
        if (m->picture_prev)
            cJSON_AddItemToObject(picture, "prev", cJSON_Duplicate(m->picture_prev, 1));
        picture_text = cJSON_PrintUnformatted(picture);
    }
    {
        struct mail_html_in in = { 0 };
        struct strbuf re = STRBUF_INIT;
        strbuf_addf(&re, "Re: %s", subject.buf);
        in.text = m->text;
        in.board = m->board;
        in.cid = shown ? cid.buf : NULL;
        in.alt = m->alt;
        memcpy(in.links, m->links, sizeof(in.links));
        in.commands = m->commands;
        in.more = m->more;
        in.more_to = m->more_to;
        in.subject = re.buf;
        in.lang = m->lang ? m->lang : (lang = language_of(db, m->to));
        /* Links mail back where a reply goes: the seat's (or host's)
         * secret address, or the lobby. */
        if (reply_to)
            in.reply_to = reply_to;
        else if (m->lobby)
            in.reply_to = lobby_addr = mail_reply_address(db, 0, 0, NULL);
        html = render_html(&in);
        strbuf_release(&re);
        free(lang);
    }
    mm.text = m->text;
    mm.html = html;
    text_out = api->compose(&mm);

    utc_now(now);
    rc = db_do(db,
               "INSERT INTO outbox(created_at, game_id, seat, kind, rcpt, message_id, subject, mail, status,"
               " next_attempt_at, in_reply_to, step, told_from, picture) VALUES (?, nullif(?, 0), nullif(?, 0), ?, ?,"
               " ?, ?, ?, 'queued', ?, nullif(?, 0), CASE WHEN ? THEN ? END, nullif(?, 0), ?)",
               "sIisssss" "sIiiis", now, m->game_id, m->seat, m->kind, m->to, id.buf, subject.buf, text_out, now,
               m->answers, m->game_id != 0, m->step, m->told_from, picture_text);
out:
    free(html);
    free(lobby_addr);
    free(text_out);
    free(from);
    free(from_name);
    free(reply_to);
    free(root);
    free(local);
    free(domain);
    strbuf_release(&err);
    strbuf_release(&subject);
    strbuf_release(&id);
    strbuf_release(&refs);
    strbuf_release(&tag);
    strbuf_release(&cid);
    strbuf_release(&irt);
    cJSON_Delete(picture);
    cJSON_free(picture_text);
    return rc;
}

char *mail_attach_picture(const char *mail, const char *cid, const void *png, size_t n)
{
    struct strbuf err = STRBUF_INIT;
    const struct mime_api *api = mime_api(&err);
    char *out = NULL;
    if (api)
        out = api->attach_picture(mail, cid, png, n);
    else
        error("%s", err.buf);
    strbuf_release(&err);
    return out;
}
