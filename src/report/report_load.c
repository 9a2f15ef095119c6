/* Reading a journal for a report: the header's parameters and every evaluation line with
 * all of its numeric metrics, whatever their names (a metric added to the journal later
 * appears in the report without a change here). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/report.h"
#include "src/io/io_internal.h"

/* A value as the journal wrote it (Python's way): a float keeps its point (2.0), which
 * the header's numbers carry as marks (recording_mark_member_floats). */
static void value_text(const cJSON *v, char *buf, size_t len)
{
    cutune_value x;
    if (cJSON_IsString(v))
        snprintf(buf, len, "%s", v->valuestring);
    else if (cJSON_IsNumber(v) && recording_json_value(v, &x) == 0)
        cutune_value_format(&x, buf, len);
    else if (cJSON_IsNumber(v))
        snprintf(buf, len, "%.15g", v->valuedouble);
    else if (cJSON_IsBool(v))
        snprintf(buf, len, "%s", cJSON_IsTrue(v) ? "True" : "False");
    else
        snprintf(buf, len, "null");
}

void cutune_report_run_free(cutune_report_run *r)
{
    if (!r)
        return;
    for (size_t p = 0; p < r->nparams; p++) {
        free(r->param_names[p]);
        for (size_t v = 0; r->value_text && r->value_text[p] && v < r->nvalues[p]; v++)
            free(r->value_text[p][v]);
        if (r->value_text)
            free(r->value_text[p]);
        if (r->value_num)
            free(r->value_num[p]);
    }
    free(r->param_names);
    free(r->value_text);
    free(r->value_num);
    free(r->nvalues);
    for (size_t s = 0; s < r->nsizes; s++)
        free(r->size_names[s]);
    free(r->size_names);
    free(r->size_values);
    for (size_t m = 0; m < r->nmetrics; m++)
        free(r->metric_names[m]);
    free(r->metric_names);
    for (size_t i = 0; i < r->nevals; i++) {
        free(r->evals[i].idx);
        free(r->evals[i].metrics);
    }
    free(r->evals);
    free(r->path);
    free(r->label);
    free(r->name);
    free(r->spec);
    free(r->searcher);
    free(r->evaluator);
    free(r->evaluator_arg);
    free(r->device);
    free(r->objective);
    free(r->target);
    free(r);
}

static int parse_header(cutune_report_run *r, const cJSON *h, size_t line, char *err, size_t errlen)
{
    const char *f = r->path;
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(h, "kind");
    if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "header") != 0)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s:%zu: kind: the first line of a journal is its header", f, line);
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(h, "params");
    if (!cJSON_IsObject(params))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: params: missing or not an object", f,
                          line);
    /* optional strings, read as the journal loader reads them: absent or null, or a string */
    char loc[512];
    snprintf(loc, sizeof loc, "%s:%zu: header", f, line);
    const struct {
        const char *key;
        char **dst;
    } strs[] = {{"spec", &r->spec},           {"searcher", &r->searcher},
                {"evaluator", &r->evaluator}, {"evaluator_arg", &r->evaluator_arg},
                {"device", &r->device},       {"target", &r->target}};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
        int rc = recording_opt_string(h, strs[i].key, strs[i].dst, loc, err, errlen);
        if (rc < 0)
            return rc;
    }
    static const char *const unread[] = {"cutune", "started", "gpu"};
    int urc = recording_check_strings(h, unread, 3, loc, err, errlen);
    if (urc < 0)
        return urc;
    {
        /* what the run ranked by: its objective and constraints, NULL for plain time */
        const cJSON *ob = cJSON_GetObjectItemCaseSensitive(h, "objective");
        if (ob && !cJSON_IsNull(ob) && !cJSON_IsString(ob))
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.objective: expected a string", loc);
        /* subject_to checked as the journal loader checks it (a list of strings) */
        char *joined = NULL;
        int src = recording_header_subject_to(h, &joined, loc, err, errlen);
        free(joined);
        if (src < 0)
            return src;
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(h, "subject_to");
        const cJSON *first = cJSON_IsArray(st) ? st->child : NULL;
        size_t len = 32 + (cJSON_IsString(ob) ? strlen(ob->valuestring) : 4);
        for (const cJSON *c = first; c; c = c->next)
            len += cJSON_IsString(c) ? strlen(c->valuestring) + 2 : 0;
        if (cJSON_IsString(ob) || first) {
            if (!(r->objective = malloc(len)))
                return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            size_t n = (size_t)snprintf(r->objective, len, "%s",
                                        cJSON_IsString(ob) ? ob->valuestring : "time");
            for (const cJSON *c = first; c; c = c->next)
                if (cJSON_IsString(c))
                    n += (size_t)snprintf(r->objective + n, len - n, "%s%s",
                                          c == first ? ", subject to " : ", ", c->valuestring);
        }
    }
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(h, "seed");
    r->seed = cJSON_IsNumber(seed) && seed->valuedouble >= 0 && seed->valuedouble < 1.8e19
                  ? (unsigned long)seed->valuedouble
                  : 0;

    size_t np = (size_t)cJSON_GetArraySize(params);
    r->param_names = calloc(np ? np : 1, sizeof *r->param_names);
    r->nvalues = calloc(np ? np : 1, sizeof *r->nvalues);
    r->value_text = calloc(np ? np : 1, sizeof *r->value_text);
    r->value_num = calloc(np ? np : 1, sizeof *r->value_num);
    if (!r->param_names || !r->nvalues || !r->value_text || !r->value_num)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    const cJSON *p;
    cJSON_ArrayForEach(p, params)
    {
        size_t k = r->nparams;
        if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) < 1)
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s:%zu: params.%s: not a non-empty list of values", f, line,
                              p->string);
        size_t nv = (size_t)cJSON_GetArraySize(p);
        if (nv >= CUTUNE_REPORT_NOVALUE)
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: params.%s: too many values", f,
                              line, p->string);
        r->param_names[k] = strdup(p->string);
        r->value_text[k] = calloc(nv, sizeof **r->value_text);
        r->value_num[k] = calloc(nv, sizeof **r->value_num);
        r->nparams++;
        if (!r->param_names[k] || !r->value_text[k] || !r->value_num[k])
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        const cJSON *v;
        cJSON_ArrayForEach(v, p)
        {
            char buf[256];
            value_text(v, buf, sizeof buf);
            size_t i = r->nvalues[k]++;
            r->value_num[k][i] = cJSON_IsNumber(v) ? v->valuedouble : NAN;
            if (!(r->value_text[k][i] = strdup(buf)))
                return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        }
    }
    /* an object of numbers, as the journal loader reads it */
    int zrc =
        recording_header_sizes(h, &r->size_names, &r->size_values, &r->nsizes, loc, err, errlen);
    if (zrc < 0)
        return zrc;
    /* a recording tuned as its own space is named by its path: the file's stem reads better */
    const char *spec = r->spec ? r->spec : "?", *base = strrchr(spec, '/');
    base = base ? base + 1 : spec;
    size_t n = strcspn(base, ".");
    char label[512];
    snprintf(label, sizeof label, "%.*s, %s, seed %lu", (int)(n ? n : strlen(base)), base,
             r->searcher ? r->searcher : "?", r->seed);
    r->name = strndup(base, n ? n : strlen(base));
    if (!r->name || !(r->label = strdup(label)))
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    return 0;
}

/* The column of metric name, added when new (every earlier evaluation gets NAN). */
static int metric_index(cutune_report_run *r, const char *name, size_t *out)
{
    for (size_t m = 0; m < r->nmetrics; m++)
        if (strcmp(r->metric_names[m], name) == 0) {
            *out = m;
            return 0;
        }
    char **names = realloc(r->metric_names, (r->nmetrics + 1) * sizeof *names);
    if (!names)
        return CUTUNE_ENOMEM;
    r->metric_names = names;
    if (!(names[r->nmetrics] = strdup(name)))
        return CUTUNE_ENOMEM;
    for (size_t i = 0; i < r->nevals; i++) {
        double *m = realloc(r->evals[i].metrics, (r->nmetrics + 1) * sizeof *m);
        if (!m) {
            free(names[r->nmetrics]);
            return CUTUNE_ENOMEM;
        }
        m[r->nmetrics] = NAN;
        r->evals[i].metrics = m;
    }
    *out = r->nmetrics++;
    return 0;
}

static int set_metric(cutune_report_run *r, cutune_report_eval *e, const char *name, double v)
{
    size_t m;
    if (metric_index(r, name, &m) < 0)
        return CUTUNE_ENOMEM;
    e->metrics[m] = v;
    return 0;
}

static double number_or_nan(const cJSON *j)
{
    return cJSON_IsNumber(j) ? j->valuedouble : NAN;
}

static int parse_eval(cutune_report_run *r, const cJSON *j, size_t line, char *err, size_t errlen)
{
    const char *f = r->path;
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
    if (!cJSON_IsString(kind))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: kind: missing", f, line);
    if (strcmp(kind->valuestring, "header") == 0)
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: a second header", f, line);
    if (strcmp(kind->valuestring, "eval") != 0)
        return 0; /* lines of kinds a later cutune adds are not evaluations */
    if (r->nevals == r->capevals) {
        size_t cap = r->capevals ? 2 * r->capevals : 64;
        cutune_report_eval *e = realloc(r->evals, cap * sizeof *e);
        if (!e)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        r->evals = e;
        r->capevals = cap;
    }
    cutune_report_eval *e = &r->evals[r->nevals];
    *e = (cutune_report_eval){.time_ms = NAN, .elapsed_s = NAN};
    e->idx = malloc((r->nparams ? r->nparams : 1) * sizeof *e->idx);
    e->metrics = malloc((r->nmetrics ? r->nmetrics : 1) * sizeof *e->metrics);
    if (!e->idx || !e->metrics) {
        free(e->idx);
        free(e->metrics);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    for (size_t m = 0; m < r->nmetrics; m++)
        e->metrics[m] = NAN;
    r->nevals++; /* owned by r from here: freed with it on any failure below */

    const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, "n");
    e->n = cJSON_IsNumber(n) && n->valuedouble >= 0 && n->valuedouble < 1e18
               ? (size_t)n->valuedouble
               : r->nevals - 1;
    e->n_line = cJSON_IsNumber(n) ? line : 0;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "status");
    int s = cJSON_IsString(st) ? cutune_status_from_name(st->valuestring) : -1;
    if (s < 0)
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: status: %s", f, line,
                          cJSON_IsString(st) ? "not a status cutune knows" : "missing");
    e->status = s;
    if (s == CUTUNE_STATUS_OK) {
        e->time_ms = number_or_nan(cJSON_GetObjectItemCaseSensitive(j, "time_ms"));
        if (!(e->time_ms > 0) || !isfinite(e->time_ms))
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s:%zu: time_ms: an ok evaluation needs a positive time", f, line);
    }
    const cJSON *el = cJSON_GetObjectItemCaseSensitive(j, "elapsed_s");
    if (el && !cJSON_IsNull(el) && !cJSON_IsNumber(el))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: eval.elapsed_s: expected a number",
                          f, line);
    e->elapsed_s = number_or_nan(el);

    const cJSON *config = cJSON_GetObjectItemCaseSensitive(j, "config");
    if (!cJSON_IsObject(config))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: config: missing or not an object", f,
                          line);
    for (size_t p = 0; p < r->nparams; p++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(config, r->param_names[p]);
        if (!v)
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: config.%s: missing", f, line,
                              r->param_names[p]);
        e->idx[p] = CUTUNE_REPORT_NOVALUE;
        for (size_t k = 0; k < r->nvalues[p]; k++) {
            int same = cJSON_IsNumber(v) ? r->value_num[p][k] == v->valuedouble : 0;
            if (!cJSON_IsNumber(v)) {
                char buf[256];
                value_text(v, buf, sizeof buf);
                same = isnan(r->value_num[p][k]) && strcmp(buf, r->value_text[p][k]) == 0;
            }
            if (same) {
                e->idx[p] = (uint16_t)k;
                break;
            }
        }
        if (e->idx[p] == CUTUNE_REPORT_NOVALUE) {
            char buf[256];
            value_text(v, buf, sizeof buf);
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s:%zu: config.%s: value %s is not among the header's params", f,
                              line, r->param_names[p], buf);
        }
    }
    /* metrics and costs checked as the journal loader checks them (recording_parse.c) */
    char loc[512];
    snprintf(loc, sizeof loc, "%s:%zu: eval.metrics", f, line);
    const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(j, "metrics");
    int rc = recording_check_metrics(metrics, loc, err, errlen);
    if (rc < 0)
        return rc;
    if (!cJSON_IsObject(metrics))
        metrics = NULL;
    const cJSON *m;
    cJSON_ArrayForEach(m, metrics)
    {
        if (cJSON_IsNumber(m) && isfinite(m->valuedouble) && m->string &&
            set_metric(r, e, m->string, m->valuedouble) < 0)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    static const char *const costs[] = {"compile_ms", "bench_ms"};
    snprintf(loc, sizeof loc, "%s:%zu: eval", f, line);
    static const char *const unread[] = {"log", "timestamp"};
    if ((rc = recording_check_strings(j, unread, 2, loc, err, errlen)) < 0)
        return rc;
    for (size_t c = 0; c < 2; c++) {
        double v = NAN;
        /* as the journal loader: null is "not recorded", a negative cost or another type an
         * error */
        if ((rc = recording_opt_cost(j, costs[c], &v, NULL, loc, err, errlen)) < 0)
            return rc;
        if (isfinite(v) && set_metric(r, e, costs[c], v) < 0)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    return 0;
}

static int cmp_n(const void *a, const void *b)
{
    const cutune_report_eval *x = *(const cutune_report_eval *const *)a,
                             *y = *(const cutune_report_eval *const *)b;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    return x->n_line < y->n_line ? -1 : x->n_line > y->n_line;
}

/* Every evaluation number once, as the journal loader asks: a repeat is two runs written
 * into one journal, whose report would pass for one run's. */
static int check_numbers(const cutune_report_run *r, char *err, size_t errlen)
{
    const cutune_report_eval **by = malloc((r->nevals ? r->nevals : 1) * sizeof *by);
    if (!by)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    size_t nby = 0;
    const cutune_report_eval *off = NULL; /* the first n that is not its line's place */
    size_t off_place = 0;
    for (size_t i = 0; i < r->nevals; i++)
        if (r->evals[i].n_line) {
            by[nby++] = &r->evals[i];
            if (!off && r->evals[i].n != i) {
                off = &r->evals[i];
                off_place = i;
            }
        }
    qsort(by, nby, sizeof *by, cmp_n);
    size_t later = 0, earlier = 0, n = 0;
    for (size_t i = 1; i < nby; i++)
        if (by[i]->n == by[i - 1]->n && (!later || by[i]->n_line < later)) {
            later = by[i]->n_line;
            earlier = by[i - 1]->n_line;
            n = by[i]->n;
        }
    free(by);
    if (later)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s:%zu: n: evaluation %zu is also on line %zu (an evaluation number "
                          "repeats: two runs wrote this journal?)",
                          r->path, later, n, earlier);
    if (off)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s:%zu: n: evaluation %zu where %zu was expected (evaluations are "
                          "numbered 0, 1, 2, ... in the order of their lines: a line removed or "
                          "moved?)",
                          r->path, off->n_line, off->n, off_place);
    return 0;
}

static int parse_lines(cutune_report_run *r, const char *text, size_t len, char *err, size_t errlen)
{
    const char *p = text, *end = text + len;
    size_t line = 0;
    int have_header = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        line++;
        size_t n = (size_t)(e - p);
        if (!recording_blank_line(p, e)) { /* the buffer need not end in a NUL */
            cJSON *j = cJSON_ParseWithLength(p, n);
            if (!j) {
                if (!nl) { /* a last line cut short by a crash: the record ends before it */
                    r->dropped_tail = 1;
                    break;
                }
                return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: not a JSON object", r->path,
                                  line);
            }
            int rc = have_header ? 0 : recording_mark_member_floats(p, n, j, "params");
            if (rc < 0)
                rc = cutune_err(err, errlen, rc, "%s: out of memory", r->path);
            else
                rc = have_header ? parse_eval(r, j, line, err, errlen)
                                 : parse_header(r, j, line, err, errlen);
            cJSON_Delete(j);
            if (rc < 0)
                return rc;
            have_header = 1;
        }
        p = nl ? nl + 1 : end;
    }
    if (!have_header)
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s: empty: not a cutune journal", r->path);
    return check_numbers(r, err, errlen);
}

int cutune_report_run_load_buffer(const char *name, const char *data, size_t len,
                                  cutune_report_run **out, char *err, size_t errlen)
{
    *out = NULL;
    cutune_report_run *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(name))) {
        free(r);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    int rc = parse_lines(r, data, len, err, errlen);
    if (rc < 0) {
        cutune_report_run_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

int cutune_report_run_load(const char *path, cutune_report_run **out, char *err, size_t errlen)
{
    *out = NULL;
    char *raw = NULL, *text = NULL;
    size_t rawlen = 0, len = 0;
    int rc = cutune_read_file(path, &raw, &rawlen, err, errlen);
    if (rc < 0)
        return rc;
    if (cutune_io_is_gzip(raw, rawlen)) {
        rc = cutune_io_gunzip(path, raw, rawlen, &text, &len, err, errlen);
        free(raw);
        if (rc < 0)
            return rc;
    } else {
        text = raw;
        len = rawlen;
    }
    rc = cutune_report_run_load_buffer(path, text, len, out, err, errlen);
    free(text);
    return rc;
}

void cutune_report_eval_config_text(const cutune_report_run *b, const cutune_report_eval *e,
                                    char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t p = 0; p < b->nparams && k < len; p++) {
        int w = snprintf(buf + k, len - k, "%s%s=%s", p ? ", " : "", b->param_names[p],
                         b->value_text[p][e->idx[p]]);
        k += w > 0 ? (size_t)w : 0;
    }
}
