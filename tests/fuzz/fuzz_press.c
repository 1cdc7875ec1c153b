/* fuzz_press.c: libFuzzer target: any text as a player's mail text, read for press with and without a channel and with lines that read as orders; what it keeps is bounded and whole, every line pulled from press is counted, and every PRESS TO resolves or says why. */
#include "core/press.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Lines that begin with PLAY read as orders (a game's sense stands in). */
static bool plays(void *ctx, const char *line, size_t len)
{
    (void)ctx;
    return len >= 4 && strncasecmp(line, "play", 4) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "Ann", "Bob", "Mary Ann", "Dan", "Eve" };
    const struct game_table t = { 5, names, NULL };
    char *text;
    if (size < 1)
        return 0;
    /* Byte 0: a channel or not, and the sender's seat; the rest: the text. */
    text = xstrndup((const char *)data + 1, size - 1);
    for (int pass = 0; pass < 2; pass++) {
        struct press_text pt;
        bool channel = (data[0] & 1) ^ pass;
        int self = (data[0] >> 1) % 5;
        const struct press_sense sense = { plays, NULL };
        unsigned pulled;
        press_split(text, channel, (data[0] & 2) ? &sense : NULL, &pt);
        if (pt.n > PRESS_ITEMS_MAX || strlen(pt.orders) > size)
            abort();
        pulled = pt.loose;
        for (size_t i = 0; i < pt.n; i++)
            pulled += pt.v[i].pulled;
        if (pulled != pt.pulled)
            abort();
        for (size_t i = 0; i < pt.n; i++) {
            const struct press_item *it = &pt.v[i];
            unsigned mask;
            bool all;
            struct strbuf err = STRBUF_INIT, names_text = STRBUF_INIT;
            if (it->body.len > PRESS_BODY_KEPT || strlen(it->line) > 120 || (it->body.buf && strlen(it->body.buf) !=
                                                                                                 it->body.len))
                abort();
            if (it->kind == PRESS_MESSAGE && it->to) {
                if (press_recipients(it->to, &t, self, &mask, &all, &err) == 0) {
                    /* Never the sender, never a seat the table lacks, never nobody. */
                    if (!mask || (mask >> self) & 1 || mask >> 5)
                        abort();
                    press_names(&t, mask, -1, self, &names_text);
                    if (!names_text.len)
                        abort();
                } else if (!err.len) {
                    abort(); /* refused without a reason */
                }
            }
            strbuf_release(&err);
            strbuf_release(&names_text);
        }
        press_text_release(&pt);
    }
    free(text);
    return 0;
}
