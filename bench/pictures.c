/* pictures.c: the cost of a board's picture per game, beside the cost of the text mail it goes in: milliseconds to draw, bytes of PNG. */
#include "bench.h"
#include "core/bot.h"
#include "core/engine.h"
#include "core/view.h"
#include "judge/notify.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "render/render.h"
#include "store/db.h"
#include "store/settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUDGET_BYTES (60 * 1024)
#define BUDGET_MS 5.0


static const char *const pnames[] = { "Ann", "Bob", "Cleo", "Dan", "Eve", "Fay" };

static double ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

int bench_pictures(int positions, int repeats)
{
    static const char *const emails[6] = { "ann@example.org", "bob@example.org", "cleo@example.org",
                                           "dan@example.org", "eve@example.org", "fay@example.org" };
    sqlite3 *db = db_open(":memory:");
    struct strbuf err = STRBUF_INIT;
    int over = 0;
    if (!db || setting_set(db, "images", "no", &err))
        die("bench pictures: %s", err.buf);
    printf("%-16s %10s %10s %8s %10s %10s %8s\n", "game", "text (ms)", "draw (ms)", "ratio", "median B", "max B",
           "budget");
    /* Every game of the registry, with as many seats as it takes (at most
     * the six names): the most pieces to draw. */
    for (size_t i = 0; game_registry[i]; i++) {
        const struct game_ops *ops = game_registry[i];
        int seats = ops->max_seats > 6 ? 6 : ops->max_seats;
        double *draw = xmalloc(sizeof(double) * (size_t)positions * (size_t)repeats), text_total = 0;
        size_t *bytes = xmalloc(sizeof(size_t) * (size_t)positions), nd = 0, maxb = 0;
        struct game_rec g;
        struct rng r;
        int64_t id;
        cJSON *opts = cJSON_CreateObject();
        int texts = 0;
        if (db_begin(db) || engine_new(db, ops, seats, pnames, emails, opts, 17, true, &id, &err) || db_commit(db))
            die("bench pictures: %s", err.buf);
        cJSON_Delete(opts);
        if (game_load(db, id, &g))
            die("bench pictures: load");
        rng_seed(&r, 5, i);
        for (int p = 0; p < positions; p++) {
            struct render_out out;
            cJSON *view, *prev;
            /* A few steps further into the game, by random orders. */
            for (int k = 0; k < 6 && g.ops->waiting_for(g.st); k++) {
                unsigned w = g.ops->waiting_for(g.st), in = 0;
                struct submission sub = { 0 };
                char *order;
                int s = -1;
                game_missing(db, &g, &in);
                for (int q = 0; q < g.nseats && s < 0; q++)
                    if (in & (1u << q))
                        s = q;
                if (s < 0)
                    break;
                order = bot_random(g.ops, g.st, s, &g.table, rng_next(&r));
                if (db_begin(db) || engine_submit(db, &g, s, order, "bench", 0, &sub) || db_commit(db))
                    die("bench pictures: submit");
                submission_release(&sub);
                free(order);
                (void)w;
            }
            /* The text mail: a seat's turn mail, composed and queued. */
            {
                double t0 = ms_now();
                cJSON *d;
                if (db_begin(db))
                    die("bench pictures: begin");
                d = notify_seat_data(db, &g, 0);
                if (notify_tell(db, &g, 0, "turn", "mail-turn.txt", d, NULL))
                    die("bench pictures: mail");
                cJSON_Delete(d);
                db_rollback(db);
                text_total += ms_now() - t0;
                texts++;
            }
            view = view_json(db, &g, 0);
            prev = view_module_at(db, &g, g.turn - 1, 0);
            render_out_init(&out);
            if (i == 0 && p == 0 && render_board(view, prev, &out, &err) == 0)
                strbuf_setlen(&out.png, 0); /* one draw first, untimed: the font files read, the caches warm */
            for (int k = 0; k < repeats; k++) {
                double t0 = ms_now();
                if (render_board(view, prev, &out, &err))
                    die("bench pictures: %s: %s", ops->name, err.buf);
                draw[nd++] = ms_now() - t0;
            }
            bytes[p] = out.png.len;
            maxb = out.png.len > maxb ? out.png.len : maxb;
            render_out_release(&out);
            cJSON_Delete(view);
            cJSON_Delete(prev);
        }
        qsort(draw, nd, sizeof(double), cmp_double);
        qsort(bytes, (size_t)positions, sizeof(size_t), cmp_size);
        {
            double med = draw[nd / 2], text = text_total / texts;
            bool ok = maxb <= BUDGET_BYTES && med <= BUDGET_MS;
            over += maxb > BUDGET_BYTES;
            printf("%-16s %10.2f %10.2f %8.2f %10zu %10zu %8s\n", ops->name, text, med, med / text,
                   bytes[positions / 2], maxb, ok ? "yes" : "NO");
        }
        game_unload(&g);
        free(draw);
        free(bytes);
    }
    printf("(a seat's board at %d positions each, drawn %d times each: the median draw against the mean text\n"
           " mail of the same seat, composed and queued; budget: %d KB and %.0f ms a picture)\n",
           positions, repeats, BUDGET_BYTES / 1024, BUDGET_MS);
    strbuf_release(&err);
    db_close(db);
    return over ? 1 : 0;
}
