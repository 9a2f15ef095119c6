/* bo: Bayesian optimisation with a Gaussian-process surrogate (src/gp). What each choice
 * below gives, measured on recordings it was not tuned on, is in docs/searchers.md
 * (benchmarks/bo/ablation.sh); this comment says what the method is and why.
 *
 * Model of the time. A GP (Matern 5/2 by default, ARD length-scales, signal and noise
 * variance, constant mean) of y = a Box-Cox power transform of the time (gp_warp.c:
 * (t^lambda - 1) / lambda, lambda in [-2, 2] by maximum likelihood of the observed ok
 * times, as HEBO does; lambda = 0 is the log), standardised; refitted at every
 * hyper-parameter fit and fixed in between, so that appended points map consistently.
 * Slow outliers (10-100x the optimum is common on GPUs) are compressed, so the GP spends
 * its variance on the differences among fast configurations (warp=none: standardised log
 * time; warp=copula: normal scores of the ranks). Inputs: the space's [0,1] encoding
 * (cutune_space_encode: value index / (n-1); single-valued parameters dropped), and with
 * pow2=1 (off: an extra ARD dimension costs data) one 0/1 input per integer parameter
 * whose values mix powers of two with other integers. Noise variance >= 1e-3
 * (standardised): a nugget, see bo_alloc.
 *
 * Hyper-parameter fits (cost matters: 200-evaluation runs by the thousand in `cutune
 * bench`). Maximum likelihood plus a log-normal prior on the length-scales, BFGS in
 * gp_hyper.c. The prior is the dimension-scaled one of Hvarfner, Hellsten & Nardi
 * ("Vanilla Bayesian optimization performs great in high dimensions", ICML 2024):
 * log ell ~ N(sqrt(2) + log(D) / 2, 3), which with tens of points in D ~ 10-15 dimensions
 * favours few relevant parameters unless the data say otherwise. With fewer successful
 * points than inputs the ARD length-scales cannot be identified and that prior alone
 * would decide: a nearly linear model whose EI runs to the edges of the space, which is
 * below random search where most of the space fails. So lprior=auto holds the weak prior
 * N(log 0.5, 4) until the successful points number the model's inputs, then the scaled
 * one (refit from scratch at the switch). A multi-start fit (current values +
 * fit.nstarts random starts from ctx->rng, data rewarped) at the first fit and whenever
 * the ok count has doubled, up to BO_FULL_MAX; otherwise warm refits: one BFGS run from
 * the current optimum (BO_WARM_ITER iterations, BO_WARM_ITER_LATE above BO_WARM_LATE
 * points, where each likelihood costs O(n^3)), after every observation up to
 * BO_REFIT_ALL, then whenever the count grew by BO_REFIT_GROWTH. In the safe phase a warm
 * refit replaces the model only when it gains more than BO_MIN_GAIN nats (refit=gain, see
 * refit_warm); in the edge phase it always does. Between refits new observations extend
 * the Cholesky factor in O(n^2) (cutune_gp_add); a refit that keeps the hyper-parameters
 * only gives the GP the re-warped targets (cutune_gp_set_targets, O(n^2), and O(m n) for
 * the prediction cache).
 *
 * Batches and pending evaluations. propose(k) returns k distinct configurations by the
 * Kriging believer: after each choice the GP gets a fantasy observation at its own
 * posterior mean (O(n^2) factor append) and the acquisition is maximised again. The
 * proposals of earlier calls not yet observed (evaluations in flight, when the tuner
 * loop keeps several) get the same fantasies first, and count in the initial design.
 * Fantasies are dropped at the end of every call (cutune_gp_truncate, O(1) on the
 * factor).
 *
 * Duplicates. An id observed twice (the loop answering a re-proposal) is ignored.
 * All-failed histories fall back to maximin sampling weighted by P(success).
 *
 * Determinism. Only ctx->rng is drawn from. The GP's linear algebra runs in a fixed order
 * of operations (src/gp/gp_dense.c), not on BLAS, so a seed's run is the same on any
 * x86-64 machine and thread count; acquisition scores are compared rounded to
 * BO_SCORE_BITS significant bits (bo_acquire.c), ties to the lowest id, so that a last-bit
 * difference of the C library's exp or log (glibc picks FMA code paths by CPU) does not
 * flip a pick (docs/reproducibility.md).
 *
 * Interactions (add=fit). The stationary kernel generalises an observation only to
 * configurations near it in every parameter, so an effect of two parameters together
 * (the work-group size MDIMC x NDIMC) must be learnt again in every region of the others.
 * add=fit mixes in the second-order additive kernel on the same length-scales, its
 * weight fitted with the other hyper-parameters: one more parameter, not an ARD input
 * per interaction. Within the noise at 2-4x the cost per run, so it is an option.
 *
 * Linear trend (lin=W). GPU optima often sit at the ends of parameter ranges (largest
 * tiles and vector widths). lin=W adds sf2 W (x - c).(x' - c) to the covariance (c the
 * centre of the box): a linear trend with N(0, sf2 W) coefficients, so the trend
 * extrapolates and the stationary part models the rest. It trades recordings like
 * every other change of the prior, so it is an option.
 *
 * No phase by the budget (early=safe, the default). Sending the first proposals to the
 * ends of the ranges (early=edge: the dimension-scaled prior from the first point, no
 * weak-prior local model, pair moves in the local steps, a linear trend) costs where the
 * optimum is inside the box; early=auto takes it from BO_EDGE_BUDGET = 60 evaluations on
 * and drops it for good once more than half of at least n_init evaluations have failed.
 * With the GPU left out, in the convention that charges the failures a recording left
 * out, the threshold gains nothing (docs/searchers.md: 0.969 vs 0.968 at 60 evaluations,
 * the choice made without the GPU below both), so every budget runs the same method and
 * the switches that remain follow what the run has seen (lprior=auto, lweak=).
 *
 * The exhaustive tail. A budget that covers, after BO_TAIL_AFTER = 200 evaluations, at
 * least half of the configurations left then (a budget of the space's size always does)
 * evaluates most or all of the space: the model can only change the order. Refitting and
 * rescoring one proposal at a time would cost 15.5 s of CPU for budget = size on a
 * 2000-point space (release build), so from the 200th observation (with 2 successful) bo
 * ranks the unvisited configurations once by the acquisition under the model it has and
 * proposes them in that order, fitting nothing more (0.27 s). The condition is a function
 * of the budget and the size only, so every budget that has the tail starts it at the
 * same proposal (bo_plan). Searchers do no I/O: documented (docs/searchers.md) and tested
 * (test_bo.c, test_tail) instead of said on stderr.
 *
 * Files. bo.c: the searcher (alloc, propose, observe) and the model upkeep (warp, fits, the
 * early phase); bo_ids.c: the observed and pending ids, encodings, uniform draws;
 * bo_feas.c: the feasibility model; bo_acquire.c: the acquisition and its candidates (the
 * whole space or a pool, the local steps and their model); bo_design.c: the initial
 * design; bo_model.c: the GP's upkeep (observations, warp, refits, phase, pending
 * beliefs); bo_parego.c and bo_ehvi.c: several objectives (ParEGO, two objectives' EHVI);
 * bo_options.c: the options; bo_internal.h: the state they share.
 */
#include "bo_internal.h"

/* ---------- propose, observe (the model's upkeep is bo_model.c) ---------- */

/* ParEGO (bo_parego.c): a new scalarisation of the observations, handed to the GP as its
 * targets (the local model refits on it too). */
static int parego_retarget(bo_state *s, char *err, size_t errlen)
{
    if (!bo_parego_on(s) || s->nok == 0)
        return 0;
    bo_parego_rescalarise(s);
    s->lgp_n = 0;
    return bo_rewarp(s, err, errlen);
}

/* Whether this model-based proposal (s->nmodel counts it) is a local step. The share of
 * local steps is local_frac; under local=auto, once a global model-based pick has been
 * observed, it is the larger of local_frac and the share of those picks that failed
 * (Laplace's estimate, (fail + 1) / (n + 2)): where the model's picks across the space
 * keep failing, the neighbourhood of the best, which ran, gets the proposals instead.
 * Without failures (fail + 1) / (n + 2) <= 1/3 from the first observed pick on, so the
 * run is a fixed local_frac's, batches and pending proposals included. */
static int local_due(bo_state *s)
{
    double f = s->local_frac;
    if (s->local_auto && s->gtot > 0) {
        double fail = ((double)(s->gtot - s->gok) + 1.0) / ((double)s->gtot + 2.0);
        f = fail > f ? fail : f;
    }
    if (!(f > 0.0) || (double)s->nlocal_due >= floor((double)s->nmodel * f))
        return 0;
    s->nlocal_due++;
    return 1;
}

/* local=auto: model-based pick id (-1: none) was a global one; its outcome, when
 * observed, feeds local_due. */
static int note_global_pick(bo_state *s, long long id, char *err, size_t errlen)
{
    if (id < 0 || !s->local_auto)
        return 0;
    if (bo_reserve_ids(&s->gpicks, &s->capgpicks, s->ngpicks + 1) < 0)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
    s->gpicks[s->ngpicks++] = (size_t)id;
    return 0;
}

/* Whether the exhaustive tail starts now (see the top comment): allowed by the budget,
 * BO_TAIL_AFTER observations made, and a model to rank by. */
static int tail_due(const bo_state *s)
{
    return s->tail_allowed && !s->tail && s->nobs >= BO_TAIL_AFTER && s->nok >= 2;
}

/* Rank the unvisited configurations once with the model as it is (synced, no fantasies):
 * from here on bo proposes them in that order and fits nothing more. */
static int start_tail(bo_state *s, char *err, size_t errlen)
{
    int rc = parego_retarget(s, err, errlen);
    if (rc < 0)
        return rc;
    rc = bo_sync_model(s, err, errlen);
    if (rc < 0)
        return rc;
    double fbest = INFINITY;
    for (size_t i = 0; i < s->in_gp; i++) {
        double yi = cutune_gp_warp_apply(&s->warp, s->ok_logt[i]);
        if (yi < fbest)
            fbest = yi;
    }
    return bo_rank_all(s, fbest, &s->tail, &s->ntail, err, errlen);
}

static int bo_propose(void *state, size_t k, size_t *out, size_t *n, char *err, size_t errlen)
{
    bo_state *s = state;
    int rc = 0;
    *n = 0;
    /* Proposals of earlier calls still unanswered (evaluations in flight, when the loop
     * keeps several): the design counts them, the model believes a fantasy for each. */
    size_t npre = s->npending;
    size_t base = cutune_gp_n(s->gp); /* fantasies beyond it are dropped on every exit */
    int ready = 0;                    /* the model is up to date for this batch */
    for (size_t j = 0; j < k; j++) {
        long long id;
        size_t at = s->nobs + npre + j; /* this proposal's place in the run */
        if (!s->tail && !ready && tail_due(s) && (rc = start_tail(s, err, errlen)) < 0)
            return rc;
        if (s->tail) {
            while (s->tail_pos < s->ntail && bo_excluded(s, s->tail[s->tail_pos]))
                s->tail_pos++;
            id = s->tail_pos < s->ntail ? (long long)s->tail[s->tail_pos++] : -1;
        } else if (at < s->n_init && (id = bo_warm_design_pick(s, at)) >= 0) {
            /* the ranking-based design of a warm start (bo_warm.c) */
        } else if (s->nok < 2 || at < s->n_init) {
            id = s->design_random                  ? bo_random_available(s)
                 : s->design_lhs && at < s->n_init ? bo_lhs_pick(s, at)
                                                   : bo_maximin_pick(s);
        } else if (bo_ehvi_on(s)) {
            /* two objectives' EHVI (bo_ehvi.c): its own models; the main one (the geometric
             * mean) is kept up to date for the pool, the feasibility model and the tail */
            if (!ready) {
                ready = 1;
                if ((rc = bo_prepare_model(s, 1, err, errlen)) < 0 ||
                    (rc = bo_ehvi_prepare(s, err, errlen)) < 0)
                    return rc;
                base = cutune_gp_n(s->gp);
            }
            s->nmodel++;
            int local = local_due(s);
            id = bo_ehvi_pick(s, local, j + 1 == k, err, errlen, &rc);
            if (rc == 0 && !local)
                rc = note_global_pick(s, id, err, errlen);
            if (rc < 0)
                goto out_truncate;
            if (id < 0 && s->pooled)
                id = bo_random_available(s); /* the whole pool is visited */
        } else {
            /* before the batch's first model-based pick, which in a batch that ends the
             * design comes after its last design points (it once scored with an empty GP
             * and an infinite incumbent there: every candidate tied, the lowest ids won) */
            if (!ready) {
                ready = 1;
                if ((rc = parego_retarget(s, err, errlen)) < 0 ||
                    (rc = bo_prepare_model(s, k - j + npre, err, errlen)) < 0)
                    return rc; /* no fantasy yet; the sync may have appended real points */
                base = cutune_gp_n(s->gp);
                if ((rc = bo_believe_pending(s, npre, err, errlen)) < 0)
                    goto out_truncate;
            }
            /* best observed so far (fantasies are believed, not counted as found) */
            double fbest = INFINITY;
            for (size_t i = 0; i < s->in_gp; i++) {
                double yi = cutune_gp_warp_apply(&s->warp, s->ok_logt[i]);
                if (yi < fbest)
                    fbest = yi;
            }
            best_pick bp;
            const size_t *ids = NULL;
            size_t nids = 0;
            /* local steps (local_due): the neighbourhood of the best */
            s->nmodel++;
            int local = local_due(s);
            if (local) {
                if ((rc = bo_build_local(s)) < 0) {
                    rc = cutune_err(err, errlen, rc, "bo: out of memory");
                    goto out_truncate; /* the batch's fantasies so far are dropped too */
                }
                size_t avail = 0;
                for (size_t i = 0; i < s->nlocal && !avail; i++)
                    avail = !bo_excluded(s, s->local[i]);
                if (avail) {
                    ids = s->local;
                    nids = s->nlocal;
                }
            }
            const cutune_gp *model = s->gp;
            if (ids && (rc = bo_local_model(s, &model, err, errlen)) < 0)
                goto out_truncate;
            rc = bo_maximise(s, model, ids, nids, fbest, &bp, err, errlen);
            if (rc < 0)
                goto out_truncate;
            id = bp.id;
            if (id >= 0 && j + 1 < k) {
                double *x = s->bx, mu = bp.mu;
                bo_encode(s, (size_t)id, x);
                /* the believer's fantasy is the main model's own mean (a pick of the local
                 * model carries that model's) */
                if (model != s->gp &&
                    (rc = cutune_gp_predict(s->gp, x, 1, &mu, NULL, err, errlen)) < 0)
                    goto out_truncate;
                rc = cutune_gp_add(s->gp, x, mu, err, errlen);
                if (rc < 0)
                    goto out_truncate;
            }
            if (!ids && (rc = note_global_pick(s, id, err, errlen)) < 0)
                goto out_truncate;
            if (id < 0 && s->pooled)
                id = bo_random_available(s); /* the whole pool is visited */
        }
        if (id < 0)
            break;
        if ((rc = bo_push_pending(s, (size_t)id)) < 0) {
            rc = cutune_err(err, errlen, rc, "bo: out of memory");
            goto out_truncate;
        }
        out[(*n)++] = (size_t)id;
    }
out_truncate:
    if (cutune_gp_n(s->gp) > base) {
        int rc2 = cutune_gp_truncate(s->gp, base, err, errlen);
        if (rc == 0)
            rc = rc2;
    }
    return rc;
}

static int grow_obs(bo_state *s)
{
    if (s->nobs < s->capobs)
        return 0;
    size_t nc = s->capobs ? 2 * s->capobs : 64;
    size_t *id = realloc(s->obs_id, nc * sizeof *id);
    if (!id)
        return CUTUNE_ENOMEM;
    s->obs_id = id;
    uint8_t *ok = realloc(s->obs_ok, nc);
    if (!ok)
        return CUTUNE_ENOMEM;
    s->obs_ok = ok;
    double *ox = realloc(s->obs_x, nc * s->D * sizeof *ox);
    if (!ox)
        return CUTUNE_ENOMEM;
    s->obs_x = ox;
    double *kx = realloc(s->ok_x, nc * s->D * sizeof *kx);
    if (!kx)
        return CUTUNE_ENOMEM;
    s->ok_x = kx;
    double *ot = realloc(s->obs_t, nc * sizeof *ot);
    if (!ot)
        return CUTUNE_ENOMEM;
    s->obs_t = ot;
    double *kt = realloc(s->ok_logt, nc * sizeof *kt);
    if (!kt)
        return CUTUNE_ENOMEM;
    s->ok_logt = kt;
    if (s->nobj > 1) {
        double *ko = realloc(s->ok_obj, nc * s->nobj * sizeof *ko);
        if (!ko)
            return CUTUNE_ENOMEM;
        s->ok_obj = ko;
    }
    if (s->warm) {
        double *kp = realloc(s->ok_prior, nc * sizeof *kp);
        if (!kp)
            return CUTUNE_ENOMEM;
        s->ok_prior = kp;
    }
    s->capobs = nc;
    return 0;
}

static int bo_observe(void *state, const cutune_observation *obs, size_t n, char *err,
                      size_t errlen)
{
    bo_state *s = state;
    for (size_t i = 0; i < n; i++) {
        size_t id = obs[i].id;
        if (id >= s->size)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "bo: observed id %zu outside the space",
                              id);
        for (size_t p = 0; p < s->npending; p++)
            if (s->pending[p] == id) {
                s->pending[p] = s->pending[--s->npending];
                break;
            }
        if (bo_hash_has(s, id))
            continue; /* a duplicate answer: nothing new */
        int global = 0;
        for (size_t p = 0; p < s->ngpicks && !global; p++)
            if (s->gpicks[p] == id) {
                s->gpicks[p] = s->gpicks[--s->ngpicks];
                global = 1;
            }
        if (grow_obs(s) < 0 || bo_hash_put(s, id) < 0)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
        int ok =
            obs[i].status == CUTUNE_STATUS_OK && isfinite(obs[i].time_ms) && obs[i].time_ms > 0.0;
        if (ok && s->nobj > 1) {
            /* ParEGO's scores (kept under mo=geomean too, unread); a success without all
             * of them is none under ParEGO */
            int have = obs[i].objectives && obs[i].nobjectives == s->nobj;
            for (size_t j = 0; have && j < s->nobj; j++) {
                double v = obs[i].objectives[j];
                have = isfinite(v);
                s->ok_obj[s->nok * s->nobj + j] = v;
            }
            if (!have && s->mo != BO_MO_GEOMEAN)
                ok = 0;
        }
        s->gtot += (size_t)global;
        s->gok += (size_t)(global && ok);
        s->obs_id[s->nobs] = id;
        s->obs_ok[s->nobs] = (uint8_t)ok;
        s->obs_t[s->nobs] = ok ? obs[i].time_ms : NAN;
        bo_encode(s, id, s->obs_x + s->nobs * s->D);
        if (ok) {
            memcpy(s->ok_x + s->nok * s->D, s->obs_x + s->nobs * s->D, s->D * sizeof(double));
            if (s->warm)
                s->ok_prior[s->nok] = s->warm->score[id];
            s->ok_logt[s->nok++] = log(obs[i].time_ms);
        } else if (!s->feas_on && s->feas_model) {
            s->feas_on = 1;
            double h = 0.15 * sqrt((double)s->d);
            for (size_t j = 0; j < s->d; j++) {
                s->fw[j] = 1.0 / (2.0 * h * h);
                s->fw_used[j] = -1.0;
            }
        }
        s->nobs++;
    }
    return 0;
}

/* ---------- alloc, free ---------- */

static void bo_free(void *state)
{
    bo_state *s = state;
    cutune_gp_cache_free(s->cache);
    cutune_gp_free(s->gp);
    cutune_gp_free(s->lgp);
    free(s->fnum);
    free(s->fden);
    free(s->fw);
    free(s->fw_used);
    free(s->active);
    free(s->full);
    free(s->enc);
    free(s->lhs);
    free(s->obs_id);
    free(s->obs_ok);
    free(s->obs_x);
    free(s->ok_x);
    free(s->ok_logt);
    free(s->hash);
    free(s->pending);
    free(s->bx);
    free(s->bid);
    free(s->bmu);
    free(s->bvar);
    free(s->bp);
    free(s->pool);
    free(s->pool_x);
    free(s->nv);
    free(s->ftoff);
    free(s->ftab);
    free(s->cidx);
    free(s->p2dim);
    free(s->p2off);
    free(s->p2v);
    free(s->wfx);
    free(s->perm);
    free(s->local);
    free(s->gpicks);
    free(s->obs_t);
    free(s->tail);
    free(s->wdesign);
    free(s->ok_prior);
    free(s->ok_obj);
    bo_ehvi_free(s);
    cutune_gp_warp_free(&s->warp);
}

static int bo_alloc(void *state, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    bo_state *s = state;
    int rc = 0;
    if (!ctx || !ctx->space || !ctx->rng)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "bo: needs a space and a generator");
    s->space = ctx->space;
    s->rng = ctx->rng;
    s->visited = ctx->visited;
    s->budget = ctx->budget;
    s->size = cutune_space_size(ctx->space);
    s->np = cutune_space_nparams(ctx->space);
    if (s->size == 0)
        return cutune_err(err, errlen, CUTUNE_EEMPTY, "bo: the space is empty");
    s->acq = ACQ_EI;
    s->xi = 0.01;
    s->beta = 2.0;
    s->kernel = CUTUNE_GP_MATERN52;
    s->local_frac = 1.0 / 3.0;
    s->local_auto = 1;
    s->lweak_max = BO_LOCAL_WEAK;
    s->warm_gain = BO_MIN_GAIN;
    s->exact_m = BO_EXACT;
    s->pool_m = BO_POOL;
    s->pow2 = 0;
    s->pairs = 0; /* the safe phase's; the edge phase sets 1 (set_phase) */
    s->warp_kind = CUTUNE_GP_WARP_BOXCOX;
    s->feas_model = 1;
    s->nobj = ctx->nobjectives <= BO_MO_MAX ? ctx->nobjectives : 0;
    s->mo = -1; /* several objectives: EHVI for two, ParEGO for more (below; docs/objectives.md) */
    /* No phase by the budget (early=safe): the edge phase from 60 evaluations measured no
     * gain where the GPU is left out (docs/searchers.md), so it is an option, not a plan */
    s->early = BO_EARLY_SAFE;
    s->lprior_mode = BO_LPRIOR_AUTO;
    s->lprior_now = -1;
    s->transfer = BO_TRANSFER_INPUT; /* warm starts (bo_warm.c): the design and the rank input, */
    s->design_test = 1;              /* guarded by its sequential test */
    s->wplain = 1;                   /* ... and the prior's weight is the rank correlation itself */
    size_t b40 = s->budget / 40;
    s->n_init = b40 < 5 ? 5 : b40 > 10 ? 10 : b40;
    cutune_gp_fit_options_default(&s->fit);
    s->fit.stop = ctx->stop; /* a stop that must not wait ends a fit early (gp.h) */
    /* Length-scales below ~the value spacing of a parameter (1/(n-1) in the encoding)
     * make the GP a lookup table that says nothing about unvisited neighbours; with 60
     * points in 15 dimensions the likelihood happily goes there. 0.1 = a tenth of each
     * parameter's range (measured: GEMM recordings 0.95-0.97 -> 0.975-0.99 at 60). */
    s->fit.ell_min = 0.1;
    /* A noise floor of 1e-3 (standardised log time, ~0.03 sd): repeated GPU timings
     * scatter by a few per cent, and the GP cannot represent every discrete effect of a
     * parameter, so a small nugget keeps it from interpolating exactly (measured, 50 seeds
     * at B = 60 on GEMM P100 / AMD Vega / TitanX / RTX 2070 and convolution P100: 0.980 /
     * 0.956 / 0.969 / 0.962 / 0.936 with 1e-6, 0.986 / 0.957 / 0.982 / 0.957 / 0.931 with
     * 1e-3, 0.976 / 0.936 / 0.956 / 0.950 / 0.931 with 1e-2: more smoothing hurts GEMM). */
    s->fit.sn2_min = 1e-3;
    if ((rc = bo_parse_args(s, ctx->args, err, errlen)) < 0)
        return rc;
    if (s->mo < 0) /* EHVI measured ahead of ParEGO or within its noise (docs/objectives.md) */
        s->mo = s->nobj == 2 ? BO_MO_EHVI : BO_MO_PAREGO;
    if (s->mo == BO_MO_EHVI && s->nobj > 2)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "bo: mo=ehvi takes two objectives, the run has %zu (mo=parego takes "
                          "any number)",
                          s->nobj);
    /* The early phase by the budget (early=auto; see the top comment): edge-seeking when
     * the run can afford to recover from a wrong edge. Options given explicitly win. */
    if (s->early == BO_EARLY_EDGE || (s->early == BO_EARLY_AUTO && s->budget >= BO_EDGE_BUDGET))
        bo_set_phase(s, 1);
    /* The exhaustive tail (see the top comment): when the evaluations after the first
     * BO_TAIL_AFTER cover at least half of the configurations left then. */
    s->tail_allowed = s->budget >= BO_TAIL_AFTER && s->size >= BO_TAIL_AFTER &&
                      s->size - BO_TAIL_AFTER <= 2 * (s->budget - BO_TAIL_AFTER);

    s->active = malloc((s->np ? s->np : 1) * sizeof *s->active);
    s->full = malloc((s->np ? s->np : 1) * sizeof *s->full);
    if (!s->active || !s->full)
        goto out_nomem;
    for (size_t p = 0; p < s->np; p++)
        if (cutune_space_param(ctx->space, p)->nvalues > 1)
            s->active[s->d++] = p;
    if (s->d == 0) /* a single configuration: keep one constant dimension */
        s->active[s->d++] = 0;
    s->nv = malloc(s->d * sizeof *s->nv);
    s->ftoff = malloc(s->d * sizeof *s->ftoff);
    if (!s->nv || !s->ftoff)
        goto out_nomem;
    size_t ftn = 0;
    for (size_t j = 0; j < s->d; j++) {
        s->nv[j] = cutune_space_param(ctx->space, s->active[j])->nvalues;
        s->ftoff[j] = ftn;
        ftn += s->nv[j] * s->nv[j];
    }
    /* the tables hold every pair of a parameter's values: a parameter of 60,000 values
     * would take 29 GB each (refused, naming it, rather than failing the allocation) */
    if (ftn > BO_FTAB_MAX) {
        size_t big = 0;
        for (size_t j = 1; j < s->d; j++)
            if (s->nv[j] > s->nv[big])
                big = j;
        const cutune_param *pr = cutune_space_param(ctx->space, s->active[big]);
        rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                        "bo: parameter '%s' has %zu values: bo's tables of value pairs would "
                        "hold %zu entries, above its limit of %u (about 4096 values for one "
                        "parameter); use another searcher (--searcher=random, grid or genetic)",
                        pr->name, s->nv[big], ftn, BO_FTAB_MAX);
        bo_free(s);
        memset(s, 0, sizeof *s);
        return rc;
    }
    s->ftab = malloc(ftn * sizeof *s->ftab);
    if (!s->ftab)
        goto out_nomem;
    /* power-of-two indicators (see the top comment) */
    s->D = s->d;
    s->p2dim = malloc(s->d * sizeof *s->p2dim);
    s->p2off = malloc(s->d * sizeof *s->p2off);
    s->p2v = malloc(ftn * sizeof *s->p2v + 1);
    if (!s->p2dim || !s->p2off || !s->p2v)
        goto out_nomem;
    for (size_t j = 0, off = 0; j < s->d && s->pow2; j++) {
        const cutune_param *pr = cutune_space_param(ctx->space, s->active[j]);
        size_t npw = 0, nint = 0;
        for (size_t a = 0; a < pr->nvalues; a++) {
            double v = cutune_value_as_double(&pr->values[a]);
            int isint = isfinite(v) && v >= 1.0 && v == floor(v) && v < 9.0e15;
            nint += isint;
            if (isint) {
                long long iv = (long long)v;
                s->p2v[off + a] = (iv & (iv - 1)) == 0 ? 1.0 : 0.0;
                npw += (iv & (iv - 1)) == 0;
            }
        }
        if (nint == pr->nvalues && npw >= 2 && nint - npw >= 2) {
            s->p2dim[s->np2] = j;
            s->p2off[s->np2++] = off;
            off += pr->nvalues;
        }
    }
    s->D = s->d + s->np2;
    /* transfer=input (bo_warm.c): the source's rank of each configuration, one more input */
    if (s->transfer == BO_TRANSFER_INPUT && ctx->warm && ctx->warm->size == s->size) {
        if (!(s->wfx = malloc(s->size * sizeof *s->wfx)))
            goto out_nomem;
        for (size_t r = 0; r < s->size; r++)
            s->wfx[ctx->warm->order[r]] = s->size > 1 ? (double)r / (double)(s->size - 1) : 0.0;
        s->D++;
    }
    /* Hvarfner et al. 2024: log ell ~ N(sqrt 2 + log(D) / 2, 3) */
    s->weak_mu = s->fit.ell_prior_mu;
    s->weak_sd = s->fit.ell_prior_sd;
    s->dim_mu = sqrt(2.0) + 0.5 * log((double)s->D);
    s->dim_sd = sqrt(3.0);
    if (s->lprior_mode == BO_LPRIOR_DIM) {
        s->fit.ell_prior_mu = s->dim_mu;
        s->fit.ell_prior_sd = s->dim_sd;
    }
    s->gp = cutune_gp_alloc(s->D, s->kernel);
    s->bx = malloc(BO_BLOCK * s->D * sizeof *s->bx);
    s->bid = malloc(BO_BLOCK * sizeof *s->bid);
    s->bmu = malloc(BO_BLOCK * sizeof *s->bmu);
    s->bvar = malloc(BO_BLOCK * sizeof *s->bvar);
    s->bp = malloc(BO_BLOCK * sizeof *s->bp);
    s->fw = malloc(s->d * sizeof *s->fw);
    s->fw_used = malloc(s->d * sizeof *s->fw_used);
    if (!s->fw || !s->fw_used || !s->gp || !s->bx || !s->bid || !s->bmu || !s->bvar || !s->bp)
        goto out_nomem;
    if ((double)s->size * (double)s->D <= BO_ENCODE_CACHE) {
        s->enc = malloc(s->size * s->D * sizeof *s->enc);
        if (!s->enc)
            goto out_nomem;
        for (size_t id = 0; id < s->size; id++) {
            cutune_space_encode(s->space, id, s->full);
            for (size_t j = 0; j < s->d; j++)
                s->enc[id * s->D + j] = s->full[s->active[j]];
            const uint16_t *row = cutune_space_config(s->space, id);
            for (size_t e = 0; e < s->np2; e++)
                s->enc[id * s->D + s->d + e] = s->p2v[s->p2off[e] + row[s->active[s->p2dim[e]]]];
            if (s->wfx)
                s->enc[id * s->D + s->D - 1] = s->wfx[id];
        }
    }
    /* Exhaustive scoring reads the cached encoding (a pool= above BO_ENCODE_CACHE / dim
     * would otherwise leave the cache without candidates), and its prediction cache grows
     * with the observations: a budget that would take it past BO_CACHE_MAX scores a pool
     * instead. A batch's fantasies stay inside that bound: the loop asks propose(k) for at
     * most the budget left (tuner.c), so while a batch is built the GP holds at most
     * (evaluations so far) + k - 1 <= budget - 1 points. */
    if (s->size <= s->exact_m && s->enc &&
        cutune_gp_cache_bytes(s->size, s->budget) <= BO_CACHE_MAX) {
        s->cache = cutune_gp_cache_alloc(s->enc, s->size, s->D);
        s->fnum = calloc(s->size, sizeof *s->fnum);
        s->fden = calloc(s->size, sizeof *s->fden);
        s->cidx = malloc(s->size * s->d * sizeof *s->cidx);
        if (!s->cache || !s->fnum || !s->fden || !s->cidx)
            goto out_nomem;
        s->cm = s->size;
        for (size_t id = 0; id < s->size; id++)
            for (size_t j = 0; j < s->d; j++)
                s->cidx[id * s->d + j] = cutune_space_config(s->space, id)[s->active[j]];
    } else {
        s->pooled = 1; /* cache, fnum, fden: built with the pool */
        /* the pool's cache obeys the same limit (a pool= at or above the size would
         * otherwise rebuild the whole space's cache): at most the candidates that fit,
         * and never fewer than BO_POOL_MIN */
        double fit = BO_CACHE_MAX / cutune_gp_cache_bytes(1, s->budget);
        if ((double)s->pool_m > fit)
            s->pool_m = fit > BO_POOL_MIN ? (size_t)fit : BO_POOL_MIN;
        if (s->size <= BO_PERM_MAX) {
            s->perm = malloc(s->size * sizeof *s->perm);
            if (!s->perm)
                goto out_nomem;
            for (size_t i = 0; i < s->size; i++)
                s->perm[i] = i;
        }
    }
    cutune_gp_warp_free(&s->warp); /* identity until the first fit */
    if (bo_warm_setup(s, ctx) < 0)
        goto out_nomem;
    return 0;
out_nomem:
    bo_free(s);
    memset(s, 0, sizeof *s);
    return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
}

/* The budget enters only through the design size, the early phase, whether the space is
 * scored whole or through a pool, and the pool's size (both by the prediction cache's size
 * at the budget). n_init <= 100000 and pool_m <= 1e8 fit their fields. */
static uint64_t bo_plan(const void *state)
{
    const bo_state *s = state;
    uint64_t pool = s->pooled ? (uint64_t)s->pool_m : 0;
    /* the exhaustive tail: every budget that allows it starts it at the same proposal */
    return pool << 32 | (uint64_t)(s->tail_allowed != 0) << 31 | (uint64_t)s->n_init << 2 |
           (uint64_t)(s->pooled != 0) << 1 | (uint64_t)(s->edge != 0);
}

static const cutune_searcher_type bo_type = {
    .version = CUTUNE_SEARCHER_TYPE_VERSION,
    .name = "bo",
    .help = "Bayesian optimisation: GP (Matern 5/2, ARD) on Box-Cox-warped time, EI x P(success) "
            "(args: acq=ei|pi|lcb, xi=X, beta=B, kernel=matern52|matern32|se, init=N, starts=N, "
            "local=F|auto, pool=N, pow2=0|1, pairs=0|1, warp=boxcox|copula|none, "
            "design=maximin|lhs|random, lprior=auto|dim|weak, add=fit|W, lin=fit|W, lweak=N, "
            "early=auto|safe|edge, refit=gain|always, feas=0|1, preset=plain, "
            "transfer=input|design|prior|both|off, wdesign=N, wtest=0|1, wlcb=0|1, "
            "mo=ehvi|parego|geomean)",
    .size = sizeof(bo_state),
    .alloc = bo_alloc,
    .propose = bo_propose,
    .observe = bo_observe,
    .free = bo_free,
    .plan = bo_plan,
    .options = bo_write_options,
};

const cutune_searcher_type *const cutune_searcher_bo = &bo_type;
