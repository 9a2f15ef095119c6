/* The prediction cache: posterior mean and variance over a fixed candidate set, kept
 * across observations. It holds V = K(Xc, X) L^-T (column-major, one column per GP
 * point), so that a new observation costs one column, O(m n), instead of a new
 * prediction, O(m n^2); a refactorisation rebuilds it by blocks of candidates, and a
 * snapshot lets the points added after it (fantasies) be dropped again.
 *
 * Order of operations (the same bits on every machine, as gp_dense.c): column k of V is
 * the kernel column minus V[:, i] L[k, i] for i = 0, 1, ..., k - 1, one subtraction at
 * a time, times 1 / L[k, k]; the mean starts at the GP's constant mean and adds
 * V[:, i] z[i] in ascending i, s2 adds V[:, i]^2 likewise. A rebuild computes every
 * column by that same sequence, so a rebuilt cache and one grown by appends hold the
 * same bits.
 *
 * Reference: C. E. Rasmussen & C. K. I. Williams, "Gaussian Processes for Machine
 * Learning", MIT Press 2006: Algorithm 2.1 (V holds its v = L^-1 k* for every candidate). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gp_internal.h"

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
        double v = gp->sf2 * cutune_gp_kernel_self_uu(gp, c->uu[i]) - c->s2[i];
        c->var[i] = v > 1e-12 * gp->sf2 ? v : 1e-12 * gp->sf2;
    }
}

/* z = L^-1 (y - mean) over the GP's first n points (a rebuild, a retarget). */
static void cache_z(cutune_gp_cache *c, const cutune_gp *gp, size_t n)
{
    for (size_t i = 0; i < n; i++)
        c->z[i] = gp->y[i] - gp->mean;
    cutune_gp_dense_solve_lower(gp->L, n, gp->cap, c->z);
}

/* Column k of V over candidates [b0, b0 + nb), then its share of mean and s2. */
static void column_finish(cutune_gp_cache *c, const cutune_gp *gp, size_t k, size_t b0, size_t nb,
                          const double *inv_ell, double *Vb, size_t ldv)
{
    double *col = Vb + k * ldv; /* Vb: the columns of candidates [b0, b0 + nb) */
    cutune_gp_kernel_column(gp, c->Xc + b0 * gp->dim, nb, gp->X + k * gp->dim, inv_ell, col);
    cutune_gp_dense_reduce(col, nb, Vb, ldv, c->lrow, k);
    double inv = 1.0 / gp->L[k + k * gp->cap], zk = c->z[k];
    for (size_t b = 0; b < nb; b++) {
        double v = col[b] * inv;
        col[b] = v;
        c->mean[b0 + b] += v * zk;
        c->s2[b0 + b] += v * v;
    }
}

/* c->lrow <- row k of L (contiguous) */
static void load_row(cutune_gp_cache *c, const cutune_gp *gp, size_t k)
{
    for (size_t i = 0; i < k; i++)
        c->lrow[i] = gp->L[k + i * gp->cap];
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
            c->uu[i] = cutune_gp_centred_dot(d, c->Xc + i * d, c->Xc + i * d);
    if (n == 0 || m == 0) {
        for (size_t i = 0; i < m; i++) {
            c->mean[i] = gp->mean;
            c->s2[i] = 0.0;
        }
        cache_finish(c, gp);
        return 0;
    }
    double inv_ell[d];
    for (size_t j = 0; j < d; j++)
        inv_ell[j] = 1.0 / gp->ell[j];
    for (size_t i = 0; i < m; i++) {
        c->mean[i] = gp->mean;
        c->s2[i] = 0.0;
    }
    /* by blocks of candidates, computed in a compact scratch (leading dimension nb, not
     * m) so that a block's columns stay in cache while each new column reads all the
     * earlier ones, then copied into V: the same arithmetic as cache_append */
    double *blk = m > CUTUNE_GP_BLOCK ? malloc(CUTUNE_GP_BLOCK * n * sizeof *blk) : NULL;
    if (m > CUTUNE_GP_BLOCK && !blk)
        return CUTUNE_ENOMEM;
    for (size_t b0 = 0; b0 < m; b0 += CUTUNE_GP_BLOCK) {
        size_t nb = m - b0 < CUTUNE_GP_BLOCK ? m - b0 : CUTUNE_GP_BLOCK;
        double *Vb = blk ? blk : c->V + b0;
        size_t ldv = blk ? nb : m;
        for (size_t k = 0; k < n; k++) {
            load_row(c, gp, k);
            column_finish(c, gp, k, b0, nb, inv_ell, Vb, ldv);
        }
        for (size_t k = 0; blk && k < n; k++)
            memcpy(c->V + k * m + b0, blk + k * nb, nb * sizeof *blk);
    }
    free(blk);
    c->n = n;
    cache_finish(c, gp);
    return 0;
}

/* Append column k (0-based) of V for GP point k: (K(Xc, x_k) - V[:, :k] l) / d. */
static int cache_append(cutune_gp_cache *c, const cutune_gp *gp)
{
    size_t k = c->n, d = gp->dim;
    if (cache_reserve(c, k + 1) < 0)
        return CUTUNE_ENOMEM;
    double inv_ell[d];
    for (size_t j = 0; j < d; j++)
        inv_ell[j] = 1.0 / gp->ell[j];
    load_row(c, gp, k);
    /* z[k] = ((y[k] - mean) - l[0] z[0] - ...) / L[k, k]: cutune_gp_dense_solve_lower's
     * sequence, so that cache_z gives the same bits */
    double zk = gp->y[k] - gp->mean;
    for (size_t i = 0; i < k; i++)
        zk -= c->lrow[i] * c->z[i];
    c->z[k] = zk / gp->L[k + k * gp->cap];
    c->row_id[k] = gp->row_id[k];
    column_finish(c, gp, k, 0, c->m, inv_ell, c->V, c->m);
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
    for (size_t i = 0; i < n; i++) { /* ascending i, as column_finish adds them */
        const double *v = c->V + i * m;
        double zi = c->z[i];
        for (size_t b = 0; b < m; b++)
            c->mean[b] += v[b] * zi;
    }
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
