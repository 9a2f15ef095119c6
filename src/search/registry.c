/* The searcher registry and the generic wrapper around a searcher type
 * (GSL multimin/fminimizer.c pattern: the wrapper owns the state block,
 * plugins never free their own container). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/searcher.h"

/* Filled at first use: the type pointers are link-time constants of other
 * translation units, not constant expressions here (as GSL rng/types.c). */
const cutune_searcher_type *const *cutune_searcher_types(void)
{
    static const cutune_searcher_type *table[5];
    if (!table[0]) {
        table[1] = cutune_searcher_grid;
        table[2] = cutune_searcher_genetic;
        table[3] = cutune_searcher_bo;
        table[4] = NULL;
        table[0] = cutune_searcher_random;
    }
    return table;
}

const cutune_searcher_type *cutune_searcher_find(const char *name, char *err, size_t errlen)
{
    const cutune_searcher_type *const *t = cutune_searcher_types();
    char names[256] = "";
    for (size_t i = 0; t[i]; i++) {
        if (name && strcmp(t[i]->name, name) == 0)
            return t[i];
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                 t[i]->name);
    }
    cutune_err(err, errlen, CUTUNE_ENOTFOUND, "unknown searcher '%s' (valid: %s)", name ? name : "",
               names);
    return NULL;
}

/* "key=value,..." arguments: no empty item and no key twice (the later would silently
 * win, as a spec file refuses a repeated field); each searcher checks its own keys. */
int cutune_searcher_check_args(const char *name, const char *args, char *err, size_t errlen)
{
    if (!args || !*args)
        return 0;
    for (const char *p = args;; p = strchr(p, ',') + 1) {
        size_t len = strcspn(p, ",="), item = strcspn(p, ",");
        if (item == 0 || len == 0)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "--searcher=%s:%s: an empty option (expected key=value,...)", name,
                              args);
        /* an earlier item with the same key */
        for (const char *q = args; q < p; q = strchr(q, ',') + 1)
            if (strcspn(q, ",=") == len && strncmp(q, p, len) == 0)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "--searcher=%s:%s: option '%.*s' given twice", name, args,
                                  (int)len, p);
        if (!p[item])
            return 0;
    }
}

int cutune_searcher_validate(const cutune_searcher_type *t, const char *args, char *err,
                             size_t errlen)
{
    cutune_space *s = cutune_space_alloc();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    cutune_value v[2] = {{.type = CUTUNE_VALUE_INT, .i = 1}, {.type = CUTUNE_VALUE_INT, .i = 2}};
    int rc = !s || !rng ? cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory") : 0;
    if (rc == 0 && (rc = cutune_space_add_param(s, "x", v, 2, err, errlen)) == 0 &&
        (rc = cutune_space_enumerate(s, err, errlen)) == 0) {
        cutune_searcher_ctx ctx = {.space = s, .budget = 60, .rng = rng, .args = args};
        cutune_searcher *sr = NULL;
        rc = cutune_searcher_alloc(t, &ctx, &sr, err, errlen);
        cutune_searcher_free(sr);
    }
    gsl_rng_free(rng);
    cutune_space_free(s);
    return rc;
}

int cutune_searcher_alloc(const cutune_searcher_type *t, const cutune_searcher_ctx *ctx,
                          cutune_searcher **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!t || t->version < 1 || !t->alloc || !t->propose)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "searcher type is incomplete");
    int rc = cutune_searcher_check_args(t->name, ctx->args, err, errlen);
    if (rc < 0)
        return rc;
    cutune_searcher *s = calloc(1, sizeof *s);
    if (!s)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    s->type = t;
    s->state = calloc(1, t->size ? t->size : 1);
    if (!s->state) {
        free(s);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    rc = t->alloc(s->state, ctx, err, errlen);
    if (rc < 0) {
        free(s->state);
        free(s);
        return rc;
    }
    *out = s;
    return 0;
}

int cutune_searcher_propose(cutune_searcher *s, size_t k, size_t *out, size_t *n, char *err,
                            size_t errlen)
{
    *n = 0;
    return s->type->propose(s->state, k, out, n, err, errlen);
}

int cutune_searcher_observe(cutune_searcher *s, const cutune_observation *obs, size_t n, char *err,
                            size_t errlen)
{
    if (!s->type->observe)
        return 0;
    return s->type->observe(s->state, obs, n, err, errlen);
}

void cutune_searcher_free(cutune_searcher *s)
{
    if (!s)
        return;
    if (s->type->free)
        s->type->free(s->state);
    free(s->state);
    free(s);
}

size_t cutune_searcher_uniform(gsl_rng *r, size_t n)
{
    unsigned long range = gsl_rng_max(r) - gsl_rng_min(r);
    if (n - 1 <= range)
        return (size_t)gsl_rng_uniform_int(r, (unsigned long)n);
    /* 64 bits from two draws of a (at least) 32-bit generator, then rejection */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;
    do {
        uint64_t hi = (uint64_t)((gsl_rng_get(r) - gsl_rng_min(r)) & 0xffffffffu);
        uint64_t lo = (uint64_t)((gsl_rng_get(r) - gsl_rng_min(r)) & 0xffffffffu);
        x = hi << 32 | lo;
    } while (x >= limit);
    return (size_t)(x % n);
}

int cutune_searcher_plan_leads(const cutune_searcher_type *t, const cutune_space *space,
                               const char *args, const size_t *budgets, size_t nb, size_t *lead,
                               char *err, size_t errlen)
{
    for (size_t b = 0; b < nb; b++)
        lead[b] = b;
    if (t->version < 2 || !t->plan || nb == 0)
        return 0;
    /* the plan does not depend on the seed: any generator, an empty history */
    uint64_t *plan = malloc(nb * sizeof *plan);
    uint8_t *visited = calloc(cutune_space_size(space) + 1, 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = plan && visited && rng ? 0 : cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    for (size_t b = 0; b < nb && rc == 0; b++) {
        cutune_searcher_ctx ctx = {
            .space = space, .budget = budgets[b], .rng = rng, .visited = visited, .args = args};
        cutune_searcher *s = NULL;
        rc = cutune_searcher_alloc(t, &ctx, &s, err, errlen);
        if (rc == 0)
            plan[b] = t->plan(s->state);
        cutune_searcher_free(s);
    }
    /* the largest budget of each plan serves the smaller ones */
    for (size_t b = 0; b < nb && rc == 0; b++)
        for (size_t c = nb; c-- > b;)
            if (plan[c] == plan[b]) {
                lead[b] = c;
                break;
            }
    free(plan);
    free(visited);
    gsl_rng_free(rng);
    return rc;
}
