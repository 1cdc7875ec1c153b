/* fuzz_plans.c: libFuzzer target: any text as a plan's line of a seat, in any language, of each game: what is read is bounded, and every plan it holds, written back as PLANS lists it, reads again as one plan. */
#include "core/plan_int.h"
#include "lib/catalog.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "Ann", "Bob", "Mary Ann" };
    struct game_rec g;
    struct strbuf why = STRBUF_INIT;
    struct plan_path *paths;
    const char *lang;
    char *text;
    cJSON *part;
    int ngames, n;

    if (size < 1)
        return 0;
    /* Byte 0: the game, the language, the seat; the rest: the line. */
    for (ngames = 0; game_registry[ngames]; ngames++)
        ;
    memset(&g, 0, sizeof(g));
    g.ops = game_registry[data[0] % ngames];
    g.nseats = 3;
    for (int s = 0; s < 3; s++)
        g.names[s] = names[s];
    lang = lang_at((size_t)(data[0] >> 4) % 4) ? lang_at((size_t)(data[0] >> 4) % 4)->code : "en";
    text = xstrndup((const char *)data + 1, size - 1);
    part = plan_read(&g, (data[0] >> 2) % 3, lang, text, &why);
    if (!part && !why.len)
        abort(); /* refused without a word */
    paths = xmalloc(64 * sizeof(*paths));
    n = plan_paths(part, paths, 64);
    if (part && (n < 1 || plan_depth(part) > 64))
        abort();
    for (int i = 0; i < n && i < 64; i++) {
        struct strbuf line = STRBUF_INIT, again = STRBUF_INIT;
        cJSON *read;
        plan_path_text(&g, lang, &paths[i], &line);
        read = plan_read(&g, (data[0] >> 2) % 3, lang, line.buf, &again);
        if (!read || plan_count(read) < 1)
            abort(); /* PLANS lists a plan that cannot be sent back */
        cJSON_Delete(read);
        strbuf_release(&line);
        strbuf_release(&again);
    }
    free(paths);
    cJSON_Delete(part);
    free(text);
    strbuf_release(&why);
    return 0;
}
