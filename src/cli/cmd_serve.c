/* cmd_serve.c: the serve command: ngoma resident, taking mail by LMTP, sending at once and keeping the clock. */
#include "cli/cmd.h"
#include "serve/server.h"
#include "store/db.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_serve(struct cmd_ctx *c, int argc, char **argv)
{
    static const struct option opts[] = {
        { "listen", required_argument, NULL, 'l' },
        { "socket-mode", required_argument, NULL, 'm' },
        { "socket-group", required_argument, NULL, 'g' },
        { NULL, 0, NULL, 0 },
    };
    struct serve_opts so = { 0 };
    int o;

    so.db_path = c->db_path;
    so.lo.mode = 0660;
    optind = 0;
    opterr = 0;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (o == 'l' && so.nlisten < LISTEN_MAX) {
            so.listen[so.nlisten++] = optarg;
        } else if (o == 'l') {
            return cmd_usage(c, "at most %d --listen", LISTEN_MAX);
        } else if (o == 'm') {
            char *end;
            long mode = strtol(optarg, &end, 8);
            if (*end || end == optarg || mode < 0 || mode > 0777)
                return cmd_usage(c, "--socket-mode takes an octal mode like 660, not \"%s\"", optarg);
            so.lo.mode = (mode_t)mode;
        } else if (o == 'g') {
            so.lo.group = optarg;
        } else {
            return cmd_usage(c, "unknown option %s", argv[optind - 1]);
        }
    }
    if (str_eq(c->db_path, ":memory:"))
        return cmd_usage(c, "serve needs a database file");
    /* The server opens its own connection, before its children fork. */
    db_close(c->db);
    c->db = NULL;
    return serve_run(&so);
}
