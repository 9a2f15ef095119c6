/* bo: the feasibility model.
 *
 * Feasibility model. Failed evaluations (any status but ok) are not times, so they never
 * enter the GP. P(success | x) is a Nadaraya-Watson estimate in the same encoding (the
 * power-of-two inputs excluded) with a Gaussian kernel and a Beta prior centred on the
 * overall success rate:
 *     P(x) = (a + sum_i w_i s_i) / (a + b + sum_i w_i),  w_i = exp(-|x - x_i|^2 / 2h^2),
 *     a = c p0, b = c (1 - p0), p0 = (1 + #ok) / (2 + #evaluated), c = 1,
 * with per-dimension bandwidths (|x - x_i|^2 weighted per parameter) picked by leave-one-
 * out log likelihood (a common bandwidth from a grid, then per-dimension factors; after
 * every evaluation up to BO_FEAS_ALL, then every BO_FEAS_GROWTH; pairs computed once per
 * selection, one exp per pair and trial). Over the candidates the kernel sums are kept
 * incrementally, each weight a product of per-dimension table entries (every dimension
 * takes few values), no exp per pair.
 * Chosen over a GP classifier (Laplace/EP) because it is cheap (O(n m d), no extra fit), has no
 failure mode of its own, needs no hyper-parameter optimisation to behave,
 * degrades to the prior rate far from any evaluation, and failure regions of GPU kernels
 * are typically contiguous blocks of the space (resource limits: registers, shared
 * memory, threads per block) that a local average captures well. The acquisition is
 * EI(x) * P(x) (evaluated as log EI + log P); with no failure seen P = 1.
 */
#include "bo_internal.h"

static double feas_prior(const bo_state *s)
{
    return (1.0 + s->nok) / (2.0 + s->nobs);
}

static double wdist(const double *w, const double *a, const double *b, size_t d)
{
    double r = 0.0;
    for (size_t j = 0; j < d; j++)
        r += w[j] * (a[j] - b[j]) * (a[j] - b[j]);
    return r;
}

double bo_feas_at(const bo_state *s, const double *x, size_t skip)
{
    double p0 = feas_prior(s), num = p0, den = 1.0;
    for (size_t i = 0; i < s->nobs; i++) {
        if (i == skip)
            continue;
        double w = exp(-wdist(s->fw, x, s->obs_x + i * s->D, s->d));
        num += w * s->obs_ok[i];
        den += w;
    }
    return num / den;
}

/* Leave-one-out log likelihood of the feasibility estimate. With pairs (pd: per pair the
 * d squared differences, pw: the weighted distance under s->fw, both over i < k) each pair
 * costs one exp for both of its points; a trial that changes only dimension j moves every
 * distance by dw * pd_j (pass j and dw; j = (size_t)-1 for none). */
static double feas_loo_pairs(bo_state *s, const double *pd, const double *pw, size_t j, double dw,
                             double *num, double *den)
{
    size_t n = s->nobs, d = s->d;
    double p0 = feas_prior(s);
    for (size_t i = 0; i < n; i++) {
        num[i] = p0;
        den[i] = 1.0;
    }
    size_t p = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++, p++) {
            double r = pw[p] + (j < d ? dw * pd[p * d + j] : 0.0);
            double w = exp(-r);
            num[i] += w * s->obs_ok[k];
            den[i] += w;
            num[k] += w * s->obs_ok[i];
            den[k] += w;
        }
    double ll = 0.0;
    for (size_t i = 0; i < n; i++) {
        double q = num[i] / den[i];
        ll += log(s->obs_ok[i] ? q : 1.0 - q);
    }
    return ll;
}

static void feas_pair_dist(const bo_state *s, const double *pd, double *pw)
{
    size_t n = s->nobs, d = s->d, np = n * (n - 1) / 2;
    for (size_t p = 0; p < np; p++) {
        double r = 0.0;
        for (size_t j = 0; j < d; j++)
            r += s->fw[j] * pd[p * d + j];
        pw[p] = r;
    }
}

/* Bandwidths by leave-one-out log likelihood: a common h from a grid, then sweeps of
 * per-dimension factors (failures often depend on a few parameters only: threads per
 * block, registers, shared memory), so irrelevant dimensions can be smoothed away
 * (two sweeps up to 2 BO_FEAS_ALL evaluations, one after). */
void bo_feas_select_bandwidth(bo_state *s)
{
    static const double grid[] = {0.05, 0.1, 0.15, 0.25, 0.4, 0.6, 1.0};
    static const double factor[] = {0.5, 2.0, 8.0};
    size_t n = s->nobs, d = s->d, np = n * (n - 1) / 2;
    double *pd = malloc((np * d + np + 2 * n + 1) * sizeof *pd);
    if (!pd)
        return; /* keep the current bandwidths */
    double *pw = pd + np * d, *num = pw + np, *den = num + n;
    size_t p = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++, p++)
            for (size_t j = 0; j < d; j++) {
                double t = s->obs_x[i * s->D + j] - s->obs_x[k * s->D + j];
                pd[p * d + j] = t * t;
            }
    double best = -INFINITY, scale = sqrt((double)d), besth = 0.15 * scale;
    for (size_t g = 0; g < sizeof grid / sizeof grid[0]; g++) {
        double h = grid[g] * scale;
        for (size_t j = 0; j < d; j++)
            s->fw[j] = 1.0 / (2.0 * h * h);
        feas_pair_dist(s, pd, pw);
        double ll = feas_loo_pairs(s, pd, pw, (size_t)-1, 0.0, num, den);
        if (ll > best) {
            best = ll;
            besth = h;
        }
    }
    for (size_t j = 0; j < d; j++)
        s->fw[j] = 1.0 / (2.0 * besth * besth);
    feas_pair_dist(s, pd, pw);
    int sweeps = n <= 2 * BO_FEAS_ALL ? 2 : 1;
    for (int sweep = 0; sweep < sweeps; sweep++)
        for (size_t j = 0; j < d; j++) {
            double keep = s->fw[j], bestw = keep;
            for (size_t f = 0; f < sizeof factor / sizeof factor[0]; f++) {
                double w = keep / (factor[f] * factor[f]);
                double ll = feas_loo_pairs(s, pd, pw, j, w - keep, num, den);
                if (ll > best + 1e-9) {
                    best = ll;
                    bestw = w;
                }
            }
            s->fw[j] = bestw;
            if (bestw != keep)
                for (size_t q = 0; q < np; q++)
                    pw[q] += (bestw - keep) * pd[q * d + j];
        }
    free(pd);
}

/* Bring the kernel sums of the cached candidates up to date. */
/* The Gaussian kernel is a product over dimensions and each dimension takes few values,
 * so the weight of a (candidate, observation) pair is a product of d table entries
 * exp(-fw_j (u_j(a) - u_j(b))^2) over value indices: no exp per pair. */
void bo_feas_sync(bo_state *s)
{
    size_t d = s->d;
    if (memcmp(s->fw, s->fw_used, d * sizeof *s->fw) != 0) {
        memset(s->fnum, 0, s->cm * sizeof *s->fnum);
        memset(s->fden, 0, s->cm * sizeof *s->fden);
        s->fe_n = 0;
        memcpy(s->fw_used, s->fw, d * sizeof *s->fw);
        for (size_t j = 0; j < d; j++) {
            size_t nv = s->nv[j];
            double *t = s->ftab + s->ftoff[j];
            for (size_t a = 0; a < nv; a++)
                for (size_t b = 0; b < nv; b++) {
                    double du = nv > 1 ? ((double)a - (double)b) / (double)(nv - 1) : 0.0;
                    t[a * nv + b] = exp(-s->fw[j] * du * du);
                }
        }
    }
    /* Candidate by candidate over a chunk of new observations (not observation by
     * observation over the candidates): a candidate's indices and sums stay in registers,
     * and each sum still adds the observations in their order, so the sums are the same to
     * the bit. off[i d + j]: where observation i's row of dimension j's table starts (the
     * table is symmetric: row co_j, indexed by the candidate's value). Chunks keep the
     * scratch on the stack (4096 offsets at most, or d where one observation has more). */
    size_t cm = s->cm, chunk = d < 4096 / 64 ? 64 : 4096 / d > 0 ? 4096 / d : 1;
    size_t off[chunk * d];
    double okv[chunk];
    const double *restrict tab = s->ftab;
    double *restrict fnum = s->fnum, *restrict fden = s->fden;
    while (s->fe_n < s->nobs) {
        size_t nnew = s->nobs - s->fe_n < chunk ? s->nobs - s->fe_n : chunk;
        for (size_t i = 0; i < nnew; i++) {
            const uint16_t *co = cutune_space_config(s->space, s->obs_id[s->fe_n + i]);
            for (size_t j = 0; j < d; j++)
                off[i * d + j] = s->ftoff[j] + (size_t)co[s->active[j]] * s->nv[j];
            okv[i] = s->obs_ok[s->fe_n + i];
        }
        for (size_t c = 0; c < cm; c++) {
            const uint16_t *restrict cc = s->cidx + c * d;
            double num = fnum[c], den = fden[c];
            for (size_t i = 0; i < nnew; i++) {
                const size_t *oi = off + i * d;
                double w = 1.0;
                for (size_t j = 0; j < d; j++)
                    w *= tab[oi[j] + cc[j]];
                num += w * okv[i];
                den += w;
            }
            fnum[c] = num;
            fden[c] = den;
        }
        s->fe_n += nnew;
    }
}

double bo_feas_cached(const bo_state *s, size_t id)
{
    double p0 = feas_prior(s);
    return (p0 + s->fnum[id]) / (1.0 + s->fden[id]);
}
