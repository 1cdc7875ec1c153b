/* seed.h: what makes every shuffle verifiable: the committed seed, its SHA-256, the players' salts and the seed that deals. */
#ifndef NGOMA_SEED_H
#define NGOMA_SEED_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "games/game.h"
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

/* The first option of the game that fixes what the shuffle would decide
 * (OPTION_DEAL) and is set away from its default: the deal was the
 * host's, whatever the seed. NULL when none is. */
const char *seed_deal_set(const struct game_ops *ops, const cJSON *options);

/* Who made the deal, in words for every fairness line: "Seed drawn by
 * ngoma." or "Seed chosen by the host, not drawn by ngoma.", then "Deal
 * set by the host (option setup): no shuffle decided it." when
 * seed_deal_set says so. */
void seed_origin_text(const struct game_ops *ops, const cJSON *options, bool seed_chosen, const char *lang,
                      struct strbuf *out);

#endif
