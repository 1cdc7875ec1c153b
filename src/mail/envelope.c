/* envelope.c: what an incoming mail says about itself: which game and seat, which secret, and whether a machine sent it. */
#include "mail/envelope.h"
#include "mail/replytext.h"
#include "lib/lexicon.h"
#include "lib/order_text.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

static bool parse_id(const char *s, size_t len, int64_t *out)
{
    char buf[24];
    long long v;
    if (len == 0 || len >= sizeof(buf))
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (!parse_int(buf, 1, INT64_MAX, &v))
        return false;
    *out = v;
    return true;
}

/* LOCAL+G-S-SECRET@domain or LOCAL+G@domain. */
static void read_plus(const char *addr, const char *local, struct envelope *e)
{
    size_t n = strlen(local);
    const char *tag, *at = strchr(addr, '@'), *d1, *d2, *d3;
    int64_t seat;

    if (!at || strncasecmp(addr, local, n) != 0 || addr[n] != '+')
        return;
    tag = addr + n + 1;
    d1 = memchr(tag, '-', (size_t)(at - tag));
    if (!d1) {
        parse_id(tag, (size_t)(at - tag), &e->game);
        return;
    }
    d2 = memchr(d1 + 1, '-', (size_t)(at - d1 - 1));
    if (!d2 || !parse_id(tag, (size_t)(d1 - tag), &e->game))
        return;
    if (parse_id(d1 + 1, (size_t)(d2 - d1 - 1), &seat) && seat <= 64)
        e->seat = (int)seat;
    /* LOCAL+G-S-SECRET-pC@domain: a reply to press channel C;
     * LOCAL+G-S-SECRET-gM@domain: a reply to grey message M (channel -M). */
    d3 = memchr(d2 + 1, '-', (size_t)(at - d2 - 1));
    if (d3 && d3 + 2 < at && (d3[1] == 'p' || d3[1] == 'P'))
        parse_id(d3 + 2, (size_t)(at - d3 - 2), &e->channel);
    else if (d3 && d3 + 2 < at && (d3[1] == 'g' || d3[1] == 'G') &&
             parse_id(d3 + 2, (size_t)(at - d3 - 2), &e->channel))
        e->channel = -e->channel;
    if (!d3)
        d3 = at;
    if (d3 > d2 + 1 && !e->secret)
        e->secret = str_lower(xstrndup(d2 + 1, (size_t)(d3 - d2 - 1)));
}

static void read_subject(const char *subject, struct envelope *e)
{
    const char *p = str_casestr(subject, "[ngoma ");
    if (!p)
        return;
    p += 7;
    size_t len = strspn(p, "0123456789");
    if (p[len] == ']' || p[len] == ' ')
        parse_id(p, len, &e->game);
}

/* Whether v (vl bytes) is a secret as ngoma makes them: one word of
 * letters and digits. */
static bool secret_shaped(const char *v, size_t vl)
{
    if (vl < 6 || vl > 32)
        return false;
    for (size_t i = 0; i < vl; i++)
        if (!isalnum((unsigned char)v[i]))
            return false;
    return true;
}

/* Whether v is a player's name as a PLAYER line gives it: at most 24
 * characters in at most three words, none of them a word of prose. */
static bool name_shaped(const char *v, size_t vl)
{
    int words = 1;
    if (!vl || vl > 24 || !isalnum((unsigned char)v[0]))
        return false;
    for (size_t i = 0; i < vl; i++)
        words += v[i] == ' ';
    return words <= 3;
}

/* An envelope line is "GAME 12", "SECRET abc", "PLAYER Ann" (any case),
 * the value in its shape: a line that merely begins with such a word
 * ("player of the round's lowest card...") is not one. */
static bool envelope_line(const char *line, size_t len, struct envelope *e, int64_t *game)
{
    static const char *const keys[] = { "game", "secret", "player" };
    for (int k = 0; k < 3; k++) {
        size_t kl = strlen(keys[k]);
        if (len > kl + 1 && strncasecmp(line, keys[k], kl) == 0 && (line[kl] == ' ' || line[kl] == ':')) {
            const char *v = line + kl + 1;
            size_t vl = len - kl - 1;
            while (vl && (*v == ' ' || *v == ':' || *v == '#')) {
                v++;
                vl--;
            }
            while (vl && isspace((unsigned char)v[vl - 1]))
                vl--;
            if (!vl)
                return false;
            if (k == 0) {
                if (!parse_id(v, vl, game))
                    return false;
            } else if (k == 1) {
                if (!secret_shaped(v, vl))
                    return false;
                free(e->secret);
                e->secret = str_lower(xstrndup(v, vl));
            } else {
                if (!name_shaped(v, vl))
                    return false;
                free(e->player);
                e->player = xstrndup(v, vl);
            }
            return true;
        }
    }
    return false;
}

/* The same in any language's words: PARTIE 12, JOGO 12, MCHEZO 12 (the
 * catalogues' word.envelope.*); the sender's language is not known yet. */
static bool envelope_line_any(const char *line, size_t len, struct envelope *e, int64_t *game)
{
    char *english;
    bool found;
    if (envelope_line(line, len, e, game))
        return true;
    /* An envelope line is short: GAME, SECRET or PLAYER and a value. */
    if (len >= 160 || !(english = lexicon_english_any("envelope", line, len, NULL)))
        return false;
    found = envelope_line(english, strlen(english), e, game);
    free(english);
    return found;
}

void envelope_read(const struct inmail *m, const char *from_setting, struct envelope *e)
{
    char *own = mail_own_text(m->text), *local;
    const char *at = strchr(from_setting, '@');
    struct strbuf orders = STRBUF_INIT;
    int64_t body_game = 0;
    bool above = true;
    const char *p;

    memset(e, 0, sizeof(*e));
    /* Body lines first: they are what the sender wrote on purpose. GAME,
     * SECRET and PLAYER count only above the orders (a greeting may come
     * before them), never from the quoted or copied text below. */
    for (p = own; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        const char *line = p;
        size_t l = len;
        while (l && isspace((unsigned char)*line)) {
            line++;
            l--;
        }
        while (l && isspace((unsigned char)line[l - 1]))
            l--;
        if (!(above && envelope_line_any(line, l, e, &body_game))) {
            strbuf_add(&orders, p, len);
            strbuf_addch(&orders, '\n');
            if (above && l && *line != '>') {
                char *text = xstrndup(line, l);
                above &= order_line_is_greeting(text, NULL);
                free(text);
            }
        }
        p += len + (nl ? 1 : 0);
    }
    e->orders = strbuf_detach(&orders);
    free(own);

    local = at ? xstrndup(from_setting, (size_t)(at - from_setting)) : xstrdup(from_setting);
    /* Where the MTA delivered this copy wins over To and Cc: one mail to
     * two game addresses arrives twice, each copy for its own game. */
    for (int list = 0; list < 2 && !e->address; list++) {
        const struct strlist *l = list == 0 ? &m->delivered : &m->rcpts;
        for (size_t i = 0; i < l->n; i++) {
            struct envelope plus = { 0 };
            read_plus(l->v[i], local, &plus);
            if (!plus.game)
                continue;
            if (!body_game || plus.game == body_game) {
                e->game = plus.game;
                if (!e->seat)
                    e->seat = plus.seat;
                if (!e->secret && plus.secret)
                    e->secret = xstrdup(plus.secret);
                e->channel = plus.channel;
            }
            e->address = xstrdup(l->v[i]);
            free(plus.secret);
            break;
        }
    }
    free(local);
    if (body_game)
        e->game = body_game;
    if (!e->game) {
        read_subject(m->subject, e);
        e->by_subject = e->game != 0;
    }
}

void envelope_release(struct envelope *e)
{
    free(e->address);
    free(e->secret);
    free(e->player);
    free(e->orders);
    memset(e, 0, sizeof(*e));
}

/* The subjects the common clients give automatic replies (Outlook and
 * Exchange, Gmail, Apple Mail, Thunderbird, webmails), in the languages
 * players write in; matched at the start, after any "Re:". */
static bool vacation_subject(const char *subject)
{
    static const char *const starts[] = {
        "out of office", "out of the office", "automatic reply", "auto reply", "autoreply", "auto-reply",
        "auto:", "autosvar", "automatisch antwoord", "automatische antwort", "abwesenheitsnotiz",
        "r\xc3\xa9ponse automatique", "reponse automatique", "respuesta autom\xc3\xa1tica", "respuesta automatica",
        "risposta automatica", "fuori sede", "resposta autom\xc3\xa1tica", "poza biurem", "automaattinen vastaus",
        "automatisk svar", "odpowied\xc5\xba automatyczna",
    };
    const char *s = subject ? subject : "";
    while (*s == ' ')
        s++;
    while (str_iprefix(s, "re:") || str_iprefix(s, "aw:") || str_iprefix(s, "sv:")) {
        s += 3;
        while (*s == ' ')
            s++;
    }
    for (size_t i = 0; i < ARRAY_SIZE(starts); i++)
        if (str_iprefix(s, starts[i]))
            return true;
    return false;
}

const char *envelope_automatic(const struct inmail *m, const char *from_setting)
{
    if (m->x_ngoma)
        return "it is ngoma's own mail come back";
    if (m->auto_submitted && strncasecmp(m->auto_submitted, "no", 2) != 0)
        return "it is automatic (Auto-Submitted)";
    if (m->auto_submitted && m->auto_submitted[2] && m->auto_submitted[2] != ' ' && m->auto_submitted[2] != ';')
        return "it is automatic (Auto-Submitted)";
    if (m->precedence && (str_ieq(m->precedence, "bulk") || str_ieq(m->precedence, "junk") ||
                          str_ieq(m->precedence, "list") || str_ieq(m->precedence, "auto_reply")))
        return "it is bulk or list mail (Precedence)";
    if (m->list_id)
        return "it came through a mailing list (List-Id)";
    if (m->auto_header)
        return "it is automatic (an autoresponder's or a list's header)";
    if (m->content_type && str_casestr(m->content_type, "multipart/report"))
        return "it is a delivery or read report (multipart/report)";
    if (vacation_subject(m->subject))
        return "it is an automatic reply (its subject says so)";
    if (m->return_path && !*m->return_path)
        return "it has the null sender (a bounce)";
    if (!m->from)
        return "it has no From address";
    if (str_iprefix(m->from, "mailer-daemon@") || str_iprefix(m->from, "postmaster@") ||
        str_iprefix(m->from, "mailer_daemon@"))
        return "it comes from a mail system (MAILER-DAEMON)";
    if (str_ieq(m->from, from_setting))
        return "it comes from ngoma's own address";
    return NULL;
}
