/* render.c: boards as pictures: loads the drawing module on the first picture (cairo is mapped only by a process that draws), and says in words what a picture shows. */
#include "render/render.h"
#include "lib/catalog.h"
#include "lib/paths.h"
#include "lib/template.h"
#include "lib/util.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The games board.c draws (the module is not loaded to answer this). */
#define RENDER_NAME(name, fn) name,
static const char *const drawn[] = { RENDER_GAMES(RENDER_NAME) };
#undef RENDER_NAME

typedef int module_abi_fn(void);
typedef int module_draw_fn(const cJSON *view, const cJSON *mv, const cJSON *prev, struct render_out *out,
                           struct strbuf *err);

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

const char *js(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

int ji(const cJSON *o, const char *key, int def)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valueint : def;
}

bool render_knows(const char *module)
{
    for (size_t i = 0; i < ARRAY_SIZE(drawn); i++)
        if (str_eq(drawn[i], module ? module : ""))
            return true;
    return false;
}

/* The module's entry, loaded once a process (NULL, and why in err, when
 * it cannot be: the failure is kept, and said again each time). */
static module_draw_fn *module_draw(struct strbuf *err)
{
    static module_draw_fn *draw;
    static char why[400];
    char *path;
    void *lib;
    module_abi_fn *abi;

    if (draw || *why) {
        strbuf_addstr(err, why);
        return draw;
    }
    path = lib_path("ngoma-render.so");
    lib = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, sizeof(why), "cannot load the drawing module (make install puts it there): %s", dlerror());
    } else {
        /* POSIX guarantees a function pointer survives the round trip through void *. */
        *(void **)&abi = dlsym(lib, "render_module_abi");
        *(void **)&draw = dlsym(lib, "render_module_draw");
        if (!abi || !draw || abi() != (int)(RENDER_ABI * 100000 + sizeof(struct render_out) % 100000)) {
            snprintf(why, sizeof(why), "%s is from another build of ngoma: install them together", path);
            draw = NULL;
            dlclose(lib);
        }
    }
    free(path);
    if (!draw)
        strbuf_addstr(err, why);
    return draw;
}

int render_board(const cJSON *view, const cJSON *prev, struct render_out *out, struct strbuf *err)
{
    const char *module = js(view, "module");
    const cJSON *mv = cJSON_GetObjectItemCaseSensitive(view, "view");
    module_draw_fn *draw;
    out->nmarks = 0;
    if (!cJSON_IsObject(mv)) {
        strbuf_addstr(err, "the view holds no board");
        return -1;
    }
    if (!render_knows(module)) {
        strbuf_addf(err, "ngoma draws no pictures of %s", *module ? module : "this game");
        return -1;
    }
    if (!(draw = module_draw(err)))
        return -1;
    return draw(view, mv, cJSON_IsObject(prev) ? prev : NULL, out, err);
}

void render_alt(const cJSON *view, const char *lang, const char *when, struct strbuf *out)
{
    char game[24];
    snprintf(game, sizeof(game), "%d", ji(view, "game", 0));
    phrase_add(out, lang, "html.board-alt", "title", js(view, "title"), "game", game, "when", when, "viewer",
               *js(view, "viewer") ? js(view, "viewer") : catalog_text(lang, "html.an-observer", 1), NULL);
}
