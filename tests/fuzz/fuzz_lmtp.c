/* fuzz_lmtp.c: libFuzzer target: any bytes as an LMTP client's, fed in pieces the input chooses, through every state of the server's machine and its bounds. */
#include "mail/lmtp.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct lmtp_limits lim = { 4096, 512, 5 };
    struct lmtp l;
    size_t at = 0, step;
    if (size < 1)
        return 0;
    /* The first byte: how the bytes arrive (1 to 256 at a time). */
    step = (size_t)data[0] + 1;
    data++, size--;
    lmtp_init(&l, &lim, "fuzz");
    while (at < size && l.state != LMTP_CLOSED) {
        size_t n = size - at < step ? size - at : step;
        size_t took = lmtp_feed(&l, (const char *)data + at, n);
        if (l.data.len > lim.message_bytes || l.line.len > lim.line_bytes || l.rcpts.n > lim.recipients)
            abort();
        if (l.state == LMTP_DELIVER) {
            int codes[5];
            const char *texts[5];
            if (l.rcpts.n == 0 || (l.total <= lim.message_bytes && l.total != l.data.len))
                abort();
            for (size_t i = 0; i < l.rcpts.n; i++) {
                codes[i] = lmtp_oversize(&l) ? 552 : 250;
                texts[i] = "2.0.0 ok";
            }
            lmtp_deliver_done(&l, codes, texts);
        } else if (took == 0) {
            abort(); /* neither delivering nor closed, yet nothing taken */
        }
        /* The server writes the replies out as they come. */
        strbuf_reset(&l.out);
        at += took;
    }
    lmtp_release(&l);
    return 0;
}
