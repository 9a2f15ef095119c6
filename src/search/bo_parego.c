/* bo_parego.c: bo under several objectives, ParEGO (Knowles, IEEE TEVC 10(1), 2006).
 *
 * One fixed scalarisation (the geometric mean of the scores, mo=geomean) steers bo to one
 * part of the Pareto front. ParEGO changes the scalarisation at every model-based proposal
 * (once per batch: a batch's later picks believe fantasies under its first scalarisation):
 * a weight vector drawn uniformly on the simplex from the run's generator, and every
 * successful observation's scores normalised to [0, 1] over the successful observations so
 * far and folded into one number by the augmented Chebyshev function (rho = 0.05: the max
 * term reaches the front's concave parts, the small sum term breaks its ties toward
 * Pareto-optimal points). The GP is given those numbers as its targets (output warp and
 * standardisation as for times) and EI picks the proposal as in one objective, so every
 * draw of the weights aims at another part of the front. Failures and the feasibility model
 * are as in one objective.
 *
 * The scores are normalised as they are, on the hypervolume's scale: normalising their
 * logarithms measured 96.9% of the front's hypervolume against 98.0% on
 * benchmarks/parego's front2 at 60 evaluations (50 seeds), and ParEGO's own evenly spaced
 * weights (i/10 for two objectives) instead of uniform draws 97.9% against 98.0%, the
 * H200 recordings within 0.3 points either way. */
#include "bo_internal.h"

#include <gsl/gsl_rng.h>

#include "cutune/pareto.h"

double cutune_pareto_chebyshev(const double *f, const double *w, const double *lo, const double *hi,
                               size_t m, double rho)
{
    double mx = -INFINITY, sum = 0.0;
    for (size_t j = 0; j < m; j++) {
        double r = hi[j] - lo[j];
        double v = w[j] * (r > 0.0 ? (f[j] - lo[j]) / r : 0.0);
        if (v > mx)
            mx = v;
        sum += v;
    }
    return mx + rho * sum;
}

void bo_parego_weights(gsl_rng *r, double *w, size_t k)
{
    double sum = 0.0;
    for (size_t j = 0; j < k; j++) {
        w[j] = -log(gsl_rng_uniform_pos(r));
        sum += w[j];
    }
    for (size_t j = 0; j < k; j++)
        w[j] /= sum;
}

int bo_parego_on(const bo_state *s)
{
    return s->nobj > 1 && s->mo == BO_MO_PAREGO;
}

void bo_parego_rescalarise(bo_state *s)
{
    size_t k = s->nobj;
    double w[BO_MO_MAX], lo[BO_MO_MAX], hi[BO_MO_MAX];
    bo_parego_weights(s->rng, w, k);
    for (size_t j = 0; j < k; j++) {
        lo[j] = INFINITY;
        hi[j] = -INFINITY;
    }
    for (size_t i = 0; i < s->nok; i++)
        for (size_t j = 0; j < k; j++) {
            double v = s->ok_obj[i * k + j];
            lo[j] = v < lo[j] ? v : lo[j];
            hi[j] = v > hi[j] ? v : hi[j];
        }
    for (size_t i = 0; i < s->nok; i++)
        s->ok_logt[i] = cutune_pareto_chebyshev(s->ok_obj + i * k, w, lo, hi, k, BO_PAREGO_RHO);
    /* obs_t ranks the observations for the local steps: the same scalarisation (ok ones
     * are in obs order in ok_logt) */
    for (size_t i = 0, o = 0; i < s->nobs; i++)
        if (s->obs_ok[i])
            s->obs_t[i] = s->ok_logt[o++];
}
