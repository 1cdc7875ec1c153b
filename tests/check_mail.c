/* check_mail.c: tests of mail in and out: client-shaped fixtures, envelopes, loop safety, composition, and hostile mail. */
#include "test_support.h"
#include "mail/mailhtml.h"

#include "store/db.h"
#include "mail/envelope.h"
#include "mail/htmltext.h"
#include "judge/inbound.h"
#include "mail/mailout.h"
#include "mail/mailparse.h"
#include "mail/replytext.h"
#include "judge/notify.h"
#include "lib/order_text.h"
#include "lib/paths.h"
#include "store/settings.h"
#include "lib/util.h"

#include <gmime/gmime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two KuniUmi games: 1 (Ann, Bob) and 2 (Cleo, Dan), with their secrets. */
struct world {
    sqlite3 *db;
    char *secret[4];
};

static void world_new(struct world *w)
{
    struct game_rec g;
    memset(w, 0, sizeof(*w));
    w->db = t_db();
    t_new_game(w->db, "kuniumi", 2, 1, NULL, &g);
    game_unload(&g);
    t_new_game(w->db, "kuniumi", 2, 2, NULL, &g);
    game_unload(&g);
    ck_assert_int_eq(db_do(w->db, "UPDATE seats SET name = 'Cleo', email = 'cleo@example.org' WHERE game_id = 2 AND seat = 1",
                           NULL), 0);
    ck_assert_int_eq(db_do(w->db, "UPDATE seats SET name = 'Dan', email = 'dan@example.org' WHERE game_id = 2 AND seat = 2",
                           NULL), 0);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(db_get_text(w->db, &w->secret[i], "SELECT secret FROM seats WHERE game_id = ? AND seat = ?",
                                     "Ii", (int64_t)(i / 2 + 1), i % 2 + 1), 1);
}

static void world_free(struct world *w)
{
    for (int i = 0; i < 4; i++)
        free(w->secret[i]);
    ck_assert_int_eq(t_count(w->db, "SELECT count(*) FROM games"), 2);
    char *ok = NULL;
    ck_assert_int_eq(db_get_text(w->db, &ok, "PRAGMA integrity_check", NULL), 1);
    ck_assert_str_eq(ok, "ok");
    free(ok);
    db_close(w->db);
}

/* Replaces @GAME@ @G2@ @SECRET1@ @SECRET2@ @SECRET3@ @SECRET4@. */
static char *subst(const struct world *w, const char *text)
{
    struct strbuf sb = STRBUF_INIT;
    static const char *const keys[] = { "@GAME@", "@G2@", "@SECRET1@", "@SECRET2@", "@SECRET3@", "@SECRET4@" };
    while (*text) {
        bool done = false;
        for (int k = 0; k < 6 && !done; k++) {
            size_t n = strlen(keys[k]);
            if (strncmp(text, keys[k], n) == 0) {
                strbuf_addstr(&sb, k == 0 ? "1" : k == 1 ? "2" : w->secret[k - 2]);
                text += n;
                done = true;
            }
        }
        if (!done)
            strbuf_addch(&sb, *text++);
    }
    return strbuf_detach(&sb);
}

static char *fixture(const struct world *w, const char *name)
{
    struct strbuf err = STRBUF_INIT;
    char *path = data_path("tests/mail", name), *text = file_read(path, FILE_MAX_DATA, &err), *out;
    ck_assert_msg(text != NULL, "%s", err.buf);
    out = subst(w, text);
    free(text);
    free(path);
    strbuf_release(&err);
    return out;
}

static enum inbound_status deliver_n(struct world *w, const char *msg, size_t len, struct inbound_result *r)
{
    struct rawmsg raw;
    long long limit = setting_get_int(w->db, "max_message_size", 2097152);
    rawmsg_from_memory(msg, len, (size_t)limit, &raw);
    ck_assert_int_eq(db_begin(w->db), 0);
    ck_assert_int_eq(inbound_process(w->db, &raw, "test", r), 0);
    ck_assert_int_eq(db_commit(w->db), 0);
    rawmsg_release(&raw);
    return r->status;
}

static enum inbound_status deliver(struct world *w, const char *msg, struct inbound_result *r)
{
    return deliver_n(w, msg, strlen(msg), r);
}

static long long mails(struct world *w, const char *kind, const char *rcpt)
{
    int64_t n = -1;
    ck_assert_int_eq(db_get_int64(w->db, &n, "SELECT count(*) FROM outbox WHERE kind = ? AND rcpt = ?", "ss", kind,
                                  rcpt), 1);
    return n;
}

static char *last_mail(struct world *w)
{
    char *m = NULL;
    ck_assert_int_eq(db_get_text(w->db, &m, "SELECT mail FROM outbox ORDER BY id DESC LIMIT 1", NULL), 1);
    return m;
}

/* The order lines the engine would read from a parsed mail. */
static void order_lines_of(struct world *w, const char *msg, struct strlist *lines, struct inmail *m)
{
    struct envelope e;
    ck_assert_int_eq(inmail_parse(msg, strlen(msg), NULL, m), 0);
    envelope_read(m, "ngoma@localhost", &e);
    order_lines(e.orders, lines);
    ck_assert_int_eq(e.game, 1);
    envelope_release(&e);
    (void)w;
}

/* ---- client-shaped fixtures ------------------------------------------------------ */

/* The HTML part keeps each line the text did not wrap a line of its own:
 * the seed's lines never run into each other, a flowed paragraph (its
 * last two words sent down together) reads as one. */
START_TEST(html_keeps_lines_the_text_kept)
{
    struct mail_html_in in = { 0 };
    cJSON *blocks;
    char *all;
    in.text = "Seed commitment (SHA-256), published before the deal:\n"
              "  2ca0ea1cded8a23c86dd59804c600ea5e49c26fd8c33a2f0a3da997198bea424\n"
              "Seed drawn by ngoma.\n"
              "The seed is revealed when the game ends: anyone can then check\n"
              "every deal.\n";
    blocks = mail_html_blocks(&in);
    all = cJSON_PrintUnformatted(blocks);
    ck_assert_msg(!strstr(all, "deal: 2ca0") && !strstr(all, "bea424 Seed") && !strstr(all, "ngoma. The seed"),
                  "%s", all);
    ck_assert_msg(strstr(all, "anyone can then check every deal.") != NULL, "%s", all);
    free(all);
    cJSON_Delete(blocks);
    /* A table of commands becomes a list (nothing to scroll sideways);
     * a table of three columns and a drawn board stay as they are. */
    in.text = "Reply to this mail with commands, one per line:\n"
              "    PAUSE                stop the clock and the game\n"
              "    ROLLBACK <round>     back to the start of a round (turn, move);\n"
              "                         ROLLBACK STEP <n> to a step\n"
              "    REPLACE <player> <name>=<address>\n"
              "                         a new player takes a seat\n"
              "\n"
              "Orders:\n"
              "    PLAY 7        play your 7 this round (also: 7, or CARD 7)\n"
              "\n"
              "Place Player      Rating  Games\n"
              "    1 Ann            812      6\n"
              "\n"
              "+----+----+\n"
              "|  a |  b |\n"
              "+----+----+\n";
    blocks = mail_html_blocks(&in);
    all = cJSON_PrintUnformatted(blocks);
    ck_assert_msg(strstr(all, "\"PAUSE: stop the clock and the game\"") &&
                      strstr(all, "\"ROLLBACK <round>: back to the start of a round (turn, move); ROLLBACK STEP <n>"
                                  " to a step\"") &&
                      strstr(all, "\"REPLACE <player> <name>=<address>: a new player takes a seat\"") &&
                      strstr(all, "\"PLAY 7: play your 7 this round (also: 7, or CARD 7)\""),
                  "%s", all);
    ck_assert_msg(strstr(all, "{\"pre\":\"Place Player") && strstr(all, "{\"pre\":\"+----+"), "%s", all);
    free(all);
    cJSON_Delete(blocks);
}
END_TEST

START_TEST(gmail_reply_is_read)
{
    struct world w;
    struct strlist l = STRLIST_INIT;
    struct inmail m;
    struct inbound_result r;
    world_new(&w);
    char *msg = fixture(&w, "gmail.eml");
    order_lines_of(&w, msg, &l, &m);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_str_eq(l.v[0], "PLACE EARTH GOD c3");
    ck_assert_str_eq(l.v[1], "place sea god d4");
    ck_assert(!m.text_from_html);
    inmail_release(&m);
    ck_assert_int_eq(deliver(&w, msg, &r), INBOUND_PROCESSED);
    ck_assert_int_eq(t_count(w.db, "SELECT turn FROM games WHERE id = 1"), 2);
    ck_assert_int_eq(mails(&w, "reply", "Ann@example.org"), 1);
    char *reply = last_mail(&w);
    /* Bob's turn mail was queued after the reply; look at the reply itself. */
    free(reply);
    ck_assert_int_eq(db_get_text(w.db, &reply, "SELECT mail FROM outbox WHERE kind = 'reply'", NULL), 1);
    ck_assert(strstr(reply, "In-Reply-To: <CAJ5xq+gmail-fixture-1@mail.gmail.com>") != NULL);
    ck_assert(strstr(reply, "To: Ann <Ann@example.org>") != NULL);
    free(reply);
    strlist_clear(&l);
    free(msg);
    world_free(&w);
}
END_TEST

/* Each client's reply: the order lines read from it, and one header. */
static const struct client_fixture {
    const char *file;
    const char *lines[4];
    const char *from, *message_id, *subject;
    bool html;
} clients[] = {
    /* Windows-1252 is read as UTF-8; the old message below the line is not read. */
    { "outlook.eml", { "CHOOSE SEA", "Gr\xc3\xbc\xc3\x9f" "e,", "Bob M\xc3\xbcller" }, "bob@example.org", NULL, NULL,
      false },
    { "apple.eml", { "LEGAL", "BOARD" }, NULL, "5E1B2C3D-apple-fixture@example.org", NULL, false },
    /* Under the quote: the answer; the flowed paragraph joined; nothing after "-- ". */
    { "thunderbird.eml", { "LEGAL", "HISTORY", "Thanks for a fine game so far, I look forward to the next move." },
      "bob@example.org", NULL, NULL, false },
    { "base64.eml", { "LEGAL", "Hello world \xe2\x98\xba" }, NULL, NULL,
      "Re: [ngoma @GAME@] KuniUmi: your turn \xe2\x98\xba", false },
    { "htmlonly.eml", { "LEGAL", "BOARD", "<3 & good luck" }, NULL, NULL, NULL, true },
};

START_TEST(client_replies_are_read)
{
    const struct client_fixture *f = &clients[_i];
    struct world w;
    struct strlist l = STRLIST_INIT;
    struct inmail m;
    size_t n = 0;
    world_new(&w);
    char *msg = fixture(&w, f->file);
    order_lines_of(&w, msg, &l, &m);
    while (n < 4 && f->lines[n])
        n++;
    ck_assert_msg(l.n == n, "%s: %zu lines, expected %zu", f->file, l.n, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(l.v[i], f->lines[i]);
    if (f->from)
        ck_assert_str_eq(m.from, f->from);
    if (f->message_id)
        ck_assert_str_eq(m.message_id, f->message_id);
    if (f->subject)
        ck_assert_str_eq(m.subject, f->subject);
    ck_assert(m.text_from_html == f->html);
    inmail_release(&m);
    strlist_clear(&l);
    free(msg);
    world_free(&w);
}
END_TEST

START_TEST(attachments_are_ignored)
{
    struct world w;
    struct strlist l = STRLIST_INIT;
    struct inmail m;
    struct inbound_result r;
    world_new(&w);
    char *msg = fixture(&w, "mixed.eml");
    order_lines_of(&w, msg, &l, &m);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_str_eq(l.v[0], "LEGAL");
    ck_assert_str_eq(l.v[1], "Caf\xc3\xa9");
    inmail_release(&m);
    ck_assert_int_eq(deliver(&w, msg, &r), INBOUND_PROCESSED);
    /* The attachment said RESIGN: the game goes on. */
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM games WHERE status = 'finished'"), 0);
    strlist_clear(&l);
    free(msg);
    world_free(&w);
}
END_TEST

START_TEST(crlf_line_ends_are_read_alike)
{
    struct world w;
    struct strlist l = STRLIST_INIT;
    struct inmail m;
    struct strbuf crlf = STRBUF_INIT;
    world_new(&w);
    char *msg = fixture(&w, "gmail.eml");
    for (const char *p = msg; *p; p++) {
        if (*p == '\n')
            strbuf_addch(&crlf, '\r');
        strbuf_addch(&crlf, *p);
    }
    order_lines_of(&w, crlf.buf, &l, &m);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_str_eq(l.v[0], "PLACE EARTH GOD c3");
    inmail_release(&m);
    strlist_clear(&l);
    strbuf_release(&crlf);
    free(msg);
    world_free(&w);
}
END_TEST

/* ---- pieces -------------------------------------------------------------------- */

START_TEST(html_becomes_text)
{
    char *t = html_to_text("<p>One&nbsp;<b>two</b></p><script>MOVE a1</script><div>three<br>four</div>"
                           "<blockquote>old<blockquote>older</blockquote></blockquote>&#x263a;&#9786;&bogus;");
    ck_assert_str_eq(t, "One two\nthree\nfour\n> old\n> older\n\xe2\x98\xba\xe2\x98\xba&bogus;\n");
    free(t);
}
END_TEST

START_TEST(envelope_lines_and_plus_addresses)
{
    struct inmail m;
    struct envelope e;
    const char *msg = "From: x@y.org\nTo: NGOMA+7-2-AbCd@example.org\nSubject: Re: [ngoma 9] z\n\nGAME 5\n"
                      "SECRET k2k2k2\nPLAYER Bob\nMOVE c5\n";
    ck_assert_int_eq(inmail_parse(msg, strlen(msg), NULL, &m), 0);
    envelope_read(&m, "ngoma@example.org", &e);
    /* The body's GAME wins; the plus address of another game is not used. */
    ck_assert_int_eq(e.game, 5);
    ck_assert_str_eq(e.secret, "k2k2k2");
    ck_assert_str_eq(e.player, "Bob");
    ck_assert_str_eq(e.orders, "MOVE c5\n");
    envelope_release(&e);
    inmail_release(&m);

    /* The same in any language's words (PARTIE, JOGO, MCHEZO): the
     * writer's language is not known yet. */
    static const char *const in_words[] = { "Partie 5\nCode k2k2k2\nJoueuse Bob\nDÉPLACER c5\n",
                                            "JOGO 5\nSEGREDO k2k2k2\nJOGADOR Bob\nMOVER c5\n",
                                            "mchezo 5\nsiri k2k2k2\nmchezaji Bob\nSOGEZA c5\n" };
    for (size_t i = 0; i < sizeof(in_words) / sizeof(in_words[0]); i++) {
        char one[256];
        snprintf(one, sizeof(one), "From: x@y.org\nTo: ngoma@example.org\nSubject: z\n\n%s", in_words[i]);
        ck_assert_int_eq(inmail_parse(one, strlen(one), NULL, &m), 0);
        envelope_read(&m, "ngoma@example.org", &e);
        ck_assert_int_eq(e.game, 5);
        ck_assert_str_eq(e.secret, "k2k2k2");
        ck_assert_str_eq(e.player, "Bob");
        envelope_release(&e);
        inmail_release(&m);
    }
    /* A line that merely begins with such a word is no envelope line. */
    msg = "From: x@y.org\nTo: ngoma@example.org\nSubject: z\n\nPartie de plaisir ce soir ?\nMOVE c5\n";
    ck_assert_int_eq(inmail_parse(msg, strlen(msg), NULL, &m), 0);
    envelope_read(&m, "ngoma@example.org", &e);
    ck_assert_int_eq(e.game, 0);
    envelope_release(&e);
    inmail_release(&m);

    msg = "From: x@y.org\nTo: ngoma+7-2-AbCd@example.org\nSubject: Re: [ngoma 9] z\n\nMOVE c5\n";
    ck_assert_int_eq(inmail_parse(msg, strlen(msg), NULL, &m), 0);
    envelope_read(&m, "ngoma@example.org", &e);
    ck_assert_int_eq(e.game, 7);
    ck_assert_int_eq(e.seat, 2);
    ck_assert_str_eq(e.secret, "abcd");
    envelope_release(&e);
    inmail_release(&m);

    msg = "From: x@y.org\nTo: ngoma@example.org\nSubject: Re: [ngoma 9] z\n\nMOVE c5\n";
    ck_assert_int_eq(inmail_parse(msg, strlen(msg), NULL, &m), 0);
    envelope_read(&m, "ngoma@example.org", &e);
    ck_assert_int_eq(e.game, 9);
    ck_assert_ptr_null(e.secret);
    envelope_release(&e);
    inmail_release(&m);
}
END_TEST

START_TEST(automatic_mail_is_recognised)
{
    static const struct {
        const char *headers;
        bool automatic;
    } cases[] = {
        { "From: a@b.org\nAuto-Submitted: auto-replied\n", true },
        { "From: a@b.org\nAuto-Submitted: auto-generated\n", true },
        { "From: a@b.org\nAuto-Submitted: no\n", false },
        { "From: a@b.org\nAuto-Submitted: notify\n", true },
        { "From: a@b.org\nPrecedence: bulk\n", true },
        { "From: a@b.org\nPrecedence: junk\n", true },
        { "From: a@b.org\nPrecedence: list\n", true },
        { "From: a@b.org\nList-Id: <games.lists.example.org>\n", true },
        { "From: a@b.org\nReturn-Path: <>\n", true },
        { "From: MAILER-DAEMON@mx.example.org\n", true },
        { "From: postmaster@mx.example.org\n", true },
        { "From: ngoma@localhost\n", true },
        { "From: a@b.org\nX-Ngoma: game=1; seat=1; kind=turn\n", true },
        { "Subject: no sender\n", true },
        { "From: a@b.org\nReturn-Path: <a@b.org>\n", false },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct inmail m;
        struct strbuf msg = STRBUF_INIT;
        strbuf_addf(&msg, "%s\nbody\n", cases[i].headers);
        ck_assert_int_eq(inmail_parse(msg.buf, msg.len, NULL, &m), 0);
        ck_assert_msg((envelope_automatic(&m, "ngoma@localhost") != NULL) == cases[i].automatic, "case %zu: %s", i,
                      cases[i].headers);
        inmail_release(&m);
        strbuf_release(&msg);
    }
}
END_TEST

START_TEST(own_text_cuts_quoted_messages)
{
    char *t = mail_own_text("MOVE c5\nOn Mon, Nov 30, 2026 at 9:00 AM ngoma <\nngoma+1@x> wrote:\n> MOVE a1\nLEGAL\n");
    ck_assert_str_eq(t, "MOVE c5\n> MOVE a1\nLEGAL\n");
    free(t);
    t = mail_own_text("PLAY 3\n-----Original Message-----\nPLAY 4\n");
    ck_assert_str_eq(t, "PLAY 3\n");
    free(t);
    t = mail_own_text("PLAY 3\n\nLe lun. 30 nov. 2026, ngoma a \xc3\xa9" "crit :\n> x\n");
    ck_assert_str_eq(t, "PLAY 3\n\n> x\n");
    free(t);
}
END_TEST

START_TEST(outgoing_mail_is_well_formed)
{
    struct world w;
    struct game_rec g;
    struct outmail m = { 0 };
    world_new(&w);
    ck_assert_int_eq(game_load(w.db, 1, &g), 0);
    m.game_id = 1;
    m.seat = 1;
    m.kind = "reply";
    m.to = "ann@example.org";
    m.to_name = "Ann";
    m.subject = "KuniUmi: your orders \xe2\x98\xba";
    m.text = "Line one with a board <pre> & an accent: \xc3\xa9\n  a   b   c\n";
    m.secret = w.secret[0];
    m.in_reply_to = "abc@x.org";
    m.references = "root@x.org abc@x.org";
    ck_assert_int_eq(outbox_enqueue(w.db, &m), 0);
    char *mail = last_mail(&w);
    GMimeStream *stream = g_mime_stream_mem_new_with_buffer(mail, strlen(mail));
    GMimeParser *parser = g_mime_parser_new_with_stream(stream);
    GMimeMessage *msg = g_mime_parser_construct_message(parser, NULL);
    ck_assert_ptr_nonnull(msg);
    ck_assert_str_eq(g_mime_message_get_subject(msg), "[ngoma 1] KuniUmi: your orders \xe2\x98\xba");
    ck_assert_ptr_nonnull(g_mime_object_get_header(GMIME_OBJECT(msg), "Date"));
    ck_assert_ptr_nonnull(g_mime_message_get_message_id(msg));
    ck_assert_str_eq(g_mime_object_get_header(GMIME_OBJECT(msg), "In-Reply-To"), "<abc@x.org>");
    ck_assert(strstr(g_mime_object_get_header(GMIME_OBJECT(msg), "References"), "<root@x.org> <abc@x.org>"));
    ck_assert_str_eq(g_mime_object_get_header(GMIME_OBJECT(msg), "Auto-Submitted"), "auto-replied");
    ck_assert_str_eq(g_mime_object_get_header(GMIME_OBJECT(msg), "MIME-Version"), "1.0");
    ck_assert(strstr(mail, "Reply-To: ngoma <ngoma+1-1-") != NULL);
    GMimeObject *body = g_mime_message_get_mime_part(msg);
    ck_assert(GMIME_IS_MULTIPART(body));
    GMimeObject *plain = g_mime_multipart_get_part(GMIME_MULTIPART(body), 0);
    GMimeObject *html = g_mime_multipart_get_part(GMIME_MULTIPART(body), 1);
    ck_assert(g_mime_content_type_is_type(g_mime_object_get_content_type(plain), "text", "plain"));
    ck_assert_str_eq(g_mime_content_type_get_parameter(g_mime_object_get_content_type(plain), "charset"), "utf-8");
    char *ptext = g_mime_text_part_get_text(GMIME_TEXT_PART(plain)), *htext = g_mime_text_part_get_text(GMIME_TEXT_PART(html));
    ck_assert_str_eq(ptext, m.text);
    ck_assert(strstr(htext, "<pre") && strstr(htext, "board &lt;pre&gt; &amp; an accent"));
    g_free(ptext);
    g_free(htext);
    g_object_unref(msg);
    g_object_unref(parser);
    g_object_unref(stream);
    free(mail);
    game_unload(&g);
    world_free(&w);
}
END_TEST

/* ---- hostile mail ------------------------------------------------------------------ */

#define PLUS1 "To: ngoma+@GAME@-1-@SECRET1@@localhost\n"

static const struct hostile {
    const char *name;
    const char *mail;
    enum inbound_status status;
    const char *kind; /* the mail queued in answer, or NULL */
    const char *rcpt;
} hostile[] = {
    { "garbage", "\x01\x02\xff\xfe binary junk\n\n\x00\x01", INBOUND_IGNORED, NULL, NULL },
    { "no game named", "From: stranger@example.org\nTo: ngoma@localhost\nSubject: hello\n\nMOVE c5\n",
      INBOUND_IGNORED, NULL, NULL },
    { "a game that does not exist", "From: ann@example.org\nTo: ngoma+99-1-xyz@localhost\n\nMOVE c5\n",
      INBOUND_IGNORED, NULL, NULL },
    { "wrong secret: the registered address is told, never the From",
      "From: mallory@evil.example\nTo: ngoma+@GAME@-1-wrongsecret@localhost\n\nRESIGN\n", INBOUND_REFUSED,
      "refused", "Ann@example.org" },
    { "missing secret, known From", "From: bob@example.org\nTo: ngoma@localhost\nSubject: Re: [ngoma @GAME@]\n\nRESIGN\n",
      INBOUND_REFUSED, "refused", "Bob@example.org" },
    { "missing secret, unknown From", "From: eve@example.org\nSubject: Re: [ngoma @GAME@]\n\nRESIGN\n",
      INBOUND_IGNORED, NULL, NULL },
    { "forged From with a valid secret: answered to the secret's owner",
      "From: bob@example.org\n" PLUS1 "\nLEGAL\n", INBOUND_PROCESSED, "help", "Ann@example.org" },
    { "orders for another seat", "From: ann@example.org\n" PLUS1 "\nPLAYER Bob\nCHOOSE LAND\n", INBOUND_REFUSED,
      "refused", "Ann@example.org" },
    { "orders for another game with this game's secret",
      "From: ann@example.org\nTo: ngoma+@G2@-1-@SECRET1@@localhost\n\nPLACE LAND a1\n", INBOUND_REFUSED, "refused",
      "cleo@example.org" },
    { "auto-reply", "From: ann@example.org\n" PLUS1 "Auto-Submitted: auto-replied\n\nI am on holiday.\n",
      INBOUND_IGNORED, NULL, NULL },
    { "bulk", "From: ann@example.org\n" PLUS1 "Precedence: bulk\n\nLEGAL\n", INBOUND_IGNORED, NULL, NULL },
    { "list", "From: ann@example.org\n" PLUS1 "List-Id: <x.example.org>\n\nLEGAL\n", INBOUND_IGNORED, NULL, NULL },
    { "bounce", "From: MAILER-DAEMON@example.org\nReturn-Path: <>\n" PLUS1 "\nDelivery failed\n", INBOUND_IGNORED,
      NULL, NULL },
    { "our own mail come back", "From: ngoma@localhost\n" PLUS1 "X-Ngoma: game=1; seat=1; kind=turn\n\nLEGAL\n",
      INBOUND_IGNORED, NULL, NULL },
    { "SQL in the orders", "From: ann@example.org\n" PLUS1 "\n'; DROP TABLE games; --\nPLACE LAND a1'); DELETE FROM seats;\n",
      INBOUND_PROCESSED, "reply", "Ann@example.org" },
    { "header injection in the subject and Message-ID",
      "From: \"Ann\\r\\nBcc: victim@example.org\" <ann@example.org>\n" PLUS1
      "Subject: =?UTF-8?Q?hi=0D=0ABcc:_victim@example.org?=\nMessage-ID: <a\r\nBcc: victim@example.org>\n\nLEGAL\n",
      INBOUND_PROCESSED, "help", "Ann@example.org" },
    { "truncated MIME", "From: ann@example.org\n" PLUS1
      "MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\nLEGAL\n",
      INBOUND_PROCESSED, "help", "Ann@example.org" },
    { "invalid UTF-8", "From: ann@example.org\n" PLUS1 "Content-Type: text/plain; charset=utf-8\n\nLEGAL\n\xc3\x28 \xff\xfe\n",
      INBOUND_PROCESSED, "reply", "Ann@example.org" },
    { "unknown charset", "From: ann@example.org\n" PLUS1 "Content-Type: text/plain; charset=x-klingon\n\nLEGAL\n",
      INBOUND_PROCESSED, "help", "Ann@example.org" },
    { "no text part at all", "From: ann@example.org\n" PLUS1
      "MIME-Version: 1.0\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\nAAECAwQ=\n",
      INBOUND_PROCESSED, "reply", "Ann@example.org" },
    { "broken base64", "From: ann@example.org\n" PLUS1
      "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n!!!!not base64 at all@@@@\n", INBOUND_PROCESSED,
      "reply", "Ann@example.org" },
    { "empty", "", INBOUND_IGNORED, NULL, NULL },
    { "a host command from a player: refused in the reply", "From: ann@example.org\n" PLUS1 "\nPAUSE\nKICK Bob\n",
      INBOUND_PROCESSED, "reply", "Ann@example.org" },
    { "the host address of a game without a host", "From: x@example.org\nTo: ngoma+@GAME@-host-abc@localhost\n\nPAUSE\n",
      INBOUND_IGNORED, NULL, NULL },
    { "two From addresses: the secret decides", "From: ann@example.org, mallory@evil.example\n" PLUS1 "\nLEGAL\n",
      INBOUND_PROCESSED, "help", "Ann@example.org" },
    { "Reply-To elsewhere: the answer goes to the registered address",
      "From: ann@example.org\nReply-To: victim@example.org\n" PLUS1 "\nLEGAL\n", INBOUND_PROCESSED, "help",
      "Ann@example.org" },
    { "Latin-1 text", "From: ann@example.org\n" PLUS1 "Content-Type: text/plain; charset=iso-8859-1\n\nLEGAL\n\xe9t\xe9\n",
      INBOUND_PROCESSED, "reply", "Ann@example.org" },
    { "orders only below the signature: none taken", "From: ann@example.org\n" PLUS1 "\n-- \nPLACE LAND a1\n",
      INBOUND_PROCESSED, "reply", "Ann@example.org" },
    { "SQL in the subject tag", "From: ann@example.org\nTo: ngoma@localhost\nSubject: [ngoma 1; DROP TABLE games]\n\nLEGAL\n",
      INBOUND_IGNORED, NULL, NULL },
    { "a multipart whose boundary never ends and nests itself", "From: ann@example.org\n" PLUS1
      "Content-Type: multipart/mixed; boundary=a\n\n--a\nContent-Type: multipart/mixed; boundary=a\n\n--a\n--a--\n",
      INBOUND_PROCESSED, "reply", "Ann@example.org" },
    { "a header line of 100,000 characters", NULL, INBOUND_PROCESSED, "help", "Ann@example.org" },
    { "X-Autoreply", "From: ann@example.org\n" PLUS1 "X-Autoreply: yes\n\nI am away.\n", INBOUND_IGNORED, NULL, NULL },
    { "X-Autorespond", "From: ann@example.org\n" PLUS1 "X-Autorespond: 1\n\nI am away.\n", INBOUND_IGNORED, NULL,
      NULL },
    { "X-Auto-Response-Suppress (Exchange)", "From: ann@example.org\n" PLUS1 "X-Auto-Response-Suppress: All\n\nAway.\n",
      INBOUND_IGNORED, NULL, NULL },
    { "Precedence: auto_reply", "From: ann@example.org\n" PLUS1 "Precedence: auto_reply\n\nAway.\n", INBOUND_IGNORED,
      NULL, NULL },
    { "a list without List-Id", "From: ann@example.org\n" PLUS1 "List-Unsubscribe: <mailto:leave@x.example>\n\nLEGAL\n",
      INBOUND_IGNORED, NULL, NULL },
    { "X-Loop", "From: ann@example.org\n" PLUS1 "X-Loop: ann@example.org\n\nLEGAL\n", INBOUND_IGNORED, NULL, NULL },
    { "Out of office (Outlook)", "From: ann@example.org\n" PLUS1 "Subject: Automatic reply: [ngoma @GAME@] Kuniumi\n\n"
      "I am out until Monday.\n", INBOUND_IGNORED, NULL, NULL },
    { "Out of office, plain", "From: ann@example.org\n" PLUS1 "Subject: Out of Office: your turn\n\nAway.\n",
      INBOUND_IGNORED, NULL, NULL },
    { "Abwesenheitsnotiz", "From: ann@example.org\n" PLUS1 "Subject: Abwesenheitsnotiz: Re: [ngoma @GAME@]\n\nWeg.\n",
      INBOUND_IGNORED, NULL, NULL },
    { "R\xc3\xa9ponse automatique", "From: ann@example.org\n" PLUS1
      "Subject: =?UTF-8?Q?R=C3=A9ponse_automatique?= : [ngoma @GAME@]\n\nAbsente.\n", INBOUND_IGNORED, NULL, NULL },
    { "a delivery report", "From: ann@example.org\n" PLUS1
      "MIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status; boundary=r\n\n--r\n"
      "Content-Type: text/plain\n\nLEGAL\n--r--\n", INBOUND_IGNORED, NULL, NULL },
    { "Exim's bounce", "From: ann@example.org\n" PLUS1 "X-Failed-Recipients: ann@example.org\n\nLEGAL\n",
      INBOUND_IGNORED, NULL, NULL },
    { "a subject that only mentions a vacation is a person's", "From: ann@example.org\n" PLUS1
      "Subject: vacation next week\n\nVACATION 7d\n", INBOUND_PROCESSED, "reply", "Ann@example.org" },
};

START_TEST(hostile_mail_has_a_defined_outcome)
{
    const struct hostile *h = &hostile[_i];
    struct world w;
    struct inbound_result r;
    world_new(&w);
    char *msg;
    if (h->mail) {
        msg = subst(&w, h->mail);
    } else {
        /* Built here: a Subject of 100,000 characters, unfolded. */
        struct strbuf b = STRBUF_INIT;
        char *head = subst(&w, "From: ann@example.org\n" PLUS1 "Subject: ");
        strbuf_addstr(&b, head);
        strbuf_addchars(&b, 'x', 100000);
        strbuf_addstr(&b, "\n\nLEGAL\n");
        free(head);
        msg = strbuf_detach(&b);
    }
    long long before = t_count(w.db, "SELECT count(*) FROM outbox");
    size_t len = strlen(msg);
    if (str_eq(h->name, "garbage"))
        len += 3; /* the NUL bytes too */
    ck_assert_msg(deliver_n(&w, msg, len, &r) == h->status, "%s: status %d (%s)", h->name, r.status, r.summary);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM messages"), 1);
    if (h->kind) {
        ck_assert_msg(mails(&w, h->kind, h->rcpt) == 1, "%s: no %s mail to %s", h->name, h->kind, h->rcpt);
        /* Nothing but the registered addresses is ever written to. */
        ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM outbox WHERE rcpt NOT IN (SELECT email FROM seats)"), 0);
        char *mail = last_mail(&w);
        if (str_eq(h->kind, "reply") || str_eq(h->kind, "help") || str_eq(h->kind, "refused")) {
            ck_assert_msg(!strstr(mail, "\nBcc:") && !strstr(mail, "victim"), "%s: injected header", h->name);
            ck_assert(!strstr(mail, "evil.example"));
        }
        free(mail);
    } else {
        ck_assert_msg(t_count(w.db, "SELECT count(*) FROM outbox") == before, "%s: something was answered", h->name);
    }
    /* Replaying the same mail does nothing more. */
    before = t_count(w.db, "SELECT count(*) FROM outbox");
    ck_assert_int_eq(deliver_n(&w, msg, len, &r), INBOUND_DUPLICATE);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM outbox"), before);
    free(msg);
    world_free(&w);
}
END_TEST

START_TEST(replayed_message_id_is_processed_once)
{
    struct world w;
    struct inbound_result r;
    world_new(&w);
    char *a = subst(&w, "From: ann@example.org\n" PLUS1 "Message-ID: <same@example.org>\n\nPLACE EARTH GOD c3\n");
    /* The same mail again, with a relay's trace headers in front: once. */
    char *again = subst(&w, "Received: from relay.example.org by mx.example.org; Tue, 1 Dec 2026 10:00:00 +0000\n"
                            "Delivered-To: ngoma+@GAME@-1-@SECRET1@@localhost\n"
                            "From: ann@example.org\n" PLUS1 "Message-ID: <same@example.org>\n\nPLACE EARTH GOD c3\n");
    ck_assert_int_eq(deliver(&w, a, &r), INBOUND_PROCESSED);
    ck_assert_int_eq(deliver(&w, again, &r), INBOUND_DUPLICATE);
    ck_assert_int_eq(t_count(w.db, "SELECT turn FROM games WHERE id = 1"), 1);
    free(a);
    free(again);
    world_free(&w);
}
END_TEST

START_TEST(a_copied_message_id_cannot_block_a_players_mail)
{
    struct world w;
    struct inbound_result r;
    world_new(&w);
    /* A stranger who saw Ann's Message-ID (a Cc, a list copy) sends first. */
    char *squat = subst(&w, "From: mallory@evil.example\nTo: ngoma@localhost\nSubject: [ngoma @GAME@]\n"
                            "Message-ID: <ann-1@example.org>\n\nhello\n");
    char *real = subst(&w, "From: ann@example.org\n" PLUS1 "Message-ID: <ann-1@example.org>\n\nPLACE EARTH GOD c3\n");
    ck_assert_int_eq(deliver(&w, squat, &r), INBOUND_IGNORED);
    ck_assert_int_eq(deliver(&w, real, &r), INBOUND_PROCESSED);
    ck_assert_int_eq(t_count(w.db, "SELECT turn FROM games WHERE id = 1"), 1);
    ck_assert_int_eq(mails(&w, "reply", "Ann@example.org"), 1);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM messages WHERE message_id = 'ann-1@example.org'"), 2);
    free(squat);
    free(real);
    world_free(&w);
}
END_TEST

/* ---- what one mail may cost, and what it leaves behind ------------------------------------- */

START_TEST(nested_quotes_in_html_cost_their_size_only)
{
    struct strbuf html = STRBUF_INIT;
    /* 100,000 nested blockquotes, and as many unclosed quote divs: the
     * text is no longer than the input (one "> " a line, not one a level). */
    for (int i = 0; i < 100000; i++)
        strbuf_addstr(&html, "<blockquote>x<br>");
    char *t = html_to_text(html.buf);
    ck_assert_uint_le(strlen(t), 2 * html.len);
    ck_assert(strncmp(t, "> x\n> x\n", 8) == 0);
    free(t);
    strbuf_reset(&html);
    for (int i = 0; i < 100000; i++)
        strbuf_addstr(&html, "<div class=\"gmail_quote\">x<br>");
    t = html_to_text(html.buf);
    ck_assert_uint_le(strlen(t), html.len);
    free(t);
    /* A text of ampersands: each is text, read once. */
    strbuf_reset(&html);
    strbuf_addchars(&html, '&', 200000);
    strbuf_addch(&html, ';');
    t = html_to_text(html.buf);
    ck_assert_uint_eq(strlen(t), 200002);
    free(t);
    strbuf_release(&html);
}
END_TEST

START_TEST(the_journal_keeps_bounded_headers_and_no_junk_bodies)
{
    struct world w;
    struct inbound_result r;
    struct strbuf msg = STRBUF_INIT;
    world_new(&w);
    /* A stranger's junk: a 10 KB subject, 200 KB of headers, a body. */
    strbuf_addstr(&msg, "From: spam@evil.example\nTo: ngoma@localhost\nSubject: ");
    strbuf_addchars(&msg, 's', 10000);
    strbuf_addstr(&msg, "\n");
    for (int i = 0; i < 10000; i++)
        strbuf_addf(&msg, "X-Junk-%d: 0123456789\n", i);
    strbuf_addstr(&msg, "\nBuy now.\n");
    ck_assert_int_eq(deliver_n(&w, msg.buf, msg.len, &r), INBOUND_IGNORED);
    ck_assert_int_eq(t_count(w.db, "SELECT length(subject) FROM messages"), 200);
    ck_assert_int_le(t_count(w.db, "SELECT length(headers) FROM messages"), 32768);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM messages WHERE raw IS NULL"), 1);
    /* With ignored_raw_kept 2, the newest two ignored mails keep a copy. */
    struct strbuf err = STRBUF_INIT;
    ck_assert_int_eq(setting_set(w.db, "ignored_raw_kept", "2", &err), 0);
    for (int i = 0; i < 4; i++) {
        char junk[160];
        snprintf(junk, sizeof(junk), "From: spam@evil.example\nTo: ngoma@localhost\nMessage-ID: <junk%d@evil.example>\n\n"
                                     "junk %d\n", i, i);
        ck_assert_int_eq(deliver(&w, junk, &r), INBOUND_IGNORED);
    }
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM messages WHERE raw IS NOT NULL"), 2);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM messages WHERE raw IS NOT NULL AND message_id LIKE 'junk_@%'"
                                   " AND message_id >= 'junk2'"), 2);
    /* A player's mail is kept whole. */
    char *mine = subst(&w, "From: ann@example.org\n" PLUS1 "Message-ID: <kept@example.org>\n\nPLACE EARTH GOD c3\n");
    ck_assert_int_eq(deliver(&w, mine, &r), INBOUND_PROCESSED);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM messages WHERE message_id = 'kept@example.org' AND raw IS NOT NULL"),
                     1);
    free(mine);
    strbuf_release(&err);
    strbuf_release(&msg);
    world_free(&w);
}
END_TEST

START_TEST(a_reply_over_max_reply_bytes_is_one_short_note)
{
    struct world w;
    struct inbound_result r;
    struct strbuf msg = STRBUF_INIT, err = STRBUF_INIT;
    world_new(&w);
    ck_assert_int_eq(setting_set(w.db, "max_reply_bytes", "8192", &err), 0);
    char *head = subst(&w, "From: ann@example.org\n" PLUS1 "\n");
    strbuf_addstr(&msg, head);
    strbuf_addstr(&msg, "PLACE EARTH GOD c3\n");
    for (int i = 0; i < 10; i++)
        strbuf_addstr(&msg, "HELP\n");
    ck_assert_int_eq(deliver(&w, msg.buf, &r), INBOUND_REFUSED);
    ck_assert_msg(strstr(r.summary, "max_reply_bytes") != NULL, "%s", r.summary);
    /* Nothing of it was done: the order is not taken either. */
    ck_assert_int_eq(t_count(w.db, "SELECT turn FROM games WHERE id = 1"), 0);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM orders"), 0);
    ck_assert_int_eq(mails(&w, "limit", "Ann@example.org"), 1);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM outbox WHERE kind IN ('reply', 'help')"), 0);
    char *mail = last_mail(&w);
    /* It says what the limit is, in the player's words, not the setting's. */
    ck_assert(strstr(mail, "would be") != NULL && strstr(mail, "bytes long") != NULL);
    ck_assert(strstr(mail, "max_reply_bytes") == NULL);
    ck_assert_int_lt((long long)strlen(mail), 8192);
    free(mail);
    free(head);
    strbuf_release(&msg);
    strbuf_release(&err);
    world_free(&w);
}
END_TEST

START_TEST(an_unknown_responder_cannot_loop)
{
    struct world w;
    struct inbound_result r;
    world_new(&w);
    /* Something answers every mail with Ann's plus address but a wrong
     * secret, and marks itself as nothing at all: one refusal a step. */
    for (int i = 0; i < 20; i++) {
        char msg[256];
        snprintf(msg, sizeof(msg), "From: ann@example.org\nTo: ngoma+1-1-wrongsecret@localhost\n"
                                   "Message-ID: <loop%d@example.org>\n\nThank you for your message %d.\n", i, i);
        ck_assert_int_eq(deliver(&w, msg, &r), INBOUND_REFUSED);
    }
    ck_assert_int_eq(mails(&w, "refused", "Ann@example.org"), 1);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM messages WHERE reason LIKE '%not told%'"), 19);
    /* Another step: one more at most; the hourly limit holds across steps. */
    for (int step = 0; step < 6; step++) {
        char move[64], msg[256];
        struct game_rec g;
        ck_assert_int_eq(game_load(w.db, 1, &g), 0);
        ck_assert_int_eq(db_begin(w.db), 0);
        ck_assert_int_eq(db_do(w.db, "UPDATE games SET turn = turn + 1, step_started_at = ? WHERE id = 1", "s",
                               (snprintf(move, sizeof(move), "2026-12-01T1%d:00:00Z", step), move)), 0);
        ck_assert_int_eq(db_commit(w.db), 0);
        game_unload(&g);
        snprintf(msg, sizeof(msg), "From: ann@example.org\nTo: ngoma+1-1-wrongsecret@localhost\n"
                                   "Message-ID: <step%d@example.org>\n\nThanks.\n", step);
        ck_assert_int_eq(deliver(&w, msg, &r), INBOUND_REFUSED);
    }
    ck_assert_int_eq(mails(&w, "refused", "Ann@example.org"), 4); /* refusals_per_hour */
    world_free(&w);
}
END_TEST

START_TEST(answers_that_only_inform_are_rationed)
{
    struct world w;
    struct inbound_result r;
    world_new(&w);
    for (int i = 0; i < 16; i++) {
        char msg[256];
        char *m = subst(&w, "From: ann@example.org\n" PLUS1);
        snprintf(msg, sizeof(msg), "%sMessage-ID: <ask%d@example.org>\n\nLEGAL\n", m, i);
        free(m);
        deliver(&w, msg, &r);
    }
    ck_assert_int_eq(mails(&w, "help", "Ann@example.org"), 12);
    ck_assert_int_eq(mails(&w, "limit", "Ann@example.org"), 4);
    /* An order is answered as always. */
    char *order = subst(&w, "From: ann@example.org\n" PLUS1 "Message-ID: <order@example.org>\n\nPLACE EARTH GOD c3\n");
    ck_assert_int_eq(deliver(&w, order, &r), INBOUND_PROCESSED);
    ck_assert_int_eq(mails(&w, "reply", "Ann@example.org"), 1);
    free(order);
    world_free(&w);
}
END_TEST

START_TEST(one_mail_to_two_game_addresses_reaches_each)
{
    struct world w;
    struct inbound_result r;
    world_new(&w);
    /* One mail with both games in To; the MTA delivers a copy for each
     * address, saying so in Delivered-To. */
    char *body = subst(&w, "To: ngoma+@GAME@-1-@SECRET1@@localhost, ngoma+@G2@-1-@SECRET3@@localhost\n"
                           "From: ann@example.org\nMessage-ID: <both@example.org>\n\nPLACE EARTH GOD c3\n");
    char *one = subst(&w, "Delivered-To: ngoma+@GAME@-1-@SECRET1@@localhost\n");
    char *two = subst(&w, "Delivered-To: ngoma+@G2@-1-@SECRET3@@localhost\n");
    struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
    strbuf_addf(&a, "%s%s", one, body);
    strbuf_addf(&b, "%s%s", two, body);
    ck_assert_int_eq(deliver(&w, a.buf, &r), INBOUND_PROCESSED);
    ck_assert_int_eq(r.game, 1);
    ck_assert_int_eq(deliver(&w, b.buf, &r), INBOUND_PROCESSED);
    ck_assert_int_eq(r.game, 2);
    ck_assert_int_eq(deliver(&w, a.buf, &r), INBOUND_DUPLICATE);
    ck_assert_int_eq(t_count(w.db, "SELECT sum(turn) FROM games"), 2);
    free(body);
    free(one);
    free(two);
    strbuf_release(&a);
    strbuf_release(&b);
    world_free(&w);
}
END_TEST

START_TEST(a_ten_megabyte_mail_is_refused_with_a_reply)
{
    struct world w;
    struct inbound_result r;
    struct strbuf msg = STRBUF_INIT;
    world_new(&w);
    char *head = subst(&w, "From: ann@example.org\n" PLUS1 "Subject: big\n\nPLACE EARTH GOD c3\n");
    strbuf_addstr(&msg, head);
    for (int i = 0; i < 10 * 1024 * 16; i++)
        strbuf_addstr(&msg, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n");
    ck_assert_uint_gt(msg.len, 10u << 20);
    ck_assert_int_eq(deliver_n(&w, msg.buf, msg.len, &r), INBOUND_REFUSED);
    ck_assert(strstr(r.summary, "over the limit") != NULL);
    ck_assert_int_eq(mails(&w, "refused", "Ann@example.org"), 1);
    /* Journalled by digest and headers, the body not kept; no order taken. */
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM messages WHERE raw IS NULL AND size > 10000000"), 1);
    ck_assert_int_eq(t_count(w.db, "SELECT turn FROM games WHERE id = 1"), 0);
    free(head);
    strbuf_release(&msg);
    world_free(&w);
}
END_TEST

START_TEST(a_thousand_commands_in_one_mail)
{
    struct world w;
    struct inbound_result r;
    struct strbuf msg = STRBUF_INIT;
    world_new(&w);
    char *head = subst(&w, "From: ann@example.org\n" PLUS1 "\n");
    strbuf_addstr(&msg, head);
    for (int i = 0; i < 1000; i++)
        strbuf_addstr(&msg, i % 2 ? "BOARD\n" : "MOVE z9\n");
    /* Over max_order_lines (40): one short answer, nothing taken. */
    ck_assert_int_eq(deliver(&w, msg.buf, &r), INBOUND_REFUSED);
    ck_assert_msg(strstr(r.summary, "max_order_lines") != NULL, "%s", r.summary);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM orders"), 0);
    ck_assert_int_eq(mails(&w, "limit", "Ann@example.org"), 1);
    {
        char *mail = last_mail(&w), *flat;
        struct shown sh;
        shown_of(mail, &sh);
        flat = t_flat(sh.text);
        ck_assert_msg(strstr(flat, "your mail held 1000 lines of orders, and at most 40 are taken from one mail.") !=
                          NULL,
                      "%.400s", flat);
        free(flat);
        shown_release(&sh);
        free(mail);
    }
    /* Forty lines are taken, each answered. */
    strbuf_reset(&msg);
    free(head);
    head = subst(&w, "From: ann@example.org\n" PLUS1 "Message-ID: <forty@example.org>\n\n");
    strbuf_addstr(&msg, head);
    for (int i = 0; i < 40; i++)
        strbuf_addstr(&msg, i % 2 ? "BOARD\n" : "MOVE z9\n");
    ck_assert_int_eq(deliver(&w, msg.buf, &r), INBOUND_PROCESSED);
    ck_assert(strstr(r.summary, "40 line(s)") != NULL);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM orders WHERE status = 'rejected'"), 20);
    free(head);
    strbuf_release(&msg);
    world_free(&w);
}
END_TEST

START_TEST(deep_nesting_and_long_lines_are_bounded)
{
    struct world w;
    struct inbound_result r;
    struct strbuf msg = STRBUF_INIT;
    world_new(&w);
    char *head = subst(&w, "From: ann@example.org\n" PLUS1 "MIME-Version: 1.0\n");
    strbuf_addstr(&msg, head);
    for (int i = 0; i < 200; i++)
        strbuf_addf(&msg, "Content-Type: multipart/mixed; boundary=\"b%d\"\n\n--b%d\n", i, i);
    strbuf_addstr(&msg, "Content-Type: text/plain\n\n");
    strbuf_addchars(&msg, 'x', 1 << 20);
    strbuf_addstr(&msg, "\n");
    ck_assert_int_eq(deliver(&w, msg.buf, &r), INBOUND_PROCESSED);
    free(head);
    strbuf_release(&msg);
    world_free(&w);
}
END_TEST

START_TEST(a_mail_without_message_id_is_known_by_its_digest)
{
    struct world w;
    struct inbound_result r;
    world_new(&w);
    char *a = subst(&w, "From: ann@example.org\n" PLUS1 "\nPLACE EARTH GOD c3\n");
    ck_assert_int_eq(deliver(&w, a, &r), INBOUND_PROCESSED);
    ck_assert_int_eq(deliver(&w, a, &r), INBOUND_DUPLICATE);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM messages WHERE message_id LIKE 'sha256.%'"), 1);
    free(a);
    world_free(&w);
}
END_TEST

START_TEST(what_a_player_reads_says_what_happened)
{
    struct world w;
    struct inbound_result r;
    world_new(&w);
    /* Ann's secret from another address: the answer (to Ann) says so. */
    char *a = subst(&w, "From: mallory@evil.example\n" PLUS1 "Message-ID: <o1@x.org>\n\nPLACE EARTH GOD c3\n");
    ck_assert_int_eq(deliver(&w, a, &r), INBOUND_PROCESSED);
    char *mail = NULL;
    ck_assert_int_eq(db_get_text(w.db, &mail, "SELECT mail FROM outbox WHERE kind = 'reply' AND rcpt = 'Ann@example.org'",
                                 NULL), 1);
    ck_assert_msg(strstr(mail, "It came from mallory@evil.example, not from your") != NULL, "%s", mail);
    free(mail);
    free(a);
    /* A refusal quotes what it refused. */
    a = subst(&w, "From: bob@example.org\nTo: ngoma+@GAME@-2-wrongsecret@localhost\nMessage-ID: <o2@x.org>\n\nCHOOSE LAND\n");
    ck_assert_int_eq(deliver(&w, a, &r), INBOUND_REFUSED);
    mail = last_mail(&w);
    ck_assert_msg(strstr(mail, "It said:") != NULL && strstr(mail, "> CHOOSE LAND") != NULL, "%s", mail);
    free(mail);
    free(a);
    world_free(&w);
}
END_TEST

/* A turn mail opens with what she must do: the orders since in at most
 * three lines, her orders, then the board; all since, in full, after. */
START_TEST(a_turn_mail_opens_with_what_to_do)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    char *text;
    const char *board, *full, *orders, *nl;
    int lines = 0;
    t_new_game(db, "kalimambo", 3, 3, NULL, &g);
    for (int seat = 0; seat < 3; seat++) {
        static const char *const play[] = { "PLAY 3", "PLAY 5", "PLAY 7" };
        struct strbuf to = STRBUF_INIT;
        strbuf_addf(&to, "ngoma+1-%d-%s@localhost", seat + 1, g.seats[seat].secret);
        t_mail_to(db, g.seats[seat].email, to.buf, "Re: [ngoma 1] Kalimambo", play[seat], NULL);
        strbuf_release(&to);
    }
    /* Cleo's answer, her order resolving the round, shows the board on
     * its own (the headline's words once ran into it). */
    text = t_last_text(db, "Cleo@example.org", "reply");
    ck_assert_msg(strstr(text, "Game 1: Kalimambo") && !strstr(text, "takenGame"), "%s", text);
    free(text);
    text = t_last_text(db, "Ann@example.org", "turn");
    ck_assert_msg(!strncmp(text, "Your turn in Kalimambo game 1, Ann: round 2 of 12. Since your last mail: Ann PLAY"
                                 " 3, Bob PLAY 5, Cleo PLAY 7.", 100) &&
                      strstr(text, "round 2 of 12. Since") != NULL,
                  "%s", text);
    board = strstr(text, "Game 1: Kalimambo");
    orders = strstr(text, "Your orders now:");
    full = strstr(text, "Since your last mail, in full:");
    ck_assert_msg(board && orders && full && orders < board && board < full, "%s", text);
    free(text);
    /* The recap, as written: at most three lines. */
    ck_assert_int_eq(db_get_text(db, &text, "SELECT mail FROM outbox WHERE rcpt = 'Ann@example.org' AND kind = 'turn'"
                                            " ORDER BY id DESC LIMIT 1", NULL),
                     1);
    nl = strstr(text, "Since your last mail:");
    ck_assert_ptr_nonnull(nl);
    for (const char *p = nl; *p && !(p[0] == '\n' && (p[1] == '\n' || p[1] == '\r')); p++)
        lines += *p == '\n';
    ck_assert_int_le(lines, 2);
    free(text);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(a_replaced_secret_card_says_what_it_replaces)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission s;
    t_new_game(db, "kalimambo", 3, 1, NULL, &g);
    t_submit(db, &g, 0, "PLAY 9", &s);
    ck_assert(strstr(s.lines[0].body.buf, "Your order PLAY 9 is recorded") != NULL);
    submission_release(&s);
    t_submit(db, &g, 0, "PLAY 5", &s);
    ck_assert_msg(strstr(s.lines[0].body.buf, "Your order PLAY 5 replaces PLAY 9") != NULL, "%s", s.lines[0].body.buf);
    submission_release(&s);
    t_submit(db, &g, 0, "PLAY 5", &s);
    ck_assert(strstr(s.lines[0].body.buf, "stands, as before") != NULL);
    submission_release(&s);
    game_unload(&g);
    db_close(db);
}
END_TEST

START_TEST(a_whole_turn_by_mail_tells_every_seat)
{
    struct world w;
    struct inbound_result r;
    world_new(&w);
    char *a = subst(&w, "From: ann@example.org\n" PLUS1 "Message-ID: <t1@example.org>\n\nPLACE EARTH GOD c3\n");
    ck_assert_int_eq(deliver(&w, a, &r), INBOUND_PROCESSED);
    ck_assert_int_eq(mails(&w, "reply", "Ann@example.org"), 1);
    /* Bob has nothing to do while Ann sets up: no mail. */
    ck_assert_int_eq(mails(&w, "turn", "Bob@example.org"), 0);
    free(a);
    a = subst(&w, "From: ann@example.org\n" PLUS1 "Message-ID: <t2@example.org>\n\nPLACE SEA GOD d4\n"
                  "PLACE LAND c4\nPLACE LAND a1\nPLACE SEA b1\nPLACE SEA c1\n");
    ck_assert_int_eq(deliver(&w, a, &r), INBOUND_PROCESSED);
    ck_assert_int_eq(mails(&w, "reply", "Ann@example.org"), 2);
    ck_assert_int_eq(mails(&w, "turn", "Bob@example.org"), 1);
    ck_assert_int_eq(t_count(w.db, "SELECT count(*) FROM orders WHERE message_id IS NOT NULL"), 6);
    char *bob = NULL;
    ck_assert_int_eq(db_get_text(w.db, &bob, "SELECT mail FROM outbox WHERE kind = 'turn'", NULL), 1);
    /* His one mail tells the whole setup, from Ann's first mail on. */
    ck_assert_msg(strstr(bob, "Ann places the Earth God on c3") != NULL && strstr(bob, "Ann places the Sea God") &&
                      strstr(bob, "Your orders now:\n  CHOOSE LAND\n  CHOOSE SEA\n") != NULL,
                  "%s", bob);
    /* Bob's mail carries Bob's secret, never Ann's. */
    ck_assert(strstr(bob, w.secret[1]) != NULL);
    ck_assert(strstr(bob, w.secret[0]) == NULL);
    free(bob);
    free(a);
    world_free(&w);
}
END_TEST

Suite *mail_suite(void)
{
    Suite *s = suite_create("mail");
    TCase *tc = tcase_create("mail");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gmail_reply_is_read);
    tcase_add_loop_test(tc, client_replies_are_read, 0, ARRAY_SIZE(clients));
    tcase_add_test(tc, attachments_are_ignored);
    tcase_add_test(tc, crlf_line_ends_are_read_alike);
    tcase_add_test(tc, html_becomes_text);
    tcase_add_test(tc, envelope_lines_and_plus_addresses);
    tcase_add_test(tc, automatic_mail_is_recognised);
    tcase_add_test(tc, own_text_cuts_quoted_messages);
    tcase_add_test(tc, outgoing_mail_is_well_formed);
    tcase_add_loop_test(tc, hostile_mail_has_a_defined_outcome, 0, ARRAY_SIZE(hostile));
    tcase_add_test(tc, replayed_message_id_is_processed_once);
    tcase_add_test(tc, a_copied_message_id_cannot_block_a_players_mail);
    tcase_add_test(tc, nested_quotes_in_html_cost_their_size_only);
    tcase_add_test(tc, the_journal_keeps_bounded_headers_and_no_junk_bodies);
    tcase_add_test(tc, a_reply_over_max_reply_bytes_is_one_short_note);
    tcase_add_test(tc, an_unknown_responder_cannot_loop);
    tcase_add_test(tc, answers_that_only_inform_are_rationed);
    tcase_add_test(tc, one_mail_to_two_game_addresses_reaches_each);
    tcase_add_test(tc, a_ten_megabyte_mail_is_refused_with_a_reply);
    tcase_add_test(tc, a_thousand_commands_in_one_mail);
    tcase_add_test(tc, deep_nesting_and_long_lines_are_bounded);
    tcase_add_test(tc, a_mail_without_message_id_is_known_by_its_digest);
    tcase_add_test(tc, a_whole_turn_by_mail_tells_every_seat);
    tcase_add_test(tc, what_a_player_reads_says_what_happened);
    tcase_add_test(tc, a_replaced_secret_card_says_what_it_replaces);
    tcase_add_test(tc, html_keeps_lines_the_text_kept);
    tcase_add_test(tc, a_turn_mail_opens_with_what_to_do);
    suite_add_tcase(s, tc);
    return s;
}
