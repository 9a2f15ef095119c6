/* Simulated scale-out: the tuner loop itself (cutune_tune, the replay evaluator and its
 * virtual clock) on recordings that hold compile and benchmark times, with N workers.
 * Per (recording, searcher, N), over seeds 1..S, one run of budget B each:
 *   - frac: mean fraction of the optimum (t_opt / best) after the run's B evaluations;
 *   - t95, t99: median virtual seconds until the best so far reaches 95% / 99% of the
 *     optimum (inf when a run does not within B; the median is inf when half do not).
 * The optimum is the best recorded time of the space (the recorded configurations).
 *   bench_parallel [--seeds S] [--budget B] [--jobs J] [--workers 1,2,4,8,16]
 *                  [--searchers bo,genetic,random] --out PREFIX RECORDING...
 * writes PREFIX.csv (one row per cell) and PREFIX.json, prints a table. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cutune/cutune.h"
#include "cutune/recording.h"

typedef struct {
    cutune_recording *rec;
    cutune_space *space;
    double t_opt;
    char name[128];
} recording;

typedef struct {
    size_t ri, si, wi, seed;
    double frac, t95, t99;
} job;

static recording *recs;
static size_t nrecs;
static const char *searchers[8];
static size_t nsearchers;
static size_t workers[16], nworkers;
static size_t budget = 60, nseeds = 20;
static job *jobs;
static size_t njobs, next_job;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static int run_job(job *jb, char *err, size_t errlen)
{
    const recording *r = &recs[jb->ri];
    size_t n = cutune_space_size(r->space);
    int rc;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    uint8_t *visited = calloc(n, 1);
    cutune_searcher *s = NULL;
    cutune_evaluator *ev = NULL;
    cutune_history hist = {.best = -1};
    gsl_rng_set(rng, (unsigned long)jb->seed);
    const cutune_searcher_type *t = cutune_searcher_find(searchers[jb->si], err, errlen);
    cutune_searcher_ctx sctx = {
        .space = r->space, .budget = budget, .rng = rng, .visited = visited, .args = NULL};
    cutune_evaluator_ctx ectx = {.space = r->space, .arg = r->rec->path, .recording = r->rec};
    if (!t || (rc = cutune_searcher_alloc(t, &sctx, &s, err, errlen)) < 0 ||
        (rc = cutune_evaluator_alloc(cutune_evaluator_replay, &ectx, &ev, err, errlen)) < 0) {
        rc = -1;
        goto out;
    }
    cutune_tuner_options opt = {.budget = budget,
                                .charge_recorded_time = 1,
                                .batch = 1,
                                .parallel = workers[jb->wi],
                                .deterministic_clock = 1};
    cutune_stop_reason why;
    if ((rc = cutune_tune(r->space, NULL, s, visited, ev, &opt, &hist, &why, err, errlen)) < 0)
        goto out;
    double best = INFINITY;
    jb->t95 = jb->t99 = INFINITY;
    for (size_t i = 0; i < hist.n; i++) {
        const cutune_history_entry *e = &hist.e[i];
        if (e->r.status == CUTUNE_STATUS_OK && e->r.time_ms < best)
            best = e->r.time_ms;
        double f = isfinite(best) ? r->t_opt / best : 0;
        if (f >= 0.95 && !isfinite(jb->t95))
            jb->t95 = e->wall_s;
        if (f >= 0.99 && !isfinite(jb->t99))
            jb->t99 = e->wall_s;
    }
    jb->frac = isfinite(best) ? r->t_opt / best : 0;
out:
    cutune_history_free(&hist);
    cutune_evaluator_free(ev);
    cutune_searcher_free(s);
    free(visited);
    gsl_rng_free(rng);
    return rc;
}

static void *worker_main(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&mu);
        size_t j = next_job++;
        pthread_mutex_unlock(&mu);
        if (j >= njobs)
            return NULL;
        char err[512];
        if (run_job(&jobs[j], err, sizeof err) < 0) {
            fprintf(stderr, "bench_parallel: %s: %s\n", recs[jobs[j].ri].name, err);
            exit(1);
        }
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static size_t split(char *s, const char **out, size_t max)
{
    size_t n = 0;
    for (char *tok = strtok(s, ","); tok && n < max; tok = strtok(NULL, ","))
        out[n++] = tok;
    return n;
}

int main(int argc, char **argv)
{
    const char *prefix = NULL;
    char wl[128] = "1,2,4,8,16", sl[128] = "bo,genetic,random";
    long njobs_threads = sysconf(_SC_NPROCESSORS_ONLN);
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
            nseeds = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
            budget = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
            njobs_threads = strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--workers") && i + 1 < argc)
            snprintf(wl, sizeof wl, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--searchers") && i + 1 < argc)
            snprintf(sl, sizeof sl, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            prefix = argv[++i];
        else {
            fprintf(stderr, "bench_parallel: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (!prefix || i >= argc) {
        fprintf(stderr, "usage: bench_parallel [--seeds S] [--budget B] [--jobs J] [--workers "
                        "1,2,4] [--searchers bo,random] --out PREFIX RECORDING...\n");
        return 2;
    }
    const char *wtok[16];
    nworkers = split(wl, wtok, 16);
    for (size_t w = 0; w < nworkers; w++)
        workers[w] = strtoul(wtok[w], NULL, 10);
    nsearchers = split(sl, searchers, 8);
    recs = calloc((size_t)(argc - i), sizeof *recs);
    char err[1024];
    for (; i < argc; i++) {
        recording *r = &recs[nrecs];
        if (cutune_recording_load(argv[i], &r->rec, err, sizeof err) < 0 ||
            cutune_recording_space(r->rec, NULL, 0, 1, &r->space, err, sizeof err) < 0) {
            fprintf(stderr, "bench_parallel: %s\n", err);
            return 1;
        }
        if (!r->rec->has_costs) {
            fprintf(stderr, "bench_parallel: %s holds no compile/benchmark times: left out\n",
                    argv[i]);
            cutune_space_free(r->space);
            cutune_recording_free(r->rec);
            continue;
        }
        r->t_opt = INFINITY;
        for (size_t k = 0; k < r->rec->nrecords; k++)
            if (r->rec->records[k].status == CUTUNE_STATUS_OK &&
                r->rec->records[k].time_ms < r->t_opt)
                r->t_opt = r->rec->records[k].time_ms;
        const char *b = strrchr(argv[i], '/');
        snprintf(r->name, sizeof r->name, "%s", b ? b + 1 : argv[i]);
        char *dot = strstr(r->name, ".json");
        if (dot)
            *dot = '\0';
        nrecs++;
    }
    njobs = nrecs * nsearchers * nworkers * nseeds;
    jobs = calloc(njobs, sizeof *jobs);
    for (size_t j = 0; j < njobs; j++)
        jobs[j] = (job){.seed = j % nseeds + 1,
                        .wi = j / nseeds % nworkers,
                        .si = j / (nseeds * nworkers) % nsearchers,
                        .ri = j / (nseeds * nworkers * nsearchers)};
    pthread_t th[256];
    size_t nt = njobs_threads < 1 ? 1 : njobs_threads > 256 ? 256 : (size_t)njobs_threads;
    for (size_t t = 0; t < nt; t++)
        pthread_create(&th[t], NULL, worker_main, NULL);
    for (size_t t = 0; t < nt; t++)
        pthread_join(th[t], NULL);

    char path[4096];
    snprintf(path, sizeof path, "%s.csv", prefix);
    FILE *csv = fopen(path, "w");
    snprintf(path, sizeof path, "%s.json", prefix);
    FILE *js = fopen(path, "w");
    if (!csv || !js) {
        fprintf(stderr, "bench_parallel: cannot write %s.*\n", prefix);
        return 1;
    }
    fprintf(csv, "recording,searcher,workers,seeds,budget,frac,t95_s,t99_s\n");
    fprintf(js, "{\"budget\":%zu,\"seeds\":%zu,\"cells\":[\n", budget, nseeds);
    printf("%-34s %-8s %3s %7s %9s %9s\n", "recording", "searcher", "N", "frac", "t95_s", "t99_s");
    double *v95 = malloc(nseeds * sizeof *v95), *v99 = malloc(nseeds * sizeof *v99);
    int first = 1;
    for (size_t c = 0; c < njobs; c += nseeds) {
        double f = 0;
        for (size_t k = 0; k < nseeds; k++) {
            f += jobs[c + k].frac;
            v95[k] = jobs[c + k].t95;
            v99[k] = jobs[c + k].t99;
        }
        f /= (double)nseeds;
        double m95 = median(v95, nseeds), m99 = median(v99, nseeds);
        const job *jb = &jobs[c];
        fprintf(csv, "%s,%s,%zu,%zu,%zu,%.4f,%.2f,%.2f\n", recs[jb->ri].name, searchers[jb->si],
                workers[jb->wi], nseeds, budget, f, m95, m99);
        fprintf(js,
                "%s{\"recording\":\"%s\",\"searcher\":\"%s\",\"workers\":%zu,\"frac\":%.4f,"
                "\"t95_s\":%s%.2f%s,\"t99_s\":%s%.2f%s}",
                first ? "" : ",\n", recs[jb->ri].name, searchers[jb->si], workers[jb->wi], f,
                isfinite(m95) ? "" : "\"", m95, isfinite(m95) ? "" : "\"",
                isfinite(m99) ? "" : "\"", m99, isfinite(m99) ? "" : "\"");
        first = 0;
        printf("%-34s %-8s %3zu %7.4f %9.2f %9.2f\n", recs[jb->ri].name, searchers[jb->si],
               workers[jb->wi], f, m95, m99);
    }
    fprintf(js, "\n]}\n");
    fclose(csv);
    fclose(js);
    return 0;
}
