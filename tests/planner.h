/* planner.h: a player of the tests and benchmarks who plans: her order the easy bot's choice and, when she plans, IF lines two moves ahead, as the text of her mail. */
#ifndef NGOMA_PLANNER_H
#define NGOMA_PLANNER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/gamerec.h"

/* Seat's mail in g as it stands (she is to act): the easy bot's order
 * for her (salt makes it repeatable) and, with plan, the IF lines of
 * plan_lines_ahead two moves ahead from the position it leaves (the two
 * likeliest replies, in English). Owned; NULL when she has no order. */
char *planner_mail(const struct game_rec *g, int seat, bool plan, uint64_t salt);

#endif
