/* cmd_init.c: the commands that need no game: init, games and rules. */
#include "cli/cmd.h"
#include "store/db.h"
#include "lib/catalog.h"
#include "lib/template.h"
#include "lib/util.h"

#include <stdio.h>
#include <string.h>

int cmd_init(struct cmd_ctx *c, int argc, char **argv)
{
    int version;
    (void)argc;
    (void)argv;
    /* db_open has applied every pending migration already. */
    if (db_schema_version(c->db, &version))
        return cmd_failed();
    printf("%s is ready (schema version %d).\n", c->db_path, version);
    return 0;
}

int cmd_games(struct cmd_ctx *c, int argc, char **argv)
{
    (void)c;
    (void)argc;
    (void)argv;
    for (size_t i = 0; game_registry[i]; i++) {
        const struct game_ops *g = game_registry[i];
        char players[16];
        if (g->min_seats == g->max_seats)
            snprintf(players, sizeof(players), "%d", g->min_seats);
        else
            snprintf(players, sizeof(players), "%d-%d", g->min_seats, g->max_seats);
        printf("%-16s %-18s %5s players  %s\n", g->name, g->title, players, g->summary);
    }
    return 0;
}

int cmd_rules(struct cmd_ctx *c, int argc, char **argv)
{
    const struct game_ops *ops = game_find(argv[argc - 1]);
    struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, name = STRBUF_INIT;
    cJSON *data;
    int rc = 0;

    if (!ops)
        return cmd_usage(c, "unknown game \"%s\" (ngoma games lists them)", argv[argc - 1]);
    data = cJSON_CreateObject();
    cJSON_AddStringToObject(data, "title", ops->title);
    strbuf_addf(&name, "rules/%s.txt", ops->name);
    if (template_render_file(name.buf, data, LANG_ENGLISH, &out, &err)) {
        error("%s", err.buf);
        rc = EX_CONFIG;
    } else {
        fputs(out.buf, stdout);
        if (ops->options[0].key) {
            printf("\nOptions (ngoma new %s --option KEY=VALUE; players set theirs\nfrom the lobby too):\n",
                   ops->name);
            for (const struct game_option *o = ops->options; o->key; o++) {
                struct strbuf line = STRBUF_INIT, wrapped = STRBUF_INIT;
                strbuf_addf(&line, "  %s (default %s%s): %s", o->key, *o->def ? o->def : "none",
                            o->flags & OPTION_HOST ? "; the host's only" : "; players may set it", o->help);
                strbuf_add_flowed(&wrapped, line.buf, 4, 72);
                fputs(wrapped.buf, stdout);
                strbuf_release(&line);
                strbuf_release(&wrapped);
            }
        }
    }
    cJSON_Delete(data);
    strbuf_release(&out);
    strbuf_release(&err);
    strbuf_release(&name);
    return rc;
}
