/* check_public.c: what each rulebook makes public is in every view: per game, the public items read from the state and looked for in every seat's board and the observer's, at every other step of the games check_termination.c plays. */
#include "test_support.h"
#include "playout.h"

#include "lib/jsonx.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "lib/words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus" };

static int ival(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    ck_assert_msg(cJSON_IsNumber(v), "no number %s in the state", key);
    return v->valueint;
}

static int at(const cJSON *j, const char *key, int i)
{
    const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, key), i);
    ck_assert_msg(cJSON_IsNumber(v), "no %s[%d] in the state", key, i);
    return v->valueint;
}

static int at2(const cJSON *j, const char *key, int i, int k)
{
    const cJSON *v = cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, key), i), k);
    ck_assert_msg(cJSON_IsNumber(v), "no %s[%d][%d] in the state", key, i, k);
    return v->valueint;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/*
 * Kalimambo (the clarifications): every card played is face up, so each
 * player's cards in hand are public, and Kali's remaining cards as a set;
 * the points, and the cards played last round.
 */
static void kalimambo_items(const cJSON *j, int nseats, struct strlist *out)
{
    const cJSON *deck = cJSON_GetObjectItemCaseSensitive(j, "kali_deck");
    int left[16], n = cJSON_GetArraySize(deck);
    struct strbuf sb = STRBUF_INIT;
    for (int s = 0; s < nseats; s++) {
        const cJSON *hand = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "hands"), s), *c;
        if ((ival(j, "resigned") >> s) & 1)
            continue;
        strbuf_reset(&sb);
        strbuf_addf(&sb, "%s %d pts cards:", names[s], at(j, "scores", s));
        cJSON_ArrayForEach(c, hand)
            strbuf_addf(&sb, " %d", c->valueint);
        if (!cJSON_GetArraySize(hand))
            strbuf_addstr(&sb, " none");
        if (at(j, "last", s) >= 0)
            strbuf_addf(&sb, " last %d", at(j, "last", s));
        strlist_push(out, sb.buf);
    }
    for (int i = 0; i < n && i < 16; i++)
        left[i] = at(j, "kali_deck", i);
    qsort(left, (size_t)n, sizeof(int), cmp_int);
    strbuf_reset(&sb);
    strbuf_addstr(&sb, "Kali's cards left:");
    for (int i = 0; i < n; i++)
        strbuf_addf(&sb, " %d", left[i]);
    if (!n)
        strbuf_addstr(&sb, " none");
    strlist_push(out, sb.buf);
    strbuf_release(&sb);
}

/*
 * Bumuntu: the board and the pawns, so the tile under each pawn; the
 * favor board, its values per tile or gold and silver; the Nkisi chart,
 * the Yowa values and the tie rules; the advancement tiles taken; how many
 * tiles and chips each holds (the shield hides which).
 */
static void bumuntu_items(const cJSON *j, int nseats, struct strlist *out)
{
    static const char *const animals[] = { "Giraffe",   "Chimpanzee",  "Zebra",      "Flamingo", "Tarantula",
                                           "Lion",      "Crocodile",   "Black Mamba", "Rhinoceros", "Elephant" };
    struct strbuf sb = STRBUF_INIT;
    const cJSON *codes = cJSON_GetObjectItemCaseSensitive(j, "codes");
    for (int spot = 0; spot < 8; spot++) {
        strbuf_reset(&sb);
        strbuf_addf(&sb, "%d %s ", spot + 1, animals[at(j, "animals", at(j, "favor", spot))]);
        if (at(j, "spot_per", spot))
            strbuf_addf(&sb, "%d per tile", at(j, "spot_per", spot));
        else
            strbuf_addf(&sb, "gold %d, silver %d", at(j, "spot_gold", spot), at(j, "spot_silver", spot));
        strlist_push(out, sb.buf);
    }
    strbuf_reset(&sb);
    strbuf_addf(&sb, "A tie for most: silver to each; for second: %d each. Yowa: gold %d, silver %d. Nkisi:",
                ival(j, "tie_second"), ival(j, "yowa_gold"), ival(j, "yowa_silver"));
    for (int n = 1; n <= 8; n++)
        strbuf_addf(&sb, " %d=%d%s", n, at(j, "nkisi", n), n == 8 ? " favor." : ",");
    strlist_push(out, sb.buf);
    strbuf_reset(&sb);
    strbuf_addf(&sb, "Advancement tiles taken: %d of %d.", ival(j, "adv_taken"), ival(j, "adv_total"));
    strlist_push(out, sb.buf);
    for (int p = 0; p < nseats; p++) {
        int pawn = at(j, "pawns", p), tiles = 0;
        for (int k = 0; k < 32; k++)
            tiles += at2(j, "shields", p, k);
        strbuf_reset(&sb);
        strbuf_addf(&sb, "%d %s ", p + 1, names[p]);
        if (pawn < 0) {
            strbuf_addstr(&sb, "not in yet");
        } else {
            char sq[4];
            int tile = at(j, "board", pawn);
            square_name(pawn % 8, pawn / 8, sq);
            if (tile >= 0)
                strbuf_addf(&sb, "on %s (%s%c)", sq, cJSON_GetArrayItem(codes, tile / 4)->valuestring, "AFNY"[tile % 4]);
            else
                strbuf_addf(&sb, "on %s (none)", sq);
        }
        strbuf_addf(&sb, " %d tile%s %d chip%s", tiles, tiles == 1 ? "" : "s", at(j, "chips", p),
                    at(j, "chips", p) == 1 ? "" : "s");
        strlist_push(out, sb.buf);
    }
    strbuf_release(&sb);
}

/*
 * African Empires: every kingdom in play with its chits of each type, its
 * Disaster chits against the collapse and every player's counters on it;
 * each player's VT and number of cards; the King's Marker (it breaks the
 * ties); the deck and the discard pile.
 */
static void african_empires_items(const cJSON *j, int nseats, struct strlist *out)
{
    struct strbuf sb = STRBUF_INIT;
    for (int s = 0; s < nseats; s++) {
        int k = at(j, "slots", s);
        if (k < 0)
            continue;
        strbuf_reset(&sb);
        strbuf_addf(&sb, "%s %d %d %d %d/%d", cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "kingdoms"), k)->valuestring,
                    at2(j, "chits", s, 0), at2(j, "chits", s, 1), at2(j, "chits", s, 2), at2(j, "chits", s, 3),
                    ival(j, "collapse_at"));
        for (int p = 0; p < nseats; p++)
            strbuf_addf(&sb, " %d", at2(j, "counters", s, p));
        strlist_push(out, sb.buf);
    }
    for (int p = 0; p < nseats; p++) {
        int cards = cJSON_GetArraySize(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "hands"), p));
        strbuf_reset(&sb);
        strbuf_addf(&sb, "P%d %s %d VT %d card%s%s", p + 1, names[p], at(j, "vt", p), cards, cards == 1 ? "" : "s",
                    p == ival(j, "marker") ? " King's Marker" : "");
        strlist_push(out, sb.buf);
    }
    strbuf_reset(&sb);
    strbuf_addf(&sb, "Deck %d cards, discard pile %d.", cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "deck")),
                cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "discard")));
    strlist_push(out, sb.buf);
    strbuf_release(&sb);
}

/* KuniUmi: the board, every piece on it, and the tokens each has left. */
static void kuniumi_items(const cJSON *j, int nseats, struct strlist *out)
{
    const char *board = cJSON_GetObjectItemCaseSensitive(j, "board")->valuestring;
    int land = ival(j, "land_seat");
    struct strbuf sb = STRBUF_INIT;
    (void)nseats;
    if (land < 0)
        return; /* no factions before the choice */
    for (int f = 0; f < 2; f++) {
        int seat = f == 0 ? land : 1 - land, used = 0;
        for (const char *p = board; *p; p++)
            used += *p == (f == 0 ? 'l' : 's');
        strbuf_reset(&sb);
        strbuf_addf(&sb, "%s %s %d token%s in hand", f == 0 ? "Land" : "Sea", names[seat], 17 - used,
                    17 - used == 1 ? "" : "s");
        strlist_push(out, sb.buf);
    }
    strbuf_release(&sb);
}

/* Bantu: where every piece is (the board) and how many are home. */
static void bantu_items(const cJSON *j, int nseats, struct strlist *out)
{
    struct strbuf sb = STRBUF_INIT;
    int pieces = ival(j, "pieces");
    for (int s = 0; s < nseats; s++) {
        int home = 0;
        for (int k = 0; k < pieces; k++)
            home += at2(j, "positions", s, k) == -2;
        strbuf_reset(&sb);
        strbuf_addf(&sb, "%s %d of %d home", names[s], home, pieces);
        strlist_push(out, sb.buf);
    }
    strbuf_release(&sb);
}

static const struct public_game {
    const char *game;
    void (*items)(const cJSON *state, int nseats, struct strlist *out);
} games[] = {
    { "kalimambo", kalimambo_items }, { "bumuntu", bumuntu_items }, { "african-empires", african_empires_items },
    { "kuniumi", kuniumi_items },     { "bantu", bantu_items },
};

/* A check of playout.h, run on the games check_termination.c plays: at
 * every other step and at the end, every item public by the rules is in
 * every seat's view and the observer's. arg is a struct public_look. */
void public_check(struct playout *p, unsigned w, int steps, void *arg)
{
    struct public_look *look = arg;
    const struct public_game *pg = NULL;
    cJSON *j;
    struct strlist items = STRLIST_INIT;
    if (steps % 2 != 0 && w)
        return;
    for (size_t i = 0; i < ARRAY_SIZE(games) && !pg; i++)
        if (str_eq(games[i].game, p->ops->name))
            pg = &games[i];
    CHECK(pg != NULL, "check_public.c has no public items of %s", p->ops->name);
    j = p->ops->to_json(playout_state(p));
    pg->items(j, p->t->nseats, &items);
    for (int viewer = -1; viewer < p->t->nseats; viewer++) {
        struct strbuf view = STRBUF_INIT;
        char *text;
        p->ops->view_ascii(playout_state(p), viewer, p->t, &view);
        text = t_flat(view.buf);
        for (size_t i = 0; i < items.n; i++)
            CHECK(strstr(text, items.v[i]) != NULL, "%s, step %d: the view of seat %d lacks \"%s\":\n%s", p->what,
                  steps, viewer + 1, items.v[i], view.buf);
        look->looked += (int)items.n;
        free(text);
        strbuf_release(&view);
    }
    strlist_clear(&items);
    cJSON_Delete(j);
}

/* Every game of the registry has its public items here. */
START_TEST(every_game_has_its_public_items)
{
    const char *listed[ARRAY_SIZE(games)];
    for (size_t i = 0; i < ARRAY_SIZE(games); i++)
        listed[i] = games[i].game;
    t_covers_registry("check_public.c", listed, ARRAY_SIZE(games));
}
END_TEST

Suite *public_suite(void)
{
    Suite *s = suite_create("public");
    TCase *tc = tcase_create("public");
    tcase_add_test(tc, every_game_has_its_public_items);
    suite_add_tcase(s, tc);
    return s;
}
