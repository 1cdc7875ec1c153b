/* board.c: Bumuntu's board: squares and their names, pawns and tiles on them, walks, and the words of an order being read and answered. */
#include "games/bumuntu/bumuntu_int.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "lib/template.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const int dfile[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
const int drank[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
const char *const dir_names[8] = { "n", "ne", "e", "se", "s", "sw", "w", "nw" };
const char kind_letters[KINDS] = { 'A', 'F', 'N', 'Y' };
const char *const kind_names[KINDS] = { "advancement", "food", "Nkisi", "Yowa" };
const char *const phase_names[] = { "enter", "turn", "main", "tile", "swap", "over" };

/* ---- geometry ------------------------------------------------------------------- */

static bool on_board(int f, int r)
{
    return f >= 0 && f < N && r >= 0 && r < N;
}

int bum_step_sq(int sq, int d)
{
    int f = sq % N + dfile[d], r = sq / N + drank[d];
    return on_board(f, r) ? r * N + f : -1;
}

bool bum_adjacent(int a, int b)
{
    int df = abs(a % N - b % N), dr = abs(a / N - b / N);
    return a != b && df <= 1 && dr <= 1;
}

void bum_name_sq(int sq, char out[4])
{
    square_name(sq % N, sq / N, out);
}

bool bum_outer_ring(int sq)
{
    int f = sq % N, r = sq / N;
    return f == 0 || r == 0 || f == N - 1 || r == N - 1;
}

/* The seat whose pawn stands on sq, or -1. */
int bum_pawn_at(const struct bumuntu *b, int sq)
{
    for (int s = 0; s < b->nseats; s++)
        if (b->pawn[s] == sq)
            return s;
    return -1;
}

bool bum_opponent_at(const struct bumuntu *b, int seat, int sq)
{
    int p = bum_pawn_at(b, sq);
    return p >= 0 && p != seat;
}

int bum_tile_slot(int tile)
{
    return tile / KINDS;
}

int bum_tile_kind(int tile)
{
    return tile % KINDS;
}

int bum_ability_at(const struct bumuntu *b, int sq)
{
    return b->board[sq] < 0 ? -1 : b->animal[bum_tile_slot(b->board[sq])];
}

/* A pawn on an Elephant tile cannot be moved by anyone else. */
bool bum_immune(const struct bumuntu *b, int sq)
{
    return bum_ability_at(b, sq) == ELEPHANT;
}

const char *bum_seat_name(const struct game_table *t, int seat)
{
    return t && seat >= 0 && seat < t->nseats ? t->names[seat] : "?";
}

/* ---- the moves a pawn may make ------------------------------------------------------------ */

/* Squares reachable from `from` by a walk of exactly 0..max single steps
 * (reach[n][sq]); `through` lets the walk cross and end on opponents (the
 * Crocodile). */
void bum_walks(const struct bumuntu *b, int seat, int from, int max, bool through, bool reach[][SQ])
{
    memset(reach, 0, (size_t)(max + 1) * SQ * sizeof(bool));
    reach[0][from] = true;
    for (int n = 1; n <= max; n++)
        for (int sq = 0; sq < SQ; sq++) {
            if (!reach[n - 1][sq])
                continue;
            for (int d = 0; d < 8; d++) {
                int to = bum_step_sq(sq, d);
                if (to >= 0 && (through || !bum_opponent_at(b, seat, to)))
                    reach[n][to] = true;
            }
        }
}

/* A walk of exactly n steps to `to` through a table made by bum_walks(),
 * lowest squares first, as "c4-d5-e5" (without the start). */
void bum_walk_path(bool reach[][SQ], int to, int n, struct strbuf *out)
{
    int path[SQ + 1], cur = to;
    path[n] = to;
    for (int k = n - 1; k >= 1; k--) {
        for (int sq = 0; sq < SQ; sq++)
            if (reach[k][sq] && bum_adjacent(sq, cur)) {
                cur = sq;
                break;
            }
        path[k] = cur;
    }
    for (int k = 1; k <= n; k++) {
        char name[4];
        bum_name_sq(path[k], name);
        strbuf_addf(out, "%s%s", k > 1 ? "-" : "", name);
    }
}

/* The free squares next to sq where a displaced pawn may go. */
bool bum_free_square(const struct bumuntu *b, int sq)
{
    return sq >= 0 && bum_pawn_at(b, sq) < 0;
}

void bum_event(struct order_ctx *o, int depth, const char *key, ...)
{
    va_list ap;
    if (!o->log)
        return;
    va_start(ap, key);
    game_eventv(o->log, depth, key, ap);
    va_end(ap);
}

const char *bum_animal_term(int ability, char out[32])
{
    snprintf(out, 32, "bumuntu.");
    for (const char *w = animal_rules[ability].word; *w && strlen(out) < 31; w++) {
        size_t n = strlen(out);
        out[n] = (char)tolower((unsigned char)*w);
        out[n + 1] = '\0';
    }
    return out;
}

int bum_fail(struct order_ctx *o, const char *key, ...)
{
    /* The order words a reason may name, in her language. */
    static const char *const words[][2] = { { "push", "PUSH" }, { "enter", "ENTER" }, { "move", "MOVE" },
                                            { "tile", "TILE" }, { "none", "NONE" },   { "swap", "SWAP" },
                                            { "food", "FOOD" }, { "lion", "LION" } };
    const char *lang = o->t ? o->t->lang : NULL, *name;
    cJSON *d = cJSON_CreateObject();
    va_list ap;
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        char *w = lexicon_local(lang, NULL, "bumuntu", words[i][1]);
        cJSON_AddStringToObject(d, words[i][0], w);
        free(w);
    }
    va_start(ap, key);
    while ((name = va_arg(ap, const char *))) {
        const char *value = va_arg(ap, const char *);
        cJSON_AddStringToObject(d, name, value ? value : "");
    }
    va_end(ap);
    template_phrase(key, d, lang, o->why, NULL);
    cJSON_Delete(d);
    return -1;
}

const char *bum_local(const struct order_ctx *o, const char *english, char out[48])
{
    char *w = lexicon_local(o->t ? o->t->lang : NULL, NULL, "bumuntu", english);
    snprintf(out, 48, "%s", w);
    free(w);
    return out;
}

const char *bum_say_animal(const struct order_ctx *o, int ability)
{
    char term[32], key[40];
    const char *text;
    snprintf(key, sizeof(key), "term.%s", bum_animal_term(ability, term));
    text = catalog_text(o->t ? o->t->lang : NULL, key, 1);
    return text ? text : animal_rules[ability].name;
}

void bum_canon_add(struct order_ctx *o, const char *fmt, ...)
{
    va_list ap;
    if (o->canon->len)
        strbuf_addch(o->canon, ' ');
    va_start(ap, fmt);
    strbuf_vaddf(o->canon, fmt, ap);
    va_end(ap);
}

int bum_parse_dir(const char *w)
{
    static const char *const long_names[8] = { "north", "northeast", "east", "southeast",
                                               "south", "southwest", "west", "northwest" };
    for (int d = 0; d < 8; d++)
        if (strcmp(w, dir_names[d]) == 0 || strcmp(w, long_names[d]) == 0)
            return d;
    return -1;
}

int bum_parse_sq(const char *w)
{
    int f, r;
    return square_parse(w, N, N, &f, &r) ? r * N + f : -1;
}

/* The straight direction from a to b (any distance), or -1. */
int bum_direction_to(int a, int b_)
{
    int df = b_ % N - a % N, dr = b_ / N - a / N;
    if (a == b_ || (df && dr && abs(df) != abs(dr)))
        return -1;
    for (int d = 0; d < 8; d++)
        if (dfile[d] == (df > 0) - (df < 0) && drank[d] == (dr > 0) - (dr < 0))
            return d;
    return -1;
}

/* How an order names a player: her name, or her seat number when the
 * names are not known. */
const char *bum_player_word(const struct game_table *t, int seat, char buf[32])
{
    if (t && seat >= 0 && seat < t->nseats)
        return t->names[seat];
    snprintf(buf, 32, "%d", seat + 1);
    return buf;
}

/* Reads the player a PUSH names from word *i on: her name (words as
 * written, any case), her seat number, or the square her pawn stands on. */
int bum_read_player(struct order_ctx *o, const struct words *w, int *i)
{
    const struct bumuntu *b = o->b;
    long long n;
    int sq, best = -1, best_len = 0;
    if (*i >= w->n)
        return bum_fail(o, "refused.bumuntu.push-names", "who", o->t ? bum_seat_name(o->t, 0) : "2", NULL);
    if ((sq = bum_parse_sq(w->w[*i])) >= 0 && bum_pawn_at(b, sq) >= 0) {
        (*i)++;
        return bum_pawn_at(b, sq);
    }
    if (parse_int(w->w[*i], 1, b->nseats, &n)) {
        (*i)++;
        return (int)n - 1;
    }
    /* A name of several words: the longest that matches. */
    for (int p = 0; o->t && p < o->t->nseats && p < b->nseats; p++) {
        struct words nw;
        int k = 0;
        words_split(&nw, o->t->names[p], NULL);
        while (k < nw.n && *i + k < w->n && str_eq(nw.w[k], w->w[*i + k]))
            k++;
        if (k == nw.n && k > best_len) {
            best = p;
            best_len = k;
        }
        words_release(&nw);
    }
    if (best < 0)
        return bum_fail(o, "refused.bumuntu.push-no-player", "word", w->w[*i], NULL);
    *i += best_len;
    return best;
}

/* Reads the squares of a path (or a lone destination) from word *i on. */
int bum_read_squares(const struct words *w, int *i, int *sqs, int max)
{
    int n = 0;
    while (*i < w->n && n < max) {
        int sq = bum_parse_sq(w->w[*i]);
        if (sq < 0)
            break;
        sqs[n++] = sq;
        (*i)++;
    }
    return n;
}

/* Checks a written walk (1..max steps, or a destination) and finds its end. */
int bum_walk_check(struct order_ctx *o, const char *what, int from, const int *sqs, int n, int min, int max,
                      bool through, int *dest, int *steps)
{
    struct bumuntu *b = o->b;
    char name[4], lw[48], num[16], num2[16];
    if (n >= 2 && sqs[0] == from) { /* the path may name the pawn's own square first */
        sqs++;
        n--;
    }
    if (n == 0)
        return bum_fail(o, "refused.bumuntu.needs-square", "word", bum_local(o, what, lw), NULL);
    if (n > max) {
        snprintf(num, sizeof(num), "%d", max);
        return bum_fail(o, "refused.bumuntu.at-most", "word", bum_local(o, what, lw), "n", num, NULL);
    }
    if (n >= 2 || bum_adjacent(from, sqs[0])) {
        /* A path: each square next to the one before. */
        int cur = from;
        for (int k = 0; k < n; k++) {
            bum_name_sq(sqs[k], name);
            if (!bum_adjacent(cur, sqs[k]))
                return bum_fail(o, "refused.bumuntu.path-gap", "square", name, NULL);
            if (!through && bum_opponent_at(b, o->seat, sqs[k]))
                return bum_fail(o, "refused.bumuntu.path-pawn", "square", name, NULL);
            cur = sqs[k];
        }
        if (n < min) {
            snprintf(num, sizeof(num), "%d", min);
            return bum_fail(o, "refused.bumuntu.at-least", "word", bum_local(o, what, lw), "n", num, NULL);
        }
        *dest = cur;
        *steps = n;
    } else {
        bool reach[SQ + 1][SQ];
        int s;
        bum_walks(b, o->seat, from, max, through, reach);
        for (s = min; s <= max && !reach[s][sqs[0]]; s++)
            ;
        bum_name_sq(sqs[0], name);
        if (s > max) {
            snprintf(num, sizeof(num), "%d", min);
            snprintf(num2, sizeof(num2), "%d", max);
            return bum_fail(o, "refused.bumuntu.cannot-reach", "word", bum_local(o, what, lw), "square", name, "min",
                            num, "max", num2, NULL);
        }
        *dest = sqs[0];
        *steps = s;
    }
    if (*dest == from)
        return bum_fail(o, "refused.bumuntu.same-square", NULL);
    return 0;
}

/* Moves the pawn of `victim` to `to` (a push by an ability). */
void bum_displace(struct order_ctx *o, int victim, int to, const char *how)
{
    char a[4], c[4];
    bum_name_sq(o->b->pawn[victim], a);
    bum_name_sq(to, c);
    o->b->pawn[victim] = to;
    bum_event(o, 1, str_eq(how, "drives") ? "bumuntu.drives" : str_eq(how, "pushes") ? "bumuntu.pushes" : "bumuntu.moves-pawn",
              EV_STR, "who", bum_seat_name(o->t, o->seat), EV_STR, "whom", bum_seat_name(o->t, victim), EV_STR, "from", a,
              EV_STR, "to", c, EV_END);
}
