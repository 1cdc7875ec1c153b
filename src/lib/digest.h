/* digest.h: SHA-256 as lower-case hex, for the seed commitments anyone can check by hand. */
#ifndef NGOMA_DIGEST_H
#define NGOMA_DIGEST_H

#include <stddef.h>

/* SHA-256 of the n bytes at data, as 64 hex digits and a NUL. */
void sha256_hex(const void *data, size_t n, char out[65]);

#endif
