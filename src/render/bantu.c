/* bantu.c: Bantu's track as a picture, drawn from the track the game read from its board file: the circles, their rows and links, the pieces. */
#include "render/draw.h"
#include "render/games.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SECTIONS 64
#define LANES 4
#define STEP 30
#define R 11.0

struct track {
    int nsec;
    bool present[MAX_SECTIONS][LANES];
    int row[MAX_SECTIONS][LANES];
    unsigned next[MAX_SECTIONS][LANES]; /* lanes of the next section; bit 4: Finish */
    int start[MAX_SECTIONS];            /* the piece number whose starting line it is, 0: none */
};

/* "4:a0a,b0b/a1ab,..." as the game writes its board (board_to_text). */
static int track_read(const char *text, struct track *t, struct strbuf *err)
{
    const char *p = text;
    memset(t, 0, sizeof(*t));
    while (*p && t->nsec < MAX_SECTIONS) {
        int s = t->nsec++;
        while (*p >= '1' && *p <= '9' && p[1] == ':') {
            t->start[s] = *p - '0';
            p += 2;
        }
        while (*p && *p != '/') {
            int lane = *p - 'a', row;
            char *end;
            if (lane < 0 || lane >= LANES) {
                strbuf_addstr(err, "the Bantu view's track is unreadable");
                return -1;
            }
            row = (int)strtol(p + 1, &end, 10);
            p = end;
            t->present[s][lane] = true;
            t->row[s][lane] = row;
            while ((*p >= 'a' && *p <= 'd') || *p == 'F') {
                t->next[s][lane] |= *p == 'F' ? 16u : 1u << (*p - 'a');
                p++;
            }
            if (*p == ',')
                p++;
        }
        if (*p == '/')
            p++;
    }
    if (!t->nsec) {
        strbuf_addstr(err, "the Bantu view has no track");
        return -1;
    }
    return 0;
}

static double lane_x(int lane)
{
    return 170 + lane * 80;
}

/* The piece standing on circle "24b" in a view: its seat and number. */
static bool piece_on(const cJSON *mv, const char *circle, int *seat, int *k)
{
    const cJSON *p, *v;
    int s = 0;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(mv, "players")) {
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(p, "pieces"))
            if (cJSON_IsString(v) && str_eq(v->valuestring, circle)) {
                *seat = s;
                *k = atoi(v->string);
                return true;
            }
        s++;
    }
    return false;
}

int render_bantu(const cJSON *view, const cJSON *mv, const cJSON *prev, struct render_out *out, struct strbuf *err)
{
    struct track t;
    struct canvas c;
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(mv, "players"), *p;
    double y0, y;
    int s;

    if (track_read(js(mv, "track"), &t, err))
        return -1;
    if (!canvas_open(&c, RENDER_WIDTH, 130 + t.nsec * STEP + 80 + 50 * (cJSON_GetArraySize(players) + 2), out)) {
        strbuf_addstr(err, "cairo cannot make a canvas");
        return -1;
    }
    y0 = header(&c, view) + 14;
    /* The lanes' letters, which every order names (12c), above the track. */
    for (int l = 0; l < LANES; l++) {
        char letter[2] = { (char)('a' + l), '\0' };
        text_centred(&c, lane_x(l), y0, TEXT_LABEL, true, INK, letter);
    }
    y0 += 30;
    /* The links first, under the circles, each kind in one path: forward
     * to the next section, then across between joined circles (a row). */
    for (int pass = 0; pass < 2; pass++) {
        cairo_new_path(c.cr);
        for (s = 0; s < t.nsec; s++)
            for (int l = 0; l < LANES; l++) {
                double x = lane_x(l), yy = y0 + s * STEP;
                if (!t.present[s][l])
                    continue;
                for (int m = 0; pass == 0 && m < LANES && s + 1 < t.nsec; m++)
                    if (t.next[s][l] & (1u << m)) {
                        cairo_move_to(c.cr, x, yy);
                        cairo_line_to(c.cr, lane_x(m), yy + STEP);
                    }
                for (int m = l + 1; pass == 1 && m < LANES; m++)
                    if (t.present[s][m] && t.row[s][m] == t.row[s][l]) {
                        bool between = false;
                        for (int q = l + 1; q < m; q++)
                            between |= t.present[s][q];
                        if (!between) {
                            cairo_move_to(c.cr, x, yy);
                            cairo_line_to(c.cr, lane_x(m), yy);
                        }
                    }
            }
        set_rgb(c.cr, pass ? INK : GRID);
        cairo_set_line_width(c.cr, pass ? 3 : 1.5);
        cairo_stroke(c.cr);
    }
    /* One circle drawn once, stamped on every circle of the track: a
     * hundred arcs rasterised one by one cost more than the whole rest. */
    {
        int side = (int)(2 * R + 4);
        cairo_surface_t *stamp = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, side, side);
        cairo_t *sc = cairo_create(stamp);
        cairo_arc(sc, side / 2.0, side / 2.0, R, 0, 6.2832);
        set_rgb(sc, PAPER);
        cairo_fill_preserve(sc);
        set_rgb(sc, INK);
        cairo_set_line_width(sc, 1);
        cairo_stroke(sc);
        cairo_destroy(sc);
        for (s = 0; s < t.nsec; s++)
            for (int l = 0; l < LANES; l++)
                if (t.present[s][l]) {
                    cairo_set_source_surface(c.cr, stamp, lane_x(l) - side / 2.0, y0 + s * STEP - side / 2.0);
                    cairo_paint(c.cr);
                }
        cairo_surface_destroy(stamp);
    }
    for (s = 0; s < t.nsec; s++) {
        double yy = y0 + s * STEP;
        char label[24];
        snprintf(label, sizeof(label), "%d", s);
        text_centred(&c, 128, yy, TEXT_SMALL, false, INK, label);
        if (t.start[s]) {
            snprintf(label, sizeof(label), "start %d", t.start[s]);
            text_at(&c, 12, yy + 5, TEXT_SMALL, true, INK, label);
        }
        for (int l = 0; l < LANES; l++) {
            char name[8];
            int seat, k;
            bool now, then = false;
            int pseat = -1, pk = 0;
            if (!t.present[s][l])
                continue;
            snprintf(name, sizeof(name), "%d%c", s, 'a' + l);
            now = piece_on(mv, name, &seat, &k);
            if (prev)
                then = piece_on(prev, name, &pseat, &pk);
            if (now) {
                char num[16], what[32];
                const cJSON *pl = cJSON_GetArrayItem(players, seat);
                snprintf(num, sizeof(num), "%d", k);
                snprintf(what, sizeof(what), "%s %d on %s", js(pl, "player"), k, name);
                piece(&c, lane_x(l), yy, R + 1, named_rgb(js(pl, "colour")), num, what);
            }
            if (prev && (now != then || (now && (seat != pseat || k != pk))))
                changed(&c, lane_x(l) - R - 4, yy - R - 4, 2 * R + 8, 2 * R + 8);
            if (t.next[s][l] & 16u && s == t.nsec - 1)
                text_centred(&c, lane_x(l), yy + 22, TEXT_SMALL, false, INK, "v");
        }
    }
    y = y0 + t.nsec * STEP + 16;
    for (int l = 0; l < LANES; l++) {
        char letter[2] = { (char)('a' + l), '\0' };
        text_centred(&c, lane_x(l), y, TEXT_LABEL, true, INK, letter);
    }
    y += 24;
    text_centred(&c, (lane_x(0) + lane_x(3)) / 2, y, TEXT_LABEL, true, INK, "Finish");
    y += 34;
    s = 0;
    cJSON_ArrayForEach(p, players) {
        struct strbuf line = STRBUF_INIT, start = STRBUF_INIT, home = STRBUF_INIT;
        const cJSON *v;
        char what[32];
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(p, "pieces")) {
            if (str_eq(cJSON_GetStringValue(v) ? v->valuestring : "", "start"))
                strbuf_addf(&start, " %s", v->string);
            else if (str_eq(cJSON_GetStringValue(v) ? v->valuestring : "", "finish"))
                strbuf_addf(&home, " %s", v->string);
        }
        snprintf(what, sizeof(what), "legend %s", js(p, "player"));
        say(view, &line, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "resigned")) ? "render.bantu.resigned"
                                                                                       : "render.bantu.player",
            "player", js(p, "player"), "colour", js(p, "colour"), "start",
            start.len ? start.buf + 1 : say_term(view, "render.none", "none"), "home",
            home.len ? home.buf + 1 : say_term(view, "render.none", "none"), NULL);
        y = legend(&c, y, named_rgb(js(p, "colour")), false, "", what, line.buf);
        strbuf_release(&line);
        strbuf_release(&start);
        strbuf_release(&home);
        s++;
    }
    {
        struct strbuf line = STRBUF_INIT;
        say(view, &line, *js(mv, "to_move") ? "render.bantu.to-move" : "render.bantu.over", "who", js(mv, "to_move"),
            NULL);
        y = note(&c, y, false, line.buf);
        strbuf_release(&line);
    }
    return canvas_finish_at(&c, y);
}
