/* cutune bench --split: leave-one-GPU-out. The searchers of a bench are the candidates of
 * one choice (a default, an option's value); for each GPU, the candidate with the best mean
 * over the recordings of every other GPU is chosen, and its score on the left-out GPU's
 * recordings is reported, per budget and for P. A choice that only fits the recordings it
 * was made on scores less on the GPU it did not see than the candidates themselves do;
 * one that holds scores as the best of them. Recordings are named KERNEL_GPU (GEMM_P100,
 * convolution_milo_A4000): the kernel is the label up to the first '_', lower-cased, the
 * GPU the rest. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cutune/bench.h"
#include "bench_internal.h"

static void kernel_of(const char *label, char *buf, size_t len)
{
    size_t n = strcspn(label, "_"), i = 0;
    for (; i < n && i + 1 < len; i++)
        buf[i] = (char)tolower((unsigned char)label[i]);
    buf[i] = '\0';
}

static const char *gpu_of(const char *label)
{
    const char *u = strchr(label, '_');
    return u ? u + 1 : label;
}

/* Score of searcher si on recording ri in column w: a budget's mean fraction of optimum, or
 * P over evaluations (w = nbudgets). */
static double score(const cutune_bench_result *r, size_t ci, size_t ri, size_t si, size_t w)
{
    if (w < r->nbudgets)
        return cutune_bench_result_cell(r, ci, ri, si, w)->mean;
    return r->p_evals[(ci * r->nrec + ri) * r->nsearchers + si];
}

/* The candidate chosen for column w without recording ri's GPU: the best mean over the
 * recordings of the other GPUs (ties to the first searcher); -1 when no other GPU. */
static long chosen_without(const cutune_bench_result *r, size_t ci, size_t ri, size_t w)
{
    const char *g = gpu_of(r->rec[ri].name);
    long best = -1;
    double bestv = -INFINITY;
    for (size_t si = 0; si < r->nsearchers; si++) {
        double s = 0;
        size_t n = 0;
        for (size_t rj = 0; rj < r->nrec; rj++) {
            double v = score(r, ci, rj, si, w);
            if (strcmp(gpu_of(r->rec[rj].name), g) == 0 || isnan(v))
                continue;
            s += v;
            n++;
        }
        if (n && s / (double)n > bestv) {
            bestv = s / (double)n;
            best = (long)si;
        }
    }
    return best;
}

/* Recordings in kernel order (then label order, as they are sorted). */
static void kernel_order(const cutune_bench_result *r, size_t *order)
{
    char ka[64], kb[64];
    for (size_t i = 0; i < r->nrec; i++)
        order[i] = i;
    for (size_t i = 1; i < r->nrec; i++)
        for (size_t j = i; j > 0; j--) {
            kernel_of(r->rec[order[j - 1]].name, ka, sizeof ka);
            kernel_of(r->rec[order[j]].name, kb, sizeof kb);
            if (strcmp(ka, kb) <= 0)
                break;
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

static void header(FILE *f, const cutune_bench_result *r, const char *first)
{
    fprintf(f, "| %s |", first);
    for (size_t bi = 0; bi < r->nbudgets; bi++)
        fprintf(f, " B=%zu |", r->budgets[bi]);
    fprintf(f, " P (evals) |\n|---|");
    for (size_t bi = 0; bi <= r->nbudgets; bi++)
        fprintf(f, "---:|");
    fprintf(f, "\n");
}

/* Summary rows of one kernel (kernel NULL: all recordings): every candidate's mean, the
 * mean of the choices made without each recording's GPU, and the per-recording best. */
static void summary(FILE *f, const cutune_bench_result *r, size_t ci, const char *kernel)
{
    char k[64];
    size_t nw = r->nbudgets + 1;
    for (size_t row = 0; row < r->nsearchers + 2; row++) {
        const char *kn = kernel ? kernel : "all";
        if (row < r->nsearchers)
            fprintf(f, "| %s: %s |", kn, r->searchers[row]);
        else
            fprintf(f, "| %s: **%s** |", kn,
                    row == r->nsearchers ? "chosen without the GPU" : "best per recording");
        for (size_t w = 0; w < nw; w++) {
            double s = 0;
            size_t n = 0;
            for (size_t ri = 0; ri < r->nrec; ri++) {
                kernel_of(r->rec[ri].name, k, sizeof k);
                if (kernel && strcmp(k, kernel) != 0)
                    continue;
                double v = NAN;
                if (row < r->nsearchers) {
                    v = score(r, ci, ri, row, w);
                } else if (row == r->nsearchers) {
                    long c = chosen_without(r, ci, ri, w);
                    v = c >= 0 ? score(r, ci, ri, (size_t)c, w) : NAN;
                } else {
                    v = -INFINITY;
                    for (size_t si = 0; si < r->nsearchers; si++)
                        if (score(r, ci, ri, si, w) > v)
                            v = score(r, ci, ri, si, w);
                }
                if (isfinite(v)) {
                    s += v;
                    n++;
                }
            }
            if (n)
                fprintf(f, " %.3f |", s / (double)n);
            else
                fprintf(f, " - |");
        }
        fprintf(f, "\n");
    }
}

void bench_write_md_split(FILE *f, const cutune_bench_result *r, size_t *order)
{
    char k[64], prev[64];
    fprintf(f, "## Leave-one-GPU-out\n\n");
    fprintf(f, "The searchers above are the candidates of one choice. For each GPU the candidate "
               "with the best mean over the recordings of every other GPU is chosen (per budget, "
               "and for P), and its score on the left-out GPU's recordings is what the tables "
               "report. Recordings are named KERNEL_GPU; the kernel is the name up to the first "
               "'_'. A choice that holds scores about as the best candidate; one fitted to the "
               "recordings it was made on scores less.\n\n");
    /* a name without '_' is not KERNEL_GPU: say so rather than group it silently */
    size_t nplain = 0;
    for (size_t ri = 0; ri < r->nrec; ri++)
        nplain += strchr(r->rec[ri].name, '_') == NULL;
    if (nplain) {
        fprintf(f, "Not named KERNEL_GPU (no '_'), so each is a GPU of its own and its name the "
                   "kernel:");
        for (size_t ri = 0, i = 0; ri < r->nrec; ri++)
            if (!strchr(r->rec[ri].name, '_'))
                fprintf(f, "%s %s", i++ ? "," : "", r->rec[ri].name);
        fprintf(f, ".\n\n");
    }
    kernel_order(r, order);
    for (size_t ci = 0; ci < r->nconv; ci++) {
        fprintf(f, "### Chosen without the GPU (%s)\n\n",
                cutune_bench_convention_name(r->conv[ci]));
        header(f, r, "recording: chosen score");
        for (size_t i = 0; i < r->nrec; i++) {
            size_t ri = order[i];
            fprintf(f, "| %s |", r->rec[ri].name);
            for (size_t w = 0; w <= r->nbudgets; w++) {
                long c = chosen_without(r, ci, ri, w);
                if (c < 0)
                    fprintf(f, " - |");
                else
                    fprintf(f, " %s %.3f |", r->searchers[c], score(r, ci, ri, (size_t)c, w));
            }
            fprintf(f, "\n");
        }
        fprintf(f, "\n### Means by kernel (%s)\n\n", cutune_bench_convention_name(r->conv[ci]));
        header(f, r, "kernel: searcher");
        prev[0] = '\0';
        for (size_t i = 0; i < r->nrec; i++) {
            kernel_of(r->rec[order[i]].name, k, sizeof k);
            if (strcmp(k, prev) == 0)
                continue;
            snprintf(prev, sizeof prev, "%s", k);
            summary(f, r, ci, k);
        }
        summary(f, r, ci, NULL);
        fprintf(f, "\n");
    }
}

void bench_write_csv_split(FILE *f, const cutune_bench_result *r)
{
    char k[64];
    fprintf(f, "convention,recording,kernel,gpu,budget,searcher,score,chosen,chosen_score\n");
    for (size_t ci = 0; ci < r->nconv; ci++)
        for (size_t ri = 0; ri < r->nrec; ri++) {
            kernel_of(r->rec[ri].name, k, sizeof k);
            for (size_t w = 0; w <= r->nbudgets; w++) {
                long c = chosen_without(r, ci, ri, w);
                for (size_t si = 0; si < r->nsearchers; si++) {
                    fprintf(f, "%s,", cutune_bench_convention_name(r->conv[ci]));
                    cutune_csv_text(f, r->rec[ri].name, 0);
                    fputc(',', f);
                    cutune_csv_text(f, k, 0);
                    fputc(',', f);
                    cutune_csv_text(f, gpu_of(r->rec[ri].name), 0);
                    if (w < r->nbudgets)
                        fprintf(f, ",%zu,", r->budgets[w]);
                    else
                        fprintf(f, ",p_evals,");
                    cutune_csv_text(f, r->searchers[si], 0);
                    fprintf(f, ",%.4f,", score(r, ci, ri, si, w));
                    if (c >= 0) {
                        cutune_csv_text(f, r->searchers[c], 0);
                        fprintf(f, ",%.4f\n", score(r, ci, ri, (size_t)c, w));
                    } else {
                        fprintf(f, ",,\n");
                    }
                }
            }
        }
}
