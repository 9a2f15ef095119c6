/* The report page: one HTML file with its style, plots (inline SVG, html_plots.c), tables
 * and a small script (sorting the evaluation table), nothing loaded from anywhere. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_plots.h"

static const char style[] =
    "body{font-family:sans-serif;margin:24px;max-width:1200px;color:#222}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}"
    "p.note{color:#555;font-size:13px;max-width:900px}"
    "table{border-collapse:collapse;font-size:12px;margin:8px 0}"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
    "th{background:#f0f0f0}td.t,th.t{text-align:left}"
    "#table-evals th{cursor:pointer}#table-evals th:hover{background:#dde}"
    "figure{margin:8px 0 20px 0}figcaption{font-size:12px;color:#555;max-width:900px}"
    ".params{display:flex;flex-wrap:wrap;gap:12px}"
    ".scroll{max-height:640px;overflow:auto;border:1px solid #ddd}";

/* Sort the evaluation table by the column clicked (numbers by data-v, else text; PAGE#sort=C
 * opens it sorted by column C); errors are shown on the page (the tests look for
 * #js-error), and data-ready says the script ran. */
static const char script[] =
    "window.addEventListener('error',function(e){var d=document.createElement('pre');"
    "d.id='js-error';d.textContent=String(e.message);document.body.appendChild(d);});\n"
    "(function(){var t=document.getElementById('table-evals');if(!t)return;"
    "var hs=t.tHead.rows[0].cells;for(var c=0;c<hs.length;c++){(function(c){"
    "hs[c].addEventListener('click',function(){var b=t.tBodies[0];"
    "var rows=Array.prototype.slice.call(b.rows);var asc=hs[c].getAttribute('data-sort')!=='a';"
    "for(var k=0;k<hs.length;k++)hs[k].removeAttribute('data-sort');"
    "hs[c].setAttribute('data-sort',asc?'a':'d');"
    "rows.sort(function(x,y){var p=x.cells[c],q=y.cells[c];"
    "var u=p.getAttribute('data-v'),v=q.getAttribute('data-v');var r;"
    "if(u!==null&&v!==null){r=parseFloat(u)-parseFloat(v);}"
    "else if(u!==null){r=-1;}else if(v!==null){r=1;}"
    "else{r=p.textContent<q.textContent?-1:p.textContent>q.textContent?1:0;}"
    "return asc?r:-r;});for(var i=0;i<rows.length;i++)b.appendChild(rows[i]);});"
    "})(c);}var m=/sort=(\\d+)/.exec(location.hash);if(m&&hs[+m[1]])hs[+m[1]].click();})();\n"
    "document.body.setAttribute('data-ready','1');\n";

static void td_num(FILE *f, double v)
{
    if (!isfinite(v)) {
        fputs("<td></td>", f);
        return;
    }
    if (v == floor(v) && fabs(v) < 1e15) /* counts, bytes, registers: every digit */
        fprintf(f, "<td data-v=\"%.17g\">%.0f</td>", v, v);
    else
        fprintf(f, "<td data-v=\"%.17g\">%.5g</td>", v, v);
}

static void td_text(FILE *f, const char *s)
{
    fputs("<td class=\"t\">", f);
    rep_html(f, s);
    fputs("</td>", f);
}

static void runs_table(FILE *f, cutune_report_run *const *runs, size_t nruns,
                       const cutune_report_pool *pool)
{
    fputs("<table id=\"table-runs\"><thead><tr><th class=\"t\">journal</th><th "
          "class=\"t\">kernel</th><th class=\"t\">searcher</th><th>seed</th><th "
          "class=\"t\">evaluator</th><th class=\"t\">device</th><th>evaluations</th><th "
          "class=\"t\">outcomes</th><th>best time (ms)</th><th class=\"t\">tuned "
          "for</th><th class=\"t\">in the analysis</th></tr></thead><tbody>\n",
          f);
    for (size_t r = 0; r < nruns; r++) {
        const cutune_report_run *run = runs[r];
        size_t counts[CUTUNE_STATUS_COUNT] = {0};
        double best = NAN;
        for (size_t i = 0; i < run->nevals; i++) {
            counts[run->evals[i].status]++;
            if (run->evals[i].status == CUTUNE_STATUS_OK &&
                (isnan(best) || run->evals[i].time_ms < best))
                best = run->evals[i].time_ms;
        }
        char outcomes[512] = "";
        size_t k = 0;
        for (int s = 0; s < CUTUNE_STATUS_COUNT; s++)
            if (counts[s] && k < sizeof outcomes) {
                int w = snprintf(outcomes + k, sizeof outcomes - k, "%s%s %zu", k ? ", " : "",
                                 cutune_status_name(s), counts[s]);
                k += w > 0 ? (size_t)w : 0;
            }
        fprintf(f, "<tr><td class=\"t\"><span style=\"color:%s\">&#9632;</span> %zu: ",
                rep_run_colour(r), r + 1);
        rep_html(f, run->path);
        fputs("</td>", f);
        td_text(f, run->name);
        td_text(f, run->searcher ? run->searcher : "");
        fprintf(f, "<td>%lu</td>", run->seed);
        td_text(f, run->evaluator ? run->evaluator : "");
        td_text(f, run->device ? run->device : "");
        fprintf(f, "<td>%zu</td>", run->nevals);
        td_text(f, outcomes);
        td_num(f, best);
        /* the page ranks by time: a run tuned for another objective says so here */
        td_text(f, run->objective ? run->objective : "time");
        td_text(f, pool->pooled[r] ? "yes"
                   : cutune_report_same_sizes(pool->base, run)
                       ? "no: other parameters than the first journal"
                       : "no: other problem sizes than the first journal");
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

static void interactions_table(FILE *f, const cutune_report_pool *pool,
                               const cutune_report_importance *imp)
{
    const cutune_report_run *b = pool->base;
    fputs("<table id=\"table-interactions\"><thead><tr><th class=\"t\">parameters</th><th>share "
          "of the variance (%)</th></tr></thead><tbody>\n",
          f);
    size_t np = imp ? imp->nparams : 0, shown = 0;
    int *used = calloc(np * np != 0 ? np * np : 1, sizeof *used);
    for (; used && imp && imp->ntrees && shown < 8; shown++) {
        size_t bi = 0, bk = 0;
        double best;
        if (!rep_strongest_pair(imp, used, -1, &bi, &bk, &best))
            break;
        used[bi * np + bk] = 1;
        char names[600];
        snprintf(names, sizeof names, "%s \xc3\x97 %s", b->param_names[bi], b->param_names[bk]);
        fputs("<tr>", f);
        td_text(f, names);
        td_num(f, 100 * best);
        fputs("</tr>\n", f);
    }
    free(used);
    fputs("</tbody></table>\n", f);
}

static const cutune_report_pool *cmp_pool;
static int by_time(const void *a, const void *b)
{
    double x = cmp_pool->e[*(const size_t *)a]->time_ms;
    double y = cmp_pool->e[*(const size_t *)b]->time_ms;
    if (x != y)
        return x < y ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Known resource metrics first, with what they mean; every other metric after them. */
static const char *const resource_names[][2] = {
    {"registers", "registers per thread"},
    {"local_bytes", "local memory per thread (bytes; above 0: register spills)"},
    {"static_smem", "static shared memory per block (bytes)"},
    {"dynamic_smem", "dynamic shared memory per block (bytes)"},
    {"max_threads_per_block", "most threads per block the kernel can launch with"},
    {"occupancy", "theoretical occupancy (fraction of the SM's warp slots)"},
};

static void resources_table(FILE *f, const cutune_report_pool *pool)
{
    const cutune_report_run *b = pool->base;
    size_t nok = 0;
    size_t *ok = malloc((pool->n ? pool->n : 1) * sizeof *ok);
    if (!ok)
        return;
    for (size_t i = 0; i < pool->n; i++)
        if (pool->e[i]->status == CUTUNE_STATUS_OK)
            ok[nok++] = i;
    if (!nok) {
        fputs("<p class=\"note\" id=\"table-resources\">No correct evaluation: no best or worst "
              "configuration to show.</p>\n",
              f);
        free(ok);
        return;
    }
    cmp_pool = pool;
    qsort(ok, nok, sizeof *ok, by_time);
    size_t cols[4], ncols = 0;
    char roles[4][32];
    for (size_t k = 0; k < 3 && k < nok; k++) {
        cols[ncols] = ok[k];
        snprintf(roles[ncols++], sizeof roles[0], "best %zu", k + 1);
    }
    if (nok > ncols) {
        cols[ncols] = ok[nok - 1];
        snprintf(roles[ncols++], sizeof roles[0], "worst");
    }
    fputs("<table id=\"table-resources\"><thead><tr><th class=\"t\">metric</th>", f);
    for (size_t c = 0; c < ncols; c++)
        fprintf(f, "<th>%s</th>", roles[c]);
    fputs("</tr></thead><tbody>\n<tr><td class=\"t\">time (ms)</td>", f);
    for (size_t c = 0; c < ncols; c++)
        td_num(f, pool->e[cols[c]]->time_ms);
    fputs("</tr>\n<tr><td class=\"t\">evaluation (journal, n)</td>", f);
    for (size_t c = 0; c < ncols; c++) {
        char t[64];
        snprintf(t, sizeof t, "run %zu, n %zu", pool->run[cols[c]] + 1, pool->e[cols[c]]->n);
        td_text(f, t);
    }
    fputs("</tr>\n<tr><td class=\"t\">configuration</td>", f);
    for (size_t c = 0; c < ncols; c++) {
        char t[4096];
        cutune_report_eval_config_text(b, pool->e[cols[c]], t, sizeof t);
        td_text(f, t);
    }
    fputs("</tr>\n", f);
    size_t nknown = sizeof resource_names / sizeof resource_names[0];
    for (size_t pass = 0; pass < 2; pass++)
        for (size_t m = 0; m < pool->nmetrics; m++) {
            const char *label = NULL;
            for (size_t k = 0; k < nknown; k++)
                if (strcmp(pool->metric_names[m], resource_names[k][0]) == 0)
                    label = resource_names[k][1];
            if ((pass == 0) != (label != NULL))
                continue;
            fputs("<tr><td class=\"t\">", f);
            rep_html(f, pool->metric_names[m]);
            if (label) {
                fputs(": ", f);
                rep_html(f, label);
            }
            fputs("</td>", f);
            for (size_t c = 0; c < ncols; c++)
                td_num(f, cutune_report_pool_metric(pool, cols[c], m));
            fputs("</tr>\n", f);
        }
    fputs("</tbody></table>\n", f);
    free(ok);
}

static const char *const ncu_rows[][2] = {
    {"gpu__time_duration.sum", "kernel duration"},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy (% of peak warps)"},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM throughput (% of peak)"},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput (% of peak)"},
    {"l1tex__throughput.avg.pct_of_peak_sustained_active", "L1 / shared throughput (% of peak)"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "shared-memory bank conflicts"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "bank conflicts on loads"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "bank conflicts on stores"},
};

static int entry_metric(const cutune_report_profile_entry *e, const char *name, double *v,
                        const char **unit)
{
    for (size_t i = 0; i < e->nvalues; i++)
        if (strcmp(e->names[i], name) == 0) {
            *v = e->values[i];
            *unit = e->units[i];
            return 1;
        }
    return 0;
}

/* The top 5 stall reasons of an entry as text ("long_scoreboard 4.1, barrier 2.0"). */
static void top_stalls(const cutune_report_profile_entry *e, char *buf, size_t len)
{
    int used[512] = {0};
    size_t k = 0;
    buf[0] = '\0';
    for (int shown = 0; shown < 5; shown++) {
        long best = -1;
        char reason[128], best_reason[128] = "";
        for (size_t i = 0; i < e->nvalues && i < 512; i++)
            if (!used[i] && cutune_report_ncu_stall_reason(e->names[i], reason, sizeof reason) &&
                isfinite(e->values[i]) && (best < 0 || e->values[i] > e->values[best])) {
                best = (long)i;
                snprintf(best_reason, sizeof best_reason, "%s", reason);
            }
        if (best < 0 || k >= len)
            break;
        used[best] = 1;
        int w = snprintf(buf + k, len - k, "%s%s %.3g", shown ? ", " : "", best_reason,
                         e->values[best]);
        k += w > 0 ? (size_t)w : 0;
    }
}

static void profile_section(FILE *f, cutune_report_run *const *runs, size_t nruns,
                            cutune_report_profile *const *profiles)
{
    int any = 0;
    for (size_t r = 0; r < nruns; r++) {
        const cutune_report_profile *p = profiles ? profiles[r] : NULL;
        if (!p)
            continue;
        fprintf(f, "<h3>Run %zu: ", r + 1);
        rep_html(f, runs[r]->path);
        fputs("</h3>\n", f);
        if (strcmp(p->status, "ok") != 0 || !p->nentries) {
            fputs("<p class=\"note\">Nsight Compute gave no counters: ", f);
            rep_html(f, p->status);
            fputs("</p>\n", f);
            continue;
        }
        fprintf(f,
                "<table id=\"table-profile%s\"><thead><tr><th class=\"t\">metric (Nsight "
                "Compute)</th>",
                any ? "-more" : "");
        any = 1;
        for (size_t i = 0; i < p->nentries; i++) {
            char t[96];
            snprintf(t, sizeof t, "%s (n %zu)", p->entries[i].role, p->entries[i].n);
            fputs("<th>", f);
            rep_html(f, t);
            fputs("</th>", f);
        }
        fputs("</tr></thead><tbody>\n<tr><td class=\"t\">configuration</td>", f);
        for (size_t i = 0; i < p->nentries; i++)
            td_text(f, p->entries[i].config);
        fputs("</tr>\n<tr><td class=\"t\">time as tuned (ms, the journal's median)</td>", f);
        for (size_t i = 0; i < p->nentries; i++) {
            double t = NAN;
            for (size_t k = 0; k < runs[r]->nevals; k++)
                if (runs[r]->evals[k].n == p->entries[i].n)
                    t = runs[r]->evals[k].time_ms;
            td_num(f, t);
        }
        fputs("</tr>\n", f);
        for (size_t k = 0; k < sizeof ncu_rows / sizeof ncu_rows[0]; k++) {
            int have = 0;
            double v;
            const char *unit = "";
            for (size_t i = 0; i < p->nentries; i++)
                have |= entry_metric(&p->entries[i], ncu_rows[k][0], &v, &unit);
            if (!have)
                continue;
            fprintf(f, "<tr><td class=\"t\">%s", ncu_rows[k][1]);
            if (*unit && strcmp(unit, "%") != 0) {
                fputs(" (", f);
                rep_html(f, unit);
                fputs(")", f);
            }
            fputs("<br><small>", f);
            rep_html(f, ncu_rows[k][0]);
            fputs("</small></td>", f);
            for (size_t i = 0; i < p->nentries; i++)
                td_num(f, entry_metric(&p->entries[i], ncu_rows[k][0], &v, &unit) ? v : NAN);
            fputs("</tr>\n", f);
        }
        fputs("<tr><td class=\"t\">top warp-stall reasons (warps stalled per issued "
              "instruction)</td>",
              f);
        for (size_t i = 0; i < p->nentries; i++) {
            char t[1024];
            top_stalls(&p->entries[i], t, sizeof t);
            td_text(f, t);
        }
        fputs("</tr>\n</tbody></table>\n", f);
    }
    if (!any)
        fputs("<p class=\"note\" id=\"profile-none\">No profile with counters for these journals. "
              "On a machine with the GPU, <code>cutune profile JOURNAL</code> runs Nsight Compute "
              "on the best and worst configurations and this section then shows achieved "
              "occupancy, throughput against peak, bank conflicts and warp-stall reasons; the "
              "resource metrics above are what the tuner recorded without counters.</p>\n",
              f);
}

static void evals_table(FILE *f, const cutune_report_pool *pool, size_t nruns)
{
    const cutune_report_run *b = pool->base;
    fputs("<div class=\"scroll\"><table id=\"table-evals\"><thead><tr>", f);
    if (nruns > 1)
        fputs("<th>run</th>", f);
    fputs("<th>n</th><th class=\"t\">status</th><th>time (ms)</th>", f);
    for (size_t p = 0; p < b->nparams; p++) {
        fputs("<th>", f);
        rep_html(f, b->param_names[p]);
        fputs("</th>", f);
    }
    for (size_t m = 0; m < pool->nmetrics; m++) {
        fputs("<th>", f);
        rep_html(f, pool->metric_names[m]);
        fputs("</th>", f);
    }
    fputs("</tr></thead><tbody>\n", f);
    for (size_t i = 0; i < pool->n; i++) {
        const cutune_report_eval *e = pool->e[i];
        fputs("<tr>", f);
        if (nruns > 1)
            td_num(f, (double)(pool->run[i] + 1));
        td_num(f, (double)e->n);
        td_text(f, cutune_status_name(e->status));
        td_num(f, e->time_ms);
        for (size_t p = 0; p < b->nparams; p++) {
            double v = b->value_num[p][e->idx[p]];
            if (isfinite(v))
                fprintf(f, "<td data-v=\"%.17g\">", v);
            else
                fputs("<td class=\"t\">", f);
            rep_html(f, b->value_text[p][e->idx[p]]);
            fputs("</td>", f);
        }
        for (size_t m = 0; m < pool->nmetrics; m++)
            td_num(f, cutune_report_pool_metric(pool, i, m));
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table></div>\n", f);
}

int cutune_report_html_write(FILE *f, cutune_report_run *const *runs, size_t nruns,
                             cutune_report_profile *const *profiles,
                             const cutune_report_page_opts *opts, char *err, size_t errlen)
{
    cutune_report_pool pool;
    int rc = cutune_report_pool_make(runs, nruns, &pool, err, errlen);
    if (rc < 0)
        return rc;
    cutune_report_importance *imp = NULL;
    if ((rc = cutune_report_pool_importance(&pool, &imp, err, errlen)) < 0)
        goto out;
    const cutune_report_run *b = pool.base;
    char title[512];
    if (opts && opts->title)
        snprintf(title, sizeof title, "%s", opts->title);
    else
        snprintf(title, sizeof title, "Tuning report: %s", b->name);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"generator\" content=\"cutune " CUTUNE_VERSION "\"><title>",
          f);
    rep_html(f, title);
    fprintf(f, "</title><style>%s</style></head>\n<body>\n<h1>", style);
    rep_html(f, title);
    fputs("</h1>\n<p class=\"note\">cutune searched the configurations of a tunable GPU kernel "
          "(the values of its parameters) for the fastest one that computes the right answer. "
          "Each evaluation compiled one configuration, checked its result and timed it (time: "
          "the median of repeated runs, in milliseconds; lower is better). This page shows how "
          "the search went and what decides the time.</p>\n",
          f);
    runs_table(f, runs, nruns, &pool);

    fputs("<h2 id=\"convergence\">1. Convergence</h2>\n<figure>", f);
    rep_plot_convergence(f, runs, nruns, 0);
    fputs("<figcaption>The best time found so far after each evaluation, one line per journal. "
          "A line that keeps falling late means more evaluations would likely still "
          "help.</figcaption></figure>\n<figure>",
          f);
    rep_plot_convergence(f, runs, nruns, 1);
    fputs("<figcaption>The same against wall time: compiling, verifying and timing included "
          "(a replayed run: the recorded times).</figcaption></figure>\n",
          f);

    fputs("<h2 id=\"importance\">2. Which parameters matter</h2>\n<p class=\"note\">How it is "
          "computed: a random forest (bootstrap regression trees on the parameters' value "
          "positions) is fitted to log(time) of the correct evaluations, and each tree's "
          "prediction over every combination of values (each value equally likely) is split "
          "into the variance due to each parameter alone (its main effect) and to each pair "
          "together (their interaction): a functional ANOVA (Hutter, Hoos and Leyton-Brown, "
          "ICML 2014). The shares are averaged over the trees. log(time), because halving "
          "the time matters as much for a fast configuration as for a slow one.",
          f);
    if (imp->ntrees)
        fprintf(f, " Here: %zu trees, %zu correct evaluations.", imp->ntrees, imp->nsamples);
    fputs("</p>\n<figure>", f);
    rep_plot_importance(f, &pool, imp);
    fputs("<figcaption>Share of the variance of log(time) each parameter explains alone. What "
          "the bars leave to 100% is interactions and noise.</figcaption></figure>\n<p "
          "class=\"note\">The strongest interactions (the share of the variance that two "
          "parameters explain together beyond their main effects):</p>\n",
          f);
    interactions_table(f, &pool, imp);

    fputs("<h2 id=\"heatmap\">3. The two parameters that matter most</h2>\n<figure>", f);
    if (b->nparams >= 2) {
        size_t px = imp->rank[0], py = imp->rank[1];
        rep_plot_heatmap(f, &pool, px, py);
        fputs("<figcaption>Each cell: the best time measured with that pair of values (any "
              "values of the other parameters). Dark is fast.</figcaption>",
              f);
    } else {
        fputs("<p class=\"note\" id=\"plot-heatmap\">The space has fewer than two parameters: "
              "no heat map.</p>",
              f);
    }
    fputs("</figure>\n", f);

    fputs("<h2 id=\"parameters\">4. Time against each parameter</h2>\n<p class=\"note\">Each "
          "dot is one correct evaluation (spread sideways so that dots do not hide each "
          "other); crosses in the band above the plot are evaluations that failed, coloured by "
          "how they failed.</p>\n<div class=\"params\" id=\"params\">\n",
          f);
    for (size_t k = 0; k < b->nparams; k++)
        rep_plot_param(f, &pool, imp->rank[k]);
    fputs("</div>\n", f);

    fputs("<h2 id=\"failures\">5. Where configurations fail</h2>\n<p class=\"note\">For each "
          "value of each parameter, the share of its evaluations by outcome: ok (correct), "
          "compile_error, launch_error (over a device limit: registers, shared memory, "
          "threads), runtime_error, timeout, wrong_result (output differs from the "
          "reference), missing (a replay found no recording).</p>\n<figure>",
          f);
    rep_plot_failures(f, &pool);
    fputs("</figure>\n", f);

    fputs("<h2 id=\"resources\">6. Resources of the best and the worst configurations</h2>\n<p "
          "class=\"note\">What the compiler and the driver reported for the three fastest "
          "correct configurations and the slowest one, and every other metric the journal "
          "holds.</p>\n",
          f);
    resources_table(f, &pool);

    fputs("<h2 id=\"profile\">7. Profiler counters</h2>\n", f);
    profile_section(f, runs, nruns, profiles);

    fprintf(f,
            "<h2 id=\"evaluations\">8. Every evaluation (%zu)</h2>\n<p class=\"note\">Click "
            "a column's heading to sort by it (again: the other way).</p>\n",
            pool.n);
    evals_table(f, &pool, nruns);
    fprintf(f, "<script>\n%s</script>\n</body></html>\n", script);
    if (ferror(f))
        rc = cutune_err(err, errlen, CUTUNE_EIO, "report: write error");
out:
    cutune_report_importance_free(imp);
    cutune_report_pool_clear(&pool);
    return rc;
}
