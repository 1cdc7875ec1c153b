/* engine_common.c: the orders every game takes (HELP, BOARD, LEGAL, HISTORY, MAIL, IMAGES, VACATION, TIMEZONE, the votes' words) in one table, and what a refused line may have meant. */
#include "core/engine_int.h"
#include "lib/catalog.h"
#include "lib/dates.h"
#include "lib/lexicon.h"
#include "lib/template.h"
#include "store/languages.h"

void engine_reject(struct line_result *l, const char *why)
{
    l->status = LINE_REJECTED;
    strbuf_addstr(&l->body, why);
}

/* The verbs (first words) of seat's legal orders now. */
static void verbs_of(const struct game_rec *g, int seat, struct strlist *verbs)
{
    struct strlist legal = STRLIST_INIT;
    g->ops->legal(g->st, seat, &g->table, &legal);
    for (size_t i = 0; i < legal.n; i++) {
        char *v = xstrndup(legal.v[i], strcspn(legal.v[i], " "));
        if (!strlist_contains(verbs, v))
            strlist_push(verbs, v);
        free(v);
    }
    strlist_clear(&legal);
}

/* Whether a line the game refused is a greeting or a sign-off. */
bool engine_is_greeting(const struct game_rec *g, int seat, const char *line)
{
    struct strlist verbs = STRLIST_INIT;
    bool yes;
    verbs_of(g, seat, &verbs);
    yes = order_line_is_greeting(line, &verbs);
    strlist_clear(&verbs);
    return yes;
}

/* The number a line ends with after its verb ("PLAY 4": 4), if it is
 * VERB NUMBER; the verb's length in *verb. */
static bool verb_number(const char *line, size_t *verb, long *n)
{
    const char *sp = strchr(line, ' ');
    char *end;
    if (!sp || sp == line)
        return false;
    *verb = (size_t)(sp - line);
    errno = 0;
    *n = strtol(sp + 1, &end, 10);
    return end != sp + 1 && !*end && !errno;
}

/* The orders every game takes, one table (lib/cmdtab.h). */
#define ASKS 1u  /* it only asks: answered, nothing changes */
#define MEANT 2u /* a refused line whose word it is may mean it ("Draw please") */

static const struct common_row {
    struct cmdtab_row row;
    enum command cmd;
} common_rows[] = { /* what each does is said in rules-common.txt, in her language */
    { { "help", 0, 0, ASKS, "HELP", NULL }, CMD_HELP },
    { { "rules", 0, 0, ASKS, "RULES", NULL }, CMD_HELP },
    { { "board", 0, 0, ASKS, "BOARD", NULL }, CMD_BOARD },
    { { "show", 0, 0, ASKS, "SHOW", NULL }, CMD_BOARD },
    { { "legal", 0, CMDTAB_ANY, ASKS, "LEGAL [order]", NULL }, CMD_LEGAL },
    { { "history", 0, 0, ASKS, "HISTORY", NULL }, CMD_HISTORY },
    { { "resign", 0, 0, 0, "RESIGN", NULL }, CMD_RESIGN },
    { { "draw", 0, 0, MEANT, "DRAW", NULL }, CMD_DRAW },
    { { "nodraw", 0, 0, 0, "NODRAW", NULL }, CMD_NODRAW },
    { { "no draw", 0, 0, 0, "NO DRAW", NULL }, CMD_NODRAW },
    { { "concede", 0, 0, MEANT, "CONCEDE", NULL }, CMD_CONCEDE },
    { { "noconcede", 0, 0, 0, "NOCONCEDE", NULL }, CMD_NOCONCEDE },
    { { "no concede", 0, 0, 0, "NO CONCEDE", NULL }, CMD_NOCONCEDE },
    { { "mail", 0, CMDTAB_ANY, 0, "MAIL TURN|EVERY|DIGEST 1d", NULL }, CMD_MAIL },
    { { "images", 0, CMDTAB_ANY, 0, "IMAGES ON|OFF", NULL }, CMD_IMAGES },
    { { "language", 0, CMDTAB_ANY, 0, "LANGUAGE fr", NULL },
      CMD_LANGUAGE },
    { { "vacation", 0, CMDTAB_ANY, 0, "VACATION 7d|OFF", NULL }, CMD_VACATION },
    { { "timezone", 0, CMDTAB_ANY, 0, "TIMEZONE Africa/Lagos", NULL }, CMD_TIMEZONE },
    { { "plans", 0, 0, ASKS, "PLANS", NULL }, CMD_PLANS },
    { { "cancel", 1, 1, 0, "CANCEL PLANS|CANCEL 3", NULL }, CMD_CANCEL },
    { { NULL, 0, 0, 0, NULL, NULL }, CMD_NONE },
};

/* The common order a line is (its name, then as many words as it takes),
 * else NULL: a game's order. */
static const struct common_row *common_of(const char *line)
{
    const struct cmdtab_row *r = cmdtab_find(CMDTAB(common_rows), line);
    struct strbuf err = STRBUF_INIT;
    bool fits = r && !cmdtab_arity(r, cmdtab_args(r, line), "word", &err);
    strbuf_release(&err);
    return fits ? (const struct common_row *)r : NULL;
}

enum command engine_command_of(const char *line)
{
    const struct common_row *c = common_of(line);
    return c ? c->cmd : CMD_NONE;
}

bool engine_line_asks(const char *line)
{
    const struct common_row *c = common_of(line);
    return c && (c->row.flags & ASKS);
}

bool engine_line_is_command(const char *line)
{
    return engine_command_of(line) != CMD_NONE;
}

/* The common order a line that is not one may mean: "Draw please",
 * "I concede" (a word of it is DRAW or CONCEDE, a letter off at most). */
static const char *common_meant(const char *line)
{
    const char *p = line;
    while (*p) {
        size_t n = strcspn(p, " ,.!?;:");
        char w[16];
        if (n && n < sizeof(w)) {
            memcpy(w, p, n);
            w[n] = '\0';
            for (const struct common_row *c = common_rows; c->row.name; c++)
                if ((c->row.flags & MEANT) && order_distance(w, c->row.name, n >= 5 ? 1 : 0) <= (n >= 5 ? 1u : 0u))
                    return c->row.usage;
        }
        p += n;
        while (*p && strchr(" ,.!?;:", *p))
            p++;
    }
    return NULL;
}

/* "Did you mean ...?": the legal orders nearest a refused line (a few
 * letters off; for VERB NUMBER, the nearest numbers), or the common
 * order its words name (DRAW, CONCEDE); never played for her. One
 * offered may be taken by a reply of yes. False when none is near. */
static bool near_orders(const struct game_rec *g, int seat, const char *line, bool offer, struct strbuf *out);

bool engine_near_orders(const struct game_rec *g, int seat, const char *line, struct strbuf *out)
{
    return near_orders(g, seat, line, true, out);
}

bool engine_near_plain(const struct game_rec *g, int seat, const char *line, struct strbuf *out)
{
    return near_orders(g, seat, line, false, out);
}

static bool near_orders(const struct game_rec *g, int seat, const char *line, bool offer, struct strbuf *out)
{
    struct strlist legal = STRLIST_INIT, near = STRLIST_INIT;
    size_t len = strlen(line), limit = len / 5 > 2 ? len / 5 : 2, best = limit + 1, verb;
    long n;
    bool found;
    const char *common = common_meant(line);
    g->ops->legal(g->st, seat, &g->table, &legal);
    /* Near what she would write: her legal orders in her words. */
    for (size_t i = 0; i < legal.n; i++) {
        char *local = lexicon_local(g->seats[seat].lang, "common", g->ops->name, legal.v[i]);
        free(legal.v[i]);
        legal.v[i] = local;
    }
    if (verb_number(line, &verb, &n)) {
        /* PLAY 4 with the 4 gone: PLAY 3 or PLAY 5, not PLAY 0. */
        long gap = -1;
        for (size_t i = 0; i < legal.n; i++) {
            size_t v;
            long m;
            if (!verb_number(legal.v[i], &v, &m) || v != verb || strncasecmp(line, legal.v[i], v) != 0)
                continue;
            if (gap < 0 || labs(m - n) < gap) {
                gap = labs(m - n);
                strlist_clear(&near);
            }
            if (labs(m - n) == gap && near.n < 3)
                strlist_push(&near, legal.v[i]);
        }
    }
    for (size_t i = 0, numbered = near.n > 0; i < legal.n && !numbered; i++) {
        size_t d = order_distance(line, legal.v[i], best < limit ? best : limit);
        if (d < best) {
            best = d;
            strlist_clear(&near);
        }
        if (d == best && d <= limit && near.n < 3)
            strlist_push(&near, legal.v[i]);
    }
    if (!near.n && common)
        strlist_push(&near, common);
    if (near.n) {
        const char *lang = g->seats[seat].lang;
        struct strbuf first = STRBUF_INIT, orders = STRBUF_INIT;
        for (size_t i = 0; i < near.n; i++) {
            char *local = xstrdup(near.v[i]);
            if (i + 1 < near.n)
                strbuf_addf(&first, "%s%s", i ? ", " : "", local);
            else if (near.n > 1)
                phrase_add(&orders, lang, "list.or", "first", first.buf, "last", local, NULL);
            else
                strbuf_addstr(&orders, local);
            free(local);
        }
        phrase_add(out, lang, !offer ? "near.plain" : near.n == 1 ? "near.one" : "near.many", "orders", orders.buf, NULL);
        strbuf_release(&first);
        strbuf_release(&orders);
    }
    found = near.n > 0;
    strlist_clear(&legal);
    strlist_clear(&near);
    return found;
}

/* ---- the generic commands ------------------------------------------------ */

/* Orders LEGAL lists one per line; a longer list is summed up by kind. */
#define LEGAL_LIST_MAX 40

/* LEGAL, or LEGAL FOOD: the orders (those beginning so) one per line, a
 * long list summed up by kind. */
void engine_legal_text(const struct game_rec *g, int seat, const char *filter, struct strbuf *out)
{
    struct strlist legal = STRLIST_INIT;
    const char *lang = seat >= 0 && seat < g->nseats ? g->seats[seat].lang : NULL;
    /* COUPS NOURRITURE: the first words of an order, in her words. */
    char *english = filter ? lexicon_english(lang, NULL, g->ops->name, filter) : NULL;
    char n[24];
    options_orders(g, seat, english, &legal);
    snprintf(n, sizeof(n), "%zu", legal.n);
    if (!legal.n && filter && *filter && g->ops->waiting_for(g->st) & (1u << seat)) {
        phrase_add(out, lang, "legal.none-begins", "filter", filter, NULL);
    } else if (legal.n > LEGAL_LIST_MAX) {
        phrase_add(out, lang, filter && *filter ? "legal.by-kind-beginning" : "legal.by-kind", "n", n, "filter", filter,
                   NULL);
        strbuf_addch(out, '\n');
        options_text(g, seat, english, 0, out);
        phrase_add(out, lang, "legal.narrow", NULL);
    } else if (!legal.n) {
        unsigned waiting = g->ops->waiting_for(g->st);
        if (!waiting)
            phrase_add(out, lang, "legal.over", NULL);
        else {
            struct strbuf names = STRBUF_INIT;
            game_names_in(g, waiting, lang, &names);
            phrase_add(out, lang, "legal.none-now", "names", names.buf, NULL);
            strbuf_release(&names);
        }
    } else {
        snprintf(n, sizeof(n), "%zu", legal.n);
        phrase_add(out, lang, "count.legal-orders", "n", n, NULL);
        strbuf_addch(out, '\n');
        /* In her words: JOUER 7, as she may write it back. */
        for (size_t i = 0; i < legal.n; i++) {
            char *local = lexicon_local(lang, "common", g->ops->name, legal.v[i]);
            strbuf_addf(out, "%s\n", local);
            free(local);
        }
    }
    if (g->ops->waiting_for(g->st) && !filter) {
        /* What ends a game by agreement, given at any step. */
        strbuf_addch(out, '\n');
        phrase_add(out, lang, "legal.at-any-time", NULL);
    }
    strlist_clear(&legal);
    free(english);
}

void engine_rules_text(const struct game_rec *g, int seat, struct strbuf *out)
{
    struct strbuf name = STRBUF_INIT, err = STRBUF_INIT;
    cJSON *data = cJSON_CreateObject();
    cJSON_AddStringToObject(data, "title", g->ops->title);
    strbuf_addf(&name, "rules/%s.txt", g->ops->name);
    if (template_render_file(name.buf, data, seat >= 0 && seat < g->nseats ? g->seats[seat].lang : NULL, out, &err))
        strbuf_addf(out, "%s: %s\n(the rules summary is missing: %s)", g->ops->title, g->ops->summary, err.buf);
    cJSON_Delete(data);
    strbuf_release(&name);
    strbuf_release(&err);
}

#define MAX_VACATION (30L * 86400)

/* VACATION UNTIL 2026-12-10 (UTC) | VACATION 7d | VACATION OFF: no reminders and
 * no deadline for the seat until then (at most 30 days). */
int engine_vacation(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l)
{
    const char *arg = line + 8;
    char until[32] = "", shown[DATE_TEXT_MAX], example[16];
    time_t t, now = clock_now();
    long secs;
    date_ahead(14, example);
    while (*arg == ' ')
        arg++;
    if (str_iprefix(arg, "until "))
        arg += 6;
    const char *lang = g->seats[seat].lang;
    if (str_ieq(arg, "off") || str_ieq(arg, "none") || str_ieq(arg, "end")) {
        phrase_add(&l->body, lang, "vacation.over", NULL);
    } else if (duration_parse(arg, &secs) || (utc_parse(arg, &t) && (secs = (long)(t - now)) > 0)) {
        if (secs > MAX_VACATION) {
            l->status = LINE_REJECTED;
            phrase_add(&l->body, lang, "vacation.too-long", "example", example, NULL);
            return 0;
        }
        utc_format(now + secs, until);
        date_text_in(now + secs, g->seats[seat].timezone, lang, shown);
        phrase_add(&l->body, lang, "vacation.until", "until", shown, NULL);
    } else {
        l->status = LINE_REJECTED;
        phrase_add(&l->body, lang, "vacation.how", "example", example, NULL);
        return 0;
    }
    l->status = LINE_INFO;
    free(g->seats[seat].vacation_until);
    g->seats[seat].vacation_until = xstrdup(until);
    return db_do(db, "UPDATE seats SET vacation_until = nullif(?, '') WHERE game_id = ? AND seat = ?", "sIi", until,
                 g->id, seat + 1);
}

/* MAIL TURN | MAIL EVERY | MAIL DIGEST 1d: when the seat is mailed. */
int engine_mail_cmd(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l)
{
    struct seat_info *s = &g->seats[seat];
    struct words w;
    long secs = s->digest_secs;
    const char *policy = NULL, *lang = s->lang;
    char key[32], period[32];
    words_split(&w, line, NULL);
    if (w.n == 2 && str_eq(w.w[1], "turn"))
        policy = "turn";
    else if (w.n == 2 && str_eq(w.w[1], "every"))
        policy = "every";
    else if ((w.n == 2 || w.n == 3) && str_eq(w.w[1], "digest") &&
             (w.n == 2 || (duration_parse(w.w[2], &secs) && secs >= 3600 && secs <= 7 * 86400)))
        policy = "digest";
    words_release(&w);
    l->status = LINE_INFO;
    if (!policy) {
        if (str_ieq(line, "mail")) {
            /* What she gets now, and how to change it. */
            duration_format(s->digest_secs, period);
            snprintf(key, sizeof(key), "mail.now.%s", str_eq(s->mail_policy, "every") || str_eq(s->mail_policy, "digest")
                                                          ? s->mail_policy
                                                          : "turn");
            phrase_add(&l->body, lang, key, "period", period, NULL);
            strbuf_addch(&l->body, ' ');
            phrase_add(&l->body, lang, "mail.change", NULL);
        } else {
            l->status = LINE_REJECTED;
            phrase_add(&l->body, lang, "mail.forms", NULL);
        }
        return 0;
    }
    snprintf(s->mail_policy, sizeof(s->mail_policy), "%s", policy);
    s->digest_secs = secs;
    duration_format(secs, period);
    snprintf(key, sizeof(key), "mail.set.%s", policy);
    phrase_add(&l->body, lang, key, "period", period, NULL);
    return db_do(db, "UPDATE seats SET mail_policy = ?, digest_secs = ? WHERE game_id = ? AND seat = ?", "sIIi", policy,
                 (int64_t)secs, g->id, seat + 1);
}

/* IMAGES ON | IMAGES OFF: whether her mails show the board as a picture. */
int engine_images_cmd(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l)
{
    const char *arg = line + 6;
    bool on;
    while (*arg == ' ')
        arg++;
    l->status = LINE_INFO;
    if (str_ieq(arg, "on") || str_ieq(arg, "yes"))
        on = true;
    else if (str_ieq(arg, "off") || str_ieq(arg, "no"))
        on = false;
    else {
        if (*arg)
            l->status = LINE_REJECTED;
        phrase_add(&l->body, g->seats[seat].lang, g->seats[seat].images ? "images.now-on" : "images.now-off", "wrong",
                   *arg ? "yes" : "", NULL);
        return 0;
    }
    g->seats[seat].images = on;
    phrase_add(&l->body, g->seats[seat].lang, on ? "images.on" : "images.off", NULL);
    return db_do(db, "UPDATE seats SET images = ? WHERE game_id = ? AND seat = ?", "iIi", on ? 1 : 0, g->id, seat + 1);
}

/* LANGUAGE fr: her mails in French, in every game and the lobby (kept for
 * her address); LANGUAGE alone says which she reads and which there are;
 * LANGUAGE DEFAULT: the host's again. */
int engine_language_cmd(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l)
{
    bool refused;
    char *now;
    int rc = language_command(db, g->seats[seat].email, line + 8, &l->body, &refused);
    l->status = refused ? LINE_REJECTED : LINE_INFO;
    if (rc)
        return rc;
    /* Every seat of hers in this game reads it from now on. */
    now = language_of(db, g->seats[seat].email);
    for (int s = 0; s < g->nseats; s++)
        if (str_ieq(g->seats[s].email, g->seats[seat].email))
            snprintf(g->seats[s].lang, sizeof(g->seats[s].lang), "%s", now);
    free(now);
    return 0;
}

/* TIMEZONE Europe/Berlin: deadlines are shown in it. */
int engine_timezone_cmd(sqlite3 *db, struct game_rec *g, int seat, const char *line, struct line_result *l)
{
    const char *arg = line + 8;
    while (*arg == ' ')
        arg++;
    if (!timezone_valid(arg)) {
        l->status = LINE_REJECTED;
        phrase_add(&l->body, g->seats[seat].lang, "timezone.unknown", "zone", arg, NULL);
        return 0;
    }
    l->status = LINE_INFO;
    phrase_add(&l->body, g->seats[seat].lang, "timezone.set", "zone", arg, NULL);
    free(g->seats[seat].timezone);
    g->seats[seat].timezone = xstrdup(arg);
    return db_do(db, "UPDATE seats SET timezone = ? WHERE game_id = ? AND seat = ?", "sIi", arg, g->id, seat + 1);
}
