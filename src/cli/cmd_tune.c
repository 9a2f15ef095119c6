/* `cutune [tune] [OPTIONS] KERNEL|SPEC|RECORDING`: one tuning run.
 *
 * This file holds the run: the target, searcher and evaluator chosen, every output checked
 * before anything runs, the tuner loop and the exports. Its command line is read in
 * cmd_tune_options.c, --resume restored and checked in cmd_tune_resume.c, a spec's own
 * recording named by its line in tune_spec_recording.c, and the summary printed at the end
 * in tune_summary.c (tune_internal.h). */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "cutune/mpi.h"
#include "cutune/report.h"
#include "commands.h"
#include "options.h"
#include "shapes.h"
#include "stop_signal.h"
#include "tune_internal.h"

/* The kernel a recording target holds, for the header's and the Kernel Tuner cache's name,
 * copied into buf: a Kernel Tuner cache's kernel_name; a cutune journal of a run on a
 * recording (its spec is that recording's path) the name that recording holds, followed
 * through its target at most depth times; else a journal's spec (a header named "kernel"
 * for every journal gave two such headers one include guard). NULL where none is known. */
static const char *rec_kernel_name(const cutune_recording *rec, char *buf, size_t len, int depth)
{
    struct stat st;
    if (!rec)
        return NULL;
    if (rec->kernel_name && *rec->kernel_name) {
        snprintf(buf, len, "%s", rec->kernel_name);
        return buf;
    }
    if (depth > 0 && rec->target && stat(rec->target, &st) == 0 && S_ISREG(st.st_mode) &&
        cli_is_recording(rec->target)) {
        cutune_recording *on = NULL;
        const char *name = NULL;
        if (cutune_recording_load(rec->target, &on, NULL, 0) == 0)
            name = rec_kernel_name(on, buf, len, depth - 1);
        cutune_recording_free(on);
        if (name)
            return name;
    }
    const char *s = rec->spec_name; /* a name, not a description such as "replay at ..." */
    if (!s || !(isalpha((unsigned char)s[0]) || s[0] == '_') ||
        strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") != strlen(s))
        return NULL;
    snprintf(buf, len, "%s", s);
    return buf;
}

/* Is a CUDA device usable here? dlopen, never link: cutune must start without a driver. */
static int gpu_present(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return 0;
    int (*init)(unsigned) = (int (*)(unsigned))dlsym(h, "cuInit");
    int (*count)(int *) = (int (*)(int *))dlsym(h, "cuDeviceGetCount");
    int n = 0;
    int ok = init && count && init(0) == 0 && count(&n) == 0 && n > 0;
    dlclose(h);
    return ok;
}

static int split_name(const char *text, char *name, size_t len, const char **arg)
{
    const char *colon = strchr(text, ':');
    size_t n = colon ? (size_t)(colon - text) : strlen(text);
    if (n >= len)
        return -1;
    memcpy(name, text, n);
    name[n] = '\0';
    *arg = colon ? colon + 1 : NULL;
    return 0;
}

/* Can a file be created at path? A temporary can be created in its folder (and is removed
 * again), as the writer will, and nothing is there that cutune never writes over: a
 * directory, a symbolic link (it is neither written through nor replaced), a device, pipe
 * or socket (docs/hardening.md). Trying, not access(2): root passes every access check,
 * and a read-only mount or /proc refuses only the creation itself. */
int cli_check_writable(const char *opt, const char *path, char *err, size_t errlen)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--%s=%s: is a directory", opt, path);
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--%s=%s: is a symbolic link (cutune neither writes through one nor "
                          "replaces it: give the path it points to, or remove it)",
                          opt, path);
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--%s=%s: is not a regular file (a device, pipe or socket is never "
                          "replaced)",
                          opt, path);
    char tmp[4096 + 32];
    snprintf(tmp, sizeof tmp, "%s/.cutune-check.XXXXXX", dir);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return cutune_err(err, errlen, CUTUNE_EIO, "--%s=%s: cannot write in %s: %s", opt, path,
                          dir, strerror(errno));
    close(fd);
    unlink(tmp);
    return 0;
}

/* Can the journal being resumed be appended to? Opened for writing as the tuner will
 * (O_APPEND, never through a link), so that a read-only journal is refused before the run;
 * its folder need not be writable: nothing is created there. */
static int check_appendable(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cutune_err(err, errlen, CUTUNE_EIO, "--resume=%s: cannot append to it: %s", path,
                          errno == ELOOP ? "is a symbolic link (cutune never writes through "
                                           "one: give the path it points to)"
                                         : strerror(errno));
    close(fd);
    return 0;
}

/* The evaluations the run had in flight, as the tuner makes them of its options (the
 * journal header's "parallel"): --parallel or the evaluator's slots, raised to the batch,
 * capped at the budget. */
static unsigned long ran_parallel(unsigned long parallel, unsigned long batch, unsigned long budget,
                                  cutune_evaluator *ev)
{
    unsigned long n = parallel ? parallel : (unsigned long)cutune_evaluator_slots(ev);
    n = n < batch ? batch : n;
    return n > budget ? budget : n;
}

/* runs/ was made by this run (removed again, if still empty, when the run is refused) */
static int made_runs_dir;
static int claimed_journal;       /* the default journal's name is held by claim_path */
static char claim_path[PATH_MAX]; /* runs/.NAME.claim, an empty file made here */

/* The claim of journal name buf: runs/.NAME.claim */
static void claim_of(const char *buf, char *out, size_t len)
{
    const char *base = strrchr(buf, '/');
    snprintf(out, len, "%.*s.%s.claim", base ? (int)(base + 1 - buf) : 0, buf,
             base ? base + 1 : buf);
}

static void release_claim(void)
{
    if (claimed_journal)
        unlink(claim_path);
    claimed_journal = 0;
}

static int default_journal(const char *name, unsigned long seed, char *buf, size_t len)
{
    if (mkdir("runs", 0777) == 0)
        made_runs_dir = 1;
    else if (errno != EEXIST)
        return -1;
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    char stem[256];
    snprintf(stem, sizeof stem, "%.255s", base);
    char *dot = strchr(stem, '.');
    if (dot)
        *dot = '\0';
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char ts[32];
    strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", &tm);
    snprintf(buf, len, "runs/%s-%lu-%s.jsonl", stem, seed, ts);
    /* Two runs started in one second take two names (never overwriting a run): a name is
     * taken by making its claim, an empty runs/.NAME.claim, and then finding no journal at
     * the name. The claim is held until the run ends, so that no other run takes the name
     * in the moment between the claim and the journal (a claim made at the journal's own
     * path had to be removed before the tuner could make the journal there, and a run
     * started in that moment took the name too). */
    for (int i = 2; i < 1000; i++) {
        struct stat st;
        claim_of(buf, claim_path, sizeof claim_path);
        int fd = open(claim_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
            close(fd);
            if (lstat(buf, &st) != 0 && errno == ENOENT) {
                claimed_journal = 1;
                break;
            }
            unlink(claim_path); /* a journal is there: the next name */
        } else if (errno != EEXIST) {
            break; /* the checks of the outputs say why */
        }
        snprintf(buf, len, "runs/%s-%lu-%s-%d.jsonl", stem, seed, ts, i);
    }
    return 0;
}

int cutune_cmd_tune(int argc, char **argv)
{
    char err[1024] = "";
    cli_tune_options o;
    cli_tune_resume r = {0};
    int rc, status = 2;
    int mpi_rank = 0, mpi_size = 1;

    cli_catch_stop_signals_early();
    cli_target t = {0};
    cutune_recording *resume = NULL;
    gsl_rng *rng = NULL;
    uint8_t *visited = NULL;
    cutune_searcher *searcher = NULL;
    static cli_warm_start warm; /* --warm-start mapped onto the space (static: 68 KiB of paths) */
    cutune_evaluator *ev = NULL;
    cutune_history hist = {.best = -1};
    cli_tune_db tdb = {0};
    cutune_objective *objective = NULL;
    char kname[256];
    const char *kernel = NULL; /* rec_kernel_name of a recording target */

    if ((rc = cli_tune_parse_options(argc, argv, &o)) >= 0)
        return rc;
    /* Under mpirun / srun: rank 0 tunes (journal, outputs, progress); every other rank
     * evaluates what it is sent (cutune_mpi_serve) and writes nothing. */
    int launched = cutune_mpi_launched();
    if (o.rank_timeout_arg && launched <= 1) { /* no rank to wait for: it would go unused */
        fprintf(stderr,
                "%s: --rank-timeout=%s: applies only to a run launched as several processes by "
                "mpirun or srun (this run is one process: no rank evaluates for it)\n",
                cli_progname, o.rank_timeout_arg);
        return 2;
    }
    if (o.sizes && launched > 1) { /* a run of runs has no rank 0: each process would run all */
        fprintf(stderr,
                "%s: --sizes: a multi-shape run is not spread over MPI ranks: each of the %d "
                "processes the launcher started would tune every shape itself (run it as one "
                "process)\n",
                cli_progname, launched);
        return 2;
    }
    if (o.sizes) { /* several shapes: a run of runs (cmd_tune_shapes.c) */
        if (!o.budget)
            o.budget = 60;
        return cli_tune_shapes(&o);
    }

    if (launched > 1) {
        if (!cutune_mpi_available()) {
            fprintf(stderr,
                    "%s: started by an MPI launcher with %d processes, but this cutune was "
                    "built without MPI (install libopenmpi-dev and build again)\n",
                    cli_progname, launched);
            return 2;
        }
        if (cutune_mpi_init(&mpi_rank, &mpi_size, err, sizeof err) < 0)
            goto bad_input;
        if (mpi_rank > 0)
            o.progress = 0, o.quiet = 1;
    }

    rc = cli_tune_resume_restore(&o, mpi_rank, &r, err, sizeof err);
    resume = r.journal;
    if (rc < 0)
        goto bad_input;
    if (!o.budget)
        o.budget = 60;
    if (o.parallel > o.budget) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--parallel=%lu: more evaluations in flight than the budget of %lu", o.parallel,
                   o.budget);
        goto bad_input;
    }
    if (o.have_batch && o.batch > o.budget && !o.resume) { /* as --parallel: never clamped */
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--batch=%lu: more proposals at a time than the budget of %lu", o.batch,
                   o.budget);
        goto bad_input;
    }

    rc = cli_target_load(o.target, &o.so, &t, err, sizeof err);
    if (rc < 0)
        goto bad_input;

    if (cli_tune_resume_check_target(&o, &r, &t, err, sizeof err) < 0)
        goto bad_input;

    /* Searcher */
    char sname[64], ename[64];
    const char *sargs = NULL, *eargs = NULL;
    if (split_name(o.searcher ? o.searcher : "bo", sname, sizeof sname, &sargs) < 0) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL, "--searcher: name too long");
        goto bad_input;
    }
    const cutune_searcher_type *st = cutune_searcher_find(sname, err, sizeof err);
    if (!st)
        goto bad_input;

    /* Evaluator: a recording replays itself; a kernel runs on the GPU, or
     * replays its shipped recording where there is none (said first). */
    int announced = 0;
    const char *shipped = NULL; /* the spec's recording at its sizes ("recordings") */
    if (t.spec && !t.rec && cli_spec_recording(t.spec, &shipped, err, sizeof err) < 0 &&
        !o.evaluator && !gpu_present())
        goto bad_input;
    if (o.evaluator) {
        if (split_name(o.evaluator, ename, sizeof ename, &eargs) < 0) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL, "--evaluator: name too long");
            goto bad_input;
        }
    } else if (t.rec) {
        snprintf(ename, sizeof ename, "replay");
    } else if (gpu_present()) {
        snprintf(ename, sizeof ename, "cuda");
    } else if (shipped && access(shipped, R_OK) == 0) {
        snprintf(ename, sizeof ename, "replay");
        eargs = shipped;
        announced = 1;
    } else if (shipped) { /* named, but not there (not made yet, moved): say which */
        cutune_err(err, sizeof err, CUTUNE_ENODEV,
                   "%s: no CUDA GPU found, and the recording it names cannot be read: %s: %s "
                   "(give --evaluator=replay:FILE)",
                   cli_recording_at(t.spec, shipped), shipped, strerror(errno));
        goto bad_input;
    } else {
        cutune_err(err, sizeof err, CUTUNE_ENODEV,
                   "%s: no CUDA GPU found and the kernel has no recording to replay "
                   "(give --evaluator=replay:FILE)",
                   t.path);
        goto bad_input;
    }
    if (strcmp(ename, "replay") == 0 && !eargs)
        eargs = t.rec ? t.path : shipped;
    /* --cartesian widens a recording's space, or a replayed kernel's to its spec's; the cuda
     * evaluator measures a spec's whole space anyway, and there it would change nothing
     * (checked as given: a resumed journal's own "cartesian" is restored, never refused) */
    if (o.cartesian_arg && t.spec && strcmp(ename, "cuda") == 0) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL, CLI_CARTESIAN_CUDA, t.path);
        goto bad_input;
    }
    if (t.spec && eargs && eargs == shipped &&
        cli_check_spec_recording(t.spec, shipped, err, sizeof err) < 0)
        goto bad_input;
    /* --devices is the cuda evaluator's devices= (kept in the journal's evaluator_arg); an
     * evaluating rank of an MPI job takes one GPU of its host */
    static char eargs_dev[4400], rank_gpu[16];
    if (mpi_rank > 0 && !o.devices && strcmp(ename, "cuda") == 0) {
        snprintf(rank_gpu, sizeof rank_gpu, "%d", cutune_mpi_local_gpu());
        o.devices = rank_gpu;
    }
    if (o.devices) {
        if (strcmp(ename, "cuda") != 0) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--devices=%s: only the cuda evaluator runs on GPUs (this run: %s)",
                       o.devices, ename);
            goto bad_input;
        }
        snprintf(eargs_dev, sizeof eargs_dev, "%s%sdevices=%s", eargs ? eargs : "",
                 eargs && *eargs ? "," : "", o.devices);
        eargs = eargs_dev;
    }
    /* the replayed file by its absolute path, for the no-GPU notice and the journal header
     * (so that --resume works from any directory) */
    static char eargs_abs[PATH_MAX];
    const char *eargs_shown =
        strcmp(ename, "replay") == 0 && eargs && realpath(eargs, eargs_abs) ? eargs_abs : eargs;
    if (cli_tune_resume_check_evaluator(&o, &r, ename, eargs, err, sizeof err) < 0)
        goto bad_input;
    const cutune_evaluator_type *et = cutune_evaluator_find(ename, err, sizeof err);
    if (!et)
        goto bad_input;
    if (strcmp(ename, "replay") == 0 && t.spec && eargs && !o.so.cartesian) {
        rc = cli_restrict_to_recording(&t, eargs, err, sizeof err);
        if (rc < 0) {
            cli_spec_recording_said(t.spec, shipped, eargs, rc, err, sizeof err);
            goto bad_input;
        }
    } else if (strcmp(ename, "replay") == 0 && t.spec && eargs) {
        /* --cartesian: only the evaluator reads it, silently; what it leaves out is said */
        cutune_recording *replayed = NULL;
        if ((rc = cutune_recording_load(eargs, &replayed, err, sizeof err)) < 0) {
            cli_spec_recording_said(t.spec, shipped, eargs, rc, err, sizeof err);
            goto bad_input;
        }
        cli_say_truncated_tail(replayed);
        cutune_recording_free(replayed);
    }
    /* the space as the run sees it (a spec replayed from a recording: its recorded set) */
    if (cli_tune_resume_check_space(&o, &r, &t, err, sizeof err) < 0)
        goto bad_input;

    /* The objective: --objective, else the spec's, else what a recording given as the
     * target was tuned for (said once the run starts), else time. */
    char rec_objective[64] = "";
    const char *objtext = o.objective;
    if (!objtext && t.spec && t.spec->objective && strcmp(t.spec->objective, "time") != 0)
        objtext = t.spec->objective;
    if (!objtext && !o.objectives && t.rec && t.rec->objective) {
        snprintf(rec_objective, sizeof rec_objective, "%s%s", t.rec->objective,
                 t.rec->objective_max ? ":max" : "");
        objtext = rec_objective;
    }
    if (o.objectives)
        rc = cutune_objective_multi_alloc(o.objectives, o.subject_to, o.nsubject_to, t.space,
                                          t.spec, &objective, err, sizeof err);
    else
        rc = cutune_objective_alloc(objtext, o.subject_to, o.nsubject_to, t.space, t.spec,
                                    &objective, err, sizeof err);
    if (rc < 0) {
        if (!o.objective && t.spec && objtext == t.spec->objective) { /* the spec's: say so */
            char inner[1024];
            /* the parser names the option; here the field is the spec's */
            const char *why = err;
            if (strncmp(why, "--objective ", 12) == 0)
                why += 12;
            snprintf(inner, sizeof inner, "%s", why);
            cutune_err(err, sizeof err, rc, "%s: objective: %s", t.spec->path, inner);
        }
        goto bad_input;
    }
    if (resume && cli_tune_check_objective(resume, objective, t.space, t.spec, err, sizeof err) < 0)
        goto bad_input;
    const char *needs[256];
    size_t nneeds = 0;
    while (nneeds < 256 && nneeds < cutune_objective_nneeds(objective)) {
        needs[nneeds] = cutune_objective_need(objective, nneeds);
        nneeds++;
    }

    char journal[4096] = "";
    if (mpi_rank > 0)
        ; /* an evaluating rank writes nothing */
    else if (o.journal)
        snprintf(journal, sizeof journal, "%s", o.journal);
    else if (default_journal(t.spec ? t.spec->name : t.path, o.seed, journal, sizeof journal) < 0) {
        int e = errno;
        cutune_err(err, sizeof err, CUTUNE_EIO,
                   "runs/: cannot make the default journal folder here (%s); give --journal=FILE",
                   strerror(e));
        if (e == EACCES || e == EROFS || e == ENOTDIR || e == EPERM)
            goto bad_input; /* where the run was started: the user's to change, as --journal's */
        status = 1;
        goto fail;
    }
    /* Every output is checked before anything runs: a bad path must not cost a
     * whole tuning run, nor overwrite what is being tuned or replayed. Two paths are one
     * file when they resolve to one (cutune_path_same: the real folder and name, or the
     * device and inode). */
    static char front_json[4200];
    if (o.front)
        snprintf(front_json, sizeof front_json, "%s.json", o.front);
    const char *outs[][2] = {{"journal", journal},
                             {"output", o.output},
                             {"csv", o.csv},
                             {"kt-cache", o.kt},
                             {"header", o.header},
                             {"t4", o.t4},
                             {"front", o.front ? front_json : NULL}};
    for (size_t i = 0; mpi_rank == 0 && i < sizeof outs / sizeof outs[0]; i++) {
        if (!outs[i][1])
            continue;
        if (!*outs[i][1]) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL, "--%s=: empty path", outs[i][0]);
            goto bad_input;
        }
        char dbfile[4096];
        if (cli_is_tuning_db(&o, outs[i][1], dbfile, sizeof dbfile)) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--%s=%s: is the tuning database; choose another path", outs[i][0],
                       outs[i][1]);
            goto bad_input;
        }
        if (!(resume && i == 0) &&
            (cutune_path_same(outs[i][1], t.path) || cutune_path_same(outs[i][1], eargs) ||
             (t.spec && cutune_path_same(outs[i][1], t.spec->source_path)))) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--%s=%s: is the file being tuned or replayed; choose another path",
                       outs[i][0], outs[i][1]);
            goto bad_input;
        }
        if (cli_warm_start_mentions(o.warm_start, outs[i][1])) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--%s=%s: is the --warm-start source; choose another path", outs[i][0],
                       outs[i][1]);
            goto bad_input;
        }
        for (size_t j = 0; j < i; j++) { /* two outputs to one file: the later would clobber */
            if (outs[j][1] && cutune_path_same(outs[i][1], outs[j][1])) {
                cutune_err(err, sizeof err, CUTUNE_EINVAL,
                           "--%s=%s: is also the %s file; each output needs its own path",
                           outs[i][0], outs[i][1], outs[j][0]);
                goto bad_input;
            }
        }
        if (resume && i == 0 ? check_appendable(outs[i][1], err, sizeof err) < 0
                             : cli_check_writable(outs[i][0], outs[i][1], err, sizeof err) < 0)
            goto bad_input;
        /* a journal is the record of a run: never truncated nor replaced */
        struct stat js;
        if (i == 0 && !resume && !claimed_journal && lstat(outs[i][1], &js) == 0) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--journal=%s: exists; --resume=%s continues that run, or remove it",
                       outs[i][1], outs[i][1]);
            goto bad_input;
        }
    }
    /* the header's names are known now: a header that would be refused is refused first */
    if (o.header || o.kt) /* it may load the recordings a journal names: only when used */
        kernel = rec_kernel_name(t.rec, kname, sizeof kname, 4);
    if (o.header &&
        cutune_export_header_check(o.header, t.space, t.spec, kernel, err, sizeof err) < 0)
        goto bad_input;
    if (o.csv && cutune_export_csv_check(o.csv, t.space, t.spec, err, sizeof err) < 0)
        goto bad_input;
    if (o.kt && cutune_export_kt_cache_check(o.kt, t.space, err, sizeof err) < 0)
        goto bad_input;

    rng = gsl_rng_alloc(gsl_rng_mt19937);
    size_t n = cutune_space_size(t.space);
    visited = calloc(n ? n : 1, 1);
    if (!rng || !visited) {
        cutune_err(err, sizeof err, CUTUNE_ENOMEM, "out of memory");
        status = 1;
        goto fail;
    }
    gsl_rng_set(rng, o.seed);

    cutune_evaluator_ctx ectx = {.space = t.space,
                                 .spec = t.spec,
                                 .arg = eargs_shown,
                                 .seed = o.seed,
                                 .recording = t.rec,
                                 .need_metrics = needs,
                                 .nneed = nneeds};
    char deadline[64];
    if (mpi_size > 1 && mpi_rank == 0) { /* the ranks evaluate; rank 0 sends them work */
        snprintf(deadline, sizeof deadline, "deadline=%.17g", o.rank_timeout);
        ectx.arg = deadline;
        et = cutune_evaluator_mpi;
    }
    rc = cutune_evaluator_alloc(et, &ectx, &ev, err, sizeof err);
    if (rc < 0 && et == cutune_evaluator_replay)
        cli_spec_recording_said(t.spec, shipped, eargs, rc, err, sizeof err);
    if (rc < 0)
        goto bad_input;
    if (mpi_rank > 0) {
        if ((rc = cutune_mpi_serve(ev, err, sizeof err)) < 0) {
            status = 1;
            goto fail;
        }
        status = 0;
        goto out;
    }
    /* before the searcher: a warm start reads the database (tdb.key, cutune_db_rows_transfer);
     * the run's rows are stored once the searcher has taken the input */
    if ((rc = cli_tune_db_open(&o, &t, ename, eargs, ev, &tdb, err, sizeof err)) < 0 ||
        (resume && (rc = cli_resume_check_gpu(o.resume, resume->gpu, ename, ev, o.devices, &tdb,
                                              err, sizeof err)) < 0))
        goto bad_input;
    if (cli_warm_start_load(o.warm_start, tdb.db, &tdb.key, t.space, &warm, err, sizeof err) < 0 ||
        cli_warm_start_check_resume(&o, &r, &warm, err, sizeof err) < 0)
        goto bad_input;
    cutune_searcher_ctx sctx = {.space = t.space,
                                .budget = r.searcher_budget ? r.searcher_budget : o.budget,
                                .rng = rng,
                                .visited = visited,
                                .args = sargs,
                                .nobjectives = cutune_objective_count(objective),
                                .stop = &cli_stop_requested,
                                .warm = warm.prior};
    rc = cutune_searcher_alloc(st, &sctx, &searcher, err, sizeof err);
    if (rc < 0 ||
        (rc = cli_tune_db_start(&o, &t, ename, eargs, journal, &tdb, err, sizeof err)) < 0)
        goto bad_input;
    /* what the warm start is, once nothing can refuse the input: a refusal is one line */
    cli_warm_start_say_cold(o.warm_start, &warm);
    if (warm.prior && !o.quiet)
        fprintf(stderr,
                "%s: warm start from %s: %zu observations mapped (%zu dropped), %zu shared "
                "parameters%s\n",
                cli_progname, warm.path, warm.prior->nused, warm.prior->ndropped,
                warm.prior->nshared,
                strcmp(st->name, "bo") && strcmp(st->name, "genetic")
                    ? " (unused: only bo and genetic use a warm start)"
                    : "");
    if (rec_objective[0])
        fprintf(stderr,
                "%s: %s was tuned for '%s': replaying that objective, %s (--objective "
                "to choose another)\n",
                cli_progname, t.path, t.rec->objective,
                t.rec->objective_max ? "maximised" : "minimised");
    if (announced) /* stderr: -q's stdout stays the best configuration alone */
        fprintf(stderr,
                "%s: no GPU here: replaying the recording %s (measured on the H200); "
                "--evaluator=cuda to measure\n",
                cli_progname, eargs_shown);

    cli_catch_stop_signals();

    int replay = strcmp(ename, "replay") == 0;
    int kt_times = replay && eargs && cli_is_kt_cache(eargs);
    /* the target by its absolute path, for the header (resume checks it from anywhere) */
    static char target_abs[PATH_MAX];
    if (!realpath(t.path, target_abs))
        snprintf(target_abs, sizeof target_abs, "%s", t.path);
    /* a cuda run's GPU as the database keys it, in the header whether or not a database
     * is in use: `db import` of the journal files it with the run's own rows (a resumed
     * journal keeps the header it has) */
    static char journal_gpu[sizeof tdb.key.gpu.fingerprint];
    if (!resume)
        cli_journal_gpu(ename, ev, o.devices, &tdb, journal_gpu, sizeof journal_gpu);
    cutune_tuner_options opt = {
        .budget = o.budget,
        .time_limit_s = o.time_limit,
        .charge_recorded_time = replay && mpi_size == 1,
        .batch = o.batch,
        .parallel = o.parallel,
        .journal_path = journal,
        .resume = resume,
        .progress = o.progress && !o.quiet,
        .deterministic_clock = replay && mpi_size == 1,
        .stop = &cli_stop_requested,
        .searcher_name = sname,
        .searcher_args = sargs,
        .evaluator_name = ename,
        .evaluator_arg = eargs_shown,
        .target = target_abs,
        .seed = o.seed,
        .cartesian = o.so.cartesian,
        .store = tdb.store ? cutune_db_store_hooks(tdb.store) : NULL,
        .objective = objective,
        .warm_start = warm.prior ? warm.path : NULL,
        .warm_start_hash = warm.prior ? warm.hash : NULL,
        .gpu = journal_gpu[0] ? journal_gpu : NULL,
    };
    if (r.searcher_budget && resume && resume->nrecords < o.budget) /* more to evaluate */
        fprintf(stderr,
                "%s: extending %s from a budget of %lu to %lu evaluations (give --budget=%lu "
                "again to resume it later)\n",
                cli_progname, o.resume, r.searcher_budget, o.budget, o.budget);
    cutune_stop_reason why;
    if (mpi_rank == 0)
        cli_tune_say_dropped_tail(resume);
    rc = cutune_tune(t.space, t.spec, searcher, visited, ev, &opt, &hist, &why, err, sizeof err);
    release_claim(); /* the journal is there now (or the run failed before it) */
    /* The best few measured again, interleaved: the winner among those the noise cannot
     * tell apart, by a fixed rule (docs/objectives.md#confirmation). */
    static cutune_confirm_result confirm;
    if (rc == 0 && o.confirm > 0 && why != CUTUNE_STOP_SIGNAL && hist.best >= 0) {
        rc = cutune_confirm_run(ev, t.space, t.spec, objective, &hist, o.confirm, o.confirm_rounds,
                                o.seed, &cli_stop_requested, &confirm, err, sizeof err);
        if (rc == 0 && confirm.winner >= 0)
            hist.confirm = &confirm;
        /* stopped during the confirmation: the run was stopped (exit 130, "signal"), and
         * its best is the unconfirmed one; said, not passed off as a finished run */
        if (rc == 0 && cli_stop_requested) {
            why = CUTUNE_STOP_SIGNAL;
            hist.confirm = NULL;
            if (!o.quiet)
                fprintf(stderr,
                        "%s: stopped during the confirmation of the best %lu: "
                        "the best is the run's, unconfirmed\n",
                        cli_progname, o.confirm);
        }
    }
    if (rc < 0) {
        status = rc == CUTUNE_EBUSY ? 2 : 1; /* the journal is another run's: refused */
        if (hist.n) /* what was measured before the failure is in the journal */
            cli_tune_print_summary(&t, kt_times, objective, &hist, "error", journal, o.quiet);
        goto fail;
    }
    cli_tune_print_summary(&t, kt_times, objective, &hist, cli_tune_stop_reason_name(why), journal,
                           o.quiet);
    if (cutune_objective_count(objective) > 1 &&
        (rc = cli_tune_report_front(&t, objective, &hist, o.front, o.quiet, err, sizeof err)) < 0)
        goto export_fail;

    /* a run that found no correct configuration failed at its one job: scripts see it in
     * the exit status (the outputs, which record every failure, are still written) */
    status = why == CUTUNE_STOP_SIGNAL ? 130 : hist.best < 0 ? 1 : 0;
    if (o.output &&
        (rc = cutune_export_summary(o.output, t.space, t.spec, &hist,
                                    cli_tune_stop_reason_name(why), err, sizeof err)) < 0)
        goto export_fail;
    if (o.output) {
        const char *cons[64];
        size_t ncons = 0;
        for (; ncons < cutune_objective_nconstraints(objective) && ncons < 64; ncons++)
            cons[ncons] = cutune_objective_constraint(objective, ncons);
        const char *warm_files[CLI_WARM_MAX];
        for (size_t i = 0; i < warm.nfiles && warm.prior; i++)
            warm_files[i] = warm.files[i];
        cli_tune_manifest_extra x = {
            .objective =
                cutune_objective_is_time(objective) ? NULL : cutune_objective_text(objective),
            .subject_to = cons,
            .nsubject_to = ncons,
            .batch = o.batch,
            .time_limit_s = o.time_limit,
            .warm_files = warm_files,
            .nwarm_files = warm.prior ? warm.nfiles : 0,
            .warm_prior = warm.prior ? warm.hash : NULL,
        };
        if ((rc = cli_tune_attach_manifest(
                 o.output, target_abs, replay ? eargs_shown : NULL, o.so.restrict_exprs,
                 o.so.nrestrict, o.so.cartesian, st, sargs, o.budget, o.seed,
                 ran_parallel(o.parallel, o.batch, o.budget, ev), &x, err, sizeof err)) < 0)
            goto export_fail;
    }
    if (o.csv && (rc = cutune_export_csv(o.csv, t.space, t.spec, &hist, err, sizeof err)) < 0)
        goto export_fail;
    if (o.kt && (rc = cutune_export_kt_cache_recorded(o.kt, t.space, t.spec, t.rec, kernel,
                                                      cutune_evaluator_device(ev), &hist, err,
                                                      sizeof err)) < 0)
        goto export_fail;
    if (o.t4 && (rc = cutune_export_t4(o.t4, t.space, t.spec, cutune_evaluator_device(ev), &hist,
                                       err, sizeof err)) < 0)
        goto export_fail;
    if (o.header &&
        (rc = cutune_export_header(o.header, t.space, t.spec, kernel, &hist, err, sizeof err)) < 0)
        goto export_fail;
    goto out;

export_fail: /* a stopped run keeps 130: what failed (no best to export) is the stop's doing */
    status = why == CUTUNE_STOP_SIGNAL ? 130 : 1;
    goto fail;
bad_input:
    status = 2;
fail:
    if (mpi_size > 1)
        fprintf(stderr, "%s: rank %d: %s\n", cli_progname, mpi_rank, err);
    else
        fprintf(stderr, "%s: %s\n", cli_progname, err);
    release_claim(); /* the default journal's name (before an MPI abort, which does not come
                        back) */
    if (made_runs_dir)
        rmdir("runs"); /* only if empty: a refused run leaves nothing behind */
    if (mpi_size > 1 && !(mpi_rank == 0 && ev)) /* no rank may wait for one that has left */
        cutune_mpi_abort(status);
out:
    if (claimed_journal) { /* a run that never reached the tuner: its name's claim */
        release_claim();
        if (made_runs_dir)
            rmdir("runs");
    }
    cli_tune_db_end(&tdb);
    cutune_history_free(&hist);
    cutune_objective_free(objective);
    cutune_searcher_free(searcher);
    cli_warm_start_free(&warm);
    cutune_evaluator_free(ev);
    free(visited);
    gsl_rng_free(rng);
    cli_target_free(&t);
    cutune_recording_free(resume);
    if (mpi_size > 1)
        cutune_mpi_finalize();
    return status;
}
