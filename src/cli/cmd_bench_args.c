/* cutune bench's lists from its options: recordings (a folder's sorted files), budgets,
 * counts, searcher specs, a folder's restrictions file, and the command as results.md
 * quotes it. Each says what is wrong in one line on stderr. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_args.h"
#include "options.h"
#include "cutune/searcher.h"
#include "cutune_config.h"

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add path, or every *.json / *.json.gz of the folder path (sorted). */
int bench_add_recordings(const char *path, char **out, size_t *n)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        fprintf(stderr, "cutune bench: %s: no such file or folder\n", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        if (*n >= BENCH_MAX) {
            fprintf(stderr, "cutune bench: more than %d recordings\n", BENCH_MAX);
            return -1;
        }
        /* refused here, by what it is: the loader would say 'tune_params_keys: missing' */
        char err[1024];
        if (cli_spec_not_recording(path, err, sizeof err) < 0) {
            fprintf(stderr, "cutune bench: %s: bench replays recordings\n", err);
            return -1;
        }
        out[(*n)++] = strdup(path);
        return out[*n - 1] ? 0 : -1;
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "cutune bench: %s: cannot open folder\n", path);
        return -1;
    }
    size_t first = *n;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' ||
            !(has_suffix(e->d_name, ".json") || has_suffix(e->d_name, ".json.gz") ||
              has_suffix(e->d_name, ".jsonl") || has_suffix(e->d_name, ".jsonl.gz")))
            continue;
        if (*n >= BENCH_MAX) {
            fprintf(stderr, "cutune bench: more than %d recordings\n", BENCH_MAX);
            rc = -1;
            break;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *p = malloc(len);
        if (!p) {
            rc = -1;
            break;
        }
        snprintf(p, len, "%s/%s", path, e->d_name);
        out[(*n)++] = p;
    }
    closedir(d);
    if (rc == 0 && *n == first) {
        fprintf(stderr,
                "cutune bench: %s: no recording (*.json, *.json.gz, *.jsonl, *.jsonl.gz) in this "
                "folder\n",
                path);
        return -1;
    }
    qsort(out + first, *n - first, sizeof *out, cmp_str);
    return rc;
}

/* Split a comma-separated list of positive integers (at most BENCH_MAX_BUDGET each). */
int bench_parse_budgets(const char *text, size_t *out, size_t *n)
{
    *n = 0;
    const char *p = text;
    while (*p) {
        char *end;
        errno = 0;
        unsigned long v = isdigit((unsigned char)*p) ? strtoul(p, &end, 10) : 0;
        if (!isdigit((unsigned char)*p) || v == 0 || errno || (*end && *end != ',') ||
            (*end == ',' && !end[1]) || *n >= BENCH_MAX) { /* "20,": a budget left out? */
            fprintf(stderr, "cutune bench: --budgets: '%s' is not a list of positive integers\n",
                    text);
            return -1;
        }
        if (v > BENCH_MAX_BUDGET) {
            fprintf(stderr, "cutune bench: --budgets: %lu is above the limit of %d evaluations\n",
                    v, BENCH_MAX_BUDGET);
            return -1;
        }
        out[(*n)++] = v;
        p = *end ? end + 1 : end;
    }
    if (*n == 0) {
        fprintf(stderr, "cutune bench: --budgets is empty\n");
        return -1;
    }
    /* ascending, each once, as the runs are made: the manifest's identity is then one for
     * 20,40 and 40,20 */
    for (size_t i = 1; i < *n; i++)
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            size_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    size_t m = 0;
    for (size_t i = 0; i < *n; i++)
        if (m == 0 || out[i] != out[m - 1])
            out[m++] = out[i];
    *n = m;
    return 0;
}

int bench_parse_count(const char *opt, const char *text, unsigned long *out)
{
    char *end;
    errno = 0;
    /* digits only, as cli_parse_ulong: strtoul would take " 5" and "+5" */
    unsigned long v = strtoul(text, &end, 10);
    if (!isdigit((unsigned char)*text) || *end || errno) {
        fprintf(stderr, "cutune bench: %s: '%s' is not a non-negative integer\n", opt, text);
        return -1;
    }
    *out = v;
    return 0;
}

/* One searcher spec "NAME" or "NAME:ARGS" into type, args and label. */
int bench_add_searcher(const char *spec, const cutune_searcher_type **types, const char **args,
                       char **labels, size_t *n)
{
    char err[512];
    if (*n >= BENCH_MAX) {
        fprintf(stderr, "cutune bench: too many searchers\n");
        return -1;
    }
    for (size_t i = 0; i < *n; i++)
        if (strcmp(labels[i], spec) == 0) { /* two rows of one label in every table */
            fprintf(stderr, "cutune bench: searcher %s given twice\n", spec);
            return -1;
        }
    char *label = strdup(spec);
    if (!label)
        return -1;
    char *colon = strchr(label, ':');
    char name[128];
    size_t nl = colon ? (size_t)(colon - label) : strlen(label);
    snprintf(name, sizeof name, "%.*s", (int)nl, label);
    const cutune_searcher_type *t = cutune_searcher_find(name, err, sizeof err);
    if (!t) {
        fprintf(stderr, "cutune bench: %s\n", err);
        free(label);
        return -1;
    }
    if (cutune_searcher_validate(t, colon ? colon + 1 : NULL, err, sizeof err) < 0) {
        fprintf(stderr, "cutune bench: %s\n", err); /* now, not inside the first run */
        free(label);
        return -1;
    }
    types[*n] = t;
    args[*n] = colon ? colon + 1 : NULL;
    labels[*n] = label;
    (*n)++;
    return 0;
}

/* The restrictions file of a folder of recordings: FOLDER/restrictions, or for the optional
 * external data set (../shared/data/kt-caches, which is read-only) the source tree's
 * benchmarks/searchers/restrictions. Loaded into rfiles; its index, -1 when there is none
 * (or path is a file), -2 after an error (printed). */
long bench_folder_restrictions(const char *path, cutune_bench_restrictions **rfiles,
                               char **rfile_path, size_t *nrfiles)
{
    struct stat st;
    char cand[4200], real[4096], shared_real[4096], shared[4200];
    char err[1024];
    if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
        return -1;
    snprintf(cand, sizeof cand, "%s/restrictions", path);
    if (stat(cand, &st) < 0) {
        const char *env = getenv("CUTUNE_SHARED_DATA");
        if (env && *env)
            snprintf(shared, sizeof shared, "%s/kt-caches", env);
        else
            snprintf(shared, sizeof shared, "%s/../shared/data/kt-caches", CUTUNE_SOURCE_ROOT);
        if (!realpath(path, real) || !realpath(shared, shared_real) ||
            strcmp(real, shared_real) != 0)
            return -1;
        snprintf(cand, sizeof cand, "%s/benchmarks/searchers/restrictions", CUTUNE_SOURCE_ROOT);
        if (stat(cand, &st) < 0)
            return -1;
    }
    for (size_t i = 0; i < *nrfiles; i++)
        if (strcmp(rfile_path[i], cand) == 0)
            return (long)i;
    if (*nrfiles >= BENCH_MAX)
        return -1;
    if (cutune_bench_restrictions_load(cand, &rfiles[*nrfiles], err, sizeof err) < 0) {
        fprintf(stderr, "cutune bench: %s\n", err);
        return -2;
    }
    rfile_path[*nrfiles] = strdup(cand);
    if (!rfile_path[*nrfiles]) {
        cutune_bench_restrictions_free(rfiles[*nrfiles]);
        return -2;
    }
    return (long)(*nrfiles)++;
}

/* The command as results.md quotes it: the options that change results, not --jobs /
 * --out / --quiet (any thread count gives the same tables), each word quoted for a shell
 * where it needs it; an option's value given as the next word goes with it. NULL: out of
 * memory. */
char *bench_quoted_command(int argc, char **argv)
{
    size_t len = 64;
    for (int i = 1; i < argc; i++)
        len += 4 * strlen(argv[i]) + 3;
    char *command = malloc(len);
    if (!command)
        return NULL;
    strcpy(command, "cutune bench");
    char *w = command + strlen(command);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int takes_next = strcmp(a, "--jobs") == 0 || strcmp(a, "--out") == 0;
        if (strncmp(a, "--jobs", 6) == 0 || strncmp(a, "--out", 5) == 0 ||
            strcmp(a, "--quiet") == 0 || strcmp(a, "--no-plots") == 0 ||
            strcmp(a, "--per-seed") == 0) {
            i += takes_next;
            continue;
        }
        *w++ = ' ';
        int plain = *a != '\0';
        for (const char *ch = a; *ch && plain; ch++)
            plain = isalnum((unsigned char)*ch) || strchr("_./=:,@%+-", *ch);
        if (plain) {
            w += sprintf(w, "%s", a);
            continue;
        }
        *w++ = '\'';
        for (const char *ch = a; *ch; ch++)
            w += *ch == '\'' ? sprintf(w, "'\\''") : sprintf(w, "%c", *ch);
        *w++ = '\'';
        *w = '\0';
    }
    return command;
}
