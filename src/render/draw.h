/* draw.h: what every game's picture is drawn with: a canvas, the colour-blind-safe palette, text, pieces, the header and the PNG. */
#ifndef NGOMA_DRAW_H
#define NGOMA_DRAW_H

#include <cairo.h>
#include <cjson/cJSON.h>
#include <stdbool.h>

#include "render/render.h"

struct canvas {
    cairo_surface_t *surface;
    cairo_t *cr;
    int width, height;
    struct render_out *out;
    double font_size;  /* the font set last (0: none yet) */
    bool font_bold;
};

/* Colours as 0xRRGGBB. */
#define INK 0x222222u
#define PAPER 0xffffffu
#define GRID 0x999999u
#define FAINT 0xeeeeeeu
#define CHANGED 0x000000u

/* The seats' colours: the Okabe-Ito palette, told apart by readers with
 * any common colour blindness; every piece also carries a letter or a
 * number. */
unsigned seat_rgb(int seat);
/* A game's own colour names (red, blue, green...) as the palette's tones. */
unsigned named_rgb(const char *name);

/* A label in the language of the view's reader (its "lang"; English when
 * it has none): the catalogue's phrase key over pairs of strings, name
 * then value, ended by NULL, added to out. */
void say(const cJSON *view, struct strbuf *out, const char *key, ...) __attribute__((sentinel));
/* A word of the game in that language (term.KEY), or english when the
 * catalogue has none. */
const char *say_term(const cJSON *view, const char *key, const char *english);

/* A white canvas of width x height; false when cairo cannot make one. */
bool canvas_open(struct canvas *c, int width, int height, struct render_out *out);
/* Writes the PNG into out and frees the canvas; -1 when it cannot. With
 * end > 0 the picture ends there (a canvas is opened tall enough for any
 * wrapping, then cut to what was drawn). */
int canvas_finish(struct canvas *c);
int canvas_finish_at(struct canvas *c, double end);

void set_rgb(cairo_t *cr, unsigned rgb);
/* Text with its baseline's left end at x, y. */
void text_at(struct canvas *c, double x, double y, double size, bool bold, unsigned rgb, const char *s);
/* Text centred on cx, cy. */
void text_centred(struct canvas *c, double cx, double cy, double size, bool bold, unsigned rgb, const char *s);
double text_width(struct canvas *c, double size, bool bold, const char *s);
/* Text wrapped within width from x, y down; returns the y under it. */
double text_wrapped(struct canvas *c, double x, double y, double width, double size, unsigned rgb, const char *s);

/* A round piece in fill with its label, and its place noted for the tests. */
void piece(struct canvas *c, double cx, double cy, double r, unsigned fill, const char *label, const char *what);
/* A square piece (a god, Mambo): the same with corners. */
void block(struct canvas *c, double cx, double cy, double r, unsigned fill, const char *label, const char *what);
/* The mark of what the last step changed: a thick ring round a box. */
void changed(struct canvas *c, double x, double y, double w, double h);

/* The title line and where the game stands, whose view it is; returns
 * the y under it. */
double header(struct canvas *c, const cJSON *view);

/* Text sizes: nothing smaller than RENDER_TEXT_MIN. */
#define TEXT_SMALL RENDER_TEXT_MIN
#define TEXT_LABEL 16
/* A legend line: a piece (square when block) with its label at the left,
 * then text wrapped to the width; returns the y of the next line. */
double legend(struct canvas *c, double y, unsigned fill, bool square, const char *label, const char *what,
              const char *text);
/* A note: text wrapped across the picture from its left margin; returns
 * the y of the next line. */
double note(struct canvas *c, double y, bool bold, const char *text);

/* The seat (0-based) of a player's name in view's players, -1 when none. */
int seat_of(const cJSON *view, const char *name);

#endif
