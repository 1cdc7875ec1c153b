/* fuzz_orders.c: libFuzzer target: any text as an order of any seat of each game, at a position the input chooses; what check takes must be legal. */
#include "core/bot.h"
#include "core/engine.h"
#include "lib/strlist.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "Ann", "Bob", "Cleo" };
    struct strbuf err = STRBUF_INIT, canon = STRBUF_INIT, why = STRBUF_INIT;
    const struct game_ops *ops;
    struct game_table t;
    cJSON *opts;
    void *st;
    char *text;
    int g, steps, seats;

    if (size < 2)
        return 0;
    /* Byte 0: the game, in the registry's order; byte 1: how many random
     * steps first; the rest: the order. Three seats where the game takes
     * three, else its fewest. */
    for (g = 0; game_registry[g]; g++)
        ;
    g = data[0] % g;
    steps = data[1] % 64;
    ops = game_registry[g];
    seats = ops->min_seats <= 3 && ops->max_seats >= 3 ? 3 : ops->min_seats;
    t = (struct game_table){ seats, names, NULL };
    opts = engine_options(ops, NULL, &err);
    st = ops->setup(opts, seats, 7, &err);
    if (!st)
        abort();
    for (int i = 0; i < steps && ops->waiting_for(st); i++) {
        unsigned w = ops->waiting_for(st);
        const char *orders[GAME_MAX_SEATS] = { NULL };
        char *own[GAME_MAX_SEATS] = { NULL };
        struct game_log log;
        for (int s = 0; s < seats; s++)
            if (w & (1u << s))
                orders[s] = own[s] = bot_random(ops, st, s, &t, (uint64_t)i * 31 + (uint64_t)s);
        game_log_init(&log);
        if (ops->advance(st, orders, &t, &log))
            abort();
        game_log_release(&log);
        for (int s = 0; s < seats; s++)
            free(own[s]);
    }
    text = xstrndup((const char *)data + 2, size - 2);
    for (int s = 0; s < seats; s++) {
        strbuf_reset(&canon);
        strbuf_reset(&why);
        if (ops->check(st, s, &t, text, &canon, &why) == 0) {
            /* Whatever is taken is one of the legal orders, and reads back as itself. */
            struct strlist legal = STRLIST_INIT;
            struct strbuf again = STRBUF_INIT;
            ops->legal(st, s, &t, &legal);
            if (!strlist_contains(&legal, canon.buf))
                abort();
            strbuf_reset(&why);
            if (ops->check(st, s, &t, canon.buf, &again, &why) || strcmp(again.buf, canon.buf))
                abort();
            strbuf_release(&again);
            strlist_clear(&legal);
        } else if (!why.len) {
            abort(); /* refused without a reason */
        }
    }
    free(text);
    ops->free(st);
    cJSON_Delete(opts);
    strbuf_release(&err);
    strbuf_release(&canon);
    strbuf_release(&why);
    return 0;
}
