/* seed.c: what makes every shuffle verifiable: the committed seed, its SHA-256, the players' salts and the seed that deals. */
#include "core/seed.h"
#include "lib/template.h"
#include "lib/digest.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void seed_commitment_line(const char *module, int64_t seed, const char *options_json, struct strbuf *out)
{
    strbuf_addf(out, "ngoma-seed %s %lld %s\n", module, (long long)seed, options_json);
}

void seed_commitment(const char *module, int64_t seed, const char *options_json, char out[65])
{
    struct strbuf line = STRBUF_INIT;
    seed_commitment_line(module, seed, options_json, &line);
    sha256_hex(line.buf, line.len, out);
    strbuf_release(&line);
}

int64_t seed_deal(int64_t seed, const struct strlist *salts)
{
    struct strbuf line = STRBUF_INIT;
    char hex[65];
    bool any = false;
    for (size_t i = 0; salts && i < salts->n; i++)
        any |= salts->v[i][0] != '\0';
    if (!any)
        return seed;
    strbuf_addf(&line, "ngoma-deal %lld ", (long long)seed);
    for (size_t i = 0; i < salts->n; i++)
        strbuf_addf(&line, "%s%s", i ? "|" : "", salts->v[i]);
    strbuf_addch(&line, '\n');
    sha256_hex(line.buf, line.len, hex);
    strbuf_release(&line);
    hex[15] = '\0';
    return (int64_t)strtoll(hex, NULL, 16);
}

bool seed_salt_ok(const char *text, struct strbuf *err)
{
    size_t n = strlen(text);
    if (!n || n > SALT_MAX) {
        strbuf_addf(err, "a salt is 1 to %d characters (any words you like), not %zu", SALT_MAX, n);
        return false;
    }
    for (const char *p = text; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e || *p == '|') {
            strbuf_addstr(err, "a salt is plain letters, digits, spaces and punctuation, without |");
            return false;
        }
    return true;
}

const char *seed_deal_set(const struct game_ops *ops, const cJSON *options)
{
    for (const struct game_option *o = ops->options; o && o->key; o++) {
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(options, o->key));
        if ((o->flags & OPTION_DEAL) && v && !str_eq(v, o->def))
            return o->key;
    }
    return NULL;
}

void seed_origin_text(const struct game_ops *ops, const cJSON *options, bool seed_chosen, const char *lang,
                      struct strbuf *out)
{
    const char *deal = seed_deal_set(ops, options);
    phrase_add(out, lang, seed_chosen ? "seed.chosen" : "seed.drawn", NULL);
    if (deal) {
        strbuf_addch(out, ' ');
        phrase_add(out, lang, "seed.deal-set", "option", deal, NULL);
    }
}
