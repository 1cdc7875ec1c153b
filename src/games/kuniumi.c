/* kuniumi.c: KuniUmi (Ignazio Panades, 2020), two gods moving like rooks along their groups on a 6x6 board. */
#include "games/game.h"
#include "lib/catalog.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "lib/jsonx.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "lib/words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 6
#define SQUARES (N * N)
#define TOKENS_EACH 17
#define SETUP_TOKENS 2 /* of each type, placed by the first player */

/* Square contents, also their letters in the state JSON. */
enum { EMPTY = '.', LAND = 'l', SEA = 's', EARTH_GOD = 'L', SEA_GOD = 'S' };
enum phase { PH_PLACE, PH_CHOOSE, PH_PLAY, PH_OVER };
static const char *const phase_names[] = { "place", "choose", "play", "over" };
/* How a finished game ended. */
enum end { END_NONE, END_CLOSED, END_DRAW, END_NOMOVE, END_RESIGN, END_HOST, END_AGREED };
static const char *const end_names[] = { "", "closed", "draw", "nomove", "resign", "host", "agreed" };

struct kuniumi {
    char board[SQUARES + 1]; /* index rank * N + file, a1 first */
    enum phase phase;
    int land_seat;           /* the seat playing Land and the Earth God; -1 before the choice */
    int to_move;             /* the seat to act */
    int winner;              /* a seat, or -1 (none yet, or a draw) */
    enum end end;
    int moves;               /* God moves made since setup */
    int ended;               /* enum game_end: ended by the host, and how */
    unsigned agreed;         /* the winners the players agreed (a draw, a concession) */
    struct rng rng;          /* KuniUmi draws nothing; kept so every game replays alike */
};

static const int dx[4] = { 1, -1, 0, 0 };
static const int dy[4] = { 0, 0, 1, -1 };

static bool on_board(int f, int r)
{
    return f >= 0 && f < N && r >= 0 && r < N;
}

static int count(const struct kuniumi *k, char piece)
{
    int n = 0;
    for (int i = 0; i < SQUARES; i++)
        n += k->board[i] == piece;
    return n;
}

static int find(const struct kuniumi *k, char piece)
{
    const char *p = strchr(k->board, piece);
    return p ? (int)(p - k->board) : -1;
}

static char token_of(char god)
{
    return god == EARTH_GOD ? LAND : SEA;
}

/* The God the seat plays (valid once factions are chosen). */
static char god_of(const struct kuniumi *k, int seat)
{
    return seat == k->land_seat ? EARTH_GOD : SEA_GOD;
}

/* The token type a piece counts as: a God belongs with its tokens. */
static char type_of(char piece)
{
    return piece == LAND || piece == EARTH_GOD ? LAND : piece == EMPTY ? EMPTY : SEA;
}

static int seat_of_type(const struct kuniumi *k, char piece)
{
    return type_of(piece) == LAND ? k->land_seat : 1 - k->land_seat;
}

static int in_hand(const struct kuniumi *k, int seat)
{
    return TOKENS_EACH - count(k, token_of(god_of(k, seat)));
}

static bool same_type(char a, char b)
{
    return a != EMPTY && type_of(a) == type_of(b);
}

/*
 * Marks the group containing square `start` (tokens of one type plus that
 * type's God, orthogonally connected) in `mark`, returns its size and
 * whether it touches a free square.
 */
static int group_at(const struct kuniumi *k, int start, bool *mark, bool *open)
{
    int stack[SQUARES], sp = 0, size = 0;
    char piece = k->board[start];

    *open = false;
    stack[sp++] = start;
    mark[start] = true;
    while (sp) {
        int sq = stack[--sp];
        size++;
        for (int d = 0; d < 4; d++) {
            int f = sq % N + dx[d], r = sq / N + dy[d];
            if (!on_board(f, r))
                continue;
            int nb = r * N + f;
            if (k->board[nb] == EMPTY)
                *open = true;
            else if (!mark[nb] && same_type(piece, k->board[nb])) {
                mark[nb] = true;
                stack[sp++] = nb;
            }
        }
    }
    return size;
}

/* Every square a God may reach: rook lines from itself and from each token
 * of its group, each stopping before the first occupied square. */
static void god_destinations(const struct kuniumi *k, char god, bool dest[SQUARES])
{
    bool mark[SQUARES] = { false };
    bool open;
    int from = find(k, god);

    memset(dest, 0, SQUARES * sizeof(bool));
    if (from < 0)
        return;
    group_at(k, from, mark, &open);
    for (int sq = 0; sq < SQUARES; sq++) {
        if (!mark[sq])
            continue;
        for (int d = 0; d < 4; d++) {
            int f = sq % N + dx[d], r = sq / N + dy[d];
            while (on_board(f, r) && k->board[r * N + f] == EMPTY) {
                dest[r * N + f] = true;
                f += dx[d];
                r += dy[d];
            }
        }
    }
}

static bool has_move(const struct kuniumi *k, int seat)
{
    bool dest[SQUARES];
    if (in_hand(k, seat) <= 0)
        return false;
    god_destinations(k, god_of(k, seat), dest);
    for (int i = 0; i < SQUARES; i++)
        if (dest[i])
            return true;
    return false;
}

static const char *seat_name(const struct game_table *t, int seat)
{
    return t && seat >= 0 && seat < t->nseats ? t->names[seat] : "?";
}

/* The seat's faction as the log's term (term.kuniumi.land: Land). */
static const char *faction_term(const struct kuniumi *k, int seat)
{
    return seat == k->land_seat ? "kuniumi.land" : "kuniumi.sea";
}

/* After a placement: every closed group on the board decides the game. */
static void judge_groups(struct kuniumi *k, const struct game_table *t, struct game_log *log)
{
    bool mark[SQUARES] = { false };
    int best[2] = { 0, 0 }; /* largest closed group per seat */

    for (int sq = 0; sq < SQUARES; sq++) {
        bool open;
        if (k->board[sq] == EMPTY || mark[sq])
            continue;
        int size = group_at(k, sq, mark, &open);
        if (!open) {
            int seat = seat_of_type(k, k->board[sq]);
            if (size > best[seat])
                best[seat] = size;
        }
    }
    if (!best[0] && !best[1])
        return;
    k->phase = PH_OVER;
    k->end = END_CLOSED;
    if (best[0] && best[1]) {
        game_event(log, 0, "kuniumi.both-closed", EV_STR, "a", seat_name(t, 0), EV_INT, "na", best[0], EV_STR, "b",
                   seat_name(t, 1), EV_INT, "nb", best[1], EV_END);
        if (best[0] == best[1]) {
            k->winner = -1;
            k->end = END_DRAW;
            game_event(log, 0, "kuniumi.equal-closed", EV_END);
            return;
        }
        k->winner = best[0] > best[1] ? 0 : 1;
    } else {
        k->winner = best[0] ? 0 : 1;
    }
    game_event(log, 0, "kuniumi.closed-wins", EV_STR, "who", seat_name(t, k->winner), EV_TERM, "faction",
               faction_term(k, k->winner), EV_INT, "n", best[k->winner], EV_END);
}

/* ---- setup and serialisation ------------------------------------------ */

static void *kuniumi_setup(const cJSON *options, int nseats, uint64_t seed, struct strbuf *err)
{
    struct kuniumi *k;
    (void)options;
    if (nseats != 2) {
        strbuf_addf(err, "KuniUmi is played by exactly 2 players, not %d", nseats);
        return NULL;
    }
    k = xcalloc(1, sizeof(*k));
    memset(k->board, EMPTY, SQUARES);
    k->board[SQUARES] = '\0';
    k->phase = PH_PLACE;
    k->land_seat = -1;
    k->to_move = 0;
    k->winner = -1;
    rng_seed(&k->rng, seed, 0x6b756e69);
    return k;
}

static cJSON *kuniumi_to_json(const void *st)
{
    const struct kuniumi *k = st;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "board", k->board);
    cJSON_AddStringToObject(j, "phase", phase_names[k->phase]);
    cJSON_AddNumberToObject(j, "land_seat", k->land_seat);
    cJSON_AddNumberToObject(j, "to_move", k->to_move);
    cJSON_AddNumberToObject(j, "winner", k->winner);
    cJSON_AddStringToObject(j, "end", end_names[k->end]);
    cJSON_AddNumberToObject(j, "moves", k->moves);
    cJSON_AddNumberToObject(j, "ended", k->ended);
    cJSON_AddNumberToObject(j, "agreed", k->agreed);
    cJSON_AddItemToObject(j, "rng", rng_to_json(&k->rng));
    return j;
}

static int name_index(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static void *kuniumi_from_json(const cJSON *j, struct strbuf *err)
{
    struct kuniumi *k = xcalloc(1, sizeof(*k));
    const char *board, *phase, *end;
    int ph, en;

    if (!(board = jx_str(j, "board", err)) || !(phase = jx_str(j, "phase", err)) ||
        !(end = jx_str(j, "end", err)))
        goto fail;
    if (strlen(board) != SQUARES || strspn(board, ".lsLS") != SQUARES) {
        strbuf_addstr(err, "\"board\" must be 36 of the letters . l s L S");
        goto fail;
    }
    memcpy(k->board, board, SQUARES + 1);
    if ((ph = name_index(phase, phase_names, 4)) < 0 || (en = name_index(end, end_names, 7)) < 0) {
        strbuf_addstr(err, "unknown \"phase\" or \"end\"");
        goto fail;
    }
    k->phase = (enum phase)ph;
    k->end = (enum end)en;
    if (jx_int(j, "land_seat", -1, 1, &k->land_seat, err) || jx_int(j, "to_move", 0, 1, &k->to_move, err) ||
        jx_int(j, "winner", -1, 1, &k->winner, err) || jx_int(j, "moves", 0, 10000, &k->moves, err) ||
        jx_int_opt(j, "ended", GAME_END_RULES, GAME_END_LAST, GAME_END_RULES, &k->ended, err) ||
        jx_mask_opt(j, "agreed", 2, &k->agreed, err) ||
        rng_from_json(&k->rng, cJSON_GetObjectItemCaseSensitive(j, "rng"), err))
        goto fail;
    if (count(k, EARTH_GOD) > 1 || count(k, SEA_GOD) > 1 || count(k, LAND) > TOKENS_EACH ||
        count(k, SEA) > TOKENS_EACH) {
        strbuf_addstr(err, "\"board\" holds more pieces than the game has");
        goto fail;
    }
    if ((k->phase >= PH_PLAY) != (k->land_seat >= 0) && !(k->phase == PH_OVER && (k->end == END_RESIGN || k->end == END_HOST || k->end == END_AGREED))) {
        strbuf_addstr(err, "\"land_seat\" must be set exactly once factions are chosen");
        goto fail;
    }
    if ((k->phase == PH_PLACE && k->to_move != 0) || (k->phase == PH_CHOOSE && k->to_move != 1)) {
        strbuf_addstr(err, "\"to_move\" does not fit the phase: the first player places, the second chooses");
        goto fail;
    }
    if (k->phase == PH_PLAY && (find(k, EARTH_GOD) < 0 || find(k, SEA_GOD) < 0)) {
        strbuf_addstr(err, "both Gods must be on the board in play");
        goto fail;
    }
    return k;
fail:
    free(k);
    return NULL;
}

/* ---- orders -------------------------------------------------------------- */

static const char *phase_of(const void *st)
{
    const struct kuniumi *k = st;
    return k->phase <= PH_CHOOSE ? "setup" : "play";
}

static unsigned kuniumi_waiting_for(const void *st)
{
    const struct kuniumi *k = st;
    return k->phase == PH_OVER ? 0u : 1u << k->to_move;
}

/* Setup pieces by name, as "PLACE <piece> <square>" writes them. */
static const struct {
    char piece;
    const char *canon;
    const char *term; /* term.TERM of the catalogues */
} setup_pieces[] = {
    { EARTH_GOD, "EARTH GOD", "kuniumi.earth-god" },
    { SEA_GOD, "SEA GOD", "kuniumi.sea-god" },
    { LAND, "LAND", "kuniumi.land-token" },
    { SEA, "SEA", "kuniumi.sea-token" },
};

static int setup_left(const struct kuniumi *k, char piece)
{
    int total = piece == EARTH_GOD || piece == SEA_GOD ? 1 : SETUP_TOKENS;
    return total - count(k, piece);
}

/* Reads the piece named by words from index *i on; advances *i. */
static char parse_piece(const struct words *w, int *i)
{
    static const char *const earth[] = { "earth", "green", "land", NULL };
    static const char *const sea[] = { "sea", "blue", "water", NULL };
    static const char *const god[] = { "god", "pawn", NULL };
    static const char *const earthgod[] = { "earthgod", "earth-god", "landgod", "land-god", "greengod", NULL };
    static const char *const seagod[] = { "seagod", "sea-god", "bluegod", NULL };
    static const char *const token[] = { "token", "stone", "pebble", NULL };

    if (words_is(w, *i, earthgod)) {
        (*i)++;
        return EARTH_GOD;
    }
    if (words_is(w, *i, seagod)) {
        (*i)++;
        return SEA_GOD;
    }
    bool is_earth = words_is(w, *i, earth), is_sea = words_is(w, *i, sea);
    if (!is_earth && !is_sea)
        return 0;
    (*i)++;
    if (words_is(w, *i, god)) {
        (*i)++;
        return is_earth ? EARTH_GOD : SEA_GOD;
    }
    if (words_is(w, *i, token))
        (*i)++;
    return is_earth ? LAND : SEA;
}

static const char *piece_text(char piece)
{
    for (size_t i = 0; i < ARRAY_SIZE(setup_pieces); i++)
        if (setup_pieces[i].piece == piece)
            return setup_pieces[i].canon;
    return "?";
}

/* The piece as the log's term (term.kuniumi.earth-god: Earth God). */
static const char *piece_term(char piece)
{
    for (size_t i = 0; i < ARRAY_SIZE(setup_pieces); i++)
        if (setup_pieces[i].piece == piece)
            return setup_pieces[i].term;
    return "?";
}

/* A square that is none, refused in her words. */
static int not_a_square(const char *lang, const char *word, struct strbuf *why)
{
    phrase_add(why, lang, "refused.game.not-a-square", "word", word, "first", "a1", "last", "f6", NULL);
    return -1;
}

/* A piece's order words (EARTH GOD) in her language (owned). */
static char *piece_local(const char *lang, char piece)
{
    return lexicon_local(lang, NULL, "kuniumi", piece_text(piece));
}

static int check_place(const struct kuniumi *k, const char *lang, const struct words *w, struct strbuf *canon,
                       struct strbuf *why)
{
    static const char *const place[] = { "place", "put", "p", NULL };
    int i = words_is(w, 0, place) ? 1 : 0, f, r;
    char piece = parse_piece(w, &i), sq[4];

    if (!piece) {
        phrase_add(why, lang, "refused.kuniumi.place-expected", NULL);
        return -1;
    }
    if (i >= w->n || setup_left(k, piece) <= 0) {
        char *local = piece_local(lang, piece);
        phrase_add(why, lang, i >= w->n ? "refused.kuniumi.place-square" : "refused.kuniumi.setup-done", "piece",
                   local, NULL);
        free(local);
        return -1;
    }
    if (!square_parse(w->w[i], N, N, &f, &r))
        return not_a_square(lang, w->w[i], why);
    if (i + 1 != w->n) {
        phrase_add(why, lang, "refused.kuniumi.unexpected", "word", w->w[i + 1], NULL);
        return -1;
    }
    square_name(f, r, sq);
    if (k->board[r * N + f] != EMPTY) {
        phrase_add(why, lang, "refused.kuniumi.setup-occupied", "square", sq, NULL);
        return -1;
    }
    strbuf_addf(canon, "PLACE %s %s", piece_text(piece), sq);
    return 0;
}

static int check_choose(const char *lang, const struct words *w, struct strbuf *canon, struct strbuf *why)
{
    static const char *const choose[] = { "choose", "pick", "take", "faction", NULL };
    int i = words_is(w, 0, choose) ? 1 : 0;
    char piece = parse_piece(w, &i);

    if (!piece || i != w->n) {
        phrase_add(why, lang, "refused.kuniumi.choose", NULL);
        return -1;
    }
    strbuf_addf(canon, "CHOOSE %s", piece == LAND || piece == EARTH_GOD ? "LAND" : "SEA");
    return 0;
}

static int check_move(const struct kuniumi *k, int seat, const char *lang, const struct words *w, struct strbuf *canon,
                      struct strbuf *why)
{
    static const char *const move[] = { "move", "m", "god", "go", NULL };
    char god = god_of(k, seat), from_name[4], sq[4];
    int i = words_is(w, 0, move) ? 1 : 0, from = find(k, god), f, r;
    bool dest[SQUARES];

    square_name(from % N, from / N, from_name);
    if (i == 0 && !square_parse(w->w[0], N, N, &f, &r)) {
        phrase_add(why, lang, "refused.kuniumi.not-an-order", "word", w->w[0], NULL);
        return -1;
    }
    if (i >= w->n) {
        phrase_add(why, lang, "refused.kuniumi.move-square", NULL);
        return -1;
    }
    /* "MOVE c3 c5" and "c3-c5" name the God's own square first. */
    if (w->n - i == 2) {
        if (!square_parse(w->w[i], N, N, &f, &r))
            return not_a_square(lang, w->w[i], why);
        if (r * N + f != from) {
            phrase_add(why, lang, "refused.kuniumi.god-elsewhere", "from", from_name, "word", w->w[i], NULL);
            return -1;
        }
        i++;
    }
    if (w->n - i != 1) {
        phrase_add(why, lang, "refused.kuniumi.move-one", NULL);
        return -1;
    }
    if (!square_parse(w->w[i], N, N, &f, &r))
        return not_a_square(lang, w->w[i], why);
    square_name(f, r, sq);
    if (in_hand(k, seat) <= 0) {
        phrase_add(why, lang, "refused.kuniumi.no-token", NULL);
        return -1;
    }
    god_destinations(k, god, dest);
    if (k->board[r * N + f] != EMPTY) {
        phrase_add(why, lang, "refused.kuniumi.occupied", "square", sq, NULL);
        return -1;
    }
    if (!dest[r * N + f]) {
        phrase_add(why, lang, "refused.kuniumi.cannot-reach", "god",
                   catalog_text(lang, god == EARTH_GOD ? "term.kuniumi.earth-god" : "term.kuniumi.sea-god", 1), "square",
                   sq, NULL);
        return -1;
    }
    strbuf_addf(canon, "MOVE %s", sq);
    return 0;
}

static int kuniumi_check(const void *st, int seat, const struct game_table *tab, const char *order, struct strbuf *canon,
                         struct strbuf *why)
{
    const struct kuniumi *k = st;
    const char *lang = tab ? tab->lang : NULL;
    struct words w;
    int rc;

    if (k->phase == PH_OVER || seat != k->to_move) {
        phrase_add(why, lang, "refused.game.not-your-turn", NULL);
        return -1;
    }
    words_split(&w, order, "-,");
    if (w.n == 0 || w.too_many) {
        phrase_add(why, lang, w.n ? "refused.game.too-many-words" : "refused.game.empty", NULL);
        words_release(&w);
        return -1;
    }
    switch (k->phase) {
    case PH_PLACE:
        rc = check_place(k, lang, &w, canon, why);
        break;
    case PH_CHOOSE:
        rc = check_choose(lang, &w, canon, why);
        break;
    default:
        rc = check_move(k, seat, lang, &w, canon, why);
        break;
    }
    words_release(&w);
    return rc;
}

static bool setup_complete(const struct kuniumi *k)
{
    for (size_t i = 0; i < ARRAY_SIZE(setup_pieces); i++)
        if (setup_left(k, setup_pieces[i].piece) > 0)
            return false;
    return true;
}

/* The next player moves, or loses at once when she has no legal move. */
static void pass_turn(struct kuniumi *k, int next, const struct game_table *t, struct game_log *log)
{
    k->to_move = next;
    if (!has_move(k, next)) {
        k->phase = PH_OVER;
        k->end = END_NOMOVE;
        k->winner = 1 - next;
        game_event(log, 0, "kuniumi.no-move", EV_STR, "who", seat_name(t, next), EV_STR, "winner",
                   seat_name(t, 1 - next), EV_END);
    }
}

static int kuniumi_advance(void *st, const char *const *orders, const struct game_table *t, struct game_log *log)
{
    struct kuniumi *k = st;
    int seat = k->to_move, f, r;
    const char *order = orders[seat];
    struct words w;

    if (!order)
        return -1;
    words_split(&w, order, NULL);
    if (k->phase == PH_PLACE && w.n >= 3) {
        int i = 1;
        char piece = parse_piece(&w, &i);
        if (!piece || i != w.n - 1 || !square_parse(w.w[i], N, N, &f, &r))
            goto bad;
        k->board[r * N + f] = piece;
        game_event(log, 0, "kuniumi.places", EV_STR, "who", seat_name(t, seat), EV_TERM, "piece", piece_term(piece),
                   EV_STR, "at", w.w[i], EV_END);
        if (setup_complete(k)) {
            k->phase = PH_CHOOSE;
            k->to_move = 1;
            game_event(log, 0, "kuniumi.setup-done", EV_STR, "who", seat_name(t, 1), EV_END);
        }
    } else if (k->phase == PH_CHOOSE && w.n == 2) {
        k->land_seat = strcmp(w.w[1], "land") == 0 ? 1 : 0;
        k->phase = PH_PLAY;
        game_event(log, 0, "kuniumi.chooses", EV_STR, "who", seat_name(t, 1), EV_TERM, "faction", faction_term(k, 1),
                   EV_STR, "other", seat_name(t, 0), EV_TERM, "other_faction", faction_term(k, 0), EV_END);
        /* A group the setup left closed has an owner now, and wins for her. */
        judge_groups(k, t, log);
        if (k->phase != PH_OVER)
            pass_turn(k, 0, t, log);
    } else if (k->phase == PH_PLAY && w.n == 2 && square_parse(w.w[1], N, N, &f, &r)) {
        char god = god_of(k, seat), from_name[4];
        int from = find(k, god);
        square_name(from % N, from / N, from_name);
        k->board[r * N + f] = god;
        k->board[from] = token_of(god);
        k->moves++;
        game_event(log, 0, "kuniumi.moves", EV_STR, "who", seat_name(t, seat), EV_TERM, "god",
                   god == EARTH_GOD ? "kuniumi.earth-god" : "kuniumi.sea-god", EV_STR, "from", from_name, EV_STR, "to",
                   w.w[1], EV_TERM, "faction", faction_term(k, seat), EV_END);
        judge_groups(k, t, log);
        if (k->phase != PH_OVER)
            pass_turn(k, 1 - seat, t, log);
    } else {
        goto bad;
    }
    words_release(&w);
    return 0;
bad:
    words_release(&w);
    return -1;
}

static void kuniumi_legal(const void *st, int seat, const struct game_table *tab, struct strlist *out)
{
    (void)tab;
    const struct kuniumi *k = st;
    char sq[4];

    if (k->phase == PH_OVER || seat != k->to_move)
        return;
    if (k->phase == PH_PLACE) {
        for (size_t p = 0; p < ARRAY_SIZE(setup_pieces); p++) {
            if (setup_left(k, setup_pieces[p].piece) <= 0)
                continue;
            for (int i = 0; i < SQUARES; i++) {
                if (k->board[i] != EMPTY)
                    continue;
                square_name(i % N, i / N, sq);
                strlist_pushf(out, "PLACE %s %s", setup_pieces[p].canon, sq);
            }
        }
    } else if (k->phase == PH_CHOOSE) {
        strlist_push(out, "CHOOSE LAND");
        strlist_push(out, "CHOOSE SEA");
    } else if (in_hand(k, seat) > 0) {
        bool dest[SQUARES];
        god_destinations(k, god_of(k, seat), dest);
        for (int i = 0; i < SQUARES; i++) {
            if (!dest[i])
                continue;
            square_name(i % N, i / N, sq);
            strlist_pushf(out, "MOVE %s", sq);
        }
    }
}

/* ---- views ------------------------------------------------------------- */

static cJSON *kuniumi_view_json(const void *st, int viewer, const struct game_table *t)
{
    const struct kuniumi *k = st;
    cJSON *j = cJSON_CreateObject(), *rows = cJSON_CreateArray();
    (void)viewer; /* KuniUmi has no hidden information */

    cJSON_AddStringToObject(j, "phase", phase_names[k->phase]);
    for (int r = N - 1; r >= 0; r--) {
        char row[N + 1];
        memcpy(row, k->board + r * N, N);
        row[N] = '\0';
        cJSON_AddItemToArray(rows, cJSON_CreateString(row));
    }
    cJSON_AddItemToObject(j, "rows", rows); /* rank 6 first, files a-f */
    cJSON_AddStringToObject(j, "legend", ". free, l Land token, s Sea token, L Earth God, S Sea God");
    if (k->land_seat >= 0) {
        cJSON_AddStringToObject(j, "land", seat_name(t, k->land_seat));
        cJSON_AddStringToObject(j, "sea", seat_name(t, 1 - k->land_seat));
        cJSON_AddNumberToObject(j, "land_in_hand", in_hand(k, k->land_seat));
        cJSON_AddNumberToObject(j, "sea_in_hand", in_hand(k, 1 - k->land_seat));
    }
    if (k->phase != PH_OVER)
        cJSON_AddStringToObject(j, "to_move", seat_name(t, k->to_move));
    else
        cJSON_AddStringToObject(j, "end", end_names[k->end]);
    cJSON_AddNumberToObject(j, "moves", k->moves);
    return j;
}

static const char *cell(char c)
{
    switch (c) {
    case LAND:
        return " x ";
    case SEA:
        return " o ";
    case EARTH_GOD:
        return "[E]";
    case SEA_GOD:
        return "[S]";
    default:
        return "   ";
    }
}

static void kuniumi_view_ascii(const void *st, int viewer, const struct game_table *t, struct strbuf *out)
{
    const struct kuniumi *k = st;
    static const char files[] = "      a   b   c   d   e   f\n";
    static const char rule[] = "    +---+---+---+---+---+---+\n";
    (void)viewer;

    strbuf_addstr(out, files);
    strbuf_addstr(out, rule);
    for (int r = N - 1; r >= 0; r--) {
        strbuf_addf(out, "  %d |", r + 1);
        for (int f = 0; f < N; f++)
            strbuf_addf(out, "%s|", cell(k->board[r * N + f]));
        strbuf_addf(out, " %d\n", r + 1);
        strbuf_addstr(out, rule);
    }
    strbuf_addstr(out, files);
    const char *lang = t ? t->lang : NULL;
    char n1[16], n2[16], n3[16], n4[16];
    strbuf_addstr(out, "\n  ");
    phrase_add(out, lang, "board.kuniumi.legend", NULL);
    strbuf_addstr(out, "\n\n");
    if (k->phase == PH_CHOOSE) {
        strbuf_addstr(out, "  ");
        phrase_add(out, lang, "board.kuniumi.setup-complete", "who", seat_name(t, 1), "other", seat_name(t, 0), NULL);
        strbuf_addch(out, '\n');
    } else if (k->land_seat < 0) {
        struct strbuf lands = STRBUF_INIT, seas = STRBUF_INIT;
        snprintf(n1, sizeof(n1), "%d", setup_left(k, EARTH_GOD));
        snprintf(n2, sizeof(n2), "%d", setup_left(k, SEA_GOD));
        snprintf(n3, sizeof(n3), "%d", setup_left(k, LAND));
        snprintf(n4, sizeof(n4), "%d", setup_left(k, SEA));
        phrase_add(&lands, lang, "board.kuniumi.land-tokens", "n", n3, NULL);
        phrase_add(&seas, lang, "board.kuniumi.sea-tokens", "n", n4, NULL);
        strbuf_addstr(out, "  ");
        phrase_add(out, lang, "board.kuniumi.setup", "who", seat_name(t, 0), NULL);
        strbuf_addstr(out, "\n  ");
        phrase_add(out, lang, "board.kuniumi.left", "earth", n1, "sea", n2, "lands", lands.buf, "seas", seas.buf, NULL);
        strbuf_addstr(out, "\n  ");
        phrase_add(out, lang, "board.kuniumi.then-chooses", "who", seat_name(t, 1), NULL);
        strbuf_addch(out, '\n');
        strbuf_release(&lands);
        strbuf_release(&seas);
    } else {
        for (int s = 0; s < 2; s++) {
            struct strbuf side = STRBUF_INIT;
            phrase_add(&side, lang, s == k->land_seat ? "term.kuniumi.land" : "term.kuniumi.sea", NULL);
            snprintf(n1, sizeof(n1), "%2d", in_hand(k, s));
            strbuf_addf(out, "  %-5s %-24.24s ", side.buf, seat_name(t, s));
            phrase_add(out, lang, "board.kuniumi.in-hand", "n", n1, NULL);
            strbuf_addch(out, '\n');
            strbuf_release(&side);
        }
    }
    if (k->phase == PH_CHOOSE) {
        strbuf_addstr(out, "  ");
        phrase_add(out, lang, "board.kuniumi.to-act", "who", seat_name(t, k->to_move), NULL);
        strbuf_addch(out, '\n');
    } else if (k->phase == PH_PLAY) {
        struct strbuf side = STRBUF_INIT;
        phrase_add(&side, lang, k->to_move == k->land_seat ? "term.kuniumi.land" : "term.kuniumi.sea", NULL);
        strbuf_addstr(out, "  ");
        phrase_add(out, lang, "board.kuniumi.to-move", "who", seat_name(t, k->to_move), "side", side.buf, NULL);
        strbuf_addch(out, '\n');
        strbuf_release(&side);
    }
}

static void kuniumi_result(const void *st, struct game_result *r)
{
    const struct kuniumi *k = st;
    memset(r, 0, sizeof(*r));
    r->finished = k->phase == PH_OVER;
    r->ended = (enum game_end)k->ended;
    if (!r->finished || k->ended == GAME_END_ABANDONED)
        return;
    r->winners = k->winner >= 0 ? 1u << k->winner : 3u; /* a draw: both share it */
    game_result_agreed(r, k->ended, k->agreed);
}

static void kuniumi_when(const void *st, const struct game_table *t, struct game_when *w)
{
    const struct kuniumi *k = st;
    w->unit = "move";
    (void)t;
    w->number = k->phase <= PH_CHOOSE ? 0 : k->phase == PH_OVER ? k->moves : k->moves + 1;
    if (k->phase <= PH_CHOOSE)
        snprintf(w->phase, sizeof(w->phase), "setup");
}

/* KuniUmi has no score: a game the host ends scored is decided as the
 * rules decide a finished one, by closed groups; there are none (or it
 * would be over), so it is a draw. */
static void kuniumi_end(void *st, enum game_end how, unsigned agreed, const struct game_table *t, struct game_log *log)
{
    bool score = how == GAME_END_SCORED;
    struct kuniumi *k = st;
    (void)t;
    if (k->phase == PH_OVER)
        return;
    k->phase = PH_OVER;
    k->end = game_end_agreed(how) ? END_AGREED : END_HOST;
    k->winner = -1;
    k->ended = how;
    k->agreed = agreed;
    if (game_end_agreed(how))
        return;
    game_event(log, 0, score ? "kuniumi.ended-drawn" : "kuniumi.abandoned", EV_END);
}

static void kuniumi_resign(void *st, int seat, const struct game_table *t, struct game_log *log)
{
    struct kuniumi *k = st;
    if (k->phase == PH_OVER)
        return;
    k->phase = PH_OVER;
    k->end = END_RESIGN;
    k->winner = 1 - seat;
    game_event(log, 0, log->dropped ? "kuniumi.dropped" : "kuniumi.resigns", EV_STR, "who", seat_name(t, seat), EV_STR,
               "winner", seat_name(t, 1 - seat), EV_END);
}

/* The fewest free squares next to any group of the seat's type. */
static int fewest_liberties(const struct kuniumi *k, int seat)
{
    bool mark[SQUARES] = { false };
    int best = SQUARES;
    char type = type_of(god_of(k, seat));
    for (int sq = 0; sq < SQUARES; sq++) {
        bool seen[SQUARES] = { false }, open;
        int libs = 0;
        if (mark[sq] || k->board[sq] == EMPTY || type_of(k->board[sq]) != type)
            continue;
        bool before[SQUARES];
        memcpy(before, mark, sizeof(before));
        group_at(k, sq, mark, &open);
        for (int g = 0; g < SQUARES; g++) {
            if (!mark[g] || before[g])
                continue;
            for (int d = 0; d < 4; d++) {
                int f = g % N + dx[d], r = g / N + dy[d];
                if (on_board(f, r) && k->board[r * N + f] == EMPTY && !seen[r * N + f]) {
                    seen[r * N + f] = true;
                    libs++;
                }
            }
        }
        if (libs < best)
            best = libs;
    }
    return best;
}

/* A closed group of one's own wins: few liberties of one's own are good,
 * few of the opponent's bad; a finished game is all that counts. */
static long long kuniumi_evaluate(const void *st, int seat)
{
    const struct kuniumi *k = st;
    if (k->phase == PH_OVER)
        return k->winner == seat ? 100000 : k->winner < 0 ? 0 : -100000;
    if (k->land_seat < 0)
        return 0;
    return (long long)(fewest_liberties(k, 1 - seat) - fewest_liberties(k, seat)) * 100;
}

/* The state is one block: a copy is a copy of its bytes. */
static void *kuniumi_clone(const void *st)
{
    return xmemdup(st, sizeof(struct kuniumi));
}

const struct game_ops kuniumi_ops = {
    .name = "kuniumi",
    .title = "KuniUmi",
    .summary = "Two gods, Land and Sea, move like rooks along their groups; close a group to win (2 players).",
    .min_seats = 2,
    .max_seats = 2,
    .options = (const struct game_option[]){ { NULL, NULL, NULL, 0 } },
    .setup = kuniumi_setup,
    .free = free, /* the state is one block */
    .clone = kuniumi_clone,
    .to_json = kuniumi_to_json,
    .from_json = kuniumi_from_json,
    .phase = phase_of,
    .waiting_for = kuniumi_waiting_for,
    .check = kuniumi_check,
    .advance = kuniumi_advance,
    .legal = kuniumi_legal,
    .view_json = kuniumi_view_json,
    .view_ascii = kuniumi_view_ascii,
    .result = kuniumi_result,
    .resign = kuniumi_resign,
    .when = kuniumi_when,
    .end = kuniumi_end,
    .evaluate = kuniumi_evaluate,
    .secrets = NULL,
};
