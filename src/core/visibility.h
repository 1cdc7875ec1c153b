/* visibility.h: who may know what: the one place every output asks whether a viewer may read a seat's address, the person behind an anonymous title, or the writer of grey press and whom it reached. */
#ifndef NGOMA_VISIBILITY_H
#define NGOMA_VISIBILITY_H

#include <stdbool.h>

#include "core/gamerec.h"

/*
 * Who reads an output. A seat reads her own mails; an observer a
 * watcher's; the host by mail her answers; a lobby table's opener her
 * game's host mail (a player with a table, not a host); the public the
 * site, the export and the SQL views docs/queries.md calls public; the
 * host at the shell everything.
 */
enum viewer_kind { VIEWER_SEAT, VIEWER_OBSERVER, VIEWER_HOST_MAIL, VIEWER_OPENER, VIEWER_PUBLIC, VIEWER_SHELL };

struct viewer {
    enum viewer_kind kind;
    int seat; /* for VIEWER_SEAT: hers (0-based); else -1 */
};

static inline struct viewer viewer_seat(int seat)
{
    return (struct viewer){ VIEWER_SEAT, seat };
}
static inline struct viewer viewer_of(enum viewer_kind kind)
{
    return (struct viewer){ kind, -1 };
}

/* The game is anonymous and not over: its titles name nobody yet. */
bool vis_anonymous_now(const struct game_rec *g);
/* Whether v may read seat's mail address: only its player, and the host
 * at the shell. No player ever reads another's, nor does the host by
 * mail (a lobby table's opener is a player). */
bool vis_address(const struct game_rec *g, struct viewer v, int seat);
/* Whether v may read the name of the person behind seat's title: any
 * time in a game that is not anonymous, and once it is over; before, only
 * she and the host at the shell. */
bool vis_person(const struct game_rec *g, struct viewer v, int seat);
/* Whether v may read who wrote a message of writer's (grey: sent without
 * her name), and, as they would name her by elimination, the others it
 * went to: only the writer, and the host at the shell. */
bool vis_press_writer(struct viewer v, bool grey, int writer);

/* Whether v may read seat's plans (conditional orders not yet played),
 * or what became of them: only the seat herself. Nobody else, not the
 * host by mail nor any public output; a plan played is an order of the
 * record like any other. */
bool vis_plans(struct viewer v, int seat);

/* Whether a game keeps anything from some player (a hand, a deck, a
 * shield): its module names secrets or deals what a seat cannot see. */
bool vis_hidden_information(const struct game_ops *ops);
/* Whether the seed of game g has been revealed (the game is over): in a
 * game with hidden information every hand of every earlier step can then
 * be computed, so no rollback may go back past it. */
bool vis_seed_revealed(const struct game_rec *g);

/* Whether v may give a host command (the first word, lower case): the
 * host, at the shell or by mail, any; a lobby table's opener may EXTEND,
 * PAUSE, RESUME and ask STATUS, never ROLLBACK, END, REPLACE or KICK (she
 * rolls back or ends no running game, and puts no address into a seat).
 * When not, why in why: the key of a catalogue phrase that says what
 * would work. */
bool vis_host_command(struct viewer v, const char *command, const char **why);

#endif
