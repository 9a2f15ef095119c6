/* Exports of a run: summary JSON, CSV and a C header (the Kernel Tuner cache is
 * export_kt.c's).
 * Each is built in memory and written by cutune_io_write_atomic, so a failed
 * export never leaves a partial file behind. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/journal.h"
#include "cutune/confirm.h"
#include "cutune/objective.h"
#include "cutune/spec.h"
#include "io_internal.h"

int cutune_io_write_json(const char *path, const cJSON *doc, int pretty, char *err, size_t errlen)
{
    char *text = pretty ? cJSON_Print(doc) : cJSON_PrintUnformatted(doc);
    if (!text)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    size_t len = strlen(text);
    char *t = realloc(text, len + 2);
    if (!t) {
        free(text);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    }
    t[len++] = '\n';
    t[len] = '\0';
    int rc = cutune_io_write_atomic(path, t, len, err, errlen);
    free(t);
    return rc;
}

int cutune_io_export_check(const char *path, const cutune_space *s, const cutune_history *h,
                           char *err, size_t errlen)
{
    if (!path || !s || !h)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "export: no path, space or history");
    for (size_t i = 0; i < h->n; i++)
        if (h->e[i].id >= cutune_space_size(s))
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: evaluation %zu names configuration %zu, outside the space", path,
                              i, h->e[i].id);
    if (h->best >= (long)h->n)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: best entry %ld out of range", path,
                          h->best);
    return 0;
}

/* The best OK entry: the history's own pick when it has one. */
static const cutune_history_entry *best_entry(const cutune_history *h)
{
    if (h->best >= 0 && h->e[h->best].r.status == CUTUNE_STATUS_OK)
        return &h->e[h->best];
    return NULL;
}

/* The configuration a header holds: the confirmed winner where the run confirmed one. */
static const cutune_history_entry *header_entry(const cutune_history *h)
{
    const cutune_confirm_result *c = h->confirm;
    if (c && c->winner >= 0 && c->e[c->winner].hist >= 0 && (size_t)c->e[c->winner].hist < h->n)
        return &h->e[c->e[c->winner].hist];
    return best_entry(h);
}

/* One confirmed configuration as JSON: id, config, mean, ci95, rounds, tied ... */
static cJSON *confirm_entry_json(const cutune_space *s, const cutune_confirm_entry *e)
{
    cJSON *o = cJSON_CreateObject(), *ci = NULL;
    int bad = !o;
    bad = bad || cutune_io_add(o, "id", cJSON_CreateNumber((double)e->id)) < 0;
    bad = bad || cutune_io_add(o, "config", cutune_io_config_json(s, e->id)) < 0;
    bad = bad || cutune_io_add(o, "mean", cutune_io_number_json(e->mean)) < 0;
    bad = bad || cutune_io_add(o, "ci95", ci = cJSON_CreateArray()) < 0;
    for (int k = 0; k < 2 && !bad; k++) {
        cJSON *x = cutune_io_number_json(k ? e->hi : e->lo);
        bad = !x || !cJSON_AddItemToArray(ci, x);
        if (bad)
            cJSON_Delete(x);
    }
    bad = bad || cutune_io_add(o, "rounds", cJSON_CreateNumber((double)e->n)) < 0;
    bad = bad || cutune_io_add(o, "tied", cJSON_CreateBool(e->tied)) < 0;
    bad = bad || cutune_io_add(o, "registers", cutune_io_number_json(e->registers)) < 0;
    bad = bad || cutune_io_add(o, "energy_j", cutune_io_number_json(e->energy_j)) < 0;
    if (bad) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* ----------------------------------------------------------------- summary */

int cutune_export_summary(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                          const cutune_history *h, const char *stop_reason, char *err,
                          size_t errlen)
{
    int rc = cutune_io_export_check(path, s, h, err, errlen);
    if (rc < 0)
        return rc;
    const cutune_history_entry *b = best_entry(h);
    cJSON *doc = cJSON_CreateObject(), *best = NULL, *counts = NULL;
    int bad = !doc;
    if (b) {
        best = cJSON_CreateObject();
        bad = bad || cutune_io_add(doc, "best", best) < 0;
        bad = bad || cutune_io_add(best, "config", cutune_io_config_json(s, b->id)) < 0;
        bad = bad || cutune_io_add(best, "time_ms", cutune_io_number_json(b->r.time_ms)) < 0;
        bad = bad || cutune_io_add(best, "metrics", cutune_io_metrics_json(spec, b)) < 0;
        if (!cutune_objective_is_time(h->objective)) {
            /* what best is best by: the objective, its direction, its value, constraints */
            cJSON *ob = cJSON_CreateObject(), *cons = NULL;
            double v;
            int feasible;
            cutune_objective_eval(h->objective, b, &v, &feasible);
            bad = bad || cutune_io_add(best, "objective", ob) < 0;
            bad = bad || cutune_io_add(ob, "text",
                                       cJSON_CreateString(cutune_objective_text(h->objective))) < 0;
            bad = bad || cutune_io_add(ob, "expr",
                                       cJSON_CreateString(cutune_objective_expr(h->objective))) < 0;
            bad = bad ||
                  cutune_io_add(ob, "direction",
                                cJSON_CreateString(
                                    cutune_objective_maximize(h->objective) ? "max" : "min")) < 0;
            bad = bad || cutune_io_add(ob, "value", cutune_io_number_json(v)) < 0;
            bad = bad || cutune_io_add(ob, "subject_to", cons = cJSON_CreateArray()) < 0;
            for (size_t c = 0; !bad && c < cutune_objective_nconstraints(h->objective); c++) {
                cJSON *x = cJSON_CreateString(cutune_objective_constraint(h->objective, c));
                bad = !x || !cJSON_AddItemToArray(cons, x);
                if (bad)
                    cJSON_Delete(x);
            }
        }
    } else {
        bad = bad || cutune_io_add(doc, "best", cJSON_CreateNull()) < 0;
    }
    if (h->confirm && h->confirm->winner >= 0) {
        /* the winner among the configurations measured again, then every one of them */
        const cutune_confirm_result *c = h->confirm;
        cJSON *co = cJSON_CreateObject(), *all = NULL;
        bad = bad || cutune_io_add(doc, "confirmed", co) < 0;
        bad = bad || cutune_io_add(co, "winner", confirm_entry_json(s, &c->e[c->winner])) < 0;
        bad = bad || cutune_io_add(co, "rounds", cJSON_CreateNumber((double)c->rounds)) < 0;
        bad = bad || cutune_io_add(co, "simulated", cJSON_CreateBool(c->simulated)) < 0;
        bad = bad || cutune_io_add(co, "rule",
                                   cJSON_CreateString("among those whose 95% interval overlaps "
                                                      "the best mean's: fewer registers, then "
                                                      "lower energy_j, then lower id")) < 0;
        bad = bad || cutune_io_add(co, "measured", all = cJSON_CreateArray()) < 0;
        for (size_t i = 0; !bad && i < c->n; i++) {
            cJSON *x = confirm_entry_json(s, &c->e[i]);
            bad = !x || !cJSON_AddItemToArray(all, x);
            if (bad)
                cJSON_Delete(x);
        }
    }
    bad = bad || cutune_io_add(doc, "evaluations", cJSON_CreateNumber((double)h->n)) < 0;
    /* answered from the tuning database, not measured again (docs/database.md) */
    bad = bad || cutune_io_add(doc, "reused", cJSON_CreateNumber((double)h->reused)) < 0;
    bad = bad || cutune_io_add(doc, "counts", counts = cJSON_CreateObject()) < 0;
    for (int st = 0; !bad && st < CUTUNE_STATUS_COUNT; st++)
        bad = cutune_io_add(counts, cutune_status_name((cutune_status)st),
                            cJSON_CreateNumber((double)h->counts[st])) < 0;
    bad = bad ||
          cutune_io_add(doc, "stop_reason",
                        stop_reason ? cJSON_CreateString(stop_reason) : cJSON_CreateNull()) < 0;
    bad = bad || cutune_io_add(doc, "spec",
                               spec && spec->name ? cJSON_CreateString(spec->name)
                                                  : cJSON_CreateNull()) < 0;
    bad = bad ||
          cutune_io_add(doc, "space_size", cJSON_CreateNumber((double)cutune_space_size(s))) < 0;
    if (bad)
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    else
        rc = cutune_io_write_json(path, doc, 1, err, errlen);
    cJSON_Delete(doc);
    return rc;
}

/* --------------------------------------------------------------------- CSV */

/* Append a CSV field (a comma before it unless first; cutune_csv_text quotes it when
 * needed). */
static void csv_field(FILE *f, const char *text, int first)
{
    if (!first)
        fputc(',', f);
    cutune_csv_text(f, text, 0);
}

static void csv_number(FILE *f, double x)
{
    char text[64];
    cutune_io_format_real(x, text, sizeof text);
    csv_field(f, text, 0);
}

/* Close an export built in an open_memstream buffer and write it to path
 * atomically. *f is closed (and set NULL) whatever happens; *buf stays the
 * caller's to free. */
int cutune_io_commit_memstream(FILE **f, char **buf, size_t *len, const char *path, char *err,
                               size_t errlen)
{
    int closed = fclose(*f);
    *f = NULL;
    if (closed != 0)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    return cutune_io_write_atomic(path, *buf, *len, err, errlen);
}

/* The CSV's fixed columns; a parameter or spec metric of one of these names would make two
 * columns one name. */
static const char *const csv_fixed[] = {"n", "status", "time_ms"};

int cutune_export_csv_check(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                            char *err, size_t errlen)
{
    size_t np = cutune_space_nparams(s), nspec = spec ? spec->nmetrics : 0;
    for (size_t c = 0; c < np + nspec; c++) {
        const char *name = c < np ? cutune_space_param(s, c)->name : spec->metrics[c - np].name;
        for (size_t k = 0; k < sizeof csv_fixed / sizeof csv_fixed[0]; k++)
            if (strcmp(name, csv_fixed[k]) == 0)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "%s: %s '%s' has the name of a CSV column of its own (n, "
                                  "status, time_ms): rename it, or write --journal or --t4",
                                  path, c < np ? "parameter" : "metric", name);
        for (size_t d = np; d < c; d++)
            if (strcmp(name, spec->metrics[d - np].name) == 0)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "%s: metric '%s' has the name of another column", path, name);
        if (c >= np)
            for (size_t p = 0; p < np; p++)
                if (strcmp(name, cutune_space_param(s, p)->name) == 0)
                    return cutune_err(err, errlen, CUTUNE_EINVAL,
                                      "%s: metric '%s' has the name of a parameter: rename it",
                                      path, name);
    }
    return 0;
}

/* Is name one of the CSV's fixed or parameter columns? */
static int csv_taken(const cutune_space *s, const char *name)
{
    for (size_t k = 0; k < sizeof csv_fixed / sizeof csv_fixed[0]; k++)
        if (strcmp(name, csv_fixed[k]) == 0)
            return 1;
    for (size_t p = 0; p < cutune_space_nparams(s); p++)
        if (strcmp(name, cutune_space_param(s, p)->name) == 0)
            return 1;
    return 0;
}

int cutune_export_csv(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                      const cutune_history *h, char *err, size_t errlen)
{
    int rc = cutune_io_export_check(path, s, h, err, errlen);
    if (rc >= 0)
        rc = cutune_export_csv_check(path, s, spec, err, errlen);
    char *buf = NULL;
    size_t len = 0;
    const char **names = NULL; /* evaluator metric columns, in order of first appearance */
    size_t nnames = 0;
    FILE *f = NULL;

    if (rc < 0)
        return rc;
    names = calloc(h->n * CUTUNE_MAX_METRICS + 1, sizeof *names);
    f = open_memstream(&buf, &len);
    if (!names || !f) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
        goto out_free;
    }
    for (size_t i = 0; i < h->n; i++)
        for (size_t m = 0; m < h->e[i].r.nmetrics; m++) {
            const char *nm = h->e[i].r.metrics[m].name;
            size_t k = 0;
            while (k < nnames && strcmp(names[k], nm) != 0)
                k++;
            if (k == nnames)
                names[nnames++] = nm;
        }
    size_t np = cutune_space_nparams(s), nspec = spec ? spec->nmetrics : 0;
    csv_field(f, "n", 1);
    for (size_t p = 0; p < np; p++)
        csv_field(f, cutune_space_param(s, p)->name, 0);
    csv_field(f, "status", 0);
    csv_field(f, "time_ms", 0);
    /* an evaluator metric named as an earlier column, or as a spec metric, is written as
     * "metric:NAME": one name per column, and nothing left out */
    for (size_t k = 0; k < nnames; k++) {
        int taken = csv_taken(s, names[k]);
        for (size_t m = 0; !taken && m < nspec; m++)
            taken = strcmp(names[k], spec->metrics[m].name) == 0;
        if (taken) {
            char col[64];
            snprintf(col, sizeof col, "metric:%s", names[k]);
            csv_field(f, col, 0);
        } else
            csv_field(f, names[k], 0);
    }
    for (size_t m = 0; m < nspec; m++)
        csv_field(f, spec->metrics[m].name, 0);
    fputc('\n', f);
    for (size_t i = 0; i < h->n; i++) {
        const cutune_history_entry *e = &h->e[i];
        const uint16_t *idx = cutune_space_config(s, e->id);
        char text[64];
        snprintf(text, sizeof text, "%zu", i);
        csv_field(f, text, 1);
        for (size_t p = 0; p < np; p++) {
            const cutune_param *par = cutune_space_param(s, p);
            csv_field(f, par->texts[idx[p]], 0);
        }
        csv_field(f, cutune_status_name(e->r.status), 0);
        csv_number(f, e->r.status == CUTUNE_STATUS_OK ? e->r.time_ms : NAN);
        for (size_t k = 0; k < nnames; k++) {
            double x = NAN;
            for (size_t m = 0; m < e->r.nmetrics; m++)
                if (strcmp(e->r.metrics[m].name, names[k]) == 0)
                    x = e->r.metrics[m].value;
            csv_number(f, x);
        }
        for (size_t m = 0; m < nspec; m++)
            csv_number(f, e->spec_metrics ? e->spec_metrics[m] : NAN);
        fputc('\n', f);
    }
    rc = cutune_io_commit_memstream(&f, &buf, &len, path, err, errlen);
out_free:
    if (f)
        fclose(f);
    free(buf);
    free(names);
    return rc;
}

/* ---------------------------------------------------------------- C header */

/*
 * The header is C that a build includes: it holds only what is proved to be a C token
 * (docs/hardening.md). Names are C identifiers (the header's own name may also hold '-'
 * and '.', spec names being file stems, which become '_' in its guard); values are
 * integers, finite reals, and strings made of identifiers and numbers separated by single
 * spaces ("float", "unsigned int", "1.5f"). Anything else is refused, naming
 * what and why: never escaped into something the tuned kernel did not see.
 */

static int ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int ident_char(unsigned char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

/* Length of the C identifier at s (0: none); "defined" is not one the preprocessor takes. */
static size_t ident_len(const char *s)
{
    size_t n = 0;
    if (!ident_start((unsigned char)s[0]))
        return 0;
    while (ident_char((unsigned char)s[n]))
        n++;
    return n == 7 && strncmp(s, "defined", 7) == 0 ? 0 : n;
}

/* Why a #define may not take name, an identifier (NULL: it may): a keyword of C11 or of
 * C++ (CUDA is C++; C++'s alternative tokens such as "and" cannot be macro names there),
 * whose every use after the header would become the value, or a name reserved to the
 * implementation ("__x", "_X": the predefined macros __LINE__, __STDC__, ...). */
const char *cutune_export_header_name_reserved(const char *name)
{
    /* C11's and C++20's keywords, C++'s alternative tokens; a space before and after each */
    static const char keywords[] =
        " "
        "alignas alignof and and_eq asm auto bitand bitor bool break case catch char "
        "char8_t char16_t char32_t class co_await co_return co_yield compl concept "
        "const const_cast consteval constexpr constinit continue decltype default "
        "delete do double dynamic_cast else enum explicit export extern false float "
        "for friend goto if inline int long mutable namespace new noexcept not not_eq "
        "nullptr operator or or_eq private protected public register reinterpret_cast "
        "requires restrict return short signed sizeof static static_assert static_cast "
        "struct switch template this thread_local throw true try typedef typeid "
        "typename union unsigned using virtual void volatile wchar_t while xor xor_eq ";
    size_t n = strlen(name);
    if (name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z')))
        return "reserved to the C implementation (it begins with __ or _ and a capital, as "
               "the predefined macros __LINE__, __STDC__, ... do)";
    for (const char *k = n && !strchr(name, ' ') ? strstr(keywords, name) : NULL; k;
         k = strstr(k + 1, name))
        if (k[-1] == ' ' && k[n] == ' ')
            return "a keyword of C or C++";
    return NULL;
}

/* Length of the decimal integer or floating constant at s, an optional '-' first (as the
 * space prints numbers: 32, -4, 0.5, 1e-05, 500.0); 0: none. */
static size_t number_len(const char *s)
{
    size_t n = strspn(s, "0123456789.eE+-");
    char buf[64], *end;
    if (n == 0 || n >= sizeof buf)
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    const char *d = buf[0] == '-' ? buf + 1 : buf;
    if (!(isdigit((unsigned char)d[0]) || (d[0] == '.' && isdigit((unsigned char)d[1]))))
        return 0;
    errno = 0;
    double x = strtod(buf, &end);
    return *end == '\0' && isfinite(x) ? n : 0;
}

/* Whether text may stand bare after #define NAME: tokens (identifiers, numbers with an
 * optional f/l/u suffix: 1.5f, 10u) separated by single spaces. */
static int safe_tokens(const char *text)
{
    const char *p = text;
    if (!*p)
        return 0;
    for (;;) {
        size_t n = ident_len(p);
        if (!n && (n = number_len(p)) > 0)
            n += strspn(p + n, "fFlLuU") <= 3 ? strspn(p + n, "fFlLuU") : 0;
        if (!n)
            return 0;
        p += n;
        if (!*p)
            return 1;
        if (*p != ' ' || p[1] == ' ' || !p[1])
            return 0;
        p++;
    }
}

/* text for a message: control characters and quotes escaped, cut at 40 characters. */
static void shown(const char *text, char *out, size_t len)
{
    size_t k = 0;
    for (const char *c = text; *c && k + 8 < len; c++) {
        unsigned char u = (unsigned char)*c;
        if ((size_t)(c - text) >= 40) {
            k += (size_t)snprintf(out + k, len - k, "...");
            break;
        }
        if (u == '\n')
            k += (size_t)snprintf(out + k, len - k, "\\n");
        else if (u == '"' || u == '\\')
            k += (size_t)snprintf(out + k, len - k, "\\%c", u);
        else if (u < 0x20 || u == 0x7f)
            k += (size_t)snprintf(out + k, len - k, "\\x%02x", u);
        else
            out[k++] = (char)u;
    }
    out[k < len ? k : len - 1] = '\0';
}

/* The name the header is named after: the spec's, else the given one, else "kernel". */
static const char *header_name(const struct cutune_spec *spec, const char *kname)
{
    return spec && spec->name ? spec->name : kname && *kname ? kname : "kernel";
}

int cutune_export_header_check(const char *path, const cutune_space *s,
                               const struct cutune_spec *spec, const char *kname, char *err,
                               size_t errlen)
{
    char text[200];
    const char *name = header_name(spec, kname);
    if (!path || !s)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "export: no path or space");
    if (!ident_start((unsigned char)name[0]) || strspn(name, "abcdefghijklmnopqrstuvwxyz"
                                                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789_-.") != strlen(name)) {
        shown(name, text, sizeof text);
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: the header's name \"%s\" is not a C identifier (letters, digits, "
                          "'_', and '-' or '.' after the first): the header is not written",
                          path, text);
    }
    for (size_t p = 0; p < cutune_space_nparams(s); p++) {
        const char *pn = cutune_space_param(s, p)->name;
        if (ident_len(pn) != strlen(pn)) {
            shown(pn, text, sizeof text);
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: parameter name \"%s\" is not a C identifier a #define can "
                              "take: the header is not written",
                              path, text);
        }
        const char *why = cutune_export_header_name_reserved(pn);
        if (why)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: parameter name \"%s\" is %s, which no #define may take (every "
                              "later use would become the value): the header is not written",
                              path, pn, why);
    }
    return 0;
}

int cutune_export_header(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                         const char *kname, const cutune_history *h, char *err, size_t errlen)
{
    int rc = cutune_io_export_check(path, s, h, err, errlen);
    char *buf = NULL, tms[64], text[200];
    size_t len = 0;
    FILE *f = NULL;

    if (rc < 0)
        return rc;
    if ((rc = cutune_export_header_check(path, s, spec, kname, err, errlen)) < 0)
        return rc;
    const cutune_history_entry *b = header_entry(h);
    if (!b)
        return cutune_err(err, errlen, CUTUNE_EEMPTY,
                          "%s: no successful evaluation: no best configuration to export", path);
    const uint16_t *idx = cutune_space_config(s, b->id);
    for (size_t p = 0; p < cutune_space_nparams(s); p++) {
        const cutune_param *par = cutune_space_param(s, p);
        const cutune_value *v = &par->values[idx[p]];
        const char *t = par->texts[idx[p]];
        int ok = v->type == CUTUNE_VALUE_STRING ? safe_tokens(t) : number_len(t) == strlen(t);
        if (!ok) {
            shown(t, text, sizeof text);
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: %s = \"%s\" in the best configuration is not a C identifier "
                              "or number (a header holds only those): the header is not written",
                              path, par->name, text);
        }
    }
    const char *name = header_name(spec, kname);
    cutune_io_format_real(b->r.time_ms, tms, sizeof tms);
    f = open_memstream(&buf, &len);
    if (!f)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    fprintf(f, "/* Best configuration of %s found by cutune %s: %s ms", name, CUTUNE_VERSION, tms);
    if (spec && spec->hash[0] && strspn(spec->hash, "0123456789abcdef") == strlen(spec->hash))
        fprintf(f, " (spec hash %s)", spec->hash);
    if (h->confirm && h->confirm->winner >= 0) {
        const cutune_confirm_entry *w = &h->confirm->e[h->confirm->winner];
        char lo[64], hi[64], mean[64];
        cutune_io_format_real(w->mean, mean, sizeof mean);
        cutune_io_format_real(w->lo, lo, sizeof lo);
        cutune_io_format_real(w->hi, hi, sizeof hi);
        /* the confirmation measures the run's objective: ms only when that is time */
        if (!h->objective || cutune_objective_is_time(h->objective) ||
            strcmp(cutune_objective_text(h->objective), "time") == 0)
            fprintf(f, ";\n * confirmed over %zu rounds: mean %s ms, 95%% CI [%s, %s]", w->n, mean,
                    lo, hi);
        else
            fprintf(
                f, ";\n * confirmed over %zu rounds: mean %s of the objective %s, 95%% CI [%s, %s]",
                w->n, mean, cutune_objective_text(h->objective), lo, hi);
    }
    fprintf(f, ".\n * Generated file: re-run the tuner rather than edit it. */\n");
    /* the guard: CUTUNE_TUNED_<NAME>_H, upper-cased, '-' and '.' as '_' */
    fputs("#ifndef ", f);
    for (int twice = 0; twice < 2; twice++) {
        fputs("CUTUNE_TUNED_", f);
        for (const char *c = name; *c; c++)
            fputc(ident_char((unsigned char)*c) ? toupper((unsigned char)*c) : '_', f);
        fputs(twice ? "_H\n\n" : "_H\n#define ", f);
    }
    for (size_t p = 0; p < cutune_space_nparams(s); p++) {
        const cutune_param *par = cutune_space_param(s, p);
        /* bare, as Kernel Tuner passes them (-DNAME=value): checked above */
        fprintf(f, "#define %s %s\n", par->name, par->texts[idx[p]]);
    }
    fputs("\n#endif /* CUTUNE_TUNED_", f);
    for (const char *c = name; *c; c++)
        fputc(ident_char((unsigned char)*c) ? toupper((unsigned char)*c) : '_', f);
    fputs("_H */\n", f);
    rc = cutune_io_commit_memstream(&f, &buf, &len, path, err, errlen);
    free(buf);
    return rc;
}
