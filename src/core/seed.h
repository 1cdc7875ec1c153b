/* seed.h: what makes every shuffle verifiable: the committed seed, its SHA-256, the players' salts and the seed that deals. */
#ifndef NGOMA_SEED_H
#define NGOMA_SEED_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/strbuf.h"
#include "lib/strlist.h"

/* Salts are printable text, at most this long, without "|". */
#define SALT_MAX 64

/*
 * The commitment published before anything is dealt: SHA-256 of the line
 * "ngoma-seed MODULE SEED OPTIONS\n" (OPTIONS: the game's options as
 * stored, compact JSON), in hex. Anyone can redo it with printf and
 * sha256sum once the seed is revealed.
 */
void seed_commitment(const char *module, int64_t seed, const char *options_json, char out[65]);

/* The line hashed, for docs and the verify report. */
void seed_commitment_line(const char *module, int64_t seed, const char *options_json, struct strbuf *out);

/*
 * The seed that deals: the committed seed itself when nobody added a
 * salt; else the number the first 15 hex digits of SHA-256 of
 * "ngoma-deal SEED SALT1|SALT2|...\n" make (one salt a seat, in seat
 * order, "" for a seat without).
 */
int64_t seed_deal(int64_t seed, const struct strlist *salts);

/* Whether text may be a salt; why not in err. */
bool seed_salt_ok(const char *text, struct strbuf *err);

#endif
