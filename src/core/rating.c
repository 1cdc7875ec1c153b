/* rating.c: the Weng-Lin Plackett-Luce update (Algorithm 4 of Weng and Lin, JMLR 12, 2011), with OpenSkill 5's defaults and its tau. */
#include "core/rating.h"

#include <math.h>

void rating_defaults(struct rating_model *m)
{
    m->mu = 25.0;
    m->sigma = 25.0 / 3.0;
    m->beta = 25.0 / 6.0;
    m->kappa = 0.0001;
    m->tau = 25.0 / 300.0;
}

double rating_ordinal(const struct rating *r)
{
    return r->mu - 3.0 * r->sigma;
}

int rating_update(const struct rating_model *m, int nteams, const int *size,
                  struct rating r[][RATING_TEAM_SIZE_MAX], const int *rank)
{
    double mu[RATING_TEAMS_MAX], var[RATING_TEAMS_MAX], sum_q[RATING_TEAMS_MAX], c2 = 0, c;
    int a[RATING_TEAMS_MAX];

    if (nteams < 2 || nteams > RATING_TEAMS_MAX)
        return -1;
    for (int t = 0; t < nteams; t++)
        if (size[t] < 1 || size[t] > RATING_TEAM_SIZE_MAX)
            return -1;
    /* The dynamics: every sigma grows by tau before the game counts. */
    for (int t = 0; t < nteams; t++)
        for (int j = 0; j < size[t]; j++)
            r[t][j].sigma = sqrt(r[t][j].sigma * r[t][j].sigma + m->tau * m->tau);
    /* A team is the sum of its players; c^2 sums the teams' variance and
     * one beta^2 each. */
    for (int t = 0; t < nteams; t++) {
        mu[t] = var[t] = 0;
        for (int j = 0; j < size[t]; j++) {
            mu[t] += r[t][j].mu;
            var[t] += r[t][j].sigma * r[t][j].sigma;
        }
        c2 += var[t] + m->beta * m->beta;
    }
    c = sqrt(c2);
    /* sum_q[q]: exp(mu/c) over the teams placed no better than q; a[q]:
     * how many share q's place. */
    for (int q = 0; q < nteams; q++) {
        sum_q[q] = 0;
        a[q] = 0;
        for (int i = 0; i < nteams; i++) {
            if (rank[i] >= rank[q])
                sum_q[q] += exp(mu[i] / c);
            if (rank[i] == rank[q])
                a[q]++;
        }
    }
    double omega[RATING_TEAMS_MAX], delta[RATING_TEAMS_MAX];
    for (int i = 0; i < nteams; i++) {
        double e = exp(mu[i] / c);
        omega[i] = delta[i] = 0;
        for (int q = 0; q < nteams; q++) {
            double p;
            if (rank[q] > rank[i])
                continue;
            p = e / sum_q[q];
            delta[i] += p * (1 - p) / a[q];
            omega[i] += ((q == i ? 1.0 : 0.0) - p) / a[q];
        }
        omega[i] *= var[i] / c;
        /* gamma = sigma_i / c, OpenSkill's default. */
        delta[i] *= var[i] / c2 * (sqrt(var[i]) / c);
    }
    for (int i = 0; i < nteams; i++)
        for (int j = 0; j < size[i]; j++) {
            double share = r[i][j].sigma * r[i][j].sigma / var[i];
            r[i][j].mu += share * omega[i];
            r[i][j].sigma *= sqrt(fmax(1 - share * delta[i], m->kappa));
        }
    return 0;
}
