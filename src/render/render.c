/* render.c: boards as pictures: picks the game's drawing, and says in words (the alt text) what a picture shows. */
#include "render/render.h"
#include "render/draw.h"
#include "render/games.h"
#include "lib/util.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *module;
    render_fn *fn;
} drawings[] = {
    { "kuniumi", render_kuniumi }, { "kalimambo", render_kalimambo },           { "bumuntu", render_bumuntu },
    { "bantu", render_bantu },     { "african-empires", render_african_empires },
};

void render_out_init(struct render_out *out)
{
    memset(out, 0, sizeof(*out));
    strbuf_init(&out->png);
}

void render_out_release(struct render_out *out)
{
    strbuf_release(&out->png);
    memset(out, 0, sizeof(*out));
}

bool render_knows(const char *module)
{
    for (size_t i = 0; i < ARRAY_SIZE(drawings); i++)
        if (str_eq(drawings[i].module, module ? module : ""))
            return true;
    return false;
}

int render_board(const cJSON *view, const cJSON *prev, struct render_out *out, struct strbuf *err)
{
    const char *module = js(view, "module");
    const cJSON *mv = cJSON_GetObjectItemCaseSensitive(view, "view");
    out->nmarks = 0;
    if (!cJSON_IsObject(mv)) {
        strbuf_addstr(err, "the view holds no board");
        return -1;
    }
    for (size_t i = 0; i < ARRAY_SIZE(drawings); i++)
        if (str_eq(drawings[i].module, module))
            return drawings[i].fn(view, mv, cJSON_IsObject(prev) ? prev : NULL, out, err);
    strbuf_addf(err, "ngoma draws no pictures of %s", *module ? module : "this game");
    return -1;
}

void render_alt(const cJSON *view, struct strbuf *out)
{
    const cJSON *when = cJSON_GetObjectItemCaseSensitive(view, "when");
    strbuf_addf(out, "The board of %s game %d, %s, as %s sees it; the text of this mail has the same board.",
                js(view, "title"), ji(view, "game", 0), js(when, "text"),
                *js(view, "viewer") ? js(view, "viewer") : "an observer");
}
