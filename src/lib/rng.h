/* rng.h: PCG32, the seeded random generator every game keeps inside its state. */
#ifndef NGOMA_RNG_H
#define NGOMA_RNG_H

#include <stdint.h>
#include <cjson/cJSON.h>

struct strbuf;

struct rng {
    uint64_t state;
    uint64_t inc; /* always odd */
};

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
uint32_t rng_next(struct rng *r);
/* A uniform integer in [0, n), n > 0, without modulo bias. */
uint32_t rng_below(struct rng *r, uint32_t n);
/* Fisher-Yates shuffle of n elements of `size` bytes. */
void rng_shuffle(struct rng *r, void *base, size_t n, size_t size);

/* The generator as JSON {"state":"<hex>","inc":"<hex>"} and back. */
cJSON *rng_to_json(const struct rng *r);
int rng_from_json(struct rng *r, const cJSON *j, struct strbuf *err);

#endif
