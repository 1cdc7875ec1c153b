/* rounds.h: what the children of ngoma serve do each round: the sender sends what is due, the clock runs the chores when they fall due, the bots child plays the strong bots. */
#ifndef NGOMA_ROUNDS_H
#define NGOMA_ROUNDS_H

#include "serve/worker.h"

/* The sender: every mail due (pictures drawn here, by a process that
 * keeps cairo and its fonts loaded); due again when the next deferred
 * mail is. */
worker_fn serve_send_round;
/* The reader: every mail the inbox keeps (the server's LMTP mail with
 * lmtp_ack kept, receive's), taken in groups of up to 64, a savepoint
 * each; then the server is told (it wakes the sender and the clock). */
worker_fn serve_read_round;
/* The clock: the chores of `ngoma run` (but fetching) when a reminder,
 * deadline, vacation's end or digest falls due, to the second, and every
 * five minutes besides; a round that finds nothing due only looks when
 * the next thing is. */
worker_fn serve_clock_round;
/* The bots: a pass of the strong bots (strong_bots_play, within
 * bot_share) a second while any game has one, woken with every mail; at
 * a lower priority than the clock, whose deadlines never wait for a
 * search. */
worker_fn serve_bots_round;

#endif
