/* bumuntu.c: Bumuntu (Tim Blank, WizKids 2019): tribal leaders walk a jungle of animal tiles, using their abilities to win favor: setup, the turn, food, steps, tiles and swaps, scoring, views, and the module's operations; the animals are animals.c's, the board board.c's. */
#include "games/bumuntu/bumuntu_int.h"
#include "lib/template.h"

static bool any_move(const struct bumuntu *b, int seat);
static void score_game(struct bumuntu *b, const struct game_table *t, struct game_log *log);

/* ---- data and setup ---------------------------------------------------------------- */

static int find_animal(const char *name)
{
    for (int a = 0; a < ALL_ANIMALS; a++)
        if (str_ieq(name, animal_rules[a].name))
            return a;
    return -1;
}

static int load_data(struct bumuntu *b, const char *file, const char *choice, char codes[ALL_ANIMALS][3],
                     int chosen[SLOTS], int per_kind[KINDS], struct strbuf *err)
{
    char *path = seed_path(file);
    cJSON *d = jx_load_file(path, FILE_MAX_DATA, err), *v;
    const cJSON *animals, *spots, *tiles, *yowa, *beginner;
    int rc = -1, i = 0, total = 0;

    for (int a = 0; a < ALL_ANIMALS; a++)
        snprintf(codes[a], 3, "%.2s", animal_rules[a].name);
    if (!d)
        goto out;
    if (!(animals = jx_array(d, "animals", ALL_ANIMALS, ALL_ANIMALS, err)))
        goto bad;
    cJSON_ArrayForEach(v, animals) {
        const char *name = jx_str(v, "name", err), *code = jx_str(v, "code", err);
        int a;
        if (!name || !code)
            goto bad;
        if ((a = find_animal(name)) < 0 || strlen(code) != 2) {
            strbuf_addf(err, "animal \"%s\" (code \"%s\"): the animals are the ten of the game, with two-letter codes",
                        name, code);
            goto bad;
        }
        memcpy(codes[a], code, 3);
    }
    if (!(tiles = cJSON_GetObjectItemCaseSensitive(d, "tiles_per_animal")) ||
        jx_int(tiles, "advancement", 0, 8, &per_kind[ADV], err) || jx_int(tiles, "food", 0, 8, &per_kind[FOOD], err) ||
        jx_int(tiles, "nkisi", 0, 8, &per_kind[NKISI], err) || jx_int(tiles, "yowa", 0, 8, &per_kind[YOWA], err))
        goto bad;
    for (int k = 0; k < KINDS; k++)
        total += per_kind[k];
    if (total * SLOTS != SQ) {
        strbuf_addf(err, "tiles_per_animal must add up to %d (8 animals fill the 64 squares)", SQ / SLOTS);
        goto bad;
    }
    if (!(spots = jx_array(d, "favor_spots", SLOTS, SLOTS, err)))
        goto bad;
    i = 0;
    cJSON_ArrayForEach(v, spots) {
        if (cJSON_GetObjectItemCaseSensitive(v, "per_tile")) {
            if (jx_int(v, "per_tile", 1, 100, &b->spot_per[i], err))
                goto bad;
        } else if (jx_int(v, "gold", 0, 100, &b->spot_gold[i], err) ||
                   jx_int(v, "silver", 0, 100, &b->spot_silver[i], err)) {
            goto bad;
        }
        i++;
    }
    if (jx_int_array(d, "nkisi", b->nkisi, SLOTS + 1, 0, 1000, err) || !(yowa = jx_array(d, "beginner", 0, 99, err)))
        goto bad;
    yowa = cJSON_GetObjectItemCaseSensitive(d, "yowa");
    if (jx_int(yowa, "gold", 0, 100, &b->yowa_gold, err) || jx_int(yowa, "silver", 0, 100, &b->yowa_silver, err) ||
        jx_int(d, "tie_for_second", 0, 100, &b->tie_second, err))
        goto bad;

    /* Which eight animals: the rulebook's beginner set, or the host's list. */
    beginner = cJSON_GetObjectItemCaseSensitive(d, "beginner");
    i = 0;
    if (!*choice || str_ieq(choice, "beginner")) {
        cJSON_ArrayForEach(v, beginner) {
            if (!cJSON_IsString(v) || i == SLOTS || (chosen[i] = find_animal(v->valuestring)) < 0) {
                strbuf_addstr(err, "\"beginner\" must name 8 of the animals");
                goto bad;
            }
            i++;
        }
    } else {
        char *copy = xstrdup(choice), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            struct strbuf name = STRBUF_INIT;
            strbuf_addstr(&name, tok);
            strbuf_trim(&name);
            int a = find_animal(name.buf);
            if (a < 0 && str_ieq(name.buf, "mamba"))
                a = MAMBA;
            if (a < 0 && str_ieq(name.buf, "rhino"))
                a = RHINO;
            if (a < 0) {
                strbuf_addf(err, "option animals: \"%s\" is not an animal of Bumuntu (", name.buf);
                for (int x = 0; x < ALL_ANIMALS; x++)
                    strbuf_addf(err, "%s%s", x ? ", " : "", animal_rules[x].name);
                strbuf_addch(err, ')');
                strbuf_release(&name);
                free(copy);
                goto out;
            }
            strbuf_release(&name);
            if (i == SLOTS) {
                strbuf_addstr(err, "option animals: name exactly 8 animals");
                free(copy);
                goto out;
            }
            chosen[i++] = a;
        }
        free(copy);
    }
    if (i != SLOTS) {
        strbuf_addf(err, "option animals: name exactly 8 animals, not %d", i);
        goto out;
    }
    for (int x = 0; x < SLOTS; x++)
        for (int y = 0; y < x; y++)
            if (chosen[x] == chosen[y]) {
                strbuf_addf(err, "option animals: %s is named twice", animal_rules[chosen[x]].name);
                goto out;
            }
    rc = 0;
    goto out;
bad:
    strbuf_prefixf(err, "%s: ", path); /* the file before what is wrong in it */
out:
    cJSON_Delete(d);
    free(path);
    return rc;
}

static const char *option(const cJSON *options, const char *key, const char *def)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(options, key);
    return cJSON_IsString(v) ? v->valuestring : def;
}

static void *bumuntu_setup(const cJSON *options, int nseats, uint64_t seed, struct strbuf *err)
{
    struct bumuntu *b = xcalloc(1, sizeof(*b));
    char codes[ALL_ANIMALS][3];
    int chosen[SLOTS], per_kind[KINDS], tiles[SQ], n = 0;

    if (nseats < 2 || nseats > MAX_SEATS) {
        strbuf_addf(err, "Bumuntu is played by 2 to 5 players, not %d", nseats);
        goto fail;
    }
    b->nseats = nseats;
    if (load_data(b, option(options, "data", "bumuntu.json"), option(options, "animals", "beginner"), codes, chosen,
                  per_kind, err))
        goto fail;
    {
        long long rounds;
        const char *v = option(options, "stall_rounds", "10");
        if (!parse_int(v, 0, 1000, &rounds)) {
            strbuf_addf(err, "option stall_rounds: \"%s\" is not a number of rounds from 0 (off) to 1000", v);
            goto fail;
        }
        b->stall_rounds = (int)rounds;
    }
    rng_seed(&b->rng, seed, 0x62756d75);
    for (int s = 0; s < SLOTS; s++) {
        b->animal[s] = chosen[s];
        memcpy(b->code[s], codes[chosen[s]], 3);
        for (int k = 0; k < KINDS; k++)
            for (int c = 0; c < per_kind[k]; c++)
                tiles[n++] = s * KINDS + k;
        b->favor[s] = s;
    }
    b->adv_total = per_kind[ADV] * SLOTS;
    rng_shuffle(&b->rng, tiles, SQ, sizeof(int));
    memcpy(b->board, tiles, sizeof(tiles));
    rng_shuffle(&b->rng, b->favor, SLOTS, sizeof(int));
    for (int s = 0; s < MAX_SEATS; s++)
        b->pawn[s] = -1;
    b->first = (int)rng_below(&b->rng, (uint32_t)nseats);
    b->to_move = b->first;
    b->phase = PH_ENTER;
    b->collect = -1;
    return b;
fail:
    free(b);
    return NULL;
}

/* ---- JSON ---------------------------------------------------------------------------- */

static cJSON *bumuntu_to_json(const void *st)
{
    const struct bumuntu *b = st;
    cJSON *j = cJSON_CreateObject(), *codes = cJSON_CreateArray(), *shields = cJSON_CreateArray();
    int flat[SLOTS * KINDS];

    cJSON_AddNumberToObject(j, "nseats", b->nseats);
    cJSON_AddItemToObject(j, "animals", jx_int_array_new(b->animal, SLOTS));
    for (int s = 0; s < SLOTS; s++)
        cJSON_AddItemToArray(codes, cJSON_CreateString(b->code[s]));
    cJSON_AddItemToObject(j, "codes", codes);
    cJSON_AddItemToObject(j, "board", jx_int_array_new(b->board, SQ));
    cJSON_AddItemToObject(j, "pawns", jx_int_array_new(b->pawn, (size_t)b->nseats));
    cJSON_AddItemToObject(j, "favor", jx_int_array_new(b->favor, SLOTS));
    cJSON_AddItemToObject(j, "spot_per", jx_int_array_new(b->spot_per, SLOTS));
    cJSON_AddItemToObject(j, "spot_gold", jx_int_array_new(b->spot_gold, SLOTS));
    cJSON_AddItemToObject(j, "spot_silver", jx_int_array_new(b->spot_silver, SLOTS));
    cJSON_AddItemToObject(j, "nkisi", jx_int_array_new(b->nkisi, SLOTS + 1));
    cJSON_AddNumberToObject(j, "yowa_gold", b->yowa_gold);
    cJSON_AddNumberToObject(j, "yowa_silver", b->yowa_silver);
    cJSON_AddNumberToObject(j, "tie_second", b->tie_second);
    cJSON_AddItemToObject(j, "chips", jx_int_array_new(b->chips, (size_t)b->nseats));
    for (int p = 0; p < b->nseats; p++) {
        memcpy(flat, b->shield[p], sizeof(flat));
        cJSON_AddItemToArray(shields, jx_int_array_new(flat, SLOTS * KINDS));
    }
    cJSON_AddItemToObject(j, "shields", shields);
    cJSON_AddNumberToObject(j, "first", b->first);
    cJSON_AddNumberToObject(j, "to_move", b->to_move);
    cJSON_AddNumberToObject(j, "resigned", b->resigned);
    cJSON_AddStringToObject(j, "phase", phase_names[b->phase]);
    cJSON_AddNumberToObject(j, "collect", b->collect);
    cJSON_AddNumberToObject(j, "adv_total", b->adv_total);
    cJSON_AddNumberToObject(j, "adv_taken", b->adv_taken);
    cJSON_AddNumberToObject(j, "stall_rounds", b->stall_rounds);
    cJSON_AddNumberToObject(j, "stall_turns", b->stall_turns);
    cJSON_AddBoolToObject(j, "turn_collected", b->turn_collected);
    cJSON_AddBoolToObject(j, "stalled", b->stalled);
    cJSON_AddNumberToObject(j, "ended", b->ended);
    cJSON_AddNumberToObject(j, "agreed", b->agreed);
    cJSON_AddNumberToObject(j, "round", b->round);
    cJSON_AddItemToObject(j, "scores", jx_int_array_new(b->score, (size_t)b->nseats));
    cJSON_AddItemToObject(j, "rng", rng_to_json(&b->rng));
    return j;
}

static void *bumuntu_from_json(const cJSON *j, struct strbuf *err)
{
    struct bumuntu *b = xcalloc(1, sizeof(*b));
    const cJSON *a, *v;
    const char *phase;
    int i, counted[SLOTS * KINDS] = { 0 };

    if (jx_int(j, "nseats", 2, MAX_SEATS, &b->nseats, err) ||
        jx_int_array(j, "animals", b->animal, SLOTS, 0, ALL_ANIMALS - 1, err) ||
        !(a = jx_array(j, "codes", SLOTS, SLOTS, err)))
        goto fail;
    i = 0;
    cJSON_ArrayForEach(v, a) {
        if (!cJSON_IsString(v) || strlen(v->valuestring) != 2) {
            strbuf_addstr(err, "\"codes\" must be two-letter strings");
            goto fail;
        }
        memcpy(b->code[i++], v->valuestring, 3);
    }
    for (int x = 0; x < SLOTS; x++)
        for (int y = 0; y < x; y++)
            if (b->animal[x] == b->animal[y]) {
                strbuf_addstr(err, "\"animals\" holds an animal twice");
                goto fail;
            }
    if (jx_int_array(j, "board", b->board, SQ, -1, SLOTS * KINDS - 1, err) ||
        jx_int_array(j, "pawns", b->pawn, (size_t)b->nseats, -1, SQ - 1, err) ||
        jx_int_array(j, "favor", b->favor, SLOTS, 0, SLOTS - 1, err) ||
        jx_int_array(j, "spot_per", b->spot_per, SLOTS, 0, 100, err) ||
        jx_int_array(j, "spot_gold", b->spot_gold, SLOTS, 0, 100, err) ||
        jx_int_array(j, "spot_silver", b->spot_silver, SLOTS, 0, 100, err) ||
        jx_int_array(j, "nkisi", b->nkisi, SLOTS + 1, 0, 1000, err) ||
        jx_int(j, "yowa_gold", 0, 100, &b->yowa_gold, err) || jx_int(j, "yowa_silver", 0, 100, &b->yowa_silver, err) ||
        jx_int(j, "tie_second", 0, 100, &b->tie_second, err) ||
        jx_int_array(j, "chips", b->chips, (size_t)b->nseats, 0, SQ, err) ||
        !(a = jx_array(j, "shields", b->nseats, b->nseats, err)))
        goto fail;
    for (int s = b->nseats; s < MAX_SEATS; s++)
        b->pawn[s] = -1;
    i = 0;
    cJSON_ArrayForEach(v, a) {
        int flat[SLOTS * KINDS];
        cJSON *wrap = cJSON_CreateObject();
        cJSON_AddItemReferenceToObject(wrap, "shield", (cJSON *)v);
        int rc = jx_int_array(wrap, "shield", flat, SLOTS * KINDS, 0, SQ, err);
        cJSON_Delete(wrap);
        if (rc)
            goto fail;
        memcpy(b->shield[i], flat, sizeof(flat));
        for (int x = 0; x < SLOTS * KINDS; x++)
            counted[x] += flat[x];
        i++;
    }
    if (jx_int(j, "first", 0, b->nseats - 1, &b->first, err) ||
        jx_int(j, "to_move", 0, b->nseats - 1, &b->to_move, err) || !(phase = jx_str(j, "phase", err)) ||
        jx_int(j, "collect", -1, SQ - 1, &b->collect, err) || jx_int(j, "adv_total", 0, SQ, &b->adv_total, err) ||
        jx_int(j, "adv_taken", 0, b->adv_total, &b->adv_taken, err) ||
        jx_int_array(j, "scores", b->score, (size_t)b->nseats, 0, 100000, err) ||
        jx_int(j, "resigned", 0, (1 << b->nseats) - 1, &i, err) ||
        rng_from_json(&b->rng, cJSON_GetObjectItemCaseSensitive(j, "rng"), err))
        goto fail;
    b->resigned = (unsigned)i;
    /* States stored before the stall rule have none of its keys. */
    if (jx_int_opt(j, "stall_rounds", 0, 1000, 10, &b->stall_rounds, err) ||
        jx_int_opt(j, "stall_turns", 0, 1000 * MAX_SEATS, 0, &b->stall_turns, err) ||
        jx_bool_opt(j, "turn_collected", false, &b->turn_collected, err) ||
        jx_bool_opt(j, "stalled", false, &b->stalled, err) ||
        jx_int_opt(j, "ended", GAME_END_RULES, GAME_END_LAST, GAME_END_RULES, &b->ended, err) ||
        jx_mask_opt(j, "agreed", b->nseats, &b->agreed, err) ||
        jx_int_opt(j, "round", 0, 1000000, 0, &b->round, err))
        goto fail;
    for (i = 0; i <= PH_OVER && strcmp(phase, phase_names[i]); i++)
        ;
    if (i > PH_OVER) {
        strbuf_addf(err, "unknown phase \"%s\"", phase);
        goto fail;
    }
    b->phase = (enum phase)i;
    /* Markers, pawns and tiles must make sense together. */
    for (int x = 0; x < SLOTS; x++)
        for (int y = 0; y < x; y++)
            if (b->favor[x] == b->favor[y]) {
                strbuf_addstr(err, "\"favor\" holds a marker twice");
                goto fail;
            }
    for (int s = 0; s < b->nseats; s++) {
        if (b->pawn[s] >= 0 && bum_pawn_at(b, b->pawn[s]) != s) {
            strbuf_addstr(err, "two pawns share a square");
            goto fail;
        }
        if (b->phase != PH_ENTER && b->phase != PH_OVER && b->pawn[s] < 0 && !(b->resigned & (1u << s))) {
            strbuf_addstr(err, "every pawn is in the jungle once the entering is over");
            goto fail;
        }
    }
    for (int sq = 0; sq < SQ; sq++)
        if (b->board[sq] >= 0)
            counted[b->board[sq]]++;
    for (int x = 0; x < SLOTS * KINDS; x++)
        if (counted[x] > SQ / SLOTS) {
            strbuf_addstr(err, "more tiles of a kind than the game has");
            goto fail;
        }
    if (b->phase != PH_OVER && (b->resigned & (1u << b->to_move))) {
        strbuf_addstr(err, "the seat to move has resigned");
        goto fail;
    }
    if (b->phase == PH_TILE && (b->collect < 0 || b->board[b->collect] < 0)) {
        strbuf_addstr(err, "a tile move is pending without a tile to collect");
        goto fail;
    }
    return b;
fail:
    free(b);
    return NULL;
}

static int next_seat(const struct bumuntu *b, int seat)
{
    return (seat + 1) % b->nseats;
}

static int active_seats(const struct bumuntu *b)
{
    return b->nseats - __builtin_popcount(b->resigned);
}

/* The house rule for a worked-out jungle: a turn that collected no tile
 * counts; stall_rounds full rounds of them end the game, scored as if the
 * last advancement tile had been taken. True when it ended the game. */
static bool stall_tick(struct order_ctx *o, bool collected)
{
    struct bumuntu *b = o->b;
    b->stall_turns = collected ? 0 : b->stall_turns < 1000 * MAX_SEATS ? b->stall_turns + 1 : b->stall_turns;
    if (!b->stall_rounds || b->stall_turns < b->stall_rounds * active_seats(b))
        return false;
    bum_event(o, 0, "bumuntu.stalled", EV_INT, "n", b->stall_rounds, EV_END);
    b->stalled = true;
    b->collect = -1;
    b->phase = PH_OVER;
    if (o->log)
        score_game(b, o->t, o->log);
    return true;
}

/* A seat leaves: her stalled turns leave the count with her. The rule
 * counts full rounds of the seats still playing (every one of them has had
 * stall_rounds turns with no tile), so a resignation never shortens it.
 * The count holds the last stall_turns turns in seat order, ending with
 * the seat before the one to move: seats further back had one turn less. */
static void stall_forget(struct bumuntu *b, int seat)
{
    int active = active_seats(b), last = b->to_move, back = 0;
    if (!b->stall_turns || active < 1 || b->phase == PH_ENTER || b->phase == PH_OVER)
        return;
    do
        last = (last + b->nseats - 1) % b->nseats;
    while (b->resigned & (1u << last));
    for (int s = last; s != seat; s = (s + b->nseats - 1) % b->nseats)
        if (!(b->resigned & (1u << s)))
            back++;
    if (b->stall_turns > back)
        b->stall_turns -= (b->stall_turns - 1 - back) / active + 1;
}

/* Seat's turn begins; a player with no move at all forfeits it, a player
 * who resigned is passed over, and when nobody can move the game ends. */
static void start_turn(struct order_ctx *o, int seat)
{
    struct bumuntu *b = o->b;
    bool entering = b->phase == PH_ENTER;
    b->collect = -1;
    b->phase = PH_TURN;
    b->turn_collected = false;
    for (int tries = 0; tries < b->nseats; tries++, seat = next_seat(b, seat)) {
        /* A round begins with the first turn after the entering, and
         * again whenever the turn comes round to the first player. */
        if (entering || b->round == 0)
            b->round = 1;
        else if ((seat - b->first + b->nseats) % b->nseats <= (b->to_move - b->first + b->nseats) % b->nseats)
            b->round++;
        entering = false;
        b->to_move = seat;
        if (b->resigned & (1u << seat))
            continue;
        if (any_move(b, seat))
            return;
        bum_event(o, 0, "bumuntu.forfeits", EV_STR, "who", bum_seat_name(o->t, seat), EV_END);
        if (stall_tick(o, false))
            return;
    }
    bum_event(o, 0, "bumuntu.nobody-moves", EV_END);
    b->phase = PH_OVER;
    if (o->log)
        score_game(b, o->t, o->log);
}

/* The turn passes on, or the game ends with the last advancement tile (or
 * a worked-out jungle). */
static void end_turn(struct order_ctx *o)
{
    struct bumuntu *b = o->b;
    if (b->adv_taken >= b->adv_total) {
        b->collect = -1;
        b->phase = PH_OVER;
        if (o->log)
            score_game(b, o->t, o->log);
        return;
    }
    if (stall_tick(o, b->turn_collected))
        return;
    start_turn(o, next_seat(b, o->seat));
}

/* The tile the ability started on goes behind the player's shield. */
static void collect_tile(struct order_ctx *o)
{
    struct bumuntu *b = o->b;
    int tile = b->board[o->b->collect], slot = bum_tile_slot(tile), kind = bum_tile_kind(tile);
    char name[4], term[32];
    bum_name_sq(b->collect, name);
    b->board[b->collect] = -1;
    b->shield[o->seat][slot][kind]++;
    b->turn_collected = true;
    if (o->log) {
        static const char *const keys[KINDS] = { "bumuntu.you-collected-advancement", "bumuntu.you-collected-food",
                                                 "bumuntu.you-collected-nkisi", "bumuntu.you-collected-yowa" };
        char aterm[40];
        snprintf(aterm, sizeof(aterm), "%s-a", bum_animal_term(b->animal[slot], term));
        game_note(o->log, o->seat, 0, keys[kind], EV_TERM, "animal", aterm, EV_END);
    }
    if (kind == FOOD) {
        b->chips[o->seat]++;
        bum_event(o, 0, "bumuntu.collects-food", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_TERM, "animal",
                  bum_animal_term(b->animal[slot], term), EV_STR, "at", name, EV_END);
    } else if (kind == ADV) {
        b->adv_taken++;
        bum_event(o, 0, "bumuntu.collects-advancement", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_TERM, "animal",
                  bum_animal_term(b->animal[slot], term), EV_STR, "at", name, EV_INT, "taken", b->adv_taken, EV_INT,
                  "total", b->adv_total, EV_END);
    } else {
        bum_event(o, 0, "bumuntu.collects", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_TERM, "animal",
                  bum_animal_term(b->animal[slot], term), EV_STR, "at", name, EV_END);
    }
    b->collect = -1;
    if (kind == ADV)
        b->phase = PH_SWAP;
    else
        end_turn(o);
}

/* After seat's entry (or resignation while entering): the next in seat
 * order enters, until all have; then the first player plays. */
static void entering_goes_on(struct order_ctx *o, int seat)
{
    struct bumuntu *b = o->b;
    int next = next_seat(b, seat);
    while (next != b->first && (b->resigned & (1u << next)))
        next = next_seat(b, next);
    if (next == b->first)
        start_turn(o, b->first);
    else
        b->to_move = next;
}

static int do_enter(struct order_ctx *o, const struct words *w, int *i)
{
    struct bumuntu *b = o->b;
    int sq = *i < w->n ? bum_parse_sq(w->w[*i]) : -1;
    char name[4];
    if (sq < 0)
        return bum_fail(o, "refused.bumuntu.enter-square", NULL);
    (*i)++;
    if (!bum_outer_ring(sq))
        return bum_fail(o, "refused.bumuntu.enter-outer", "square", w->w[*i - 1], NULL);
    if (bum_pawn_at(b, sq) >= 0)
        return bum_fail(o, "refused.bumuntu.enter-taken", "square", w->w[*i - 1], NULL);
    bum_name_sq(sq, name);
    b->pawn[o->seat] = sq;
    bum_canon_add(o, "ENTER %s", name);
    bum_event(o, 0, "bumuntu.enters", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_STR, "at", name, EV_END);
    entering_goes_on(o, o->seat);
    return 0;
}

static int do_food(struct order_ctx *o, const struct words *w, int *i)
{
    struct bumuntu *b = o->b;
    int sqs[SQ], n = bum_read_squares(w, i, sqs, SQ), from = b->pawn[o->seat], dest, steps;
    struct strbuf path = STRBUF_INIT;
    if (b->phase != PH_TURN)
        return bum_fail(o, "refused.bumuntu.food-first", NULL);
    if (!b->chips[o->seat])
        return bum_fail(o, "refused.bumuntu.no-chips", NULL);
    if (n == 1 && !bum_adjacent(from, sqs[0])) {
        /* A destination alone: as few chips as it takes. */
        int d = abs(from % N - sqs[0] % N) > abs(from / N - sqs[0] / N) ? abs(from % N - sqs[0] % N)
                                                                       : abs(from / N - sqs[0] / N);
        if (bum_walk_check(o, "FOOD", from, sqs, 1, d, d > b->chips[o->seat] ? d : b->chips[o->seat], false, &dest,
                       &steps))
            return -1;
    } else if (bum_walk_check(o, "FOOD", from, sqs, n, 1, SQ, false, &dest, &steps)) {
        return -1;
    }
    if (steps > b->chips[o->seat]) {
        char need[16], have[16];
        snprintf(need, sizeof(need), "%d", steps);
        snprintf(have, sizeof(have), "%d", b->chips[o->seat]);
        return bum_fail(o, "refused.bumuntu.food-too-far", "n", need, "have", have, NULL);
    }
    {
        bool reach[SQ + 1][SQ];
        bum_walks(b, o->seat, from, steps, false, reach);
        bum_walk_path(reach, dest, steps, &path);
    }
    bum_canon_add(o, "FOOD %s", path.buf);
    b->chips[o->seat] -= steps;
    b->pawn[o->seat] = dest;
    bum_event(o, 0, "bumuntu.spends-food", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_INT, "n", steps, EV_STR,
              "path", path.buf, EV_END);
    b->phase = PH_MAIN;
    strbuf_release(&path);
    return 0;
}

static int do_step(struct order_ctx *o, const struct words *w, int *i)
{
    struct bumuntu *b = o->b;
    int sqs[2], n = bum_read_squares(w, i, sqs, 2), from = b->pawn[o->seat];
    char name[4];
    if (n != 1)
        return bum_fail(o, "refused.bumuntu.move-square", NULL);
    bum_name_sq(sqs[0], name);
    if (!bum_adjacent(from, sqs[0]))
        return bum_fail(o, "refused.bumuntu.move-not-next", "square", name, NULL);
    if (bum_opponent_at(b, o->seat, sqs[0]))
        return bum_fail(o, "refused.bumuntu.move-taken", "square", name, NULL);
    bum_canon_add(o, "MOVE %s", name);
    b->pawn[o->seat] = sqs[0];
    bum_event(o, 0, "bumuntu.steps", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_STR, "to", name, EV_END);
    end_turn(o);
    return 0;
}

static int do_ability(struct order_ctx *o, int ab, const struct words *w, int *i)
{
    struct bumuntu *b = o->b;
    int from = b->pawn[o->seat];

    if (bum_ability_at(b, from) < 0)
        return bum_fail(o, "refused.bumuntu.empty-square", NULL);
    if (bum_ability_at(b, from) != ab) {
        char lw[48];
        return bum_fail(o, "refused.bumuntu.wrong-animal", "animal", bum_say_animal(o, bum_ability_at(b, from)), "other",
                        bum_say_animal(o, ab), "word", bum_local(o, animal_rules[bum_ability_at(b, from)].word, lw),
                        NULL);
    }
    b->collect = from;
    if (animal_rules[ab].order(o, ab, w, i, from))
        return -1;
    if (animal_rules[ab].lays_tile) {
        b->phase = PH_TILE;
        return 0;
    }
    collect_tile(o);
    return 0;
}

static int do_tile(struct order_ctx *o, const struct words *w, int *i)
{
    struct bumuntu *b = o->b;
    int from, to;
    char a[4], c[4];
    if (b->phase != PH_TILE)
        return bum_fail(o, "refused.bumuntu.tile-after", NULL);
    if (*i < w->n && (str_eq(w->w[*i], "none") || str_eq(w->w[*i], "no") || str_eq(w->w[*i], "skip"))) {
        (*i)++;
        bum_canon_add(o, "TILE NONE");
        bum_event(o, 0, "bumuntu.no-tile", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_END);
        collect_tile(o);
        return 0;
    }
    if (*i + 1 >= w->n || (from = bum_parse_sq(w->w[*i])) < 0 || (to = bum_parse_sq(w->w[*i + 1])) < 0)
        return bum_fail(o, "refused.bumuntu.tile-squares", NULL);
    *i += 2;
    bum_name_sq(from, a);
    bum_name_sq(to, c);
    if (b->board[from] < 0)
        return bum_fail(o, "refused.bumuntu.tile-none-there", "square", a, NULL);
    if (bum_pawn_at(b, from) >= 0)
        return bum_fail(o, "refused.bumuntu.tile-pawn", "square", a, NULL);
    if (from == b->collect)
        return bum_fail(o, "refused.bumuntu.tile-collected", NULL);
    if (b->board[to] >= 0 || bum_pawn_at(b, to) >= 0)
        return bum_fail(o, "refused.bumuntu.tile-not-empty", "square", c, NULL);
    bum_canon_add(o, "TILE %s %s", a, c);
    b->board[to] = b->board[from];
    b->board[from] = -1;
    {
        char term[32];
        bum_event(o, 0, "bumuntu.moves-tile", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_TERM, "animal",
                  bum_animal_term(b->animal[bum_tile_slot(b->board[to])], term), EV_STR, "from", a, EV_STR, "to", c,
                  EV_END);
    }
    collect_tile(o);
    return 0;
}

static int do_swap(struct order_ctx *o, const struct words *w, int *i)
{
    struct bumuntu *b = o->b;
    long long x, y;
    if (b->phase != PH_SWAP)
        return bum_fail(o, "refused.bumuntu.swap-after", NULL);
    if (*i < w->n && (str_eq(w->w[*i], "none") || str_eq(w->w[*i], "no") || str_eq(w->w[*i], "skip"))) {
        (*i)++;
        bum_canon_add(o, "SWAP NONE");
        bum_event(o, 0, "bumuntu.no-swap", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_END);
        end_turn(o);
        return 0;
    }
    if (*i + 1 >= w->n || !parse_int(w->w[*i], 1, SLOTS, &x) || !parse_int(w->w[*i + 1], 1, SLOTS, &y))
        return bum_fail(o, "refused.bumuntu.swap-spots", NULL);
    *i += 2;
    if (y < x) {
        long long t = x;
        x = y;
        y = t;
    }
    if (y - x != 1) {
        char xs[24], ys[24];
        snprintf(xs, sizeof(xs), "%lld", x);
        snprintf(ys, sizeof(ys), "%lld", y);
        return bum_fail(o, "refused.bumuntu.swap-not-neighbours", "x", xs, "y", ys, NULL);
    }
    int tmp = b->favor[x - 1];
    b->favor[x - 1] = b->favor[y - 1];
    b->favor[y - 1] = tmp;
    bum_canon_add(o, "SWAP %lld %lld", x, y);
    {
        char tx[32], ty[32];
        bum_event(o, 0, "bumuntu.swaps", EV_STR, "who", bum_seat_name(o->t, o->seat), EV_INT, "x", (int)x, EV_INT, "y",
                  (int)y, EV_TERM, "ax", bum_animal_term(b->animal[b->favor[x - 1]], tx), EV_TERM, "ay",
                  bum_animal_term(b->animal[b->favor[y - 1]], ty), EV_END);
    }
    end_turn(o);
    return 0;
}

static int ability_word(const struct words *w, int *i)
{
    static const struct {
        const char *word;
        int ab;
    } aliases[] = {
        { "giraffe", GIRAFFE },     { "gi", GIRAFFE },     { "chimpanzee", CHIMPANZEE }, { "chimp", CHIMPANZEE },
        { "ch", CHIMPANZEE },       { "zebra", ZEBRA },    { "ze", ZEBRA },              { "flamingo", FLAMINGO },
        { "fl", FLAMINGO },         { "tarantula", TARANTULA }, { "ta", TARANTULA },      { "lion", LION },
        { "li", LION },             { "crocodile", CROCODILE }, { "croc", CROCODILE },   { "cr", CROCODILE },
        { "mamba", MAMBA },         { "bm", MAMBA },       { "rhinoceros", RHINO },      { "rhino", RHINO },
        { "rh", RHINO },            { "elephant", ELEPHANT }, { "el", ELEPHANT },
    };
    if (*i < w->n && str_eq(w->w[*i], "black") && *i + 1 < w->n && str_eq(w->w[*i + 1], "mamba")) {
        *i += 2;
        return MAMBA;
    }
    for (size_t k = 0; *i < w->n && k < ARRAY_SIZE(aliases); k++)
        if (str_eq(w->w[*i], aliases[k].word)) {
            (*i)++;
            return aliases[k].ab;
        }
    return -1;
}

/* Applies one order line for seat; o->log NULL means a dry run on a copy. */
static int apply(struct order_ctx *o, const char *line)
{
    struct bumuntu *b = o->b;
    struct words w;
    int i = 0, rc = 0;

    words_split(&w, line, "-,");
    if (w.n == 0 || w.too_many) {
        words_release(&w);
        return bum_fail(o, w.n ? "refused.game.too-many-words" : "refused.game.empty", NULL);
    }
    while (i < w.n && rc == 0) {
        const char *word = w.w[i];
        int ab;
        if (b->phase == PH_OVER || b->to_move != o->seat) {
            rc = bum_fail(o, "refused.bumuntu.turn-over", "word", word, NULL);
            break;
        }
        if (b->phase == PH_ENTER) {
            if (str_eq(word, "enter"))
                i++;
            rc = do_enter(o, &w, &i);
        } else if (str_eq(word, "food")) {
            i++;
            rc = do_food(o, &w, &i);
        } else if (str_eq(word, "tile")) {
            i++;
            rc = do_tile(o, &w, &i);
        } else if (str_eq(word, "swap")) {
            i++;
            rc = do_swap(o, &w, &i);
        } else if (b->phase == PH_TILE || b->phase == PH_SWAP) {
            rc = bum_fail(o, b->phase == PH_TILE ? "refused.bumuntu.now-tile" : "refused.bumuntu.now-swap", NULL);
        } else if (str_eq(word, "move") || str_eq(word, "step")) {
            i++;
            rc = do_step(o, &w, &i);
        } else if ((ab = ability_word(&w, &i)) >= 0) {
            rc = do_ability(o, ab, &w, &i);
        } else if (bum_parse_sq(word) >= 0) {
            rc = do_step(o, &w, &i); /* a lone square: a one-step move */
        } else {
            rc = bum_fail(o, "refused.bumuntu.not-an-order", "word", word, NULL);
        }
    }
    words_release(&w);
    return rc;
}

static int bumuntu_check(const void *st, int seat, const struct game_table *tab, const char *order, struct strbuf *canon,
                         struct strbuf *why)
{
    struct bumuntu copy = *(const struct bumuntu *)st;
    struct order_ctx o = { &copy, seat, tab, NULL, NULL, canon, why };
    if (copy.phase == PH_OVER || copy.to_move != seat)
        return bum_fail(&o, "refused.game.not-your-turn", NULL);
    if (apply(&o, order)) {
        strbuf_reset(canon);
        return -1;
    }
    return 0;
}

static int bumuntu_advance(void *st, const char *const *orders, const struct game_table *t, struct game_log *log)
{
    struct bumuntu *b = st;
    struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
    int seat = b->to_move, rc;
    struct order_ctx o = { b, seat, t, log, &log->priv[seat], &canon, &why };
    if (b->phase == PH_OVER || !orders[seat])
        return -1;
    rc = apply(&o, orders[seat]);
    strbuf_release(&canon);
    strbuf_release(&why);
    return rc;
}

static void main_moves(const struct bumuntu *b, int seat, const struct game_table *t, struct strlist *out)
{
    int from = b->pawn[seat], ab = bum_ability_at(b, from);
    char name[4];

    for (int d = 0; d < 8; d++) {
        int to = bum_step_sq(from, d);
        if (to >= 0 && !bum_opponent_at(b, seat, to)) {
            bum_name_sq(to, name);
            strlist_pushf(out, "MOVE %s", name);
        }
    }
    if (ab >= 0)
        animal_rules[ab].moves(b, seat, ab, t, out);
}

static void food_moves(const struct bumuntu *b, int seat, struct strlist *out)
{
    int from = b->pawn[seat], max = b->chips[seat];
    bool reach[SQ + 1][SQ];
    if (max > SQ)
        max = SQ;
    bum_walks(b, seat, from, max, false, reach);
    for (int n = 1; n <= max; n++)
        for (int sq = 0; sq < SQ; sq++) {
            struct strbuf path = STRBUF_INIT;
            if (!reach[n][sq] || sq == from)
                continue;
            bum_walk_path(reach, sq, n, &path);
            strlist_pushf(out, "FOOD %s", path.buf);
            strbuf_release(&path);
        }
}

/* FOOD and TILE said in a line each: their lists run to hundreds. */
static bool bumuntu_summarize(const void *st, int seat, const struct game_table *tab, const struct strlist *orders,
                              struct strbuf *out)
{
    const struct bumuntu *b = st;
    const char *lang = tab ? tab->lang : NULL;
    struct strlist ends = STRLIST_INIT;
    if (!orders->n)
        return false;
    if (strncmp(orders->v[0], "FOOD ", 5) == 0) {
        for (size_t i = 0; i < orders->n; i++) {
            const char *dash = strrchr(orders->v[i], '-'), *end = dash ? dash + 1 : orders->v[i] + 5;
            if (!strlist_contains(&ends, end))
                strlist_push(&ends, end);
        }
        char steps[16], squares[24];
        snprintf(steps, sizeof(steps), "%d", b->chips[seat]);
        snprintf(squares, sizeof(squares), "%zu", ends.n);
        phrase_add(out, lang, "options.bumuntu.food", "n", steps, "squares", squares, "square", ends.v[0], "path",
                   orders->v[orders->n - 1] + 5, NULL);
        strbuf_addch(out, '\n');
        strlist_clear(&ends);
        return true;
    }
    if (strncmp(orders->v[0], "TILE ", 5) == 0 && orders->n > 2) {
        /* The tiles and squares of the legal orders themselves: never a
         * tile they leave out (the one the Tarantula just left). */
        struct strlist tiles = STRLIST_INIT;
        for (size_t i = 0; i < orders->n; i++) {
            char x[8], y[8];
            if (sscanf(orders->v[i], "TILE %7s %7s", x, y) != 2)
                continue;
            if (!strlist_contains(&tiles, x))
                strlist_push(&tiles, x);
            if (!strlist_contains(&ends, y))
                strlist_push(&ends, y);
        }
        struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
        for (size_t i = 0; i < tiles.n; i++)
            strbuf_addf(&from, "%s%s", i ? " " : "", tiles.v[i]);
        for (size_t i = 0; i < ends.n; i++)
            strbuf_addf(&to, "%s%s", i ? " " : "", ends.v[i]);
        phrase_add(out, lang, "options.bumuntu.tile", "tiles", from.buf, "squares", to.buf, NULL);
        strbuf_addch(out, '\n');
        strbuf_release(&from);
        strbuf_release(&to);
        strlist_clear(&tiles);
        strlist_clear(&ends);
        return true;
    }
    return false;
}

static void bumuntu_legal(const void *st, int seat, const struct game_table *tab, struct strlist *out)
{
    (void)tab;
    const struct bumuntu *b = st;
    char a[4], c[4];
    if (b->phase == PH_OVER || seat != b->to_move)
        return;
    switch (b->phase) {
    case PH_ENTER:
        for (int sq = 0; sq < SQ; sq++)
            if (bum_outer_ring(sq) && bum_pawn_at(b, sq) < 0) {
                bum_name_sq(sq, a);
                strlist_pushf(out, "ENTER %s", a);
            }
        break;
    case PH_TURN:
        food_moves(b, seat, out);
        main_moves(b, seat, tab, out);
        break;
    case PH_MAIN:
        main_moves(b, seat, tab, out);
        break;
    case PH_TILE:
        strlist_push(out, "TILE NONE");
        for (int f = 0; f < SQ; f++) {
            if (b->board[f] < 0 || bum_pawn_at(b, f) >= 0 || f == b->collect)
                continue;
            bum_name_sq(f, a);
            for (int t = 0; t < SQ; t++)
                if (b->board[t] < 0 && bum_pawn_at(b, t) < 0) {
                    bum_name_sq(t, c);
                    strlist_pushf(out, "TILE %s %s", a, c);
                }
        }
        break;
    case PH_SWAP:
        strlist_push(out, "SWAP NONE");
        for (int s = 1; s < SLOTS; s++)
            strlist_pushf(out, "SWAP %d %d", s, s + 1);
        break;
    default:
        break;
    }
}

static bool any_move(const struct bumuntu *b, int seat)
{
    struct strlist l = STRLIST_INIT;
    bool any;
    if (b->pawn[seat] < 0 || (b->resigned & (1u << seat)))
        return false;
    /* A free square next to the pawn is a move; only a boxed-in pawn needs
     * its abilities looked at (food steps cannot get it out either). */
    for (int d = 0; d < 8; d++) {
        int to = bum_step_sq(b->pawn[seat], d);
        if (to >= 0 && !bum_opponent_at(b, seat, to))
            return true;
    }
    main_moves(b, seat, NULL, &l);
    any = l.n > 0;
    strlist_clear(&l);
    return any;
}

/* ---- scoring ----------------------------------------------------------------------------------- */

static int tiles_of(const struct bumuntu *b, int seat, int slot)
{
    int n = 0;
    if (b->resigned & (1u << seat))
        return 0; /* she left with her shield */
    for (int k = 0; k < KINDS; k++)
        n += b->shield[seat][slot][k];
    return n;
}

static int total_tiles(const struct bumuntu *b, int seat)
{
    int n = 0;
    for (int s = 0; s < SLOTS; s++)
        n += tiles_of(b, seat, s);
    return n;
}

/* Gold to the most, silver to the second; a tie for first: silver to each;
 * a tie for second: gold to the first, tie_second to each second. At
 * least one counts. award[] gets the favor and why[] (when not NULL) the
 * place in words: "most (gold)", "tied for most (silver)", "second
 * (silver)", "tied for second". */
static void majority(const struct bumuntu *b, const int *count, int gold, int silver, int *award, const char **why)
{
    int top = 0, second = 0, ntop = 0, nsecond = 0;
    const char *unused[MAX_SEATS];
    if (!why)
        why = unused;
    for (int p = 0; p < b->nseats; p++) {
        award[p] = 0;
        why[p] = "";
        if (count[p] > top)
            top = count[p];
    }
    if (!top)
        return;
    for (int p = 0; p < b->nseats; p++)
        if (count[p] == top)
            ntop++;
    if (ntop > 1) {
        for (int p = 0; p < b->nseats; p++)
            if (count[p] == top) {
                award[p] = silver;
                why[p] = "bumuntu.tied-most";
            }
        return;
    }
    for (int p = 0; p < b->nseats; p++)
        if (count[p] == top) {
            award[p] = gold;
            why[p] = "bumuntu.most";
        } else if (count[p] > second) {
            second = count[p];
        }
    if (!second)
        return;
    for (int p = 0; p < b->nseats; p++)
        nsecond += count[p] == second;
    for (int p = 0; p < b->nseats; p++)
        if (count[p] == second) {
            award[p] = nsecond > 1 ? b->tie_second : silver;
            why[p] = nsecond > 1 ? "bumuntu.tied-second" : "bumuntu.second";
        }
}

/* One line of a player's favor at the end: an animal's spot, Nkisi or Yowa. */
struct favor_line {
    const char *key;  /* bumuntu.favor-per, -majority, -nkisi, -yowa */
    int ability;      /* the animal's; -1: Nkisi or Yowa (the key says) */
    int count, per, award;
    const char *why;  /* a majority's term */
};

static void score_game(struct bumuntu *b, const struct game_table *t, struct game_log *log)
{
    struct favor_line lines[MAX_SEATS][SLOTS + 2];
    int nlines[MAX_SEATS] = { 0 }, award[MAX_SEATS], count[MAX_SEATS];
    const char *why[MAX_SEATS];

    for (int p = 0; p < b->nseats; p++)
        b->score[p] = 0;
    for (int spot = 0; spot < SLOTS; spot++) {
        int slot = b->favor[spot];
        for (int p = 0; p < b->nseats; p++)
            count[p] = tiles_of(b, p, slot);
        if (b->spot_per[spot]) {
            for (int p = 0; p < b->nseats; p++)
                award[p] = count[p] * b->spot_per[spot];
        } else {
            majority(b, count, b->spot_gold[spot], b->spot_silver[spot], award, why);
        }
        for (int p = 0; p < b->nseats; p++) {
            struct favor_line *l;
            if (!award[p])
                continue;
            b->score[p] += award[p];
            l = &lines[p][nlines[p]++];
            *l = (struct favor_line){ b->spot_per[spot] ? "bumuntu.favor-per" : "bumuntu.favor-majority",
                                      b->animal[slot], count[p], b->spot_per[spot], award[p],
                                      b->spot_per[spot] ? "" : why[p] };
        }
    }
    for (int p = 0; p < b->nseats; p++) {
        int n = 0;
        count[p] = 0;
        if (b->resigned & (1u << p))
            continue;
        for (int s = 0; s < SLOTS; s++)
            n += b->shield[p][s][NKISI];
        if (n && b->nkisi[n]) {
            b->score[p] += b->nkisi[n];
            lines[p][nlines[p]++] = (struct favor_line){ "bumuntu.favor-nkisi", -1, n, 0, b->nkisi[n], "" };
        }
        count[p] = 0;
        for (int s = 0; s < SLOTS; s++)
            count[p] += b->shield[p][s][YOWA];
    }
    majority(b, count, b->yowa_gold, b->yowa_silver, award, why);
    for (int p = 0; p < b->nseats; p++)
        if (award[p]) {
            b->score[p] += award[p];
            lines[p][nlines[p]++] = (struct favor_line){ "bumuntu.favor-yowa", -1, count[p], 0, award[p], why[p] };
        }
    /* The table: each player's favor, then where it came from (words
     * only for a log that is read: not a bot's look-ahead). */
    if (!game_log_read(log))
        return;
    game_event(log, 0, "bumuntu.over-favor", EV_END);
    for (int p = 0; p < b->nseats; p++) {
        game_event(log, 1, "bumuntu.favor", EV_STR, "who", bum_seat_name(t, p), EV_INT, "n", b->score[p], EV_END);
        for (int i = 0; i < nlines[p]; i++) {
            const struct favor_line *l = &lines[p][i];
            char term[32];
            if (l->ability >= 0)
                bum_animal_term(l->ability, term);
            else
                snprintf(term, sizeof(term), "%s", str_eq(l->key, "bumuntu.favor-nkisi") ? "bumuntu.nkisi" : "bumuntu.yowa");
            if (*l->why)
                game_event(log, 2, l->key, EV_TERMPAD, "animal", term, 12, EV_INT, "n", l->count, EV_INT, "award",
                           l->award, EV_TERM, "why", l->why, EV_END);
            else
                game_event(log, 2, l->key, EV_TERMPAD, "animal", term, 12, EV_INT, "n", l->count, EV_INT, "per",
                           l->per, EV_INT, "award", l->award, EV_END);
        }
    }
}

/* ---- views --------------------------------------------------------------------------------------- */

static const char *bumuntu_phase(const void *st)
{
    const struct bumuntu *b = st;
    return b->phase == PH_ENTER ? "setup" : "play";
}

static unsigned bumuntu_waiting_for(const void *st)
{
    const struct bumuntu *b = st;
    return b->phase == PH_OVER ? 0u : 1u << b->to_move;
}

/* Whether the views warn of the stall rule: from the 5th round in a row
 * with no tile on (sooner when the rule is set shorter). */
static bool stall_warning(const struct bumuntu *b, int *rounds, int *left)
{
    int active = active_seats(b), turns_left;
    if (b->phase == PH_OVER || b->phase == PH_ENTER || !b->stall_rounds || !b->stall_turns || active < 1)
        return false;
    *rounds = b->stall_turns / active;
    turns_left = b->stall_rounds * active - b->stall_turns;
    *left = turns_left > 0 ? (turns_left + active - 1) / active : 0;
    return *rounds >= (b->stall_rounds > 8 ? 4 : b->stall_rounds / 2);
}

static void shield_text(const struct bumuntu *b, int seat, const struct game_table *t, struct strbuf *out)
{
    struct strbuf list = STRBUF_INIT;
    for (int s = 0; s < SLOTS; s++) {
        if (!tiles_of(b, seat, s))
            continue;
        strbuf_addf(&list, "%s %s", list.len ? "," : "", b->code[s]);
        for (int k = 0; k < KINDS; k++)
            if (b->shield[seat][s][k])
                strbuf_addf(&list, " %c%d", kind_letters[k], b->shield[seat][s][k]);
    }
    phrase_add(out, t ? t->lang : NULL, list.len ? "board.bumuntu.shield" : "board.bumuntu.shield-empty", "who",
               bum_seat_name(t, seat), "list", list.buf, NULL);
    strbuf_release(&list);
}

/* An animal's name in lang (term.bumuntu.lion), into out. */
static void animal_in(int ability, const char *lang, struct strbuf *out)
{
    char term[32], key[40];
    snprintf(key, sizeof(key), "term.%s", bum_animal_term(ability, term));
    phrase_add(out, lang, key, NULL);
}

static void bumuntu_view_ascii(const void *st, int viewer, const struct game_table *t, struct strbuf *out)
{
    const struct bumuntu *b = st;
    static const char files[] = "      a     b     c     d     e     f     g     h\n";
    static const char rule[] = "   +-----+-----+-----+-----+-----+-----+-----+-----+\n";

    strbuf_addstr(out, files);
    strbuf_addstr(out, rule);
    for (int r = N - 1; r >= 0; r--) {
        strbuf_addf(out, " %d |", r + 1);
        for (int f = 0; f < N; f++) {
            int sq = r * N + f, tile = b->board[sq], p = bum_pawn_at(b, sq);
            if (tile >= 0)
                strbuf_addf(out, "%s%c", b->code[bum_tile_slot(tile)], kind_letters[bum_tile_kind(tile)]);
            else
                strbuf_addstr(out, "   ");
            strbuf_addf(out, " %c|", p >= 0 ? '1' + p : ' ');
        }
        strbuf_addf(out, " %d\n", r + 1);
        strbuf_addstr(out, rule);
    }
    const char *lang = t ? t->lang : NULL;
    char n1[16], n2[16], n3[16];
    strbuf_addstr(out, files);
    strbuf_addstr(out, "  ");
    phrase_add(out, lang, "board.bumuntu.legend", NULL);
    strbuf_addstr(out, "\n ");
    for (int s = 0; s < SLOTS; s++) {
        strbuf_addf(out, " %s ", b->code[s]);
        animal_in(b->animal[s], lang, out);
        if (s == 3)
            strbuf_addstr(out, "\n ");
    }
    {
        struct strbuf head = STRBUF_INIT;
        phrase_add(&head, lang, "board.bumuntu.favor-head", NULL);
        strbuf_addstr(out, "\n\n  ");
        strbuf_add_wrapped(out, head.buf, 2, 70);
        strbuf_release(&head);
    }
    for (int spot = 0; spot < SLOTS; spot++) {
        struct strbuf animal = STRBUF_INIT;
        animal_in(b->animal[b->favor[spot]], lang, &animal);
        strbuf_addf(out, "  %d ", spot + 1);
        strbuf_add_padded(out, animal.buf, 12);
        strbuf_addch(out, ' ');
        snprintf(n1, sizeof(n1), "%d", b->spot_per[spot]);
        snprintf(n2, sizeof(n2), "%d", b->spot_gold[spot]);
        snprintf(n3, sizeof(n3), "%d", b->spot_silver[spot]);
        if (b->spot_per[spot])
            phrase_add(out, lang, "board.bumuntu.per-tile", "n", n1, NULL);
        else
            phrase_add(out, lang, "board.bumuntu.gold-silver", "gold", n2, "silver", n3, NULL);
        strbuf_addch(out, '\n');
        strbuf_release(&animal);
    }
    {
        /* The rest of the scoring, as the shields print it. */
        struct strbuf line = STRBUF_INIT, nkisi = STRBUF_INIT;
        for (int n = 1; n <= SLOTS; n++)
            strbuf_addf(&nkisi, "%s%d=%d", n > 1 ? ", " : "", n, b->nkisi[n]);
        snprintf(n1, sizeof(n1), "%d", b->tie_second);
        snprintf(n2, sizeof(n2), "%d", b->yowa_gold);
        snprintf(n3, sizeof(n3), "%d", b->yowa_silver);
        phrase_add(&line, lang, "board.bumuntu.ties", "second", n1, "gold", n2, "silver", n3, "nkisi", nkisi.buf, NULL);
        strbuf_addstr(out, "  ");
        strbuf_add_wrapped(out, line.buf, 2, 70);
        strbuf_release(&line);
        strbuf_release(&nkisi);
    }
    snprintf(n1, sizeof(n1), "%d", b->adv_taken);
    snprintf(n2, sizeof(n2), "%d", b->adv_total);
    strbuf_addstr(out, "  ");
    phrase_add(out, lang, "board.bumuntu.adv-taken", "taken", n1, "total", n2, NULL);
    strbuf_addstr(out, "\n\n");
    for (int p = 0; p < b->nseats; p++) {
        struct strbuf on = STRBUF_INIT;
        char name[16];
        if (b->pawn[p] >= 0) {
            char sq[4], tile_code[16];
            int tile = b->board[b->pawn[p]];
            bum_name_sq(b->pawn[p], sq);
            /* The tile under the pawn: the animal it may use. */
            if (tile >= 0) {
                snprintf(tile_code, sizeof(tile_code), "%s%c", b->code[bum_tile_slot(tile)],
                         kind_letters[bum_tile_kind(tile)]);
                phrase_add(&on, lang, "board.bumuntu.on", "sq", sq, "tile", tile_code, NULL);
            } else
                phrase_add(&on, lang, "board.bumuntu.on-none", "sq", sq, NULL);
        } else
            phrase_add(&on, lang, "board.bumuntu.not-in", NULL);
        snprintf(name, sizeof(name), "%-14.14s", bum_seat_name(t, p));
        snprintf(n1, sizeof(n1), "%2d", total_tiles(b, p));
        snprintf(n2, sizeof(n2), "%2d", b->chips[p]);
        strbuf_addf(out, "  %d %s ", p + 1, name);
        strbuf_add_padded(out, on.buf, 13);
        strbuf_addch(out, ' ');
        phrase_add(out, lang, "board.bumuntu.tiles", "n", n1, NULL);
        strbuf_addch(out, ' ');
        phrase_add(out, lang, "board.bumuntu.chips", "n", n2, NULL);
        /* At the end the favor; before it, who plays first. */
        if (b->phase == PH_OVER) {
            snprintf(n3, sizeof(n3), "%d", b->score[p]);
            strbuf_addstr(out, "  ");
            phrase_add(out, lang, "board.bumuntu.favor", "n", n3, NULL);
        } else if (p == b->first) {
            strbuf_addstr(out, "  ");
            phrase_add(out, lang, "board.bumuntu.first", NULL);
        }
        strbuf_addch(out, '\n');
        strbuf_release(&on);
    }
    if (viewer >= 0 && viewer < b->nseats) {
        struct strbuf sh = STRBUF_INIT;
        shield_text(b, viewer, t, &sh);
        strbuf_addstr(out, "  ");
        strbuf_add_wrapped(out, sh.buf, 4, 70);
        strbuf_release(&sh);
    }
    {
        int rounds, left;
        if (stall_warning(b, &rounds, &left)) {
            snprintf(n1, sizeof(n1), "%d", rounds);
            snprintf(n2, sizeof(n2), "%d", left);
            strbuf_addstr(out, "  ");
            phrase_add(out, lang, "board.bumuntu.stall-warning", "n", n1, "left", n2, NULL);
            strbuf_addch(out, '\n');
        } else if (b->stalled) {
            snprintf(n1, sizeof(n1), "%d", b->stall_rounds);
            strbuf_addstr(out, "  ");
            phrase_add(out, lang, "board.bumuntu.stalled", "n", n1, NULL);
            strbuf_addch(out, '\n');
        }
    }
    if (b->phase != PH_OVER) {
        static const char *const what[] = { "board.bumuntu.to-enter", "board.bumuntu.to-food", "board.bumuntu.to-move",
                                            "board.bumuntu.to-tile", "board.bumuntu.to-swap" };
        struct strbuf line = STRBUF_INIT;
        phrase_add(&line, lang, what[b->phase], "who", bum_seat_name(t, b->to_move), NULL);
        strbuf_addstr(out, "  ");
        strbuf_add_wrapped(out, line.buf, 4, 70);
        strbuf_release(&line);
    }
}

static cJSON *bumuntu_view_json(const void *st, int viewer, const struct game_table *t)
{
    const struct bumuntu *b = st;
    cJSON *j = cJSON_CreateObject(), *rows = cJSON_CreateArray(), *favor = cJSON_CreateArray();
    cJSON *players = cJSON_CreateArray();

    cJSON_AddStringToObject(j, "phase", phase_names[b->phase]);
    for (int r = N - 1; r >= 0; r--) {
        cJSON *row = cJSON_CreateArray();
        for (int f = 0; f < N; f++) {
            int tile = b->board[r * N + f];
            char cell[8] = "";
            if (tile >= 0)
                snprintf(cell, sizeof(cell), "%s%c", b->code[bum_tile_slot(tile)], kind_letters[bum_tile_kind(tile)]);
            cJSON_AddItemToArray(row, cJSON_CreateString(cell));
        }
        cJSON_AddItemToArray(rows, row);
    }
    cJSON_AddItemToObject(j, "rows", rows); /* rank 8 first, files a-h */
    for (int spot = 0; spot < SLOTS; spot++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "animal", animal_rules[b->animal[b->favor[spot]]].name);
        if (b->spot_per[spot])
            cJSON_AddNumberToObject(o, "per_tile", b->spot_per[spot]);
        else {
            cJSON_AddNumberToObject(o, "gold", b->spot_gold[spot]);
            cJSON_AddNumberToObject(o, "silver", b->spot_silver[spot]);
        }
        cJSON_AddItemToArray(favor, o);
    }
    cJSON_AddItemToObject(j, "favor", favor);
    {
        cJSON *scoring = cJSON_CreateObject();
        cJSON_AddItemToObject(scoring, "nkisi", jx_int_array_new(b->nkisi, SLOTS + 1)); /* favor for 0..8 */
        cJSON_AddNumberToObject(scoring, "yowa_gold", b->yowa_gold);
        cJSON_AddNumberToObject(scoring, "yowa_silver", b->yowa_silver);
        cJSON_AddNumberToObject(scoring, "tie_for_second", b->tie_second);
        cJSON_AddItemToObject(j, "scoring", scoring);
    }
    for (int p = 0; p < b->nseats; p++) {
        cJSON *o = cJSON_CreateObject();
        char sq[4] = "";
        if (b->pawn[p] >= 0)
            bum_name_sq(b->pawn[p], sq);
        cJSON_AddStringToObject(o, "player", bum_seat_name(t, p));
        cJSON_AddStringToObject(o, "square", sq);
        if (b->pawn[p] >= 0 && b->board[b->pawn[p]] >= 0) {
            int tile = b->board[b->pawn[p]];
            cJSON *under = cJSON_CreateObject();
            cJSON_AddStringToObject(under, "animal", animal_rules[b->animal[bum_tile_slot(tile)]].name);
            cJSON_AddStringToObject(under, "kind", kind_names[bum_tile_kind(tile)]);
            cJSON_AddItemToObject(o, "tile", under);
        }
        cJSON_AddNumberToObject(o, "tiles", total_tiles(b, p));
        cJSON_AddNumberToObject(o, "chips", b->chips[p]);
        if (b->phase == PH_OVER)
            cJSON_AddNumberToObject(o, "favor", b->score[p]);
        if (p == viewer) {
            struct strbuf sh = STRBUF_INIT;
            cJSON *shield = cJSON_CreateObject();
            for (int s = 0; s < SLOTS; s++) {
                if (!tiles_of(b, p, s))
                    continue;
                cJSON *k = cJSON_CreateObject();
                for (int x = 0; x < KINDS; x++)
                    if (b->shield[p][s][x])
                        cJSON_AddNumberToObject(k, kind_names[x], b->shield[p][s][x]);
                cJSON_AddItemToObject(shield, animal_rules[b->animal[s]].name, k);
            }
            cJSON_AddItemToObject(o, "shield", shield);
            shield_text(b, p, t, &sh);
            cJSON_AddStringToObject(o, "shield_text", sh.buf);
            strbuf_release(&sh);
        }
        cJSON_AddItemToArray(players, o);
    }
    cJSON_AddItemToObject(j, "players", players);
    cJSON_AddNumberToObject(j, "advancement_taken", b->adv_taken);
    cJSON_AddNumberToObject(j, "advancement_total", b->adv_total);
    {
        cJSON *stall = cJSON_CreateObject();
        int rounds = 0, left = 0;
        cJSON_AddNumberToObject(stall, "limit", b->stall_rounds);
        cJSON_AddNumberToObject(stall, "turns", b->stall_turns);
        cJSON_AddBoolToObject(stall, "warning", stall_warning(b, &rounds, &left));
        cJSON_AddNumberToObject(stall, "rounds_left", left);
        cJSON_AddBoolToObject(stall, "ended_game", b->stalled);
        cJSON_AddItemToObject(j, "stall", stall);
    }
    if (b->phase != PH_OVER)
        cJSON_AddStringToObject(j, "to_move", bum_seat_name(t, b->to_move));
    return j;
}

static void bumuntu_result(const void *st, struct game_result *r)
{
    const struct bumuntu *b = st;
    int best = -1;
    memset(r, 0, sizeof(*r));
    r->finished = b->phase == PH_OVER;
    r->ended = (enum game_end)b->ended;
    r->has_scores = r->finished && b->ended != GAME_END_ABANDONED && !game_end_agreed(b->ended);
    r->score_name = "favor";
    game_result_agreed(r, b->ended, b->agreed);
    if (!r->has_scores)
        return;
    for (int p = 0; p < b->nseats; p++) {
        r->scores[p] = b->score[p];
        if (!(b->resigned & (1u << p)) && b->score[p] > best)
            best = b->score[p];
    }
    for (int p = 0; p < b->nseats; p++)
        if (!(b->resigned & (1u << p)) && b->score[p] == best)
            r->winners |= 1u << p;
}

/* The rules have no way to leave: a resigning player's pawn leaves the
 * jungle with her shield, her turns are passed over, and she cannot win.
 * With one player left the game ends and is scored. */
static void bumuntu_resign(void *st, int seat, const struct game_table *t, struct game_log *log)
{
    struct bumuntu *b = st;
    struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
    struct order_ctx o = { b, seat, t, log, &log->priv[seat], &canon, &why };
    if (b->phase == PH_OVER || (b->resigned & (1u << seat)))
        return;
    stall_forget(b, seat);
    b->resigned |= 1u << seat;
    b->pawn[seat] = -1;
    game_event(log, 0, log->dropped ? "bumuntu.dropped" : "bumuntu.resigns", EV_STR, "who", bum_seat_name(t, seat),
               EV_END);
    if (active_seats(b) < 2) {
        b->phase = PH_OVER;
        score_game(b, t, log);
    } else if (b->to_move == seat) {
        if (b->phase == PH_ENTER) {
            entering_goes_on(&o, seat);
        } else {
            start_turn(&o, next_seat(b, seat));
        }
    }
    strbuf_release(&canon);
    strbuf_release(&why);
}

static void bumuntu_when(const void *st, const struct game_table *t, struct game_when *w)
{
    const struct bumuntu *b = st;
    (void)t;
    w->unit = "round";
    w->number = b->phase == PH_ENTER ? 0 : b->round;
    if (b->phase == PH_ENTER)
        snprintf(w->phase, sizeof(w->phase), "entering");
}

/* Ended by the host: scored as if the last advancement tile had been
 * taken, or abandoned. */
static void bumuntu_end(void *st, enum game_end how, unsigned agreed, const struct game_table *t, struct game_log *log)
{
    bool score = how == GAME_END_SCORED;
    struct bumuntu *b = st;
    if (b->phase == PH_OVER)
        return;
    b->phase = PH_OVER;
    b->collect = -1;
    b->ended = how;
    b->agreed = agreed;
    if (game_end_agreed(how))
        return;
    if (score)
        score_game(b, t, log);
    else
        game_event(log, 0, "bumuntu.abandoned", EV_END);
}

static void bumuntu_secrets(const void *st, int seat, const struct game_table *t, struct strlist *out)
{
    struct strbuf sh = STRBUF_INIT;
    shield_text(st, seat, t, &sh);
    strlist_push(out, sh.buf);
    strbuf_release(&sh);
}

/* The favor one would score if the game ended now, against the best of
 * the others'; a chip and a tile to stand on are worth a little. */
static long long bumuntu_evaluate(const void *st, int seat)
{
    const struct bumuntu *b = st;
    struct bumuntu copy = *b;
    long long best = -1, mine;
    score_game(&copy, NULL, NULL); /* the score, no words */
    for (int p = 0; p < b->nseats; p++)
        if (p != seat && !(b->resigned & (1u << p)) && copy.score[p] > best)
            best = copy.score[p];
    mine = copy.score[seat];
    if (b->phase == PH_OVER)
        return mine > best ? 100000 : mine == best ? 0 : -100000;
    return (mine - best) * 100 + b->chips[seat] * 30 +
           (b->pawn[seat] >= 0 && b->board[b->pawn[seat]] >= 0 ? 50 : 0);
}

/* The state is one block: a copy is a copy of its bytes. */
static void *bumuntu_clone(const void *st)
{
    return xmemdup(st, sizeof(struct bumuntu));
}

const struct game_ops bumuntu_ops = {
    .name = "bumuntu",
    .title = "Bumuntu",
    .summary = "Tribal leaders walk a jungle of animal tiles, using each animal's ability to win favor (2-5 players).",
    .min_seats = 2,
    .max_seats = 5,
    .options =
        (const struct game_option[]){
            { "animals", "beginner",
              "the 8 animals in play, comma separated (default: the rulebook's beginner set: Giraffe, Zebra, "
              "Chimpanzee, Tarantula, Lion, Crocodile, Black Mamba, Elephant)",
              0 },
            { "data", "bumuntu.json", "the data file (in seeds/, or a path): animal codes, tiles, favor values",
              OPTION_HOST | OPTION_FILE },
            { "stall_rounds", "10",
              "house rule: the game ends and is scored after this many full rounds with no tile collected "
              "(0: never)",
              0 },
            { NULL, NULL, NULL, 0 },
        },
    .setup = bumuntu_setup,
    .free = free, /* the state is one block */
    .clone = bumuntu_clone,
    .to_json = bumuntu_to_json,
    .from_json = bumuntu_from_json,
    .phase = bumuntu_phase,
    .waiting_for = bumuntu_waiting_for,
    .check = bumuntu_check,
    .advance = bumuntu_advance,
    .legal = bumuntu_legal,
    .summarize = bumuntu_summarize,
    .view_json = bumuntu_view_json,
    .view_ascii = bumuntu_view_ascii,
    .result = bumuntu_result,
    .resign = bumuntu_resign,
    .when = bumuntu_when,
    .end = bumuntu_end,
    .evaluate = bumuntu_evaluate,
    .secrets = bumuntu_secrets,
};
