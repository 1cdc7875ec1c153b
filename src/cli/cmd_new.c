/* cmd_new.c: `ngoma new`: starting a game with its players, seed and options. */
#include "cli/cmd.h"
#include "lib/catalog.h"
#include "store/languages.h"
#include "store/db.h"
#include "core/engine.h"
#include "judge/gamespec.h"
#include "lib/address.h"
#include "lib/util.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The flags of ngoma new: its own, then every term of a game the host may
 * give (judge/gamespec.c), --deadline and the rest, each once. */
enum { FLAG_PLAYER = 'p', FLAG_SEED = 's', FLAG_HOST = 'H', FLAG_TERM = 256 };
#define FLAGS_MAX 24

static void flags_of_new(struct option *opts)
{
    int n = 0;
    opts[n++] = (struct option){ "player", required_argument, NULL, FLAG_PLAYER };
    opts[n++] = (struct option){ "seed", required_argument, NULL, FLAG_SEED };
    opts[n++] = (struct option){ "host", required_argument, NULL, FLAG_HOST };
    for (int i = 0; game_spec_term(i, SPEC_HOST) && n < FLAGS_MAX - 1; i++)
        opts[n++] = (struct option){ game_spec_term(i, SPEC_HOST), required_argument, NULL, FLAG_TERM + i };
    opts[n] = (struct option){ NULL, 0, NULL, 0 };
}

int cmd_new(struct cmd_ctx *c, int argc, char **argv)
{
    struct option opts[FLAGS_MAX];
    struct game_spec spec;
    struct {
        int flag;
        char *value;
    } terms[64];
    int nterms = 0;
    char *names[GAME_MAX_SEATS], *emails[GAME_MAX_SEATS];
    const char *langs[GAME_MAX_SEATS];
    const char *host = NULL;
    int n = 0, o, rc = EX_USAGE;
    long long seed = -1;
    const struct game_ops *ops = NULL;
    struct strbuf err = STRBUF_INIT;
    int64_t id;

    flags_of_new(opts);
    optind = 0;
    opterr = 0;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        const char *eq = optarg ? strchr(optarg, '=') : NULL;
        switch (o) {
        case FLAG_PLAYER:
            if (!eq || eq == optarg || !eq[1]) {
                cmd_usage(c, "--player takes NAME=EMAIL (or NAME=EMAIL:fr, her language; NAME=bot, NAME=bot:easy,"
                             " NAME=bot:strong), not \"%s\"", optarg);
                goto out;
            }
            if (n == GAME_MAX_SEATS) {
                cmd_usage(c, "at most %d players", GAME_MAX_SEATS);
                goto out;
            }
            names[n] = xstrndup(optarg, (size_t)(eq - optarg));
            emails[n] = xstrdup(eq + 1);
            langs[n] = NULL;
            {
                /* NAME=EMAIL:fr: the language she reads. */
                char *colon = strrchr(emails[n], ':');
                if (colon && !str_iprefix(emails[n], "bot")) {
                    const struct lang *l = lang_find(colon + 1);
                    if (!l || !str_eq(l->code, colon + 1)) {
                        struct strbuf codes = STRBUF_INIT;
                        lang_codes(&codes);
                        cmd_usage(c, "--player %s: \"%s\" is not a language ngoma speaks (%s)", optarg, colon + 1,
                                  codes.buf);
                        strbuf_release(&codes);
                        free(names[n]);
                        free(emails[n]);
                        goto out;
                    }
                    *colon = '\0';
                    langs[n] = l->code;
                }
            }
            n++;
            break;
        case FLAG_SEED:
            if (!parse_int(optarg, 0, INT64_MAX, &seed)) {
                cmd_usage(c, "--seed takes a whole number from 0 to %" PRId64 ", not \"%s\"", INT64_MAX, optarg);
                goto out;
            }
            break;
        case FLAG_HOST:
            host = optarg;
            break;
        default:
            /* A game's term: read once the game is known. */
            if (o >= FLAG_TERM && nterms < (int)ARRAY_SIZE(terms)) {
                terms[nterms].flag = o - FLAG_TERM;
                terms[nterms++].value = optarg;
                break;
            }
            cmd_usage(c, "unknown option %s", argv[optind - 1]);
            goto out;
        }
    }
    if (optind >= argc) {
        cmd_usage(c, "which game? (ngoma games lists them)");
        goto out;
    }
    ops = game_find(argv[optind]);
    if (!ops) {
        cmd_usage(c, "unknown game \"%s\" (ngoma games lists them)", argv[optind]);
        goto out;
    }
    game_spec_init(&spec, ops);
    spec.clock.host = host;
    for (int i = 0; i < nterms; i++)
        if (game_spec_set(&spec, game_spec_term(terms[i].flag, SPEC_HOST), terms[i].value, SPEC_HOST, &err)) {
            cmd_usage(c, "%s", err.buf);
            goto out;
        }
    if (game_spec_check(&spec, SPEC_HOST, &err) ||
        (host && address_check(host, "--host takes the host's mail address:", &err))) {
        cmd_usage(c, "%s", err.buf);
        goto out;
    }
    if (n == 0) {
        cmd_usage(c, "no players: give --player NAME=EMAIL once per player");
        goto out;
    }
    {
        struct new_game ng = { ops, n, (const char *const *)names, (const char *const *)emails, spec.options,
                               seed, NULL, 0, seed >= 0 };
        if (seed < 0) {
            uint64_t r;
            os_random(&r, sizeof(r));
            ng.base_seed = (int64_t)(r >> 1);
        }
        if (db_begin(c->db)) {
            rc = cmd_failed();
            goto out;
        }
        /* Her language first: the welcome mails are written in it. */
        for (int i = 0; i < n; i++)
            if (langs[i] && language_set(c->db, emails[i], langs[i])) {
                db_rollback(c->db);
                rc = cmd_failed();
                goto out;
            }
        if (game_start(c->db, &ng, &spec, &id, &err) || db_commit(c->db)) {
            db_rollback(c->db);
            if (err.len) {
                error("%s", err.buf);
                rc = EX_DATAERR;
            } else {
                rc = cmd_failed();
            }
            goto out;
        }
    }
    printf("%lld\n", (long long)id);
    rc = 0;
out:
    for (int i = 0; i < n; i++) {
        free(names[i]);
        free(emails[i]);
    }
    if (ops)
        game_spec_release(&spec);
    strbuf_release(&err);
    return rc;
}
