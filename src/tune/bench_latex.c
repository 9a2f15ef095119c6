/* results.tex: the bench tables as a LaTeX tabular for a paper (booktabs), one per
 * convention: a row per recording and searcher, the mean fraction of the optimum at each
 * budget and P over evaluations; the manifest's identity in a comment and the caption, so
 * that a printed table names the experiment that regenerates it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_internal.h"
#include "cutune/bench.h"

/* text with LaTeX's special characters escaped */
static void tex_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '\\': fputs("\\textbackslash{}", f); break;
        case '~': fputs("\\textasciitilde{}", f); break;
        case '^': fputs("\\textasciicircum{}", f); break;
        case '&':
        case '%':
        case '$':
        case '#':
        case '_':
        case '{':
        case '}':
            fputc('\\', f);
            fputc(c, f);
            break;
        default: fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
        }
    }
}

static void write_tex(FILE *f, const cutune_bench_result *r)
{
    fprintf(f, "%% cutune bench results (needs \\usepackage{booktabs})\n");
    if (r->identity[0])
        fprintf(f, "%% manifest %s: results.json holds it; cutune bench --reproduce results.json\n",
                r->identity);
    for (size_t ci = 0; ci < r->nconv; ci++) {
        const char *conv = cutune_bench_convention_name(r->conv[ci]);
        fprintf(f, "\\begin{table}\n\\centering\n\\begin{tabular}{ll");
        for (size_t bi = 0; bi < r->nbudgets; bi++)
            fputc('r', f);
        fprintf(f, "r}\n\\toprule\nrecording & searcher");
        for (size_t bi = 0; bi < r->nbudgets; bi++)
            fprintf(f, " & %zu", r->budgets[bi]);
        fprintf(f, " & $P$ \\\\\n\\midrule\n");
        for (size_t ri = 0; ri < r->nrec; ri++) {
            for (size_t si = 0; si < r->nsearchers; si++) {
                if (si == 0)
                    tex_text(f, r->rec[ri].name);
                fputs(" & ", f);
                tex_text(f, r->searchers[si]);
                for (size_t bi = 0; bi < r->nbudgets; bi++)
                    fprintf(f, " & %.3f", cutune_bench_result_cell(r, ci, ri, si, bi)->mean);
                double p = r->p_evals[(ci * r->nrec + ri) * r->nsearchers + si];
                if (isfinite(p))
                    fprintf(f, " & %.3f \\\\\n", p);
                else
                    fprintf(f, " & -- \\\\\n");
            }
            if (ri + 1 < r->nrec)
                fprintf(f, "\\midrule\n");
        }
        fprintf(f,
                "\\bottomrule\n\\end{tabular}\n\\caption{Mean fraction of the optimum "
                "($t_\\mathrm{opt} / t_\\mathrm{best}$) over %zu seeds at each budget "
                "(evaluations), and the score $P$ over evaluations; %s convention.",
                r->nseeds, conv);
        if (r->identity[0])
            fprintf(f, " cutune manifest \\texttt{%s}.", r->identity);
        fprintf(f, "}\n\\end{table}\n");
    }
}

int cutune_bench_write_latex(const cutune_bench_result *r, const char *dir, char *err,
                             size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/results.tex", dir);
    cutune_outfile *o = NULL;
    int rc = cutune_outfile_open(path, 0, 0644, &o, err, errlen);
    if (rc < 0)
        return rc;
    FILE *f = cutune_outfile_stream(o);
    if (!f) {
        cutune_outfile_abort(o);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    }
    write_tex(f, r);
    return bench_close_out(o, err, errlen); /* with the set of cutune_bench_write */
}
