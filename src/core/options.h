/* options.h: what a seat may do now, said compactly for a mail: its orders when few, else a summary by kind. */
#ifndef NGOMA_OPTIONS_H
#define NGOMA_OPTIONS_H

#include "core/gamerec.h"

/* The orders of seat now whose words begin with filter's (any case;
 * NULL or "": all), in legal's order. */
void options_orders(const struct game_rec *g, int seat, const char *filter, struct strlist *out);

/* A kind of order (its first word) with at most this many is listed in
 * full, in the text and as links. */
#define OPTIONS_KIND_FULL GAME_ORDERS_IN_FULL

/*
 * Appends what seat may order now that begins with filter, kind by kind:
 * every order, one a line indented two spaces, when there are at most
 * list_max in all or at most OPTIONS_KIND_FULL of the kind; else a line or
 * so for the kind (the game's own summary where it has one, else the
 * core's: "MOVE any of: b3 c3 d3"), and one full example after the core's.
 * Every line is within 72 columns. Returns how many orders there are (0:
 * nothing appended).
 */
size_t options_text(const struct game_rec *g, int seat, const char *filter, size_t list_max, struct strbuf *out);

/* The orders beginning with filter as links for a mail (labels[i] is
 * what a link shows, orders[i] what it mails): all of them when there are
 * at most list_max (or OPTIONS_KIND_FULL); else grouped by their next
 * words, each group of at most OPTIONS_KIND_FULL in full, a longer one as
 * "LEGAL <its words>", which lists it: each tap narrows the list until
 * the orders themselves are links. Both in the seat's language (her
 * order words: JOUER 7, COUPS DÉPLACER 3), as she may write them. */
void options_choices(const struct game_rec *g, int seat, const char *filter, size_t list_max, struct strlist *labels,
                     struct strlist *orders);

#endif
