/* plan_int.h: what the plan files share: a plan tree's shape in JSON, reading a line into one, writing its paths back, and the plans row. */
#ifndef NGOMA_PLAN_INT_H
#define NGOMA_PLAN_INT_H

#include "core/plan.h"
#include "lib/strbuf.h"

#include <cjson/cJSON.h>

/*
 * A tree (a level) in JSON, as the plans row keeps it:
 *   {"b": [branch, ...], "e": {"a": ANSWER, "n": LEVEL}}
 *   branch: {"c": [{"s": SEAT, "o": [ORDER, ...]}, ...], "a": ANSWER, "n": LEVEL}
 * SEAT counts from 1; orders are English, as LEGAL writes them once
 * checked; "n" (what follows) and "e" are left out when empty.
 */
#define PLAN_ALTERNATIVES_MAX 8 /* orders one item of a condition names (OR) */
#define PLAN_WAYS_MAX 16        /* ways a condition may come true (its items' orders multiplied) */

/* Reads line (as she wrote it, in lang) into a level of its own: orders
 * in English as she wrote them. NULL with why (a sentence in lang). */
cJSON *plan_read(const struct game_rec *g, int seat, const char *lang, const char *line, struct strbuf *why);

/* A path: the nodes from a level down to a leaf; an ELSE's path holds
 * the level's first branch before it, as it is written ("IF ... THEN a
 * ELSE b"), marked as said only for it. */
struct plan_path {
    const cJSON *node[64];
    bool context[64];
    int n;
};
/* Every path of level, depth first, as PLANS numbers them; at most max. */
int plan_paths(const cJSON *level, struct plan_path *out, int max);
/* How many paths (plans) level holds. */
int plan_count(const cJSON *level);
/* The nodes of level's longest path. */
int plan_depth(const cJSON *level);
/* A path as she would write it, in lang. */
void plan_path_text(const struct game_rec *g, const char *lang, const struct plan_path *p, struct strbuf *out);
/* One node's condition in lang: "Bob MOVE 3 12c OR MOVE 3 12d AND Cy ...". */
void plan_cond_text(const struct game_rec *g, const char *lang, const cJSON *cond, struct strbuf *out);
/* An order of the game in lang's words (owned). */
char *plan_order_local(const struct game_rec *g, const char *lang, const char *order);
/* lang's word for IF, THEN, ELSE, OR, AND (its first spelling). */
const char *plan_keyword(const char *lang, const char *english);
/* Whether two orders are the same as LEGAL writes them: any case, any
 * run of spaces. */
bool plan_same_order(const char *a, const char *b);

/* The plans row of seat: its tree (owned, NULL when none) and the step it
 * was armed at. */
int plan_load(sqlite3 *db, const struct game_rec *g, int seat, cJSON **tree, int *armed);
/* Keeps tree (an empty one deletes the row). */
int plan_store(sqlite3 *db, const struct game_rec *g, int seat, const cJSON *tree, int armed);
/* Keeps a note for seat's next mail (a sentence in her words). */
int plan_note(sqlite3 *db, const struct game_rec *g, int seat, const char *text);
/* The others' orders since a step (at most 256): what conditions read. */
struct plan_seen {
    int seat[256];
    char *order[256];
    int n;
};
int plan_seen_since(sqlite3 *db, const struct game_rec *g, int seat, int armed, struct plan_seen *out);
void plan_seen_release(struct plan_seen *s);
/* Whether an item of a condition (a seat and its orders) came true in
 * seen; *played (when not NULL) whether that seat played at all. */
bool plan_item_seen(const cJSON *item, const struct plan_seen *seen, bool *played);
/* A copy of a state, for looking ahead; NULL when it could not be made. */
void *plan_copy_state(const struct game_rec *g, const void *st);
/* Plays seat's order on st (a copy: nobody reads its log); -1 when the
 * game could not. */
int plan_play_on(const struct game_rec *g, void *st, int seat, const char *order);
/* What her look-ahead deals anew with, at this step. */
uint64_t plan_salt(const struct game_rec *g, int seat);

/* The level after a node (a branch or an ELSE), made empty when it has
 * none. */
cJSON *plan_next_level(cJSON *holder);
/* The one seat a waiting mask names, or -1 (none, or several together). */
int plan_one_seat(unsigned mask);

/* Whether a level holds nothing. */
bool plan_level_empty(const cJSON *level);

#endif
