/* Hyper-parameter fit of the GP: maximise the log marginal likelihood (R&W eq. 2.30,
 * gradient eq. 5.9) plus an optional log-normal prior on the length-scales, with GSL's
 * BFGS2 (gsl_multimin_fdfminimizer_vector_bfgs2) from several starts.
 *
 * Parametrisation: theta = (log ell_1..d, log sf2, log sn2, mean, add, log lin), each bounded by a
 * logistic transform theta = lo + (hi - lo) / (1 + exp(-u)) so the optimiser is
 * unconstrained in u. A fixed mean (mean_min == mean_max) or additive weight (add_min ==
 * add_max; 0 by default: the plain stationary kernel) or linear weight (lin_min == lin_max;
 * lin_max 0 by default: no linear term) drops out of u.
 *
 * GSL's BFGS calls cblas_ddot, dnrm2, daxpy, dscal and dcopy: the cutune executable
 * defines them in reference order (src/cli/cblas_pin.c), so no BLAS changes the fit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_rng.h>

#include "gp_internal.h"

void cutune_gp_fit_options_default(cutune_gp_fit_options *o)
{
    o->ell_min = 0.02;
    o->ell_max = 20.0;
    o->sf2_min = 0.05;
    o->sf2_max = 20.0;
    o->sn2_min = 1e-6;
    o->sn2_max = 1.0;
    o->mean_min = -3.0;
    o->mean_max = 3.0;
    o->add_min = 0.0;
    o->add_max = 0.0;
    o->lin_min = 0.0;
    o->lin_max = 0.0;
    o->ell_prior_mu = log(0.5);
    o->ell_prior_sd = 2.0;
    o->nstarts = 3;
    o->max_iter = 60;
    o->min_gain = 0.0;
    o->stop = NULL;
}

/* Copy of everything a factorisation writes, so that a rejected fit can put the GP back
 * exactly as it was (same factor, same row stamps: a prediction cache stays valid). */
typedef struct gp_saved {
    double *ell, sf2, sn2, mean, add, lin, jitter;
    double *L, *Kf, *R, *alpha;
    unsigned long *row_id, generation;
} gp_saved;

static int gp_save(const cutune_gp *gp, gp_saved *sv)
{
    size_t n = gp->n, ld = gp->cap, d = gp->dim;
    sv->ell = malloc(d * sizeof *sv->ell);
    sv->L = malloc(3 * n * n * sizeof *sv->L + n * sizeof *sv->alpha);
    sv->row_id = malloc(n * sizeof *sv->row_id);
    if (!sv->ell || !sv->L || !sv->row_id) {
        free(sv->ell);
        free(sv->L);
        free(sv->row_id);
        return -1;
    }
    sv->Kf = sv->L + n * n;
    sv->R = sv->Kf + n * n;
    sv->alpha = sv->R + n * n;
    memcpy(sv->ell, gp->ell, d * sizeof *sv->ell);
    sv->sf2 = gp->sf2;
    sv->sn2 = gp->sn2;
    sv->mean = gp->mean;
    sv->add = gp->add;
    sv->lin = gp->lin;
    sv->jitter = gp->jitter;
    for (size_t c = 0; c < n; c++) {
        memcpy(sv->L + c * n, gp->L + c * ld, n * sizeof *sv->L);
        memcpy(sv->Kf + c * n, gp->Kf + c * ld, n * sizeof *sv->L);
        memcpy(sv->R + c * n, gp->R + c * ld, n * sizeof *sv->L);
    }
    memcpy(sv->alpha, gp->alpha, n * sizeof *sv->alpha);
    memcpy(sv->row_id, gp->row_id, n * sizeof *sv->row_id);
    sv->generation = gp->generation;
    return 0;
}

static void gp_restore(cutune_gp *gp, const gp_saved *sv)
{
    size_t n = gp->n, ld = gp->cap, d = gp->dim;
    memcpy(gp->ell, sv->ell, d * sizeof *sv->ell);
    gp->sf2 = sv->sf2;
    gp->sn2 = sv->sn2;
    gp->mean = sv->mean;
    gp->add = sv->add;
    gp->lin = sv->lin;
    gp->jitter = sv->jitter;
    for (size_t c = 0; c < n; c++) {
        memcpy(gp->L + c * ld, sv->L + c * n, n * sizeof *sv->L);
        memcpy(gp->Kf + c * ld, sv->Kf + c * n, n * sizeof *sv->L);
        memcpy(gp->R + c * ld, sv->R + c * n, n * sizeof *sv->L);
    }
    memcpy(gp->alpha, sv->alpha, n * sizeof *sv->alpha);
    memcpy(gp->row_id, sv->row_id, n * sizeof *sv->row_id);
    gp->generation = sv->generation;
    gp->factored = 1;
}

typedef struct fit_ctx {
    cutune_gp *gp;
    const cutune_gp_fit_options *o;
    size_t np;       /* parameters optimised: dim + 2 (+1 each: free mean, add, lin) */
    size_t idx[4];   /* beyond the first dim + 2: which of theta[dim + 2..4] u[dim + 2..] is */
    double *lo, *hi; /* theta bounds, dim + 5 each */
    double *theta;   /* dim + 5: the full theta (fixed entries hold their value) */
    double *grad;    /* dim + 5 */
    int bad;         /* a factorisation failed in the last evaluation */
} fit_ctx;

static double sigm(double u)
{
    return 1.0 / (1.0 + exp(-u));
}

static double logit_clamped(double t, double lo, double hi)
{
    double s = (t - lo) / (hi - lo);
    if (s < 1e-6)
        s = 1e-6;
    if (s > 1.0 - 1e-6)
        s = 1.0 - 1e-6;
    return log(s / (1.0 - s));
}

static int apply_theta(fit_ctx *c, const double *theta)
{
    cutune_gp *gp = c->gp;
    size_t d = gp->dim;
    for (size_t j = 0; j < d; j++)
        gp->ell[j] = exp(theta[j]);
    gp->sf2 = exp(theta[d]);
    gp->sn2 = exp(theta[d + 1]);
    gp->mean = theta[d + 2];
    gp->add = theta[d + 3];
    gp->lin = c->o->lin_max > 0.0 ? exp(theta[d + 4]) : 0.0;
    return cutune_gp_factorize(gp, NULL, 0);
}

/* theta index of the optimiser's variable i */
static size_t theta_index(const fit_ctx *c, size_t i)
{
    size_t d = c->gp->dim;
    return i < d + 2 ? i : c->idx[i - (d + 2)];
}

/* f plus the log-normal length-scale prior (up to a constant) at theta = (log ell_1..d,
 * ...), its gradient added to grad[0..d) when grad is not NULL; f itself when the prior is
 * off (sd <= 0). The terms are subtracted from f one by one, in this order: a seed's run
 * depends on the rounding. */
static double add_ell_prior(const cutune_gp_fit_options *o, const double *theta, size_t d, double f,
                            double *grad)
{
    double sd = o->ell_prior_sd;
    if (sd > 0.0)
        for (size_t j = 0; j < d; j++) {
            double z = (theta[j] - o->ell_prior_mu) / sd;
            f -= 0.5 * z * z;
            if (grad)
                grad[j] -= z / sd;
        }
    return f;
}

/* Negative log posterior (up to a constant) and its gradient in u. */
static double neg_obj(fit_ctx *c, const gsl_vector *u, gsl_vector *gu)
{
    size_t d = c->gp->dim;
    for (size_t i = 0; i < c->np; i++) {
        size_t k = theta_index(c, i);
        c->theta[k] = c->lo[k] + (c->hi[k] - c->lo[k]) * sigm(gsl_vector_get(u, i));
    }
    c->bad = 0;
    if (apply_theta(c, c->theta) < 0) {
        c->bad = 1;
        if (gu)
            gsl_vector_set_zero(gu);
        return 1e300;
    }
    double f = add_ell_prior(c->o, c->theta, d, cutune_gp_lml(c->gp, gu ? c->grad : NULL),
                             gu ? c->grad : NULL);
    if (!isfinite(f)) {
        c->bad = 1;
        if (gu)
            gsl_vector_set_zero(gu);
        return 1e300;
    }
    if (gu)
        for (size_t i = 0; i < c->np; i++) {
            size_t k = theta_index(c, i);
            double s = sigm(gsl_vector_get(u, i));
            gsl_vector_set(gu, i, -c->grad[k] * (c->hi[k] - c->lo[k]) * s * (1.0 - s));
        }
    return -f;
}

static double obj_f(const gsl_vector *u, void *p)
{
    return neg_obj(p, u, NULL);
}
static void obj_df(const gsl_vector *u, void *p, gsl_vector *g)
{
    neg_obj(p, u, g);
}
static void obj_fdf(const gsl_vector *u, void *p, double *f, gsl_vector *g)
{
    *f = neg_obj(p, u, g);
}

/* v within [lo, hi] up to a relative 1e-12: a weight fitted in log space is exp(log(w)),
 * which may be one rounding above a fixed bound w (lin=0.1 gives 0.10000000000000002), and
 * the min_gain test must still see it as in bounds (it did not, so a fixed linear weight
 * made every warm refit replace the model). */
static int in_bounds_rel(double v, double lo, double hi)
{
    return v >= lo * (1.0 - 1e-12) && v <= hi * (1.0 + 1e-12);
}

int cutune_gp_fit(cutune_gp *gp, const cutune_gp_fit_options *o, gsl_rng *rng, char *err,
                  size_t errlen)
{
    gsl_set_error_handler_off();
    size_t d = gp->dim;
    if (!(o->add_min >= 0.0 && o->add_min <= o->add_max && o->add_max < 1.0))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "gp: additive weight bounds [%g, %g] not within [0, 1)", o->add_min,
                          o->add_max);
    int lin_on = o->lin_max > 0.0;
    if (!(o->lin_min == 0.0 && o->lin_max == 0.0) &&
        !(o->lin_min > 0.0 && o->lin_min <= o->lin_max && isfinite(o->lin_max)))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "gp: linear weight bounds [%g, %g] not within (0, inf)", o->lin_min,
                          o->lin_max);
    if (gp->n < 2)
        return cutune_gp_factorize(gp, err, errlen);
    fit_ctx c = {.gp = gp, .o = o};
    c.np = d + 2;
    if (o->mean_max > o->mean_min)
        c.idx[c.np++ - (d + 2)] = d + 2;
    if (o->add_max > o->add_min)
        c.idx[c.np++ - (d + 2)] = d + 3;
    if (lin_on && o->lin_max > o->lin_min)
        c.idx[c.np++ - (d + 2)] = d + 4;
    double *mem = malloc((4 * (d + 5)) * sizeof *mem);
    double *start = malloc((d + 5) * sizeof *start);
    double *best = malloc((d + 5) * sizeof *best);
    gsl_vector *u = gsl_vector_alloc(c.np);
    gsl_multimin_fdfminimizer *mz =
        gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, c.np);
    int rc = 0;
    if (!mem || !start || !best || !u || !mz) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory fitting");
        goto out_free;
    }
    c.lo = mem;
    c.hi = mem + (d + 5);
    c.theta = mem + 2 * (d + 5);
    c.grad = mem + 3 * (d + 5);
    for (size_t j = 0; j < d; j++) {
        c.lo[j] = log(o->ell_min);
        c.hi[j] = log(o->ell_max);
    }
    c.lo[d] = log(o->sf2_min);
    c.hi[d] = log(o->sf2_max);
    c.lo[d + 1] = log(o->sn2_min);
    c.hi[d + 1] = log(o->sn2_max);
    c.lo[d + 2] = o->mean_min;
    c.hi[d + 2] = o->mean_max;
    c.lo[d + 3] = o->add_min;
    c.hi[d + 3] = o->add_max;
    c.lo[d + 4] = lin_on ? log(o->lin_min) : 0.0;
    c.hi[d + 4] = lin_on ? log(o->lin_max) : 0.0;

    gsl_multimin_function_fdf fn = {
        .f = obj_f, .df = obj_df, .fdf = obj_fdf, .n = c.np, .params = &c};
    double best_f = INFINITY;
    for (size_t j = 0; j < d; j++)
        start[j] = log(gp->ell[j]);
    start[d] = log(gp->sf2);
    start[d + 1] = log(gp->sn2);
    start[d + 2] = o->mean_max > o->mean_min ? gp->mean : o->mean_min;
    start[d + 3] = gp->add < o->add_min ? o->add_min : gp->add > o->add_max ? o->add_max : gp->add;
    start[d + 4] = 0.0;
    if (lin_on) { /* a GP that had no linear term yet starts at 0.1, within the bounds */
        double l = gp->lin > 0.0 ? gp->lin : 0.1;
        start[d + 4] = log(l < o->lin_min ? o->lin_min : l > o->lin_max ? o->lin_max : l);
    }
    memcpy(best, start, (d + 5) * sizeof *best);
    memcpy(c.theta, start, (d + 5) * sizeof *best); /* the fixed entries */

    /* min_gain: remember the current model and its objective (the GP is factorised at the
     * current hyper-parameters, so this costs one likelihood, no factorisation) */
    gp_saved sv = {0};
    double f_cur = INFINITY;
    int keep_ok = 0;
    /* (a current mean or weight outside the options' bounds is never kept) */
    if (o->min_gain > 0.0 && gp->factored && gp->mean >= o->mean_min && gp->mean <= o->mean_max &&
        gp->add >= o->add_min && gp->add <= o->add_max &&
        (lin_on ? in_bounds_rel(gp->lin, o->lin_min, o->lin_max) : gp->lin == 0.0)) {
        /* (start holds the current hyper-parameters here) */
        double f = add_ell_prior(o, start, d, cutune_gp_lml(gp, NULL), NULL);
        if (isfinite(f) && gp_save(gp, &sv) == 0) {
            f_cur = -f;
            keep_ok = 1;
        }
    }

    for (size_t s = 0; s <= o->nstarts && !(o->stop && *o->stop >= 2); s++) {
        if (s > 0) { /* random start: uniform in the (log) box, ell near its prior */
            for (size_t j = 0; j < d; j++) {
                double t = log(0.1) + gsl_rng_uniform(rng) * (log(2.0) - log(0.1));
                start[j] = t;
            }
            start[d] = log(0.3) + gsl_rng_uniform(rng) * (log(3.0) - log(0.3));
            start[d + 1] = log(1e-4) + gsl_rng_uniform(rng) * (log(0.1) - log(1e-4));
            if (o->mean_max > o->mean_min)
                start[d + 2] = (gsl_rng_uniform(rng) - 0.5);
            if (o->add_max > o->add_min)
                start[d + 3] = o->add_min + gsl_rng_uniform(rng) * (o->add_max - o->add_min);
            if (lin_on && o->lin_max > o->lin_min)
                start[d + 4] = c.lo[d + 4] + gsl_rng_uniform(rng) * (c.hi[d + 4] - c.lo[d + 4]);
        }
        for (size_t i = 0; i < c.np; i++) {
            size_t k = theta_index(&c, i);
            gsl_vector_set(u, i, logit_clamped(start[k], c.lo[k], c.hi[k]));
        }
        if (gsl_multimin_fdfminimizer_set(mz, &fn, u, 0.5, 0.1) != GSL_SUCCESS)
            continue;
        for (size_t it = 0; it < o->max_iter && !(o->stop && *o->stop >= 2); it++) {
            int st = gsl_multimin_fdfminimizer_iterate(mz);
            if (st != GSL_SUCCESS) /* GSL_ENOPROG and friends: take what we have */
                break;
            if (gsl_multimin_test_gradient(mz->gradient, 1e-4) == GSL_SUCCESS)
                break;
        }
        double f = mz->f;
        if (isfinite(f) && f < best_f) {
            best_f = f;
            for (size_t i = 0; i < c.np; i++) {
                size_t k = theta_index(&c, i);
                best[k] = c.lo[k] + (c.hi[k] - c.lo[k]) * sigm(gsl_vector_get(mz->x, i));
            }
        }
    }
    if (keep_ok && !(best_f < f_cur - o->min_gain)) {
        gp_restore(gp, &sv); /* not worth a new model: keep the old one, bit for bit */
    } else if (apply_theta(&c, best) < 0) { /* fall back to the starting values */
        rc = cutune_gp_factorize(gp, err, errlen);
    }
    free(sv.ell);
    free(sv.L);
    free(sv.row_id);
out_free:
    gsl_multimin_fdfminimizer_free(mz);
    gsl_vector_free(u);
    free(best);
    free(start);
    free(mem);
    return rc;
}
