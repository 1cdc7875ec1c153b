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

/* An animal of the view (its English name: Black Mamba) in the reader's
 * words: the catalogue's term.bumuntu.WORD, WORD its name's last word
 * (mamba; the Rhinoceros's order word, rhino). */
static const char *animal_said(const cJSON *view, const char *name)
{
    const char *last = strrchr(name, ' ');
    char key[48];
    snprintf(key, sizeof(key), "term.bumuntu.%s", last ? last + 1 : name);
    str_lower(key);
    if (str_eq(key, "term.bumuntu.rhinoceros"))
        snprintf(key, sizeof(key), "term.bumuntu.rhino");
    return say_term(view, key, name);
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
    {
        struct strbuf s = STRBUF_INIT;
        say(view, &s, "render.bumuntu.tiles", NULL);
        y = note(&c, y, false, s.buf) + 6;
        /* The favor board, a spot a line. */
        strbuf_reset(&s);
        say(view, &s, "render.bumuntu.favor", NULL);
        y = note(&c, y, true, s.buf);
        strbuf_reset(&s);
        say(view, &s, "render.bumuntu.gold", NULL);
        y = note(&c, y, false, s.buf);
        strbuf_release(&s);
    }
    i = 0;
    cJSON_ArrayForEach(spot, cJSON_GetObjectItemCaseSensitive(mv, "favor")) {
        struct strbuf line = STRBUF_INIT;
        char n[16], a[16], b[16];
        snprintf(n, sizeof(n), "%d", i + 1);
        snprintf(a, sizeof(a), "%d", ji(spot, ji(spot, "per_tile", 0) ? "per_tile" : "gold", 0));
        snprintf(b, sizeof(b), "%d", ji(spot, "silver", 0));
        if (ji(spot, "per_tile", 0))
            say(view, &line, "render.bumuntu.per-tile", "spot", n, "animal", animal_said(view, js(spot, "animal")), "n",
                a, NULL);
        else
            say(view, &line, "render.bumuntu.gold-silver", "spot", n, "animal", animal_said(view, js(spot, "animal")),
                "gold", a, "silver", b, NULL);
        y = note(&c, y, false, line.buf);
        strbuf_release(&line);
        i++;
    }
    y += 12;
    i = 0;
    cJSON_ArrayForEach(p, players) {
        char num[16], what[32], tiles[16], chips[16];
        struct strbuf line = STRBUF_INIT, where = STRBUF_INIT, chipped = STRBUF_INIT;
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(p, "tile");
        snprintf(num, sizeof(num), "%d", i + 1);
        snprintf(what, sizeof(what), "legend %d", i + 1);
        snprintf(tiles, sizeof(tiles), "%d", ji(p, "tiles", 0));
        snprintf(chips, sizeof(chips), "%d", ji(p, "chips", 0));
        if (*js(p, "square"))
            say(view, &where, "render.bumuntu.on", "square", js(p, "square"), "animal",
                t ? animal_said(view, js(t, "animal")) : "", NULL);
        else
            say(view, &where, "render.bumuntu.outside", NULL);
        strbuf_trim(&where);
        say(view, &chipped, "render.bumuntu.chips", "n", chips, NULL);
        say(view, &line, "render.bumuntu.player", "player", js(p, "player"), "where", where.buf, "n", tiles, "chips",
            chipped.buf, NULL);
        y = legend(&c, y, seat_rgb(i), false, num, what, line.buf);
        strbuf_release(&line);
        strbuf_release(&where);
        strbuf_release(&chipped);
        i++;
    }
    cJSON_ArrayForEach(p, players)
        if (*js(p, "shield_text")) {
            y = note(&c, y + 4, false, js(p, "shield_text"));
        }
    {
        struct strbuf s = STRBUF_INIT;
        say(view, &s, "render.changed-squares", NULL);
        y = note(&c, y + 6, false, s.buf);
        strbuf_release(&s);
    }
    return canvas_finish_at(&c, y);
}
