/*
 * How the kernel is launched and judged: "launch" (grid, block, shared memory), the
 * "reference" that checks its results (a kernel of the source or a builtin, sizes only),
 * the "tolerance" of that check, and "metrics", expressions over the configuration and
 * the measured time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/evaluator.h"

#include "spec_internal.h"
#include "src/common/metric_name.h"

static const double default_rtol = 1e-5;

/* Names the metrics see after the space's own symbols (slots nparams+nsizes, +1). */
const char *const spec_time_names[2] = {"time_ms", "time_s"};

/* ------------------------------------------------------------------ launch */

int spec_load_launch(loader *L, const cJSON *root, const cutune_symtab *syms)
{
    static const char *const fields[] = {"grid", "block", "shared_mem"};
    const cJSON *j = spec_member(root, "launch");
    cutune_spec *s = &L->impl->pub;
    if (!j)
        return spec_fail(L, CUTUNE_EINVAL, "launch", "missing (required)");
    int rc = spec_want_type(L, j, "launch", cJSON_IsObject(j), "an object");
    if (!rc)
        rc = spec_check_members(L, j, "launch", fields, 3);
    if (!rc)
        rc = spec_parse_dims(L, j, "launch", "grid", syms, s->grid);
    if (!rc)
        rc = spec_parse_dims(L, j, "launch", "block", syms, s->block);
    const cJSON *sm = spec_member(j, "shared_mem");
    if (!rc && sm)
        rc = spec_parse_expr(L, sm, "launch.shared_mem", syms, &s->shared_mem);
    return rc;
}

/* ------------------------------------------------------------------ reference, tolerance */

/* The reference is compiled with the sizes only: its geometry cannot read parameters. */
static int check_sizes_only(loader *L, const char *path, const cutune_expr *e)
{
    const cutune_space *sp = L->impl->pub.space;
    for (size_t p = 0; p < cutune_space_nparams(sp); p++)
        if (cutune_expr_uses(e, p))
            return spec_fail(L, CUTUNE_EINVAL, path,
                             "reads tunable parameter '%s'; the reference sees sizes only",
                             cutune_space_param(sp, p)->name);
    return 0;
}

int spec_load_reference(loader *L, const cJSON *root, const cutune_symtab *syms)
{
    static const char *const fields[] = {"kernel", "builtin", "grid", "block", "shared_mem"};
    const cJSON *j = spec_member(root, "reference");
    cutune_spec *s = &L->impl->pub;
    char path[PATH_LEN];
    const char *kernel, *builtin;
    if (!j)
        return 0;
    int rc = spec_want_type(L, j, "reference", cJSON_IsObject(j), "an object");
    if (!rc)
        rc = spec_check_members(L, j, "reference", fields, sizeof fields / sizeof fields[0]);
    if (!rc)
        rc = spec_string_member(L, j, "reference", "kernel", 0, &kernel);
    if (!rc)
        rc = spec_string_member(L, j, "reference", "builtin", 0, &builtin);
    if (rc)
        return rc;
    if (!!kernel == !!builtin)
        return spec_fail(L, CUTUNE_EINVAL, "reference", "give either 'kernel' or 'builtin', not %s",
                         kernel ? "both" : "neither");
    if (builtin) {
        for (size_t k = 2; k < 5; k++)
            if (spec_member(j, fields[k])) {
                spec_path_member(path, sizeof path, "reference", fields[k]);
                return spec_fail(L, CUTUNE_EINVAL, path, "a builtin reference takes no '%s'",
                                 fields[k]);
            }
        /* the CUDA evaluator has these two: another name loaded, replayed, and was refused
         * only on a GPU, without the line */
        if (strcmp(builtin, "cublas_sgemm") != 0 && strcmp(builtin, "cublas_gemm_abt") != 0)
            return spec_fail(L, CUTUNE_ENOTFOUND, "reference.builtin",
                             "'%s' is unknown (known: cublas_sgemm, cublas_gemm_abt)", builtin);
        s->ref_kind = CUTUNE_REF_BUILTIN;
        s->ref_name = spec_strdup(builtin);
        return s->ref_name ? 0 : spec_fail(L, CUTUNE_ENOMEM, "reference", "out of memory");
    }
    s->ref_kind = CUTUNE_REF_KERNEL;
    s->ref_name = spec_strdup(kernel);
    if (!s->ref_name)
        return spec_fail(L, CUTUNE_ENOMEM, "reference", "out of memory");
    if (!spec_is_ident(kernel) || !spec_source_has_word(s->source, kernel))
        return spec_fail(L, CUTUNE_ENOTFOUND, "reference.kernel", "kernel '%s' not found in %s",
                         kernel, s->source_path);
    rc = spec_parse_dims(L, j, "reference", "grid", syms, s->ref_grid);
    if (!rc)
        rc = spec_parse_dims(L, j, "reference", "block", syms, s->ref_block);
    for (size_t d = 0; d < 3 && !rc; d++) {
        spec_path_index(path, sizeof path, "reference.grid", d);
        rc = check_sizes_only(L, path, s->ref_grid[d]);
        spec_path_index(path, sizeof path, "reference.block", d);
        if (!rc)
            rc = check_sizes_only(L, path, s->ref_block[d]);
    }
    const cJSON *sm = spec_member(j, "shared_mem");
    if (!rc && sm) {
        rc = spec_parse_expr(L, sm, "reference.shared_mem", syms, &s->ref_shared_mem);
        if (!rc)
            rc = check_sizes_only(L, "reference.shared_mem", s->ref_shared_mem);
    }
    return rc;
}

int spec_load_tolerance(loader *L, const cJSON *root)
{
    static const char *const fields[] = {"rtol", "atol"};
    const cJSON *j = spec_member(root, "tolerance");
    cutune_spec *s = &L->impl->pub;
    char path[PATH_LEN];
    s->rtol = default_rtol;
    s->atol = INFINITY;
    /* integer outputs are counts, indices, keys: exact unless the spec says otherwise (a
     * relative error of 1e-5 would pass a histogram that lost increments) */
    size_t nout = 0, nint = 0;
    for (size_t i = 0; i < s->nargs; i++) {
        const cutune_spec_arg *a = &s->args[i];
        if (a->kind != CUTUNE_ARG_BUFFER || !(a->output || a->inout))
            continue;
        nout++;
        nint += a->type == CUTUNE_ELEM_INT32 || a->type == CUTUNE_ELEM_UINT32 ||
                a->type == CUTUNE_ELEM_INT64 || a->type == CUTUNE_ELEM_UINT8;
    }
    if (nout && nint == nout)
        s->rtol = 0;
    if (!j)
        return 0;
    int rc = spec_want_type(L, j, "tolerance", cJSON_IsObject(j), "an object");
    if (!rc)
        rc = spec_check_members(L, j, "tolerance", fields, 2);
    for (size_t k = 0; k < 2 && !rc; k++) {
        const cJSON *t = spec_member(j, fields[k]);
        if (!t)
            continue;
        spec_path_member(path, sizeof path, "tolerance", fields[k]);
        rc = spec_want_type(L, t, path, cJSON_IsNumber(t), "a number");
        if (!rc && !(isfinite(t->valuedouble) && t->valuedouble >= 0))
            rc = spec_fail(L, CUTUNE_EINVAL, path, "must be a finite number >= 0");
        if (!rc)
            *(k == 0 ? &s->rtol : &s->atol) = t->valuedouble;
    }
    return rc;
}

int spec_load_metrics(loader *L, const cJSON *root)
{
    const cJSON *j = spec_member(root, "metrics");
    spec_impl *impl = L->impl;
    cutune_spec *s = &impl->pub;
    char path[PATH_LEN];
    if (!j)
        return 0;
    int rc = spec_want_type(L, j, "metrics", cJSON_IsObject(j), "an object (name -> expression)");
    if (!rc)
        rc = spec_check_unique_keys(L, j, "metrics");
    if (rc)
        return rc;
    size_t n = (size_t)cJSON_GetArraySize(j);
    if (!n)
        return 0;
    cutune_symtab st = {.names = impl->metric_names, .n = impl->nmetric_names};
    s->metrics = calloc(n, sizeof *s->metrics);
    if (!s->metrics)
        return spec_fail(L, CUTUNE_ENOMEM, "metrics", "out of memory");
    s->nmetrics = n;
    size_t i = 0;
    for (const cJSON *m = j->child; m; m = m->next, i++) {
        spec_path_member(path, sizeof path, "metrics", m->string);
        if (!m->string[0])
            return spec_fail(L, CUTUNE_EINVAL, path, "empty metric name");
        /* the journal records each metric by name, and a recording's metrics are held
         * under names of at most 31 bytes: a longer one would make journals that no
         * resume, replay or import could read back */
        char why[256];
        if (cutune_metric_name_check(m->string, why, sizeof why) < 0)
            return spec_fail_member(L, CUTUNE_EINVAL, "metrics", m->string, "%s", why);
        s->metrics[i].name = spec_strdup(m->string);
        if (!s->metrics[i].name)
            return spec_fail(L, CUTUNE_ENOMEM, path, "out of memory");
        rc = spec_parse_expr(L, m, path, &st, &s->metrics[i].expr);
        if (rc)
            return rc;
    }
    return 0;
}

/* Metric expressions see the space's symbols then time_ms and time_s. */
int spec_build_metric_symtab(loader *L, const cutune_symtab *syms)
{
    spec_impl *impl = L->impl;
    impl->metric_names = calloc(syms->n + 2, sizeof *impl->metric_names);
    if (!impl->metric_names)
        return spec_fail(L, CUTUNE_ENOMEM, "metrics", "out of memory");
    for (size_t k = 0; k < syms->n; k++)
        impl->metric_names[k] = syms->names[k];
    impl->metric_names[syms->n] = spec_time_names[0];
    impl->metric_names[syms->n + 1] = spec_time_names[1];
    impl->nmetric_names = syms->n + 2;
    return 0;
}
