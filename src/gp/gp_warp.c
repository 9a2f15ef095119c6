/* Output warping: a monotone transform of the observed values (log times) before the GP,
 * followed by standardisation. Fitted at a refit and then fixed, so that values observed
 * between refits map consistently (an append to the GP needs a target now).
 *
 * Box-Cox (Box & Cox 1964) of t = exp(v): z = (t^lambda - 1) / lambda. With t scaled by its
 * geometric mean (u = v - mean v) the Jacobian term (lambda - 1) sum log t vanishes, so the
 * profile likelihood of lambda is -n/2 log var(z): lambda minimises the sample variance of
 * expm1(lambda u) / lambda (grid, then golden section), bounded to [CUTUNE_GP_BOXCOX_MIN,
 * CUTUNE_GP_BOXCOX_MAX]. lambda = 0 is the plain log; lambda < 0 compresses slow outliers
 * further (as HEBO, Cowen-Rivers et al. 2022, does with a power transform of the targets).
 *
 * Copula: each observation's normal score Phi^-1((mid-rank + 1/2) / n) (Salinas et al.
 * 2020), piecewise linear in v between the distinct observed values, with the mean slope
 * beyond them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "cutune/gp.h"

static double bc(double lambda, double u)
{
    return lambda == 0.0 ? u : expm1(lambda * u) / lambda;
}

static double bc_var(double lambda, const double *v, size_t n, double c)
{
    double m = 0.0, q = 0.0;
    for (size_t i = 0; i < n; i++)
        m += bc(lambda, v[i] - c);
    m /= (double)n;
    for (size_t i = 0; i < n; i++) {
        double t = bc(lambda, v[i] - c) - m;
        q += t * t;
    }
    return q / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The knot interval of x in the increasing knots k[0..n-1] (n >= 2, k[0] <= x <
 * k[n-1]): the lo with k[lo] <= x < k[lo + 1], by bisection. */
static size_t knot_below(const double *k, size_t n, double x)
{
    size_t lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (k[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* raw warped value (before standardisation) */
static double raw(const cutune_gp_warp *w, double v)
{
    switch (w->kind) {
    case CUTUNE_GP_WARP_BOXCOX: return bc(w->lambda, v - w->c);
    case CUTUNE_GP_WARP_COPULA: {
        size_t n = w->nk;
        if (n == 0)
            return v - w->c;
        if (v <= w->kv[0])
            return w->kz[0] + w->slope * (v - w->kv[0]);
        if (v >= w->kv[n - 1])
            return w->kz[n - 1] + w->slope * (v - w->kv[n - 1]);
        size_t lo = knot_below(w->kv, n, v), hi = lo + 1;
        double f = (v - w->kv[lo]) / (w->kv[hi] - w->kv[lo]);
        return w->kz[lo] + f * (w->kz[hi] - w->kz[lo]);
    }
    case CUTUNE_GP_WARP_NONE:
    default: return v;
    }
}

int cutune_gp_warp_fit(cutune_gp_warp *w, cutune_gp_warp_kind kind, const double *v, size_t n)
{
    w->kind = kind;
    w->lambda = 0.0;
    w->nk = 0;
    w->slope = 1.0;
    double c = 0.0;
    for (size_t i = 0; i < n; i++)
        c += v[i];
    c = n ? c / (double)n : 0.0;
    w->c = c;
    if (kind == CUTUNE_GP_WARP_BOXCOX && n >= 3) {
        static const double step = 0.1;
        double bl = 0.0, bv = bc_var(0.0, v, n, c);
        for (double l = CUTUNE_GP_BOXCOX_MIN; l <= CUTUNE_GP_BOXCOX_MAX + 1e-9; l += step) {
            double q = bc_var(l, v, n, c);
            if (isfinite(q) && q > 0.0 && log(q) < log(bv)) {
                bv = q;
                bl = l;
            }
        }
        /* golden section on log var in [bl - step, bl + step] within the bounds */
        double a = fmax(bl - step, CUTUNE_GP_BOXCOX_MIN), b = fmin(bl + step, CUTUNE_GP_BOXCOX_MAX);
        const double g = 0.5 * (sqrt(5.0) - 1.0);
        double x1 = b - g * (b - a), x2 = a + g * (b - a);
        double f1 = bc_var(x1, v, n, c), f2 = bc_var(x2, v, n, c);
        for (int it = 0; it < 30; it++) {
            if (f1 < f2) {
                b = x2;
                x2 = x1;
                f2 = f1;
                x1 = b - g * (b - a);
                f1 = bc_var(x1, v, n, c);
            } else {
                a = x1;
                x1 = x2;
                f1 = f2;
                x2 = a + g * (b - a);
                f2 = bc_var(x2, v, n, c);
            }
        }
        double l = 0.5 * (a + b), q = bc_var(l, v, n, c);
        if (isfinite(q) && q > 0.0 && q < bv)
            bl = l;
        w->lambda = bl;
        if (!(bc_var(bl, v, n, c) > 1e-300))
            w->lambda = 0.0;
    } else if (kind == CUTUNE_GP_WARP_COPULA && n >= 1) {
        if (w->capk < n) {
            double *kv = realloc(w->kv, n * sizeof *kv);
            if (!kv)
                return CUTUNE_ENOMEM;
            w->kv = kv;
            double *kz = realloc(w->kz, n * sizeof *kz);
            if (!kz)
                return CUTUNE_ENOMEM;
            w->kz = kz;
            w->capk = n;
        }
        memcpy(w->kv, v, n * sizeof *v);
        qsort(w->kv, n, sizeof *w->kv, cmp_double);
        size_t k = 0;
        for (size_t i = 0; i < n;) {
            size_t j = i;
            while (j + 1 < n && w->kv[j + 1] == w->kv[i])
                j++;
            double r = 0.5 * (double)(i + j); /* 0-based mid-rank of the tie group */
            w->kv[k] = w->kv[i];
            w->kz[k++] = gsl_cdf_ugaussian_Pinv((r + 0.5) / (double)n);
            i = j + 1;
        }
        w->nk = k;
        w->slope = k > 1 ? (w->kz[k - 1] - w->kz[0]) / (w->kv[k - 1] - w->kv[0]) : 1.0;
    } else if (kind != CUTUNE_GP_WARP_NONE) {
        w->kind = CUTUNE_GP_WARP_BOXCOX; /* too few points: lambda 0, the plain log */
    }
    /* standardise (the NONE case exactly as bo always did: mean, sd with n - 1) */
    double zm = 0.0, var = 0.0;
    for (size_t i = 0; i < n; i++)
        zm += raw(w, v[i]);
    zm = n ? zm / (double)n : 0.0;
    for (size_t i = 0; i < n; i++) {
        double t = raw(w, v[i]) - zm;
        var += t * t;
    }
    var = n > 1 ? var / (double)(n - 1) : 0.0;
    w->zm = zm;
    w->zs = var > 1e-24 ? sqrt(var) : 1.0;
    return 0;
}

double cutune_gp_warp_apply(const cutune_gp_warp *w, double v)
{
    return (raw(w, v) - w->zm) / w->zs;
}

double cutune_gp_warp_deriv(const cutune_gp_warp *w, double v)
{
    switch (w->kind) {
    case CUTUNE_GP_WARP_BOXCOX: return exp(w->lambda * (v - w->c)) / w->zs;
    case CUTUNE_GP_WARP_COPULA: {
        size_t n = w->nk;
        if (n < 2 || v < w->kv[0] || v >= w->kv[n - 1])
            return w->slope / w->zs;
        size_t lo = knot_below(w->kv, n, v), hi = lo + 1;
        return (w->kz[hi] - w->kz[lo]) / (w->kv[hi] - w->kv[lo]) / w->zs;
    }
    case CUTUNE_GP_WARP_NONE:
    default: return 1.0 / w->zs;
    }
}

double cutune_gp_warp_inverse(const cutune_gp_warp *w, double y)
{
    double z = y * w->zs + w->zm;
    switch (w->kind) {
    case CUTUNE_GP_WARP_BOXCOX: {
        if (w->lambda == 0.0)
            return z + w->c;
        double a = w->lambda * z;
        return a > -1.0 ? log1p(a) / w->lambda + w->c : NAN;
    }
    case CUTUNE_GP_WARP_COPULA: {
        size_t n = w->nk;
        if (n == 0)
            return z + w->c;
        if (z <= w->kz[0] || n == 1)
            return w->kv[0] + (z - w->kz[0]) / w->slope;
        if (z >= w->kz[n - 1])
            return w->kv[n - 1] + (z - w->kz[n - 1]) / w->slope;
        size_t lo = knot_below(w->kz, n, z), hi = lo + 1;
        double f = (z - w->kz[lo]) / (w->kz[hi] - w->kz[lo]);
        return w->kv[lo] + f * (w->kv[hi] - w->kv[lo]);
    }
    case CUTUNE_GP_WARP_NONE:
    default: return z;
    }
}

void cutune_gp_warp_free(cutune_gp_warp *w)
{
    if (!w)
        return;
    free(w->kv);
    free(w->kz);
    memset(w, 0, sizeof *w);
    w->zs = 1.0;
}

int cutune_gp_warp_from_name(const char *name)
{
    if (!name)
        return -1;
    if (strcmp(name, "none") == 0 || strcmp(name, "log") == 0)
        return CUTUNE_GP_WARP_NONE;
    if (strcmp(name, "boxcox") == 0)
        return CUTUNE_GP_WARP_BOXCOX;
    if (strcmp(name, "copula") == 0)
        return CUTUNE_GP_WARP_COPULA;
    return -1;
}
