/* `cutune report JOURNAL|RUN... [--html=FILE] [--text]`: a journal (or every journal in a
 * run folder) as one self-contained HTML page, or parameter importance on the terminal. */
#include <dirent.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "options.h"
#include "cutune/report.h"

#define MAX_RUNS 256

static void usage(FILE *f)
{
    fprintf(f, "usage: cutune report [--html=FILE] [--text] [--title=TEXT] JOURNAL|RUN...\n"
               "\n"
               "Explain tuning runs. JOURNAL is a run's journal (.jsonl, or .jsonl.gz such as\n"
               "data/gemm.jsonl.gz); RUN a folder, whose journals (*.jsonl, *.jsonl.gz) are all\n"
               "read. Several journals overlay in the convergence plots; those with the first\n"
               "one's parameters are pooled for the rest. A journal's profiles (JOURNAL.profile/,\n"
               "written by `cutune profile`) are shown with it.\n"
               "\n"
               "  --html=FILE   write the page here (default: the first argument's name, a\n"
               "                journal's less .jsonl or .jsonl.gz, with .html, in the current\n"
               "                folder); one file: inline SVG and script, nothing fetched, opens\n"
               "                from disk\n"
               "  --text        print the parameter importance instead (no page unless --html)\n"
               "  --title=TEXT  the page's title (with --text, only beside --html: no page else)\n"
               "  -h, --help    this help\n"
               "\n"
               "Exit status: 0 written, 1 failed to write, 2 bad input or a\n"
               "page path that cannot be created.\n");
}

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n > k && strcmp(s + n - k, suf) == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder's journals, sorted by name, appended to paths. */
static int add_folder(const char *dir, char **paths, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cutune report: %s: cannot open the folder\n", dir);
        return -1;
    }
    size_t first = *n;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' ||
            !(has_suffix(de->d_name, ".jsonl") || has_suffix(de->d_name, ".jsonl.gz")))
            continue;
        if (*n >= MAX_RUNS) {
            fprintf(stderr, "cutune report: %s: more than %d journals\n", dir, MAX_RUNS);
            rc = -1;
            break;
        }
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        if (!(paths[*n] = malloc(len))) {
            fprintf(stderr, "cutune report: out of memory\n");
            rc = -1;
            break;
        }
        snprintf(paths[*n], len, "%s/%s", dir, de->d_name);
        (*n)++;
    }
    closedir(d);
    if (!rc && *n == first) {
        fprintf(stderr, "cutune report: %s: no journal (*.jsonl, *.jsonl.gz) in the folder\n", dir);
        rc = -1;
    }
    qsort(paths + first, *n - first, sizeof *paths, by_name);
    return rc;
}

static int default_html(const char *journal, char *buf, size_t len)
{
    const char *base = strrchr(journal, '/');
    base = base ? base + 1 : journal;
    size_t n = strlen(base);
    if (has_suffix(base, ".jsonl.gz"))
        n -= 9;
    else if (has_suffix(base, ".jsonl"))
        n -= 6;
    /* in the current folder: a shipped recording's folder may not be writable */
    int w = snprintf(buf, len, "%.*s.html", (int)n, base);
    return w > 0 && (size_t)w < len ? 0 : -1;
}

int cutune_cmd_report(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"html", required_argument, NULL, 'o'},
        {"text", no_argument, NULL, 't'},
        {"title", required_argument, NULL, 'T'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *html = NULL, *title = NULL;
    int text = 0, c, status = 2;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", longopts)) != -1) {
        switch (c) {
        case 'o': html = optarg; break;
        case 't': text = 1; break;
        case 'T': title = optarg; break;
        case 'h': usage(stdout); return 0;
        default: return 2; /* said in one line by cli_getopt */
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "cutune report: expected a JOURNAL or RUN folder (try --help)\n");
        return 2;
    }
    if (html && !*html) {
        fprintf(stderr, "cutune report: --html=: empty path\n");
        return 2;
    }
    if (title && text && !html) { /* --text alone writes no page for the title to head */
        fprintf(stderr, "cutune report: --title: --text without --html writes no page, and the "
                        "importance it prints has no title (give --html=FILE for a page)\n");
        return 2;
    }
    char *paths[MAX_RUNS];
    size_t npaths = 0, nruns = 0;
    cutune_report_run *runs[MAX_RUNS];
    cutune_report_profile *profiles[MAX_RUNS] = {0};
    char err[1024] = "";
    for (int i = optind; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (add_folder(argv[i], paths, &npaths) < 0)
                goto out;
        } else if (npaths >= MAX_RUNS) {
            fprintf(stderr, "cutune report: more than %d journals\n", MAX_RUNS);
            goto out;
        } else if (!(paths[npaths++] = strdup(argv[i]))) {
            npaths--;
            fprintf(stderr, "cutune report: out of memory\n");
            goto out;
        }
    }
    /* the page: --html, or without --text one named after the first argument (a journal's
     * stem, or a folder's name); never one of the journals it reports */
    char def[4096];
    const int given = html != NULL;
    if (!text && !html) {
        char first[4096];
        snprintf(first, sizeof first, "%s", argv[optind]);
        size_t fl = strlen(first);
        while (fl > 1 && first[fl - 1] == '/')
            first[--fl] = '\0';
        /* a folder named by "." or "..": the page takes the folder's own name */
        const char *last = strrchr(first, '/');
        last = last ? last + 1 : first;
        char real[PATH_MAX];
        if ((strcmp(last, ".") == 0 || strcmp(last, "..") == 0) && realpath(first, real)) {
            const char *rb = strrchr(real, '/');
            snprintf(first, sizeof first, "%s", rb && rb[1] ? rb + 1 : "root");
        }
        if (default_html(first, def, sizeof def) < 0) {
            fprintf(stderr, "cutune report: %s: name too long\n", first);
            goto out;
        }
        html = def;
    }
    for (size_t i = 0; html && i < npaths; i++)
        if (cutune_path_same(html, paths[i])) {
            if (given)
                fprintf(stderr,
                        "cutune report: --html=%s: is a journal being reported; choose another "
                        "path\n",
                        html);
            else
                fprintf(stderr,
                        "cutune report: %s (the default page) is a journal being reported; "
                        "give --html=FILE\n",
                        html);
            goto out;
        }
    for (size_t i = 0; i < npaths; i++) {
        if (cutune_report_run_load(paths[i], &runs[nruns], err, sizeof err) < 0) {
            cli_not_a_journal("report", paths[i], err, sizeof err);
            fprintf(stderr, "cutune report: %s\n", err);
            goto out;
        }
        if (runs[nruns]->dropped_tail)
            fprintf(stderr,
                    "cutune report: %s: its last line ends without a newline (cut off "
                    "mid-write): left out\n",
                    paths[i]);
        nruns++;
        char dir[4096];
        if (cutune_report_profile_dir(paths[i], dir, sizeof dir) == 0) {
            int rc = cutune_report_profile_load(dir, &profiles[i], err, sizeof err);
            if (rc < 0 && rc != CUTUNE_ENOTFOUND) {
                fprintf(stderr, "cutune report: %s\n", err);
                goto out;
            }
        }
    }
    status = 1;
    if (html) {
        cutune_outfile *o = NULL;
        if (cutune_outfile_open(html, 0, 0644, &o, err, sizeof err) < 0) {
            fprintf(stderr, "cutune report: --html=%s: %s\n", html, err);
            status = 2;
            goto out;
        }
        FILE *f = cutune_outfile_stream(o);
        cutune_report_page_opts po = {.title = title};
        if (!f || cutune_report_html_write(f, runs, nruns, profiles, &po, err, sizeof err) < 0) {
            /* a write that failed: the commit names the page and the reason, and removes
             * the temporary */
            if (f && ferror(f) && cutune_outfile_commit(o, NULL, err, sizeof err) < 0) {
                fprintf(stderr, "cutune report: %s\n", err);
                goto out;
            }
            fprintf(stderr, "cutune report: %s\n", f ? err : "out of memory");
            cutune_outfile_abort(o);
            goto out;
        }
        if (cutune_outfile_commit(o, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "cutune report: %s\n", err);
            goto out;
        }
    }
    /* the text after the page: a reader that stops early (| head, a closed pipe: SIGPIPE)
     * must not cost the page asked for */
    if (text && cutune_report_text_write(stdout, runs, nruns, err, sizeof err) < 0) {
        fprintf(stderr, "cutune report: %s\n", err);
        goto out;
    }
    if (html)
        printf("report: %s\n", html);
    /* standard output is checked as cutune exits (main.c): one line, exit 1 */
    status = 0;
out:
    for (size_t i = 0; i < nruns; i++)
        cutune_report_run_free(runs[i]);
    for (size_t i = 0; i < npaths; i++) {
        cutune_report_profile_free(profiles[i]);
        free(paths[i]);
    }
    return status;
}
