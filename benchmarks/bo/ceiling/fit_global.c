/* Global fit of bo's GP model to a whole recording (diagnostic, see README.md here).
 *
 *   fit_global [--points N] [--seed S] RECORDING.json.gz
 *
 * Draws N (default 800) successful configurations of the recording at random, models
 * them as bo does (inputs: the space's [0,1] encoding without single-valued parameters;
 * target: Box-Cox warped, standardised log time; Matern 5/2 ARD kernel; bo's bounds
 * ell >= 0.1 and sn2 >= 1e-3) and fits the hyper-parameters by maximum likelihood (4
 * random starts; unlike bo, no length-scale prior: with hundreds of points the data
 * decide). Prints one line
 *     ell_1,...,ell_D;sf2;sn2;mean;lambda;c;zm;zs
 * for CUTUNE_BO_FIXED_HYPER (bo-fixed-hyper.patch): the hyper-parameters and the output
 * warp they were fitted on (Box-Cox exponent, centre, standardisation), so that a run
 * maps its times to the same scale. The length-scales by parameter name go to stderr. These are the
 * best a single stationary model of the whole space can say about it: far more data than a run ever
 * has (benchmarks/bo/README.md, section 10). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "cutune/gp.h"
#include "cutune/recording.h"
#include "cutune/space.h"

int main(int argc, char **argv)
{
    size_t want = 800;
    unsigned long seed = 7;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--points") && i + 1 < argc)
            want = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoul(argv[++i], NULL, 10);
        else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else {
            fprintf(stderr, "usage: fit_global [--points N] [--seed S] RECORDING\n");
            return 2;
        }
    }
    if (!path || want < 2) {
        fprintf(stderr, "usage: fit_global [--points N>=2] [--seed S] RECORDING\n");
        return 2;
    }
    char err[512];
    cutune_recording *r = NULL;
    cutune_space *sp = NULL;
    if (cutune_recording_load(path, &r, err, sizeof err) < 0 ||
        cutune_recording_space(r, NULL, 0, 1, &sp, err, sizeof err) < 0) {
        fprintf(stderr, "fit_global: %s\n", err);
        return 1;
    }
    size_t N = cutune_space_size(sp), np = cutune_space_nparams(sp);
    double *tab = malloc(N * sizeof *tab);
    size_t *ok = malloc(N * sizeof *ok), *act = malloc(np * sizeof *act);
    double *full = malloc(np * sizeof *full);
    if (!tab || !ok || !act || !full || cutune_recording_table(r, sp, tab, err, sizeof err) < 0) {
        fprintf(stderr, "fit_global: %s\n", tab && ok && act && full ? err : "out of memory");
        return 1;
    }
    size_t nok = 0, d = 0;
    for (size_t i = 0; i < N; i++)
        if (isfinite(tab[i]))
            ok[nok++] = i;
    for (size_t p = 0; p < np; p++) /* bo's active inputs */
        if (cutune_space_param(sp, p)->nvalues > 1)
            act[d++] = p;
    if (nok < 2 || d == 0) {
        fprintf(stderr, "fit_global: %s: too few successful records or parameters\n", path);
        return 1;
    }
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    size_t m = want < nok ? want : nok;
    for (size_t i = 0; i < m; i++) { /* partial Fisher-Yates: m distinct records */
        size_t j = i + (size_t)gsl_rng_uniform_int(rng, (unsigned long)(nok - i));
        size_t t = ok[i];
        ok[i] = ok[j];
        ok[j] = t;
    }
    double *X = malloc(m * d * sizeof *X), *lt = malloc(m * sizeof *lt), *y = malloc(m * sizeof *y);
    if (!X || !lt || !y) {
        fprintf(stderr, "fit_global: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < m; i++) {
        cutune_space_encode(sp, ok[i], full);
        for (size_t j = 0; j < d; j++)
            X[i * d + j] = full[act[j]];
        lt[i] = log(tab[ok[i]]);
    }
    cutune_gp_warp w;
    memset(&w, 0, sizeof w);
    if (cutune_gp_warp_fit(&w, CUTUNE_GP_WARP_BOXCOX, lt, m) < 0) {
        fprintf(stderr, "fit_global: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < m; i++)
        y[i] = cutune_gp_warp_apply(&w, lt[i]);
    cutune_gp *gp = cutune_gp_alloc(d, CUTUNE_GP_MATERN52);
    cutune_gp_fit_options o;
    cutune_gp_fit_options_default(&o);
    o.ell_min = 0.1; /* bo_alloc's bounds */
    o.sn2_min = 1e-3;
    o.nstarts = 4;
    o.ell_prior_sd = 0.0;
    if (!gp || cutune_gp_set_data(gp, X, y, m, err, sizeof err) < 0 ||
        cutune_gp_fit(gp, &o, rng, err, sizeof err) < 0) {
        fprintf(stderr, "fit_global: %s\n", gp ? err : "out of memory");
        return 1;
    }
    cutune_gp_hyper h;
    cutune_gp_get_hyper(gp, &h);
    fprintf(stderr, "%s: %zu of %zu successful records, Box-Cox lambda %.3f, lml %.2f\n", path, m,
            nok, w.lambda, cutune_gp_lml(gp, NULL));
    for (size_t j = 0; j < d; j++) {
        fprintf(stderr, "  %-20s ell %.3f\n", cutune_space_param(sp, act[j])->name, h.ell[j]);
        printf("%s%.9g", j ? "," : "", h.ell[j]);
    }
    fprintf(stderr, "  sf2 %.4f sn2 %.6f mean %.4f\n", h.sf2, h.sn2, h.mean);
    printf(";%.9g;%.9g;%.9g;%.17g;%.17g;%.17g;%.17g\n", h.sf2, h.sn2, h.mean, w.lambda, w.c, w.zm,
           w.zs);
    cutune_gp_free(gp);
    cutune_gp_warp_free(&w);
    gsl_rng_free(rng);
    free(X);
    free(lt);
    free(y);
    free(full);
    free(act);
    free(ok);
    free(tab);
    cutune_space_free(sp);
    cutune_recording_free(r);
    return 0;
}
