/* The confirmation step (include/cutune/confirm.h): after the search, the best k
 * configurations are measured again in interleaved rounds and the winner is chosen among
 * those whose confidence intervals overlap the best one's, by a fixed rule, so that runs
 * that differ only by measurement noise name the same configuration. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>

#include "cutune/confirm.h"
#include "cutune/objective.h"
#include "cutune/spec.h"

typedef struct ranked {
    double score;
    long hist;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? -1 : 1;
    return (x->hist > y->hist) - (x->hist < y->hist);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double metric(const cutune_eval_result *r, const char *name)
{
    for (size_t i = 0; i < r->nmetrics; i++)
        if (!strcmp(r->metrics[i].name, name))
            return r->metrics[i].value;
    return NAN;
}

/* -1 when a ranks before b on the key (lower first, NAN last), 1 after, 0 equal. */
static int key_cmp(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

long cutune_confirm_decide(cutune_confirm_entry *e, size_t n, int maximize)
{
    long ref = -1;
    for (size_t i = 0; i < n; i++) {
        e[i].tied = 0;
        if (e[i].n == 0)
            continue;
        if (ref < 0 || (maximize ? e[i].mean > e[ref].mean : e[i].mean < e[ref].mean))
            ref = (long)i;
    }
    if (ref < 0)
        return -1;
    long win = -1;
    for (size_t i = 0; i < n; i++) {
        if (e[i].n == 0 || e[i].lo > e[ref].hi || e[i].hi < e[ref].lo)
            continue;
        e[i].tied = 1;
        if (win < 0) {
            win = (long)i;
            continue;
        }
        int c = key_cmp(e[i].registers, e[win].registers);
        if (!c)
            c = key_cmp(e[i].energy_j, e[win].energy_j);
        if (!c)
            c = (e[i].id > e[win].id) - (e[i].id < e[win].id);
        if (c < 0)
            win = (long)i;
    }
    return win;
}

/* One round's measurement of hist entry h: a fresh evaluation, or (simulated) the
 * median of ntimes draws with replacement from its recorded repetitions. *value and
 * *energy get the objective and energy_j; *feasible whether the value counts. */
static int measure(cutune_evaluator *ev, int simulated, gsl_rng *rng, const cutune_spec *spec,
                   const cutune_objective *objective, const cutune_history_entry *h, double *draws,
                   double *value, double *energy, int *feasible, char *err, size_t errlen)
{
    cutune_history_entry m = {.id = h->id};
    double sm[64];
    int rc = 0;
    if (simulated) {
        m.r = h->r; /* a view: never cleared */
        if (h->r.ntimes > 0) {
            for (size_t i = 0; i < h->r.ntimes; i++)
                draws[i] = h->r.times_ms[gsl_rng_uniform_int(rng, h->r.ntimes)];
            qsort(draws, h->r.ntimes, sizeof *draws, cmp_double);
            size_t n = h->r.ntimes;
            /* the middle two halved first: their sum may overflow near DBL_MAX */
            m.r.time_ms = n % 2 ? draws[n / 2] : 0.5 * draws[n / 2 - 1] + 0.5 * draws[n / 2];
        }
    } else {
        size_t id;
        int worker;
        if ((rc = cutune_evaluator_submit(ev, h->id, err, errlen)) < 0 ||
            (rc = cutune_evaluator_wait_any(ev, &id, &worker, &m.r, err, errlen)) < 0) {
            cutune_eval_result_clear(&m.r);
            return rc;
        }
    }
    if (spec && spec->nmetrics && spec->nmetrics <= 64) {
        for (size_t i = 0; i < spec->nmetrics; i++)
            sm[i] = NAN;
        if (m.r.status == CUTUNE_STATUS_OK)
            cutune_spec_metrics(spec, m.id, m.r.time_ms, sm, NULL, 0);
        m.spec_metrics = sm;
    }
    cutune_objective_eval(objective, &m, value, feasible);
    *energy = metric(&m.r, "energy_j");
    if (!simulated)
        cutune_eval_result_clear(&m.r);
    return 0;
}

int cutune_confirm_run(cutune_evaluator *ev, const cutune_space *space, const cutune_spec *spec,
                       const cutune_objective *objective, const cutune_history *hist, size_t k,
                       size_t rounds, unsigned long seed, volatile sig_atomic_t *stop,
                       cutune_confirm_result *out, char *err, size_t errlen)
{
    (void)space;
    memset(out, 0, sizeof *out);
    out->winner = -1;
    out->simulated = ev && (ev->type->flags & CUTUNE_EVALUATOR_SIMULATED) != 0;
    if (k > CUTUNE_CONFIRM_MAX)
        k = CUTUNE_CONFIRM_MAX;
    ranked *r = malloc((hist->n ? hist->n : 1) * sizeof *r);
    size_t nr = 0, maxtimes = 1;
    if (!r)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    for (size_t i = 0; i < hist->n; i++)
        if (hist->e[i].r.status == CUTUNE_STATUS_OK && isfinite(hist->e[i].score))
            r[nr++] = (ranked){hist->e[i].score, (long)i};
    qsort(r, nr, sizeof *r, cmp_ranked);
    out->n = nr < k ? nr : k;
    for (size_t j = 0; j < out->n; j++) {
        const cutune_history_entry *h = &hist->e[r[j].hist];
        out->e[j].hist = r[j].hist;
        out->e[j].id = h->id;
        out->e[j].registers = metric(&h->r, "registers");
        if (h->r.ntimes > maxtimes)
            maxtimes = h->r.ntimes;
    }
    free(r);
    if (out->n == 0 || rounds == 0)
        return 0;
    double *vals = calloc(out->n * rounds, sizeof *vals);
    double *en = calloc(out->n * rounds, sizeof *en);
    double *draws = malloc(maxtimes * sizeof *draws);
    gsl_rng *rng = out->simulated ? gsl_rng_alloc(gsl_rng_mt19937) : NULL;
    size_t *nen = calloc(out->n, sizeof *nen);
    int rc = 0;
    if (!vals || !en || !draws || !nen || (out->simulated && !rng)) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out_free;
    }
    if (rng)
        gsl_rng_set(rng, seed);
    for (size_t round = 0; round < rounds && !(stop && *stop); round++) {
        for (size_t j = 0; j < out->n; j++) {
            size_t c = (j + round) % out->n; /* rotated: no configuration always first */
            cutune_confirm_entry *e = &out->e[c];
            double v, energy;
            int feasible;
            rc = measure(ev, out->simulated, rng, spec, objective, &hist->e[e->hist], draws, &v,
                         &energy, &feasible, err, errlen);
            if (rc < 0)
                goto out_free;
            if (feasible)
                vals[c * rounds + e->n++] = v;
            if (feasible && isfinite(energy))
                en[c * rounds + nen[c]++] = energy;
        }
        out->rounds = round + 1;
    }
    for (size_t c = 0; c < out->n; c++) {
        cutune_confirm_entry *e = &out->e[c];
        const double *x = vals + c * rounds;
        /* m scales the values when their sum would overflow (times near DBL_MAX): x / m,
         * m the largest |x|; 1 otherwise, which keeps every other result bit for bit */
        double sum = 0, ss = 0, esum = 0, m = 1;
        for (size_t i = 0; i < e->n; i++)
            sum += x[i];
        if (!isfinite(sum)) {
            m = 0;
            for (size_t i = 0; i < e->n; i++)
                m = fabs(x[i]) > m ? fabs(x[i]) : m;
            if (!(m > 0) || !isfinite(m))
                m = 1; /* an infinite value: nothing to scale */
            sum = 0;
            for (size_t i = 0; i < e->n; i++)
                sum += x[i] / m;
        }
        double mean = e->n ? sum / (double)e->n : NAN;
        e->mean = mean * m;
        for (size_t i = 0; i < e->n; i++)
            ss += (x[i] / m - mean) * (x[i] / m - mean);
        double half = 0;
        if (e->n > 1)
            half = gsl_cdf_tdist_Pinv(0.975, (double)(e->n - 1)) * sqrt(ss / (double)(e->n - 1)) /
                   sqrt((double)e->n) * m;
        e->lo = e->mean - half;
        e->hi = e->mean + half;
        for (size_t i = 0; i < nen[c]; i++)
            esum += en[c * rounds + i];
        e->energy_j = nen[c] ? esum / (double)nen[c] : NAN;
    }
    out->winner = cutune_confirm_decide(out->e, out->n, cutune_objective_maximize(objective));
out_free:
    free(vals);
    free(en);
    free(draws);
    free(nen);
    gsl_rng_free(rng);
    return rc;
}
