/* Gaussian-process regression: covariance kernels, Cholesky factor (LAPACKE dpotrf on
 * OpenBLAS) with escalating jitter, O(n^2) row append, batched prediction (cblas_dgemm,
 * cblas_dgemv, cblas_dtrsm over candidate blocks) and the log marginal likelihood with
 * its analytic gradient.
 *
 * References: C. E. Rasmussen & C. K. I. Williams, "Gaussian Processes for Machine
 * Learning", MIT Press 2006: Algorithm 2.1 (prediction), eq. 2.30 (log marginal
 * likelihood), eq. 5.9 (its gradient), eq. 4.9 and 4.17 (SE and Matern kernels).
 *
 * This file includes OpenBLAS's cblas.h and must never include GSL's gsl_cblas.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "gp_internal.h"

#define GP_BLOCK 256      /* candidates per prediction block */
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

/* d k / d log ell_j = sf2 * kgrad(r) * (dx_j / ell_j)^2, with kgrad(r) computed from the
 * kernel value kf = k(r) / sf2 (no second exp). */
static double kgrad_from(cutune_gp_kernel k, double r, double kf)
{
    switch (k) {
    case CUTUNE_GP_MATERN32: return 3.0 * kf / (1.0 + sqrt(3.0) * r);
    case CUTUNE_GP_SE: return kf;
    case CUTUNE_GP_MATERN52:
    default: {
        double s = sqrt(5.0) * r;
        return 5.0 / 3.0 * (1.0 + s) * kf / (1.0 + s + s * s / 3.0);
    }
    }
}

/* Additive part between a and b: e2 / C(D, 2) (e1 for D = 1), from e1 = sum k_j and
 * q = sum k_j^2 (e2 = (e1^2 - q) / 2). */
static double add_part(size_t D, double e1, double q)
{
    return D >= 2 ? (e1 * e1 - q) / ((double)D * (double)(D - 1)) : e1;
}

/* (a - c).(b - c), c the centre of the unit box: the linear term's inner product */
static double lin_dot(size_t D, const double *a, const double *b)
{
    double s = 0.0;
    for (size_t j = 0; j < D; j++)
        s += (a[j] - 0.5) * (b[j] - 0.5);
    return s;
}

/* Prior variance / sf2 at a point with |x - c|^2 = uu: 1, plus the linear term's lin uu. */
static double kself_uu(const cutune_gp *gp, double uu)
{
    return gp->lin > 0.0 ? 1.0 + gp->lin * uu : 1.0;
}

/* Prior variance / sf2 at x. */
static double kself(const cutune_gp *gp, const double *x)
{
    return gp->lin > 0.0 ? kself_uu(gp, lin_dot(gp->dim, x, x)) : 1.0;
}

/* Kernel / sf2 between a and b (see cutune_gp_lml); *r_out = the scaled distance. */
static double kval(const cutune_gp *gp, const double *a, const double *b, double *r_out)
{
    size_t D = gp->dim;
    double r2 = 0.0, e1 = 0.0, q = 0.0;
    for (size_t j = 0; j < D; j++) {
        double t = (a[j] - b[j]) * (1.0 / gp->ell[j]); /* as cutune_gp_sqdist: same bits */
        r2 += t * t;
        if (gp->add > 0.0) {
            double k1 = exp(-0.5 * t * t);
            e1 += k1;
            q += k1 * k1;
        }
    }
    double r = sqrt(r2);
    if (r_out)
        *r_out = r;
    double ks = cutune_gp_kfun(gp->kernel, r);
    if (gp->add > 0.0)
        ks = (1.0 - gp->add) * ks + gp->add * add_part(D, e1, q);
    return gp->lin > 0.0 ? ks + gp->lin * lin_dot(D, a, b) : ks;
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
    if (!L || !W || !Kf || !R) {
        free(L);
        free(W);
        free(Kf);
        free(R);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory for %zu points", cap);
    }
    for (size_t c = 0; c < gp->n; c++) {
        memcpy(L + c * cap, gp->L + c * gp->cap, gp->n * sizeof *L);
        memcpy(Kf + c * cap, gp->Kf + c * gp->cap, gp->n * sizeof *L);
        memcpy(R + c * cap, gp->R + c * gp->cap, gp->n * sizeof *L);
    }
    free(gp->L);
    free(gp->work);
    free(gp->Kf);
    free(gp->R);
    gp->L = L;
    gp->work = W;
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
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, (int)n, gp->L, (int)gp->cap,
                gp->alpha, 1);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, (int)n, gp->L, (int)gp->cap,
                gp->alpha, 1);
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
        gp->Kf[c + c * ld] = kself(gp, xc);
        if (gp->add > 0.0) { /* the additive term needs each parameter's distance: kval */
            for (size_t r = c + 1; r < n; r++) {
                double rr;
                gp->Kf[r + c * ld] = kval(gp, xc, gp->X + r * d, &rr);
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
                Kc[r] += gp->lin * lin_dot(d, xc, gp->X + (c + 1 + r) * d);
        }
    }
    for (int attempt = 0; attempt <= GP_JITTER_TRIES; attempt++) {
        for (size_t c = 0; c < n; c++) {
            gp->L[c + c * ld] = gp->sf2 * gp->Kf[c + c * ld] + gp->sn2 + gp->jitter;
            for (size_t r = c + 1; r < n; r++)
                gp->L[r + c * ld] = gp->sf2 * gp->Kf[r + c * ld];
        }
        /* _work: no O(n^2) NaN scan of the input on every call (the hyper-parameter fit
         * factorises hundreds of times); a NaN shows up on the diagonal instead. */
        lapack_int info =
            LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', (lapack_int)n, gp->L, (lapack_int)ld);
        for (size_t c = 0; info == 0 && c < n; c++)
            if (!isfinite(gp->L[c + c * ld]))
                info = (lapack_int)c + 1;
        if (info == 0) {
            for (size_t c = 0; c < n; c++) /* keep the strict upper part clean */
                for (size_t r = 0; r < c; r++)
                    gp->L[r + c * ld] = 0.0;
            gp->factored = 1;
            solve_alpha(gp);
            return 0;
        }
        if (info < 0)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "gp: dpotrf argument %d invalid",
                              (int)-info);
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
        double kf = kval(gp, x, gp->X + i * gp->dim, &rr);
        gp->R[n + i * ld] = rr;
        gp->Kf[n + i * ld] = kf;
        l[i] = gp->sf2 * kf;
    }
    gp->R[n + n * ld] = 0.0;
    gp->Kf[n + n * ld] = kself(gp, x);
    if (n)
        cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, (int)n, gp->L, (int)ld,
                    l, 1);
    double diag = gp->sf2 * gp->Kf[n + n * ld] + gp->sn2 + gp->jitter;
    double d2 = diag - (n ? cblas_ddot((int)n, l, 1, l, 1) : 0.0);
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

int cutune_gp_predict(const cutune_gp *gp, const double *Xs, size_t m, double *mean, double *var,
                      char *err, size_t errlen)
{
    size_t n = gp->n, d = gp->dim;
    if (!gp->factored)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "gp: predict before factorisation");
    if (n == 0) {
        for (size_t i = 0; i < m; i++) {
            mean[i] = gp->mean;
            if (var)
                var[i] = gp->sf2 * kself(gp, Xs + i * d);
        }
        return 0;
    }
    size_t B = GP_BLOCK;
    double *Xt = malloc(n * d * sizeof *Xt);
    double *xn = malloc(n * sizeof *xn);
    double *Zs = malloc(B * d * sizeof *Zs);
    double *zn = malloc(B * sizeof *zn);
    double *C = malloc(n * B * sizeof *C);
    int rc = 0;
    if (!Xt || !xn || !Zs || !zn || !C) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory predicting %zu points", m);
        goto out_free;
    }
    for (size_t i = 0; i < n; i++) {
        double s = 0.0;
        for (size_t j = 0; j < d; j++) {
            double v = gp->X[i * d + j] / gp->ell[j];
            Xt[i * d + j] = v;
            s += v * v;
        }
        xn[i] = s;
    }
    for (size_t b0 = 0; b0 < m; b0 += B) {
        size_t nb = m - b0 < B ? m - b0 : B;
        if (gp->add > 0.0) { /* the additive term needs each parameter's distance: direct */
            for (size_t b = 0; b < nb; b++)
                for (size_t i = 0; i < n; i++)
                    C[i + b * n] = gp->sf2 * kval(gp, Xs + (b0 + b) * d, gp->X + i * d, NULL);
        } else {
            for (size_t b = 0; b < nb; b++) {
                double s = 0.0;
                for (size_t j = 0; j < d; j++) {
                    double v = Xs[(b0 + b) * d + j] / gp->ell[j];
                    Zs[b * d + j] = v;
                    s += v * v;
                }
                zn[b] = s;
            }
            /* C (n x nb, column-major) = Xt Zs^T: the cross terms of the squared distances. */
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, (int)nb, (int)d, 1.0, Xt,
                        (int)d, Zs, (int)d, 0.0, C, (int)n);
            for (size_t b = 0; b < nb; b++) {
                double *c = C + b * n;
                for (size_t i = 0; i < n; i++)
                    c[i] = xn[i] + zn[b] - 2.0 * c[i];
                cutune_gp_kfun_r2(gp->kernel, gp->sf2, c, n);
                if (gp->lin > 0.0)
                    for (size_t i = 0; i < n; i++)
                        c[i] += gp->sf2 * gp->lin * lin_dot(d, Xs + (b0 + b) * d, gp->X + i * d);
            }
        }
        cblas_dgemv(CblasColMajor, CblasTrans, (int)n, (int)nb, 1.0, C, (int)n, gp->alpha, 1, 0.0,
                    mean + b0, 1);
        for (size_t b = 0; b < nb; b++)
            mean[b0 + b] += gp->mean;
        if (var) {
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, (int)n,
                        (int)nb, 1.0, gp->L, (int)gp->cap, C, (int)n);
            for (size_t b = 0; b < nb; b++) {
                const double *v = C + b * n;
                double v2 = cblas_ddot((int)n, v, 1, v, 1);
                double s = gp->sf2 * kself(gp, Xs + (b0 + b) * d) - v2;
                var[b0 + b] = s > 1e-12 * gp->sf2 ? s : 1e-12 * gp->sf2;
            }
        }
    }
out_free:
    free(C);
    free(zn);
    free(Zs);
    free(xn);
    free(Xt);
    return rc;
}

double cutune_gp_lml(cutune_gp *gp, double *grad)
{
    size_t n = gp->n, d = gp->dim, ld = gp->cap;
    if (grad)
        memset(grad, 0, (d + 5) * sizeof *grad);
    if (n == 0)
        return -INFINITY;
    if (!gp->factored && cutune_gp_factorize(gp, NULL, 0) < 0)
        return -INFINITY;
    double fit = 0.0, logdet = 0.0;
    for (size_t i = 0; i < n; i++) {
        fit += (gp->y[i] - gp->mean) * gp->alpha[i];
        logdet += log(gp->L[i + i * ld]);
    }
    double lml = -0.5 * fit - logdet - 0.5 * (double)n * log(2.0 * M_PI);
    if (!grad)
        return lml;

    /* W = alpha alpha' - K^-1 (lower part); dlml/dtheta = tr(W dK/dtheta) / 2. */
    double *W = gp->work;
    for (size_t c = 0; c < n; c++)
        memcpy(W + c * n, gp->L + c * ld, n * sizeof *W);
    if (LAPACKE_dpotri_work(LAPACK_COL_MAJOR, 'L', (lapack_int)n, W, (lapack_int)n) != 0) {
        memset(grad, 0, (d + 5) * sizeof *grad);
        return lml;
    }
    double gsf = 0.0, trW = 0.0, gm = 0.0, gadd = 0.0, glin = 0.0;
    double k1v[d], t2v[d]; /* additive term: per-parameter kernels and t^2 of one pair */
    for (size_t c = 0; c < n; c++) {
        const double *xc = gp->X + c * d;
        double wcc = gp->alpha[c] * gp->alpha[c] - W[c + c * n];
        trW += wcc;
        gsf += wcc * gp->sf2 * gp->Kf[c + c * ld];
        gm += gp->alpha[c];
        if (gp->lin > 0.0)
            glin += wcc * gp->sf2 * gp->lin * lin_dot(d, xc, xc);
        for (size_t r = c + 1; r < n; r++) {
            const double *xr = gp->X + r * d;
            double w = gp->alpha[r] * gp->alpha[c] - W[r + c * n];
            double kf = gp->Kf[r + c * ld];
            gsf += 2.0 * w * gp->sf2 * kf;
            if (gp->lin > 0.0) {
                double lrc = gp->lin * lin_dot(d, xc, xr);
                glin += 2.0 * w * gp->sf2 * lrc;
                kf -= lrc; /* the stationary part, for the length-scales below */
            }
            if (gp->add > 0.0) {
                /* stationary part: its own kernel value (Kf holds the mixture) */
                double rr = gp->R[r + c * ld], ks = cutune_gp_kfun(gp->kernel, rr);
                double g = w * gp->sf2 * (1.0 - gp->add) * kgrad_from(gp->kernel, rr, ks);
                double e1 = 0.0, q = 0.0;
                for (size_t j = 0; j < d; j++) { /* each k_j once, kept for the sum below */
                    double t = (xc[j] - xr[j]) / gp->ell[j];
                    t2v[j] = t * t;
                    k1v[j] = exp(-0.5 * t2v[j]);
                    e1 += k1v[j];
                    q += k1v[j] * k1v[j];
                }
                gadd += w * gp->sf2 * (add_part(d, e1, q) - ks);
                /* d e2 / d k_j = e1 - k_j; d k_j / d log ell_j = k_j t_j^2 */
                double c2 = gp->add * (d >= 2 ? 2.0 / ((double)d * (double)(d - 1)) : 1.0);
                for (size_t j = 0; j < d; j++) {
                    double de = d >= 2 ? e1 - k1v[j] : 1.0;
                    grad[j] += g * t2v[j] + w * gp->sf2 * c2 * de * k1v[j] * t2v[j];
                }
            } else {
                double g = w * gp->sf2 * kgrad_from(gp->kernel, gp->R[r + c * ld], kf);
                if (g != 0.0)
                    for (size_t j = 0; j < d; j++) {
                        double t = (xc[j] - xr[j]) / gp->ell[j];
                        grad[j] += g * t * t; /* two symmetric entries times 1/2 */
                    }
            }
        }
    }
    grad[d] = 0.5 * gsf;
    grad[d + 1] = 0.5 * gp->sn2 * trW;
    grad[d + 2] = gm;
    grad[d + 3] = gadd; /* off-diagonal pairs counted once: tr(W dK) / 2 */
    grad[d + 4] = 0.5 * glin;
    return lml;
}

/* ---------- prediction cache ---------- */

struct cutune_gp_cache {
    const double *Xc;            /**< m x dim candidates (view) */
    size_t m, dim;               /**< candidates, dimension */
    size_t n, cap;               /**< columns of V held, allocated */
    double *V;                   /**< m x cap, column-major: K(Xc, X) L^-T */
    double *z;                   /**< cap: L^-1 (y - mean) */
    double *mean, *s2;           /**< m: mean + V z, rowsum(V.^2) */
    double *var;                 /**< m: prior variance sf2 (1 + lin |x - c|^2) - s2 */
    unsigned long *row_id;       /**< cap: stamps of the GP rows behind the columns of V */
    const cutune_gp *gp;         /**< that GP */
    double *snap_mean, *snap_s2; /**< snapshot of mean, s2 */
    size_t snap_n;               /**< columns at the snapshot; (size_t)-1 when none */
    unsigned long ystamp;        /**< the GP's ystamp behind z and mean */
    unsigned long snap_ystamp;   /**< ... behind the snapshot's mean */
    double *lrow;                /**< cap scratch: a row of L (cache_append) */
    double *uu;                  /**< m: |x - c|^2 per candidate, set by a rebuild (linear term) */
};

cutune_gp_cache *cutune_gp_cache_alloc(const double *Xc, size_t m, size_t dim)
{
    cutune_gp_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->Xc = Xc;
    c->m = m;
    c->dim = dim;
    c->snap_n = (size_t)-1;
    size_t mm = m ? m : 1;
    c->mean = malloc(mm * sizeof *c->mean);
    c->s2 = malloc(mm * sizeof *c->s2);
    c->var = malloc(mm * sizeof *c->var);
    c->uu = calloc(mm, sizeof *c->uu); /* zeros: read (and ignored) while lin is 0 */
    if (!c->mean || !c->s2 || !c->var || !c->uu) {
        cutune_gp_cache_free(c);
        return NULL;
    }
    return c;
}

void cutune_gp_cache_free(cutune_gp_cache *c)
{
    if (!c)
        return;
    free(c->V);
    free(c->z);
    free(c->row_id);
    free(c->mean);
    free(c->s2);
    free(c->var);
    free(c->lrow);
    free(c->uu);
    free(c->snap_mean);
    free(c->snap_s2);
    free(c);
}

/* The columns of V a cache holding `need` of them has allocated: 16, doubled as it grows. */
static size_t cache_cap(size_t cap, size_t need)
{
    cap = cap ? cap : 16;
    while (cap < need && cap <= SIZE_MAX / 4)
        cap *= 2;
    return cap;
}

double cutune_gp_cache_bytes(size_t m, size_t n)
{
    return 8.0 * (double)m * (double)(cache_cap(0, n) + 8);
}

const double *cutune_gp_cache_mean(const cutune_gp_cache *c)
{
    return c->mean;
}
const double *cutune_gp_cache_var(const cutune_gp_cache *c)
{
    return c->var;
}

static int cache_reserve(cutune_gp_cache *c, size_t need)
{
    if (need <= c->cap)
        return 0;
    size_t cap = cache_cap(c->cap, need);
    if (cap < need) /* past SIZE_MAX / 4 columns */
        return CUTUNE_ENOMEM;
    double *V = realloc(c->V, c->m * cap * sizeof *V);
    if (!V && c->m)
        return CUTUNE_ENOMEM;
    c->V = V;
    double *z = realloc(c->z, cap * sizeof *z);
    if (!z)
        return CUTUNE_ENOMEM;
    c->z = z;
    unsigned long *rid = realloc(c->row_id, cap * sizeof *rid);
    if (!rid)
        return CUTUNE_ENOMEM;
    c->row_id = rid;
    /* one entry per GP row, not per candidate: a pool may hold fewer candidates than the GP
     * holds points (it once shared an m-entry scratch and wrote past it) */
    double *lr = realloc(c->lrow, cap * sizeof *lr);
    if (!lr)
        return CUTUNE_ENOMEM;
    c->lrow = lr;
    c->cap = cap;
    return 0;
}

static void cache_finish(cutune_gp_cache *c, const cutune_gp *gp)
{
    for (size_t i = 0; i < c->m; i++) {
        double v = gp->sf2 * kself_uu(gp, c->uu[i]) - c->s2[i];
        c->var[i] = v > 1e-12 * gp->sf2 ? v : 1e-12 * gp->sf2;
    }
}

/* z = L^-1 (y - mean) over the GP's first n points (a rebuild, a retarget). */
static void cache_z(cutune_gp_cache *c, const cutune_gp *gp, size_t n)
{
    for (size_t i = 0; i < n; i++)
        c->z[i] = gp->y[i] - gp->mean;
    if (n)
        cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, (int)n, gp->L,
                    (int)gp->cap, c->z, 1);
}

/* Full rebuild: V = K(Xc, X) L^-T by blocks of candidates, then mean and s2. */
static int cache_rebuild(cutune_gp_cache *c, const cutune_gp *gp)
{
    size_t n = gp->n, d = gp->dim, m = c->m;
    c->n = 0;
    c->snap_n = (size_t)-1;
    c->gp = gp;
    c->ystamp = gp->ystamp;
    if (cache_reserve(c, n) < 0)
        return CUTUNE_ENOMEM;
    if (n)
        memcpy(c->row_id, gp->row_id, n * sizeof *c->row_id);
    cache_z(c, gp, n);
    if (gp->lin > 0.0) /* the candidates are fixed until the next rebuild */
        for (size_t i = 0; i < m; i++)
            c->uu[i] = lin_dot(d, c->Xc + i * d, c->Xc + i * d);
    if (n == 0 || m == 0) {
        for (size_t i = 0; i < m; i++) {
            c->mean[i] = gp->mean;
            c->s2[i] = 0.0;
        }
        cache_finish(c, gp);
        return 0;
    }
    size_t B = GP_BLOCK;
    double *Xt = malloc(n * d * sizeof *Xt), *xn = malloc(n * sizeof *xn);
    double *Zs = malloc(B * d * sizeof *Zs), *zn = malloc(B * sizeof *zn);
    /* the linear term's centred inputs: candidates of a block, observations */
    double *Uc = gp->lin > 0.0 ? malloc(B * d * sizeof *Uc) : NULL;
    double *Ux = gp->lin > 0.0 ? malloc(n * d * sizeof *Ux) : NULL;
    int rc = 0;
    if (!Xt || !xn || !Zs || !zn || (gp->lin > 0.0 && (!Uc || !Ux))) {
        rc = CUTUNE_ENOMEM;
        goto out_free;
    }
    for (size_t i = 0; Ux && i < n * d; i++)
        Ux[i] = gp->X[i] - 0.5;
    for (size_t i = 0; i < n; i++) {
        double s = 0.0;
        for (size_t j = 0; j < d; j++) {
            double v = gp->X[i * d + j] / gp->ell[j];
            Xt[i * d + j] = v;
            s += v * v;
        }
        xn[i] = s;
    }
    for (size_t b0 = 0; b0 < m; b0 += B) {
        size_t nb = m - b0 < B ? m - b0 : B;
        double *Vb = c->V + b0;
        if (gp->add > 0.0) { /* the additive term needs each parameter's distance: direct */
            for (size_t i = 0; i < n; i++)
                for (size_t b = 0; b < nb; b++)
                    Vb[b + i * m] = gp->sf2 * kval(gp, c->Xc + (b0 + b) * d, gp->X + i * d, NULL);
        } else {
            for (size_t b = 0; b < nb; b++) {
                double s = 0.0;
                for (size_t j = 0; j < d; j++) {
                    double v = c->Xc[(b0 + b) * d + j] / gp->ell[j];
                    Zs[b * d + j] = v;
                    s += v * v;
                }
                zn[b] = s;
            }
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)nb, (int)n, (int)d, 1.0, Zs,
                        (int)d, Xt, (int)d, 0.0, Vb, (int)m);
            for (size_t i = 0; i < n; i++) {
                double *col = Vb + i * m;
                for (size_t b = 0; b < nb; b++)
                    col[b] = xn[i] + zn[b] - 2.0 * col[b];
                cutune_gp_kfun_r2(gp->kernel, gp->sf2, col, nb);
            }
            if (Uc) { /* Vb += sf2 lin Uc Ux^T */
                for (size_t i = 0; i < nb * d; i++)
                    Uc[i] = c->Xc[b0 * d + i] - 0.5;
                cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)nb, (int)n, (int)d,
                            gp->sf2 * gp->lin, Uc, (int)d, Ux, (int)d, 1.0, Vb, (int)m);
            }
        }
        cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, (int)nb,
                    (int)n, 1.0, gp->L, (int)gp->cap, Vb, (int)m);
        cblas_dgemv(CblasColMajor, CblasNoTrans, (int)nb, (int)n, 1.0, Vb, (int)m, c->z, 1, 0.0,
                    c->mean + b0, 1);
        for (size_t b = 0; b < nb; b++) {
            c->mean[b0 + b] += gp->mean;
            c->s2[b0 + b] = 0.0;
        }
        for (size_t i = 0; i < n; i++)
            for (size_t b = 0; b < nb; b++)
                c->s2[b0 + b] += Vb[b + i * m] * Vb[b + i * m];
    }
    c->n = n;
    cache_finish(c, gp);
out_free:
    free(Ux);
    free(Uc);
    free(zn);
    free(Zs);
    free(xn);
    free(Xt);
    return rc;
}

/* Append column k (0-based) of V for GP point k: (K(Xc, x_k) - V[:, :k] l) / d. */
static int cache_append(cutune_gp_cache *c, const cutune_gp *gp)
{
    size_t k = c->n, d = gp->dim, m = c->m, ld = gp->cap;
    if (cache_reserve(c, k + 1) < 0)
        return CUTUNE_ENOMEM;
    const double *xk = gp->X + k * d;
    double *col = c->V + k * m;
    if (gp->add > 0.0) { /* the additive term needs each parameter's distance: kval */
        for (size_t b = 0; b < m; b++)
            col[b] = gp->sf2 * kval(gp, c->Xc + b * d, xk, NULL);
    } else {
        double inv_ell[d];
        for (size_t j = 0; j < d; j++)
            inv_ell[j] = 1.0 / gp->ell[j];
        cutune_gp_sqdist(c->Xc, m, d, xk, inv_ell, col);
        cutune_gp_kfun_r2(gp->kernel, gp->sf2, col, m);
        if (gp->lin > 0.0)
            for (size_t b = 0; b < m; b++)
                col[b] += gp->sf2 * gp->lin * lin_dot(d, c->Xc + b * d, xk);
    }
    /* row k of L: L[k + i*ld], i < k; copy it contiguous */
    double *l = c->lrow;
    double zk = gp->y[k] - gp->mean;
    for (size_t i = 0; i < k; i++) {
        l[i] = gp->L[k + i * ld];
        zk -= l[i] * c->z[i];
    }
    double dkk = gp->L[k + k * ld];
    c->z[k] = zk / dkk;
    c->row_id[k] = gp->row_id[k];
    if (k && m)
        cblas_dgemv(CblasColMajor, CblasNoTrans, (int)m, (int)k, -1.0, c->V, (int)m, l, 1, 1.0, col,
                    1);
    double inv = 1.0 / dkk;
    for (size_t b = 0; b < m; b++) {
        double v = col[b] * inv;
        col[b] = v;
        c->mean[b] += v * c->z[k];
        c->s2[b] += v * v;
    }
    c->n = k + 1;
    return 0;
}

/* The GP's targets were replaced (cutune_gp_set_targets) under the same factor: V and s2
 * stand, z = L^-1 (y - mean) and the mean over the c->n columns held are recomputed, O(m n). */
static void cache_retarget(cutune_gp_cache *c, const cutune_gp *gp)
{
    size_t n = c->n, m = c->m;
    cache_z(c, gp, n);
    for (size_t b = 0; b < m; b++)
        c->mean[b] = gp->mean;
    if (n && m)
        cblas_dgemv(CblasColMajor, CblasNoTrans, (int)m, (int)n, 1.0, c->V, (int)m, c->z, 1, 1.0,
                    c->mean, 1);
    c->ystamp = gp->ystamp;
}

int cutune_gp_cache_sync(cutune_gp_cache *c, const cutune_gp *gp, char *err, size_t errlen)
{
    if (gp->dim != c->dim)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "gp cache: dimension %zu, GP has %zu", c->dim,
                          gp->dim);
    if (!gp->factored)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "gp cache: GP is not factorised");
    int rc = 0;
    size_t common = 0, lim = c->n < gp->n ? c->n : gp->n;
    if (c->gp == gp)
        while (common < lim && c->row_id[common] == gp->row_id[common])
            common++;
    /* a cache that holds nothing yet is rebuilt: its mean and the linear term's |x - c|^2
     * come from the GP as it is now */
    if (c->gp == gp && c->n > 0 && common == c->n) {
        /* only appends since the last sync (and perhaps new targets) */
        if (c->ystamp != gp->ystamp)
            cache_retarget(c, gp);
    } else if (c->gp == gp && c->snap_n > 0 && common == c->snap_n) {
        memcpy(c->s2, c->snap_s2, c->m * sizeof *c->s2);
        c->n = common;
        if (c->snap_ystamp == gp->ystamp)
            memcpy(c->mean, c->snap_mean, c->m * sizeof *c->mean);
        else
            cache_retarget(c, gp);
    } else {
        rc = cache_rebuild(c, gp);
    }
    while (rc == 0 && c->n < gp->n)
        rc = cache_append(c, gp);
    if (rc < 0)
        return cutune_err(err, errlen, rc, "gp cache: out of memory for %zu x %zu", c->m, gp->n);
    cache_finish(c, gp);
    return 0;
}

int cutune_gp_cache_snapshot(cutune_gp_cache *c, char *err, size_t errlen)
{
    if (!c->snap_mean) {
        c->snap_mean = malloc((c->m ? c->m : 1) * sizeof *c->snap_mean);
        c->snap_s2 = malloc((c->m ? c->m : 1) * sizeof *c->snap_s2);
        if (!c->snap_mean || !c->snap_s2)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "gp cache: out of memory");
    }
    memcpy(c->snap_mean, c->mean, c->m * sizeof *c->mean);
    memcpy(c->snap_s2, c->s2, c->m * sizeof *c->s2);
    c->snap_n = c->n;
    c->snap_ystamp = c->ystamp;
    return 0;
}
