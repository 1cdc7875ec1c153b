/* african_empires.c: African Empires as a picture: each kingdom's chits and every player's counters on it, the VT, the King's Marker, the viewer's hand. */
#include "render/draw.h"
#include "render/games.h"
#include "lib/util.h"

#include <stdio.h>
#include <string.h>

#define ROW 50

static const struct {
    const char *key, *letter;
    unsigned rgb;
} chits[] = { { "Government", "G", 0x0072b2 }, { "Economy", "E", 0x009e73 }, { "Religion", "R", 0xcc79a7 },
              { "Disaster", "D", 0x222222 } };

static const cJSON *kingdom_named(const cJSON *mv, const char *name)
{
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(mv, "kingdoms"))
        if (str_eq(js(k, "name"), name))
            return k;
    return NULL;
}

int render_african_empires(const cJSON *view, const cJSON *mv, const cJSON *prev, struct render_out *out,
                           struct strbuf *err)
{
    const cJSON *kingdoms = cJSON_GetObjectItemCaseSensitive(mv, "kingdoms"), *players, *k, *p;
    struct canvas c;
    double y;
    int nk = cJSON_GetArraySize(kingdoms), i;

    players = cJSON_GetObjectItemCaseSensitive(mv, "players");
    if (!cJSON_IsArray(kingdoms) || !cJSON_IsArray(players)) {
        strbuf_addstr(err, "the African Empires view has no kingdoms or players");
        return -1;
    }
    if (!canvas_open(&c, RENDER_WIDTH, 56 + 30 + nk * ROW + 24 * cJSON_GetArraySize(players) + 110, out)) {
        strbuf_addstr(err, "cairo cannot make a canvas");
        return -1;
    }
    y = header(&c, view) + 10;
    text_at(&c, 12, y + 10, 11, false, INK, "Kingdom");
    text_at(&c, 136, y + 10, 11, false, INK, "chits");
    text_at(&c, 276, y + 10, 11, false, INK, "counters (seat: how many)");
    y += 20;
    cJSON_ArrayForEach(k, kingdoms) {
        const cJSON *was = prev ? kingdom_named(prev, js(k, "name")) : NULL, *counters = cJSON_GetObjectItemCaseSensitive(k, "counters"), *n;
        double x = 286;
        char dis[16];
        set_rgb(c.cr, FAINT);
        cairo_rectangle(c.cr, 6, y, RENDER_WIDTH - 12, ROW - 4);
        cairo_fill(c.cr);
        text_at(&c, 12, y + 28, 14, true, INK, js(k, "name"));
        for (size_t t = 0; t < ARRAY_SIZE(chits); t++) {
            char label[16], what[48];
            int count = ji(k, chits[t].key, 0);
            snprintf(label, sizeof(label), "%s%d", chits[t].letter, count);
            snprintf(what, sizeof(what), "%s %s", js(k, "name"), chits[t].key);
            if (t == 3) {
                snprintf(dis, sizeof(dis), "D%d", count);
                snprintf(label, sizeof(label), "%s", dis);
            }
            block(&c, 148 + t * 33, y + ROW / 2.0 - 2, 14, count ? chits[t].rgb : PAPER, label, what);
        }
        cJSON_ArrayForEach(n, counters) {
            int seat = seat_of(view, n->string);
            char num[16], what[48], many[16];
            if (!cJSON_IsNumber(n) || n->valueint <= 0 || x > RENDER_WIDTH - 30)
                continue;
            snprintf(num, sizeof(num), "%d", seat + 1);
            snprintf(what, sizeof(what), "%s counters of %s", js(k, "name"), n->string);
            piece(&c, x, y + ROW / 2.0 - 8, 11, seat_rgb(seat), num, what);
            snprintf(many, sizeof(many), "x%d", n->valueint);
            text_centred(&c, x, y + ROW - 10, 10, false, INK, many);
            x += 30;
        }
        if (prev) {
            char *a = was ? cJSON_PrintUnformatted(was) : NULL, *b = cJSON_PrintUnformatted(k);
            if (!a || strcmp(a, b) != 0)
                changed(&c, 6, y, RENDER_WIDTH - 12, ROW - 4);
            cJSON_free(a);
            cJSON_free(b);
        }
        y += ROW;
    }
    y += 14;
    i = 0;
    cJSON_ArrayForEach(p, players) {
        char line[120], num[16], what[32];
        snprintf(num, sizeof(num), "%d", i + 1);
        snprintf(what, sizeof(what), "legend %d", i + 1);
        piece(&c, 22, y - 5, 9, seat_rgb(i), num, what);
        snprintf(line, sizeof(line), "%s: %d VT, %d card%s%s", js(p, "player"), ji(p, "vt", 0), ji(p, "cards", 0),
                 ji(p, "cards", 0) == 1 ? "" : "s", str_eq(js(mv, "kings_marker"), js(p, "player")) ? ", King's Marker" : "");
        text_at(&c, 38, y, 12, false, INK, line);
        y += 22;
        i++;
    }
    {
        char line[120];
        snprintf(line, sizeof(line), "Deck %d, discard %d. G Government, E Economy, R Religion, D Disaster.",
                 ji(mv, "deck", 0), ji(mv, "discard", 0));
        text_at(&c, 12, y + 4, 11, false, INK, line);
        y += 22;
    }
    cJSON_ArrayForEach(p, players) {
        const cJSON *hand = cJSON_GetObjectItemCaseSensitive(p, "hand"), *h;
        struct strbuf line = STRBUF_INIT;
        if (!hand)
            continue;
        strbuf_addf(&line, "%s's hand:", js(p, "player"));
        cJSON_ArrayForEach(h, hand)
            strbuf_addf(&line, "%s %s (%s)", line.buf[line.len - 1] == ':' ? "" : ",", js(h, "name"), js(h, "type"));
        if (!cJSON_GetArraySize(hand))
            strbuf_addstr(&line, " no cards");
        y = text_wrapped(&c, 12, y + 4, RENDER_WIDTH - 24, 12, INK, line.buf);
        strbuf_release(&line);
    }
    text_at(&c, 12, y + 6, 11, false, INK, "Dashed: the kingdoms the last step changed.");
    return canvas_finish(&c);
}
