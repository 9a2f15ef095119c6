/*
 * What the kernel is compiled and called with: "compiler_options" (with {NAME}
 * placeholders of parameters and sizes) and "args", the scalars and buffers in the
 * kernel's order, with their element types and how each buffer starts (zeros, random,
 * a range, or a generator kernel of the source).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "spec_internal.h"

/* ------------------------------------------------------------------ options, args */

/* Check every {NAME} of an option names a parameter or size. */
static int check_placeholders(loader *L, const char *path, const char *text,
                              const cutune_symtab *syms)
{
    for (const char *p = strchr(text, '{'); p; p = strchr(p + 1, '{')) {
        const char *close = strchr(p, '}');
        if (!close)
            return spec_fail(L, CUTUNE_EPARSE, path, "unterminated placeholder at column %d",
                             (int)(p - text) + 1);
        size_t n = (size_t)(close - p - 1);
        size_t k;
        for (k = 0; k < syms->n; k++)
            if (strlen(syms->names[k]) == n && strncmp(syms->names[k], p + 1, n) == 0)
                break;
        if (k == syms->n) {
            char list[MSG_LEN / 2];
            spec_join_names(list, sizeof list, syms->names, syms->n);
            return spec_fail(
                L, CUTUNE_ENOTFOUND, path,
                "unknown parameter or size '%.*s' in placeholder at column %d (known: %s)", (int)n,
                p + 1, (int)(p - text) + 1, list);
        }
        p = close;
    }
    return 0;
}

int spec_load_options(loader *L, const cJSON *root, const cutune_symtab *syms)
{
    const cJSON *j = spec_member(root, "compiler_options");
    cutune_spec *s = &L->impl->pub;
    char path[PATH_LEN];
    if (!j)
        return 0;
    int rc = spec_want_type(L, j, "compiler_options", cJSON_IsArray(j), "an array of strings");
    if (rc)
        return rc;
    size_t n = (size_t)cJSON_GetArraySize(j);
    if (!n)
        return 0;
    s->options = calloc(n, sizeof *s->options);
    if (!s->options)
        return spec_fail(L, CUTUNE_ENOMEM, "compiler_options", "out of memory");
    s->noptions = n;
    size_t i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
        spec_path_index(path, sizeof path, "compiler_options", i);
        rc = spec_want_type(L, e, path, cJSON_IsString(e), "a string");
        if (rc)
            return rc;
        if (!e->valuestring[0])
            return spec_fail(L, CUTUNE_EINVAL, path, "empty option");
        rc = check_placeholders(L, path, e->valuestring, syms);
        if (rc)
            return rc;
        s->options[i].text = spec_strdup(e->valuestring);
        if (!s->options[i].text)
            return spec_fail(L, CUTUNE_ENOMEM, path, "out of memory");
    }
    return 0;
}

static const struct {
    const char *name;
    cutune_elem_type type;
} elem_types[] = {
    {"float", CUTUNE_ELEM_FLOAT},     {"float32", CUTUNE_ELEM_FLOAT},
    {"double", CUTUNE_ELEM_DOUBLE},   {"float64", CUTUNE_ELEM_DOUBLE},
    {"half", CUTUNE_ELEM_HALF},       {"float16", CUTUNE_ELEM_HALF},
    {"int", CUTUNE_ELEM_INT32},       {"int32", CUTUNE_ELEM_INT32},
    {"int32_t", CUTUNE_ELEM_INT32},   {"uint32", CUTUNE_ELEM_UINT32},
    {"uint32_t", CUTUNE_ELEM_UINT32}, {"unsigned", CUTUNE_ELEM_UINT32},
    {"int64", CUTUNE_ELEM_INT64},     {"int64_t", CUTUNE_ELEM_INT64},
    {"uint8", CUTUNE_ELEM_UINT8},     {"uint8_t", CUTUNE_ELEM_UINT8},
    {"bfloat16", CUTUNE_ELEM_BF16},   {"bf16", CUTUNE_ELEM_BF16},
};

static int parse_elem_type(loader *L, const char *path, const char *name, cutune_elem_type *out)
{
    const size_t n = sizeof elem_types / sizeof elem_types[0];
    const char *names[sizeof elem_types / sizeof elem_types[0]];
    for (size_t k = 0; k < n; k++) {
        if (strcmp(name, elem_types[k].name) == 0) {
            *out = elem_types[k].type;
            return 0;
        }
        names[k] = elem_types[k].name;
    }
    char list[MSG_LEN / 2];
    spec_join_names(list, sizeof list, names, n);
    return spec_fail(L, CUTUNE_EINVAL, path, "unknown type '%s' (valid types: %s)", name, list);
}

static int load_buffer_init(loader *L, const cJSON *a, const char *parent, cutune_spec_arg *arg)
{
    char path[PATH_LEN], ipath[PATH_LEN];
    const char *init;
    int rc = spec_string_member(L, a, parent, "init", 0, &init);
    if (rc)
        return rc;
    /* outputs start from zeros (in-place kernels read them); inputs from [0, 1), integer
     * ones from 0..99 ([0, 1) would make them all zero) */
    double random_hi = cutune_elem_is_float(arg->type) ? 1.0 : 100.0;
    arg->init = arg->output ? CUTUNE_INIT_ZEROS : CUTUNE_INIT_RANDOM;
    arg->init_lo = 0.0;
    arg->init_hi = arg->init == CUTUNE_INIT_RANDOM ? random_hi : 0.0;
    if (init) {
        spec_path_member(path, sizeof path, parent, "init");
        if (strcmp(init, "random") == 0) {
            arg->init = CUTUNE_INIT_RANDOM;
            arg->init_hi = random_hi;
        } else if (strcmp(init, "zeros") == 0) {
            arg->init = CUTUNE_INIT_ZEROS;
        } else if (strcmp(init, "ones") == 0) {
            arg->init = CUTUNE_INIT_ONES;
        } else if (strcmp(init, "range") == 0) {
            arg->init = CUTUNE_INIT_RANGE;
        } else if (strncmp(init, "kernel:", 7) == 0) {
            /* A generator kernel of the source, compiled with the reference
             * (sizes only): extern "C" __global__ void NAME(T *, unsigned long long n,
             * unsigned int seed). */
            const char *kname = init + 7;
            if (!spec_is_ident(kname))
                return spec_fail(L, CUTUNE_EINVAL, path,
                                 "'%s': generator kernel name '%s' is not a "
                                 "C identifier",
                                 init, kname);
            if (arg->output)
                return spec_fail(L, CUTUNE_EINVAL, path,
                                 "'%s': an output is poisoned before each "
                                 "verification; a generator kernel fills inputs only",
                                 init);
            const cutune_spec *s = &L->impl->pub;
            if (!spec_source_has_word(s->source, kname))
                return spec_fail(L, CUTUNE_ENOTFOUND, path, "generator kernel '%s' not found in %s",
                                 kname, s->source_path);
            arg->init = CUTUNE_INIT_KERNEL;
            arg->init_name = spec_strdup(kname);
            if (!arg->init_name)
                return spec_fail(L, CUTUNE_ENOMEM, path, "out of memory");
        } else {
            /* no built-in generators: data of a structure (CSR indices, ...) come from a
             * generator kernel of the source, kernel:NAME */
            return spec_fail(L, CUTUNE_EINVAL, path,
                             "'%s' is not random, zeros, ones, range or kernel:NAME (a generator "
                             "kernel of the source)",
                             init);
        }
    }
    const cJSON *r = spec_member(a, "range");
    if (!r)
        return 0;
    spec_path_member(path, sizeof path, parent, "range");
    if (!cJSON_IsArray(r) || cJSON_GetArraySize(r) != 2)
        return spec_fail(L, CUTUNE_EINVAL, path, "expected [lo, hi], got %s",
                         spec_json_type_name(r));
    if (arg->init != CUTUNE_INIT_RANDOM && arg->init != CUTUNE_INIT_RANGE)
        return spec_fail(L, CUTUNE_EINVAL, path, "only init random or range takes a range");
    double lohi[2];
    size_t i = 0;
    for (const cJSON *e = r->child; e; e = e->next, i++) {
        spec_path_index(ipath, sizeof ipath, path, i);
        rc = spec_want_type(L, e, ipath, cJSON_IsNumber(e) && isfinite(e->valuedouble),
                            "a finite number");
        if (rc)
            return rc;
        lohi[i] = e->valuedouble;
    }
    if (arg->init == CUTUNE_INIT_RANDOM && !(lohi[0] < lohi[1]))
        return spec_fail(L, CUTUNE_EINVAL, path, "lo (%g) must be below hi (%g)", lohi[0], lohi[1]);
    arg->init_lo = lohi[0];
    arg->init_hi = lohi[1];
    return 0;
}

static int load_arg(loader *L, const cJSON *a, const char *path, const cutune_symtab *syms,
                    cutune_spec_arg *arg)
{
    static const char *const fields[] = {"name", "type",  "value",  "size",
                                         "init", "range", "output", "inout"};
    char fpath[PATH_LEN];
    const char *name, *type;
    int rc = spec_want_type(L, a, path, cJSON_IsObject(a), "an object");
    if (!rc)
        rc = spec_string_member(L, a, path, "name", 1, &name);
    if (!rc)
        rc = spec_string_member(L, a, path, "type", 1, &type);
    if (rc)
        return rc;
    arg->name = spec_strdup(name);
    if (!arg->name)
        return spec_fail(L, CUTUNE_ENOMEM, path, "out of memory");
    if (strcmp(type, "tensormap") == 0)
        return spec_load_tensormap(L, a, path, syms, arg);
    if ((rc = spec_check_members(L, a, path, fields, sizeof fields / sizeof fields[0])))
        return rc;
    spec_path_member(fpath, sizeof fpath, path, "type");
    rc = parse_elem_type(L, fpath, type, &arg->type);
    if (rc)
        return rc;
    const cJSON *value = spec_member(a, "value"), *size = spec_member(a, "size");
    if (!!value == !!size)
        return spec_fail(L, CUTUNE_EINVAL, path,
                         "give either 'value' (a scalar) or 'size' (a buffer), not %s",
                         value ? "both" : "neither");
    if (value) {
        arg->kind = CUTUNE_ARG_SCALAR;
        /* a kernel takes a half or bfloat16 by value as a struct the launch cannot build
         * from a number: buffers only, refused here rather than at the first evaluation */
        if (arg->type == CUTUNE_ELEM_HALF || arg->type == CUTUNE_ELEM_BF16) {
            spec_path_member(fpath, sizeof fpath, path, "type");
            return spec_fail(L, CUTUNE_EINVAL, fpath,
                             "%s is a buffer type only (give the kernel a float scalar, or a "
                             "buffer with 'size')",
                             arg->type == CUTUNE_ELEM_HALF ? "half" : "bfloat16");
        }
        static const char *const buffer_only[] = {"init", "range", "output", "inout"};
        for (size_t k = 0; k < 4; k++)
            if (spec_member(a, buffer_only[k])) {
                spec_path_member(fpath, sizeof fpath, path, buffer_only[k]);
                return spec_fail(L, CUTUNE_EINVAL, fpath, "only buffers (with 'size') take '%s'",
                                 buffer_only[k]);
            }
        spec_path_member(fpath, sizeof fpath, path, "value");
        return spec_parse_expr(L, value, fpath, syms, &arg->value);
    }
    arg->kind = CUTUNE_ARG_BUFFER;
    spec_path_member(fpath, sizeof fpath, path, "size");
    rc = spec_parse_expr(L, size, fpath, syms, &arg->size);
    if (rc)
        return rc;
    const cJSON *out = spec_member(a, "output");
    if (out) {
        spec_path_member(fpath, sizeof fpath, path, "output");
        rc = spec_want_type(L, out, fpath, cJSON_IsBool(out), "true or false");
        if (rc)
            return rc;
        arg->output = cJSON_IsTrue(out);
    }
    const cJSON *io = spec_member(a, "inout");
    if (io) {
        spec_path_member(fpath, sizeof fpath, path, "inout");
        rc = spec_want_type(L, io, fpath, cJSON_IsBool(io), "true or false");
        if (rc)
            return rc;
        arg->inout = cJSON_IsTrue(io);
        if (arg->inout && out && !arg->output)
            return spec_fail(L, CUTUNE_EINVAL, fpath,
                             "an inout buffer is an output (it is verified): drop \"output\": "
                             "false");
        arg->output |= arg->inout;
    }
    return load_buffer_init(L, a, path, arg);
}

int spec_load_args(loader *L, const cJSON *root, const cutune_symtab *syms)
{
    const cJSON *j = spec_member(root, "args");
    cutune_spec *s = &L->impl->pub;
    char path[PATH_LEN];
    if (!j)
        return spec_fail(L, CUTUNE_EINVAL, "args", "missing (required; [] for none)");
    int rc = spec_want_type(L, j, "args", cJSON_IsArray(j), "an array of objects");
    if (rc)
        return rc;
    size_t n = (size_t)cJSON_GetArraySize(j);
    if (!n)
        return 0;
    s->args = calloc(n, sizeof *s->args);
    if (!s->args)
        return spec_fail(L, CUTUNE_ENOMEM, "args", "out of memory");
    s->nargs = n;
    size_t i = 0;
    for (const cJSON *a = j->child; a; a = a->next, i++) {
        spec_path_index(path, sizeof path, "args", i);
        rc = load_arg(L, a, path, syms, &s->args[i]);
        if (rc)
            return rc;
        for (size_t k = 0; k < i; k++)
            if (strcmp(s->args[k].name, s->args[i].name) == 0)
                return spec_fail(L, CUTUNE_EINVAL, path,
                                 "argument name '%s' also used by args[%zu]", s->args[i].name, k);
    }
    return spec_resolve_tensormaps(L);
}
