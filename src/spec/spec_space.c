/*
 * The space of a spec: "parameters" (the tunable values), "sizes" (problem sizes, which
 * --size overrides) and "restrictions", added to the space in the order its symbol slots
 * require, then enumerated. Everything read after this (spec_launch.c, spec_args.c)
 * parses against the finished symbol table.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "spec_internal.h"

/* ------------------------------------------------------------------ parameters and sizes */

typedef struct sort_item {
    double d;      /* numeric value */
    long long iv;  /* ... exactly, when an integer */
    int isint;     /* it is an integer */
    const char *s; /* string value */
    size_t i;      /* index in the JSON array */
} sort_item;

/* Two numbers: integers compared exactly (2^53 + 1 is not 2^53), others by their double */
static int num_cmp(const sort_item *x, const sort_item *y)
{
    if (x->d != y->d)
        return (x->d > y->d) - (x->d < y->d);
    if (x->isint && y->isint)
        return (x->iv > y->iv) - (x->iv < y->iv);
    return 0;
}

static int cmp_num_item(const void *a, const void *b)
{
    return num_cmp(a, b);
}

static int cmp_str_item(const void *a, const void *b)
{
    return strcmp(((const sort_item *)a)->s, ((const sort_item *)b)->s);
}

/* Duplicate values would enumerate the same configuration twice. Sorted: O(n log n). */
static int check_distinct(loader *L, const char *path, const cutune_value *v, size_t n)
{
    sort_item *it = malloc(n * sizeof *it);
    char ipath[PATH_LEN];
    int rc = 0;
    if (!it)
        return spec_fail(L, CUTUNE_ENOMEM, path, "out of memory");
    for (size_t i = 0; i < n; i++) {
        it[i].d = cutune_value_as_double(&v[i]);
        it[i].isint = v[i].type == CUTUNE_VALUE_INT;
        it[i].iv = it[i].isint ? v[i].i : 0;
        it[i].s = v[i].s;
        it[i].i = i;
    }
    int strings = v[0].type == CUTUNE_VALUE_STRING;
    qsort(it, n, sizeof *it, strings ? cmp_str_item : cmp_num_item);
    for (size_t i = 1; i < n; i++) {
        int same = strings ? strcmp(it[i - 1].s, it[i].s) == 0 : num_cmp(&it[i - 1], &it[i]) == 0;
        if (same) {
            size_t later = it[i].i > it[i - 1].i ? it[i].i : it[i - 1].i;
            size_t earlier = it[i].i > it[i - 1].i ? it[i - 1].i : it[i].i;
            spec_path_index(ipath, sizeof ipath, path, later);
            rc = spec_fail(L, CUTUNE_EINVAL, ipath, "duplicate value (same as [%zu])", earlier);
            break;
        }
    }
    free(it);
    return rc;
}

static int check_symbol_name(loader *L, const char *path, const char *name, const char *what)
{
    if (!spec_is_ident(name))
        return spec_fail(L, CUTUNE_EINVAL, path,
                         "%s name '%s' is not an identifier (letters, digits, '_')", what, name);
    if (cutune_expr_is_keyword(name))
        return spec_fail(L, CUTUNE_EINVAL, path, "%s name '%s' is a keyword", what, name);
    for (size_t k = 0; k < 2; k++)
        if (strcmp(name, spec_time_names[k]) == 0)
            return spec_fail(L, CUTUNE_EINVAL, path, "%s name '%s' is reserved for metrics", what,
                             name);
    return 0;
}

static int load_param(loader *L, const cJSON *j, const char *path)
{
    char ipath[PATH_LEN], msg[MSG_LEN];
    cutune_value *vals = NULL;
    int rc = check_symbol_name(L, path, j->string, "parameter");
    if (rc)
        return rc;
    rc = spec_want_type(L, j, path, cJSON_IsArray(j), "an array of values");
    if (rc)
        return rc;
    int n = cJSON_GetArraySize(j);
    if (n == 0)
        return spec_fail(L, CUTUNE_EINVAL, path, "empty value list");
    if ((size_t)n > CUTUNE_SPACE_MAX_VALUES)
        return spec_fail(L, CUTUNE_EINVAL, path, "%d values (at most %d)", n,
                         CUTUNE_SPACE_MAX_VALUES);
    vals = calloc((size_t)n, sizeof *vals);
    if (!vals)
        return spec_fail(L, CUTUNE_ENOMEM, path, "out of memory");
    int nstr = 0, nnum = 0;
    size_t i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
        spec_path_index(ipath, sizeof ipath, path, i);
        if (cJSON_IsString(e)) {
            vals[i].type = CUTUNE_VALUE_STRING;
            vals[i].s = e->valuestring;
            nstr++;
        } else if (cJSON_IsNumber(e)) {
            rc = spec_number_value(L, e, ipath, 0, &vals[i]);
            if (rc)
                goto out_free_vals;
            nnum++;
        } else {
            rc = spec_fail(L, CUTUNE_EINVAL, ipath,
                           "expected a number or a string, got %s (values are scalars)",
                           spec_json_type_name(e));
            goto out_free_vals;
        }
        if (nstr && nnum) {
            rc = spec_fail(L, CUTUNE_EINVAL, ipath,
                           "mixes strings and numbers (only integers and reals may mix)");
            goto out_free_vals;
        }
    }
    rc = check_distinct(L, path, vals, (size_t)n);
    if (rc)
        goto out_free_vals;
    msg[0] = '\0';
    rc = cutune_space_add_param(L->impl->pub.space, j->string, vals, (size_t)n, msg, sizeof msg);
    if (rc)
        rc = spec_fail(L, rc, path, "%s", msg);
out_free_vals:
    free(vals);
    return rc;
}

int spec_load_params(loader *L, const cJSON *root)
{
    const cJSON *j = spec_member(root, "parameters");
    char path[PATH_LEN];
    if (!j)
        return spec_fail(L, CUTUNE_EINVAL, "parameters", "missing (required)");
    int rc = spec_want_type(L, j, "parameters", cJSON_IsObject(j), "an object (name -> values)");
    if (rc)
        return rc;
    if (!j->child)
        return spec_fail(L, CUTUNE_EINVAL, "parameters", "no parameters: nothing to tune");
    rc = spec_check_unique_keys(L, j, "parameters");
    if (rc)
        return rc;
    for (const cJSON *p = j->child; p; p = p->next) {
        spec_path_member(path, sizeof path, "parameters", p->string);
        rc = load_param(L, p, path);
        if (rc)
            return rc;
    }
    return 0;
}

static int apply_override(loader *L, const cutune_size_override *o, cutune_value *v)
{
    char path[PATH_LEN];
    spec_path_member(path, sizeof path, "sizes", o->name);
    if (o->value.type == CUTUNE_VALUE_STRING)
        return spec_fail_cmdline(L, CUTUNE_EINVAL, path, "override value '%s' is not a number",
                                 o->value.s ? o->value.s : "");
    double d = cutune_value_as_double(&o->value);
    if (!isfinite(d))
        return spec_fail_cmdline(L, CUTUNE_EINVAL, path, "override value is not finite");
    /* sizes are integers unless the spec made them real: --size N=1e6 means 1000000 */
    if (v->type == CUTUNE_VALUE_INT && o->value.type == CUTUNE_VALUE_REAL) {
        if (d != floor(d))
            return spec_fail_cmdline(L, CUTUNE_EINVAL, path, "override %g is not an integer", d);
        if (fabs(d) >= 9.2e18)
            return spec_fail_cmdline(L, CUTUNE_EINVAL, path,
                                     "override %g is beyond the 64-bit integers a size holds", d);
        v->i = (long long)d;
        return 0;
    }
    /* ... and a real size stays real: --size S=1 on "S": 1.5 means 1.0, not the integer 1
     * (integer division in an expression would change its meaning) */
    if (v->type == CUTUNE_VALUE_REAL) {
        v->r = d;
        return 0;
    }
    *v = o->value;
    return 0;
}

int spec_load_sizes(loader *L, const cJSON *root, const cutune_size_override *ov, size_t nov)
{
    const cJSON *j = spec_member(root, "sizes");
    char path[PATH_LEN], msg[MSG_LEN];
    cutune_space *sp = L->impl->pub.space;
    int rc;
    if (j) {
        rc = spec_want_type(L, j, "sizes", cJSON_IsObject(j), "an object (name -> number)");
        if (rc)
            return rc;
        rc = spec_check_unique_keys(L, j, "sizes");
        if (rc)
            return rc;
    }
    /* every override must name a size: a misspelt --size must not be ignored */
    for (size_t k = 0; k < nov; k++) {
        if (!ov[k].name || !(j && spec_member(j, ov[k].name))) {
            const char **names = NULL;
            size_t n = 0;
            char list[MSG_LEN / 2] = "none";
            if (j) {
                names = calloc((size_t)cJSON_GetArraySize(j) + 1, sizeof *names);
                if (!names)
                    return spec_fail(L, CUTUNE_ENOMEM, "sizes", "out of memory");
                for (const cJSON *c = j->child; c; c = c->next)
                    names[n++] = c->string;
                if (n)
                    spec_join_names(list, sizeof list, names, n);
                free(names);
            }
            return spec_fail_cmdline(L, CUTUNE_ENOTFOUND, "sizes",
                                     "size override '%s' names no size (valid sizes: %s)",
                                     ov[k].name ? ov[k].name : "(null)", list);
        }
    }
    if (!j)
        return 0;
    for (const cJSON *c = j->child; c; c = c->next) {
        cutune_value v;
        spec_path_member(path, sizeof path, "sizes", c->string);
        rc = check_symbol_name(L, path, c->string, "size");
        if (rc)
            return rc;
        if (cutune_space_param_index(sp, c->string) >= 0)
            return spec_fail(L, CUTUNE_EINVAL, path, "'%s' is also a parameter", c->string);
        rc = spec_want_type(L, c, path, cJSON_IsNumber(c), "a number");
        if (rc)
            return rc;
        rc = spec_number_value(L, c, path, 1, &v);
        if (rc)
            return rc;
        for (size_t k = 0; k < nov; k++) /* the last override of a name wins */
            if (strcmp(ov[k].name, c->string) == 0 && (rc = apply_override(L, &ov[k], &v)))
                return rc;
        msg[0] = '\0';
        rc = cutune_space_add_constant(sp, c->string, v, msg, sizeof msg);
        if (rc)
            return spec_fail(L, rc, path, "%s", msg);
        L->impl->pub.nsizes++;
    }
    return 0;
}

int spec_load_restrictions(loader *L, const cJSON *root)
{
    const cJSON *j = spec_member(root, "restrictions");
    char path[PATH_LEN], msg[MSG_LEN];
    if (!j)
        return 0;
    int rc = spec_want_type(L, j, "restrictions", cJSON_IsArray(j), "an array of expressions");
    if (rc)
        return rc;
    size_t i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
        spec_path_index(path, sizeof path, "restrictions", i);
        rc = spec_want_type(L, e, path, cJSON_IsString(e), "an expression string");
        if (rc)
            return rc;
        if (strspn(e->valuestring, " \t\r\n") == strlen(e->valuestring))
            return spec_fail(L, CUTUNE_EINVAL, path, "empty expression");
        msg[0] = '\0';
        rc = cutune_space_add_restriction(L->impl->pub.space, e->valuestring, msg, sizeof msg);
        if (rc)
            return spec_fail(L, rc, path, "%s", msg[0] ? msg : "bad restriction");
    }
    return 0;
}

int spec_enumerate(loader *L)
{
    char msg[MSG_LEN] = "";
    cutune_space *sp = L->impl->pub.space;
    int rc = cutune_space_enumerate(sp, msg, sizeof msg);
    if (rc == CUTUNE_EEMPTY || (rc == 0 && cutune_space_size(sp) == 0))
        return spec_fail(L, CUTUNE_EEMPTY, "restrictions",
                         "no valid configuration (%.0f Cartesian points)",
                         cutune_space_cartesian_size(sp));
    if (rc) {
        /* "restriction N: ..." is restrictions[N]'s (named by its own line); anything else
         * is the space's (its size): the parameters' */
        size_t n = 0;
        int used = 0;
        char path[64];
        if (sscanf(msg, "restriction %zu%n", &n, &used) == 1 && used > 0 &&
            (msg[used] == ':' || msg[used] == ' ')) {
            spec_path_index(path, sizeof path, "restrictions", n);
            const char *rest = msg + used + (msg[used] == ':');
            return spec_fail(L, rc, path, "%s", rest + strspn(rest, " "));
        }
        return spec_fail(L, rc, "parameters", "%s", msg);
    }
    return 0;
}
