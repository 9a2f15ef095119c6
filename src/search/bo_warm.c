/* bo: warm starts (ctx->warm, include/cutune/warm.h; the method and its measurements are in
 * docs/transfer.md).
 *
 * Three uses of the source, all off without ctx->warm (a cold run is unchanged):
 * - Design (transfer=design, input or both): wdesign = ceil(n_init / 2) of the n_init
 *   design places, the first and then spread evenly, go to the source's best
 *   configurations, each at least two parameters from the ones before
 *   (cutune_warm_prior_design), instead of maximin points; the sequential test (wtest=1)
 *   gives a place to the source only while its fastest pick observed is at least as fast as
 *   the fastest maximin point (source_holds).
 * - Rank input (transfer=input, the default, with the design): each configuration's rank in
 *   the source's order, scaled to [0,1], is one more input of the GP (bo.c: s->wfx, the
 *   last of the D inputs), with a length-scale of its own fitted as the others are. The
 *   target's data decide what the source's order says about the target: a short
 *   length-scale where near ranks mean near times, a long one where the order says
 *   nothing (then the model is the cold one's with a constant input), and a source that
 *   ranks the target backwards is as informative as one that ranks it right.
 * - Prior mean (transfer=prior or both): the GP models the residual y - w p(x) of its
 *   target y (the warped, standardised time) from the source's standardised prior p, and
 *   the acquisition scores mu(x) + w p(x). The weight w is how well the source ranks the
 *   target's own observations: Spearman's rho clamped to [0, 1] (wlcb=1: less its standard
 *   error under no correlation, cutune_warm_prior_weight), recomputed whenever the output
 *   warp is refitted, so a source that ranks the target no better than chance has no
 *   weight, and the run is the cold one's model from there on.
 * The design with the rank input is the default: measured over 40 GPU pairs it is above the
 * design alone at every budget and above cold on misleading sources, where the prior mean
 * holds the search near the source's optimum (docs/transfer.md). */
#include "bo_internal.h"
#include "cutune/warm.h"

int bo_warm_setup(bo_state *s, const cutune_searcher_ctx *ctx)
{
    s->warm = ctx->warm && ctx->warm->size == s->size ? ctx->warm : NULL;
    if (!s->warm || s->transfer == BO_TRANSFER_OFF) {
        s->warm = NULL;
        return 0;
    }
    if (s->transfer == BO_TRANSFER_PRIOR)
        return 0;
    size_t k = s->warm_design ? s->warm_design : (s->n_init + 1) / 2;
    if (k > s->n_init)
        k = s->n_init;
    s->wdesign = malloc((k ? k : 1) * sizeof *s->wdesign);
    if (!s->wdesign)
        return CUTUNE_ENOMEM;
    s->nwdesign = cutune_warm_prior_design(s->warm, s->space, k, NULL, s->rng, s->wdesign);
    return 0;
}

/* The design's sequential test: the source keeps its design places while its picks beat the
 * space-filling ones (the fastest source pick observed is at least as fast as the fastest
 * other design point; a failure is slowest). Until both kinds are observed it holds. */
static int source_holds(const bo_state *s)
{
    double bs = INFINITY, bm = INFINITY;
    int ns = 0, nm = 0;
    for (size_t i = 0; i < s->nobs; i++) {
        int src = 0;
        for (size_t j = 0; j < s->nwdesign && !src; j++)
            src = s->obs_id[i] == s->wdesign[j];
        double t = s->obs_ok[i] ? s->obs_t[i] : INFINITY;
        if (src) {
            ns++;
            bs = t < bs ? t : bs;
        } else {
            nm++;
            bm = t < bm ? t : bm;
        }
    }
    return !ns || !nm || bs <= bm;
}

long long bo_warm_design_pick(bo_state *s, size_t at)
{
    size_t k = s->nwdesign, n = s->n_init;
    /* k source points spread evenly over the n design places, the first one first */
    if (!s->warm || at >= n || ((at + 1) * k + n - 1) / n == (at * k + n - 1) / n)
        return -1;
    if (s->design_test && !source_holds(s))
        return -1;
    for (size_t i = 0; i < s->nwdesign; i++)
        if (!bo_excluded(s, s->wdesign[i]))
            return (long long)s->wdesign[i];
    return -1;
}

double bo_warm_offset(const bo_state *s, size_t id)
{
    return s->warm && s->wprior > 0.0 ? s->wprior * s->warm->score[id] : 0.0;
}

double bo_target(const bo_state *s, size_t i)
{
    double y = cutune_gp_warp_apply(&s->warp, s->ok_logt[i]);
    if (!s->warm || s->wprior <= 0.0)
        return y;
    return y - s->wprior * s->ok_prior[i];
}

void bo_warm_weigh(bo_state *s)
{
    if (!s->warm || s->transfer == BO_TRANSFER_DESIGN || s->transfer == BO_TRANSFER_INPUT)
        return;
    if (s->wplain) {
        double r = s->nok >= 3 ? cutune_warm_rank_correlation(s->ok_prior, s->ok_logt, s->nok) : 0;
        s->wprior = r > 0.0 ? r : 0.0;
    } else
        s->wprior = cutune_warm_prior_weight(s->ok_prior, s->ok_logt, s->nok);
}
