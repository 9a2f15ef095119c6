/* The Kernel Tuner cache export (--kt-cache, db export --kt-cache): one entry per
 * configuration evaluated, in Kernel Tuner's layout, built in memory and written by
 * cutune_io_write_atomic, so a failed export never leaves a partial file behind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/journal.h"
#include "cutune/recording.h"
#include "cutune/spec.h"
#include "io_internal.h"

/* Kernel Tuner's "time" for a status: the number, or its failure marker. */
static cJSON *kt_time(const cutune_eval_result *r)
{
    switch (r->status) {
    case CUTUNE_STATUS_OK:
        return isfinite(r->time_ms) ? cutune_io_number_json(r->time_ms)
                                    : cJSON_CreateString("RuntimeFailedConfig");
    case CUTUNE_STATUS_COMPILE_ERROR: return cJSON_CreateString("CompilationFailedConfig");
    case CUTUNE_STATUS_LAUNCH_ERROR: return cJSON_CreateString("InvalidConfig");
    default: return cJSON_CreateString("RuntimeFailedConfig");
    }
}

/* A cost in ms, or 0 where it is unknown (< 0). */
static cJSON *kt_ms(double ms)
{
    return ms >= 0 && isfinite(ms) ? cutune_io_number_json(ms) : cJSON_CreateRaw("0");
}

/* A value as the cache holds it: a Python bool as JSON's true or false. */
static cJSON *kt_value(const cutune_value *v, int is_bool)
{
    return is_bool ? cJSON_CreateBool(v->i != 0) : cutune_io_value_json(v);
}

/* Which parameters of s Kernel Tuner held as Python bools: those of rec's name that it
 * listed as true and false, where s holds them as 1 and 0. */
static void kt_bools(const cutune_space *s, const cutune_recording *rec, unsigned char *out)
{
    for (size_t p = 0; p < cutune_space_nparams(s); p++) {
        const cutune_param *par = cutune_space_param(s, p);
        out[p] = 0;
        for (size_t q = 0; rec && rec->bools && q < rec->nparams; q++)
            if (rec->bools[q] && strcmp(rec->param_names[q], par->name) == 0)
                out[p] = 1;
        for (size_t v = 0; out[p] && v < par->nvalues; v++)
            out[p] = par->values[v].type == CUTUNE_VALUE_INT &&
                     (par->values[v].i == 0 || par->values[v].i == 1);
    }
}

/* One cache entry; now: the timestamp of an evaluation that has none (a replay keeps its
 * journal free of clocks: the export's own time stands in); bools: kt_bools. */
static int kt_entry(cJSON *cache, const cutune_space *s, const cutune_spec *spec,
                    const unsigned char *bools, const cutune_history_entry *e, const char *now)
{
    const uint16_t *idx = cutune_space_config(s, e->id);
    size_t np = cutune_space_nparams(s), klen = 0, kcap = 64;
    char *key = malloc(kcap);
    cJSON *o = cJSON_CreateObject(), *metrics = NULL;
    int bad = !key || !o;

    for (size_t p = 0; !bad && p < np; p++) {
        const cutune_param *par = cutune_space_param(s, p);
        const cutune_value *v = &par->values[idx[p]];
        /* the key as Python prints the value: True, not 1 */
        const char *t = bools[p] ? (v->i ? "True" : "False") : par->texts[idx[p]];
        size_t tl = strlen(t);
        if (klen + tl + 2 > kcap) {
            while (klen + tl + 2 > kcap)
                kcap *= 2;
            char *nk = realloc(key, kcap);
            if (!nk) {
                bad = 1;
                break;
            }
            key = nk;
        }
        if (p)
            key[klen++] = ',';
        memcpy(key + klen, t, tl);
        klen += tl;
        key[klen] = '\0';
        bad = cutune_io_add(o, par->name, kt_value(v, bools[p])) < 0;
    }
    bad = bad || cutune_io_add(o, "time", kt_time(&e->r)) < 0;
    if (!bad && e->r.ntimes) {
        cJSON *times = cJSON_CreateArray();
        bad = cutune_io_add(o, "times", times) < 0;
        for (size_t i = 0; !bad && i < e->r.ntimes; i++) {
            cJSON *x = cutune_io_number_json(e->r.times_ms[i]);
            bad = !x || !cJSON_AddItemToArray(times, x);
            if (bad)
                cJSON_Delete(x);
        }
    }
    /* Every timing Kernel Tuner's simulation mode and T4 writer read (a missing one is a
     * KeyError there): 0 where cutune did not measure it. bench_ms covers verification and
     * timing; cutune measures no searcher or framework time per evaluation. */
    bad = bad || cutune_io_add(o, "compile_time", kt_ms(e->r.compile_ms)) < 0;
    bad = bad || cutune_io_add(o, "verification_time", cJSON_CreateRaw("0")) < 0;
    bad = bad || cutune_io_add(o, "benchmark_time", kt_ms(e->r.bench_ms)) < 0;
    bad = bad || cutune_io_add(o, "strategy_time", cJSON_CreateRaw("0")) < 0;
    bad = bad || cutune_io_add(o, "framework_time", cJSON_CreateRaw("0")) < 0;
    bad = bad || cutune_io_add(o, "timestamp",
                               cJSON_CreateString(e->timestamp[0] ? e->timestamp : now)) < 0;
    /* Metrics ride along as Kernel Tuner's observers do ("GFLOP/s": x), unless
     * a name would shadow a parameter or a field above. */
    if (!bad && (metrics = cutune_io_metrics_json(spec, e))) {
        cJSON *m = metrics->child, *next;
        for (; m && !bad; m = next) {
            next = m->next;
            if (cJSON_GetObjectItemCaseSensitive(o, m->string))
                continue;
            cJSON_DetachItemViaPointer(metrics, m);
            /* cJSON copies the name before it frees the node's own */
            if (!cJSON_AddItemToObject(o, m->string, m)) {
                cJSON_Delete(m);
                bad = 1;
            }
        }
        cJSON_Delete(metrics);
        /* Kernel Tuner's NVML observer's names for the same quantities, for its tools */
        static const char *const alias[][2] = {{"energy_j", "nvml_energy"},
                                               {"power_w", "nvml_power"}};
        for (size_t a = 0; a < 2 && !bad; a++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, alias[a][0]);
            if (v && cJSON_IsNumber(v) && !cJSON_GetObjectItemCaseSensitive(o, alias[a][1]))
                bad = cutune_io_add(o, alias[a][1], cutune_io_number_json(v->valuedouble)) < 0;
        }
    } else {
        bad = 1;
    }
    if (!bad) {
        bad = cutune_io_add(cache, key, o) < 0; /* frees o on failure */
        o = NULL;
    }
    cJSON_Delete(o);
    free(key);
    return bad ? CUTUNE_ENOMEM : 0;
}

/*
 * Kernel Tuner's own layout: the header, then `"cache": {`, one entry per
 * line, and the file closed by "}\n}". Kernel Tuner reopens a cache for
 * appending by cutting those last three characters, so a compact "}}}" end
 * would lose the last entry's brace.
 */
static int write_kt_layout(const char *path, const cJSON *header, const cJSON *cache, char *err,
                           size_t errlen)
{
    int rc = 0;
    char *buf = NULL, *head = cJSON_PrintUnformatted(header);
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!head || !f) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
        goto out_free;
    }
    size_t hl = strlen(head); /* "{...}": reopen the object for "cache" */
    fwrite(head, 1, hl - 1, f);
    fputs(",\n\"cache\": {", f);
    for (const cJSON *e = cache->child; e; e = e->next) {
        cJSON *key = cJSON_CreateString(e->string);
        char *k = key ? cJSON_PrintUnformatted(key) : NULL;
        char *v = cJSON_PrintUnformatted(e);
        if (k && v)
            fprintf(f, "\n%s: %s%s", k, v, e->next ? "," : "");
        free(k);
        free(v);
        cJSON_Delete(key);
        if (!k || !v) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
            goto out_free;
        }
    }
    fputs("}\n}\n", f);
    rc = cutune_io_commit_memstream(&f, &buf, &len, path, err, errlen);
out_free:
    if (f)
        fclose(f);
    free(buf);
    free(head);
    return rc;
}

/* The fields kt_entry writes beside a configuration's parameters. */
static const char *const kt_fields[] = {
    "time",           "times",         "compile_time",   "verification_time",
    "benchmark_time", "strategy_time", "framework_time", "timestamp"};

int cutune_export_kt_cache_check(const char *path, const cutune_space *s, char *err, size_t errlen)
{
    for (size_t p = 0; p < cutune_space_nparams(s); p++) {
        const cutune_param *par = cutune_space_param(s, p);
        for (size_t k = 0; k < sizeof kt_fields / sizeof kt_fields[0]; k++)
            if (strcmp(par->name, kt_fields[k]) == 0)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "%s: parameter '%s' has the name of a field of a Kernel Tuner "
                                  "cache entry, which holds parameters and fields side by side: "
                                  "rename it, or write --journal, --csv or --t4",
                                  path, par->name);
        for (size_t v = 0; v < par->nvalues; v++)
            if (strchr(par->texts[v], ','))
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "%s: parameter '%s' value '%s' holds a ',': a Kernel Tuner "
                                  "cache keys a configuration by its values joined with ',', so "
                                  "two could share a key; write --journal, --csv or --t4",
                                  path, par->name, par->texts[v]);
    }
    return 0;
}

int cutune_export_kt_cache(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                           const char *device_name, const cutune_history *h, char *err,
                           size_t errlen)
{
    return cutune_export_kt_cache_named(path, s, spec, NULL, device_name, h, err, errlen);
}

int cutune_export_kt_cache_named(const char *path, const cutune_space *s,
                                 const struct cutune_spec *spec, const char *kernel_name,
                                 const char *device_name, const cutune_history *h, char *err,
                                 size_t errlen)
{
    return cutune_export_kt_cache_recorded(path, s, spec, NULL, kernel_name, device_name, h, err,
                                           errlen);
}

int cutune_export_kt_cache_recorded(const char *path, const cutune_space *s,
                                    const struct cutune_spec *spec,
                                    const struct cutune_recording *rec, const char *kernel_name,
                                    const char *device_name, const cutune_history *h, char *err,
                                    size_t errlen)
{
    int rc = cutune_io_export_check(path, s, h, err, errlen);
    if (rc >= 0)
        rc = cutune_export_kt_cache_check(path, s, err, errlen);
    long *last = NULL;           /* per id: the last entry that evaluated it (-1 none) */
    unsigned char *bools = NULL; /* per parameter: kt_bools */
    cJSON *doc = NULL, *keys = NULL, *params = NULL, *cache = NULL, *psize = NULL;
    char now[32];
    int bad;

    if (rc < 0)
        return rc;
    cutune_io_iso_now(now, sizeof now);
    size_t size = cutune_space_size(s), np = cutune_space_nparams(s);
    last = malloc((size ? size : 1) * sizeof *last);
    bools = malloc(np ? np : 1);
    doc = cJSON_CreateObject();
    bad = !last || !bools || !doc;
    if (bools)
        kt_bools(s, rec, bools);
    for (size_t id = 0; !bad && id < size; id++)
        last[id] = -1;
    for (size_t i = 0; !bad && i < h->n; i++)
        if (h->e[i].r.status != CUTUNE_STATUS_MISSING)
            last[h->e[i].id] = (long)i;
    bad = bad || cutune_io_add(doc, "device_name",
                               cJSON_CreateString(device_name ? device_name : "unknown")) < 0;
    bad = bad || cutune_io_add(doc, "kernel_name",
                               cJSON_CreateString(kernel_name                 ? kernel_name
                                                  : spec && spec->kernel_name ? spec->kernel_name
                                                                              : "unknown")) < 0;
    if (!bad && spec && spec->nsizes) {
        bad = cutune_io_add(doc, "problem_size", psize = cJSON_CreateArray()) < 0;
        for (size_t c = 0; !bad && c < spec->nsizes && c < cutune_space_nconstants(s); c++) {
            cutune_value v = cutune_space_constant_value(s, c);
            cJSON *x = cutune_io_value_json(&v);
            bad = !x || !cJSON_AddItemToArray(psize, x);
            if (bad)
                cJSON_Delete(x);
        }
    } else if (!bad && rec && rec->problem_size) {
        /* a Kernel Tuner cache's, as it was (it loaded as JSON) */
        bad = cutune_io_add(doc, "problem_size", cJSON_CreateRaw(rec->problem_size)) < 0;
    }
    bad = bad || cutune_io_add(doc, "tune_params_keys", keys = cJSON_CreateArray()) < 0;
    bad = bad || cutune_io_add(doc, "tune_params", params = cJSON_CreateObject()) < 0;
    for (size_t p = 0; !bad && p < np; p++) {
        const cutune_param *par = cutune_space_param(s, p);
        cJSON *name = cJSON_CreateString(par->name), *list = cJSON_CreateArray();
        bad = !name || !cJSON_AddItemToArray(keys, name);
        if (bad)
            cJSON_Delete(name);
        bad = cutune_io_add(params, par->name, list) < 0 || bad;
        for (size_t v = 0; !bad && v < par->nvalues; v++) {
            cJSON *x = kt_value(&par->values[v], bools[p]);
            bad = !x || !cJSON_AddItemToArray(list, x);
            if (bad)
                cJSON_Delete(x);
        }
    }
    bad = bad || cutune_io_add(doc, "objective", cJSON_CreateString("time")) < 0;
    cache = cJSON_CreateObject();
    bad = bad || !cache;
    /* One entry per configuration, in order of first evaluation, holding its
     * latest result; a linear pass, never a lookup in the growing object. */
    for (size_t i = 0; !bad && i < h->n; i++) {
        long li = last[h->e[i].id];
        if (li < 0)
            continue;
        last[h->e[i].id] = -1;
        bad = kt_entry(cache, s, spec, bools, &h->e[li], now) < 0;
    }
    if (bad)
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    else
        rc = write_kt_layout(path, doc, cache, err, errlen);
    cJSON_Delete(cache);
    cJSON_Delete(doc);
    free(bools);
    free(last);
    return rc;
}
