/*
 * T1 files as kernel specs: the configuration space. T1's expressions (Sizes, Conditions,
 * Python-style value lists) are rewritten into cutune's expression language, and the
 * TuningParameters and Conditions become the cutune document's params and restrictions.
 * Kept apart from t1.c because it is the one part that parses text of its own (the value
 * lists and expressions) rather than mapping fields one to one.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/expr.h"
#include "cutune/space.h"
#include "t1_internal.h"

/* Index of the tuning parameter name[0..n), or -1. */
static long param_index(const t1 *T, const char *name, size_t n)
{
    for (size_t p = 0; p < T->nparams; p++)
        if (strlen(T->params[p].name) == n && strncmp(T->params[p].name, name, n) == 0)
            return (long)p;
    return -1;
}

static size_t skip_blanks(const char *s, size_t i)
{
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    return i;
}

/*
 * A T1 expression in cutune's language: "ProblemSize[k]" is the size ProblemSize_k. In a
 * buffer Size (sizes only), Kernel Tuner binds each parameter's name to its list of values,
 * the buffer being allocated once: max(P), min(P) and len(P) of a parameter P become that
 * number. In a Condition, which Kernel Tuner evaluates as Python, '/' is true division:
 * "a / b" becomes "a * 1.0 / b", whose REAL operand makes cutune's '/' real division
 * (an INT '/' truncates, as in C: x / y > 2 would hold for fewer pairs than in Python).
 * '* 1.0' joins the left operand at the level of '/' itself, so the parse is otherwise
 * the same; "//" stays floor division. '%' is Python's remainder, whose sign is the
 * divisor's (-7 % 3 is 2, 7 % -3 is -2; floats too): it becomes cutune's "%%", where
 * cutune's '%' is C's (the sign of the dividend). Strings are copied as they are. Returns a
 * malloc'd string, or NULL (out of memory).
 */
static char *rewrite_expr(const t1 *T, const char *src, enum t1_expr_kind kind)
{
    size_t n = strlen(src), cap = 2 * n + 64, o = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n;) {
        char piece[80];
        const char *add_text = src + i;
        size_t add_len = 1, next = i + 1;
        if (src[i] == '"' || src[i] == '\'') {
            size_t j = i + 1;
            while (j < n && src[j] != src[i])
                j += src[j] == '\\' && j + 1 < n ? 2 : 1;
            next = j < n ? j + 1 : n;
            add_len = next - i;
        } else if (t1_is_ident_char(src[i], 1) && (i == 0 || !t1_is_ident_char(src[i - 1], 0))) {
            size_t j = i;
            while (t1_is_ident_char(src[j], 0))
                j++;
            size_t idl = j - i, k = skip_blanks(src, j);
            add_len = idl;
            next = j;
            if (T->problem_kind == 2 && idl == 11 && strncmp(src + i, "ProblemSize", 11) == 0 &&
                src[k] == '[') {
                size_t a = skip_blanks(src, k + 1), b = a;
                while (src[b] >= '0' && src[b] <= '9')
                    b++;
                size_t c = skip_blanks(src, b);
                if (b > a && b - a < 8 && src[c] == ']') {
                    snprintf(piece, sizeof piece, "ProblemSize_%.*s", (int)(b - a), src + a);
                    add_text = piece;
                    add_len = strlen(piece);
                    next = c + 1;
                }
            } else if (kind == T1_EXPR_SIZE && src[k] == '(' &&
                       ((idl == 3 &&
                         (strncmp(src + i, "max", 3) == 0 || strncmp(src + i, "min", 3) == 0 ||
                          strncmp(src + i, "len", 3) == 0)))) {
                size_t a = skip_blanks(src, k + 1), b = a;
                while (t1_is_ident_char(src[b], b == a))
                    b++;
                size_t c = skip_blanks(src, b);
                long p = b > a && src[c] == ')' ? param_index(T, src + a, b - a) : -1;
                if (p >= 0 && (src[i + 1] == 'e' || T->params[p].numeric)) {
                    const t1_param *tp = &T->params[p];
                    if (src[i + 1] == 'e')
                        snprintf(piece, sizeof piece, "%zu", tp->nvalues);
                    else
                        snprintf(piece, sizeof piece, "%s", src[i + 1] == 'a' ? tp->max : tp->min);
                    add_text = piece;
                    add_len = strlen(piece);
                    next = c + 1;
                }
            }
        } else if (kind == T1_EXPR_CONDITION && src[i] == '/') {
            if (src[i + 1] == '/') { /* floor division, as it is */
                add_len = 2;
                next = i + 2;
            } else {
                add_text = o && out[o - 1] == ' ' ? "* 1.0 /" : " * 1.0 /";
                add_len = strlen(add_text);
            }
        } else if (kind == T1_EXPR_CONDITION && src[i] == '%') {
            add_text = "%%"; /* Python's remainder, at the level of '%' itself */
            add_len = 2;
        }
        if (o + add_len + 1 > cap) {
            cap = 2 * (o + add_len + 1);
            char *nb = realloc(out, cap);
            if (!nb) {
                free(out);
                return NULL;
            }
            out = nb;
        }
        memcpy(out + o, add_text, add_len);
        o += add_len;
        i = next;
    }
    out[o] = '\0';
    return out;
}

/* An expression node of the cutune document from a T1 string or number at path. */
int t1_expr_node(t1 *T, const cJSON *j, const char *path, enum t1_expr_kind kind, cJSON **out)
{
    *out = NULL;
    if (cJSON_IsNumber(j)) {
        cutune_value v = t1_json_number(T, j);
        if (!isfinite(j->valuedouble))
            return t1_fail(T, CUTUNE_EINVAL, path, "number out of range");
        *out = t1_number_node(&v);
    } else if (cJSON_IsString(j)) {
        char *text = rewrite_expr(T, j->valuestring, kind);
        *out = text ? cJSON_CreateString(text) : NULL;
        free(text);
    } else {
        return t1_fail(T, CUTUNE_EINVAL, path, "expected an expression (a string) or a number");
    }
    return *out ? 0 : t1_oom(T);
}

/* ------------------------------------------------------------------ tuning parameters */

/* Evaluate a constant expression (a Python literal such as 32, 2**5, 'a', True). */
static int eval_const(t1 *T, const char *path, const char *text, size_t n, cutune_value *v,
                      char *sbuf, size_t slen)
{
    char src[512], msg[MSG_LEN] = "";
    cutune_symtab none = {.names = NULL, .n = 0};
    cutune_expr *e = NULL;
    if (n >= sizeof src)
        return t1_fail(T, CUTUNE_EINVAL, path, "value '%.40s...' too long", text);
    memcpy(src, text, n);
    src[n] = '\0';
    int rc = cutune_expr_parse(src, &none, &e, msg, sizeof msg);
    if (!rc)
        rc = cutune_expr_eval(e, NULL, v, msg, sizeof msg);
    if (!rc && v->type == CUTUNE_VALUE_STRING) {
        snprintf(sbuf, slen, "%s", v->s);
        v->s = sbuf;
    }
    cutune_expr_free(e);
    if (rc)
        return t1_fail(T, rc, path, "value '%s': %s (values are Python literals: 32, 0.5, 'name')",
                       src, msg);
    if (v->type == CUTUNE_VALUE_REAL && !isfinite(v->r))
        return t1_fail(T, CUTUNE_EINVAL, path, "value '%s' is not finite", src);
    return 0;
}

/* How many values range(r[0], r[1], r[2]) holds, counted in unsigned arithmetic: the span
 * of two 64-bit integers and its quotient are exact there, where doubles round them
 * (range(0, 2**62 + 1, 2**62) holds 2 values, not 1) and signed integers overflow. */
static size_t range_count(const long long r[3])
{
    if (r[2] > 0 ? r[1] <= r[0] : r[1] >= r[0])
        return 0;
    unsigned long long lo = (unsigned long long)r[0], hi = (unsigned long long)r[1],
                       step = (unsigned long long)r[2];
    unsigned long long span = r[2] > 0 ? hi - lo : lo - hi, by = r[2] > 0 ? step : 0 - step;
    return (size_t)(span / by + (span % by != 0));
}

/* The value k of range(r[0], r[1], r[2]), k below its count: r[0] + k * r[2] is within the
 * range, so taken modulo 2^64 (unsigned) it is exact even where k * r[2] alone would
 * overflow a long long. */
static long long range_value(const long long r[3], size_t k)
{
    unsigned long long v =
        (unsigned long long)r[0] + (unsigned long long)k * (unsigned long long)r[2];
    return v <= (unsigned long long)LLONG_MAX ? (long long)v : -(long long)(0 - v - 1) - 1;
}

/* Parse range(stop), range(start, stop[, step]) from the arguments in s[0..n). */
static int parse_range(t1 *T, const char *path, const char *s, size_t n, long long r[3],
                       size_t *count)
{
    long long a[3];
    size_t na = 0, start = 0;
    int depth = 0;
    char sbuf[8];
    for (size_t i = 0; i <= n; i++) {
        if (i < n && (s[i] == '(' || s[i] == '['))
            depth++;
        else if (i < n && (s[i] == ')' || s[i] == ']'))
            depth--;
        if (i == n || (s[i] == ',' && depth == 0)) {
            cutune_value v;
            if (i == n && na > 0 && strspn(s + start, " \t\r\n") == i - start)
                break; /* a trailing comma, as Python allows: range(64,) */
            if (na == 3)
                return t1_fail(T, CUTUNE_EINVAL, path, "range() takes 1 to 3 arguments");
            int rc = eval_const(T, path, s + start, i - start, &v, sbuf, sizeof sbuf);
            if (rc)
                return rc;
            if (v.type != CUTUNE_VALUE_INT)
                return t1_fail(T, CUTUNE_EINVAL, path, "range() takes integers");
            a[na++] = v.i;
            start = i + 1;
        }
    }
    r[0] = na == 1 ? 0 : a[0];
    r[1] = na == 1 ? a[0] : a[1];
    r[2] = na == 3 ? a[2] : 1;
    if (r[2] == 0)
        return t1_fail(T, CUTUNE_EINVAL, path, "range() step must not be zero");
    *count = range_count(r);
    return 0;
}

/* s[0..n) without the blanks around it. */
static void trim(const char **s, size_t *n)
{
    while (*n && strchr(" \t\r\n", (*s)[0])) {
        (*s)++;
        (*n)--;
    }
    while (*n && strchr(" \t\r\n", (*s)[*n - 1]))
        (*n)--;
}

static int starts_call(const char *s, size_t n, const char *fn)
{
    size_t k = strlen(fn);
    if (n < k + 2 || strncmp(s, fn, k) != 0 || s[n - 1] != ')')
        return 0;
    size_t i = k;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i < n && s[i] == '(';
}

/* Add one value to the parameter's list: a number (or a boolean for Type bool) or a string
 * as Type says. */
static int add_value(t1 *T, const char *path, const char *type, const cutune_value *v, cJSON *list,
                     t1_param *tp)
{
    char text[64];
    cutune_value_format(v, text, sizeof text);
    int is_str = v->type == CUTUNE_VALUE_STRING;
    if (strcmp(type, "string") == 0 && !is_str)
        return t1_fail(T, CUTUNE_EINVAL, path, "value %s of a string parameter is not a string",
                       text);
    if (strcmp(type, "string") != 0 && is_str)
        return t1_fail(T, CUTUNE_EINVAL, path, "value '%s' of a%s %s parameter is not a number",
                       v->s, type[0] == 'i' || type[0] == 'u' ? "n" : "", type);
    if ((strcmp(type, "int") == 0 || strcmp(type, "uint") == 0) && v->type != CUTUNE_VALUE_INT)
        return t1_fail(T, CUTUNE_EINVAL, path, "value %s of an %s parameter is not an integer",
                       text, type);
    if (strcmp(type, "uint") == 0 && v->i < 0)
        return t1_fail(T, CUTUNE_EINVAL, path, "value %s of a uint parameter is negative", text);
    if (strcmp(type, "bool") == 0 && !(v->type == CUTUNE_VALUE_INT && (v->i == 0 || v->i == 1)))
        return t1_fail(T, CUTUNE_EINVAL, path,
                       "value %s of a bool parameter is not True, False, 1 or 0", text);
    if (tp->nvalues >= CUTUNE_SPACE_MAX_VALUES)
        return t1_fail(T, CUTUNE_EINVAL, path, "more than %d values", CUTUNE_SPACE_MAX_VALUES);
    if (!t1_add(T, list, NULL, is_str ? cJSON_CreateString(v->s) : t1_number_node(v)))
        return t1_oom(T);
    if (!is_str) {
        double d = cutune_value_as_double(v);
        char *end;
        if (!tp->nvalues || d < strtod(tp->min, &end))
            snprintf(tp->min, sizeof tp->min, "%s", text);
        if (!tp->nvalues || d > strtod(tp->max, &end))
            snprintf(tp->max, sizeof tp->max, "%s", text);
    } else {
        tp->numeric = 0;
    }
    tp->nvalues++;
    return 0;
}

/* Values: a Python list or tuple of literals, range(...), or list(...) of either, as
 * Kernel Tuner evaluates them; or (leniently) a JSON array of numbers and strings. */
static int parse_values(t1 *T, const char *path, const cJSON *vals, const char *type, cJSON *list,
                        t1_param *tp)
{
    char sbuf[512];
    if (cJSON_IsArray(vals)) {
        for (const cJSON *e = vals->child; e; e = e->next) {
            cutune_value v;
            if (cJSON_IsNumber(e) && isfinite(e->valuedouble))
                v = t1_json_number(T, e);
            else if (cJSON_IsString(e))
                v = (cutune_value){.type = CUTUNE_VALUE_STRING, .s = e->valuestring};
            else if (cJSON_IsBool(e))
                v = (cutune_value){.type = CUTUNE_VALUE_INT, .i = cJSON_IsTrue(e)};
            else
                return t1_fail(T, CUTUNE_EINVAL, path, "expected numbers or strings");
            int rc = add_value(T, path, type, &v, list, tp);
            if (rc)
                return rc;
        }
        return tp->nvalues ? 0 : t1_fail(T, CUTUNE_EINVAL, path, "no values");
    }
    if (!cJSON_IsString(vals))
        return t1_fail(T, CUTUNE_EINVAL, path,
                       "expected a string holding a Python list (\"[1, 2, 4]\") or range(...)");
    const char *s = vals->valuestring;
    size_t n = strlen(s);
    trim(&s, &n);
    if (starts_call(s, n, "list")) { /* list(X): X */
        const char *open = strchr(s, '(');
        n = (size_t)(s + n - 1 - (open + 1));
        s = open + 1;
        trim(&s, &n);
    }
    if (starts_call(s, n, "range")) {
        const char *open = strchr(s, '(');
        long long r[3] = {0, 0, 1};
        size_t count = 0;
        int rc = parse_range(T, path, open + 1, (size_t)(s + n - 1 - (open + 1)), r, &count);
        if (rc)
            return rc;
        if (count == 0)
            return t1_fail(T, CUTUNE_EINVAL, path, "range() holds no values");
        if (count > CUTUNE_SPACE_MAX_VALUES)
            return t1_fail(T, CUTUNE_EINVAL, path, "range() holds %zu values (at most %d)", count,
                           CUTUNE_SPACE_MAX_VALUES);
        for (size_t k = 0; k < count; k++) {
            cutune_value v = {.type = CUTUNE_VALUE_INT, .i = range_value(r, k)};
            if ((rc = add_value(T, path, type, &v, list, tp)))
                return rc;
        }
        return 0;
    }
    if (n < 2 || !((s[0] == '[' && s[n - 1] == ']') || (s[0] == '(' && s[n - 1] == ')')))
        return t1_fail(T, CUTUNE_EINVAL, path,
                       "'%s' is not a list of values (a Python list \"[1, 2, 4]\", a tuple, "
                       "range(...) or list(range(...)))",
                       vals->valuestring);
    size_t start = 1, depth = 0;
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (c == '"' || c == '\'') {
            size_t j = i + 1;
            while (j < n - 1 && s[j] != c)
                j += s[j] == '\\' ? 2 : 1;
            if (j >= n - 1) /* the list ended inside it: its last value would be dropped */
                return t1_fail(T, CUTUNE_EINVAL, path, "'%s': a string is not closed",
                               vals->valuestring);
            i = j;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && i < n - 1)
            depth--;
        if ((c == ',' && depth == 0) || i == n - 1) {
            const char *item = s + start;
            size_t il = i - start;
            trim(&item, &il);
            start = i + 1;
            if (!il && i == n - 1 && tp->nvalues) /* [1, 2,]: Python's trailing comma */
                break;
            if (!il)
                return t1_fail(T, CUTUNE_EINVAL, path, "an empty value in '%s'", vals->valuestring);
            for (size_t k = 0; k + 4 < il; k++)
                if (strncmp(item + k, " for ", 5) == 0)
                    return t1_fail(T, CUTUNE_EUNSUPPORTED, path,
                                   "'%s': a list comprehension is not read (write the values "
                                   "out, or use range(...))",
                                   vals->valuestring);
            cutune_value v;
            int rc = eval_const(T, path, item, il, &v, sbuf, sizeof sbuf);
            if (!rc)
                rc = add_value(T, path, type, &v, list, tp);
            if (rc)
                return rc;
        }
    }
    return tp->nvalues ? 0 : t1_fail(T, CUTUNE_EINVAL, path, "no values");
}

static const char *const param_types[] = {"int", "uint", "float", "bool", "string"};

int t1_load_parameters(t1 *T, const cJSON *cs, cJSON *doc)
{
    const cJSON *tps = t1_member(cs, "TuningParameters");
    char path[PATH_LEN], npath[PATH_LEN];
    if (!tps)
        return t1_fail(T, CUTUNE_EINVAL, "ConfigurationSpace.TuningParameters",
                       "missing (required)");
    if (!cJSON_IsArray(tps) || !tps->child)
        return t1_fail(T, CUTUNE_EINVAL, "ConfigurationSpace.TuningParameters",
                       "expected a non-empty array of parameters");
    size_t n = (size_t)cJSON_GetArraySize(tps), i = 0;
    T->params = calloc(n, sizeof *T->params);
    cJSON *params = t1_add(T, doc, "parameters", cJSON_CreateObject());
    if (!T->params || !params)
        return t1_oom(T);
    t1_map_field(T, "parameters", "ConfigurationSpace.TuningParameters", 0);
    for (const cJSON *p = tps->child; p; p = p->next, i++) {
        snprintf(path, sizeof path, "ConfigurationSpace.TuningParameters[%zu]", i);
        if (!cJSON_IsObject(p))
            return t1_fail(T, CUTUNE_EINVAL, path, "expected an object");
        const cJSON *name = t1_member(p, "Name"), *type = t1_member(p, "Type"),
                    *vals = t1_member(p, "Values");
        char fpath[PATH_LEN + 16];
        for (const char *const *f = (const char *const[]){"Name", "Type", "Values", NULL}; *f; f++)
            if (!t1_member(p, *f)) {
                snprintf(fpath, sizeof fpath, "%s.%s", path, *f);
                return t1_fail(T, CUTUNE_EINVAL, fpath, "missing (required)");
            }
        snprintf(fpath, sizeof fpath, "%s.Name", path);
        if (!cJSON_IsString(name) || !name->valuestring[0])
            return t1_fail(T, CUTUNE_EINVAL, fpath, "expected a parameter name");
        if (param_index(T, name->valuestring, strlen(name->valuestring)) >= 0)
            return t1_fail(T, CUTUNE_EINVAL, fpath, "parameter '%s' given twice",
                           name->valuestring);
        snprintf(fpath, sizeof fpath, "%s.Type", path);
        size_t k;
        for (k = 0;
             k < 5 && !(cJSON_IsString(type) && strcmp(type->valuestring, param_types[k]) == 0);
             k++)
            ;
        if (k == 5)
            return t1_fail(T, CUTUNE_EINVAL, fpath,
                           "expected one of int, uint, float, bool, string (T1's parameter types)");
        t1_param *tp = &T->params[T->nparams++];
        tp->name = t1_dup_str(name->valuestring);
        tp->numeric = 1;
        cJSON *list = t1_add(T, params, name->valuestring, cJSON_CreateArray());
        if (!tp->name || !list)
            return t1_oom(T);
        snprintf(fpath, sizeof fpath, "%s.Values", path);
        int rc = parse_values(T, fpath, vals, type->valuestring, list, tp);
        if (rc)
            return rc;
        t1_path_member(npath, sizeof npath, "parameters", name->valuestring);
        t1_map_field(T, npath, path, 0);
        for (const cJSON *f = p->child; f; f = f->next) {
            if (strcmp(f->string, "Name") == 0 || strcmp(f->string, "Type") == 0 ||
                strcmp(f->string, "Values") == 0)
                continue;
            snprintf(fpath, sizeof fpath, "%s.%s", path, f->string);
            char shown[PATH_LEN + 64];
            snprintf(shown, sizeof shown, "ConfigurationSpace.TuningParameters[*].%s", f->string);
            if (strcmp(f->string, "Default") == 0)
                t1_warn(T, fpath, shown,
                        "ignored (cutune has no default configuration: its searchers start from "
                        "their own designs)");
            else
                t1_warn(T, fpath, shown, "ignored (not a field of T1's tuning parameters)");
        }
    }
    return 0;
}

int t1_load_conditions(t1 *T, const cJSON *cs, cJSON *doc)
{
    const cJSON *conds = t1_member(cs, "Conditions");
    char path[PATH_LEN], fpath[PATH_LEN + 32], npath[PATH_LEN];
    if (!conds || cJSON_IsNull(conds))
        return 0;
    if (!cJSON_IsArray(conds))
        return t1_fail(T, CUTUNE_EINVAL, "ConfigurationSpace.Conditions", "expected an array");
    cJSON *res = t1_add(T, doc, "restrictions", cJSON_CreateArray());
    if (!res)
        return t1_oom(T);
    t1_map_field(T, "restrictions", "ConfigurationSpace.Conditions", 0);
    size_t i = 0;
    for (const cJSON *c = conds->child; c; c = c->next, i++) {
        snprintf(path, sizeof path, "ConfigurationSpace.Conditions[%zu]", i);
        if (!cJSON_IsObject(c))
            return t1_fail(T, CUTUNE_EINVAL, path, "expected an object");
        const cJSON *ex = t1_member(c, "Expression"), *ps = t1_member(c, "Parameters");
        snprintf(fpath, sizeof fpath, "%s.Expression", path);
        if (!ex)
            return t1_fail(T, CUTUNE_EINVAL, fpath, "missing (required)");
        if (!cJSON_IsString(ex))
            return t1_fail(T, CUTUNE_EINVAL, fpath, "expected an expression (a string)");
        /* Parameters (which the schema requires, Kernel Tuner does not) names what the
         * expression reads; cutune finds that out itself, but a name that is no parameter
         * is a mistake worth a message */
        snprintf(fpath, sizeof fpath, "%s.Parameters", path);
        if (ps && !cJSON_IsArray(ps))
            return t1_fail(T, CUTUNE_EINVAL, fpath, "expected an array of parameter names");
        size_t k = 0;
        for (const cJSON *p = ps ? ps->child : NULL; p; p = p->next, k++) {
            snprintf(fpath, sizeof fpath, "%s.Parameters[%zu]", path, k);
            if (!cJSON_IsString(p))
                return t1_fail(T, CUTUNE_EINVAL, fpath, "expected a parameter name");
            if (param_index(T, p->valuestring, strlen(p->valuestring)) < 0)
                return t1_fail(T, CUTUNE_ENOTFOUND, fpath, "'%s' is not a tuning parameter",
                               p->valuestring);
        }
        cJSON *node;
        snprintf(fpath, sizeof fpath, "%s.Expression", path);
        int rc = t1_expr_node(T, ex, fpath, T1_EXPR_CONDITION, &node);
        if (rc)
            return rc;
        if (!t1_add(T, res, NULL, node))
            return t1_oom(T);
        snprintf(npath, sizeof npath, "restrictions[%zu]", i);
        t1_map_field(T, npath, fpath, 0);
        for (const cJSON *f = c->child; f; f = f->next)
            if (strcmp(f->string, "Expression") != 0 && strcmp(f->string, "Parameters") != 0) {
                char shown[PATH_LEN + 64];
                snprintf(fpath, sizeof fpath, "%s.%s", path, f->string);
                snprintf(shown, sizeof shown, "ConfigurationSpace.Conditions[*].%s", f->string);
                t1_warn(T, fpath, shown, "ignored (not a field of T1's conditions)");
            }
    }
    return 0;
}

/* ------------------------------------------------------------------ kernel */
