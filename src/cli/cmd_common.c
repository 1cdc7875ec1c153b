/* cmd_common.c: the steps several commands share: loading the named game and finding the named player. */
#include "cli/cmd.h"
#include "judge/gamespec.h"
#include "judge/strong.h"
#include "mail/send.h"
#include "store/settings.h"
#include "store/db.h"
#include "lib/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cmd_usage(const struct cmd_ctx *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ngoma %s: ", c->cmd->row.name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    struct strbuf args = STRBUF_INIT;
    cmd_args_text(c->cmd, &args);
    fprintf(stderr, " (usage: ngoma %s %s)\n", c->cmd->row.name, args.buf);
    strbuf_release(&args);
    return EX_USAGE;
}

void cmd_args_text(const struct command *c, struct strbuf *out)
{
    const char *at = strstr(c->row.usage, "{terms}");
    if (!at) {
        strbuf_addstr(out, c->row.usage);
        return;
    }
    strbuf_add(out, c->row.usage, (size_t)(at - c->row.usage));
    game_spec_usage(NULL, SPEC_HOST, out);
    strbuf_addstr(out, at + strlen("{terms}"));
}

int cmd_failed(void)
{
    return db_failure_is_temporary() ? EX_TEMPFAIL : EX_SOFTWARE;
}

int cmd_load_game(struct cmd_ctx *c, const char *arg, struct game_rec *g)
{
    int64_t id;
    int64_t found;
    int rc;

    if (game_id_parse(arg, &id))
        return cmd_usage(c, "\"%s\" is not a game number", arg);
    rc = db_get_int64(c->db, &found, "SELECT id FROM games WHERE id = ?", "I", id);
    if (rc < 0)
        return cmd_failed();
    if (rc == 0) {
        error("no game %lld in %s (ngoma list shows the games)", (long long)id, c->db_path);
        return EX_NOINPUT;
    }
    if (game_load(c->db, id, g))
        return db_failure_is_temporary() ? EX_TEMPFAIL : EX_DATAERR;
    return 0;
}

int cmd_load_seat(struct cmd_ctx *c, const char *game, const char *player, struct game_rec *g, int *seat)
{
    int rc = cmd_load_game(c, game, g);
    if (rc)
        return rc;
    if ((*seat = cmd_seat(g, player)) < 0) {
        game_unload(g);
        return EX_DATAERR;
    }
    return 0;
}

int cmd_seat(const struct game_rec *g, const char *who)
{
    int seat = game_seat_find(g, who);
    if (seat < 0) {
        struct strbuf names = STRBUF_INIT;
        game_names_of(g, (1u << g->nseats) - 1, &names);
        error("game %lld has no player \"%s\": its players are %s", (long long)g->id, who, names.buf);
        strbuf_release(&names);
    }
    return seat;
}

void cmd_strong_bots(struct cmd_ctx *c)
{
    struct schedule_stats st;
    struct send_stats sst;
    memset(&st, 0, sizeof(st));
    if (strong_bots_play(c->db, STRONG_MOVES_AFTER_MAIL, &st)) {
        error("the strong bots play at the next ngoma run");
        db_failure_reset();
        return;
    }
    if (st.bot_steps && (str_eq(c->cmd->row.name, "receive") || str_eq(c->cmd->row.name, "fetch")) &&
        setting_is_yes(c->db, "send_on_receive") && outbox_send_wait(c->db, c->db_path, 60, &sst))
        error("the bots' mail stays in the outbox for ngoma send or run");
    db_failure_reset();
}
