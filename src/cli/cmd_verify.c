/* cmd_verify.c: `ngoma verify`, `ngoma export` and `ngoma site`: the public record, and anyone checking that no shuffle was rigged. */
#include "cli/cmd.h"
#include "core/verify.h"
#include "judge/press.h"
#include "site/site.h"
#include "lib/jsonx.h"
#include "lib/paths.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

int cmd_verify(struct cmd_ctx *c, int argc, char **argv)
{
    struct strbuf report = STRBUF_INIT, err = STRBUF_INIT;
    const char *file = NULL, *game = NULL;
    int rc;
    for (int i = 1; i < argc; i++) {
        if (str_eq(argv[i], "--file") && i + 1 < argc)
            file = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1] == '-')
            return cmd_usage(c, "unknown option %s", argv[i]);
        else
            game = argv[i];
    }
    if (!file == !game)
        return cmd_usage(c, "give a GAME, or --file and a public record (ngoma export GAME writes one)");
    if (file) {
        cJSON *record = jx_load_file(file, FILE_MAX_RECORD, &err);
        if (!record) {
            error("%s", err.buf);
            strbuf_release(&err);
            return EX_NOINPUT;
        }
        rc = verify_record(record, OPTIONS_RECORD, &report);
        cJSON_Delete(record);
    } else {
        struct game_rec g;
        if ((rc = cmd_load_game(c, game, &g)))
            return rc;
        rc = verify_game(c->db, &g, &report);
        if (rc == 0)
            printf("game %lld: verified.\n", (long long)g.id);
        game_unload(&g);
    }
    if (rc == 0) {
        printf("%s\n", report.buf);
    } else if (rc == 1) {
        printf("NOT VERIFIED: %s\n", report.buf);
        rc = EX_DATAERR;
    } else if (report.len) {
        error("%s", report.buf);
        rc = EX_DATAERR;
    } else {
        rc = cmd_failed();
    }
    strbuf_release(&report);
    strbuf_release(&err);
    return rc;
}

int cmd_export(struct cmd_ctx *c, int argc, char **argv)
{
    struct game_rec g;
    cJSON *record;
    int rc;
    if ((rc = cmd_load_game(c, argv[argc - 1], &g)))
        return rc;
    if (!(record = verify_export(c->db, &g, false)) || press_publish(c->db, &g, record)) {
        cJSON_Delete(record);
        rc = cmd_failed();
    } else {
        char *text = cJSON_Print(record);
        printf("%s\n", text);
        free(text);
        cJSON_Delete(record);
    }
    game_unload(&g);
    return rc;
}

int cmd_site(struct cmd_ctx *c, int argc, char **argv)
{
    struct site_stats st;
    if (site_write(c->db, argv[argc - 1], false, &st))
        return cmd_failed();
    printf("wrote %d game pages and %d pictures to %s/\n", st.games, st.pictures, argv[argc - 1]);
    return 0;
}
