/* check_rating.c: the Plackett-Luce rating against the reference values OpenSkill's implementations test with. */
#include "test_support.h"

#include "core/rating.h"

#include <math.h>

/* One expected player: mu and sigma after the game. */
struct want {
    double mu, sigma;
};

/* Rates nteams one-player teams (all starting at start[i]) ranked rank[]
 * and checks each against want to 4 decimals. */
static void check_ffa(const struct rating_model *m, int n, const struct rating *start, const int *rank,
                      const struct want *want)
{
    struct rating r[RATING_TEAMS_MAX][RATING_TEAM_SIZE_MAX];
    int size[RATING_TEAMS_MAX];
    for (int i = 0; i < n; i++) {
        r[i][0] = start[i];
        size[i] = 1;
    }
    ck_assert_int_eq(rating_update(m, n, size, r, rank), 0);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(fabs(r[i][0].mu - want[i].mu) < 5e-5, "player %d: mu %.6f, expected %.6f", i + 1, r[i][0].mu,
                      want[i].mu);
        ck_assert_msg(fabs(r[i][0].sigma - want[i].sigma) < 5e-5, "player %d: sigma %.6f, expected %.6f", i + 1,
                      r[i][0].sigma, want[i].sigma);
    }
}

static struct rating fresh(const struct rating_model *m)
{
    return (struct rating){ m->mu, m->sigma };
}

/* The model alone, no tau: openskill.js src/models/__tests__/
 * plackett-luce.test.ts ("2p FFA" to "5p FFA"), the same constants as
 * openskill.py 4's tests/models/test_plackett_luce.py. */
START_TEST(free_for_all_2_to_5_without_tau)
{
    struct rating_model m;
    struct rating s[5];
    static const int ranks[] = { 1, 2, 3, 4, 5 };
    static const struct want w2[] = { { 27.63523138347365, 8.065506316323548 },
                                      { 22.36476861652635, 8.065506316323548 } };
    static const struct want w3[] = { { 27.868876552746237, 8.204837030780652 },
                                      { 25.717219138186557, 8.057829747583874 },
                                      { 21.413904309067206, 8.057829747583874 } };
    static const struct want w4[] = { { 27.795084971874736, 8.263160757613477 },
                                      { 26.552824984374855, 8.179213704945203 },
                                      { 24.68943500312503, 8.083731307186588 },
                                      { 20.96265504062538, 8.083731307186588 } };
    static const struct want w5[] = { { 27.666666666666668, 8.290556877154474 },
                                      { 26.833333333333332, 8.240145629781066 },
                                      { 25.72222222222222, 8.179996679645559 },
                                      { 24.055555555555557, 8.111796013701358 },
                                      { 20.72222222222222, 8.111796013701358 } };
    rating_defaults(&m);
    m.tau = 0;
    for (int i = 0; i < 5; i++)
        s[i] = fresh(&m);
    check_ffa(&m, 2, s, ranks, w2);
    check_ffa(&m, 3, s, ranks, w3);
    check_ffa(&m, 4, s, ranks, w4);
    check_ffa(&m, 5, s, ranks, w5);
}
END_TEST

/* With OpenSkill 5's tau: openskill.js src/__tests__/rate.test.ts. */
START_TEST(defaults_with_tau_and_ties)
{
    struct rating_model m;
    rating_defaults(&m);
    struct rating n = fresh(&m);
    /* "reverses rank": 2 players. */
    {
        struct rating s[] = { n, n };
        static const int rank[] = { 2, 1 };
        static const struct want w[] = { { 22.364610506859503, 8.06590141354368 },
                                         { 27.635389493140497, 8.06590141354368 } };
        check_ffa(&m, 2, s, rank, w);
    }
    /* "rate accepts and runs a placket-luce model by default": 4 players. */
    {
        struct rating s[] = { { 29.182, 4.782 }, { 27.174, 4.922 }, { 16.672, 6.217 }, n };
        static const int rank[] = { 1, 2, 3, 4 };
        static const struct want w[] = { { 30.210227447000438, 4.765617924939384 },
                                         { 27.644725221915632, 4.883479590134575 },
                                         { 17.4036218889969, 6.101259408259549 },
                                         { 19.21460876538932, 7.854669920480409 } };
        check_ffa(&m, 4, s, rank, w);
    }
    /* "accepts a rate ordering": ranks out of seat order. */
    {
        struct rating s[] = { { 15, 25 / 3.0 }, { 20, 25 / 3.0 }, { 25, 25 / 3.0 }, { 30, 25 / 3.0 } };
        static const int rank[] = { 1, 3, 4, 2 };
        static const struct want w[] = { { 18.131120980297805, 8.283536573151807 },
                                         { 20.405169039419135, 8.107860440531121 },
                                         { 20.65583040714804, 8.082574596348321 },
                                         { 30.80787957313502, 8.155100416275928 } };
        check_ffa(&m, 4, s, rank, w);
    }
    /* "allows ties": 3 players, the last two tied. */
    {
        struct rating s[] = { { 10, 8 }, { 5, 10 }, { 0, 12 } };
        static const int rank[] = { 1, 2, 2 };
        static const struct want w[] = { { 11.942996666741225, 7.926888197620324 },
                                         { 2.9381178546315034, 9.653804487570165 },
                                         { -1.4024317012198733, 11.323641575516767 } };
        check_ffa(&m, 3, s, rank, w);
    }
    /* "fixes orders of ties": 4 players, two tied second. */
    {
        struct rating s[] = { { 15, 25 / 3.0 }, { 20, 25 / 3.0 }, { 25, 25 / 3.0 }, { 30, 25 / 3.0 } };
        static const int rank[] = { 2, 4, 2, 1 };
        static const struct want w[] = { { 15.340043358359136, 8.213141619804967 },
                                         { 18.007678675484204, 8.189033933813437 },
                                         { 24.25801928251219, 8.166918055585525 },
                                         { 32.39425868364447, 8.247687230833794 } };
        check_ffa(&m, 4, s, rank, w);
    }
    /* "four-way-tie with newbies" and "accepts a score instead of rank"
     * (3 equal scores): a draw moves no mu. */
    {
        struct rating s[] = { n, n, n, n };
        static const int rank[] = { 1, 1, 1, 1 };
        static const struct want w[] = { { 25, 8.263571791259416 },
                                         { 25, 8.263571791259416 },
                                         { 25, 8.263571791259416 },
                                         { 25, 8.263571791259416 } };
        static const struct want w3[] = { { 25, 8.205243377397993 },
                                          { 25, 8.205243377397993 },
                                          { 25, 8.205243377397993 } };
        check_ffa(&m, 4, s, rank, w);
        check_ffa(&m, 3, s, rank, w3);
    }
    /* "accepts a tau term": tau 0.3. */
    {
        struct rating_model t = m;
        struct rating s[] = { { 25, 3 }, { 25, 3 } };
        static const int rank[] = { 1, 2 };
        static const struct want w[] = { { 25.624880438870754, 2.9879993738476953 },
                                         { 24.375119561129246, 2.9879993738476953 } };
        t.tau = 0.3;
        check_ffa(&t, 2, s, rank, w);
    }
}
END_TEST

/* Six players in three teams, the first and last tied: openskill.py
 * 6.2's fixture tests/models/data/plackettluce.json ("ties"), as
 * openskill.js's parity-plackett-luce.test.ts asserts it. */
START_TEST(six_players_tied_teams)
{
    struct rating_model m;
    struct rating r[RATING_TEAMS_MAX][RATING_TEAM_SIZE_MAX];
    static const int size[] = { 1, 2, 3 }, rank[] = { 1, 2, 1 };
    static const struct want w[] = { { 21.63766806988004, 8.310709773172306 },
                                     { 19.53956360838512, 8.268148437657915 },
                                     { 19.87652320008089, 8.237522411103104 } };
    rating_defaults(&m);
    for (int t = 0; t < 3; t++)
        for (int j = 0; j < size[t]; j++)
            r[t][j] = (struct rating){ 20.35125162611535, 8.33148112355601 };
    ck_assert_int_eq(rating_update(&m, 3, size, r, rank), 0);
    for (int t = 0; t < 3; t++)
        for (int j = 0; j < size[t]; j++) {
            ck_assert_msg(fabs(r[t][j].mu - w[t].mu) < 5e-5, "team %d: mu %.6f", t + 1, r[t][j].mu);
            ck_assert_msg(fabs(r[t][j].sigma - w[t].sigma) < 5e-5, "team %d: sigma %.6f", t + 1, r[t][j].sigma);
        }
}
END_TEST

/* A series of three games with ties among five players, no tau:
 * openskill.py 4's tests/models/test_plackett_luce_series.py (scores
 * [9,7,7,5,5], then [9,5,5], then [9,9,7,7]). */
START_TEST(series_of_five_with_ties)
{
    struct rating_model m;
    struct rating p[5], s[5], out[5];
    rating_defaults(&m);
    m.tau = 0;
    for (int i = 0; i < 5; i++)
        p[i] = fresh(&m);
    {
        struct rating r[RATING_TEAMS_MAX][RATING_TEAM_SIZE_MAX];
        int size[] = { 1, 1, 1, 1, 1 }, rank[] = { 1, 2, 2, 3, 3 };
        for (int i = 0; i < 5; i++)
            r[i][0] = p[i];
        ck_assert_int_eq(rating_update(&m, 5, size, r, rank), 0);
        for (int i = 0; i < 5; i++)
            p[i] = r[i][0];
    }
    {
        /* p4, p2, p1 with scores 9, 5, 5. */
        struct rating r[RATING_TEAMS_MAX][RATING_TEAM_SIZE_MAX];
        int size[] = { 1, 1, 1 }, rank[] = { 1, 2, 2 }, who[] = { 4, 2, 1 };
        for (int i = 0; i < 3; i++)
            r[i][0] = p[who[i]];
        ck_assert_int_eq(rating_update(&m, 3, size, r, rank), 0);
        for (int i = 0; i < 3; i++)
            s[who[i]] = r[i][0];
        s[0] = p[0];
        s[3] = p[3];
    }
    {
        /* p3 (as after game 1), p1 and p2 (after game 2), p0 (after
         * game 1), scores 9, 9, 7, 7. */
        struct rating r[RATING_TEAMS_MAX][RATING_TEAM_SIZE_MAX];
        int size[] = { 1, 1, 1, 1 }, rank[] = { 1, 1, 2, 2 }, who[] = { 3, 1, 2, 0 };
        for (int i = 0; i < 4; i++)
            r[i][0] = s[who[i]];
        ck_assert_int_eq(rating_update(&m, 4, size, r, rank), 0);
        for (int i = 0; i < 4; i++)
            out[who[i]] = r[i][0];
        out[4] = s[4];
    }
    static const struct want w[] = { { 26.353761103, 8.11102706 },
                                     { 24.618479789, 7.90533551 },
                                     { 23.065819512, 7.822005595 },
                                     { 24.476332403, 8.106111471 },
                                     { 26.385499685, 8.054090809 } };
    for (int i = 0; i < 5; i++) {
        ck_assert_msg(fabs(out[i].mu - w[i].mu) < 5e-5, "p%d: mu %.6f", i, out[i].mu);
        ck_assert_msg(fabs(out[i].sigma - w[i].sigma) < 5e-5, "p%d: sigma %.6f", i, out[i].sigma);
    }
}
END_TEST

START_TEST(bad_shapes_are_refused)
{
    struct rating_model m;
    struct rating r[RATING_TEAMS_MAX][RATING_TEAM_SIZE_MAX] = { { { 25, 1 } } };
    int size[RATING_TEAMS_MAX + 1] = { 1, 0 }, rank[RATING_TEAMS_MAX + 1] = { 1, 2 };
    rating_defaults(&m);
    ck_assert_int_eq(rating_update(&m, 1, size, r, rank), -1);
    ck_assert_int_eq(rating_update(&m, 2, size, r, rank), -1);
    ck_assert_int_eq(rating_update(&m, RATING_TEAMS_MAX + 1, size, r, rank), -1);
    ck_assert(fabs(r[0][0].sigma - 1) < 1e-12);
}
END_TEST

Suite *rating_suite(void)
{
    Suite *s = suite_create("rating");
    TCase *tc = tcase_create("plackett-luce");
    tcase_add_test(tc, free_for_all_2_to_5_without_tau);
    tcase_add_test(tc, defaults_with_tau_and_ties);
    tcase_add_test(tc, six_players_tied_teams);
    tcase_add_test(tc, series_of_five_with_ties);
    tcase_add_test(tc, bad_shapes_are_refused);
    suite_add_tcase(s, tc);
    return s;
}
