/* cutune bench --reproduce: the restrictions the rerun searches under. The manifest records,
 * per recording, the expressions its space was restricted by and where they came from
 * (--restrict, or a restrictions file with its SHA-256). The rerun passes the recordings one
 * by one, so a restrictions file found beside their folder would not be found again: it is
 * given exactly the recorded expressions instead, as --restrict options or as a restrictions
 * file written into the output folder with one section per recording. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "cutune/bench.h"
#include "cutune/common.h"
#include "cutune/sha256.h"

#define REPRO_RESTRICTIONS_FILE "reproduce.restrictions"

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int malformed(const char *results, const char *why)
{
    fprintf(stderr, "cutune bench: --reproduce: %s: manifest.experiment.recordings: %s\n", results,
            why);
    return 2;
}

/* The restrictions file an entry names: present (path, else absolute path) and unchanged. */
static int check_file(const char *results, const cJSON *rs)
{
    const char *file = str_of(rs, "file"), *abs = str_of(rs, "abs_file"),
               *want = str_of(rs, "file_sha256");
    if (!file || !want)
        return malformed(results, "restrictions from a file lack file or file_sha256");
    struct stat st;
    const char *p = stat(file, &st) == 0 ? file : abs && stat(abs, &st) == 0 ? abs : NULL;
    if (!p) {
        fprintf(stderr,
                "cutune bench: --reproduce: restrictions file %s (SHA-256 %.16s...) is missing: "
                "neither %s nor %s exists\n",
                file, want, file, abs ? abs : "an absolute path");
        return 2;
    }
    char hex[65], err[512];
    if (cutune_sha256_file(p, hex, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "cutune bench: --reproduce: %s\n", err);
        return 2;
    }
    if (strcmp(hex, want) != 0) {
        fprintf(stderr,
                "cutune bench: --reproduce: restrictions file %s has SHA-256 %.16s..., the "
                "manifest's is %.16s...: not the restrictions %s was benchmarked under\n",
                p, hex, want, results);
        return 2;
    }
    return 0;
}

/* the expressions of an entry's restrictions, or NULL when none were known */
static const cJSON *exprs_of(const cJSON *r)
{
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(r, "restrictions");
    return cJSON_IsObject(rs) ? cJSON_GetObjectItemCaseSensitive(rs, "expressions") : NULL;
}

static int same_exprs(const cJSON *a, const cJSON *b)
{
    return (!a && !b) || (a && b && cJSON_Compare(a, b, 1));
}

/* a section header naming exactly label (fnmatch pattern, escaped) */
static void put_section(FILE *f, const char *label)
{
    fputc('[', f);
    for (const char *c = label; *c; c++) {
        if (strchr("*?[\\", *c))
            fputc('\\', f);
        fputc(*c, f);
    }
    fputs("]\n", f);
}

/* Write out_dir/reproduce.restrictions: a section for every recording whose restrictions
 * came from a file. labels[i] is recording i's label. */
static int write_file(const char *results, const cJSON *recs, char **labels, const char *out_dir,
                      char *path, size_t pathlen)
{
    char err[1024];
    snprintf(path, pathlen, "%s/%s", out_dir, REPRO_RESTRICTIONS_FILE);
    cutune_outfile *o = NULL;
    if (cutune_bench_prepare_dir(out_dir, err, sizeof err) < 0 ||
        cutune_outfile_open(path, 0, 0644, &o, err, sizeof err) < 0) {
        fprintf(stderr, "cutune bench: --reproduce: %s\n", err);
        return 1;
    }
    FILE *f = cutune_outfile_stream(o);
    if (!f) {
        cutune_outfile_abort(o);
        fprintf(stderr, "cutune bench: --reproduce: %s: cannot write\n", path);
        return 1;
    }
    fprintf(f, "# the restrictions of the recordings of %s, from its manifest\n", results);
    size_t n = (size_t)cJSON_GetArraySize(recs);
    for (size_t i = 0; i < n; i++) {
        const cJSON *ex = exprs_of(cJSON_GetArrayItem(recs, (int)i)), *e;
        size_t j = 0;
        while (j < i && strcmp(labels[j], labels[i]) != 0)
            j++;
        if (ex && j == i) { /* the first of its name (the others had the same restrictions) */
            put_section(f, labels[i]);
            cJSON_ArrayForEach(e, ex) fprintf(f, "%s\n", e->valuestring);
        }
    }
    if (cutune_outfile_commit(o, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "cutune bench: --reproduce: %s\n", err);
        return 1;
    }
    return 0;
}

int cutune_cli_bench_reproduce_restrictions(const char *results, const cJSON *recs,
                                            const char *out_dir, char **opts, int max, int *nopts)
{
    *nopts = 0;
    int nfile = 0, unrecorded = 0, status = 0;
    const cJSON *flag = NULL, *r, *e;
    size_t n = (size_t)cJSON_GetArraySize(recs), i = 0;
    char **labels = calloc(n ? n : 1, sizeof *labels);
    if (!labels)
        return 1;
    cJSON_ArrayForEach(r, recs)
    {
        const cJSON *rs = cJSON_GetObjectItemCaseSensitive(r, "restrictions");
        const char *path = str_of(r, "path");
        labels[i] = cutune_bench_recording_label(path ? path : "");
        if (!labels[i++]) {
            status = 1;
            goto out;
        }
        unrecorded += !rs;
        if (!rs || cJSON_IsNull(rs))
            continue; /* none known (or a manifest that predates recording them) */
        const char *from = str_of(rs, "from");
        const cJSON *ex = cJSON_GetObjectItemCaseSensitive(rs, "expressions");
        int ok = from && cJSON_IsArray(ex);
        cJSON_ArrayForEach(e, ex) ok &= cJSON_IsString(e) && !strchr(e->valuestring, '\n');
        if (!ok) {
            status = malformed(results, "restrictions lack from or expressions (strings)");
            goto out;
        }
        if (strcmp(from, "--restrict") == 0) {
            if (flag && !cJSON_Compare(flag, ex, 1)) {
                status = malformed(results, "--restrict differs between recordings");
                goto out;
            }
            flag = ex;
        } else if (strcmp(from, "file") == 0) {
            if ((status = check_file(results, rs)) != 0)
                goto out;
            nfile++;
        } else {
            status = malformed(results, "restrictions come neither from --restrict nor a file");
            goto out;
        }
    }
    if (unrecorded)
        fprintf(stderr,
                "cutune bench: --reproduce: %s records no restrictions for %d recording(s) (a "
                "manifest older than that field): they are rerun without restrictions\n",
                results, unrecorded);
    if (flag && nfile) {
        status = malformed(results, "restrictions from --restrict and from a file");
        goto out;
    }
    if (flag) {
        cJSON_ArrayForEach(e, flag)
        {
            char *opt = malloc(strlen(e->valuestring) + 16);
            if (!opt || *nopts >= max) {
                free(opt);
                status = 1;
                goto out;
            }
            sprintf(opt, "--restrict=%s", e->valuestring);
            opts[(*nopts)++] = opt;
        }
    }
    if (!nfile)
        goto out;
    /* one section per label: two recordings of one name must have had one space */
    for (size_t a = 0; a < n; a++) {
        int bad = exprs_of(cJSON_GetArrayItem(recs, (int)a)) && !*labels[a];
        for (const char *c = labels[a]; *c && exprs_of(cJSON_GetArrayItem(recs, (int)a)); c++)
            bad |= isspace((unsigned char)*c) || *c == ']';
        for (size_t b = 0; b < a && !bad; b++)
            if (strcmp(labels[a], labels[b]) == 0 &&
                !same_exprs(exprs_of(cJSON_GetArrayItem(recs, (int)a)),
                            exprs_of(cJSON_GetArrayItem(recs, (int)b)))) {
                fprintf(stderr,
                        "cutune bench: --reproduce: %s: two recordings named %s were benchmarked "
                        "under different restrictions; a rerun cannot tell them apart\n",
                        results, labels[a]);
                status = 2;
                goto out;
            }
        if (bad) {
            fprintf(stderr,
                    "cutune bench: --reproduce: recording name '%s' cannot head a restrictions "
                    "file section (blank, white space or ']')\n",
                    labels[a]);
            status = 2;
            goto out;
        }
    }
    char path[4200];
    if ((status = write_file(results, recs, labels, out_dir, path, sizeof path)) != 0)
        goto out;
    char *opt = malloc(strlen(path) + 20);
    if (!opt || *nopts >= max) {
        free(opt);
        status = 1;
        goto out;
    }
    sprintf(opt, "--restrictions=%s", path);
    opts[(*nopts)++] = opt;
out:
    for (size_t k = 0; k < n; k++)
        free(labels[k]);
    free(labels);
    if (status != 0) {
        for (int k = 0; k < *nopts; k++)
            free(opts[k]);
        *nopts = 0;
    }
    return status;
}
