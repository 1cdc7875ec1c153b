/* cmd_standing.c: `ngoma ratings`, `ngoma player` and `ngoma merge-player`: the players' standing at the host's shell. */
#include "cli/cmd.h"
#include "core/engine.h"
#include "judge/standing.h"
#include "store/db.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Finished games the ratings have not taken yet are taken first. */
static int caught_up(struct cmd_ctx *c)
{
    if (db_begin(c->db) || standing_catch_up(c->db) || db_commit(c->db)) {
        db_rollback(c->db);
        return -1;
    }
    return 0;
}

int cmd_ratings(struct cmd_ctx *c, int argc, char **argv)
{
    struct strbuf out = STRBUF_INIT;
    const struct game_ops *ops = game_find(argv[1]);
    (void)argc;
    if (!ops)
        return cmd_usage(c, "there is no game called \"%s\" (ngoma games lists them)", argv[1]);
    if (caught_up(c) || standing_ratings_text(c->db, ops->name, NULL, true, NULL, &out)) {
        strbuf_release(&out);
        return cmd_failed();
    }
    printf("%s ratings\n%s\n", ops->title, out.buf);
    strbuf_release(&out);
    return 0;
}

int cmd_player(struct cmd_ctx *c, int argc, char **argv)
{
    struct strbuf out = STRBUF_INIT;
    char *person;
    (void)argc;
    if (caught_up(c))
        return cmd_failed();
    if (!(person = standing_find(c->db, argv[1]))) {
        fprintf(stderr, "ngoma: nobody called or at \"%s\" has played here\n", argv[1]);
        return EX_DATAERR;
    }
    if (standing_profile_text(c->db, person, true, NULL, &out)) {
        free(person);
        strbuf_release(&out);
        return cmd_failed();
    }
    fputs(out.buf, stdout);
    free(person);
    strbuf_release(&out);
    return 0;
}

int cmd_merge_player(struct cmd_ctx *c, int argc, char **argv)
{
    struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
    int rc;
    (void)argc;
    for (int i = 1; i <= 2; i++)
        if (!strchr(argv[i], '@') || engine_check_email(argv[i], &err)) {
            strbuf_release(&out);
            rc = cmd_usage(c, "\"%s\" is not an address: merge-player takes two, the one to keep first", argv[i]);
            strbuf_release(&err);
            return rc;
        }
    if (db_begin(c->db) || (rc = standing_merge(c->db, argv[1], argv[2], &out)) < 0 || db_commit(c->db)) {
        db_rollback(c->db);
        strbuf_release(&out);
        return cmd_failed();
    }
    if (rc == 1) {
        db_rollback(c->db);
        fprintf(stderr, "ngoma: %s\n", out.buf);
        strbuf_release(&out);
        return EX_DATAERR;
    }
    printf("%s\n", out.buf);
    strbuf_release(&out);
    strbuf_release(&err);
    return 0;
}
