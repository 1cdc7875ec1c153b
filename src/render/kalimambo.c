/* kalimambo.c: Kalimambo's loop as a picture: the spaces round a ring, the explorers, Kali and Mambo, the dung heaps, everyone's cards. */
#include "render/draw.h"
#include "render/games.h"
#include "lib/util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_TRACK 64
#define RING 178.0
#define BOX 30.0
#define DUNG_RGB 0x8c6d46u

/* Who stands on each space: an explorer's index, -2 Kali, -3 Mambo, -1 none. */
static void occupants(const cJSON *mv, int n, int *who)
{
    const cJSON *e;
    int i = 0;
    for (int s = 0; s < n; s++)
        who[s] = -1;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(mv, "explorers")) {
        int sp = ji(e, "space", -1);
        if (sp >= 0 && sp < n)
            who[sp] = i;
        i++;
    }
    if (ji(mv, "kali", -1) >= 0 && ji(mv, "kali", -1) < n)
        who[ji(mv, "kali", -1)] = -2;
    if (ji(mv, "mambo", -1) >= 0 && ji(mv, "mambo", -1) < n)
        who[ji(mv, "mambo", -1)] = -3;
}

static void cards_text(const cJSON *list, struct strbuf *out)
{
    const cJSON *v;
    cJSON_ArrayForEach(v, list)
        strbuf_addf(out, "%s%d", out->len && out->buf[out->len - 1] != ' ' ? " " : "", v->valueint);
    if (!cJSON_GetArraySize(list))
        strbuf_addstr(out, "none");
}

int render_kalimambo(const cJSON *view, const cJSON *mv, const cJSON *prev, struct render_out *out, struct strbuf *err)
{
    int n = ji(mv, "track_length", 0), who[MAX_TRACK], was[MAX_TRACK];
    const cJSON *dung = cJSON_GetObjectItemCaseSensitive(mv, "dung"), *ex = cJSON_GetObjectItemCaseSensitive(mv, "explorers"), *e, *d;
    struct canvas c;
    double cx = RENDER_WIDTH / 2.0, cy, y;
    int i;

    if (n < 8 || n > MAX_TRACK) {
        strbuf_addf(err, "the Kalimambo view has a track of %d spaces", n);
        return -1;
    }
    if (!canvas_open(&c, RENDER_WIDTH, 470 + 22 * (cJSON_GetArraySize(ex) + 2), out)) {
        strbuf_addstr(err, "cairo cannot make a canvas");
        return -1;
    }
    cy = header(&c, view) + RING + BOX;
    occupants(mv, n, who);
    if (prev)
        occupants(prev, n, was);
    for (int s = 0; s < n; s++) {
        /* Space 0 at the top, the direction of travel clockwise. */
        double a = -M_PI / 2 + 2 * M_PI * s / n, x = cx + RING * cos(a), yy = cy + RING * sin(a);
        char num[8], what[40];
        bool heap = false;
        cJSON_ArrayForEach(d, dung)
            heap |= d->valueint == s;
        cairo_rectangle(c.cr, x - BOX / 2, yy - BOX / 2, BOX, BOX);
        set_rgb(c.cr, heap ? 0xeadfce : PAPER);
        cairo_fill_preserve(c.cr);
        set_rgb(c.cr, GRID);
        cairo_set_line_width(c.cr, 1);
        cairo_stroke(c.cr);
        if (heap)
            text_centred(&c, x + BOX / 2 - 6, yy - BOX / 2 + 6, 10, true, DUNG_RGB, "*");
        snprintf(num, sizeof(num), "%d", s);
        text_centred(&c, cx + (RING + BOX * 0.95) * cos(a), cy + (RING + BOX * 0.95) * sin(a), 10, false, INK, num);
        if (who[s] >= 0) {
            e = cJSON_GetArrayItem(ex, who[s]);
            snprintf(what, sizeof(what), "%s on %d", js(e, "player"), s);
            piece(&c, x, yy, BOX * 0.4, named_rgb(js(e, "colour")), js(e, "letter"), what);
        } else if (who[s] == -2) {
            snprintf(what, sizeof(what), "Kali on %d", s);
            block(&c, x, yy, BOX * 0.34, PAPER, "K", what);
        } else if (who[s] == -3) {
            snprintf(what, sizeof(what), "Mambo on %d", s);
            block(&c, x, yy, BOX * 0.34, INK, "M", what);
        }
        if (prev && was[s] != who[s])
            changed(&c, x - BOX / 2 - 3, yy - BOX / 2 - 3, BOX + 6, BOX + 6);
    }
    /* Inside the ring: the round, and Kali's cards. */
    {
        char line[96];
        struct strbuf k = STRBUF_INIT;
        const char *when = js(cJSON_GetObjectItemCaseSensitive(view, "when"), "text");
        if (str_eq(js(view, "status"), "finished"))
            snprintf(line, sizeof(line), "Over after %s", when);
        else
            snprintf(line, sizeof(line), "%c%s", *when >= 'a' && *when <= 'z' ? *when - 'a' + 'A' : *when, *when ? when + 1 : "");
        text_centred(&c, cx, cy - 40, 15, true, INK, line);
        strbuf_addstr(&k, "Kali's cards left: ");
        cards_text(cJSON_GetObjectItemCaseSensitive(mv, "kali_cards_left"), &k);
        text_centred(&c, cx, cy - 14, 11, false, INK, k.buf);
        if (ji(mv, "kali_last_card", -1) >= 0) {
            snprintf(line, sizeof(line), "Kali played %d last round", ji(mv, "kali_last_card", -1));
            text_centred(&c, cx, cy + 6, 11, false, INK, line);
        }
        text_centred(&c, cx, cy + 34, 11, false, INK, "* a dung heap: 3 points");
        text_centred(&c, cx, cy + 52, 11, false, INK, "travel: 0, 1, 2 ... clockwise");
        strbuf_release(&k);
    }
    /* Below: every player's points and cards (played cards are face up). */
    y = cy + RING + BOX + 26;
    i = 0;
    cJSON_ArrayForEach(e, ex) {
        struct strbuf line = STRBUF_INIT;
        char what[40];
        snprintf(what, sizeof(what), "legend %s", js(e, "player"));
        piece(&c, 22, y - 5, 9, named_rgb(js(e, "colour")), js(e, "letter"), what);
        strbuf_addf(&line, "%s: %d pt%s", js(e, "player"), ji(e, "points", 0), ji(e, "points", 0) == 1 ? "" : "s");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "resigned")))
            strbuf_addstr(&line, ", resigned");
        else {
            strbuf_addstr(&line, "; cards ");
            cards_text(cJSON_GetObjectItemCaseSensitive(e, "cards"), &line);
        }
        if (ji(e, "last_card", -1) >= 0)
            strbuf_addf(&line, "; last %d", ji(e, "last_card", -1));
        text_at(&c, 38, y, 13, false, INK, line.buf);
        strbuf_release(&line);
        y += 22;
        i++;
    }
    block(&c, 22, y - 5, 8, PAPER, "K", "legend Kali");
    text_at(&c, 38, y, 13, false, INK, "Kali");
    block(&c, 92, y - 5, 8, INK, "M", "legend Mambo");
    text_at(&c, 108, y, 13, false, INK, "Mambo. Dashed: what the last round moved.");
    (void)i;
    return canvas_finish(&c);
}
