/* render.h: boards as pictures: a PNG of what one view shows, drawn with cairo from the game's view JSON alone. */
#ifndef NGOMA_RENDER_H
#define NGOMA_RENDER_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

/* The picture is this wide; its height is the game's. */
#define RENDER_WIDTH 480
/* No text is drawn smaller: a mail shows the picture in a phone's column
 * of some 362 pixels (390 less the margins), where 15 is 11 pixels. */
#define RENDER_TEXT_MIN 15
/* Where a piece was drawn and in which colour, for the tests that decode
 * the PNG and look there. */
struct render_mark {
    int x, y;
    unsigned rgb;
    char what[32];
};
#define RENDER_MARKS 96

/* Bumped whenever what the drawing module and its callers share changes:
 * a module of another build is refused, not called. */
#define RENDER_ABI 1

struct render_out {
    struct strbuf png;   /* the PNG file */
    int width, height;
    struct render_mark marks[RENDER_MARKS];
    int nmarks;
    double min_text;     /* the smallest text drawn, in pixels (0: none) */
    char texts[2048];    /* the first words drawn, a line each, for the tests */
    size_t ntexts;
};

/*
 * Draws the board of one view, through the drawing module (board.c and
 * the files it calls, built as ngoma-render.so with cairo and loaded the
 * first time a process draws): view is what core view_json gives a seat
 * or an observer (title, when, players, viewer, and the module's own
 * "view"); prev is the module's view of the same seat before the last
 * step (its changes are marked), or NULL. The picture shows what the view
 * shows and nothing else, with a legend. -1 with why in err when the
 * view cannot be drawn.
 */
int render_board(const cJSON *view, const cJSON *prev, struct render_out *out, struct strbuf *err);
void render_out_init(struct render_out *out);
void render_out_release(struct render_out *out);

/* Whether a game's boards are drawn. */
bool render_knows(const char *module);

/* The games drawn, each with its drawing (board.c's table, render.c's
 * render_knows): one row a game, X(module name, drawing function). */
#define RENDER_GAMES(X)                                                                                               \
    X("kuniumi", render_kuniumi)                                                                                      \
    X("kalimambo", render_kalimambo)                                                                                  \
    X("bumuntu", render_bumuntu)                                                                                      \
    X("bantu", render_bantu)                                                                                          \
    X("african-empires", render_african_empires)

/* The alt text of a view's picture in lang: the game, where it stands
 * (when: the view's when in that language), whose view, and that the text
 * part holds the same board. */
void render_alt(const cJSON *view, const char *lang, const char *when, struct strbuf *out);

/* A view's string member, "" when absent; its number member, def when
 * absent (render.c, for the drawing module too). */
const char *js(const cJSON *o, const char *key);
int ji(const cJSON *o, const char *key, int def);

#endif
