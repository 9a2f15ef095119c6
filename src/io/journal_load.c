/* A cutune journal read into a recording (for replay and for --resume): the header line
 * gives the parameters and how the run was started (seed, budget, searcher, evaluator,
 * sizes, ...), each "eval" line a record. An unterminated last line is a crash mid-write
 * and is dropped, as the journal writer drops it. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/recording.h"
#include "io_internal.h"

/* ----------------------------------------------------------- journals */

static const char *line_end(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl : end;
}

int recording_blank_line(const char *p, const char *e)
{
    for (; p < e; p++)
        if (*p != ' ' && *p != '\t' && *p != '\r')
            return 0;
    return 1;
}

/* The "kind" of the first line of data when it is a JSON object that has one (a journal
 * line: "header", "eval", ...), copied into buf; 0 when it has none. */
int recording_first_kind(const char *data, size_t len, char *buf, size_t buflen)
{
    const char *end = data + len, *e = line_end(data, end);
    size_t off;
    /* A compact Kernel Tuner cache is one long line: parse only what names a kind. */
    if (!memmem(data, (size_t)(e - data), "\"kind\"", 6))
        return 0;
    cJSON *j = recording_parse_json(data, (size_t)(e - data), &off);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
    int yes = cJSON_IsObject(j) && cJSON_IsString(kind);
    if (yes)
        snprintf(buf, buflen, "%s", kind->valuestring);
    cJSON_Delete(j);
    return yes;
}

/* The unsigned integer after the first `"name":` of a header line, read from
 * the text (cJSON's doubles keep 53 bits; the writer puts seed before any
 * nested object); fallback when not found. */
static unsigned long exact_member_ulong(const char *text, size_t len, const char *name,
                                        unsigned long fallback)
{
    char key[64];
    int kl = snprintf(key, sizeof key, "\"%s\"", name);
    for (const char *p = text, *end = text + len;
         (p = memmem(p, (size_t)(end - p), key, (size_t)kl)); p += kl) {
        if (p > text && p[-1] == '\\')
            continue; /* inside a string */
        const char *q = p + kl;
        while (q < end && (*q == ' ' || *q == '\t' || *q == ':'))
            q++;
        char digits[24];
        size_t n = 0;
        while (q + n < end && n + 1 < sizeof digits && q[n] >= '0' && q[n] <= '9') {
            digits[n] = q[n];
            n++;
        }
        digits[n] = '\0';
        if (n)
            return strtoul(digits, NULL, 10);
    }
    return fallback;
}

static int journal_header(recording_impl *ri, const char *file, const char *text, size_t len,
                          cJSON *h, char *err, size_t errlen)
{
    cutune_recording *r = &ri->pub;
    int rc;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(h, "format");
    if (fmt && (!cJSON_IsNumber(fmt) || fmt->valuedouble != 1))
        return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED,
                          "%s:1: format: only journal format 1 is known", file);
    if ((rc = recording_mark_member_floats(text, len, h, "params")) < 0)
        return cutune_err(err, errlen, rc, "%s: out of memory", file);
    r->format = strdup("cutune_journal");
    char where[512];
    snprintf(where, sizeof where, "%s:1: header", file);
    /* optional strings: absent or null is "not recorded", another type an error (a
     * searcher of 1 resumed under the default searcher) */
    {
        const struct {
            const char *key;
            char **dst;
        } strs[] = {{"device", &r->device_name},
                    {"spec", &r->spec_name},
                    {"spec_hash", &r->spec_hash},
                    {"space_hash", &r->space_hash},
                    {"searcher", &r->searcher},
                    {"evaluator", &r->evaluator},
                    {"searcher_args", &r->searcher_args},
                    {"evaluator_arg", &r->evaluator_arg},
                    {"target", &r->target},
                    {"objective", &r->objective},
                    {"warm_start", &r->warm_start},
                    {"warm_start_hash", &r->warm_start_hash},
                    {"gpu", &r->gpu}};
        for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
            if ((rc = recording_opt_string(h, strs[i].key, strs[i].dst, where, err, errlen)) < 0)
                return rc;
        static const char *const unread[] = {"cutune", "started"};
        if ((rc = recording_check_strings(h, unread, 2, where, err, errlen)) < 0)
            return rc;
    }
    size_t ol = r->objective ? strlen(r->objective) : 0;
    if (ol > 4 &&
        (!strcmp(r->objective + ol - 4, ":max") || !strcmp(r->objective + ol - 4, ":min"))) {
        r->objective_max = r->objective[ol - 2] == 'a';
        r->objective[ol - 4] = '\0';
    }
    if ((rc = recording_header_subject_to(h, &r->subject_to, where, err, errlen)) < 0)
        return rc;
    if (!r->format)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
    if ((rc = recording_header_sizes(h, &r->size_names, &r->size_values, &r->nsizes, where, err,
                                     errlen)) < 0)
        return rc;
    double seed = 0, budget = 0, batch = 0, valid = 0, parallel = 0;
    if ((rc = recording_opt_number(h, "seed", &seed, NULL, where, err, errlen)) < 0 ||
        (rc = recording_opt_number(h, "budget", &budget, NULL, where, err, errlen)) < 0 ||
        (rc = recording_opt_number(h, "batch", &batch, NULL, where, err, errlen)) < 0 ||
        (rc = recording_opt_number(h, "valid", &valid, NULL, where, err, errlen)) < 0 ||
        (rc = recording_opt_number(h, "parallel", &parallel, NULL, where, err, errlen)) < 0)
        return rc;
    /* a value out of range is an error, not "unknown": resume would run on under a default
     * (a hand-edited budget of -5 once became the default 60) */
    static const char *const names[] = {"seed", "budget", "batch", "valid", "parallel"};
    const double two64 = 18446744073709551616.0; /* ULONG_MAX reads as 2^64 */
    /* batch, parallel: cutune's --batch and --parallel range (1..1024; 0 or absent: not
     * recorded) */
    const double vals[] = {seed, budget, batch, valid, parallel},
                 maxv[] = {two64, two64, 1024, two64, 1024};
    for (size_t i = 0; i < 5; i++)
        if (!(vals[i] >= 0 && vals[i] <= maxv[i] && vals[i] == floor(vals[i])))
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.%s: %g is not a count", where,
                              names[i], vals[i]);
    r->batch = (size_t)batch;
    r->parallel = (size_t)parallel;
    r->seed = seed < two64 ? (unsigned long)seed : ULONG_MAX;
    if (seed >= 9007199254740992.0) /* from 2^53 the double may have lost digits: the text */
        r->seed = exact_member_ulong(text, len, "seed", r->seed);
    r->budget = budget < two64 ? (size_t)budget : SIZE_MAX;
    /* as the seed: 2^53 + 1 read back as 2^53 made its resume an extension */
    if (budget >= 9007199254740992.0)
        r->budget = exact_member_ulong(text, len, "budget", r->budget);
    r->valid = valid < two64 ? (size_t)valid : SIZE_MAX;
    const cJSON *cart = cJSON_GetObjectItemCaseSensitive(h, "cartesian");
    if (cart && !cJSON_IsBool(cart))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.cartesian: expected true or false",
                          where);
    r->cartesian = cart ? cJSON_IsTrue(cart) : -1;
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(h, "params");
    if (!cJSON_IsObject(params) || !params->child)
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:1: params: %s", file,
                          params ? "expected an object of value lists" : "missing");
    if ((rc = recording_alloc_params(ri, (size_t)cJSON_GetArraySize(params))) < 0)
        return cutune_err(err, errlen, rc, "%s: out of memory", file);
    size_t p = 0;
    snprintf(where, sizeof where, "%s:1", file);
    for (const cJSON *c = params->child; c; c = c->next, p++)
        if ((rc = recording_set_param(ri, p, c->string, c, where, "params", err, errlen)) < 0)
            return rc;
    return 0;
}

static int journal_eval(recording_impl *ri, const cJSON *j, cutune_record *rec, const char *file,
                        size_t lineno, char *err, size_t errlen)
{
    cutune_recording *r = &ri->pub;
    int rc;
    char where[512];
    snprintf(where, sizeof where, "%s:%zu: eval", file, lineno);
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(j, "config");
    if (!cJSON_IsObject(config))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: config: %s", file, lineno,
                          config ? "expected an object" : "missing");
    for (size_t p = 0; p < r->nparams; p++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(config, r->param_names[p]);
        cutune_value v;
        if (!it)
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: config.%s: missing", file,
                              lineno, r->param_names[p]);
        if (recording_json_lookup(it, &v) < 0)
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: config.%s: %s", file, lineno,
                              r->param_names[p], recording_value_expected(it));
        long k = recording_find_value(ri, p, &v);
        if (k < 0) {
            char text[64];
            cutune_value_format(&v, text, sizeof text);
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s:%zu: config.%s: value %s is not in the header's params", file,
                              lineno, r->param_names[p], text);
        }
        rec->idx[p] = (uint16_t)k;
    }
    /* every parameter was found, and keys are distinct (recording_check_json): one more
     * is a name the header does not have, a run of another space */
    if ((size_t)cJSON_GetArraySize(config) != r->nparams)
        for (const cJSON *c = config->child; c; c = c->next) {
            size_t p = 0;
            while (p < r->nparams && strcmp(c->string, r->param_names[p]) != 0)
                p++;
            if (p == r->nparams)
                return cutune_err(err, errlen, CUTUNE_EPARSE,
                                  "%s:%zu: config.%s: not a parameter of the header's params", file,
                                  lineno, c->string);
        }
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "status");
    int s = cJSON_IsString(st) ? cutune_status_from_name(st->valuestring) : -1;
    if (s < 0)
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: status: %s", file, lineno,
                          st ? "unknown status" : "missing");
    rec->status = (cutune_status)s;
    rec->time_ms = NAN;
    rec->compile_ms = -1;
    rec->bench_ms = -1;
    int have_time = 0;
    if ((rc = recording_opt_number(j, "time_ms", &rec->time_ms, &have_time, where, err, errlen)) <
        0)
        return rc;
    if (rec->status == CUTUNE_STATUS_OK && (!have_time || !isfinite(rec->time_ms)))
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s:%zu: time_ms: an ok evaluation needs a number", file, lineno);
    if (rec->status == CUTUNE_STATUS_OK && !(rec->time_ms > 0.0))
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s:%zu: time_ms: %g is not a time (a measured time is above 0)", file,
                          lineno, rec->time_ms);
    if ((rc = recording_opt_cost(j, "compile_ms", &rec->compile_ms, NULL, where, err, errlen)) <
            0 ||
        (rc = recording_opt_cost(j, "bench_ms", &rec->bench_ms, NULL, where, err, errlen)) < 0)
        return rc;
    if (rec->compile_ms >= 0 || rec->bench_ms >= 0)
        r->has_costs = 1;
    /* read by the report and kept by no record, but a wrong type is a damaged line */
    double elapsed = 0;
    if ((rc = recording_opt_number(j, "elapsed_s", &elapsed, NULL, where, err, errlen)) < 0 ||
        (rc = recording_opt_count(j, "worker", where, err, errlen)) < 0 ||
        (rc = recording_opt_count(j, "submitted", where, err, errlen)) < 0)
        return rc;
    static const char *const unread[] = {"log", "timestamp"};
    if ((rc = recording_check_strings(j, unread, 2, where, err, errlen)) < 0)
        return rc;
    char where_m[520];
    snprintf(where_m, sizeof where_m, "%s.metrics", where);
    const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(j, "metrics");
    if ((rc = recording_check_metrics(metrics, where_m, err, errlen)) < 0 ||
        (rc = recording_parse_metrics(metrics, rec, NULL, 0, NULL, 0, where_m, err, errlen)) < 0)
        return rc;
    if ((rc = recording_parse_times(cJSON_GetObjectItemCaseSensitive(j, "times_ms"), rec, where,
                                    "times_ms", err, errlen)) < 0)
        return rc;
    /* the CUDA evaluator's count of timed repetitions, each of which is in times_ms (an empty
     * list, as for a failure, records none): a list of another length is a line edited or
     * merged by hand, whose median and confirmation would draw from other repetitions */
    const cJSON *reps = cJSON_GetObjectItemCaseSensitive(metrics, "repetitions");
    if (rec->ntimes && cJSON_IsNumber(reps) && reps->valuedouble != (double)rec->ntimes)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s.times_ms: %zu repetitions, where metrics.repetitions says %g (every "
                          "timed repetition is in times_ms)",
                          where, rec->ntimes, reps->valuedouble);
    return 0;
}

/* An eval line's evaluation number ("n") and where it was read. */
typedef struct eval_number {
    double n;     /* integral, 0..2^53 */
    size_t line;  /* 1-based line of the journal */
    size_t place; /* its place among the journal's evaluations, from 0 */
} eval_number;

static int cmp_eval_number(const void *a, const void *b)
{
    const eval_number *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Every evaluation number once: a repeat is two writers in one journal (or lines copied
 * twice), whose records would be replayed and resumed as if they were one run's. */
static int check_eval_numbers(eval_number *ns, size_t nns, const char *file, char *err,
                              size_t errlen)
{
    size_t later = 0, earlier = 0;
    double n = 0;
    /* the tuner numbers its evaluations 0, 1, 2, ... in the order it writes them; a line
     * removed or moved would be resumed as another run (the searcher replays its
     * proposals against the records) */
    eval_number off = {.line = 0};
    for (size_t i = 0; i < nns && !off.line; i++)
        if (ns[i].n != (double)ns[i].place)
            off = ns[i];
    qsort(ns, nns, sizeof *ns, cmp_eval_number);
    for (size_t i = 1; i < nns; i++)
        if (ns[i].n == ns[i - 1].n && (!later || ns[i].line < later)) {
            later = ns[i].line;
            earlier = ns[i - 1].line;
            n = ns[i].n;
        }
    if (later)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s:%zu: n: evaluation %.0f is also on line %zu (an evaluation "
                          "number repeats: two runs wrote this journal?)",
                          file, later, n, earlier);
    if (off.line)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s:%zu: n: evaluation %.0f where %zu was expected (evaluations are "
                          "numbered 0, 1, 2, ... in the order of their lines: a line removed or "
                          "moved?)",
                          file, off.line, off.n, off.place);
    return 0;
}

int recording_load_journal(recording_impl *ri, const char *file, const char *data, size_t len,
                           char *err, size_t errlen)
{
    cutune_recording *r = &ri->pub;
    const char *end = data + len, *p = data;
    size_t lineno = 0, nlines = 1, nns = 0;
    eval_number *ns = NULL;
    int rc = 0;

    for (const char *q = data; (q = memchr(q, '\n', (size_t)(end - q))); q++)
        nlines++;
    while (p < end || lineno == 0) {
        const char *e = line_end(p, end);
        int terminated = e < end;
        lineno++;
        if (recording_blank_line(p, e)) {
            p = terminated ? e + 1 : end;
            continue;
        }
        /* Every line is written whole with its newline: an unterminated last
         * line is a crash mid-write, dropped even when it happens to parse, as
         * cutune_journal_append drops it (one rule for replay and resume). */
        if (!terminated) {
            if (lineno == 1) {
                rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                                "%s:1: the header line is incomplete (the run stopped while "
                                "starting): start a new run",
                                file);
                goto out_free;
            }
            r->truncated_tail = 1;
            break;
        }
        size_t off;
        cJSON *j = recording_parse_json(p, (size_t)(e - p), &off);
        if (!j) {
            rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: malformed JSON at column %zu",
                            file, lineno, off + 1);
            goto out_free;
        }
        char at[600];
        snprintf(at, sizeof at, "%s:%zu", file, lineno);
        if ((rc = recording_check_json(p, (size_t)(e - p), j, at, err, errlen)) < 0) {
            cJSON_Delete(j);
            goto out_free;
        }
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
        if (!cJSON_IsObject(j) || !cJSON_IsString(kind)) {
            cJSON_Delete(j);
            rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: expected an object with \"kind\"",
                            file, lineno);
            goto out_free;
        }
        if (lineno == 1) {
            rc = journal_header(ri, file, p, (size_t)(e - p), j, err, errlen);
            if (rc == 0)
                rc = recording_alloc_records(ri, nlines, file, err, errlen);
            if (rc == 0 && !(ns = malloc(nlines * sizeof *ns)))
                rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
        } else if (strcmp(kind->valuestring, "eval") == 0) {
            cutune_record *rec = &r->records[r->nrecords];
            rec->idx = ri->idx_pool + r->nrecords * r->nparams;
            r->nrecords++;
            rc = journal_eval(ri, j, rec, file, lineno, err, errlen);
            /* "n", the evaluation's number, is optional (hand-made journals) */
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, "n");
            if (rc == 0 && n && !cJSON_IsNull(n)) {
                if (!cJSON_IsNumber(n) || !(n->valuedouble >= 0) ||
                    n->valuedouble > 9007199254740992.0 || n->valuedouble != floor(n->valuedouble))
                    rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                                    "%s:%zu: n: expected an evaluation number (0, 1, 2, ...)", file,
                                    lineno);
                else
                    ns[nns++] = (eval_number){n->valuedouble, lineno, r->nrecords - 1};
            }
        } else if (strcmp(kind->valuestring, "header") == 0) {
            rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: a second header", file, lineno);
        }
        /* Other kinds are notes from newer writers: skipped. */
        cJSON_Delete(j);
        if (rc < 0)
            goto out_free;
        p = terminated ? e + 1 : end;
    }
    rc = check_eval_numbers(ns, nns, file, err, errlen);
out_free:
    free(ns);
    return rc;
}
