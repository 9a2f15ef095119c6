/* The log marginal likelihood of the GP's data under its hyper-parameters, and its
 * analytic gradient in them (through K^-1 from the factor, gp_dense.c): the objective that
 * gp_hyper.c maximises.
 *
 * References: C. E. Rasmussen & C. K. I. Williams, "Gaussian Processes for Machine
 * Learning", MIT Press 2006: eq. 2.30 (log marginal likelihood), eq. 5.9 (its gradient). */
#include <math.h>
#include <string.h>

#include "gp_internal.h"

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
    cutune_gp_dense_inverse(gp->L, n, ld, gp->work3, W, n);
    double gsf = 0.0, trW = 0.0, gm = 0.0, gadd = 0.0, glin = 0.0;
    double k1v[d], t2v[d]; /* additive term: per-parameter kernels and t^2 of one pair */
    for (size_t c = 0; c < n; c++) {
        const double *xc = gp->X + c * d;
        double wcc = gp->alpha[c] * gp->alpha[c] - W[c + c * n];
        trW += wcc;
        gsf += wcc * gp->sf2 * gp->Kf[c + c * ld];
        gm += gp->alpha[c];
        if (gp->lin > 0.0)
            glin += wcc * gp->sf2 * gp->lin * cutune_gp_centred_dot(d, xc, xc);
        for (size_t r = c + 1; r < n; r++) {
            const double *xr = gp->X + r * d;
            double w = gp->alpha[r] * gp->alpha[c] - W[r + c * n];
            double kf = gp->Kf[r + c * ld];
            gsf += 2.0 * w * gp->sf2 * kf;
            if (gp->lin > 0.0) {
                double lrc = gp->lin * cutune_gp_centred_dot(d, xc, xr);
                glin += 2.0 * w * gp->sf2 * lrc;
                kf -= lrc; /* the stationary part, for the length-scales below */
            }
            if (gp->add > 0.0) {
                /* stationary part: its own kernel value (Kf holds the mixture) */
                double rr = gp->R[r + c * ld], ks = cutune_gp_kfun_inline(gp->kernel, rr);
                double g = w * gp->sf2 * (1.0 - gp->add) * kgrad_from(gp->kernel, rr, ks);
                double e1 = 0.0, q = 0.0;
                for (size_t j = 0; j < d; j++) { /* each k_j once, kept for the sum below */
                    double t = (xc[j] - xr[j]) / gp->ell[j];
                    t2v[j] = t * t;
                    k1v[j] = exp(-0.5 * t2v[j]);
                    e1 += k1v[j];
                    q += k1v[j] * k1v[j];
                }
                gadd += w * gp->sf2 * (cutune_gp_additive_term(d, e1, q) - ks);
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
