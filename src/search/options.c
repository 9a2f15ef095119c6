/* The options a searcher runs with, defaults written out (the manifest of a result): its
 * type's optional options hook, asked of one allocated on a two-point space. */
#include <stdio.h>

#include "cutune/searcher.h"

int cutune_searcher_resolve_options(const cutune_searcher_type *t, const char *args, size_t budget,
                                    char *buf, size_t len, char *err, size_t errlen)
{
    if (len)
        buf[0] = '\0';
    if (!t)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no searcher type");
    cutune_space *s = cutune_space_alloc();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    cutune_value v[2] = {{.type = CUTUNE_VALUE_INT, .i = 1}, {.type = CUTUNE_VALUE_INT, .i = 2}};
    cutune_searcher *sr = NULL;
    int rc = !s || !rng ? cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory") : 0;
    if (rc == 0 && (rc = cutune_space_add_param(s, "x", v, 2, err, errlen)) == 0 &&
        (rc = cutune_space_enumerate(s, err, errlen)) == 0) {
        cutune_searcher_ctx ctx = {.space = s, .budget = budget, .rng = rng, .args = args};
        rc = cutune_searcher_alloc(t, &ctx, &sr, err, errlen);
    }
    if (rc == 0 && t->version >= 3 && t->options) {
        int need = t->options(sr->state, buf, len);
        if (need < 0 || (size_t)need >= len)
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "%s: resolved options longer than %zu bytes", t->name, len);
    }
    cutune_searcher_free(sr);
    gsl_rng_free(rng);
    cutune_space_free(s);
    return rc;
}
