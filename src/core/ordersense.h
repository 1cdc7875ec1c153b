/* ordersense.h: whether a line a player wrote reads as an order of her game, so that press never carries one. */
#ifndef NGOMA_ORDERSENSE_H
#define NGOMA_ORDERSENSE_H

#include <stdbool.h>

#include "core/gamerec.h"
#include "core/press.h"
#include "lib/strlist.h"

/* What one seat's text is read against: the game's commands, and the
 * verbs and words of every seat's legal orders now (gathered once, the
 * first time a line needs them). */
struct order_sense {
    const struct game_rec *g;
    int seat;
    bool ready;
    struct strlist orders; /* every seat's legal orders, lower case */
    struct strlist verbs;  /* their first words */
    struct strlist words;  /* their other words */
};

/*
 * A line reads as an order when it is a command every game takes (DRAW,
 * RESIGN, LEGAL ...), an order the game takes from seat now, a legal
 * order of any seat, or a verb of one followed by at most seven words
 * each of which holds a digit or is a word of a legal order ("PLAY 9",
 * "MOVE 3 12c"); "play nice, Ann" does not. out is the press_sense to
 * hand to press_split; s must outlive it.
 */
void order_sense_init(struct order_sense *s, const struct game_rec *g, int seat, struct press_sense *out);
bool order_sense_reads(struct order_sense *s, const char *line, size_t len);
void order_sense_release(struct order_sense *s);

#endif
