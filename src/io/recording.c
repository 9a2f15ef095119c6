/* Recorded measurements: Kernel Tuner caches (plain or gzip) and cutune
 * journals, loaded into one in-memory form; spaces built from them and maps
 * from a space onto them. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/recording.h"
#include "io_internal.h"
#include "src/common/json_check.h"

/* Marks a cJSON number node whose text had a '.' or an exponent, so 1.0 in
 * tune_params stays a float ("1.0" in keys) although cJSON keeps only the
 * double. cJSON reads the type with & 0xFF and frees by bits 256/512, so a
 * high bit is ours. */
#define FLOAT_LEXEME_MARK (1 << 14)

/* A time at or above this (ms) is Kernel Tuner's way of marking a failure. */
#define KT_FAILED_TIME 1e10

/* Open-addressing table: value -> index in one parameter's list. */
typedef struct value_hash {
    size_t mask;   /* slots - 1 (slots a power of two) */
    int32_t *slot; /* value index or -1 */
} value_hash;

/* The public recording plus what only this file needs. */
typedef struct recording_impl {
    cutune_recording pub; /* first member: a cutune_recording * points here */
    uint16_t *idx_pool;   /* nrecords * nparams indices; records' idx point in */
    size_t idx_cap;       /* records the pool has room for */
    value_hash *vh;       /* per parameter */
    size_t set_mask;      /* record set slots - 1 */
    int32_t *set;         /* index vector -> first record with it, or -1 */
} recording_impl;

/* ------------------------------------------------------------------ hashing */

static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static uint64_t hash_value(const cutune_value *v)
{
    if (v->type == CUTUNE_VALUE_STRING) {
        uint64_t h = 1469598103934665603ULL;
        for (const unsigned char *p = (const unsigned char *)v->s; *p; p++)
            h = (h ^ *p) * 1099511628211ULL;
        return mix64(h ^ 0x5bd1e995ULL);
    }
    /* Numbers hash by their double so that 1 and 1.0 meet. */
    double d = cutune_value_as_double(v);
    if (d == 0)
        d = 0; /* -0.0 and 0.0 */
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return mix64(bits);
}

static int value_equal(const cutune_value *a, const cutune_value *b)
{
    int as = a->type == CUTUNE_VALUE_STRING, bs = b->type == CUTUNE_VALUE_STRING;
    if (as || bs)
        return as && bs && strcmp(a->s, b->s) == 0;
    if (a->type == CUTUNE_VALUE_INT && b->type == CUTUNE_VALUE_INT)
        return a->i == b->i;
    return cutune_value_as_double(a) == cutune_value_as_double(b);
}

static size_t table_slots(size_t n)
{
    size_t slots = 16;
    while (slots < 2 * n + 1)
        slots *= 2;
    return slots;
}

/* dup: the index of the first value equal to an earlier one (-1: none); equal values would
 * make two configurations of one. */
static int value_hash_build(value_hash *h, const cutune_value *values, size_t n, long *dup_at)
{
    *dup_at = -1;
    size_t slots = table_slots(n);
    h->slot = malloc(slots * sizeof *h->slot);
    if (!h->slot)
        return CUTUNE_ENOMEM;
    memset(h->slot, 0xff, slots * sizeof *h->slot);
    h->mask = slots - 1;
    for (size_t i = 0; i < n; i++) {
        size_t s = hash_value(&values[i]) & h->mask;
        int dup = 0;
        while (h->slot[s] >= 0) {
            if (value_equal(&values[h->slot[s]], &values[i]) && !dup) {
                dup = 1; /* first of equal values wins */
                if (*dup_at < 0)
                    *dup_at = (long)i;
            }
            s = (s + 1) & h->mask;
        }
        if (!dup)
            h->slot[s] = (int32_t)i;
    }
    return 0;
}

static long value_hash_find(const value_hash *h, const cutune_value *values, const cutune_value *v)
{
    size_t s = hash_value(v) & h->mask;
    while (h->slot[s] >= 0) {
        if (value_equal(&values[h->slot[s]], v))
            return h->slot[s];
        s = (s + 1) & h->mask;
    }
    return -1;
}

static uint64_t hash_idx(const uint16_t *idx, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t p = 0; p < n; p++)
        h = (h ^ idx[p]) * 1099511628211ULL;
    return mix64(h);
}

static long record_set_find(const recording_impl *ri, const uint16_t *idx)
{
    size_t np = ri->pub.nparams;
    if (!ri->set)
        return -1;
    size_t s = hash_idx(idx, np) & ri->set_mask;
    while (ri->set[s] >= 0) {
        if (memcmp(ri->pub.records[ri->set[s]].idx, idx, np * sizeof *idx) == 0)
            return ri->set[s];
        s = (s + 1) & ri->set_mask;
    }
    return -1;
}

static int record_set_build(recording_impl *ri)
{
    size_t np = ri->pub.nparams, slots = table_slots(ri->pub.nrecords);
    ri->set = malloc(slots * sizeof *ri->set);
    if (!ri->set)
        return CUTUNE_ENOMEM;
    memset(ri->set, 0xff, slots * sizeof *ri->set);
    ri->set_mask = slots - 1;
    for (size_t r = 0; r < ri->pub.nrecords; r++) {
        const uint16_t *idx = ri->pub.records[r].idx;
        size_t s = hash_idx(idx, np) & ri->set_mask;
        int dup = 0;
        while (ri->set[s] >= 0) {
            if (memcmp(ri->pub.records[ri->set[s]].idx, idx, np * sizeof *idx) == 0) {
                dup = 1; /* a configuration recorded twice: the first counts */
                break;
            }
            s = (s + 1) & ri->set_mask;
        }
        if (!dup)
            ri->set[s] = (int32_t)r;
    }
    return 0;
}

/* ----------------------------------------------------------- lifetime */

void cutune_recording_free(cutune_recording *r)
{
    if (!r)
        return;
    recording_impl *ri = (recording_impl *)r;
    for (size_t p = 0; p < r->nparams; p++) {
        if (r->texts && r->texts[p])
            for (size_t v = 0; v < r->nvalues[p]; v++)
                free(r->texts[p][v]);
        if (r->texts)
            free(r->texts[p]);
        if (r->values)
            free(r->values[p]);
        if (r->param_names)
            free(r->param_names[p]);
        if (ri->vh)
            free(ri->vh[p].slot);
    }
    for (size_t i = 0; i < r->nrecords; i++)
        free(r->records[i].times_ms);
    free(r->records);
    free(ri->idx_pool);
    free(ri->vh);
    free(ri->set);
    free(r->texts);
    free(r->values);
    free(r->nvalues);
    free(r->param_names);
    free(r->path);
    free(r->format);
    free(r->device_name);
    free(r->kernel_name);
    free(r->spec_name);
    free(r->spec_hash);
    for (size_t i = 0; i < r->nsizes; i++)
        free(r->size_names[i]);
    free(r->size_names);
    free(r->size_values);
    free(r->space_hash);
    free(r->searcher);
    free(r->evaluator);
    free(r->searcher_args);
    free(r->evaluator_arg);
    free(r->target);
    free(ri);
}

static char *json_string_dup(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(it) ? strdup(it->valuestring) : NULL;
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

static int mark_member_floats(const char *text, size_t len, cJSON *root, const char *member)
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
static int json_to_value(const cJSON *it, cutune_value *v)
{
    memset(v, 0, sizeof *v);
    if (cJSON_IsNumber(it)) {
        double d = it->valuedouble;
        if (!(it->type & FLOAT_LEXEME_MARK) && d == floor(d) && fabs(d) < 9.2e18) {
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

/* Allocate the per-parameter arrays for np parameters. */
static int alloc_params(recording_impl *ri, size_t np)
{
    cutune_recording *r = &ri->pub;
    r->param_names = calloc(np, sizeof *r->param_names);
    r->nvalues = calloc(np, sizeof *r->nvalues);
    r->values = calloc(np, sizeof *r->values);
    r->texts = calloc(np, sizeof *r->texts);
    ri->vh = calloc(np, sizeof *ri->vh);
    if (!r->param_names || !r->nvalues || !r->values || !r->texts || !ri->vh)
        return CUTUNE_ENOMEM;
    r->nparams = np;
    return 0;
}

/* Parameter p from a JSON array of scalars; path names it in messages. */
static int set_param(recording_impl *ri, size_t p, const char *pname, const cJSON *list,
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
    size_t v = 0;
    for (const cJSON *it = list->child; it; it = it->next, v++) {
        cutune_value val;
        char text[64];
        if (json_to_value(it, &val) < 0)
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s: %s[\"%s\"][%zu]: expected a number, string or boolean", file,
                              path, pname, v);
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
    if (value_hash_build(&ri->vh[p], r->values[p], n, &dup) < 0)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
    if (dup >= 0) {
        long first = value_hash_find(&ri->vh[p], r->values[p], &r->values[p][dup]);
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: %s[\"%s\"][%ld]: duplicate value %s (same as [%ld])", file, path,
                          pname, dup, r->texts[p][dup], first);
    }
    return 0;
}

static long find_value(const recording_impl *ri, size_t p, const cutune_value *v)
{
    return value_hash_find(&ri->vh[p], ri->pub.values[p], v);
}

/* A cache-key part as Python printed it: a number, True/False, else a string. */
static long find_text(const recording_impl *ri, size_t p, const char *text)
{
    cutune_value v = {.type = CUTUNE_VALUE_STRING, .s = text};
    long k = find_value(ri, p, &v);
    if (k >= 0)
        return k;
    char *end;
    double d = strtod(text, &end);
    if (end != text && *end == '\0') {
        v.type = CUTUNE_VALUE_REAL;
        v.r = d;
        return find_value(ri, p, &v);
    }
    if (strcmp(text, "True") == 0 || strcmp(text, "False") == 0) {
        v.type = CUTUNE_VALUE_INT;
        v.i = text[0] == 'T';
        return find_value(ri, p, &v);
    }
    return -1;
}

static int alloc_records(recording_impl *ri, size_t cap, const char *file, char *err, size_t errlen)
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
static int parse_times(const cJSON *arr, cutune_record *rec, const char *loc, const char *field,
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
        rec->times_ms[i] = it->valuedouble;
    }
    rec->ntimes = n;
    return 0;
}

/* Optional number field; *out untouched when absent or null. */
static int opt_number(const cJSON *o, const char *field, double *out, int *present, const char *loc,
                      char *err, size_t errlen)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, field);
    if (!it || cJSON_IsNull(it))
        return 0;
    if (!cJSON_IsNumber(it))
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s.%s: expected a number", loc, field);
    *out = it->valuedouble;
    if (present)
        *present = 1;
    return 0;
}

/* Parse JSON text of length len fully: trailing non-space is an error too. */
static cJSON *parse_json(const char *text, size_t len, size_t *err_offset)
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
static int check_json(const char *text, size_t len, const cJSON *root, const char *at, char *err,
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

static int kt_status(const cJSON *t, cutune_record *rec)
{
    if (cJSON_IsNumber(t)) {
        double x = t->valuedouble;
        if (!isfinite(x) || x >= KT_FAILED_TIME) {
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
    rec->time_ms = NAN;
    if (strcmp(t->valuestring, "CompilationFailedConfig") == 0)
        rec->status = CUTUNE_STATUS_COMPILE_ERROR;
    else if (strcmp(t->valuestring, "RuntimeFailedConfig") == 0)
        rec->status = CUTUNE_STATUS_RUNTIME_ERROR;
    else if (strcmp(t->valuestring, "InvalidConfig") == 0)
        rec->status = CUTUNE_STATUS_LAUNCH_ERROR;
    else
        return -1;
    return 0;
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

/* The key is the configuration as Kernel Tuner prints it ("16,2,1.0"), and the entry's
 * values say it again: where they disagree, tools that go by the key and tools that go by
 * the values would read two configurations, so the entry is refused. A key that does not
 * split into one part per parameter is refused unless a value holds a comma. */
static int kt_key_agrees(const recording_impl *ri, const cutune_record *rec, int have_parts,
                         char *const *parts, const char *where, char *err, size_t errlen)
{
    const cutune_recording *r = &ri->pub;
    if (!have_parts) {
        for (size_t p = 0; p < r->nparams; p++)
            if (strchr(r->texts[p][rec->idx[p]], ','))
                return 0;
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: the key does not hold one value per parameter (%zu, "
                          "comma-separated, in the order of tune_params_keys)",
                          where, r->nparams);
    }
    for (size_t p = 0; p < r->nparams; p++) {
        long k = find_text(ri, p, parts[p]);
        if (k != (long)rec->idx[p])
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s: the key says %s=%s, the entry's \"%s\" is %s (the key and "
                              "the values must agree)",
                              where, r->param_names[p], parts[p], r->param_names[p],
                              r->texts[p][rec->idx[p]]);
    }
    return 0;
}

static int kt_record(recording_impl *ri, const cJSON *entry, cutune_record *rec, char **parts,
                     char **keybuf, size_t *keycap, const char *file, char *err, size_t errlen)
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
            if (json_to_value(it, &v) < 0)
                return cutune_err(err, errlen, CUTUNE_EPARSE,
                                  "%s.%s: expected a number, string or boolean", where,
                                  r->param_names[p]);
            k = find_value(ri, p, &v);
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
    int krc = kt_key_agrees(ri, rec, have_parts, parts, where, err, errlen);
    if (krc < 0)
        return krc;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(entry, "time");
    if (!t)
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s: missing \"time\"", where);
    int ks = kt_status(t, rec);
    if (ks == -2)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s.time: %g is not a time (a measured time is above 0)", where,
                          t->valuedouble);
    if (ks < 0)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s.time: expected a number or a failure marker", where);
    int rc = parse_times(cJSON_GetObjectItemCaseSensitive(entry, "times"), rec, where, "times", err,
                         errlen);
    if (rc < 0)
        return rc;
    double compile = -1, verify = 0, bench = 0;
    int have_bench = 0;
    if ((rc = opt_number(entry, "compile_time", &compile, NULL, where, err, errlen)) < 0 ||
        (rc = opt_number(entry, "verification_time", &verify, &have_bench, where, err, errlen)) <
            0 ||
        (rc = opt_number(entry, "benchmark_time", &bench, &have_bench, where, err, errlen)) < 0)
        return rc;
    rec->compile_ms = compile;
    rec->bench_ms = have_bench ? verify + bench : -1;
    if (rec->compile_ms >= 0 || rec->bench_ms >= 0)
        r->has_costs = 1;
    return 0;
}

static int load_kt(recording_impl *ri, const char *file, const char *text, size_t len, char *err,
                   size_t errlen)
{
    cutune_recording *r = &ri->pub;
    int rc = 0;
    size_t off = 0;
    char **parts = NULL, *keybuf = NULL;
    size_t keycap = 0;
    char *closed = NULL; /* an unterminated cache, closed as Kernel Tuner closes it */
    size_t closed_len = 0, closed_off = 0;
    cutune_json_arena arena;
    cutune_json_arena_begin(&arena);
    cJSON *root = parse_json(text, len, &off);

    if (!root && cutune_io_kt_close(text, len, &closed, &closed_len) == 1 &&
        (root = parse_json(closed, closed_len, &closed_off))) {
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
    if ((rc = cutune_io_kt_objective(root, file, err, errlen)) < 0 ||
        (rc = check_json(text, len, root, file, err, errlen)) < 0)
        goto out_delete;
    if ((rc = mark_member_floats(text, len, root, "tune_params")) < 0) {
        rc = cutune_err(err, errlen, rc, "%s: out of memory", file);
        goto out_delete;
    }
    r->format = strdup("kernel_tuner");
    r->device_name = json_string_dup(root, "device_name");
    r->kernel_name = json_string_dup(root, "kernel_name");
    if (!r->format) {
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
    if ((rc = alloc_params(ri, np)) < 0) {
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
        if ((rc = set_param(ri, p, k->valuestring, list, file, "tune_params", err, errlen)) < 0)
            goto out_delete;
    }
    size_t n = (size_t)cJSON_GetArraySize(cache), i = 0;
    if ((rc = alloc_records(ri, n, file, err, errlen)) < 0)
        goto out_delete;
    parts = calloc(np, sizeof *parts);
    if (!parts) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
        goto out_delete;
    }
    for (const cJSON *e = cache->child; e; e = e->next, i++) {
        cutune_record *rec = &r->records[i];
        rec->idx = ri->idx_pool + i * np;
        r->nrecords = i + 1; /* so that free sees times_ms of a half-parsed record */
        if ((rc = kt_record(ri, e, rec, parts, &keybuf, &keycap, file, err, errlen)) < 0)
            goto out_delete;
    }
out_delete:
    free(parts);
    free(keybuf);
    cutune_json_arena_end(&arena); /* releases root */
    free(closed);
    return rc;
}

/* ----------------------------------------------------------- journals */

static const char *line_end(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl : end;
}

static int blank(const char *p, const char *e)
{
    for (; p < e; p++)
        if (*p != ' ' && *p != '\t' && *p != '\r')
            return 0;
    return 1;
}

/* Whether the first line of data is a cutune journal header. */
static int is_journal(const char *data, size_t len)
{
    const char *end = data + len, *e = line_end(data, end);
    size_t off;
    /* A compact Kernel Tuner cache is one long line: parse only what names a kind. */
    if (!memmem(data, (size_t)(e - data), "\"kind\"", 6))
        return 0;
    cJSON *j = parse_json(data, (size_t)(e - data), &off);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
    int yes = cJSON_IsObject(j) && cJSON_IsString(kind) && strcmp(kind->valuestring, "header") == 0;
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
    if ((rc = mark_member_floats(text, len, h, "params")) < 0)
        return cutune_err(err, errlen, rc, "%s: out of memory", file);
    r->format = strdup("cutune_journal");
    r->device_name = json_string_dup(h, "device");
    r->spec_name = json_string_dup(h, "spec");
    r->spec_hash = json_string_dup(h, "spec_hash");
    r->space_hash = json_string_dup(h, "space_hash");
    r->searcher = json_string_dup(h, "searcher");
    r->evaluator = json_string_dup(h, "evaluator");
    r->searcher_args = json_string_dup(h, "searcher_args");
    r->evaluator_arg = json_string_dup(h, "evaluator_arg");
    r->target = json_string_dup(h, "target");
    if (!r->format)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
    const cJSON *sizes = cJSON_GetObjectItemCaseSensitive(h, "sizes");
    if (cJSON_IsObject(sizes)) {
        size_t n = (size_t)cJSON_GetArraySize(sizes);
        r->size_names = calloc(n ? n : 1, sizeof *r->size_names);
        r->size_values = calloc(n ? n : 1, sizeof *r->size_values);
        if (!r->size_names || !r->size_values)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
        for (const cJSON *it = sizes->child; it; it = it->next) {
            if (!cJSON_IsNumber(it) || !it->string)
                return cutune_err(err, errlen, CUTUNE_EPARSE,
                                  "%s:1: header.sizes.%s: expected a number", file,
                                  it->string ? it->string : "?");
            if (!(r->size_names[r->nsizes] = strdup(it->string)))
                return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
            r->size_values[r->nsizes++] = it->valuedouble;
        }
    }
    double seed = 0, budget = 0, batch = 0, valid = 0, parallel = 0;
    char where[512];
    snprintf(where, sizeof where, "%s:1: header", file);
    if ((rc = opt_number(h, "seed", &seed, NULL, where, err, errlen)) < 0 ||
        (rc = opt_number(h, "budget", &budget, NULL, where, err, errlen)) < 0 ||
        (rc = opt_number(h, "batch", &batch, NULL, where, err, errlen)) < 0 ||
        (rc = opt_number(h, "valid", &valid, NULL, where, err, errlen)) < 0 ||
        (rc = opt_number(h, "parallel", &parallel, NULL, where, err, errlen)) < 0)
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
    if ((rc = alloc_params(ri, (size_t)cJSON_GetArraySize(params))) < 0)
        return cutune_err(err, errlen, rc, "%s: out of memory", file);
    size_t p = 0;
    snprintf(where, sizeof where, "%s:1", file);
    for (const cJSON *c = params->child; c; c = c->next, p++)
        if ((rc = set_param(ri, p, c->string, c, where, "params", err, errlen)) < 0)
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
        if (json_to_value(it, &v) < 0)
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s:%zu: config.%s: expected a number, string or boolean", file,
                              lineno, r->param_names[p]);
        long k = find_value(ri, p, &v);
        if (k < 0) {
            char text[64];
            cutune_value_format(&v, text, sizeof text);
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s:%zu: config.%s: value %s is not in the header's params", file,
                              lineno, r->param_names[p], text);
        }
        rec->idx[p] = (uint16_t)k;
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
    if ((rc = opt_number(j, "time_ms", &rec->time_ms, &have_time, where, err, errlen)) < 0)
        return rc;
    if (rec->status == CUTUNE_STATUS_OK && (!have_time || !isfinite(rec->time_ms)))
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s:%zu: time_ms: an ok evaluation needs a number", file, lineno);
    if (rec->status == CUTUNE_STATUS_OK && !(rec->time_ms > 0.0))
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s:%zu: time_ms: %g is not a time (a measured time is above 0)", file,
                          lineno, rec->time_ms);
    if ((rc = opt_number(j, "compile_ms", &rec->compile_ms, NULL, where, err, errlen)) < 0 ||
        (rc = opt_number(j, "bench_ms", &rec->bench_ms, NULL, where, err, errlen)) < 0)
        return rc;
    if (rec->compile_ms >= 0 || rec->bench_ms >= 0)
        r->has_costs = 1;
    return parse_times(cJSON_GetObjectItemCaseSensitive(j, "times_ms"), rec, where, "times_ms", err,
                       errlen);
}

/* An eval line's evaluation number ("n") and where it was read. */
typedef struct eval_number {
    double n;    /* integral, 0..2^53 */
    size_t line; /* 1-based line of the journal */
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
    return 0;
}

static int load_journal(recording_impl *ri, const char *file, const char *data, size_t len,
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
        if (blank(p, e)) {
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
        cJSON *j = parse_json(p, (size_t)(e - p), &off);
        if (!j) {
            rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s:%zu: malformed JSON at column %zu",
                            file, lineno, off + 1);
            goto out_free;
        }
        char at[600];
        snprintf(at, sizeof at, "%s:%zu", file, lineno);
        if ((rc = check_json(p, (size_t)(e - p), j, at, err, errlen)) < 0) {
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
                rc = alloc_records(ri, nlines, file, err, errlen);
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
                    ns[nns++] = (eval_number){n->valuedouble, lineno};
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

/* ------------------------------------------------------------ loading */

/* A Kernel Tuner cache holds each configuration once (a dict keyed by it): two entries of
 * one configuration (keys that print a value differently, "1,2" and "1.0,2") would give
 * a replay whichever came first. */
static int kt_check_unique(const recording_impl *ri, const char *file, char *err, size_t errlen)
{
    const cutune_recording *r = &ri->pub;
    if (!r->format || strcmp(r->format, "kernel_tuner") != 0)
        return 0;
    for (size_t i = 0; i < r->nrecords; i++) {
        long first = record_set_find(ri, r->records[i].idx);
        if (first == (long)i)
            continue;
        char cfg[256];
        size_t n = 0;
        cfg[0] = '\0';
        for (size_t p = 0; p < r->nparams && n < sizeof cfg; p++) {
            int w = snprintf(cfg + n, sizeof cfg - n, "%s%s=%s", p ? ", " : "", r->param_names[p],
                             r->texts[p][r->records[i].idx[p]]);
            n += w > 0 ? (size_t)w : 0;
        }
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: cache: entries %ld and %zu are one configuration (%s): a "
                          "configuration is recorded once",
                          file, first + 1, i + 1, cfg);
    }
    return 0;
}

int cutune_recording_load_buffer(const char *name, const char *data, size_t len,
                                 cutune_recording **out, char *err, size_t errlen)
{
    int rc = 0;
    char *plain = NULL;
    recording_impl *ri = NULL;

    *out = NULL;
    if (!name)
        name = "(buffer)";
    if (!data)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: no data", name);
    if (cutune_io_is_gzip(data, len)) {
        size_t plen;
        if ((rc = cutune_io_gunzip(name, data, len, &plain, &plen, err, errlen)) < 0)
            return rc;
        data = plain;
        len = plen;
    }
    ri = calloc(1, sizeof *ri);
    if (!ri || !(ri->pub.path = strdup(name))) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", name);
        goto out_free;
    }
    if (is_journal(data, len))
        rc = load_journal(ri, name, data, len, err, errlen);
    else
        rc = load_kt(ri, name, data, len, err, errlen);
    if (rc < 0)
        goto out_free;
    if (record_set_build(ri) < 0) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", name);
        goto out_free;
    }
    if ((rc = kt_check_unique(ri, name, err, errlen)) < 0)
        goto out_free;
    *out = &ri->pub;
    ri = NULL;
out_free:
    cutune_recording_free(ri ? &ri->pub : NULL);
    free(plain);
    return rc;
}

int cutune_recording_load(const char *path, cutune_recording **out, char *err, size_t errlen)
{
    char *data;
    size_t len;
    *out = NULL;
    if (!path)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no recording path given");
    int rc = cutune_read_file(path, &data, &len, err, errlen);
    if (rc < 0)
        return rc;
    rc = cutune_recording_load_buffer(path, data, len, out, err, errlen);
    free(data);
    return rc;
}

/* ------------------------------------------------------ spaces and maps */

static int recorded_filter(void *ctx, const uint16_t *idx)
{
    return record_set_find(ctx, idx) >= 0;
}

int cutune_recording_space(const cutune_recording *r, const char *const *restrictions, size_t n,
                           int recorded_only, cutune_space **out, char *err, size_t errlen)
{
    int rc = 0;
    cutune_space *s = NULL;

    *out = NULL;
    if (!r)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no recording");
    if (recorded_only && n == 0 && r->nrecords == 0) /* not "the filter excludes all" */
        return cutune_err(err, errlen, CUTUNE_EEMPTY,
                          "the recording holds no configurations (its measurements are empty; "
                          "--cartesian gives its parameters' whole product)");
    s = cutune_space_alloc();
    if (!s)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    for (size_t p = 0; p < r->nparams; p++)
        if ((rc = cutune_space_add_param(s, r->param_names[p], r->values[p], r->nvalues[p], err,
                                         errlen)) < 0)
            goto out_free_space;
    for (size_t i = 0; i < n; i++)
        if ((rc = cutune_space_add_restriction(s, restrictions[i], err, errlen)) < 0)
            goto out_free_space;
    /* The space keeps a pointer to the recording's set: the recording must outlive it. */
    if (n == 0 && recorded_only)
        cutune_space_set_filter(s, recorded_filter, (void *)(uintptr_t)r);
    if ((rc = cutune_space_enumerate(s, err, errlen)) < 0)
        goto out_free_space;
    *out = s;
    s = NULL;
out_free_space:
    cutune_space_free(s);
    return rc;
}

/* Index in recording parameter rp of the space's value v (text first, then number). */
static long map_value(const recording_impl *ri, size_t rp, const cutune_param *sp, size_t v)
{
    const cutune_recording *r = &ri->pub;
    long k = find_value(ri, rp, &sp->values[v]);
    if (k >= 0)
        return k;
    for (size_t i = 0; i < r->nvalues[rp]; i++)
        if (strcmp(r->texts[rp][i], sp->texts[v]) == 0)
            return (long)i;
    return -1;
}

int cutune_recording_map(const cutune_recording *r, const cutune_space *s, long *out, char *err,
                         size_t errlen)
{
    const recording_impl *ri = (const recording_impl *)r;
    int rc = 0;
    size_t snp, size;
    long **trans = NULL; /* per space parameter: space value -> recording index */
    long *rpar = NULL;   /* recording parameter -> space parameter, or -1 */
    uint16_t *idx = NULL;

    if (!r || !s || !out)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no recording, space or output");
    snp = cutune_space_nparams(s);
    size = cutune_space_size(s);
    trans = calloc(snp ? snp : 1, sizeof *trans);
    rpar = malloc((r->nparams ? r->nparams : 1) * sizeof *rpar);
    idx = calloc(r->nparams ? r->nparams : 1, sizeof *idx);
    if (!trans || !rpar || !idx) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out_free;
    }
    for (size_t rp = 0; rp < r->nparams; rp++)
        rpar[rp] = -1;
    for (size_t sp = 0; sp < snp; sp++) {
        const cutune_param *par = cutune_space_param(s, sp);
        size_t rp = 0;
        while (rp < r->nparams && strcmp(r->param_names[rp], par->name) != 0)
            rp++;
        if (rp == r->nparams) {
            rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                            "%s: the space's parameter '%s' is not in the recording", r->path,
                            par->name);
            goto out_free;
        }
        rpar[rp] = (long)sp;
        trans[sp] = malloc((par->nvalues ? par->nvalues : 1) * sizeof **trans);
        if (!trans[sp]) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            goto out_free;
        }
        for (size_t v = 0; v < par->nvalues; v++)
            trans[sp][v] = map_value(ri, rp, par, v);
    }
    for (size_t rp = 0; rp < r->nparams; rp++) {
        if (rpar[rp] >= 0)
            continue;
        if (r->nvalues[rp] != 1) {
            rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                            "%s: the recording's parameter '%s' has %zu values but is not in "
                            "the space",
                            r->path, r->param_names[rp], r->nvalues[rp]);
            goto out_free;
        }
        idx[rp] = 0;
    }
    for (size_t id = 0; id < size; id++) {
        const uint16_t *cfg = cutune_space_config(s, id);
        long found = 0;
        for (size_t rp = 0; rp < r->nparams && found >= 0; rp++) {
            if (rpar[rp] < 0)
                continue;
            found = trans[rpar[rp]][cfg[rpar[rp]]];
            if (found >= 0)
                idx[rp] = (uint16_t)found;
        }
        out[id] = found >= 0 ? record_set_find(ri, idx) : -1;
    }
out_free:
    if (trans)
        for (size_t sp = 0; sp < snp; sp++)
            free(trans[sp]);
    free(trans);
    free(rpar);
    free(idx);
    return rc;
}

int cutune_recording_table(const cutune_recording *r, const cutune_space *s, double *time_ms_out,
                           char *err, size_t errlen)
{
    size_t size = s ? cutune_space_size(s) : 0;
    long *map = malloc((size ? size : 1) * sizeof *map);
    if (!map)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    int rc = cutune_recording_map(r, s, map, err, errlen);
    if (rc == 0)
        for (size_t id = 0; id < size; id++)
            time_ms_out[id] = map[id] >= 0 && r->records[map[id]].status == CUTUNE_STATUS_OK
                                  ? r->records[map[id]].time_ms
                                  : NAN;
    free(map);
    return rc;
}
