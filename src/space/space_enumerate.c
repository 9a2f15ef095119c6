/* Enumerating a parameter space's valid set: a depth-first walk over the parameters in
 * order that checks each restriction as soon as the last parameter it reads is bound,
 * which prunes whole subtrees of the Cartesian product instead of testing every point;
 * bounded by CUTUNE_MAX_CONFIGS (space.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space_internal.h"

int cutune_space_max_configs(size_t *limit, char *err, size_t errlen)
{
    const char *v = getenv("CUTUNE_MAX_CONFIGS");
    *limit = CUTUNE_SPACE_MAX_CONFIGS;
    if (!v || !*v)
        return 0;
    size_t n = 0;
    const char *p = v;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (n > (SIZE_MAX / CUTUNE_SPACE_VISITS_PER_CONFIG - 9) / 10)
            break;
        n = n * 10 + (size_t)(*p - '0');
    }
    if (*p || n == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "CUTUNE_MAX_CONFIGS=%s: not a count of configurations (decimal, "
                          "at least 1)",
                          v);
    *limit = n;
    return 0;
}

static int too_many(const cutune_space *s, size_t limit, const char *what, char *err, size_t errlen)
{
    return cutune_err(err, errlen, CUTUNE_EINVAL,
                      "the space is too large: %s; its Cartesian product is %.0f points and the "
                      "limit is %zu valid configurations (CUTUNE_MAX_CONFIGS raises it; "
                      "restrictions shrink the space)",
                      what, cutune_space_cartesian_size(s), limit);
}

/* "A=1, B=2" of the first nbound parameters of idx; snprintf-style length. */
int cutune_space_format_idx(const cutune_space *s, const uint16_t *idx, size_t nbound, char *buf,
                            size_t len)
{
    size_t total = 0;
    for (size_t p = 0; p < nbound; p++) {
        size_t room = total < len ? len - total : 0;
        int w = snprintf(room ? buf + total : NULL, room, "%s%s=%s", p ? ", " : "",
                         s->params[p].name, s->params[p].texts[idx[p]]);
        if (w < 0)
            return w;
        total += (size_t)w;
    }
    if (len && total == 0)
        buf[0] = '\0';
    return total > INT_MAX ? INT_MAX : (int)total;
}

/* Restriction r's verdict at vars: 1 keep, 0 drop, <0 error (message in err). */
int cutune_space_restriction_holds(const cutune_space *s, size_t r, const cutune_value *vars,
                                   const uint16_t *idx, size_t nbound, char *err, size_t errlen)
{
    char inner[256];
    double v;
    int rc = cutune_expr_eval_double(s->restrictions[r], vars, &v, inner, sizeof inner);
    if (rc == 0)
        return v != 0;
    if (err && errlen) {
        char cfg[256];
        cutune_space_format_idx(s, idx, nbound, cfg, sizeof cfg);
        cutune_err(err, errlen, rc, "restriction %zu: %s (at %s)", r, inner,
                   nbound ? cfg : "start, before any parameter is bound");
    }
    return rc;
}

/* Highest parameter slot restriction r reads, or -1 if it reads only constants. */
static long last_param(const cutune_space *s, size_t r)
{
    for (size_t p = s->nparams; p-- > 0;)
        if (cutune_expr_uses(s->restrictions[r], p))
            return (long)p;
    return -1;
}

static int append_config(cutune_space *s, const uint16_t *idx)
{
    size_t np = s->nparams;
    if (s->size == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 1024;
        if (ncap < s->cap || ncap > SIZE_MAX / (np * sizeof(uint16_t)))
            return CUTUNE_ENOMEM;
        uint16_t *nc = realloc(s->configs, ncap * np * sizeof(uint16_t));
        if (!nc)
            return CUTUNE_ENOMEM;
        s->configs = nc;
        s->cap = ncap;
    }
    memcpy(s->configs + s->size * np, idx, np * sizeof(uint16_t));
    s->size++;
    return 0;
}

int cutune_space_enumerate(cutune_space *s, char *err, size_t errlen)
{
    int rc = 0;
    size_t np, nr, *order = NULL, *start = NULL;
    uint16_t *idx = NULL;
    cutune_value *vars = NULL;
    if (!s)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "enumerate: NULL space");
    cutune_space_invalidate(s);
    np = s->nparams;
    nr = s->nrestrictions;
    if (np == 0)
        return cutune_err(err, errlen, CUTUNE_EEMPTY, "the space has no parameters");
    size_t limit, visits = 0, max_visits;
    if ((rc = cutune_space_max_configs(&limit, err, errlen)) < 0)
        return rc;
    max_visits = limit * CUTUNE_SPACE_VISITS_PER_CONFIG;
    /* refused before anything is stored where every point is valid */
    if (!nr && !s->filter && cutune_space_cartesian_size(s) > (double)limit)
        return too_many(s, limit, "every point is valid (no restriction)", err, errlen);

    /* Bucket restrictions by the depth at which they can first be decided:
     * order[start[d]..start[d+1]) are those whose last parameter is d - 1,
     * so bucket 0 holds the constants-only ones. */
    order = malloc((nr ? nr : 1) * sizeof *order);
    start = calloc(np + 2, sizeof *start);
    idx = calloc(np, sizeof *idx);
    vars = calloc(np + s->nconstants, sizeof *vars);
    if (!order || !start || !idx || !vars) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory enumerating the space");
        goto out_free;
    }
    for (size_t r = 0; r < nr; r++)
        start[last_param(s, r) + 2]++;
    for (size_t d = 1; d <= np + 1; d++)
        start[d] += start[d - 1];
    {
        size_t *fill = calloc(np + 1, sizeof *fill);
        if (!fill) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory enumerating the space");
            goto out_free;
        }
        for (size_t r = 0; r < nr; r++) {
            size_t b = (size_t)(last_param(s, r) + 1);
            order[start[b] + fill[b]++] = r;
        }
        free(fill);
    }
    for (size_t c = 0; c < s->nconstants; c++)
        vars[np + c] = s->cvalues[c];

    for (size_t k = start[0]; k < start[1]; k++) {
        rc = cutune_space_restriction_holds(s, order[k], vars, idx, 0, err, errlen);
        if (rc < 0)
            goto out_free;
        if (rc == 0) {
            rc = cutune_err(err, errlen, CUTUNE_EEMPTY,
                            "restriction %zu '%s' is false for every configuration", order[k],
                            cutune_expr_text(s->restrictions[order[k]]));
            goto out_free;
        }
    }

    /* Depth-first walk: bind parameter d, test its bucket, descend or advance. */
    size_t d = 0;
    for (;;) {
        const param_store *ps = &s->params[d];
        if (++visits > max_visits) {
            char what[160];
            snprintf(what, sizeof what,
                     "enumeration stopped after examining %zu points (%zu valid so far)",
                     max_visits, s->size);
            rc = too_many(s, limit, what, err, errlen);
            goto out_free;
        }
        vars[d] = ps->values[idx[d]];
        int ok = 1;
        for (size_t k = start[d + 1]; k < start[d + 2]; k++) {
            rc = cutune_space_restriction_holds(s, order[k], vars, idx, d + 1, err, errlen);
            if (rc < 0)
                goto out_free;
            if (!rc) {
                ok = 0;
                break;
            }
        }
        if (ok) {
            if (d + 1 < np) {
                idx[++d] = 0;
                continue;
            }
            int keep = 1;
            if (s->filter) {
                keep = s->filter(s->filter_ctx, idx);
                if (keep < 0) {
                    char cfg[256];
                    cutune_space_format_idx(s, idx, np, cfg, sizeof cfg);
                    rc = cutune_err(err, errlen, keep, "space filter failed (code %d) at %s", keep,
                                    cfg);
                    goto out_free;
                }
            }
            if (keep && s->size >= limit) {
                char what[160];
                snprintf(what, sizeof what, "more than %zu configurations are valid", limit);
                rc = too_many(s, limit, what, err, errlen);
                goto out_free;
            }
            if (keep && (rc = append_config(s, idx))) {
                rc = cutune_err(err, errlen, rc, "out of memory storing %zu valid configurations",
                                s->size);
                goto out_free;
            }
        }
        while (++idx[d] == s->params[d].n) {
            if (d == 0)
                goto done;
            d--;
        }
    }
done:
    rc = 0;
    if (s->size == 0) {
        rc = cutune_err(err, errlen, CUTUNE_EEMPTY,
                        "no valid configuration: the restrictions%s exclude all %.0f points",
                        s->filter ? " and the filter" : "", cutune_space_cartesian_size(s));
        goto out_free;
    }
    /* give back the unused tail of the doubling */
    uint16_t *shrunk = realloc(s->configs, s->size * np * sizeof(uint16_t));
    if (shrunk) {
        s->configs = shrunk;
        s->cap = s->size;
    }
    s->enumerated = 1;
out_free:
    if (rc)
        cutune_space_invalidate(s);
    free(vars);
    free(idx);
    free(start);
    free(order);
    return rc;
}
