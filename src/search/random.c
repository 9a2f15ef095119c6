/* random: uniform over the valid set, without replacement.
 *
 * A lazily materialised Fisher-Yates shuffle: draw i swaps position i with a
 * uniform position in [i, n). Only touched positions are stored (an open-
 * addressing map from position to value), so a 60-proposal run over a space of
 * 10^7 configurations costs 60 map entries, not a 10^7 permutation. Ids the
 * loop already visited (e.g. after --resume) are skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "cutune/searcher.h"

typedef struct {
    size_t key, val;
    int used;
} slot;

typedef struct {
    const cutune_searcher_ctx *ctx;
    size_t n;    /* valid configurations */
    size_t next; /* positions [0, next) are drawn */
    slot *map;   /* sparse permutation: position -> id (identity when absent) */
    size_t cap, fill;
} random_state;

static size_t hash_pos(size_t k)
{
    return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 17);
}

static slot *lookup(random_state *s, size_t key)
{
    size_t mask = s->cap - 1;
    for (size_t h = hash_pos(key) & mask;; h = (h + 1) & mask)
        if (!s->map[h].used || s->map[h].key == key)
            return &s->map[h];
}

static int grow(random_state *s)
{
    size_t ncap = s->cap ? s->cap * 2 : 256;
    slot *old = s->map;
    size_t ocap = s->cap;
    s->map = calloc(ncap, sizeof *s->map);
    if (!s->map) {
        s->map = old;
        return CUTUNE_ENOMEM;
    }
    s->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].used)
            *lookup(s, old[i].key) = old[i];
    free(old);
    return 0;
}

static size_t get(random_state *s, size_t pos)
{
    if (!s->cap)
        return pos; /* nothing drawn yet: the identity permutation */
    slot *e = lookup(s, pos);
    return e->used ? e->val : pos;
}

static int set(random_state *s, size_t pos, size_t val)
{
    if ((s->fill + 1) * 2 > s->cap) {
        int rc = grow(s);
        if (rc < 0)
            return rc;
    }
    slot *e = lookup(s, pos);
    if (!e->used) {
        e->used = 1;
        e->key = pos;
        s->fill++;
    }
    e->val = val;
    return 0;
}

static int random_alloc(void *state, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    random_state *s = state;
    s->ctx = ctx;
    s->n = cutune_space_size(ctx->space);
    if (s->n == 0)
        return cutune_err(err, errlen, CUTUNE_EEMPTY, "random: the space is empty");
    if (ctx->args && *ctx->args)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "random: takes no arguments (got '%s')",
                          ctx->args);
    return 0;
}

static int random_propose(void *state, size_t k, size_t *out, size_t *n, char *err, size_t errlen)
{
    random_state *s = state;
    *n = 0;
    while (*n < k && s->next < s->n) {
        size_t i = s->next++;
        size_t j = i + cutune_searcher_uniform(s->ctx->rng, s->n - i);
        size_t vi = get(s, i), vj = get(s, j);
        if (set(s, j, vi) < 0 || set(s, i, vj) < 0)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "random: out of memory");
        if (s->ctx->visited && s->ctx->visited[vj])
            continue;
        out[(*n)++] = vj;
    }
    return 0;
}

static void random_free(void *state)
{
    random_state *s = state;
    free(s->map);
}

/* The order of proposals does not depend on the budget: one plan for every budget. */
static uint64_t random_plan(const void *state)
{
    (void)state;
    return 0;
}

static const cutune_searcher_type random_type = {
    .version = CUTUNE_SEARCHER_TYPE_VERSION,
    .name = "random",
    .help = "uniform over the valid configurations, without replacement",
    .size = sizeof(random_state),
    .alloc = random_alloc,
    .propose = random_propose,
    .observe = NULL,
    .free = random_free,
    .plan = random_plan,
};

const cutune_searcher_type *const cutune_searcher_random = &random_type;
