/* board.c: the drawing module's entry (ngoma-render.so, with cairo): picks the game's drawing by the view's module. */
#include "render/render.h"
#include "render/draw.h"
#include "render/games.h"
#include "lib/util.h"

#include <string.h>

static const struct {
    const char *module;
    render_fn *fn;
} drawings[] = {
#define RENDER_ROW(name, fn) { name, fn },
    RENDER_GAMES(RENDER_ROW)
#undef RENDER_ROW
};

int render_module_abi(void)
{
    return (int)(RENDER_ABI * 100000 + sizeof(struct render_out) % 100000);
}

int render_module_draw(const cJSON *view, const cJSON *mv, const cJSON *prev, struct render_out *out,
                       struct strbuf *err)
{
    const char *module = js(view, "module");
    for (size_t i = 0; i < ARRAY_SIZE(drawings); i++)
        if (str_eq(drawings[i].module, module))
            return drawings[i].fn(view, mv, prev, out, err);
    strbuf_addf(err, "ngoma draws no pictures of %s", *module ? module : "this game");
    return -1;
}
