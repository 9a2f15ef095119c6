/* bo's surrogate upkeep (bo.c's top comment says what the model is and why): bringing the GP
 * up to date with the ok observations, the output warp, full and warm refits of the
 * hyperparameters, the phase's settings, and the Kriging believer for pending ids. */
#include "bo_internal.h"

/* Bring the GP up to date with the ok observations: appends (O(n^2) each) under the
 * current standardisation. */
static int gp_catch_up(bo_state *s, char *err, size_t errlen)
{
    while (s->in_gp < s->nok) {
        int rc =
            cutune_gp_add(s->gp, s->ok_x + s->in_gp * s->D, bo_target(s, s->in_gp), err, errlen);
        if (rc < 0)
            return rc;
        s->in_gp++;
    }
    return 0;
}

/* Fit the output warp to the ok log times and give the GP the new targets. The points it
 * holds keep their Cholesky factor (it does not depend on the targets: cutune_gp_set_targets,
 * O(n^2), and the prediction cache refreshes its mean in O(m n)); the points since are
 * appended. Reloading everything (cutune_gp_set_data) would refactorise in O(n^3) and make
 * the cache rebuild in O(m n^2) at every refit: with the whole space scored that rebuild was
 * most of a run's time. */
int bo_rewarp(bo_state *s, char *err, size_t errlen)
{
    size_t n = s->nok;
    if (cutune_gp_warp_fit(&s->warp, s->warp_kind, s->ok_logt, n) < 0)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
    bo_warm_weigh(s);
    double *y = malloc(n * sizeof *y);
    if (!y)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
    for (size_t i = 0; i < n; i++)
        y[i] = bo_target(s, i);
    int rc;
    if (s->in_gp > 0 && cutune_gp_n(s->gp) == s->in_gp) {
        rc = cutune_gp_set_targets(s->gp, y, s->in_gp, err, errlen);
        free(y);
        if (rc == 0)
            rc = gp_catch_up(s, err, errlen);
    } else {
        rc = cutune_gp_set_data(s->gp, s->ok_x, y, n, err, errlen);
        free(y);
        if (rc == 0)
            s->in_gp = n;
    }
    s->rewarps++; /* a pool is redrawn after it, as when every rewarp refactorised */
    return rc;
}

/* Full refit: refit the output warp, reload the GP and fit the hyper-parameters
 * from the current values and fit.nstarts random starts. */
static int refit_full(bo_state *s, char *err, size_t errlen)
{
    size_t n = s->nok;
    int rc = bo_rewarp(s, err, errlen);
    if (rc < 0)
        return rc;
    rc = cutune_gp_fit(s->gp, &s->fit, s->rng, err, errlen);
    if (rc < 0)
        return rc;
    s->in_gp = n;
    s->fit_n = n;
    s->full_n = n;
    return 0;
}

/* Warm refit: append the new points, then one BFGS run from the current optimum; in the
 * safe phase the result replaces the model only when it gains more than BO_MIN_GAIN nats
 * of (penalised) likelihood (refit=gain): the likelihood surface moves little with one more
 * point, and an insignificant change of hyper-parameters is not worth a new factor and an
 * O(m n^2) rebuild of the prediction cache. The edge phase replaces the model at every
 * warm refit (refit=always): until the min_gain test was fixed for a fixed linear weight
 * (gp_hyper.c, in_bounds_rel) it always did, and that measured better than keeping
 * insignificant changes (six hardest recordings, 150 seeds, B = 60: mean 0.9657 vs 0.9623;
 * gemm_AMD_Vega 0.969 vs 0.962, convolution_milo_A4000 0.961 vs 0.949). */
static int refit_warm(bo_state *s, char *err, size_t errlen)
{
    int rc = s->warp_kind != CUTUNE_GP_WARP_NONE ? bo_rewarp(s, err, errlen)
                                                 : gp_catch_up(s, err, errlen);
    if (rc < 0)
        return rc;
    cutune_gp_fit_options o = s->fit;
    o.nstarts = 0;
    size_t it = s->nok > BO_WARM_LATE ? BO_WARM_ITER_LATE : BO_WARM_ITER;
    if (o.max_iter > it)
        o.max_iter = it;
    o.min_gain = s->warm_gain;
    rc = cutune_gp_fit(s->gp, &o, s->rng, err, errlen);
    if (rc < 0)
        return rc;
    s->fit_n = s->nok;
    return 0;
}

/* The early phase (early=, see the top comment): edge (1) or safe (0). Options given
 * explicitly are left as they are. */
void bo_set_phase(bo_state *s, int edge)
{
    s->edge = edge;
    if (!s->set_lin)
        s->fit.lin_min = s->fit.lin_max = edge ? BO_EDGE_LIN : 0.0;
    if (!s->set_lprior) {
        s->lprior_mode = edge ? BO_LPRIOR_DIM : BO_LPRIOR_AUTO;
        s->lprior_now = -1; /* auto: set by the next sync */
    }
    if (!s->set_lweak)
        s->lweak_max = edge ? 0 : BO_LOCAL_WEAK;
    if (!s->set_refit)
        s->warm_gain = edge ? 0.0 : BO_MIN_GAIN;
    if (!s->set_pairs)
        s->pairs = edge;
}

int bo_sync_model(bo_state *s, char *err, size_t errlen)
{
    /* early=auto drops the edge phase for good when most evaluations fail: the ends of
     * the ranges are then mostly failures (a Cartesian space whose restrictions the
     * searcher was not given), where the safe phase does better (see the top comment) */
    if (s->edge && s->early == BO_EARLY_AUTO && s->nobs >= s->n_init && 2 * s->nok < s->nobs) {
        bo_set_phase(s, 0);
        s->full_n = 0; /* another objective: refit from scratch */
        s->lgp_n = 0;  /* and the local model (lweak= given explicitly) too */
    }
    if (s->feas_on && s->nobs <= BO_FEAS_PAIRS_MAX &&
        (s->nobs <= BO_FEAS_ALL || (double)s->nobs >= BO_FEAS_GROWTH * (double)s->feas_n)) {
        bo_feas_select_bandwidth(s);
        s->feas_n = s->nobs;
    }
    if (s->nok == 0)
        return 0;
    if (s->lprior_mode == BO_LPRIOR_AUTO) {
        /* Fewer successful points than inputs cannot identify ARD length-scales: the
         * dimension-scaled prior then decides alone, and its long length-scales make a
         * nearly linear model whose EI runs to the edges of the space (measured below
         * random search at 20 evaluations where most of the space fails). The weak prior
         * until nok >= D; the switch changes the objective, so it refits from scratch. */
        int want = s->nok >= s->D;
        if (want != s->lprior_now) {
            int first = s->lprior_now < 0;
            s->lprior_now = want;
            s->fit.ell_prior_mu = want ? s->dim_mu : s->weak_mu;
            s->fit.ell_prior_sd = want ? s->dim_sd : s->weak_sd;
            if (!first && s->full_n)
                return refit_full(s, err, errlen);
        }
    }
    /* Multi-start fits (restandardised) at the first fit and whenever the count has
     * doubled (up to BO_FULL_MAX); warm refits after every observation up to
     * BO_REFIT_ALL, then on a geometric schedule; plain appends in between. */
    if (s->full_n == 0 ||
        (s->nok <= BO_FULL_MAX && (double)s->nok >= BO_FULL_GROWTH * (double)s->full_n))
        return refit_full(s, err, errlen);
    if (s->nok != s->fit_n &&
        (s->nok <= BO_REFIT_ALL || (double)s->nok >= BO_REFIT_GROWTH * (double)s->fit_n))
        return refit_warm(s, err, errlen);
    return gp_catch_up(s, err, errlen);
}

/* ---------- proposals and observations ---------- */

/* Bring the model up to date with the observations (refits on their schedule), redraw
 * the pool after a refit, and snapshot the prediction cache when `left` picks remain (the
 * batch's fantasies are appended to it and dropped again). */
int bo_prepare_model(bo_state *s, size_t left, char *err, size_t errlen)
{
    int rc = bo_sync_model(s, err, errlen);
    if (rc < 0)
        return rc;
    if (s->pooled &&
        (!s->cache || cutune_gp_generation(s->gp) != s->pool_gen ||
         s->rewarps != s->pool_rewarps) &&
        (rc = bo_build_pool(s)) < 0)
        return cutune_err(err, errlen, rc, "bo: out of memory for the candidate pool");
    if (left > 1 && s->cache) {
        if ((rc = cutune_gp_cache_sync(s->cache, s->gp, err, errlen)) < 0 ||
            (rc = cutune_gp_cache_snapshot(s->cache, err, errlen)) < 0)
            return rc;
    }
    return 0;
}

/* The Kriging believer for the first npre pending ids: each gets a fantasy observation
 * at the model's posterior mean, as a batch's earlier picks do. */
int bo_believe_pending(bo_state *s, size_t npre, char *err, size_t errlen)
{
    for (size_t p = 0; p < npre; p++) {
        double *x = s->bx, mu;
        bo_encode(s, s->pending[p], x);
        int rc = cutune_gp_predict(s->gp, x, 1, &mu, NULL, err, errlen);
        if (rc < 0 || (rc = cutune_gp_add(s->gp, x, mu, err, errlen)) < 0)
            return rc;
    }
    return 0;
}
