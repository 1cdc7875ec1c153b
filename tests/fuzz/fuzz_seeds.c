/* fuzz_seeds.c: libFuzzer target: any bytes as a game's data file (in seeds/) or Kalimambo's setup option; refused with a reason, or a game that can be played. */
#include "core/engine.h"
#include "lib/strlist.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const modules[] = { "kalimambo", "bumuntu", "bantu", "african-empires", "kalimambo" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan" };
    static char path[64];
    struct strbuf err = STRBUF_INIT;
    const struct game_ops *ops;
    cJSON *given, *opts;
    void *st;
    FILE *f;
    int which;

    if (size < 1)
        return 0;
    if (!*path)
        snprintf(path, sizeof(path), "/tmp/ngoma-fuzz-seeds.%d.json", (int)getpid());
    /* Byte 0: the game, or (4) Kalimambo's setup option; the rest: the JSON. */
    which = data[0] % 5;
    ops = game_find(modules[which]);
    if (!(f = fopen(path, "wb")))
        abort();
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    given = cJSON_CreateObject();
    if (which == 4) {
        char *text = xstrndup((const char *)data + 1, size - 1);
        cJSON_AddStringToObject(given, "setup", text);
        free(text);
    } else {
        cJSON_AddStringToObject(given, which == 2 ? "board" : "data", path); /* Bantu's is its board */
    }
    opts = engine_options(ops, given, &err);
    if (!opts)
        abort();
    st = ops->setup(opts, ops->min_seats > 3 ? ops->min_seats : 3, 5, &err);
    if (!st) {
        if (!err.len)
            abort(); /* refused without a reason */
    } else {
        struct game_table t = { ops->min_seats > 3 ? ops->min_seats : 3, names, NULL };
        struct strbuf v = STRBUF_INIT;
        struct strlist legal = STRLIST_INIT;
        ops->view_ascii(st, 0, &t, &v);
        ops->legal(st, 0, &t, &legal);
        strlist_clear(&legal);
        strbuf_release(&v);
        ops->free(st);
    }
    cJSON_Delete(given);
    cJSON_Delete(opts);
    strbuf_release(&err);
    return 0;
}
