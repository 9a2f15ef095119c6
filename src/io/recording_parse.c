/* What the two recording readers (kt_load.c, journal_load.c) share: JSON parsed whole and
 * checked for what cJSON lets through, number literals that keep 1.0 a float, values and
 * value lists of parameters, the record array, and the optional fields both formats
 * have (times, costs). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/recording.h"
#include "io_internal.h"
#include "src/common/json_check.h"
#include "src/common/metric_name.h"

/* Marks a cJSON number node whose text had a '.' or an exponent, so 1.0 in
 * tune_params stays a float ("1.0" in keys) although cJSON keeps only the
 * double. cJSON reads the type with & 0xFF and frees by bits 256/512, so a
 * high bit is ours. */
#define FLOAT_LEXEME_MARK (1 << 14)

char *recording_json_strdup(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(it) ? strdup(it->valuestring) : NULL;
}

/* Optional string field into *out (NULL when absent or null): present with another type
 * (a number, an object) is an error naming loc.key. */
int recording_opt_string(const cJSON *o, const char *key, char **out, const char *loc, char *err,
                         size_t errlen)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = NULL;
    if (!it || cJSON_IsNull(it))
        return 0;
    if (!cJSON_IsString(it))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.%s: expected a string", loc, key);
    if (!(*out = strdup(it->valuestring)))
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", loc);
    return 0;
}

/* Optional string fields read by no one here (a journal's log, timestamp, started): absent,
 * null or a string; another type is a damaged line, an error naming loc.key. */
int recording_check_strings(const cJSON *o, const char *const *keys, size_t n, const char *loc,
                            char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, keys[i]);
        if (it && !cJSON_IsNull(it) && !cJSON_IsString(it))
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.%s: expected a string", loc, keys[i]);
    }
    return 0;
}

/* Optional count field (0, 1, 2, ...): absent or null is fine, anything else an error. */
int recording_opt_count(const cJSON *o, const char *key, const char *loc, char *err, size_t errlen)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it || cJSON_IsNull(it))
        return 0;
    if (!cJSON_IsNumber(it) || !(it->valuedouble >= 0) || it->valuedouble > 9007199254740992.0 ||
        it->valuedouble != floor(it->valuedouble))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.%s: expected a count (0, 1, 2, ...)", loc,
                          key);
    return 0;
}

/* A journal header's "subject_to": absent or null, or a list of strings (the run's
 * constraints), joined with '\n' into *out (NULL when there are none). loc ("FILE:1:
 * header") names the field. */
int recording_header_subject_to(const cJSON *h, char **out, const char *loc, char *err,
                                size_t errlen)
{
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(h, "subject_to");
    size_t len = 0, i = 0;
    *out = NULL;
    if (!st || cJSON_IsNull(st))
        return 0;
    if (!cJSON_IsArray(st))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.subject_to: expected a list of strings",
                          loc);
    for (const cJSON *c = st->child; c; c = c->next, i++) {
        if (!cJSON_IsString(c))
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.subject_to[%zu]: expected a string",
                              loc, i);
        len += strlen(c->valuestring) + 1;
    }
    if (!len)
        return 0;
    if (!(*out = malloc(len)))
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", loc);
    size_t n = 0;
    for (const cJSON *c = st->child; c; c = c->next) {
        size_t cl = strlen(c->valuestring);
        if (n)
            (*out)[n++] = '\n';
        memcpy(*out + n, c->valuestring, cl);
        n += cl;
    }
    (*out)[n] = '\0';
    return 0;
}

/* A journal header's "sizes": absent or null, or an object of finite numbers, into
 * *names and *values (malloc'd, *n of them; the caller frees them, also on an error). */
int recording_header_sizes(const cJSON *h, char ***names, double **values, size_t *n,
                           const char *loc, char *err, size_t errlen)
{
    const cJSON *sizes = cJSON_GetObjectItemCaseSensitive(h, "sizes");
    *names = NULL;
    *values = NULL;
    *n = 0;
    if (!sizes || cJSON_IsNull(sizes))
        return 0;
    if (!cJSON_IsObject(sizes))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.sizes: expected an object of numbers",
                          loc);
    size_t cap = (size_t)cJSON_GetArraySize(sizes);
    *names = calloc(cap ? cap : 1, sizeof **names);
    *values = calloc(cap ? cap : 1, sizeof **values);
    if (!*names || !*values)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", loc);
    for (const cJSON *it = sizes->child; it; it = it->next) {
        if (!cJSON_IsNumber(it))
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.sizes.%s: expected a number", loc,
                              it->string);
        if (!isfinite(it->valuedouble))
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s.sizes.%s: a number beyond the range of a double", loc,
                              it->string);
        if (!((*names)[*n] = strdup(it->string)))
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", loc);
        (*values)[(*n)++] = it->valuedouble;
    }
    return 0;
}

/* ------------------------------------------------------- float lexemes */

/* Walk JSON text (already accepted by cJSON) and collect, for every number
 * inside the value of top-level member `member`, whether its text had a '.'
 * or an exponent. Returns the count; flags is malloc'd (NULL if none). */
static int scan_float_lexemes(const char *text, size_t len, const char *member, uint8_t **flags,
                              size_t *nflags)
{
    size_t mlen = strlen(member), cap = 0, n = 0, i = 0;
    int depth = 0, capture = 0, captured = 0;
    uint8_t *f = NULL;

    *flags = NULL;
    *nflags = 0;
    while (i < len) {
        char c = text[i];
        if (c == '"') {
            size_t start = ++i;
            while (i < len && text[i] != '"')
                i += text[i] == '\\' ? 2 : 1;
            size_t slen = (i < len ? i : len) - start;
            i++;
            if (depth == 1) {
                size_t j = i;
                while (j < len &&
                       (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r'))
                    j++;
                if (j < len && text[j] == ':') {
                    capture = slen == mlen && memcmp(text + start, member, mlen) == 0;
                    captured |= capture;
                }
            }
            continue;
        }
        if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
            if (depth <= 0)
                capture = 0;
        } else if (c == ',' && depth == 1) {
            capture = 0;
            if (captured)
                break; /* the member is done: the rest of a 10 MB cache is not needed */
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            int isfloat = 0;
            for (; i < len; i++) {
                char d = text[i];
                if (d == '.' || d == 'e' || d == 'E')
                    isfloat = 1;
                else if (d != '+' && d != '-' && (d < '0' || d > '9'))
                    break;
            }
            if (capture) {
                if (n == cap) {
                    size_t ncap = cap ? 2 * cap : 64;
                    uint8_t *nf = realloc(f, ncap);
                    if (!nf) {
                        free(f);
                        return CUTUNE_ENOMEM;
                    }
                    f = nf;
                    cap = ncap;
                }
                f[n++] = (uint8_t)isfloat;
            }
            continue;
        }
        i++;
    }
    *flags = f;
    *nflags = n;
    return 0;
}

/* Mark the number nodes under node, in document order, from flags. */
static void mark_float_lexemes(cJSON *node, const uint8_t *flags, size_t n, size_t *pos)
{
    for (cJSON *c = node->child; c; c = c->next) {
        if (cJSON_IsNumber(c)) {
            if (*pos < n && flags[*pos])
                c->type |= FLOAT_LEXEME_MARK;
            (*pos)++;
        } else if (c->child) {
            mark_float_lexemes(c, flags, n, pos);
        }
    }
}

int recording_mark_member_floats(const char *text, size_t len, cJSON *root, const char *member)
{
    uint8_t *flags;
    size_t n, pos = 0;
    cJSON *m = cJSON_GetObjectItemCaseSensitive(root, member);
    if (!m || !m->child)
        return 0;
    int rc = scan_float_lexemes(text, len, member, &flags, &n);
    if (rc < 0)
        return rc;
    mark_float_lexemes(m, flags, n, &pos);
    free(flags);
    return 0;
}

/* ------------------------------------------------------------ parameters */

/* A JSON scalar as a value (strings are views into the node). */
int recording_json_value(const cJSON *it, cutune_value *v)
{
    memset(v, 0, sizeof *v);
    if (cJSON_IsNumber(it)) {
        double d = it->valuedouble;
        int integer = !(it->type & FLOAT_LEXEME_MARK) && d == floor(d);
        /* an integer from 2^53 on may have lost digits in the double: refused, never
         * rounded (a parameter value must be the kernel's literal) */
        if (integer && fabs(d) >= 9007199254740992.0)
            return CUTUNE_EUNSUPPORTED;
        if (integer) {
            v->type = CUTUNE_VALUE_INT;
            v->i = (long long)d;
        } else {
            v->type = CUTUNE_VALUE_REAL;
            v->r = d;
        }
        return 0;
    }
    if (cJSON_IsBool(it)) {
        /* Python: True == 1; kept numeric so restrictions and models see 0/1. */
        v->type = CUTUNE_VALUE_INT;
        v->i = cJSON_IsTrue(it) ? 1 : 0;
        return 0;
    }
    if (cJSON_IsString(it)) {
        v->type = CUTUNE_VALUE_STRING;
        v->s = it->valuestring;
        return 0;
    }
    return CUTUNE_EINVAL;
}

int recording_json_lookup(const cJSON *it, cutune_value *v)
{
    int rc = recording_json_value(it, v);
    /* here the lexeme is unmarked, and a parameter list holds no integer from 2^53 (it was
     * refused there): such a number can only be one of its reals (1e+20) */
    if (rc == CUTUNE_EUNSUPPORTED) {
        v->type = CUTUNE_VALUE_REAL;
        v->r = it->valuedouble;
        rc = 0;
    }
    return rc;
}

const char *recording_value_expected(const cJSON *it)
{
    return cJSON_IsNumber(it) ? "an integer of 2^53 or more, which cutune cannot hold exactly"
                              : "expected a number, string or boolean";
}

/* Allocate the per-parameter arrays for np parameters. */
int recording_alloc_params(recording_impl *ri, size_t np)
{
    cutune_recording *r = &ri->pub;
    r->param_names = calloc(np, sizeof *r->param_names);
    r->nvalues = calloc(np, sizeof *r->nvalues);
    r->values = calloc(np, sizeof *r->values);
    r->texts = calloc(np, sizeof *r->texts);
    r->bools = calloc(np, sizeof *r->bools);
    ri->vh = calloc(np, sizeof *ri->vh);
    if (!r->param_names || !r->nvalues || !r->values || !r->texts || !r->bools || !ri->vh)
        return CUTUNE_ENOMEM;
    r->nparams = np;
    return 0;
}

/* Parameter p from a JSON array of scalars; path names it in messages. */
int recording_set_param(recording_impl *ri, size_t p, const char *pname, const cJSON *list,
                        const char *file, const char *path, char *err, size_t errlen)
{
    cutune_recording *r = &ri->pub;
    for (size_t q = 0; q < p; q++)
        if (strcmp(r->param_names[q], pname) == 0)
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s: %s: parameter '%s' given twice",
                              file, path, pname);
    r->param_names[p] = strdup(pname);
    if (!r->param_names[p])
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
    if (!cJSON_IsArray(list))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s: %s[\"%s\"]: expected a list of values",
                          file, path, pname);
    size_t n = (size_t)cJSON_GetArraySize(list);
    if (n == 0 || n > CUTUNE_SPACE_MAX_VALUES)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: %s[\"%s\"]: expected 1 to %d values, got %zu", file, path, pname,
                          CUTUNE_SPACE_MAX_VALUES, n);
    r->values[p] = calloc(n, sizeof *r->values[p]);
    r->texts[p] = calloc(n, sizeof *r->texts[p]);
    if (!r->values[p] || !r->texts[p])
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
    r->nvalues[p] = n;
    r->bools[p] = 1;
    size_t v = 0;
    for (const cJSON *it = list->child; it; it = it->next, v++) {
        r->bools[p] &= cJSON_IsBool(it) != 0;
        cutune_value val;
        char text[64];
        if (recording_json_value(it, &val) < 0)
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s: %s[\"%s\"][%zu]: %s", file, path,
                              pname, v, recording_value_expected(it));
        if (val.type == CUTUNE_VALUE_STRING) {
            r->texts[p][v] = strdup(val.s);
        } else {
            cutune_value_format(&val, text, sizeof text);
            r->texts[p][v] = strdup(text);
        }
        if (!r->texts[p][v])
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
        if (val.type == CUTUNE_VALUE_STRING)
            val.s = r->texts[p][v];
        r->values[p][v] = val;
    }
    long dup;
    if (recording_value_hash_build(&ri->vh[p], r->values[p], n, &dup) < 0)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
    if (dup >= 0) {
        long first = recording_value_hash_find(&ri->vh[p], r->values[p], &r->values[p][dup]);
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: %s[\"%s\"][%ld]: duplicate value %s (same as [%ld])", file, path,
                          pname, dup, r->texts[p][dup], first);
    }
    return 0;
}

int recording_alloc_records(recording_impl *ri, size_t cap, const char *file, char *err,
                            size_t errlen)
{
    size_t np = ri->pub.nparams;
    ri->pub.records = calloc(cap ? cap : 1, sizeof *ri->pub.records);
    ri->idx_pool = calloc((cap ? cap : 1) * np, sizeof *ri->idx_pool);
    if (!ri->pub.records || !ri->idx_pool)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
    ri->idx_cap = cap;
    return 0;
}

/* Optional array of numbers into rec->times_ms. */
int recording_parse_times(const cJSON *arr, cutune_record *rec, const char *loc, const char *field,
                          char *err, size_t errlen)
{
    if (!arr || cJSON_IsNull(arr))
        return 0;
    if (!cJSON_IsArray(arr))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.%s: expected a list of numbers", loc,
                          field);
    size_t n = (size_t)cJSON_GetArraySize(arr), i = 0;
    if (n == 0)
        return 0;
    rec->times_ms = malloc(n * sizeof *rec->times_ms);
    if (!rec->times_ms)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", loc);
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        if (!cJSON_IsNumber(it))
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.%s[%zu]: expected a number", loc,
                              field, i);
        /* as a record's time is checked (kt_load.c, journal_load.c): a repetition that is not
         * a finite time above 0 would be averaged, confirmed and exported as one */
        if (!(it->valuedouble > 0) || !isfinite(it->valuedouble))
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s.%s[%zu]: %g is not a time (a measured time is above 0)", loc,
                              field, i, it->valuedouble);
        rec->times_ms[i] = it->valuedouble;
    }
    rec->ntimes = n;
    return 0;
}

static int metric_skipped(const char *name, const char *const *skip, size_t nskip)
{
    for (size_t k = 0; k < nskip; k++)
        if (!strcmp(name, skip[k]))
            return 1;
    return 0;
}

int recording_check_metrics(const cJSON *obj, const char *loc, char *err, size_t errlen)
{
    if (!obj || cJSON_IsNull(obj))
        return 0;
    if (!cJSON_IsObject(obj))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s: expected an object of numbers", loc);
    for (const cJSON *it = obj->child; it; it = it->next) {
        if (!cJSON_IsNumber(it))
            return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.%s: expected a number", loc,
                              it->string);
        if (!isfinite(it->valuedouble))
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s.%s: a number beyond the range of a double", loc, it->string);
    }
    return 0;
}

int recording_parse_metrics(const cJSON *obj, cutune_record *rec, const char *const *skip,
                            size_t nskip, const char *const *skip2, size_t nskip2, const char *loc,
                            char *err, size_t errlen)
{
    size_t n = 0;
    if (!cJSON_IsObject(obj))
        return 0;
    for (const cJSON *it = obj->child; it; it = it->next) {
        if (!cJSON_IsNumber(it) || !it->string || metric_skipped(it->string, skip, nskip) ||
            metric_skipped(it->string, skip2, nskip2))
            continue;
        /* a number beyond a double's range (1e400) reads as infinity, which would win or
         * lose every comparison of an objective */
        if (!isfinite(it->valuedouble))
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s.%s: a number beyond the range of a double", loc, it->string);
        /* a metric is held under a name of at most 31 bytes, as an evaluator's are: a
         * longer one would be left out of the record, and an objective, a constraint or an
         * export reading it would see no value */
        _Static_assert(sizeof rec->metrics[0].name == sizeof(((cutune_metric *)0)->name),
                       "a recorded metric's name is held as an evaluator's");
        char why[256];
        if (cutune_metric_name_check(it->string, why, sizeof why) < 0)
            return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED, "%s: %s", loc, why);
        n++;
    }
    if (!n)
        return 0;
    rec->metrics = malloc(n * sizeof *rec->metrics);
    if (!rec->metrics)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", loc);
    for (const cJSON *it = obj->child; it; it = it->next) {
        if (!cJSON_IsNumber(it) || !it->string)
            continue;
        if (metric_skipped(it->string, skip, nskip) || metric_skipped(it->string, skip2, nskip2))
            continue;
        cutune_record_metric *m = &rec->metrics[rec->nmetrics++];
        memcpy(m->name, it->string, strlen(it->string) + 1);
        m->value = it->valuedouble;
    }
    return 0;
}

/* Optional number field; *out untouched when absent or null. */
int recording_opt_number(const cJSON *o, const char *field, double *out, int *present,
                         const char *loc, char *err, size_t errlen)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, field);
    if (!it || cJSON_IsNull(it))
        return 0;
    if (!cJSON_IsNumber(it))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.%s: expected a number", loc, field);
    if (!isfinite(it->valuedouble)) /* 1e400: strtod's infinity */
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s.%s: a number beyond the range of a double", loc, field);
    *out = it->valuedouble;
    if (present)
        *present = 1;
    return 0;
}

/* Optional cost field (milliseconds spent compiling, verifying, timing): a number, 0 or
 * more; absent or null when not recorded. A negative cost is refused, not read as "not
 * recorded" (which is what null says). */
int recording_opt_cost(const cJSON *o, const char *field, double *out, int *present,
                       const char *loc, char *err, size_t errlen)
{
    double v = 0;
    int have = 0;
    int rc = recording_opt_number(o, field, &v, &have, loc, err, errlen);
    if (rc < 0 || !have)
        return rc;
    if (!(v >= 0))
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s.%s: %g is not a cost (a time spent is 0 or more; null when it "
                          "was not recorded)",
                          loc, field, v);
    *out = v;
    if (present)
        *present = 1;
    return 0;
}

/* Parse JSON text of length len fully: trailing non-space is an error too. */
cJSON *recording_parse_json(const char *text, size_t len, size_t *err_offset)
{
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!j) {
        *err_offset = end && end >= text ? (size_t)(end - text) : 0;
        return NULL;
    }
    size_t off = (size_t)(end - text);
    while (off < len &&
           (text[off] == ' ' || text[off] == '\t' || text[off] == '\n' || text[off] == '\r'))
        off++;
    if (off < len) {
        cJSON_Delete(j);
        *err_offset = off;
        return NULL;
    }
    return j;
}

/* What cJSON lets through: a NUL character in a string (cut there: "a\u0000b" would read
 * as "a") and a key given twice in an object (lookups see the first). at: "FILE" or
 * "FILE:LINE". */
int recording_check_json(const char *text, size_t len, const cJSON *root, const char *at, char *err,
                         size_t errlen)
{
    char why[600];
    int key;
    int rc = cutune_json_check_nul(text, len, root, why, sizeof why, &key);
    if (rc < 0)
        return cutune_err(err, errlen, rc, "%s: %s%s: NUL character (strings here hold none)", at,
                          key == 1 ? "a key of " : "", why[0] ? why : "the top level");
    if ((rc = cutune_json_check_keys(root, why, sizeof why)) < 0)
        return cutune_err(err, errlen, rc, "%s: %s", at, why);
    return 0;
}
