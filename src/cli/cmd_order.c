/* cmd_order.c: `ngoma order` and `ngoma legal`: giving orders (and press) as a player would by mail, and listing the legal ones. */
#include "cli/cmd.h"
#include "store/db.h"
#include "core/engine.h"
#include "core/ordersense.h"
#include "judge/notify.h"
#include "judge/press.h"
#include "core/reply.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_stdin(void)
{
    struct strbuf sb = STRBUF_INIT;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
        strbuf_add(&sb, buf, n);
    return strbuf_detach(&sb);
}

int cmd_order(struct cmd_ctx *c, int argc, char **argv)
{
    struct game_rec g;
    struct submission sub = { 0 };
    struct strbuf out = STRBUF_INIT;
    struct press_text press;
    struct order_sense sense;
    char *text;
    int seat, rc;
    (void)argc;

    if ((rc = cmd_load_seat(c, argv[1], argv[2], &g, &seat)))
        return rc;
    text = strcmp(argv[3], "-") == 0 ? read_stdin() : xstrdup(argv[3]);
    /* Her press goes as from a mail of hers; the orders are the rest. */
    {
        struct press_sense ps;
        order_sense_init(&sense, &g, seat, &ps);
        press_split(text, false, &ps, &press);
        order_sense_release(&sense);
    }
    /* The other players hear of it by mail, as if it had come by mail. */
    if (db_begin(c->db) || engine_submit(c->db, &g, seat, press.orders, "cli", 0, &sub) ||
        press_take(c->db, &g, seat, &press, 0, 0, 0, &sub) || press_history(c->db, &g, seat, &sub) ||
        reply_render(c->db, &g, seat, &sub, &out) || notify_submission(c->db, &g, seat, &sub, NULL) ||
        db_commit(c->db)) {
        db_rollback(c->db);
        rc = cmd_failed();
        error("nothing was stored");
    } else {
        fputs(out.buf, stdout);
        rc = 0;
        for (size_t i = 0; i < sub.n; i++)
            if (sub.lines[i].status == LINE_REJECTED)
                rc = EX_DATAERR;
    }
    free(text);
    press_text_release(&press);
    strbuf_release(&out);
    submission_release(&sub);
    game_unload(&g);
    return rc;
}

int cmd_legal(struct cmd_ctx *c, int argc, char **argv)
{
    struct game_rec g;
    struct strlist legal = STRLIST_INIT;
    int seat, rc;
    (void)argc;

    if ((rc = cmd_load_seat(c, argv[1], argv[2], &g, &seat)))
        return rc;
    if (g.ops->waiting_for(g.st) & (1u << seat))
        g.ops->legal(g.st, seat, &g.table, &legal);
    for (size_t i = 0; i < legal.n; i++)
        printf("%s\n", legal.v[i]);
    strlist_clear(&legal);
    game_unload(&g);
    return 0;
}
