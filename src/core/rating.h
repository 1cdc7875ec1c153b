/* rating.h: the Weng-Lin (2011) Bayesian rating, Plackett-Luce model, as OpenSkill 5 sets it up: a pure model, no SQL. */
#ifndef NGOMA_RATING_H
#define NGOMA_RATING_H

#include <stddef.h>

/* The model's parameters; rating_defaults gives OpenSkill 5's. */
struct rating_model {
    double mu, sigma;   /* a new player's rating: 25 and 25/3 */
    double beta;        /* the spread of one performance: 25/6 */
    double kappa;       /* the least a variance may shrink to, as a factor: 0.0001 */
    double tau;         /* added to every sigma before each update: 25/300 */
};
void rating_defaults(struct rating_model *m);

struct rating {
    double mu, sigma;
};

/* The ordinal players are ranked by: mu - 3 sigma. */
double rating_ordinal(const struct rating *r);

#define RATING_TEAMS_MAX 16
#define RATING_TEAM_SIZE_MAX 8

/*
 * One game: nteams teams (2 to RATING_TEAMS_MAX), team t of size[t]
 * players (1 to RATING_TEAM_SIZE_MAX) whose ratings are r[t][0..size-1],
 * updated in place; rank[t] is the team's place, lower is better, equal
 * values tied. -1 (nothing changed) when the shape is out of bounds.
 */
int rating_update(const struct rating_model *m, int nteams, const int *size,
                  struct rating r[][RATING_TEAM_SIZE_MAX], const int *rank);

#endif
