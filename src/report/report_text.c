/* Reports on the terminal: parameter importance (`cutune report --text`), and the best
 * configurations with a convergence sparkline after a tuning run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"
#include "cutune/space.h"
#include "cutune/tuner.h"

int cutune_report_text_write(FILE *f, cutune_report_run *const *runs, size_t nruns, char *err,
                             size_t errlen)
{
    cutune_report_pool pool;
    int rc = cutune_report_pool_make(runs, nruns, &pool, err, errlen);
    if (rc < 0)
        return rc;
    cutune_report_importance *imp = NULL;
    rc = cutune_report_pool_importance(&pool, &imp, err, errlen);
    if (rc < 0)
        goto out;
    const cutune_report_run *b = pool.base;
    size_t pooled = 0;
    for (size_t r = 0; r < nruns; r++)
        pooled += (size_t)pool.pooled[r];
    fprintf(f, "parameter importance: %s (%zu run%s, %zu correct evaluations)\n", b->label, pooled,
            pooled == 1 ? "" : "s", imp->nsamples);
    for (size_t r = 0; r < nruns; r++)
        if (!pool.pooled[r])
            fprintf(f, "  (not pooled: %s has other %s than %s)\n", runs[r]->path,
                    cutune_report_same_sizes(b, runs[r]) ? "parameters" : "problem sizes", b->path);
    for (size_t r = 0; r < nruns; r++)
        if (runs[r]->objective)
            fprintf(f, "  (%s was tuned for %s; the importance is that of the time)\n",
                    runs[r]->path, runs[r]->objective);
    if (!imp->ntrees) {
        fprintf(f, "  not enough data: fewer than 2 correct evaluations, or all take the same "
                   "time\n");
        goto out;
    }
    fprintf(f,
            "method: functional ANOVA of a %zu-tree random forest fitted to log(time); share "
            "of the variance\n",
            imp->ntrees);
    size_t w = 9;
    for (size_t p = 0; p < b->nparams; p++)
        w = strlen(b->param_names[p]) > w ? strlen(b->param_names[p]) : w;
    fprintf(f, "  %-4s %-*s %8s\n", "rank", (int)w, "parameter", "main");
    for (size_t k = 0; k < imp->nparams; k++) {
        size_t p = imp->rank[k];
        fprintf(f, "  %-4zu %-*s %7.1f%%\n", k + 1, (int)w, b->param_names[p], 100 * imp->main[p]);
    }
    /* the strongest interactions, largest first (at most 5, only those above 1%) */
    size_t np = imp->nparams, shown = 0;
    int *used = calloc(np * np != 0 ? np * np : 1, sizeof *used);
    if (!used) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    for (; shown < 5; shown++) {
        size_t bi = 0, bk = 0;
        double best;
        if (!rep_strongest_pair(imp, used, 0.01, &bi, &bk, &best))
            break;
        if (!shown)
            fprintf(f, "interactions (share of the variance, above 1%%):\n");
        used[bi * np + bk] = 1;
        char pair[600];
        snprintf(pair, sizeof pair, "%s x %s", b->param_names[bi], b->param_names[bk]);
        fprintf(f, "  %-*s %7.1f%%\n", (int)(2 * w + 3), pair, 100 * best);
    }
    if (!shown)
        fprintf(f, "interactions: none above 1%% of the variance\n");
    free(used);
out:
    cutune_report_importance_free(imp);
    cutune_report_pool_clear(&pool);
    return rc;
}

/* A feasible correct evaluation: its score (what the searcher was told, least best: the
 * time under the time objective) is a number; one a constraint or the objective ruled out
 * has none. */
static int feasible(const cutune_history_entry *e)
{
    return e->r.status == CUTUNE_STATUS_OK && isfinite(e->score);
}

static const cutune_history *sort_hist;
static int by_score(const void *a, const void *b)
{
    double x = sort_hist->e[*(const size_t *)a].score;
    double y = sort_hist->e[*(const size_t *)b].score;
    if (x != y)
        return x < y ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* One character per bucket of evaluations: the best-so-far score at the bucket's end, on a
 * log scale from the first feasible one (full) to the final best (lowest); the ends are
 * printed as those evaluations' times. */
static void sparkline(FILE *f, const cutune_history *h, int by_objective, int utf8)
{
    static const char *const bars[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    static const char ascii[] = "_.-=+*#@";
    size_t width = h->n < 60 ? h->n : 60;
    long first = -1, last = -1;
    for (size_t i = 0; i < h->n; i++)
        if (feasible(&h->e[i])) {
            if (first < 0)
                first = last = (long)i;
            if (h->e[i].score < h->e[last].score)
                last = (long)i;
        }
    if (first < 0 || !width)
        return;
    double s0 = h->e[first].score, s1 = h->e[last].score;
    fprintf(f, "convergence (best-so-far %s, evaluations 1-%zu): ",
            by_objective ? "by the objective" : "time", h->n);
    double best = NAN;
    size_t i = 0;
    for (size_t c = 0; c < width; c++) {
        size_t end = (c + 1) * h->n / width;
        for (; i < end; i++)
            if (feasible(&h->e[i]) && !(h->e[i].score >= best))
                best = h->e[i].score;
        int level = 0;
        if (isnan(best))
            level = 7; /* nothing feasible yet: as bad as it gets */
        else if (s0 > s1 && s1 > 0)
            level = (int)lround(7 * log(best / s1) / log(s0 / s1));
        level = level < 0 ? 0 : level > 7 ? 7 : level;
        if (utf8)
            fputs(bars[level], f);
        else
            fputc(ascii[level], f);
    }
    fprintf(f, " %.4g -> %.4g ms\n", h->e[first].r.time_ms, h->e[last].r.time_ms);
}

/* The locale's character set is UTF-8 (LC_ALL, else LC_CTYPE, else LANG, as setlocale
 * reads them): the sparkline may use block characters. */
static int locale_utf8(void)
{
    const char *vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (size_t i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return strstr(v, "UTF-8") || strstr(v, "utf8") || strstr(v, "UTF8") ||
                   strstr(v, "utf-8");
    }
    return 0;
}

void cutune_report_terminal_summary(FILE *f, const cutune_space *s, const cutune_history *h,
                                    size_t k, int utf8)
{
    if (utf8 < 0)
        utf8 = locale_utf8();
    /* ranked as the run ranks them: by score, the infeasible left out; "by the objective"
     * where that is not the time */
    size_t nok = 0, ncorrect = 0;
    int by_objective = 0;
    for (size_t i = 0; i < h->n; i++) {
        ncorrect += h->e[i].r.status == CUTUNE_STATUS_OK;
        nok += feasible(&h->e[i]);
        by_objective |= h->e[i].r.status == CUTUNE_STATUS_OK && h->e[i].score != h->e[i].r.time_ms;
    }
    if (!nok)
        return;
    size_t *order = malloc(nok * sizeof *order);
    if (!order)
        return; /* a summary line less, never a failed run */
    nok = 0;
    for (size_t i = 0; i < h->n; i++)
        if (feasible(&h->e[i]))
            order[nok++] = i;
    sort_hist = h;
    qsort(order, nok, sizeof *order, by_score);
    k = k < nok ? k : nok;
    size_t np = cutune_space_nparams(s);
    size_t *width = calloc(np ? np : 1, sizeof *width);
    char(*cell)[64] = calloc(k * np != 0 ? k * np : 1, sizeof *cell);
    if (!width || !cell)
        goto out;
    for (size_t r = 0; r < k; r++) {
        const uint16_t *row = cutune_space_config(s, h->e[order[r]].id);
        for (size_t p = 0; row && p < np; p++)
            snprintf(cell[r * np + p], sizeof cell[0], "%s",
                     cutune_space_param(s, p)->texts[row[p]]);
    }
    for (size_t p = 0; p < np; p++) {
        width[p] = strlen(cutune_space_param(s, p)->name);
        for (size_t r = 0; r < k; r++)
            width[p] = strlen(cell[r * np + p]) > width[p] ? strlen(cell[r * np + p]) : width[p];
    }
    if (by_objective || nok < ncorrect)
        fprintf(f, "best %zu of %zu feasible (%zu correct), by the objective:\n  %-4s %10s %5s", k,
                nok, ncorrect, "rank", "time_ms", "eval");
    else
        fprintf(f, "best %zu of %zu correct:\n  %-4s %10s %5s", k, nok, "rank", "time_ms", "eval");
    for (size_t p = 0; p < np; p++)
        fprintf(f, " %*s", (int)width[p], cutune_space_param(s, p)->name);
    fputc('\n', f);
    for (size_t r = 0; r < k; r++) {
        const cutune_history_entry *e = &h->e[order[r]];
        fprintf(f, "  %-4zu %10.6g %5zu", r + 1, e->r.time_ms, order[r] + 1);
        for (size_t p = 0; p < np; p++)
            fprintf(f, " %*s", (int)width[p], cell[r * np + p]);
        fputc('\n', f);
    }
    sparkline(f, h, by_objective, utf8);
out:
    free(cell);
    free(width);
    free(order);
}
