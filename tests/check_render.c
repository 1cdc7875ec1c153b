/* check_render.c: every game's picture decoded and looked at: its size and bytes, the colour where each piece stands, no secret in another seat's picture, and the picture in a mail. */
#include "test_support.h"
#include "playout.h"

#include "core/gamerec.h"
#include "core/view.h"
#include "judge/inbound.h"
#include "judge/notify.h"
#include "lib/jsonx.h"
#include "lib/paths.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "mail/send.h"
#include "render/render.h"
#include "store/settings.h"

#include <cairo.h>
#include <gmime/gmime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_BYTES (60 * 1024)

static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus" };

static const struct {
    const char *game;
    int seats;
} games[] = { { "kuniumi", 2 }, { "kalimambo", 5 }, { "bumuntu", 4 }, { "bantu", 4 }, { "african-empires", 6 } };

/* What core view_json gives a viewer, built from a bare state. */
static cJSON *wrap(const struct game_ops *ops, const void *st, int viewer, const struct game_table *t)
{
    cJSON *v = cJSON_CreateObject(), *when = cJSON_CreateObject();
    struct game_when w;
    struct game_result r;
    char text[128];
    game_when_of(ops, st, t, 0, &w);
    game_when_text(&w, text);
    ops->result(st, &r);
    cJSON_AddNumberToObject(v, "game", 1);
    cJSON_AddStringToObject(v, "module", ops->name);
    cJSON_AddStringToObject(v, "title", ops->title);
    cJSON_AddStringToObject(v, "status", r.finished ? "finished" : "active");
    cJSON_AddStringToObject(when, "text", text);
    cJSON_AddItemToObject(v, "when", when);
    view_add_players(v, t, viewer);
    cJSON_AddItemToObject(v, "view", ops->view_json(st, viewer, t));
    return v;
}

struct png_read {
    const unsigned char *p;
    size_t left;
};

static cairo_status_t read_png(void *closure, unsigned char *data, unsigned int n)
{
    struct png_read *r = closure;
    if (n > r->left)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, r->p, n);
    r->p += n;
    r->left -= n;
    return CAIRO_STATUS_SUCCESS;
}

/* Whether a picture drew the label (a whole line of its texts). */
static bool drew(const struct render_out *out, const char *label)
{
    size_t n = strlen(label);
    for (const char *p = out->texts; (p = strstr(p, label)); p++)
        if ((p == out->texts || p[-1] == '\n') && p[n] == '\n')
            return true;
    return false;
}

/* Every label a player types in an order is on the board: squares,
 * files and ranks, lanes and rows, spaces. */
static void assert_labels(const char *module, const char *what, const struct render_out *out)
{
    char l[8];
    if (str_eq(module, "bantu"))
        for (int i = 0; i < 4; i++) {
            snprintf(l, sizeof(l), "%c", 'a' + i);
            CHECK(drew(out, l), "%s: no lane %s on the picture", what, l);
        }
    for (int i = 0; i < 32 && (str_eq(module, "bantu") || str_eq(module, "kalimambo")); i++) {
        snprintf(l, sizeof(l), "%d", i);
        CHECK(drew(out, l), "%s: no %s %s on the picture", what, str_eq(module, "bantu") ? "row" : "space", l);
    }
    for (int i = 0; i < 8 && (str_eq(module, "bumuntu") || (str_eq(module, "kuniumi") && i < 6)); i++) {
        snprintf(l, sizeof(l), "%c", 'a' + i);
        CHECK(drew(out, l), "%s: no file %s on the picture", what, l);
        snprintf(l, sizeof(l), "%d", i + 1);
        CHECK(drew(out, l), "%s: no rank %s on the picture", what, l);
    }
}

/* Decodes the PNG as any viewer would and looks where each piece is. */
static void assert_picture(const char *what, const struct render_out *out)
{
    struct png_read r = { (const unsigned char *)out->png.buf, out->png.len };
    cairo_surface_t *s;
    const unsigned char *px;
    int stride;
    CHECK(out->png.len > 1000 && out->png.len <= MAX_BYTES, "%s: the picture is %zu bytes (at most %d)", what,
          out->png.len, MAX_BYTES);
    /* Readable on a phone: shown 362 pixels wide, no text under 11. */
    CHECK(out->min_text >= RENDER_TEXT_MIN, "%s: text of %.1f pixels, under %d (%.1f on a phone)", what,
          out->min_text, RENDER_TEXT_MIN, out->min_text * 362.0 / RENDER_WIDTH);
    s = cairo_image_surface_create_from_png_stream(read_png, &r);
    CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, "%s: the PNG does not decode", what);
    CHECK(cairo_image_surface_get_width(s) == RENDER_WIDTH && cairo_image_surface_get_height(s) == out->height,
          "%s: the PNG is %dx%d, not %dx%d", what, cairo_image_surface_get_width(s),
          cairo_image_surface_get_height(s), RENDER_WIDTH, out->height);
    CHECK(out->nmarks > 0, "%s: no piece was drawn", what);
    cairo_surface_flush(s);
    px = cairo_image_surface_get_data(s);
    stride = cairo_image_surface_get_stride(s);
    for (int i = 0; i < out->nmarks; i++) {
        const struct render_mark *m = &out->marks[i];
        uint32_t v;
        CHECK(m->x >= 0 && m->y >= 0 && m->x < RENDER_WIDTH && m->y < out->height, "%s: %s is off the picture", what,
              m->what);
        v = *(const uint32_t *)(px + (size_t)m->y * (size_t)stride + (size_t)m->x * 4) & 0xffffffu;
        CHECK(v == m->rgb, "%s: where %s stands the picture is #%06x, not #%06x", what, m->what, v, m->rgb);
    }
    cairo_surface_destroy(s);
}

/* The drawing's part of the test below, a check of playout.h: at every
 * stride-th step and at the end, each seat's picture and the observer's. */
struct drawing {
    int stride, drawn, same;
    cJSON *prev[GAME_MAX_SEATS + 1]; /* each viewer's last view, to mark what moved */
};

static void draw_every_view(struct playout *p, unsigned w, int step, void *arg)
{
    struct drawing *d = arg;
    const struct game_ops *ops = p->ops;
    struct strbuf err = STRBUF_INIT;
    if (step % d->stride != 0 && w)
        return;
    for (int viewer = -1; viewer < p->t->nseats; viewer++) {
        struct render_out out;
        cJSON *v = wrap(ops, p->st, viewer, p->t);
        char what[96];
        snprintf(what, sizeof(what), "%s step %d, seat %d", ops->name, step, viewer + 1);
        render_out_init(&out);
        CHECK(render_board(v, d->prev[viewer + 1], &out, &err) == 0, "%s: %s", what, err.buf);
        assert_picture(what, &out);
        assert_labels(ops->name, what, &out);
        d->drawn++;
        if (ops->determinize && viewer >= 0 && ops->clone) {
            /* Everything she cannot see, dealt anew. */
            void *other = ops->clone(p->st);
            ops->determinize(other, viewer, (uint64_t)step * 7919 + 1);
            for (int who = viewer; who >= -1; who = who == viewer ? -1 : -2) {
                struct render_out o2, o1;
                cJSON *v1 = wrap(ops, p->st, who, p->t), *v2 = wrap(ops, other, who, p->t);
                render_out_init(&o1);
                render_out_init(&o2);
                ck_assert_int_eq(render_board(v1, NULL, &o1, &err), 0);
                ck_assert_int_eq(render_board(v2, NULL, &o2, &err), 0);
                CHECK(o1.png.len == o2.png.len && memcmp(o1.png.buf, o2.png.buf, o1.png.len) == 0,
                      "%s: seat %d's picture changes with what it cannot see", what, who + 1);
                d->same++;
                render_out_release(&o1);
                render_out_release(&o2);
                cJSON_Delete(v1);
                cJSON_Delete(v2);
            }
            ops->free(other);
        }
        cJSON_Delete(d->prev[viewer + 1]);
        d->prev[viewer + 1] = cJSON_DetachItemFromObjectCaseSensitive(v, "view");
        cJSON_Delete(v);
        render_out_release(&out);
    }
    strbuf_release(&err);
}

/* Every game at many positions (random games through playout.c), every
 * seat and the observer: a picture that decodes, within its budget, each
 * piece in its colour; a state dealt anew in all one seat cannot see
 * gives her, and observers, the same bytes. */
START_TEST(every_picture_shows_its_pieces_and_nothing_hidden)
{
    const struct game_ops *ops = game_find(games[_i].game);
    const struct game_table t = { games[_i].seats, names, NULL };
    struct rng r;
    /* Every 11th step is drawn; under the sanitizers (a sample) every 33rd. */
    struct drawing d = { t_sampled() ? 33 : 11, 0, 0, { NULL } };
    if (_i == 0) {
        const char *listed[ARRAY_SIZE(games)];
        for (size_t i = 0; i < ARRAY_SIZE(games); i++)
            listed[i] = games[i].game;
        t_covers_registry("the pictures' test", listed, ARRAY_SIZE(games));
    }
    rng_seed(&r, 31, (uint64_t)_i);
    for (int game = 0; game < t_sample(2); game++) {
        struct strbuf err = STRBUF_INIT;
        cJSON *opts = cJSON_CreateObject();
        for (const struct game_option *o = ops->options; o && o->key; o++)
            cJSON_AddStringToObject(opts, o->key, o->def);
        struct playout p = { ops, &t, ops->setup(opts, t.nseats, (uint64_t)game + 3, &err), &r, false, 2000, ops->name,
                             NULL, NULL };
        ck_assert_msg(p.st != NULL, "%s", err.buf);
        cJSON_Delete(opts);
        playout_run(&p, draw_every_view, NULL, &d);
        for (int i = 0; i <= GAME_MAX_SEATS; i++) {
            cJSON_Delete(d.prev[i]);
            d.prev[i] = NULL;
        }
        ops->free(p.st);
        strbuf_release(&err);
    }
    /* A sample (the sanitizers') plays one game of the two. */
    ck_assert_int_gt(d.drawn, t_sampled() ? 4 : 20);
    if (ops->determinize)
        ck_assert_int_gt(d.same, 10);
}
END_TEST

/* The changes of the last step are marked: a picture with the position
 * before it differs from one without. */
START_TEST(the_last_step_is_marked)
{
    const struct game_ops *ops = game_find("kuniumi");
    const struct game_table t = { 2, names, NULL };
    struct strbuf err = STRBUF_INIT;
    struct render_out a, b;
    cJSON *opts = cJSON_CreateObject(), *before, *after;
    for (const struct game_option *o = ops->options; o && o->key; o++)
        cJSON_AddStringToObject(opts, o->key, o->def);
    void *st = ops->setup(opts, 2, 1, &err);
    cJSON_Delete(opts);
    before = ops->view_json(st, 0, &t);
    free(t_play(ops, st, &t, 0, "PLACE EARTH GOD c3"));
    after = wrap(ops, st, 0, &t);
    render_out_init(&a);
    render_out_init(&b);
    ck_assert_int_eq(render_board(after, NULL, &a, &err), 0);
    ck_assert_int_eq(render_board(after, before, &b, &err), 0);
    ck_assert(a.png.len != b.png.len || memcmp(a.png.buf, b.png.buf, a.png.len) != 0);
    render_out_release(&a);
    render_out_release(&b);
    cJSON_Delete(before);
    cJSON_Delete(after);
    ops->free(st);
    strbuf_release(&err);
}
END_TEST

/* A whole mail: the picture is drawn when it is sent, inline in the HTML
 * part (multipart/related, its cid named in the HTML) beside the text's
 * ASCII board; IMAGES OFF and the setting images=no leave it out. */
START_TEST(a_mail_carries_its_board_as_a_picture)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct submission sub = { 0 };
    struct send_stats st;
    struct strbuf err = STRBUF_INIT;
    char dir[] = "/tmp/ngoma-render.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(setting_set(db, "outbox_dir", dir, &err), 0);
    t_new_game(db, "kalimambo", 3, 4, NULL, &g);
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(notify_welcome(db, &g), 0);
    ck_assert_int_eq(db_commit(db), 0);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE picture IS NOT NULL"), 3);
    {
        /* KuniUmi: Bob's welcome, before his turn, shows no board, and
         * so carries no picture; Ann's, whose turn it is, does. */
        struct game_rec k;
        t_new_game(db, "kuniumi", 2, 4, NULL, &k);
        ck_assert_int_eq(db_begin(db), 0);
        ck_assert_int_eq(notify_welcome(db, &k), 0);
        ck_assert_int_eq(db_commit(db), 0);
        ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE game_id = 2 AND seat = 1 AND picture IS NOT"
                                     " NULL"),
                         1);
        ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE game_id = 2 AND seat = 2"), 1);
        ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE game_id = 2 AND seat = 2 AND picture IS NOT"
                                     " NULL"),
                         0);
        ck_assert_int_eq(db_do(db, "DELETE FROM outbox WHERE game_id = 2", NULL), 0);
        game_unload(&k);
    }
    ck_assert_int_eq(outbox_send(db, NULL, &st), 0);
    {
        char *mail = NULL, *cid = NULL;
        ck_assert_int_eq(db_get_text(db, &cid, "SELECT json_extract(picture, '$.cid') FROM outbox WHERE seat = 1", NULL),
                         1);
        struct strbuf path = STRBUF_INIT;
        strbuf_addf(&path, "%s/000001.eml", dir);
        struct strbuf ferr = STRBUF_INIT;
        mail = file_read(path.buf, FILE_MAX_DATA, &ferr);
        ck_assert_msg(mail != NULL, "%s", ferr.buf);
        GMimeStream *s = g_mime_stream_mem_new_with_buffer(mail, strlen(mail));
        GMimeParser *p = g_mime_parser_new_with_stream(s);
        GMimeMessage *msg = g_mime_parser_construct_message(p, NULL);
        GMimeObject *body = g_mime_message_get_mime_part(msg), *rel, *html, *img;
        ck_assert(GMIME_IS_MULTIPART(body));
        ck_assert_int_eq(g_mime_multipart_get_count(GMIME_MULTIPART(body)), 2);
        rel = g_mime_multipart_get_part(GMIME_MULTIPART(body), 1);
        ck_assert(g_mime_content_type_is_type(g_mime_object_get_content_type(rel), "multipart", "related"));
        html = g_mime_multipart_get_part(GMIME_MULTIPART(rel), 0);
        img = g_mime_multipart_get_part(GMIME_MULTIPART(rel), 1);
        ck_assert(g_mime_content_type_is_type(g_mime_object_get_content_type(img), "image", "png"));
        ck_assert_str_eq(g_mime_object_get_content_id(img), cid);
        char *h = g_mime_text_part_get_text(GMIME_TEXT_PART(html)), want[200];
        snprintf(want, sizeof(want), "src=\"cid:%s\"", cid);
        ck_assert_msg(strstr(h, want) != NULL, "%s", h);
        ck_assert(strstr(h, "alt=\"The board of Kalimambo game 1") != NULL);
        /* The text part keeps the ASCII board. */
        GMimeObject *plain = g_mime_multipart_get_part(GMIME_MULTIPART(body), 0);
        char *t = g_mime_text_part_get_text(GMIME_TEXT_PART(plain));
        ck_assert(strstr(t, "Back to front:") != NULL);
        /* The image decodes to the picture drawn. */
        GMimeDataWrapper *w = g_mime_part_get_content(GMIME_PART(img));
        GMimeStream *dec = g_mime_stream_mem_new();
        g_mime_data_wrapper_write_to_stream(w, dec);
        GByteArray *bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(dec));
        ck_assert_int_gt((int)bytes->len, 1000);
        ck_assert_int_le((int)bytes->len, MAX_BYTES);
        ck_assert(memcmp(bytes->data, "\x89PNG", 4) == 0);
        g_object_unref(dec);
        g_free(h);
        g_free(t);
        g_object_unref(msg);
        g_object_unref(p);
        g_object_unref(s);
        free(mail);
        free(cid);
        strbuf_release(&path);
        strbuf_release(&ferr);
    }
    /* IMAGES OFF by one seat; then no pictures at all by the setting. */
    t_submit(db, &g, 1, "IMAGES OFF", &sub);
    ck_assert_int_eq(sub.lines[0].status, LINE_INFO);
    submission_release(&sub);
    game_unload(&g);
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    ck_assert(!g.seats[1].images);
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(notify_welcome_seat(db, &g, 1), 0);
    ck_assert_int_eq(notify_welcome_seat(db, &g, 0), 0);
    ck_assert_int_eq(db_commit(db), 0);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE seat = 2 AND picture IS NOT NULL"), 1);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE seat = 1 AND picture IS NOT NULL"), 2);
    ck_assert_int_eq(setting_set(db, "images", "no", &err), 0);
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(notify_welcome_seat(db, &g, 0), 0);
    ck_assert_int_eq(db_commit(db), 0);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE seat = 1 AND picture IS NOT NULL"), 2);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE seat = 1"), 3);
    game_unload(&g);
    strbuf_release(&err);
    db_close(db);
    {
        char cmd[64];
        snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
        ck_assert_int_eq(system(cmd), 0);
    }
}
END_TEST

Suite *render_suite(void)
{
    Suite *s = suite_create("render");
    TCase *tc = tcase_create("render");
    tcase_set_timeout(tc, 240);
    tcase_add_loop_test(tc, every_picture_shows_its_pieces_and_nothing_hidden, 0, (int)ARRAY_SIZE(games));
    tcase_add_test(tc, the_last_step_is_marked);
    tcase_add_test(tc, a_mail_carries_its_board_as_a_picture);
    suite_add_tcase(s, tc);
    return s;
}
