/*
 * The T4 results export: a run's evaluations in the auto-tuning community's results format
 * (the "Open Autotuning Results Schema": results-schema.json of the TuningSchema T4 branch,
 * Kernel Tuner's schema/T4/1.0.0, the AutoTuningAssociation's autotuning_methodology
 * schemas/T4.json). docs/formats.md lists the fields. Built in memory and written through
 * a cutune_outfile (cutune_io_write_atomic): a failed export leaves no partial file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/journal.h"
#include "io_internal.h"

/* T4's "invalidity" of a status, and whether the output was correct ("correctness"). */
static const char *t4_invalidity(cutune_status s, int *correct)
{
    *correct = s != CUTUNE_STATUS_WRONG_RESULT;
    switch (s) {
    case CUTUNE_STATUS_OK: return "correct";
    case CUTUNE_STATUS_COMPILE_ERROR: return "compile";
    case CUTUNE_STATUS_LAUNCH_ERROR: return "constraints"; /* over a device limit */
    case CUTUNE_STATUS_TIMEOUT: return "timeout";
    case CUTUNE_STATUS_WRONG_RESULT: return "correctness";
    default: return "runtime";
    }
}

/* A measured time (ms), or 0 where cutune did not measure it: the readers of T4 add the
 * timings up and expect each. */
static cJSON *time_json(double ms)
{
    return cutune_io_number_json(ms >= 0 && isfinite(ms) ? ms : 0);
}

static cJSON *measurement(const char *name, cJSON *value, const char *unit)
{
    cJSON *m = cJSON_CreateObject();
    int bad = !m || !value;
    bad = bad || cutune_io_add(m, "name", cJSON_CreateString(name)) < 0;
    if (!bad) {
        bad = cutune_io_add(m, "value", value) < 0;
        value = NULL;
    }
    bad = bad || cutune_io_add(m, "unit", cJSON_CreateString(unit)) < 0;
    cJSON_Delete(value);
    if (bad) {
        cJSON_Delete(m);
        return NULL;
    }
    return m;
}

/* One evaluation as a T4 result; NULL when out of memory. */
static cJSON *t4_result(const cutune_space *s, const struct cutune_spec *spec,
                        const cutune_history_entry *e)
{
    const cutune_eval_result *r = &e->r;
    cJSON *o = cJSON_CreateObject(), *times = NULL, *runtimes = NULL, *ms = NULL, *metrics = NULL;
    int correct, bad = !o;
    const char *inv = t4_invalidity(r->status, &correct);

    if (!bad && e->timestamp[0])
        bad = cutune_io_add(o, "timestamp", cJSON_CreateString(e->timestamp)) < 0;
    bad = bad || cutune_io_add(o, "configuration", cutune_io_config_json(s, e->id)) < 0;
    cJSON *objectives = bad ? NULL : cJSON_CreateArray();
    bad = bad || cutune_io_add(o, "objectives", objectives) < 0;
    bad = bad || !cJSON_AddItemToArray(objectives, cJSON_CreateString("time"));
    bad = bad || cutune_io_add(o, "times", times = cJSON_CreateObject()) < 0;
    bad = bad || cutune_io_add(times, "compilation_time", time_json(r->compile_ms)) < 0;
    bad = bad || cutune_io_add(times, "runtimes", runtimes = cJSON_CreateArray()) < 0;
    for (size_t i = 0; !bad && i < r->ntimes; i++) {
        cJSON *x = isfinite(r->times_ms[i]) ? cutune_io_number_json(r->times_ms[i]) : NULL;
        if (x && !cJSON_AddItemToArray(runtimes, x)) {
            cJSON_Delete(x);
            bad = 1;
        }
    }
    /* cutune measures no framework, searcher or separate verification time per evaluation;
     * its benchmark time (bench_ms) covers verification and timing */
    bad = bad || cutune_io_add(times, "framework", time_json(0)) < 0;
    bad = bad || cutune_io_add(times, "search_algorithm", time_json(0)) < 0;
    bad = bad || cutune_io_add(times, "validation", time_json(0)) < 0;
    bad = bad || cutune_io_add(times, "benchmark", time_json(r->bench_ms)) < 0;
    bad = bad || cutune_io_add(o, "invalidity", cJSON_CreateString(inv)) < 0;
    bad = bad || cutune_io_add(o, "correctness", cJSON_CreateRaw(correct ? "1" : "0")) < 0;
    bad = bad || cutune_io_add(o, "measurements", ms = cJSON_CreateArray()) < 0;
    if (!bad && r->status == CUTUNE_STATUS_OK && isfinite(r->time_ms)) {
        cJSON *m = measurement("time", cutune_io_number_json(r->time_ms), "ms");
        bad = !m || !cJSON_AddItemToArray(ms, m);
        if (bad)
            cJSON_Delete(m);
    }
    /* the evaluator's metrics (registers, ...) and the spec's (GB/s, ...): the unit is in
     * the name, as Kernel Tuner's observers name them */
    if (!bad && !(metrics = cutune_io_metrics_json(spec, e)))
        bad = 1;
    for (cJSON *x = metrics ? metrics->child : NULL; !bad && x; x = x->next) {
        cJSON *m = measurement(x->string, cJSON_Duplicate(x, 1), "");
        bad = !m || !cJSON_AddItemToArray(ms, m);
        if (bad)
            cJSON_Delete(m);
    }
    cJSON_Delete(metrics);
    if (bad) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

int cutune_export_t4(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                     const char *device_name, const cutune_history *h, char *err, size_t errlen)
{
    cJSON *doc = NULL, *meta = NULL, *results = NULL;
    char *text = NULL;
    int rc = 0, bad;

    if (!path || !s || !h)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "export: no path, space or history");
    for (size_t i = 0; i < h->n; i++)
        if (h->e[i].id >= cutune_space_size(s))
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: evaluation %zu names configuration %zu, outside the space", path,
                              i, h->e[i].id);
    doc = cJSON_CreateObject();
    bad = !doc;
    bad = bad || cutune_io_add(doc, "schema_version", cJSON_CreateString("1.0.0")) < 0;
    bad = bad || cutune_io_add(doc, "metadata", meta = cJSON_CreateObject()) < 0;
    bad = bad || cutune_io_add(meta, "compute_api", cJSON_CreateString("CUDA")) < 0;
    if (!bad && device_name)
        bad = cutune_io_add(meta, "device", cJSON_CreateString(device_name)) < 0;
    bad = bad || cutune_io_add(meta, "autotuner", cJSON_CreateString("cutune")) < 0;
    bad = bad || cutune_io_add(meta, "autotuner_version", cJSON_CreateString(CUTUNE_VERSION)) < 0;
    bad = bad || cutune_io_add(meta, "timeunit", cJSON_CreateString("milliseconds")) < 0;
    bad = bad || cutune_io_add(doc, "results", results = cJSON_CreateArray()) < 0;
    /* every evaluation in the order it finished; a configuration a recording lacks
     * (missing) was never tested: no result */
    for (size_t i = 0; !bad && i < h->n; i++) {
        if (h->e[i].r.status == CUTUNE_STATUS_MISSING)
            continue;
        cJSON *r = t4_result(s, spec, &h->e[i]);
        bad = !r || !cJSON_AddItemToArray(results, r);
        if (bad)
            cJSON_Delete(r);
    }
    if (!bad)
        text = cJSON_PrintUnformatted(doc);
    if (bad || !text) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
        goto out_free;
    }
    size_t len = strlen(text);
    char *t = realloc(text, len + 2);
    if (!t) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
        goto out_free;
    }
    text = t;
    text[len++] = '\n';
    text[len] = '\0';
    rc = cutune_io_write_atomic(path, text, len, err, errlen);
out_free:
    free(text);
    cJSON_Delete(doc);
    return rc;
}
