/* check_util.c: tests of the small pieces: strbuf, strlist, words, order lines, the random generator, JSON readers. */
#include "test_support.h"

#include "lib/cmdtab.h"
#include "lib/digest.h"
#include "lib/jsonx.h"
#include "lib/order_text.h"
#include "lib/rng.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "lib/util.h"
#include "lib/words.h"

#include <stdlib.h>
#include <string.h>

START_TEST(strbuf_grows_and_formats)
{
    struct strbuf sb = STRBUF_INIT;
    ck_assert_str_eq(sb.buf, "");
    for (int i = 0; i < 1000; i++)
        strbuf_addf(&sb, "%d,", i);
    ck_assert_uint_eq(sb.len, strlen(sb.buf));
    ck_assert(strncmp(sb.buf, "0,1,2,", 6) == 0);
    strbuf_reset(&sb);
    strbuf_addstr(&sb, "  x y \n");
    strbuf_trim(&sb);
    ck_assert_str_eq(sb.buf, "x y");
    strbuf_complete_line(&sb);
    ck_assert_str_eq(sb.buf, "x y\n");
    char *d = strbuf_detach(&sb);
    ck_assert_str_eq(d, "x y\n");
    ck_assert_str_eq(sb.buf, "");
    free(d);
    strbuf_release(&sb);
}
END_TEST

START_TEST(strlist_sorts_unique)
{
    struct strlist l = STRLIST_INIT;
    strlist_push(&l, "b");
    strlist_push(&l, "a");
    strlist_pushf(&l, "%c", 'b');
    strlist_sort_unique(&l);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_str_eq(l.v[0], "a");
    ck_assert(strlist_contains(&l, "b"));
    ck_assert(!strlist_contains(&l, "c"));
    strlist_clear(&l);
}
END_TEST

START_TEST(words_split_lowercases_and_separates)
{
    struct words w;
    words_split(&w, "  MOVE C3-c5,  Now ", "-,");
    ck_assert_int_eq(w.n, 4);
    ck_assert_str_eq(w.w[0], "move");
    ck_assert_str_eq(w.w[1], "c3");
    ck_assert_str_eq(w.w[2], "c5");
    ck_assert_str_eq(w.w[3], "now");
    words_release(&w);

    struct strbuf many = STRBUF_INIT;
    for (int i = 0; i < 100; i++)
        strbuf_addstr(&many, "x ");
    words_split(&w, many.buf, NULL);
    ck_assert(w.too_many);
    words_release(&w);
    strbuf_release(&many);
}
END_TEST

START_TEST(squares_parse_and_name)
{
    int f, r;
    char name[4];
    ck_assert(square_parse("a1", 6, 6, &f, &r) && f == 0 && r == 0);
    ck_assert(square_parse("F6", 6, 6, &f, &r) && f == 5 && r == 5);
    ck_assert(!square_parse("g1", 6, 6, &f, &r));
    ck_assert(!square_parse("a7", 6, 6, &f, &r));
    ck_assert(!square_parse("a0", 6, 6, &f, &r));
    ck_assert(!square_parse("a", 6, 6, &f, &r));
    ck_assert(!square_parse("a1x", 6, 6, &f, &r));
    ck_assert(!square_parse("a01", 6, 6, &f, &r));
    ck_assert(!square_parse("a99999999999", 6, 6, &f, &r));
    square_name(2, 3, name);
    ck_assert_str_eq(name, "c4");
    square_name(0, 9, name);
    ck_assert_str_eq(name, "a10");
}
END_TEST

START_TEST(order_lines_skip_quotes_blank_and_signature)
{
    struct strlist l = STRLIST_INIT;
    order_lines("MOVE  c5\r\n\n> quoted MOVE a1\n  >also quoted\n\tlegal \n-- \nsignature MOVE b2\n", &l);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_str_eq(l.v[0], "MOVE c5");
    ck_assert_str_eq(l.v[1], "legal");
    strlist_clear(&l);

    order_lines("a\n--\nb", &l);
    ck_assert_uint_eq(l.n, 1);
    strlist_clear(&l);

    /* A very long line is cut, never overflows. */
    struct strbuf big = STRBUF_INIT;
    strbuf_addchars(&big, 'x', 100000);
    order_lines(big.buf, &l);
    ck_assert_uint_eq(l.n, 1);
    ck_assert_uint_eq(strlen(l.v[0]), ORDER_LINE_MAX);
    strlist_clear(&l);
    strbuf_release(&big);
}
END_TEST

START_TEST(pcg32_matches_reference)
{
    /* The reference pcg32-demo output for pcg32_srandom(42, 54). */
    static const uint32_t expect[] = { 0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e };
    struct rng r;
    rng_seed(&r, 42, 54);
    for (size_t i = 0; i < ARRAY_SIZE(expect); i++)
        ck_assert_uint_eq(rng_next(&r), expect[i]);
}
END_TEST

START_TEST(rng_below_is_in_range_and_round_trips)
{
    struct rng r, back;
    struct strbuf err = STRBUF_INIT;
    int seen[7] = { 0 };
    rng_seed(&r, 1, 2);
    for (int i = 0; i < 7000; i++) {
        uint32_t x = rng_below(&r, 7);
        ck_assert_uint_lt(x, 7);
        seen[x]++;
    }
    for (int i = 0; i < 7; i++)
        ck_assert_int_gt(seen[i], 800);
    cJSON *j = rng_to_json(&r);
    ck_assert_int_eq(rng_from_json(&back, j, &err), 0);
    ck_assert_uint_eq(rng_next(&r), rng_next(&back));
    cJSON_Delete(j);

    j = cJSON_Parse("{\"state\":\"zz\",\"inc\":\"1\"}");
    ck_assert_int_eq(rng_from_json(&back, j, &err), -1);
    ck_assert(strstr(err.buf, "hex") != NULL);
    cJSON_Delete(j);
    j = cJSON_Parse("{\"state\":\"1\",\"inc\":\"2\"}");
    ck_assert_int_eq(rng_from_json(&back, j, &err), -1);
    cJSON_Delete(j);
    strbuf_release(&err);
}
END_TEST

/* A sink drops every kind of addition and reads ""; a buffer for words
 * bound for a sink is one too, for anything else an ordinary buffer. */
START_TEST(a_sink_drops_what_it_is_given)
{
    struct strbuf sink = STRBUF_SINK, line, real = STRBUF_INIT;
    strbuf_addf(&sink, "%d tiles", 12);
    strbuf_addstr(&sink, "x");
    strbuf_addch(&sink, 'y');
    strbuf_addchars(&sink, ' ', 9);
    strbuf_add_wrapped(&sink, "a long line of words to wrap", 2, 10);
    strbuf_add_flowed(&sink, "a long line of words to wrap", 2, 10);
    strbuf_prefixf(&sink, "%s", "front");
    strbuf_complete_line(&sink);
    strbuf_setlen(&sink, 0);
    ck_assert_str_eq(sink.buf, "");
    ck_assert_uint_eq(sink.len, 0);
    strbuf_init_for(&line, &sink);
    strbuf_addstr(&line, "dropped");
    ck_assert_str_eq(line.buf, "");
    strbuf_init_for(&line, &real);
    strbuf_addstr(&line, "kept");
    ck_assert_str_eq(line.buf, "kept");
    strbuf_release(&line);
    strbuf_release(&sink);
    ck_assert_str_eq(sink.buf, "");
}
END_TEST

/* Four- and eight-byte elements take a shorter path: the same seed puts
 * them in the same order as elements of another size. */
START_TEST(shuffle_orders_every_size_alike)
{
    struct wide {
        int v, pad[2];
    } w[40];
    int a[40];
    long long l[40];
    struct rng r1, r2, r3;
    for (int i = 0; i < 40; i++) {
        a[i] = i;
        l[i] = i;
        w[i] = (struct wide){ i, { 0, 0 } };
    }
    rng_seed(&r1, 5, 7);
    rng_seed(&r2, 5, 7);
    rng_seed(&r3, 5, 7);
    rng_shuffle(&r1, a, 40, sizeof(a[0]));
    rng_shuffle(&r2, l, 40, sizeof(l[0]));
    rng_shuffle(&r3, w, 40, sizeof(w[0]));
    for (int i = 0; i < 40; i++) {
        ck_assert_int_eq(a[i], w[i].v);
        ck_assert_int_eq(l[i], w[i].v);
    }
}
END_TEST

START_TEST(shuffle_is_a_permutation)
{
    struct rng r;
    int a[52], seen[52] = { 0 };
    rng_seed(&r, 99, 1);
    for (int i = 0; i < 52; i++)
        a[i] = i;
    rng_shuffle(&r, a, 52, sizeof(int));
    for (int i = 0; i < 52; i++)
        seen[a[i]]++;
    for (int i = 0; i < 52; i++)
        ck_assert_int_eq(seen[i], 1);
}
END_TEST

START_TEST(json_readers_check_types_and_ranges)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *j = cJSON_Parse("{\"a\":3,\"b\":2.5,\"c\":\"x\",\"d\":[1,2,3],\"e\":true}");
    int v, arr[3];
    bool b;
    ck_assert_int_eq(jx_int(j, "a", 0, 5, &v, &err), 0);
    ck_assert_int_eq(v, 3);
    ck_assert_int_eq(jx_int(j, "a", 4, 5, &v, &err), -1);
    ck_assert_int_eq(jx_int(j, "b", 0, 5, &v, &err), -1);
    ck_assert_int_eq(jx_int(j, "zz", 0, 5, &v, &err), -1);
    ck_assert_int_eq(jx_int(j, "c", 0, 5, &v, &err), -1);
    ck_assert_ptr_nonnull(jx_str(j, "c", &err));
    ck_assert_ptr_null(jx_str(j, "a", &err));
    ck_assert_int_eq(jx_int_array(j, "d", arr, 3, 0, 9, &err), 0);
    ck_assert_int_eq(arr[2], 3);
    ck_assert_int_eq(jx_int_array(j, "d", arr, 2, 0, 9, &err), -1);
    ck_assert_int_eq(jx_bool(j, "e", &b, &err), 0);
    ck_assert(b);
    ck_assert(strstr(err.buf, "\"zz\" is missing") != NULL);
    cJSON_Delete(j);
    strbuf_release(&err);
}
END_TEST

START_TEST(json_diff_names_the_path)
{
    struct strbuf path = STRBUF_INIT;
    cJSON *a = cJSON_Parse("{\"x\":[1,2,{\"y\":3}],\"z\":1}");
    cJSON *b = cJSON_Parse("{\"x\":[1,2,{\"y\":4}],\"z\":1}");
    cJSON *c = cJSON_Parse("{\"x\":[1,2,{\"y\":3}],\"z\":1}");
    ck_assert(jx_diff(a, b, &path));
    ck_assert_str_eq(path.buf, "$.x[2].y");
    strbuf_reset(&path);
    ck_assert(!jx_diff(a, c, &path));
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_Delete(c);
    strbuf_release(&path);
}
END_TEST

START_TEST(secrets_are_long_and_differ)
{
    char *a = secret_new(10), *b = secret_new(10);
    ck_assert_uint_eq(strlen(a), 10);
    ck_assert_str_ne(a, b);
    ck_assert(strspn(a, "abcdefghjkmnpqrstuvwxyz23456789") == 10);
    free(a);
    free(b);
}
END_TEST

START_TEST(parse_int_refuses_junk)
{
    long long v;
    ck_assert(parse_int("42", 0, 100, &v) && v == 42);
    ck_assert(!parse_int("42x", 0, 100, &v));
    ck_assert(!parse_int(" 42", 0, 100, &v));
    ck_assert(!parse_int("", 0, 100, &v));
    ck_assert(!parse_int("101", 0, 100, &v));
    ck_assert(!parse_int("99999999999999999999999", 0, 100, &v));
}
END_TEST

/* FIPS 180-4's "abc", and lengths on each side of a block's padding,
 * whole and fed a byte at a time (digests by Python's hashlib). */
START_TEST(sha256_matches_reference)
{
    static const struct {
        size_t n;
        const char *hex;
    } cases[] = {
        { 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
        { 3, "6ab0dba1f4f1dfbb37b4f9eeb092c09fca4900ad32bdcd147d8dde35d6c87c35" },
        { 55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b" },
        { 56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27" },
        { 63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055" },
        { 64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241" },
        { 65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e" },
        { 119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e" },
        { 120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5" },
        { 1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371" },
    };
    unsigned char data[1000];
    char hex[65];
    sha256_hex("abc", 3, hex);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (unsigned char)((i * 7 + 3) & 255);
    for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
        struct sha256 s;
        sha256_hex(data, cases[c].n, hex);
        ck_assert_str_eq(hex, cases[c].hex);
        sha256_init(&s);
        for (size_t i = 0; i < cases[c].n; i++)
            sha256_update(&s, data + i, 1);
        sha256_final(&s, hex);
        ck_assert_str_eq(hex, cases[c].hex);
    }
}
END_TEST

/* The one command table: a line's row by its name in any case (the
 * longest of two that fit), the words after it, its arity said, the
 * nearest name, and HELP and the lists from the same rows. */
START_TEST(a_command_table_finds_checks_and_lists)
{
    static const struct row {
        struct cmdtab_row row;
        int id;
    } rows[] = {
        { { "draw", 0, 0, 0, "DRAW", "vote for a draw" }, 1 },
        { { "no", 0, 1, 0, NULL, "no" }, 2 },
        { { "no draw", 0, 0, 0, "NO DRAW", "take the vote back" }, 3 },
        { { "extend", 1, 1, 0, "EXTEND 2d", "more time for the step, said in a help line long enough to wrap" }, 4 },
        { { NULL, 0, 0, 0, NULL, NULL }, 0 },
    };
    const struct cmdtab t = CMDTAB(rows);
    struct strbuf sb = STRBUF_INIT;
    const struct row *r = (const struct row *)cmdtab_find(t, "No Draw");
    ck_assert(r && r->id == 3);
    ck_assert_int_eq(((const struct row *)cmdtab_find(t, "no way"))->id, 2);
    ck_assert_ptr_null(cmdtab_find(t, "drawn"));
    ck_assert_ptr_null(cmdtab_find(t, ""));
    r = (const struct row *)cmdtab_find(t, "  EXTEND  2d  now");
    ck_assert(r && r->id == 4);
    ck_assert_int_eq(cmdtab_args(&r->row, "  EXTEND  2d  now"), 2);
    ck_assert_int_eq(cmdtab_arity(&r->row, 2, "word", &sb), 1);
    ck_assert_str_eq(sb.buf, "takes at most 1 word, got 2");
    strbuf_reset(&sb);
    ck_assert_int_eq(cmdtab_arity(&r->row, 0, "argument", &sb), 1);
    ck_assert_str_eq(sb.buf, "needs 1 argument, got 0");
    strbuf_reset(&sb);
    ck_assert_int_eq(cmdtab_arity(&rows[0].row, 1, "word", &sb), 1);
    ck_assert_str_eq(sb.buf, "takes no words, got 1");
    strbuf_reset(&sb);
    ck_assert_int_eq(cmdtab_arity(&r->row, 1, "word", &sb), 0);
    ck_assert_int_eq(((const struct row *)cmdtab_nearest(t, "extnd"))->id, 4);
    ck_assert_ptr_null(cmdtab_nearest(t, "resign"));
    cmdtab_names(t, &sb);
    ck_assert_str_eq(sb.buf, "DRAW, NO, NO DRAW, EXTEND");
    strbuf_release(&sb);
}
END_TEST

/* French high punctuation stays on the line of the word before it, an
 * opening guillemet with the word after it. */
START_TEST(a_french_mark_is_never_wrapped_alone)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_add_flowed(&sb, "abc defgh ; ijk", 0, 10);
    ck_assert_str_eq(sb.buf, "abc\ndefgh ;\nijk\n");
    strbuf_reset(&sb);
    strbuf_add_flowed(&sb, "Refusé : « xyzzy » est", 0, 12);
    ck_assert_msg(strstr(sb.buf, "\n»") == NULL && strstr(sb.buf, "«\n") == NULL && strstr(sb.buf, "\n:") == NULL,
                  "%s", sb.buf);
    strbuf_reset(&sb);
    /* English is wrapped as before. */
    strbuf_add_flowed(&sb, "a long line of words to wrap", 0, 10);
    ck_assert_str_eq(sb.buf, "a long\nline of\nwords to\nwrap\n");
    strbuf_release(&sb);
}
END_TEST

Suite *util_suite(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("util");
    tcase_add_test(tc, strbuf_grows_and_formats);
    tcase_add_test(tc, a_french_mark_is_never_wrapped_alone);
    tcase_add_test(tc, a_sink_drops_what_it_is_given);
    tcase_add_test(tc, shuffle_orders_every_size_alike);
    tcase_add_test(tc, strlist_sorts_unique);
    tcase_add_test(tc, words_split_lowercases_and_separates);
    tcase_add_test(tc, squares_parse_and_name);
    tcase_add_test(tc, order_lines_skip_quotes_blank_and_signature);
    tcase_add_test(tc, pcg32_matches_reference);
    tcase_add_test(tc, rng_below_is_in_range_and_round_trips);
    tcase_add_test(tc, shuffle_is_a_permutation);
    tcase_add_test(tc, json_readers_check_types_and_ranges);
    tcase_add_test(tc, json_diff_names_the_path);
    tcase_add_test(tc, secrets_are_long_and_differ);
    tcase_add_test(tc, parse_int_refuses_junk);
    tcase_add_test(tc, sha256_matches_reference);
    tcase_add_test(tc, a_command_table_finds_checks_and_lists);
    suite_add_tcase(s, tc);
    return s;
}
