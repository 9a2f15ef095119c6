/* Nsight Compute's CSV (`ncu --csv`): the metrics of the first kernel profiled.
 *
 * Two layouts exist. `--page raw` prints a header row ("ID","Process ID",...,"Kernel
 * Name",..., then one column per metric), a row of units, and a row per kernel launch.
 * `--page details` (the default) prints a row per metric: ...,"Section Name","Metric
 * Name","Metric Unit","Metric Value". ncu's own lines (==PROF==, ==WARNING==) come first.
 * Values are text such as "1,234.56" or "n/a". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/report.h"

#define MAX_FIELDS 4096

/* Split one CSV line (RFC 4180 quoting) into fields, in place; returns the count. */
static size_t split_csv(char *line, char **fields, size_t max)
{
    size_t n = 0;
    char *p = line;
    while (n < max) {
        char *out = p, *start = p;
        if (*p == '"') {
            p++;
            for (;;) {
                if (*p == '"' && p[1] == '"') {
                    *out++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else if (!*p) {
                    break;
                } else {
                    *out++ = *p++;
                }
            }
            while (*p && *p != ',')
                p++;
        } else {
            while (*p && *p != ',')
                out = ++p;
        }
        char sep = *p;
        *out = '\0';
        fields[n++] = start;
        if (sep != ',')
            break;
        p++;
    }
    return n;
}

/* "1,234.5" -> 1234.5; NAN for text that is no number ("n/a", ""). */
static double parse_value(const char *s)
{
    char buf[128];
    size_t k = 0;
    for (; *s && k + 1 < sizeof buf; s++)
        if (*s != ',' && *s != ' ')
            buf[k++] = *s;
    buf[k] = '\0';
    if (!k)
        return NAN;
    char *end;
    double v = strtod(buf, &end);
    return *end ? NAN : v;
}

void cutune_report_profile_entry_clear(cutune_report_profile_entry *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->nvalues; i++) {
        free(e->names[i]);
        free(e->units[i]);
    }
    free(e->names);
    free(e->units);
    free(e->values);
    free(e->role);
    free(e->config);
    memset(e, 0, sizeof *e);
}

static int add_metric(cutune_report_profile_entry *e, const char *name, const char *unit, double v)
{
    for (size_t i = 0; i < e->nvalues; i++)
        if (strcmp(e->names[i], name) == 0)
            return 0; /* the first value of a metric listed twice */
    char **n = realloc(e->names, (e->nvalues + 1) * sizeof *n);
    if (!n)
        return -1;
    e->names = n;
    char **u = realloc(e->units, (e->nvalues + 1) * sizeof *u);
    if (!u)
        return -1;
    e->units = u;
    double *val = realloc(e->values, (e->nvalues + 1) * sizeof *val);
    if (!val)
        return -1;
    e->values = val;
    n[e->nvalues] = strdup(name);
    u[e->nvalues] = strdup(unit ? unit : "");
    if (!n[e->nvalues] || !u[e->nvalues]) {
        free(n[e->nvalues]);
        free(u[e->nvalues]);
        return -1;
    }
    val[e->nvalues++] = v;
    return 0;
}

static int column(char **fields, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(fields[i], name) == 0)
            return (int)i;
    return -1;
}

int cutune_report_ncu_parse(const char *name, const char *csv, size_t len,
                            cutune_report_profile_entry *entry, char *err, size_t errlen)
{
    memset(entry, 0, sizeof *entry);
    char *text = malloc(len + 1);
    char **hdr = malloc(MAX_FIELDS * sizeof *hdr);
    char **units = malloc(MAX_FIELDS * sizeof *units);
    char **row = malloc(MAX_FIELDS * sizeof *row);
    int rc = 0;
    char *first_id = NULL, *units_line = NULL;
    if (!text || !hdr || !units || !row) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    memcpy(text, csv, len);
    text[len] = '\0';
    size_t nhdr = 0, nunits = 0, lineno = 0, header_line = 0;
    int raw = 0, id_col = -1, name_col = -1, unit_col = -1, value_col = -1;
    int have_units = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        size_t l = strlen(line);
        if (l && line[l - 1] == '\r')
            line[--l] = '\0';
        if (!nhdr) {
            if (strncmp(line, "\"ID\",", 5) != 0)
                continue; /* ==PROF== and other tool lines */
            nhdr = split_csv(line, hdr, MAX_FIELDS);
            header_line = lineno;
            name_col = column(hdr, nhdr, "Metric Name");
            unit_col = column(hdr, nhdr, "Metric Unit");
            value_col = column(hdr, nhdr, "Metric Value");
            id_col = column(hdr, nhdr, "ID");
            raw = name_col < 0 || value_col < 0;
            continue;
        }
        if (!l || line[0] == '=')
            continue;
        if (raw && !have_units) { /* the units row: its ID cell is empty */
            have_units = 1;
            if (!(units_line = strdup(line))) {
                rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
                goto out;
            }
            nunits = split_csv(units_line, units, MAX_FIELDS);
            if (nunits && units[0][0] == '\0')
                continue;
            nunits = 0; /* no units row: this one is data */
        }
        size_t n = split_csv(line, row, MAX_FIELDS);
        if (n != nhdr) {
            rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                            "%s:%zu: %zu fields where the header (line %zu) has %zu", name, lineno,
                            n, header_line, nhdr);
            goto out;
        }
        if (id_col >= 0) {
            if (!first_id && !(first_id = strdup(row[id_col]))) {
                rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
                goto out;
            }
            if (strcmp(first_id, row[id_col]) != 0)
                break; /* a second kernel launch: the first one is the configuration's */
        }
        if (raw) {
            for (size_t c = 0; c < n; c++)
                if (strstr(hdr[c], "__") && add_metric(entry, hdr[c], c < nunits ? units[c] : "",
                                                       parse_value(row[c])) < 0) {
                    rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
                    goto out;
                }
            break; /* one row per kernel in the raw page */
        }
        if (add_metric(entry, row[name_col], unit_col >= 0 ? row[unit_col] : "",
                       parse_value(row[value_col])) < 0) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            goto out;
        }
    }
    if (!nhdr)
        rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                        "%s: no ncu CSV header (a line starting \"ID\",) found", name);
    else if (!entry->nvalues)
        rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                        "%s:%zu: the header names no metric, or no kernel row follows it", name,
                        header_line);
out:
    free(first_id);
    free(units_line);
    if (rc < 0)
        cutune_report_profile_entry_clear(entry);
    free(text);
    free(hdr);
    free(units);
    free(row);
    return rc;
}

int cutune_report_ncu_stall_reason(const char *metric, char *buf, size_t len)
{
    static const char *const forms[][2] = {
        {"smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"},
        {"smsp__pcsamp_warps_issue_stalled_", ""},
    };
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        size_t pl = strlen(forms[k][0]), sl = strlen(forms[k][1]), n = strlen(metric);
        if (n > pl + sl && strncmp(metric, forms[k][0], pl) == 0 &&
            strcmp(metric + n - sl, forms[k][1]) == 0) {
            snprintf(buf, len, "%.*s", (int)(n - pl - sl), metric + pl);
            buf[strcspn(buf, ".")] = '\0'; /* the sampling counter's ".sum" */
            /* the sampling form has _not_issued twins: the reasons are the issued-or-not sum */
            return strstr(buf, "not_issued") == NULL || k == 0 ? (int)k + 1 : 0;
        }
    }
    return 0;
}
