/* kuniumi.c: KuniUmi's 6x6 board as a picture: tokens and gods of Land and Sea, who plays which, tokens in hand. */
#include "render/draw.h"
#include "render/games.h"
#include "lib/util.h"

#include <stdio.h>
#include <string.h>

#define N 6
#define CELL 60
#define X0 60
#define LAND_RGB 0xe69f00u /* orange */
#define SEA_RGB 0x0072b2u  /* blue */

int render_kuniumi(const cJSON *view, const cJSON *mv, const cJSON *prev, struct render_out *out, struct strbuf *err)
{
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(mv, "rows");
    const cJSON *old = prev ? cJSON_GetObjectItemCaseSensitive(prev, "rows") : NULL;
    struct canvas c;
    double y0, y;

    if (cJSON_GetArraySize(rows) != N) {
        strbuf_addstr(err, "the KuniUmi view has no 6 rows");
        return -1;
    }
    if (!canvas_open(&c, RENDER_WIDTH, 700, out)) {
        strbuf_addstr(err, "cairo cannot make a canvas");
        return -1;
    }
    y0 = header(&c, view) + 14;
    for (int r = 0; r < N; r++) {
        const char *row = cJSON_GetStringValue(cJSON_GetArrayItem(rows, r));
        const char *was = old ? cJSON_GetStringValue(cJSON_GetArrayItem(old, r)) : NULL;
        char rank[16];
        snprintf(rank, sizeof(rank), "%d", N - r);
        text_centred(&c, X0 - 20, y0 + r * CELL + CELL / 2.0, TEXT_LABEL, true, INK, rank);
        for (int f = 0; f < N; f++) {
            double x = X0 + f * CELL, yy = y0 + r * CELL, cx = x + CELL / 2.0, cy = yy + CELL / 2.0;
            char ch = row && strlen(row) == N ? row[f] : '.', what[32], sq[4];
            snprintf(sq, sizeof(sq), "%c%d", 'a' + f, N - r);
            cairo_rectangle(c.cr, x, yy, CELL, CELL);
            set_rgb(c.cr, (r + f) % 2 ? FAINT : PAPER);
            cairo_fill_preserve(c.cr);
            set_rgb(c.cr, GRID);
            cairo_set_line_width(c.cr, 1);
            cairo_stroke(c.cr);
            snprintf(what, sizeof(what), "%c on %s", ch, sq);
            if (ch == 'l' || ch == 's')
                piece(&c, cx, cy, CELL * 0.34, ch == 'l' ? LAND_RGB : SEA_RGB, ch == 'l' ? "L" : "S", what);
            else if (ch == 'L' || ch == 'S')
                block(&c, cx, cy, CELL * 0.36, ch == 'L' ? LAND_RGB : SEA_RGB, ch == 'L' ? "EG" : "SG", what);
            if (was && strlen(was) == N && was[f] != ch)
                changed(&c, x, yy, CELL, CELL);
        }
    }
    for (int f = 0; f < N; f++) {
        char file[2] = { (char)('a' + f), '\0' };
        text_centred(&c, X0 + f * CELL + CELL / 2.0, y0 + N * CELL + 16, TEXT_LABEL, true, INK, file);
    }
    y = y0 + N * CELL + 50;
    {
        struct strbuf said = STRBUF_INIT;
        char n[16];
        snprintf(n, sizeof(n), "%d", ji(mv, "land_in_hand", 0));
        say(view, &said, *js(mv, "land") ? "render.kuniumi.land" : "render.kuniumi.land-unchosen", "player",
            js(mv, "land"), "n", n, NULL);
        y = legend(&c, y, LAND_RGB, false, "L", "legend land", said.buf);
        strbuf_reset(&said);
        snprintf(n, sizeof(n), "%d", ji(mv, "sea_in_hand", 0));
        say(view, &said, *js(mv, "sea") ? "render.kuniumi.sea" : "render.kuniumi.sea-unchosen", "player",
            js(mv, "sea"), "n", n, NULL);
        y = legend(&c, y, SEA_RGB, false, "S", "legend sea", said.buf);
        strbuf_reset(&said);
        say(view, &said, *js(mv, "to_move") ? "render.kuniumi.to-move" : "render.kuniumi.over", "who",
            js(mv, "to_move"), NULL);
        y = note(&c, y, false, said.buf);
        strbuf_release(&said);
    }
    return canvas_finish_at(&c, y);
}
