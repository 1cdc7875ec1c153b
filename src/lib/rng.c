/* rng.c: PCG32 (O'Neill's XSH-RR 64/32), the seeded random generator every game keeps inside its state. */
#include "lib/rng.h"
#include "lib/strbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
    r->state = 0;
    r->inc = (stream << 1) | 1u;
    rng_next(r);
    r->state += seed;
    rng_next(r);
}

uint32_t rng_next(struct rng *r)
{
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ULL + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
    /* Reject the low values that would make some results more likely. */
    uint32_t threshold = (uint32_t)(-n) % n;
    for (;;) {
        uint32_t x = rng_next(r);
        if (x >= threshold)
            return x % n;
    }
}

void rng_shuffle(struct rng *r, void *base, size_t n, size_t size)
{
    unsigned char tmp[256];
    unsigned char *a = base;

    if (size > sizeof(tmp))
        abort();
    /* Cards and pointers, the common sizes, swap as words: a copy of a
     * size known here is a move, not a call (the same draws, so the same
     * order, as below). */
#define SWAP_AS(W)                                                                                                     \
    for (size_t i = n; i > 1; i--) {                                                                                   \
        size_t j = rng_below(r, (uint32_t)i);                                                                          \
        unsigned char x[W];                                                                                            \
        memcpy(x, a + (i - 1) * (W), (W));                                                                             \
        memcpy(a + (i - 1) * (W), a + j * (W), (W));                                                                   \
        memcpy(a + j * (W), x, (W));                                                                                   \
    }
    if (size == 4) {
        SWAP_AS(4)
        return;
    }
    if (size == 8) {
        SWAP_AS(8)
        return;
    }
#undef SWAP_AS
    for (size_t i = n; i > 1; i--) {
        size_t j = rng_below(r, (uint32_t)i);
        if (j == i - 1)
            continue;
        memcpy(tmp, a + (i - 1) * size, size);
        memcpy(a + (i - 1) * size, a + j * size, size);
        memcpy(a + j * size, tmp, size);
    }
}

cJSON *rng_to_json(const struct rng *r)
{
    char buf[32];
    cJSON *j = cJSON_CreateObject();
    snprintf(buf, sizeof(buf), "%016" PRIx64, r->state);
    cJSON_AddStringToObject(j, "state", buf);
    snprintf(buf, sizeof(buf), "%016" PRIx64, r->inc);
    cJSON_AddStringToObject(j, "inc", buf);
    return j;
}

static int hex64(const cJSON *j, const char *key, uint64_t *out, struct strbuf *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    uint64_t x = 0;
    size_t len;

    if (!cJSON_IsString(v) || (len = strlen(v->valuestring)) == 0 || len > 16) {
        strbuf_addf(err, "rng.%s must be a string of 1 to 16 hex digits", key);
        return -1;
    }
    for (const char *p = v->valuestring; *p; p++) {
        int d;
        if (*p >= '0' && *p <= '9')
            d = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            d = *p - 'a' + 10;
        else if (*p >= 'A' && *p <= 'F')
            d = *p - 'A' + 10;
        else {
            strbuf_addf(err, "rng.%s must be hex digits", key);
            return -1;
        }
        x = (x << 4) | (uint64_t)d;
    }
    *out = x;
    return 0;
}

int rng_from_json(struct rng *r, const cJSON *j, struct strbuf *err)
{
    if (!cJSON_IsObject(j)) {
        strbuf_addstr(err, "rng must be an object");
        return -1;
    }
    if (hex64(j, "state", &r->state, err) || hex64(j, "inc", &r->inc, err))
        return -1;
    if (!(r->inc & 1)) {
        strbuf_addstr(err, "rng.inc must be odd");
        return -1;
    }
    return 0;
}
