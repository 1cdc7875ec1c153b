/* check_african_empires.c: African Empires scenarios: the deck, setup, plays, collapse, every event, scoring ranks, reshuffle, the end. */
#include "test_support.h"

#include "lib/jsonx.h"
#include "lib/paths.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const struct game_ops african_empires_ops;
static const struct game_ops *ops = &african_empires_ops;
static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan" };
static const struct game_table table = { 4, names, NULL };

static int card_id(cJSON *j, const char *name)
{
    cJSON *c;
    int i = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "cards")) {
        if (str_eq(c->valuestring + 2, name))
            return i;
        i++;
    }
    ck_abort_msg("no card %s", name);
    return -1;
}

static int kingdom_id(cJSON *j, const char *name)
{
    cJSON *k;
    int i = 0;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(j, "kingdoms")) {
        if (str_eq(k->valuestring, name))
            return i;
        i++;
    }
    ck_abort_msg("no kingdom %s", name);
    return -1;
}

/*
 * A 3-player position: kingdoms in the slots ("Mali Oyo Axum", "-" an empty
 * slot), each slot's chits "G E R D", each slot's counters per seat, the
 * hands ("Dynasty|Famine" per seat), the phase and the seat to act, the
 * marker holder. The deck holds every other card in the data's order
 * (its top is the last), the discard pile nothing, unless `discard` names
 * how many of the deck to move there.
 */
struct spec {
    const char *slots;
    int chits[3][4];
    int counters[3][3];
    const char *hands[3];
    const char *phase;
    int actor, marker;
    int vt[3];
    int deck_left; /* -1: all the others */
};

static void *build(const struct spec *sp)
{
    struct strbuf err = STRBUF_INIT;
    void *st = ops->setup(NULL, 3, 1, &err);
    ck_assert_msg(st != NULL, "%s", err.buf);
    cJSON *j = ops->to_json(st);
    ops->free(st);
    int ncards = cJSON_GetArraySize(cJSON_GetObjectItem(j, "cards")), used[256] = { 0 }, slots[3];
    cJSON *hands = cJSON_CreateArray(), *deck = cJSON_CreateArray(), *discard = cJSON_CreateArray();
    unsigned usedk = 0;
    for (int s = 0; s < 3; s++) {
        cJSON *h = cJSON_CreateArray();
        char buf[256], *save = NULL;
        snprintf(buf, sizeof(buf), "%s", sp->hands[s] ? sp->hands[s] : "");
        for (char *tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
            int c = card_id(j, tok);
            used[c] = 1;
            cJSON_AddItemToArray(h, cJSON_CreateNumber(c));
        }
        cJSON_AddItemToArray(hands, h);
    }
    int left = sp->deck_left;
    for (int c = 0; c < ncards; c++) {
        if (used[c])
            continue;
        if (left == 0)
            cJSON_AddItemToArray(discard, cJSON_CreateNumber(c));
        else {
            cJSON_AddItemToArray(deck, cJSON_CreateNumber(c));
            if (left > 0)
                left--;
        }
    }
    {
        char buf[128], *save = NULL;
        int s = 0;
        snprintf(buf, sizeof(buf), "%s", sp->slots);
        for (char *tok = strtok_r(buf, " ", &save); tok && s < 3; tok = strtok_r(NULL, " ", &save), s++) {
            slots[s] = str_eq(tok, "-") ? -1 : kingdom_id(j, tok);
            if (slots[s] >= 0)
                usedk |= 1u << slots[s];
        }
    }
    cJSON *ch = cJSON_CreateArray(), *co = cJSON_CreateArray();
    for (int s = 0; s < 3; s++) {
        cJSON_AddItemToArray(ch, jx_int_array_new(sp->chits[s], 4));
        cJSON_AddItemToArray(co, jx_int_array_new(sp->counters[s], 3));
    }
    cJSON_ReplaceItemInObject(j, "hands", hands);
    cJSON_ReplaceItemInObject(j, "deck", deck);
    cJSON_ReplaceItemInObject(j, "discard", discard);
    cJSON_ReplaceItemInObject(j, "slots", jx_int_array_new(slots, 3));
    cJSON_ReplaceItemInObject(j, "used", cJSON_CreateNumber(usedk));
    cJSON_ReplaceItemInObject(j, "chits", ch);
    cJSON_ReplaceItemInObject(j, "counters", co);
    cJSON_ReplaceItemInObject(j, "vt", jx_int_array_new(sp->vt, 3));
    cJSON_ReplaceItemInObject(j, "phase", cJSON_CreateString(sp->phase));
    cJSON_ReplaceItemInObject(j, "actor", cJSON_CreateNumber(sp->actor));
    cJSON_ReplaceItemInObject(j, "marker", cJSON_CreateNumber(sp->marker));
    char *text = jx_print(j);
    st = t_state(ops, text);
    free(text);
    cJSON_Delete(j);
    strbuf_release(&err);
    return st;
}

static char *play(void *st, int seat, const char *order)
{
    return t_play(ops, st, &table, seat, order);
}

static void refused(void *st, int seat, const char *order, const char *reason)
{
    t_refused(ops, st, &table, seat, order, reason);
}

static int get2(void *st, const char *key, int i, int k)
{
    cJSON *j = ops->to_json(st), *v = cJSON_GetArrayItem(cJSON_GetObjectItem(j, key), i);
    int x = k < 0 ? v->valueint : cJSON_GetArrayItem(v, k)->valueint;
    cJSON_Delete(j);
    return x;
}

#define LOG_HAS(log, text) ck_assert_msg(strstr(log, text) != NULL, "log lacks \"%s\":\n%s", text, log)

/* ---- the data ------------------------------------------------------------------------------ */

/* Names must tell cards apart as orders read them (case, spaces and
 * marks aside): the seeds' deck with a card named again at its end,
 * named in the refusal; with a name of its own the deck is taken. */
START_TEST(two_cards_of_one_name_are_refused)
{
    struct strbuf err = STRBUF_INIT;
    char *seeds = data_path("seeds", "african-empires.json");
    cJSON *d = jx_load_file(seeds, FILE_MAX_DATA, &err), *cards;
    ck_assert_msg(d != NULL, "%s", err.buf);
    cards = cJSON_GetObjectItem(d, "cards");
    for (int twin = 0; twin < 2; twin++) {
        char path[] = "/tmp/ngoma-ae-XXXXXX";
        int fd = mkstemp(path);
        cJSON *card = cJSON_CreateObject(), *o = cJSON_CreateObject(), *copy = cJSON_Duplicate(d, 1);
        cJSON_AddStringToObject(card, "name", twin ? "medieval-EMPIRE" : "Medieval Kingdom Anew");
        cJSON_AddStringToObject(card, "type", "G");
        ck_assert(cJSON_AddItemToArray(cJSON_GetObjectItem(copy, "cards"), card));
        char *text = cJSON_Print(copy);
        ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
        close(fd);
        cJSON_AddStringToObject(o, "data", path);
        strbuf_reset(&err);
        void *st = ops->setup(o, 3, 1, &err);
        if (twin) {
            ck_assert_ptr_null(st);
            ck_assert_msg(strstr(err.buf, "two cards are called \"medieval-EMPIRE\"") != NULL, "%s", err.buf);
        } else {
            ck_assert_msg(st != NULL, "%s", err.buf);
            ops->free(st);
        }
        free(text);
        cJSON_Delete(o);
        cJSON_Delete(copy);
        unlink(path);
    }
    ck_assert_int_gt(cJSON_GetArraySize(cards), 100);
    cJSON_Delete(d);
    free(seeds);
    strbuf_release(&err);
}
END_TEST

START_TEST(the_deck_matches_the_rulebook)
{
    struct strbuf err = STRBUF_INIT;
    char *path = data_path("seeds", "african-empires.json");
    cJSON *d = jx_load_file(path, FILE_MAX_DATA, &err), *c;
    int count[256] = { 0 }, n = 0;
    ck_assert_msg(d != NULL, "%s", err.buf);
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(d, "cards")) {
        count[(unsigned char)cJSON_GetObjectItem(c, "type")->valuestring[0]]++;
        n++;
    }
    /* The rulebook's list: 166 cards. */
    ck_assert_int_eq(n, 166);
    ck_assert_int_eq(count['G'], 40);
    ck_assert_int_eq(count['R'], 40);
    ck_assert_int_eq(count['E'], 40);
    ck_assert_int_eq(count['D'], 38);
    ck_assert_int_eq(count['M'], 8);
    static const char *const kingdoms[] = { "Yoruba", "Ghana",    "Bornu", "Kanem", "Songhai", "Mali",
                                            "Makuria", "Ethiopia", "Wolof", "Axum",  "Benin",   "Oyo" };
    cJSON *k = cJSON_GetObjectItem(d, "kingdoms");
    ck_assert_int_eq(cJSON_GetArraySize(k), 12);
    for (int i = 0; i < 12; i++)
        ck_assert_str_eq(cJSON_GetArrayItem(k, i)->valuestring, kingdoms[i]);
    cJSON_Delete(d);
    free(path);
    strbuf_release(&err);
}
END_TEST

START_TEST(setup_deals_kingdoms_cards_and_the_marker)
{
    struct strbuf err = STRBUF_INIT;
    unsigned markers = 0;
    for (int seed = 1; seed <= 20; seed++) {
        void *st = ops->setup(NULL, 5, (uint64_t)seed, &err);
        ck_assert_ptr_nonnull(st);
        cJSON *j = ops->to_json(st);
        cJSON *slots = cJSON_GetObjectItem(j, "slots");
        ck_assert_int_eq(cJSON_GetArraySize(slots), 5); /* X kingdoms for X players */
        for (int a = 0; a < 5; a++)
            for (int b = 0; b < a; b++)
                ck_assert_int_ne(cJSON_GetArrayItem(slots, a)->valueint, cJSON_GetArrayItem(slots, b)->valueint);
        for (int s = 0; s < 5; s++)
            ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "hands"), s)), 3);
        ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "deck")), 166 - 15);
        markers |= 1u << cJSON_GetObjectItem(j, "marker")->valueint;
        cJSON_Delete(j);
        ops->free(st);
    }
    ck_assert_int_gt(__builtin_popcount(markers), 2); /* the marker goes to a random player */
    cJSON *o = cJSON_CreateObject();
    ck_assert_ptr_null(ops->setup(o, 2, 1, &err));
    ck_assert(strstr(err.buf, "3 to 6 players") != NULL);
    cJSON_Delete(o);
    strbuf_release(&err);
}
END_TEST

/* ---- play phases --------------------------------------------------------------------------- */

START_TEST(a_play_places_a_counter_and_a_chit)
{
    struct spec sp = { "Mali Oyo Axum", { { 0 } }, { { 0 } },
                       { "Dynasty|Famine|Berbers", "Timbuktu|Markets|Treachery", "Oracles|Duties|Collapse" },
                       "play1", 0, 0, { 0 }, -1 };
    void *st = build(&sp);
    refused(st, 1, "PLAY Timbuktu ON Mali", "not your turn");
    refused(st, 0, "PLAY Timbuktu ON Mali", "no card in your hand");
    refused(st, 0, "PLAY Dynasty ON Ghana", "not a kingdom in play");
    refused(st, 0, "EVENT Dynasty", "first play phase");
    char *log = play(st, 0, "play dyn on mal"); /* a short, unambiguous form */
    LOG_HAS(log, "Ann plays Dynasty (Government) on Mali: a counter and a chit.");
    ck_assert_int_eq(get2(st, "counters", 0, 0), 1);
    ck_assert_int_eq(get2(st, "chits", 0, 0), 1);
    free(log);
    log = play(st, 1, "PLAY Treachery ON Oyo");
    LOG_HAS(log, "a counter and a Disaster chit");
    ck_assert_int_eq(get2(st, "chits", 1, 3), 1);
    free(log);
    log = play(st, 2, "PLAY Duties ON Axum");
    LOG_HAS(log, "The second play phase begins.");
    free(log);
    /* A Migrant places a counter only. */
    log = play(st, 0, "PLAY Berbers ON Axum");
    LOG_HAS(log, "Ann plays Berbers (Migrant) on Axum: a counter.");
    ck_assert_int_eq(get2(st, "counters", 2, 0), 1);
    ck_assert_int_eq(get2(st, "chits", 2, 0) + get2(st, "chits", 2, 1) + get2(st, "chits", 2, 2), 1);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(the_fifth_disaster_destroys_a_kingdom)
{
    struct spec sp = { "Mali Oyo Axum", { { 2, 1, 3, 4 } }, { { 2, 1, 0 } },
                       { "Famine|Dynasty|Oracles", "Timbuktu", "Duties" }, "play1", 0, 0, { 0 }, -1 };
    void *st = build(&sp);
    char *log = play(st, 0, "PLAY Famine ON Mali");
    LOG_HAS(log, "The fifth disaster destroys Mali: its chits and counters are gone.");
    LOG_HAS(log, "rises in its place.");
    int k = get2(st, "slots", 0, -1);
    ck_assert_int_ge(k, 0);
    ck_assert_int_ne(k, 5); /* a kingdom never in play before */
    for (int x = 0; x < 4; x++)
        ck_assert_int_eq(get2(st, "chits", 0, x), 0);
    for (int p = 0; p < 3; p++)
        ck_assert_int_eq(get2(st, "counters", 0, p), 0);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(with_no_kingdom_left_the_place_stays_empty)
{
    struct spec sp = { "Mali Oyo Axum", { { 0, 0, 0, 4 } }, { { 0 } },
                       { "Famine|Dynasty|Oracles", "Timbuktu|Markets", "Duties|Customs" }, "play1", 0, 0, { 0 }, -1 };
    void *st = build(&sp);
    /* Every other kingdom has been in play already. */
    cJSON *j = ops->to_json(st);
    cJSON_ReplaceItemInObject(j, "used", cJSON_CreateNumber(0xfff));
    char *text = jx_print(j);
    ops->free(st);
    st = t_state(ops, text);
    free(text);
    cJSON_Delete(j);
    char *log = play(st, 0, "PLAY Famine ON Mali");
    LOG_HAS(log, "No kingdom is left to draw: the place stays empty.");
    ck_assert_int_eq(get2(st, "slots", 0, -1), -1);
    free(log);
    refused(st, 1, "PLAY Timbuktu ON Mali", "not a kingdom in play");
    struct strlist l = STRLIST_INIT;
    ops->legal(st, 1, &table, &l);
    for (size_t i = 0; i < l.n; i++)
        ck_assert(strstr(l.v[i], "Mali") == NULL);
    strlist_clear(&l);
    ops->free(st);
}
END_TEST

/* ---- events ------------------------------------------------------------------------------------ */

START_TEST(every_event_does_what_its_card_says)
{
    /* The event phase: Ann, Bob and Cleo each hold one card. */
    struct spec sp = { "Mali Oyo Axum", { { 2, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 0 } }, { { 1, 2, 0 }, { 0, 0, 0 } },
                       { "Dynasty", "Berbers", "Treachery" }, "event", 0, 0, { 0 }, -1 };
    void *st = build(&sp);
    refused(st, 0, "EVENT Dynasty MOVE Religion FROM Mali TO Oyo", "Mali has no Religion chit");
    refused(st, 0, "EVENT Dynasty MOVE Government FROM Mali TO Mali", "two different kingdoms");
    refused(st, 0, "EVENT Dynasty", "has a target now");
    refused(st, 0, "PLAY Dynasty ON Mali", "event phase");
    char *log = play(st, 0, "EVENT MOVE gov FROM mali TO axum"); /* the one card needs no name */
    LOG_HAS(log, "a Government chit moves from Mali to Axum.");
    ck_assert_int_eq(get2(st, "chits", 0, 0), 1);
    ck_assert_int_eq(get2(st, "chits", 2, 0), 1);
    free(log);
    /* Migrant: any player's counter. */
    refused(st, 1, "EVENT Berbers MOVE Cleo FROM Mali TO Oyo", "Mali has no counter of Cleo");
    log = play(st, 1, "EVENT Berbers MOVE Ann FROM Mali TO Oyo");
    LOG_HAS(log, "a counter of Ann moves from Mali to Oyo.");
    ck_assert_int_eq(get2(st, "counters", 1, 0), 1);
    free(log);
    /* Disaster: a resource chit is discarded. */
    log = play(st, 2, "EVENT Treachery DISCARD Religion FROM Oyo");
    LOG_HAS(log, "a Religion chit of Oyo is discarded.");
    ck_assert_int_eq(get2(st, "chits", 1, 2), 0);
    LOG_HAS(log, "Score phase (");
    free(log);
    ops->free(st);

    struct spec sp2 = { "Mali Oyo Axum", { { 0 } }, { { 0 } }, { "Timbuktu", "Markets", "Treachery" }, "event", 0, 0,
                        { 0 }, -1 };
    st = build(&sp2);
    /* Religion: 2 VT, no target. */
    log = play(st, 0, "EVENT Timbuktu");
    LOG_HAS(log, "Ann plays Timbuktu (Religion) as an event: 2 VT.");
    ck_assert_int_eq(get2(st, "vt", 0, -1), 2);
    free(log);
    /* Economy: a resource chit of any type. */
    log = play(st, 1, "EVENT Markets PLACE Religion ON Axum");
    LOG_HAS(log, "a Religion chit is placed on Axum.");
    free(log);
    /* Disaster with a chit to discard (Axum's Religion): it must take it. */
    refused(st, 2, "EVENT Treachery", "has a target now");
    ops->free(st);

    /* No resource chit anywhere: a Disaster event has no target and no effect. */
    struct spec sp3 = { "Mali Oyo Axum", { { 0 } }, { { 0 } }, { "Treachery", "Markets", "Oracles" }, "event", 0, 0,
                        { 0 }, -1 };
    st = build(&sp3);
    struct strlist l = STRLIST_INIT;
    ops->legal(st, 0, &table, &l);
    ck_assert_uint_eq(l.n, 1);
    ck_assert_str_eq(l.v[0], "EVENT Treachery");
    strlist_clear(&l);
    log = play(st, 0, "EVENT Treachery");
    LOG_HAS(log, "it has no target, no effect.");
    free(log);
    ops->free(st);
}
END_TEST

/* ---- scoring --------------------------------------------------------------------------------------- */

START_TEST(scoring_ranks_counters_with_the_marker_breaking_ties)
{
    /*
     * The last event of a turn, then scoring. Melds sorted: Mali 3/2/1,
     * Oyo 4/0/0, Axum 2/2/0. The marker is Bob's (seat 1): ties go Bob,
     * Cleo, Ann.
     *   Mali: Ann 2, Bob 2, Cleo 1 counters: Bob (tie, marker first) 3,
     *         Ann 2, Cleo 1.
     *   Oyo:  Cleo 1, Ann 1: Cleo (after Bob, before Ann) 4, Ann 0 (empty meld).
     *   Axum: Ann 3 alone: 2; the second and third melds find nobody.
     */
    struct spec sp = { "Mali Oyo Axum", { { 1, 2, 3, 0 }, { 4, 0, 0, 0 }, { 2, 0, 2, 0 } },
                       { { 2, 2, 1 }, { 1, 0, 1 }, { 3, 0, 0 } }, { "Timbuktu", "", "" }, "event", 2, 1, { 0 }, -1 };
    void *st = build(&sp);
    char *log = play(st, 0, "EVENT Timbuktu");
    /* Every line shows the counters in rank order and the tie-break. */
    LOG_HAS(log, "Score phase (equal counters rank in seat order from Bob, who holds the\nKing's Marker):");
    LOG_HAS(log, "Mali, melds 3/2/1. Counters: Bob 2, Ann 2, Cleo 1. VT: Bob 3, Ann 2,\n    Cleo 1.");
    LOG_HAS(log, "Oyo, melds 4/0/0. Counters: Cleo 1, Ann 1. VT: Cleo 4, Ann 0.");
    LOG_HAS(log, "Axum, melds 2/2/0. Counters: Ann 3. VT: Ann 2.");
    ck_assert_int_eq(get2(st, "vt", 0, -1), 2 + 2 + 0 + 2); /* with Timbuktu's 2 */
    ck_assert_int_eq(get2(st, "vt", 1, -1), 3);
    ck_assert_int_eq(get2(st, "vt", 2, -1), 1 + 4);
    /* The end phase: no winner yet; the marker passes left; a new turn is dealt. */
    LOG_HAS(log, "The King's Marker passes to Cleo.");
    LOG_HAS(log, "Turn 2: each player draws 3 cards; Cleo plays first.");
    ck_assert_uint_eq(ops->waiting_for(st), 4u);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(the_deck_is_reshuffled_when_it_runs_out)
{
    /* Two cards left in the deck, the rest discarded: the deal needs nine. */
    struct spec sp = { "Mali Oyo Axum", { { 0 } }, { { 0 } }, { "Timbuktu", "", "" }, "event", 2, 1, { 0 }, 2 };
    void *st = build(&sp);
    char *log = play(st, 0, "EVENT Timbuktu");
    LOG_HAS(log, "The deck is used up: the");
    LOG_HAS(log, "discarded cards are shuffled into a new deck.");
    cJSON *j = ops->to_json(st);
    int total = cJSON_GetArraySize(cJSON_GetObjectItem(j, "deck")) + cJSON_GetArraySize(cJSON_GetObjectItem(j, "discard"));
    for (int s = 0; s < 3; s++) {
        int n = cJSON_GetArraySize(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "hands"), s));
        ck_assert_int_eq(n, 3);
        total += n;
    }
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "discard")), 0);
    ck_assert_int_eq(total, 166); /* no card lost or doubled */
    cJSON_Delete(j);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(over_100_vt_ends_the_game_and_a_tie_goes_by_the_marker)
{
    /* Ann and Cleo both end on 103 VT; the marker is Bob's, so Cleo
     * (next after Bob) comes before Ann: Cleo wins. */
    struct spec sp = { "Mali Oyo Axum", { { 3, 0, 0, 0 } }, { { 0, 0, 1 } }, { "Timbuktu", "", "" }, "event", 2, 1,
                       { 101, 50, 100 }, -1 };
    void *st = build(&sp);
    char *log = play(st, 0, "EVENT Timbuktu");
    struct game_result r;
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_int_eq(r.scores[0], 103);
    ck_assert_int_eq(r.scores[2], 103);
    ck_assert_uint_eq(r.winners, 4u);
    LOG_HAS(log, "the game is over. Cleo wins the tie on 103 VT, broken in seat order from the King's Marker");
    /* The result says the tie was broken, and how. */
    ck_assert_uint_eq(r.tied, 5u);
    ck_assert_str_eq(r.tie_rule, "in seat order from the King's Marker holder");
    ck_assert_int_eq(r.tie_from, 1);
    ck_assert_uint_eq(ops->waiting_for(st), 0u);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(hands_and_the_deck_stay_secret)
{
    struct spec sp = { "Mali Oyo Axum", { { 0 } }, { { 0 } }, { "Dynasty|Famine|Berbers", "Timbuktu|Markets|Treachery",
                                                               "Oracles|Duties|Collapse" },
                       "play1", 0, 0, { 0 }, -1 };
    void *st = build(&sp);
    for (int viewer = -1; viewer < 3; viewer++) {
        struct strbuf out = STRBUF_INIT;
        cJSON *j = ops->view_json(st, viewer, &table);
        char *text = jx_print(j);
        ops->view_ascii(st, viewer, &table, &out);
        ck_assert((strstr(out.buf, "Dynasty") != NULL) == (viewer == 0));
        ck_assert((strstr(text, "Dynasty") != NULL) == (viewer == 0));
        ck_assert((strstr(out.buf, "Timbuktu") != NULL) == (viewer == 1));
        ck_assert(strstr(text, "deck\":[") == NULL); /* only the deck's size */
        free(text);
        cJSON_Delete(j);
        strbuf_release(&out);
    }
    ops->free(st);
}
END_TEST

START_TEST(a_card_name_must_be_unambiguous)
{
    struct spec sp = { "Mali Oyo Axum", { { 0 } }, { { 0 } }, { "Markets|Muslim Merchants|Mosques", "", "" }, "play1", 0,
                       0, { 0 }, -1 };
    void *st = build(&sp);
    refused(st, 0, "PLAY m ON Mali", "fits more than one of your cards");
    char *log = play(st, 0, "PLAY muslim ON Mali");
    LOG_HAS(log, "Muslim Merchants");
    free(log);
    ops->free(st);
}
END_TEST

/* ---- resigning in every phase ---------------------------------------------------------------- */

static int hand_size(void *st, int seat)
{
    cJSON *j = ops->to_json(st);
    int n = cJSON_GetArraySize(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "hands"), seat));
    cJSON_Delete(j);
    return n;
}

static const char *phase_now(void *st)
{
    static char buf[16];
    cJSON *j = ops->to_json(st);
    snprintf(buf, sizeof(buf), "%s", cJSON_GetObjectItem(j, "phase")->valuestring);
    cJSON_Delete(j);
    return buf;
}

static char *resign(void *st, int seat)
{
    struct game_log log;
    game_log_init(&log);
    ops->resign(st, seat, &table, &log);
    char *text = xstrdup(log.pub.buf);
    game_log_release(&log);
    return text;
}

/* Plays the first legal order of seat. */
static void play_any(void *st, int seat)
{
    struct strlist l = STRLIST_INIT;
    ops->legal(st, seat, &table, &l);
    ck_assert(l.n > 0);
    free(play(st, seat, l.v[0]));
    strlist_clear(&l);
}

/* The seat the game waits for has exactly `cards` cards and some legal order. */
static void waits_for(void *st, int seat, int cards)
{
    struct strlist l = STRLIST_INIT;
    ck_assert_msg(ops->waiting_for(st) == 1u << seat, "waits for mask %u, not seat %d", ops->waiting_for(st), seat);
    ck_assert_int_eq(hand_size(st, seat), cards);
    ops->legal(st, seat, &table, &l);
    ck_assert_msg(l.n > 0, "seat %d has no legal order", seat);
    strlist_clear(&l);
}

/* Ann (0) holds the marker and acts first, then Bob (1), then Cleo (2).
 * Hands: three cards before the first play phase, one fewer for each
 * card played. */
START_TEST(the_last_to_act_resigning_ends_the_phase_at_once)
{
    /* The first play phase, Cleo to act last: she leaves, the second play
     * phase begins with Ann, and nobody plays twice. */
    struct spec p1 = { "Mali Oyo Axum", { { 0 } }, { { 0 } },
                       { "Dynasty|Famine", "Timbuktu|Markets", "Oracles|Duties|Collapse" }, "play1", 2, 0, { 0 }, -1 };
    void *st = build(&p1);
    char *log = resign(st, 2);
    LOG_HAS(log, "Cleo resigns: her counters leave the kingdoms.");
    LOG_HAS(log, "The second play phase begins.");
    ck_assert_str_eq(phase_now(st), "play2");
    ck_assert_int_eq(hand_size(st, 2), 0); /* her cards went to the discard pile */
    waits_for(st, 0, 2);
    free(play(st, 0, "PLAY Dynasty ON Mali"));
    waits_for(st, 1, 2);
    free(play(st, 1, "PLAY Timbuktu ON Oyo"));
    ck_assert_str_eq(phase_now(st), "event");
    waits_for(st, 0, 1);
    free(log);
    ops->free(st);

    /* The second play phase, Cleo last: the event phase begins with Ann. */
    struct spec p2 = { "Mali Oyo Axum", { { 0 } }, { { 0 } }, { "Dynasty", "Timbuktu", "Oracles|Duties" }, "play2",
                       2, 0, { 0 }, -1 };
    st = build(&p2);
    log = resign(st, 2);
    LOG_HAS(log, "The event phase begins.");
    waits_for(st, 0, 1);
    free(log);
    ops->free(st);

    /* The event phase, Cleo last: scoring, the end phase and the next
     * draw follow at once; Bob, who holds the marker now, plays first. */
    struct spec ev = { "Mali Oyo Axum", { { 2, 1, 0, 0 } }, { { 1, 0, 0 } }, { "", "", "Timbuktu" }, "event", 2, 0,
                       { 10, 20, 30 }, -1 };
    st = build(&ev);
    log = resign(st, 2);
    LOG_HAS(log, "Score phase (");
    LOG_HAS(log, "Mali, melds 2/1/0. Counters: Ann 1. VT: Ann 2.");
    LOG_HAS(log, "The King's Marker passes to Bob.");
    ck_assert_str_eq(phase_now(st), "play1");
    waits_for(st, 1, 3);
    ck_assert_int_eq(hand_size(st, 0), 3);
    play_any(st, 1);
    waits_for(st, 0, 3);
    play_any(st, 0);
    ck_assert_str_eq(phase_now(st), "play2");
    waits_for(st, 1, 2);
    free(log);
    ops->free(st);
}
END_TEST

START_TEST(a_resignation_before_the_end_of_a_phase_passes_her_over)
{
    /* Bob, acting in the first play phase, leaves: Cleo acts now. */
    struct spec p1 = { "Mali Oyo Axum", { { 0 } }, { { 0 } },
                       { "Dynasty|Famine", "Timbuktu|Markets|Treachery", "Oracles|Duties|Collapse" }, "play1", 1, 0,
                       { 0 }, -1 };
    void *st = build(&p1);
    free(resign(st, 1));
    ck_assert_str_eq(phase_now(st), "play1");
    waits_for(st, 2, 3);
    free(play(st, 2, "PLAY Oracles ON Axum"));
    waits_for(st, 0, 2);
    ck_assert_str_eq(phase_now(st), "play2");
    ops->free(st);

    /* Cleo, who has not acted yet in the event phase, leaves while Ann
     * acts: Ann, then Bob, then the scoring. */
    struct spec ev = { "Mali Oyo Axum", { { 0 } }, { { 0 } }, { "Timbuktu", "Oracles", "Duties" }, "event", 0, 0,
                       { 0 }, -1 };
    st = build(&ev);
    free(resign(st, 2));
    waits_for(st, 0, 1);
    free(play(st, 0, "EVENT Timbuktu"));
    waits_for(st, 1, 1);
    char *log = play(st, 1, "EVENT Oracles");
    LOG_HAS(log, "Score phase (");
    ck_assert_str_eq(phase_now(st), "play1");
    free(log);
    ops->free(st);

    /* Ann, the marker holder, leaves after playing in the second play
     * phase while Bob acts: the marker passes to Bob at once, Bob and
     * Cleo finish the phase, and the event phase begins with Bob. */
    struct spec p2 = { "Mali Oyo Axum", { { 0 } }, { { 0 } }, { "Dynasty", "Timbuktu|Markets", "Oracles|Duties" },
                       "play2", 1, 0, { 0 }, -1 };
    st = build(&p2);
    log = resign(st, 0);
    LOG_HAS(log, "The King's Marker passes to Bob.");
    waits_for(st, 1, 2);
    free(play(st, 1, "PLAY Timbuktu ON Mali"));
    waits_for(st, 2, 2);
    free(play(st, 2, "PLAY Oracles ON Mali"));
    ck_assert_str_eq(phase_now(st), "event");
    waits_for(st, 1, 1);
    free(log);
    ops->free(st);

    /* The second to leave ends the game: the last player wins. */
    struct spec last = { "Mali Oyo Axum", { { 0 } }, { { 0 } }, { "Dynasty", "Timbuktu", "Oracles|Duties" }, "play2",
                         2, 0, { 5, 9, 1 }, -1 };
    st = build(&last);
    free(resign(st, 2));
    log = resign(st, 0);
    LOG_HAS(log, "Bob is the last player left and wins.");
    struct game_result r;
    ops->result(st, &r);
    ck_assert(r.finished);
    ck_assert_uint_eq(r.winners, 2u);
    free(log);
    ops->free(st);
}
END_TEST

Suite *african_empires_suite(void)
{
    Suite *s = suite_create("african-empires");
    TCase *tc = tcase_create("african-empires");
    tcase_add_test(tc, the_deck_matches_the_rulebook);
    tcase_add_test(tc, two_cards_of_one_name_are_refused);
    tcase_add_test(tc, setup_deals_kingdoms_cards_and_the_marker);
    tcase_add_test(tc, a_play_places_a_counter_and_a_chit);
    tcase_add_test(tc, the_fifth_disaster_destroys_a_kingdom);
    tcase_add_test(tc, with_no_kingdom_left_the_place_stays_empty);
    tcase_add_test(tc, every_event_does_what_its_card_says);
    tcase_add_test(tc, scoring_ranks_counters_with_the_marker_breaking_ties);
    tcase_add_test(tc, the_deck_is_reshuffled_when_it_runs_out);
    tcase_add_test(tc, over_100_vt_ends_the_game_and_a_tie_goes_by_the_marker);
    tcase_add_test(tc, hands_and_the_deck_stay_secret);
    tcase_add_test(tc, a_card_name_must_be_unambiguous);
    tcase_add_test(tc, the_last_to_act_resigning_ends_the_phase_at_once);
    tcase_add_test(tc, a_resignation_before_the_end_of_a_phase_passes_her_over);
    suite_add_tcase(s, tc);
    return s;
}
