/* What cutune bench writes: results.md (the tables a reader reads), results.csv and
 * results.json (the same for scripts), runs.csv (every run's best), and the convergence
 * plots (their data and a gnuplot script, drawn by gnuplot where it is installed). Every
 * file goes through a cutune_outfile: a failure never leaves a partial one. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cutune/bench.h"
#include "bench_internal.h"

/* ---- output ---- */

static int mkdir_p(const char *dir, char *err, size_t errlen)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: path too long", dir);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0777) < 0 && errno != EEXIST)
                return cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot create: %s", buf,
                                  strerror(errno));
            *p = c;
            if (c == '\0')
                break;
        }
    }
    return 0;
}

int cutune_bench_prepare_dir(const char *dir, char *err, size_t errlen)
{
    int rc = mkdir_p(dir, err, errlen);
    if (rc < 0)
        return rc;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: not a folder", dir);
    if (access(dir, W_OK) != 0)
        return cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot write here: %s", dir,
                          strerror(errno));
    return 0;
}

/* dir/name, written through a cutune_outfile (a temporary renamed there by close_out);
 * *f is its stream. */
static cutune_outfile *open_out(const char *dir, const char *name, FILE **f, char *err,
                                size_t errlen)
{
    char path[4600];
    cutune_outfile *o = NULL;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *f = NULL;
    if (cutune_outfile_open(path, 0, 0644, &o, err, errlen) < 0)
        return NULL;
    if (!(*f = cutune_outfile_stream(o))) {
        cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
        cutune_outfile_abort(o);
        return NULL;
    }
    return o;
}

/* The files of one cutune_bench_write, published together: each is checked whole on
 * disk as it is finished (close_out), and all are put at their paths at the end, none when
 * one failed, so a full disk midway leaves an earlier run's set as it was instead of part
 * of it replaced. Outside a cutune_bench_write a file is committed at once. */
static struct {
    int active;
    cutune_outfile **o;
    size_t n, cap;
} set;

int bench_close_out(cutune_outfile *o, char *err, size_t errlen)
{
    if (!set.active)
        return cutune_outfile_commit(o, NULL, err, errlen);
    if (set.n == set.cap) {
        size_t cap = set.cap ? 2 * set.cap : 16;
        cutune_outfile **grown = realloc(set.o, cap * sizeof *grown);
        if (!grown) {
            cutune_outfile_abort(o);
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        }
        set.o = grown;
        set.cap = cap;
    }
    int rc = cutune_outfile_sync(o, err, errlen);
    if (rc < 0)
        return rc;
    set.o[set.n++] = o;
    return 0;
}

/* End the set: rc >= 0 commits every file (a commit that fails aborts the rest), else
 * every one is aborted. The status. */
static int set_end(int rc, char *err, size_t errlen)
{
    set.active = 0;
    for (size_t i = 0; i < set.n; i++)
        if (rc >= 0)
            rc = cutune_outfile_commit(set.o[i], NULL, err, errlen);
        else
            cutune_outfile_abort(set.o[i]);
    free(set.o);
    set.o = NULL;
    set.n = set.cap = 0;
    return rc < 0 ? rc : 0;
}

static int close_out(cutune_outfile *o, char *err, size_t errlen)
{
    return bench_close_out(o, err, errlen);
}

/* What a budget charges under convention ci, for results.md and results.json: the
 * convention's rule, and under constraint-aware how many recordings had their
 * restrictions known. */
static void conv_rule(char *buf, size_t len, const cutune_bench_result *r, size_t ci)
{
    unsigned conv = r->conv[ci];
    if (conv == CUTUNE_BENCH_CARTESIAN) {
        snprintf(buf, len,
                 "every point of the Cartesian product can be proposed and is charged; points "
                 "absent from the recording or recorded as failures are failed evaluations");
        return;
    }
    if (conv == CUTUNE_BENCH_RECORDED) {
        snprintf(buf, len,
                 "only configurations present in the recording can be proposed and charged "
                 "(failures the recording left out are never proposed nor paid for)");
        return;
    }
    size_t known = 0;
    for (size_t ri = 0; ri < r->nrec; ri++)
        known += r->space[ci * r->nrec + ri].restricted;
    snprintf(buf, len,
             "a tuner that knows the restrictions: the space is the Cartesian product filtered "
             "by the recording's restrictions, and a configuration that satisfies them but is "
             "absent from the recording is a failed evaluation and is charged (%zu of %zu "
             "recordings); a recording whose restrictions are not known searches its recorded "
             "configurations (%zu, marked `recorded` in the space column)",
             known, r->nrec, r->nrec - known);
}

/* P printed as a number, "-" when not defined */
static void fmt_p(char *buf, size_t len, double p)
{
    if (isnan(p))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.3f", p);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fprintf(f, "null");
}

/* The recordings where v is defined for searcher si (P over time: those holding times). */
static size_t defined_recs(const cutune_bench_result *r, const double *v, size_t ci, size_t si)
{
    size_t n = 0;
    for (size_t ri = 0; ri < r->nrec; ri++)
        n += !isnan(v[(ci * r->nrec + ri) * r->nsearchers + si]);
    return n;
}

/* Mean over recordings (those where v is defined). */
static double mean_over_recs(const cutune_bench_result *r, const double *v, size_t ci, size_t si)
{
    double s = 0;
    size_t n = 0;
    for (size_t ri = 0; ri < r->nrec; ri++) {
        double x = v[(ci * r->nrec + ri) * r->nsearchers + si];
        if (!isnan(x)) {
            s += x;
            n++;
        }
    }
    return n ? s / (double)n : NAN;
}

static void write_md(FILE *f, const cutune_bench_result *r, const char *command)
{
    fprintf(f, "# Searcher comparison on recorded spaces\n\n");
    if (command)
        fprintf(f, "Command: `%s`\n\n", command);
    if (r->identity[0])
        fprintf(f,
                "Manifest: `%s` (results.json holds the whole manifest: cutune commit, build, "
                "libraries, machine, recordings' SHA-256, resolved searcher options; rerun "
                "with `cutune bench --reproduce results.json`)\n\n",
                r->identity);
    fprintf(f, "- Searchers:");
    for (size_t si = 0; si < r->nsearchers; si++)
        fprintf(f, " %s%s%s%s", r->searchers[si], r->searcher_args[si] ? " (" : "",
                r->searcher_args[si] ? r->searcher_args[si] : "", r->searcher_args[si] ? ")" : "");
    fprintf(f, "\n- Budgets (unique evaluations):");
    for (size_t bi = 0; bi < r->nbudgets; bi++)
        fprintf(f, " %zu", r->budgets[bi]);
    fprintf(f, "\n- Runs per cell: %zu (seeds 1..%zu, GSL mt19937)\n", r->nseeds, r->nseeds);
    fprintf(f,
            "- Every budget is a run of its own, given that budget (ctx.budget), as `cutune "
            "--budget=B` makes it: a searcher may plan by its budget (bo does). The curves and P "
            "come from the runs of the largest budget (%zu).\n",
            r->maxb);
    fprintf(f,
            "- Re-proposing a configuration already evaluated costs nothing (answered from the "
            "history); a run gives up after %d such proposals in a row.\n",
            CUTUNE_BENCH_MAX_DUPLICATES);
    fprintf(f, "- Fraction of optimum = t_opt / t_best_found (0 when nothing valid was found); "
               "cells read `mean (median; 5th-95th percentile; success rate)`, success = runs "
               "that found the optimum.\n");
    fprintf(f,
            "- P = methodology score (Willemsen et al., FGCS 2024): mean over evaluations "
            "1..min(cutoff, %zu) of (B(t) - F(t)) / (B(t) - t_opt), with B(t) the exact "
            "expected best of random search without replacement (order statistics); 0 = "
            "random, 1 = optimum from the start. Failures rank after every valid time and "
            "count as the worst valid time where a value is needed. P (time) charges the "
            "recorded compile + benchmark time per evaluation (%d even points from one mean "
            "evaluation cost on; baseline at round(time / mean cost) evaluations); `-` where the "
            "recording has no times.\n\n",
            r->maxb, CUTUNE_BENCH_TIME_POINTS);

    char p1[32], p2[32];
    for (size_t ci = 0; ci < r->nconv; ci++) {
        unsigned conv = r->conv[ci];
        char rule[1024];
        conv_rule(rule, sizeof rule, r, ci);
        fprintf(f, "## Convention: %s\n\n", cutune_bench_convention_name(conv));
        fprintf(f, "Budgets charge: %s.\n\n", rule);
        fprintf(f, "### Mean over %zu recordings (%s)\n\n", r->nrec,
                cutune_bench_convention_name(conv));
        fprintf(f, "| searcher |");
        for (size_t bi = 0; bi < r->nbudgets; bi++)
            fprintf(f, " B=%zu |", r->budgets[bi]);
        /* a mean over fewer recordings says over how many (P over time needs their
         * recorded times) */
        size_t npe = r->nsearchers ? defined_recs(r, r->p_evals, ci, 0) : r->nrec;
        size_t npt = r->nsearchers ? defined_recs(r, r->p_time, ci, 0) : r->nrec;
        char hpe[64] = "P (evals)", hpt[64] = "P (time)";
        if (npe < r->nrec)
            snprintf(hpe, sizeof hpe, "P (evals), %zu of %zu", npe, r->nrec);
        if (npt < r->nrec)
            snprintf(hpt, sizeof hpt, "P (time), %zu of %zu", npt, r->nrec);
        fprintf(f, " %s | %s |\n|---|", hpe, hpt);
        for (size_t bi = 0; bi < r->nbudgets + 2; bi++)
            fprintf(f, "---:|");
        fprintf(f, "\n");
        for (size_t si = 0; si < r->nsearchers; si++) {
            fprintf(f, "| %s |", r->searchers[si]);
            for (size_t bi = 0; bi < r->nbudgets; bi++) {
                double m = 0, sc = 0;
                for (size_t ri = 0; ri < r->nrec; ri++) {
                    const cutune_bench_cell *c = cutune_bench_result_cell(r, ci, ri, si, bi);
                    m += c->mean;
                    sc += c->success;
                }
                fprintf(f, " %.3f (%.0f%%) |", m / (double)r->nrec, 100.0 * sc / (double)r->nrec);
            }
            fmt_p(p1, sizeof p1, mean_over_recs(r, r->p_evals, ci, si));
            fmt_p(p2, sizeof p2, mean_over_recs(r, r->p_time, ci, si));
            fprintf(f, " %s | %s |\n", p1, p2);
        }
        fprintf(f, "\nCells: mean fraction of optimum (mean success rate).\n\n");

        fprintf(f, "### Per recording (%s)\n\n", cutune_bench_convention_name(conv));
        fprintf(f, "| recording | space (valid; absent) | cutoff | searcher |");
        for (size_t bi = 0; bi < r->nbudgets; bi++)
            fprintf(f, " B=%zu |", r->budgets[bi]);
        fprintf(f, " P (evals) | P (time) |\n|---|---:|---:|---|");
        for (size_t bi = 0; bi < r->nbudgets + 2; bi++)
            fprintf(f, "---:|");
        fprintf(f, "\n");
        for (size_t ri = 0; ri < r->nrec; ri++) {
            const cutune_bench_space_info *info = &r->space[ci * r->nrec + ri];
            for (size_t si = 0; si < r->nsearchers; si++) {
                if (si == 0)
                    fprintf(f, "| %s | %s%zu (%zu; %zu) | %zu | %s |", r->rec[ri].name,
                            info->restricted || conv == CUTUNE_BENCH_RECORDED ? "" : "recorded ",
                            info->size, info->nok, info->absent, info->cutoff, r->searchers[si]);
                else
                    fprintf(f, "| | | | %s |", r->searchers[si]);
                for (size_t bi = 0; bi < r->nbudgets; bi++) {
                    const cutune_bench_cell *c = cutune_bench_result_cell(r, ci, ri, si, bi);
                    fprintf(f, " %.3f (%.3f; %.3f-%.3f; %.0f%%) |", c->mean, c->median, c->p05,
                            c->p95, 100.0 * c->success);
                }
                size_t cell = (ci * r->nrec + ri) * r->nsearchers + si;
                fmt_p(p1, sizeof p1, r->p_evals[cell]);
                fmt_p(p2, sizeof p2, r->p_time[cell]);
                fprintf(f, " %s | %s |\n", p1, p2);
            }
        }
        fprintf(f,
                "\nCutoff: evaluations random search needs (in expectation) to get 95%% of "
                "the way from the median to the optimum; P averages up to min(cutoff, %zu).\n\n",
                r->maxb);
    }
}

static void write_csv(FILE *f, const cutune_bench_result *r)
{
    fprintf(f,
            "convention,recording,device,kernel,space_size,valid,t_opt_ms,searcher,"
            "searcher_args,budget,runs,mean,median,p05,p95,success_rate,evals_mean,"
            "p_evals,p_time%s\n",
            r->identity[0] ? ",manifest" : "");
    for (size_t ci = 0; ci < r->nconv; ci++)
        for (size_t ri = 0; ri < r->nrec; ri++) {
            const cutune_bench_space_info *info = &r->space[ci * r->nrec + ri];
            for (size_t si = 0; si < r->nsearchers; si++) {
                size_t cell = (ci * r->nrec + ri) * r->nsearchers + si;
                for (size_t bi = 0; bi < r->nbudgets; bi++) {
                    const cutune_bench_cell *c = cutune_bench_result_cell(r, ci, ri, si, bi);
                    char p1[32], p2[32];
                    fmt_p(p1, sizeof p1, r->p_evals[cell]);
                    fmt_p(p2, sizeof p2, r->p_time[cell]);
                    fprintf(f, "%s,", cutune_bench_convention_name(r->conv[ci]));
                    cutune_csv_text(f, r->rec[ri].name, 0);
                    fputc(',', f);
                    cutune_csv_text(f, r->rec[ri].device, 1);
                    fputc(',', f);
                    cutune_csv_text(f, r->rec[ri].kernel, 1);
                    fprintf(f, ",%zu,%zu,%.6g,", info->size, info->nok, info->t_opt);
                    cutune_csv_text(f, r->searchers[si], 0);
                    fputc(',', f);
                    cutune_csv_text(f, r->searcher_args[si], 1);
                    fprintf(f, ",%zu,%zu,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%s,%s", r->budgets[bi],
                            r->nseeds, c->mean, c->median, c->p05, c->p95, c->success, c->evals,
                            strcmp(p1, "-") ? p1 : "", strcmp(p2, "-") ? p2 : "");
                    if (r->identity[0])
                        fprintf(f, ",%s", r->identity);
                    fputc('\n', f);
                }
            }
        }
}

int cutune_bench_write_runs(const cutune_bench_result *r, const char *dir, char *err, size_t errlen)
{
    FILE *f;
    cutune_outfile *o = open_out(dir, "runs.csv", &f, err, errlen);
    if (!o)
        return CUTUNE_EIO;
    fprintf(f, "convention,recording,searcher,searcher_args,seed,budget,best_ms,fraction\n");
    for (size_t ci = 0; ci < r->nconv; ci++)
        for (size_t ri = 0; ri < r->nrec; ri++) {
            double t_opt = r->space[ci * r->nrec + ri].t_opt;
            for (size_t si = 0; si < r->nsearchers; si++)
                for (size_t k = 0; k < r->nseeds; k++) {
                    /* the best of the run of each budget */
                    const double *at =
                        r->at +
                        (((ci * r->nrec + ri) * r->nsearchers + si) * r->nseeds + k) * r->nbudgets;
                    for (size_t bi = 0; bi < r->nbudgets; bi++) {
                        double b = at[bi];
                        char bt[32] = "";
                        if (isfinite(b))
                            snprintf(bt, sizeof bt, "%.9g", b);
                        fprintf(f, "%s,", cutune_bench_convention_name(r->conv[ci]));
                        cutune_csv_text(f, r->rec[ri].name, 0);
                        fputc(',', f);
                        cutune_csv_text(f, r->searchers[si], 0);
                        fputc(',', f);
                        cutune_csv_text(f, r->searcher_args[si], 1);
                        /* the fraction to 6 decimals: 0.99996 is not 1 (success = 1 exactly) */
                        fprintf(f, ",%zu,%zu,%s,%.6f\n", k + 1, r->budgets[bi], bt,
                                bench_fraction_of_optimum(t_opt, b));
                    }
                }
        }
    return close_out(o, err, errlen);
}

static void write_json(FILE *f, const cutune_bench_result *r)
{
    fprintf(f, "{\n");
    if (r->manifest) { /* cJSON's indented text, indented one level more */
        fputs("  \"manifest\": ", f);
        for (const char *p = r->manifest; *p; p++) {
            fputc(*p, f);
            if (*p == '\n')
                fputs("  ", f);
        }
        fputs(",\n", f);
    }
    fprintf(f, "  \"seeds\": %zu,\n  \"max_budget\": %zu,\n", r->nseeds, r->maxb);
    fprintf(f, "  \"budgets\": [");
    for (size_t bi = 0; bi < r->nbudgets; bi++)
        fprintf(f, "%s%zu", bi ? ", " : "", r->budgets[bi]);
    fprintf(f, "],\n  \"searchers\": [");
    for (size_t si = 0; si < r->nsearchers; si++) {
        fprintf(f, "%s{\"name\": ", si ? ", " : "");
        json_str(f, r->searchers[si]);
        fprintf(f, ", \"args\": ");
        if (r->searcher_args[si])
            json_str(f, r->searcher_args[si]);
        else
            fprintf(f, "null");
        fprintf(f, "}");
    }
    fprintf(f, "],\n  \"conventions\": [\n");
    for (size_t ci = 0; ci < r->nconv; ci++) {
        fprintf(f, "    {\"convention\": \"%s\", \"charges\": ",
                cutune_bench_convention_name(r->conv[ci]));
        char rule[1024];
        conv_rule(rule, sizeof rule, r, ci);
        json_str(f, rule);
        fprintf(f, ",\n     \"recordings\": [\n");
        for (size_t ri = 0; ri < r->nrec; ri++) {
            const cutune_bench_space_info *info = &r->space[ci * r->nrec + ri];
            fprintf(f, "      {\"name\": ");
            json_str(f, r->rec[ri].name);
            fprintf(f, ", \"device\": ");
            json_str(f, r->rec[ri].device);
            fprintf(f, ", \"kernel\": ");
            json_str(f, r->rec[ri].kernel);
            fprintf(f,
                    ", \"space_size\": %zu, \"valid\": %zu, \"absent\": %zu, \"space\": \"%s\", "
                    "\"restrictions\": ",
                    info->size, info->nok, info->absent,
                    info->restricted ? "restricted" : "recorded");
            if (info->source)
                json_str(f, info->source);
            else
                fprintf(f, "null");
            fprintf(f, ", \"t_opt_ms\": ");
            json_num(f, info->t_opt);
            fprintf(f, ", \"t_median_ms\": ");
            json_num(f, info->t_median);
            fprintf(f, ", \"cutoff\": %zu, \"p_points\": %zu, \"has_costs\": %s,\n", info->cutoff,
                    info->p_points, r->rec[ri].has_costs ? "true" : "false");
            fprintf(f, "       \"random_baseline_ms\": {");
            for (size_t bi = 0; bi < r->nbudgets; bi++) {
                fprintf(f, "%s\"%zu\": ", bi ? ", " : "", r->budgets[bi]);
                json_num(f, info->baseline[r->budgets[bi] - 1]);
            }
            fprintf(f, "},\n       \"random_fraction\": {");
            for (size_t bi = 0; bi < r->nbudgets; bi++) {
                fprintf(f, "%s\"%zu\": ", bi ? ", " : "", r->budgets[bi]);
                json_num(f, info->rand_frac[r->budgets[bi] - 1]);
            }
            fprintf(f, "},\n       \"searchers\": [\n");
            for (size_t si = 0; si < r->nsearchers; si++) {
                size_t cell = (ci * r->nrec + ri) * r->nsearchers + si;
                fprintf(f, "        {\"searcher\": ");
                json_str(f, r->searchers[si]);
                fprintf(f, ", \"p_evals\": ");
                json_num(f, r->p_evals[cell]);
                fprintf(f, ", \"p_time\": ");
                json_num(f, r->p_time[cell]);
                fprintf(f, ", \"budgets\": [");
                for (size_t bi = 0; bi < r->nbudgets; bi++) {
                    const cutune_bench_cell *c = cutune_bench_result_cell(r, ci, ri, si, bi);
                    fprintf(f,
                            "%s\n          {\"budget\": %zu, \"mean\": %.6g, \"median\": %.6g, "
                            "\"p05\": %.6g, \"p95\": %.6g, \"success_rate\": %.6g, "
                            "\"evals_mean\": %.6g}",
                            bi ? "," : "", r->budgets[bi], c->mean, c->median, c->p05, c->p95,
                            c->success, c->evals);
                }
                fprintf(f, "]}%s\n", si + 1 < r->nsearchers ? "," : "");
            }
            fprintf(f, "       ]}%s\n", ri + 1 < r->nrec ? "," : "");
        }
        fprintf(f, "     ]}%s\n", ci + 1 < r->nconv ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
}

/* s inside a single-quoted gnuplot string (in_quotes) or a comment line: gnuplot runs
 * `commands` in double-quoted strings, and a line break ends a command, so recording
 * names, devices and kernels (from the files read) go only in single quotes, a quote
 * doubled, control characters as '?'. */
static void gp_text(FILE *f, const char *s, int in_quotes)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            fputc('?', f);
        else if (c == '\'' && in_quotes)
            fputs("''", f);
        else
            fputc(c, f);
    }
}

/* The plots an earlier run left in pdir (its .dat, .png, .svg and .pdf files, which bench
 * alone writes there): removed, so that the folder holds this run's only. */
static void clear_plots(const char *pdir)
{
    DIR *d = opendir(pdir);
    if (!d)
        return;
    static const char *const ext[] = {".dat", ".png", ".svg", ".pdf"};
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
            if (n > 4 && strcmp(e->d_name + n - 4, ext[i]) == 0) {
                char p[4400];
                snprintf(p, sizeof p, "%s/%s", pdir, e->d_name);
                unlink(p);
                break;
            }
    }
    closedir(d);
}

/* Plot data (one file per convention x recording: t, then median/p05/p95 per
 * searcher) and one gnuplot script drawing all of them. */
static int write_plots(const cutune_bench_result *r, const char *dir, char *err, size_t errlen)
{
    char pdir[4096];
    snprintf(pdir, sizeof pdir, "%s/plots", dir);
    int rc = mkdir_p(pdir, err, errlen);
    if (rc < 0)
        return rc;
    FILE *gp;
    cutune_outfile *gpo = open_out(dir, "plots.gp", &gp, err, errlen);
    if (!gpo)
        return CUTUNE_EIO;
    fprintf(gp,
            "# Convergence plots of cutune bench: best-so-far fraction of optimum against\n"
            "# evaluations, median and 5-95%% band over %zu seeds per searcher.\n"
            "# Run from the results folder: gnuplot plots.gp\n",
            r->nseeds);
    if (r->identity[0])
        fprintf(gp, "# Manifest %s (results.json)\n", r->identity);
    fprintf(gp,
            "set key bottom right\nset grid\nset xlabel 'evaluations'\n"
            "set ylabel 'fraction of optimum (t_{opt} / t_{best})'\n"
            "set yrange [0:1.02]\nset xrange [1:%zu]\nset style fill transparent solid 0.18 "
            "noborder\n",
            r->maxb);
    for (size_t ci = 0; ci < r->nconv; ci++)
        for (size_t ri = 0; ri < r->nrec; ri++) {
            char base[512];
            snprintf(base, sizeof base, "%s_%s", cutune_bench_convention_name(r->conv[ci]),
                     r->rec[ri].name);
            char dname[600];
            snprintf(dname, sizeof dname, "plots/%s.dat", base);
            FILE *f;
            cutune_outfile *o = open_out(dir, dname, &f, err, errlen);
            if (!o) {
                cutune_outfile_abort(gpo);
                return CUTUNE_EIO;
            }
            fputs("# ", f);
            gp_text(f, r->rec[ri].name, 0);
            fprintf(f, ", %s convention: t then (median p05 p95) per searcher:",
                    cutune_bench_convention_name(r->conv[ci]));
            for (size_t si = 0; si < r->nsearchers; si++) {
                fputc(' ', f);
                gp_text(f, r->searchers[si], 0);
            }
            fprintf(f, "\n");
            for (size_t t = 0; t < r->maxb; t++) {
                fprintf(f, "%zu", t + 1);
                for (size_t si = 0; si < r->nsearchers; si++) {
                    const double *c =
                        r->curve + ((ci * r->nrec + ri) * r->nsearchers + si) * 3 * r->maxb;
                    fprintf(f, " %.5f %.5f %.5f", c[t], c[r->maxb + t], c[2 * r->maxb + t]);
                }
                fprintf(f, "\n");
            }
            rc = close_out(o, err, errlen);
            if (rc < 0) {
                cutune_outfile_abort(gpo);
                return rc;
            }
            static const char *const terms[][2] = {
                {"pngcairo size 900,600 noenhanced", "png"},
                {"svg size 900,600 dynamic noenhanced", "svg"},
                {"pdfcairo size 6in,4in noenhanced", "pdf"}}; /* vector, for papers */
            for (int fmt = 0; fmt < 3; fmt++) {
                if (fmt == 2) /* a gnuplot without cairo still draws the PNG and SVG */
                    fprintf(gp, "\nif (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {");
                fprintf(gp, "\nset terminal %s\nset output 'plots/", terms[fmt][0]);
                gp_text(gp, base, 1);
                fprintf(gp, ".%s'\nset title '", terms[fmt][1]);
                gp_text(gp, r->rec[ri].name, 1);
                fputs(" (", gp);
                gp_text(gp, r->rec[ri].device, 1);
                fputs(", ", gp);
                gp_text(gp, r->rec[ri].kernel, 1);
                fprintf(gp, ")'.\"\\n\".'%s convention, %zu seeds, median and 5-95%% band%s%s'\n",
                        cutune_bench_convention_name(r->conv[ci]), r->nseeds,
                        r->identity[0] ? ", manifest " : "", r->identity);
                fprintf(gp, "plot ");
                for (size_t si = 0; si < r->nsearchers; si++) {
                    size_t col = 2 + 3 * si;
                    fprintf(gp, "%s'", si ? ", \\\n     " : "");
                    gp_text(gp, dname, 1);
                    fprintf(gp, "' using 1:%zu:%zu with filledcurves lc %zu notitle, \\\n     '",
                            col + 1, col + 2, si + 1);
                    gp_text(gp, dname, 1);
                    fprintf(gp, "' using 1:%zu with lines lw 2 lc %zu title '", col, si + 1);
                    gp_text(gp, r->searchers[si], 1);
                    fputc('\'', gp);
                }
                fprintf(gp, "\nunset output\n%s", fmt == 2 ? "}\n" : "");
            }
        }
    return close_out(gpo, err, errlen);
}

static int write_set(const cutune_bench_result *r, const char *dir, const char *command, char *err,
                     size_t errlen);

int cutune_bench_write(const cutune_bench_result *r, const char *dir, const char *command,
                       char *err, size_t errlen)
{
    set.active = 1;
    int rc = write_set(r, dir, command, err, errlen);
    if (rc >= 0) { /* every file whole: the earlier run's plots go, then this run's appear */
        char pdir[4096];
        snprintf(pdir, sizeof pdir, "%s/plots", dir);
        clear_plots(pdir);
    }
    return set_end(rc, err, errlen);
}

static int write_set(const cutune_bench_result *r, const char *dir, const char *command, char *err,
                     size_t errlen)
{
    int rc = mkdir_p(dir, err, errlen);
    if (rc < 0)
        return rc;
    FILE *f;
    cutune_outfile *o = open_out(dir, "results.md", &f, err, errlen);
    if (!o)
        return CUTUNE_EIO;
    size_t *order = malloc((r->nrec ? r->nrec : 1) * sizeof *order);
    if (!order) {
        cutune_outfile_abort(o);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    write_md(f, r, command);
    bench_write_md_vs_random(f, r);
    if (r->split)
        bench_write_md_split(f, r, order);
    free(order);
    rc = close_out(o, err, errlen);
    if (rc < 0)
        return rc;
    if (!(o = open_out(dir, "vs-random.csv", &f, err, errlen)))
        return CUTUNE_EIO;
    bench_write_csv_vs_random(f, r);
    if ((rc = close_out(o, err, errlen)) < 0)
        return rc;
    if (r->split) {
        if (!(o = open_out(dir, "split.csv", &f, err, errlen)))
            return CUTUNE_EIO;
        bench_write_csv_split(f, r);
        if ((rc = close_out(o, err, errlen)) < 0)
            return rc;
    }
    if (!(o = open_out(dir, "results.csv", &f, err, errlen)))
        return CUTUNE_EIO;
    write_csv(f, r);
    rc = close_out(o, err, errlen);
    if (rc < 0)
        return rc;
    if (!(o = open_out(dir, "results.json", &f, err, errlen)))
        return CUTUNE_EIO;
    write_json(f, r);
    rc = close_out(o, err, errlen);
    if (rc < 0)
        return rc;
    rc = cutune_bench_write_latex(r, dir, err, errlen);
    if (rc < 0)
        return rc;
    return write_plots(r, dir, err, errlen);
}
