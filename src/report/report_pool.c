/* Pooling runs: the evaluations of every run with the first run's parameters (names and
 * value lists alike) are analysed together, with the union of their metric names. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/report.h"

static int same_params(const cutune_report_run *a, const cutune_report_run *b)
{
    if (a->nparams != b->nparams)
        return 0;
    for (size_t p = 0; p < a->nparams; p++) {
        if (strcmp(a->param_names[p], b->param_names[p]) != 0 || a->nvalues[p] != b->nvalues[p])
            return 0;
        for (size_t v = 0; v < a->nvalues[p]; v++)
            if (strcmp(a->value_text[p][v], b->value_text[p][v]) != 0)
                return 0;
    }
    return 1;
}

int cutune_report_same_sizes(const cutune_report_run *a, const cutune_report_run *b)
{
    if (a->nsizes != b->nsizes)
        return 0;
    for (size_t s = 0; s < a->nsizes; s++)
        if (strcmp(a->size_names[s], b->size_names[s]) != 0 ||
            a->size_values[s] != b->size_values[s])
            return 0;
    return 1;
}

void cutune_report_pool_clear(cutune_report_pool *p)
{
    if (!p)
        return;
    free(p->e);
    free(p->run);
    free(p->metric_names);
    for (size_t r = 0; p->metric_map && r < p->nruns; r++)
        free(p->metric_map[r]);
    free(p->metric_map);
    free(p->pooled);
    memset(p, 0, sizeof *p);
}

int cutune_report_pool_make(cutune_report_run *const *runs, size_t nruns, cutune_report_pool *p,
                            char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (!nruns)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "report: no journal given");
    p->base = runs[0];
    p->nruns = nruns;
    size_t total = 0, names = 0;
    for (size_t r = 0; r < nruns; r++) {
        total += runs[r]->nevals;
        names += runs[r]->nmetrics;
    }
    p->pooled = calloc(nruns, sizeof *p->pooled);
    p->metric_map = calloc(nruns, sizeof *p->metric_map);
    p->e = malloc((total ? total : 1) * sizeof *p->e);
    p->run = malloc((total ? total : 1) * sizeof *p->run);
    p->metric_names = malloc((names ? names : 1) * sizeof *p->metric_names);
    if (!p->pooled || !p->metric_map || !p->e || !p->run || !p->metric_names)
        goto oom;
    for (size_t r = 0; r < nruns; r++) { /* the union of metric names, first seen first */
        const cutune_report_run *run = runs[r];
        /* a configuration's time depends on the problem sizes: runs at other sizes are
         * other data, as runs of other parameters are */
        if (!(p->pooled[r] = same_params(runs[0], run) && cutune_report_same_sizes(runs[0], run)))
            continue;
        for (size_t m = 0; m < run->nmetrics; m++) {
            size_t k = 0;
            while (k < p->nmetrics && strcmp(p->metric_names[k], run->metric_names[m]) != 0)
                k++;
            if (k == p->nmetrics)
                p->metric_names[p->nmetrics++] = run->metric_names[m];
        }
        for (size_t i = 0; i < run->nevals; i++) {
            p->e[p->n] = &run->evals[i];
            p->run[p->n++] = r;
        }
    }
    for (size_t r = 0; r < nruns; r++) { /* per run: each union metric's column there */
        const cutune_report_run *run = runs[r];
        if (!p->pooled[r])
            continue;
        if (!(p->metric_map[r] = malloc((p->nmetrics ? p->nmetrics : 1) * sizeof(size_t))))
            goto oom;
        for (size_t k = 0; k < p->nmetrics; k++) {
            p->metric_map[r][k] = SIZE_MAX;
            for (size_t m = 0; m < run->nmetrics; m++)
                if (strcmp(p->metric_names[k], run->metric_names[m]) == 0)
                    p->metric_map[r][k] = m;
        }
    }
    return 0;
oom:
    cutune_report_pool_clear(p);
    return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
}

double cutune_report_pool_metric(const cutune_report_pool *p, size_t i, size_t m)
{
    size_t col = p->metric_map[p->run[i]][m];
    return col == SIZE_MAX ? NAN : p->e[i]->metrics[col];
}

int cutune_report_pool_importance(const cutune_report_pool *p, cutune_report_importance **out,
                                  char *err, size_t errlen)
{
    const cutune_report_run *b = p->base;
    size_t np = b->nparams, nok = 0;
    uint16_t *idx = malloc((p->n * np != 0 ? p->n * np : 1) * sizeof *idx);
    double *t = malloc((p->n ? p->n : 1) * sizeof *t);
    if (!idx || !t) {
        free(idx);
        free(t);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < p->n; i++) {
        if (p->e[i]->status != CUTUNE_STATUS_OK)
            continue;
        memcpy(idx + nok * np, p->e[i]->idx, np * sizeof *idx);
        t[nok++] = p->e[i]->time_ms;
    }
    int rc = cutune_report_importance_compute(np, b->nvalues, nok, idx, t, NULL, out, err, errlen);
    free(idx);
    free(t);
    return rc;
}
