/* The each mode's warm starts (--shape-warm, docs/shapes.md): a shape's prior from the
 * shapes tuned before it, as one shape's observations (nearest), every shape's ranks pooled
 * (all), or a model over configuration and size (model: shapes_model.c). */
#include <string.h>

#include "cutune/warm.h"
#include "shapes_warm.h"

/* A prior that scores every configuration alike orders nothing: the shape is tuned cold,
 * as a --warm-start source that orders nothing makes a run cold (warm_start.c), and its
 * journal records no warm start, so that it resumes alone as it ran. */
static int drop_uninformative(cutune_warm_prior **prior, long *from)
{
    if (*prior && !cutune_warm_prior_informative(*prior)) {
        cutune_warm_prior_free(*prior);
        *prior = NULL;
        *from = -1;
    }
    return 0;
}

int shapes_warm_prior(const char *how, shape_run *R, const size_t *order, size_t k,
                      unsigned long seed, cutune_warm_prior **prior, long *from, char *err,
                      size_t errlen)
{
    *prior = NULL;
    *from = -1;
    if (k == 0 || strcmp(how, "none") == 0)
        return 0;
    static cli_shape tuned[SHAPES_MAX];
    for (size_t i = 0; i < k; i++)
        tuned[i] = *R[order[i]].shape;
    long near = cli_shape_nearest(R[order[k]].shape, tuned, k);
    *from = (long)order[near];
    if (strcmp(how, "model") == 0) {
        int rc = shapes_model_prior(R, order, k, seed, prior, err, errlen);
        return rc < 0 ? rc : drop_uninformative(prior, from);
    }
    const cutune_space *sp = R[order[k]].t.space;
    size_t np = cutune_space_nparams(sp);
    const char *names[256];
    for (size_t p = 0; p < np && p < 256; p++)
        names[p] = cutune_space_param(sp, p)->name;
    cutune_warm_source *src = cutune_warm_source_alloc("the shapes tuned before", np, names);
    if (!src)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    int rc = 0, all = strcmp(how, "all") == 0;
    static char texts[256][128];
    const char *vals[256];
    cutune_value v[512];
    for (size_t i = 0; i < k && rc == 0; i++) {
        shape_run *s = &R[order[i]];
        if (!all && (long)order[i] != *from)
            continue;
        const cutune_history *h = &s->hist;
        size_t nok = 0;
        for (size_t e = 0; e < h->n; e++)
            nok += h->e[e].r.status == CUTUNE_STATUS_OK;
        for (size_t e = 0; e < h->n && rc == 0; e++) {
            const cutune_history_entry *x = &h->e[e];
            cutune_space_values(s->t.space, x->id, v);
            for (size_t p = 0; p < np; p++) {
                cutune_value_format(&v[p], texts[p], sizeof texts[p]);
                vals[p] = texts[p];
            }
            double t = x->r.time_ms;
            if (all && x->r.status == CUTUNE_STATUS_OK) {
                size_t faster = 0;
                for (size_t g = 0; g < h->n; g++)
                    faster += h->e[g].r.status == CUTUNE_STATUS_OK && h->e[g].r.time_ms < t;
                t = ((double)faster + 0.5) / (double)nok;
            }
            rc = cutune_warm_source_add(src, vals, x->r.status, t);
        }
    }
    if (rc == 0 && cutune_warm_source_size(src))
        rc = cutune_warm_prior_build(src, sp, prior, err, errlen);
    cutune_warm_source_free(src);
    return rc < 0 ? rc : drop_uninformative(prior, from);
}
