/*
 * T1 files as kernel specs: the KernelSpecification's kernel. The kernel source file, the
 * problem size, the launch dimensions (grid and block) and the arguments (buffers and
 * scalars, their types, fills and outputs) become the cutune document's fields. Kept apart
 * from t1.c because it is the largest field-by-field mapping, and from t1_space.c because it
 * reads the files and sizes of one kernel, not the space of its configurations.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "t1_internal.h"

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* KernelFile relative to the T1 file's folder, else to the folder above it (where Kernel
 * Tuner looks next); as given when neither holds it (the loader then says so). */
int t1_load_source(t1 *T, const cJSON *ks, cJSON *doc)
{
    const cJSON *kf = t1_member(ks, "KernelFile"), *kn = t1_member(ks, "KernelName");
    if (!kf)
        return t1_fail(T, CUTUNE_EINVAL, "KernelSpecification.KernelFile", "missing (required)");
    if (!kn)
        return t1_fail(T, CUTUNE_EINVAL, "KernelSpecification.KernelName", "missing (required)");
    if (!cJSON_IsString(kf) || !kf->valuestring[0])
        return t1_fail(T, CUTUNE_EINVAL, "KernelSpecification.KernelFile", "expected a file name");
    const char *rel = kf->valuestring;
    char here[4096], above[4096], up[4096];
    snprintf(here, sizeof here, "%s/%s", T->dir ? T->dir : ".", rel);
    snprintf(above, sizeof above, "%s/../%s", T->dir ? T->dir : ".", rel);
    snprintf(up, sizeof up, "../%s", rel);
    const char *src = rel[0] != '/' && !file_exists(here) && file_exists(above) ? up : rel;
    if (!t1_add(T, doc, "source", cJSON_CreateString(src)))
        return t1_oom(T);
    t1_map_field(T, "source", "KernelSpecification.KernelFile", 0);
    cJSON *name = cJSON_IsString(kn) ? cJSON_CreateString(kn->valuestring) : cJSON_Duplicate(kn, 1);
    if (!t1_add(T, doc, "kernel", name))
        return t1_oom(T);
    t1_map_field(T, "kernel", "KernelSpecification.KernelName", 0);
    return 0;
}

/* ProblemSize (Kernel Tuner's field): the sizes ProblemSize_0, _1, ... of an array, or the
 * size ProblemSize of a number. */
int t1_load_problem_size(t1 *T, const cJSON *ks, cJSON *doc)
{
    const cJSON *ps = t1_member(ks, "ProblemSize");
    const char *path = "KernelSpecification.ProblemSize";
    char name[32], npath[64], tpath[PATH_LEN];
    if (!ps || cJSON_IsNull(ps))
        return 0;
    cJSON *sizes = t1_add(T, doc, "sizes", cJSON_CreateObject());
    if (!sizes)
        return t1_oom(T);
    t1_map_field(T, "sizes", path, 0);
    if (cJSON_IsNumber(ps)) {
        cutune_value v = t1_json_number(T, ps);
        if (!isfinite(ps->valuedouble)) /* 1e400: no number the spec could read back */
            return t1_fail(T, CUTUNE_EINVAL, path, "number out of range");
        if (!t1_add(T, sizes, "ProblemSize", t1_number_node(&v)))
            return t1_oom(T);
        t1_map_field(T, "sizes.ProblemSize", path, 0);
        T->problem_kind = 1;
        return 0;
    }
    if (!cJSON_IsArray(ps) || !ps->child)
        return t1_fail(T, CUTUNE_EINVAL, path, "expected a number or an array of numbers");
    size_t i = 0;
    for (const cJSON *e = ps->child; e; e = e->next, i++) {
        snprintf(tpath, sizeof tpath, "%s[%zu]", path, i);
        if (!cJSON_IsNumber(e))
            return t1_fail(T, CUTUNE_EINVAL, tpath, "expected a number");
        if (!isfinite(e->valuedouble))
            return t1_fail(T, CUTUNE_EINVAL, tpath, "number out of range");
        cutune_value v = t1_json_number(T, e);
        snprintf(name, sizeof name, "ProblemSize_%zu", i);
        if (!t1_add(T, sizes, name, t1_number_node(&v)))
            return t1_oom(T);
        snprintf(npath, sizeof npath, "sizes.%s", name);
        t1_map_field(T, npath, tpath, 0);
    }
    T->problem_kind = 2;
    T->nproblem = i;
    return 0;
}

/* GlobalSize or LocalSize (objects of X, Y, Z expressions) into launch.grid or .block;
 * global in OpenCL's sense (threads, GlobalSizeType "OpenCL") becomes blocks. */
static int load_dims(t1 *T, const cJSON *ks, const char *field, const char *native, int opencl,
                     cJSON *launch)
{
    static const char *const axes[3] = {"X", "Y", "Z"};
    char path[PATH_LEN], apath[PATH_LEN + 8], npath[64];
    const cJSON *dims = t1_member(ks, field), *local = t1_member(ks, "LocalSize");
    snprintf(path, sizeof path, "KernelSpecification.%s", field);
    if (!dims)
        return t1_fail(T, CUTUNE_EINVAL, path, "missing (required)");
    if (!cJSON_IsObject(dims))
        return t1_fail(T, CUTUNE_EINVAL, path, "expected an object of X, Y, Z");
    if (!t1_member(dims, "X"))
        return t1_fail(T, CUTUNE_EINVAL, path, "X: missing (required)");
    for (const cJSON *f = dims->child; f; f = f->next)
        if (strcmp(f->string, "X") && strcmp(f->string, "Y") && strcmp(f->string, "Z")) {
            snprintf(apath, sizeof apath, "%s.%s", path, f->string);
            return t1_fail(T, CUTUNE_EINVAL, apath, "unknown axis (X, Y, Z)");
        }
    cJSON *arr = t1_add(T, launch, native, cJSON_CreateArray());
    if (!arr)
        return t1_oom(T);
    snprintf(npath, sizeof npath, "launch.%s", native);
    t1_map_field(T, npath, path, 0);
    for (int d = 0; d < 3; d++) {
        const cJSON *a = t1_member(dims, axes[d]);
        cJSON *node;
        snprintf(apath, sizeof apath, "%s.%s", path, axes[d]);
        if (!a) {
            node = cJSON_CreateRaw("1");
        } else {
            int rc = t1_expr_node(T, a, apath, T1_EXPR_PLAIN, &node);
            if (rc)
                return rc;
            const cJSON *l = opencl && cJSON_IsObject(local) ? t1_member(local, axes[d]) : NULL;
            if (opencl && l) { /* threads -> blocks: ceil(G / L) */
                cJSON *ln;
                char lpath[PATH_LEN];
                snprintf(lpath, sizeof lpath, "KernelSpecification.LocalSize.%s", axes[d]);
                if ((rc = t1_expr_node(T, l, lpath, T1_EXPR_PLAIN, &ln))) {
                    cJSON_Delete(node);
                    return rc;
                }
                const char *g = node->valuestring, *lt = ln->valuestring; /* string or raw */
                size_t need = strlen(g) + 2 * strlen(lt) + 32;
                char *e = malloc(need);
                if (e)
                    snprintf(e, need, "((%s) + (%s) - 1) / (%s)", g, lt, lt);
                cJSON_Delete(node);
                cJSON_Delete(ln);
                node = e ? cJSON_CreateString(e) : NULL;
                free(e);
            }
        }
        if (!t1_add(T, arr, NULL, node))
            return t1_oom(T);
        snprintf(npath, sizeof npath, "launch.%s[%d]", native, d);
        t1_map_field(T, npath, apath, 0);
    }
    return 0;
}

int t1_load_launch(t1 *T, const cJSON *ks, cJSON *doc)
{
    const cJSON *gst = t1_member(ks, "GlobalSizeType");
    int opencl = 0;
    if (gst) {
        const char *path = "KernelSpecification.GlobalSizeType";
        if (!cJSON_IsString(gst))
            return t1_fail(T, CUTUNE_EINVAL, path, "expected CUDA or OpenCL");
        if (strcmp(gst->valuestring, "OpenCL") == 0)
            opencl = 1;
        else if (strcmp(gst->valuestring, "CUDA") != 0)
            return t1_fail(T, CUTUNE_EUNSUPPORTED, path,
                           "'%s' is not read (CUDA: GlobalSize counts blocks; OpenCL: threads)",
                           gst->valuestring);
    }
    cJSON *launch = t1_add(T, doc, "launch", cJSON_CreateObject());
    if (!launch)
        return t1_oom(T);
    t1_map_field(T, "launch", "KernelSpecification", 0);
    int rc = load_dims(T, ks, "GlobalSize", "grid", opencl, launch);
    if (!rc)
        rc = load_dims(T, ks, "LocalSize", "block", 0, launch);
    const cJSON *sm = t1_member(ks, "SharedMemory");
    if (!rc && sm && !cJSON_IsNull(sm)) {
        cJSON *node;
        rc = t1_expr_node(T, sm, "KernelSpecification.SharedMemory", T1_EXPR_PLAIN, &node);
        if (!rc && !t1_add(T, launch, "shared_mem", node))
            rc = t1_oom(T);
        t1_map_field(T, "launch.shared_mem", "KernelSpecification.SharedMemory", 0);
    }
    for (const char *const *g = (const char *const[]){"GridDivX", "GridDivY", "GridDivZ", NULL};
         !rc && *g; g++)
        if (t1_member(ks, *g)) {
            char p[64];
            snprintf(p, sizeof p, "KernelSpecification.%s", *g);
            t1_warn(T, p, p,
                    "ignored (Kernel Tuner's grid divisors: cutune launches GlobalSize blocks)");
        }
    return rc;
}

/* ------------------------------------------------------------------ arguments */

static const struct {
    const char *t1, *cutune;
} arg_types[] = {
    {"float", "float"},   {"double", "double"}, {"half", "half"},   {"int32", "int"},
    {"uint32", "uint32"}, {"int64", "int64"},   {"uint8", "uint8"},
};

static const int arg_type_sizes[] = {4, 8, 2, 4, 4, 8, 1};

/* One T1 argument at path into the cutune argument a (index i). */
static int load_arg(t1 *T, const cJSON *arg, const char *path, size_t i, cJSON *a)
{
    char fpath[PATH_LEN + 32], npath[64], name[32], shown[PATH_LEN];
    const cJSON *nm = t1_member(arg, "Name"), *ty = t1_member(arg, "Type"),
                *mt = t1_member(arg, "MemoryType");
    const cJSON *fill = t1_member(arg, "FillType"), *fv = t1_member(arg, "FillValue");
    const cJSON *size = t1_member(arg, "Size"), *acc = t1_member(arg, "AccessType");
    const cJSON *outp = t1_member(arg, "Output"), *ts = t1_member(arg, "TypeSize");
#define FIELD(f) (snprintf(fpath, sizeof fpath, "%s.%s", path, f), fpath)
#define NATIVE(f) (snprintf(npath, sizeof npath, "args[%zu].%s", i, f), npath)
    if (!ty)
        return t1_fail(T, CUTUNE_EINVAL, FIELD("Type"), "missing (required)");
    if (!mt)
        return t1_fail(T, CUTUNE_EINVAL, FIELD("MemoryType"), "missing (required)");
    if (nm && !cJSON_IsString(nm))
        return t1_fail(T, CUTUNE_EINVAL, FIELD("Name"), "expected a string");
    snprintf(name, sizeof name, "arg%zu", i);
    if (!t1_add(T, a, "name", cJSON_CreateString(nm ? nm->valuestring : name)))
        return t1_oom(T);
    t1_map_field(T, NATIVE("name"), nm ? FIELD("Name") : path, 0);
    size_t k, nt = sizeof arg_types / sizeof arg_types[0];
    for (k = 0; k < nt && !(cJSON_IsString(ty) && strcmp(ty->valuestring, arg_types[k].t1) == 0);
         k++)
        ;
    if (k == nt)
        return t1_fail(T, CUTUNE_EUNSUPPORTED, FIELD("Type"),
                       "%s%s%s has no cutune equivalent (cutune's argument types: float, double, "
                       "half, int32, uint32, int64, uint8)",
                       cJSON_IsString(ty) ? "'" : "", cJSON_IsString(ty) ? ty->valuestring : "this",
                       cJSON_IsString(ty) ? "'" : "");
    if (!t1_add(T, a, "type", cJSON_CreateString(arg_types[k].cutune)))
        return t1_oom(T);
    t1_map_field(T, NATIVE("type"), FIELD("Type"), 0);
    if (ts && !(cJSON_IsNumber(ts) && ts->valuedouble == arg_type_sizes[k]))
        return t1_fail(
            T, CUTUNE_EUNSUPPORTED, FIELD("TypeSize"),
            "a %s is %d bytes: only a custom type (which cutune has not) has another size",
            ty->valuestring, arg_type_sizes[k]);
    const char *mem = cJSON_IsString(mt) ? mt->valuestring : "";
    const char *mkind =
        cJSON_IsString(t1_member(arg, "MemType")) ? t1_member(arg, "MemType")->valuestring : "";
    if (strcmp(mem, "Symbol") == 0 || strcmp(mkind, "Constant") == 0)
        return t1_fail(
            T, CUTUNE_EUNSUPPORTED,
            strcmp(mem, "Symbol") == 0 ? FIELD("MemoryType") : FIELD("MemType"),
            "a __constant__ memory symbol has no cutune equivalent (cutune passes buffers "
            "and scalars as kernel arguments)");
    if (strcmp(mem, "Local") == 0)
        return t1_fail(T, CUTUNE_EUNSUPPORTED, FIELD("MemoryType"),
                       "a local memory argument has no cutune equivalent (give the dynamic shared "
                       "memory in KernelSpecification.SharedMemory)");
    const char *ft = cJSON_IsString(fill) ? fill->valuestring : NULL;
    if (fill && !ft)
        return t1_fail(T, CUTUNE_EINVAL, FIELD("FillType"), "expected a string");
    if (fv && !cJSON_IsNull(fv) && !cJSON_IsNumber(fv) && !cJSON_IsString(fv))
        return t1_fail(T, CUTUNE_EINVAL, FIELD("FillValue"), "expected a number");
    int have_fv = fv && !cJSON_IsNull(fv);
    /* Output is Kernel Tuner's flag: a string ("yes") would be neither, dropped silently */
    if (outp && !cJSON_IsNull(outp) && !cJSON_IsBool(outp) && !cJSON_IsNumber(outp))
        return t1_fail(T, CUTUNE_EINVAL, FIELD("Output"), "expected true or false");
    int out_flag = outp && (cJSON_IsTrue(outp) || (cJSON_IsNumber(outp) && outp->valuedouble != 0));
    if (strcmp(mem, "Scalar") == 0) {
        if (ft && strcmp(ft, "Constant") != 0)
            return t1_fail(T, CUTUNE_EUNSUPPORTED, FIELD("FillType"),
                           "a scalar is a constant: FillType '%s' has no cutune equivalent", ft);
        if (!have_fv)
            return t1_fail(T, CUTUNE_EINVAL, FIELD("FillValue"), "missing (a scalar's value)");
        cJSON *node;
        int rc = t1_expr_node(T, fv, FIELD("FillValue"), T1_EXPR_SIZE, &node);
        if (rc)
            return rc;
        if (!t1_add(T, a, "value", node))
            return t1_oom(T);
        t1_map_field(T, NATIVE("value"), FIELD("FillValue"), 0);
        if (acc && !(cJSON_IsString(acc) && strcmp(acc->valuestring, "ReadOnly") == 0))
            t1_warn(T, FIELD("AccessType"), FIELD("AccessType"),
                    "ignored (a scalar is passed by value: only read)");
        /* fields of a buffer, which a scalar has not: said, as any field cutune ignores */
        if (out_flag)
            t1_warn(T, FIELD("Output"), FIELD("Output"),
                    "ignored (a scalar is passed by value: what the kernel writes is not seen)");
        if (size && !cJSON_IsNull(size))
            t1_warn(T, FIELD("Size"), FIELD("Size"), "ignored (a scalar is one value)");
    } else if (strcmp(mem, "Vector") == 0) {
        const char *access = cJSON_IsString(acc) ? acc->valuestring : NULL;
        if (acc &&
            !(access && (strcmp(access, "ReadOnly") == 0 || strcmp(access, "WriteOnly") == 0 ||
                         strcmp(access, "ReadWrite") == 0)))
            return t1_fail(T, CUTUNE_EINVAL, FIELD("AccessType"),
                           "expected ReadOnly, WriteOnly or ReadWrite");
        int output = (access && strcmp(access, "WriteOnly") == 0) || out_flag;
        if (output && access && strcmp(access, "ReadWrite") == 0)
            return t1_fail(T, CUTUNE_EUNSUPPORTED, FIELD("Output"),
                           "an output cutune checks is filled with NaN before each check, so it "
                           "cannot also be read (AccessType ReadWrite): make it WriteOnly, or drop "
                           "Output");
        if (!output && access && strcmp(access, "ReadWrite") == 0)
            t1_warn(T, FIELD("AccessType"), FIELD("AccessType"),
                    "ReadWrite: read as an input; what the kernel writes into it is not checked "
                    "(cutune checks write-only outputs)");
        if (!size)
            return t1_fail(T, CUTUNE_EINVAL, FIELD("Size"), "missing (a buffer's element count)");
        cJSON *node;
        int rc = t1_expr_node(T, size, FIELD("Size"), T1_EXPR_SIZE, &node);
        if (rc)
            return rc;
        if (!t1_add(T, a, "size", node))
            return t1_oom(T);
        t1_map_field(T, NATIVE("size"), FIELD("Size"), 0);
        const char *init = NULL;
        double hi = 0;
        if ((ft && strcmp(ft, "Constant") == 0) || (!ft && have_fv)) {
            double c = have_fv && cJSON_IsNumber(fv) ? fv->valuedouble : NAN;
            if (!have_fv)
                return t1_fail(T, CUTUNE_EINVAL, FIELD("FillValue"), "missing (the constant)");
            if (c == 0)
                init = "zeros";
            else if (c == 1)
                init = "ones";
            else if (output)
                t1_warn(T, FIELD("FillValue"), FIELD("FillValue"),
                        "ignored (an output starts from zeros, and is filled with NaN before each "
                        "check: the kernel writes it)");
            else
                return t1_fail(T, CUTUNE_EUNSUPPORTED, FIELD("FillValue"),
                               "a buffer of the constant %g has no cutune equivalent (cutune fills "
                               "with zeros, ones, uniform random numbers or a generator kernel)",
                               c);
        } else if (ft && strcmp(ft, "Random") == 0) {
            init = "random";
            if (have_fv) { /* KTT: uniform in [0, FillValue) */
                if (!cJSON_IsNumber(fv) || !(fv->valuedouble > 0) || !isfinite(fv->valuedouble))
                    return t1_fail(T, CUTUNE_EINVAL, FIELD("FillValue"),
                                   "expected a number above 0 (Random draws from [0, FillValue))");
                hi = fv->valuedouble;
            }
        } else if (ft) {
            return t1_fail(T, CUTUNE_EUNSUPPORTED, FIELD("FillType"),
                           "'%s' has no cutune equivalent (cutune fills buffers with zeros, ones, "
                           "uniform random numbers, or a generator kernel of the source: init "
                           "\"kernel:NAME\" in a cutune spec)",
                           ft);
        }
        if (init && !t1_add(T, a, "init", cJSON_CreateString(init)))
            return t1_oom(T);
        if (init)
            t1_map_field(T, NATIVE("init"), ft ? FIELD("FillType") : FIELD("FillValue"), 0);
        if (hi > 0) {
            cJSON *r = t1_add(T, a, "range", cJSON_CreateArray());
            cutune_value lo = {.type = CUTUNE_VALUE_INT, .i = 0},
                         h = {.type = CUTUNE_VALUE_REAL, .r = hi};
            if (!r || !t1_add(T, r, NULL, t1_number_node(&lo)) ||
                !t1_add(T, r, NULL, t1_number_node(&h)))
                return t1_oom(T);
            t1_map_field(T, NATIVE("range"), FIELD("FillValue"), 0);
        }
        if (output) {
            if (!t1_add(T, a, "output", cJSON_CreateTrue()))
                return t1_oom(T);
            t1_map_field(T, NATIVE("output"), access ? FIELD("AccessType") : FIELD("Output"), 0);
        }
    } else {
        return t1_fail(T, CUTUNE_EINVAL, FIELD("MemoryType"),
                       "expected Scalar, Vector, Local or Symbol");
    }
    if (t1_member(arg, "RandomSeed"))
        t1_warn(T, FIELD("RandomSeed"), FIELD("RandomSeed"),
                "ignored (cutune draws every input from the run's seed, --seed)");
    if (t1_member(arg, "DataSource") && !cJSON_IsNull(t1_member(arg, "DataSource")))
        t1_warn(T, FIELD("DataSource"), FIELD("DataSource"), "ignored (no FillType reads it)");
    static const char *const known[] = {"Name",      "Type",    "MemoryType", "FillType",
                                        "FillValue", "Size",    "AccessType", "Output",
                                        "TypeSize",  "MemType", "RandomSeed", "DataSource"};
    for (const cJSON *f = arg->child; f; f = f->next) {
        size_t q;
        for (q = 0; q < sizeof known / sizeof known[0] && strcmp(f->string, known[q]); q++)
            ;
        if (q == sizeof known / sizeof known[0]) {
            snprintf(shown, sizeof shown, "KernelSpecification.Arguments[*].%s", f->string);
            t1_warn(T, FIELD(f->string), shown, "ignored (not a field of T1's arguments)");
        }
    }
#undef FIELD
#undef NATIVE
    return 0;
}

int t1_load_args(t1 *T, const cJSON *ks, cJSON *doc)
{
    const cJSON *args = t1_member(ks, "Arguments");
    char path[PATH_LEN], npath[64];
    cJSON *arr = t1_add(T, doc, "args", cJSON_CreateArray());
    if (!arr)
        return t1_oom(T);
    t1_map_field(T, "args", "KernelSpecification.Arguments", 0);
    if (!args || cJSON_IsNull(args))
        return 0;
    if (!cJSON_IsArray(args))
        return t1_fail(T, CUTUNE_EINVAL, "KernelSpecification.Arguments", "expected an array");
    size_t i = 0;
    for (const cJSON *arg = args->child; arg; arg = arg->next, i++) {
        snprintf(path, sizeof path, "KernelSpecification.Arguments[%zu]", i);
        if (!cJSON_IsObject(arg))
            return t1_fail(T, CUTUNE_EINVAL, path, "expected an object");
        cJSON *a = t1_add(T, arr, NULL, cJSON_CreateObject());
        if (!a)
            return t1_oom(T);
        snprintf(npath, sizeof npath, "args[%zu]", i);
        t1_map_field(T, npath, path, 0);
        int rc = load_arg(T, arg, path, i, a);
        if (rc)
            return rc;
    }
    return 0;
}

/* ------------------------------------------------------------------ the document */
