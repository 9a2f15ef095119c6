/*
 * The checks a loaded spec passes before anyone uses it: every expression evaluated once
 * (a division by zero or a string in arithmetic fails at load, with its JSON path, not in
 * every evaluation), and every argument's value checked against its C type at every
 * configuration where it depends on one.
 */
#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_internal.h"

/* ------------------------------------------------------------------ smoke test */

/*
 * Evaluate every expression once, at the first valid configuration (time 1 ms for
 * metrics): a string used in arithmetic or a division by zero shows up at load with
 * its JSON path instead of as a mysterious failure of every evaluation.
 */
static int smoke_eval_min(loader *L, const cutune_expr *e, const char *path,
                          const cutune_value *vars, double min)
{
    char msg[MSG_LEN] = "", cfg[MSG_LEN / 2] = "";
    double d;
    if (!e)
        return 0;
    int rc = cutune_expr_eval_double(e, vars, &d, msg, sizeof msg);
    if (!rc && !(d < min)) /* NaN is left to the evaluation, as before */
        return 0;
    cutune_space_format_config(L->impl->pub.space, 0, cfg, sizeof cfg);
    if (!rc)
        return spec_fail(L, CUTUNE_EMATH, path, "evaluates to %.17g, below %g (at %s)", d, min,
                         cfg);
    return spec_fail(L, rc, path, "%s (at %s)", msg, cfg);
}

static int smoke_eval(loader *L, const cutune_expr *e, const char *path, const cutune_value *vars)
{
    return smoke_eval_min(L, e, path, vars, -HUGE_VAL);
}

/* The value range of a scalar argument of type t: integers within [ilo, ihi] (an integer
 * value compared as an integer, all 64 bits; a real one as a double within [lo, hi], hi
 * exclusive when hi_open: 2^63 is not an int64), reals finite and within [-hi, hi]. */
static const struct {
    const char *name;
    double lo, hi;
    int integer, hi_open;
    long long ilo, ihi;
} arg_ranges[] = {
    [CUTUNE_ELEM_FLOAT] = {"float", -FLT_MAX, FLT_MAX, 0, 0, 0, 0},
    [CUTUNE_ELEM_DOUBLE] = {"double", -DBL_MAX, DBL_MAX, 0, 0, 0, 0},
    [CUTUNE_ELEM_HALF] = {"half", -65504.0, 65504.0, 0, 0, 0, 0},
    [CUTUNE_ELEM_INT32] = {"int32", -2147483648.0, 2147483647.0, 1, 0, INT32_MIN, INT32_MAX},
    [CUTUNE_ELEM_UINT32] = {"uint32", 0.0, 4294967295.0, 1, 0, 0, UINT32_MAX},
    [CUTUNE_ELEM_INT64] = {"int64", -9223372036854775808.0, 9223372036854775808.0, 1, 1, LLONG_MIN,
                           LLONG_MAX},
    [CUTUNE_ELEM_UINT8] = {"uint8", 0.0, 255.0, 1, 0, 0, 255},
    [CUTUNE_ELEM_BF16] = {"bfloat16", -3.3895313892515355e38, 3.3895313892515355e38, 0, 0, 0, 0},
};

static size_t elem_bytes(cutune_elem_type t)
{
    return t == CUTUNE_ELEM_DOUBLE || t == CUTUNE_ELEM_INT64 ? 8
           : t == CUTUNE_ELEM_HALF || t == CUTUNE_ELEM_BF16  ? 2
           : t == CUTUNE_ELEM_UINT8                          ? 1
                                                             : 4;
}

/* Argument i's value (a scalar's value, a buffer's element count) at configuration id is
 * what its C type holds: no silent wrap (3000000000 as an int32 was -1294967296), no
 * rounding (2.5 as an int), no infinite float; a buffer a whole number of elements whose
 * bytes fit in 63 bits. NaN and expression errors are left to smoke_eval's messages. */
static int check_arg_value(loader *L, size_t i, size_t id, cutune_value *vars)
{
    const cutune_spec *s = &L->impl->pub;
    const cutune_spec_arg *a = &s->args[i];
    const cutune_expr *e = a->value ? a->value : a->size;
    char apath[PATH_LEN], path[PATH_LEN], cfg[MSG_LEN / 2] = "", msg[MSG_LEN];
    double d;
    if (!e)
        return 0;
    cutune_space_values(s->space, id, vars);
    cutune_value val;
    if (cutune_expr_eval(e, vars, &val, msg, sizeof msg) < 0 || val.type == CUTUNE_VALUE_STRING)
        return 0;
    d = cutune_value_as_double(&val);
    if (isnan(d))
        return 0;
    spec_path_index(apath, sizeof apath, "args", i);
    spec_path_member(path, sizeof path, apath, a->value ? "value" : "size");
    const char *why = NULL;
    char range[160];
    if (a->value) {
        int t = a->type;
        if (arg_ranges[t].integer && val.type == CUTUNE_VALUE_INT) {
            if (val.i < arg_ranges[t].ilo || val.i > arg_ranges[t].ihi)
                why = "is outside";
        } else if (arg_ranges[t].integer && d != floor(d)) {
            why = "is not an integer";
        } else if (!(d >= arg_ranges[t].lo &&
                     (arg_ranges[t].hi_open ? d < arg_ranges[t].hi : d <= arg_ranges[t].hi))) {
            why = "is outside";
        }
        if (why && arg_ranges[t].integer)
            snprintf(range, sizeof range, "%s (%lld..%lld)", arg_ranges[t].name, arg_ranges[t].ilo,
                     arg_ranges[t].ihi);
        else if (why)
            snprintf(range, sizeof range, "%s (finite, at most %g in magnitude)",
                     arg_ranges[t].name, arg_ranges[t].hi);
    } else if (d < 0) {
        /* at every configuration, not only the first: a negative size at some would fail
         * each of them at run time */
        why = "elements: a buffer holds 0 or more";
        range[0] = '\0';
    } else if (d != floor(d)) {
        why = "is not a whole number of elements";
        range[0] = '\0';
    } else if (d * (double)elem_bytes(a->type) >= 9223372036854775808.0) {
        why = "elements: their bytes do not fit in 63 bits";
        range[0] = '\0';
    }
    if (!why)
        return 0;
    cutune_space_format_config(s->space, id, cfg, sizeof cfg);
    char num[64]; /* integers as integers, others in the shortest text that reads back */
    if (val.type == CUTUNE_VALUE_INT)
        snprintf(num, sizeof num, "%lld", val.i);
    else if (d == floor(d) && fabs(d) < 1e17)
        snprintf(num, sizeof num, "%.0f", d);
    else
        cutune_value_format(&(cutune_value){.type = CUTUNE_VALUE_REAL, .r = d}, num, sizeof num);
    if (a->value && strcmp(why, "is not an integer") == 0)
        return spec_fail(L, CUTUNE_EINVAL, path,
                         "%s is not an integer, and the argument is %s (at %s)", num,
                         arg_ranges[a->type].name, cfg);
    if (a->value)
        return spec_fail(L, CUTUNE_EINVAL, path, "%s is outside the range of %s (at %s)", num,
                         range, cfg);
    return spec_fail(L, CUTUNE_EINVAL, path, "%s %s (at %s)", num, why, cfg);
}

/* A launch dimension (min 1) or a shared-memory size (min 0) at configuration id: a whole
 * number, at least min, within 2^31 (what the driver takes): never rounded at launch (a
 * grid of 2.5 was 3 blocks) nor wrapped. Expression errors are smoke_eval's. */
static int check_geometry_value(loader *L, const cutune_expr *e, const char *path, double min,
                                size_t id, cutune_value *vars)
{
    const cutune_spec *s = &L->impl->pub;
    char msg[MSG_LEN], cfg[MSG_LEN / 2] = "";
    double d;
    if (!e)
        return 0;
    cutune_space_values(s->space, id, vars);
    if (cutune_expr_eval_double(e, vars, &d, msg, sizeof msg) < 0 || isnan(d))
        return 0;
    if (d == floor(d) && d >= min && d <= 2147483647.0)
        return 0;
    cutune_space_format_config(s->space, id, cfg, sizeof cfg);
    char num[64];
    cutune_value_format(&(cutune_value){.type = CUTUNE_VALUE_REAL, .r = d}, num, sizeof num);
    return spec_fail(L, CUTUNE_EINVAL, path, "%s is not a whole number from %g to 2^31 - 1 (at %s)",
                     num, min, cfg);
}

/* Does e read a parameter (else sizes alone: one configuration tells)? */
static int reads_params(const cutune_expr *e, size_t np)
{
    for (size_t p = 0; e && p < np; p++)
        if (cutune_expr_uses(e, p))
            return 1;
    return 0;
}

/* The launch geometry, and the reference's, at every valid configuration where it reads a
 * parameter. */
static int check_geometry(loader *L, cutune_value *vars)
{
    const cutune_spec *s = &L->impl->pub;
    size_t np = cutune_space_nparams(s->space), size = cutune_space_size(s->space);
    struct {
        const cutune_expr *e;
        const char *what;
        size_t dim;
        double min;
    } g[] = {
        {s->grid[0], "launch.grid", 0, 1},
        {s->grid[1], "launch.grid", 1, 1},
        {s->grid[2], "launch.grid", 2, 1},
        {s->block[0], "launch.block", 0, 1},
        {s->block[1], "launch.block", 1, 1},
        {s->block[2], "launch.block", 2, 1},
        {s->shared_mem, "launch.shared_mem", 3, 0},
        {s->ref_grid[0], "reference.grid", 0, 1},
        {s->ref_grid[1], "reference.grid", 1, 1},
        {s->ref_grid[2], "reference.grid", 2, 1},
        {s->ref_block[0], "reference.block", 0, 1},
        {s->ref_block[1], "reference.block", 1, 1},
        {s->ref_block[2], "reference.block", 2, 1},
        {s->ref_shared_mem, "reference.shared_mem", 3, 0},
    };
    int rc = 0;
    for (size_t k = 0; k < sizeof g / sizeof g[0] && !rc; k++) {
        char path[PATH_LEN];
        if (g[k].dim < 3)
            spec_path_index(path, sizeof path, g[k].what, g[k].dim);
        else
            snprintf(path, sizeof path, "%s", g[k].what);
        /* the reference launches at one configuration's values: configuration 0 tells */
        int every = reads_params(g[k].e, np) && strncmp(g[k].what, "launch", 6) == 0;
        for (size_t id = 0; id < (every ? size : 1) && !rc; id++)
            rc = check_geometry_value(L, g[k].e, path, g[k].min, id, vars);
    }
    return rc;
}

/* Every argument at every valid configuration where its expression reads a parameter, at
 * one where it reads only sizes. */
static int check_arg_ranges(loader *L)
{
    const cutune_spec *s = &L->impl->pub;
    const cutune_space *sp = s->space;
    size_t np = cutune_space_nparams(sp), size = cutune_space_size(sp);
    cutune_value *vars = calloc(np + cutune_space_nconstants(sp) + 1, sizeof *vars);
    int rc = 0;
    if (!vars)
        return spec_fail(L, CUTUNE_ENOMEM, NULL, "out of memory");
    for (size_t i = 0; i < s->nargs && !rc; i++) {
        const cutune_expr *e = s->args[i].value ? s->args[i].value : s->args[i].size;
        int reads_params = 0;
        for (size_t p = 0; e && p < np && !reads_params; p++)
            reads_params = cutune_expr_uses(e, p);
        for (size_t id = 0; id < (reads_params ? size : 1) && !rc; id++)
            rc = check_arg_value(L, i, id, vars);
    }
    if (!rc)
        rc = check_geometry(L, vars);
    free(vars);
    return rc;
}

int spec_smoke_test(loader *L)
{
    spec_impl *impl = L->impl;
    cutune_spec *s = &impl->pub;
    char path[PATH_LEN];
    int rc = 0;
    cutune_value *vars = calloc(impl->nmetric_names, sizeof *vars);
    if (!vars)
        return spec_fail(L, CUTUNE_ENOMEM, NULL, "out of memory");
    cutune_space_values(s->space, 0, vars);
    vars[impl->nmetric_names - 2].type = CUTUNE_VALUE_REAL;
    vars[impl->nmetric_names - 2].r = 1.0;
    vars[impl->nmetric_names - 1].type = CUTUNE_VALUE_REAL;
    vars[impl->nmetric_names - 1].r = 1e-3;
    for (size_t d = 0; d < 3 && !rc; d++) {
        spec_path_index(path, sizeof path, "launch.grid", d);
        rc = smoke_eval(L, s->grid[d], path, vars);
        spec_path_index(path, sizeof path, "launch.block", d);
        if (!rc)
            rc = smoke_eval(L, s->block[d], path, vars);
        spec_path_index(path, sizeof path, "reference.grid", d);
        if (!rc)
            rc = smoke_eval(L, s->ref_grid[d], path, vars);
        spec_path_index(path, sizeof path, "reference.block", d);
        if (!rc)
            rc = smoke_eval(L, s->ref_block[d], path, vars);
    }
    if (!rc)
        rc = smoke_eval(L, s->shared_mem, "launch.shared_mem", vars);
    if (!rc)
        rc = smoke_eval(L, s->ref_shared_mem, "reference.shared_mem", vars);
    for (size_t i = 0; i < s->nargs && !rc; i++) {
        char apath[PATH_LEN];
        spec_path_index(apath, sizeof apath, "args", i);
        spec_path_member(path, sizeof path, apath, s->args[i].value ? "value" : "size");
        /* a buffer of fewer than 0 elements is never meaningful: a negative --size would
         * otherwise fail every evaluation of the run one by one */
        if (s->args[i].kind == CUTUNE_ARG_TENSORMAP)
            rc = spec_check_tensormap(L, i, vars, elem_bytes(s->args[i].type));
        else
            rc = s->args[i].value ? smoke_eval(L, s->args[i].value, path, vars)
                                  : smoke_eval_min(L, s->args[i].size, path, vars, 0.0);
    }
    for (size_t i = 0; i < s->nmetrics && !rc; i++) {
        spec_path_member(path, sizeof path, "metrics", s->metrics[i].name);
        rc = smoke_eval(L, s->metrics[i].expr, path, vars);
    }
    free(vars);
    if (!rc)
        rc = check_arg_ranges(L);
    return rc;
}
