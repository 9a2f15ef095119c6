/* The tuner loop: it keeps up to N evaluations in flight (evaluator submit /
 * wait_any), asks the searcher for a proposal whenever enough slots are free (the
 * searcher knows what is still pending: bo believes fantasies for it, genetic and
 * random exclude it), and observes results in completion order. It owns the budget
 * (unique evaluations, in flight ones included), de-duplication (an id is never in
 * flight twice), the journal, resume and progress (DESIGN.md, data flow).
 *
 * Under a simulated evaluator (replay) the completion order comes from a virtual
 * clock: each evaluation occupies its worker for its recorded compile + benchmark
 * time, the earliest finish completes first, ties go to the earlier submission. The
 * schedule is then a function of the seed and N alone: same seed and N, the same
 * journal; N = 1 is the sequential loop.
 *
 * Resume works by replaying: the run restarts from the same seed and N, and every
 * submission already in the resumed journal is answered from it instead of being
 * evaluated again; journaled evaluations complete in the journal's order (before any
 * new one), which is the order the interrupted run saw. Searchers are deterministic
 * given the seed and the answers, so an interrupted and resumed run ends with exactly
 * the evaluations of an uninterrupted one; what was in flight at the interruption is
 * proposed again and evaluated, and nothing journaled is measured twice.
 *
 * A stop (a signal, the time limit) drains what is in flight: a measured result is never
 * thrown away. Under a simulated evaluator it is dropped instead (drop_unjournaled):
 * there the drained evaluations would be journaled before the ones an uninterrupted run
 * submits after the stop and completes earlier on the virtual clock, so the journal would
 * not be a prefix of the uninterrupted one and a resumed run would observe them in
 * another order. Replaying them costs nothing when the run is resumed. An evaluator that
 * stores its answers elsewhere as it makes them (CUTUNE_EVALUATOR_RECORDS) is drained, so
 * that the journal and that store agree.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cutune/journal.h"
#include "cutune/objective.h"
#include "cutune/recording.h"
#include "cutune/spec.h"
#include "cutune/tuner.h"
#include "src/io/io_internal.h"

/* Consecutive already-visited proposals after which a searcher is taken to
 * have nothing new to offer. */
#define MAX_DUPLICATE_STREAK 10000

/* The virtual clock's model of an evaluation a recording holds no cost for (a
 * configuration absent from it, or a recording without compile and benchmark times):
 * a compile of SIM_COMPILE_MS, then SIM_BENCH_MS plus SIM_BENCH_REPS timed runs. */
#define SIM_COMPILE_MS 1000.0
#define SIM_BENCH_MS 50.0
#define SIM_BENCH_REPS 32.0

/* id -> history index, open addressing (spaces can have 10^7 ids; runs have
 * few evaluations, so no dense array). */
typedef struct {
    size_t *keys;
    long *vals;
    size_t cap, fill;
} idmap;

static size_t idmap_slot(const idmap *m, size_t key)
{
    size_t mask = m->cap - 1;
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 13) & mask;
    while (m->vals[h] >= 0 && m->keys[h] != key)
        h = (h + 1) & mask;
    return h;
}

static int idmap_put(idmap *m, size_t key, long val)
{
    if ((m->fill + 1) * 2 > m->cap) {
        idmap old = *m;
        m->cap = old.cap ? old.cap * 2 : 256;
        m->keys = malloc(m->cap * sizeof *m->keys);
        m->vals = malloc(m->cap * sizeof *m->vals);
        if (!m->keys || !m->vals) {
            free(m->keys);
            free(m->vals);
            *m = old;
            return CUTUNE_ENOMEM;
        }
        for (size_t i = 0; i < m->cap; i++)
            m->vals[i] = -1;
        m->fill = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.vals[i] >= 0) {
                size_t h = idmap_slot(m, old.keys[i]);
                m->keys[h] = old.keys[i];
                m->vals[h] = old.vals[i];
                m->fill++;
            }
        free(old.keys);
        free(old.vals);
    }
    size_t h = idmap_slot(m, key);
    if (m->vals[h] < 0)
        m->fill++;
    m->keys[h] = key;
    m->vals[h] = val;
    return 0;
}

static long idmap_get(const idmap *m, size_t key)
{
    if (!m->cap)
        return -1;
    return m->vals[idmap_slot(m, key)];
}

static void idmap_free(idmap *m)
{
    free(m->keys);
    free(m->vals);
}

void cutune_history_free(cutune_history *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->n; i++) {
        cutune_eval_result_clear(&h->e[i].r);
        free(h->e[i].spec_metrics);
    }
    free(h->e);
    memset(h, 0, sizeof *h);
    h->best = -1;
}

static int history_push(cutune_history *h, cutune_history_entry **out)
{
    if (h->n == h->cap) {
        size_t ncap = h->cap ? h->cap * 2 : 64;
        cutune_history_entry *ne = realloc(h->e, ncap * sizeof *ne);
        if (!ne)
            return CUTUNE_ENOMEM;
        h->e = ne;
        h->cap = ncap;
    }
    *out = &h->e[h->n++];
    memset(*out, 0, sizeof **out);
    return 0;
}

/* Fill an eval result from a resumed journal record; with_metrics: its recorded metrics
 * too, but the spec's own (computed again from the time), for an objective that reads
 * them. */
static int result_from_record(const cutune_record *rec, const cutune_spec *spec, int with_metrics,
                              cutune_eval_result *r)
{
    memset(r, 0, sizeof *r);
    r->status = rec->status;
    r->time_ms = rec->time_ms;
    r->compile_ms = rec->compile_ms;
    r->bench_ms = rec->bench_ms;
    if (rec->ntimes) {
        r->times_ms = malloc(rec->ntimes * sizeof *r->times_ms);
        if (!r->times_ms)
            return CUTUNE_ENOMEM;
        memcpy(r->times_ms, rec->times_ms, rec->ntimes * sizeof *r->times_ms);
        r->ntimes = rec->ntimes;
    }
    for (size_t m = 0; with_metrics && m < rec->nmetrics; m++) {
        int derived = 0;
        for (size_t k = 0; spec && k < spec->nmetrics && !derived; k++)
            derived = !strcmp(spec->metrics[k].name, rec->metrics[m].name);
        if (!derived &&
            cutune_eval_result_add_metric(r, rec->metrics[m].name, rec->metrics[m].value) < 0)
            return CUTUNE_ENOMEM;
    }
    return 0;
}

static void format_duration(double s, char *buf, size_t len)
{
    if (!isfinite(s) || s < 0)
        s = 0;
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

static void progress_line(const cutune_history *h, size_t budget, double elapsed, int final)
{
    char eta[32] = "-", best[64] = "none yet";
    /* from the evaluations measured in this process (a resumed journal's come at once) */
    if (h->n > h->resumed)
        format_duration(elapsed / (double)(h->n - h->resumed) * (double)(budget - h->n), eta,
                        sizeof eta);
    if (h->best >= 0)
        snprintf(best, sizeof best, "%.4g ms (#%ld)", h->e[h->best].r.time_ms, h->best + 1);
    fprintf(stderr, "\r\033[K[%zu/%zu] best %s  ETA %s", h->n, budget, best, eta);
    if (final)
        fputc('\n', stderr);
    fflush(stderr);
}

/* One evaluation in flight. */
typedef struct {
    int busy;
    size_t id;
    size_t proposed;      /* submission order */
    long rec;             /* the resumed journal's record of it, or -1 */
    int have;             /* r is known (simulated, from the resumed journal or the store) */
    int reused;           /* answered by the store */
    int worker;           /* who ran it, once known */
    cutune_eval_result r; /* owned while have */
    double finish;        /* simulated: virtual clock at completion */
    size_t repeats;       /* proposed again while in flight: observed again when it ends */
    int held;             /* a stop's replay: holds its slot as the run did, never evaluated */
} flight;

/* Seconds one simulated evaluation occupies its worker: the recorded compile and
 * benchmark times, the model above where nothing is recorded. */
static double sim_seconds(const cutune_eval_result *r)
{
    if (r->compile_ms < 0 && r->bench_ms < 0) {
        double reps = r->status == CUTUNE_STATUS_OK && isfinite(r->time_ms) && r->time_ms > 0
                          ? SIM_BENCH_REPS * r->time_ms
                          : 0;
        return (SIM_COMPILE_MS + SIM_BENCH_MS + reps) / 1000.0;
    }
    return ((r->compile_ms > 0 ? r->compile_ms : 0) + (r->bench_ms > 0 ? r->bench_ms : 0)) / 1000.0;
}

typedef struct {
    const cutune_space *space;
    const cutune_spec *spec;
    cutune_searcher *searcher;
    uint8_t *visited;
    cutune_evaluator *ev;
    const cutune_tuner_options *opt;
    cutune_history *hist;
    char *err;
    size_t errlen;
    int simulated;  /* the evaluator's answers are played on the virtual clock */
    int charged;    /* ...and the run is charged that clock (charge_recorded_time) */
    double vclock;  /* simulated seconds */
    int have_costs; /* some answer carried a recorded compile or benchmark time */
    double start;   /* wall clock at the start */
    flight *fl;     /* [nslots] */
    size_t nslots, inflight, nsubmitted;
    long *resume_map;   /* id -> record of the resumed journal, or -1 */
    size_t nrecords;    /* the resumed journal's records */
    size_t recs_in;     /* of them submitted (answered from the journal) so far */
    size_t fresh_early; /* evaluations not in the journal submitted before all of it was */
    int stop_replay;    /* stopping: the journal's records are still replayed (free) */
    cutune_journal *journal;
    idmap seen;        /* id -> history index */
    int metric_warned; /* a spec metric failed somewhere (said once) */
} run;

static double run_elapsed(const run *u)
{
    /* a recording without compile/benchmark times charges nothing: wall time then */
    return u->charged && u->have_costs ? u->vclock : cutune_now() - u->start;
}

static int run_oom(run *u)
{
    return cutune_err(u->err, u->errlen, CUTUNE_ENOMEM, "out of memory");
}

/* A stop that must not wait: the flag at 2 or more (SIGTERM, a second Ctrl-C). */
static int urgent_stop(const cutune_tuner_options *opt)
{
    return opt->stop && *opt->stop >= 2;
}

/* The first free slot, cleared and marked busy for id, in submission order; the caller
 * knows there is one (inflight < nslots) and counts it in flight once it is. */
static flight *take_slot(run *u, size_t id)
{
    size_t w = 0;
    while (u->fl[w].busy)
        w++;
    flight *f = &u->fl[w];
    *f = (flight){.busy = 1, .id = id, .proposed = u->nsubmitted++, .worker = (int)w, .rec = -1};
    return f;
}

/* Put id in a free slot: answered from the resumed journal, simulated now, or
 * submitted to the evaluator. */
static int submit(run *u, size_t id)
{
    flight *f = take_slot(u, id);
    f->rec = u->resume_map ? u->resume_map[id] : -1;
    if (f->rec >= 0)
        u->recs_in++;
    else if (u->recs_in < u->nrecords)
        u->fresh_early++;
    int rc;
    if (f->rec >= 0) {
        int metrics = u->opt->resume_metrics || !cutune_objective_is_time(u->opt->objective);
        if ((rc = result_from_record(&u->opt->resume->records[f->rec], u->spec, metrics, &f->r)) <
            0)
            return run_oom(u);
        f->have = 1;
    } else if (u->opt->store && u->opt->store->lookup &&
               (rc = u->opt->store->lookup(u->opt->store->ctx, id, &f->r, u->err, u->errlen)) !=
                   0) {
        if (rc < 0) {
            cutune_eval_result_clear(&f->r);
            return rc;
        }
        f->have = f->reused = 1; /* simulated: played on the virtual clock as recorded */
    } else if (u->simulated) {
        if ((rc = cutune_evaluator_evaluate(u->ev, &id, 1, &f->r, u->err, u->errlen)) < 0) {
            cutune_eval_result_clear(&f->r);
            return rc;
        }
        f->have = 1;
    } else if ((rc = cutune_evaluator_submit(u->ev, id, u->err, u->errlen)) < 0) {
        return rc;
    }
    if (u->simulated)
        f->finish = u->vclock + sim_seconds(&f->r);
    u->inflight++;
    return 0;
}

/* The slot holding id in flight, or -1 (a scan: there are few slots). */
static long flying(const run *u, size_t id)
{
    for (size_t i = 0; i < u->nslots; i++)
        if (u->fl[i].busy && u->fl[i].id == id)
            return (long)i;
    return -1;
}

/* A stopping simulated run: its in-flight evaluations that the resumed journal does not
 * hold leave unobserved and unjournaled (the top comment says why). */
static void drop_unjournaled(run *u)
{
    for (size_t i = 0; i < u->nslots; i++) {
        flight *f = &u->fl[i];
        if (f->busy && f->rec < 0 && !f->held) { /* held slots go with drop_held */
            cutune_eval_result_clear(&f->r);
            f->busy = 0;
            u->inflight--;
        }
    }
}

/* A stop's replay: once no record of the journal is in flight, the slots held for
 * proposals it lacks are let go (nothing after them can be replayed as it ran). */
static void drop_held(run *u)
{
    for (size_t i = 0; i < u->nslots; i++)
        if (u->fl[i].busy && u->fl[i].rec >= 0)
            return;
    for (size_t i = 0; i < u->nslots; i++)
        if (u->fl[i].busy && u->fl[i].held) {
            u->fl[i].busy = 0;
            u->inflight--;
        }
}

/* Which in-flight evaluation completes next; its result is in u->fl[*w].r. */
static int complete_next(run *u, size_t *w)
{
    long pick = -1;
    /* journaled ones first, in the journal's order: the journal's lines keep their places
     * (an interrupted run's journal is what completed first anyway) */
    for (size_t i = 0; i < u->nslots; i++) {
        const flight *f = &u->fl[i];
        if (f->busy && f->rec >= 0 && (pick < 0 || f->rec < u->fl[pick].rec))
            pick = (long)i;
    }
    /* answered by the store: nothing to wait for (under a simulated evaluator they keep
     * their places on the virtual clock, so a run's journal is the same with or without
     * them) */
    for (size_t i = 0; pick < 0 && !u->simulated && i < u->nslots; i++)
        if (u->fl[i].busy && u->fl[i].reused)
            pick = (long)i;
    if (pick < 0 && u->simulated) {
        for (size_t i = 0; i < u->nslots; i++) {
            const flight *f = &u->fl[i];
            /* the virtual clock: earliest finish, ties to the earlier submission */
            if (f->busy &&
                (pick < 0 || f->finish < u->fl[pick].finish ||
                 (f->finish == u->fl[pick].finish && f->proposed < u->fl[pick].proposed)))
                pick = (long)i;
        }
    }
    if (pick >= 0) {
        *w = (size_t)pick;
        if (u->simulated && u->fl[pick].finish > u->vclock)
            u->vclock = u->fl[pick].finish;
        return 0;
    }
    size_t id;
    int worker = -1;
    cutune_eval_result r;
    memset(&r, 0, sizeof r);
    int rc = cutune_evaluator_wait_any(u->ev, &id, &worker, &r, u->err, u->errlen);
    long slot = rc < 0 ? -1 : flying(u, id);
    if (rc >= 0 && (slot < 0 || u->fl[slot].have))
        rc = cutune_err(u->err, u->errlen, CUTUNE_EINVAL,
                        "evaluator %s answered configuration %zu, which is not in flight",
                        u->ev->type->name, id);
    if (rc < 0) {
        cutune_eval_result_clear(&r);
        return rc;
    }
    flight *f = &u->fl[slot];
    f->r = r;
    f->have = 1;
    f->worker = worker;
    *w = (size_t)slot;
    return 0;
}

/* Several objectives: each one's score into parts (16 at most), for the searcher. */
static void observation_parts(const cutune_objective *obj, const cutune_history_entry *e,
                              cutune_observation *o, double *parts)
{
    size_t k = cutune_objective_count(obj);
    if (k < 2 || k > 16)
        return;
    for (size_t j = 0; j < k; j++)
        parts[j] = cutune_objective_score(cutune_objective_part(obj, j), e);
    o->objectives = parts;
    o->nobjectives = k;
}

/* Move slot w's result into the history, the journal and the searcher. */
static int finish(run *u, size_t w)
{
    flight *f = &u->fl[w];
    cutune_history *hist = u->hist;
    const cutune_spec *spec = u->spec;
    /* an evaluator of the library's user is held to what the journal can record: a status
     * of the enum, and an ok result with a time above 0 (journal_load.c refuses others) */
    if ((unsigned)f->r.status >= CUTUNE_STATUS_COUNT)
        return cutune_err(u->err, u->errlen, CUTUNE_EINVAL,
                          "evaluator %s answered status %d, which is no cutune_status",
                          u->ev->type->name, (int)f->r.status);
    if (f->r.status == CUTUNE_STATUS_OK && !(isfinite(f->r.time_ms) && f->r.time_ms > 0.0))
        return cutune_err(u->err, u->errlen, CUTUNE_EINVAL,
                          "evaluator %s answered ok with a time of %g ms (an ok result needs "
                          "a time above 0)",
                          u->ev->type->name, f->r.time_ms);
    cutune_history_entry *e;
    int rc = history_push(hist, &e);
    if (rc < 0)
        return run_oom(u);
    e->id = f->id;
    e->r = f->r;
    memset(&f->r, 0, sizeof f->r);
    e->worker = f->worker;
    e->proposed = f->proposed;
    int from_journal = f->rec >= 0;
    hist->resumed += from_journal;
    e->reused = f->reused;
    hist->reused += f->reused;
    size_t repeats = f->repeats;
    f->busy = 0;
    u->inflight--;
    if (e->r.compile_ms >= 0 || e->r.bench_ms >= 0)
        u->have_costs = 1;
    e->wall_s = u->charged ? u->vclock : cutune_now() - u->start;
    if (!u->opt->deterministic_clock)
        cutune_io_iso_now_ms(e->timestamp, sizeof e->timestamp);
    if (spec && spec->nmetrics) {
        e->spec_metrics = malloc(spec->nmetrics * sizeof *e->spec_metrics);
        if (!e->spec_metrics)
            return run_oom(u);
        for (size_t m = 0; m < spec->nmetrics; m++)
            e->spec_metrics[m] = NAN;
        char merr[512];
        /* a metric that cannot be computed at some configuration (a division by zero)
         * is left out of that line; said once per run, not silently */
        if (e->r.status == CUTUNE_STATUS_OK &&
            cutune_spec_metrics(spec, e->id, e->r.time_ms, e->spec_metrics, merr, sizeof merr) <
                0 &&
            !u->metric_warned) {
            u->metric_warned = 1;
            fprintf(stderr,
                    "cutune: warning: %s (evaluation %zu; such a metric is left out of "
                    "the lines where it cannot be computed)\n",
                    merr, hist->n);
        }
    }
    if (e->r.status < CUTUNE_STATUS_COUNT)
        hist->counts[e->r.status]++;
    e->score = cutune_objective_score(u->opt->objective, e);
    if (e->r.status == CUTUNE_STATUS_OK && isfinite(e->score) &&
        (hist->best < 0 || e->score < hist->e[hist->best].score))
        hist->best = (long)(hist->n - 1);
    u->visited[e->id] = 1;
    if ((rc = idmap_put(&u->seen, e->id, (long)(hist->n - 1))) < 0)
        return run_oom(u);
    /* A fresh evaluation whose number a record of the resumed journal still holds (an urgent
     * stop ended the replay while it was in flight) is not journaled: the line would repeat
     * that number. A later resume proposes it again. */
    int numbered = from_journal || !(u->resume_map && hist->n - 1 < u->nrecords);
    if (u->journal && !from_journal && numbered &&
        (rc = cutune_journal_write_eval(u->journal, u->space, spec, hist->n - 1, e, u->err,
                                        u->errlen)) < 0)
        return rc;
    const cutune_tuner_store *store = u->opt->store;
    if (store && store->record && numbered &&
        (rc = store->record(store->ctx, hist->n - 1, e, u->err, u->errlen)) < 0)
        return rc;
    cutune_observation o = {.id = e->id, .status = e->r.status, .time_ms = e->score};
    double parts[16];
    observation_parts(u->opt->objective, e, &o, parts);
    for (size_t i = 0; i <= repeats; i++)
        if ((rc = cutune_searcher_observe(u->searcher, &o, 1, u->err, u->errlen)) < 0)
            return rc;
    return 0;
}

/* Ask the searcher for up to k proposals and submit the new ones. *fresh gets how many
 * were submitted, *got how many were proposed. */
static int propose(run *u, size_t k, size_t *ids, size_t *got, size_t *fresh)
{
    size_t n = 0;
    *fresh = 0;
    *got = 0;
    int urgent = urgent_stop(u->opt);
    int rc = cutune_searcher_propose(u->searcher, k, ids, &n, u->err, u->errlen);
    if (rc < 0)
        return rc;
    if (!urgent && urgent_stop(u->opt))
        return 0; /* an urgent stop came during the call: its model may be cut short */
    /* a searcher of the library's user (a plugin) is checked as an evaluator's answers are:
     * an id past the space would index every per-configuration array */
    size_t size = cutune_space_size(u->space);
    if (n > k)
        return cutune_err(u->err, u->errlen, CUTUNE_EINVAL,
                          "searcher %s proposed %zu configurations where %zu were asked for",
                          u->searcher->type->name, n, k);
    for (size_t i = 0; i < n; i++)
        if (ids[i] >= size)
            return cutune_err(u->err, u->errlen, CUTUNE_EINVAL,
                              "searcher %s proposed id %zu of a space of %zu configurations",
                              u->searcher->type->name, ids[i], size);
    *got = n;
    for (size_t i = 0; i < n; i++) {
        long h = idmap_get(&u->seen, ids[i]);
        long w = flying(u, ids[i]);
        if (h >= 0) {
            /* evaluated before: answered from the history, free of charge */
            cutune_observation o = {
                .id = ids[i], .status = u->hist->e[h].r.status, .time_ms = u->hist->e[h].score};
            double parts[16];
            observation_parts(u->opt->objective, &u->hist->e[h], &o, parts);
            if ((rc = cutune_searcher_observe(u->searcher, &o, 1, u->err, u->errlen)) < 0)
                return rc;
        } else if (w >= 0) {
            u->fl[w].repeats++; /* in flight: answered when it completes */
        } else if (u->stop_replay && u->resume_map[ids[i]] < 0) {
            /* stopping: nothing the journal lacks is evaluated; it holds a slot, as it was
             * in flight in the run that wrote the journal, so that the proposals after it
             * are made as they were */
            take_slot(u, ids[i])->held = 1;
            u->inflight++;
            (*fresh)++;
        } else {
            if ((rc = submit(u, ids[i])) < 0)
                return rc;
            (*fresh)++;
        }
    }
    return 0;
}

static int open_journal(run *u, size_t batch)
{
    const cutune_tuner_options *opt = u->opt;
    if (!opt->journal_path)
        return 0;
    if (opt->resume)
        return cutune_journal_append(opt->journal_path, &u->journal, u->err, u->errlen);
    const char *workers[64];
    size_t nworkers = 0;
    while (nworkers < 64 &&
           (workers[nworkers] = cutune_evaluator_worker_name(u->ev, (int)nworkers)))
        nworkers++;
    cutune_journal_header jh = {
        .spec_name = u->spec          ? u->spec->name
                     : opt->spec_name ? opt->spec_name
                                      : opt->evaluator_arg,
        .spec_hash = u->spec ? u->spec->hash : opt->spec_hash,
        .searcher = opt->searcher_name,
        .searcher_args = opt->searcher_args,
        .seed = opt->seed,
        .evaluator = opt->evaluator_name,
        .evaluator_arg = opt->evaluator_arg,
        .target = opt->target,
        .device = cutune_evaluator_device(u->ev),
        .budget = opt->budget,
        .batch = batch,
        .parallel = u->nslots,
        .workers = workers,
        .nworkers = nworkers,
        .deterministic = opt->deterministic_clock,
        .cartesian = opt->cartesian,
        .warm_start = opt->warm_start,
        .warm_start_hash = opt->warm_start_hash,
        .gpu = opt->gpu,
    };
    const char *cons[64];
    const cutune_objective *ob = opt->objective;
    if (!cutune_objective_is_time(ob)) {
        jh.objective = cutune_objective_text(ob);
        for (size_t i = 0; i < cutune_objective_nconstraints(ob) && i < 64; i++)
            cons[jh.nsubject_to++] = cutune_objective_constraint_canonical(ob, i);
        jh.subject_to = cons;
    }
    return cutune_journal_create(opt->journal_path, &jh, u->space, &u->journal, u->err, u->errlen);
}

int cutune_tune(const cutune_space *space, const cutune_spec *spec, cutune_searcher *searcher,
                uint8_t *visited, cutune_evaluator *ev, const cutune_tuner_options *opt,
                cutune_history *hist, cutune_stop_reason *reason, char *err, size_t errlen)
{
    int rc = 0;
    size_t batch = opt->batch ? opt->batch : 1;
    size_t *ids = NULL;
    size_t dup_streak = 0;
    run u = {.space = space,
             .spec = spec,
             .searcher = searcher,
             .visited = visited,
             .ev = ev,
             .opt = opt,
             .hist = hist,
             .err = err,
             .errlen = errlen,
             .simulated = (ev->type->flags & CUTUNE_EVALUATOR_SIMULATED) != 0,
             .start = cutune_now()};
    /* an evaluator that is not simulated has no virtual clock to charge: wall time */
    u.charged = u.simulated && opt->charge_recorded_time;
    int progress = opt->progress && isatty(STDERR_FILENO);
    int stopping = 0, dry = 0; /* no more proposals; the searcher had nothing new */

    hist->best = -1;
    hist->objective = opt->objective;
    *reason = CUTUNE_STOP_BUDGET;
    if (opt->budget == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "budget must be at least 1");
    u.nslots = opt->parallel ? opt->parallel : cutune_evaluator_slots(ev);
    if (u.nslots < batch)
        u.nslots = batch;
    if (u.nslots > opt->budget)
        u.nslots = opt->budget;
    if (batch > u.nslots)
        batch = u.nslots;

    ids = malloc(u.nslots * sizeof *ids);
    u.fl = calloc(u.nslots, sizeof *u.fl);
    if (!ids || !u.fl) {
        rc = run_oom(&u);
        goto out;
    }
    if (opt->resume) {
        u.resume_map = malloc(cutune_space_size(space) * sizeof *u.resume_map);
        if (!u.resume_map) {
            rc = run_oom(&u);
            goto out;
        }
        rc = cutune_recording_map(opt->resume, space, u.resume_map, err, errlen);
        if (rc < 0)
            goto out;
        u.nrecords = opt->resume->nrecords;
    }
    if ((rc = open_journal(&u, batch)) < 0)
        goto out;

    for (;;) {
        if (!stopping && opt->stop && *opt->stop) {
            *reason = CUTUNE_STOP_SIGNAL;
            stopping = 1;
        }
        if (!stopping && opt->time_limit_s > 0 && run_elapsed(&u) >= opt->time_limit_s) {
            *reason = CUTUNE_STOP_TIME;
            stopping = 1;
        }
        /* A resumed run's budget covers its journal's records and the evaluations that
         * were in flight when it stopped (proposed before some of the records, dropped
         * unjournaled under replay): without them the records proposed after those would
         * never be replayed, and the next line would repeat one's number. */
        size_t budget = opt->budget;
        if (u.nrecords + u.fresh_early > budget)
            budget = u.nrecords + u.fresh_early;
        size_t left = budget - hist->n - u.inflight;
        size_t room = u.nslots - u.inflight;
        /* A stop (signal, time limit) still replays the journal's records, which cost
         * nothing, up to the first proposal the journal lacks: a stop during a resume's
         * replay would otherwise leave a history, and exports, of part of the journal. A
         * stop flag of 2 or more (a second Ctrl-C) ends the replay too: a long bo journal
         * replays as slowly as its model fits. */
        u.stop_replay = stopping && u.resume_map && u.recs_in < u.nrecords && !urgent_stop(opt);
        /* a round of `batch` proposals once that many slots are free (or nothing is left
         * in flight to wait for) */
        if ((!stopping || u.stop_replay) && !dry && left && room &&
            (room >= batch || u.inflight == 0)) {
            size_t k = room < left ? room : left, got, fresh;
            if ((rc = propose(&u, k, ids, &got, &fresh)) < 0)
                goto out;
            if (got == 0) {
                dry = 1; /* nothing new now; perhaps once the pending ones are answered */
            } else if (fresh == 0) {
                /* all answered from the history or already in flight: ask again, up to a
                 * streak after which the searcher is taken to have nothing new (until an
                 * evaluation in flight completes) */
                if (++dup_streak >= MAX_DUPLICATE_STREAK) {
                    dup_streak = 0;
                    dry = 1;
                }
                continue;
            } else {
                dup_streak = 0;
                continue; /* fill the remaining slots before waiting */
            }
        }
        if (stopping && u.simulated && !(ev->type->flags & CUTUNE_EVALUATOR_RECORDS))
            drop_unjournaled(&u);
        if (stopping)
            drop_held(&u);
        if (u.inflight == 0) {
            if (!stopping && opt->stop && *opt->stop) { /* it came during the last proposal */
                *reason = CUTUNE_STOP_SIGNAL;
                stopping = 1;
            }
            if (dry && hist->n < budget && !stopping)
                *reason = CUTUNE_STOP_EXHAUSTED;
            break;
        }
        size_t w;
        if ((rc = complete_next(&u, &w)) < 0)
            goto out;
        if ((rc = finish(&u, w)) < 0)
            goto out;
        dry = 0; /* the searcher knows more now */
        if (progress)
            progress_line(hist, opt->budget, cutune_now() - u.start, 0);
    }
    if (progress)
        progress_line(hist, opt->budget, cutune_now() - u.start, 1);

out:
    for (size_t i = 0; u.fl && i < u.nslots; i++)
        cutune_eval_result_clear(&u.fl[i].r);
    cutune_journal_close(u.journal);
    idmap_free(&u.seen);
    free(u.resume_map);
    free(u.fl);
    free(ids);
    return rc;
}
