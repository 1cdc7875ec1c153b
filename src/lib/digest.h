/* digest.h: SHA-256 (FIPS 180-4) as lower-case hex, for the seed commitments anyone can check by hand and the journal's keys. */
#ifndef NGOMA_DIGEST_H
#define NGOMA_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/* A digest being computed: sha256_init, sha256_update as often as there
 * is data, sha256_final. */
struct sha256 {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char block[64];
    size_t used;
};
void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t n);
/* The digest as 64 hex digits and a NUL. */
void sha256_final(struct sha256 *s, char out[65]);

/* SHA-256 of the n bytes at data, as 64 hex digits and a NUL. */
void sha256_hex(const void *data, size_t n, char out[65]);

#endif
