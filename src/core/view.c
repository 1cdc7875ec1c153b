/* view.c: what one seat (or an observer) sees of a game: its board and status, as text and as JSON. */
#include "core/view.h"
#include "lib/catalog.h"
#include "lib/template.h"
#include "render/render.h"
#include "core/seed.h"
#include "store/db.h"
#include "lib/jsonx.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void view_add_players(cJSON *j, const struct game_table *t, int viewer)
{
    cJSON *players = cJSON_CreateArray();
    for (int i = 0; i < t->nseats; i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "seat", i + 1);
        cJSON_AddStringToObject(p, "name", t->names[i]);
        cJSON_AddItemToArray(players, p);
    }
    cJSON_AddItemToObject(j, "players", players);
    if (viewer >= 0)
        cJSON_AddStringToObject(j, "viewer", t->names[viewer]);
}

cJSON *view_json(sqlite3 *db, struct game_rec *g, int viewer)
{
    cJSON *j = cJSON_CreateObject(), *waiting = cJSON_CreateArray();
    cJSON *result = game_result_json(g), *w;
    unsigned missing = 0;

    cJSON_AddNumberToObject(j, "game", (double)g->id);
    cJSON_AddStringToObject(j, "module", g->ops->name);
    cJSON_AddStringToObject(j, "title", g->ops->title);
    cJSON_AddStringToObject(j, "status", game_status_of(g->ops, g->st));
    cJSON_AddNumberToObject(j, "turn", g->turn); /* steps resolved */
    cJSON_AddStringToObject(j, "phase", game_phase_of(g->ops, g->st));
    {
        struct game_when gw;
        char text[128];
        cJSON *when = cJSON_CreateObject();
        game_when_of(g->ops, g->st, &g->table, g->turn, &gw);
        game_when_text(&gw, text);
        cJSON_AddStringToObject(when, "unit", gw.unit);
        cJSON_AddNumberToObject(when, "number", gw.number);
        if (gw.of)
            cJSON_AddNumberToObject(when, "of", gw.of);
        if (*gw.phase)
            cJSON_AddStringToObject(when, "phase", gw.phase);
        cJSON_AddStringToObject(when, "text", text);
        cJSON_AddItemToObject(j, "when", when);
    }
    if (game_missing(db, g, &missing)) {
        cJSON_Delete(j);
        cJSON_Delete(result);
        cJSON_Delete(waiting);
        return NULL;
    }
    for (int i = 0; i < g->nseats; i++)
        if (missing & (1u << i))
            cJSON_AddItemToArray(waiting, cJSON_CreateString(g->names[i]));
    cJSON_AddItemToObject(j, "waiting_for", waiting);
    view_add_players(j, &g->table, viewer);
    w = cJSON_DetachItemFromObjectCaseSensitive(result, "winners");
    cJSON_AddItemToObject(j, "winners", w);
    if (cJSON_HasObjectItem(result, "scores")) {
        cJSON_AddItemToObject(j, "scores", cJSON_DetachItemFromObjectCaseSensitive(result, "scores"));
        cJSON_AddItemToObject(j, "score_name", cJSON_DetachItemFromObjectCaseSensitive(result, "score_name"));
    }
    cJSON_Delete(result);
    cJSON_AddItemToObject(j, "view", g->ops->view_json(g->st, viewer, &g->table));
    if (*g->commitment) {
        /* What lets anyone check the shuffles: the seed only at the end. */
        cJSON *f = cJSON_CreateObject();
        struct strbuf origin = STRBUF_INIT;
        cJSON_AddStringToObject(f, "commitment", g->commitment);
        cJSON_AddItemToObject(f, "salts", cJSON_Duplicate(g->salts, 1));
        seed_origin_text(g->ops, g->options, g->seed_chosen, LANG_ENGLISH, &origin);
        cJSON_AddStringToObject(f, "origin", origin.buf);
        strbuf_release(&origin);
        if (str_eq(game_status_of(g->ops, g->st), "finished")) {
            char seed[24]; /* as text: a JSON number would round it */
            snprintf(seed, sizeof(seed), "%lld", (long long)g->base_seed);
            cJSON_AddStringToObject(f, "seed", seed);
        }
        cJSON_AddItemToObject(j, "fairness", f);
    }
    return j;
}

void view_who_was_who(const struct game_rec *g, const char *lang, struct strbuf *out)
{
    struct strbuf pairs = STRBUF_INIT, line = STRBUF_INIT;
    if (!str_eq(game_status_of(g->ops, g->st), "finished"))
        return;
    for (int i = 0; i < g->nseats; i++)
        if (g->seats[i].real_name) {
            if (pairs.len)
                strbuf_addstr(&pairs, ", ");
            phrase_add(&pairs, lang, "view.was", "title", g->names[i], "name", g->seats[i].real_name, NULL);
        }
    if (pairs.len) {
        phrase_add(&line, lang, "view.who-was-who", "pairs", pairs.buf, NULL);
        strbuf_add_flowed(out, line.buf, 0, 72);
    }
    strbuf_release(&pairs);
    strbuf_release(&line);
}

void view_fairness(const struct game_rec *g, const char *lang, struct strbuf *out)
{
    struct strbuf line = STRBUF_INIT, salts = STRBUF_INIT;
    const cJSON *s;
    bool over = str_eq(game_status_of(g->ops, g->st), "finished");
    int i = 0;
    char seed[24];
    if (!*g->commitment)
        return;
    phrase_add(out, lang, "fair.commitment", NULL);
    strbuf_addf(out, "\n  %s\n", g->commitment);
    /* The players' salts, each by her name. */
    cJSON_ArrayForEach(s, g->salts) {
        if (cJSON_IsString(s) && *s->valuestring && i < g->nseats)
            strbuf_addf(&salts, "%s %s \"%s\"", salts.len ? "," : "", g->names[i], s->valuestring);
        i++;
    }
    if (salts.len) {
        phrase_add(&line, lang, "fair.salts", "salts", salts.buf, NULL);
        strbuf_add_flowed(out, line.buf, 2, 72);
    }
    strbuf_reset(&line);
    /* Who chose what: only a seed ngoma drew is called unchosen. */
    seed_origin_text(g->ops, g->options, g->seed_chosen, lang, &line);
    strbuf_add_flowed(out, line.buf, 0, 72);
    strbuf_reset(&line);
    snprintf(seed, sizeof(seed), "%lld", (long long)g->base_seed);
    phrase_add(&line, lang, over ? "fair.seed" : "fair.revealed", "seed", seed, NULL);
    strbuf_add_flowed(out, line.buf, 0, 72);
    strbuf_release(&line);
    strbuf_release(&salts);
}

int view_status_line(sqlite3 *db, struct game_rec *g, const char *lang, struct strbuf *out)
{
    struct game_result r;
    unsigned missing;
    struct strbuf names = STRBUF_INIT, tie = STRBUF_INIT;
    char n[16];

    g->ops->result(g->st, &r);
    if (r.finished) {
        int winners = __builtin_popcount(r.winners);
        const char *host = r.ended == GAME_END_SCORED ? "yes" : "";
        game_names_in(g, r.winners, lang, &names);
        snprintf(n, sizeof(n), "%d", winners);
        if (r.ended == GAME_END_ABANDONED)
            phrase_add(out, lang, "status.abandoned", NULL);
        else if (r.ended == GAME_END_DRAWN)
            phrase_add(out, lang, "status.drawn", "names", names.buf, NULL);
        else if (r.ended == GAME_END_CONCEDED)
            phrase_add(out, lang, "status.conceded", "names", names.buf, NULL);
        else if (winners == 0)
            phrase_add(out, lang, "status.nobody", "host", host, NULL);
        else if (winners == g->nseats && winners > 1)
            phrase_add(out, lang, "status.all-share", "host", host, NULL);
        else {
            if (r.tied && r.tie_rule) {
                /* A tie-break decided: said, and how it was broken. */
                struct strbuf tied = STRBUF_INIT;
                char score[16] = "";
                game_names_in(g, r.tied, lang, &tied);
                if (r.has_scores)
                    snprintf(score, sizeof(score), "%d", r.scores[__builtin_ctz(r.winners)]);
                /* The unit and the rule in her words, where the catalogue
                 * has the game's (score-name.GAME, tie-rule.GAME). */
                const char *unit = catalog_term(lang, "score-name.", g->ops->name, r.score_name ? r.score_name : "points");
                const char *rule = catalog_term(lang, "tie-rule.", g->ops->name, r.tie_rule);
                phrase_add(&tie, lang, r.has_scores ? "status.tie-on-scores" : "status.tie", "tied", tied.buf, "score",
                           score, "unit", unit, "rule", rule, "from",
                           r.tie_from >= 0 && r.tie_from < g->nseats ? g->names[r.tie_from] : "", NULL);
                strbuf_release(&tied);
            }
            phrase_add(out, lang, "status.wins", "n", n, "names", names.buf, "host", host, "tie", tie.buf, NULL);
        }
        strbuf_release(&names);
        strbuf_release(&tie);
        return 0;
    }
    if (game_missing(db, g, &missing))
        return -1;
    game_names_in(g, missing, lang, &names);
    phrase_add(out, lang, "status.waiting", "names", names.buf, NULL);
    strbuf_release(&names);
    return 0;
}

int view_ascii(sqlite3 *db, struct game_rec *g, int viewer, struct strbuf *out)
{
    return view_ascii_in(db, g, viewer, viewer >= 0 && viewer < g->nseats ? g->seats[viewer].lang : LANG_ENGLISH, out);
}

int view_ascii_in(sqlite3 *db, struct game_rec *g, int viewer, const char *lang, struct strbuf *out)
{
    struct game_when w;
    char when[128], game[24];
    game_when_of(g->ops, g->st, &g->table, g->turn, &w);
    game_when_in(&w, lang, when);
    snprintf(game, sizeof(game), "%lld", (long long)g->id);
    phrase_add(out, lang, "board.head", "game", game, "title", g->ops->title, "over",
               str_eq(game_status_of(g->ops, g->st), "finished") ? "yes" : "", "when", when, NULL);
    strbuf_addch(out, '\n');
    phrase_add(out, lang, "board.players", NULL);
    size_t col = 8;
    for (int i = 0; i < g->nseats; i++) {
        struct strbuf label = STRBUF_INIT;
        game_seat_label_in(g, i, lang, &label);
        size_t len = label.len + 5;
        if (col + len > 72) {
            strbuf_addstr(out, "\n        ");
            col = 8;
        }
        strbuf_addf(out, " %d %s%s", i + 1, label.buf, i + 1 < g->nseats ? "," : "");
        col += len;
        strbuf_release(&label);
    }
    strbuf_addstr(out, "\n\n");
    {
        /* The board's own words in her language. */
        struct game_table t = game_table_in(g, lang);
        g->ops->view_ascii(g->st, viewer, &t, out);
    }
    strbuf_complete_line(out);
    strbuf_addch(out, '\n');
    if (view_status_line(db, g, lang, out))
        return -1;
    strbuf_addch(out, '\n');
    return 0;
}

int view_load_turn(sqlite3 *db, struct game_rec *g, int turn)
{
    struct strbuf err = STRBUF_INIT;
    char *text = NULL;
    cJSON *j;
    void *st;
    int rc = db_get_text(db, &text, "SELECT state FROM turns WHERE game_id = ? AND turn = ? AND rolled_back = 0",
                         "Ii", g->id, turn);
    if (rc <= 0)
        return rc < 0 ? -1 : error("game %lld has no turn %d (it is at turn %d)", (long long)g->id, turn, g->turn);
    j = jx_parse(text, "state", &err);
    free(text);
    st = j ? g->ops->from_json(j, &err) : NULL;
    cJSON_Delete(j);
    if (!st) {
        error("turn %d of game %lld is damaged: %s", turn, (long long)g->id, err.buf);
        strbuf_release(&err);
        return -1;
    }
    g->ops->free(g->st);
    g->st = st;
    g->turn = turn;
    strbuf_release(&err);
    return 0;
}

cJSON *view_module_at(sqlite3 *db, const struct game_rec *g, int step, int viewer)
{
    struct strbuf err = STRBUF_INIT;
    char *text = NULL;
    cJSON *j, *v = NULL;
    void *st;
    if (step < 0 || db_get_text(db, &text, "SELECT state FROM turns WHERE game_id = ? AND turn = ? AND rolled_back = 0",
                                "Ii", g->id, step) <= 0)
        return NULL;
    j = jx_parse(text, "state", &err);
    free(text);
    if (j && (st = g->ops->from_json(j, &err))) {
        v = g->ops->view_json(st, viewer, &g->table);
        g->ops->free(st);
    }
    cJSON_Delete(j);
    strbuf_release(&err);
    return v;
}

void view_picture_words(cJSON *view, const char *lang, struct strbuf *alt)
{
    char when[128];
    const char *english = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(view, "when"), "text"));
    game_when_text_in(english ? english : "", lang, when);
    render_alt(view, lang, when, alt);
    if (lang) {
        cJSON_AddStringToObject(view, "lang", lang_code(lang));
        cJSON_AddStringToObject(view, "when_text", when);
    }
}
