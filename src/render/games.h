/* games.h: the drawing of each game's board, one file a game, each from its view JSON (render.c picks by module). */
#ifndef NGOMA_RENDER_GAMES_H
#define NGOMA_RENDER_GAMES_H

#include <cjson/cJSON.h>

#include "lib/strbuf.h"
#include "render/render.h"

/* view: core view_json of a seat or observer; mv its module view; prev
 * the module view before the last step, or NULL. */
typedef int render_fn(const cJSON *view, const cJSON *mv, const cJSON *prev, struct render_out *out,
                      struct strbuf *err);

/* The drawing module's entries, which render.c looks up by name: the
 * ABI it was built for, and the drawing picked by the view's module. */
int render_module_abi(void);
render_fn render_module_draw;

/* Each game's drawing, as RENDER_GAMES (render.h) names them. */
#define RENDER_DECLARE(name, fn) render_fn fn;
RENDER_GAMES(RENDER_DECLARE)
#undef RENDER_DECLARE

#endif
