/* check_lmtp.c: tests of the LMTP state machine: every command's reply, pipelined and byte by byte alike, dots, line ends, and every bound. */
#include "test_support.h"

#include "mail/lmtp.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* Feeds text whole (or a byte at a time), as far as the machine takes it. */
static size_t feed(struct lmtp *l, const char *text, bool bytewise)
{
    size_t n = strlen(text), done = 0;
    if (!bytewise)
        return lmtp_feed(l, text, n);
    while (done < n) {
        size_t took = lmtp_feed(l, text + done, 1);
        if (!took)
            break;
        done += took;
    }
    return done;
}

static const char *const transaction = "LHLO client.example\r\nMAIL FROM:<ann@example.org> SIZE=120 BODY=8BITMIME\r\n"
                                       "RCPT TO:<ngoma+1-1-abc@games.example>\r\nRCPT TO:<ngoma+2-1-def@games.example>\r\n"
                                       "DATA\r\n"
                                       "Subject: hi\r\n\r\n..leading dot\r\nPLACE c3\r\nbare\rcr\r\n.\r\n"
                                       "QUIT\r\n";

START_TEST(a_pipelined_transaction_is_read_whole_or_a_byte_at_a_time)
{
    for (int bytewise = 0; bytewise < 2; bytewise++) {
        struct lmtp l;
        size_t took;
        static const int codes[] = { 250, 451 };
        static const char *const texts[] = { "2.0.0 taken", "4.3.0 try again" };
        lmtp_init(&l, NULL, "games.example");
        took = feed(&l, transaction, bytewise);
        ck_assert_int_eq(l.state, LMTP_DELIVER);
        ck_assert_str_eq(l.data.buf, "Subject: hi\n\n.leading dot\nPLACE c3\nbare\rcr\n");
        ck_assert_uint_eq(l.total, strlen(l.data.buf));
        ck_assert_str_eq(l.from, "ann@example.org");
        ck_assert_uint_eq(l.rcpts.n, 2);
        ck_assert_str_eq(l.rcpts.v[1], "ngoma+2-1-def@games.example");
        ck_assert(!lmtp_oversize(&l));
        ck_assert_str_eq(l.out.buf, "220 games.example LMTP ngoma ready\r\n"
                                    "250-games.example\r\n250-PIPELINING\r\n250-ENHANCEDSTATUSCODES\r\n"
                                    "250-SIZE 2097152\r\n250 8BITMIME\r\n"
                                    "250 2.1.0 sender ok\r\n250 2.1.5 recipient ok\r\n250 2.1.5 recipient ok\r\n"
                                    "354 go ahead, end with a line of a single dot\r\n");
        /* The machine stops at the mail's end: the rest waits. */
        ck_assert_str_eq(transaction + took, "QUIT\r\n");
        strbuf_reset(&l.out);
        lmtp_deliver_done(&l, codes, texts);
        ck_assert_str_eq(l.out.buf, "250 2.0.0 taken\r\n451 4.3.0 try again\r\n");
        ck_assert_int_eq(l.state, LMTP_READY);
        ck_assert_uint_eq(l.rcpts.n, 0);
        feed(&l, transaction + took, bytewise);
        ck_assert_int_eq(l.state, LMTP_CLOSED);
        ck_assert(strstr(l.out.buf, "221 2.0.0 games.example closing\r\n"));
        lmtp_release(&l);
    }
}
END_TEST

/* The reply to one line in a fresh session after LHLO (or before it). */
static char *answer(const char *lines, bool lhlo)
{
    struct lmtp l;
    char *out;
    lmtp_init(&l, NULL, "h");
    if (lhlo)
        feed(&l, "LHLO c\r\n", false);
    strbuf_reset(&l.out);
    feed(&l, lines, false);
    out = xstrdup(l.out.buf);
    lmtp_release(&l);
    return out;
}

static void says(const char *lines, bool lhlo, const char *expect)
{
    char *got = answer(lines, lhlo);
    ck_assert_msg(strstr(got, expect), "%s gave %s, not %s", lines, got, expect);
    free(got);
}

START_TEST(each_command_out_of_place_gets_its_reply)
{
    says("MAIL FROM:<a@x>\r\n", false, "503 5.5.1 LHLO first");
    says("HELO c\r\n", false, "500 5.5.1 this is LMTP: say LHLO");
    says("EHLO c\r\n", true, "500 5.5.1");
    says("LHLO\r\n", false, "501 5.5.4");
    says("RCPT TO:<a@x>\r\n", true, "503 5.5.1 MAIL first");
    says("DATA\r\n", true, "503 5.5.1 MAIL and RCPT first");
    says("MAIL FROM:<a@x>\r\nDATA\r\n", true, "503 5.5.1 no valid recipients");
    says("MAIL FROM:<a@x>\r\nMAIL FROM:<a@x>\r\n", true, "503 5.5.1 a mail is under way");
    says("MAIL FROM:a@x\r\n", true, "501 5.5.4 write MAIL FROM:<address>");
    says("MAIL FROM:<a b@x>\r\n", true, "501 5.5.4");
    says("MAIL FROM:<>\r\n", true, "250 2.1.0");
    says("MAIL FROM:<a@x> SIZE=abc\r\n", true, "501 5.5.4 SIZE takes a number");
    says("MAIL FROM:<a@x> SIZE=2097153\r\n", true, "552 5.3.4");
    says("MAIL FROM:<a@x> SMTPUTF8\r\n", true, "555 5.5.4");
    says("MAIL FROM:<a@x> BODY=BINARYMIME\r\n", true, "501 5.5.4 BODY");
    says("MAIL FROM:<a@x>\r\nRCPT TO:<nobody>\r\n", true, "501 5.1.3");
    says("MAIL FROM:<a@x>\r\nRCPT TO:<a@x> NOTIFY=NEVER\r\n", true, "555 5.5.4");
    says("BDAT 10 LAST\r\n", true, "502 5.5.1");
    says("NOOP\r\n", true, "250 2.0.0 ok");
    says("VRFY a\r\n", true, "252 2.5.0");
    says("RSET\r\n", true, "250 2.0.0 reset");
    says("WHAT\r\n", true, "500 5.5.2 unknown command");
    says("mail from:<a@x>\r\nrcpt to:<b@y>\r\ndata\r\n", true, "354 go ahead");
    /* A bare LF ends a line as well as CRLF. */
    says("NOOP\n", true, "250 2.0.0 ok");
}
END_TEST

/* DATA ends only at CRLF.CRLF: a dot alone after or before a bare LF is
 * text (no command is smuggled in behind it), whole or a byte at a time. */
START_TEST(only_crlf_dot_crlf_ends_a_mail)
{
    static const char *const mail = "LHLO c\r\nMAIL FROM:<a@x>\r\nRCPT TO:<b@y>\r\nDATA\r\n"
                                     "one\n.\nMAIL FROM:<evil@x>\r\n"
                                     "two\r\n.\nRCPT TO:<c@z>\r\nthree\n.\r\nfour\r\n.\r\n";
    for (int bytewise = 0; bytewise < 2; bytewise++) {
        struct lmtp l;
        lmtp_init(&l, NULL, "h");
        feed(&l, mail, bytewise);
        ck_assert_int_eq(l.state, LMTP_DELIVER);
        ck_assert_str_eq(l.data.buf, "one\n.\nMAIL FROM:<evil@x>\ntwo\n.\nRCPT TO:<c@z>\nthree\n.\nfour\n");
        ck_assert_str_eq(l.from, "a@x");
        ck_assert_uint_eq(l.rcpts.n, 1);
        lmtp_release(&l);
    }
}
END_TEST

START_TEST(every_bound_holds)
{
    struct lmtp_limits lim = { 1000, 64, 3 };
    struct lmtp l;
    struct strbuf big = STRBUF_INIT;
    lmtp_init(&l, &lim, "h");
    /* A line past the limit: its rest is dropped and it is refused whole. */
    strbuf_addstr(&big, "NOOP ");
    strbuf_addchars(&big, 'x', 100000);
    strbuf_addstr(&big, "\r\nLHLO c\r\n");
    ck_assert_uint_eq(lmtp_feed(&l, big.buf, big.len), big.len);
    ck_assert(strstr(l.out.buf, "500 5.5.2 the line is too long\r\n"));
    ck_assert(strstr(l.out.buf, "250-SIZE 1000\r\n"));
    ck_assert_uint_le(l.line.alloc, 1024);
    /* Recipients past the limit get 452, the first ones stay. */
    strbuf_reset(&l.out);
    feed(&l, "MAIL FROM:<a@x>\r\nRCPT TO:<1@x>\r\nRCPT TO:<2@x>\r\nRCPT TO:<3@x>\r\nRCPT TO:<4@x>\r\n", false);
    ck_assert(strstr(l.out.buf, "452 4.5.3"));
    ck_assert_uint_eq(l.rcpts.n, 3);
    /* A mail past the limit: counted to its end, only the limit kept. */
    feed(&l, "DATA\r\n", false);
    strbuf_reset(&big);
    for (int i = 0; i < 20000; i++)
        strbuf_addstr(&big, "a line of the mail that goes on\r\n");
    strbuf_addstr(&big, ".\r\nQUIT\r\n");
    ck_assert_uint_eq(lmtp_feed(&l, big.buf, big.len), big.len - strlen("QUIT\r\n"));
    ck_assert_int_eq(l.state, LMTP_DELIVER);
    ck_assert(lmtp_oversize(&l));
    ck_assert_uint_eq(l.data.len, 1000);
    ck_assert_uint_eq(l.total, 20000 * strlen("a line of the mail that goes on\n"));
    {
        static const int codes[] = { 552, 552, 552 };
        static const char *const texts[] = { "5.3.4 too big", "5.3.4 too big", "5.3.4 too big" };
        strbuf_reset(&l.out);
        lmtp_deliver_done(&l, codes, texts);
        ck_assert_str_eq(l.out.buf, "552 5.3.4 too big\r\n552 5.3.4 too big\r\n552 5.3.4 too big\r\n");
    }
    lmtp_shutdown(&l, "shutting down");
    ck_assert(strstr(l.out.buf, "421 4.3.2 h shutting down\r\n"));
    ck_assert_int_eq(l.state, LMTP_CLOSED);
    ck_assert_uint_eq(lmtp_feed(&l, "NOOP\r\n", 6), 0);
    strbuf_release(&big);
    lmtp_release(&l);
}
END_TEST

Suite *lmtp_suite(void)
{
    Suite *s = suite_create("lmtp");
    TCase *tc = tcase_create("lmtp");
    tcase_add_test(tc, a_pipelined_transaction_is_read_whole_or_a_byte_at_a_time);
    tcase_add_test(tc, each_command_out_of_place_gets_its_reply);
    tcase_add_test(tc, every_bound_holds);
    tcase_add_test(tc, only_crlf_dot_crlf_ends_a_mail);
    suite_add_tcase(s, tc);
    return s;
}
