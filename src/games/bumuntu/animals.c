/* animals.c: Bumuntu's animals, one table: each ability's order read and played, and the orders it offers. */
#include "games/bumuntu/bumuntu_int.h"

/* A straight line from `from` in direction d: the first `len` squares,
 * free of opponents; -1 when it leaves the board or meets one. */
static int line_end(const struct bumuntu *b, int seat, int from, int d, int len)
{
    int sq = from;
    for (int i = 0; i < len; i++) {
        sq = bum_step_sq(sq, d);
        if (sq < 0 || bum_opponent_at(b, seat, sq))
            return -1;
    }
    return sq;
}

/* The Lion: exactly three free squares in direction d, then any one
 * opponent not on an Elephant moved one square the same way, onto a square
 * with no pawn (the square the Lion left is free by then). Sets *land and
 * the mask of the seats that could be pushed; false when there is none. */
static bool lion_ok(const struct bumuntu *b, int seat, int from, int d, int *land, unsigned *victims)
{
    int l = line_end(b, seat, from, d, 3);
    *victims = 0;
    if (l < 0)
        return false;
    for (int p = 0; p < b->nseats; p++) {
        int to;
        if (p == seat || b->pawn[p] < 0 || bum_immune(b, b->pawn[p]) || (to = bum_step_sq(b->pawn[p], d)) < 0 || to == l ||
            (to != from && bum_pawn_at(b, to) >= 0))
            continue;
        *victims |= 1u << p;
    }
    *land = l;
    return *victims != 0;
}

/* The Rhinoceros: charges to the edge, pushing the opponents it meets
 * ahead of it; stops before an opponent on an Elephant. Fills pushed[]
 * with (seat, new square) pairs; returns its own end square or -1. */
static int rhino_run(const struct bumuntu *b, int seat, int from, int d, int pushed[][2], int *npushed)
{
    int line[N], n = 0, limit, sq = from, chain = 0;
    while ((sq = bum_step_sq(sq, d)) >= 0) {
        if (bum_opponent_at(b, seat, sq) && bum_immune(b, sq))
            break;
        line[n++] = sq;
    }
    limit = n; /* squares 0..limit-1 are the run */
    for (int i = 0; i < limit; i++)
        if (bum_opponent_at(b, seat, line[i]))
            chain++;
    *npushed = 0;
    if (limit - chain < 1)
        return -1; /* it cannot move a single square */
    /* The pushed opponents end packed at the far end, in their order. */
    for (int i = 0, k = 0; i < limit; i++)
        if (bum_opponent_at(b, seat, line[i])) {
            pushed[*npushed][0] = bum_pawn_at(b, line[i]);
            pushed[*npushed][1] = line[limit - chain + k];
            (*npushed)++;
            k++;
        }
    return line[limit - chain - 1];
}

/* The squares a Flamingo may end on: next to any free Flamingo (or its own). */
static void flamingo_dest(const struct bumuntu *b, int seat, int from, bool dest[SQ])
{
    memset(dest, 0, SQ * sizeof(bool));
    for (int f = 0; f < SQ; f++) {
        if (bum_ability_at(b, f) != FLAMINGO || (f != from && bum_pawn_at(b, f) >= 0))
            continue;
        for (int d = 0; d < 8; d++) {
            int to = bum_step_sq(f, d);
            if (to >= 0 && to != from && !bum_opponent_at(b, seat, to))
                dest[to] = true;
        }
    }
}

/* ---- the animals' orders: one function a way of moving -------------------- */

/* The pawn lands on dest by ability ab: its canonical order and the log. */
static void land(struct order_ctx *o, int ab, int from, int dest)
{
    struct bumuntu *b = o->b;
    char fname[4], dname[4];
    bum_name_sq(from, fname);
    bum_name_sq(dest, dname);
    bum_canon_add(o, "%s %s", animal_rules[ab].word, dname);
    b->pawn[o->seat] = dest;
    char term[32];
    bum_event(o, 0, "bumuntu.uses", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_TERM, "animal",
              bum_animal_term(ab, term), EV_STR, "from", fname, EV_STR, "to", dname, EV_END);
}

/* The Giraffe, Tarantula, Black Mamba and Crocodile walk their reach
 * (the Crocodile onto an opponent, whom it pushes; the Mamba drives its
 * neighbours away). */
static int walk_order(struct order_ctx *o, int ab, const struct words *w, int *i, int from)
{
    struct bumuntu *b = o->b;
    const struct animal *an = &animal_rules[ab];
    int dest = -1, steps, sqs[4], n;
    char fname[4], dname[4], lw[48];
    const char *word = an->word;
    bum_name_sq(from, fname);
    int max = an->reach;
    n = bum_read_squares(w, i, sqs, 4);
    if (bum_walk_check(o, word, from, sqs, n, 1, max, an->onto, &dest, &steps))
        return -1;
    bum_name_sq(dest, dname);
    if (an->onto && bum_opponent_at(b, o->seat, dest)) {
        int victim = bum_pawn_at(b, dest), to;
        if (bum_immune(b, dest))
            return bum_fail(o, "refused.bumuntu.croc-on-elephant", "who", bum_seat_name(o->t, victim), NULL);
        if (*i + 1 >= w->n || strcmp(w->w[*i], "push") != 0 || (to = bum_parse_sq(w->w[*i + 1])) < 0) {
            bool any = false;
            for (int k = 0; k < 8; k++)
                any |= bum_free_square(b, bum_step_sq(dest, k)) && bum_step_sq(dest, k) != from;
            if (!any)
                return bum_fail(o, "refused.bumuntu.croc-no-room", "who", bum_seat_name(o->t, victim), "square", dname,
                                NULL);
            return bum_fail(o, "refused.bumuntu.croc-say-where", "who", bum_seat_name(o->t, victim), "word",
                            bum_local(o, "CROCODILE", lw), "square", dname, NULL);
        }
        *i += 2;
        char tname[4];
        bum_name_sq(to, tname);
        /* The mover's own square is free once it has left. */
        if (!bum_adjacent(dest, to) || (bum_pawn_at(b, to) >= 0 && to != from))
            return bum_fail(o, "refused.bumuntu.croc-not-free", "square", tname, "next", dname, NULL);
        bum_canon_add(o, "CROCODILE %s PUSH %s", dname, tname);
        b->pawn[o->seat] = dest;
        bum_event(o, 0, "bumuntu.uses-onto", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_TERM, "animal",
                  "bumuntu.crocodile", EV_STR, "from", fname, EV_STR, "to", dname, EV_STR, "whom",
                  bum_seat_name(o->t, victim), EV_END);
        bum_displace(o, victim, to, "moves");
        return 0;
    }
    land(o, ab, from, dest);
    if (an->drives) {
        /* Every adjacent opponent moves one square away, if it can. */
        int moves[8][2], nm = 0;
        for (int k = 0; k < 8; k++) {
            int nb = bum_step_sq(dest, k), to;
            if (nb < 0 || !bum_opponent_at(b, o->seat, nb) || bum_immune(b, nb))
                continue;
            if ((to = bum_step_sq(nb, k)) < 0 || bum_pawn_at(b, to) >= 0)
                continue;
            moves[nm][0] = bum_pawn_at(b, nb);
            moves[nm][1] = to;
            nm++;
        }
        for (int k = 0; k < nm; k++)
            bum_displace(o, moves[k][0], moves[k][1], "drives");
    }
    return 0;
}

/* The direction (or the square) of a move along a line, checked against
 * the ways the animal moves: 0, or -1 (said). */
static int line_direction(struct order_ctx *o, int ab, const struct words *w, int *i, int from, int *d, int *dest)
{
    const struct animal *an = &animal_rules[ab];
    char lw[48];
    if (*i < w->n && (*d = bum_parse_dir(w->w[*i])) >= 0) {
        (*i)++;
        *dest = -1;
    } else if (*i < w->n && (*dest = bum_parse_sq(w->w[*i])) >= 0) {
        (*i)++;
        *d = bum_direction_to(from, *dest);
    } else {
        return bum_fail(o, "refused.bumuntu.needs-direction", "word", bum_local(o, an->word, lw), "example",
                        an->example, NULL);
    }
    if (*d < 0)
        return bum_fail(o, "refused.bumuntu.straight-line", "animal", bum_say_animal(o, ab), NULL);
    if (!(an->dirs & (1u << *d)))
        return bum_fail(o, an->ways, "animal", bum_say_animal(o, ab), NULL);
    return 0;
}

/* The Zebra and the Chimpanzee slide along their lines, to a square or as
 * far as the line is free of opponents. */
static int slide_order(struct order_ctx *o, int ab, const struct words *w, int *i, int from)
{
    struct bumuntu *b = o->b;
    int d, dest;
    if (line_direction(o, ab, w, i, from, &d, &dest))
        return -1;
    int len = 0, sq = from, end = -1;
    while ((sq = bum_step_sq(sq, d)) >= 0 && !bum_opponent_at(b, o->seat, sq)) {
        len++;
        if (dest < 0 || sq == dest)
            end = sq;
        if (sq == dest)
            break;
    }
    if (dest < 0 && len > 0)
        dest = end; /* a direction alone: as far as it goes */
    if (len == 0 || end < 0 || end != dest)
        return bum_fail(o, "refused.bumuntu.blocked", "animal", bum_say_animal(o, ab), NULL);
    land(o, ab, from, dest);
    return 0;
}

/* The Elephant moves exactly its reach, unobstructed. */
static int elephant_order(struct order_ctx *o, int ab, const struct words *w, int *i, int from)
{
    struct bumuntu *b = o->b;
    int d, dest;
    if (line_direction(o, ab, w, i, from, &d, &dest))
        return -1;
    int end = line_end(b, o->seat, from, d, animal_rules[ab].reach);
    if (end < 0 || (dest >= 0 && end != dest))
        return bum_fail(o, "refused.bumuntu.elephant-exact", NULL);
    dest = end;
    land(o, ab, from, dest);
    return 0;
}

/* The Lion moves its reach and pushes an opponent the same way. */
static int lion_order(struct order_ctx *o, int ab, const struct words *w, int *i, int from)
{
    char lw[48];
    struct bumuntu *b = o->b;
    int d, dest;
    char fname[4], dname[4];
    if (line_direction(o, ab, w, i, from, &d, &dest))
        return -1;
    bum_name_sq(from, fname);
    int land, victim;
    unsigned victims;
    if (!lion_ok(b, o->seat, from, d, &land, &victims) || (dest >= 0 && dest != land))
        return bum_fail(o, "refused.bumuntu.lion-exact", NULL);
    if (*i < w->n && str_eq(w->w[*i], "push")) {
        (*i)++;
        if ((victim = bum_read_player(o, w, i)) < 0)
            return -1;
        if (!(victims & (1u << victim)))
            return bum_fail(o,
                            victim == o->seat                ? "refused.bumuntu.lion-push-self"
                            : b->pawn[victim] < 0            ? "refused.bumuntu.lion-push-out"
                            : bum_immune(b, b->pawn[victim]) ? "refused.bumuntu.lion-push-elephant"
                                                             : "refused.bumuntu.lion-push-blocked",
                            "who", bum_seat_name(o->t, victim), "way", dir_names[d], NULL);
    } else if (__builtin_popcount(victims) > 1) {
        struct strbuf who = STRBUF_INIT;
        int last = -1;
        for (int p = 0; p < b->nseats; p++)
            if (victims & (1u << p)) {
                char sq[4];
                bum_name_sq(b->pawn[p], sq);
                strbuf_addf(&who, "%s%s (%s)", who.len ? ", " : "", bum_seat_name(o->t, p), sq);
                last = p;
            }
        bum_fail(o, "refused.bumuntu.lion-which", "whom", who.buf, "word", bum_local(o, "LION", lw), "way",
                 dir_names[d], "last", bum_seat_name(o->t, last), NULL);
        strbuf_release(&who);
        return -1;
    } else {
        victim = __builtin_ctz(victims);
    }
    bum_name_sq(land, dname);
    if (__builtin_popcount(victims) > 1) {
        char who[32];
        bum_canon_add(o, "LION %s PUSH %s", dir_names[d], bum_player_word(o->t, victim, who));
    } else {
        bum_canon_add(o, "LION %s", dir_names[d]);
    }
    b->pawn[o->seat] = land;
    bum_event(o, 0, "bumuntu.uses", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_TERM, "animal", "bumuntu.lion",
              EV_STR, "from", fname, EV_STR, "to", dname, EV_END);
    bum_displace(o, victim, bum_step_sq(b->pawn[victim], d), "pushes");
    return 0;
}

/* The Rhinoceros charges to the edge, pushing what it meets. */
static int rhino_order(struct order_ctx *o, int ab, const struct words *w, int *i, int from)
{
    char lw[48];
    struct bumuntu *b = o->b;
    int d, dest;
    char fname[4], dname[4];
    if (line_direction(o, ab, w, i, from, &d, &dest))
        return -1;
    bum_name_sq(from, fname);
    int pushed[MAX_SEATS][2], np, end = rhino_run(b, o->seat, from, d, pushed, &np);
    if (end < 0)
        return bum_fail(o, "refused.bumuntu.rhino-cannot", NULL);
    bum_name_sq(end, dname);
    if (dest >= 0 && dest != end) {
        char said[4];
        bum_name_sq(dest, said);
        return bum_fail(o, "refused.bumuntu.rhino-edge", "way", dir_names[d], "square", dname, "said", said, "word",
                        bum_local(o, "RHINO", lw), NULL);
    }
    bum_canon_add(o, "RHINO %s", dir_names[d]);
    b->pawn[o->seat] = end;
    bum_event(o, 0, "bumuntu.uses", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_TERM, "animal", "bumuntu.rhino",
              EV_STR, "from", fname, EV_STR, "to", dname, EV_END);
    for (int k = np - 1; k >= 0; k--)
        bum_displace(o, pushed[k][0], pushed[k][1], "pushes");
    return 0;
}

/* The Flamingo flies to a free Flamingo (or its own) and steps once. */
static int flamingo_order(struct order_ctx *o, int ab, const struct words *w, int *i, int from)
{
    char lw[48];
    struct bumuntu *b = o->b;
    int dest, sqs[4], n;
    char fname[4], dname[4];
    (void)ab;
    bum_name_sq(from, fname);
    bool ok[SQ];
    n = bum_read_squares(w, i, sqs, 2);
    /* "FLAMINGO e5", or the Flamingo flown to then the square. */
    dest = n ? sqs[n - 1] : -1;
    if (n == 0)
        return bum_fail(o, "refused.bumuntu.flamingo-square", "word", bum_local(o, "FLAMINGO", lw), NULL);
    flamingo_dest(b, o->seat, from, ok);
    bum_name_sq(dest, dname);
    if (n == 2 && (bum_ability_at(b, sqs[0]) != FLAMINGO || (bum_pawn_at(b, sqs[0]) >= 0 && sqs[0] != from) ||
                   !bum_adjacent(sqs[0], dest) || bum_opponent_at(b, o->seat, dest) || dest == from))
        return bum_fail(o, "refused.bumuntu.flamingo-flies", NULL);
    if (!ok[dest])
        return bum_fail(o, "refused.bumuntu.flamingo-not-next", "square", dname, NULL);
    bum_canon_add(o, "FLAMINGO %s", dname);
    b->pawn[o->seat] = dest;
    bum_event(o, 0, "bumuntu.flies", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_TERM, "animal",
              "bumuntu.flamingo", EV_STR, "from", fname, EV_STR, "to", dname, EV_END);
    return 0;
}

/* ---- every legal order -------------------------------------------------------------------- */

/* The main moves from the pawn's square (no food): one per distinct outcome. */
/* ---- the orders each animal offers (LEGAL) ------------------------------------ */

/* Every square within the walker's reach (the Crocodile's onto an opponent, with each push). */
static void walk_moves(const struct bumuntu *b, int seat, int ab, const struct game_table *t, struct strlist *out)
{
    int from = b->pawn[seat];
    char name[4];
    const struct animal *an = &animal_rules[ab];
    const char *word = animal_rules[ab].word;
    char other[4];
    (void)t;
    bool reach[4][SQ], any[SQ] = { false };
    int max = an->reach;
    bum_walks(b, seat, from, max, an->onto, reach);
    for (int n = 1; n <= max; n++)
        for (int sq = 0; sq < SQ; sq++)
            any[sq] |= reach[n][sq];
    for (int sq = 0; sq < SQ; sq++) {
        if (!any[sq] || sq == from)
            continue;
        bum_name_sq(sq, name);
        if (an->onto && bum_opponent_at(b, seat, sq)) {
            if (bum_immune(b, sq))
                continue;
            for (int d = 0; d < 8; d++) {
                int to = bum_step_sq(sq, d);
                if (to < 0 || (bum_pawn_at(b, to) >= 0 && to != from))
                    continue;
                bum_name_sq(to, other);
                strlist_pushf(out, "%s %s PUSH %s", word, name, other);
            }
        } else {
            strlist_pushf(out, "%s %s", word, name);
        }
    }
}

/* Every square along the lines the slider moves on, up to an opponent or the edge. */
static void slide_moves(const struct bumuntu *b, int seat, int ab, const struct game_table *t, struct strlist *out)
{
    int from = b->pawn[seat];
    char name[4];
    const char *word = animal_rules[ab].word;
    (void)t;
    for (int d = 0; d < 8; d++) {
        int sq = from;
        if (!(animal_rules[ab].dirs & (1u << d)))
            continue;
        while ((sq = bum_step_sq(sq, d)) >= 0 && !bum_opponent_at(b, seat, sq)) {
            bum_name_sq(sq, name);
            strlist_pushf(out, "%s %s", word, name);
        }
    }
}

/* The squares exactly the Elephant's reach away, unobstructed. */
static void elephant_moves(const struct bumuntu *b, int seat, int ab, const struct game_table *t, struct strlist *out)
{
    int from = b->pawn[seat];
    char name[4];
    (void)t;
    for (int d = 0; d < 8; d++) {
        int end = line_end(b, seat, from, d, animal_rules[ab].reach);
        if (end >= 0) {
            bum_name_sq(end, name);
            strlist_pushf(out, "ELEPHANT %s", name);
        }
    }
}

/* Each way the Lion may go, and whom it pushes when it has a choice. */
static void lion_moves(const struct bumuntu *b, int seat, int ab, const struct game_table *t, struct strlist *out)
{
    int from = b->pawn[seat];
    (void)ab;
    for (int d = 0; d < 8; d++) {
        int land;
        unsigned victims;
        if (!lion_ok(b, seat, from, d, &land, &victims))
            continue;
        if (__builtin_popcount(victims) == 1) {
            strlist_pushf(out, "LION %s", dir_names[d]);
            continue;
        }
        for (int p = 0; p < b->nseats; p++)
            if (victims & (1u << p))
                {
                char who[32];
                strlist_pushf(out, "LION %s PUSH %s", dir_names[d], bum_player_word(t, p, who));
            }
    }
}

/* Each way the Rhinoceros may charge. */
static void rhino_moves(const struct bumuntu *b, int seat, int ab, const struct game_table *t, struct strlist *out)
{
    int from = b->pawn[seat];
    (void)t, (void)ab;
    for (int d = 0; d < 8; d++) {
        int pushed[MAX_SEATS][2], np;
        if (rhino_run(b, seat, from, d, pushed, &np) >= 0)
            strlist_pushf(out, "RHINO %s", dir_names[d]);
    }
}

/* Every square one step from a free Flamingo. */
static void flamingo_moves(const struct bumuntu *b, int seat, int ab, const struct game_table *t, struct strlist *out)
{
    int from = b->pawn[seat];
    char name[4];
    (void)t, (void)ab;
    bool ok[SQ];
    flamingo_dest(b, seat, from, ok);
    for (int sq = 0; sq < SQ; sq++)
        if (ok[sq]) {
            bum_name_sq(sq, name);
            strlist_pushf(out, "FLAMINGO %s", name);
        }
}

const struct animal animal_rules[ALL_ANIMALS] = {
    [GIRAFFE] = { "Giraffe", "GIRAFFE", 3, ANY_WAY, "", "e5", false, false, false, walk_order, walk_moves },
    [CHIMPANZEE] = { "Chimpanzee", "CHIMPANZEE", 0, DIAGONAL, "refused.bumuntu.only-diagonal", "e5", false, false, false, slide_order,
                     slide_moves },
    [ZEBRA] = { "Zebra", "ZEBRA", 0, ORTHOGONAL, "refused.bumuntu.only-orthogonal", "e5", false, false, false, slide_order,
                slide_moves },
    [FLAMINGO] = { "Flamingo", "FLAMINGO", 1, ANY_WAY, "", "e5", false, false, false, flamingo_order,
                   flamingo_moves },
    [TARANTULA] = { "Tarantula", "TARANTULA", 2, ANY_WAY, "", "e5", false, false, true, walk_order, walk_moves },
    [LION] = { "Lion", "LION", 3, ANY_WAY, "", "ne", false, false, false, lion_order, lion_moves },
    [CROCODILE] = { "Crocodile", "CROCODILE", 2, ANY_WAY, "", "e5", true, false, false, walk_order, walk_moves },
    [MAMBA] = { "Black Mamba", "MAMBA", 2, ANY_WAY, "", "e5", false, true, false, walk_order, walk_moves },
    [RHINO] = { "Rhinoceros", "RHINO", 0, ANY_WAY, "", "ne", false, false, false, rhino_order, rhino_moves },
    [ELEPHANT] = { "Elephant", "ELEPHANT", 2, ANY_WAY, "", "e5", false, false, false, elephant_order,
                   elephant_moves },
};
