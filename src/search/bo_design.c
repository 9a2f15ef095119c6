/* bo: the initial design.
 *
 * Initial design. Maximin "best candidate" sampling (Mitchell 1991): each point is the one
 * of BO_MAXIMIN_TRIES random unvisited configurations farthest from the points already
 * chosen or evaluated. Size: n_init = min(max(5, budget / 40), 10) (init=N overrides):
 * a GP with a handful of points already beats random choice on these spaces, and every
 * evaluation spent on the design is one not spent on the model (measured on the
 * recordings: a 10-point design costs ~0.015 of the optimum at 60 evaluations against 5).
 * design=lhs instead takes, for each point of the best (maximin) of 32 random Latin
 * hypercubes, the nearest of BO_MAXIMIN_TRIES random configurations: measured (50 seeds,
 * 15 recordings, B = 60) 0.9718 vs 0.9736 on seeds 1000.., 0.9695 vs 0.9719 on 2000..;
 * convolution TitanX at B = 20 0.819 / 0.802 vs 0.800 / 0.778 (random 0.803 / 0.822), milo
 * at 60 0.955 / 0.912 vs 0.931 / 0.929: no consistent gain, so maximin stays the default.
 * A maximum projection (MaxPro) pick in maximin's place loses on convolution what it gains
 * on GEMM, with each GPU left out (docs/searchers.md, "Initial design").
 */
#include "bo_internal.h"

/* Best of BO_MAXIMIN_TRIES random available ids by distance to everything evaluated or
 * pending (weighted by P(success) once failures are known). */
long long bo_maximin_pick(bo_state *s)
{
    long long best = -1;
    double bestv = -1.0;
    double *x = s->bx, *y = s->bx + s->D;
    for (size_t t = 0; t < BO_MAXIMIN_TRIES; t++) {
        long long id = bo_random_available(s);
        if (id < 0)
            break;
        bo_encode(s, (size_t)id, x);
        double md = INFINITY;
        for (size_t i = 0; i < s->nobs; i++) {
            double dd = bo_sqdist(x, s->obs_x + i * s->D, s->D);
            if (dd < md)
                md = dd;
        }
        for (size_t i = 0; i < s->npending; i++) {
            bo_encode(s, s->pending[i], y);
            double dd = bo_sqdist(x, y, s->D);
            if (dd < md)
                md = dd;
        }
        if (md == INFINITY)
            return id; /* the very first point: uniform */
        double v = sqrt(md) * (s->feas_on ? bo_feas_at(s, x, (size_t)-1) : 1.0);
        if (v > bestv) {
            bestv = v;
            best = id;
        }
    }
    return best;
}

/* design=lhs: the best (maximin) of BO_LHS_DESIGNS random Latin hypercubes of n_init
 * points in the d encoded dimensions: every parameter's range is split into n_init
 * strata, each used once, so the design covers each parameter's middle as well as its
 * ends (best-candidate maximin drifts to the corners of the space). */
#define BO_LHS_DESIGNS 32
static int lhs_make(bo_state *s)
{
    size_t n = s->n_init, d = s->d;
    double *cand = malloc(n * d * sizeof *cand);
    size_t *perm = malloc(n * sizeof *perm);
    s->lhs = malloc(n * d * sizeof *s->lhs);
    if (!cand || !perm || !s->lhs) {
        free(cand);
        free(perm);
        free(s->lhs);
        s->lhs = NULL;
        return CUTUNE_ENOMEM;
    }
    double best = -1.0;
    for (int rep = 0; rep < BO_LHS_DESIGNS; rep++) {
        for (size_t j = 0; j < d; j++) {
            for (size_t i = 0; i < n; i++)
                perm[i] = i;
            for (size_t i = n; i > 1; i--) {
                size_t r = bo_uniform_below(s->rng, i), t = perm[i - 1];
                perm[i - 1] = perm[r];
                perm[r] = t;
            }
            for (size_t i = 0; i < n; i++)
                cand[i * d + j] = ((double)perm[i] + gsl_rng_uniform(s->rng)) / (double)n;
        }
        double md = INFINITY;
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) {
                double dd = bo_sqdist(cand + a * d, cand + b * d, d);
                if (dd < md)
                    md = dd;
            }
        if (md > best) {
            best = md;
            memcpy(s->lhs, cand, n * d * sizeof *cand);
        }
    }
    free(cand);
    free(perm);
    return 0;
}

/* The available configuration nearest to design target t, of BO_MAXIMIN_TRIES random
 * ones (maximin_pick once the design is used up or could not be made). */
long long bo_lhs_pick(bo_state *s, size_t t)
{
    if (!s->lhs && lhs_make(s) < 0)
        return bo_maximin_pick(s);
    if (t >= s->n_init)
        return bo_maximin_pick(s);
    const double *target = s->lhs + t * s->d;
    long long best = -1;
    double bestv = INFINITY;
    for (size_t k = 0; k < BO_MAXIMIN_TRIES; k++) {
        long long id = bo_random_available(s);
        if (id < 0)
            break;
        bo_encode(s, (size_t)id, s->bx);
        double dd = bo_sqdist(s->bx, target, s->d);
        if (dd < bestv) {
            bestv = dd;
            best = id;
        }
    }
    return best;
}
