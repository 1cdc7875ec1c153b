/* bumuntu.c: Bumuntu's jungle as a picture: the 8x8 tiles by animal and kind, the pawns by seat, the favor board, the viewer's shield. */
#include "render/draw.h"
#include "render/games.h"
#include "lib/util.h"

#include <stdio.h>
#include <string.h>

#define N 8
#define CELL 52
#define X0 44

static unsigned kind_rgb(char kind)
{
    switch (kind) {
    case 'A': return 0xfde3a7; /* advancement */
    case 'F': return 0xd9efd5; /* food */
    case 'N': return 0xd6e4f5; /* Nkisi */
    case 'Y': return 0xf2d7e8; /* Yowa */
    default: return PAPER;
    }
}

/* The pawn standing on file f, rank r (0-based, rank 0 the bottom). */
static int pawn_on(const cJSON *mv, int f, int r)
{
    const cJSON *p;
    int i = 0;
    char sq[4];
    snprintf(sq, sizeof(sq), "%c%d", 'a' + f, r + 1);
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(mv, "players")) {
        if (str_eq(js(p, "square"), sq))
            return i;
        i++;
    }
    return -1;
}

static const char *tile_at(const cJSON *mv, int row, int f)
{
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(mv, "rows"), row);
    return cJSON_GetStringValue(cJSON_GetArrayItem(r, f));
}

int render_bumuntu(const cJSON *view, const cJSON *mv, const cJSON *prev, struct render_out *out, struct strbuf *err)
{
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(mv, "players"), *p, *spot;
    struct canvas c;
    double y0, y;
    int i;

    if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(mv, "rows")) != N) {
        strbuf_addstr(err, "the Bumuntu view has no 8 rows");
        return -1;
    }
    if (!canvas_open(&c, RENDER_WIDTH, 90 + N * CELL + 40 + 26 * 12 + 48 * cJSON_GetArraySize(players) + 200, out)) {
        strbuf_addstr(err, "cairo cannot make a canvas");
        return -1;
    }
    y0 = header(&c, view) + 14;
    for (int row = 0; row < N; row++) {
        char rank[16];
        snprintf(rank, sizeof(rank), "%d", N - row);
        text_centred(&c, X0 - 18, y0 + row * CELL + CELL / 2.0, TEXT_LABEL, true, INK, rank);
        for (int f = 0; f < N; f++) {
            const char *t = tile_at(mv, row, f), *was = prev ? tile_at(prev, row, f) : NULL;
            double x = X0 + f * CELL, yy = y0 + row * CELL;
            int pw = pawn_on(mv, f, N - 1 - row), ppw = prev ? pawn_on(prev, f, N - 1 - row) : -1;
            char code[3] = "", kind[2] = "";
            if (t && strlen(t) == 3) {
                memcpy(code, t, 2);
                kind[0] = t[2];
            }
            cairo_rectangle(c.cr, x, yy, CELL, CELL);
            set_rgb(c.cr, kind_rgb(kind[0]));
            cairo_fill(c.cr);
            if (*code)
                text_at(&c, x + 4, yy + 20, TEXT_SMALL, true, INK, t);
            if (pw >= 0) {
                char num[16], what[32];
                snprintf(num, sizeof(num), "%d", pw + 1);
                snprintf(what, sizeof(what), "pawn %d on %c%d", pw + 1, 'a' + f, N - row);
                piece(&c, x + CELL - 15, yy + CELL - 15, 13, seat_rgb(pw), num, what);
            }
            if (prev && (pw != ppw || !was || !t || strcmp(was, t) != 0))
                changed(&c, x, yy, CELL, CELL);
        }
    }
    /* The grid in one path, over the tiles, under the marks. */
    cairo_new_path(c.cr);
    for (int k = 0; k <= N; k++) {
        cairo_move_to(c.cr, X0 + k * CELL + 0.5, y0);
        cairo_line_to(c.cr, X0 + k * CELL + 0.5, y0 + N * CELL);
        cairo_move_to(c.cr, X0, y0 + k * CELL + 0.5);
        cairo_line_to(c.cr, X0 + N * CELL, y0 + k * CELL + 0.5);
    }
    set_rgb(c.cr, GRID);
    cairo_set_line_width(c.cr, 1);
    cairo_stroke(c.cr);
    for (int f = 0; f < N; f++) {
        char file[2] = { (char)('a' + f), '\0' };
        text_centred(&c, X0 + f * CELL + CELL / 2.0, y0 + N * CELL + 15, TEXT_LABEL, true, INK, file);
    }
    y = y0 + N * CELL + 44;
    y = note(&c, y, false, "Tiles: animal, then A advancement, F food, N Nkisi, Y Yowa.") + 6;
    /* The favor board, a spot a line. */
    y = note(&c, y, true, "Favor board, top to bottom:");
    y = note(&c, y, false, "(gold: most tiles, silver: second)");
    i = 0;
    cJSON_ArrayForEach(spot, cJSON_GetObjectItemCaseSensitive(mv, "favor")) {
        char line[64];
        if (ji(spot, "per_tile", 0))
            snprintf(line, sizeof(line), "%d %s: %d a tile", i + 1, js(spot, "animal"), ji(spot, "per_tile", 0));
        else
            snprintf(line, sizeof(line), "%d %s: gold %d, silver %d", i + 1, js(spot, "animal"), ji(spot, "gold", 0),
                     ji(spot, "silver", 0));
        y = note(&c, y, false, line);
        i++;
    }
    y += 12;
    i = 0;
    cJSON_ArrayForEach(p, players) {
        char line[160], num[16], what[32];
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(p, "tile");
        int tiles = ji(p, "tiles", 0), chips = ji(p, "chips", 0);
        snprintf(num, sizeof(num), "%d", i + 1);
        snprintf(what, sizeof(what), "legend %d", i + 1);
        snprintf(line, sizeof(line), "%s %s%s%s%s: %d tile%s, %d chip%s", js(p, "player"),
                 *js(p, "square") ? "on " : "not in the jungle yet", js(p, "square"), t ? " " : "",
                 t ? js(t, "animal") : "", tiles, tiles == 1 ? "" : "s", chips, chips == 1 ? "" : "s");
        y = legend(&c, y, seat_rgb(i), false, num, what, line);
        i++;
    }
    cJSON_ArrayForEach(p, players)
        if (*js(p, "shield_text")) {
            y = note(&c, y + 4, false, js(p, "shield_text"));
        }
    y = note(&c, y + 6, false, "Dashed squares: what the last step changed.");
    return canvas_finish_at(&c, y);
}
