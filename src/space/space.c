/* Parameter spaces: value lists, restrictions, and queries of the enumerated valid set
 * (ids, values, encodings, neighbours, hashes). Enumeration itself is space_enumerate.c.
 *
 * The valid set is a flat array of index vectors in lexicographic order, so a
 * dense id is a row number and finding a vector is a binary search. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space_internal.h"

cutune_space *cutune_space_alloc(void)
{
    return calloc(1, sizeof(cutune_space));
}

static void param_store_clear(param_store *p)
{
    for (size_t i = 0; p->texts && i < p->n; i++)
        free(p->texts[i]);
    free(p->texts);
    free(p->values);
    free(p->name);
}

void cutune_space_free(cutune_space *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nparams; i++)
        param_store_clear(&s->params[i]);
    free(s->params);
    free(s->views);
    for (size_t i = 0; i < s->nconstants; i++) {
        free(s->cnames[i]);
        if (s->cvalues[i].type == CUTUNE_VALUE_STRING)
            free((char *)s->cvalues[i].s);
    }
    free(s->cnames);
    free(s->cvalues);
    free(s->symnames);
    for (size_t i = 0; i < s->nrestrictions; i++)
        cutune_expr_free(s->restrictions[i]);
    free(s->restrictions);
    free(s->configs);
    free(s);
}

void cutune_space_invalidate(cutune_space *s)
{
    free(s->configs);
    s->configs = NULL;
    s->size = 0;
    s->cap = 0;
    s->enumerated = 0;
}

static int name_taken(const cutune_space *s, const char *name)
{
    for (size_t i = 0; i < s->nparams; i++)
        if (strcmp(s->params[i].name, name) == 0)
            return 1;
    for (size_t i = 0; i < s->nconstants; i++)
        if (strcmp(s->cnames[i], name) == 0)
            return 1;
    return 0;
}

static int valid_name(const char *name)
{
    if (!name || !(name[0] == '_' || (name[0] >= 'A' && name[0] <= 'Z') ||
                   (name[0] >= 'a' && name[0] <= 'z')))
        return 0;
    for (const char *c = name; *c; c++)
        if (!(*c == '_' || (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
              (*c >= '0' && *c <= '9')))
            return 0;
    return 1;
}

/* Room in the symbol table for n names; done before a definition changes so
 * that a failed allocation leaves the space as it was. */
static int reserve_symnames(cutune_space *s, size_t n)
{
    const char **names = realloc(s->symnames, (n ? n : 1) * sizeof *names);
    if (!names)
        return CUTUNE_ENOMEM;
    s->symnames = names;
    return 0;
}

/* Refill the symbol table (parameters, then constants) after an addition. */
static void fill_symnames(cutune_space *s)
{
    for (size_t i = 0; i < s->nparams; i++)
        s->symnames[i] = s->params[i].name;
    for (size_t i = 0; i < s->nconstants; i++)
        s->symnames[s->nparams + i] = s->cnames[i];
}

static char *format_value(const cutune_value *v)
{
    char buf[64];
    if (v->type == CUTUNE_VALUE_STRING)
        return strdup(v->s);
    cutune_value_format(v, buf, sizeof buf);
    return strdup(buf);
}

static int check_value(const cutune_value *v)
{
    return v->type == CUTUNE_VALUE_INT || v->type == CUTUNE_VALUE_REAL ||
           (v->type == CUTUNE_VALUE_STRING && v->s);
}

/* Values in an order where equal ones are neighbours: strings apart from numbers (by
 * text), numbers by value, integers exactly (2^53 + 1 is not 2^53). Each item carries its
 * value and its place, so the comparison needs no state beside it (spaces are built on
 * several threads at once by bench). */
typedef struct value_at {
    const cutune_value *v;
    size_t i;
} value_at;

static int cmp_value_at(const void *a, const void *b)
{
    const cutune_value *x = ((const value_at *)a)->v, *y = ((const value_at *)b)->v;
    int xs = x->type == CUTUNE_VALUE_STRING, ys = y->type == CUTUNE_VALUE_STRING;
    if (xs || ys)
        return xs != ys ? xs - ys : strcmp(x->s, y->s);
    double dx = cutune_value_as_double(x), dy = cutune_value_as_double(y);
    if (dx != dy)
        return (dx > dy) - (dx < dy);
    if (x->type == CUTUNE_VALUE_INT && y->type == CUTUNE_VALUE_INT)
        return (x->i > y->i) - (x->i < y->i);
    return 0;
}

/* The first value that repeats an earlier one (*dup, *first), or 0: a value twice would
 * enumerate every configuration with it twice. -1 when out of memory. */
static int find_duplicate(const cutune_value *v, size_t n, size_t *dup, size_t *first)
{
    value_at *order = malloc(n * sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < n; i++)
        order[i] = (value_at){&v[i], i};
    qsort(order, n, sizeof *order, cmp_value_at);
    int found = 0;
    for (size_t i = 1; i < n; i++)
        if (cmp_value_at(&order[i - 1], &order[i]) == 0) {
            size_t a = order[i - 1].i, b = order[i].i;
            if (!found || (a > b ? a : b) < *dup) {
                *dup = a > b ? a : b;
                *first = a > b ? b : a;
            }
            found = 1;
        }
    free(order);
    return found;
}

int cutune_space_add_param(cutune_space *s, const char *name, const cutune_value *values, size_t n,
                           char *err, size_t errlen)
{
    param_store ps = {0};
    if (!s || !values)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "add_param: NULL argument");
    if (!valid_name(name))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "parameter name '%s' is not an identifier",
                          name ? name : "(null)");
    if (s->nconstants || s->nrestrictions)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "parameter '%s' added after a constant or restriction", name);
    if (n == 0 || n > CUTUNE_SPACE_MAX_VALUES)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "parameter '%s' has %zu values (1..%d allowed)", name, n,
                          CUTUNE_SPACE_MAX_VALUES);
    if (name_taken(s, name))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "duplicate parameter name '%s'", name);
    if (cutune_expr_is_keyword(name)) /* no restriction could name it */
        return cutune_err(err, errlen, CUTUNE_EINVAL, "parameter name '%s' is a keyword", name);
    for (size_t i = 0; i < n; i++)
        if (!check_value(&values[i]))
            return cutune_err(err, errlen, CUTUNE_EINVAL, "parameter '%s' value %zu has a bad type",
                              name, i);
    size_t dup = 0, first = 0;
    int d = find_duplicate(values, n, &dup, &first);
    if (d < 0)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    if (d)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "parameter '%s' value %zu is value %zu again (each value once)", name,
                          dup, first);

    ps.n = n;
    ps.name = strdup(name);
    ps.values = malloc(n * sizeof *ps.values);
    ps.texts = calloc(n, sizeof *ps.texts);
    if (!ps.name || !ps.values || !ps.texts)
        goto out_nomem;
    for (size_t i = 0; i < n; i++) {
        if (!(ps.texts[i] = format_value(&values[i])))
            goto out_nomem;
        ps.values[i] = values[i];
        if (values[i].type == CUTUNE_VALUE_STRING)
            ps.values[i].s = ps.texts[i];
    }

    param_store *np = realloc(s->params, (s->nparams + 1) * sizeof *np);
    if (!np)
        goto out_nomem;
    s->params = np;
    cutune_param *nv = realloc(s->views, (s->nparams + 1) * sizeof *nv);
    if (!nv)
        goto out_nomem;
    s->views = nv;
    if (reserve_symnames(s, s->nparams + s->nconstants + 1))
        goto out_nomem;
    s->params[s->nparams] = ps;
    s->views[s->nparams] = (cutune_param){
        .name = ps.name, .nvalues = n, .values = ps.values, .texts = (const char *const *)ps.texts};
    s->nparams++;
    fill_symnames(s);
    cutune_space_invalidate(s);
    return 0;
out_nomem:
    param_store_clear(&ps);
    return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory adding parameter '%s'", name);
}

/* Copy v for keeping: a STRING's text is duplicated. */
static int own_value(const cutune_value *v, cutune_value *out)
{
    *out = *v;
    if (v->type == CUTUNE_VALUE_STRING && !(out->s = strdup(v->s)))
        return CUTUNE_ENOMEM;
    return 0;
}

int cutune_space_add_constant(cutune_space *s, const char *name, cutune_value v, char *err,
                              size_t errlen)
{
    char *nm = NULL;
    cutune_value owned;
    if (!s)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "add_constant: NULL space");
    if (!valid_name(name))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "constant name '%s' is not an identifier",
                          name ? name : "(null)");
    if (name_taken(s, name))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "duplicate name '%s' for a constant", name);
    if (!check_value(&v))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "constant '%s' has a bad type", name);
    if (!(nm = strdup(name)))
        goto out_nomem;
    if (own_value(&v, &owned))
        goto out_free_name;
    char **nn = realloc(s->cnames, (s->nconstants + 1) * sizeof *nn);
    if (!nn)
        goto out_free_value;
    s->cnames = nn;
    cutune_value *nv = realloc(s->cvalues, (s->nconstants + 1) * sizeof *nv);
    if (!nv)
        goto out_free_value;
    s->cvalues = nv;
    if (reserve_symnames(s, s->nparams + s->nconstants + 1))
        goto out_free_value;
    s->cnames[s->nconstants] = nm;
    s->cvalues[s->nconstants] = owned;
    s->nconstants++;
    fill_symnames(s);
    cutune_space_invalidate(s);
    return 0;
out_free_value:
    if (owned.type == CUTUNE_VALUE_STRING)
        free((char *)owned.s);
out_free_name:
    free(nm);
out_nomem:
    return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory adding constant '%s'", name);
}

int cutune_space_set_constant(cutune_space *s, const char *name, cutune_value v, char *err,
                              size_t errlen)
{
    if (!s || !name)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "set_constant: NULL argument");
    if (!check_value(&v))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "constant '%s': bad value type", name);
    for (size_t i = 0; i < s->nconstants; i++) {
        if (strcmp(s->cnames[i], name) != 0)
            continue;
        cutune_value owned;
        if (own_value(&v, &owned))
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        if (s->cvalues[i].type == CUTUNE_VALUE_STRING)
            free((char *)s->cvalues[i].s);
        s->cvalues[i] = owned;
        cutune_space_invalidate(s);
        return 0;
    }
    return cutune_err(err, errlen, CUTUNE_ENOTFOUND, "unknown constant '%s'", name);
}

int cutune_space_add_restriction(cutune_space *s, const char *text, char *err, size_t errlen)
{
    cutune_expr *e = NULL;
    if (!s || !text)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "add_restriction: NULL argument");
    cutune_symtab st = cutune_space_symtab(s);
    int rc = cutune_expr_parse(text, &st, &e, err, errlen);
    if (rc)
        return rc;
    cutune_expr **nr = realloc(s->restrictions, (s->nrestrictions + 1) * sizeof *nr);
    if (!nr) {
        cutune_expr_free(e);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory adding restriction '%s'",
                          text);
    }
    s->restrictions = nr;
    s->restrictions[s->nrestrictions++] = e;
    cutune_space_invalidate(s);
    return 0;
}

void cutune_space_set_filter(cutune_space *s, cutune_space_filter_fn fn, void *ctx)
{
    if (!s)
        return;
    s->filter = fn;
    s->filter_ctx = ctx;
    cutune_space_invalidate(s);
}

/* ---- queries --------------------------------------------------------------- */

size_t cutune_space_nparams(const cutune_space *s)
{
    return s->nparams;
}

const cutune_param *cutune_space_param(const cutune_space *s, size_t p)
{
    return p < s->nparams ? &s->views[p] : NULL;
}

int cutune_space_param_index(const cutune_space *s, const char *name)
{
    for (size_t i = 0; name && i < s->nparams; i++)
        if (strcmp(s->params[i].name, name) == 0)
            return (int)i;
    return -1;
}

size_t cutune_space_nrestrictions(const cutune_space *s)
{
    return s->nrestrictions;
}

const char *cutune_space_restriction_text(const cutune_space *s, size_t r)
{
    return r < s->nrestrictions ? cutune_expr_text(s->restrictions[r]) : NULL;
}

size_t cutune_space_nconstants(const cutune_space *s)
{
    return s->nconstants;
}

const char *cutune_space_constant_name(const cutune_space *s, size_t c)
{
    return c < s->nconstants ? s->cnames[c] : NULL;
}

cutune_value cutune_space_constant_value(const cutune_space *s, size_t c)
{
    if (c < s->nconstants)
        return s->cvalues[c];
    return (cutune_value){.type = CUTUNE_VALUE_INT};
}

cutune_symtab cutune_space_symtab(const cutune_space *s)
{
    return (cutune_symtab){.names = s->symnames, .n = s->nparams + s->nconstants};
}

double cutune_space_cartesian_size(const cutune_space *s)
{
    double n = 1;
    for (size_t p = 0; p < s->nparams; p++)
        n *= (double)s->params[p].n;
    return s->nparams ? n : 0;
}

size_t cutune_space_size(const cutune_space *s)
{
    return s->size;
}

const uint16_t *cutune_space_config(const cutune_space *s, size_t id)
{
    return id < s->size ? s->configs + id * s->nparams : NULL;
}

/* Lexicographic comparison of row with idx, where idx[p] reads as v and idx[q] as w. */
static int compare_row(const uint16_t *row, const uint16_t *idx, size_t np, size_t p, uint16_t v,
                       size_t q, uint16_t w)
{
    for (size_t k = 0; k < np; k++) {
        uint16_t b = k == p ? v : k == q ? w : idx[k];
        if (row[k] != b)
            return row[k] < b ? -1 : 1;
    }
    return 0;
}

/* Binary search for idx with position p replaced by v and q by w (p, q >= np: no
 * change). */
static long long find_with2(const cutune_space *s, const uint16_t *idx, size_t p, uint16_t v,
                            size_t q, uint16_t w)
{
    size_t lo = 0, hi = s->size, np = s->nparams;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = compare_row(s->configs + mid * np, idx, np, p, v, q, w);
        if (c == 0)
            return (long long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Binary search for idx with position p replaced by v (p >= np: no change). */
static long long find_with(const cutune_space *s, const uint16_t *idx, size_t p, uint16_t v)
{
    return find_with2(s, idx, p, v, SIZE_MAX, 0);
}

long long cutune_space_find(const cutune_space *s, const uint16_t *idx)
{
    if (!s->enumerated || !idx)
        return -1;
    for (size_t p = 0; p < s->nparams; p++)
        if (idx[p] >= s->params[p].n)
            return -1;
    return find_with(s, idx, SIZE_MAX, 0);
}

void cutune_space_values(const cutune_space *s, size_t id, cutune_value *vars)
{
    const uint16_t *row = cutune_space_config(s, id);
    if (!row)
        return;
    for (size_t p = 0; p < s->nparams; p++)
        vars[p] = s->params[p].values[row[p]];
    for (size_t c = 0; c < s->nconstants; c++)
        vars[s->nparams + c] = s->cvalues[c];
}

int cutune_space_check(const cutune_space *s, const uint16_t *idx, char *err, size_t errlen)
{
    int rc = 0;
    size_t np = s->nparams;
    cutune_value *vars = NULL;
    if (!idx)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "check: NULL index vector");
    for (size_t p = 0; p < np; p++)
        if (idx[p] >= s->params[p].n)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "check: index %u of parameter '%s' is out of range (%zu values)",
                              idx[p], s->params[p].name, s->params[p].n);
    vars = malloc((np + s->nconstants + 1) * sizeof *vars);
    if (!vars)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    for (size_t p = 0; p < np; p++)
        vars[p] = s->params[p].values[idx[p]];
    for (size_t c = 0; c < s->nconstants; c++)
        vars[np + c] = s->cvalues[c];
    rc = 1;
    for (size_t r = 0; r < s->nrestrictions && rc == 1; r++)
        rc = cutune_space_restriction_holds(s, r, vars, idx, np, err, errlen);
    if (rc == 1 && s->filter) {
        int keep = s->filter(s->filter_ctx, idx);
        if (keep < 0)
            rc = cutune_err(err, errlen, keep, "space filter failed (code %d)", keep);
        else
            rc = keep != 0;
    }
    free(vars);
    return rc;
}

void cutune_space_encode(const cutune_space *s, size_t id, double *x)
{
    const uint16_t *row = cutune_space_config(s, id);
    if (!row)
        return;
    for (size_t p = 0; p < s->nparams; p++) {
        size_t n = s->params[p].n;
        x[p] = n > 1 ? (double)row[p] / (double)(n - 1) : 0.5;
    }
}

/* A neighbour search's hit j (< 0: not in the space): written while out has room,
 * counted always. */
static void add_found(long long j, size_t *out, size_t max, size_t *count)
{
    if (j < 0)
        return;
    if (out && *count < max)
        out[*count] = (size_t)j;
    (*count)++;
}

/* Whether parameter p of row has a value one step in direction d (-1 or +1). */
static int has_step(const cutune_space *s, const uint16_t *row, size_t p, int d)
{
    return d < 0 ? row[p] > 0 : (size_t)row[p] + 1 < s->params[p].n;
}

/* Neighbours of row with two parameters p < q each one value up or down (values in
 * ascending order), for cutune_space_neighbours. */
static size_t adjacent_pairs(const cutune_space *s, const uint16_t *row, size_t *out, size_t max)
{
    size_t np = s->nparams, count = 0;
    for (size_t p = 0; p < np; p++)
        for (size_t q = p + 1; q < np; q++)
            for (int dp = -1; dp <= 1; dp += 2)
                for (int dq = -1; dq <= 1; dq += 2) {
                    if (!has_step(s, row, p, dp) || !has_step(s, row, q, dq))
                        continue;
                    add_found(
                        find_with2(s, row, p, (uint16_t)(row[p] + dp), q, (uint16_t)(row[q] + dq)),
                        out, max, &count);
                }
    return count;
}

size_t cutune_space_neighbours(const cutune_space *s, size_t id, int mode, size_t *out, size_t max)
{
    const uint16_t *row = cutune_space_config(s, id);
    size_t count = 0;
    if (!row)
        return 0;
    if (mode == CUTUNE_NEIGHBOUR_ADJACENT_PAIRS)
        return adjacent_pairs(s, row, out, max);
    if (mode != CUTUNE_NEIGHBOUR_ADJACENT && mode != CUTUNE_NEIGHBOUR_ANY)
        return 0;
    for (size_t p = 0; p < s->nparams; p++) {
        size_t n = s->params[p].n;
        for (size_t v = 0; v < n; v++) {
            if (v == row[p])
                continue;
            if (mode == CUTUNE_NEIGHBOUR_ADJACENT && v + 1 != row[p] && v != (size_t)row[p] + 1)
                continue;
            add_found(find_with(s, row, p, (uint16_t)v), out, max, &count);
        }
    }
    return count;
}

int cutune_space_format_config(const cutune_space *s, size_t id, char *buf, size_t len)
{
    const uint16_t *row = cutune_space_config(s, id);
    if (!row) {
        if (buf && len)
            buf[0] = '\0';
        return -1;
    }
    return cutune_space_format_idx(s, row, s->nparams, buf, buf ? len : 0);
}

/* A string with its terminator, so that ("ab","c") and ("a","bc") differ. */
static uint64_t fnv_str(uint64_t h, const char *s)
{
    return cutune_fnv1a(h, s, strlen(s) + 1);
}

static uint64_t fnv_value(uint64_t h, const cutune_value *v, const char *text)
{
    unsigned char t = (unsigned char)v->type; /* 32 and "32" must differ */
    h = cutune_fnv1a(h, &t, 1);
    return fnv_str(h, text);
}

uint64_t cutune_space_hash(const cutune_space *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    char buf[64];
    h = fnv_str(h, "params");
    for (size_t p = 0; p < s->nparams; p++) {
        const param_store *ps = &s->params[p];
        h = fnv_str(h, ps->name);
        snprintf(buf, sizeof buf, "%zu", ps->n);
        h = fnv_str(h, buf);
        for (size_t i = 0; i < ps->n; i++)
            h = fnv_value(h, &ps->values[i], ps->texts[i]);
    }
    h = fnv_str(h, "restrictions");
    for (size_t r = 0; r < s->nrestrictions; r++)
        h = fnv_str(h, cutune_expr_text(s->restrictions[r]));
    h = fnv_str(h, "constants");
    for (size_t c = 0; c < s->nconstants; c++) {
        const cutune_value *v = &s->cvalues[c];
        h = fnv_str(h, s->cnames[c]);
        if (v->type == CUTUNE_VALUE_STRING) {
            h = fnv_value(h, v, v->s);
        } else {
            cutune_value_format(v, buf, sizeof buf);
            h = fnv_value(h, v, buf);
        }
    }
    return h;
}
