/* check_template.c: tests of the template engine: values, sections, inverted sections, escaping, errors. */
#include "test_support.h"

#include "lib/paths.h"
#include "lib/template.h"
#include "lib/util.h"

#include <dirent.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *render(const char *tmpl, const char *json, bool html, int *rc)
{
    struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
    cJSON *d = cJSON_Parse(json);
    *rc = template_render(tmpl, d, NULL, html, &out, &err);
    cJSON_Delete(d);
    if (*rc) {
        strbuf_release(&out);
        return strbuf_detach(&err);
    }
    strbuf_release(&err);
    return strbuf_detach(&out);
}

#define RENDERS(tmpl, json, want)                                                                                      \
    do {                                                                                                               \
        int rc_;                                                                                                       \
        char *got_ = render(tmpl, json, false, &rc_);                                                                  \
        ck_assert_msg(rc_ == 0, "template failed: %s", got_);                                                          \
        ck_assert_str_eq(got_, want);                                                                                  \
        free(got_);                                                                                                    \
    } while (0)

START_TEST(values_and_paths)
{
    RENDERS("Hi {{name}}!", "{\"name\":\"Ann\"}", "Hi Ann!");
    RENDERS("{{a.b.c}}/{{n}}/{{f}}", "{\"a\":{\"b\":{\"c\":\"deep\"}},\"n\":12,\"f\":1.5}", "deep/12/1.5");
    RENDERS("[{{missing}}]", "{}", "[]");
    RENDERS("{{ name }}", "{\"name\":\"x\"}", "x");
}
END_TEST

START_TEST(sections_repeat_enter_and_hide)
{
    RENDERS("{{#l}}<{{.}}>{{/l}}", "{\"l\":[1,2,3]}", "<1><2><3>");
    RENDERS("{{#l}}{{n}}:{{top}} {{/l}}", "{\"top\":\"T\",\"l\":[{\"n\":1},{\"n\":2}]}", "1:T 2:T ");
    RENDERS("{{#o}}{{x}}{{/o}}", "{\"o\":{\"x\":\"in\"}}", "in");
    RENDERS("{{#f}}shown{{/f}}{{^f}}hidden{{/f}}", "{\"f\":false}", "hidden");
    RENDERS("{{#e}}x{{/e}}{{^e}}empty{{/e}}", "{\"e\":[]}", "empty");
    RENDERS("{{#z}}x{{/z}}{{^z}}zero{{/z}}", "{\"z\":0}", "zero");
    RENDERS("{{#s}}{{s}}{{/s}}", "{\"s\":\"yes\"}", "yes");
    RENDERS("{{#a}}{{#a}}nested{{/a}}{{/a}}", "{\"a\":true}", "nested");
}
END_TEST

START_TEST(standalone_tags_take_their_line)
{
    RENDERS("a\n{{#l}}\n- {{.}}\n{{/l}}\nb\n", "{\"l\":[\"x\",\"y\"]}", "a\n- x\n- y\nb\n");
    RENDERS("a\n  {{! a comment }}\nb", "{}", "a\nb");
    RENDERS("{{#t}}\nyes\n{{/t}}\n", "{\"t\":true}", "yes\n");
}
END_TEST

START_TEST(html_escapes_unless_raw)
{
    int rc;
    char *got = render("{{v}}|{{{v}}}|{{&v}}", "{\"v\":\"<b>&'\\\"\"}", true, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(got, "&lt;b&gt;&amp;&#39;&quot;|<b>&'\"|<b>&'\"");
    free(got);
}
END_TEST

START_TEST(bad_templates_are_refused_with_a_line)
{
    static const char *const bad[] = {
        "x\n{{#open}}never closed", "{{/stray}}", "{{unclosed", "{{}}", "{{{raw}}", "{{#a}}{{/b}}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int rc;
        char *got = render(bad[i], "{\"a\":1}", false, &rc);
        ck_assert_msg(rc == -1, "accepted bad template %s", bad[i]);
        ck_assert_msg(strstr(got, "template line") != NULL, "no line in: %s", got);
        free(got);
    }
}
END_TEST

START_TEST(deep_nesting_is_bounded)
{
    struct strbuf t = STRBUF_INIT;
    int rc;
    for (int i = 0; i < 100; i++)
        strbuf_addstr(&t, "{{#a}}");
    for (int i = 0; i < 100; i++)
        strbuf_addstr(&t, "{{/a}}");
    char *got = render(t.buf, "{\"a\":{\"a\":1}}", false, &rc);
    ck_assert_int_eq(rc, -1);
    free(got);
    strbuf_release(&t);
}
END_TEST

START_TEST(reply_template_renders)
{
    struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
    cJSON *d = cJSON_Parse("{\"headline\":\"KuniUmi game 3, Ann: your order was refused.\",\"lines\":[{\"text\":\"MOVE c5\","
                           "\"rejected\":true,\"body\":\"Rejected: no\"}],\"status\":\"Waiting for Ann.\"}");
    ck_assert_msg(template_render_file("reply.txt", d, NULL, &out, &err) == 0, "%s", err.buf);
    ck_assert(strncmp(out.buf, "KuniUmi game 3, Ann: your order was refused.\n", 45) == 0);
    ck_assert(strstr(out.buf, "> MOVE c5\nRejected: no\n") != NULL);
    cJSON_Delete(d);
    strbuf_release(&out);
    strbuf_release(&err);
}
END_TEST

/* Every line a template writes as it is (no tag in it) fits a mail's 72
 * columns: templates/ and templates/rules/. */
START_TEST(every_template_line_fits_a_mail)
{
    static const char *const dirs[] = { "templates", "templates/rules" };
    int files = 0;
    for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
        char *dir = data_path(dirs[d], "");
        DIR *dh = opendir(dir);
        struct dirent *de;
        ck_assert_msg(dh != NULL, "no %s", dir);
        while ((de = readdir(dh))) {
            struct strbuf err = STRBUF_INIT;
            char *path, *text;
            int line = 0;
            if (!strstr(de->d_name, ".txt"))
                continue;
            path = data_path(dirs[d], de->d_name);
            ck_assert_ptr_nonnull(text = file_read(path, FILE_MAX_TEXT, &err));
            for (char *p = text; *p;) {
                size_t n = strcspn(p, "\n"), cols = 0;
                line++;
                for (size_t i = 0; i < n; i++)
                    cols += ((unsigned char)p[i] & 0xc0) != 0x80;
                char *tagged = xstrndup(p, n);
                bool plain = strstr(tagged, "{{") == NULL;
                free(tagged);
                if (plain)
                    ck_assert_msg(cols <= 72, "%s line %d has %zu columns", path, line, cols);
                p += n + (p[n] ? 1 : 0);
            }
            files++;
            free(text);
            free(path);
            strbuf_release(&err);
        }
        closedir(dh);
        free(dir);
    }
    ck_assert_int_gt(files, 20);
}
END_TEST

Suite *template_suite(void)
{
    Suite *s = suite_create("template");
    TCase *tc = tcase_create("template");
    tcase_add_test(tc, values_and_paths);
    tcase_add_test(tc, sections_repeat_enter_and_hide);
    tcase_add_test(tc, standalone_tags_take_their_line);
    tcase_add_test(tc, html_escapes_unless_raw);
    tcase_add_test(tc, bad_templates_are_refused_with_a_line);
    tcase_add_test(tc, deep_nesting_is_bounded);
    tcase_add_test(tc, reply_template_renders);
    tcase_add_test(tc, every_template_line_fits_a_mail);
    suite_add_tcase(s, tc);
    return s;
}
