/* fuzz_state.c: libFuzzer target: any bytes as a stored game state of each game; refused with a reason, or loaded whole: views, legal orders and a round trip work. */
#include "core/engine.h"
#include "lib/jsonx.h"
#include "lib/strlist.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus" };
    struct strbuf err = STRBUF_INIT;
    const struct game_ops *ops;
    cJSON *j;
    void *st;

    if (size < 1)
        return 0;
    /* Byte 0: the game, in the registry's order; the rest: its state as JSON. */
    {
        size_t n = 0;
        while (game_registry[n])
            n++;
        ops = game_registry[data[0] % n];
    }
    j = cJSON_ParseWithLength((const char *)data + 1, size - 1);
    if (!j)
        return 0;
    st = ops->from_json(j, &err);
    if (!st) {
        if (!err.len)
            abort(); /* refused without a reason */
    } else {
        cJSON *out = ops->to_json(st), *again_j;
        char *a = jx_print(out), *b;
        void *again = ops->from_json(out, &err);
        if (!again)
            abort(); /* its own JSON refused */
        again_j = ops->to_json(again);
        b = jx_print(again_j);
        if (strcmp(a, b))
            abort(); /* no round trip */
        unsigned w = ops->waiting_for(st);
        /* A game for a fixed number (KuniUmi's two) stores none; the
         * others store theirs, checked by from_json. */
        cJSON *seats = cJSON_GetObjectItem(j, "nseats");
        int nseats = ops->min_seats == ops->max_seats ? ops->min_seats : seats->valueint;
        struct game_table t = { nseats, names, NULL };
        for (int s = -1; s < nseats; s++) {
            struct strbuf v = STRBUF_INIT;
            cJSON *vj = ops->view_json(st, s, &t);
            ops->view_ascii(st, s, &t, &v);
            cJSON_Delete(vj);
            strbuf_release(&v);
            if (s >= 0 && (w & (1u << s))) {
                struct strlist legal = STRLIST_INIT;
                ops->legal(st, s, &t, &legal);
                strlist_clear(&legal);
            }
        }
        free(a);
        free(b);
        cJSON_Delete(out);
        cJSON_Delete(again_j);
        ops->free(again);
        ops->free(st);
    }
    cJSON_Delete(j);
    strbuf_release(&err);
    return 0;
}
