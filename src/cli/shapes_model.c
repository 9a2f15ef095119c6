/* --shape-warm=model: a shape's warm start from a model over configuration and size.
 *
 * One Gaussian process (cutune_gp, Matern 5/2 with a length-scale per input, fitted by
 * marginal likelihood as bo fits its own) over the configuration's encoding in [0,1]^P
 * and the logarithms of the sizes (log2 of each size that varies, scaled to [0,1] over
 * the shapes of the run), fitted on the correct evaluations of every shape tuned before.
 * A shape's target is its log time standardised within the shape: shapes differ in scale
 * by orders of magnitude (a 8192^3 GEMM takes 500 times a 1024^3 one), and what carries
 * over is which configurations are fast, not by how much. The size length-scales say how
 * far a shape's ranking reaches: fitted, they are the model's estimate of how fast the
 * ranking changes with size, where "nearest" takes one shape and "all" weighs every shape
 * alike. The prediction at the new shape's sizes, standardised over its space, is the
 * prior (cutune_warm_prior) that bo's design and genetic's population read, as a file's
 * would be.
 *
 * Failed evaluations are left out (the model is of times); configurations of a shape
 * whose parameter values differ from the new shape's (a value list that depends on the
 * sizes) are dropped. The model holds at most MODEL_MAX_ROWS evaluations, the nearest
 * shapes' first (a shape that does not fit whole gives its first evaluations, in the
 * order they were made): the fit's cost grows with the cube of its rows, and a shape far
 * away says least about this one. Deterministic: the fit's random starts draw from a
 * generator seeded by the run's seed and the shape's place in the order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "cutune/gp.h"
#include "cutune/warm.h"
#include "shapes_warm.h"

/* 256 rows fit in about 1.5 s (release build, 2 cores; the fit is O(rows^3) per restart); four
 * shapes tuned with 60 evaluations each fit whole */
#define MODEL_MAX_ROWS 256

/* Do spaces a and b list the same values for every parameter (so an index vector of one
 * is the same configuration in the other)? */
static int same_values(const cutune_space *a, const cutune_space *b)
{
    size_t np = cutune_space_nparams(a);
    if (np != cutune_space_nparams(b))
        return 0;
    for (size_t p = 0; p < np; p++) {
        const cutune_param *x = cutune_space_param(a, p), *y = cutune_space_param(b, p);
        if (x->nvalues != y->nvalues || strcmp(x->name, y->name) != 0)
            return 0;
        for (size_t v = 0; v < x->nvalues; v++)
            if (strcmp(x->texts[v], y->texts[v]) != 0)
                return 0;
    }
    return 1;
}

/* Index vector idx of the new shape's parameters as model inputs (the encoding of
 * cutune_space_encode), then the shape's scaled log sizes. */
static void encode(const cutune_space *sp, const uint16_t *idx, const double *sizes, size_t nsz,
                   double *x)
{
    size_t np = cutune_space_nparams(sp);
    for (size_t p = 0; p < np; p++) {
        size_t nv = cutune_space_param(sp, p)->nvalues;
        x[p] = nv > 1 ? (double)idx[p] / (double)(nv - 1) : 0.5;
    }
    memcpy(x + np, sizes, nsz * sizeof *x);
}

/* The scaled log sizes of shape sh: the sizes with spread[j] != 0, log2 mapped from
 * [lo_j, hi_j] to [0,1]. */
static size_t size_inputs(const cli_shape *sh, const double *lo, const double *hi, double *out)
{
    size_t n = 0;
    for (size_t j = 0; j < sh->n; j++)
        if (hi[j] > lo[j])
            out[n++] = (log2((double)sh->values[j]) - lo[j]) / (hi[j] - lo[j]);
    return n;
}

static int cmp_score(const void *a, const void *b, void *ctx)
{
    const double *s = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    return s[i] < s[j] ? -1 : s[i] > s[j] ? 1 : (i > j) - (i < j);
}

/* ids by score, ties to the lower id: a bottom-up merge sort (stable; the space can be
 * large, and qsort has no context argument in C11). */
static void sort_ids(size_t *ids, size_t n, const double *score, size_t *tmp)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = cmp_score(&ids[j], &ids[i], (void *)score) < 0 ? ids[j++] : ids[i++];
            while (i < mid)
                tmp[k++] = ids[i++];
            while (j < hi)
                tmp[k++] = ids[j++];
        }
        memcpy(ids, tmp, n * sizeof *ids);
    }
}

int shapes_model_prior(shape_run *R, const size_t *order, size_t k, unsigned long seed,
                       cutune_warm_prior **out, char *err, size_t errlen)
{
    *out = NULL;
    shape_run *tgt = &R[order[k]];
    const cutune_space *sp = tgt->t.space;
    size_t np = cutune_space_nparams(sp), nsz = tgt->shape->n, N = cutune_space_size(sp);
    double lo[SHAPE_MAX_SIZES], hi[SHAPE_MAX_SIZES];
    for (size_t j = 0; j < nsz; j++) {
        lo[j] = hi[j] = log2((double)tgt->shape->values[j]);
        for (size_t i = 0; i < k; i++) {
            double v = log2((double)R[order[i]].shape->values[j]);
            lo[j] = v < lo[j] ? v : lo[j];
            hi[j] = v > hi[j] ? v : hi[j];
        }
    }
    double tsz[SHAPE_MAX_SIZES];
    size_t ds = size_inputs(tgt->shape, lo, hi, tsz), d = np + ds;
    size_t nrows = 0, cap = 0;
    for (size_t i = 0; i < k; i++)
        cap += R[order[i]].hist.n;
    cap = cap < MODEL_MAX_ROWS ? cap : MODEL_MAX_ROWS;
    /* the shapes tuned before, nearest first (ties: the order they were tuned in) */
    size_t near[SHAPES_MAX];
    for (size_t i = 0; i < k; i++) {
        size_t j = i;
        double di = cli_shape_distance(tgt->shape, R[order[i]].shape);
        while (j > 0 && cli_shape_distance(tgt->shape, R[order[near[j - 1]]].shape) > di) {
            near[j] = near[j - 1];
            j--;
        }
        near[j] = i;
    }
    double *X = malloc((cap ? cap : 1) * d * sizeof *X), *y = malloc((cap ? cap : 1) * sizeof *y);
    double *Xs = malloc((N ? N : 1) * d * sizeof *Xs), *mu = malloc((N ? N : 1) * sizeof *mu);
    cutune_warm_prior *p = calloc(1, sizeof *p);
    cutune_gp *gp = NULL;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    size_t *tmp = malloc((N ? N : 1) * sizeof *tmp);
    int rc = 0;
    if (!X || !y || !Xs || !mu || !p || !rng || !tmp) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory (the shapes' model)");
        goto out;
    }
    p->size = N;
    p->nshared = np;
    uint8_t *seen = calloc(N ? N : 1, 1);
    if (!seen) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory (the shapes' model)");
        goto out;
    }
    for (size_t q = 0; q < k && nrows < cap; q++) {
        const shape_run *s = &R[order[near[q]]];
        const cutune_history *h = &s->hist;
        size_t nok = 0;
        double sum = 0, sum2 = 0;
        for (size_t e = 0; e < h->n; e++)
            if (h->e[e].r.status == CUTUNE_STATUS_OK && h->e[e].r.time_ms > 0) {
                double l = log(h->e[e].r.time_ms);
                nok++;
                sum += l;
                sum2 += l * l;
            }
        if (nok < 2)
            continue;
        double m = sum / (double)nok, var = sum2 / (double)nok - m * m;
        if (!(var > 0) || !same_values(s->t.space, sp)) {
            p->ndropped += nok;
            continue;
        }
        double sd = sqrt(var), ssz[SHAPE_MAX_SIZES];
        size_inputs(s->shape, lo, hi, ssz);
        for (size_t e = 0; e < h->n && nrows < cap; e++) {
            const cutune_history_entry *x = &h->e[e];
            if (x->r.status != CUTUNE_STATUS_OK || !(x->r.time_ms > 0))
                continue;
            const uint16_t *idx = cutune_space_config(s->t.space, x->id);
            encode(sp, idx, ssz, ds, X + nrows * d);
            y[nrows++] = (log(x->r.time_ms) - m) / sd;
            long long tid = cutune_space_find(sp, idx);
            if (tid >= 0 && !seen[tid]) {
                seen[tid] = 1;
                p->nexact++;
            }
        }
    }
    free(seen);
    p->nused = nrows;
    if (nrows < 2) { /* nothing to model: the shape starts cold */
        cutune_warm_prior_free(p);
        p = NULL;
        goto out;
    }
    /* as bo fits its GP (bo.c): length-scales from a tenth of a parameter's range, a
     * noise floor of 1e-3 for timing scatter */
    cutune_gp_fit_options fo;
    cutune_gp_fit_options_default(&fo);
    fo.ell_min = 0.1;
    fo.sn2_min = 1e-3;
    gsl_rng_set(rng, seed * 1000003UL + k);
    if (!(gp = cutune_gp_alloc(d, CUTUNE_GP_MATERN52))) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory (the shapes' model)");
        goto out;
    }
    if ((rc = cutune_gp_set_data(gp, X, y, nrows, err, errlen)) < 0 ||
        (rc = cutune_gp_fit(gp, &fo, rng, err, errlen)) < 0)
        goto out;
    for (size_t id = 0; id < N; id++)
        encode(sp, cutune_space_config(sp, id), tsz, ds, Xs + id * d);
    if ((rc = cutune_gp_predict(gp, Xs, N, mu, NULL, err, errlen)) < 0)
        goto out;
    /* standardised over the space, as every prior is */
    double sum = 0, sum2 = 0;
    for (size_t id = 0; id < N; id++)
        sum += mu[id], sum2 += mu[id] * mu[id];
    double m = sum / (double)N, var = sum2 / (double)N - m * m, sd = var > 0 ? sqrt(var) : 1;
    p->score = malloc(N * sizeof *p->score);
    p->order = malloc(N * sizeof *p->order);
    if (!p->score || !p->order) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory (the shapes' model)");
        goto out;
    }
    for (size_t id = 0; id < N; id++) {
        p->score[id] = (mu[id] - m) / sd;
        p->order[id] = id;
    }
    sort_ids(p->order, N, p->score, tmp);
out:
    if (rc < 0 || !p || !p->score) {
        cutune_warm_prior_free(p);
        p = NULL;
    }
    *out = p;
    cutune_gp_free(gp);
    gsl_rng_free(rng);
    free(tmp);
    free(X);
    free(y);
    free(Xs);
    free(mu);
    return rc;
}
