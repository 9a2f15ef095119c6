/* `cutune header --sizes=LIST -o FILE.h KERNEL`: a header with a dispatch table, one entry
 * per shape (the database's best there, each shape tuned first only where the database
 * holds fewer measurements than the budget, as `cutune header` does for one), and a
 * static inline lookup returning the entry of the nearest tuned shape (docs/shapes.md). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cutune/mpi.h"
#include "commands.h"
#include "shapes.h"

typedef struct entry {
    cli_shape *shape;
    cli_target t;
    long id; /* the configuration in t's space */
    double time_ms;
    size_t measured;
    cutune_db_key key; /* its rows' key: the GPU (or recording) it was tuned on */
} entry;

/* An identifier from text: letters, digits and '_' kept, anything else '_'. */
static void ident(FILE *f, const char *s, int upper)
{
    if (isdigit((unsigned char)*s))
        fputc('_', f);
    for (; *s; s++)
        fputc(isalnum((unsigned char)*s) ? (upper ? toupper((unsigned char)*s) : *s) : '_', f);
}

static const char *ctype_of(const cutune_param *p)
{
    int real = 0;
    for (size_t v = 0; v < p->nvalues; v++) {
        if (p->values[v].type == CUTUNE_VALUE_STRING)
            return "const char *";
        real |= p->values[v].type == CUTUNE_VALUE_REAL;
    }
    return real ? "double" : "long";
}

static void value_c(FILE *f, const cutune_param *p, const cutune_value *v)
{
    char t[256];
    if (v->type == CUTUNE_VALUE_STRING) {
        /* a C string literal of the whole value: quotes, backslashes and control
         * characters escaped */
        fputc('"', f);
        for (const char *c = v->s; *c; c++) {
            if (*c == '"' || *c == '\\')
                fprintf(f, "\\%c", *c);
            else if ((unsigned char)*c < 0x20)
                fprintf(f, "\\%03o", (unsigned char)*c);
            else
                fputc(*c, f);
        }
        fputc('"', f);
        return;
    }
    cutune_value_format(v, t, sizeof t);
    if (strcmp(ctype_of(p), "double") == 0 && !strpbrk(t, ".eE"))
        fprintf(f, "%s.0", t);
    else
        fprintf(f, "%s", t);
}

/* A size as a C constant: its value, not its text ("01000" would be octal in C). */
static void size_c(FILE *f, double v, int real)
{
    if (real)
        fprintf(f, "%.17g%s", v, v == floor(v) && fabs(v) < 1e16 ? ".0" : "");
    else
        fprintf(f, "%.0f", v);
}

/* Names the lookup function would clash with: its locals (which end in '_') and the
 * entry's time_ms; and names no struct member or parameter may have (keywords of C or
 * C++, reserved names). */
static int dispatch_names_ok(const cli_shape *s0, char *err, size_t errlen)
{
    static const char *const taken[] = {"n_", "i_", "best_", "bd_", "t_", "d_", "l_", "time_ms"};
    for (size_t k = 0; k < s0->n; k++) {
        const char *why = cutune_export_header_name_reserved(s0->names[k]);
        if (why)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "--sizes: a size named %s, %s: the dispatch table's entries and "
                              "lookup cannot hold it",
                              s0->names[k], why);
        for (size_t j = 0; j < sizeof taken / sizeof taken[0]; j++)
            if (strcmp(s0->names[k], taken[j]) == 0)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "--sizes: a size named %s: the dispatch table's lookup uses "
                                  "that name itself",
                                  s0->names[k]);
    }
    return 0;
}

static int write_header(const char *path, const char *kname, entry *E, size_t n, size_t dflt,
                        const cli_shape *dshape, long common_id, double common_ms, char *err,
                        size_t errlen)
{
    cutune_outfile *o = NULL;
    int rc = cutune_outfile_open(path, 0, 0644, &o, err, errlen);
    if (rc < 0)
        return rc;
    FILE *f = cutune_outfile_stream(o);
    if (!f) {
        cutune_outfile_abort(o);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    const cutune_space *sp = E[0].t.space;
    size_t np = cutune_space_nparams(sp);
    const cli_shape *s0 = E[0].shape;
    int real_sizes = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < s0->n; k++)
            real_sizes |= E[i].shape->values[k] != floor(E[i].shape->values[k]);
    const char *st = real_sizes ? "double" : "long";
    /* under replay each shape's key names its own recording, and shapes may come from rows
     * of different GPUs: one GPU named only where every shape's is the same */
    int same_gpu = 1;
    for (size_t i = 1; i < n; i++)
        same_gpu &= strcmp(E[i].key.gpu.fingerprint, E[0].key.gpu.fingerprint) == 0;
    if (same_gpu) {
        fprintf(f, "/* Dispatch table of %s over %zu shapes, tuned by cutune %s on %s.\n", kname, n,
                CUTUNE_VERSION, E[0].key.gpu.fingerprint);
    } else {
        fprintf(f, "/* Dispatch table of %s over %zu shapes, tuned by cutune %s, each shape on\n",
                kname, n, CUTUNE_VERSION);
        for (size_t i = 0; i < n; i++)
            fprintf(f, " *   %s: %s\n", E[i].shape->label, E[i].key.gpu.fingerprint);
    }
    fprintf(f, " * ");
    ident(f, kname, 0);
    fprintf(f, "_tuned_lookup(");
    for (size_t k = 0; k < s0->n; k++)
        fprintf(f, "%s%s", k ? ", " : "", s0->names[k]);
    fprintf(f, ") returns the entry of the nearest tuned shape:\n"
               " * an exact match first, else the least sum over the sizes of\n"
               " * (log2 size - log2 entry's size)^2, ties to the earlier entry (sizes > 0).\n");
    if (common_id >= 0) {
        fprintf(f,
                " * The _DEFAULT_ macros are the common mode's one configuration for all %zu\n"
                " * shapes (geometric mean of its times %.6g ms).\n",
                n, common_ms);
    } else {
        fprintf(f, " * The _DEFAULT_ macros are the entry it returns at the spec's sizes (");
        for (size_t k = 0; k < dshape->n; k++)
            fprintf(f, "%s%s=%s", k ? ", " : "", dshape->names[k], dshape->texts[k]);
        fprintf(f, ").\n");
    }
    fprintf(f, " * Generated file: run cutune header again rather than edit it. */\n");
    fprintf(f, "#ifndef CUTUNE_TUNED_");
    ident(f, kname, 1);
    fprintf(f, "_DISPATCH_H\n#define CUTUNE_TUNED_");
    ident(f, kname, 1);
    fprintf(f, "_DISPATCH_H\n\n#include <stddef.h>\n\n");
    cutune_value *v = calloc(np + cutune_space_nconstants(sp) + 1, sizeof *v);
    if (!v) {
        cutune_outfile_abort(o);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    if (common_id >= 0)
        cutune_space_values(sp, (size_t)common_id, v);
    else
        cutune_space_values(E[dflt].t.space, (size_t)E[dflt].id, v);
    for (size_t p = 0; p < np; p++) {
        const cutune_param *par = cutune_space_param(sp, p);
        fprintf(f, "#define ");
        ident(f, kname, 1);
        fprintf(f, "_TUNED_DEFAULT_%s ", par->name);
        value_c(f, par, &v[p]);
        fprintf(f, "\n");
    }
    fprintf(f, "\ntypedef struct ");
    ident(f, kname, 0);
    fprintf(f, "_tuned_entry {\n");
    for (size_t k = 0; k < s0->n; k++)
        fprintf(f, "    %s %s; /* size */\n", st, s0->names[k]);
    for (size_t p = 0; p < np; p++) {
        const cutune_param *par = cutune_space_param(sp, p);
        fprintf(f, "    %s %s;\n", ctype_of(par), par->name);
    }
    fprintf(f, "    double time_ms; /* as measured */\n} ");
    ident(f, kname, 0);
    fprintf(f, "_tuned_entry;\n\n");
    /* the table inside a function: an unused static table would warn (-Wunused) */
    fprintf(f, "static inline const ");
    ident(f, kname, 0);
    fprintf(f, "_tuned_entry *");
    ident(f, kname, 0);
    fprintf(f, "_tuned_table(size_t *n)\n{\n    static const ");
    ident(f, kname, 0);
    fprintf(f, "_tuned_entry table[%zu] = {\n", n);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "        {");
        for (size_t k = 0; k < s0->n; k++) {
            fprintf(f, "%s", k ? ", " : "");
            size_c(f, E[i].shape->values[k], real_sizes);
        }
        cutune_space_values(E[i].t.space, (size_t)E[i].id, v);
        for (size_t p = 0; p < np; p++) {
            fprintf(f, ", ");
            value_c(f, cutune_space_param(sp, p), &v[p]);
        }
        fprintf(f, ", %.6g},\n", E[i].time_ms);
    }
    free(v);
    fprintf(f, "    };\n    *n = %zu;\n    return table;\n}\n\n", n);
    /* the same code as cli_shape_dlog2 (shapes_parse.c), which cutune's own choices use */
    fprintf(f, "/* log2 a - log2 b without libm: x = m 2^e, m in [1, 2), the exponents' difference "
               "exact,\n * log2 m = 2 atanh((m-1)/(m+1)) / ln 2 */\nstatic inline double ");
    ident(f, kname, 0);
    fprintf(f, "_tuned_dlog2(double a, double b)\n{\n"
               "    double e[2] = {0, 0}, s[2] = {0, 0};\n"
               "    int j, k;\n"
               "    for (j = 0; j < 2; j++) {\n"
               "        double x = j ? b : a, y, y2, t;\n"
               "        if (!(x > 0))\n            return j ? 2000.0 : -2000.0;\n"
               "        while (x >= 2.0) {\n            x /= 2.0;\n            e[j] += 1.0;\n"
               "        }\n"
               "        while (x < 1.0) {\n            x *= 2.0;\n            e[j] -= 1.0;\n"
               "        }\n"
               "        y = (x - 1.0) / (x + 1.0);\n        y2 = y * y;\n        t = y;\n"
               "        for (k = 1; k < 41; k += 2) {\n            s[j] += t / k;\n"
               "            t *= y2;\n        }\n    }\n"
               "    return (e[0] - e[1]) + 2.0 * (s[0] - s[1]) / 0.69314718055994530942;\n}\n\n");
    fprintf(f, "static inline const ");
    ident(f, kname, 0);
    fprintf(f, "_tuned_entry *");
    ident(f, kname, 0);
    fprintf(f, "_tuned_lookup(");
    for (size_t k = 0; k < s0->n; k++)
        fprintf(f, "%s%s %s", k ? ", " : "", st, s0->names[k]);
    /* the locals end in '_': the function's parameters are the sizes' names (n, i, t ...) */
    fprintf(f, ")\n{\n    size_t n_, i_, best_ = 0;\n    double bd_ = -1.0;\n    const ");
    ident(f, kname, 0);
    fprintf(f, "_tuned_entry *t_ = ");
    ident(f, kname, 0);
    fprintf(f, "_tuned_table(&n_);\n    for (i_ = 0; i_ < n_; i_++)\n        if (");
    for (size_t k = 0; k < s0->n; k++)
        fprintf(f, "%st_[i_].%s == %s", k ? " && " : "", s0->names[k], s0->names[k]);
    fprintf(f, ")\n            return &t_[i_];\n    for (i_ = 0; i_ < n_; i_++) {\n"
               "        double d_ = 0.0, l_;\n");
    for (size_t k = 0; k < s0->n; k++) {
        fprintf(f, "        l_ = ");
        ident(f, kname, 0);
        fprintf(f, "_tuned_dlog2((double)%s, (double)t_[i_].%s);\n        d_ += l_ * l_;\n",
                s0->names[k], s0->names[k]);
    }
    fprintf(f,
            "        if (bd_ < 0.0 || d_ < bd_) {\n            bd_ = d_;\n            best_ = i_;\n"
            "        }\n    }\n    return &t_[best_];\n}\n\n#endif\n");
    return cutune_outfile_commit(o, NULL, err, errlen);
}

/* The common run's configuration (its --output's common.config) as an id of sp. */
static int common_config(const char *path, const cutune_space *sp, long *id, double *ms, char *err,
                         size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    char why[1024];
    int rc = cutune_read_file(path, &buf, &len, why, sizeof why);
    if (rc < 0) /* why names header's own temporary, which the user never gave */
        return cutune_err(err, errlen, rc,
                          "--shape-mode=common: the common run's choice could not be read back");
    cJSON *root = cJSON_ParseWithLength(buf, len);
    free(buf);
    cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "common");
    cJSON *cfg = cJSON_GetObjectItemCaseSensitive(c, "config");
    cJSON *g = cJSON_GetObjectItemCaseSensitive(c, "geomean_ms");
    char *text = cJSON_IsObject(cfg) ? cJSON_PrintUnformatted(cfg) : NULL;
    *id = text ? (long)cutune_db_config_id(sp, text) : -1;
    *ms = cJSON_IsNumber(g) ? g->valuedouble : NAN;
    free(text);
    cJSON_Delete(root);
    if (*id < 0) /* path is header's own temporary: not named */
        return cutune_err(
            err, errlen, CUTUNE_EMISMATCH,
            "--shape-mode=common: the common run chose no configuration of the space");
    return 0;
}

/* Whether a is option opt, in either form ("--opt" or "--opt=VALUE"). */
static int names_opt(const char *a, const char *opt)
{
    size_t n = strlen(opt);
    return strncmp(a, opt, n) == 0 && (a[n] == '\0' || a[n] == '=');
}

/* Whether argv[*i] is option opt with a value, as getopt takes it: "--opt=VALUE", or
 * "--opt VALUE" (then *sep = 1: the value is the next argument; last is KERNEL's index). */
static int has_opt(char **argv, int i, int last, const char *opt, const char **v, int *sep)
{
    const char *a = argv[i];
    size_t n = strlen(opt);
    *sep = 0;
    if (strncmp(a, opt, n) == 0 && a[n] == '=') {
        *v = a + n + 1;
        return 1;
    }
    if (strcmp(a, opt) == 0 && i + 1 < last) {
        *v = argv[i + 1];
        *sep = 1;
        return 1;
    }
    return 0;
}

int cli_header_dispatch(int argc, char **argv)
{
    static cli_shapes shapes;
    static entry E[SHAPES_MAX];
    char err[1024] = "", dbpath[4096], tmpdir[4200] = "";
    const char *out = NULL, *sizes = NULL, *db = NULL, *evaluator = NULL, *devices = NULL, *v;
    const char *shape_mode = NULL;
    int no_db = 0, status = 2, rc;
    size_t n = 0;
    cutune_db *dbh = NULL;
    cli_space_opts so = {0};
    char **pass = calloc((size_t)argc + 4 * SHAPE_MAX_SIZES + 8, sizeof *pass);
    int npass = 0;
    if (!pass) {
        fprintf(stderr, "%s: out of memory\n", cli_progname);
        return 1;
    }
    int launched = cutune_mpi_launched(); /* each process would tune and write it all */
    if (launched > 1) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--sizes: a dispatch table is not spread over MPI ranks: each of the %d "
                   "processes the launcher started would tune every shape and write the header "
                   "itself (run it as one process)",
                   launched);
        goto fail;
    }
    pass[npass++] = argv[0];
    int last = argc - 1, sep;
    for (int i = 1; i < last; i++) {
        const char *a = argv[i];
#define HAS(opt) has_opt(argv, i, last, opt, &v, &sep)
        if (strcmp(a, "-o") == 0 && i + 1 < last)
            out = argv[++i];
        else if (HAS("--header"))
            out = v, i += sep;
        else if (HAS("--sizes"))
            sizes = v, i += sep;
        else if (HAS("--shape-mode"))
            shape_mode = v, i += sep;
        else if (names_opt(a, "--shape-warm")) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--sizes: not with %s (each shape is tuned on its own, from what "
                       "the database holds: no shape warm-starts another)",
                       a);
            goto fail;
        } else if (names_opt(a, "--size") || names_opt(a, "--journal") ||
                   names_opt(a, "--validate-sizes")) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--sizes: not with %s (each shape's sizes come from --sizes, its "
                       "journal is its own)",
                       a);
            goto fail;
        } else {
            if (HAS("--db"))
                db = v;
            else if (strcmp(a, "--no-db") == 0)
                no_db = 1;
            else if (HAS("--evaluator"))
                evaluator = v;
            else if (HAS("--devices"))
                devices = v;
            else
                sep = 0; /* passed through as given; a value in the next argument follows it */
            pass[npass++] = argv[i];
            if (sep)
                pass[npass++] = argv[++i];
        }
#undef HAS
    }
    const char *kernel = argc > 1 ? argv[argc - 1] : NULL;
    if (!out || !sizes || !kernel || kernel[0] == '-') {
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--sizes=LIST: expected -o FILE.h and one KERNEL last (try --help)");
        goto fail;
    }
    if (no_db) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--sizes: the table is read from the tuning database (not with "
                   "--no-db)");
        goto fail;
    }
    if (evaluator && strncmp(evaluator, "replay:", 7) == 0) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--evaluator=%s with --sizes: each shape replays the recording at its sizes "
                   "(the spec's \"recordings\"); give --evaluator=replay",
                   evaluator);
        goto fail;
    }
    if (shape_mode && strcmp(shape_mode, "each") && strcmp(shape_mode, "common")) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL, "--shape-mode=%s: expected common or each",
                   shape_mode);
        goto fail;
    }
    int common = shape_mode && strcmp(shape_mode, "common") == 0;
    if ((rc = cli_shapes_parse("--sizes", sizes, &shapes, err, sizeof err)) < 0)
        goto fail;
    if ((rc = dispatch_names_ok(&shapes.s[0], err, sizeof err)) < 0)
        goto fail;
    /* the tune options given are ones a --sizes run takes: checked before any shape runs,
     * as `cutune --sizes=LIST` would check them (--retune is header's own) */
    {
        static char sz[4200];
        static cli_tune_options to;
        char **check = calloc((size_t)npass + 3, sizeof *check);
        int m = 0;
        if (!check) {
            cutune_err(err, sizeof err, CUTUNE_ENOMEM, "out of memory");
            goto fail;
        }
        for (int i = 0; i < npass; i++)
            if (strcmp(pass[i], "--retune") != 0)
                check[m++] = pass[i];
        snprintf(sz, sizeof sz, "--sizes=%s", sizes);
        check[m++] = sz;
        check[m++] = (char *)kernel;
        int parsed = cli_tune_parse_options(m, check, &to);
        free(check);
        if (parsed >= 0) { /* said on stderr */
            status = parsed ? parsed : 2;
            goto out;
        }
        if (cli_tune_shapes_refuse(&to, err, sizeof err) < 0)
            goto fail;
    }
    if ((rc = cli_db_path(db, 0, dbpath, sizeof dbpath, err, sizeof err)) < 0)
        goto fail;
    if (!dbpath[0]) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "$CUTUNE_DB=none: header --sizes reads the table from a database");
        goto fail;
    }
    /* every shape loads (bad sizes refused) before anything is tuned */
    n = shapes.n;
    for (size_t i = 0; i < n; i++) {
        E[i].shape = &shapes.s[i];
        E[i].id = -1;
        if ((rc = cli_shape_target(kernel, &shapes.s[i], &so, "none", NULL, &E[i].t, NULL, 0, err,
                                   sizeof err)) < 0 ||
            (rc = cli_refuse_onto_input("--header", out, &E[i].t, dbpath, err, sizeof err)) < 0)
            goto fail;
    }
    /* -o a folder, a link, a read-only folder: refused before any shape is tuned, not
     * once all are (exit 1 after the database had been filled) */
    if ((rc = cli_check_writable("header", out, err, sizeof err)) < 0)
        goto fail;
    /* each shape's key, as its header would look it up: a shape with no recording at its
     * sizes (no GPU) is refused in one line naming it before anything is tuned, not after
     * the shapes before it were */
    for (size_t i = 0; i < n; i++) {
        char why[1024];
        if ((rc = cli_db_target_key(&E[i].t, evaluator, devices, &E[i].key, why, sizeof why)) < 0) {
            cutune_err(err, sizeof err, rc, "shape %s: %s", shapes.s[i].label, why);
            goto fail;
        }
    }
    /* each shape: `cutune header --size ... KERNEL` writing nothing, which reads the database
     * and tunes only what it lacks (replaying the recording at the shape's sizes without a
     * GPU); its messages name -o and the shape, never a file of header's own */
    static char sizeargs[SHAPES_MAX][SHAPE_MAX_SIZES][200], outs[4300], shown[SHAPES_MAX][4400];
    snprintf(outs, sizeof outs, "--header=%s", out);
    for (size_t i = 0; i < n; i++) {
        int m = npass;
        for (size_t k = 0; k < shapes.s[i].n; k++) {
            snprintf(sizeargs[i][k], sizeof sizeargs[i][k], "--size=%s=%s", shapes.s[i].names[k],
                     shapes.s[i].texts[k]);
            pass[m++] = sizeargs[i][k];
        }
        pass[m++] = outs;
        pass[m++] = (char *)kernel;
        pass[m] = NULL;
        snprintf(shown[i], sizeof shown[i], "%s: shape %s", out, shapes.s[i].label);
        fprintf(stderr, "%s: shape %s (%zu of %zu)\n", cli_progname, shapes.s[i].label, i + 1, n);
        if ((status = cli_header_shape(m, pass, shown[i])) != 0) {
            snprintf(err, sizeof err, "shape %s: cutune header failed (exit %d); no header written",
                     shapes.s[i].label, status);
            goto fail_status;
        }
    }
    /* --shape-mode=common: the default entry is the one configuration for all shapes, from a
     * common run (answering from the database what it holds) */
    long common_id = -1;
    double common_ms = NAN;
    if (common) {
        static char sz[4200], mode[] = "--shape-mode=common", cout[4300];
        snprintf(tmpdir, sizeof tmpdir, "%s.shapes-XXXXXX", out);
        if (!mkdtemp(tmpdir)) {
            cutune_err(err, sizeof err, CUTUNE_EIO, "-o %s: cannot write beside it: %s", out,
                       strerror(errno));
            tmpdir[0] = '\0';
            goto fail;
        }
        snprintf(sz, sizeof sz, "--sizes=%s", sizes);
        snprintf(cout, sizeof cout, "--output=%s/common.json", tmpdir);
        int m = 0; /* the options given, less header's own --retune */
        for (int i = 0; i < npass; i++)
            if (strcmp(pass[i], "--retune") != 0)
                pass[m++] = pass[i];
        pass[m++] = sz;
        pass[m++] = mode;
        pass[m++] = cout;
        pass[m++] = (char *)kernel;
        pass[m] = NULL;
        fprintf(stderr, "%s: one configuration for all %zu shapes (--shape-mode=common)\n",
                cli_progname, n);
        if ((status = cutune_cmd_tune(m, pass)) != 0) {
            snprintf(err, sizeof err, "the common run failed (exit %d); no header written", status);
            goto fail_status;
        }
        char path[4300];
        snprintf(path, sizeof path, "%s/common.json", tmpdir);
        if ((rc = common_config(path, E[0].t.space, &common_id, &common_ms, err, sizeof err)) < 0) {
            status = 1;
            goto fail_status;
        }
    }
    status = 1;
    if ((rc = cutune_db_open(dbpath, CUTUNE_DB_READONLY, &dbh, err, sizeof err)) < 0)
        goto fail;
    for (size_t i = 0; i < n; i++) {
        cutune_db_row row = {0};
        if ((rc = cutune_db_best(dbh, &E[i].key, &row, &E[i].measured, err, sizeof err)) < 0)
            goto fail;
        if (rc == 0) {
            cutune_err(err, sizeof err, CUTUNE_ENOTFOUND, "shape %s: no correct measurement in %s",
                       shapes.s[i].label, dbpath);
            goto fail;
        }
        E[i].id = (long)cutune_db_config_id(E[i].t.space, row.config);
        E[i].time_ms = row.time_ms;
        cutune_db_row_clear(&row);
        if (E[i].id < 0) {
            cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                       "shape %s: the database's best is not in the space", shapes.s[i].label);
            goto fail;
        }
    }
    /* the default entry: the one the lookup returns at the spec's own sizes */
    static cli_shape dshape;
    dshape = shapes.s[0];
    for (size_t k = 0; k < dshape.n; k++) {
        int c = -1;
        for (size_t q = 0; q < E[0].t.spec->nsizes; q++)
            if (strcmp(cutune_space_constant_name(E[0].t.spec->space, q), dshape.names[k]) == 0)
                c = (int)q;
        cutune_value dv = {0};
        cutune_spec *plain = NULL;
        if (c >= 0 && cutune_spec_load(E[0].t.spec->path, NULL, 0, &plain, NULL, 0) == 0) {
            dv = cutune_space_constant_value(plain->space, (size_t)c);
            cutune_spec_free(plain);
        }
        dshape.values[k] = dv.type == CUTUNE_VALUE_INT ? (double)dv.i : dv.r;
        cutune_value_format(&dv, dshape.texts[k], sizeof dshape.texts[k]);
    }
    static cli_shape table[SHAPES_MAX];
    for (size_t i = 0; i < n; i++)
        table[i] = shapes.s[i];
    long dflt = cli_shape_nearest(&dshape, table, n);
    if ((rc = write_header(out, E[0].t.spec->name, E, n, (size_t)dflt, &dshape, common_id,
                           common_ms, err, sizeof err)) < 0)
        goto fail;
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%s: %s: shape %s: %.6g ms (best of %zu measurements)\n", cli_progname, out,
                shapes.s[i].label, E[i].time_ms, E[i].measured);
    status = 0;
    goto out;
fail:
    fprintf(stderr, "%s: %s\n", cli_progname, err);
    goto out;
fail_status:
    fprintf(stderr, "%s: %s\n", cli_progname, err);
out:
    if (tmpdir[0]) {
        char p[4300];
        snprintf(p, sizeof p, "%s/common.json", tmpdir);
        unlink(p);
        rmdir(tmpdir);
    }
    cutune_db_close(dbh);
    for (size_t i = 0; i < n; i++)
        cli_target_free(&E[i].t);
    free(pass);
    return status;
}
