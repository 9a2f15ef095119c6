/* bo: the acquisition and the candidates it is maximised over.
 *
 * Acquisition. Expected improvement in closed form (with xi, in standardised log-time
 * units) below the best observed value; PI and LCB selectable. log EI is used so that
 * candidates far in the tail are still ranked, never all tied at 0. Predictions come from a
 * cache (cutune_gp_cache: O(n m) per new observation, O(m n^2) after a refactorisation).
 * The acquisition is maximised exactly over every unvisited valid configuration while
 * the space has at most BO_EXACT = 32768 of them (pool=N sets both limits to N); above that
 * over a pool of BO_POOL = 4096 configurations drawn uniformly without replacement plus
 * the neighbours (any one parameter changed) of the BO_POOL_TOP best observations, redrawn
 * whenever the GP is refactorised (the cache is rebuilt then anyway). Scoring every
 * configuration is what the method asks for; the limit is cost: the prediction cache
 * holds an m x n matrix (64 MiB at m = 32768, n <= 256; a budget that would take it past
 * BO_CACHE_MAX = 512 MiB is pooled instead) and costs O(m n) per observation and O(m n^2)
 * per refactorisation. Larger spaces (the Cartesian GEMM product: 82,944) keep the
 * 4096-point pool, which bounds the cost per run independently of the space.
 *
 * Local steps. Every third model-based proposal (local=F sets the share) maximises the
 * same acquisition only over the neighbours (any one parameter changed) of the
 * BO_LOCAL_TOP fastest configurations found: a trust-region-like refinement (cf. TuRBO,
 * Eriksson et al. 2019) that GP-EI alone does poorly in 15 dimensions with tens of points,
 * where the global maximiser keeps jumping to far, uncertain corners.
 * While at most BO_LOCAL_WEAK successful points are held and the dimension-scaled prior
 * is in force for the main model, the local steps are scored instead by a second GP fitted
 * under the weak prior to the BO_LOCAL_FIT successful points nearest the best one
 * (local_model; lweak=N sets the count, 0 turns it off). Long length-scales extrapolate
 * trends toward the ends of the ranges, where GPU optima often sit (global steps); near
 * the best point they would also carry the search past it, which costs on a space whose
 * optimum is inside the box (docs/searchers.md has the measurements).
 *
 * Pair moves (pairs=1, the default in the edge phase: budgets of 60 and more). The local
 * candidates also hold the configurations two adjacent steps from the best one (two
 * parameters, each one value up or down). Single moves cannot cross a ridge: on
 * gemm_AMD_Vega, 52 of 250 runs of 60 evaluations ended at MDIMC = NDIMC = 8 (0.956 of the
 * optimum), where MDIMC = 16 or NDIMC = 16 alone is 0.78 / 0.77 and both together are
 * the optimum (docs/searchers.md: what pair moves give, with 250 seeds).
 */
#include "bo_internal.h"

/* x rounded to nearest on BO_SCORE_BITS significant bits (relative 2^-32, 2.3e-10): the
 * GP's arithmetic is the same everywhere (gp_dense.c), but the C library's exp, log and
 * erfc may differ in the last bit between CPUs (glibc picks FMA code by CPU); a score
 * compared on 32 bits flips a pick only where a last-bit change crosses a rounding
 * boundary, not wherever two candidates' scores are close. Equal rounded scores go to
 * the lower id (the earlier candidate). Infinities and NaN pass through. */
double bo_round_score(double x)
{
    if (!isfinite(x) || x == 0.0)
        return x;
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    const uint64_t drop = 52 - (BO_SCORE_BITS - 1), half = UINT64_C(1) << (drop - 1);
    u = (u + half) & ~((UINT64_C(1) << drop) - 1); /* a carry into the exponent is exact */
    memcpy(&x, &u, sizeof x);
    return x;
}

/* sd: the predictive standard deviation (the caller has it: the pruning below needs it) */
static double acq_score(const bo_state *s, double mu, double sd, double p, double fbest)
{
    double sc;
    switch (s->acq) {
    case ACQ_PI: sc = log(cutune_gp_pi(mu, sd, fbest, s->xi) + 1e-300); break;
    case ACQ_LCB: sc = -cutune_gp_lcb(mu, sd, s->beta); break;
    case ACQ_EI:
    default: sc = cutune_gp_log_ei(mu, sd, fbest, s->xi); break;
    }
    return bo_round_score(s->feas_on ? sc + log(p) : sc);
}

static int score_block(bo_state *s, const cutune_gp *gp, size_t nb, double fbest, best_pick *bp,
                       char *err, size_t errlen)
{
    int rc = cutune_gp_predict(gp, s->bx, nb, s->bmu, s->bvar, err, errlen);
    if (rc < 0)
        return rc;
    for (size_t b = 0; b < nb; b++) {
        double p = s->feas_on ? bo_feas_at(s, s->bx + b * s->D, (size_t)-1) : 1.0;
        double sc =
            acq_score(s, s->bmu[b] + bo_warm_offset(s, s->bid[b]), sqrt(s->bvar[b]), p, fbest);
        if (sc > bp->score || (sc == bp->score && (long long)s->bid[b] < bp->id) || bp->id < 0) {
            if (!isnan(sc) || bp->id < 0) {
                bp->score = isnan(sc) ? -INFINITY : sc;
                bp->id = (long long)s->bid[b];
                bp->mu = s->bmu[b];
            }
        }
    }
    return 0;
}

static int pool_add(bo_state *s, size_t id)
{
    if (bo_reserve_ids(&s->pool, &s->cappool, s->npool + 1) < 0)
        return CUTUNE_ENOMEM;
    s->pool[s->npool++] = id;
    return 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Pool for spaces above exact_m (BO_EXACT): pool_m (BO_POOL) configurations drawn
 * uniformly without replacement + the neighbours of the BO_POOL_TOP best, sorted by id; the
 * prediction cache and the feasibility sums are rebuilt over it. Redrawn only when the GP was
 * refactorised (the cache is rebuilt then anyway), so a pool costs no extra O(m n^2). */
int bo_build_pool(bo_state *s)
{
    s->npool = 0;
    size_t want = s->pool_m < s->size ? s->pool_m : s->size;
    if (s->perm) { /* partial Fisher-Yates: a uniform subset whatever the current order */
        for (size_t i = 0; i < want; i++) {
            size_t j = i + bo_uniform_below(s->rng, s->size - i);
            size_t t = s->perm[i];
            s->perm[i] = s->perm[j];
            s->perm[j] = t;
            /* the element drawn into place i (not the one moved out of it: that would make
             * the first pool ids 0..want-1, and later ones hold repeats) */
            if (pool_add(s, s->perm[i]) < 0)
                return CUTUNE_ENOMEM;
        }
    } else {
        for (size_t i = 0; i < want; i++)
            if (pool_add(s, bo_uniform_below(s->rng, s->size)) < 0)
                return CUTUNE_ENOMEM;
    }
    /* indices of the BO_POOL_TOP fastest ok observations (partial selection) */
    size_t top[BO_POOL_TOP], ntop = 0;
    for (size_t i = 0; i < s->nok; i++) {
        size_t pos = ntop < BO_POOL_TOP ? ntop++ : BO_POOL_TOP;
        if (pos == BO_POOL_TOP) {
            if (s->ok_logt[i] >= s->ok_logt[top[BO_POOL_TOP - 1]])
                continue;
            pos = BO_POOL_TOP - 1;
        }
        while (pos > 0 && s->ok_logt[top[pos - 1]] > s->ok_logt[i]) {
            top[pos] = top[pos - 1];
            pos--;
        }
        top[pos] = i;
    }
    size_t okseen = 0;
    for (size_t t = 0; t < ntop; t++) {
        /* map the ok index back to its id */
        size_t wanted = top[t], id = 0;
        okseen = 0;
        for (size_t i = 0; i < s->nobs; i++)
            if (s->obs_ok[i] && okseen++ == wanted) {
                id = s->obs_id[i];
                break;
            }
        if (bo_append_neighbours(s->space, id, CUTUNE_NEIGHBOUR_ANY, &s->pool, &s->npool,
                                 &s->cappool) < 0)
            return CUTUNE_ENOMEM;
    }
    qsort(s->pool, s->npool, sizeof *s->pool, cmp_size);
    size_t w = 0;
    for (size_t i = 0; i < s->npool; i++)
        if (i == 0 || s->pool[i] != s->pool[i - 1])
            s->pool[w++] = s->pool[i];
    s->npool = w;
    /* encodings, cache and feasibility sums over the new pool */
    cutune_gp_cache_free(s->cache);
    s->cache = NULL;
    double *px = realloc(s->pool_x, s->npool * s->D * sizeof *px);
    if (!px)
        return CUTUNE_ENOMEM;
    s->pool_x = px;
    for (size_t i = 0; i < s->npool; i++)
        bo_encode(s, s->pool[i], s->pool_x + i * s->D);
    double *fn = realloc(s->fnum, s->npool * sizeof *fn);
    if (fn)
        s->fnum = fn;
    double *fd = realloc(s->fden, s->npool * sizeof *fd);
    if (fd)
        s->fden = fd;
    uint16_t *ci = realloc(s->cidx, s->npool * s->d * sizeof *ci);
    if (ci)
        s->cidx = ci;
    s->cache = cutune_gp_cache_alloc(s->pool_x, s->npool, s->D);
    if (!fn || !fd || !ci || !s->cache)
        return CUTUNE_ENOMEM;
    for (size_t i = 0; i < s->npool; i++)
        for (size_t j = 0; j < s->d; j++)
            s->cidx[i * s->d + j] = cutune_space_config(s->space, s->pool[i])[s->active[j]];
    s->cm = s->npool;
    memset(s->fnum, 0, s->cm * sizeof *s->fnum);
    memset(s->fden, 0, s->cm * sizeof *s->fden);
    s->fe_n = 0;
    s->pool_gen = cutune_gp_generation(s->gp);
    s->pool_rewarps = s->rewarps;
    return 0;
}

/* Local candidates, in s->local: the neighbours (any one parameter changed) of the
 * BO_LOCAL_TOP fastest configurations found and, with pairs=1, the adjacent pairs of the
 * fastest (two parameters each one value up or down). Visited ones are skipped by the
 * maximiser. */
int bo_build_local(bo_state *s)
{
    s->nlocal = 0;
    size_t top[BO_LOCAL_TOP], ntop = 0;
    for (size_t i = 0; i < s->nobs; i++) {
        if (!s->obs_ok[i])
            continue;
        size_t pos = ntop < BO_LOCAL_TOP ? ntop++ : BO_LOCAL_TOP;
        double t = s->obs_t[i];
        if (pos == BO_LOCAL_TOP) {
            if (t >= s->obs_t[top[BO_LOCAL_TOP - 1]])
                continue;
            pos = BO_LOCAL_TOP - 1;
        }
        while (pos > 0 && s->obs_t[top[pos - 1]] > t) {
            top[pos] = top[pos - 1];
            pos--;
        }
        top[pos] = i;
    }
    for (size_t t = 0; t < ntop; t++)
        if (bo_append_neighbours(s->space, s->obs_id[top[t]], CUTUNE_NEIGHBOUR_ANY, &s->local,
                                 &s->nlocal, &s->caplocal) < 0)
            return CUTUNE_ENOMEM;
    if (s->pairs && ntop &&
        bo_append_neighbours(s->space, s->obs_id[top[0]], CUTUNE_NEIGHBOUR_ADJACENT_PAIRS,
                             &s->local, &s->nlocal, &s->caplocal) < 0)
        return CUTUNE_ENOMEM;
    return 0;
}

/* Best candidate by the acquisition of gp (s->gp, through the prediction cache where it
 * covers the candidates, or the local steps' lgp) over ids[0..nids), or over every
 * configuration / the pool when ids is NULL. */
int bo_maximise(bo_state *s, const cutune_gp *gp, const size_t *ids, size_t nids, double fbest,
                best_pick *bp, char *err, size_t errlen)
{
    bp->score = -INFINITY;
    bp->id = -1;
    bp->mu = 0.0;
    if (gp == s->gp && s->cache && (!ids || !s->pooled)) {
        int rc = cutune_gp_cache_sync(s->cache, s->gp, err, errlen);
        if (rc < 0)
            return rc;
        if (s->feas_on)
            bo_feas_sync(s);
        const double *mu = cutune_gp_cache_mean(s->cache), *var = cutune_gp_cache_var(s->cache);
        /* candidate index c: id c (exhaustive) or pool[c] (ascending), ids[i] (local) */
        size_t total = ids ? nids : s->cm;
        /* log EI's erfc, exp and logs are most of a pass over 10^4 candidates; most of them
         * cannot win. For z = (fbest - xi - mu) / sd <= 0, EI = sd h(z) with
         * h(z) = z Phi(z) + phi(z) <= phi(z), and P(success) <= 1, so the score is at most
         * log(sd_max) - z^2 / 2 - log sqrt(2 pi): a candidate whose bound is below the best
         * score so far (less a margin far above the rounding of either side) is skipped
         * without changing the pick. */
        double lsd_max = -INFINITY;
        if (s->acq == ACQ_EI) {
            double vmax = 0.0;
            for (size_t i = 0; i < total; i++) {
                size_t c = ids ? ids[i] : i;
                vmax = var[c] > vmax ? var[c] : vmax;
            }
            lsd_max = vmax > 0.0 ? 0.5 * log(vmax) : -INFINITY;
        }
        for (size_t i = 0; i < total; i++) {
            size_t id = ids ? ids[i] : s->pooled ? s->pool[i] : i, c = ids ? id : i;
            if (bo_excluded(s, id))
                continue;
            double sd = sqrt(var[c]), mut = mu[c] + bo_warm_offset(s, id);
            if (lsd_max > -INFINITY && bp->id >= 0 && bp->score > -INFINITY) {
                double z = (fbest - s->xi - mut) / sd;
                double ub = lsd_max - 0.5 * z * z - 0.91893853320467274;
                if (z <= 0.0 && ub < bp->score - 1e-9 * (1.0 + fabs(bp->score)))
                    continue;
            }
            double p = s->feas_on ? bo_feas_cached(s, c) : 1.0;
            double sc = acq_score(s, mut, sd, p, fbest);
            if (isnan(sc))
                sc = -INFINITY;
            if (bp->id < 0 || sc > bp->score) {
                bp->score = sc;
                bp->id = (long long)id;
                bp->mu = mu[c];
            }
        }
        return 0;
    }
    size_t total = ids ? nids : s->size, nb = 0;
    for (size_t i = 0; i < total; i++) {
        size_t id = ids ? ids[i] : i;
        if (bo_excluded(s, id))
            continue;
        s->bid[nb] = id;
        bo_encode(s, id, s->bx + nb * s->D);
        if (++nb == BO_BLOCK) {
            int rc = score_block(s, gp, nb, fbest, bp, err, errlen);
            if (rc < 0)
                return rc;
            nb = 0;
        }
    }
    if (nb)
        return score_block(s, gp, nb, fbest, bp, err, errlen);
    return 0;
}

/* The model of the local steps. While few points are held (lweak=, BO_LOCAL_WEAK) and the
 * dimension-scaled prior is in force for the main model, a second GP on the BO_LOCAL_FIT
 * ok points nearest the best one (the main model's targets), fitted under the weak prior
 * (short length-scales), scores the neighbourhood of the best configurations; otherwise
 * the main model does. It is not given the batch's fantasies (a later pick of the same
 * batch only avoids the pending ids). The two priors then serve where
 * each is safe: long length-scales extrapolate trends toward the ends of the ranges, where
 * GPU optima often sit (global steps), and short ones exploit what was seen near the best
 * point (local steps) instead of following the trend past it, which is what the main model
 * does on a space whose optimum is inside the box (docs/searchers.md).
 * Refitted (weak prior, one random start besides the last fit) whenever the ok count has
 * changed. *model = s->gp or s->lgp; returns 0 or a negative code with err set. */
int bo_local_model(bo_state *s, const cutune_gp **model, char *err, size_t errlen)
{
    int dim_now =
        s->lprior_mode == BO_LPRIOR_DIM || (s->lprior_mode == BO_LPRIOR_AUTO && s->lprior_now == 1);
    *model = s->gp;
    if (!dim_now || s->nok > s->lweak_max || s->nok < 2)
        return 0;
    if (s->lgp_n == s->nok) {
        *model = s->lgp;
        return 0;
    }
    if (!s->lgp && !(s->lgp = cutune_gp_alloc(s->D, s->kernel)))
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
    size_t n = s->nok, D = s->D, K = n < BO_LOCAL_FIT ? n : BO_LOCAL_FIT, ib = 0;
    for (size_t i = 1; i < n; i++)
        if (s->ok_logt[i] < s->ok_logt[ib])
            ib = i;
    double *dist = malloc(n * sizeof *dist), *X = malloc(K * D * sizeof *X);
    double *y = malloc(K * sizeof *y);
    size_t *ord = malloc(n * sizeof *ord);
    int rc = 0;
    if (!dist || !X || !y || !ord) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
        goto out;
    }
    /* the K ok points nearest the best (itself included), ties to the earlier point */
    for (size_t i = 0; i < n; i++) {
        dist[i] = bo_sqdist(s->ok_x + ib * D, s->ok_x + i * D, D);
        ord[i] = i;
    }
    for (size_t a = 0; a < K; a++)
        for (size_t b = a + 1; b < n; b++)
            if (dist[ord[b]] < dist[ord[a]] || (dist[ord[b]] == dist[ord[a]] && ord[b] < ord[a])) {
                size_t t = ord[a];
                ord[a] = ord[b];
                ord[b] = t;
            }
    for (size_t a = 0; a < K; a++) {
        memcpy(X + a * D, s->ok_x + ord[a] * D, D * sizeof *X);
        y[a] = bo_target(s, ord[a]);
    }
    rc = cutune_gp_set_data(s->lgp, X, y, K, err, errlen);
    cutune_gp_fit_options o = s->fit;
    o.ell_prior_mu = s->weak_mu;
    o.ell_prior_sd = s->weak_sd;
    o.nstarts = 1;
    o.min_gain = 0.0;
    if (rc < 0 || (rc = cutune_gp_fit(s->lgp, &o, s->rng, err, errlen)) < 0)
        goto out;
    s->lgp_n = n;
    *model = s->lgp;
out:
    free(dist);
    free(X);
    free(y);
    free(ord);
    return rc;
}

typedef struct ranked {
    double score;
    size_t id;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

int bo_rank_all(bo_state *s, double fbest, size_t **ids, size_t *n, char *err, size_t errlen)
{
    *ids = NULL;
    *n = 0;
    ranked *r = malloc((s->size ? s->size : 1) * sizeof *r);
    size_t m = 0;
    if (!r)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
    for (size_t id = 0; id < s->size; id++)
        if (!bo_excluded(s, id))
            r[m++].id = id;
    for (size_t i0 = 0; i0 < m; i0 += BO_BLOCK) {
        size_t nb = m - i0 < BO_BLOCK ? m - i0 : BO_BLOCK;
        for (size_t b = 0; b < nb; b++)
            bo_encode(s, r[i0 + b].id, s->bx + b * s->D);
        int rc = cutune_gp_predict(s->gp, s->bx, nb, s->bmu, s->bvar, err, errlen);
        if (rc < 0) {
            free(r);
            return rc;
        }
        for (size_t b = 0; b < nb; b++) {
            double p = s->feas_on ? bo_feas_at(s, s->bx + b * s->D, (size_t)-1) : 1.0;
            double sc = acq_score(s, s->bmu[b] + bo_warm_offset(s, r[i0 + b].id), sqrt(s->bvar[b]),
                                  p, fbest);
            r[i0 + b].score = isnan(sc) ? -INFINITY : sc;
        }
    }
    qsort(r, m, sizeof *r, cmp_ranked);
    size_t *out = malloc((m ? m : 1) * sizeof *out);
    if (!out) {
        free(r);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
    }
    for (size_t i = 0; i < m; i++)
        out[i] = r[i].id;
    free(r);
    *ids = out;
    *n = m;
    return 0;
}
