/* chores.h: what `ngoma run` and the clock of ngoma serve do when due: deadlines, reminders and policies, bots, digests, the admin's alert, pruning, the site. */
#ifndef NGOMA_CHORES_H
#define NGOMA_CHORES_H

#include <sqlite3.h>
#include <stdbool.h>

#include "judge/schedule.h"
#include "lib/strbuf.h"
#include "store/maintain.h"

struct chores_stats {
    struct schedule_stats ss;
    struct prune_stats pruned;
    int site_pages;
    bool alerted;
};

/* Every chore in turn, each game in a transaction of its own; a chore
 * that fails is reported and the others go on. -1 when one failed. With
 * strong, a pass of the strong bots too (`ngoma run`; ngoma serve keeps
 * them in a child of their own, so that no deadline waits for them). */
int chores_do(sqlite3 *db, bool strong, struct chores_stats *st);

/* "N games with deadlines: ... ; N site pages; pruned ..." */
void chores_summary(const struct chores_stats *st, struct strbuf *out);

/* Takes the lock one run (or the server's clock) holds while it works:
 * the fd, -1 when another holds it, -2 on failure. */
int chores_lock(const char *db_path);

/* Records a run: its row is made at the start (*id) and finished with
 * its summary and the errors captured meanwhile. */
int chores_run_begin(sqlite3 *db, int64_t *id, char *errors, size_t size);
int chores_run_end(sqlite3 *db, int64_t id, struct strbuf *summary, const char *errors);

#endif
