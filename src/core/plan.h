/* plan.h: conditional orders (IF Bob MOVE 3 12c THEN MOVE 2 14a): read in her words, checked on a copy of the game, kept secret to her seat, played at once when their condition comes true. */
#ifndef NGOMA_PLAN_H
#define NGOMA_PLAN_H

#include <sqlite3.h>
#include <stdbool.h>

#include "core/gamerec.h"
#include "core/submission.h"

/*
 * A seat's plans are one tree, kept in the plans row of her seat: a level
 * is a list of branches (a condition on the others' orders, her answer,
 * and the level that follows it) and maybe an ELSE (her answer when no
 * branch's condition came true, and what follows it). A condition is one
 * or more items joined by AND, each a seat and one or more of its orders
 * joined by OR. A line adds a part of the tree: IF c THEN a goes on
 * after a (IF c2 THEN a2), ELSE IF adds a branch beside it, ELSE a its
 * ELSE. The level is read when the game waits for her alone and another
 * seat has played since it was armed (her last order, or the plans
 * given): the first branch whose condition came true is played, an
 * answer that is no longer legal is dropped with a note; no branch and
 * no ELSE: the level is dropped, she is told, and she orders herself.
 */

/* Whether line (as she wrote it) is a conditional order: IF in English
 * or in lang. */
bool plan_line_is(const char *lang, const char *line);

/* Whether seat may plan now: the host allows plans (plan_max), the game
 * is not over, one other seat acts next; else the key of a phrase
 * saying why. */
bool plan_allowed(sqlite3 *db, const struct game_rec *g, int seat, const char **why);

/* "Did you mean ...?" for a line of seat's refused in g (the engine's:
 * appended to out; false when nothing is near). */
typedef bool (*plan_near_fn)(const struct game_rec *g, int seat, const char *line, struct strbuf *out);

/* Takes one IF line of seat's (l->text as she wrote it): read, checked
 * along the game as far as it can be known, merged into her plans; l
 * says what became of it (LINE_PLANNED, or LINE_REJECTED with why, and
 * near's offer for an order of it refused); again: a plan of the same
 * text was taken before it, which said what a plan is. */
int plan_give(sqlite3 *db, struct game_rec *g, int seat, struct line_result *l, plan_near_fn near, bool again);

/* PLANS: her plans, a line a path from her next answer, numbered. */
int plan_list(sqlite3 *db, const struct game_rec *g, int seat, struct strbuf *out);
/* CANCEL PLANS (arg "plans"), CANCEL n: her plans, or the n-th as PLANS
 * numbers them (the part of it no other shares). */
int plan_cancel(sqlite3 *db, struct game_rec *g, int seat, const char *arg, struct line_result *l);

/* At seat's turn: the answer her plans play now (owned, checked: the
 * game takes it), else NULL; what was dropped on the way is noted for
 * her next mail. Her plans then go on after that answer. */
int plan_due(sqlite3 *db, struct game_rec *g, int seat, char **answer);
/* Whether seat has plans. */
int plan_any(sqlite3 *db, const struct game_rec *g, int seat, bool *any);
/* Whether plan_due would read seat's plans now (cheap: no check). */
int plan_ready(sqlite3 *db, const struct game_rec *g, int seat, bool *ready);

/* Why plans are cleared: her own order, a seat's new holder, a rollback. */
enum plan_clear { PLAN_CLEAR_ORDER, PLAN_CLEAR_SEAT, PLAN_CLEAR_ROLLBACK, PLAN_CLEAR_OVER };
/* Clears seat's plans (seat -1: every seat's); *n (when not NULL) gets
 * how many plans (paths) went. A rollback and a new holder drop the notes
 * not yet told too. */
int plan_clear(sqlite3 *db, const struct game_rec *g, int seat, enum plan_clear why, int *n);

/* What seat's next mail tells of her plans, in her words: the orders
 * they played for her since her last mail, what was dropped, and what is
 * still planned. Nothing when there is nothing to tell. */
int plan_news(sqlite3 *db, const struct game_rec *g, int seat, struct strbuf *out);

/* From position st, where one other seat acts next: for each of his
 * replies the easy bot thinks likely (at most replies), an IF line that
 * answers it with the easy bot's choice for her (the others before her
 * turn joined by AND, each his likeliest), and (depth 2) goes on with his
 * likeliest reply to that and her answer; in lang's words. Nothing when
 * one other seat does not act next, nor in a game that keeps anything
 * from her (game_hides_anything: the easy bot reads the whole state). */
int plan_lines_ahead(const struct game_rec *g, const void *st, int seat, int replies, int depth, const char *lang,
                     struct strlist *lines);
/* After her order: plan_lines_ahead one move ahead (at most max lines),
 * in her words, as she would send them; and, while she has no plans, the
 * sentence that says how to write one (hint). Nothing when she may not
 * plan now. */
int plan_suggest(sqlite3 *db, const struct game_rec *g, int seat, int max, struct strlist *lines,
                 struct strbuf *hint);

#endif
