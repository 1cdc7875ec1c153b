/* cmd_show.c: `ngoma show`, `ngoma picture`, `ngoma history` and `ngoma replay`: reading a game back. */
#include "cli/cmd.h"
#include "lib/catalog.h"
#include "render/render.h"
#include "store/db.h"
#include "core/engine.h"
#include "core/history.h"
#include "lib/jsonx.h"
#include "lib/util.h"
#include "core/view.h"

#include <getopt.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>

struct read_opts {
    const char *as;
    bool json;
    long long turn; /* the game's own round (turn, move), -1: none */
    long long step; /* a stored step, -1: none */
    const char *game;
};

/* Reads --as, --json (when json_ok) and --turn (when turn_ok). */
static int read_opts(struct cmd_ctx *c, int argc, char **argv, bool json_ok, bool turn_ok, struct read_opts *r)
{
    static const struct option opts[] = {
        { "as", required_argument, NULL, 'a' },
        { "json", no_argument, NULL, 'j' },
        { "turn", required_argument, NULL, 't' },
        { "step", required_argument, NULL, 's' },
        { NULL, 0, NULL, 0 },
    };
    int o;

    r->as = NULL;
    r->json = false;
    r->turn = r->step = -1;
    optind = 0;
    opterr = 0;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (o) {
        case 'a':
            r->as = optarg;
            break;
        case 'j':
            if (!json_ok)
                goto unknown;
            r->json = true;
            break;
        case 't':
        case 's':
            if (!turn_ok)
                goto unknown;
            if (!parse_int(optarg, 0, 1000000000, o == 't' ? &r->turn : &r->step))
                return cmd_usage(c, "--%s takes a number, not \"%s\"", o == 't' ? "turn" : "step", optarg);
            break;
        default:
        unknown:
            return cmd_usage(c, "unknown option %s", argv[optind - 1]);
        }
    }
    r->game = argv[optind];
    return 0;
}

/* Loads the game and the viewer's seat (-1 for an observer), at the
 * position --turn or --step asks for (as round N began, or after step N). */
static int load(struct cmd_ctx *c, struct read_opts *r, struct game_rec *g, int *viewer)
{
    int rc;
    *viewer = -1;
    if ((rc = r->as ? cmd_load_seat(c, r->game, r->as, g, viewer) : cmd_load_game(c, r->game, g)))
        return rc;
    if (r->turn >= 0) {
        int first, last;
        if (history_steps_of(c->db, g, (int)r->turn, &first, &last)) {
            game_unload(g);
            return db_failure_is_temporary() ? EX_TEMPFAIL : EX_DATAERR;
        }
        r->step = first > 0 ? first - 1 : 0;
    }
    if (r->step >= 0 && view_load_turn(c->db, g, (int)r->step)) {
        game_unload(g);
        return db_failure_is_temporary() ? EX_TEMPFAIL : EX_DATAERR;
    }
    return 0;
}

int cmd_show(struct cmd_ctx *c, int argc, char **argv)
{
    struct read_opts r;
    struct game_rec g;
    int viewer, rc;

    if ((rc = read_opts(c, argc, argv, true, true, &r)) || (rc = load(c, &r, &g, &viewer)))
        return rc;
    if (r.json) {
        cJSON *j = view_json(c->db, &g, viewer);
        if (!j) {
            rc = cmd_failed();
        } else {
            char *text = cJSON_Print(j);
            printf("%s\n", text);
            free(text);
            cJSON_Delete(j);
        }
    } else {
        struct strbuf out = STRBUF_INIT;
        if (view_ascii(c->db, &g, viewer, &out))
            rc = cmd_failed();
        else {
            strbuf_addch(&out, '\n');
            view_fairness(&g, LANG_ENGLISH, &out);
            fputs(out.buf, stdout);
        }
        strbuf_release(&out);
    }
    game_unload(&g);
    return rc;
}

/* picture GAME [--as PLAYER] [--turn N|--step N]: the board as a PNG, on
 * standard output. */
int cmd_picture(struct cmd_ctx *c, int argc, char **argv)
{
    struct read_opts r;
    struct game_rec g;
    struct render_out out;
    struct strbuf err = STRBUF_INIT;
    cJSON *view = NULL, *prev = NULL;
    int viewer, rc;

    if ((rc = read_opts(c, argc, argv, false, true, &r)) || (rc = load(c, &r, &g, &viewer)))
        return rc;
    render_out_init(&out);
    if (!(view = view_json(c->db, &g, viewer))) {
        rc = cmd_failed();
    } else {
        prev = view_module_at(c->db, &g, g.turn - 1, viewer);
        if (render_board(view, prev, &out, &err)) {
            error("%s", err.buf);
            rc = EX_DATAERR;
        } else if (isatty(STDOUT_FILENO)) {
            error("the picture is a PNG: send it to a file, as in ngoma picture %lld > board.png", (long long)g.id);
            rc = EX_USAGE;
        } else {
            fwrite(out.png.buf, 1, out.png.len, stdout);
        }
    }
    cJSON_Delete(view);
    cJSON_Delete(prev);
    render_out_release(&out);
    strbuf_release(&err);
    game_unload(&g);
    return rc;
}

int cmd_history(struct cmd_ctx *c, int argc, char **argv)
{
    struct read_opts r;
    struct game_rec g;
    struct strbuf out = STRBUF_INIT;
    int viewer, rc;

    if ((rc = read_opts(c, argc, argv, false, true, &r)) || (rc = load(c, &r, &g, &viewer)))
        return rc;
    if (r.turn >= 0 || r.step >= 0) {
        /* One round (turn, move) of the game, or one step. */
        int first = (int)r.step, last = (int)r.step;
        if (r.turn >= 0 && history_steps_of(c->db, &g, (int)r.turn, &first, &last))
            rc = db_failure_is_temporary() ? EX_TEMPFAIL : EX_DATAERR;
        else if (history_render_range(c->db, &g, viewer, first, last, &out))
            rc = cmd_failed();
        else
            fputs(out.buf, stdout);
    } else if (history_render(c->db, &g, viewer, &out))
        rc = cmd_failed();
    else
        fputs(out.buf, stdout);
    strbuf_release(&out);
    game_unload(&g);
    return rc;
}

int cmd_replay(struct cmd_ctx *c, int argc, char **argv)
{
    struct game_rec g;
    struct strbuf report = STRBUF_INIT;
    int rc;

    if ((rc = cmd_load_game(c, argv[argc - 1], &g)))
        return rc;
    switch (engine_replay(c->db, &g, &report)) {
    case 0:
        printf("game %lld: all %d turns replay exactly from seed %lld.\n", (long long)g.id, g.turn + 1,
               (long long)g.seed);
        break;
    case 1:
        printf("game %lld: replay differs: %s\n", (long long)g.id, report.buf);
        rc = EX_DATAERR;
        break;
    default:
        rc = cmd_failed();
    }
    strbuf_release(&report);
    game_unload(&g);
    return rc;
}
