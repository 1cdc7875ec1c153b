/* cmd_new.c: `ngoma new`: starting a game with its players, seed and options. */
#include "cli/cmd.h"
#include "store/db.h"
#include "core/engine.h"
#include "judge/notify.h"
#include "judge/schedule.h"
#include "lib/util.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_new(struct cmd_ctx *c, int argc, char **argv)
{
    static const struct option opts[] = {
        { "player", required_argument, NULL, 'p' },
        { "seed", required_argument, NULL, 's' },
        { "option", required_argument, NULL, 'o' },
        { "deadline", required_argument, NULL, 'D' },
        { "remind", required_argument, NULL, 'R' },
        { "grace", required_argument, NULL, 'G' },
        { "nmr", required_argument, NULL, 'N' },
        { "host", required_argument, NULL, 'H' },
        { NULL, 0, NULL, 0 },
    };
    struct schedule_opts sched = { 0 };
    char *names[GAME_MAX_SEATS], *emails[GAME_MAX_SEATS];
    int n = 0, o, rc = EX_USAGE;
    long long seed = -1;
    bool chosen;
    cJSON *options = cJSON_CreateObject();
    const struct game_ops *ops;
    struct strbuf err = STRBUF_INIT;
    int64_t id;

    optind = 0;
    opterr = 0;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        const char *eq = optarg ? strchr(optarg, '=') : NULL;
        switch (o) {
        case 'p':
            if (!eq || eq == optarg || !eq[1]) {
                cmd_usage(c, "--player takes NAME=EMAIL (or NAME=bot, NAME=bot:easy, NAME=bot:strong), not \"%s\"",
                          optarg);
                goto out;
            }
            if (n == GAME_MAX_SEATS) {
                cmd_usage(c, "at most %d players", GAME_MAX_SEATS);
                goto out;
            }
            names[n] = xstrndup(optarg, (size_t)(eq - optarg));
            emails[n] = xstrdup(eq + 1);
            n++;
            break;
        case 's':
            if (!parse_int(optarg, 0, INT64_MAX, &seed)) {
                cmd_usage(c, "--seed takes a whole number from 0 to %" PRId64 ", not \"%s\"", INT64_MAX, optarg);
                goto out;
            }
            break;
        case 'o':
            if (!eq || eq == optarg) {
                cmd_usage(c, "--option takes KEY=VALUE, not \"%s\"", optarg);
                goto out;
            }
            {
                char *key = xstrndup(optarg, (size_t)(eq - optarg));
                cJSON_DeleteItemFromObjectCaseSensitive(options, key);
                cJSON_AddStringToObject(options, key, eq + 1);
                free(key);
            }
            break;
        case 'D':
        case 'G':
            /* Seconds too (ngoma serve keeps the clock to the second). */
            if (!duration_parse(optarg, o == 'D' ? &sched.deadline : &sched.grace) ||
                (o == 'D' && sched.deadline < 1)) {
                cmd_usage(c, "--%s takes a time like 90m, 48h or 3d, not \"%s\"", o == 'D' ? "deadline" : "grace",
                          optarg);
                goto out;
            }
            break;
        case 'R':
            if (schedule_parse_reminders(optarg, &sched, &err)) {
                cmd_usage(c, "%s", err.buf);
                goto out;
            }
            break;
        case 'N':
            sched.nmr = optarg;
            break;
        case 'H':
            sched.host = optarg;
            break;
        default:
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
    if (n == 0) {
        cmd_usage(c, "no players: give --player NAME=EMAIL once per player");
        goto out;
    }
    chosen = seed >= 0;
    if (seed < 0) {
        uint64_t r;
        os_random(&r, sizeof(r));
        seed = (long long)(r >> 1);
    }
    if (db_begin(c->db)) {
        rc = cmd_failed();
        goto out;
    }
    if (engine_new(c->db, ops, n, (const char *const *)names, (const char *const *)emails, options, seed, chosen, &id,
                   &err)) {
        db_rollback(c->db);
        if (err.len) {
            error("%s", err.buf);
            rc = EX_DATAERR;
        } else {
            rc = cmd_failed();
        }
        goto out;
    }
    if (schedule_configure(c->db, id, &sched, &err)) {
        db_rollback(c->db);
        if (err.len) {
            error("%s", err.buf);
            rc = EX_USAGE;
        } else {
            rc = cmd_failed();
        }
        goto out;
    }
    {
        /* Bots and forced orders play at once; then each player's welcome
         * mail goes out, telling what they played. */
        struct game_rec g;
        int r = game_load(c->db, id, &g);
        if (!r) {
            r = engine_autoplay(c->db, &g, NULL) || notify_welcome(c->db, &g);
            game_unload(&g);
        }
        if (r || db_commit(c->db)) {
            db_rollback(c->db);
            rc = cmd_failed();
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
    cJSON_Delete(options);
    strbuf_release(&err);
    return rc;
}
