/* african_empires.c: African Empires as a picture: each kingdom's chits and every player's counters on it, the VT, the King's Marker, the viewer's hand. */
#include "render/draw.h"
#include "render/games.h"
#include "lib/util.h"

#include <stdio.h>
#include <string.h>

#define ROW 84

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
    if (!canvas_open(&c, RENDER_WIDTH, 120 + nk * (ROW + 32) + 48 * cJSON_GetArraySize(players) + 260, out)) {
        strbuf_addstr(err, "cairo cannot make a canvas");
        return -1;
    }
    y = header(&c, view) + 6;
    {
        struct strbuf s = STRBUF_INIT;
        say(view, &s, "render.ae.kingdoms", NULL);
        y = note(&c, y, false, s.buf) + 4;
        strbuf_release(&s);
    }
    cJSON_ArrayForEach(k, kingdoms) {
        const cJSON *was = prev ? kingdom_named(prev, js(k, "name")) : NULL, *counters = cJSON_GetObjectItemCaseSensitive(k, "counters"), *n;
        double cy = y + 50, row = ROW;
        int held = 0, at = 0;
        /* Four counters a line beside the chits; more go under them. */
        cJSON_ArrayForEach(n, counters)
            held += cJSON_IsNumber(n) && n->valueint > 0;
        if (held > 4)
            row += 32 * ((held - 1) / 4);
        set_rgb(c.cr, FAINT);
        cairo_rectangle(c.cr, 6, y, RENDER_WIDTH - 12, row - 6);
        cairo_fill(c.cr);
        text_at(&c, 14, y + 22, TEXT_LABEL, true, INK, js(k, "name"));
        for (size_t t = 0; t < ARRAY_SIZE(chits); t++) {
            char label[16], what[48];
            int count = ji(k, chits[t].key, 0);
            snprintf(label, sizeof(label), "%s%d", chits[t].letter, count);
            snprintf(what, sizeof(what), "%s %s", js(k, "name"), chits[t].key);
            block(&c, 32 + t * 54, cy, 19, count ? chits[t].rgb : PAPER, label, what);
        }
        cJSON_ArrayForEach(n, counters) {
            int seat = seat_of(view, n->string);
            char num[16], what[48], many[16];
            double x = 262 + (at % 4) * 54, yy = cy + 32 * (at / 4);
            if (!cJSON_IsNumber(n) || n->valueint <= 0)
                continue;
            snprintf(num, sizeof(num), "%d", seat + 1);
            snprintf(what, sizeof(what), "%s counters of %s", js(k, "name"), n->string);
            piece(&c, x, yy, 13, seat_rgb(seat), num, what);
            snprintf(many, sizeof(many), "x%d", n->valueint);
            text_at(&c, x + 16, yy + 6, TEXT_SMALL, false, INK, many);
            at++;
        }
        if (prev) {
            char *a = was ? cJSON_PrintUnformatted(was) : NULL, *b = cJSON_PrintUnformatted(k);
            if (!a || strcmp(a, b) != 0)
                changed(&c, 6, y, RENDER_WIDTH - 12, row - 6);
            cJSON_free(a);
            cJSON_free(b);
        }
        y += row;
    }
    y += 22;
    i = 0;
    cJSON_ArrayForEach(p, players) {
        char num[16], what[32], vt[16], cards[16];
        struct strbuf line = STRBUF_INIT;
        snprintf(num, sizeof(num), "%d", i + 1);
        snprintf(what, sizeof(what), "legend %d", i + 1);
        snprintf(vt, sizeof(vt), "%d", ji(p, "vt", 0));
        snprintf(cards, sizeof(cards), "%d", ji(p, "cards", 0));
        say(view, &line, str_eq(js(mv, "kings_marker"), js(p, "player")) ? "render.ae.player-marker" : "render.ae.player",
            "player", js(p, "player"), "vt", vt, "n", cards, NULL);
        y = legend(&c, y, seat_rgb(i), false, num, what, line.buf);
        strbuf_release(&line);
        i++;
    }
    {
        struct strbuf line = STRBUF_INIT;
        char deck[16], discard[16];
        snprintf(deck, sizeof(deck), "%d", ji(mv, "deck", 0));
        snprintf(discard, sizeof(discard), "%d", ji(mv, "discard", 0));
        say(view, &line, "render.ae.deck", "deck", deck, "discard", discard, NULL);
        y = note(&c, y, false, line.buf) + 4;
        strbuf_release(&line);
    }
    cJSON_ArrayForEach(p, players) {
        const cJSON *hand = cJSON_GetObjectItemCaseSensitive(p, "hand"), *h;
        struct strbuf line = STRBUF_INIT, cards = STRBUF_INIT;
        if (!hand)
            continue;
        cJSON_ArrayForEach(h, hand) {
            /* The card by its printed name, its type in her words. */
            char key[64];
            snprintf(key, sizeof(key), "term.african-empires.%s", js(h, "type"));
            str_lower(key);
            strbuf_addf(&cards, "%s%s (%s)", cards.len ? ", " : "", js(h, "name"), say_term(view, key, js(h, "type")));
        }
        say(view, &line, cards.len ? "render.ae.hand" : "render.ae.no-cards", "player", js(p, "player"), "cards",
            cards.buf, NULL);
        y = note(&c, y, false, line.buf) + 4;
        strbuf_release(&line);
        strbuf_release(&cards);
    }
    {
        struct strbuf s = STRBUF_INIT;
        say(view, &s, "render.ae.changed", NULL);
        y = note(&c, y + 2, false, s.buf);
        strbuf_release(&s);
    }
    return canvas_finish_at(&c, y);
}
