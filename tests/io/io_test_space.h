/* A small space, a fake spec and a hand-made history shared by the journal
 * and export tests. */
#ifndef CUTUNE_IO_TEST_SPACE_H
#define CUTUNE_IO_TEST_SPACE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/cutune.h"

/* x in {1,2,4} (int), r in {1.0,2.5} (real), s in {p,q} (string); N = 1024. */
static inline cutune_space *make_space(void)
{
    char err[256];
    cutune_space *s = cutune_space_alloc();
    cutune_value x[] = {{.type = CUTUNE_VALUE_INT, .i = 1},
                        {.type = CUTUNE_VALUE_INT, .i = 2},
                        {.type = CUTUNE_VALUE_INT, .i = 4}};
    cutune_value r[] = {{.type = CUTUNE_VALUE_REAL, .r = 1.0},
                        {.type = CUTUNE_VALUE_REAL, .r = 2.5}};
    cutune_value str[] = {{.type = CUTUNE_VALUE_STRING, .s = "p"},
                          {.type = CUTUNE_VALUE_STRING, .s = "q"}};
    cutune_value n = {.type = CUTUNE_VALUE_INT, .i = 1024};
    if (!s || cutune_space_add_param(s, "x", x, 3, err, sizeof err) < 0 ||
        cutune_space_add_param(s, "r", r, 2, err, sizeof err) < 0 ||
        cutune_space_add_param(s, "s", str, 2, err, sizeof err) < 0 ||
        cutune_space_add_constant(s, "N", n, err, sizeof err) < 0 ||
        cutune_space_add_restriction(s, "x * N > 0", err, sizeof err) < 0 ||
        cutune_space_enumerate(s, err, sizeof err) < 0) {
        cutune_space_free(s);
        return NULL;
    }
    return s;
}

/* A spec view with two derived metrics; only the fields io reads are set. */
static cutune_spec_metric test_spec_metrics[] = {{.name = "GFLOP/s"}, {.name = "nan_metric"}};

static inline void make_spec(cutune_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    spec->name = "tiny-gemm";
    spec->kernel_name = "tiny_kernel";
    spec->nmetrics = 2;
    spec->metrics = test_spec_metrics;
    spec->nsizes = 1;
    strcpy(spec->hash, "0123456789abcdef");
}

static inline void set_entry(cutune_history_entry *e, size_t id, cutune_status st, double t,
                             size_t ntimes, const char *log)
{
    memset(e, 0, sizeof *e);
    e->id = id;
    e->r.status = st;
    e->r.time_ms = st == CUTUNE_STATUS_OK ? t : NAN;
    e->r.compile_ms = 10.0 + (double)id;
    e->r.bench_ms = st == CUTUNE_STATUS_OK ? 3.0 : -1;
    if (ntimes) {
        e->r.times_ms = malloc(ntimes * sizeof *e->r.times_ms);
        for (size_t i = 0; i < ntimes; i++)
            e->r.times_ms[i] = t + 0.01 * (double)i;
        e->r.ntimes = ntimes;
    }
    e->r.log = log ? strdup(log) : NULL;
    cutune_eval_result_add_metric(&e->r, "registers", 32 + (double)id);
    e->spec_metrics = malloc(2 * sizeof *e->spec_metrics);
    e->spec_metrics[0] = st == CUTUNE_STATUS_OK ? 1000.0 / t : NAN;
    e->spec_metrics[1] = NAN;
    e->wall_s = 0.5 * (double)id;
    strcpy(e->timestamp, "2024-01-02T03:04:05Z");
}

/* Five evaluations: ok, compile_error (with a log to escape), ok (best),
 * launch_error, runtime_error. */
static inline void make_history(cutune_history *h)
{
    memset(h, 0, sizeof *h);
    h->e = calloc(5, sizeof *h->e);
    h->n = h->cap = 5;
    set_entry(&h->e[0], 0, CUTUNE_STATUS_OK, 2.0, 3, NULL);
    set_entry(&h->e[1], 3, CUTUNE_STATUS_COMPILE_ERROR, 0, 0, "error: \"bad\" token\n\tline 2");
    set_entry(&h->e[2], 7, CUTUNE_STATUS_OK, 0.5, 2, NULL);
    set_entry(&h->e[3], 9, CUTUNE_STATUS_LAUNCH_ERROR, 0, 0, "too many resources");
    set_entry(&h->e[4], 11, CUTUNE_STATUS_RUNTIME_ERROR, 0, 0, NULL);
    h->best = 2;
    h->counts[CUTUNE_STATUS_OK] = 2;
    h->counts[CUTUNE_STATUS_COMPILE_ERROR] = 1;
    h->counts[CUTUNE_STATUS_LAUNCH_ERROR] = 1;
    h->counts[CUTUNE_STATUS_RUNTIME_ERROR] = 1;
}

/* cutune_history_free lives in the tuner: these tests free their own. */
static inline void drop_history(cutune_history *h)
{
    for (size_t i = 0; i < h->n; i++) {
        cutune_eval_result_clear(&h->e[i].r);
        free(h->e[i].spec_metrics);
    }
    free(h->e);
    memset(h, 0, sizeof *h);
}

#endif
