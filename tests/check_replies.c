/* check_replies.c: replies as people write them, from the common clients and in the languages players write (tests/mail/replies): each yields exactly its orders, its greetings are not refused, and nothing of the mail it answers counts. */
#include "test_support.h"

#include "judge/inbound.h"
#include "lib/paths.h"
#include "lib/util.h"
#include "store/db.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fixtures' names, sorted. */
static void fixtures(struct strlist *out)
{
    char *dir = data_path("tests/mail", "replies");
    DIR *d = opendir(dir);
    struct dirent *de;
    ck_assert_msg(d != NULL, "no %s", dir);
    while ((de = readdir(d)))
        if (strstr(de->d_name, ".eml"))
            strlist_push(out, de->d_name);
    closedir(d);
    strlist_sort(out);
    free(dir);
}

/* The value of a header line of the fixture ("" when absent). */
static char *header_of(const char *text, const char *name)
{
    const char *p = strstr(text, name);
    if (!p)
        return xstrdup("");
    p += strlen(name);
    while (*p == ' ')
        p++;
    return xstrndup(p, strcspn(p, "\n"));
}

static char *replaced(const char *text, const char *game, const char *secret)
{
    struct strbuf sb = STRBUF_INIT;
    for (const char *p = text; *p;) {
        if (strncmp(p, "@GAME@", 6) == 0) {
            strbuf_addstr(&sb, game);
            p += 6;
        } else if (strncmp(p, "@SECRET@", 8) == 0) {
            strbuf_addstr(&sb, secret);
            p += 8;
        } else {
            strbuf_addch(&sb, *p++);
        }
    }
    return strbuf_detach(&sb);
}

START_TEST(every_reply_yields_its_orders_and_nothing_of_the_mail_it_answers)
{
    struct strlist names = STRLIST_INIT;
    fixtures(&names);
    ck_assert_msg(names.n >= 12, "only %zu replies in tests/mail/replies", names.n);
    for (size_t i = 0; i < names.n; i++) {
        sqlite3 *db = t_db();
        struct game_rec g;
        struct strbuf err = STRBUF_INIT;
        struct rawmsg raw;
        struct inbound_result r;
        char *path = data_path("tests/mail/replies", names.v[i]), *text, *mail, *want, *got = NULL, game[24];
        t_new_game(db, "kalimambo", 3, 7, NULL, &g);
        snprintf(game, sizeof(game), "%lld", (long long)g.id);
        ck_assert_ptr_nonnull(text = file_read(path, FILE_MAX_DATA, &err));
        mail = replaced(text, game, g.seats[0].secret);
        want = header_of(mail, "X-Expect-Orders:");
        rawmsg_from_memory(mail, strlen(mail), 1 << 20, &raw);
        ck_assert_int_eq(db_begin(db), 0);
        ck_assert_int_eq(inbound_process(db, &raw, "test", &r), 0);
        ck_assert_int_eq(db_commit(db), 0);
        ck_assert_msg(r.status == INBOUND_PROCESSED, "%s: %s", names.v[i], r.summary);
        /* Exactly the orders it means, from Ann's seat, and no refusal:
         * neither her greeting nor the quoted mail's lines. */
        ck_assert_int_eq(db_get_text(db, &got,
                                     "SELECT coalesce(group_concat(canonical, ' | '), '') FROM (SELECT canonical FROM"
                                     " orders WHERE status IN ('pending', 'accepted') ORDER BY id)",
                                     NULL),
                         1);
        ck_assert_msg(str_eq(got, want), "%s: took \"%s\", not \"%s\"", names.v[i], got, want);
        ck_assert_msg(t_count(db, "SELECT count(*) FROM orders WHERE status = 'rejected'") == 0, "%s: %s refused",
                      names.v[i], r.summary);
        ck_assert_msg(t_count(db, "SELECT count(*) FROM orders WHERE seat <> 1") == 0, "%s: another seat's order",
                      names.v[i]);
        /* Her answer says first what was taken. */
        {
            char *first = NULL, line[120];
            snprintf(line, sizeof(line), "Ann: %s taken", want);
            ck_assert_int_eq(db_get_text(db, &first, "SELECT mail FROM outbox WHERE kind = 'reply'", NULL), 1);
            ck_assert_msg(strstr(first, line) != NULL, "%s: the answer does not begin with \"%s\"", names.v[i], line);
            free(first);
        }
        free(got);
        free(want);
        free(mail);
        free(text);
        free(path);
        rawmsg_release(&raw);
        strbuf_release(&err);
        game_unload(&g);
        db_close(db);
    }
    strlist_clear(&names);
}
END_TEST

static char *address_of(const struct game_rec *g, int seat)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "ngoma+%lld-%d-%s@localhost", (long long)g->id, seat + 1, g->seats[seat].secret);
    return strbuf_detach(&sb);
}

/* What people mean: PLAY 4 with the 4 gone offers the nearest numbers; a
 * yes under our "Did you mean PLAY 11?" gives it, and a yes under words
 * we never offered (a quoted press message) gives nothing; "Draw
 * please" is offered DRAW; a greeting from a seat the game waits for is
 * answered, naming the order left under her signature. */
START_TEST(a_reply_is_read_as_meant)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    char *ann, *bob, *text;
    t_new_game(db, "kalimambo", 2, 41, NULL, &g);
    ann = address_of(&g, 0);
    bob = address_of(&g, 1);
    t_mail_to(db, "Ann@example.org", ann, "Re: [ngoma 1] Kalimambo", "PLAY 4\n", NULL);
    t_mail_to(db, "Bob@example.org", bob, "Re: [ngoma 1] Kalimambo", "PLAY 7\n", NULL);
    game_unload(&g);
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    ck_assert_int_eq(g.turn, 1);
    t_mail_to(db, "Ann@example.org", ann, "Re: [ngoma 1] Kalimambo", "play 4\n", NULL);
    text = t_last_text(db, "Ann@example.org", "reply");
    ck_assert_msg(strstr(text, "Did you mean PLAY 3 or PLAY 5?"), "%s", text);
    free(text);
    /* One offered: yes gives it. */
    t_mail_to(db, "Ann@example.org", ann, "Re: [ngoma 1] Kalimambo", "PLAY 44\n", NULL);
    text = t_last_text(db, "Ann@example.org", "reply");
    ck_assert_msg(strstr(text, "Did you mean PLAY 11? Reply yes"), "%s", text);
    free(text);
    /* A yes under a quote we never wrote gives nothing. */
    t_mail_to(db, "Ann@example.org", ann, "Re: [ngoma 1] Kalimambo",
              "yes\n\n> Did you mean PLAY 2? Reply yes to give it\n", NULL);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM orders WHERE seat = 1 AND status = 'pending'"), 0);
    t_mail_to(db, "Ann@example.org", ann, "Re: [ngoma 1] Kalimambo", "PLAY 44\n", NULL);
    t_mail_to(db, "Ann@example.org", ann, "Re: [ngoma 1] Kalimambo",
              "Yes!\n\nOn Tue, ngoma wrote:\n> > PLAY 44\n> Refused: no such card. Did you mean PLAY\n> 11? Reply yes to"
              " give it, or write it as you mean it\n",
              NULL);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM orders WHERE seat = 1 AND status = 'pending' AND"
                                      " canonical = 'PLAY 11'"),
                     1);
    /* "Draw please". */
    t_mail_to(db, "Bob@example.org", bob, "Re: [ngoma 1] Kalimambo", "Draw please\n", NULL);
    text = t_last_text(db, "Bob@example.org", "reply");
    ck_assert_msg(strstr(text, "Did you mean DRAW?"), "%s", text);
    free(text);
    /* Bob, whom the game waits for, writes only a greeting, his order
     * under his signature: he is answered. */
    {
        long long before = t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Bob@example.org'");
        t_mail_to(db, "Bob@example.org", bob, "Re: [ngoma 1] Kalimambo", "Cheers, Bob\n-- \nPLAY 2\n", NULL);
        ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Bob@example.org'"), before + 1);
        text = t_last_text(db, "Bob@example.org", "reply");
        ck_assert_msg(strstr(text, "The game waits for your order") && strstr(text, "Your mail has PLAY 2 where"),
                      "%s", text);
        free(text);
    }
    /* Ann, whom it does not wait for, is not answered for her thanks. */
    {
        long long before = t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Ann@example.org'");
        t_mail_to(db, "Ann@example.org", ann, "Re: [ngoma 1] Kalimambo", "Thanks!\n", NULL);
        ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'Ann@example.org'"), before);
    }
    free(ann);
    free(bob);
    game_unload(&g);
    db_close(db);
}
END_TEST

Suite *replies_suite(void)
{
    Suite *s = suite_create("replies");
    TCase *tc = tcase_create("replies");
    tcase_add_test(tc, every_reply_yields_its_orders_and_nothing_of_the_mail_it_answers);
    tcase_add_test(tc, a_reply_is_read_as_meant);
    suite_add_tcase(s, tc);
    return s;
}
