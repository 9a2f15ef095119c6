/* Acquisition functions for minimisation, in closed form.
 * EI: Jones, Schonlau & Welch, "Efficient global optimization of expensive black-box
 * functions", J. Global Optim. 13 (1998), eq. 15. log EI in the far tail uses the
 * asymptotic expansion of the Gaussian Mills ratio (Abramowitz & Stegun 26.2.12),
 * as in Ament et al., "Unexpected improvements to expected improvement" (NeurIPS 2023). */
#include <math.h>

#include "cutune/gp.h"

static double norm_pdf(double z)
{
    return exp(-0.5 * z * z) / sqrt(2.0 * M_PI);
}
static double norm_cdf(double z)
{
    return 0.5 * erfc(-z / sqrt(2.0));
}

double cutune_gp_ei(double mu, double sigma, double best, double xi)
{
    double imp = best - xi - mu;
    if (!(sigma > 0.0))
        return imp > 0.0 ? imp : 0.0;
    double z = imp / sigma;
    return imp * norm_cdf(z) + sigma * norm_pdf(z);
}

double cutune_gp_log_ei(double mu, double sigma, double best, double xi)
{
    double imp = best - xi - mu;
    if (!(sigma > 0.0))
        return imp > 0.0 ? log(imp) : -INFINITY;
    double z = imp / sigma;
    if (z > -25.0) { /* phi + z Phi loses at most log10(z^2) < 3 digits here */
        double h = z * norm_cdf(z) + norm_pdf(z);
        return log(sigma) + log(h > 1e-300 ? h : 1e-300);
    }
    /* h(z) = phi(z) + z Phi(z) = phi(z) / z^2 * (1 - 3/z^2 + 15/z^4 - 105/z^6 + ...) */
    double iz2 = 1.0 / (z * z);
    double series = 1.0 - iz2 * (3.0 - iz2 * (15.0 - iz2 * (105.0 - 945.0 * iz2)));
    return log(sigma) - 0.5 * z * z - 0.5 * log(2.0 * M_PI) + log(iz2) + log(series);
}

double cutune_gp_pi(double mu, double sigma, double best, double xi)
{
    double imp = best - xi - mu;
    if (!(sigma > 0.0))
        return imp > 0.0 ? 1.0 : 0.0;
    return norm_cdf(imp / sigma);
}

double cutune_gp_lcb(double mu, double sigma, double beta)
{
    return mu - beta * sigma;
}
