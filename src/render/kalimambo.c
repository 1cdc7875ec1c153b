/* kalimambo.c: Kalimambo's loop as a picture: the spaces round a ring, the explorers, Kali and Mambo, the dung heaps, everyone's cards. */
#include "render/draw.h"
#include "render/games.h"
#include "lib/util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_TRACK 64
#define RING 196.0
#define BOX 34.0
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
    double cx = RENDER_WIDTH / 2.0, cy, y, box = n > 40 ? BOX * 40 / n : BOX;
    char line[120];

    if (n < 8 || n > MAX_TRACK) {
        strbuf_addf(err, "the Kalimambo view has a track of %d spaces", n);
        return -1;
    }
    if (!canvas_open(&c, RENDER_WIDTH, 560 + 46 * (cJSON_GetArraySize(ex) + 4), out)) {
        strbuf_addstr(err, "cairo cannot make a canvas");
        return -1;
    }
    cy = header(&c, view) + RING + box / 2 + 8;
    occupants(mv, n, who);
    if (prev)
        occupants(prev, n, was);
    for (int s = 0; s < n; s++) {
        /* Space 0 at the top, the direction of travel clockwise; each
         * space's number inside the ring, where it has room. */
        double a = -M_PI / 2 + 2 * M_PI * s / n, x = cx + RING * cos(a), yy = cy + RING * sin(a);
        char num[8], what[40];
        bool heap = false;
        cJSON_ArrayForEach(d, dung)
            heap |= d->valueint == s;
        cairo_rectangle(c.cr, x - box / 2, yy - box / 2, box, box);
        set_rgb(c.cr, heap ? 0xeadfce : PAPER);
        cairo_fill_preserve(c.cr);
        set_rgb(c.cr, heap ? DUNG_RGB : GRID);
        cairo_set_line_width(c.cr, heap ? 2.5 : 1);
        cairo_stroke(c.cr);
        snprintf(num, sizeof(num), "%d", s);
        text_centred(&c, cx + (RING - box * 1.05) * cos(a), cy + (RING - box * 1.05) * sin(a), TEXT_SMALL, false,
                     heap ? DUNG_RGB : INK, num);
        if (who[s] >= 0) {
            e = cJSON_GetArrayItem(ex, who[s]);
            snprintf(what, sizeof(what), "%s on %d", js(e, "player"), s);
            piece(&c, x, yy, box * 0.44, named_rgb(js(e, "colour")), js(e, "letter"), what);
        } else if (who[s] == -2) {
            snprintf(what, sizeof(what), "Kali on %d", s);
            block(&c, x, yy, box * 0.4, PAPER, "K", what);
        } else if (who[s] == -3) {
            snprintf(what, sizeof(what), "Mambo on %d", s);
            block(&c, x, yy, box * 0.4, INK, "M", what);
        }
        if (prev && was[s] != who[s])
            changed(&c, x - box / 2 - 3, yy - box / 2 - 3, box + 6, box + 6);
    }
    /* Inside the ring: the round, and Kali's last card. */
    {
        const char *when = *js(view, "when_text") ? js(view, "when_text")
                                                   : js(cJSON_GetObjectItemCaseSensitive(view, "when"), "text");
        struct strbuf said = STRBUF_INIT;
        if (str_eq(js(view, "status"), "finished")) {
            say(view, &said, "render.kalimambo.over", "when", when, NULL);
            snprintf(line, sizeof(line), "%s", said.buf);
        } else
            snprintf(line, sizeof(line), "%c%s", *when >= 'a' && *when <= 'z' ? *when - 'a' + 'A' : *when, *when ? when + 1 : "");
        text_centred(&c, cx, cy - 14, 19, true, INK, line);
        if (ji(mv, "kali_last_card", -1) >= 0) {
            char card[16];
            snprintf(card, sizeof(card), "%d", ji(mv, "kali_last_card", -1));
            strbuf_reset(&said);
            say(view, &said, "render.kalimambo.kali-played", "card", card, NULL);
            text_centred(&c, cx, cy + 14, TEXT_LABEL, false, INK, said.buf);
        }
        strbuf_release(&said);
    }
    /* Below: Kali's cards, then every player's points and cards (played
     * cards are face up). */
    y = cy + RING + box / 2 + 28;
    {
        struct strbuf k = STRBUF_INIT, cards = STRBUF_INIT;
        cards_text(cJSON_GetObjectItemCaseSensitive(mv, "kali_cards_left"), &cards);
        say(view, &k, "render.kalimambo.kali-left", "cards", cards.buf, NULL);
        y = note(&c, y, false, k.buf) + 8;
        strbuf_release(&k);
        strbuf_release(&cards);
    }
    cJSON_ArrayForEach(e, ex) {
        struct strbuf text = STRBUF_INIT, cards = STRBUF_INIT;
        char what[40], points[16];
        snprintf(what, sizeof(what), "legend %s", js(e, "player"));
        snprintf(points, sizeof(points), "%d", ji(e, "points", 0));
        cards_text(cJSON_GetObjectItemCaseSensitive(e, "cards"), &cards);
        say(view, &text,
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "resigned")) ? "render.kalimambo.resigned"
                                                                           : "render.kalimambo.player",
            "player", js(e, "player"), "n", points, "cards", cards.buf, NULL);
        strbuf_release(&cards);
        if (ji(e, "last_card", -1) >= 0) {
            char card[16];
            snprintf(card, sizeof(card), "%d", ji(e, "last_card", -1));
            say(view, &text, "render.kalimambo.played", "card", card, NULL);
        }
        y = legend(&c, y, named_rgb(js(e, "colour")), false, js(e, "letter"), what, text.buf);
        strbuf_release(&text);
    }
    y = legend(&c, y, PAPER, true, "K", "legend Kali", "Kali");
    y = legend(&c, y, INK, true, "M", "legend Mambo", "Mambo");
    {
        struct strbuf s = STRBUF_INIT;
        say(view, &s, "render.kalimambo.legend", NULL);
        y = note(&c, y, false, s.buf);
        strbuf_release(&s);
    }
    return canvas_finish_at(&c, y);
}
