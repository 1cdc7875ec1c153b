/* bumuntu_int.h: what Bumuntu's files share: the board and its state, an order being played, the animals' table, and the helpers one file gives the others. */
#ifndef NGOMA_BUMUNTU_INT_H
#define NGOMA_BUMUNTU_INT_H

#include "games/game.h"
#include "lib/jsonx.h"
#include "lib/paths.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "lib/words.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 8
#define SQ (N * N)
#define SLOTS 8      /* animals in play */
#define KINDS 4
#define ALL_ANIMALS 10
#define MAX_SEATS 5

enum ability { GIRAFFE, CHIMPANZEE, ZEBRA, FLAMINGO, TARANTULA, LION, CROCODILE, MAMBA, RHINO, ELEPHANT };
struct order_ctx;
struct bumuntu;
typedef void animal_moves(const struct bumuntu *b, int seat, int ab, const struct game_table *t, struct strlist *out);

#define ORTHOGONAL 0x55u /* n, e, s, w: the bits of dir_names */
#define DIAGONAL 0xaau   /* ne, se, sw, nw */
#define ANY_WAY 0xffu

/* Each animal once: its name, its order as LEGAL writes it, how far and
 * which ways it goes, what it does besides, how its order is read and
 * played, and the orders it offers. */
struct animal {
    const char *name;
    const char *word;
    int reach;          /* squares: at most (walkers), exactly (Elephant, Lion); 0: to the line's end */
    unsigned dirs;      /* the ways it moves (bits of dir_names) */
    const char *ways;   /* said when it is moved another way */
    const char *example; /* a way to write its order */
    bool onto;          /* it lands on an opponent and pushes her (Crocodile) */
    bool drives;        /* its neighbours move away when it lands (Black Mamba) */
    bool lays_tile;     /* a tile is laid after it (Tarantula) */
    int (*order)(struct order_ctx *o, int ab, const struct words *w, int *i, int from);
    animal_moves *moves;
};
/* The animals, by ability (animals.c). */
extern const struct animal animal_rules[ALL_ANIMALS];

enum kind { ADV, FOOD, NKISI, YOWA };
extern const char kind_letters[KINDS];
extern const char *const kind_names[KINDS];

enum phase { PH_ENTER, PH_TURN, PH_MAIN, PH_TILE, PH_SWAP, PH_OVER };
extern const char *const phase_names[];

extern const int dfile[8], drank[8];
extern const char *const dir_names[8];

struct bumuntu {
    int nseats;
    int animal[SLOTS];          /* the ability of each animal slot */
    char code[SLOTS][3];        /* its two-letter code on the board */
    int board[SQ];              /* -1: no tile; else slot * KINDS + kind */
    int pawn[MAX_SEATS];        /* square, -1 before entering */
    int favor[SLOTS];           /* the slot of the marker on each spot, top first */
    int spot_per[SLOTS];        /* per-tile value of a spot, 0 for a majority spot */
    int spot_gold[SLOTS], spot_silver[SLOTS];
    int nkisi[SLOTS + 1];       /* favor for 0..8 Nkisi */
    int yowa_gold, yowa_silver, tie_second;
    int chips[MAX_SEATS];
    int shield[MAX_SEATS][SLOTS][KINDS];
    int first, to_move;
    unsigned resigned;          /* seats that left the game */
    enum phase phase;
    int collect;                /* the square whose tile the ability under way collects, -1 none */
    int adv_total, adv_taken;
    int stall_rounds;           /* house rule: full rounds with no tile before the game ends, 0: off */
    int stall_turns;            /* turns in a row with no tile collected */
    bool turn_collected;        /* the turn under way collected a tile */
    bool stalled;               /* the game ended by the stall rule */
    int ended;                  /* enum game_end: ended by the host, and how */
    unsigned agreed;            /* the winners the players agreed (a draw, a concession) */
    int round;                  /* rounds begun since the entering (0 while entering) */
    int score[MAX_SEATS];
    struct rng rng;
};

/* ---- orders ---------------------------------------------------------------------------------- */

struct order_ctx {
    struct bumuntu *b;
    int seat;
    const struct game_table *t;
    struct game_log *log; /* NULL while only checking */
    struct strbuf *priv;
    struct strbuf *canon;
    struct strbuf *why;
};

/* ---- board.c ---- */

int bum_step_sq(int sq, int d);

bool bum_adjacent(int a, int b);

void bum_name_sq(int sq, char out[4]);

bool bum_outer_ring(int sq);

/* The seat whose pawn stands on sq, or -1. */
int bum_pawn_at(const struct bumuntu *b, int sq);

bool bum_opponent_at(const struct bumuntu *b, int seat, int sq);

int bum_tile_slot(int tile);

int bum_tile_kind(int tile);

int bum_ability_at(const struct bumuntu *b, int sq);

/* A pawn on an Elephant tile cannot be moved by anyone else. */
bool bum_immune(const struct bumuntu *b, int sq);

const char *bum_seat_name(const struct game_table *t, int seat);

/* ---- the moves a pawn may make ------------------------------------------------------------ */
void bum_walks(const struct bumuntu *b, int seat, int from, int max, bool through, bool reach[][SQ]);

/* A walk of exactly n steps to `to` through a table made by bum_walks(),
 * lowest squares first, as "c4-d5-e5" (without the start). */
void bum_walk_path(bool reach[][SQ], int to, int n, struct strbuf *out);

/* The free squares next to sq where a displaced pawn may go. */
bool bum_free_square(const struct bumuntu *b, int sq);

/* One event of the step's log (games/game.h game_event), none in a dry run. */
void bum_event(struct order_ctx *o, int depth, const char *key, ...);
/* An animal as the log's term (term.bumuntu.lion: Lion); out holds it. */
const char *bum_animal_term(int ability, char out[32]);

/* Refuses: the catalogue's phrase key over pairs of strings, name then
 * value, ended by NULL, in the reader's language (o->t's); the reason may
 * name the order words {{push}}, {{enter}}, {{move}}, {{tile}},
 * {{none}}, {{swap}}, {{food}} and {{lion}} in her words. Returns -1. */
int bum_fail(struct order_ctx *o, const char *key, ...) __attribute__((sentinel));
/* An English order word in the reader's words, in out. */
const char *bum_local(const struct order_ctx *o, const char *english, char out[48]);
/* An animal's name in the reader's language. */
const char *bum_say_animal(const struct order_ctx *o, int ability);

void bum_canon_add(struct order_ctx *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int bum_parse_dir(const char *w);

int bum_parse_sq(const char *w);

/* The straight direction from a to b (any distance), or -1. */
int bum_direction_to(int a, int b_);

/* How an order names a player: her name, or her seat number when the
 * names are not known. */
const char *bum_player_word(const struct game_table *t, int seat, char buf[32]);

/* Reads the player a PUSH names from word *i on: her name (words as
 * written, any case), her seat number, or the square her pawn stands on. */
int bum_read_player(struct order_ctx *o, const struct words *w, int *i);

/* Reads the squares of a path (or a lone destination) from word *i on. */
int bum_read_squares(const struct words *w, int *i, int *sqs, int max);

/* Checks a written walk (1..max steps, or a destination) and finds its end. */
int bum_walk_check(struct order_ctx *o, const char *what, int from, const int *sqs, int n, int min, int max,
                      bool through, int *dest, int *steps);

/* Moves the pawn of `victim` to `to` (a push by an ability). */
void bum_displace(struct order_ctx *o, int victim, int to, const char *how);

/* ---- animals.c ---- */



#endif
