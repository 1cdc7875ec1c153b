/* bench.h: what the parts of the benchmark program share. */
#ifndef NGOMA_BENCH_H
#define NGOMA_BENCH_H

#include <stddef.h>

/* Writes DIR/SHAPE-stranger.eml and DIR/SHAPE-seat.eml for every hostile
 * shape, each about size bytes; the seat's go to seat_address. With
 * copies > 1, that many of each, with their own Message-IDs
 * (DIR/SHAPE-WHO-SIZE-N.eml). */
int bench_hostile_write(const char *dir, size_t size, const char *seat_address, int copies);
/* Runs argv (a path and its arguments), its output thrown away, and
 * prints "SECONDS MAXRSS_KB EXIT". */
int bench_rusage(int argc, char **argv);
/* For every game, positions boards each drawn repeats times: milliseconds
 * and bytes a picture beside the text mail; 1 when a picture is over its
 * byte budget. */
int bench_pictures(int positions, int repeats);

/* The LMTP client (lmtp_client.c): where is unix:PATH or a port on
 * 127.0.0.1. lmtp-one prints each mail's milliseconds from connect to its
 * 250; lmtp-many prints "MAILS SECONDS". */
int bench_lmtp_one(const char *where, int nfiles, char **files);
int bench_lmtp_many(const char *where, int conns, const char *list);

/* The strong bot (ms a move, and iterations when > 0) in one seat, the
 * easy bot in the others, over games games with the seats rotated: one
 * line of the strength table (strength.c). */
int bench_strength(const char *game, int nseats, int ngames, int ms, int iterations);
/* The strong bot's search of ms a move at moves positions of one game the
 * easy bots play: prints a move's mean iterations, CPU and wall
 * milliseconds (the same positions however busy the machine). */
int bench_iterations(const char *game, int nseats, int moves, int ms);

/* Games of each kind by mail with and without plans, both players
 * planning two moves ahead with the easy bot as planner: the mails each
 * takes, and their ratio (plans.c). */
int bench_plans(const char *dir, int ngames);

#endif
