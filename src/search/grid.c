/* grid: a deterministic sweep of the valid set in enumeration order. When the
 * budget is smaller than the space, an evenly strided subset first
 * (id = floor(i * size / budget), which spreads over the first parameter's
 * values as well as the last), then the remaining ids in order. */
#include <stdlib.h>

#include "cutune/searcher.h"

typedef struct {
    const cutune_searcher_ctx *ctx;
    size_t n, budget;
    size_t strided; /* next index of the strided pass */
    size_t sweep;   /* next id of the full sweep */
} grid_state;

static int grid_alloc(void *state, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    grid_state *s = state;
    s->ctx = ctx;
    s->n = cutune_space_size(ctx->space);
    s->budget = ctx->budget;
    if (s->n == 0)
        return cutune_err(err, errlen, CUTUNE_EEMPTY, "grid: the space is empty");
    if (ctx->args && *ctx->args)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "grid: takes no arguments (got '%s')",
                          ctx->args);
    if (s->budget == 0 || s->budget >= s->n)
        s->strided = s->budget = 0; /* the plain sweep covers it */
    return 0;
}

static int grid_propose(void *state, size_t k, size_t *out, size_t *n, char *err, size_t errlen)
{
    grid_state *s = state;
    const uint8_t *visited = s->ctx->visited;
    *n = 0;
    while (*n < k && s->strided < s->budget) {
        size_t id = (size_t)((double)s->strided++ * (double)s->n / (double)s->budget);
        if (id >= s->n)
            id = s->n - 1;
        if (visited && visited[id])
            continue;
        int dup = 0;
        for (size_t j = 0; j < *n; j++)
            dup |= out[j] == id;
        if (!dup)
            out[(*n)++] = id;
    }
    while (*n < k && s->sweep < s->n) {
        size_t id = s->sweep++;
        int dup = visited && visited[id];
        for (size_t j = 0; j < *n && !dup; j++)
            dup = out[j] == id;
        if (!dup)
            out[(*n)++] = id;
    }
    return 0;
}

static const cutune_searcher_type grid_type = {
    .version = CUTUNE_SEARCHER_TYPE_VERSION,
    .name = "grid",
    .help = "deterministic sweep; an evenly strided subset when the budget is smaller",
    .size = sizeof(grid_state),
    .alloc = grid_alloc,
    .propose = grid_propose,
};

const cutune_searcher_type *const cutune_searcher_grid = &grid_type;
