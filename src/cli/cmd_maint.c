/* cmd_maint.c: the commands that keep the database: prune and backup. */
#include "cli/cmd.h"
#include "store/db.h"
#include "store/maintain.h"
#include "store/settings.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

int cmd_prune(struct cmd_ctx *c, int argc, char **argv)
{
    static const struct option opts[] = {
        { "before", required_argument, NULL, 'b' },
        { NULL, 0, NULL, 0 },
    };
    char *age = setting_get(c->db, "retention");
    struct prune_stats st;
    long secs;
    int o, rc = 0;

    optind = 0;
    opterr = 0;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (o == 'b' && duration_parse(optarg, &secs)) {
            free(age);
            age = xstrdup(optarg);
        } else {
            free(age);
            return cmd_usage(c, "--before takes an age like 90d, 4w or 12h, not \"%s\"", o == 'b' ? optarg : argv[optind - 1]);
        }
    }
    if (!age || !duration_parse(age, &secs)) {
        free(age);
        return cmd_failed();
    }
    if (db_prune(c->db, clock_now() - secs, &st))
        rc = cmd_failed();
    else
        printf("pruned what is older than %s: %lld sent mails, %lld raw copies, %lld journal rows, %lld runs\n", age,
               (long long)st.sent, (long long)st.raw, (long long)st.journal, (long long)st.runs);
    free(age);
    return rc;
}

int cmd_backup(struct cmd_ctx *c, int argc, char **argv)
{
    const char *path = argv[argc - 1];
    if (db_backup(c->db, path))
        return db_failure_is_temporary() ? EX_TEMPFAIL : EX_CANTCREAT;
    printf("backed up %s to %s\n", c->db_path, path);
    return 0;
}
