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

Suite *replies_suite(void)
{
    Suite *s = suite_create("replies");
    TCase *tc = tcase_create("replies");
    tcase_add_test(tc, every_reply_yields_its_orders_and_nothing_of_the_mail_it_answers);
    suite_add_tcase(s, tc);
    return s;
}
