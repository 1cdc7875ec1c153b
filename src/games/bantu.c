/* bantu.c: Bantu (Parker Brothers 1955): numbered pieces race round a track of joined circles; pieces abreast move together's sum. */
#include "games/game.h"
#include "lib/template.h"
#include "lib/jsonx.h"
#include "lib/paths.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "lib/words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SECTIONS 64
#define LANES 4
#define FINISH_BIT (1u << LANES)
#define MAX_SEATS 4
#define PIECES 4
#define AT_START (-1)
#define FINISHED (-2)

static const char *const colours[MAX_SEATS] = { "Red", "Green", "Blue", "Yellow" };

struct circle {
    bool present;
    int row;           /* circles of a section with the same row are joined */
    unsigned next;     /* lanes of the next section it leads to; FINISH_BIT from an arrow */
};

struct board {
    int nsec;
    struct circle c[MAX_SECTIONS][LANES];
    int start_of[PIECES + 1]; /* the section of starting line k */
};

struct bantu {
    struct board bd;
    int nseats;
    int npieces;               /* 4, or 3 in the short game */
    bool partners;             /* seats 1+3 against 2+4 */
    int pos[MAX_SEATS][PIECES + 1]; /* piece k: a circle (section * 4 + lane), AT_START or FINISHED */
    unsigned out;              /* seats that resigned */
    int first, to_move;
    unsigned winners;          /* set when the game is over */
    bool over;
    int ended;                 /* enum game_end: ended by the host, and how */
    unsigned agreed;           /* the winners the players agreed (a draw, a concession) */
    int round;                 /* each seat moves (or passes) once a round */
    struct rng rng;
};

/* ---- the board ------------------------------------------------------------------------ */

static int sec_of(int c)
{
    return c / LANES;
}

static int lane_of(int c)
{
    return c % LANES;
}

static const struct circle *circ(const struct board *bd, int c)
{
    return &bd->c[sec_of(c)][lane_of(c)];
}

static void circle_name(int c, char out[8])
{
    snprintf(out, 8, "%d%c", sec_of(c) % 100, 'a' + lane_of(c)); /* at most 64 sections */
}

static int circle_parse(const struct board *bd, const char *s)
{
    long long sec;
    size_t n = strlen(s);
    char digits[8];
    if (n < 2 || n > 4 || s[n - 1] < 'a' || s[n - 1] > 'd')
        return -1;
    memcpy(digits, s, n - 1);
    digits[n - 1] = '\0';
    if (!parse_int(digits, 0, bd->nsec - 1, &sec) || !bd->c[sec][s[n - 1] - 'a'].present)
        return -1;
    return (int)sec * LANES + (s[n - 1] - 'a');
}

/* The circles one step from c: those its links lead to in the next
 * cross-section, and its neighbours in its row. Returns how many. */
static int circle_steps(const struct board *bd, int c, int nb[LANES + 2])
{
    int s = sec_of(c), l = lane_of(c), n = 0;
    const struct circle *cc = circ(bd, c);
    for (int t = 0; s + 1 < bd->nsec && t < LANES; t++)
        if (cc->next & (1u << t))
            nb[n++] = (s + 1) * LANES + t;
    for (int d = -1; d <= 1; d += 2)
        if (l + d >= 0 && l + d < LANES && bd->c[s][l + d].present && bd->c[s][l + d].row == cc->row)
            nb[n++] = c + d;
    return n;
}

/* Checks a board: links to existing circles of the next section, rows of
 * neighbouring circles, four starting lines of 4 joined circles placed so
 * that piece k runs k quarters, the arrows last, every circle reachable
 * from a starting line, and Finish reachable from every circle. */
static int board_check(const struct board *bd, struct strbuf *err)
{
    bool reach[MAX_SECTIONS * LANES] = { false }, home[MAX_SECTIONS * LANES] = { false };
    int sizes_seen = 0, quarter;
    char name[8];

    if (bd->nsec < 8 || bd->nsec % 4) {
        strbuf_addf(err, "the track has %d cross-sections: it needs a multiple of 4, at least 8", bd->nsec);
        return -1;
    }
    quarter = bd->nsec / 4;
    for (int k = 1; k <= PIECES; k++) {
        int s = bd->start_of[k];
        if (s != (PIECES - k) * quarter) {
            strbuf_addf(err, "starting line %d must be cross-section %d (piece %d runs %d quarter%s of the track)", k,
                        (PIECES - k) * quarter, k, k, k == 1 ? "" : "s");
            return -1;
        }
        for (int l = 0; l < LANES; l++)
            if (!bd->c[s][l].present || bd->c[s][l].row != bd->c[s][0].row) {
                strbuf_addf(err, "starting line %d (cross-section %d) must be 4 joined circles", k, s);
                return -1;
            }
    }
    for (int s = 0; s < bd->nsec; s++) {
        bool any = false;
        for (int l = 0; l < LANES; l++) {
            const struct circle *c = &bd->c[s][l];
            circle_name(s * LANES + l, name);
            if (!c->present)
                continue;
            any = true;
            if (!c->next) {
                strbuf_addf(err, "circle %s leads nowhere", name);
                return -1;
            }
            if (s == bd->nsec - 1 ? c->next != FINISH_BIT : (c->next & FINISH_BIT) != 0) {
                strbuf_addf(err, "circle %s: only the arrow circles of the last cross-section lead to Finish, "
                                 "and they lead nowhere else",
                            name);
                return -1;
            }
            for (int t = 0; s + 1 < bd->nsec && t < LANES; t++) {
                if ((c->next & (1u << t)) && !bd->c[s + 1][t].present) {
                    strbuf_addf(err, "circle %s leads to %d%c, which does not exist", name, s + 1, 'a' + t);
                    return -1;
                }
                /* The board drawn by the views has links to the same lane
                 * and the ones beside it only. */
                if ((c->next & (1u << t)) && (t > l + 1 || t < l - 1)) {
                    strbuf_addf(err, "circle %s leads to %d%c: a link goes to the same lane of the next "
                                     "cross-section or a lane beside it, never across another",
                                name, s + 1, 'a' + t);
                    return -1;
                }
            }
            /* A row is a run of neighbouring circles. */
            for (int m = 0; m < l; m++)
                if (bd->c[s][m].present && bd->c[s][m].row == c->row)
                    for (int x = m; x <= l; x++)
                        if (!bd->c[s][x].present || bd->c[s][x].row != c->row) {
                            strbuf_addf(err, "circle %s: a row must be circles side by side with no gap", name);
                            return -1;
                        }
        }
        if (!any) {
            strbuf_addf(err, "cross-section %d has no circle", s);
            return -1;
        }
        for (int l = 0; l < LANES; l++) {
            int size = 0;
            if (!bd->c[s][l].present || (l && bd->c[s][l - 1].present && bd->c[s][l - 1].row == bd->c[s][l].row))
                continue;
            for (int x = l; x < LANES && bd->c[s][x].present && bd->c[s][x].row == bd->c[s][l].row; x++)
                size++;
            sizes_seen |= 1 << size;
        }
    }
    for (int l = 0; l < LANES; l++)
        if (!bd->c[bd->nsec - 1][l].present) {
            strbuf_addstr(err, "the last cross-section must hold the 4 arrow circles");
            return -1;
        }
    if ((sizes_seen & 0x1e) != 0x1e) {
        strbuf_addstr(err, "rows of 1, 2, 3 and 4 circles must all occur");
        return -1;
    }
    /* Forward and sideways from the starting lines, and back from Finish,
     * each until nothing changes: a row may be entered at any lane. */
    for (int k = 1; k <= PIECES; k++)
        for (int l = 0; l < LANES; l++)
            reach[bd->start_of[k] * LANES + l] = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (int c = 0; c < bd->nsec * LANES; c++) {
            int nb[LANES + 2], n;
            if (!circ(bd, c)->present)
                continue;
            n = circle_steps(bd, c, nb);
            if ((circ(bd, c)->next & FINISH_BIT) && !home[c])
                changed = home[c] = true;
            for (int i = 0; i < n; i++) {
                if (reach[c] && !reach[nb[i]])
                    changed = reach[nb[i]] = true;
                if (home[nb[i]] && !home[c])
                    changed = home[c] = true;
            }
        }
    }
    for (int c = 0; c < bd->nsec * LANES; c++) {
        if (!circ(bd, c)->present)
            continue;
        circle_name(c, name);
        if (!reach[c]) {
            strbuf_addf(err, "circle %s cannot be reached from any starting line", name);
            return -1;
        }
        if (!home[c]) {
            strbuf_addf(err, "Finish cannot be reached from circle %s", name);
            return -1;
        }
    }
    return 0;
}

static unsigned lanes_mask(const cJSON *a, bool *finish, struct strbuf *err)
{
    const cJSON *v;
    unsigned m = 0;
    cJSON_ArrayForEach(v, a) {
        if (!cJSON_IsString(v) || (strlen(v->valuestring) != 1 && !str_eq(v->valuestring, "FINISH"))) {
            strbuf_addstr(err, "\"next\" lists lanes \"a\" to \"d\", or \"FINISH\"");
            return 0;
        }
        if (str_eq(v->valuestring, "FINISH"))
            *finish = true;
        else if (v->valuestring[0] >= 'a' && v->valuestring[0] <= 'd')
            m |= 1u << (v->valuestring[0] - 'a');
        else {
            strbuf_addstr(err, "\"next\" lists lanes \"a\" to \"d\", or \"FINISH\"");
            return 0;
        }
    }
    return m;
}

static int board_load(struct board *bd, const char *file, struct strbuf *err)
{
    char *path = seed_path(file);
    cJSON *d = jx_load_file(path, FILE_MAX_DATA, err);
    const cJSON *secs, *s, *c;
    int rc = -1, i = 0;

    memset(bd, 0, sizeof(*bd));
    for (int k = 0; k <= PIECES; k++)
        bd->start_of[k] = -1;
    if (!d)
        goto out;
    if (!(secs = jx_array(d, "sections", 8, MAX_SECTIONS, err)))
        goto bad;
    bd->nsec = cJSON_GetArraySize(secs);
    cJSON_ArrayForEach(s, secs) {
        const cJSON *circles = jx_array(s, "circles", 1, LANES, err), *st = cJSON_GetObjectItemCaseSensitive(s, "start");
        if (!circles)
            goto where;
        if (st) {
            int k;
            if (jx_int_value(st, "\"start\"", 1, PIECES, &k, err))
                goto where;
            if (bd->start_of[k] >= 0) {
                strbuf_addf(err, "two starting lines %d", k);
                goto where;
            }
            bd->start_of[k] = i;
        }
        cJSON_ArrayForEach(c, circles) {
            const char *lane = jx_str(c, "lane", err);
            const cJSON *next = jx_array(c, "next", 1, LANES, err);
            bool finish = false;
            int row;
            if (!lane || !next || jx_int(c, "row", 0, LANES - 1, &row, err))
                goto where;
            if (strlen(lane) != 1 || lane[0] < 'a' || lane[0] > 'd' || bd->c[i][lane[0] - 'a'].present) {
                strbuf_addf(err, "\"lane\" \"%s\" must be one of a b c d, once per cross-section", lane);
                goto where;
            }
            struct circle *cc = &bd->c[i][lane[0] - 'a'];
            cc->present = true;
            cc->row = row;
            cc->next = lanes_mask(next, &finish, err) | (finish ? FINISH_BIT : 0);
            if (err->len)
                goto where;
        }
        i++;
    }
    for (int k = 1; k <= PIECES; k++)
        if (bd->start_of[k] < 0) {
            strbuf_addf(err, "starting line %d is missing", k);
            goto bad;
        }
    if (board_check(bd, err))
        goto bad;
    rc = 0;
    goto out;
where:
    strbuf_addf(err, " (cross-section %d)", i);
bad:
    strbuf_prefixf(err, "%s: ", path); /* the file before what is wrong in it */
out:
    cJSON_Delete(d);
    free(path);
    return rc;
}

/* The board in a state: sections separated by '/', each circle as
 * lane, row and the lanes it leads to ('F' for Finish), a section
 * starting with the number of its starting line and ':'. */
static void board_to_text(const struct board *bd, struct strbuf *out)
{
    for (int s = 0; s < bd->nsec; s++) {
        bool firstc = true;
        if (s)
            strbuf_addch(out, '/');
        for (int k = 1; k <= PIECES; k++)
            if (bd->start_of[k] == s)
                strbuf_addf(out, "%d:", k);
        for (int l = 0; l < LANES; l++) {
            const struct circle *c = &bd->c[s][l];
            if (!c->present)
                continue;
            strbuf_addf(out, "%s%c%d", firstc ? "" : ",", 'a' + l, c->row);
            for (int t = 0; t < LANES; t++)
                if (c->next & (1u << t))
                    strbuf_addch(out, (char)('a' + t));
            if (c->next & FINISH_BIT)
                strbuf_addch(out, 'F');
            firstc = false;
        }
    }
}

static int board_from_text(struct board *bd, const char *text, struct strbuf *err)
{
    const char *p = text;
    memset(bd, 0, sizeof(*bd));
    for (int k = 0; k <= PIECES; k++)
        bd->start_of[k] = -1;
    while (*p) {
        if (bd->nsec == MAX_SECTIONS)
            goto bad;
        if (p[0] >= '1' && p[0] <= '4' && p[1] == ':') {
            if (bd->start_of[p[0] - '0'] >= 0)
                goto bad;
            bd->start_of[p[0] - '0'] = bd->nsec;
            p += 2;
        }
        while (*p && *p != '/') {
            int l = *p - 'a';
            if (l < 0 || l >= LANES || p[1] < '0' || p[1] > '3' || bd->c[bd->nsec][l].present)
                goto bad;
            struct circle *c = &bd->c[bd->nsec][l];
            c->present = true;
            c->row = p[1] - '0';
            p += 2;
            while (*p && *p != ',' && *p != '/') {
                if (*p == 'F')
                    c->next |= FINISH_BIT;
                else if (*p >= 'a' && *p <= 'd')
                    c->next |= 1u << (*p - 'a');
                else
                    goto bad;
                p++;
            }
            if (*p == ',')
                p++;
        }
        bd->nsec++;
        if (*p == '/')
            p++;
    }
    for (int k = 1; k <= PIECES; k++)
        if (bd->start_of[k] < 0)
            goto bad;
    return board_check(bd, err);
bad:
    strbuf_addstr(err, "\"board\" is not a board");
    return -1;
}

/* ---- pieces ------------------------------------------------------------------------------ */

/* The seat and piece on circle c: returns the seat or -1. */
static int piece_at(const struct bantu *b, int c, int *piece)
{
    for (int s = 0; s < b->nseats; s++)
        for (int k = 1; k <= b->npieces; k++)
            if (b->pos[s][k] == c) {
                if (piece)
                    *piece = k;
                return s;
            }
    return -1;
}

static bool friendly(const struct bantu *b, int a, int c)
{
    return a == c || (b->partners && (a % 2) == (c % 2));
}

/* Partners are a side: seats 1 and 3, 2 and 4. */
static unsigned bantu_side(const void *st, int seat)
{
    const struct bantu *b = st;
    unsigned mask = 0;
    for (int s = 0; s < b->nseats; s++)
        if (friendly(b, seat, s))
            mask |= 1u << s;
    return mask;
}

/* The circles of c's row. */
static void row_of(const struct bantu *b, int c, int *members, int *n)
{
    int s = sec_of(c), row = circ(&b->bd, c)->row;
    *n = 0;
    for (int l = 0; l < LANES; l++)
        if (b->bd.c[s][l].present && b->bd.c[s][l].row == row)
            members[(*n)++] = s * LANES + l;
}

/* The count of the piece on c: its number alone, the sum of its row abreast. */
static int count_at(const struct bantu *b, int c)
{
    int members[LANES], n, sum = 0;
    row_of(b, c, members, &n);
    for (int i = 0; i < n; i++) {
        int k;
        if (piece_at(b, members[i], &k) >= 0)
            sum += k;
    }
    return sum;
}

static bool on_start_line(const struct bantu *b, int c)
{
    for (int k = 1; k <= PIECES; k++)
        if (b->bd.start_of[k] == sec_of(c))
            return true;
    return false;
}

static bool lone(const struct bantu *b, int c)
{
    int members[LANES], n, pieces = 0;
    row_of(b, c, members, &n);
    for (int i = 0; i < n; i++)
        pieces += piece_at(b, members[i], NULL) >= 0;
    return pieces == 1;
}

/* Where piece k of seat may end (circles, or -2 for Finish), by every walk
 * of exactly its count: forward or sideways along a row, never back,
 * never over a circle twice or over any piece. */
struct walk {
    const struct bantu *b;
    int seat;
    bool seen[MAX_SECTIONS * LANES];
    bool dest[MAX_SECTIONS * LANES];
    bool finish;
};

static bool may_land(const struct walk *w, int c)
{
    int owner = piece_at(w->b, c, NULL);
    if (owner < 0)
        return true;
    /* Capture: a lone opponent outside the starting lines. */
    return !friendly(w->b, owner, w->seat) && !on_start_line(w->b, c) && lone(w->b, c);
}

static void walk_from(struct walk *w, int c, int left)
{
    const struct board *bd = &w->b->bd;
    int nb[LANES + 2], n = circle_steps(bd, c, nb);

    if (circ(bd, c)->next & FINISH_BIT)
        w->finish = true; /* from an arrow circle the rest carries it home */
    for (int i = 0; i < n; i++) {
        int to = nb[i];
        if (w->seen[to])
            continue;
        if (left == 1) {
            if (may_land(w, to))
                w->dest[to] = true;
            continue;
        }
        if (piece_at(w->b, to, NULL) >= 0)
            continue; /* never over a piece */
        w->seen[to] = true;
        walk_from(w, to, left - 1);
        w->seen[to] = false;
    }
}

static void destinations(const struct bantu *b, int seat, int k, struct walk *w)
{
    int from = b->pos[seat][k];
    memset(w, 0, sizeof(*w));
    w->b = b;
    w->seat = seat;
    if (from == FINISHED)
        return;
    if (from == AT_START) {
        int s = b->bd.start_of[k];
        for (int l = 0; l < LANES; l++)
            if (piece_at(b, s * LANES + l, NULL) < 0)
                w->dest[s * LANES + l] = true;
        return;
    }
    w->seen[from] = true;
    walk_from(w, from, count_at(b, from));
}

static bool can_move(const struct bantu *b, int seat)
{
    if (b->out & (1u << seat))
        return false;
    for (int k = 1; k <= b->npieces; k++) {
        struct walk w;
        destinations(b, seat, k, &w);
        if (w.finish)
            return true;
        for (int c = 0; c < b->bd.nsec * LANES; c++)
            if (w.dest[c])
                return true;
    }
    return false;
}

static const char *seat_name(const struct game_table *t, int seat)
{
    return t && seat >= 0 && seat < t->nseats ? t->names[seat] : "?";
}

static bool all_home(const struct bantu *b, int seat)
{
    for (int k = 1; k <= b->npieces; k++)
        if (b->pos[seat][k] != FINISHED)
            return false;
    return true;
}

/* ---- setup and JSON --------------------------------------------------------------------------- */

static bool option_yes(const cJSON *options, const char *key, bool *out, struct strbuf *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(options, key);
    const char *s = cJSON_IsString(v) ? v->valuestring : "no";
    if (str_ieq(s, "yes") || str_ieq(s, "true") || str_eq(s, "1") || str_ieq(s, "on"))
        *out = true;
    else if (str_ieq(s, "no") || str_ieq(s, "false") || str_eq(s, "0") || str_ieq(s, "off"))
        *out = false;
    else {
        strbuf_addf(err, "option %s is yes or no, not \"%s\"", key, s);
        return false;
    }
    return true;
}

static void *bantu_setup(const cJSON *options, int nseats, uint64_t seed, struct strbuf *err)
{
    struct bantu *b = xcalloc(1, sizeof(*b));
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(options, "board");
    bool short_game = false;

    if (nseats < 2 || nseats > MAX_SEATS) {
        strbuf_addf(err, "Bantu is played by 2 to 4 players, not %d", nseats);
        goto fail;
    }
    if (!option_yes(options, "short", &short_game, err) || !option_yes(options, "partnership", &b->partners, err))
        goto fail;
    if (b->partners && nseats != 4) {
        strbuf_addf(err, "partnership Bantu needs 4 players (seats 1 and 3 against 2 and 4), not %d", nseats);
        goto fail;
    }
    if (board_load(&b->bd, cJSON_IsString(v) ? v->valuestring : "bantu-board.json", err))
        goto fail;
    b->nseats = nseats;
    b->npieces = short_game ? 3 : 4;
    for (int s = 0; s < MAX_SEATS; s++)
        for (int k = 0; k <= PIECES; k++)
            b->pos[s][k] = k > b->npieces ? FINISHED : AT_START;
    rng_seed(&b->rng, seed, 0x62616e74);
    b->first = b->to_move = (int)rng_below(&b->rng, (uint32_t)nseats);
    b->round = 1;
    return b;
fail:
    free(b);
    return NULL;
}

static cJSON *bantu_to_json(const void *st)
{
    const struct bantu *b = st;
    cJSON *j = cJSON_CreateObject(), *pos = cJSON_CreateArray();
    struct strbuf bd = STRBUF_INIT;
    board_to_text(&b->bd, &bd);
    cJSON_AddStringToObject(j, "board", bd.buf);
    strbuf_release(&bd);
    cJSON_AddNumberToObject(j, "nseats", b->nseats);
    cJSON_AddNumberToObject(j, "pieces", b->npieces);
    cJSON_AddBoolToObject(j, "partners", b->partners);
    for (int s = 0; s < b->nseats; s++)
        cJSON_AddItemToArray(pos, jx_int_array_new(b->pos[s] + 1, PIECES));
    cJSON_AddItemToObject(j, "positions", pos); /* per seat, pieces 1-4: circle, -1 start, -2 finish */
    cJSON_AddNumberToObject(j, "out", b->out);
    cJSON_AddNumberToObject(j, "first", b->first);
    cJSON_AddNumberToObject(j, "to_move", b->to_move);
    cJSON_AddBoolToObject(j, "over", b->over);
    cJSON_AddNumberToObject(j, "winners", b->winners);
    cJSON_AddNumberToObject(j, "ended", b->ended);
    cJSON_AddNumberToObject(j, "agreed", b->agreed);
    cJSON_AddNumberToObject(j, "round", b->round);
    cJSON_AddItemToObject(j, "rng", rng_to_json(&b->rng));
    return j;
}

static void *bantu_from_json(const cJSON *j, struct strbuf *err)
{
    struct bantu *b = xcalloc(1, sizeof(*b));
    const char *board = jx_str(j, "board", err);
    const cJSON *pos, *v;
    int out, winners, i = 0;

    if (!board || board_from_text(&b->bd, board, err) || jx_int(j, "nseats", 2, MAX_SEATS, &b->nseats, err) ||
        jx_int(j, "pieces", 3, PIECES, &b->npieces, err) || jx_bool(j, "partners", &b->partners, err) ||
        !(pos = jx_array(j, "positions", b->nseats, b->nseats, err)) ||
        jx_int(j, "out", 0, (1 << b->nseats) - 1, &out, err) ||
        jx_int(j, "first", 0, b->nseats - 1, &b->first, err) ||
        jx_int(j, "to_move", 0, b->nseats - 1, &b->to_move, err) || jx_bool(j, "over", &b->over, err) ||
        jx_int(j, "winners", 0, (1 << b->nseats) - 1, &winners, err) ||
        jx_int_opt(j, "ended", GAME_END_RULES, GAME_END_LAST, GAME_END_RULES, &b->ended, err) ||
        jx_mask_opt(j, "agreed", b->nseats, &b->agreed, err) ||
        jx_int_opt(j, "round", 1, 1000000, 1, &b->round, err) ||
        rng_from_json(&b->rng, cJSON_GetObjectItemCaseSensitive(j, "rng"), err))
        goto fail;
    b->out = (unsigned)out;
    b->winners = (unsigned)winners;
    if (b->partners && b->nseats != 4) {
        strbuf_addstr(err, "a partnership game has 4 seats");
        goto fail;
    }
    cJSON_ArrayForEach(v, pos) {
        cJSON *wrap = cJSON_CreateObject();
        cJSON_AddItemReferenceToObject(wrap, "p", (cJSON *)v);
        int rc = jx_int_array(wrap, "p", b->pos[i] + 1, PIECES, FINISHED, b->bd.nsec * LANES - 1, err);
        cJSON_Delete(wrap);
        if (rc)
            goto fail;
        for (int k = 1; k <= PIECES; k++) {
            int c = b->pos[i][k];
            if (k > b->npieces && c != FINISHED) {
                strbuf_addstr(err, "the short game has no piece 4");
                goto fail;
            }
            if (c >= 0 && !circ(&b->bd, c)->present) {
                strbuf_addstr(err, "a piece stands where there is no circle");
                goto fail;
            }
        }
        i++;
    }
    for (int s = 0; s < b->nseats; s++)
        for (int k = 1; k <= PIECES; k++) {
            int c = b->pos[s][k], other;
            if (c >= 0 && ((other = piece_at(b, c, NULL)) != s || b->pos[s][k] != c)) {
                strbuf_addstr(err, "two pieces share a circle");
                goto fail;
            }
            for (int k2 = 1; c >= 0 && k2 < k; k2++)
                if (b->pos[s][k2] == c) {
                    strbuf_addstr(err, "two pieces share a circle");
                    goto fail;
                }
        }
    return b;
fail:
    free(b);
    return NULL;
}

/* ---- orders ------------------------------------------------------------------------------------------ */

static unsigned bantu_waiting_for(const void *st)
{
    const struct bantu *b = st;
    return b->over ? 0u : 1u << b->to_move;
}

/* Reads "MOVE 3 12c", "ENTER 3 8b", "3 12c", "3 FINISH"; sets *piece and
 * *to (a circle, or FINISHED). */
static int parse_order(const struct bantu *b, int seat, const char *lang, const char *order, int *piece, int *to,
                       struct strbuf *why)
{
    static const char *const verbs[] = { "move", "enter", "piece", "m", NULL };
    static const char *const home[] = { "finish", "home", "f", NULL };
    struct words w;
    int i;
    long long k;

    words_split(&w, order, "-,");
    i = words_is(&w, 0, verbs) ? 1 : 0;
    if (i < w.n && str_eq(w.w[i], "piece"))
        i++;
    if (w.n - i != 2 && !(w.n - i == 3 && str_eq(w.w[i + 1], "to"))) {
        phrase_add(why, lang, "refused.bantu.write-move", NULL);
        words_release(&w);
        return -1;
    }
    if (!parse_int(w.w[i], 1, PIECES, &k) || k > b->npieces) {
        char n[16];
        snprintf(n, sizeof(n), "%d", b->npieces);
        phrase_add(why, lang, "refused.bantu.not-a-piece", "word", w.w[i], "n", n, NULL);
        words_release(&w);
        return -1;
    }
    const char *dest = w.w[w.n - 1];
    *piece = (int)k;
    if (words_is(&w, w.n - 1, home)) {
        *to = FINISHED;
    } else if ((*to = circle_parse(&b->bd, dest)) < 0) {
        char last[16];
        snprintf(last, sizeof(last), "%dd", b->bd.nsec - 1);
        phrase_add(why, lang, "refused.bantu.not-a-circle", "word", dest, "last", last, NULL);
        words_release(&w);
        return -1;
    }
    words_release(&w);
    (void)seat;
    return 0;
}

static void canonical(const struct bantu *b, int seat, int piece, int to, struct strbuf *out)
{
    char name[8];
    if (to == FINISHED) {
        strbuf_addf(out, "MOVE %d FINISH", piece);
        return;
    }
    circle_name(to, name);
    strbuf_addf(out, "%s %d %s", b->pos[seat][piece] == AT_START ? "ENTER" : "MOVE", piece, name);
}

static int bantu_check(const void *st, int seat, const struct game_table *tab, const char *order, struct strbuf *canon,
                       struct strbuf *why)
{
    const struct bantu *b = st;
    const char *lang = tab ? tab->lang : NULL;
    struct walk w;
    int piece, to, from;
    char name[8], p[16], sec[16], count[16];

    if (b->over || seat != b->to_move) {
        phrase_add(why, lang, "refused.game.not-your-turn", NULL);
        return -1;
    }
    if (parse_order(b, seat, lang, order, &piece, &to, why))
        return -1;
    from = b->pos[seat][piece];
    snprintf(p, sizeof(p), "%d", piece);
    if (from == FINISHED) {
        phrase_add(why, lang, "refused.bantu.home-already", "piece", p, NULL);
        return -1;
    }
    destinations(b, seat, piece, &w);
    if (to == FINISHED) {
        if (!w.finish) {
            snprintf(sec, sizeof(sec), "%d", b->bd.nsec - 1);
            phrase_add(why, lang, "refused.bantu.no-finish", "piece", p, "sec", sec, NULL);
            return -1;
        }
    } else if (!w.dest[to]) {
        circle_name(to, name);
        if (from == AT_START) {
            snprintf(sec, sizeof(sec), "%d", b->bd.start_of[piece]);
            phrase_add(why, lang,
                       sec_of(to) != b->bd.start_of[piece] ? "refused.bantu.own-start" : "refused.bantu.start-taken",
                       "piece", p, "sec", sec, "circle", name, NULL);
        } else {
            int owner = piece_at(b, to, NULL);
            int cnt = count_at(b, from);
            snprintf(count, sizeof(count), "%d", cnt);
            phrase_add(why, lang,
                       owner >= 0 && friendly(b, owner, seat)  ? "refused.bantu.own-side"
                       : owner >= 0 && on_start_line(b, to)    ? "refused.bantu.safe-start"
                       : owner >= 0 && !lone(b, to)            ? "refused.bantu.abreast"
                       : cnt == piece                          ? "refused.bantu.exact-own"
                                                               : "refused.bantu.exact-row",
                       "piece", p, "n", count, "circle", name, NULL);
        }
        return -1;
    }
    canonical(b, seat, piece, to, canon);
    return 0;
}

/* The next seat that can move; those who cannot pass, and are told. */
static void next_turn(struct bantu *b, int seat, const struct game_table *t, struct game_log *log)
{
    for (int tries = 0; tries < b->nseats; tries++) {
        seat = (seat + 1) % b->nseats;
        /* Past the first player (in seat order from her): a new round. */
        if ((seat - b->first + b->nseats) % b->nseats == 0)
            b->round++;
        if (b->out & (1u << seat))
            continue;
        if (can_move(b, seat)) {
            b->to_move = seat;
            return;
        }
        game_event(log, 0, "bantu.passes", EV_STR, "who", seat_name(t, seat), EV_END);
        game_note(log, seat, 0, "bantu.you-passed", EV_END);
    }
    b->over = true;
    b->winners = 0;
    game_event(log, 0, "bantu.blocked", EV_END);
}

static void check_win(struct bantu *b, int seat, const struct game_table *t, struct game_log *log)
{
    if (b->partners) {
        int mate = (seat + 2) % 4;
        if (all_home(b, seat) && all_home(b, mate)) {
            b->over = true;
            b->winners = (1u << seat) | (1u << mate);
            game_event(log, 0, "bantu.side-home", EV_STR, "who", seat_name(t, seat), EV_STR, "mate",
                       seat_name(t, mate), EV_END);
        }
    } else if (all_home(b, seat)) {
        b->over = true;
        b->winners = 1u << seat;
        game_event(log, 0, "bantu.home", EV_STR, "who", seat_name(t, seat), EV_END);
    }
}

/* "r3": a piece as the log names it, its colour's letter and number. */
static const char *piece_name(int seat, int piece, char out[16])
{
    snprintf(out, 16, "%c%d", colours[seat][0], piece);
    return out;
}

static int bantu_advance(void *st, const char *const *orders, const struct game_table *t, struct game_log *log)
{
    struct bantu *b = st;
    int seat = b->to_move, piece, to, from, victim, vpiece;
    struct strbuf why = STRBUF_INIT, canon = STRBUF_INIT;
    char a[8], c[8], p[16];

    if (b->over || !orders[seat] || bantu_check(b, seat, t, orders[seat], &canon, &why) ||
        parse_order(b, seat, NULL, orders[seat], &piece, &to, &why)) {
        strbuf_release(&why);
        strbuf_release(&canon);
        return -1;
    }
    strbuf_release(&why);
    strbuf_release(&canon);
    from = b->pos[seat][piece];
    if (from == AT_START) {
        circle_name(to, c);
        game_event(log, 0, "bantu.enters", EV_STR, "who", seat_name(t, seat), EV_STR, "piece",
                   piece_name(seat, piece, p), EV_STR, "at", c, EV_END);
    } else {
        int cnt = count_at(b, from);
        circle_name(from, a);
        if (to == FINISHED) {
            game_event(log, 0, "bantu.finishes", EV_STR, "who", seat_name(t, seat), EV_STR, "piece",
                       piece_name(seat, piece, p), EV_INT, "count", cnt, EV_STR, "from", a, EV_END);
        } else {
            circle_name(to, c);
            game_event(log, 0, "bantu.moves", EV_STR, "who", seat_name(t, seat), EV_STR, "piece",
                       piece_name(seat, piece, p), EV_INT, "n", cnt, EV_STR, "from", a, EV_STR, "to", c, EV_END);
        }
    }
    if (to >= 0 && (victim = piece_at(b, to, &vpiece)) >= 0) {
        b->pos[victim][vpiece] = AT_START;
        game_event(log, 1, "bantu.captured", EV_STR, "piece", piece_name(victim, vpiece, p), EV_STR, "whose",
                   seat_name(t, victim), EV_INT, "start", vpiece, EV_END);
    }
    b->pos[seat][piece] = to;
    check_win(b, seat, t, log);
    if (!b->over)
        next_turn(b, seat, t, log);
    return 0;
}

static void bantu_legal(const void *st, int seat, const struct game_table *tab, struct strlist *out)
{
    (void)tab;
    const struct bantu *b = st;
    if (b->over || seat != b->to_move)
        return;
    for (int k = 1; k <= b->npieces; k++) {
        struct walk w;
        destinations(b, seat, k, &w);
        for (int c = 0; c < b->bd.nsec * LANES; c++)
            if (w.dest[c]) {
                struct strbuf o = STRBUF_INIT;
                canonical(b, seat, k, c, &o);
                strlist_push_owned(out, strbuf_detach(&o));
            }
        if (w.finish)
            strlist_pushf(out, "MOVE %d FINISH", k);
    }
}

/* ---- views -------------------------------------------------------------------------------------------- */

static void piece_label(const struct bantu *b, int c, char out[3])
{
    int k, s = piece_at(b, c, &k);
    if (s < 0) {
        out[0] = out[1] = '.';
    } else {
        out[0] = colours[s][0];
        out[1] = (char)('0' + k);
    }
    out[2] = '\0';
}

static void list_pieces(const struct bantu *b, int where, int only_k, struct strbuf *out)
{
    bool any = false;
    for (int s = 0; s < b->nseats; s++)
        for (int k = 1; k <= b->npieces; k++)
            if (b->pos[s][k] == where && (!only_k || k == only_k) && !(b->out & (1u << s))) {
                strbuf_addf(out, " %c%d", colours[s][0], k);
                any = true;
            }
    if (!any)
        strbuf_addstr(out, " -");
}

static void bantu_view_ascii(const void *st, int viewer, const struct game_table *t, struct strbuf *out)
{
    const struct bantu *b = st;
    const struct board *bd = &b->bd;
    const char *lang = t ? t->lang : NULL;
    (void)viewer;

    {
        struct strbuf line = STRBUF_INIT, list = STRBUF_INIT;
        for (int k = 1; k <= b->npieces; k++) {
            strbuf_addf(&list, "  %d:", k);
            list_pieces(b, AT_START, k, &list);
        }
        phrase_add(&line, lang, "board.bantu.starting", "list", list.buf, NULL);
        strbuf_addstr(out, "  ");
        strbuf_add_wrapped(out, line.buf, 4, 70);
        strbuf_release(&line);
        strbuf_release(&list);
    }
    strbuf_addstr(out, "\n       a      b      c      d\n");
    for (int s = 0; s < bd->nsec; s++) {
        strbuf_addf(out, "  %2d ", s);
        for (int l = 0; l < LANES; l++) {
            const struct circle *c = &bd->c[s][l];
            char label[3];
            if (!c->present) {
                strbuf_addstr(out, l + 1 < LANES ? "       " : "");
                continue;
            }
            piece_label(b, s * LANES + l, label);
            strbuf_addf(out, "(%s)", label);
            if (l + 1 < LANES)
                strbuf_addstr(out, bd->c[s][l + 1].present && bd->c[s][l + 1].row == c->row ? "===" : "   ");
        }
        while (out->len && out->buf[out->len - 1] == ' ')
            strbuf_setlen(out, out->len - 1);
        for (int k = 1; k <= PIECES; k++)
            if (bd->start_of[k] == s) {
                char n[16];
                snprintf(n, sizeof(n), "%d", k);
                strbuf_addstr(out, "   ");
                phrase_add(out, lang, "board.bantu.starting-line", "n", n, NULL);
            }
        if (s == bd->nsec - 1) {
            strbuf_addstr(out, "   ");
            phrase_add(out, lang, "board.bantu.arrows", NULL);
        }
        strbuf_addch(out, '\n');
        /* The links to the next cross-section: | straight, \ and / aslant. */
        if (s + 1 < bd->nsec) {
            char line[40];
            memset(line, ' ', sizeof(line));
            for (int l = 0; l < LANES; l++) {
                unsigned nx = bd->c[s][l].present ? bd->c[s][l].next : 0;
                int col = 6 + l * 7;
                if (nx & (1u << l))
                    line[col + 1] = '|';
                if (l + 1 < LANES && (nx & (1u << (l + 1))))
                    line[col + 4] = '\\';
                if (l > 0 && (nx & (1u << (l - 1))))
                    line[col - 2] = '/';
            }
            int end = (int)sizeof(line);
            while (end > 0 && line[end - 1] == ' ')
                end--;
            strbuf_add(out, line, (size_t)end);
            strbuf_addch(out, '\n');
        }
    }
    {
        struct strbuf line = STRBUF_INIT, list = STRBUF_INIT;
        list_pieces(b, FINISHED, 0, &list);
        phrase_add(&line, lang, "board.bantu.finish", "list", list.buf, NULL);
        strbuf_release(&list);
        strbuf_addstr(out, "  ");
        strbuf_add_wrapped(out, line.buf, 4, 70);
        strbuf_addch(out, '\n');
        strbuf_release(&line);
    }
    for (int s = 0; s < b->nseats; s++) {
        int home = 0;
        for (int k = 1; k <= b->npieces; k++)
            home += b->pos[s][k] == FINISHED;
        char n1[16], n2[16];
        snprintf(n1, sizeof(n1), "%d", home);
        snprintf(n2, sizeof(n2), "%d", b->npieces);
        strbuf_addf(out, "  %c %-7s %-16.16s ", colours[s][0], colours[s], seat_name(t, s));
        phrase_add(out, lang, "board.bantu.home", "home", n1, "pieces", n2, NULL);
        if (b->partners) {
            strbuf_addstr(out, "  ");
            phrase_add(out, lang, "board.bantu.side", "side", s % 2 ? "2+4" : "1+3", NULL);
        }
        if (b->out & (1u << s)) {
            strbuf_addstr(out, "  ");
            phrase_add(out, lang, "board.bantu.resigned", NULL);
        }
        strbuf_addch(out, '\n');
    }
    if (!b->over) {
        strbuf_addstr(out, "  ");
        phrase_add(out, lang, "board.bantu.to-move", "who", seat_name(t, b->to_move), "colour", colours[b->to_move], NULL);
        strbuf_addch(out, '\n');
    }
}

static cJSON *bantu_view_json(const void *st, int viewer, const struct game_table *t)
{
    const struct bantu *b = st;
    cJSON *j = cJSON_CreateObject(), *players = cJSON_CreateArray();
    (void)viewer;
    for (int s = 0; s < b->nseats; s++) {
        cJSON *p = cJSON_CreateObject(), *pieces = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "player", seat_name(t, s));
        cJSON_AddStringToObject(p, "colour", colours[s]);
        for (int k = 1; k <= b->npieces; k++) {
            char key[4], name[8];
            snprintf(key, sizeof(key), "%d", k);
            if (b->pos[s][k] == AT_START)
                cJSON_AddStringToObject(pieces, key, "start");
            else if (b->pos[s][k] == FINISHED)
                cJSON_AddStringToObject(pieces, key, "finish");
            else {
                circle_name(b->pos[s][k], name);
                cJSON_AddStringToObject(pieces, key, name);
            }
        }
        cJSON_AddItemToObject(p, "pieces", pieces);
        cJSON_AddBoolToObject(p, "resigned", (b->out >> s) & 1);
        cJSON_AddItemToArray(players, p);
    }
    cJSON_AddItemToObject(j, "players", players);
    {
        /* The track as the game read it from its board file, for pictures. */
        struct strbuf track = STRBUF_INIT;
        board_to_text(&b->bd, &track);
        cJSON_AddStringToObject(j, "track", track.buf);
        strbuf_release(&track);
    }
    cJSON_AddBoolToObject(j, "partnership", b->partners);
    cJSON_AddNumberToObject(j, "pieces", b->npieces);
    if (!b->over)
        cJSON_AddStringToObject(j, "to_move", seat_name(t, b->to_move));
    return j;
}

static void bantu_result(const void *st, struct game_result *r)
{
    const struct bantu *b = st;
    memset(r, 0, sizeof(*r));
    r->finished = b->over;
    r->ended = (enum game_end)b->ended;
    r->winners = b->over ? b->winners : 0;
    r->has_scores = true;
    r->score_name = "pieces home";
    for (int s = 0; s < b->nseats; s++)
        for (int k = 1; k <= b->npieces; k++)
            r->scores[s] += b->pos[s][k] == FINISHED;
    game_result_agreed(r, b->ended, b->agreed);
}

static void bantu_when(const void *st, const struct game_table *t, struct game_when *w)
{
    const struct bantu *b = st;
    (void)t;
    w->unit = "round";
    w->number = b->round;
}

/* Ended by the host: the rules name no score but all pieces home, so a
 * scored end goes to the player (or side) with the most pieces home,
 * equal counts sharing; or the game is abandoned. */
static void bantu_end(void *st, enum game_end how, unsigned agreed, const struct game_table *t, struct game_log *log)
{
    bool score = how == GAME_END_SCORED;
    struct bantu *b = st;
    int home[MAX_SEATS] = { 0 }, best = -1;
    (void)t;
    if (b->over)
        return;
    b->over = true;
    b->ended = how;
    b->agreed = agreed;
    b->winners = 0;
    if (game_end_agreed(how))
        return;
    if (!score) {
        game_event(log, 0, "bantu.abandoned", EV_END);
        return;
    }
    for (int s = 0; s < b->nseats; s++) {
        if (b->out & (1u << s))
            continue;
        for (int k = 1; k <= b->npieces; k++)
            home[s] += b->pos[s][k] == FINISHED;
    }
    if (b->partners)
        for (int s = 0; s < 2; s++)
            home[s] = home[s + 2] = home[s] + home[s + 2];
    for (int s = 0; s < b->nseats; s++)
        if (!(b->out & (1u << s)) && home[s] > best)
            best = home[s];
    for (int s = 0; s < b->nseats; s++)
        if (!(b->out & (1u << s)) && home[s] == best)
            b->winners |= 1u << s;
    game_event(log, 0, b->partners ? "bantu.most-home-side" : "bantu.most-home", EV_INT, "n", best, EV_END);
}

/* A resigning player's pieces leave the board; in a partnership her side
 * concedes. With one player (or side) left, it wins. */
static void bantu_resign(void *st, int seat, const struct game_table *t, struct game_log *log)
{
    struct bantu *b = st;
    unsigned left;
    if (b->over || (b->out & (1u << seat)))
        return;
    b->out |= 1u << seat;
    if (b->partners)
        b->out |= 1u << ((seat + 2) % 4);
    for (int s = 0; s < b->nseats; s++)
        if (b->out & (1u << s))
            for (int k = 1; k <= b->npieces; k++)
                if (b->pos[s][k] >= 0)
                    b->pos[s][k] = AT_START;
    game_event(log, 0,
               log->dropped ? (b->partners ? "bantu.dropped-side" : "bantu.dropped")
                            : (b->partners ? "bantu.resigns-side" : "bantu.resigns"),
               EV_STR, "who", seat_name(t, seat), EV_END);
    left = ((1u << b->nseats) - 1) & ~b->out;
    if (__builtin_popcount(left) <= (b->partners ? 2 : 1)) {
        b->over = true;
        b->winners = left;
        game_event(log, 0, "bantu.one-side-left", EV_END);
    } else if (b->to_move == seat || (b->out & (1u << b->to_move))) {
        next_turn(b, b->to_move, t, log);
    }
}

/* How far a side's pieces have come: Finish counts most. */
static long long progress(const struct bantu *b, int seat)
{
    long long p = 0;
    for (int k = 1; k <= b->npieces; k++)
        p += b->pos[seat][k] == FINISHED ? b->bd.nsec + 8 : b->pos[seat][k] == AT_START ? 0 : sec_of(b->pos[seat][k]) + 1;
    return p;
}

/* One's own progress against the best of the others'. */
static long long bantu_evaluate(const void *st, int seat)
{
    const struct bantu *b = st;
    long long best = 0;
    if (b->over)
        return (b->winners >> seat) & 1 ? 100000 : -100000;
    for (int s = 0; s < b->nseats; s++)
        if (!friendly(b, s, seat) && progress(b, s) > best)
            best = progress(b, s);
    return progress(b, seat) * 10 - best * 10;
}

/* The state is one block: a copy is a copy of its bytes. */
static void *bantu_clone(const void *st)
{
    return xmemdup(st, sizeof(struct bantu));
}

const struct game_ops bantu_ops = {
    .name = "bantu",
    .title = "Bantu",
    .summary = "Numbered pieces race round a track; pieces abreast move by their sum, lone ones get captured (2-4).",
    .min_seats = 2,
    .max_seats = 4,
    .options =
        (const struct game_option[]){
            { "short", "no", "yes: the short game, with pieces 1 to 3 only", 0 },
            { "partnership", "no", "yes: 4 players, seats 1 and 3 against 2 and 4", 0 },
            { "board", "bantu-board.json", "the board file (in seeds/, or a path)", OPTION_HOST | OPTION_FILE },
            { NULL, NULL, NULL, 0 },
        },
    .setup = bantu_setup,
    .free = free, /* the state is one block */
    .clone = bantu_clone,
    .to_json = bantu_to_json,
    .from_json = bantu_from_json,
    .waiting_for = bantu_waiting_for,
    .check = bantu_check,
    .advance = bantu_advance,
    .legal = bantu_legal,
    .view_json = bantu_view_json,
    .view_ascii = bantu_view_ascii,
    .result = bantu_result,
    .resign = bantu_resign,
    .when = bantu_when,
    .end = bantu_end,
    .evaluate = bantu_evaluate,
    .side = bantu_side,
    .secrets = NULL,
};
