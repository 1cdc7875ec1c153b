/* bench_ngoma.c: the in-process benchmarks (playouts, database size per step, history length) and the mail generator of the batch benchmark. */
#include "bench.h"
#include "core/bot.h"
#include "store/db.h"
#include "core/engine.h"
#include "lib/jsonx.h"
#include "judge/notify.h"
#include "lib/rng.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every game of the registry, at the middle of its seat counts (at most
 * the six names below): a game added there is benchmarked. */
static struct {
    const char *name;
    int seats;
} games[16];
static size_t nkinds;

static void games_of_registry(void)
{
    for (nkinds = 0; game_registry[nkinds] && nkinds < ARRAY_SIZE(games); nkinds++) {
        const struct game_ops *ops = game_registry[nkinds];
        int mid = (ops->min_seats + ops->max_seats) / 2;
        games[nkinds].name = ops->name;
        games[nkinds].seats = mid > 6 ? 6 : mid;
    }
}

static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan", "Eve", "Fay" };

/* A new game of MODULE; OPTS (none when NULL) are the game's options as given. */
static int64_t new_game_with(sqlite3 *db, const char *module, int seats, int64_t seed, const cJSON *given)
{
    const char *emails[6] = { "ann@example.org", "bob@example.org", "cleo@example.org",
                              "dan@example.org", "eve@example.org", "fay@example.org" };
    struct strbuf err = STRBUF_INIT;
    cJSON *opts = given ? cJSON_Duplicate(given, 1) : cJSON_CreateObject();
    int64_t id;
    if (db_begin(db) || engine_new(db, game_find(module), seats, names, emails, opts, seed, true, &id, &err) ||
        db_commit(db))
        die("%s", err.len ? err.buf : "engine_new failed");
    cJSON_Delete(opts);
    strbuf_release(&err);
    return id;
}

static int64_t new_game(sqlite3 *db, const char *module, int seats, int64_t seed)
{
    return new_game_with(db, module, seats, seed, NULL);
}

/* One random legal order of a seat the game waits for, given through the
 * engine and mailed as ngoma mails it, in the caller's transaction.
 * Returns 1 when the game is over (nothing to play), 0 after an order. */
static int play_one(sqlite3 *db, struct game_rec *g, struct rng *r, char **text_out, int *seat_out)
{
    unsigned waiting = g->ops->waiting_for(g->st), in = 0;
    struct submission sub = { 0 };
    int seat = -1;
    char *order;

    if (!waiting)
        return 1;
    if (game_missing(db, g, &in))
        die("game_missing");
    for (int s = 0; s < g->nseats && seat < 0; s++)
        if (in & (1u << s))
            seat = s;
    if (seat < 0)
        die("a game waits for nobody missing");
    order = bot_random(g->ops, g->st, seat, &g->table, rng_next(r));
    if (!order)
        die("no legal order");
    if (engine_submit(db, g, seat, order, "bench", 0, &sub) || notify_submission(db, g, seat, &sub, NULL))
        die("submit failed");
    submission_release(&sub);
    if (text_out)
        *text_out = order;
    else
        free(order);
    if (seat_out)
        *seat_out = seat;
    return 0;
}

/* ---- playouts per second, against a JSON round trip of the same states ------------------ */

static void bench_playouts(double seconds)
{
    printf("%-16s %12s %12s %14s %14s %8s\n", "game", "playouts/s", "steps/s", "step (us)", "json rt (us)",
           "ratio");
    for (size_t i = 0; i < nkinds; i++) {
        const struct game_ops *ops = game_find(games[i].name);
        struct game_table t = { games[i].seats, names, NULL };
        double start = now_s(), step_time = 0, json_time = 0;
        long playouts = 0, steps = 0, json_rounds = 0;
        for (uint64_t seed = 1; now_s() - start < seconds; seed++) {
            struct strbuf err = STRBUF_INIT;
            cJSON *opts = engine_options(ops, NULL, &err);
            void *st = ops->setup(opts, games[i].seats, (int64_t)seed, &err);
            struct rng r;
            int n = 0;
            rng_seed(&r, seed, 7);
            if (!st)
                die("%s", err.buf);
            for (; ops->waiting_for(st) && n < 2000; n++) {
                unsigned w = ops->waiting_for(st);
                const char *orders[GAME_MAX_SEATS] = { NULL };
                char *own[GAME_MAX_SEATS] = { NULL };
                struct game_log log;
                double t0 = now_s();
                for (int s = 0; s < games[i].seats; s++)
                    if (w & (1u << s))
                        orders[s] = own[s] = bot_random(ops, st, s, &t, rng_next(&r));
                game_log_init(&log);
                if (ops->advance(st, orders, &t, &log))
                    die("advance failed");
                game_log_release(&log);
                for (int s = 0; s < games[i].seats; s++)
                    free(own[s]);
                step_time += now_s() - t0;
                /* The baseline: what storing the step's state costs at least. */
                if (n % 8 == 0) {
                    double t1 = now_s();
                    cJSON *j = ops->to_json(st);
                    char *text = cJSON_PrintUnformatted(j);
                    cJSON *back = cJSON_Parse(text);
                    void *st2 = ops->from_json(back, &err);
                    if (!st2)
                        die("%s", err.buf);
                    ops->free(st2);
                    cJSON_Delete(back);
                    free(text);
                    cJSON_Delete(j);
                    json_time += now_s() - t1;
                    json_rounds++;
                }
            }
            steps += n;
            playouts++;
            ops->free(st);
            cJSON_Delete(opts);
            strbuf_release(&err);
        }
        double per_step = step_time / (double)steps * 1e6, per_json = json_time / (double)json_rounds * 1e6;
        printf("%-16s %12.1f %12.0f %14.1f %14.1f %8.2f\n", games[i].name, (double)playouts / step_time,
               (double)steps / step_time, per_step, per_json, per_step / per_json);
    }
    printf("(a playout is a whole game of random legal orders, capped at 2000 steps; a step's time includes\n"
           " choosing each order from the legal list; the baseline is one JSON round trip of the state,\n"
           " which the core pays to store every step)\n");
}

/* ---- database bytes per resolved step --------------------------------------------------------- */

static long long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
}

/* The database's size with nothing but what it stores: no free pages,
 * nothing left in the WAL. */
static long long stored_size(sqlite3 *db, const char *path)
{
    if (db_do(db, "VACUUM", NULL) || db_do(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL))
        die("vacuum");
    return file_size(path);
}

static void bench_dbsize(const char *dir, int steps_wanted)
{
    printf("%-16s %6s %14s %14s %12s %8s\n", "game", "steps", "db bytes/step", "without mail", "state bytes",
           "ratio");
    for (size_t i = 0; i < nkinds; i++) {
        char path[4096];
        sqlite3 *db;
        struct rng r;
        int steps = 0;
        double state_bytes = 0;
        snprintf(path, sizeof(path), "%s/size-%s.db", dir, games[i].name);
        remove(path);
        if (!(db = db_open(path)))
            die("db_open");
        long long empty = stored_size(db, path);
        rng_seed(&r, 99, i);
        for (int64_t seed = 1; steps < steps_wanted; seed++) {
            struct game_rec g;
            if (game_load(db, new_game(db, games[i].name, games[i].seats, seed), &g))
                die("game_load");
            if (db_begin(db))
                die("begin");
            while (steps < steps_wanted) {
                int before = g.turn;
                if (play_one(db, &g, &r, NULL, NULL))
                    break;
                if (g.turn != before) {
                    cJSON *j = g.ops->to_json(g.st);
                    char *text = cJSON_PrintUnformatted(j);
                    state_bytes += (double)strlen(text) * (g.turn - before);
                    steps += g.turn - before;
                    free(text);
                    cJSON_Delete(j);
                }
            }
            if (db_commit(db))
                die("commit");
            game_unload(&g);
        }
        double per_step = (double)(stored_size(db, path) - empty) / steps;
        if (db_do(db, "DELETE FROM outbox", NULL))
            die("delete");
        double no_mail = (double)(stored_size(db, path) - empty) / steps;
        db_close(db);
        printf("%-16s %6d %14.0f %14.0f %12.0f %8.2f\n", games[i].name, steps, per_step, no_mail,
               state_bytes / steps, no_mail / (state_bytes / steps));
        remove(path);
    }
    printf("(every table counted: orders, turns with snapshot, logs and observer view, and the mails\n"
           " queued for every seat, kept once sent; without mail: the outbox emptied; the baseline is the\n"
           " state's own JSON, the one thing a step must keep; ratio: without mail / state)\n");
}

/* ---- the cost of one order, thousands of steps into a game against 10 ----------------------- */

static double timed_order(sqlite3 *db, struct game_rec *g, struct rng *r)
{
    double t0 = now_s();
    if (db_begin(db))
        die("begin");
    if (play_one(db, g, r, NULL, NULL))
        die("the game ended");
    if (db_commit(db))
        die("commit");
    return now_s() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Whether a Bumuntu game of this seed and these options, played as
 * play_one plays it with the generator seeded alike, lasts `steps` steps
 * (checked in memory). */
static bool lasts(int64_t seed, int steps, const cJSON *given)
{
    const struct game_ops *ops = game_find("bumuntu");
    struct game_table t = { 2, names, NULL };
    struct strbuf err = STRBUF_INIT;
    cJSON *opts = engine_options(ops, given, &err);
    void *st = ops->setup(opts, 2, seed, &err);
    struct rng r;
    int n = 0;
    rng_seed(&r, (uint64_t)seed, 1);
    for (; n < steps && ops->waiting_for(st); n++) {
        unsigned w = ops->waiting_for(st);
        const char *orders[GAME_MAX_SEATS] = { NULL };
        int seat = __builtin_ctz(w);
        char *order = bot_random(ops, st, seat, &t, rng_next(&r));
        struct game_log log;
        orders[seat] = order;
        game_log_init(&log);
        if (ops->advance(st, orders, &t, &log))
            die("advance failed");
        game_log_release(&log);
        free(order);
    }
    ops->free(st);
    cJSON_Delete(opts);
    strbuf_release(&err);
    return n == steps;
}

#define HISTORY_SEEDS 20000

static void bench_history(const char *dir, int long_steps, int rounds)
{
    char path[4096];
    sqlite3 *db;
    struct game_rec lg, sg;
    struct rng rl, rs;
    int64_t seed = 0;
    double *tl = xmalloc(sizeof(double) * (size_t)rounds), *ts = xmalloc(sizeof(double) * (size_t)rounds);
    double build;

    snprintf(path, sizeof(path), "%s/history.db", dir);
    remove(path);
    if (!(db = db_open(path)))
        die("db_open");
    /* Every game ends. Bumuntu without its stall rule, under random play,
     * lasts some 650 steps on average and past 2,000 one seed in a
     * thousand or so: a seed that lasts is looked for in memory, among a
     * bounded number, then played through the engine. */
    cJSON *given = cJSON_CreateObject();
    cJSON_AddStringToObject(given, "stall_rounds", "0");
    while (!lasts(++seed, long_steps + rounds, given))
        if (seed == HISTORY_SEEDS)
            die("history: no Bumuntu game among %d seeds lasts %d steps; ask for fewer", HISTORY_SEEDS,
                long_steps + rounds);
    build = now_s();
    if (game_load(db, new_game_with(db, "bumuntu", 2, seed, given), &lg))
        die("game_load");
    rng_seed(&rl, (uint64_t)seed, 1);
    while (lg.turn < long_steps) {
        if (db_begin(db))
            die("begin");
        for (int k = 0; k < 500 && lg.turn < long_steps; k++)
            if (play_one(db, &lg, &rl, NULL, NULL))
                die("the long game ended");
        if (db_commit(db))
            die("commit");
    }
    build = now_s() - build;
    /* The same game again, 10 steps in. */
    if (game_load(db, new_game_with(db, "bumuntu", 2, seed, given), &sg))
        die("game_load");
    rng_seed(&rs, (uint64_t)seed, 1);
    while (sg.turn < 10)
        if (db_begin(db) || play_one(db, &sg, &rs, NULL, NULL) || db_commit(db))
            die("the short game ended");
    for (int i = 0; i < rounds; i++) {
        ts[i] = timed_order(db, &sg, &rs);
        tl[i] = timed_order(db, &lg, &rl);
    }
    qsort(tl, (size_t)rounds, sizeof(double), cmp_double);
    qsort(ts, (size_t)rounds, sizeof(double), cmp_double);
    double ml = tl[rounds / 2] * 1e6, ms = ts[rounds / 2] * 1e6;
    printf("%-34s %14s %14s %8s\n", "one order (median of each)", "long game (us)", "short game (us)", "ratio");
    printf("%-34s %14.0f %14.0f %8.2f\n", "Bumuntu, engine + mails + commit", ml, ms, ml / ms);
    printf("(the long game had %d resolved steps, built in %.1f s, the short one 10: the same game, seed %lld,\n"
           " house rule stall_rounds off; %d orders each, alternating; an order is one transaction: load,\n"
           " check, resolve, turn row, mails queued, fsync)\n",
           long_steps, build, (long long)seed, rounds);
    cJSON_Delete(given);
    game_unload(&lg);
    game_unload(&sg);
    db_close(db);
    remove(path);
    free(tl);
    free(ts);
}

/* ---- the mails of the batch benchmark ---------------------------------------------------------- */

/* The order as a Gmail-shaped mail: multipart/alternative, quoted-printable. */
static void write_mail(const char *maildir, long n, const struct game_rec *g, int seat, const char *order,
                       const char *domain)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof(path), "%s/new/%010ld.bench.eml", maildir, n);
    if (!(f = fopen(path, "w")))
        die("%s", strerror(errno));
    fprintf(f,
            "MIME-Version: 1.0\r\nDate: Mon, 30 Nov 2026 10:15:02 +0100\r\n"
            "Message-ID: <bench-%ld@mail.gmail.com>\r\nSubject: Re: [ngoma %lld] %s\r\n"
            "From: %s <%s>\r\nTo: ngoma <ngoma+%lld-%d-%s@%s>\r\n"
            "Content-Type: multipart/alternative; boundary=\"000000000000a1b2c3d4e5f6\"\r\n\r\n"
            "--000000000000a1b2c3d4e5f6\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\n"
            "Content-Transfer-Encoding: quoted-printable\r\n\r\n%s\r\n\r\n"
            "On Mon, Nov 30, 2026 at 9:00=E2=80=AFAM ngoma <ngoma@%s> wrote:\r\n\r\n"
            "> Your turn in game %lld.\r\n>\r\n\r\n"
            "--000000000000a1b2c3d4e5f6\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n"
            "Content-Transfer-Encoding: quoted-printable\r\n\r\n<div dir=3D\"ltr\">%s</div><br>\r\n"
            "<div class=3D\"gmail_quote\">On Mon, Nov 30, 2026 ngoma wrote:<br></div>\r\n\r\n"
            "--000000000000a1b2c3d4e5f6--\r\n",
            n, (long long)g->id, g->ops->title, g->names[seat], g->seats[seat].email, (long long)g->id, seat + 1,
            g->seats[seat].secret, domain, order, domain, (long long)g->id, order);
    if (fclose(f))
        die("%s", strerror(errno));
}

/* Creates ngames games (every kind in turn) in db_path and writes
 * per_game orders of each to the Maildir, interleaved game by game as
 * players would send them; the orders are found by playing them on a
 * scratch copy of the database. */
/* n KuniUmi games whose strong bot (seat 1) is due: made through the
 * engine, so that no command plays them first (a command plays the
 * strong bots it leaves due). Prints the first game's number. */
static int pending_strong(const char *db_path, int n)
{
    static const char *const who[2] = { "Sol", "Ann" };
    static const char *const addr[2] = { "bot:strong", "ann@example.org" };
    sqlite3 *db = db_open(db_path);
    struct strbuf err = STRBUF_INIT;
    int64_t id, first = 0;
    if (!db)
        return 1;
    for (int i = 0; i < n; i++) {
        cJSON *opts = cJSON_CreateObject();
        if (db_begin(db) || engine_new(db, game_find("kuniumi"), 2, who, addr, opts, 500 + i, true, &id, &err) ||
            db_commit(db))
            die("%s", err.len ? err.buf : "engine_new failed");
        cJSON_Delete(opts);
        first = first ? first : id;
    }
    db_close(db);
    strbuf_release(&err);
    printf("%lld\n", (long long)first);
    return 0;
}

static void gen_mails(const char *db_path, const char *maildir, int ngames, int per_game)
{
    char scratch[4096];
    sqlite3 *db = db_open(db_path), *sc;
    struct game_rec *g = xmalloc(sizeof(*g) * (size_t)ngames);
    struct rng r;
    long n = 0;
    int64_t first = 0;

    if (!db)
        die("db_open");
    for (int i = 0; i < ngames; i++) {
        int64_t id = new_game(db, games[i % nkinds].name, games[i % nkinds].seats, 1000 + i);
        if (!first)
            first = id;
    }
    snprintf(scratch, sizeof(scratch), "%s.scratch", db_path);
    remove(scratch);
    if (db_do(db, "VACUUM INTO ?", "s", scratch))
        die("vacuum into");
    db_close(db);
    if (!(sc = db_open(scratch)))
        die("db_open scratch");
    for (int i = 0; i < ngames; i++)
        if (game_load(sc, first + i, &g[i]))
            die("game_load");
    rng_seed(&r, 4242, 0);
    if (db_begin(sc))
        die("begin");
    for (int k = 0; k < per_game; k++)
        for (int i = 0; i < ngames; i++) {
            char *order;
            int seat;
            if (play_one(sc, &g[i], &r, &order, &seat))
                continue; /* over: the others go on */
            write_mail(maildir, n++, &g[i], seat, order, "localhost");
            free(order);
        }
    if (db_commit(sc))
        die("commit");
    for (int i = 0; i < ngames; i++)
        game_unload(&g[i]);
    db_close(sc);
    remove(scratch);
    free(g);
    printf("%ld\n", n);
}

/* A durable one-row transaction in a process already running (WAL,
 * synchronous FULL, as ngoma's): the milliseconds of each on average. */
static int bench_row(const char *path, int n)
{
    sqlite3 *db;
    struct timespec a, b;
    remove(path);
    if (sqlite3_open(path, &db) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                         " CREATE TABLE mail(id INTEGER PRIMARY KEY, raw TEXT);", NULL, NULL, NULL) != SQLITE_OK)
        return 1;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < n; i++)
        if (sqlite3_exec(db, "BEGIN IMMEDIATE; INSERT INTO mail(raw) VALUES ('a mail'); COMMIT;", NULL, NULL, NULL) !=
            SQLITE_OK)
            return 1;
    clock_gettime(CLOCK_MONOTONIC, &b);
    sqlite3_close(db);
    printf("%.4f\n", ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6) / n);
    return 0;
}

int main(int argc, char **argv)
{
    games_of_registry();
    if (argc >= 2 && str_eq(argv[1], "playouts"))
        bench_playouts(argc > 2 ? atof(argv[2]) : 2.0);
    else if (argc >= 3 && str_eq(argv[1], "dbsize"))
        bench_dbsize(argv[2], argc > 3 ? atoi(argv[3]) : 400);
    else if (argc >= 3 && str_eq(argv[1], "history"))
        bench_history(argv[2], argc > 3 ? atoi(argv[3]) : 1500, argc > 4 ? atoi(argv[4]) : 200);
    else if (argc == 6 && str_eq(argv[1], "genmail"))
        gen_mails(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
    else if ((argc == 5 || argc == 6) && str_eq(argv[1], "hostile"))
        return bench_hostile_write(argv[2], (size_t)atol(argv[3]), argv[4], argc == 6 ? atoi(argv[5]) : 1);
    else if (argc >= 3 && str_eq(argv[1], "rusage"))
        return bench_rusage(argc - 2, argv + 2);
    else if (argc >= 2 && str_eq(argv[1], "pictures"))
        return bench_pictures(argc > 2 ? atoi(argv[2]) : 20, argc > 3 ? atoi(argv[3]) : 10);
    else if (argc >= 4 && str_eq(argv[1], "lmtp-one"))
        return bench_lmtp_one(argv[2], argc - 3, argv + 3);
    else if (argc == 5 && str_eq(argv[1], "lmtp-many"))
        return bench_lmtp_many(argv[2], atoi(argv[3]), argv[4]);
    else if ((argc == 6 || argc == 7) && str_eq(argv[1], "strength"))
        return bench_strength(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), argc == 7 ? atoi(argv[6]) : 0);
    else if (argc == 4 && str_eq(argv[1], "pending"))
        return pending_strong(argv[2], atoi(argv[3]));
    else if (argc == 6 && str_eq(argv[1], "iterations"))
        return bench_iterations(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    else if (argc == 4 && str_eq(argv[1], "plans"))
        return bench_plans(argv[2], atoi(argv[3]));
    else if (argc == 4 && str_eq(argv[1], "row"))
        return bench_row(argv[2], atoi(argv[3]));
    else {
        fprintf(stderr, "usage: bench_ngoma playouts [SECONDS] | dbsize DIR [STEPS] | history DIR [STEPS [ROUNDS]]"
                        " | genmail DB MAILDIR GAMES ORDERS_PER_GAME | hostile DIR SIZE SEAT_ADDRESS [COPIES] | rusage CMD..."
                        " | pictures [POSITIONS [REPEATS]] | lmtp-one WHERE FILE... | lmtp-many WHERE CONNS LIST"
                        " | pending DB GAMES | iterations GAME SEATS MOVES MS | row DB TRANSACTIONS | plans DIR GAMES\n");
        return 64;
    }
    return 0;
}
