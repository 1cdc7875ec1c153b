/* site.c: the public record as a static web site: an index of games, each game's history with the observer's picture of every step, its result and its verification data. */
#include "site/site.h"
#include "judge/press.h"
#include "core/gamerec.h"
#include "core/reply.h"
#include "core/verify.h"
#include "core/history.h"
#include "core/view.h"
#include "lib/lexicon.h"
#include "lib/jsonx.h"
#include "lib/paths.h"
#include "lib/catalog.h"
#include "lib/template.h"
#include "lib/util.h"
#include "render/render.h"
#include "store/db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STAMP ".ngoma-site"

static int write_text(const char *dir, const char *name, const char *text, struct strbuf *err)
{
    struct strbuf path = STRBUF_INIT;
    int rc;
    strbuf_addf(&path, "%s/%s", dir, name);
    rc = file_write_atomic(path.buf, text, strlen(text), err);
    strbuf_release(&path);
    return rc;
}

int site_write_template(const struct site_lang *l, const char *name, const char *tmpl, cJSON *data,
                        struct strbuf *err)
{
    struct strbuf out = STRBUF_INIT;
    cJSON *langs = cJSON_CreateArray();
    int rc;
    /* The same page in every language, hers first named as hers. */
    for (size_t i = 0; lang_at(i); i++) {
        cJSON *o = cJSON_CreateObject();
        struct strbuf href = STRBUF_INIT;
        const char *code = lang_at(i)->code;
        strbuf_addf(&href, "%s%s%s%s", l->root, i ? code : "", i ? "/" : "", name);
        cJSON_AddStringToObject(o, "code", code);
        cJSON_AddStringToObject(o, "name", lang_at(i)->own_name);
        cJSON_AddStringToObject(o, "href", href.buf);
        cJSON_AddBoolToObject(o, "current", str_eq(code, lang_code(l->lang)));
        cJSON_AddItemToArray(langs, o);
        strbuf_release(&href);
    }
    cJSON_DeleteItemFromObjectCaseSensitive(data, "languages");
    cJSON_DeleteItemFromObjectCaseSensitive(data, "lang");
    cJSON_DeleteItemFromObjectCaseSensitive(data, "root");
    cJSON_AddItemToObject(data, "languages", langs);
    cJSON_AddStringToObject(data, "lang", lang_code(l->lang));
    cJSON_AddStringToObject(data, "root", l->root);
    rc = template_render_file(tmpl, data, l->lang, &out, err) || write_text(l->dir, name, out.buf, err);
    strbuf_release(&out);
    return rc;
}

/* What core view_json would give an observer at a stored step: the
 * observer's view made afresh from the step's snapshot (a view stored by
 * an older ngoma may lack what pictures need), else the stored one. */
static cJSON *observer_view(const struct game_rec *g, const char *state, const char *public_view, const char *when,
                            bool finished)
{
    struct strbuf err = STRBUF_INIT;
    cJSON *v = cJSON_CreateObject(), *w = cJSON_CreateObject(), *mv = NULL;
    cJSON *sj = jx_parse(state, "state", &err);
    void *st = sj ? g->ops->from_json(sj, &err) : NULL;
    if (st) {
        mv = g->ops->view_json(st, -1, &g->table);
        g->ops->free(st);
    }
    cJSON_Delete(sj);
    if (!mv)
        mv = jx_parse(public_view, "view", &err);
    cJSON_AddNumberToObject(v, "game", (double)g->id);
    cJSON_AddStringToObject(v, "module", g->ops->name);
    cJSON_AddStringToObject(v, "title", g->ops->title);
    cJSON_AddStringToObject(v, "status", finished ? "finished" : "active");
    cJSON_AddStringToObject(w, "text", when ? when : "");
    cJSON_AddItemToObject(v, "when", w);
    view_add_players(v, &g->table, -1);
    cJSON_AddItemToObject(v, "view", mv ? mv : cJSON_CreateObject());
    strbuf_release(&err);
    return v;
}

/* Draws one step's picture unless it is there already (a step's row id
 * never changes what it shows). */
static int picture(const char *dir, const struct game_rec *g, int64_t row, const cJSON *view, const cJSON *prev,
                   char name[64], struct site_stats *st, struct strbuf *err)
{
    struct strbuf path = STRBUF_INIT;
    struct render_out out;
    struct stat sb;
    int rc = 0;
    snprintf(name, 64, "game-%lld/step-%lld.png", (long long)g->id, (long long)row);
    strbuf_addf(&path, "%s/%s", dir, name);
    if (stat(path.buf, &sb) == 0) {
        strbuf_release(&path);
        return 0;
    }
    render_out_init(&out);
    if (render_board(view, prev, &out, err) == 0) {
        rc = file_write_atomic(path.buf, out.png.buf, out.png.len, err);
        st->pictures += rc == 0;
    } else {
        /* A board ngoma cannot draw: the page says so, nothing breaks. */
        error("game %lld: step %lld: no picture: %s", (long long)g->id, (long long)row, err->buf);
        strbuf_reset(err);
        name[0] = '\0';
    }
    render_out_release(&out);
    strbuf_release(&path);
    return rc;
}

/* Who played, a bot's level beside each name, in lang: "Ann, Bob et Cy
 * (robot facile)". */
static void players_in(const struct game_rec *g, const char *lang, struct strbuf *out)
{
    struct strlist labels = STRLIST_INIT;
    struct strbuf label = STRBUF_INIT;
    for (int i = 0; i < g->nseats; i++) {
        strbuf_reset(&label);
        game_seat_label_in(g, i, lang, &label);
        strlist_push(&labels, label.buf);
    }
    phrase_list_and(out, lang, &labels);
    strlist_clear(&labels);
    strbuf_release(&label);
}

/* The game's public record (its published press in it), written once at
 * the site's root as game-N.json: anyone runs ngoma verify --file on it.
 * NULL on a failure (said in err). */
static cJSON *game_record(sqlite3 *db, const char *dir, struct game_rec *g, struct strbuf *err)
{
    cJSON *record = verify_export(db, g, false);
    char *text, file[48];
    if (!record || press_publish(db, g, record)) {
        cJSON_Delete(record);
        strbuf_addstr(err, "its public record cannot be made");
        return NULL;
    }
    text = cJSON_Print(record);
    snprintf(file, sizeof(file), "game-%lld.json", (long long)g->id);
    if (write_text(dir, file, text, err)) {
        cJSON_Delete(record);
        record = NULL;
    }
    cJSON_free(text);
    return record;
}

/* The game's page in l's language, from its public record. */
static int write_game(sqlite3 *db, const struct site_lang *l, struct game_rec *g, const cJSON *record,
                      struct site_stats *st, struct strbuf *err)
{
    cJSON *d = cJSON_CreateObject(), *steps = cJSON_CreateArray(), *prev = NULL;
    struct strbuf sb = STRBUF_INIT, sub = STRBUF_INIT;
    bool finished = str_eq(game_status_of(g->ops, g->st), "finished"), root = !*l->root;
    const char *lang = l->lang, *dir = l->dir;
    char *last_when = NULL, name[64];
    sqlite3_stmt *q;
    int rc = -1, last_turn = -1;

    strbuf_addf(&sub, "%s/game-%lld", dir, (long long)g->id);
    if (mkdir_p(sub.buf)) {
        strbuf_addf(err, "cannot create %s: %s", sub.buf, strerror(errno));
        goto out;
    }
    /* Published press, oldest first, on the page too. */
    {
        cJSON *msgs = cJSON_CreateArray(), *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(record, "press")) {
            cJSON *row = cJSON_CreateObject(), *t;
            const char *from = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "from"));
            strbuf_reset(&sb);
            cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(m, "to"))
                strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", cJSON_GetStringValue(t));
            if (!from) /* grey: whom it reached would name its writer */
                phrase_add(&sb, lang,
                           cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "to_all")) ? "site.press-to-all"
                                                                                      : "site.press-to-some",
                           NULL);
            cJSON_AddNumberToObject(row, "step", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m, "step")));
            if (from) {
                cJSON_AddStringToObject(row, "from", from);
            } else {
                struct strbuf who = STRBUF_INIT;
                phrase_add(&who, lang, "site.press-grey", NULL);
                cJSON_AddStringToObject(row, "from", who.buf);
                strbuf_release(&who);
            }
            cJSON_AddStringToObject(row, "to", sb.buf);
            cJSON_AddStringToObject(row, "text", cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "text")));
            cJSON_AddItemToArray(msgs, row);
        }
        if (cJSON_GetArraySize(msgs))
            cJSON_AddItemToObject(d, "press", msgs);
        else
            cJSON_Delete(msgs);
        strbuf_reset(&sb);
    }
    {
        int64_t top;
        if (db_get_int64(db, &top, "SELECT max(turn) FROM turns WHERE game_id = ? AND rolled_back = 0", "I", g->id) < 0)
            goto out;
        last_turn = (int)top;
    }
    q = db_stmt(db,
                "SELECT id, turn, orders, log, public_view, coalesce(when_text, ''), state, events FROM turns WHERE"
                " game_id = ? AND rolled_back = 0 ORDER BY turn",
                "I", g->id);
    if (!q)
        goto out;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        int64_t row = sqlite3_column_int64(q, 0);
        int turn = sqlite3_column_int(q, 1);
        const char *when = (const char *)sqlite3_column_text(q, 5);
        cJSON *step = cJSON_CreateObject(), *orders, *o, *lines = cJSON_CreateArray(), *view;
        struct strbuf e2 = STRBUF_INIT;
        /* Under the round it was played in: where the game stood before;
         * a heading each time it changes. */
        const char *head = last_when ? last_when : when;
        const cJSON *before = cJSON_GetArrayItem(steps, cJSON_GetArraySize(steps) - 1);
        const char *was = before ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(before, "round_of")) : NULL;
        if (!was || !str_eq(head, was)) {
            char h[128], shown[128];
            game_when_text_in(head, lang, shown);
            snprintf(h, sizeof(h), "%c%s", *shown >= 'a' && *shown <= 'z' ? *shown - 'a' + 'A' : *shown,
                     *shown ? shown + 1 : "");
            cJSON_AddStringToObject(step, "heading", h);
        }
        cJSON_AddStringToObject(step, "round_of", head);
        orders = jx_parse((const char *)sqlite3_column_text(q, 2), "orders", &e2);
        cJSON_ArrayForEach(o, orders) {
            const cJSON *sv = cJSON_GetObjectItemCaseSensitive(o, "seat");
            int seat = cJSON_IsNumber(sv) ? sv->valueint : 0;
            const char *order = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "order"));
            if (order && seat >= 1 && seat <= g->nseats) {
                /* Her order in the page's words, a bot's level beside it. */
                const char *bot = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "bot"));
                char *local = lexicon_local(lang, "common", g->ops->name, order);
                strbuf_reset(&sb);
                phrase_add(&sb, lang,
                           !bot                   ? "history.order"
                           : str_eq(bot, "strong") ? "history.order-strong-bot"
                                                   : "history.order-easy-bot",
                           "name", g->names[seat - 1], "order", local, NULL);
                cJSON_AddItemToArray(lines, cJSON_CreateString(sb.buf));
                free(local);
            }
        }
        cJSON_Delete(orders);
        cJSON_AddItemToObject(step, "orders", lines);
        strbuf_reset(&sb);
        history_stored_in(lang, (const char *)sqlite3_column_text(q, 7), (const char *)sqlite3_column_text(q, 3), &sb);
        cJSON_AddStringToObject(step, "log", sb.buf);
        view = observer_view(g, (const char *)sqlite3_column_text(q, 6), (const char *)sqlite3_column_text(q, 4), when,
                             finished && turn == last_turn);
        /* Its labels and alt text in the page's language. */
        strbuf_reset(&sb);
        view_picture_words(view, root ? NULL : lang, &sb);
        if (picture(dir, g, row, view, prev, name, st, err)) {
            cJSON_Delete(view);
            cJSON_Delete(step);
            strbuf_release(&e2);
            db_finalize(q);
            goto out;
        }
        if (*name) {
            cJSON_AddStringToObject(step, "picture", name);
            cJSON_AddStringToObject(step, "alt", sb.buf);
        }
        cJSON_Delete(prev);
        prev = cJSON_DetachItemFromObjectCaseSensitive(view, "view");
        cJSON_Delete(view);
        free(last_when);
        last_when = xstrdup(when);
        cJSON_AddItemToArray(steps, step);
        strbuf_release(&e2);
    }
    db_finalize(q);
    if (rc != SQLITE_DONE) {
        rc = -1;
        goto out;
    }
    cJSON_AddNumberToObject(d, "game", (double)g->id);
    cJSON_AddStringToObject(d, "title", g->ops->title);
    strbuf_reset(&sb);
    players_in(g, lang, &sb);
    cJSON_AddStringToObject(d, "players", sb.buf);
    strbuf_reset(&sb);
    if (view_status_line(db, g, lang, &sb) == 0)
        cJSON_AddStringToObject(d, "status", sb.buf);
    strbuf_reset(&sb);
    view_who_was_who(g, lang, &sb);
    if (sb.len)
        cJSON_AddStringToObject(d, "who_was_who", sb.buf);
    strbuf_reset(&sb);
    view_fairness(g, lang, &sb);
    cJSON_AddStringToObject(d, "fairness", sb.buf);
    cJSON_AddBoolToObject(d, "finished", finished);
    {
        /* The page opens on the position now (or the final one), then the
         * rounds newest first, each with its steps newest first, and a
         * jump link to each. */
        cJSON *rounds = cJSON_CreateArray(), *jumps = cJSON_CreateArray(), *cur = NULL, *s, *last = NULL;
        struct strbuf start = STRBUF_INIT;
        int n = 0;
        phrase_add(&start, lang, "site.the-start", NULL);
        while ((s = cJSON_DetachItemFromArray(steps, 0))) {
            const char *h = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "heading"));
            if (h || !cur) {
                char anchor[24];
                snprintf(anchor, sizeof(anchor), "r%d", ++n);
                cur = cJSON_CreateObject();
                cJSON_AddStringToObject(cur, "heading", h ? h : start.buf);
                cJSON_AddStringToObject(cur, "anchor", anchor);
                cJSON_AddItemToObject(cur, "steps", cJSON_CreateArray());
                cJSON_InsertItemInArray(rounds, 0, cur);
                {
                    cJSON *j = cJSON_CreateObject();
                    cJSON_AddStringToObject(j, "heading", h ? h : start.buf);
                    cJSON_AddStringToObject(j, "anchor", anchor);
                    cJSON_InsertItemInArray(jumps, 0, j);
                }
            }
            if (cJSON_GetObjectItemCaseSensitive(s, "picture"))
                last = s;
            cJSON_InsertItemInArray(cJSON_GetObjectItemCaseSensitive(cur, "steps"), 0, s);
        }
        if (last) {
            cJSON *now = cJSON_CreateObject();
            cJSON_AddStringToObject(now, "picture", cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(last, "picture")));
            cJSON_AddStringToObject(now, "alt", cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(last, "alt")));
            cJSON_AddItemToObject(d, "now", now);
        }
        cJSON_AddItemToObject(d, "rounds", rounds);
        cJSON_AddItemToObject(d, "jumps", jumps);
        strbuf_release(&start);
    }
    {
        char file[48];
        snprintf(file, sizeof(file), "game-%lld.html", (long long)g->id);
        rc = site_write_template(l, file, "site-game.html", d, err) ? -1 : 0;
    }
    st->games += rc == 0 && root; /* a game once, however many languages */
out:
    cJSON_Delete(d);
    cJSON_Delete(steps);
    cJSON_Delete(prev);
    free(last_when);
    strbuf_release(&sb);
    strbuf_release(&sub);
    return rc;
}

#define SITE_LANGS 8

/* The stylesheet, one for every language, at the root. */
static int site_style(const char *dir, struct strbuf *err)
{
    struct strbuf out = STRBUF_INIT;
    cJSON *none = cJSON_CreateObject();
    int rc = template_render_file("site.css", none, LANG_ENGLISH, &out, err) || write_text(dir, "style.css", out.buf, err);
    cJSON_Delete(none);
    strbuf_release(&out);
    return rc;
}

int site_write(sqlite3 *db, const char *dir, bool changed_only, struct site_stats *st)
{
    struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
    struct site_lang langs[SITE_LANGS];
    char *dirs[SITE_LANGS] = { NULL };
    cJSON *games[SITE_LANGS] = { NULL };
    size_t nl = 0;
    char *since = NULL, now[32];
    sqlite3_stmt *q;
    int rc = -1;

    memset(st, 0, sizeof(*st));
    utc_now(now);
    /* A page set a language: English at the root, the others in LL/. */
    for (; lang_at(nl) && nl < SITE_LANGS; nl++) {
        struct strbuf sub = STRBUF_INIT;
        strbuf_addstr(&sub, dir);
        if (nl)
            strbuf_addf(&sub, "/%s", lang_at(nl)->code);
        dirs[nl] = strbuf_detach(&sub);
        langs[nl] = (struct site_lang){ dirs[nl], lang_at(nl)->code, nl ? "../" : "" };
        games[nl] = cJSON_CreateArray();
        if (mkdir_p(dirs[nl])) {
            error("cannot create %s: %s", dirs[nl], strerror(errno));
            nl++;
            goto out;
        }
    }
    strbuf_addf(&path, "%s/%s", dir, STAMP);
    if (changed_only && access(path.buf, R_OK) == 0) {
        since = file_read(path.buf, FILE_MAX_TEXT, &err);
        strbuf_reset(&err);
    }
    q = db_stmt(db, "SELECT id, updated_at >= ? FROM games ORDER BY id DESC", "s", since ? since : "");
    if (!q)
        goto out;
    while ((rc = db_step(q)) == SQLITE_ROW) {
        struct game_rec g;
        cJSON *record = NULL;
        if (game_load(db, sqlite3_column_int64(q, 0), &g))
            continue; /* a damaged game: its pages stay as they were */
        /* A game that moved: its record once, its page in every language. */
        if ((!since || sqlite3_column_int(q, 1)) && !(record = game_record(db, dir, &g, &err))) {
            error("game %lld: %s", (long long)g.id, err.buf);
            strbuf_reset(&err);
        }
        for (size_t i = 0; i < nl; i++) {
            const char *lang = langs[i].lang;
            cJSON *item = cJSON_CreateObject();
            struct strbuf sb = STRBUF_INIT;
            char when[128];
            if (record && write_game(db, &langs[i], &g, record, st, &err)) {
                error("game %lld: its page in %s: %s", (long long)g.id, lang, err.buf);
                strbuf_reset(&err);
            }
            cJSON_AddNumberToObject(item, "game", (double)g.id);
            cJSON_AddStringToObject(item, "title", g.ops->title);
            game_names_in(&g, (1u << g.nseats) - 1, lang, &sb);
            cJSON_AddStringToObject(item, "players", sb.buf);
            game_when_now_in(&g, lang, when);
            cJSON_AddStringToObject(item, "when", when);
            strbuf_reset(&sb);
            if (view_status_line(db, &g, lang, &sb) == 0)
                cJSON_AddStringToObject(item, "status", sb.buf);
            cJSON_AddItemToArray(games[i], item);
            strbuf_release(&sb);
        }
        cJSON_Delete(record);
        game_unload(&g);
    }
    db_finalize(q);
    if (rc != SQLITE_DONE) {
        rc = -1;
        goto out;
    }
    rc = 0;
    for (size_t i = 0; i < nl && !rc; i++) {
        cJSON *d = cJSON_CreateObject();
        cJSON_AddItemToObject(d, "games", games[i]);
        games[i] = NULL;
        cJSON_AddStringToObject(d, "written", now);
        if (site_standing(db, &langs[i], d, &err) || site_write_template(&langs[i], "index.html", "site-index.html", d, &err))
            rc = -1;
        cJSON_Delete(d);
    }
    if (!rc && (site_style(dir, &err) || write_text(dir, STAMP, now, &err)))
        rc = -1;
    if (rc)
        error("%s", err.buf);
out:
    for (size_t i = 0; i < nl; i++) {
        cJSON_Delete(games[i]);
        free(dirs[i]);
    }
    free(since);
    strbuf_release(&err);
    strbuf_release(&path);
    return rc;
}
