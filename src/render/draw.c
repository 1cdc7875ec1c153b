/* draw.c: what every game's picture is drawn with: a canvas, the colour-blind-safe palette, text, pieces, the header and the PNG. */
#include "render/draw.h"
#include "lib/catalog.h"
#include "lib/template.h"
#include "lib/util.h"

#include <stdarg.h>

#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>
#include <stdio.h>
#include <string.h>

/* The font: DejaVu Sans of Debian's fonts-dejavu-core, read from its
 * files rather than looked up through fontconfig, so that every host
 * draws the same glyphs and a process does not parse fontconfig's
 * configuration (tens of milliseconds) to draw one board. */
#define FONT "DejaVu Sans"
#define FONT_DIR "/usr/share/fonts/truetype/dejavu/"

static cairo_font_face_t *face_of(bool bold)
{
    static FT_Library lib;
    static bool tried[2];
    static cairo_font_face_t *faces[2];
    int b = bold ? 1 : 0;
    if (!tried[b]) {
        FT_Face f;
        tried[b] = true;
        if ((lib || !FT_Init_FreeType(&lib)) &&
            !FT_New_Face(lib, bold ? FONT_DIR "DejaVuSans-Bold.ttf" : FONT_DIR "DejaVuSans.ttf", 0, &f)) {
            /* Kept for the life of the process, as fontconfig's would be. */
            faces[b] = cairo_ft_font_face_create_for_ft_face(f, 0);
            if (cairo_font_face_status(faces[b]) != CAIRO_STATUS_SUCCESS) {
                cairo_font_face_destroy(faces[b]);
                FT_Done_Face(f);
                faces[b] = NULL;
            }
        }
    }
    return faces[b];
}

unsigned seat_rgb(int seat)
{
    /* Okabe and Ito, "Color Universal Design" (2008), black left out. */
    static const unsigned palette[] = { 0xe69f00, 0x56b4e9, 0x009e73, 0xf0e442, 0x0072b2, 0xd55e00, 0xcc79a7 };
    return palette[(seat < 0 ? 0 : seat) % (int)ARRAY_SIZE(palette)];
}

unsigned named_rgb(const char *name)
{
    static const struct {
        const char *name;
        unsigned rgb;
    } tones[] = { { "red", 0xd55e00 },   { "blue", 0x0072b2 },   { "green", 0x009e73 }, { "yellow", 0xf0e442 },
                  { "purple", 0xcc79a7 }, { "orange", 0xe69f00 }, { "white", 0xffffff }, { "sky", 0x56b4e9 } };
    for (size_t i = 0; i < ARRAY_SIZE(tones); i++)
        if (str_ieq(name, tones[i].name))
            return tones[i].rgb;
    return GRID;
}

bool canvas_open(struct canvas *c, int width, int height, struct render_out *out)
{
    memset(c, 0, sizeof(*c));
    c->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (cairo_surface_status(c->surface) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(c->surface);
        return false;
    }
    c->cr = cairo_create(c->surface);
    c->width = width;
    c->height = height;
    c->out = out;
    set_rgb(c->cr, PAPER);
    cairo_paint(c->cr);
    {
        /* Text hinted onto the pixel grid: sharper on a phone, and fewer
         * grey edge pixels keep the PNG small. */
        cairo_font_options_t *fo = cairo_font_options_create();
        cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_FULL);
        cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_ON);
        cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
        cairo_set_font_options(c->cr, fo);
        cairo_font_options_destroy(fo);
    }
    return true;
}

static void be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static void chunk(struct strbuf *png, const char *type, const unsigned char *data, size_t n)
{
    unsigned char head[8], crc[4];
    uLong sum = crc32(0, (const Bytef *)type, 4);
    be32(head, (uint32_t)n);
    memcpy(head + 4, type, 4);
    strbuf_add(png, head, 8);
    if (n) { /* IEND has no data (NULL); and crc32 of NULL starts a CRC anew */
        strbuf_add(png, data, n);
        sum = crc32(sum, data, (uInt)n);
    }
    be32(crc, (uint32_t)sum);
    strbuf_add(png, crc, 4);
}

/* Colours of one picture and how often each is used: open addressing. */
#define SLOTS 8192
struct colours {
    uint32_t key[SLOTS];
    uint32_t count[SLOTS];
    int16_t index[SLOTS];
    bool used[SLOTS];
    int n;
};

static int slot_of(struct colours *h, uint32_t rgb)
{
    uint32_t i = (rgb * 2654435761u) >> 19;
    while (h->used[i] && h->key[i] != rgb)
        i = (i + 1) & (SLOTS - 1);
    return (int)i;
}

static const struct colours *sorting; /* what by_count sorts by */

static int by_count(const void *a, const void *b)
{
    const struct colours *c = sorting;
    uint32_t x = c->count[*(const int *)a], y = c->count[*(const int *)b];
    return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

/*
 * The PNG of an RGB24 surface, as an indexed-colour image: a board is flat
 * colours and text, so its 255 most used colours are kept exactly and the
 * rare rest (antialiased edges) take the nearest of them; rows unfiltered,
 * deflated at a fast level. A third of the bytes to pack, a fast deflate:
 * the whole drawing stays within a few milliseconds.
 */
static int write_png(cairo_surface_t *s, int rows, struct strbuf *png)
{
    static struct colours h;
    int w = cairo_image_surface_get_width(s), hh = rows;
    int stride = cairo_image_surface_get_stride(s), order[SLOTS], npal = 0;
    const unsigned char *px = cairo_image_surface_get_data(s);
    size_t rowlen = (size_t)w + 1, rawlen = rowlen * (size_t)hh;
    unsigned char *raw = xmalloc(rawlen), ihdr[13], plte[256 * 3];
    uLongf zlen = compressBound((uLong)rawlen);
    unsigned char *z = xmalloc(zlen);
    uint32_t pal[256];
    static int16_t near[4096];
    int rc = -1;

    memset(&h, 0, sizeof(h));
    for (int y = 0; y < hh; y++) {
        const uint32_t *row = (const uint32_t *)(px + (size_t)y * (size_t)stride);
        uint32_t last = 0xffffffffu, run = 0;
        int at = 0;
        for (int x = 0; x < w; x++) {
            uint32_t v = row[x] & 0xffffffu;
            if (v != last) {
                h.count[at] += run; /* counted by runs: a row is mostly runs */
                run = 0;
                at = slot_of(&h, v);
                if (!h.used[at]) {
                    if (h.n >= SLOTS * 3 / 4)
                        goto out; /* a photograph, not a board */
                    h.used[at] = true;
                    h.key[at] = v;
                    h.n++;
                }
                last = v;
            }
            run++;
        }
        h.count[at] += run;
    }
    for (int i = 0, k = 0; i < SLOTS; i++)
        if (h.used[i])
            order[k++] = i;
    sorting = &h;
    qsort(order, (size_t)h.n, sizeof(int), by_count);
    npal = h.n < 256 ? h.n : 256;
    for (int k = 0; k < npal; k++) {
        pal[k] = h.key[order[k]];
        h.index[order[k]] = (int16_t)k;
        plte[3 * k] = (unsigned char)(pal[k] >> 16);
        plte[3 * k + 1] = (unsigned char)(pal[k] >> 8);
        plte[3 * k + 2] = (unsigned char)pal[k];
    }
    memset(near, 0xff, sizeof(near));
    for (int k = npal; k < h.n; k++) {
        /* A rare colour: the nearest kept one, looked for once per cube of
         * 16 levels a channel (an antialiased edge has many such colours). */
        uint32_t v = h.key[order[k]];
        int cube = (int)(((v >> 12) & 0xf00) | ((v >> 8) & 0xf0) | ((v >> 4) & 0xf));
        long best = -1;
        if (near[cube] >= 0) {
            h.index[order[k]] = near[cube];
            continue;
        }
        for (int p = 0; p < npal; p++) {
            long dr = (long)((v >> 16) & 0xff) - (long)((pal[p] >> 16) & 0xff);
            long dg = (long)((v >> 8) & 0xff) - (long)((pal[p] >> 8) & 0xff);
            long db = (long)(v & 0xff) - (long)(pal[p] & 0xff), d = dr * dr + dg * dg + db * db;
            if (best < 0 || d < best) {
                best = d;
                h.index[order[k]] = (int16_t)p;
            }
        }
        near[cube] = h.index[order[k]];
    }
    for (int y = 0; y < hh; y++) {
        const uint32_t *row = (const uint32_t *)(px + (size_t)y * (size_t)stride);
        unsigned char *o = raw + (size_t)y * rowlen;
        uint32_t last = 0xffffffffu;
        unsigned char idx = 0;
        *o++ = 0; /* no filter */
        for (int x = 0; x < w; x++) {
            uint32_t v = row[x] & 0xffffffu;
            if (v != last) {
                idx = (unsigned char)h.index[slot_of(&h, v)];
                last = v;
            }
            *o++ = idx;
        }
    }
    if (compress2(z, &zlen, raw, (uLong)rawlen, 3) == Z_OK) {
        static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
        strbuf_add(png, sig, 8);
        be32(ihdr, (uint32_t)w);
        be32(ihdr + 4, (uint32_t)hh);
        ihdr[8] = 8;  /* bits per index */
        ihdr[9] = 3;  /* indexed colour */
        ihdr[10] = 0; /* deflate */
        ihdr[11] = 0; /* adaptive filtering, each row's own */
        ihdr[12] = 0; /* not interlaced */
        chunk(png, "IHDR", ihdr, sizeof(ihdr));
        chunk(png, "PLTE", plte, (size_t)npal * 3);
        chunk(png, "IDAT", z, zlen);
        chunk(png, "IEND", NULL, 0);
        rc = 0;
    }
out:
    free(raw);
    free(z);
    return rc;
}

int canvas_finish(struct canvas *c)
{
    return canvas_finish_at(c, 0);
}

int canvas_finish_at(struct canvas *c, double end)
{
    int rc;
    if (end > 0 && end < c->height)
        c->height = (int)ceil(end);
    cairo_surface_flush(c->surface);
    strbuf_reset(&c->out->png);
    rc = write_png(c->surface, c->height, &c->out->png);
    c->out->width = c->width;
    c->out->height = c->height;
    cairo_destroy(c->cr);
    cairo_surface_destroy(c->surface);
    return rc;
}

void set_rgb(cairo_t *cr, unsigned rgb)
{
    cairo_set_source_rgb(cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0);
}

/* The font for the next text: looked up only when it changes. */
static void font(struct canvas *c, double size, bool bold)
{
    if (c->font_size == size && c->font_bold == bold)
        return;
    if (face_of(bold))
        cairo_set_font_face(c->cr, face_of(bold));
    else /* the font files are not there: whatever fontconfig finds */
        cairo_select_font_face(c->cr, FONT, CAIRO_FONT_SLANT_NORMAL,
                               bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(c->cr, size);
    c->font_size = size;
    c->font_bold = bold;
    /* For the tests: the smallest text a picture has. */
    if (!c->out->min_text || size < c->out->min_text)
        c->out->min_text = size;
}

/* What was drawn, for the tests: every label a player types must be. */
static void note_text(struct canvas *c, const char *s)
{
    struct render_out *o = c->out;
    size_t n = strlen(s);
    if (o->ntexts + n + 2 < sizeof(o->texts)) {
        memcpy(o->texts + o->ntexts, s, n);
        o->ntexts += n;
        o->texts[o->ntexts++] = '\n';
        o->texts[o->ntexts] = '\0';
    }
}

void text_at(struct canvas *c, double x, double y, double size, bool bold, unsigned rgb, const char *s)
{
    note_text(c, s);
    font(c, size, bold);
    set_rgb(c->cr, rgb);
    cairo_move_to(c->cr, x, y);
    cairo_show_text(c->cr, s);
}

double text_width(struct canvas *c, double size, bool bold, const char *s)
{
    cairo_text_extents_t e;
    font(c, size, bold);
    cairo_text_extents(c->cr, s, &e);
    return e.x_advance;
}

void text_centred(struct canvas *c, double cx, double cy, double size, bool bold, unsigned rgb, const char *s)
{
    cairo_text_extents_t e;
    note_text(c, s);
    font(c, size, bold);
    cairo_text_extents(c->cr, s, &e);
    set_rgb(c->cr, rgb);
    cairo_move_to(c->cr, cx - e.x_bearing - e.width / 2, cy - e.y_bearing - e.height / 2);
    cairo_show_text(c->cr, s);
}

double text_wrapped(struct canvas *c, double x, double y, double width, double size, unsigned rgb, const char *s)
{
    struct strbuf line = STRBUF_INIT;
    const char *p = s;
    double lh = size * 1.3;
    while (*p) {
        size_t n = strcspn(p, " \n");
        struct strbuf trial = STRBUF_INIT;
        strbuf_addf(&trial, "%s%s%.*s", line.buf, line.len ? " " : "", (int)n, p);
        if (line.len && text_width(c, size, false, trial.buf) > width) {
            text_at(c, x, y, size, false, rgb, line.buf);
            y += lh;
            strbuf_reset(&line);
            strbuf_add(&line, p, n);
        } else {
            strbuf_reset(&line);
            strbuf_addstr(&line, trial.buf);
        }
        strbuf_release(&trial);
        p += n;
        if (*p == '\n' && line.len) {
            text_at(c, x, y, size, false, rgb, line.buf);
            y += lh;
            strbuf_reset(&line);
        }
        if (*p)
            p++;
    }
    if (line.len) {
        text_at(c, x, y, size, false, rgb, line.buf);
        y += lh;
    }
    strbuf_release(&line);
    return y;
}

/* Dark text on light fills, white on dark ones. */
static unsigned label_rgb(unsigned fill)
{
    double l = 0.299 * ((fill >> 16) & 0xff) + 0.587 * ((fill >> 8) & 0xff) + 0.114 * (fill & 0xff);
    return l > 140 ? INK : PAPER;
}

static void note_mark(struct canvas *c, double x, double y, unsigned rgb, const char *what)
{
    struct render_out *o = c->out;
    if (o->nmarks < RENDER_MARKS) {
        o->marks[o->nmarks].x = (int)lround(x);
        o->marks[o->nmarks].y = (int)lround(y);
        o->marks[o->nmarks].rgb = rgb;
        snprintf(o->marks[o->nmarks].what, sizeof(o->marks[o->nmarks].what), "%s", what);
        o->nmarks++;
    }
}

void piece(struct canvas *c, double cx, double cy, double r, unsigned fill, const char *label, const char *what)
{
    cairo_new_path(c->cr);
    cairo_arc(c->cr, cx, cy, r, 0, 2 * M_PI);
    set_rgb(c->cr, fill);
    cairo_fill_preserve(c->cr);
    set_rgb(c->cr, INK);
    cairo_set_line_width(c->cr, 1.5);
    cairo_stroke(c->cr);
    if (*label)
        text_centred(c, cx, cy, r * 1.1 > TEXT_SMALL ? r * 1.1 : TEXT_SMALL, true, label_rgb(fill), label);
    /* Left of the label, inside the fill: where a test finds the colour. */
    note_mark(c, cx - r * 0.72, cy, fill, what);
}

void block(struct canvas *c, double cx, double cy, double r, unsigned fill, const char *label, const char *what)
{
    cairo_new_path(c->cr);
    cairo_rectangle(c->cr, cx - r, cy - r, 2 * r, 2 * r);
    set_rgb(c->cr, fill);
    cairo_fill_preserve(c->cr);
    set_rgb(c->cr, INK);
    cairo_set_line_width(c->cr, 2);
    cairo_stroke(c->cr);
    if (*label)
        text_centred(c, cx, cy, r > TEXT_SMALL ? r : TEXT_SMALL, true, label_rgb(fill), label);
    note_mark(c, cx - r * 0.8, cy - r * 0.8, fill, what);
}

void changed(struct canvas *c, double x, double y, double w, double h)
{
    const double dash[] = { 5, 3 };
    cairo_new_path(c->cr);
    cairo_rectangle(c->cr, x + 1.5, y + 1.5, w - 3, h - 3);
    set_rgb(c->cr, CHANGED);
    cairo_set_line_width(c->cr, 3);
    cairo_set_dash(c->cr, dash, 2, 0);
    cairo_stroke(c->cr);
    cairo_set_dash(c->cr, NULL, 0, 0);
}

void say(const cJSON *view, struct strbuf *out, const char *key, ...)
{
    va_list ap;
    va_start(ap, key);
    phrase_addv(out, js(view, "lang"), key, ap);
    va_end(ap);
}

const char *say_term(const cJSON *view, const char *key, const char *english)
{
    const char *t = catalog_text(js(view, "lang"), key, 1);
    return t ? t : english;
}

double header(struct canvas *c, const cJSON *view)
{
    struct strbuf line = STRBUF_INIT;
    const cJSON *when = cJSON_GetObjectItemCaseSensitive(view, "when");
    /* Where the game stands, in her words when the view says them. */
    const char *now = *js(view, "when_text") ? js(view, "when_text") : js(when, "text");
    char game[24];
    double y;
    snprintf(game, sizeof(game), "%d", ji(view, "game", 0));
    say(view, &line, "render.title", "title", js(view, "title"), "game", game, NULL);
    text_at(c, 12, 26, 20, true, INK, line.buf);
    strbuf_reset(&line);
    say(view, &line,
        str_eq(js(view, "status"), "finished") ? (*js(view, "viewer") ? "render.over-view-of" : "render.over-observer")
                                               : (*js(view, "viewer") ? "render.view-of" : "render.observer"),
        "when", now, "viewer", js(view, "viewer"), NULL);
    y = text_wrapped(c, 12, 50, c->width - 24, TEXT_SMALL, INK, line.buf);
    strbuf_release(&line);
    return y;
}

double legend(struct canvas *c, double y, unsigned fill, bool square, const char *label, const char *what,
              const char *text)
{
    double next;
    if (square)
        block(c, 24, y - 5, 12, fill, label, what);
    else
        piece(c, 24, y - 5, 13, fill, label, what);
    next = text_wrapped(c, 46, y, c->width - 58, TEXT_SMALL, INK, text);
    return next + 10 > y + 30 ? next + 10 : y + 30;
}

double note(struct canvas *c, double y, bool bold, const char *text)
{
    if (bold) {
        text_at(c, 12, y, TEXT_SMALL, true, INK, text);
        return y + TEXT_SMALL * 1.3;
    }
    return text_wrapped(c, 12, y, c->width - 24, TEXT_SMALL, INK, text);
}

int seat_of(const cJSON *view, const char *name)
{
    const cJSON *p;
    int i = 0;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(view, "players")) {
        if (str_eq(js(p, "name"), name))
            return i;
        i++;
    }
    return -1;
}
