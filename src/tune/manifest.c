/* The manifest of a result (include/cutune/manifest.h): what cutune, built how, on which
 * machine, from which recordings (SHA-256), with which searchers and options, seeds,
 * budgets and command line produced it. The build facts come from meson at build time
 * (cutune_vcs.h, cutune_build.h); the loaded libraries from the dynamic linker at run time
 * (dl_iterate_phdr, dladdr): which cblas_* the process really calls is what decides
 * whether GSL's BFGS rounds like on another machine. */
#include <dlfcn.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_version.h>

#include "cutune/common.h"
#include "cutune/manifest.h"
#include "cutune/sha256.h"
#include "cutune_build.h"
#include "cutune_config.h"
#include "cutune_vcs.h"

#define MANIFEST_FORMAT 1
#define MANIFEST_OPTIONS_MAX 2048 /* bytes of one searcher's resolved options */

const char *cutune_manifest_commit(void)
{
    static char commit[41];
    const char *d = CUTUNE_VCS_DESCRIBE;
    size_t n = strspn(d, "0123456789abcdef");
    if (n != 40)
        return "unknown";
    memcpy(commit, d, 40);
    commit[40] = '\0';
    return commit;
}

int cutune_manifest_dirty(void)
{
    if (strcmp(cutune_manifest_commit(), "unknown") == 0)
        return -1;
    return strstr(CUTUNE_VCS_DESCRIBE, "-dirty") != NULL;
}

/* ---- the machine */

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        const char *p = strchr(line, ':');
        if (!p)
            continue;
        p += 1 + strspn(p + 1, " \t");
        snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
        break;
    }
    fclose(f);
}

/* a shared object whose name says it is a BLAS, LAPACK or GSL */
static int is_linalg_lib(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    static const char *const keys[] = {"blas", "lapack", "gsl", "mkl", "blis", "atlas", NULL};
    for (int i = 0; keys[i]; i++)
        if (strstr(base, keys[i]))
            return 1;
    return 0;
}

static int add_lib(struct dl_phdr_info *info, size_t size, void *data)
{
    cJSON *libs = data;
    if (info->dlpi_name && *info->dlpi_name && is_linalg_lib(info->dlpi_name)) {
        char real[4096];
        const char *p = realpath(info->dlpi_name, real) ? real : info->dlpi_name;
        cJSON_AddItemToArray(libs, cJSON_CreateString(p));
    }
    return 0;
}

static cJSON *linalg_json(void)
{
    cJSON *o = cJSON_CreateObject(), *libs = cJSON_CreateArray();
    dl_iterate_phdr(add_lib, libs);
    cJSON_AddItemToObject(o, "loaded", libs);
    /* the library whose cblas_ddot GSL's multimin (the GP's hyper-parameter fit) calls */
    void *sym = dlsym(RTLD_DEFAULT, "cblas_ddot");
    Dl_info di;
    if (sym && dladdr(sym, &di) && di.dli_fname) {
        char real[4096], self[4096], text[8300];
        const char *p = realpath(di.dli_fname, real) ? real : di.dli_fname;
        if (realpath("/proc/self/exe", self) && strcmp(self, p) == 0) {
            snprintf(text, sizeof text, "the executable (src/cli/cblas_pin.c): %s", p);
            p = text;
        }
        cJSON_AddStringToObject(o, "cblas_provider", p);
    } else {
        cJSON_AddNullToObject(o, "cblas_provider");
    }
    char *(*obcfg)(void) = (char *(*)(void))dlsym(RTLD_DEFAULT, "openblas_get_config");
    if (obcfg)
        cJSON_AddStringToObject(o, "openblas_config", obcfg());
    else
        cJSON_AddNullToObject(o, "openblas_config");
    cJSON_AddStringToObject(o, "gsl", gsl_version);
    cJSON_AddStringToObject(o, "gp_linear_algebra",
                            "gp_dense.c: fixed order of operations, no BLAS/LAPACK");
    return o;
}

static cJSON *platform_json(void)
{
    cJSON *o = cJSON_CreateObject();
    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    cJSON_AddStringToObject(o, "cpu", cpu);
    struct utsname u;
    if (uname(&u) == 0) {
        char os[600];
        snprintf(os, sizeof os, "%s %s %s", u.sysname, u.release, u.machine);
        cJSON_AddStringToObject(o, "os", os);
    }
    cJSON_AddStringToObject(o, "libc", gnu_get_libc_version());
    return o;
}

static cJSON *build_json(void)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "version", CUTUNE_VERSION_STRING);
    cJSON_AddStringToObject(o, "commit", cutune_manifest_commit());
    int dirty = cutune_manifest_dirty();
    if (dirty < 0)
        cJSON_AddNullToObject(o, "dirty");
    else
        cJSON_AddBoolToObject(o, "dirty", dirty);
    cJSON_AddStringToObject(o, "buildtype", CUTUNE_BUILD_TYPE);
    cJSON_AddStringToObject(o, "optimization", CUTUNE_BUILD_OPTIMIZATION);
    cJSON_AddBoolToObject(o, "debug", CUTUNE_BUILD_DEBUG);
    cJSON_AddStringToObject(o, "sanitize", CUTUNE_BUILD_SANITIZE);
    cJSON_AddStringToObject(o, "c_args", CUTUNE_BUILD_C_ARGS);
    cJSON_AddStringToObject(o, "compiler", CUTUNE_BUILD_COMPILER);
    cJSON_AddStringToObject(o, "meson", CUTUNE_BUILD_MESON);
    cJSON_AddBoolToObject(o, "nvrtc", CUTUNE_HAVE_NVRTC);
    cJSON_AddBoolToObject(o, "mpi", CUTUNE_HAVE_MPI);
    return o;
}

/* ---- the experiment */

typedef struct {
    const cJSON *rec; /* the recording's entry */
    size_t index;     /* ... its index in the input */
} rec_ref;

static int cmp_rec(const void *a, const void *b)
{
    const rec_ref *x = a, *y = b;
    return strcmp(cJSON_GetObjectItem(x->rec, "sha256")->valuestring,
                  cJSON_GetObjectItem(y->rec, "sha256")->valuestring);
}

/* "restrictions" of a recording: the expressions it was searched under and where they
 * came from ("--restrict", or a file with its SHA-256 and the section), or null when
 * none were known. */
static int space_json(const cutune_manifest_space *sp, cJSON *r, char *err, size_t errlen)
{
    if (!sp->known) {
        cJSON_AddNullToObject(r, "restrictions");
        return 0;
    }
    cJSON *o = cJSON_CreateObject(), *exprs = cJSON_CreateArray();
    cJSON_AddItemToObject(r, "restrictions", o);
    cJSON_AddStringToObject(o, "from", sp->file ? "file" : "--restrict");
    for (size_t k = 0; k < sp->n; k++)
        cJSON_AddItemToArray(exprs, cJSON_CreateString(sp->restrictions[k]));
    cJSON_AddItemToObject(o, "expressions", exprs);
    if (sp->file) {
        char hex[65], real[4096];
        int rc = cutune_sha256_file(sp->file, hex, NULL, err, errlen);
        if (rc < 0)
            return rc;
        cJSON_AddStringToObject(o, "file", sp->file);
        cJSON_AddStringToObject(o, "abs_file", realpath(sp->file, real) ? real : sp->file);
        cJSON_AddStringToObject(o, "file_sha256", hex);
        if (sp->section)
            cJSON_AddStringToObject(o, "section", sp->section);
    }
    return 0;
}

static int recordings_json(const cutune_manifest_input *in, cJSON *exp, cutune_sha256 *id,
                           char *err, size_t errlen)
{
    cJSON *arr = cJSON_CreateArray();
    cJSON_AddItemToObject(exp, "recordings", arr);
    rec_ref *sorted = calloc(in->nrecordings ? in->nrecordings : 1, sizeof *sorted);
    if (!arr || !sorted) {
        free(sorted);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "manifest: out of memory");
    }
    for (size_t i = 0; i < in->nrecordings; i++) {
        char hex[65], real[4096];
        uint64_t size = 0;
        int rc = cutune_sha256_file(in->recordings[i], hex, &size, err, errlen);
        if (rc < 0) {
            free(sorted);
            return rc;
        }
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "path", in->recordings[i]);
        cJSON_AddStringToObject(r, "abs_path",
                                realpath(in->recordings[i], real) ? real : in->recordings[i]);
        cJSON_AddStringToObject(r, "sha256", hex);
        cJSON_AddNumberToObject(r, "bytes", (double)size);
        cJSON_AddItemToArray(arr, r);
        if (in->spaces && (rc = space_json(&in->spaces[i], r, err, errlen)) < 0) {
            free(sorted);
            return rc;
        }
        sorted[i] = (rec_ref){r, i};
    }
    /* the identity does not depend on the order the files were given in; a recording's
     * restrictions are part of it (their expressions, not the file's name) */
    qsort(sorted, in->nrecordings, sizeof *sorted, cmp_rec);
    for (size_t i = 0; i < in->nrecordings; i++) {
        const char *h = cJSON_GetObjectItem(sorted[i].rec, "sha256")->valuestring;
        cutune_sha256_update(id, h, strlen(h));
        const cutune_manifest_space *sp = in->spaces ? &in->spaces[sorted[i].index] : NULL;
        if (sp && sp->known) {
            cutune_sha256_update(id, "\trestricted", 11);
            for (size_t k = 0; k < sp->n; k++) {
                cutune_sha256_update(id, "\t", 1);
                cutune_sha256_update(id, sp->restrictions[k], strlen(sp->restrictions[k]));
            }
        }
        cutune_sha256_update(id, "\n", 1);
    }
    free(sorted);
    return 0;
}

static int searchers_json(const cutune_manifest_input *in, cJSON *exp, char *err, size_t errlen)
{
    cJSON *arr = cJSON_CreateArray();
    cJSON_AddItemToObject(exp, "searchers", arr);
    char *buf = malloc(MANIFEST_OPTIONS_MAX);
    if (!arr || !buf) {
        free(buf);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "manifest: out of memory");
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < in->nsearchers; i++) {
        const cutune_searcher_type *t = in->types[i];
        const char *args = in->args ? in->args[i] : NULL;
        cJSON *s = cJSON_CreateObject(), *res = cJSON_CreateObject();
        cJSON_AddStringToObject(s, "label", in->labels && in->labels[i] ? in->labels[i] : t->name);
        cJSON_AddStringToObject(s, "name", t->name);
        if (args)
            cJSON_AddStringToObject(s, "args", args);
        else
            cJSON_AddNullToObject(s, "args");
        cJSON_AddItemToObject(s, "resolved", res); /* budget -> options in force */
        cJSON_AddItemToArray(arr, s);
        for (size_t b = 0; rc == 0 && b < in->nbudgets; b++) {
            rc = cutune_searcher_resolve_options(t, args, in->budgets[b], buf, MANIFEST_OPTIONS_MAX,
                                                 err, errlen);
            char key[32];
            snprintf(key, sizeof key, "%zu", in->budgets[b]);
            if (rc == 0)
                cJSON_AddStringToObject(res, key, buf);
        }
    }
    free(buf);
    return rc;
}

int cutune_manifest_build(const cutune_manifest_input *in, char **json, char *identity, char *err,
                          size_t errlen)
{
    *json = NULL;
    cJSON *m = cJSON_CreateObject(), *exp = cJSON_CreateObject(), *cmd = cJSON_CreateArray();
    if (!m || !exp || !cmd) {
        cJSON_Delete(m);
        cJSON_Delete(exp);
        cJSON_Delete(cmd);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "manifest: out of memory");
    }
    cJSON_AddNumberToObject(m, "format", MANIFEST_FORMAT);
    cJSON_AddStringToObject(m, "kind", in->kind ? in->kind : "bench");
    cJSON_AddItemToObject(m, "identity", cJSON_CreateString(""));
    for (int i = 0; i < in->argc; i++)
        cJSON_AddItemToArray(cmd, cJSON_CreateString(in->argv[i]));
    cJSON_AddItemToObject(m, "command", cmd);
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd))
        cJSON_AddStringToObject(m, "cwd", cwd); /* relative recording paths start here */
    cJSON_AddItemToObject(m, "experiment", exp);
    cutune_sha256 id;
    cutune_sha256_init(&id);
    int rc = recordings_json(in, exp, &id, err, errlen);
    if (rc == 0) {
        if (in->convention)
            cJSON_AddStringToObject(exp, "convention", in->convention);
        else
            cJSON_AddNullToObject(exp, "convention");
        cJSON *restr = cJSON_CreateArray();
        for (size_t i = 0; i < in->nrestrictions; i++)
            cJSON_AddItemToArray(restr, cJSON_CreateString(in->restrictions[i]));
        cJSON_AddItemToObject(exp, "restrictions", restr);
        rc = searchers_json(in, exp, err, errlen);
    }
    if (rc == 0) {
        cJSON *b = cJSON_CreateArray();
        for (size_t i = 0; i < in->nbudgets; i++)
            cJSON_AddItemToArray(b, cJSON_CreateNumber((double)in->budgets[i]));
        cJSON_AddItemToObject(exp, "budgets", b);
        cJSON *seeds = cJSON_CreateObject();
        cJSON_AddNumberToObject(seeds, "first", (double)in->seed_first);
        cJSON_AddNumberToObject(seeds, "count", (double)in->nseeds);
        cJSON_AddStringToObject(seeds, "generator", "gsl_rng_mt19937");
        cJSON_AddItemToObject(exp, "seeds", seeds);
        cJSON_AddNumberToObject(exp, "parallel", (double)(in->parallel ? in->parallel : 1));
        if (in->objective)
            cJSON_AddStringToObject(exp, "objective", in->objective);
        if (in->nsubject_to) {
            cJSON *st = cJSON_CreateArray();
            for (size_t i = 0; i < in->nsubject_to; i++)
                cJSON_AddItemToArray(st, cJSON_CreateString(in->subject_to[i]));
            cJSON_AddItemToObject(exp, "subject_to", st);
        }
        if (in->batch > 1)
            cJSON_AddNumberToObject(exp, "batch", (double)in->batch);
        if (in->time_limit_s > 0)
            cJSON_AddNumberToObject(exp, "time_limit_s", in->time_limit_s);
        if (in->warm_start_prior)
            cJSON_AddStringToObject(exp, "warm_start_prior", in->warm_start_prior);
        if (in->split)
            cJSON_AddTrueToObject(exp, "split");
        if (in->per_seed)
            cJSON_AddTrueToObject(exp, "per_seed");
        /* the identity: everything in "experiment" except the paths (the same files under
         * another name are the same experiment) and the extra tables (the same cells) */
        cJSON *copy = cJSON_Duplicate(exp, 1);
        cJSON_DeleteItemFromObject(copy, "recordings");
        cJSON_DeleteItemFromObject(copy, "split");
        cJSON_DeleteItemFromObject(copy, "per_seed");
        char *text = copy ? cJSON_PrintUnformatted(copy) : NULL;
        cJSON_Delete(copy);
        if (!text)
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "manifest: out of memory");
        else {
            cutune_sha256_update(&id, text, strlen(text));
            free(text);
        }
    }
    if (rc == 0) {
        unsigned char d[32];
        cutune_sha256_final(&id, d);
        const char *commit = cutune_manifest_commit();
        snprintf(identity, 24, "%.7s-%02x%02x%02x%02x", commit, d[0], d[1], d[2], d[3]);
        cJSON_ReplaceItemInObject(m, "identity", cJSON_CreateString(identity));
        cJSON_AddItemToObject(m, "cutune", build_json());
        cJSON_AddItemToObject(m, "linear_algebra", linalg_json());
        cJSON_AddItemToObject(m, "platform", platform_json());
        *json = cJSON_Print(m);
        if (!*json)
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "manifest: out of memory");
    }
    cJSON_Delete(m);
    return rc;
}

int cutune_manifest_attach(const char *path, const char *json, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    int rc = cutune_read_file(path, &text, &len, err, errlen);
    if (rc < 0)
        return rc;
    cJSON *doc = cJSON_ParseWithLength(text, len), *man = cJSON_Parse(json);
    free(text);
    if (!doc || !cJSON_IsObject(doc) || !man) {
        cJSON_Delete(doc);
        cJSON_Delete(man);
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s: not a JSON object", path);
    }
    cJSON_DeleteItemFromObject(doc, "manifest");
    cJSON_AddItemToObject(doc, "manifest", man);
    char *out = cJSON_Print(doc);
    cJSON_Delete(doc);
    if (!out)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    cutune_outfile *o = NULL;
    rc = cutune_outfile_open(path, 0, 0644, &o, err, errlen);
    if (rc == 0) {
        FILE *f = cutune_outfile_stream(o);
        if (!f) {
            cutune_outfile_abort(o);
            rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot write", path);
        } else {
            fputs(out, f);
            fputc('\n', f);
            rc = cutune_outfile_commit(o, NULL, err, errlen);
        }
    }
    free(out);
    return rc;
}
