/*
 * "type": "tensormap" arguments: a TMA descriptor (the driver's CUtensorMap) of one of the
 * spec's buffers, which the CUDA evaluator encodes at run time and passes by value:
 *
 *   {"name": "tmA", "type": "tensormap", "tensor": "A", "dims": ["K", "M"],
 *    "box": [64, "BM"], "swizzle": 128}
 *
 * The buffer is a dense row-major tensor of len(dims) dimensions, innermost first; each
 * copy moves a box of the given extents (expressions over parameters and sizes, like
 * every other). Checked at load: the fields, the buffer's name and element type, the
 * swizzle; at the first configuration: dims >= 1, 1 <= box <= 256, and a swizzled box's
 * inner extent within the swizzle span.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "spec_internal.h"

static int load_exprs(loader *L, const cJSON *a, const char *parent, const char *name,
                      const cutune_symtab *syms, cutune_expr **out, size_t *n)
{
    char path[PATH_LEN], ipath[PATH_LEN];
    const cJSON *j = spec_member(a, name);
    spec_path_member(path, sizeof path, parent, name);
    if (!j)
        return spec_fail(L, CUTUNE_EINVAL, path, "missing (required for a tensormap)");
    size_t len = cJSON_IsArray(j) ? (size_t)cJSON_GetArraySize(j) : 0;
    if (len < 1 || len > CUTUNE_TMAP_MAX_RANK)
        return spec_fail(L, CUTUNE_EINVAL, path, "expected an array of 1 to %d expressions, got %s",
                         CUTUNE_TMAP_MAX_RANK,
                         cJSON_IsArray(j) ? "an array of another length" : spec_json_type_name(j));
    if (*n && *n != len)
        return spec_fail(L, CUTUNE_EINVAL, path, "%zu entries, but dims has %zu", len, *n);
    size_t i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
        spec_path_index(ipath, sizeof ipath, path, i);
        int rc = spec_parse_expr(L, e, ipath, syms, &out[i]);
        if (rc)
            return rc;
    }
    *n = len;
    return 0;
}

int spec_load_tensormap(loader *L, const cJSON *a, const char *path, const cutune_symtab *syms,
                        cutune_spec_arg *arg)
{
    static const char *const fields[] = {"name", "type", "tensor", "dims", "box", "swizzle"};
    char fpath[PATH_LEN];
    int rc = spec_check_members(L, a, path, fields, sizeof fields / sizeof fields[0]);
    if (rc)
        return rc;
    arg->kind = CUTUNE_ARG_TENSORMAP;
    arg->type = CUTUNE_ELEM_UINT8; /* the tensor's type is the map's (spec_resolve_tensormaps) */
    arg->tensor = (size_t)-1;
    const char *tensor;
    if ((rc = spec_string_member(L, a, path, "tensor", 1, &tensor)))
        return rc;
    arg->init_name = spec_strdup(tensor); /* the buffer's name, until resolved */
    if (!arg->init_name)
        return spec_fail(L, CUTUNE_ENOMEM, path, "out of memory");
    size_t n = 0;
    if ((rc = load_exprs(L, a, path, "dims", syms, arg->tdims, &n)) ||
        (rc = load_exprs(L, a, path, "box", syms, arg->tbox, &n)))
        return rc;
    arg->trank = n;
    arg->swizzle = 0;
    const cJSON *sw = spec_member(a, "swizzle");
    if (sw) {
        spec_path_member(fpath, sizeof fpath, path, "swizzle");
        if (!cJSON_IsNumber(sw) || (sw->valuedouble != 0 && sw->valuedouble != 32 &&
                                    sw->valuedouble != 64 && sw->valuedouble != 128))
            return spec_fail(L, CUTUNE_EINVAL, fpath, "expected 0, 32, 64 or 128 (bytes)");
        arg->swizzle = (int)sw->valuedouble;
    }
    return 0;
}

/* The "tensor" of every tensormap names a buffer argument; the map takes its type. */
int spec_resolve_tensormaps(loader *L)
{
    cutune_spec *s = &L->impl->pub;
    char path[PATH_LEN], fpath[PATH_LEN];
    for (size_t i = 0; i < s->nargs; i++) {
        cutune_spec_arg *a = &s->args[i];
        if (a->kind != CUTUNE_ARG_TENSORMAP)
            continue;
        spec_path_index(path, sizeof path, "args", i);
        spec_path_member(fpath, sizeof fpath, path, "tensor");
        size_t k;
        for (k = 0; k < s->nargs; k++)
            if (s->args[k].kind == CUTUNE_ARG_BUFFER && !strcmp(s->args[k].name, a->init_name))
                break;
        if (k == s->nargs)
            return spec_fail(L, CUTUNE_ENOTFOUND, fpath, "'%s' is not a buffer argument",
                             a->init_name);
        a->tensor = k;
        a->type = s->args[k].type;
        free(a->init_name);
        a->init_name = NULL;
    }
    return 0;
}

/* dims >= 1, 1 <= box <= 256, a swizzled box's inner extent within the swizzle span, at
 * the configuration whose values vars holds. */
int spec_check_tensormap(loader *L, size_t i, const cutune_value *vars, size_t elem_bytes)
{
    const cutune_spec_arg *a = &L->impl->pub.args[i];
    char apath[PATH_LEN], path[PATH_LEN], ipath[PATH_LEN], msg[MSG_LEN];
    spec_path_index(apath, sizeof apath, "args", i);
    for (int which = 0; which < 2; which++) {
        spec_path_member(path, sizeof path, apath, which ? "box" : "dims");
        for (size_t d = 0; d < a->trank; d++) {
            double v;
            spec_path_index(ipath, sizeof ipath, path, d);
            int rc = cutune_expr_eval_double(which ? a->tbox[d] : a->tdims[d], vars, &v, msg,
                                             sizeof msg);
            if (rc < 0)
                return spec_fail(L, rc, ipath, "%s", msg);
            if (!(v >= 1) || (which && v > 256))
                return spec_fail(L, CUTUNE_EMATH, ipath, "evaluates to %g (%s)", v,
                                 which ? "a box extent is 1 to 256" : "a dimension is >= 1");
            if (which && d == 0 && a->swizzle && v * (double)elem_bytes > a->swizzle)
                return spec_fail(L, CUTUNE_EINVAL, ipath,
                                 "%g elements of %zu bytes exceed the %d-byte swizzle span", v,
                                 elem_bytes, a->swizzle);
        }
    }
    return 0;
}
