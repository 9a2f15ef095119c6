/* bo: which ids are observed or pending, their encodings, uniform draws. */
#include "bo_internal.h"

static size_t hash_id(size_t k)
{
    return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 11);
}

int bo_hash_has(const bo_state *s, size_t id)
{
    if (!s->hcap)
        return 0;
    size_t mask = s->hcap - 1;
    for (size_t h = hash_id(id) & mask;; h = (h + 1) & mask) {
        if (s->hash[h] == 0)
            return 0;
        if (s->hash[h] == id + 1)
            return 1;
    }
}

int bo_hash_put(bo_state *s, size_t id)
{
    if ((s->nobs + 1) * 2 > s->hcap) {
        size_t ncap = s->hcap ? s->hcap * 2 : 256;
        size_t *nh = calloc(ncap, sizeof *nh);
        if (!nh)
            return CUTUNE_ENOMEM;
        for (size_t i = 0; i < s->hcap; i++)
            if (s->hash[i]) {
                size_t h = hash_id(s->hash[i] - 1) & (ncap - 1);
                while (nh[h])
                    h = (h + 1) & (ncap - 1);
                nh[h] = s->hash[i];
            }
        free(s->hash);
        s->hash = nh;
        s->hcap = ncap;
    }
    size_t mask = s->hcap - 1, h = hash_id(id) & mask;
    while (s->hash[h] && s->hash[h] != id + 1)
        h = (h + 1) & mask;
    s->hash[h] = id + 1;
    return 0;
}

static int is_pending(const bo_state *s, size_t id)
{
    for (size_t i = 0; i < s->npending; i++)
        if (s->pending[i] == id)
            return 1;
    return 0;
}

int bo_excluded(const bo_state *s, size_t id)
{
    return (s->visited && s->visited[id]) || bo_hash_has(s, id) || is_pending(s, id);
}

void bo_encode(bo_state *s, size_t id, double *x)
{
    if (s->enc) {
        memcpy(x, s->enc + id * s->D, s->D * sizeof *x);
        return;
    }
    cutune_space_encode(s->space, id, s->full);
    for (size_t j = 0; j < s->d; j++)
        x[j] = s->full[s->active[j]];
    const uint16_t *row = s->np2 ? cutune_space_config(s->space, id) : NULL;
    for (size_t e = 0; e < s->np2; e++)
        x[s->d + e] = s->p2v[s->p2off[e] + row[s->active[s->p2dim[e]]]];
    if (s->wfx)
        x[s->D - 1] = s->wfx[id];
}

size_t bo_uniform_below(gsl_rng *r, size_t n)
{
    if (n <= gsl_rng_max(r) - gsl_rng_min(r))
        return (size_t)gsl_rng_uniform_int(r, (unsigned long)n);
    return (size_t)(gsl_rng_uniform(r) * (double)n) % n;
}

/* A uniformly drawn available id, or -1 when none is left: rejection while most ids are
 * available, then the r-th available id for r uniform (a scan from a random offset, as
 * before, favoured the ids after long excluded runs). */
long long bo_random_available(bo_state *s)
{
    for (int t = 0; t < 64; t++) {
        size_t id = bo_uniform_below(s->rng, s->size);
        if (!bo_excluded(s, id))
            return (long long)id;
    }
    size_t avail = 0;
    for (size_t id = 0; id < s->size; id++)
        avail += !bo_excluded(s, id);
    if (avail == 0)
        return -1;
    size_t r = bo_uniform_below(s->rng, avail);
    for (size_t id = 0; id < s->size; id++)
        if (!bo_excluded(s, id) && r-- == 0)
            return (long long)id;
    return -1;
}

double bo_sqdist(const double *a, const double *b, size_t d)
{
    double r = 0.0;
    for (size_t j = 0; j < d; j++)
        r += (a[j] - b[j]) * (a[j] - b[j]);
    return r;
}

int bo_reserve_ids(size_t **ids, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    size_t *p = realloc(*ids, nc * sizeof *p);
    if (!p)
        return CUTUNE_ENOMEM;
    *ids = p;
    *cap = nc;
    return 0;
}

int bo_append_neighbours(const cutune_space *sp, size_t id, int mode, size_t **ids, size_t *n,
                         size_t *cap)
{
    size_t nn = cutune_space_neighbours(sp, id, mode, NULL, 0);
    if (bo_reserve_ids(ids, cap, *n + nn) < 0)
        return CUTUNE_ENOMEM;
    cutune_space_neighbours(sp, id, mode, *ids + *n, nn);
    *n += nn;
    return 0;
}

int bo_push_pending(bo_state *s, size_t id)
{
    if (bo_reserve_ids(&s->pending, &s->cappending, s->npending + 1) < 0)
        return CUTUNE_ENOMEM;
    s->pending[s->npending++] = id;
    return 0;
}
