/* Parameter importance: a functional ANOVA of a random forest fitted to log(time).
 *
 * Hutter, Hoos, Leyton-Brown, "An efficient approach for assessing hyperparameter
 * importance", ICML 2014. A regression tree's leaves are boxes of the (ordinal) value
 * grid, so its marginal over any set of parameters, under the uniform distribution on the
 * grid, is a sum over leaves of the leaf value times the fraction of the other parameters'
 * values the box covers (their eq. 3-5, discrete case). The variance of the marginal in
 * one parameter is its main effect; that of a pair, less both main effects, the pair's
 * interaction. Fractions of each tree's variance are averaged over the forest.
 * log(time) rather than time: kernel times span orders of magnitude, and a parameter
 * that halves the time matters as much for a fast kernel as for a slow one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "report_internal.h"

/* One leaf: its value range [lo, hi] per parameter (indices) and its prediction. */
typedef struct leaf {
    uint16_t *lo, *hi;
    double value;
} leaf;

typedef struct forest_ctx {
    size_t p, n;
    const size_t *nvalues;
    const uint16_t *x; /* n x p */
    const double *y;   /* n */
    size_t min_leaf;
    leaf *leaves;
    size_t nleaves, capleaves;
    size_t *sorted; /* scratch: n */
    int oom;
} forest_ctx;

static int push_leaf(forest_ctx *c, const uint16_t *lo, const uint16_t *hi, double value)
{
    if (c->nleaves == c->capleaves) {
        size_t cap = c->capleaves ? 2 * c->capleaves : 64;
        leaf *l = realloc(c->leaves, cap * sizeof *l);
        if (!l)
            return -1;
        c->leaves = l;
        c->capleaves = cap;
    }
    leaf *l = &c->leaves[c->nleaves];
    l->lo = malloc(c->p * sizeof *l->lo);
    l->hi = malloc(c->p * sizeof *l->hi);
    if (!l->lo || !l->hi) {
        free(l->lo);
        free(l->hi);
        return -1;
    }
    memcpy(l->lo, lo, c->p * sizeof *lo);
    memcpy(l->hi, hi, c->p * sizeof *hi);
    l->value = value;
    c->nleaves++;
    return 0;
}

/* the comparator's context, set before each sort; one per thread (a library user may
 * compute importances on several threads at once) */
static _Thread_local const forest_ctx *sort_ctx;
static _Thread_local size_t sort_feature;
static int by_feature(const void *a, const void *b)
{
    uint16_t va = sort_ctx->x[*(const size_t *)a * sort_ctx->p + sort_feature];
    uint16_t vb = sort_ctx->x[*(const size_t *)b * sort_ctx->p + sort_feature];
    if (va != vb)
        return va < vb ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : *(const size_t *)a > *(const size_t *)b;
}

/* Grow a tree on rows[0..m) (bootstrap indices) inside the box [lo, hi]: the split of
 * least squared error over every parameter and threshold "index <= t" (CART), until a
 * node has fewer than 2 * min_leaf rows or no split reduces the error. */
static void grow(forest_ctx *c, size_t *rows, size_t m, uint16_t *lo, uint16_t *hi)
{
    double sum = 0, sum2 = 0;
    for (size_t i = 0; i < m; i++) {
        double v = c->y[rows[i]];
        sum += v;
        sum2 += v * v;
    }
    double mean = sum / (double)m;
    double sse = sum2 - sum * mean;
    size_t best_f = SIZE_MAX;
    uint16_t best_t = 0;
    double best_sse = sse - 1e-12 * (fabs(sse) + 1);
    if (m >= 2 * c->min_leaf && sse > 1e-12) {
        for (size_t f = 0; f < c->p; f++) {
            if (lo[f] == hi[f])
                continue;
            memcpy(c->sorted, rows, m * sizeof *rows);
            sort_ctx = c;
            sort_feature = f;
            qsort(c->sorted, m, sizeof *c->sorted, by_feature);
            double ls = 0, ls2 = 0;
            for (size_t i = 0; i + 1 < m; i++) {
                double v = c->y[c->sorted[i]];
                ls += v;
                ls2 += v * v;
                uint16_t xi = c->x[c->sorted[i] * c->p + f];
                uint16_t xn = c->x[c->sorted[i + 1] * c->p + f];
                size_t nl = i + 1, nr = m - nl;
                if (xi == xn || nl < c->min_leaf || nr < c->min_leaf)
                    continue;
                double rs = sum - ls, rs2 = sum2 - ls2;
                double s = (ls2 - ls * ls / (double)nl) + (rs2 - rs * rs / (double)nr);
                if (s < best_sse) {
                    best_sse = s;
                    best_f = f;
                    best_t = xi;
                }
            }
        }
    }
    if (best_f == SIZE_MAX) {
        if (push_leaf(c, lo, hi, mean) < 0)
            c->oom = 1;
        return;
    }
    /* partition rows: left <= t */
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (c->x[rows[i] * c->p + best_f] <= best_t) {
            size_t t = rows[k];
            rows[k++] = rows[i];
            rows[i] = t;
        }
    uint16_t save_lo = lo[best_f], save_hi = hi[best_f];
    hi[best_f] = best_t;
    grow(c, rows, k, lo, hi);
    hi[best_f] = save_hi;
    lo[best_f] = (uint16_t)(best_t + 1);
    if (!c->oom)
        grow(c, rows + k, m - k, lo, hi);
    lo[best_f] = save_lo;
}

static void free_leaves(forest_ctx *c)
{
    for (size_t i = 0; i < c->nleaves; i++) {
        free(c->leaves[i].lo);
        free(c->leaves[i].hi);
    }
    c->nleaves = 0;
}

/* The fANOVA of the tree in c->leaves, added to main / pair (fractions); 0 when the tree
 * has no variance over the grid (nothing added). */
static int decompose(const forest_ctx *c, double *main, double *pair, double *scratch)
{
    size_t p = c->p;
    double mean = 0, second = 0;
    for (size_t l = 0; l < c->nleaves; l++) {
        double w = 1;
        for (size_t j = 0; j < p; j++)
            w *= (double)(c->leaves[l].hi[j] - c->leaves[l].lo[j] + 1) / (double)c->nvalues[j];
        mean += w * c->leaves[l].value;
        second += w * c->leaves[l].value * c->leaves[l].value;
    }
    double total = second - mean * mean;
    if (!(total > 1e-12 * (1 + mean * mean)))
        return 0;
    double *vmain = calloc(p, sizeof *vmain);
    if (!vmain)
        return -1;
    /* main effects: marginal m_i(v) for each value v of i */
    for (size_t i = 0; i < p; i++) {
        double *mi = scratch;
        memset(mi, 0, c->nvalues[i] * sizeof *mi);
        for (size_t l = 0; l < c->nleaves; l++) {
            const leaf *lf = &c->leaves[l];
            double w = 1;
            for (size_t j = 0; j < p; j++)
                if (j != i)
                    w *= (double)(lf->hi[j] - lf->lo[j] + 1) / (double)c->nvalues[j];
            for (size_t v = lf->lo[i]; v <= lf->hi[i]; v++)
                mi[v] += w * lf->value;
        }
        double var = 0;
        for (size_t v = 0; v < c->nvalues[i]; v++)
            var += (mi[v] - mean) * (mi[v] - mean);
        vmain[i] = var / (double)c->nvalues[i];
        main[i] += vmain[i] / total;
    }
    /* pairwise: marginal m_ij(v, w) less both main effects */
    for (size_t i = 0; i < p; i++)
        for (size_t k = i + 1; k < p; k++) {
            size_t ni = c->nvalues[i], nk = c->nvalues[k];
            double *mik = scratch;
            memset(mik, 0, ni * nk * sizeof *mik);
            for (size_t l = 0; l < c->nleaves; l++) {
                const leaf *lf = &c->leaves[l];
                double w = 1;
                for (size_t j = 0; j < p; j++)
                    if (j != i && j != k)
                        w *= (double)(lf->hi[j] - lf->lo[j] + 1) / (double)c->nvalues[j];
                for (size_t v = lf->lo[i]; v <= lf->hi[i]; v++)
                    for (size_t u = lf->lo[k]; u <= lf->hi[k]; u++)
                        mik[v * nk + u] += w * lf->value;
            }
            double var = 0;
            for (size_t v = 0; v < ni * nk; v++)
                var += (mik[v] - mean) * (mik[v] - mean);
            double vij = var / (double)(ni * nk) - vmain[i] - vmain[k];
            if (vij < 0) /* rounding */
                vij = 0;
            pair[i * p + k] += vij / total;
        }
    free(vmain);
    return 1;
}

void cutune_report_importance_free(cutune_report_importance *imp)
{
    if (!imp)
        return;
    free(imp->main);
    free(imp->pair);
    free(imp->rank);
    free(imp);
}

static const double *rank_main;
static int by_main_desc(const void *a, const void *b)
{
    double x = rank_main[*(const size_t *)a], y = rank_main[*(const size_t *)b];
    if (x != y)
        return x > y ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

int cutune_report_importance_compute(size_t nparams, const size_t *nvalues, size_t n,
                                     const uint16_t *idx, const double *time_ms,
                                     const cutune_report_importance_opts *opts,
                                     cutune_report_importance **out, char *err, size_t errlen)
{
    *out = NULL;
    cutune_report_importance_opts o = opts ? *opts : (cutune_report_importance_opts){0};
    if (!o.ntrees)
        o.ntrees = 64;
    if (!o.min_leaf)
        o.min_leaf = 2;
    if (!o.seed)
        o.seed = 1;
    size_t p = nparams, maxv = 1;
    for (size_t i = 0; i < p; i++) {
        if (nvalues[i] < 1 || nvalues[i] >= CUTUNE_REPORT_NOVALUE)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "importance: parameter %zu has %zu values", i, nvalues[i]);
        maxv = nvalues[i] > maxv ? nvalues[i] : maxv;
    }
    for (size_t s = 0; s < n; s++) {
        if (!(time_ms[s] > 0))
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "importance: sample %zu: time %g ms is not positive", s, time_ms[s]);
        for (size_t i = 0; i < p; i++)
            if (idx[s * p + i] >= nvalues[i])
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "importance: sample %zu: value index %u of parameter %zu is "
                                  "out of range",
                                  s, idx[s * p + i], i);
    }
    int rc = CUTUNE_ENOMEM;
    cutune_report_importance *imp = calloc(1, sizeof *imp);
    double *y = malloc((n ? n : 1) * sizeof *y);
    size_t *rows = malloc((n ? n : 1) * sizeof *rows);
    size_t *sorted = malloc((n ? n : 1) * sizeof *sorted);
    uint16_t *lo = calloc(p ? p : 1, sizeof *lo), *hi = calloc(p ? p : 1, sizeof *hi);
    double *scratch = malloc(maxv * maxv * sizeof *scratch);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    forest_ctx c = {.p = p, .n = n, .nvalues = nvalues, .x = idx, .min_leaf = o.min_leaf};
    if (!imp || !y || !rows || !sorted || !lo || !hi || !scratch || !rng)
        goto out_free;
    imp->nparams = p;
    imp->nsamples = n;
    imp->main = calloc(p ? p : 1, sizeof *imp->main);
    imp->pair = calloc(p * p != 0 ? p * p : 1, sizeof *imp->pair);
    imp->rank = malloc((p ? p : 1) * sizeof *imp->rank);
    if (!imp->main || !imp->pair || !imp->rank)
        goto out_free;
    for (size_t s = 0; s < n; s++)
        y[s] = log(time_ms[s]);
    c.y = y;
    c.sorted = sorted;
    gsl_rng_set(rng, o.seed);
    for (size_t t = 0; n >= 2 && t < o.ntrees; t++) {
        for (size_t s = 0; s < n; s++) /* bootstrap sample */
            rows[s] = (size_t)gsl_rng_uniform_int(rng, n);
        for (size_t i = 0; i < p; i++) {
            lo[i] = 0;
            hi[i] = (uint16_t)(nvalues[i] - 1);
        }
        grow(&c, rows, n, lo, hi);
        if (c.oom)
            goto out_free;
        int d = decompose(&c, imp->main, imp->pair, scratch);
        free_leaves(&c);
        if (d < 0)
            goto out_free;
        imp->ntrees += (size_t)d;
    }
    for (size_t i = 0; imp->ntrees && i < p; i++) {
        imp->main[i] /= (double)imp->ntrees;
        for (size_t k = i + 1; k < p; k++) {
            imp->pair[i * p + k] /= (double)imp->ntrees;
            imp->pair[k * p + i] = imp->pair[i * p + k];
        }
    }
    for (size_t i = 0; i < p; i++)
        imp->rank[i] = i;
    rank_main = imp->main;
    qsort(imp->rank, p, sizeof *imp->rank, by_main_desc);
    *out = imp;
    imp = NULL;
    rc = 0;
out_free:
    if (rc < 0)
        cutune_err(err, errlen, rc, "importance: out of memory");
    free_leaves(&c);
    free(c.leaves);
    cutune_report_importance_free(imp);
    free(y);
    free(rows);
    free(sorted);
    free(lo);
    free(hi);
    free(scratch);
    gsl_rng_free(rng);
    return rc;
}

int rep_strongest_pair(const cutune_report_importance *imp, const int *used, double floor,
                       size_t *i, size_t *k, double *share)
{
    size_t np = imp->nparams;
    double best = floor;
    int found = 0;
    for (size_t a = 0; a < np; a++)
        for (size_t b = a + 1; b < np; b++)
            if (!used[a * np + b] && imp->pair[a * np + b] > best) {
                best = imp->pair[a * np + b];
                *i = a;
                *k = b;
                found = 1;
            }
    *share = best;
    return found;
}
