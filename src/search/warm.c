/* warm: a source of observations of the same kernel elsewhere, mapped onto a target space
 * as a prior (the rules are in include/cutune/warm.h; why these and how searchers use
 * them, with the measurements, in docs/transfer.md). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "cutune/searcher.h"
#include "cutune/warm.h"

struct cutune_warm_source {
    char *label;           /**< names the source in messages */
    size_t np;             /**< parameters */
    char **names;          /**< np names */
    size_t n, cap;         /**< observations held, capacity */
    char **vals;           /**< n x np value texts */
    cutune_status *status; /**< n statuses */
    double *time;          /**< n times (ms; NAN unless ok) */
};

static char *dupstr(const char *s)
{
    size_t n = strlen(s ? s : "") + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s ? s : "", n);
    return d;
}

cutune_warm_source *cutune_warm_source_alloc(const char *label, size_t nparams,
                                             const char *const *names)
{
    cutune_warm_source *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->np = nparams;
    s->label = dupstr(label);
    s->names = calloc(nparams ? nparams : 1, sizeof *s->names);
    if (!s->label || !s->names)
        goto out_free;
    for (size_t p = 0; p < nparams; p++)
        if (!(s->names[p] = dupstr(names[p])))
            goto out_free;
    return s;
out_free:
    cutune_warm_source_free(s);
    return NULL;
}

void cutune_warm_source_free(cutune_warm_source *s)
{
    if (!s)
        return;
    for (size_t i = 0; s->vals && i < s->n * s->np; i++)
        free(s->vals[i]);
    for (size_t p = 0; s->names && p < s->np; p++)
        free(s->names[p]);
    free(s->vals);
    free(s->names);
    free(s->status);
    free(s->time);
    free(s->label);
    free(s);
}

size_t cutune_warm_source_size(const cutune_warm_source *s)
{
    return s ? s->n : 0;
}

int cutune_warm_source_add(cutune_warm_source *s, const char *const *values, cutune_status status,
                           double time_ms)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 64;
        char **v = realloc(s->vals, nc * (s->np ? s->np : 1) * sizeof *v);
        if (!v)
            return CUTUNE_ENOMEM;
        s->vals = v;
        cutune_status *st = realloc(s->status, nc * sizeof *st);
        if (!st)
            return CUTUNE_ENOMEM;
        s->status = st;
        double *t = realloc(s->time, nc * sizeof *t);
        if (!t)
            return CUTUNE_ENOMEM;
        s->time = t;
        s->cap = nc;
    }
    for (size_t p = 0; p < s->np; p++) {
        if (!(s->vals[s->n * s->np + p] = dupstr(values[p]))) {
            while (p-- > 0)
                free(s->vals[s->n * s->np + p]);
            return CUTUNE_ENOMEM;
        }
    }
    int ok = status == CUTUNE_STATUS_OK && isfinite(time_ms) && time_ms > 0.0;
    s->status[s->n] =
        ok ? CUTUNE_STATUS_OK : (status == CUTUNE_STATUS_OK ? CUTUNE_STATUS_RUNTIME_ERROR : status);
    s->time[s->n] = ok ? time_ms : NAN;
    s->n++;
    return 0;
}

int cutune_warm_source_from_recording(const cutune_recording *r, cutune_warm_source **out,
                                      char *err, size_t errlen)
{
    *out = NULL;
    cutune_warm_source *s =
        cutune_warm_source_alloc(r->path, r->nparams, (const char *const *)r->param_names);
    const char **v = malloc((r->nparams ? r->nparams : 1) * sizeof *v);
    if (!s || !v)
        goto out_nomem;
    for (size_t i = 0; i < r->nrecords; i++) {
        const cutune_record *rec = &r->records[i];
        if (rec->status == CUTUNE_STATUS_MISSING)
            continue;
        for (size_t p = 0; p < r->nparams; p++)
            v[p] = r->texts[p][rec->idx[p]];
        if (cutune_warm_source_add(s, v, rec->status, rec->time_ms) < 0)
            goto out_nomem;
    }
    free(v);
    *out = s;
    return 0;
out_nomem:
    free(v);
    cutune_warm_source_free(s);
    return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory for the warm start",
                      r->path ? r->path : "warm start");
}

int cutune_warm_source_load(const char *path, cutune_warm_source **out, char *err, size_t errlen)
{
    cutune_recording *r = NULL;
    *out = NULL;
    int rc = cutune_recording_load(path, &r, err, errlen);
    if (rc < 0)
        return rc;
    rc = cutune_warm_source_from_recording(r, out, err, errlen);
    cutune_recording_free(r);
    return rc;
}

/* ---------- mapping onto a target space ---------- */

/* Index of text among target parameter pr's values: equal text, or equal numbers. */
static long value_index(const cutune_param *pr, const char *text)
{
    for (size_t v = 0; v < pr->nvalues; v++)
        if (strcmp(pr->texts[v], text) == 0)
            return (long)v;
    char *end = NULL;
    double x = strtod(text, &end);
    if (end == text || *end || !isfinite(x))
        return -1;
    for (size_t v = 0; v < pr->nvalues; v++) {
        double y = cutune_value_as_double(&pr->values[v]);
        if (isfinite(y) && y == x)
            return (long)v;
    }
    return -1;
}

typedef struct proj {
    const uint16_t *key; /* ns target value indices */
    double score;        /* normal score of the observation */
} proj;

/* key length for the qsort comparator (set before each sort); one per thread, so that
 * priors are built on several threads at once */
static _Thread_local size_t g_ns;

static int cmp_key(const uint16_t *a, const uint16_t *b, size_t ns)
{
    for (size_t j = 0; j < ns; j++)
        if (a[j] != b[j])
            return a[j] < b[j] ? -1 : 1;
    return 0;
}

static int cmp_proj(const void *a, const void *b)
{
    return cmp_key(((const proj *)a)->key, ((const proj *)b)->key, g_ns);
}

typedef struct tscore {
    double t;
    size_t i;
} tscore;

static int cmp_tscore(const void *a, const void *b)
{
    const tscore *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

void cutune_warm_prior_free(cutune_warm_prior *p)
{
    if (!p)
        return;
    free(p->score);
    free(p->order);
    free(p);
}

int cutune_warm_prior_informative(const cutune_warm_prior *p)
{
    for (size_t i = 1; p && i < p->size; i++)
        if (p->score[i] != p->score[0])
            return 1;
    return 0;
}

/* Standardise p->score over the space (mean 0, sd 1) and fill p->order, lowest score first,
 * ties to the lower id. Scores are normal scores, of order 1: a spread below 1e-9 is
 * rounding (two sources that rank the space exactly opposite cancel to within it), and the
 * prior is constant, all 0, rather than that rounding magnified into an order. */
static int standardise(cutune_warm_prior *p)
{
    size_t N = p->size;
    double m = 0.0, v = 0.0;
    for (size_t id = 0; id < N; id++)
        m += p->score[id];
    m /= (double)N;
    for (size_t id = 0; id < N; id++)
        v += (p->score[id] - m) * (p->score[id] - m);
    double sd = N > 1 ? sqrt(v / (double)(N - 1)) : 0.0;
    tscore *ts = malloc(N * sizeof *ts);
    if (!ts)
        return CUTUNE_ENOMEM;
    for (size_t id = 0; id < N; id++) {
        p->score[id] = sd > 1e-9 ? (p->score[id] - m) / sd : 0.0;
        ts[id].t = p->score[id];
        ts[id].i = id;
    }
    qsort(ts, N, sizeof *ts, cmp_tscore);
    for (size_t k = 0; k < N; k++)
        p->order[k] = ts[k].i;
    free(ts);
    return 0;
}

/* Normal scores of the mapped observations' times (mid-ranks for ties; failures slowest). */
static int normal_scores(const cutune_warm_source *src, const size_t *used, size_t nu,
                         double *score)
{
    tscore *ts = malloc((nu ? nu : 1) * sizeof *ts);
    if (!ts)
        return CUTUNE_ENOMEM;
    for (size_t k = 0; k < nu; k++) {
        double t = src->time[used[k]];
        ts[k].t = isfinite(t) ? t : INFINITY;
        ts[k].i = k;
    }
    qsort(ts, nu, sizeof *ts, cmp_tscore);
    for (size_t a = 0; a < nu;) {
        size_t b = a;
        while (b + 1 < nu && ts[b + 1].t == ts[a].t)
            b++;
        double r = 0.5 * (double)(a + b); /* mid-rank, 0-based */
        double z = gsl_cdf_ugaussian_Pinv((r + 0.5) / (double)nu);
        for (size_t k = a; k <= b; k++)
            score[ts[k].i] = z;
        a = b + 1;
    }
    free(ts);
    return 0;
}

int cutune_warm_prior_build(const cutune_warm_source *src, const cutune_space *sp,
                            cutune_warm_prior **out, char *err, size_t errlen)
{
    *out = NULL;
    size_t N = cutune_space_size(sp), np = cutune_space_nparams(sp);
    if (N == 0)
        return cutune_err(err, errlen, CUTUNE_EEMPTY, "%s: the target space is empty", src->label);
    int rc = 0;
    size_t ns = 0, nu = 0, ng = 0;
    size_t *tp = malloc((np ? np : 1) * sizeof *tp), *spi = malloc((np ? np : 1) * sizeof *spi);
    uint16_t *keys = NULL, *tkey = NULL;
    size_t *used = NULL;
    double *score = NULL, *genc = NULL, *gscore = NULL;
    proj *pj = NULL;
    cutune_warm_prior *p = calloc(1, sizeof *p);
    if (!tp || !spi || !p)
        goto out_nomem;
    for (size_t t = 0; t < np; t++) {
        const char *name = cutune_space_param(sp, t)->name;
        for (size_t q = 0; q < src->np; q++)
            if (strcmp(src->names[q], name) == 0) {
                tp[ns] = t;
                spi[ns++] = q;
                break;
            }
    }
    if (ns == 0) {
        rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                        "--warm-start=%s: no parameter in common with the target space "
                        "(a recording of another kernel?)",
                        src->label);
        goto out;
    }
    keys = malloc((src->n ? src->n : 1) * ns * sizeof *keys);
    used = malloc((src->n ? src->n : 1) * sizeof *used);
    if (!keys || !used)
        goto out_nomem;
    for (size_t i = 0; i < src->n; i++) {
        int ok = 1;
        for (size_t j = 0; j < ns && ok; j++) {
            long v = value_index(cutune_space_param(sp, tp[j]), src->vals[i * src->np + spi[j]]);
            ok = v >= 0;
            keys[nu * ns + j] = (uint16_t)(v < 0 ? 0 : v);
        }
        if (ok)
            used[nu++] = i;
        else
            p->ndropped++;
    }
    if (nu == 0) {
        rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                        "--warm-start=%s: none of its %zu observations has values of the target "
                        "space in the %zu parameters they share",
                        src->label, src->n, ns);
        goto out;
    }
    score = malloc(nu * sizeof *score);
    pj = malloc(nu * sizeof *pj);
    if (!score || !pj || normal_scores(src, used, nu, score) < 0)
        goto out_nomem;
    for (size_t k = 0; k < nu; k++) {
        pj[k].key = keys + k * ns;
        pj[k].score = score[k];
    }
    g_ns = ns;
    qsort(pj, nu, sizeof *pj, cmp_proj); /* stable enough: equal keys are averaged */
    /* groups: distinct projections, their mean score and their encoding */
    genc = malloc(nu * ns * sizeof *genc);
    gscore = malloc(nu * sizeof *gscore);
    const uint16_t **gkey = malloc(nu * sizeof *gkey);
    if (!genc || !gscore || !gkey) {
        free(gkey);
        goto out_nomem;
    }
    for (size_t a = 0; a < nu;) {
        size_t b = a;
        double sum = 0.0;
        while (b < nu && cmp_key(pj[b].key, pj[a].key, ns) == 0)
            sum += pj[b++].score;
        gkey[ng] = pj[a].key;
        gscore[ng] = sum / (double)(b - a);
        for (size_t j = 0; j < ns; j++) {
            size_t nv = cutune_space_param(sp, tp[j])->nvalues;
            genc[ng * ns + j] = nv > 1 ? (double)pj[a].key[j] / (double)(nv - 1) : 0.0;
        }
        ng++;
        a = b;
    }
    p->size = N;
    p->nshared = ns;
    p->nused = nu;
    p->score = malloc(N * sizeof *p->score);
    p->order = malloc(N * sizeof *p->order);
    tkey = malloc(ns * sizeof *tkey);
    double *tenc = malloc(ns * sizeof *tenc);
    if (!p->score || !p->order || !tkey || !tenc) {
        free(gkey);
        free(tenc);
        goto out_nomem;
    }
    for (size_t id = 0; id < N; id++) {
        const uint16_t *row = cutune_space_config(sp, id);
        for (size_t j = 0; j < ns; j++)
            tkey[j] = row[tp[j]];
        size_t lo = 0, hi = ng; /* binary search among the sorted groups */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cmp_key(gkey[mid], tkey, ns) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < ng && cmp_key(gkey[lo], tkey, ns) == 0) {
            p->score[id] = gscore[lo];
            p->nexact++;
            continue;
        }
        for (size_t j = 0; j < ns; j++) {
            size_t nv = cutune_space_param(sp, tp[j])->nvalues;
            tenc[j] = nv > 1 ? (double)tkey[j] / (double)(nv - 1) : 0.0;
        }
        double bd[CUTUNE_WARM_KNN];
        double bs[CUTUNE_WARM_KNN];
        size_t nb = 0;
        for (size_t g = 0; g < ng; g++) {
            double d2 = 0.0;
            for (size_t j = 0; j < ns; j++) {
                double e = tenc[j] - genc[g * ns + j];
                d2 += e * e;
            }
            if (nb == CUTUNE_WARM_KNN && d2 >= bd[nb - 1])
                continue;
            size_t pos = nb < CUTUNE_WARM_KNN ? nb++ : nb - 1;
            while (pos > 0 && bd[pos - 1] > d2) {
                bd[pos] = bd[pos - 1];
                bs[pos] = bs[pos - 1];
                pos--;
            }
            bd[pos] = d2;
            bs[pos] = gscore[g];
        }
        double sum = 0.0;
        for (size_t k = 0; k < nb; k++)
            sum += bs[k];
        p->score[id] = sum / (double)nb;
    }
    free(gkey);
    free(tenc);
    if (standardise(p) < 0)
        goto out_nomem;
    *out = p;
    p = NULL;
    goto out;
out_nomem:
    rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory for the warm start", src->label);
out:
    cutune_warm_prior_free(p);
    free(tp);
    free(spi);
    free(keys);
    free(tkey);
    free(used);
    free(score);
    free(pj);
    free(genc);
    free(gscore);
    return rc;
}

int cutune_warm_prior_median(const cutune_warm_prior *const *priors, size_t n,
                             cutune_warm_prior **out, char *err, size_t errlen)
{
    *out = NULL;
    if (n == 0 || !priors[0])
        return cutune_err(err, errlen, CUTUNE_EINVAL, "warm start: no prior to combine");
    size_t N = priors[0]->size;
    for (size_t k = 1; k < n; k++)
        if (!priors[k] || priors[k]->size != N)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "warm start: priors over spaces of different sizes (%zu, %zu)", N,
                              priors[k] ? priors[k]->size : 0);
    cutune_warm_prior *p = calloc(1, sizeof *p);
    double *v = malloc(n * sizeof *v);
    if (!p || !v || !(p->score = calloc(N, sizeof *p->score)) ||
        !(p->order = malloc(N * sizeof *p->order))) {
        free(v);
        cutune_warm_prior_free(p);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "warm start: out of memory");
    }
    p->size = N;
    for (size_t k = 0; k < n; k++) {
        const cutune_warm_prior *q = priors[k];
        p->nshared = q->nshared > p->nshared ? q->nshared : p->nshared;
        p->nused += q->nused;
        p->ndropped += q->ndropped;
        p->nexact = q->nexact > p->nexact ? q->nexact : p->nexact;
    }
    for (size_t id = 0; id < N; id++) { /* the median of the n scores (insertion sort) */
        for (size_t k = 0; k < n; k++) {
            double x = priors[k]->score[id];
            size_t j = k;
            for (; j > 0 && v[j - 1] > x; j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        p->score[id] = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    }
    free(v);
    if (standardise(p) < 0) {
        cutune_warm_prior_free(p);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "warm start: out of memory");
    }
    *out = p;
    return 0;
}

size_t cutune_warm_prior_design(const cutune_warm_prior *p, const cutune_space *sp, size_t k,
                                const uint8_t *skip, gsl_rng *rng, size_t *out)
{
    size_t n = 0, np = cutune_space_nparams(sp);
    size_t *ord = malloc(p->size * sizeof *ord);
    if (!ord)
        return 0;
    memcpy(ord, p->order, p->size * sizeof *ord);
    size_t shuffled = 0; /* ord[0..shuffled) has its tie groups shuffled */
    for (size_t r = 0; r < p->size && n < k; r++) {
        if (rng && r == shuffled) { /* shuffle the next group of equal scores (Fisher-Yates) */
            size_t e = r + 1;
            while (e < p->size && p->score[ord[e]] == p->score[ord[r]])
                e++;
            for (size_t i = e - r; i > 1; i--) {
                size_t j = cutune_searcher_uniform(rng, i), t = ord[r + i - 1];
                ord[r + i - 1] = ord[r + j];
                ord[r + j] = t;
            }
            shuffled = e;
        }
        size_t id = ord[r];
        if (skip && skip[id])
            continue;
        const uint16_t *a = cutune_space_config(sp, id);
        int far = 1;
        for (size_t c = 0; c < n && far; c++) {
            const uint16_t *b = cutune_space_config(sp, out[c]);
            size_t diff = 0;
            for (size_t j = 0; j < np && diff < 2; j++)
                diff += a[j] != b[j];
            far = diff >= 2;
        }
        if (far)
            out[n++] = id;
    }
    free(ord);
    return n;
}

/* Mid-ranks (0-based) of x[0..n) into r. */
static int midranks(const double *x, size_t n, double *r)
{
    tscore *ts = malloc(n * sizeof *ts);
    if (!ts)
        return CUTUNE_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        ts[i].t = x[i];
        ts[i].i = i;
    }
    qsort(ts, n, sizeof *ts, cmp_tscore);
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b + 1 < n && ts[b + 1].t == ts[a].t)
            b++;
        for (size_t k = a; k <= b; k++)
            r[ts[k].i] = 0.5 * (double)(a + b);
        a = b + 1;
    }
    free(ts);
    return 0;
}

double cutune_warm_prior_weight(const double *prior, const double *y, size_t n)
{
    if (n < 3)
        return 0.0;
    double rho = cutune_warm_rank_correlation(prior, y, n) - 1.0 / sqrt((double)(n - 1));
    return rho < 0.0 ? 0.0 : rho > 1.0 ? 1.0 : rho;
}

double cutune_warm_rank_correlation(const double *prior, const double *y, size_t n)
{
    if (n < 2)
        return 0.0;
    double *ra = malloc(2 * n * sizeof *ra);
    if (!ra)
        return 0.0;
    double *rb = ra + n;
    if (midranks(prior, n, ra) < 0 || midranks(y, n, rb) < 0) {
        free(ra);
        return 0.0;
    }
    double ma = 0.0, mb = 0.0;
    for (size_t i = 0; i < n; i++) {
        ma += ra[i];
        mb += rb[i];
    }
    ma /= (double)n;
    mb /= (double)n;
    double sab = 0.0, saa = 0.0, sbb = 0.0;
    for (size_t i = 0; i < n; i++) {
        sab += (ra[i] - ma) * (rb[i] - mb);
        saa += (ra[i] - ma) * (ra[i] - ma);
        sbb += (rb[i] - mb) * (rb[i] - mb);
    }
    free(ra);
    if (saa <= 0.0 || sbb <= 0.0)
        return 0.0;
    return sab / sqrt(saa * sbb);
}

uint64_t cutune_warm_prior_hash(const cutune_warm_prior *p)
{
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *b = (const unsigned char *)p->score;
    for (size_t i = 0; i < p->size * sizeof *p->score; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}
