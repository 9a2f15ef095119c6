/* The worker's verification: a configuration's outputs against the reference outputs
 * (worker_buffers.c), by relative L2 error norm and max abs error, any NaN or unwritten
 * element failing; bytewise-equal chunks are skipped before any arithmetic. */
#include <math.h>
#include <string.h>

#include "worker_internal.h"

#define CHUNK 4096 /* elements compared bytewise before any arithmetic */

/* Running sums of one output's comparison with its reference. */
typedef struct cmp_acc {
    double num;         /**< sum of squared differences */
    double maxabs;      /**< largest absolute difference */
    double skipped_den; /**< squares of the finite reference elements left out (NaN, inf) */
    size_t nans;        /**< NaN or unwritten elements, infinities where none belong */
    size_t first_bad;   /**< index of the first bad element, or (size_t)-1 */
} cmp_acc;

/* One element's difference d (out - ref) into the sums. */
static inline void cmp_diff(cmp_acc *c, double d, size_t k, double atol)
{
    if (fabs(d) > c->maxabs) {
        c->maxabs = fabs(d);
        if (atol >= 0 && c->maxabs > atol && c->first_bad == (size_t)-1)
            c->first_bad = k;
    }
    c->num += d * d;
}

static inline void cmp_one(cmp_acc *c, double o, double ref, size_t k, double atol)
{
    if (isnan(o) || isnan(ref) || isinf(o) != isinf(ref)) {
        if (!c->nans++)
            c->first_bad = k;
        if (!isnan(ref) && !isinf(ref))
            c->skipped_den += ref * ref;
        return;
    }
    cmp_diff(c, isinf(o) && o == ref ? 0.0 : o - ref, k, atol);
}

/* Elements [lo, hi) of out against ref (ref NULL: only NaN counts), one loop per type. */
static void cmp_range(cmp_acc *acc, const void *out, const void *ref, int type, size_t lo,
                      size_t hi, double atol)
{
    cmp_acc c = *acc;
    if (!ref) {
        for (size_t k = lo; k < hi; k++)
            if (isnan(worker_elem_get(out, type, k)) && !c.nans++)
                c.first_bad = k;
    } else if (type == CUTUNE_ELEM_FLOAT) {
        const float *o = out, *e = ref;
        for (size_t k = lo; k < hi; k++)
            cmp_one(&c, o[k], e[k], k, atol);
    } else if (type == CUTUNE_ELEM_DOUBLE) {
        const double *o = out, *e = ref;
        for (size_t k = lo; k < hi; k++)
            cmp_one(&c, o[k], e[k], k, atol);
    } else if (type == CUTUNE_ELEM_INT64) {
        /* exactly: past 2^53 two int64s can be one double, and their difference 0 */
        const int64_t *o = out, *e = ref;
        for (size_t k = lo; k < hi; k++)
            if (o[k] != e[k]) /* the magnitude in unsigned arithmetic: no overflow */
                cmp_diff(&c,
                         o[k] > e[k] ? (double)((uint64_t)o[k] - (uint64_t)e[k])
                                     : -(double)((uint64_t)e[k] - (uint64_t)o[k]),
                         k, atol);
    } else {
        for (size_t k = lo; k < hi; k++)
            cmp_one(&c, worker_elem_get(out, type, k), worker_elem_get(ref, type, k), k, atol);
    }
    *acc = c;
}

/* Compare outputs with the reference: relative L2 error norm within rtol and
 * max abs error within atol; any NaN fails. Without a reference only the
 * poison check (no NaN left in float outputs) applies. Chunks whose bytes equal
 * the reference's add nothing to any sum (a difference of 0, no NaN when the
 * reference has none), so only the others are compared element by element; the
 * norm's denominator is the reference's own (reference_stats, worker_buffers.c),
 * less the elements left out. */
int worker_verify(worker *w, cutune_cuda_reply *r)
{
    const cutune_cuda_setup *su = &w->setup;
    int ok = 1;
    double worst_rel = 0, worst_abs = 0;
    for (uint32_t i = 0; i < su->nargs; i++) {
        const cutune_cuda_argdesc *a = &su->args[i];
        wbuf *b = &w->bufs[i];
        if (a->kind != CUTUNE_ARG_BUFFER || !a->output)
            continue;
        int has_ref = su->ref_kind != CUTUNE_REF_NONE;
        size_t es = cutune_cuda_elem_size(a->type);
        int bytewise = has_ref && b->ref_nans == 0;
        cmp_acc c = {.first_bad = (size_t)-1};
        for (size_t lo = 0; lo < b->count; lo += CHUNK) {
            size_t hi = b->count - lo < CHUNK ? b->count : lo + CHUNK;
            if (bytewise && memcmp((const char *)b->host_out + lo * es,
                                   (const char *)b->host_ref + lo * es, (hi - lo) * es) == 0)
                continue;
            cmp_range(&c, b->host_out, has_ref ? b->host_ref : NULL, a->type, lo, hi, su->atol);
        }
        size_t nans = c.nans, first_bad = c.first_bad;
        double num = c.num, maxabs = c.maxabs;
        double den = has_ref ? b->ref_den - c.skipped_den : 0;
        den = den > 0 ? den : 0;
        double rel = den > 0 ? sqrt(num / den) : sqrt(num);
        if (rel > worst_rel)
            worst_rel = rel;
        if (maxabs > worst_abs)
            worst_abs = maxabs;
        int bad =
            nans > 0 || (su->rtol >= 0 && rel > su->rtol) || (su->atol >= 0 && maxabs > su->atol);
        if (bad) {
            ok = 0;
            if (first_bad != (size_t)-1 && has_ref)
                worker_log(r,
                           "output '%s': rel L2 error %.3g (rtol %g), max abs error %.3g "
                           "(atol %g), %zu NaN/unwritten; first bad element %zu: %.9g, "
                           "expected %.9g",
                           a->name, rel, su->rtol, maxabs, su->atol, nans, first_bad,
                           worker_elem_get(b->host_out, a->type, first_bad),
                           worker_elem_get(b->host_ref, a->type, first_bad));
            else if (first_bad != (size_t)-1)
                worker_log(r,
                           "output '%s': rel L2 error %.3g (rtol %g), max abs error %.3g "
                           "(atol %g), %zu NaN/unwritten elements (first at element %zu)",
                           a->name, rel, su->rtol, maxabs, su->atol, nans, first_bad);
            else
                worker_log(r,
                           "output '%s': rel L2 error %.3g (rtol %g), max abs error %.3g "
                           "(atol %g), %zu NaN/unwritten elements",
                           a->name, rel, su->rtol, maxabs, su->atol, nans);
        }
    }
    if (su->ref_kind != CUTUNE_REF_NONE) {
        worker_metric(r, "rel_err", worst_rel);
        worker_metric(r, "max_abs_err", worst_abs);
    }
    return ok;
}
