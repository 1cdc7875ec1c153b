/* options.h: what a seat may do now, said compactly for a mail: its orders when few, else a summary by kind. */
#ifndef NGOMA_OPTIONS_H
#define NGOMA_OPTIONS_H

#include "core/gamerec.h"

/* The orders of seat now whose words begin with filter's (any case;
 * NULL or "": all), in legal's order. */
void options_orders(const struct game_rec *g, int seat, const char *filter, struct strlist *out);

/*
 * Appends what seat may order now that begins with filter: every order,
 * one a line indented two spaces, when there are at most list_max and a
 * summary would not be much shorter; else a line or so a kind of order
 * (the game's own summary where it has one, else the core's: "MOVE any
 * of: b3 c3 d3"), then one full example. Every line is within 72
 * columns. Returns how many orders there are (0: nothing appended).
 */
size_t options_text(const struct game_rec *g, int seat, const char *filter, size_t list_max, struct strbuf *out);

#endif
