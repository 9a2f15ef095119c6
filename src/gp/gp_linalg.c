/* Gaussian-process regression, the model itself: the GP object and its hyper-parameters,
 * covariance kernel names, the Cholesky factor of K + sn2 I (gp_dense.c: a fixed order of
 * operations, so the same bits on every machine) with escalating jitter, and the updates that keep
 * it without a refactorisation: an O(n^2) row append, truncation, new targets under the same
 * factor. Reading the factor: gp_lml.c (the likelihood), gp_predict.c and gp_cache.c (predictions);
 * the covariance between points is in gp_internal.h.
 *
 * References: C. E. Rasmussen & C. K. I. Williams, "Gaussian Processes for Machine
 * Learning", MIT Press 2006: eq. 4.9 and 4.17 (SE and Matern kernels). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gp_internal.h"

#define GP_JITTER_TRIES 8 /* 1e-10 .. 1e-3 of the diagonal */

static const char *const kernel_names[] = {"matern52", "matern32", "se"};

const char *cutune_gp_kernel_name(cutune_gp_kernel k)
{
    return (unsigned)k < 3 ? kernel_names[k] : NULL;
}

int cutune_gp_kernel_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < 3; i++)
        if (strcmp(name, kernel_names[i]) == 0)
            return i;
    if (strcmp(name, "rbf") == 0 || strcmp(name, "sqexp") == 0)
        return CUTUNE_GP_SE;
    return -1;
}

double cutune_gp_kfun(cutune_gp_kernel k, double r)
{
    return cutune_gp_kfun_inline(k, r);
}

cutune_gp *cutune_gp_alloc(size_t dim, cutune_gp_kernel kernel)
{
    if (dim == 0 || (unsigned)kernel > CUTUNE_GP_SE)
        return NULL;
    cutune_gp *gp = calloc(1, sizeof *gp);
    if (!gp)
        return NULL;
    gp->dim = dim;
    gp->kernel = kernel;
    gp->ell = malloc(dim * sizeof *gp->ell);
    if (!gp->ell) {
        free(gp);
        return NULL;
    }
    for (size_t j = 0; j < dim; j++)
        gp->ell[j] = 0.5;
    gp->sf2 = 1.0;
    gp->sn2 = 1e-3;
    gp->mean = 0.0;
    gp->factored = 1;
    return gp;
}

void cutune_gp_free(cutune_gp *gp)
{
    if (!gp)
        return;
    free(gp->ell);
    free(gp->X);
    free(gp->y);
    free(gp->L);
    free(gp->alpha);
    free(gp->work);
    free(gp->work3);
    free(gp->Kf);
    free(gp->R);
    free(gp->work2);
    free(gp->row_id);
    free(gp);
}

size_t cutune_gp_dim(const cutune_gp *gp)
{
    return gp->dim;
}
size_t cutune_gp_n(const cutune_gp *gp)
{
    return gp->n;
}
double cutune_gp_jitter(const cutune_gp *gp)
{
    return gp->jitter;
}
unsigned long cutune_gp_generation(const cutune_gp *gp)
{
    return gp->generation;
}

void cutune_gp_get_hyper(const cutune_gp *gp, cutune_gp_hyper *h)
{
    h->ell = gp->ell;
    h->sf2 = gp->sf2;
    h->sn2 = gp->sn2;
    h->mean = gp->mean;
    h->add = gp->add;
    h->lin = gp->lin;
}

static int reserve(cutune_gp *gp, size_t need, char *err, size_t errlen)
{
    if (need <= gp->cap)
        return 0;
    size_t cap = gp->cap ? gp->cap : 16;
    while (cap < need)
        cap *= 2;
    double *X = realloc(gp->X, cap * gp->dim * sizeof *X);
    if (!X)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory for %zu points", cap);
    gp->X = X;
    double *y = realloc(gp->y, cap * sizeof *y);
    if (!y)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory for %zu points", cap);
    gp->y = y;
    double *alpha = realloc(gp->alpha, cap * sizeof *alpha);
    if (!alpha)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory for %zu points", cap);
    gp->alpha = alpha;
    double *w2 = realloc(gp->work2, cap * sizeof *w2);
    if (!w2)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory for %zu points", cap);
    gp->work2 = w2;
    unsigned long *rid = realloc(gp->row_id, cap * sizeof *rid);
    if (!rid)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory for %zu points", cap);
    gp->row_id = rid;
    double *L = calloc(cap * cap, sizeof *L);
    double *W = malloc(cap * cap * sizeof *W);
    double *Kf = malloc(cap * cap * sizeof *Kf);
    double *R = malloc(cap * cap * sizeof *R);
    double *W3 = malloc(cap * cap * sizeof *W3);
    if (!L || !W || !Kf || !R || !W3) {
        free(L);
        free(W);
        free(Kf);
        free(R);
        free(W3);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory for %zu points", cap);
    }
    for (size_t c = 0; c < gp->n; c++) {
        memcpy(L + c * cap, gp->L + c * gp->cap, gp->n * sizeof *L);
        memcpy(Kf + c * cap, gp->Kf + c * gp->cap, gp->n * sizeof *L);
        memcpy(R + c * cap, gp->R + c * gp->cap, gp->n * sizeof *L);
    }
    free(gp->L);
    free(gp->work);
    free(gp->work3);
    free(gp->Kf);
    free(gp->R);
    gp->L = L;
    gp->work = W;
    gp->work3 = W3;
    gp->Kf = Kf;
    gp->R = R;
    gp->cap = cap;
    return 0;
}

/* alpha = K^-1 (y - mean) from the current factor. */
static void solve_alpha(cutune_gp *gp)
{
    size_t n = gp->n;
    if (n == 0)
        return;
    for (size_t i = 0; i < n; i++)
        gp->alpha[i] = gp->y[i] - gp->mean;
    cutune_gp_dense_solve_lower(gp->L, n, gp->cap, gp->alpha);
    cutune_gp_dense_solve_lower_t(gp->L, n, gp->cap, gp->alpha);
}

int cutune_gp_factorize(cutune_gp *gp, char *err, size_t errlen)
{
    size_t n = gp->n, ld = gp->cap;
    gp->jitter = 0.0;
    gp->factored = 0;
    gp->generation++;
    for (size_t i = 0; i < n; i++)
        gp->row_id[i] = ++gp->serial;
    if (n == 0) {
        gp->factored = 1;
        return 0;
    }
    double diag = gp->sf2 + gp->sn2;
    size_t d = gp->dim;
    double inv_ell[d];
    for (size_t j = 0; j < d; j++)
        inv_ell[j] = 1.0 / gp->ell[j];
    for (size_t c = 0; c < n; c++) {
        const double *xc = gp->X + c * d;
        gp->R[c + c * ld] = 0.0;
        gp->Kf[c + c * ld] = cutune_gp_kernel_self(gp, xc);
        if (gp->add >
            0.0) { /* the additive term needs each parameter's distance: cutune_gp_kernel_between */
            for (size_t r = c + 1; r < n; r++) {
                double rr;
                gp->Kf[r + c * ld] = cutune_gp_kernel_between(gp, xc, gp->X + r * d, &rr);
                gp->R[r + c * ld] = rr;
            }
            continue;
        }
        /* the column below the diagonal at once: squared distances, kernel values (several
         * per instruction), then the distances the likelihood's gradient reads */
        size_t nr = n - c - 1;
        if (nr == 0)
            continue;
        double *Rc = gp->R + (c + 1) + c * ld, *Kc = gp->Kf + (c + 1) + c * ld;
        cutune_gp_sqdist(gp->X + (c + 1) * d, nr, d, xc, inv_ell, Rc);
        memcpy(Kc, Rc, nr * sizeof *Kc);
        cutune_gp_kfun_r2(gp->kernel, 1.0, Kc, nr);
        for (size_t r = 0; r < nr; r++) {
            Rc[r] = sqrt(Rc[r]);
            if (gp->lin > 0.0)
                Kc[r] += gp->lin * cutune_gp_centred_dot(d, xc, gp->X + (c + 1 + r) * d);
        }
    }
    for (int attempt = 0; attempt <= GP_JITTER_TRIES; attempt++) {
        for (size_t c = 0; c < n; c++) {
            gp->L[c + c * ld] = gp->sf2 * gp->Kf[c + c * ld] + gp->sn2 + gp->jitter;
            for (size_t r = c + 1; r < n; r++)
                gp->L[r + c * ld] = gp->sf2 * gp->Kf[r + c * ld];
        }
        /* a NaN anywhere reaches a later pivot: the factorisation refuses it there */
        size_t info = cutune_gp_dense_chol(gp->L, n, ld, gp->work2);
        if (info == 0) {
            for (size_t c = 0; c < n; c++) /* keep the strict upper part clean */
                for (size_t r = 0; r < c; r++)
                    gp->L[r + c * ld] = 0.0;
            gp->factored = 1;
            solve_alpha(gp);
            return 0;
        }
        if (attempt < GP_JITTER_TRIES)
            gp->jitter = diag * pow(10.0, -10.0 + attempt);
    }
    return cutune_err(
        err, errlen, CUTUNE_EMATH,
        "gp: covariance not positive definite even with jitter %g (the largest tried)", gp->jitter);
}

static int check_hyper(const cutune_gp *gp, const cutune_gp_hyper *h, char *err, size_t errlen)
{
    for (size_t j = 0; j < gp->dim; j++)
        if (!(h->ell[j] > 0.0) || !isfinite(h->ell[j]))
            return cutune_err(err, errlen, CUTUNE_EINVAL, "gp: length-scale %zu is %g", j,
                              h->ell[j]);
    if (!(h->sf2 > 0.0) || !isfinite(h->sf2) || !(h->sn2 > 0.0) || !isfinite(h->sn2) ||
        !isfinite(h->mean) || !(h->add >= 0.0 && h->add < 1.0) ||
        !(h->lin >= 0.0 && isfinite(h->lin)))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "gp: bad hyper-parameters sf2=%g sn2=%g m=%g add=%g lin=%g", h->sf2,
                          h->sn2, h->mean, h->add, h->lin);
    return 0;
}

int cutune_gp_set_hyper(cutune_gp *gp, const cutune_gp_hyper *h, char *err, size_t errlen)
{
    int rc = check_hyper(gp, h, err, errlen);
    if (rc < 0)
        return rc;
    if (h->ell != gp->ell)
        memmove(gp->ell, h->ell, gp->dim * sizeof *gp->ell);
    gp->sf2 = h->sf2;
    gp->sn2 = h->sn2;
    gp->mean = h->mean;
    gp->add = h->add;
    gp->lin = h->lin;
    return cutune_gp_factorize(gp, err, errlen);
}

int cutune_gp_set_data(cutune_gp *gp, const double *X, const double *y, size_t n, char *err,
                       size_t errlen)
{
    gp->n = 0;
    int rc = reserve(gp, n, err, errlen);
    if (rc < 0)
        return rc;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(y[i]))
            return cutune_err(err, errlen, CUTUNE_EINVAL, "gp: target %zu is not finite", i);
    if (n) {
        memcpy(gp->X, X, n * gp->dim * sizeof *X);
        memcpy(gp->y, y, n * sizeof *y);
    }
    gp->n = n;
    return cutune_gp_factorize(gp, err, errlen);
}

int cutune_gp_set_targets(cutune_gp *gp, const double *y, size_t n, char *err, size_t errlen)
{
    if (n > gp->n)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "gp: %zu targets for %zu points", n, gp->n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(y[i]))
            return cutune_err(err, errlen, CUTUNE_EINVAL, "gp: target %zu is not finite", i);
    if (n)
        memcpy(gp->y, y, n * sizeof *y);
    gp->n = n;
    gp->ystamp++;
    if (!gp->factored)
        return cutune_gp_factorize(gp, err, errlen);
    solve_alpha(gp);
    return 0;
}

int cutune_gp_add(cutune_gp *gp, const double *x, double y, char *err, size_t errlen)
{
    if (!isfinite(y))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "gp: target is not finite");
    if (!gp->factored) {
        int rc = cutune_gp_factorize(gp, err, errlen);
        if (rc < 0)
            return rc;
    }
    int rc = reserve(gp, gp->n + 1, err, errlen);
    if (rc < 0)
        return rc;
    size_t n = gp->n, ld = gp->cap;
    double *l = gp->work2;
    for (size_t i = 0; i < n; i++) {
        double rr;
        double kf = cutune_gp_kernel_between(gp, x, gp->X + i * gp->dim, &rr);
        gp->R[n + i * ld] = rr;
        gp->Kf[n + i * ld] = kf;
        l[i] = gp->sf2 * kf;
    }
    gp->R[n + n * ld] = 0.0;
    gp->Kf[n + n * ld] = cutune_gp_kernel_self(gp, x);
    cutune_gp_dense_solve_lower(gp->L, n, ld, l);
    double diag = gp->sf2 * gp->Kf[n + n * ld] + gp->sn2 + gp->jitter;
    double d2 = diag - cutune_gp_dense_dot(l, l, n);
    /* A (near) duplicate of a held point with tiny noise: floor the pivot (jitter). */
    double floor = diag * 1e-10;
    if (!(d2 > floor))
        d2 = floor;
    for (size_t i = 0; i < n; i++) {
        gp->L[n + i * ld] = l[i];
        gp->L[i + n * ld] = 0.0;
    }
    gp->L[n + n * ld] = sqrt(d2);
    memcpy(gp->X + n * gp->dim, x, gp->dim * sizeof *x);
    gp->y[n] = y;
    gp->row_id[n] = ++gp->serial;
    gp->n = n + 1;
    solve_alpha(gp);
    return 0;
}

int cutune_gp_truncate(cutune_gp *gp, size_t n, char *err, size_t errlen)
{
    if (n > gp->n)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "gp: truncate to %zu > %zu points", n, gp->n);
    gp->n = n;
    if (!gp->factored)
        return cutune_gp_factorize(gp, err, errlen);
    solve_alpha(gp);
    return 0;
}
