/* Loads every recording in $CUTUNE_SHARED_DATA/kt-caches (published Kernel
 * Tuner caches, never part of the project) and round-trips one through the
 * Kernel Tuner export. Exits 77 (meson: SKIP) where the directory is absent. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cutune/cutune.h"
#include "io_test_util.h"

static char cache_dir[4096];

static void counts_of(const cutune_recording *r, size_t *c)
{
    memset(c, 0, CUTUNE_STATUS_COUNT * sizeof *c);
    for (size_t i = 0; i < r->nrecords; i++)
        c[r->records[i].status]++;
}

static cutune_recording *load(const char *name, double *seconds)
{
    char path[4200], err[512] = "";
    cutune_recording *r = NULL;
    snprintf(path, sizeof path, "%s/%s", cache_dir, name);
    double t0 = cutune_now();
    int rc = cutune_recording_load(path, &r, err, sizeof err);
    if (seconds)
        *seconds = cutune_now() - t0;
    if (rc < 0)
        fail_msg("%s", err);
    return r;
}

static void test_every_file_loads(void **state)
{
    (void)state;
    DIR *d = opendir(cache_dir);
    assert_non_null(d);
    struct dirent *de;
    size_t files = 0;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 8 || strcmp(de->d_name + n - 8, ".json.gz") != 0)
            continue;
        double s;
        size_t c[CUTUNE_STATUS_COUNT];
        cutune_recording *r = load(de->d_name, &s);
        counts_of(r, c);
        printf("# %-40s %6zu records (%zu ok) in %.3f s\n", de->d_name, r->nrecords,
               c[CUTUNE_STATUS_OK], s);
        assert_true(r->nrecords > 0);
        assert_string_equal(r->format, "kernel_tuner");
        cutune_recording_free(r);
        files++;
    }
    closedir(d);
    assert_true(files > 0);
}

static void test_counts(void **state)
{
    (void)state;
    size_t c[CUTUNE_STATUS_COUNT];
    static const char *const gemm[] = {"GEMM_GTX_1080Ti.json.gz", "GEMM_P100.json.gz",
                                       "GEMM_RTX_2070_SUPER.json.gz"};
    for (size_t i = 0; i < 3; i++) {
        cutune_recording *r = load(gemm[i], NULL);
        counts_of(r, c);
        assert_int_equal(r->nrecords, 17956);
        assert_int_equal(c[CUTUNE_STATUS_OK], 17956);
        assert_int_equal(r->nparams, 15);
        assert_int_equal(r->records[0].ntimes, 32);
        cutune_recording_free(r);
    }
    cutune_recording *r = load("convolution_milo_A4000.json.gz", NULL);
    counts_of(r, c);
    assert_int_equal(c[CUTUNE_STATUS_COMPILE_ERROR], 6);
    assert_int_equal(c[CUTUNE_STATUS_RUNTIME_ERROR], 155);
    assert_true(r->has_costs);
    assert_true(r->records[0].compile_ms > 0);
    cutune_recording_free(r);
    r = load("gemm_AMD_Vega.json.gz", NULL);
    counts_of(r, c);
    assert_int_equal(r->nrecords, 5788);
    assert_int_equal(c[CUTUNE_STATUS_LAUNCH_ERROR], 468);
    cutune_recording_free(r);
}

static void test_round_trip(void **state)
{
    (void)state;
    char err[512] = "", *dir = make_tmpdir(), out[4200];
    cutune_recording *r = load("convolution_milo_A4000.json.gz", NULL), *back = NULL;
    cutune_space *s = NULL;
    cutune_history h;
    assert_non_null(dir);
    assert_int_equal(cutune_recording_space(r, NULL, 0, 1, &s, err, sizeof err), 0);
    size_t size = cutune_space_size(s);
    assert_int_equal(size, r->nrecords);
    long *map = malloc(size * sizeof *map);
    assert_int_equal(cutune_recording_map(r, s, map, err, sizeof err), 0);
    /* a history that evaluated every recorded configuration */
    memset(&h, 0, sizeof h);
    h.e = calloc(size, sizeof *h.e);
    h.n = h.cap = size;
    h.best = -1;
    for (size_t id = 0; id < size; id++) {
        const cutune_record *rec = &r->records[map[id]];
        cutune_history_entry *e = &h.e[id];
        e->id = id;
        e->r.status = rec->status;
        e->r.time_ms = rec->time_ms;
        e->r.times_ms = rec->times_ms; /* a view: not freed below */
        e->r.ntimes = rec->ntimes;
        e->r.compile_ms = rec->compile_ms;
        e->r.bench_ms = rec->bench_ms;
        h.counts[rec->status]++;
        if (rec->status == CUTUNE_STATUS_OK && (h.best < 0 || rec->time_ms < h.e[h.best].r.time_ms))
            h.best = (long)id;
    }
    path_in(out, sizeof out, dir, "conv.json");
    assert_int_equal(cutune_export_kt_cache_recorded(out, s, NULL, r, r->kernel_name,
                                                     r->device_name, &h, err, sizeof err),
                     0);
    assert_int_equal(cutune_recording_load(out, &back, err, sizeof err), 0);
    assert_int_equal(back->nrecords, r->nrecords);
    assert_string_equal(back->device_name, r->device_name);
    assert_string_equal(back->kernel_name, r->kernel_name);
    assert_string_equal(r->problem_size, "[4096,4096]");
    assert_string_equal(back->problem_size, r->problem_size);
    long *map2 = malloc(size * sizeof *map2);
    assert_int_equal(cutune_recording_map(back, s, map2, err, sizeof err), 0);
    for (size_t id = 0; id < size; id++) {
        const cutune_record *a = &r->records[map[id]], *b = &back->records[map2[id]];
        assert_int_equal(a->status, b->status);
        assert_true(a->status != CUTUNE_STATUS_OK || a->time_ms == b->time_ms);
        assert_int_equal(a->ntimes, b->ntimes);
        if (a->ntimes)
            assert_memory_equal(a->times_ms, b->times_ms, a->ntimes * sizeof(double));
        assert_true(a->compile_ms == b->compile_ms);
        assert_true(fabs(a->bench_ms - b->bench_ms) <= 1e-9 * fabs(a->bench_ms));
    }
    free(map2);
    free(map);
    free(h.e);
    cutune_recording_free(back);
    cutune_space_free(s);
    cutune_recording_free(r);
    rm_tree(dir);
    free(dir);
}

int main(void)
{
    const char *data = getenv("CUTUNE_SHARED_DATA");
    snprintf(cache_dir, sizeof cache_dir, "%s/kt-caches", data ? data : "../shared/data");
    DIR *d = opendir(cache_dir);
    if (!d) {
        printf("# %s absent: skipped\n", cache_dir);
        return 77;
    }
    closedir(d);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_file_loads),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
