/* tally.h: a tiny test-only game of simultaneous secret picks. */
#ifndef NGOMA_TEST_TALLY_H
#define NGOMA_TEST_TALLY_H

#include "games/game.h"

extern const struct game_ops tally_ops;

#endif
