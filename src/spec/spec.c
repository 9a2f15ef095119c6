/*
 * Kernel spec loader: kernels/NAME.json (+ NAME.cu) -> cutune_spec, whole or not at all.
 *
 * The JSON format is documented in docs/spec-format.md. Every error message has the
 * shape "FILE: JSON.PATH: reason" so a user can go straight to the offending member.
 * Loading builds the space in the order the symbol slots require (parameters, then
 * sizes as constants, then restrictions), enumerates it, and only then parses the
 * other expressions against the finished symbol table.
 *
 * This file drives a load: the JSON text, the top-level fields, the hash, the entry points
 * and the per-configuration queries. The readers of the fields live beside it
 * (spec_internal.h lists them): spec_parse.c (messages, numbers, shape checks,
 * expressions), spec_space.c, spec_args.c, spec_launch.c and spec_check.c.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/spec.h"
#include "t1.h"
#include "spec_internal.h"
#include "src/common/json_check.h"
#include "src/common/utf8.h"

/* ------------------------------------------------------------------ files and paths */

static char *dup_mem(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static char *join_path(const char *dir, const char *rel)
{
    if (rel[0] == '/' || !dir || !*dir || strcmp(dir, ".") == 0)
        return spec_strdup(rel);
    size_t a = strlen(dir), b = strlen(rel);
    int slash = dir[a - 1] != '/';
    char *p = malloc(a + (size_t)slash + b + 1);
    if (!p)
        return NULL;
    memcpy(p, dir, a);
    if (slash)
        p[a] = '/';
    memcpy(p + a + (size_t)slash, rel, b + 1);
    return p;
}

/* Directory part of path: "." when there is none, "/" for a file at the root. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return spec_strdup(".");
    if (slash == path)
        return spec_strdup("/");
    return dup_mem(path, (size_t)(slash - path));
}

/* File name without directory and without a trailing ".json". */
static char *stem_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    return dup_mem(base, n);
}

/* ------------------------------------------------------------------ hash */

/* FNV-1a 64 over JSON text, source text and the sizes after overrides, so a journal
 * from another spec, source or problem size is told apart. NUL bytes separate parts. */
static void compute_hash(cutune_spec *s, const char *json, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    const unsigned char zero = 0;
    h = cutune_fnv1a(h, json, len);
    h = cutune_fnv1a(h, &zero, 1);
    h = cutune_fnv1a(h, s->source, strlen(s->source));
    snprintf(s->kernel_hash, sizeof s->kernel_hash, "%016llx", (unsigned long long)h);
    for (size_t c = 0; c < s->nsizes; c++) {
        char buf[128];
        cutune_value v = cutune_space_constant_value(s->space, c);
        int n = snprintf(buf, sizeof buf, "%c%s=", 0, cutune_space_constant_name(s->space, c));
        if (n > 0 && (size_t)n < sizeof buf)
            cutune_value_format(&v, buf + n, sizeof buf - (size_t)n);
        h = cutune_fnv1a(h, buf, (size_t)n + strlen(buf + n));
    }
    snprintf(s->hash, sizeof s->hash, "%016llx", (unsigned long long)h);
}

/* ------------------------------------------------------------------ top level */

/* Longest "name": with "-SEED-YYYYmmdd-HHMMSS-N.jsonl" (up to 47 bytes) it stays far
 * below a file name's 255 bytes (NAME_MAX), room left for a --sizes run's shape labels. */
#define SPEC_NAME_MAX 128

static const char *const top_fields[] = {
    "name",      "description", "source",           "kernel",     "parameters", "restrictions",
    "sizes",     "launch",      "compiler_options", "args",       "reference",  "tolerance",
    "objective", "metrics",     "recording",        "recordings",
};

static int parse_json(loader *L, const char *json, size_t len, cJSON **root)
{
    const char *nul = memchr(json, '\0', len);
    if (nul)
        return spec_fail(L, CUTUNE_EPARSE, NULL, "malformed JSON: NUL byte at byte %zu",
                         (size_t)(nul - json));
    size_t bad = cutune_utf8_invalid_at(json, len);
    if (bad < len) {
        size_t line = 1, col = 1;
        for (size_t i = 0; i < bad; i++, col++)
            if (json[i] == '\n') {
                line++;
                col = 0;
            }
        return spec_fail(L, CUTUNE_EPARSE, NULL,
                         "not UTF-8 at line %zu, column %zu (byte %zu, 0x%02x): JSON text is "
                         "UTF-8 (save the file as UTF-8)",
                         line, col, bad, (unsigned)(unsigned char)json[bad]);
    }
    char *text = dup_mem(json, len);
    if (!text)
        return spec_fail(L, CUTUNE_ENOMEM, NULL, "out of memory");
    const char *end = NULL;
    /* len + 1: cJSON checks for the terminator inside the length it is given */
    *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
    if (*root) {
        free(text);
        return 0;
    }
    size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : len;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < off; i++, col++)
        if (text[i] == '\n') {
            line++;
            col = 0;
        }
    int rc;
    if (off >= len) {
        rc = spec_fail(L, CUTUNE_EPARSE, NULL,
                       "malformed JSON: unexpected end of input at line %zu, column %zu (byte %zu; "
                       "truncated?)",
                       line, col, off);
    } else {
        char near[24];
        size_t k;
        for (k = 0; k + 1 < sizeof near && off + k < len && text[off + k] != '\n'; k++) {
            unsigned char c = (unsigned char)text[off + k];
            near[k] = c >= 0x20 && c < 0x7f ? (char)c : '?';
        }
        near[k] = '\0';
        rc = spec_fail(L, CUTUNE_EPARSE, NULL,
                       "malformed JSON at line %zu, column %zu (byte %zu), near '%s'", line, col,
                       off, near);
    }
    free(text);
    return rc;
}

static int load_source(loader *L, const cJSON *root)
{
    cutune_spec *s = &L->impl->pub;
    const char *src, *kernel;
    char *fallback = NULL;
    size_t len;
    int rc = spec_string_member(L, root, NULL, "source", 0, &src);
    if (rc)
        return rc;
    if (!src) { /* default: NAME.cu beside the JSON, NAME the file stem */
        char *stem = stem_of(L->file);
        size_t n = stem ? strlen(stem) : 0;
        fallback = stem ? realloc(stem, n + 4) : NULL;
        if (!fallback) {
            free(stem);
            return spec_fail(L, CUTUNE_ENOMEM, "source", "out of memory");
        }
        memcpy(fallback + n, ".cu", 4);
        src = fallback;
    }
    s->source_path = join_path(L->dir, src);
    free(fallback);
    if (!s->source_path)
        return spec_fail(L, CUTUNE_ENOMEM, "source", "out of memory");
    char why[MSG_LEN];
    int e = cutune_read_file(s->source_path, &s->source, &len, why, sizeof why);
    if (e < 0)
        return spec_fail(L, e, "source", "%s", why);
    const char *nul = memchr(s->source, '\0', len);
    if (nul)
        return spec_fail(L, CUTUNE_EINVAL, "source",
                         "%s: NUL byte at byte %zu (a C source holds none: the compiler would see "
                         "only what comes before it)",
                         s->source_path, (size_t)(nul - s->source));
    rc = spec_string_member(L, root, NULL, "kernel", 0, &kernel);
    if (rc)
        return rc;
    s->kernel_name = spec_strdup(kernel ? kernel : s->name);
    if (!s->kernel_name)
        return spec_fail(L, CUTUNE_ENOMEM, "kernel", "out of memory");
    if (!spec_is_ident(s->kernel_name))
        return spec_fail(L, CUTUNE_EINVAL, "kernel", "'%s' is not a C identifier", s->kernel_name);
    if (!spec_source_has_word(s->source, s->kernel_name))
        return spec_fail(L, CUTUNE_ENOTFOUND, "kernel", "kernel '%s' not found in %s",
                         s->kernel_name, s->source_path);
    return 0;
}

/* "recordings": more recordings for no-GPU replay, each at other sizes; replay takes the
 * one whose header sizes are the run's (cli_spec_recording). Paths as "recording". */
static int load_recordings(loader *L, const cJSON *root)
{
    cutune_spec *s = &L->impl->pub;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "recordings");
    if (!a)
        return 0;
    if (!cJSON_IsArray(a))
        return spec_fail(L, CUTUNE_EINVAL, "recordings", "expected an array of file names");
    size_t n = (size_t)cJSON_GetArraySize(a);
    s->recordings = calloc(n ? n : 1, sizeof *s->recordings);
    s->recordings_at = calloc(n ? n : 1, sizeof *s->recordings_at);
    if (!s->recordings || !s->recordings_at)
        return spec_fail(L, CUTUNE_ENOMEM, "recordings", "out of memory");
    const cJSON *e;
    cJSON_ArrayForEach(e, a)
    {
        if (!cJSON_IsString(e) || !e->valuestring[0])
            return spec_fail(L, CUTUNE_EINVAL, "recordings",
                             "entry %zu: expected a file name (a string)", s->nrecordings);
        char at[40];
        snprintf(at, sizeof at, "recordings[%zu]", s->nrecordings);
        char *where = spec_where(L, at), *path = join_path(L->dir, e->valuestring);
        if (!where || !path) {
            free(where);
            free(path);
            return spec_fail(L, CUTUNE_ENOMEM, "recordings", "out of memory");
        }
        s->recordings_at[s->nrecordings] = where;
        s->recordings[s->nrecordings] = path;
        s->nrecordings++;
    }
    return 0;
}

static int load_tail(loader *L, const cJSON *root)
{
    cutune_spec *s = &L->impl->pub;
    const char *objective, *recording, *description;
    int rc = spec_string_member(L, root, NULL, "description", 0, &description);
    if (!rc)
        rc = spec_string_member(L, root, NULL, "objective", 0, &objective);
    if (rc)
        return rc;
    /* the run's default objective (docs/objectives.md), parsed once the run's space is
     * known; --objective overrides it */
    if (objective && !objective[strspn(objective, " \t")])
        return spec_fail(L, CUTUNE_EINVAL, "objective", "empty (time, energy, edp or EXPR)");
    s->objective = spec_strdup(objective ? objective : "time");
    if (!s->objective)
        return spec_fail(L, CUTUNE_ENOMEM, "objective", "out of memory");
    rc = spec_string_member(L, root, NULL, "recording", 0, &recording);
    if (rc)
        return rc;
    /* kept as a path: the recording may be measured later */
    if (recording && (!(s->recording = join_path(L->dir, recording)) ||
                      !(s->recording_at = spec_where(L, "recording"))))
        return spec_fail(L, CUTUNE_ENOMEM, "recording", "out of memory");
    return load_recordings(L, root);
}

static int load_root(loader *L, const cJSON *root, const char *json, size_t len,
                     const cutune_size_override *ov, size_t nov)
{
    spec_impl *impl = L->impl;
    cutune_spec *s = &impl->pub;
    const char *name;
    int rc = spec_want_type(L, root, NULL, cJSON_IsObject(root), "a JSON object at the top level");
    if (!rc)
        rc =
            spec_check_members(L, root, NULL, top_fields, sizeof top_fields / sizeof top_fields[0]);
    if (!rc)
        rc = spec_string_member(L, root, NULL, "name", 0, &name);
    if (rc)
        return rc;
    /* the name makes file names (runs/NAME-SEED-TIME.jsonl, a --sizes run's journals): one
     * too long for a file name was loaded, and the run then failed on its journal */
    if (name && strlen(name) > SPEC_NAME_MAX)
        return spec_fail(L, CUTUNE_EINVAL, "name",
                         "%zu bytes; at most %d (it names the default journal, "
                         "runs/NAME-SEED-TIME.jsonl, which must fit in a file name)",
                         strlen(name), SPEC_NAME_MAX);
    /* ... and must be one: "../x" put a --sizes run's journals outside runs/ (in
     * runs/../x-SEED-TIME-SHAPE.jsonl), "a/b" named a folder that is not there */
    if (name && (strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0))
        return spec_fail(L, CUTUNE_EINVAL, "name",
                         "'%s' is not a file name: no '/', not '.' or '..' (it names the "
                         "default journal, runs/NAME-SEED-TIME.jsonl)",
                         name);
    s->path = spec_strdup(L->file);
    s->name = name ? spec_strdup(name) : stem_of(L->file);
    s->space = cutune_space_alloc();
    if (!s->path || !s->name || !s->space)
        return spec_fail(L, CUTUNE_ENOMEM, NULL, "out of memory");
    rc = load_source(L, root);
    if (!rc)
        rc = spec_load_params(L, root);
    if (!rc)
        rc = spec_load_sizes(L, root, ov, nov);
    if (!rc)
        rc = spec_load_restrictions(L, root);
    if (!rc)
        rc = spec_enumerate(L);
    if (rc)
        return rc;
    cutune_symtab syms = cutune_space_symtab(s->space);
    rc = spec_build_metric_symtab(L, &syms);
    if (!rc)
        rc = spec_load_launch(L, root, &syms);
    if (!rc)
        rc = spec_load_options(L, root, &syms);
    if (!rc)
        rc = spec_load_args(L, root, &syms);
    if (!rc)
        rc = spec_load_reference(L, root, &syms);
    if (!rc)
        rc = spec_load_tolerance(L, root);
    if (!rc)
        rc = spec_load_metrics(L, root);
    if (!rc)
        rc = load_tail(L, root);
    if (!rc)
        rc = spec_smoke_test(L);
    if (!rc)
        compute_hash(s, json, len);
    return rc;
}

int cutune_spec_load_buffer(const char *name, const char *json, size_t len, const char *source_dir,
                            const cutune_size_override *ov, size_t nov, cutune_spec **out,
                            char *err, size_t errlen)
{
    loader L = {.file = name ? name : "(buffer)", .dir = source_dir, .err = err, .errlen = errlen};
    cJSON *root = NULL;
    int rc;
    if (out)
        *out = NULL;
    if (!json || !out || (nov && !ov))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: bad arguments to cutune_spec_load",
                          L.file);
    rc = parse_json(&L, json, len, &root);
    if (rc)
        return rc;
    L.text = json;
    L.textlen = len;
    /* cJSON cuts a string at a \u0000 ("k.cu\u0000x" would read as "k.cu"), in a T1 file
     * as in a spec: checked before either is read */
    char where[PATH_LEN];
    int is_key;
    if ((rc = cutune_json_check_nul(json, len, root, where, sizeof where, &is_key)) < 0) {
        rc = spec_fail(&L, rc, where, "%s a NUL character (\\u0000): spec strings hold none",
                       is_key ? "a key holds" : "holds");
        goto out_free_root;
    }
    rc = spec_index_numbers(&L, json, len, root); /* both formats read the literals */
    if (rc)
        goto out_free_root;
    if (cutune_spec_t1_detect(root)) { /* a T1 file (t1.c): mapped onto a spec, loaded here */
        rc = cutune_spec_t1_load(L.file, json, len, root, L.nums, L.nnums, source_dir, ov, nov, out,
                                 err, errlen);
        goto out_free_root;
    }
    L.impl = calloc(1, sizeof *L.impl);
    if (!L.impl) {
        rc = spec_fail(&L, CUTUNE_ENOMEM, NULL, "out of memory");
        goto out_free_root;
    }
    rc = load_root(&L, root, json, len, ov, nov);
    if (rc) {
        cutune_spec_free(&L.impl->pub);
        goto out_free_root;
    }
    *out = &L.impl->pub;
out_free_root:
    free(L.nums);
    cJSON_Delete(root);
    return rc;
}

int cutune_spec_load(const char *path, const cutune_size_override *ov, size_t nov,
                     cutune_spec **out, char *err, size_t errlen)
{
    char *json = NULL, *dir = NULL;
    size_t len = 0;
    if (out)
        *out = NULL;
    if (!path || !out)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "cutune_spec_load: no path");
    int e = cutune_read_file(path, &json, &len, err, errlen);
    if (e < 0)
        return e;
    dir = dir_of(path);
    int rc = dir ? cutune_spec_load_buffer(path, json, len, dir, ov, nov, out, err, errlen)
                 : cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    free(dir);
    free(json);
    return rc;
}

void cutune_spec_free(cutune_spec *s)
{
    if (!s)
        return;
    spec_impl *impl = (spec_impl *)s; /* every spec is allocated as a spec_impl */
    free(s->name);
    free(s->path);
    free(s->source_path);
    free(s->source);
    free(s->kernel_name);
    cutune_space_free(s->space);
    for (size_t d = 0; d < 3; d++) {
        cutune_expr_free(s->grid[d]);
        cutune_expr_free(s->block[d]);
        cutune_expr_free(s->ref_grid[d]);
        cutune_expr_free(s->ref_block[d]);
    }
    cutune_expr_free(s->shared_mem);
    cutune_expr_free(s->ref_shared_mem);
    for (size_t i = 0; i < s->noptions; i++)
        free(s->options[i].text);
    free(s->options);
    for (size_t i = 0; i < s->nargs; i++) {
        free(s->args[i].name);
        cutune_expr_free(s->args[i].value);
        cutune_expr_free(s->args[i].size);
        for (size_t d = 0; d < CUTUNE_TMAP_MAX_RANK; d++) {
            cutune_expr_free(s->args[i].tdims[d]);
            cutune_expr_free(s->args[i].tbox[d]);
        }
        free(s->args[i].init_name);
    }
    free(s->args);
    free(s->ref_name);
    free(s->objective);
    for (size_t i = 0; i < s->nmetrics; i++) {
        free(s->metrics[i].name);
        cutune_expr_free(s->metrics[i].expr);
    }
    free(s->metrics);
    free(s->recording);
    for (size_t i = 0; i < s->nrecordings; i++) {
        free(s->recordings[i]);
        free(s->recordings_at ? s->recordings_at[i] : NULL);
    }
    free(s->recordings);
    free(s->recordings_at);
    free(s->recording_at);
    free(s->warnings);
    free(impl->metric_names);
    free(impl);
}

/* ------------------------------------------------------------------ per configuration */

static int check_id(const cutune_spec *s, size_t id, char *err, size_t errlen)
{
    if (!s || !s->space)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no spec");
    if (id >= cutune_space_size(s->space))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: configuration id %zu out of range (%zu valid)", s->path, id,
                          cutune_space_size(s->space));
    return 0;
}

int cutune_spec_metrics(const cutune_spec *s, size_t id, double time_ms, double *out, char *err,
                        size_t errlen)
{
    int rc = check_id(s, id, err, errlen);
    if (rc)
        return rc;
    const spec_impl *impl = (const spec_impl *)s;
    size_t nv = impl->nmetric_names;
    cutune_value *vars = calloc(nv, sizeof *vars);
    if (!vars)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", s->path);
    cutune_space_values(s->space, id, vars);
    vars[nv - 2].type = CUTUNE_VALUE_REAL;
    vars[nv - 2].r = time_ms;
    vars[nv - 1].type = CUTUNE_VALUE_REAL;
    vars[nv - 1].r = time_ms * 1e-3;
    for (size_t i = 0; i < s->nmetrics; i++) {
        char msg[MSG_LEN] = "", path[PATH_LEN];
        int r = cutune_expr_eval_double(s->metrics[i].expr, vars, &out[i], msg, sizeof msg);
        if (r) {
            out[i] = NAN;
            if (!rc) { /* report the first failure, still compute the others */
                spec_path_member(path, sizeof path, "metrics", s->metrics[i].name);
                rc = cutune_err(err, errlen, r, "%s: %s: %s", s->path, path, msg);
            }
        }
    }
    free(vars);
    return rc;
}

static int is_dropped_option(const char *opt)
{
    /* 0 means "no limit" in a parameter list, but NVRTC reads it as a limit of 0 */
    return strcmp(opt, "-maxrregcount=0") == 0 || strcmp(opt, "--maxrregcount=0") == 0;
}

/* One option with its {NAME}s replaced by the values in vars; NULL on OOM. */
static char *substitute(const char *text, const cutune_symtab *st, const cutune_value *vars)
{
    size_t cap = strlen(text) + 64, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    for (const char *p = text; *p;) {
        char piece[128];
        const char *add = p;
        size_t addlen = 1;
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (close) {
            size_t k, len = (size_t)(close - p - 1);
            for (k = 0; k < st->n; k++)
                if (strlen(st->names[k]) == len && strncmp(st->names[k], p + 1, len) == 0)
                    break;
            if (k < st->n) { /* checked at load: always found */
                int w = cutune_value_format(&vars[k], piece, sizeof piece);
                add = piece;
                addlen = w < 0 ? 0 : (size_t)w < sizeof piece ? (size_t)w : sizeof piece - 1;
                p = close + 1;
            } else {
                p++;
            }
        } else {
            p++;
        }
        if (n + addlen + 1 > cap) {
            cap = 2 * (n + addlen + 1);
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
        memcpy(buf + n, add, addlen);
        n += addlen;
    }
    buf[n] = '\0';
    return buf;
}

int cutune_spec_options(const cutune_spec *s, size_t id, char ***out, size_t *n, char *err,
                        size_t errlen)
{
    char **opts = NULL;
    cutune_value *vars = NULL;
    size_t k = 0;
    if (out)
        *out = NULL;
    if (n)
        *n = 0;
    int rc = check_id(s, id, err, errlen);
    if (rc)
        return rc;
    if (!out || !n)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "cutune_spec_options: no output");
    cutune_symtab st = cutune_space_symtab(s->space);
    opts = calloc(s->noptions + 1, sizeof *opts); /* NULL-terminated as well */
    vars = calloc(st.n + 1, sizeof *vars);
    if (!opts || !vars)
        goto out_nomem;
    cutune_space_values(s->space, id, vars);
    for (size_t i = 0; i < s->noptions; i++) {
        char *o = substitute(s->options[i].text, &st, vars);
        if (!o)
            goto out_nomem;
        if (is_dropped_option(o)) {
            free(o);
            continue;
        }
        opts[k++] = o;
    }
    free(vars);
    *out = opts;
    *n = k;
    return 0;
out_nomem:
    for (size_t i = 0; opts && i < k; i++)
        free(opts[i]);
    free(opts);
    free(vars);
    return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", s->path);
}
