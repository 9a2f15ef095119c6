/* The tuner loop: searcher.propose(k) -> evaluator.evaluate(batch) ->
 * searcher.observe(), owning the budget, de-duplication, the journal, resume
 * and progress (DESIGN.md, data flow).
 *
 * Resume works by replaying: the run restarts from the same seed, and every
 * proposal already in the resumed journal is answered from it instead of being
 * evaluated again. Searchers are deterministic given the seed and the answers,
 * so an interrupted and resumed run ends with exactly the evaluations of an
 * uninterrupted one, and nothing is measured twice.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cutune/journal.h"
#include "cutune/recording.h"
#include "cutune/spec.h"
#include "cutune/tuner.h"

/* Consecutive already-visited proposals after which a searcher is taken to
 * have nothing new to offer. */
#define MAX_DUPLICATE_STREAK 10000

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

static void iso_now(char *buf, size_t len)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char base[24];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, len, "%.19s.%03dZ", base, (int)(ts.tv_nsec / 1000000));
}

/* Fill an eval result from a resumed journal record. */
static int result_from_record(const cutune_record *rec, cutune_eval_result *r)
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
    if (h->n)
        format_duration(elapsed / (double)h->n * (double)(budget - h->n), eta, sizeof eta);
    if (h->best >= 0)
        snprintf(best, sizeof best, "%.4g ms (#%ld)", h->e[h->best].r.time_ms, h->best + 1);
    fprintf(stderr, "\r\033[K[%zu/%zu] best %s  ETA %s", h->n, budget, best, eta);
    if (final)
        fputc('\n', stderr);
    fflush(stderr);
}

int cutune_tune(const cutune_space *space, const cutune_spec *spec, cutune_searcher *searcher,
                uint8_t *visited, cutune_evaluator *ev, const cutune_tuner_options *opt,
                cutune_history *hist, cutune_stop_reason *reason, char *err, size_t errlen)
{
    int rc = 0;
    int metric_warned = 0; /* a spec metric failed somewhere (said once) */
    size_t batch = opt->batch ? opt->batch : 1;
    size_t *ids = NULL, *fresh = NULL;
    cutune_eval_result *results = NULL;
    cutune_observation *obs = NULL;
    long *resume_map = NULL;
    cutune_journal *journal = NULL;
    idmap seen = {0};
    size_t dup_streak = 0;
    double start = cutune_now(), simulated_s = 0;
    int progress = opt->progress && isatty(STDERR_FILENO);

    hist->best = -1;
    *reason = CUTUNE_STOP_BUDGET;
    if (opt->budget == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "budget must be at least 1");

    ids = malloc(batch * sizeof *ids);
    fresh = malloc(batch * sizeof *fresh);
    results = calloc(batch, sizeof *results);
    obs = malloc(batch * sizeof *obs);
    if (!ids || !fresh || !results || !obs) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }

    if (opt->resume) {
        resume_map = malloc(cutune_space_size(space) * sizeof *resume_map);
        if (!resume_map) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            goto out;
        }
        rc = cutune_recording_map(opt->resume, space, resume_map, err, errlen);
        if (rc < 0)
            goto out;
    }

    if (opt->journal_path) {
        if (opt->resume) {
            rc = cutune_journal_append(opt->journal_path, &journal, err, errlen);
        } else {
            cutune_journal_header jh = {
                .spec_name = spec ? spec->name : opt->evaluator_arg,
                .spec_hash = spec ? spec->hash : NULL,
                .searcher = opt->searcher_name,
                .searcher_args = opt->searcher_args,
                .seed = opt->seed,
                .evaluator = opt->evaluator_name,
                .evaluator_arg = opt->evaluator_arg,
                .target = opt->target,
                .device = cutune_evaluator_device(ev),
                .budget = opt->budget,
                .batch = batch,
                .deterministic = opt->deterministic_clock,
                .cartesian = opt->cartesian,
            };
            rc = cutune_journal_create(opt->journal_path, &jh, space, &journal, err, errlen);
        }
        if (rc < 0)
            goto out;
    }

    while (hist->n < opt->budget) {
        if (opt->stop && *opt->stop) {
            *reason = CUTUNE_STOP_SIGNAL;
            break;
        }
        /* a recording without compile/benchmark times charges nothing: wall time then */
        double elapsed =
            opt->charge_recorded_time && simulated_s > 0 ? simulated_s : cutune_now() - start;
        if (opt->time_limit_s > 0 && elapsed >= opt->time_limit_s) {
            *reason = CUTUNE_STOP_TIME;
            break;
        }
        size_t k = batch < opt->budget - hist->n ? batch : opt->budget - hist->n;
        size_t n = 0;
        rc = cutune_searcher_propose(searcher, k, ids, &n, err, errlen);
        if (rc < 0)
            goto out;
        if (n == 0) {
            *reason = CUTUNE_STOP_EXHAUSTED;
            break;
        }

        /* Duplicates are answered from the history, free of charge. */
        size_t nfresh = 0, nobs = 0;
        for (size_t i = 0; i < n; i++) {
            long h = idmap_get(&seen, ids[i]);
            int again = h >= 0;
            for (size_t j = 0; j < nfresh && !again; j++)
                again = fresh[j] == ids[i];
            if (h >= 0) {
                obs[nobs++] =
                    (cutune_observation){ids[i], hist->e[h].r.status, hist->e[h].r.time_ms};
            } else if (!again) {
                fresh[nfresh++] = ids[i];
            }
        }
        if (nobs) {
            rc = cutune_searcher_observe(searcher, obs, nobs, err, errlen);
            if (rc < 0)
                goto out;
        }
        if (nfresh == 0) {
            if (++dup_streak >= MAX_DUPLICATE_STREAK) {
                *reason = CUTUNE_STOP_EXHAUSTED;
                break;
            }
            continue;
        }
        dup_streak = 0;

        /* Evaluate what the resumed journal does not already hold. */
        size_t toeval[batch], neval = 0;
        for (size_t i = 0; i < nfresh; i++) {
            memset(&results[i], 0, sizeof results[i]);
            long rec = resume_map ? resume_map[fresh[i]] : -1;
            if (rec >= 0) {
                rc = result_from_record(&opt->resume->records[rec], &results[i]);
                if (rc < 0) {
                    cutune_err(err, errlen, rc, "out of memory");
                    goto out;
                }
            } else {
                toeval[neval++] = i;
            }
        }
        if (neval) {
            size_t evids[batch];
            cutune_eval_result evres[batch];
            memset(evres, 0, sizeof evres);
            for (size_t i = 0; i < neval; i++)
                evids[i] = fresh[toeval[i]];
            rc = cutune_evaluator_evaluate(ev, evids, neval, evres, err, errlen);
            if (rc < 0) {
                for (size_t i = 0; i < neval; i++)
                    cutune_eval_result_clear(&evres[i]);
                goto out;
            }
            for (size_t i = 0; i < neval; i++)
                results[toeval[i]] = evres[i];
        }

        for (size_t i = 0; i < nfresh; i++) {
            cutune_history_entry *e;
            rc = history_push(hist, &e);
            if (rc < 0) {
                cutune_err(err, errlen, rc, "out of memory");
                for (size_t j = i; j < nfresh; j++)
                    cutune_eval_result_clear(&results[j]);
                goto out;
            }
            e->id = fresh[i];
            e->r = results[i];
            memset(&results[i], 0, sizeof results[i]);
            int from_journal = resume_map && resume_map[fresh[i]] >= 0;
            if (e->r.compile_ms > 0)
                simulated_s += e->r.compile_ms / 1000.0;
            if (e->r.bench_ms > 0)
                simulated_s += e->r.bench_ms / 1000.0;
            e->wall_s = opt->charge_recorded_time ? simulated_s : cutune_now() - start;
            if (!opt->deterministic_clock)
                iso_now(e->timestamp, sizeof e->timestamp);
            if (spec && spec->nmetrics) {
                e->spec_metrics = malloc(spec->nmetrics * sizeof *e->spec_metrics);
                if (!e->spec_metrics) {
                    rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
                    goto out;
                }
                for (size_t m = 0; m < spec->nmetrics; m++)
                    e->spec_metrics[m] = NAN;
                char merr[512];
                /* a metric that cannot be computed at some configuration (a division by zero)
                 * is left out of that line; said once per run, not silently */
                if (e->r.status == CUTUNE_STATUS_OK &&
                    cutune_spec_metrics(spec, e->id, e->r.time_ms, e->spec_metrics, merr,
                                        sizeof merr) < 0 &&
                    !metric_warned) {
                    metric_warned = 1;
                    fprintf(stderr,
                            "cutune: warning: %s (evaluation %zu; such a metric is left out of "
                            "the lines where it cannot be computed)\n",
                            merr, hist->n);
                }
            }
            if (e->r.status < CUTUNE_STATUS_COUNT)
                hist->counts[e->r.status]++;
            if (e->r.status == CUTUNE_STATUS_OK && isfinite(e->r.time_ms) &&
                (hist->best < 0 || e->r.time_ms < hist->e[hist->best].r.time_ms))
                hist->best = (long)(hist->n - 1);
            visited[e->id] = 1;
            rc = idmap_put(&seen, e->id, (long)(hist->n - 1));
            if (rc < 0) {
                cutune_err(err, errlen, rc, "out of memory");
                goto out;
            }
            if (journal && !from_journal) {
                rc = cutune_journal_write_eval(journal, space, spec, hist->n - 1, e, err, errlen);
                if (rc < 0)
                    goto out;
            }
            obs[i] = (cutune_observation){e->id, e->r.status, e->r.time_ms};
        }
        rc = cutune_searcher_observe(searcher, obs, nfresh, err, errlen);
        if (rc < 0)
            goto out;
        if (progress)
            progress_line(hist, opt->budget, cutune_now() - start, 0);
    }
    if (progress)
        progress_line(hist, opt->budget, cutune_now() - start, 1);

out:
    for (size_t i = 0; results && i < batch; i++)
        cutune_eval_result_clear(&results[i]);
    cutune_journal_close(journal);
    idmap_free(&seen);
    free(resume_map);
    free(obs);
    free(results);
    free(fresh);
    free(ids);
    return rc;
}
