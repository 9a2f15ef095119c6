/* The Pareto front of a multi-objective run and its exports (include/cutune/front.h):
 * the values come from the objective's parts, the sorting and the hypervolume from
 * src/search/nsga2.c. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cutune/front.h"
#include "cutune/pareto.h"
#include "io_internal.h"
#include "src/common/gnuplot.h"

void cutune_front_free(cutune_front *f)
{
    if (!f)
        return;
    free(f->hist);
    free(f->v);
    free(f->f);
    free(f->rank);
    memset(f, 0, sizeof *f);
}

int cutune_front_compute(const cutune_objective *o, const cutune_history *hist, cutune_front *out,
                         char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t k = cutune_objective_count(o), n = hist->n ? hist->n : 1;
    if (k > CUTUNE_FRONT_MAX_OBJECTIVES)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "more than %d objectives",
                          CUTUNE_FRONT_MAX_OBJECTIVES);
    out->k = k;
    out->hv = NAN;
    out->hist = malloc(n * sizeof *out->hist);
    out->v = malloc(n * k * sizeof *out->v);
    out->f = malloc(n * k * sizeof *out->f);
    out->rank = malloc(n * sizeof *out->rank);
    if (!out->hist || !out->v || !out->f || !out->rank) {
        cutune_front_free(out);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < hist->n; i++) {
        int all = 1;
        double *v = out->v + out->n * k, *f = out->f + out->n * k;
        for (size_t j = 0; j < k && all; j++) {
            const cutune_objective *p = cutune_objective_part(o, j);
            int feasible;
            cutune_objective_eval(p, &hist->e[i], &v[j], &feasible);
            all = feasible;
            f[j] = cutune_objective_maximize(p) ? -v[j] : v[j];
        }
        if (all)
            out->hist[out->n++] = (long)i;
    }
    if (out->n && cutune_pareto_sort(out->f, out->n, k, out->rank) == 0) {
        cutune_front_free(out);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < out->n; i++)
        out->nfront += out->rank[i] == 0;
    for (size_t j = 0; j < k && out->n; j++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < out->n; i++) {
            lo = fmin(lo, out->f[i * k + j]);
            hi = fmax(hi, out->f[i * k + j]);
        }
        out->ref[j] = hi > lo ? hi + 0.1 * (hi - lo) : hi + (hi != 0 ? 0.1 * fabs(hi) : 1.0);
    }
    if (k == 2 && out->n) {
        out->hv = cutune_pareto_hv2(out->f, out->n, out->ref);
        if (out->hv < 0) {
            cutune_front_free(out);
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        }
    }
    return 0;
}

/* PREFIX + suffix into buf; CUTUNE_EINVAL when it does not fit. */
static int path_of(char *buf, size_t len, const char *prefix, const char *suffix, char *err,
                   size_t errlen)
{
    if ((size_t)snprintf(buf, len, "%s%s", prefix, suffix) >= len)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--front=%s: path too long", prefix);
    return 0;
}

static int write_front_json(const char *path, const cutune_space *s, const cutune_objective *o,
                            const cutune_front *f, const cutune_history *h, char *err,
                            size_t errlen)
{
    cJSON *doc = cJSON_CreateObject(), *objs = NULL, *ref = NULL, *front = NULL;
    int bad = !doc;
    bad = bad || cutune_io_add(doc, "objectives", objs = cJSON_CreateArray()) < 0;
    for (size_t j = 0; !bad && j < f->k; j++) {
        const cutune_objective *p = cutune_objective_part(o, j);
        cJSON *x = cJSON_CreateObject();
        bad = !x || !cJSON_AddItemToArray(objs, x);
        bad = bad || cutune_io_add(x, "text", cJSON_CreateString(cutune_objective_text(p))) < 0;
        bad = bad || cutune_io_add(x, "expr", cJSON_CreateString(cutune_objective_expr(p))) < 0;
        bad = bad ||
              cutune_io_add(x, "direction",
                            cJSON_CreateString(cutune_objective_maximize(p) ? "max" : "min")) < 0;
    }
    /* the reference point as the user reads the values (a maximised one negated back) */
    bad = bad || cutune_io_add(doc, "reference_point", ref = cJSON_CreateArray()) < 0;
    for (size_t j = 0; !bad && j < f->k; j++) {
        double r = cutune_objective_maximize(cutune_objective_part(o, j)) ? -f->ref[j] : f->ref[j];
        cJSON *x = cutune_io_number_json(r);
        bad = !x || !cJSON_AddItemToArray(ref, x);
    }
    bad = bad || cutune_io_add(doc, "reference_rule",
                               cJSON_CreateString("per objective, the worst feasible value plus "
                                                  "10% of the feasible range")) < 0;
    bad = bad || cutune_io_add(doc, "hypervolume", cutune_io_number_json(f->hv)) < 0;
    bad = bad || cutune_io_add(doc, "feasible", cJSON_CreateNumber((double)f->n)) < 0;
    bad = bad || cutune_io_add(doc, "front", front = cJSON_CreateArray()) < 0;
    for (size_t i = 0; !bad && i < f->n; i++) {
        if (f->rank[i] != 0)
            continue;
        const cutune_history_entry *e = &h->e[f->hist[i]];
        cJSON *x = cJSON_CreateObject(), *vals = NULL;
        bad = !x || !cJSON_AddItemToArray(front, x);
        bad = bad || cutune_io_add(x, "id", cJSON_CreateNumber((double)e->id)) < 0;
        bad = bad || cutune_io_add(x, "evaluation", cJSON_CreateNumber((double)f->hist[i])) < 0;
        bad = bad || cutune_io_add(x, "config", cutune_io_config_json(s, e->id)) < 0;
        bad = bad || cutune_io_add(x, "values", vals = cJSON_CreateObject()) < 0;
        for (size_t j = 0; !bad && j < f->k; j++)
            bad = cutune_io_add(vals, cutune_objective_text(cutune_objective_part(o, j)),
                                cutune_io_number_json(f->v[i * f->k + j])) < 0;
    }
    int rc = bad ? cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path)
                 : cutune_io_write_json(path, doc, 1, err, errlen);
    cJSON_Delete(doc);
    return rc;
}

static int write_front_csv(const char *path, const cutune_space *s, const cutune_objective *o,
                           const cutune_front *f, const cutune_history *h, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    size_t np = cutune_space_nparams(s);
    fputs("id", m);
    for (size_t p = 0; p < np; p++) {
        fputc(',', m);
        cutune_csv_text(m, cutune_space_param(s, p)->name, 0);
    }
    for (size_t j = 0; j < f->k; j++) {
        fputc(',', m);
        cutune_csv_text(m, cutune_objective_text(cutune_objective_part(o, j)), 0);
    }
    fputs(",rank\n", m);
    for (size_t i = 0; i < f->n; i++) {
        const cutune_history_entry *e = &h->e[f->hist[i]];
        const uint16_t *idx = cutune_space_config(s, e->id);
        fprintf(m, "%zu", e->id);
        for (size_t p = 0; p < np; p++) {
            fputc(',', m);
            cutune_csv_text(m, cutune_space_param(s, p)->texts[idx[p]], 0);
        }
        for (size_t j = 0; j < f->k; j++) {
            char num[64];
            cutune_io_format_real(f->v[i * f->k + j], num, sizeof num);
            fprintf(m, ",%s", num);
        }
        fprintf(m, ",%zu\n", f->rank[i]);
    }
    int rc = cutune_io_commit_memstream(&m, &buf, &len, path, err, errlen);
    free(buf);
    return rc;
}

/* A gnuplot script drawing PREFIX.svg from PREFIX.csv: every feasible evaluation, the
 * front joined as a staircase. Two objectives only. */
static int write_front_gp(const char *path, const char *prefix, const cutune_objective *o,
                          const cutune_front *f, size_t np, char *err, size_t errlen)
{
    const char *base = strrchr(prefix, '/');
    base = base ? base + 1 : prefix;
    if (strpbrk(base, "'\"\\\n"))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--front=%s: a quote in the name", prefix);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    fprintf(m, "# The Pareto front: gnuplot %s.gp (run in its folder) draws %s.svg\n", base, base);
    fprintf(m, "set terminal svg size 800,600\nset output '%s.svg'\n", base);
    fprintf(m, "set datafile separator ','\nset key top right\nset grid\n");
    for (int j = 0; j < 2; j++) {
        const char *t = cutune_objective_text(cutune_objective_part(o, (size_t)j));
        fprintf(m, "set %clabel \"", j ? 'y' : 'x');
        for (const char *c = t; *c; c++)
            if (*c != '"' && *c != '\\' && *c != '\n')
                fputc(*c, m);
        fputs("\"\n", m);
    }
    fprintf(m, "set title \"%zu feasible, %zu on the front; hypervolume %.6g\"\n", f->n, f->nfront,
            f->hv);
    /* the CSV's columns: id, the np parameters, the k values, the rank */
    size_t c1 = np + 2, c2 = np + 3, cr = np + 2 + f->k;
    fprintf(m,
            "plot '%s.csv' skip 1 using %zu:%zu with points pt 7 ps 0.5 lc rgb '#999999' "
            "title 'evaluated', \\\n"
            "     '%s.csv' skip 1 using (column(%zu) == 0 ? column(%zu) : 1/0):%zu with "
            "linespoints pt 7 ps 1 lc rgb '#d62728' title 'Pareto front'\n",
            base, c1, c2, base, cr, c1, c2);
    int rc = cutune_io_commit_memstream(&m, &buf, &len, path, err, errlen);
    free(buf);
    return rc;
}

/* Draw NAME.svg with gnuplot from NAME.gp in dir. gnuplot opens the image at its path and
 * fills it as it draws: one stopped (Ctrl-C reaches it too) or failed midway would leave it
 * cut short or empty, in place of the one an earlier run drew. It draws in a folder of its
 * own (dir/.NAME.svg.XXXXXX, the CSV linked in), and the image of a gnuplot that ended well
 * is fsync'd and renamed onto dir/NAME.svg; otherwise the folder goes and an earlier
 * NAME.svg stays as it was. */
static int run_gnuplot(const char *gp, int *plotted)
{
    char dir[4096], file[4096];
    snprintf(dir, sizeof dir, "%s", gp);
    char *slash = strrchr(dir, '/');
    snprintf(file, sizeof file, "%s", slash ? slash + 1 : gp);
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    if (strchr(dir, '\''))
        return 0;
    size_t fl = strlen(file);
    if (fl < 4 || strcmp(file + fl - 3, ".gp") != 0)
        return 0;
    char base[4096], tmp[8300], csv_link[12500], csv_target[4200], svg_tmp[12500], svg[8400];
    snprintf(base, sizeof base, "%.*s", (int)(fl - 3), file);
    if (snprintf(tmp, sizeof tmp, "%s/.%s.svg.XXXXXX", dir, base) >= (int)sizeof tmp ||
        !mkdtemp(tmp))
        return 0;
    snprintf(csv_link, sizeof csv_link, "%s/%s.csv", tmp, base);
    snprintf(csv_target, sizeof csv_target, "../%s.csv", base);
    snprintf(svg_tmp, sizeof svg_tmp, "%s/%s.svg", tmp, base);
    snprintf(svg, sizeof svg, "%s/%s.svg", dir, base);
    if (symlink(csv_target, csv_link) == 0) {
        char script[4200];
        snprintf(script, sizeof script, "../%s", file);
        int st = 0; /* not installed: the script is there to draw it later */
        int e = cutune_gnuplot_run(tmp, script, &st);
        struct stat sb;
        if (e == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && lstat(svg_tmp, &sb) == 0 &&
            S_ISREG(sb.st_mode)) {
            if (cutune_sync_rename(svg_tmp, svg) == 0) {
                *plotted = 1;
                int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (d >= 0) {
                    (void)fsync(d);
                    close(d);
                }
            }
        }
    }
    unlink(svg_tmp);
    unlink(csv_link);
    rmdir(tmp);
    return 0;
}

int cutune_front_write(const char *prefix, const cutune_space *s, const cutune_objective *o,
                       const cutune_front *f, const cutune_history *h, int *plotted, char *err,
                       size_t errlen)
{
    char p[4096];
    int rc;
    *plotted = 0;
    if ((rc = path_of(p, sizeof p, prefix, ".json", err, errlen)) < 0 ||
        (rc = write_front_json(p, s, o, f, h, err, errlen)) < 0)
        return rc;
    if ((rc = path_of(p, sizeof p, prefix, ".csv", err, errlen)) < 0 ||
        (rc = write_front_csv(p, s, o, f, h, err, errlen)) < 0)
        return rc;
    if (f->k != 2 || f->n == 0)
        return 0;
    if ((rc = path_of(p, sizeof p, prefix, ".gp", err, errlen)) < 0 ||
        (rc = write_front_gp(p, prefix, o, f, cutune_space_nparams(s), err, errlen)) < 0)
        return rc;
    return run_gnuplot(p, plotted);
}
