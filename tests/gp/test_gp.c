/* Unit tests of the Gaussian-process surrogate (src/gp). */
#include <float.h>
#include <math.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_rng.h>

#include "cutune/gp.h"
#include "src/gp/gp_internal.h"

/* cmocka's assert_float_equal compares floats (its arguments are cast to float), so a
 * tolerance like 1e-12 would mean "equal as floats": these tests compare doubles. */
static void near_(double a, double b, double tol, const char *file, int line)
{
    if (!(fabs(a - b) <= tol)) {
        print_error("%s:%d: %.17g != %.17g (|diff| %.3g > %.3g)\n", file, line, a, b, fabs(a - b),
                    tol);
        fail();
    }
}
#define assert_near(a, b, tol) near_((a), (b), (tol), __FILE__, __LINE__)

static double k52(double r)
{
    double s = sqrt(5.0) * r;
    return (1.0 + s + s * s / 3.0) * exp(-s);
}

static void set_hyper(cutune_gp *gp, double ell, double sf2, double sn2, double m)
{
    double e[8];
    for (size_t j = 0; j < cutune_gp_dim(gp); j++)
        e[j] = ell;
    cutune_gp_hyper h = {.ell = e, .sf2 = sf2, .sn2 = sn2, .mean = m};
    char err[256];
    assert_int_equal(cutune_gp_set_hyper(gp, &h, err, sizeof err), 0);
}

/* Sync the prediction cache c (candidates xs[0..m)) to gp: its means and variances equal
 * what cutune_gp_predict says within tol. */
static void assert_cache_matches(cutune_gp_cache *c, const cutune_gp *gp, const double *xs,
                                 size_t m, double tol)
{
    char err[256];
    double *mu = malloc(m * sizeof *mu), *var = malloc(m * sizeof *var);
    assert_non_null(mu);
    assert_non_null(var);
    assert_int_equal(cutune_gp_cache_sync(c, gp, err, sizeof err), 0);
    assert_int_equal(cutune_gp_predict(gp, xs, m, mu, var, err, sizeof err), 0);
    for (size_t i = 0; i < m; i++) {
        assert_near(cutune_gp_cache_mean(c)[i], mu[i], tol);
        assert_near(cutune_gp_cache_var(c)[i], var[i], tol);
    }
    free(mu);
    free(var);
}

/* One observation: mean = m + k (y - m) / (sf2 + sn2), var = sf2 - k^2 / (sf2 + sn2). */
static void test_one_point(void **state)
{
    char err[256];
    cutune_gp *gp = cutune_gp_alloc(1, CUTUNE_GP_MATERN52);
    assert_non_null(gp);
    set_hyper(gp, 0.5, 2.0, 0.1, 0.2);
    double x0 = 0.3, y0 = 1.0;
    assert_int_equal(cutune_gp_set_data(gp, &x0, &y0, 1, err, sizeof err), 0);
    double xs[3] = {0.3, 0.55, 1.0}, mu[3], var[3];
    assert_int_equal(cutune_gp_predict(gp, xs, 3, mu, var, err, sizeof err), 0);
    for (int i = 0; i < 3; i++) {
        double k = 2.0 * k52(fabs(xs[i] - x0) / 0.5);
        assert_near(mu[i], 0.2 + k * 0.8 / 2.1, 1e-12);
        assert_near(var[i], 2.0 - k * k / 2.1, 1e-12);
    }
    /* log marginal likelihood of one point: log N(y0; m, sf2 + sn2) */
    double lml = cutune_gp_lml(gp, NULL);
    assert_near(lml, -0.5 * 0.64 / 2.1 - 0.5 * log(2.1) - 0.5 * log(2 * M_PI), 1e-12);
    cutune_gp_free(gp);
}

/* Two observations in 2-D, squared exponential, with the 2x2 inverse written out. */
static void test_two_points(void **state)
{
    char err[256];
    cutune_gp *gp = cutune_gp_alloc(2, CUTUNE_GP_SE);
    set_hyper(gp, 0.4, 1.5, 0.05, -0.1);
    double X[4] = {0.1, 0.2, 0.6, 0.9}, y[2] = {0.5, -1.0};
    assert_int_equal(cutune_gp_set_data(gp, X, y, 2, err, sizeof err), 0);
    double r2 = (0.5 * 0.5 + 0.7 * 0.7) / (0.4 * 0.4);
    double k12 = 1.5 * exp(-0.5 * r2), a = 1.55, det = a * a - k12 * k12;
    double xs[2] = {0.3, 0.5};
    double ka = 1.5 * exp(-0.5 * ((0.2 * 0.2 + 0.3 * 0.3) / 0.16));
    double kb = 1.5 * exp(-0.5 * ((0.3 * 0.3 + 0.4 * 0.4) / 0.16));
    double ra = y[0] + 0.1, rb = y[1] + 0.1;
    /* K^-1 = [a -k12; -k12 a] / det */
    double mu_ref = -0.1 + (ka * (a * ra - k12 * rb) + kb * (-k12 * ra + a * rb)) / det;
    double var_ref = 1.5 - (ka * (a * ka - k12 * kb) + kb * (-k12 * ka + a * kb)) / det;
    double mu, var;
    assert_int_equal(cutune_gp_predict(gp, xs, 1, &mu, &var, err, sizeof err), 0);
    assert_near(mu, mu_ref, 1e-12);
    assert_near(var, var_ref, 1e-12);
    cutune_gp_free(gp);
}

/* The second-order additive term, by hand: one observation in 3-D, so the predictive
 * variance is sf2 - K(x*, x0)^2 / (sf2 + sn2) with K = sf2 [(1 - w) k52(r) + w e2 / 3],
 * e2 = k1 k2 + k1 k3 + k2 k3, k_j = exp(-t_j^2 / 2); the prediction cache agrees; a
 * weight outside [0, 1) is refused. */
static void test_additive(void **state)
{
    char err[256];
    cutune_gp *gp = cutune_gp_alloc(3, CUTUNE_GP_MATERN52);
    double ell[3] = {0.3, 0.6, 1.2}, sf2 = 1.7, sn2 = 0.05, w = 0.4;
    cutune_gp_hyper h = {.ell = ell, .sf2 = sf2, .sn2 = sn2, .mean = 0.1, .add = w};
    assert_int_equal(cutune_gp_set_hyper(gp, &h, err, sizeof err), 0);
    double x0[3] = {0.2, 0.5, 0.9}, y0 = 1.3;
    assert_int_equal(cutune_gp_set_data(gp, x0, &y0, 1, err, sizeof err), 0);
    double xs[6] = {0.2, 0.5, 0.9, 0.7, 0.1, 0.4}, mu[2], var[2];
    assert_int_equal(cutune_gp_predict(gp, xs, 2, mu, var, err, sizeof err), 0);
    cutune_gp_cache *c = cutune_gp_cache_alloc(xs, 2, 3);
    assert_int_equal(cutune_gp_cache_sync(c, gp, err, sizeof err), 0);
    for (int i = 0; i < 2; i++) {
        double r2 = 0.0, k[3];
        for (int j = 0; j < 3; j++) {
            double t = (xs[3 * i + j] - x0[j]) / ell[j];
            r2 += t * t;
            k[j] = exp(-0.5 * t * t);
        }
        double e2 = k[0] * k[1] + k[0] * k[2] + k[1] * k[2];
        double kk = sf2 * ((1.0 - w) * k52(sqrt(r2)) + w * e2 / 3.0);
        assert_near(mu[i], 0.1 + kk * (y0 - 0.1) / (sf2 + sn2), 1e-12);
        assert_near(var[i], sf2 - kk * kk / (sf2 + sn2), 1e-12);
        assert_near(cutune_gp_cache_mean(c)[i], mu[i], 1e-10);
        assert_near(cutune_gp_cache_var(c)[i], var[i], 1e-10);
    }
    /* an appended point reaches the cache through its O(m n) column update */
    double x1[3] = {0.6, 0.2, 0.3};
    assert_int_equal(cutune_gp_add(gp, x1, -0.4, err, sizeof err), 0);
    assert_cache_matches(c, gp, xs, 2, 1e-10);
    cutune_gp_cache_free(c);
    h.add = 1.0;
    assert_int_equal(cutune_gp_set_hyper(gp, &h, err, sizeof err), CUTUNE_EINVAL);
    h.add = -0.1;
    assert_int_equal(cutune_gp_set_hyper(gp, &h, err, sizeof err), CUTUNE_EINVAL);
    cutune_gp_free(gp);
}

/* The linear term, by hand: one observation in 2-D, K(a, b) = sf2 [k52(r) + lin (a - c).(b -
 * c)], c = (0.5, 0.5), so the prior variance grows toward the corners and the predictive
 * mean and variance follow R&W eq. 2.25-2.26 with that kernel; the prediction cache agrees
 * (full rebuild and an appended column); a negative weight is refused. */
static void test_linear(void **state)
{
    char err[256];
    cutune_gp *gp = cutune_gp_alloc(2, CUTUNE_GP_MATERN52);
    double ell[2] = {0.3, 0.8}, sf2 = 1.4, sn2 = 0.03, lin = 0.7, m = -0.2;
    cutune_gp_hyper h = {.ell = ell, .sf2 = sf2, .sn2 = sn2, .mean = m, .lin = lin};
    assert_int_equal(cutune_gp_set_hyper(gp, &h, err, sizeof err), 0);
    double x0[2] = {0.9, 0.1}, y0 = 0.8;
    assert_int_equal(cutune_gp_set_data(gp, x0, &y0, 1, err, sizeof err), 0);
    double xs[6] = {0.9, 0.1, 0.0, 1.0, 0.5, 0.5}, mu[3], var[3];
    assert_int_equal(cutune_gp_predict(gp, xs, 3, mu, var, err, sizeof err), 0);
    cutune_gp_cache *c = cutune_gp_cache_alloc(xs, 3, 2);
    assert_int_equal(cutune_gp_cache_sync(c, gp, err, sizeof err), 0);
    double k00 = sf2 * (1.0 + lin * (0.4 * 0.4 + 0.4 * 0.4)) + sn2;
    for (int i = 0; i < 3; i++) {
        const double *x = xs + 2 * i;
        double t0 = (x[0] - x0[0]) / ell[0], t1 = (x[1] - x0[1]) / ell[1];
        double lk = (x[0] - 0.5) * (x0[0] - 0.5) + (x[1] - 0.5) * (x0[1] - 0.5);
        double kk = sf2 * (k52(sqrt(t0 * t0 + t1 * t1)) + lin * lk);
        double prior =
            sf2 * (1.0 + lin * ((x[0] - 0.5) * (x[0] - 0.5) + (x[1] - 0.5) * (x[1] - 0.5)));
        assert_near(mu[i], m + kk * (y0 - m) / k00, 1e-12);
        assert_near(var[i], prior - kk * kk / k00, 1e-12);
        assert_near(cutune_gp_cache_mean(c)[i], mu[i], 1e-10);
        assert_near(cutune_gp_cache_var(c)[i], var[i], 1e-10);
    }
    /* the far corner (0, 1) has no stationary correlation left with x0 but a larger prior
     * variance than the centre, and the trend through x0 pulls its mean below m */
    assert_true(var[1] > var[2]);
    assert_true(mu[1] < m);
    double x1[2] = {0.2, 0.6};
    assert_int_equal(cutune_gp_add(gp, x1, -0.5, err, sizeof err), 0);
    assert_cache_matches(c, gp, xs, 3, 1e-10);
    cutune_gp_cache_free(c);
    /* a cache first synced while the GP was empty and without the term, then synced again
     * after both changed, agrees with predict (it is rebuilt, not appended to) */
    cutune_gp *g2 = cutune_gp_alloc(2, CUTUNE_GP_MATERN52);
    c = cutune_gp_cache_alloc(xs, 3, 2);
    assert_int_equal(cutune_gp_cache_sync(c, g2, err, sizeof err), 0);
    assert_int_equal(cutune_gp_set_hyper(g2, &h, err, sizeof err), 0);
    assert_int_equal(cutune_gp_set_data(g2, x0, &y0, 1, err, sizeof err), 0);
    assert_cache_matches(c, g2, xs, 3, 1e-10);
    cutune_gp_cache_free(c);
    cutune_gp_free(g2);
    h.lin = -0.1;
    assert_int_equal(cutune_gp_set_hyper(gp, &h, err, sizeof err), CUTUNE_EINVAL);
    cutune_gp_free(gp);
}

/* Fit a GP (Matern 5/2, options o, generator reseeded to 5) to the N training points and
 * return its root-mean-square error on the T held-out ones; *h gets the fitted
 * hyper-parameters (h->ell is not valid after the return). */
static double heldout_rmse(const double *X, const double *y, size_t N, const double *Xt,
                           const double *yt, size_t T, size_t D, const cutune_gp_fit_options *o,
                           gsl_rng *r, cutune_gp_hyper *h)
{
    char err[256];
    cutune_gp *gp = cutune_gp_alloc(D, CUTUNE_GP_MATERN52);
    assert_int_equal(cutune_gp_set_data(gp, X, y, N, err, sizeof err), 0);
    gsl_rng_set(r, 5);
    assert_int_equal(cutune_gp_fit(gp, o, r, err, sizeof err), 0);
    cutune_gp_get_hyper(gp, h);
    double *mu = malloc(T * sizeof *mu), q = 0.0;
    assert_non_null(mu);
    assert_int_equal(cutune_gp_predict(gp, Xt, T, mu, NULL, err, sizeof err), 0);
    for (size_t i = 0; i < T; i++)
        q += (mu[i] - yt[i]) * (mu[i] - yt[i]);
    free(mu);
    cutune_gp_free(gp);
    h->ell = NULL;
    return sqrt(q / (double)T);
}

/* A linear trend plus a short-range wiggle (3-D, 30 points in the box's lower part): with
 * the linear weight fitted, it is far from its lower bound, and the model extrapolates to
 * the far part of the box better than the stationary kernel alone; bounds that are not
 * 0 < lin_min <= lin_max are refused. */
static void test_linear_fit(void **state)
{
    char err[256];
    enum { N = 30, T = 100, D = 3 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3);
    double X[N * D], y[N], Xt[T * D], yt[T];
    for (int i = 0; i < N + T; i++) {
        double *x = i < N ? X + i * D : Xt + (i - N) * D;
        for (int j = 0; j < D; j++) /* train in [0, 0.6)^3, test in [0.6, 1)^3 */
            x[j] = i < N ? 0.6 * gsl_rng_uniform(r) : 0.6 + 0.4 * gsl_rng_uniform(r);
        double v = 2.0 * x[0] - 1.5 * x[1] + x[2] + 0.1 * sin(20.0 * x[0]);
        if (i < N)
            y[i] = v;
        else
            yt[i - N] = v;
    }
    double rmse[2], lfit = 0.0;
    for (int a = 0; a < 2; a++) {
        cutune_gp_fit_options o;
        cutune_gp_fit_options_default(&o);
        o.lin_min = a ? 1e-4 : 0.0;
        o.lin_max = a ? 10.0 : 0.0;
        cutune_gp_hyper h;
        rmse[a] = heldout_rmse(X, y, N, Xt, yt, T, D, &o, r, &h);
        if (a)
            lfit = h.lin;
        else
            assert_true(h.lin == 0.0);
    }
    print_message("linear: fitted weight %.3g, extrapolation rmse %.4f (ARD) vs %.4f (+linear)\n",
                  lfit, rmse[0], rmse[1]);
    assert_true(lfit > 0.01);
    assert_true(rmse[1] < 0.7 * rmse[0]);
    cutune_gp *gp = cutune_gp_alloc(D, CUTUNE_GP_MATERN52);
    assert_int_equal(cutune_gp_set_data(gp, X, y, N, err, sizeof err), 0);
    cutune_gp_fit_options o;
    cutune_gp_fit_options_default(&o);
    double bounds[5][2] = {{0.0, 1.0}, {-0.1, 0.5}, {0.6, 0.5}, {0.1, 0.0}, {0.0, -1.0}};
    for (int i = 0; i < 5; i++) {
        o.lin_min = bounds[i][0];
        o.lin_max = bounds[i][1];
        assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), CUTUNE_EINVAL);
    }
    cutune_gp_free(gp);
    gsl_rng_free(r);
}

/* A sum of functions of pairs of inputs (4-D, 40 points): the fitted additive weight is
 * large, and the model predicts held-out points better than the plain ARD kernel fitted
 * on the same data (the stationary kernel must see each pair's effect again in every
 * region of the other inputs). */
static void test_additive_fit(void **state)
{
    char err[256];
    enum { N = 40, T = 200, D = 4 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    double X[N * D], y[N], Xt[T * D], yt[T];
    for (int i = 0; i < N + T; i++) {
        double *x = i < N ? X + i * D : Xt + (i - N) * D;
        for (int j = 0; j < D; j++)
            x[j] = gsl_rng_uniform(r);
        double v = sin(4.0 * x[0]) * cos(4.0 * x[1]) + sin(4.0 * x[2]) * cos(4.0 * x[3]);
        if (i < N)
            y[i] = v;
        else
            yt[i - N] = v;
    }
    double rmse[2], wfit = 0.0;
    for (int a = 0; a < 2; a++) {
        cutune_gp_fit_options o;
        cutune_gp_fit_options_default(&o);
        o.add_max = a ? 0.95 : 0.0;
        cutune_gp_hyper h;
        rmse[a] = heldout_rmse(X, y, N, Xt, yt, T, D, &o, r, &h);
        if (a)
            wfit = h.add;
        else
            assert_true(h.add == 0.0);
    }
    print_message("additive: fitted weight %.3f, held-out rmse %.4f (ARD) vs %.4f (additive)\n",
                  wfit, rmse[0], rmse[1]);
    assert_true(wfit > 0.5);
    assert_true(rmse[1] < 0.8 * rmse[0]);
    /* weight bounds outside [0, 1) are refused */
    cutune_gp *gp = cutune_gp_alloc(D, CUTUNE_GP_MATERN52);
    assert_int_equal(cutune_gp_set_data(gp, X, y, N, err, sizeof err), 0);
    cutune_gp_fit_options o;
    cutune_gp_fit_options_default(&o);
    double bounds[3][2] = {{0.0, 1.0}, {-0.1, 0.5}, {0.6, 0.5}};
    for (int i = 0; i < 3; i++) {
        o.add_min = bounds[i][0];
        o.add_max = bounds[i][1];
        assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), CUTUNE_EINVAL);
    }
    cutune_gp_free(gp);
    gsl_rng_free(r);
}

static void fill_random(gsl_rng *r, double *X, double *y, size_t n, size_t d)
{
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t j = 0; j < d; j++) {
            X[i * d + j] = gsl_rng_uniform(r);
            s += (j + 1) * sin(3.0 * X[i * d + j]);
        }
        y[i] = s + 0.1 * gsl_rng_uniform(r);
    }
}

/* Analytic gradient of the log marginal likelihood against central differences. */
static void test_lml_gradient(void **state)
{
    char err[256];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    enum { N = 12, D = 3 };
    double X[N * D], y[N];
    fill_random(r, X, y, N, D);
    /* every kernel: plain, with the second-order additive term, with the linear term, with
     * both */
    for (int kern = 0; kern < 12; kern++) {
        double add = kern % 6 < 3 ? 0.0 : 0.35, lin = kern < 6 ? 0.0 : 0.6;
        cutune_gp *gp = cutune_gp_alloc(D, (cutune_gp_kernel)(kern % 3));
        double ell[D] = {0.3, 0.7, 1.4};
        cutune_gp_hyper h = {
            .ell = ell, .sf2 = 1.3, .sn2 = 0.02, .mean = 0.4, .add = add, .lin = lin};
        assert_int_equal(cutune_gp_set_hyper(gp, &h, err, sizeof err), 0);
        assert_int_equal(cutune_gp_set_data(gp, X, y, N, err, sizeof err), 0);
        double g[D + 5];
        cutune_gp_lml(gp, g);
        if (lin == 0.0)
            assert_true(g[D + 4] == 0.0);
        double theta[D + 5] = {log(0.3),  log(0.7), log(1.4), log(1.3),
                               log(0.02), 0.4,      add,      lin > 0.0 ? log(lin) : 0.0};
        for (int p = 0; p < D + 5; p++) {
            if ((p == D + 3 && add == 0.0) || (p == D + 4 && lin == 0.0))
                continue; /* add >= 0: no central difference at 0; no linear term */
            double f[2];
            for (int s = 0; s < 2; s++) {
                double t[D + 5];
                memcpy(t, theta, sizeof t);
                t[p] += (s ? 1e-5 : -1e-5);
                double e2[D] = {exp(t[0]), exp(t[1]), exp(t[2])};
                cutune_gp_hyper h2 = {.ell = e2,
                                      .sf2 = exp(t[3]),
                                      .sn2 = exp(t[4]),
                                      .mean = t[5],
                                      .add = t[6],
                                      .lin = lin > 0.0 ? exp(t[7]) : 0.0};
                assert_int_equal(cutune_gp_set_hyper(gp, &h2, err, sizeof err), 0);
                f[s] = cutune_gp_lml(gp, NULL);
            }
            double fd = (f[1] - f[0]) / 2e-5;
            assert_near(g[p], fd, 1e-5 * (1.0 + fabs(fd)));
        }
        cutune_gp_free(gp);
    }
    gsl_rng_free(r);
}

typedef struct {
    double mu, sigma, thr;
} ei_par;
static double ei_integrand(double f, void *p)
{
    const ei_par *e = p;
    double z = (f - e->mu) / e->sigma;
    double imp = e->thr - f;
    return imp > 0 ? imp * exp(-0.5 * z * z) / (e->sigma * sqrt(2 * M_PI)) : 0.0;
}

/* Closed-form EI against numerical integration of E[max(best - xi - f, 0)]. */
static void test_ei_quadrature(void **state)
{
    gsl_set_error_handler_off();
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(1000);
    const double cases[][4] = {{0.0, 1.0, 0.0, 0.0}, {0.3, 0.5, 0.1, 0.01}, {-1.0, 2.0, 0.5, 0.1},
                               {2.0, 0.4, 0.0, 0.0}, {0.0, 0.1, 1.0, 0.0},  {3.0, 0.5, 0.0, 0.05}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double mu = cases[i][0], s = cases[i][1], best = cases[i][2], xi = cases[i][3];
        ei_par p = {mu, s, best - xi};
        gsl_function F = {.function = ei_integrand, .params = &p};
        double res, abserr;
        assert_int_equal(
            gsl_integration_qags(&F, mu - 40 * s, best - xi, 1e-14, 1e-10, 1000, w, &res, &abserr),
            0);
        double ei = cutune_gp_ei(mu, s, best, xi);
        assert_near(ei, res, 1e-9 * (1 + res) + 1e-14);
        if (res > 1e-300)
            assert_near(cutune_gp_log_ei(mu, s, best, xi), log(res), 1e-6);
        /* PI = P(f < best - xi) */
        double pi = cutune_gp_pi(mu, s, best, xi);
        assert_near(pi, 0.5 * erfc(-(best - xi - mu) / (s * sqrt(2.0))), 1e-14);
    }
    /* improper integral over the whole line (qagi) for one case */
    ei_par p = {0.2, 0.7, -0.1};
    gsl_function F = {.function = ei_integrand, .params = &p};
    double res, abserr;
    assert_int_equal(gsl_integration_qagi(&F, 1e-13, 1e-9, 1000, w, &res, &abserr), 0);
    assert_near(cutune_gp_ei(0.2, 0.7, 0.0, 0.1), res, 1e-8);
    /* far tail: log EI stays finite and decreasing where EI underflows */
    double prev = cutune_gp_log_ei(0.0, 1.0, -5.0, 0.0);
    for (double b = -6.0; b > -60.0; b -= 2.0) {
        double l = cutune_gp_log_ei(0.0, 1.0, b, 0.0);
        assert_true(isfinite(l));
        assert_true(l < prev);
        prev = l;
    }
    assert_near(cutune_gp_lcb(1.0, 0.5, 2.0), 0.0, 1e-15);
    gsl_integration_workspace_free(w);
}

/* Appending rows one by one gives the same factor as a full refactorisation. */
static void test_rank_update(void **state)
{
    char err[256];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3);
    enum { N = 40, D = 4, M = 25 };
    double X[N * D], y[N], Xs[M * D], ys[M];
    fill_random(r, X, y, N, D);
    fill_random(r, Xs, ys, M, D);
    cutune_gp *a = cutune_gp_alloc(D, CUTUNE_GP_MATERN32);
    cutune_gp *b = cutune_gp_alloc(D, CUTUNE_GP_MATERN32);
    set_hyper(a, 0.6, 1.1, 1e-3, 0.3);
    set_hyper(b, 0.6, 1.1, 1e-3, 0.3);
    for (size_t i = 0; i < N; i++) /* crosses the initial capacity (16, 32) */
        assert_int_equal(cutune_gp_add(a, X + i * D, y[i], err, sizeof err), 0);
    assert_int_equal(cutune_gp_set_data(b, X, y, N, err, sizeof err), 0);
    double ma[M], va[M], mb[M], vb[M];
    assert_int_equal(cutune_gp_predict(a, Xs, M, ma, va, err, sizeof err), 0);
    assert_int_equal(cutune_gp_predict(b, Xs, M, mb, vb, err, sizeof err), 0);
    for (size_t i = 0; i < M; i++) {
        assert_near(ma[i], mb[i], 1e-9);
        assert_near(va[i], vb[i], 1e-9);
    }
    assert_near(cutune_gp_lml(a, NULL), cutune_gp_lml(b, NULL), 1e-8);
    /* truncating back gives the factor of the first points */
    cutune_gp *c = cutune_gp_alloc(D, CUTUNE_GP_MATERN32);
    set_hyper(c, 0.6, 1.1, 1e-3, 0.3);
    assert_int_equal(cutune_gp_set_data(c, X, y, 10, err, sizeof err), 0);
    assert_int_equal(cutune_gp_truncate(a, 10, err, sizeof err), 0);
    assert_near(cutune_gp_lml(a, NULL), cutune_gp_lml(c, NULL), 1e-9);
    cutune_gp_free(a);
    cutune_gp_free(b);
    cutune_gp_free(c);
    gsl_rng_free(r);
}

static void check_sane(cutune_gp *gp, size_t d)
{
    char err[256];
    double xs[4 * 8], mu[4], var[4];
    for (size_t i = 0; i < 4 * d; i++)
        xs[i] = (double)(i % 7) / 6.0;
    assert_int_equal(cutune_gp_predict(gp, xs, 4, mu, var, err, sizeof err), 0);
    for (int i = 0; i < 4; i++) {
        assert_true(isfinite(mu[i]));
        assert_true(isfinite(var[i]) && var[i] > 0);
    }
}

/* Duplicates with tiny noise, constant targets and huge outliers neither crash nor
 * produce non-finite predictions, through fit and append. */
static void test_degenerate(void **state)
{
    char err[256];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    cutune_gp_fit_options o;
    cutune_gp_fit_options_default(&o);
    enum { D = 2 };
    double X[20 * D], y[20];
    for (int kern = 0; kern < 3; kern++) {
        cutune_gp *gp = cutune_gp_alloc(D, (cutune_gp_kernel)kern);
        /* duplicates: the same point six times, noise at its lower bound */
        for (int i = 0; i < 20; i++) {
            X[i * D] = i < 6 ? 0.5 : gsl_rng_uniform(r);
            X[i * D + 1] = i < 6 ? 0.25 : gsl_rng_uniform(r);
            y[i] = i < 6 ? 1.0 + 0.01 * i : sin(4 * X[i * D]);
        }
        set_hyper(gp, 3.0, 1.0, 1e-9, 0.0);
        assert_int_equal(cutune_gp_set_data(gp, X, y, 20, err, sizeof err), 0);
        check_sane(gp, D);
        assert_int_equal(cutune_gp_add(gp, X, 1.0, err, sizeof err), 0);
        check_sane(gp, D);
        assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), 0);
        check_sane(gp, D);
        /* constant targets */
        for (int i = 0; i < 20; i++)
            y[i] = 0.0;
        assert_int_equal(cutune_gp_set_data(gp, X, y, 20, err, sizeof err), 0);
        assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), 0);
        check_sane(gp, D);
        /* a huge outlier */
        y[7] = 1e6;
        assert_int_equal(cutune_gp_set_data(gp, X, y, 20, err, sizeof err), 0);
        assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), 0);
        check_sane(gp, D);
        /* non-finite targets are refused, not stored */
        assert_true(cutune_gp_add(gp, X, NAN, err, sizeof err) < 0);
        assert_int_equal(cutune_gp_n(gp), 20);
        cutune_gp_free(gp);
    }
    gsl_rng_free(r);
}

/* Fitting raises the likelihood and finds the relevant dimension. */
static void test_fit(void **state)
{
    char err[256];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 5);
    enum { N = 40, D = 3 };
    double X[N * D], y[N];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < D; j++)
            X[i * D + j] = gsl_rng_uniform(r);
        y[i] = sin(6.0 * X[i * D]) + 0.01 * X[i * D + 2]; /* dim 1 irrelevant */
    }
    cutune_gp *gp = cutune_gp_alloc(D, CUTUNE_GP_MATERN52);
    assert_int_equal(cutune_gp_set_data(gp, X, y, N, err, sizeof err), 0);
    double before = cutune_gp_lml(gp, NULL);
    cutune_gp_fit_options o;
    cutune_gp_fit_options_default(&o);
    assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), 0);
    double after = cutune_gp_lml(gp, NULL);
    assert_true(after > before);
    cutune_gp_hyper h;
    cutune_gp_get_hyper(gp, &h);
    assert_true(h.ell[1] > 3.0 * h.ell[0]);
    /* interpolates a held-out point reasonably */
    double xs[D] = {0.4, 0.5, 0.5}, mu, var;
    assert_int_equal(cutune_gp_predict(gp, xs, 1, &mu, &var, err, sizeof err), 0);
    assert_near(mu, sin(2.4), 0.1);
    cutune_gp_free(gp);

    /* a stop flag at 2 ends the fit before its first iteration: the hyper-parameters stay
     * the ones it started from (at 1 it runs as without a flag) */
    volatile sig_atomic_t flag = 2;
    gp = cutune_gp_alloc(D, CUTUNE_GP_MATERN52);
    assert_int_equal(cutune_gp_set_data(gp, X, y, N, err, sizeof err), 0);
    o.stop = &flag;
    assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), 0);
    cutune_gp_get_hyper(gp, &h);
    for (int j = 0; j < D; j++)
        assert_true(h.ell[j] == 0.5);
    assert_true(h.sf2 == 1.0);
    flag = 1;
    assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), 0);
    cutune_gp_get_hyper(gp, &h);
    assert_true(h.ell[1] > 3.0 * h.ell[0]);
    cutune_gp_free(gp);
    gsl_rng_free(r);
}

/* The bound bo's maximiser prunes with (bo_acquire.c): for z = (best - xi - mu) / sd <= 0,
 * log EI <= log(sd) - z^2 / 2 - log sqrt(2 pi), as computed, in both of log EI's branches
 * (z > -25 and the asymptotic tail), with equality approached at z = 0 only from below. */
static void test_log_ei_bound(void **state)
{
    const double sds[] = {1e-6, 0.01, 0.3, 1.0, 7.0};
    for (size_t k = 0; k < sizeof sds / sizeof sds[0]; k++)
        for (int i = 0; i <= 4000; i++) {
            double z = -40.0 * i / 4000.0, sd = sds[k], mu = 0.25 - 0.01 - z * sd;
            double lei = cutune_gp_log_ei(mu, sd, 0.25, 0.01);
            double zz = (0.25 - 0.01 - mu) / sd;
            double ub = log(sd) - 0.5 * zz * zz - 0.91893853320467274;
            assert_true(lei <= ub + 1e-12 * (1.0 + fabs(ub)));
            if (i > 0) /* h(z) < phi(z) strictly for z < 0: the bound is not an identity */
                assert_true(lei < ub);
        }
}

/* The inline exp of the kernel loops (gp_internal.h) against the long-double exp: within
 * one ulp over [-708, 0] (a dense grid, and 4 ulps either side of every multiple of ln 2,
 * where the reduction switches k), and exp(-708) below. Then both kernel loops (AVX2 where
 * this CPU has it, the baseline) against the scalar cutune_gp_kfun, bit for bit, for every
 * family and for lengths that leave a tail after the vector part; far-apart points give
 * tiny finite values; and the squared distances against their definition. */
static void test_kernel_loops(void **state)
{
    double worst = 0.0;
    for (int i = 0; i <= 2000000; i++) {
        double x = -708.0 * i / 2000000.0;
        long double ref = expl((long double)x);
        double rel = (double)(fabsl((long double)cutune_gp_exp_nonpos(x) - ref) / ref);
        worst = rel > worst ? rel : worst;
    }
    for (int k = 0; k <= 1021; k++) {
        double x = -k * M_LN2;
        for (int e = 0; e < 4; e++)
            x = nextafter(x, -INFINITY);
        for (int e = 0; e < 9 && x <= 0.0; e++, x = nextafter(x, INFINITY)) {
            long double ref = expl((long double)x);
            double rel = (double)(fabsl((long double)cutune_gp_exp_nonpos(x) - ref) / ref);
            worst = rel > worst ? rel : worst;
        }
    }
    assert_true(worst <= DBL_EPSILON); /* <= 1 ulp: 2^-52 relative at most */
    assert_true(cutune_gp_exp_nonpos(0.0) == 1.0);
    assert_true(cutune_gp_exp_nonpos(-0.0) == 1.0);
    assert_near(cutune_gp_exp_nonpos(-1000.0), exp(-708.0), 1e-320);
    assert_near(cutune_gp_exp_nonpos(-INFINITY), exp(-708.0), 1e-320);

    const cutune_gp_kernel kinds[] = {CUTUNE_GP_MATERN52, CUTUNE_GP_MATERN32, CUTUNE_GP_SE};
    void (*loops[2])(cutune_gp_kernel, double, double *, size_t) = {cutune_gp_kfun_r2,
                                                                    cutune_gp_kfun_r2_base};
    enum { N = 37 };
    double r2[N], buf[N];
    for (int i = 0; i < N; i++)
        r2[i] = i == 3 ? -1e-17 : 0.013 * i * i; /* one rounding-negative distance */
    for (size_t v = 0; v < 2; v++)
        for (size_t k = 0; k < 3; k++)
            for (size_t n = 0; n <= N; n += 5) {
                memcpy(buf, r2, sizeof buf);
                loops[v](kinds[k], 1.7, buf, n);
                for (size_t i = 0; i < N; i++) {
                    double want =
                        i < n ? 1.7 * cutune_gp_kfun(kinds[k], sqrt(r2[i] > 0 ? r2[i] : 0)) : r2[i];
                    assert_true(memcmp(&buf[i], &want, sizeof want) == 0);
                }
            }
    print_message("kernel loops: %s\n", cutune_gp_kfun_r2_vector() ? "AVX2" : "baseline only");
    for (size_t v = 0; v < 2; v++)
        for (size_t k = 0; k < 3; k++) {
            double far[3] = {1e300, INFINITY, 1e6};
            loops[v](kinds[k], 1.0, far, 3);
            for (int i = 0; i < 3; i++)
                assert_true(far[i] >= 0.0 && far[i] < 1e-290);
        }
    assert_near(cutune_gp_kfun(CUTUNE_GP_MATERN52, 0.7), k52(0.7), 1e-15);
    assert_near(cutune_gp_kfun(CUTUNE_GP_MATERN32, 0.7),
                (1 + sqrt(3.0) * 0.7) * exp(-sqrt(3.0) * 0.7), 1e-15);
    assert_near(cutune_gp_kfun(CUTUNE_GP_SE, 0.7), exp(-0.245), 1e-15);

    double X[4 * 3] = {0, 0, 0, 1, 0.5, 0.25, 0.2, 0.9, 1, 1, 1, 1};
    double x[3] = {0.5, 0.5, 0.5}, inv[3] = {2.0, 1.0, 4.0}, out[4];
    cutune_gp_sqdist(X, 4, 3, x, inv, out);
    for (int b = 0; b < 4; b++) {
        double want = 0.0;
        for (int j = 0; j < 3; j++)
            want += pow((X[b * 3 + j] - x[j]) * inv[j], 2);
        assert_near(out[b], want, 1e-14);
    }
}

/* The prediction cache follows appends, truncations (fantasies) and refits exactly. */
static void test_cache(void **state)
{
    char err[256];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 9);
    enum { N = 30, D = 3, M = 300 };
    double X[N * D], y[N], Xs[M * D], ys[M];
    fill_random(r, X, y, N, D);
    fill_random(r, Xs, ys, M, D);
    cutune_gp *gp = cutune_gp_alloc(D, CUTUNE_GP_MATERN52);
    set_hyper(gp, 0.5, 1.2, 1e-3, 0.1);
    cutune_gp_cache *c = cutune_gp_cache_alloc(Xs, M, D);
    assert_non_null(c);
    assert_int_equal(cutune_gp_cache_sync(c, gp, err, sizeof err), 0); /* empty GP: prior */
    assert_near(cutune_gp_cache_var(c)[0], 1.2, 1e-12);
    assert_int_equal(cutune_gp_set_data(gp, X, y, 10, err, sizeof err), 0);
    for (int step = 0; step < 7; step++) {
        switch (step) {
        case 1: /* appends */
            for (int i = 10; i < 20; i++)
                assert_int_equal(cutune_gp_add(gp, X + i * D, y[i], err, sizeof err), 0);
            break;
        case 2: /* fantasy, back to the snapshot, another fantasy */
            assert_int_equal(cutune_gp_cache_snapshot(c, err, sizeof err), 0);
            assert_int_equal(cutune_gp_add(gp, X + 25 * D, 0.3, err, sizeof err), 0);
            assert_int_equal(cutune_gp_cache_sync(c, gp, err, sizeof err), 0);
            assert_int_equal(cutune_gp_truncate(gp, 20, err, sizeof err), 0);
            assert_int_equal(cutune_gp_add(gp, X + 26 * D, -0.3, err, sizeof err), 0);
            break;
        case 3: /* truncation below the snapshot: rebuild */
            assert_int_equal(cutune_gp_truncate(gp, 12, err, sizeof err), 0);
            break;
        case 4: /* new hyper-parameters: rebuild */ set_hyper(gp, 0.3, 0.8, 1e-2, -0.2); break;
        case 5: { /* new targets, same factor and generation: the cache refreshes its mean */
            unsigned long gen = cutune_gp_generation(gp);
            double y2[12];
            for (int i = 0; i < 12; i++)
                y2[i] = 2.0 * y[i] - 0.5;
            assert_int_equal(cutune_gp_set_targets(gp, y2, 12, err, sizeof err), 0);
            assert_int_equal(cutune_gp_generation(gp), gen);
            for (int i = 12; i < 16; i++) /* then appends under the new targets */
                assert_int_equal(cutune_gp_add(gp, X + i * D, y[i], err, sizeof err), 0);
            break;
        }
        case 6: /* new targets after a snapshot and a fantasy: mean from the snapshot's V */
            assert_int_equal(cutune_gp_cache_sync(c, gp, err, sizeof err), 0);
            assert_int_equal(cutune_gp_cache_snapshot(c, err, sizeof err), 0);
            assert_int_equal(cutune_gp_add(gp, X + 27 * D, 0.1, err, sizeof err), 0);
            assert_int_equal(cutune_gp_cache_sync(c, gp, err, sizeof err), 0);
            assert_int_equal(cutune_gp_set_targets(gp, y, 16, err, sizeof err), 0);
            break;
        }
        assert_cache_matches(c, gp, Xs, M, 1e-9);
    }
    cutune_gp_cache_free(c);
    cutune_gp_cache_free(NULL);
    cutune_gp_free(gp);
    gsl_rng_free(r);
}

/* set_targets equals set_data with the same inputs (same predictions), refuses more
 * targets than points and non-finite ones; a cache over fewer candidates than the GP holds
 * points stays exact (its scratch row once had one entry per candidate and overflowed). */
static void test_set_targets(void **state)
{
    (void)state;
    char err[256];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 12);
    enum { N = 40, D = 2, M = 3 };
    double X[N * D], y[N], Xs[M * D], ys[M], mu_a[M], var_a[M], mu_b[M], var_b[M];
    fill_random(r, X, y, N, D);
    fill_random(r, Xs, ys, M, D);
    cutune_gp *a = cutune_gp_alloc(D, CUTUNE_GP_MATERN52),
              *b = cutune_gp_alloc(D, CUTUNE_GP_MATERN52);
    set_hyper(a, 0.4, 1.0, 1e-2, 0.0);
    set_hyper(b, 0.4, 1.0, 1e-2, 0.0);
    cutune_gp_cache *c = cutune_gp_cache_alloc(Xs, M, D);
    assert_non_null(c);
    for (int i = 0; i < N; i++) { /* M = 3 candidates, up to 40 columns of V */
        assert_int_equal(cutune_gp_add(a, X + i * D, y[i], err, sizeof err), 0);
        assert_int_equal(cutune_gp_cache_sync(c, a, err, sizeof err), 0);
    }
    assert_cache_matches(c, a, Xs, M, 1e-9);
    for (int i = 0; i < N; i++)
        y[i] = -3.0 * y[i] + 1.0;
    assert_int_equal(cutune_gp_set_targets(a, y, N, err, sizeof err), 0);
    assert_int_equal(cutune_gp_set_data(b, X, y, N, err, sizeof err), 0);
    assert_int_equal(cutune_gp_predict(a, Xs, M, mu_a, var_a, err, sizeof err), 0);
    assert_int_equal(cutune_gp_predict(b, Xs, M, mu_b, var_b, err, sizeof err), 0);
    for (int i = 0; i < M; i++) {
        assert_near(mu_a[i], mu_b[i], 1e-8);
        assert_near(var_a[i], var_b[i], 1e-8);
    }
    assert_cache_matches(c, a, Xs, M, 1e-9);
    assert_int_equal(cutune_gp_set_targets(a, y, N + 1, err, sizeof err), CUTUNE_EINVAL);
    y[3] = NAN;
    assert_int_equal(cutune_gp_set_targets(a, y, N, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "target 3"));
    cutune_gp_cache_free(c);
    cutune_gp_free(a);
    cutune_gp_free(b);
    gsl_rng_free(r);
}

/* min_gain: a fit that cannot gain enough leaves the GP bit for bit as it was (same
 * factor, same generation: a prediction cache is not rebuilt); with a gain it moves. */
static void test_fit_min_gain(void **state)
{
    char err[256];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    enum { N = 30, D = 3, M = 50 };
    double X[N * D], y[N], Xs[M * D], ys[M];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < D; j++)
            X[i * D + j] = gsl_rng_uniform(r);
        y[i] = sin(5.0 * X[i * D]) + 0.5 * X[i * D + 1];
    }
    fill_random(r, Xs, ys, M, D);
    cutune_gp *gp = cutune_gp_alloc(D, CUTUNE_GP_MATERN52);
    assert_int_equal(cutune_gp_set_data(gp, X, y, N - 1, err, sizeof err), 0);
    cutune_gp_fit_options o;
    cutune_gp_fit_options_default(&o);
    assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), 0);
    assert_int_equal(cutune_gp_add(gp, X + (N - 1) * D, y[N - 1], err, sizeof err), 0);
    cutune_gp_cache *c = cutune_gp_cache_alloc(Xs, M, D);
    assert_int_equal(cutune_gp_cache_sync(c, gp, err, sizeof err), 0);
    double before = cutune_gp_lml(gp, NULL), mu0[M];
    memcpy(mu0, cutune_gp_cache_mean(c), sizeof mu0);
    unsigned long gen = cutune_gp_generation(gp);
    /* warm start from the optimum: no start can gain 1e6 nats */
    o.nstarts = 0;
    o.max_iter = 10;
    o.min_gain = 1e6;
    assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), 0);
    assert_int_equal(cutune_gp_generation(gp), gen);
    assert_true(cutune_gp_lml(gp, NULL) == before);
    assert_int_equal(cutune_gp_cache_sync(c, gp, err, sizeof err), 0);
    assert_memory_equal(cutune_gp_cache_mean(c), mu0, sizeof mu0);
    /* the same with a fixed linear-term weight (lin=0.1): the fitted GP holds exp(log(0.1)),
     * one rounding above the bound, and the current model must still qualify to be kept
     * (it did not: every warm refit replaced it) */
    o.lin_min = o.lin_max = 0.1;
    o.min_gain = 0.0;
    o.max_iter = 60;
    assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), 0);
    gen = cutune_gp_generation(gp);
    o.min_gain = 1e6;
    o.max_iter = 10;
    assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), 0);
    assert_int_equal(cutune_gp_generation(gp), gen);
    o.lin_min = o.lin_max = 0.0;
    /* from poor hyper-parameters a fit gains far more than 1 nat: the model moves */
    double ell[D] = {5.0, 5.0, 5.0};
    cutune_gp_hyper h = {.ell = ell, .sf2 = 0.1, .sn2 = 0.5, .mean = 0.0};
    assert_int_equal(cutune_gp_set_hyper(gp, &h, err, sizeof err), 0);
    gen = cutune_gp_generation(gp);
    double poor = cutune_gp_lml(gp, NULL);
    o.min_gain = 1.0;
    o.max_iter = 60;
    assert_int_equal(cutune_gp_fit(gp, &o, r, err, sizeof err), 0);
    assert_true(cutune_gp_generation(gp) != gen);
    assert_true(cutune_gp_lml(gp, NULL) > poor + 1.0);
    /* the cache follows the new model */
    double mu[M], var[M];
    assert_int_equal(cutune_gp_cache_sync(c, gp, err, sizeof err), 0);
    assert_int_equal(cutune_gp_predict(gp, Xs, M, mu, var, err, sizeof err), 0);
    for (int i = 0; i < M; i++)
        assert_near(cutune_gp_cache_mean(c)[i], mu[i], 1e-9);
    cutune_gp_cache_free(c);
    cutune_gp_free(gp);
    gsl_rng_free(r);
}

static void test_names(void **state)
{
    assert_int_equal(cutune_gp_kernel_from_name("matern52"), CUTUNE_GP_MATERN52);
    assert_int_equal(cutune_gp_kernel_from_name("matern32"), CUTUNE_GP_MATERN32);
    assert_int_equal(cutune_gp_kernel_from_name("se"), CUTUNE_GP_SE);
    assert_int_equal(cutune_gp_kernel_from_name("rbf"), CUTUNE_GP_SE);
    assert_int_equal(cutune_gp_kernel_from_name("nope"), -1);
    assert_string_equal(cutune_gp_kernel_name(CUTUNE_GP_MATERN32), "matern32");
    assert_null(cutune_gp_alloc(0, CUTUNE_GP_SE));
    cutune_gp_free(NULL);
}

/* Output warps: standardised over the fitted data, monotone, inverse and derivative
 * consistent (finite differences); Box-Cox lambda minimises the profile likelihood
 * (a grid check) and reduces the skew of a right-skewed sample; NONE is plain
 * standardisation. */
static void test_warp(void **state)
{
    (void)state;
    enum { N = 40 };
    double v[N];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    for (int i = 0; i < N; i++) /* log times with a long right tail (slow outliers) */
        v[i] = 1.0 + 0.1 * gsl_rng_uniform(r) + (i % 5 == 0 ? 2.0 * gsl_rng_uniform(r) : 0.0);
    v[3] = v[4]; /* a tie */
    const cutune_gp_warp_kind kinds[] = {CUTUNE_GP_WARP_NONE, CUTUNE_GP_WARP_BOXCOX,
                                         CUTUNE_GP_WARP_COPULA};
    for (size_t k = 0; k < 3; k++) {
        cutune_gp_warp w = {0};
        assert_int_equal(cutune_gp_warp_fit(&w, kinds[k], v, N), 0);
        double m = 0.0, q = 0.0;
        for (int i = 0; i < N; i++)
            m += cutune_gp_warp_apply(&w, v[i]);
        m /= N;
        for (int i = 0; i < N; i++)
            q += pow(cutune_gp_warp_apply(&w, v[i]) - m, 2);
        assert_near(m, 0.0, 1e-9);
        assert_near(q / (N - 1), 1.0, 1e-9);
        double prev = -INFINITY;
        for (double x = 0.0; x <= 4.0; x += 0.01) {
            double y = cutune_gp_warp_apply(&w, x);
            assert_true(y > prev);
            prev = y;
            assert_near(cutune_gp_warp_inverse(&w, y), x, 1e-9);
            double h = 1e-6,
                   fd = (cutune_gp_warp_apply(&w, x + h) - cutune_gp_warp_apply(&w, x - h)) /
                        (2 * h);
            double dv = cutune_gp_warp_deriv(&w, x);
            int knot = 0; /* the copula is piecewise linear: skip kinks */
            for (size_t j = 0; j < w.nk; j++)
                knot |= fabs(w.kv[j] - x) < 2 * h;
            if (!knot)
                assert_near(fd, dv, 1e-5 * (1.0 + fabs(dv)));
        }
        if (kinds[k] == CUTUNE_GP_WARP_NONE) {
            assert_near(cutune_gp_warp_apply(&w, v[0]), (v[0] - w.zm) / w.zs, 0);
        } else if (kinds[k] == CUTUNE_GP_WARP_BOXCOX) {
            /* lambda < 0 for a right tail, and no grid point beats it */
            assert_true(w.lambda < 0.0);
            assert_true(w.lambda >= CUTUNE_GP_BOXCOX_MIN && w.lambda <= CUTUNE_GP_BOXCOX_MAX);
            double skew0 = 0.0, skew1 = 0.0;
            cutune_gp_warp w0 = {0};
            cutune_gp_warp_fit(&w0, CUTUNE_GP_WARP_NONE, v, N);
            for (int i = 0; i < N; i++) {
                skew0 += pow(cutune_gp_warp_apply(&w0, v[i]), 3);
                skew1 += pow(cutune_gp_warp_apply(&w, v[i]), 3);
            }
            assert_true(fabs(skew1) < fabs(skew0));
            /* profile likelihood -n/2 log var(z) (Jacobian term 0 at centred u) */
            double best = 0.0;
            for (double l = CUTUNE_GP_BOXCOX_MIN; l <= CUTUNE_GP_BOXCOX_MAX; l += 0.01) {
                double zm = 0.0, zq = 0.0, z[N];
                for (int i = 0; i < N; i++) {
                    double u = v[i] - w.c;
                    z[i] = fabs(l) < 1e-12 ? u : expm1(l * u) / l;
                    zm += z[i] / N;
                }
                for (int i = 0; i < N; i++)
                    zq += (z[i] - zm) * (z[i] - zm);
                if (l == CUTUNE_GP_BOXCOX_MIN || zq < best)
                    best = zq;
            }
            double zm = 0.0, zq = 0.0;
            for (int i = 0; i < N; i++)
                zm += expm1(w.lambda * (v[i] - w.c)) / w.lambda / N;
            for (int i = 0; i < N; i++)
                zq += pow(expm1(w.lambda * (v[i] - w.c)) / w.lambda - zm, 2);
            assert_true(zq <= best * (1.0 + 1e-9));
        } else {
            /* ties share a normal score; order preserved */
            assert_near(cutune_gp_warp_apply(&w, v[3]), cutune_gp_warp_apply(&w, v[4]), 0);
            assert_true(w.nk == N - 1);
        }
        cutune_gp_warp_free(&w);
    }
    assert_int_equal(cutune_gp_warp_from_name("boxcox"), CUTUNE_GP_WARP_BOXCOX);
    assert_int_equal(cutune_gp_warp_from_name("copula"), CUTUNE_GP_WARP_COPULA);
    assert_int_equal(cutune_gp_warp_from_name("none"), CUTUNE_GP_WARP_NONE);
    assert_int_equal(cutune_gp_warp_from_name("x"), -1);
    /* few points: the plain log */
    cutune_gp_warp w = {0};
    assert_int_equal(cutune_gp_warp_fit(&w, CUTUNE_GP_WARP_BOXCOX, v, 2), 0);
    assert_near(w.lambda, 0.0, 0);
    cutune_gp_warp_free(&w);
    cutune_gp_warp_free(NULL); /* a no-op, as every *_free(NULL) (docs/library.md) */
    gsl_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_loops), cmocka_unit_test(test_log_ei_bound),
        cmocka_unit_test(test_one_point),    cmocka_unit_test(test_two_points),
        cmocka_unit_test(test_lml_gradient), cmocka_unit_test(test_ei_quadrature),
        cmocka_unit_test(test_rank_update),  cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_fit),          cmocka_unit_test(test_fit_min_gain),
        cmocka_unit_test(test_cache),        cmocka_unit_test(test_set_targets),
        cmocka_unit_test(test_names),        cmocka_unit_test(test_warp),
        cmocka_unit_test(test_additive),     cmocka_unit_test(test_linear),
        cmocka_unit_test(test_linear_fit),   cmocka_unit_test(test_additive_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
