/* A Kernel Tuner cache read into a recording: the cache's tune_params become the
 * parameters, each entry of "cache" a record (its key and its values must agree), its
 * "time" a status and a time, its compile and benchmark times the costs. A cache Kernel
 * Tuner left unterminated is closed as Kernel Tuner closes it (kt_cache.c). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/recording.h"
#include "io_internal.h"

/* A time at or above this (ms) is Kernel Tuner's way of marking a failure. */
#define KT_FAILED_TIME 1e10

/* A cache-key part as Python printed it: a number, True/False, else a string. */
static long find_text(const recording_impl *ri, size_t p, const char *text)
{
    cutune_value v = {.type = CUTUNE_VALUE_STRING, .s = text};
    long k = recording_find_value(ri, p, &v);
    if (k >= 0)
        return k;
    char *end;
    double d = strtod(text, &end);
    if (end != text && *end == '\0') {
        v.type = CUTUNE_VALUE_REAL;
        v.r = d;
        return recording_find_value(ri, p, &v);
    }
    if (strcmp(text, "True") == 0 || strcmp(text, "False") == 0) {
        v.type = CUTUNE_VALUE_INT;
        v.i = text[0] == 'T';
        return recording_find_value(ri, p, &v);
    }
    return -1;
}

static void line_col(const char *text, size_t off, size_t *line, size_t *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* ------------------------------------------------------ Kernel Tuner cache */

/* A failure marker Kernel Tuner writes (its ErrorConfig classes by name) into rec's
 * status, its time NaN: 0; -1 for another text. */
static int kt_marker(const char *text, cutune_record *rec)
{
    if (strcmp(text, "CompilationFailedConfig") == 0)
        rec->status = CUTUNE_STATUS_COMPILE_ERROR;
    else if (strcmp(text, "RuntimeFailedConfig") == 0)
        rec->status = CUTUNE_STATUS_RUNTIME_ERROR;
    else if (strcmp(text, "InvalidConfig") == 0)
        rec->status = CUTUNE_STATUS_LAUNCH_ERROR;
    else
        return -1;
    rec->time_ms = NAN;
    return 0;
}

/* An entry's "time" into rec's status and time: 0; -1 not a number or marker, -2 a time
 * of 0 or less, -3 a number beyond a double's range. */
static int kt_status(const cJSON *t, cutune_record *rec)
{
    if (cJSON_IsNumber(t)) {
        double x = t->valuedouble;
        /* 1e400 reads as infinity: no time, and no failure marker either (1e20 is) */
        if (!isfinite(x))
            return -3;
        if (x >= KT_FAILED_TIME) {
            rec->status = CUTUNE_STATUS_RUNTIME_ERROR;
            rec->time_ms = NAN;
        } else if (!(x > 0.0)) {
            return -2; /* a time of 0 or less is no measurement */
        } else {
            rec->status = CUTUNE_STATUS_OK;
            rec->time_ms = x;
        }
        return 0;
    }
    if (!cJSON_IsString(t))
        return -1;
    return kt_marker(t->valuestring, rec);
}

/* Split key on ',' into exactly np parts (in place in buf); 0 when the count differs. */
static int split_key(char *buf, size_t np, char **parts)
{
    size_t k = 0;
    parts[k++] = buf;
    for (char *c = buf; *c; c++) {
        if (*c == ',') {
            if (k == np)
                return 0;
            *c = '\0';
            parts[k++] = c + 1;
        }
    }
    return k == np;
}

/* key split on ',' into np parts in *keybuf (grown as needed): 1, 0 when the count
 * differs, CUTUNE_ENOMEM. */
static int split_entry_key(const char *key, size_t np, char **parts, char **keybuf, size_t *keycap)
{
    size_t kl = strlen(key) + 1;
    if (kl > *keycap) {
        char *nb = realloc(*keybuf, kl);
        if (!nb)
            return CUTUNE_ENOMEM;
        *keybuf = nb;
        *keycap = kl;
    }
    memcpy(*keybuf, key, kl);
    return split_key(*keybuf, np, parts);
}

/* The key is the configuration as Kernel Tuner writes it: each value's Python text (str():
 * 16, 1.0, True, a string as it is) joined with ',' in the order of tune_params_keys
 * ("16,2,1.0"), and the entry's values say it again. A key that is not that text names
 * another configuration or one no Kernel Tuner wrote ("01", "1" for 1.0, "true", "1, 2"):
 * tools that go by the key (Kernel Tuner looks entries up by it) and tools that go by the
 * values would read two configurations, so the entry is refused. ktext[p][v] is the text
 * of parameter p's value v. */
static int kt_key_agrees(const recording_impl *ri, const cutune_record *rec, const char *key,
                         int have_parts, char *const *parts, const char *const *const *ktext,
                         const char *where, char *err, size_t errlen)
{
    const cutune_recording *r = &ri->pub;
    size_t kl = strlen(key), at = 0, need = 1;
    int same = 1;
    for (size_t p = 0; p < r->nparams; p++) {
        const char *t = ktext[p][rec->idx[p]];
        size_t tl = strlen(t);
        need += tl + 1;
        if (p)
            same = same && at < kl && key[at++] == ',';
        same = same && at <= kl && tl <= kl - at && memcmp(key + at, t, tl) == 0;
        at += tl;
    }
    if (same && at == kl)
        return 0;
    for (size_t p = 0; have_parts && p < r->nparams; p++) {
        const char *t = ktext[p][rec->idx[p]];
        if (strcmp(parts[p], t) == 0)
            continue;
        if (find_text(ri, p, parts[p]) == (long)rec->idx[p])
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s: the key's \"%s\" is not Kernel Tuner's text of %s=%s "
                              "(\"%s\"): a key joins the values' Python text (str) with ','",
                              where, parts[p], r->param_names[p], t, t);
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: the key says %s=%s, the entry's \"%s\" is %s (the key and "
                          "the values must agree)",
                          where, r->param_names[p], parts[p], r->param_names[p], t);
    }
    /* not split into one part per parameter (the count differs, or a value holds a comma) */
    char *want = malloc(need);
    if (!want)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", where);
    size_t w = 0;
    int comma = 0; /* a value holds one: the count of parts says nothing */
    for (size_t p = 0; p < r->nparams; p++) {
        const char *t = ktext[p][rec->idx[p]];
        comma |= strchr(t, ',') != NULL;
        if (p)
            want[w++] = ',';
        memcpy(want + w, t, strlen(t));
        w += strlen(t);
    }
    want[w] = '\0';
    int rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                        comma ? "%s: the key is not the entry's values as Kernel Tuner "
                                "writes them (\"%.200s\" expected: each value's Python "
                                "text, joined with ',' in the order of tune_params_keys)"
                              : "%s: the key does not hold one value per parameter "
                                "(\"%.200s\" expected: each value's Python text, joined "
                                "with ',' in the order of tune_params_keys)",
                        where, want);
    free(want);
    return rc;
}

static int kt_record(recording_impl *ri, const cJSON *entry, cutune_record *rec, char **parts,
                     char **keybuf, size_t *keycap, const char *const *const *ktext,
                     const char *file, char *err, size_t errlen)
{
    cutune_recording *r = &ri->pub;
    const char *key = entry->string;
    int have_parts = -1; /* not split yet */
    char where[512];

    snprintf(where, sizeof where, "%s: cache[\"%s\"]", file, key);
    if (!cJSON_IsObject(entry))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s: expected an object", where);
    for (size_t p = 0; p < r->nparams; p++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(entry, r->param_names[p]);
        long k;
        if (it) {
            cutune_value v;
            if (recording_json_lookup(it, &v) < 0)
                return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.%s: %s", where, r->param_names[p],
                                  recording_value_expected(it));
            k = recording_find_value(ri, p, &v);
            if (k < 0) {
                char text[64];
                cutune_value_format(&v, text, sizeof text);
                return cutune_err(err, errlen, CUTUNE_EPARSE,
                                  "%s.%s: value %s is not in tune_params[\"%s\"]", where,
                                  r->param_names[p], text, r->param_names[p]);
            }
        } else {
            /* Older caches may hold the values only in the key. */
            if (have_parts < 0 &&
                (have_parts = split_entry_key(key, r->nparams, parts, keybuf, keycap)) < 0)
                return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
            if (!have_parts)
                return cutune_err(err, errlen, CUTUNE_EPARSE,
                                  "%s: no \"%s\" and the key does not hold %zu values", where,
                                  r->param_names[p], r->nparams);
            k = find_text(ri, p, parts[p]);
            if (k < 0)
                return cutune_err(err, errlen, CUTUNE_EPARSE,
                                  "%s: key value %s of \"%s\" is not in tune_params", where,
                                  parts[p], r->param_names[p]);
        }
        rec->idx[p] = (uint16_t)k;
    }
    if (have_parts < 0 &&
        (have_parts = split_entry_key(key, r->nparams, parts, keybuf, keycap)) < 0)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
    int krc = kt_key_agrees(ri, rec, key, have_parts, parts, ktext, where, err, errlen);
    if (krc < 0)
        return krc;
    /* Kernel Tuner writes a failure as its marker in the objective's field
     * (result[objective] = InvalidConfig()), where "time" may be missing or say otherwise:
     * in a cache tuned for GFLOP/s, a marker there is the entry's failure */
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(entry, "time");
    const cJSON *of = r->objective ? cJSON_GetObjectItemCaseSensitive(entry, r->objective) : NULL;
    cutune_record failed = {0};
    int marked = cJSON_IsString(of);
    if (marked && kt_marker(of->valuestring, &failed) < 0)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s.%s: expected a number or a failure marker (the objective's field)",
                          where, r->objective);
    if (!t && !marked)
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s: missing \"time\"", where);
    int ks = t ? kt_status(t, rec) : 0;
    if (ks == -3)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s.time: a number beyond the range of a double", where);
    if (ks == -2)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s.time: %g is not a time (a measured time is above 0)", where,
                          t->valuedouble);
    if (ks < 0)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s.time: expected a number or a failure marker", where);
    if (marked) {
        rec->status = failed.status;
        rec->time_ms = NAN;
    }
    int rc = recording_parse_times(cJSON_GetObjectItemCaseSensitive(entry, "times"), rec, where,
                                   "times", err, errlen);
    if (rc < 0)
        return rc;
    double compile = -1, verify = 0, bench = 0;
    int have_bench = 0;
    if ((rc = recording_opt_cost(entry, "compile_time", &compile, NULL, where, err, errlen)) < 0 ||
        (rc = recording_opt_cost(entry, "verification_time", &verify, &have_bench, where, err,
                                 errlen)) < 0 ||
        (rc = recording_opt_cost(entry, "benchmark_time", &bench, &have_bench, where, err,
                                 errlen)) < 0)
        return rc;
    rec->compile_ms = compile;
    rec->bench_ms = have_bench ? verify + bench : -1;
    if (rec->compile_ms >= 0 || rec->bench_ms >= 0)
        r->has_costs = 1;
    /* the entry's other numbers are its metrics ("GFLOP/s", an observer's energy ...) */
    static const char *const fields[] = {
        "time",           "times",         "compile_time",   "verification_time",
        "benchmark_time", "strategy_time", "framework_time", "timestamp"};
    rc = recording_parse_metrics(entry, rec, fields, sizeof fields / sizeof fields[0],
                                 (const char *const *)r->param_names, r->nparams, where, err,
                                 errlen);
    if (rc < 0)
        return rc;
    /* Kernel Tuner's NVML observer records nvml_energy (J per launch) and nvml_power (W):
     * the same quantities as cutune's energy_j and power_w, which they stand for where the
     * entry has none of its own */
    static const char *const alias[][2] = {{"nvml_energy", "energy_j"}, {"nvml_power", "power_w"}};
    for (size_t a = 0; a < 2; a++) {
        double v = NAN;
        int have_kt = 0, have_own = 0;
        for (size_t m = 0; m < rec->nmetrics; m++) {
            if (!strcmp(rec->metrics[m].name, alias[a][0])) {
                have_kt = 1;
                v = rec->metrics[m].value;
            }
            have_own |= !strcmp(rec->metrics[m].name, alias[a][1]);
        }
        if (!have_kt || have_own)
            continue;
        cutune_record_metric *n = realloc(rec->metrics, (rec->nmetrics + 1) * sizeof *n);
        if (!n)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", where);
        rec->metrics = n;
        snprintf(n[rec->nmetrics].name, sizeof n[0].name, "%s", alias[a][1]);
        n[rec->nmetrics++].value = v;
    }
    return 0;
}

int recording_load_kt(recording_impl *ri, const char *file, const char *text, size_t len, char *err,
                      size_t errlen)
{
    cutune_recording *r = &ri->pub;
    int rc = 0;
    size_t off = 0;
    char **parts = NULL, *keybuf = NULL;
    const char ***ktext = NULL; /* [parameter][value]: its text in a key */
    size_t keycap = 0;
    char *closed = NULL; /* an unterminated cache, closed as Kernel Tuner closes it */
    size_t closed_len = 0, closed_off = 0;
    cutune_json_arena arena;
    cutune_json_arena_begin(&arena);
    cJSON *root = recording_parse_json(text, len, &off);

    if (!root && cutune_io_kt_close(text, len, &closed, &closed_len) == 1 &&
        (root = recording_parse_json(closed, closed_len, &closed_off))) {
        text = closed;
        len = closed_len;
        r->truncated_tail = 1;
    }
    if (!root) {
        /* open at its end, and closing it did not mend it: cut inside an entry (a whole
         * value with more after it is no cut; the arena takes the tree back) */
        int cut = closed && !cJSON_ParseWithLengthOpts(text, len, NULL, 0);
        size_t line, col;
        cutune_json_arena_end(&arena);
        line_col(text, off, &line, &col);
        /* Python's json.dump writes NaN and Infinity, which JSON does not have */
        const char *at = off < len ? text + off : "";
        size_t left = off < len ? len - off : 0;
        int py = (left >= 3 && memcmp(at, "NaN", 3) == 0) ||
                 (left >= 8 && memcmp(at, "Infinity", 8) == 0) ||
                 (left >= 9 && memcmp(at, "-Infinity", 9) == 0);
        free(closed);
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: malformed JSON at line %zu, column %zu%s", file, line, col,
                          py    ? " (NaN or Infinity: not JSON; write null or a string instead)"
                          : cut ? " (it ends unclosed, and closed as Kernel Tuner closes an "
                                  "unterminated cache it is still not JSON: cut inside an entry?)"
                                : "");
    }
    if (!cJSON_IsObject(root)) {
        rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s: expected a JSON object", file);
        goto out_delete;
    }
    if ((rc = cutune_io_kt_objective(root, file, &ri->pub.objective, &ri->pub.objective_max, err,
                                     errlen)) < 0 ||
        (rc = recording_check_json(text, len, root, file, err, errlen)) < 0)
        goto out_delete;
    if ((rc = recording_mark_member_floats(text, len, root, "tune_params")) < 0) {
        rc = cutune_err(err, errlen, rc, "%s: out of memory", file);
        goto out_delete;
    }
    r->format = strdup("kernel_tuner");
    /* optional strings: absent or null say nothing, another type is an error */
    static const char *const strs[] = {"device_name", "kernel_name"};
    for (size_t k = 0; k < 2; k++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, strs[k]);
        if (it && !cJSON_IsNull(it) && !cJSON_IsString(it)) {
            rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s: %s: expected a string", file, strs[k]);
            goto out_delete;
        }
    }
    r->device_name = recording_json_strdup(root, "device_name");
    r->kernel_name = recording_json_strdup(root, "kernel_name");
    /* kept as its JSON text, for an export to carry on (printed in the arena: copied out) */
    const cJSON *psize = cJSON_GetObjectItemCaseSensitive(root, "problem_size");
    if (psize && !cJSON_IsNull(psize)) {
        char *ptext = cJSON_PrintUnformatted(psize);
        r->problem_size = ptext ? strdup(ptext) : NULL;
        cJSON_free(ptext);
    }
    if (!r->format || (psize && !cJSON_IsNull(psize) && !r->problem_size)) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
        goto out_delete;
    }
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(root, "tune_params_keys");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "tune_params");
    const cJSON *cache = cJSON_GetObjectItemCaseSensitive(root, "cache");
    if (!cJSON_IsArray(keys) || cJSON_GetArraySize(keys) == 0) {
        rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s: tune_params_keys: %s", file,
                        keys ? "expected a non-empty list of names" : "missing");
        goto out_delete;
    }
    if (!cJSON_IsObject(params)) {
        rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s: tune_params: %s", file,
                        params ? "expected an object" : "missing");
        goto out_delete;
    }
    if (!cJSON_IsObject(cache)) {
        rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s: cache: %s", file,
                        cache ? "expected an object" : "missing");
        goto out_delete;
    }
    size_t np = (size_t)cJSON_GetArraySize(keys), p = 0;
    if ((rc = recording_alloc_params(ri, np)) < 0) {
        rc = cutune_err(err, errlen, rc, "%s: out of memory", file);
        goto out_delete;
    }
    for (const cJSON *k = keys->child; k; k = k->next, p++) {
        if (!cJSON_IsString(k)) {
            rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                            "%s: tune_params_keys[%zu]: expected a name", file, p);
            goto out_delete;
        }
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(params, k->valuestring);
        if (!list) {
            rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s: tune_params[\"%s\"]: missing", file,
                            k->valuestring);
            goto out_delete;
        }
        if ((rc = recording_set_param(ri, p, k->valuestring, list, file, "tune_params", err,
                                      errlen)) < 0)
            goto out_delete;
    }
    /* every parameter is one of the keys': Kernel Tuner writes tune_params_keys as the list
     * of tune_params' names, and a member left out of it would be a parameter no key holds
     * (its entries' values were read as a metric of that name) */
    for (const cJSON *m = params->child; m; m = m->next) {
        size_t q = 0;
        while (q < np && strcmp(m->string, r->param_names[q]) != 0)
            q++;
        if (q == np) {
            rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                            "%s: tune_params[\"%s\"]: not in tune_params_keys (the parameters "
                            "a key's values are of)",
                            file, m->string);
            goto out_delete;
        }
    }
    /* each value's text in a key, as Python's str() writes it: a boolean True or False
     * (cutune holds it as 1 or 0), the others as their texts (1.0 a real, 1 an integer) */
    ktext = calloc(np, sizeof *ktext);
    for (size_t q = 0; ktext && q < np; q++) {
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(params, r->param_names[q]);
        size_t v = 0;
        if (!(ktext[q] = calloc(r->nvalues[q], sizeof *ktext[q])))
            break;
        for (const cJSON *it = list->child; it && v < r->nvalues[q]; it = it->next, v++)
            ktext[q][v] = cJSON_IsBool(it) ? (cJSON_IsTrue(it) ? "True" : "False") : r->texts[q][v];
    }
    size_t n = (size_t)cJSON_GetArraySize(cache), i = 0;
    if ((rc = recording_alloc_records(ri, n, file, err, errlen)) < 0)
        goto out_delete;
    parts = calloc(np, sizeof *parts);
    if (!parts || !ktext || !ktext[np - 1]) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
        goto out_delete;
    }
    for (const cJSON *e = cache->child; e; e = e->next, i++) {
        cutune_record *rec = &r->records[i];
        rec->idx = ri->idx_pool + i * np;
        r->nrecords = i + 1; /* so that free sees times_ms of a half-parsed record */
        if ((rc = kt_record(ri, e, rec, parts, &keybuf, &keycap, (const char *const *const *)ktext,
                            file, err, errlen)) < 0)
            goto out_delete;
    }
out_delete:
    for (size_t q = 0; ktext && q < r->nparams; q++)
        free(ktext[q]);
    free(ktext);
    free(parts);
    free(keybuf);
    cutune_json_arena_end(&arena); /* releases root */
    free(closed);
    return rc;
}
