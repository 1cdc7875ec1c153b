/* digest.c: SHA-256 as lower-case hex, for the seed commitments anyone can check by hand. */
#include "lib/digest.h"

#include <glib.h>
#include <stdio.h>

void sha256_hex(const void *data, size_t n, char out[65])
{
    GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
    g_checksum_update(sum, data, (gssize)n);
    snprintf(out, 65, "%s", g_checksum_get_string(sum));
    g_checksum_free(sum);
}
