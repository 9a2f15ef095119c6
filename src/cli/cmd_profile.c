/* `cutune profile JOURNAL [--top=N] [--worst=M]`: Nsight Compute on a run's best and worst
 * configurations, through the run's own compile path and inputs.
 *
 * For each configuration chosen, ncu runs `cutune profile --launch=N JOURNAL`, which loads
 * the run's spec at the journal's sizes and seed and evaluates evaluation N's
 * configuration once with the cuda evaluator (NVRTC, the worker process, the same inputs
 * and verification); ncu profiles the first launch of the spec's kernel. Its CSV lands in
 * JOURNAL.profile/ROLE.csv, the parsed metrics in JOURNAL.profile/profile.json, which
 * `cutune report` shows. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "options.h"
#include "cutune/cutune.h"
#include "cutune/report.h"

/* Exit statuses of their own (docs/cli.md). */
#define EXIT_NO_NCU 3
#define EXIT_NO_COUNTERS 4

/* What ncu collects: the sections' metrics by name, and the warp-stall breakdown of the
 * WarpStateStats section (smsp__average_warps_issue_stalled_*_per_issue_active.ratio). */
static const char ncu_metrics[] = "gpu__time_duration.sum,"
                                  "sm__warps_active.avg.pct_of_peak_sustained_active,"
                                  "sm__throughput.avg.pct_of_peak_sustained_elapsed,"
                                  "dram__throughput.avg.pct_of_peak_sustained_elapsed,"
                                  "l1tex__throughput.avg.pct_of_peak_sustained_active,"
                                  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,"
                                  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,"
                                  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cutune profile [--top=N] [--worst=M] [--ncu=PATH] [--dir=DIR] JOURNAL\n"
            "\n"
            "Run Nsight Compute (ncu --clock-control none) on the N fastest (default 3) and the M\n"
            "slowest (default 1) correct configurations of JOURNAL, each compiled, fed and\n"
            "verified as the tuning run did (its spec, sizes, seed and cuda evaluator options),\n"
            "and collect achieved occupancy, SM, DRAM and L1/shared throughput against peak,\n"
            "shared-memory bank conflicts and the warp-stall reasons. Writes DIR/ROLE.csv (ncu's\n"
            "CSV) and DIR/profile.json; `cutune report JOURNAL` then shows them.\n"
            "\n"
            "  --top=N      fastest configurations to profile, 0..1000 (default 3)\n"
            "  --worst=M    slowest ones, 0..1000 (default 1; not both 0)\n"
            "  --ncu=PATH   the ncu executable (default: $CUTUNE_NCU, else ncu on PATH, else\n"
            "               /usr/local/cuda/bin/ncu)\n"
            "  --dir=DIR    where the profiles go (default: JOURNAL without .jsonl, + .profile)\n"
            "  --launch=N   (what ncu runs) evaluate evaluation N's configuration once; not\n"
            "               with --top, --worst, --ncu or --dir, which it has no use for\n"
            "  -h, --help   this help\n"
            "\n"
            "Exit status: 0 profiled, 1 a profile failed, 2 bad input, 3 ncu not found,\n"
            "4 ncu cannot read the GPU's performance counters here (the reason is written to\n"
            "profile.json, and the report shows the tuner's own metrics without counters),\n"
            "130 interrupted by SIGINT, SIGTERM or SIGHUP (the profiles made so far are kept).\n");
}

/* The run's kernel spec: the header's target when it is a spec, else the spec by name. */
static int run_spec_path(const cutune_report_run *run, char *buf, size_t len, char *err,
                         size_t errlen)
{
    if (run->target) {
        /* a recording (a Kernel Tuner cache or a journal, gzipped or not, told apart from a
         * spec as tune and space tell it) has no kernel; a .gz or .jsonl one need not be
         * present to be told by its name */
        if (cli_is_recording(run->target))
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: the run tuned a recording (%s), not a kernel spec: "
                              "nothing to compile",
                              run->path, run->target);
        size_t n = strlen(run->target);
        if (n > 5 && strcmp(run->target + n - 5, ".json") == 0 && access(run->target, R_OK) == 0) {
            snprintf(buf, len, "%s", run->target);
            return 0;
        }
    }
    if (!run->spec)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: header: no spec named", run->path);
    int rc = cutune_spec_resolve(run->spec, buf, len, err, errlen);
    if (rc < 0)
        return cutune_err(err, errlen, rc,
                          "%s: the run's kernel spec '%s' is not found (give the journal of a "
                          "run on a kernel spec)",
                          run->path, run->spec);
    return 0;
}

static const cutune_report_eval *find_eval(const cutune_report_run *run, unsigned long n)
{
    for (size_t i = 0; i < run->nevals; i++)
        if (run->evals[i].n == n)
            return &run->evals[i];
    return NULL;
}

/* --launch=N: evaluation N's configuration, once, on the GPU, as the run evaluated it. */
static int launch_one(const cutune_report_run *run, unsigned long n)
{
    char err[1024] = "", spec_path[4096];
    int status = 2;
    cutune_spec *spec = NULL;
    cutune_evaluator *ev = NULL;
    cutune_size_override *ov = NULL;
    uint16_t *idx = NULL;
    cutune_eval_result res = {0};
    const cutune_report_eval *e = find_eval(run, n);
    if (!e) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL, "%s: no evaluation n=%lu", run->path, n);
        goto fail;
    }
    if (run_spec_path(run, spec_path, sizeof spec_path, err, sizeof err) < 0)
        goto fail;
    ov = calloc(run->nsizes ? run->nsizes : 1, sizeof *ov);
    if (!ov) {
        cutune_err(err, sizeof err, CUTUNE_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t s = 0; s < run->nsizes; s++) { /* the sizes the run measured at */
        ov[s].name = run->size_names[s];
        double v = run->size_values[s];
        ov[s].value = v == floor(v) && fabs(v) < 9e15
                          ? (cutune_value){.type = CUTUNE_VALUE_INT, .i = (long long)v}
                          : (cutune_value){.type = CUTUNE_VALUE_REAL, .r = v};
    }
    if (cutune_spec_load(spec_path, ov, run->nsizes, &spec, err, sizeof err) < 0)
        goto fail;
    const cutune_space *s = spec->space;
    size_t np = cutune_space_nparams(s);
    idx = calloc(np ? np : 1, sizeof *idx);
    if (!idx) {
        cutune_err(err, sizeof err, CUTUNE_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t p = 0; p < np; p++) {
        const cutune_param *par = cutune_space_param(s, p);
        size_t q = 0;
        while (q < run->nparams && strcmp(run->param_names[q], par->name) != 0)
            q++;
        if (q == run->nparams) {
            cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                       "%s: the spec's parameter '%s' is not in the journal", run->path, par->name);
            goto fail;
        }
        const char *text = run->value_text[q][e->idx[q]];
        double num = run->value_num[q][e->idx[q]];
        size_t v = 0;
        for (; v < par->nvalues; v++) {
            double pv = cutune_value_as_double(&par->values[v]);
            if (isnan(num) ? strcmp(par->texts[v], text) == 0 : pv == num)
                break;
        }
        if (v == par->nvalues) {
            cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                       "%s: %s=%s is not a value of the spec %s any more", run->path, par->name,
                       text, spec_path);
            goto fail;
        }
        idx[p] = (uint16_t)v;
    }
    long long id = cutune_space_find(s, idx);
    if (id < 0) {
        cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                   "%s: evaluation %lu's configuration is not in the space of %s", run->path, n,
                   spec_path);
        goto fail;
    }
    /* the run's cuda options, then: one timed run, no overlap, and room for ncu's replays */
    char arg[8192];
    int cuda_run = run->evaluator && strcmp(run->evaluator, "cuda") == 0 && run->evaluator_arg &&
                   *run->evaluator_arg;
    snprintf(arg, sizeof arg, "%s%spipeline=0,warmup=0,min_reps=1,max_reps=1,timeout=600",
             cuda_run ? run->evaluator_arg : "", cuda_run ? "," : "");
    const cutune_evaluator_type *et = cutune_evaluator_find("cuda", err, sizeof err);
    if (!et)
        goto fail;
    cutune_evaluator_ctx ctx = {.space = s, .spec = spec, .arg = arg, .seed = run->seed};
    if (cutune_evaluator_alloc(et, &ctx, &ev, err, sizeof err) < 0) {
        status = 1;
        goto fail;
    }
    size_t ids[1] = {(size_t)id};
    if (cutune_evaluator_evaluate(ev, ids, 1, &res, err, sizeof err) < 0) {
        status = 1;
        goto fail;
    }
    fprintf(stderr, "cutune profile: evaluation %lu: %s", n, cutune_status_name(res.status));
    if (res.status == CUTUNE_STATUS_OK)
        fprintf(stderr, ", %.6g ms", res.time_ms);
    fputc('\n', stderr);
    status = res.status == CUTUNE_STATUS_OK ? 0 : 1;
    goto out;
fail:
    fprintf(stderr, "cutune profile: %s\n", err);
out:
    cutune_eval_result_clear(&res);
    cutune_evaluator_free(ev);
    cutune_spec_free(spec);
    free(ov);
    free(idx);
    return status;
}

static int find_ncu(const char *given, char *buf, size_t len)
{
    const char *env = getenv("CUTUNE_NCU");
    const char *name = given ? given : env && *env ? env : NULL;
    if (name && strchr(name, '/')) {
        snprintf(buf, len, "%s", name);
        return access(buf, X_OK) == 0 ? 0 : -1;
    }
    const char *path = getenv("PATH");
    char *copy = strdup(path ? path : "");
    if (!copy)
        return -1;
    int found = -1;
    char *save = NULL;
    for (char *d = strtok_r(copy, ":", &save); d && found < 0; d = strtok_r(NULL, ":", &save)) {
        snprintf(buf, len, "%s/%s", *d ? d : ".", name ? name : "ncu");
        if (access(buf, X_OK) == 0)
            found = 0;
    }
    free(copy);
    if (found < 0 && !name) {
        snprintf(buf, len, "/usr/local/cuda/bin/ncu");
        found = access(buf, X_OK) == 0 ? 0 : -1;
    }
    return found;
}

static volatile sig_atomic_t interrupted;
static void on_signal(int sig)
{
    interrupted = 1;
    if (sig == SIGHUP) { /* a hang-up often takes stdout's reader: the summary must not kill */
        struct sigaction ign = {0};
        ign.sa_handler = SIG_IGN;
        sigaction(SIGPIPE, &ign, NULL); /* async-signal-safe */
    }
}

/* Run argv with stdout sent to stderr (cutune profile's stdout is its summary alone);
 * the exit status, or -1 when it could not be started. */
static int run_child(char *const *argv)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(2, 1);
        signal(SIGINT, SIG_DFL);
        execv(argv[0], argv);
        fprintf(stderr, "cutune profile: %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The one line that says why ncu read no counters, or NULL. */
static const char *counters_refused(const char *log)
{
    static const char *const marks[] = {"ERR_NVGPUCTRPERM", "ERR_NVGPUCTRBUSY",
                                        "does not have permission to access NVIDIA GPU Performance "
                                        "Counters"};
    for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++)
        if (log && strstr(log, marks[k]))
            return marks[k];
    return NULL;
}

static const cutune_report_run *sort_run;
static int by_time(const void *a, const void *b)
{
    double x = sort_run->evals[*(const size_t *)a].time_ms;
    double y = sort_run->evals[*(const size_t *)b].time_ms;
    if (x != y)
        return x < y ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static double metric(const cutune_report_profile_entry *e, const char *name)
{
    for (size_t i = 0; i < e->nvalues; i++)
        if (strcmp(e->names[i], name) == 0)
            return e->values[i];
    return NAN;
}

static void print_entry(const cutune_report_profile_entry *e, double time_ms)
{
    printf("%-8s n=%-5zu %8.4g ms  occupancy %5.1f%%  SM %5.1f%%  DRAM %5.1f%%  L1/shared "
           "%5.1f%%  bank conflicts %.0f\n",
           e->role, e->n, time_ms, metric(e, "sm__warps_active.avg.pct_of_peak_sustained_active"),
           metric(e, "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
           metric(e, "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
           metric(e, "l1tex__throughput.avg.pct_of_peak_sustained_active"),
           metric(e, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"));
    int used[1024] = {0};
    printf("         stalls:");
    for (int k = 0; k < 3; k++) {
        long best = -1;
        char reason[128], shown[128] = "";
        for (size_t i = 0; i < e->nvalues && i < 1024; i++)
            if (!used[i] && cutune_report_ncu_stall_reason(e->names[i], reason, sizeof reason) &&
                isfinite(e->values[i]) && (best < 0 || e->values[i] > e->values[best])) {
                best = (long)i;
                snprintf(shown, sizeof shown, "%s", reason);
            }
        if (best < 0)
            break;
        used[best] = 1;
        printf(" %s %.3g", shown, e->values[best]);
    }
    printf("\n");
}

static int parse_count(const char *opt, const char *v, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(v, &end, 10);
    if (!isdigit((unsigned char)*v) || *end || errno || x > 1000) { /* not " 5", "+5" */
        fprintf(stderr, "cutune profile: --%s=%s: must be 0..1000\n", opt, v);
        return -1;
    }
    *out = x;
    return 0;
}

int cutune_cmd_profile(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"top", required_argument, NULL, 't'},
        {"worst", required_argument, NULL, 'w'},
        {"ncu", required_argument, NULL, 'n'},
        {"dir", required_argument, NULL, 'd'},
        {"launch", required_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    unsigned long top = 3, worst = 1, launch = 0;
    int have_launch = 0, c;
    const char *ncu_opt = NULL, *dir_opt = NULL, *top_opt = NULL, *worst_opt = NULL;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", longopts)) != -1) {
        switch (c) {
        case 't':
            if (parse_count("top", optarg, &top) < 0)
                return 2;
            top_opt = optarg;
            break;
        case 'w':
            if (parse_count("worst", optarg, &worst) < 0)
                return 2;
            worst_opt = optarg;
            break;
        case 'l': {
            char *end;
            errno = 0;
            launch = strtoul(optarg, &end, 10);
            if (!isdigit((unsigned char)*optarg) || *end || errno) {
                fprintf(stderr, "cutune profile: --launch=%s: not an evaluation number\n", optarg);
                return 2;
            }
            have_launch = 1;
            break;
        }
        case 'n': ncu_opt = optarg; break;
        case 'd': dir_opt = optarg; break;
        case 'h': usage(stdout); return 0;
        default: return 2; /* said in one line by cli_getopt */
        }
    }
    /* --launch is what ncu runs: one evaluation, no choice, no ncu, no folder; the options
     * of those would be read and left unused */
    const char *const launch_unused[][2] = {
        {"top", top_opt}, {"worst", worst_opt}, {"ncu", ncu_opt}, {"dir", dir_opt}};
    for (size_t k = 0; have_launch && k < sizeof launch_unused / sizeof launch_unused[0]; k++)
        if (launch_unused[k][1]) {
            fprintf(stderr,
                    "cutune profile: --%s=%s: not with --launch (--launch=N evaluates "
                    "evaluation N once, as ncu runs it: it chooses no configurations, starts no "
                    "ncu and writes no profile)\n",
                    launch_unused[k][0], launch_unused[k][1]);
            return 2;
        }
    if (optind != argc - 1) {
        fprintf(stderr, "cutune profile: expected one JOURNAL (try --help)\n");
        return 2;
    }
    const char *journal = argv[optind];
    char err[1024] = "";
    cutune_report_run *run = NULL;
    if (cutune_report_run_load(journal, &run, err, sizeof err) < 0) {
        cli_not_a_journal("profile", journal, err, sizeof err);
        fprintf(stderr, "cutune profile: %s\n", err);
        return 2;
    }
    if (have_launch) {
        int rc = launch_one(run, launch);
        cutune_report_run_free(run);
        return rc;
    }

    int status = 2, made_dir = 0;
    size_t *order = NULL, nok = 0;
    char *log = NULL;
    cutune_report_profile prof = {0};
    char spec_path[4096], ncu[4096], dir[4096], self[PATH_MAX];
    if (run_spec_path(run, spec_path, sizeof spec_path, err, sizeof err) < 0) {
        fprintf(stderr, "cutune profile: %s\n", err);
        goto out;
    }
    cutune_spec *spec = NULL; /* the kernel's name, for ncu's --kernel-name */
    if (cutune_spec_load(spec_path, NULL, 0, &spec, err, sizeof err) < 0) {
        fprintf(stderr, "cutune profile: %s\n", err);
        goto out;
    }
    char kernel[256];
    snprintf(kernel, sizeof kernel, "%s", spec->kernel_name);
    cutune_spec_free(spec);
    if (!(order = malloc((run->nevals ? run->nevals : 1) * sizeof *order))) {
        fprintf(stderr, "cutune profile: out of memory\n");
        goto out;
    }
    for (size_t i = 0; i < run->nevals; i++)
        if (run->evals[i].status == CUTUNE_STATUS_OK)
            order[nok++] = i;
    if (!nok) {
        fprintf(stderr, "cutune profile: %s: no correct evaluation to profile\n", journal);
        goto out;
    }
    if (!top && !worst) {
        fprintf(stderr, "cutune profile: --top=0 and --worst=0: nothing to profile\n");
        goto out;
    }
    sort_run = run;
    qsort(order, nok, sizeof *order, by_time);
    if (find_ncu(ncu_opt, ncu, sizeof ncu) < 0) {
        fprintf(stderr,
                "cutune profile: Nsight Compute (ncu) not found%s%s: install it (CUDA toolkit) "
                "or give --ncu=PATH\n",
                ncu_opt ? " at " : "", ncu_opt ? ncu_opt : "");
        status = EXIT_NO_NCU;
        goto out;
    }
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0) {
        fprintf(stderr, "cutune profile: cannot find the cutune executable (/proc/self/exe)\n");
        status = 1;
        goto out;
    }
    self[sl] = '\0';
    if (dir_opt)
        snprintf(dir, sizeof dir, "%s", dir_opt);
    else if (cutune_report_profile_dir(journal, dir, sizeof dir) < 0) {
        fprintf(stderr, "cutune profile: %s: name too long\n", journal);
        goto out;
    }
    if (mkdir(dir, 0777) == 0)
        made_dir = 1;
    else if (errno != EEXIST) {
        fprintf(stderr, "cutune profile: %s: cannot create the folder: %s (give --dir=DIR)\n", dir,
                strerror(errno));
        goto out;
    }
    size_t ntop = top < nok ? top : nok;
    size_t nworst = worst < nok - ntop ? worst : nok - ntop;
    prof.entries = calloc(ntop + nworst ? ntop + nworst : 1, sizeof *prof.entries);
    if (!prof.entries) {
        fprintf(stderr, "cutune profile: out of memory\n");
        goto out;
    }
    /* SIGINT, SIGTERM and SIGHUP (a closed terminal) alike: the ncu run under way ends (or is
     * waited for), a part file it leaves goes, and the profiles finished so far are kept in
     * profile.json; a signal ignored when cutune started (nohup) stays ignored */
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa = {0}, old_sa[3];
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < 3; i++)
        if (sigaction(stops[i], NULL, &old_sa[i]) == 0 && old_sa[i].sa_handler != SIG_IGN)
            sigaction(stops[i], &sa, NULL);
    status = 0;
    for (size_t k = 0; k < ntop + nworst && !interrupted; k++) {
        size_t ei = k < ntop ? order[k] : order[nok - 1 - (k - ntop)];
        const cutune_report_eval *e = &run->evals[ei];
        char role[32], name[32], csv[4200], part[4300], launch_arg[64], config[4096];
        snprintf(role, sizeof role, "%s %zu", k < ntop ? "best" : "worst",
                 k < ntop ? k + 1 : k - ntop + 1);
        snprintf(name, sizeof name, "%s-%zu", k < ntop ? "best" : "worst",
                 k < ntop ? k + 1 : k - ntop + 1);
        snprintf(csv, sizeof csv, "%s/%s.csv", dir, name);
        snprintf(part, sizeof part, "%s/.%s.csv.part", dir, name);
        snprintf(launch_arg, sizeof launch_arg, "--launch=%zu", e->n);
        cutune_report_eval_config_text(run, e, config, sizeof config);
        if (isatty(2)) /* progress: each ncu run takes a while */
            fprintf(stderr, "cutune profile: %s (evaluation %zu, %.6g ms): %s\n", role, e->n,
                    e->time_ms, config);
        char *nargv[] = {ncu,          "--clock-control",
                         "none",       "--target-processes",
                         "all",        "--kernel-name",
                         kernel,       "--launch-count",
                         "1",          "--csv",
                         "--page",     "raw",
                         "--section",  "WarpStateStats",
                         "--metrics",  (char *)ncu_metrics,
                         "--log-file", part,
                         self,         "profile",
                         launch_arg,   (char *)journal,
                         NULL};
        unlink(part);
        int rc = run_child(nargv);
        size_t len = 0;
        free(log);
        log = NULL;
        int read_rc = cutune_read_file(part, &log, &len, err, sizeof err);
        const char *refused = counters_refused(log);
        if (refused) {
            char line[512];
            snprintf(line, sizeof line,
                     "ncu cannot read the GPU's performance counters on this host (%s); see "
                     "https://developer.nvidia.com/ERR_NVGPUCTRPERM",
                     refused);
            fprintf(stderr, "cutune profile: %s (noted in %s/profile.json)\n", line, dir);
            unlink(part);
            free(prof.status);
            prof.status = strdup(line);
            for (size_t i = 0; i < prof.nentries; i++)
                cutune_report_profile_entry_clear(&prof.entries[i]);
            prof.nentries = 0;
            status = EXIT_NO_COUNTERS;
            break;
        }
        cutune_report_profile_entry *pe = &prof.entries[prof.nentries];
        if (rc != 0 || read_rc < 0 ||
            cutune_report_ncu_parse(part, log, len, pe, err, sizeof err) < 0) {
            fprintf(stderr, "cutune profile: %s: ncu %s%s%s\n", role,
                    rc < 0 ? "could not be started"
                    : rc   ? "failed"
                           : "gave no metrics",
                    rc > 0 ? " (see its output above)" : "", rc == 0 && read_rc == 0 ? "" : "");
            if (rc == 0)
                fprintf(stderr, "cutune profile: %s\n", err);
            unlink(part);
            status = 1;
            continue;
        }
        if (rename(part, csv) < 0) {
            fprintf(stderr, "cutune profile: %s: %s\n", csv, strerror(errno));
            cutune_report_profile_entry_clear(pe);
            unlink(part);
            status = 1;
            continue;
        }
        pe->role = strdup(role);
        pe->config = strdup(config);
        pe->n = e->n;
        prof.nentries++;
        if (!pe->role || !pe->config) {
            fprintf(stderr, "cutune profile: out of memory\n");
            status = 1;
            break;
        }
        print_entry(pe, e->time_ms);
    }
    for (size_t i = 0; i < 3; i++)
        sigaction(stops[i], &old_sa[i], NULL);
    if (interrupted) { /* the profiles finished so far are kept */
        fprintf(stderr, "cutune profile: interrupted after %zu profile%s\n", prof.nentries,
                prof.nentries == 1 ? "" : "s");
        status = 130;
    }
    if (!prof.status && !(prof.status = strdup("ok"))) {
        fprintf(stderr, "cutune profile: out of memory\n");
        status = 1;
        goto out;
    }
    if (prof.nentries || status == EXIT_NO_COUNTERS) {
        if (cutune_report_profile_save(dir, &prof, err, sizeof err) < 0) {
            fprintf(stderr, "cutune profile: %s\n", err);
            status = 1;
            goto out;
        }
        if (status != EXIT_NO_COUNTERS && !interrupted)
            printf("profile: %s/profile.json\n", dir);
    }
out:
    /* the folder made here and left empty (every profile failed) goes: rmdir removes
     * nothing else, and a folder that was there before is left as it was */
    if (made_dir)
        rmdir(dir);
    free(log);
    for (size_t i = 0; i < prof.nentries; i++)
        cutune_report_profile_entry_clear(&prof.entries[i]);
    free(prof.entries);
    free(prof.status);
    free(order);
    cutune_report_run_free(run);
    return status;
}
