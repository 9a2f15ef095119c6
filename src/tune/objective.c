/* Objectives and constraints (include/cutune/objective.h): the expression engine of
 * restrictions (src/space/expr*.c) over a symbol table of the space's parameters and
 * sizes, time_ms and time_s, the spec's metrics and the evaluator's metrics. The
 * evaluator's metric names are not known before the first evaluation, so every identifier
 * of the text that is no other name, keyword or function is taken for one. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/expr.h"
#include "cutune/objective.h"
#include "cutune/spec.h"
#include "cutune/tuner.h"

#include "objective_internal.h"

/* Parse text into *out; with canon, *canon receives its canonical text (obj_canonical). */
static int parse(cutune_objective *o, const char *text, const char *opt, cutune_expr **out,
                 char **canon, char *err, size_t errlen)
{
    char *t = NULL, msg[512];
    int rc = obj_rewrite(o, text, &t, opt, err, errlen);
    if (rc < 0)
        return rc;
    cutune_symtab st = {.names = (const char *const *)o->names, .n = o->nnames};
    rc = cutune_expr_parse(t, &st, out, msg, sizeof msg);
    if (rc < 0)
        rc = cutune_err(err, errlen, rc, "%s '%s': %s", opt, text, msg);
    if (rc == 0 && canon && !(*canon = obj_canonical(o, t)))
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    if (out == &o->expr && rc == 0) {
        o->expr_text = t;
        t = NULL;
    }
    free(t);
    return rc;
}

/* An objective or constraint that reads no name has one value for every configuration. Where
 * that value makes every configuration infeasible (an objective that is not a positive
 * finite number, such as 1 / 0; a constraint that is false or NaN), the run could only
 * spend its budget to find nothing: refused before it starts. */
static int refuse_constant(const cutune_expr *e, const char *text, const char *opt, int constraint,
                           char *err, size_t errlen)
{
    if (cutune_expr_max_slot(e) >= 0)
        return 0;
    double v = NAN;
    char why[256] = "";
    if (cutune_expr_eval_double(e, NULL, &v, why, sizeof why) < 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s '%s' reads no name and cannot be computed (%s): every "
                          "configuration would be infeasible",
                          opt, text, why);
    if (constraint ? (v != 0 && !isnan(v)) : (isfinite(v) && v > 0))
        return 0;
    return cutune_err(err, errlen, CUTUNE_EINVAL,
                      constraint ? "%s '%s' is false (%g) whatever the configuration: every "
                                   "configuration would be infeasible"
                                 : "%s '%s' is %g whatever the configuration, not a positive "
                                   "number: every configuration would be infeasible",
                      opt, text, v);
}

int cutune_objective_alloc(const char *text, const char *const *constraints, size_t ncons,
                           const cutune_space *space, const cutune_spec *spec,
                           cutune_objective **out, char *err, size_t errlen)
{
    *out = NULL;
    cutune_objective *o = calloc(1, sizeof *o);
    int rc = 0;
    if (!o)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    o->space = space;
    o->spec = spec;
    o->text = strdup(text && *text ? text : "time");
    o->cons = calloc(ncons ? ncons : 1, sizeof *o->cons);
    o->cons_text = calloc(ncons ? ncons : 1, sizeof *o->cons_text);
    o->cons_canon = calloc(ncons ? ncons : 1, sizeof *o->cons_canon);
    if (!o->text || !o->cons || !o->cons_text || !o->cons_canon) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out_fail;
    }
    size_t np = cutune_space_nparams(space), nc = cutune_space_nconstants(space);
    for (size_t p = 0; p < np && !rc; p++) {
        const char *n = cutune_space_param(space, p)->name;
        rc = obj_add_name(o, n, strlen(n), NULL, 0);
    }
    for (size_t c = 0; c < nc && !rc; c++) {
        const char *n = cutune_space_constant_name(space, c);
        rc = obj_add_name(o, n, strlen(n), NULL, 0);
    }
    o->nspace = o->nnames;
    if (!rc)
        rc = obj_add_name(o, "time_ms", 7, NULL, 0);
    if (!rc)
        rc = obj_add_name(o, "time_s", 6, NULL, 0);
    for (size_t m = 0; spec && m < spec->nmetrics && !rc; m++) {
        char alias[32];
        const char *n = spec->metrics[m].name;
        if (!obj_is_ident(n))
            snprintf(alias, sizeof alias, "_s%zu", m);
        rc = obj_add_name(o, obj_is_ident(n) ? n : alias, strlen(obj_is_ident(n) ? n : alias), NULL,
                          0);
    }
    o->nspecm = spec ? spec->nmetrics : 0;
    if (rc < 0) {
        rc = cutune_err(err, errlen, rc == CUTUNE_EINVAL ? CUTUNE_EINVAL : CUTUNE_ENOMEM,
                        "--objective: the space has more than %d names", OBJ_MAX_NAMES);
        goto out_fail;
    }

    /* the direction, then the built-in names */
    char *body = strdup(o->text);
    if (!body) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out_fail;
    }
    /* blanks around the text and its direction are no part of it: 'time ' (as a list
     * 'time ,energy' splits) is the built-in time, not a metric of that name */
    char *text_start = body + strspn(body, " \t");
    size_t bl = strlen(text_start);
    while (bl > 0 && (text_start[bl - 1] == ' ' || text_start[bl - 1] == '\t'))
        text_start[--bl] = '\0';
    if (bl > 4 && (!strcmp(text_start + bl - 4, ":max") || !strcmp(text_start + bl - 4, ":min"))) {
        o->maximize = !strcmp(text_start + bl - 4, ":max");
        text_start[bl -= 4] = '\0';
        while (bl > 0 && (text_start[bl - 1] == ' ' || text_start[bl - 1] == '\t'))
            text_start[--bl] = '\0';
    }
    memmove(body, text_start, bl + 1);
    const char *expr = body;
    if (!strcmp(body, "time"))
        expr = "time_ms";
    else if (!strcmp(body, "energy"))
        expr = "energy_j";
    else if (!strcmp(body, "edp"))
        expr = "energy_j * time_s";
    /* a text without spaces, parentheses or other operators that holds a '/' names one
     * metric ("GFLOP/s", as Kernel Tuner spells them): as if between backquotes. Not when
     * it starts with a number or a name it can read ("1/0", "time_ms/2", "BM/4"): that is
     * a division. */
    char *quoted = NULL;
    size_t head = strcspn(body, "/");
    if (strchr(body, '/') && !body[strcspn(body, " \t()*+-<>=!%?:&|,`\"'")] &&
        obj_is_ident_start((unsigned char)body[0]) && obj_name_index(o, body, head) < 0 &&
        obj_spec_metric_index(o, body, strlen(body)) < 0 && strlen(body) < 32) {
        quoted = malloc(bl + 3);
        if (!quoted) {
            free(body);
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            goto out_fail;
        }
        snprintf(quoted, bl + 3, "`%s`", body);
        expr = quoted;
    }
    char *canon = NULL;
    rc = parse(o, expr, "--objective", &o->expr, &canon, err, errlen);
    if (rc == 0) {
        size_t cl = strlen(canon);
        o->canon = malloc(cl + 5);
        if (o->canon)
            snprintf(o->canon, cl + 5, "%s%s", canon, o->maximize ? ":max" : "");
        else
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    free(canon);
    o->is_time = !strcmp(expr, "time_ms") && !o->maximize && ncons == 0;
    free(quoted);
    free(body);
    if (rc < 0 || (rc = refuse_constant(o->expr, o->text, "--objective", 0, err, errlen)) < 0)
        goto out_fail;
    for (size_t i = 0; i < ncons; i++) {
        if (!(o->cons_text[i] = strdup(constraints[i]))) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            goto out_fail;
        }
        o->ncons++;
        if ((rc = parse(o, constraints[i], "--subject-to", &o->cons[i], &o->cons_canon[i], err,
                        errlen)) < 0 ||
            (rc = refuse_constant(o->cons[i], constraints[i], "--subject-to", 1, err, errlen)) < 0)
            goto out_fail;
    }
    *out = o;
    return 0;
out_fail:
    cutune_objective_free(o);
    return rc;
}

void cutune_objective_free(cutune_objective *o)
{
    if (!o)
        return;
    for (size_t i = 0; i < o->nsub; i++)
        cutune_objective_free(o->sub[i]);
    free(o->sub);
    cutune_expr_free(o->expr);
    for (size_t i = 0; i < o->ncons; i++) {
        cutune_expr_free(o->cons[i]);
        free(o->cons_text[i]);
        free(o->cons_canon ? o->cons_canon[i] : NULL);
    }
    free(o->cons);
    free(o->cons_text);
    free(o->cons_canon);
    free(o->canon);
    for (size_t i = 0; i < o->nnames; i++) {
        free(o->names[i]);
        free(o->metric[i]);
    }
    free(o->text);
    free(o->expr_text);
    free(o);
}

int cutune_objective_is_time(const cutune_objective *o)
{
    return !o || o->is_time;
}

const char *cutune_objective_text(const cutune_objective *o)
{
    return o ? o->text : "time";
}

const char *cutune_objective_expr(const cutune_objective *o)
{
    return o ? o->expr_text : "time_ms";
}

int cutune_objective_maximize(const cutune_objective *o)
{
    return o && o->maximize;
}

size_t cutune_objective_nconstraints(const cutune_objective *o)
{
    return !o ? 0 : o->nsub ? o->sub[0]->ncons : o->ncons;
}

const char *cutune_objective_constraint(const cutune_objective *o, size_t i)
{
    if (o && o->nsub)
        return cutune_objective_constraint(o->sub[0], i);
    return o && i < o->ncons ? o->cons_text[i] : NULL;
}

const char *cutune_objective_canonical(const cutune_objective *o)
{
    return o ? o->canon : "time_ms";
}

const char *cutune_objective_constraint_canonical(const cutune_objective *o, size_t i)
{
    if (o && o->nsub)
        return cutune_objective_constraint_canonical(o->sub[0], i);
    return o && i < o->ncons ? o->cons_canon[i] : NULL;
}

size_t cutune_objective_count(const cutune_objective *o)
{
    return o && o->nsub ? o->nsub : 1;
}

const cutune_objective *cutune_objective_part(const cutune_objective *o, size_t i)
{
    return o && o->nsub ? (i < o->nsub ? o->sub[i] : NULL) : i == 0 ? o : NULL;
}

/* The i-th evaluator metric of o (duplicates across parts counted once), or NULL. */
static const char *need_at(const cutune_objective *o, size_t i)
{
    if (o && o->nsub) {
        size_t seen = 0;
        for (size_t p = 0; p < o->nsub; p++)
            for (size_t k = 0; k < o->sub[p]->nnames; k++) {
                const char *m = o->sub[p]->metric[k];
                if (!m)
                    continue;
                int dup = 0;
                for (size_t q = 0; q <= p && !dup; q++)
                    for (size_t r = 0; r < (q < p ? o->sub[q]->nnames : k) && !dup; r++)
                        dup = o->sub[q]->metric[r] && !strcmp(o->sub[q]->metric[r], m);
                if (!dup && seen++ == i)
                    return m;
            }
        return NULL;
    }
    for (size_t k = 0; o && k < o->nnames; k++)
        if (o->metric[k] && i-- == 0)
            return o->metric[k];
    return NULL;
}

size_t cutune_objective_nneeds(const cutune_objective *o)
{
    size_t n = 0;
    while (need_at(o, n))
        n++;
    return n;
}

const char *cutune_objective_need(const cutune_objective *o, size_t i)
{
    return need_at(o, i);
}

void cutune_objective_eval(const cutune_objective *o, const cutune_history_entry *e, double *value,
                           int *feasible)
{
    *value = NAN;
    *feasible = 0;
    if (e->r.status != CUTUNE_STATUS_OK)
        return;
    if (o && o->nsub) { /* several: the score (geometric mean), feasible when every part is */
        double s = cutune_objective_score(o, e);
        *value = s;
        *feasible = isfinite(s);
        return;
    }
    if (!o || o->is_time) {
        *value = e->r.time_ms;
        *feasible = isfinite(e->r.time_ms);
        return;
    }
    cutune_value vars[OBJ_MAX_NAMES];
    cutune_space_values(o->space, e->id, vars);
    for (size_t k = o->nspace; k < o->nnames; k++)
        vars[k] = (cutune_value){.type = CUTUNE_VALUE_REAL, .r = NAN};
    vars[o->nspace].r = e->r.time_ms;
    vars[o->nspace + 1].r = e->r.time_ms * 1e-3;
    for (size_t m = 0; m < o->nspecm; m++)
        if (e->spec_metrics)
            vars[o->nspace + 2 + m].r = e->spec_metrics[m];
    for (size_t k = o->nspace + 2 + o->nspecm; k < o->nnames; k++)
        for (size_t m = 0; m < e->r.nmetrics; m++)
            if (!strcmp(e->r.metrics[m].name, o->metric[k]))
                vars[k].r = e->r.metrics[m].value;
    double v = NAN;
    if (cutune_expr_eval_double(o->expr, vars, &v, NULL, 0) < 0)
        v = NAN;
    *value = v;
    int ok = isfinite(v);
    for (size_t i = 0; i < o->ncons && ok; i++) {
        double c = 0;
        ok = cutune_expr_eval_double(o->cons[i], vars, &c, NULL, 0) == 0 && c != 0 && !isnan(c);
    }
    *feasible = ok;
}

double cutune_objective_score(const cutune_objective *o, const cutune_history_entry *e)
{
    if (!o || o->is_time)
        return e->r.time_ms;
    if (o->nsub) {
        /* the geometric mean of the parts' scores: free of their units and scales, so no
         * part outweighs another by the size of its numbers */
        double sum = 0;
        for (size_t i = 0; i < o->nsub; i++) {
            double s = cutune_objective_score(o->sub[i], e);
            if (!(s > 0) || !isfinite(s))
                return NAN;
            sum += log(s);
        }
        return exp(sum / (double)o->nsub);
    }
    double v;
    int feasible;
    cutune_objective_eval(o, e, &v, &feasible);
    if (!feasible || !(v > 0))
        return NAN;
    return o->maximize ? 1.0 / v : v;
}

/* Whether two parsed texts are one expression up to blanks outside quotes ("time" and
 * "time_ms" are both "time_ms" once parsed). */
static int same_text(const char *a, const char *b)
{
    char quote = 0; /* the same in both: they are equal up to here */
    for (;; a++, b++) {
        while (!quote && (*a == ' ' || *a == '\t'))
            a++;
        while (!quote && (*b == ' ' || *b == '\t'))
            b++;
        if (*a != *b)
            return 0;
        if (!*a)
            return 1;
        if (quote ? *a == quote : (*a == '`' || *a == '"' || *a == '\''))
            quote = quote ? 0 : *a;
    }
}

/* The earlier objective of o that sub is, or -1: a repeated objective is one dimension of
 * the front given twice, which weighs it double in the hypervolume. */
static long repeated_objective(const cutune_objective *o, const cutune_objective *sub)
{
    for (size_t j = 0; j < o->nsub; j++)
        if (o->sub[j]->maximize == sub->maximize && same_text(o->sub[j]->expr_text, sub->expr_text))
            return (long)j;
    return -1;
}

int cutune_objective_multi_alloc(const char *list, const char *const *constraints, size_t ncons,
                                 const cutune_space *space, const cutune_spec *spec,
                                 cutune_objective **out, char *err, size_t errlen)
{
    *out = NULL;
    cutune_objective *o = calloc(1, sizeof *o);
    char *copy = strdup(list);
    int rc = 0;
    if (!o || !copy || !(o->text = strdup(list)) || !(o->expr_text = strdup(list))) {
        free(copy);
        cutune_objective_free(o);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    /* split at the commas outside parentheses, backquotes and strings */
    char *parts[16];
    size_t np = 0;
    int depth = 0;
    char quote = 0;
    parts[np++] = copy;
    for (char *p = copy; *p && rc == 0; p++) {
        if (quote) {
            quote = *p == quote ? 0 : quote;
        } else if (*p == '`' || *p == '"' || *p == '\'') {
            quote = *p;
        } else if (*p == '(' || *p == '[') {
            depth++;
        } else if (*p == ')' || *p == ']') {
            depth--;
        } else if (*p == ',' && depth == 0) {
            *p = '\0';
            if (np == 16)
                rc =
                    cutune_err(err, errlen, CUTUNE_EINVAL, "--objectives '%s': more than 16", list);
            else
                parts[np++] = p + 1;
        }
    }
    if (rc == 0 && np < 2)
        rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                        "--objectives '%s': two or more, separated by commas (one: --objective)",
                        list);
    if (rc == 0 && !(o->sub = calloc(np, sizeof *o->sub)))
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < np; i++) {
        char *t = parts[i];
        while (*t == ' ' || *t == '\t')
            t++;
        if (!*t) {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL, "--objectives '%s': objective %zu is empty",
                            list, i + 1);
            break;
        }
        char e2[512];
        rc = cutune_objective_alloc(t, constraints, ncons, space, spec, &o->sub[i], e2, sizeof e2);
        if (rc < 0) {
            cutune_err(err, errlen, rc, "--objectives: %s", e2);
            break;
        }
        long j = repeated_objective(o, o->sub[i]);
        o->nsub++;
        if (j >= 0)
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "--objectives '%s': objective %zu, '%s', is objective %ld again (give "
                            "each once)",
                            list, i + 1, t, j + 1);
    }
    free(copy);
    obj_strbuf cb = {0};
    for (size_t i = 0; rc == 0 && i < o->nsub; i++) {
        obj_sb_put(&cb, i ? "," : "", i ? 1 : 0);
        obj_sb_put(&cb, o->sub[i]->canon, strlen(o->sub[i]->canon));
    }
    if (rc == 0 && (cb.oom || !(o->canon = cb.s)))
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    if (rc < 0) {
        if (!o->canon)
            free(cb.s);
        cutune_objective_free(o);
        return rc;
    }
    *out = o;
    return 0;
}
