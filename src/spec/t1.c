/*
 * T1 input files read as kernel specs. T1 is the auto-tuning community's description of a
 * tuning problem (the AutoTuningAssociation's "Tuning format" schema, TuningSchema.json,
 * shipped by Kernel Tuner as schema/T1/1.0.0/input-schema.json and read by KTT and BAT).
 *
 * The T1 document is mapped onto a cutune spec document in memory, and that is loaded as
 * any spec is (spec.c): one set of checks for both formats. The spec loader's messages
 * name cutune's fields ("args[2].size"); each field made here is recorded with the T1
 * field it came from, so a message is rewritten to name the T1 field and its line in the
 * T1 file. What T1 says that cutune cannot do is an error when it changes what is measured
 * or what counts as correct, and a warning (spec->warnings, one line each) when it is
 * metadata or run control. docs/formats.md has the mapping table.
 *
 * This file holds the state's messages and warnings, the field map, the small JSON helpers
 * the other parts share, the top-level build of the cutune document, the rewriting of the
 * spec loader's messages, and the public entry points. The tuning parameters and
 * conditions are read in t1_space.c, the kernel (source, sizes, launch, arguments) in
 * t1_kernel.c; what they share is declared in t1_internal.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_path.h"
#include "src/common/json_check.h"
#include "t1_internal.h"

/* ------------------------------------------------------------------ messages */

int t1_is_ident_char(char c, int first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (!first && c >= '0' && c <= '9');
}

static int is_ident(const char *s)
{
    if (!s || !t1_is_ident_char(s[0], 1))
        return 0;
    for (const char *p = s + 1; *p; p++)
        if (!t1_is_ident_char(*p, 0))
            return 0;
    return 1;
}

/* "FILE:LINE: PATH: reason" (the line where the T1 file holds PATH, or the deepest part of
 * it that it holds); no line when the text has none. */
static void vformat_at(const t1 *T, char *buf, size_t len, const char *path, const char *fmt,
                       va_list ap)
{
    char reason[MSG_LEN];
    size_t steps = 0, line = 0;
    vsnprintf(reason, sizeof reason, fmt, ap);
    if (T->text)
        line = cutune_json_path_line(T->text, T->len, path ? path : "", &steps);
    if (line && path && *path)
        snprintf(buf, len, "%s:%zu: %s: %s", T->file, line, path, reason);
    else if (line)
        snprintf(buf, len, "%s:%zu: %s", T->file, line, reason);
    else if (path && *path)
        snprintf(buf, len, "%s: %s: %s", T->file, path, reason);
    else
        snprintf(buf, len, "%s: %s", T->file, reason);
}

int t1_fail(t1 *T, int code, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (T->err && T->errlen)
        vformat_at(T, T->err, T->errlen, path, fmt, ap);
    va_end(ap);
    return code;
}

int t1_oom(t1 *T)
{
    return t1_fail(T, CUTUNE_ENOMEM, NULL, "out of memory");
}

/* One warning line about the field at line_path, shown as shown (a "[*]" path names every
 * element of an array once); a line said already is not said again. */
void t1_warn(t1 *T, const char *line_path, const char *shown, const char *fmt, ...)
{
    char reason[MSG_LEN], line[MSG_LEN + PATH_LEN + 64], tmp[MSG_LEN + PATH_LEN + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    snprintf(tmp, sizeof tmp, "%s: %s", shown, reason);
    if (T->warnings) /* said already (without its line: the first occurrence's stays) */
        for (const char *p = T->warnings; (p = strstr(p, tmp)); p++)
            if (p[strlen(tmp)] == '\n' && p > T->warnings && p[-1] == ' ')
                return;
    size_t steps = 0, ln = cutune_json_path_line(T->text, T->len, line_path, &steps);
    int n = snprintf(line, sizeof line, "%s:%zu: %s\n", T->file, ln, tmp);
    if (n < 0)
        return;
    size_t add = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    char *w = realloc(T->warnings, T->wlen + add + 1);
    if (!w) {
        T->oom = 1;
        return;
    }
    memcpy(w + T->wlen, line, add);
    T->wlen += add;
    w[T->wlen] = '\0';
    T->warnings = w;
}

/* ------------------------------------------------------------------ building */

char *t1_dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Record that the native field came from the T1 field. */
void t1_map_field(t1 *T, const char *native, const char *t1path, int keep_suffix)
{
    if (T->nmaps == T->capmaps) {
        size_t cap = T->capmaps ? 2 * T->capmaps : 32;
        t1_map *m = realloc(T->maps, cap * sizeof *m);
        if (!m) {
            T->oom = 1;
            return;
        }
        T->maps = m;
        T->capmaps = cap;
    }
    t1_map *m = &T->maps[T->nmaps];
    m->native = t1_dup_str(native);
    m->t1 = t1_dup_str(t1path);
    m->keep_suffix = keep_suffix;
    if (!m->native || !m->t1) {
        free(m->native);
        free(m->t1);
        T->oom = 1;
        return;
    }
    T->nmaps++;
}

/* Add item to obj under key (or to the array obj when key is NULL); an allocation that
 * failed is remembered, never a crash. */
cJSON *t1_add(t1 *T, cJSON *obj, const char *key, cJSON *item)
{
    if (!item || !obj) {
        cJSON_Delete(item);
        T->oom = 1;
        return NULL;
    }
    int ok = key ? cJSON_AddItemToObject(obj, key, item) : cJSON_AddItemToArray(obj, item);
    if (!ok) {
        cJSON_Delete(item);
        T->oom = 1;
        return NULL;
    }
    return item;
}

/* A number node printed as the literal text (the spec loader reads 1 and 1.0 apart). */
cJSON *t1_number_node(const cutune_value *v)
{
    char text[64];
    cutune_value_format(v, text, sizeof text);
    return cJSON_CreateRaw(text);
}

/* A JSON number as a value: an integer where it is integral, else a real. An integer
 * literal is read from the text, as a spec's is: its double would round one beyond 2^53
 * (an int64 FillValue 9007199254740993 read as ...992). */
cutune_value t1_json_number(const t1 *T, const cJSON *j)
{
    cutune_value v = {.type = CUTUNE_VALUE_REAL, .r = j->valuedouble};
    const numtok *t = spec_find_number(T->nums, T->nnums, j);
    if (t && t->len < 32 && !memchr(t->text, '.', t->len) && !memchr(t->text, 'e', t->len) &&
        !memchr(t->text, 'E', t->len)) {
        char buf[32], *end;
        memcpy(buf, t->text, t->len);
        buf[t->len] = '\0';
        errno = 0;
        long long i = strtoll(buf, &end, 10);
        if (errno != ERANGE && !*end) {
            v.type = CUTUNE_VALUE_INT;
            v.i = i;
            return v;
        }
    }
    if (j->valuedouble == floor(j->valuedouble) && fabs(j->valuedouble) < 9007199254740992.0) {
        v.type = CUTUNE_VALUE_INT;
        v.i = (long long)j->valuedouble;
    }
    return v;
}

const cJSON *t1_member(const cJSON *obj, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(obj, name);
}

/* parent.key (key an identifier) or parent["key"], as the spec loader spells paths. */
void t1_path_member(char *buf, size_t len, const char *parent, const char *key)
{
    const char *dot = parent && *parent ? "." : "";
    if (is_ident(key))
        snprintf(buf, len, "%s%s%s", parent ? parent : "", dot, key);
    else
        snprintf(buf, len, "%s[\"%s\"]", parent ? parent : "", key);
}

/* ------------------------------------------------------------------ expressions */
/* Fields cutune reads no equivalent of, each said once: where run control or metadata,
 * a warning (the run goes on as the command line says). */
static void warn_members(t1 *T, const cJSON *obj, const char *parent, const char *const *known,
                         size_t nknown, const char *const (*ignored)[2], size_t nignored)
{
    char path[PATH_LEN];
    for (const cJSON *f = obj->child; f; f = f->next) {
        size_t k;
        for (k = 0; k < nknown && strcmp(f->string, known[k]); k++)
            ;
        if (k < nknown || cJSON_IsNull(f))
            continue;
        t1_path_member(path, sizeof path, parent, f->string);
        for (k = 0; k < nignored && strcmp(f->string, ignored[k][0]); k++)
            ;
        if (k < nignored)
            t1_warn(T, path, path, "ignored (%s)", ignored[k][1]);
        else
            t1_warn(T, path, path, "ignored (not a T1 field cutune knows)");
    }
}

static int load_kernel_spec(t1 *T, const cJSON *root, cJSON *doc)
{
    const cJSON *ks = t1_member(root, "KernelSpecification");
    const char *path = "KernelSpecification";
    if (!ks)
        return t1_fail(T, CUTUNE_EINVAL, path, "missing (required)");
    if (!cJSON_IsObject(ks))
        return t1_fail(T, CUTUNE_EINVAL, path, "expected an object");
    const cJSON *lang = t1_member(ks, "Language");
    if (!lang)
        return t1_fail(T, CUTUNE_EINVAL, "KernelSpecification.Language", "missing (required)");
    if (!cJSON_IsString(lang) || strcmp(lang->valuestring, "CUDA") != 0)
        return t1_fail(T, CUTUNE_EUNSUPPORTED, "KernelSpecification.Language",
                       "%s%s%s: cutune tunes CUDA kernels", cJSON_IsString(lang) ? "'" : "",
                       cJSON_IsString(lang) ? lang->valuestring : "not a language",
                       cJSON_IsString(lang) ? "'" : "");
    const cJSON *tn = t1_member(ks, "KernelTypeNames");
    if (tn && !(cJSON_IsArray(tn) && !tn->child))
        return t1_fail(T, CUTUNE_EUNSUPPORTED, "KernelSpecification.KernelTypeNames",
                       "template arguments of the kernel have no cutune equivalent (instantiate "
                       "it as an extern \"C\" kernel)");
    const cJSON *refs = t1_member(ks, "ReferenceArguments");
    if (refs && !(cJSON_IsArray(refs) && !refs->child) && !cJSON_IsNull(refs))
        return t1_fail(
            T, CUTUNE_EUNSUPPORTED, "KernelSpecification.ReferenceArguments",
            "reference data has no cutune equivalent (cutune checks outputs against a "
            "reference kernel of the source; without this check a wrong kernel could "
            "win: remove it to tune unchecked, or write a cutune spec with \"reference\")");
    int rc = t1_load_source(T, ks, doc);
    if (!rc)
        rc = t1_load_problem_size(T, ks, doc);
    if (rc)
        return rc;
    return 0;
}

/* After the parameters: what reads them (launch geometry, buffer sizes). */
static int load_kernel_rest(t1 *T, const cJSON *root, cJSON *doc)
{
    const cJSON *ks = t1_member(root, "KernelSpecification");
    int rc = t1_load_launch(T, ks, doc);
    const cJSON *co = t1_member(ks, "CompilerOptions");
    if (!rc && co && !cJSON_IsNull(co)) {
        if (!t1_add(T, doc, "compiler_options", cJSON_Duplicate(co, 1)))
            return t1_oom(T);
        t1_map_field(T, "compiler_options", "KernelSpecification.CompilerOptions", 1);
    }
    if (!rc)
        rc = t1_load_args(T, ks, doc);
    const cJSON *sim = t1_member(ks, "SimulationInput");
    if (!rc && sim && !cJSON_IsNull(sim)) {
        if (!t1_add(T, doc, "recording", cJSON_Duplicate(sim, 1)))
            return t1_oom(T);
        t1_map_field(T, "recording", "KernelSpecification.SimulationInput", 0);
    }
    if (rc)
        return rc;
    const cJSON *prof = t1_member(ks, "Profiling");
    if (prof && !cJSON_IsNull(prof) && !cJSON_IsBool(prof)) /* "yes": neither, not dropped */
        return t1_fail(T, CUTUNE_EINVAL, "KernelSpecification.Profiling", "expected true or false");
    if (prof && cJSON_IsTrue(prof))
        t1_warn(T, "KernelSpecification.Profiling", "KernelSpecification.Profiling",
                "ignored (cutune collects no profiling counters)");
    static const char *const known[] = {
        "Language",        "KernelName",        "KernelFile",      "GlobalSize", "LocalSize",
        "GlobalSizeType",  "SharedMemory",      "CompilerOptions", "Arguments",  "ProblemSize",
        "SimulationInput", "KernelTypeNames",   "Profiling",       "GridDivX",   "GridDivY",
        "GridDivZ",        "ReferenceArguments"};
    static const char *const ignored[][2] = {
        {"Device", "cutune measures on the GPU its evaluator runs on"},
        {"BenchmarkName", "General.BenchmarkName names the spec"},
        {"Stream", "cutune launches on its own stream"},
    };
    warn_members(T, ks, "KernelSpecification", known, sizeof known / sizeof known[0], ignored,
                 sizeof ignored / sizeof ignored[0]);
    return 0;
}

static int load_general(t1 *T, const cJSON *root, cJSON *doc)
{
    const cJSON *g = t1_member(root, "General");
    if (!g || cJSON_IsNull(g))
        return 0;
    if (!cJSON_IsObject(g))
        return t1_fail(T, CUTUNE_EINVAL, "General", "expected an object");
    const cJSON *bn = t1_member(g, "BenchmarkName");
    if (bn) {
        if (!cJSON_IsString(bn) || !bn->valuestring[0])
            return t1_fail(T, CUTUNE_EINVAL, "General.BenchmarkName", "expected a name");
        if (!t1_add(T, doc, "name", cJSON_CreateString(bn->valuestring)))
            return t1_oom(T);
        t1_map_field(T, "name", "General.BenchmarkName", 0);
    }
    const cJSON *fv = t1_member(g, "FormatVersion");
    if (fv && !(cJSON_IsNumber(fv) && fv->valuedouble == 1))
        t1_warn(T, "General.FormatVersion", "General.FormatVersion",
                "read as version 1 (the version cutune knows)");
    static const char *const known[] = {"BenchmarkName", "FormatVersion"};
    static const char *const ignored[][2] = {
        {"LoggingLevel", "cutune says what it does on stderr"},
        {"TimeUnit", "cutune reports milliseconds"},
        {"OutputFile", "cutune writes what its options ask for: --t4=FILE for T4 results"},
        {"OutputFormat", "cutune writes what its options ask for: --t4=FILE for T4 results"},
    };
    warn_members(T, g, "General", known, 2, ignored, sizeof ignored / sizeof ignored[0]);
    return 0;
}

static int build(t1 *T, const cJSON *root, cJSON *doc)
{
    const cJSON *cs = t1_member(root, "ConfigurationSpace");
    if (!cs)
        return t1_fail(T, CUTUNE_EINVAL, "ConfigurationSpace", "missing (required)");
    if (!cJSON_IsObject(cs))
        return t1_fail(T, CUTUNE_EINVAL, "ConfigurationSpace", "expected an object");
    int rc = load_general(T, root, doc);
    if (!rc)
        rc = load_kernel_spec(T, root, doc);
    if (!rc)
        rc = t1_load_parameters(T, cs, doc);
    if (!rc)
        rc = t1_load_conditions(T, cs, doc);
    if (!rc)
        rc = load_kernel_rest(T, root, doc);
    if (rc)
        return rc;
    static const char *const cs_known[] = {"TuningParameters", "Conditions"};
    warn_members(T, cs, "ConfigurationSpace", cs_known, 2, NULL, 0);
    static const char *const known[] = {"General", "KernelSpecification", "ConfigurationSpace"};
    static const char *const ignored[][2] = {
        {"Search", "the searcher is --searcher"},
        {"Budget", "the budget is --budget or --time-limit"},
    };
    warn_members(T, root, NULL, known, 3, ignored, 2);
    return T->oom ? t1_oom(T) : 0;
}

/* ------------------------------------------------------------------ loading */

/* Rewrite a message of the spec loader about the cutune document ("FILE:1: args[2].size:
 * reason") to name the T1 field it came from, and its line. */
static void rewrite_message(t1 *T, char *err, size_t errlen)
{
    char msg[MSG_LEN], t1path[PATH_LEN * 2];
    size_t fl = strlen(T->file);
    if (!err || !errlen || strncmp(err, T->file, fl) != 0)
        return;
    snprintf(msg, sizeof msg, "%s", err);
    const char *p = msg + fl;
    if (*p == ':' && p[1] >= '0' && p[1] <= '9') /* the line in the (one-line) document */
        for (p++; *p >= '0' && *p <= '9'; p++)
            ;
    if (strncmp(p, ": ", 2) != 0)
        return;
    p += 2;
    const char *colon = strstr(p, ": ");
    const t1_map *best = NULL;
    size_t bestlen = 0, plen = colon ? (size_t)(colon - p) : 0;
    for (size_t m = 0; colon && m < T->nmaps; m++) {
        size_t n = strlen(T->maps[m].native);
        if (n > plen || n <= bestlen || strncmp(p, T->maps[m].native, n) != 0)
            continue;
        if (n < plen && p[n] != '.' && p[n] != '[')
            continue;
        best = &T->maps[m];
        bestlen = n;
    }
    if (!best) {
        t1_fail(T, CUTUNE_EINVAL, NULL, "%s", p);
    } else {
        snprintf(t1path, sizeof t1path, "%s%.*s", best->t1,
                 best->keep_suffix ? (int)(plen - bestlen) : 0, p + bestlen);
        t1_fail(T, CUTUNE_EINVAL, t1path, "%s", colon + 2);
    }
}

/* A key given twice in one object: cJSON keeps both and the readers here see the first, so
 * the second ("KernelFile" again, a second "Values") would be dropped silently. The message
 * of cutune_json_check_keys ("PATH: key \"K\" given twice ...") is said at PATH's line. */
static int check_repeated_keys(t1 *T, const cJSON *root)
{
    char msg[MSG_LEN], path[PATH_LEN];
    int rc = cutune_json_check_keys(root, msg, sizeof msg);
    if (rc >= 0)
        return 0;
    const char *key = strstr(msg, ": key \"");
    if (!key || (size_t)(key - msg) >= sizeof path)
        return t1_fail(T, rc, NULL, "%s", msg); /* the top level's keys, or out of memory */
    snprintf(path, sizeof path, "%.*s", (int)(key - msg), msg);
    return t1_fail(T, rc, path, "%s", key + 2);
}

static void t1_free(t1 *T)
{
    for (size_t m = 0; m < T->nmaps; m++) {
        free(T->maps[m].native);
        free(T->maps[m].t1);
    }
    free(T->maps);
    for (size_t p = 0; p < T->nparams; p++)
        free(T->params[p].name);
    free(T->params);
    free(T->warnings);
}

int cutune_spec_t1_detect(const cJSON *root)
{
    return cJSON_IsObject(root) &&
           (t1_member(root, "ConfigurationSpace") || t1_member(root, "KernelSpecification"));
}

int cutune_spec_t1_load(const char *file, const char *text, size_t len, const cJSON *root,
                        const numtok *nums, size_t nnums, const char *dir,
                        const cutune_size_override *ov, size_t nov, cutune_spec **out, char *err,
                        size_t errlen)
{
    t1 T = {.file = file,
            .dir = dir,
            .text = text,
            .len = len,
            .err = err,
            .errlen = errlen,
            .nums = nums,
            .nnums = nnums};
    cJSON *doc = cJSON_CreateObject();
    char *json = NULL;
    int rc;
    *out = NULL;
    if (!doc) {
        rc = t1_oom(&T);
        goto out_free;
    }
    rc = check_repeated_keys(&T, root);
    if (!rc)
        rc = build(&T, root, doc);
    if (rc)
        goto out_free;
    json = cJSON_PrintUnformatted(doc); /* one line: every message says line 1 */
    if (!json) {
        rc = t1_oom(&T);
        goto out_free;
    }
    rc = cutune_spec_load_buffer(file, json, strlen(json), dir, ov, nov, out, err, errlen);
    if (rc) {
        int code = rc;
        rewrite_message(&T, err, errlen);
        rc = code;
        goto out_free;
    }
    (*out)->warnings = T.warnings;
    T.warnings = NULL;
    /* the recording's messages name the T1 field at its line, as its load errors do */
    if ((*out)->recording_at) {
        const char *path = "KernelSpecification.SimulationInput";
        size_t steps = 0, line = cutune_json_path_line(text, len, path, &steps);
        size_t n = strlen(file) + strlen(path) + 32;
        char *at = malloc(n);
        if (!at) {
            cutune_spec_free(*out);
            *out = NULL;
            rc = t1_oom(&T);
            goto out_free;
        }
        if (line && steps == 2)
            snprintf(at, n, "%s:%zu: %s", file, line, path);
        else
            snprintf(at, n, "%s: %s", file, path);
        free((*out)->recording_at);
        (*out)->recording_at = at;
    }
out_free:
    free(json);
    cJSON_Delete(doc);
    t1_free(&T);
    return rc;
}