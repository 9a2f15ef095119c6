/* Unit tests of parameter spaces (src/space/space.c). The spaces of published
 * benchmarks are hard-coded here; each expected count is recomputed with plain
 * nested loops so the test does not trust the enumerator it checks. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune/recording.h"
#include "cutune/space.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static char err[512];

static void add_ints(cutune_space *s, const char *name, const long long *v, size_t n)
{
    cutune_value vals[64];
    assert_true(n <= N_OF(vals));
    for (size_t i = 0; i < n; i++)
        vals[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = v[i]};
    if (cutune_space_add_param(s, name, vals, n, err, sizeof err))
        fail_msg("add_param %s: %s", name, err);
}

static void restrict_(cutune_space *s, const char *text)
{
    if (cutune_space_add_restriction(s, text, err, sizeof err))
        fail_msg("restriction '%s': %s", text, err);
}

static void enumerate(cutune_space *s)
{
    if (cutune_space_enumerate(s, err, sizeof err))
        fail_msg("enumerate: %s", err);
}

/* ---- the Xgemm space (CLBlast, as in ../shared/data/README.md) ------------- */

static const long long MWG[] = {16, 32, 64, 128}, KWG[] = {32}, MDIM[] = {8, 16, 32}, KWI[] = {2},
                       VW[] = {1, 2, 4, 8}, ZERO[] = {0}, BIN[] = {0, 1}, PREC[] = {32};

static cutune_space *xgemm_space(void)
{
    cutune_space *s = cutune_space_alloc();
    assert_non_null(s);
    add_ints(s, "MWG", MWG, 4);
    add_ints(s, "NWG", MWG, 4);
    add_ints(s, "KWG", KWG, 1);
    add_ints(s, "MDIMC", MDIM, 3);
    add_ints(s, "NDIMC", MDIM, 3);
    add_ints(s, "MDIMA", MDIM, 3);
    add_ints(s, "NDIMB", MDIM, 3);
    add_ints(s, "KWI", KWI, 1);
    add_ints(s, "VWM", VW, 4);
    add_ints(s, "VWN", VW, 4);
    add_ints(s, "STRM", ZERO, 1);
    add_ints(s, "STRN", ZERO, 1);
    add_ints(s, "SA", BIN, 2);
    add_ints(s, "SB", BIN, 2);
    add_ints(s, "PRECISION", PREC, 1);
    restrict_(s, "KWG % KWI == 0");
    restrict_(s, "MWG % (MDIMC*VWM) == 0");
    restrict_(s, "NWG % (NDIMC*VWN) == 0");
    restrict_(s, "MWG % (MDIMA*VWM) == 0");
    restrict_(s, "NWG % (NDIMB*VWN) == 0");
    restrict_(s, "KWG % ((MDIMC*NDIMC)/MDIMA) == 0");
    restrict_(s, "KWG % ((MDIMC*NDIMC)/NDIMB) == 0");
    return s;
}

static size_t xgemm_count_loops(void)
{
    size_t n = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 1; c++)
                for (int d = 0; d < 3; d++)
                    for (int e = 0; e < 3; e++)
                        for (int f = 0; f < 3; f++)
                            for (int g = 0; g < 3; g++)
                                for (int h = 0; h < 1; h++)
                                    for (int i = 0; i < 4; i++)
                                        for (int j = 0; j < 4; j++) {
                                            long long mwg = MWG[a], nwg = MWG[b], kwg = KWG[c];
                                            long long mdimc = MDIM[d], ndimc = MDIM[e];
                                            long long mdima = MDIM[f], ndimb = MDIM[g];
                                            long long kwi = KWI[h], vwm = VW[i], vwn = VW[j];
                                            if (kwg % kwi == 0 && mwg % (mdimc * vwm) == 0 &&
                                                nwg % (ndimc * vwn) == 0 &&
                                                mwg % (mdima * vwm) == 0 &&
                                                nwg % (ndimb * vwn) == 0 &&
                                                kwg % ((mdimc * ndimc) / mdima) == 0 &&
                                                kwg % ((mdimc * ndimc) / ndimb) == 0)
                                                n += 1 * 1 * 2 * 2 * 1; /* STRM..PRECISION */
                                        }
    return n;
}

static void test_xgemm_count(void **state)
{
    cutune_space *s = xgemm_space();
    assert_true(cutune_space_cartesian_size(s) == 82944.0);
    enumerate(s);
    size_t want = xgemm_count_loops();
    assert_int_equal(want, 17956);
    assert_int_equal(cutune_space_size(s), want);
    cutune_space_free(s);
}

/* ---- convolution (Schoonhoven et al.) ------------------------------------- */

static const long long FW[] = {15}, BX[] = {1, 2, 4, 8, 16, 32, 48, 64, 80, 96, 112, 128},
                       BY[] = {1, 2, 4, 8, 16, 32}, TS[] = {1, 2, 3, 4, 5, 6, 7, 8};

static void test_convolution_count(void **state)
{
    cutune_space *s = cutune_space_alloc();
    add_ints(s, "filter_width", FW, 1);
    add_ints(s, "filter_height", FW, 1);
    add_ints(s, "block_size_x", BX, N_OF(BX));
    add_ints(s, "block_size_y", BY, N_OF(BY));
    add_ints(s, "tile_size_x", TS, N_OF(TS));
    add_ints(s, "tile_size_y", TS, N_OF(TS));
    add_ints(s, "use_padding", BIN, 2);
    add_ints(s, "read_only", BIN, 2);
    restrict_(s, "block_size_x*block_size_y >= 64");
    restrict_(s, "tile_size_x*tile_size_y < 30");
    enumerate(s);
    size_t want = 0;
    for (size_t bx = 0; bx < N_OF(BX); bx++)
        for (size_t by = 0; by < N_OF(BY); by++)
            for (size_t tx = 0; tx < N_OF(TS); tx++)
                for (size_t ty = 0; ty < N_OF(TS); ty++)
                    if (BX[bx] * BY[by] >= 64 && TS[tx] * TS[ty] < 30)
                        want += 4; /* use_padding x read_only */
    assert_int_equal(want, 9400);
    assert_int_equal(cutune_space_size(s), want);
    cutune_space_free(s);
}

/* ---- pnpoly: no restrictions --------------------------------------------- */

static cutune_space *pnpoly_space(void)
{
    long long bx[31], tile[11], between[] = {0, 1, 2, 3}, method[] = {0, 1, 2};
    for (int i = 0; i < 31; i++)
        bx[i] = 32 * (i + 1);
    tile[0] = 1;
    for (int i = 1; i < 11; i++)
        tile[i] = 2 * i;
    cutune_space *s = cutune_space_alloc();
    add_ints(s, "block_size_x", bx, 31);
    add_ints(s, "tile_size", tile, 11);
    add_ints(s, "between_method", between, 4);
    add_ints(s, "use_precomputed_slopes", BIN, 2);
    add_ints(s, "use_method", method, 3);
    return s;
}

static void test_pnpoly_count(void **state)
{
    cutune_space *s = pnpoly_space();
    enumerate(s);
    size_t want = 0;
    for (int a = 0; a < 31; a++)
        for (int b = 0; b < 11; b++)
            for (int c = 0; c < 4; c++)
                for (int d = 0; d < 2; d++)
                    for (int e = 0; e < 3; e++)
                        want++;
    assert_int_equal(want, 8184);
    assert_int_equal(cutune_space_size(s), want);
    assert_true(cutune_space_cartesian_size(s) == 8184.0);
    cutune_space_free(s);
}

/* ---- Kernel Tuner's restrictions, as its users write them -------------------- */

/* Restriction strings and value lists copied from the tuning scripts behind published
 * spaces, and the Python-only operators on such lists; each want is the count Python 3
 * gives with eval() of the same strings over the same lists, as Kernel Tuner evaluates
 * restrictions (the one exception, INT / INT, says so). */
#define KT_VALUES 32

typedef struct kt_param {
    const char *name;
    size_t n;
    long long v[KT_VALUES];
} kt_param;

static const kt_param kt_dedisp[] = {
    {"block_size_x", 6, {1, 2, 4, 8, 16, 32}},
    {"block_size_y", 29, {32,  40,  48,  56,  64,  72,  80,  88,  96,  104, 112, 120, 128, 136, 144,
                          152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248, 256}},
    {"block_size_z", 1, {1}},
    {"tile_size_x", 4, {1, 2, 3, 4}},
    {"tile_size_y", 8, {1, 2, 3, 4, 5, 6, 7, 8}},
    {"tile_stride_x", 2, {0, 1}},
    {"tile_stride_y", 2, {0, 1}},
    {"loop_unroll_factor_channel", 1, {0}},
};
static const kt_param kt_unroll_channel[] = {
    {"loop_unroll_factor_channel", 17, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
};
static const kt_param kt_unroll_x[] = {
    {"tile_size_x", 4, {1, 2, 3, 4}},
    {"loop_unroll_factor_x", 4, {1, 2, 3, 4}},
};
static const kt_param kt_conv_milo[] = {
    {"block_size_x",
     16,
     {16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256}},
    {"block_size_y", 5, {1, 2, 4, 8, 16}},
    {"tile_size_x", 4, {1, 2, 3, 4}},
    {"tile_size_y", 4, {1, 2, 3, 4}},
    {"read_only", 2, {0, 1}},
    {"use_padding", 2, {0, 1}},
    {"use_shmem", 2, {0, 1}},
    {"use_cmem", 1, {1}},
    {"filter_height", 1, {15}},
    {"filter_width", 1, {15}},
};
static const kt_param kt_conv[] = {
    {"block_size_x",
     16,
     {16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256}},
    {"block_size_y", 5, {1, 2, 4, 8, 16}},
    {"tile_size_x", 4, {1, 2, 3, 4}},
    {"tile_size_y", 4, {1, 2, 3, 4}},
    {"read_only", 2, {0, 1}},
};
static const kt_param kt_matmul[] = {
    {"block_size_x", 3, {16, 32, 64}},
    {"block_size_y", 6, {1, 2, 4, 8, 16, 32}},
    {"tile_size_x", 4, {1, 2, 4, 8}},
    {"tile_size_y", 4, {1, 2, 4, 8}},
};
static const kt_param kt_xgemm[] = {
    {"MWG", 3, {16, 32, 64}},  {"NWG", 3, {16, 32, 64}},  {"KWG", 1, {32}},
    {"MDIMC", 3, {8, 16, 32}}, {"NDIMC", 3, {8, 16, 32}}, {"MDIMA", 3, {8, 16, 32}},
    {"NDIMB", 3, {8, 16, 32}}, {"KWI", 1, {2}},           {"VWM", 3, {1, 2, 4}},
    {"VWN", 3, {1, 2, 4}},     {"STRM", 1, {0}},          {"STRN", 1, {0}},
    {"SA", 2, {0, 1}},         {"SB", 2, {0, 1}},         {"PRECISION", 1, {32}},
};
static const kt_param kt_xy[] = {
    {"x", 12, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
    {"y", 12, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
};

typedef struct kt_case {
    const char *what;
    const kt_param *p;
    size_t np;
    const char *r[8];
    size_t want;
} kt_case;

#define KT_PARAMS(a) a, N_OF(a) /* a kt_case's p and np */

static const kt_case kt_cases[] = {
    /* AutoTuningAssociation/benchmark_hub kernels/dedisp_milo/dedispersion_milo.py */
    {"dedispersion",
     KT_PARAMS(kt_dedisp),
     {"32 <= block_size_x * block_size_y <= 1024", "tile_size_x > 1 or tile_stride_x == 0",
      "tile_size_y > 1 or tile_stride_y == 0"},
     11130},
    {"dedispersion, C spelling",
     KT_PARAMS(kt_dedisp),
     {"block_size_x * block_size_y >= 32 && block_size_x * block_size_y <= 1024",
      "!(tile_size_x == 1 && tile_stride_x == 1)", "tile_size_y > 1 || tile_stride_y == 0"},
     11130},
    /* the same script's unused checks: `and 0` stops before `1536 % 0` */
    {"dedispersion loop_unroll_factor_channel",
     KT_PARAMS(kt_unroll_channel),
     {"loop_unroll_factor_channel <= 1536 and loop_unroll_factor_channel and 1536 % "
      "loop_unroll_factor_channel == 0"},
     8},
    {"dedispersion loop_unroll_factor_x",
     KT_PARAMS(kt_unroll_x),
     {"loop_unroll_factor_x <= tile_size_x and tile_size_x % loop_unroll_factor_x == 0"},
     8},
    /* AutoTuningAssociation/benchmark_hub kernels/convolution_milo.py */
    {"convolution_milo",
     KT_PARAMS(kt_conv_milo),
     {"use_padding==0 or block_size_x % 32 != 0", "block_size_x*block_size_y<=1024",
      "use_padding==0 or use_shmem != 0",
      "use_shmem == 0 or "
      "(((block_size_x*tile_size_x+(filter_width-1)))*((block_size_y*tile_size_y+("
      "filter_height-1)))) < 12*1024"},
     4362},
    /* benvanwerkhoven/kernel_tuner_paper convolution/convolution.py (17x17 filter) */
    {"convolution (Kernel Tuner paper)",
     KT_PARAMS(kt_conv),
     {"((block_size_x*tile_size_x+16)*(block_size_y*tile_size_y+16)) < 12*1024"},
     1724},
    /* the Python-only operators on the same lists */
    {"convolution, // ** in not in",
     KT_PARAMS(kt_conv),
     {"block_size_x // 32 * 32 == block_size_x", "2 ** tile_size_x <= 8",
      "block_size_y in [1, 2, 4]", "block_size_x not in (64, 96)"},
     432},
    {"convolution, not and chain",
     KT_PARAMS(kt_conv),
     {"not (block_size_x > 128 and tile_size_x * tile_size_y > 4)",
      "64 <= block_size_x * block_size_y < 1024", "tile_size_x ** 2 // 3 != 1", "True"},
     996},
    /* KernelTuner/kernel_tuner examples/opencl/matmul.py */
    {"matmul", KT_PARAMS(kt_matmul), {"block_size_x==block_size_y*tile_size_y"}, 44},
    /* benvanwerkhoven/tuning_kernels transpose.py */
    {"transpose", KT_PARAMS(kt_matmul), {"block_size_x*tile_size_x==block_size_y*tile_size_y"}, 29},
    /* benvanwerkhoven/kernel_tuner_paper gemm/xgemm.py: every / there divides exactly, so
     * C's truncating / and Python's true division agree, and so does // */
    {"Xgemm (Kernel Tuner paper)",
     KT_PARAMS(kt_xgemm),
     {"KWG % KWI == 0", "MWG % (MDIMC * VWM) == 0", "NWG % (NDIMC * VWN) == 0",
      "MWG % (MDIMA * VWM) == 0", "NWG % (NDIMB * VWN) == 0", "KWG % ((MDIMC * NDIMC)/MDIMA) == 0",
      "KWG % ((MDIMC * NDIMC)/NDIMB) == 0"},
     5788},
    {"Xgemm, //",
     KT_PARAMS(kt_xgemm),
     {"KWG % KWI == 0", "MWG % (MDIMC * VWM) == 0", "NWG % (NDIMC * VWN) == 0",
      "MWG % (MDIMA * VWM) == 0", "NWG % (NDIMB * VWN) == 0", "KWG % ((MDIMC * NDIMC)//MDIMA) == 0",
      "KWG % ((MDIMC * NDIMC)//NDIMB) == 0"},
     5788},
    /* where the two divisions part: Python's true division counts 30 for x / y > 2; cutune's
     * INT / INT truncates (backwards compatible), which for positive operands is // */
    {"x // y > 2", KT_PARAMS(kt_xy), {"x // y > 2"}, 22},
    {"x / y > 2 (truncating)", KT_PARAMS(kt_xy), {"x / y > 2"}, 22},
    {"x / y > 2 (true division)", KT_PARAMS(kt_xy), {"x * 1.0 / y > 2"}, 30},
};

static cutune_space *kt_space(const kt_case *c)
{
    cutune_space *s = cutune_space_alloc();
    assert_non_null(s);
    for (size_t p = 0; p < c->np; p++)
        add_ints(s, c->p[p].name, c->p[p].v, c->p[p].n);
    for (size_t r = 0; r < N_OF(c->r) && c->r[r]; r++)
        restrict_(s, c->r[r]);
    enumerate(s);
    return s;
}

/* Number of Cartesian points that cutune_space_check accepts (1 valid, 0 not, never an error). */
static size_t count_checked(const cutune_space *s)
{
    size_t np = cutune_space_nparams(s), valid = 0;
    uint16_t idx[16] = {0};
    assert_true(np <= N_OF(idx));
    for (;;) {
        int ok = cutune_space_check(s, idx, err, sizeof err);
        if (ok != 0 && ok != 1)
            fail_msg("check: %d %s", ok, err);
        assert_int_equal(ok, cutune_space_find(s, idx) >= 0);
        valid += (size_t)ok;
        size_t p = np;
        while (p-- > 0) {
            if (++idx[p] < cutune_space_param(s, p)->nvalues)
                break;
            idx[p] = 0;
        }
        if (p == (size_t)-1)
            return valid;
    }
}

static void test_kernel_tuner_restrictions(void **state)
{
    for (size_t k = 0; k < N_OF(kt_cases); k++) {
        cutune_space *s = kt_space(&kt_cases[k]);
        if (cutune_space_size(s) != kt_cases[k].want)
            fail_msg("%s: %zu valid configurations, Python counts %zu", kt_cases[k].what,
                     cutune_space_size(s), kt_cases[k].want);
        /* the same expressions check one configuration at a time */
        assert_int_equal(count_checked(s), kt_cases[k].want);
        cutune_space_free(s);
    }
}

/* The recorded Kernel Tuner caches of ../shared/data against the restrictions of the
 * scripts that made them (the caches do not store them): the cache of a complete
 * brute-force run holds exactly the configurations its restrictions let through (failed
 * ones marked), so cutune must find that set; where failed configurations were left out
 * (Schoonhoven et al.), every recorded one must pass and the count is Python's. */
static const struct {
    const char *prefix; /* first match wins */
    const char *r[8];
    size_t want; /* 0: as many as the cache records */
} kt_files[] = {
    /* schoonhovenrichard/GPU_benchmarking_paper generate_cache_scripts/GEMM.py */
    {"GEMM_",
     {"KWG % KWI == 0", "MWG % (MDIMC * VWM) == 0", "NWG % (NDIMC * VWN) == 0",
      "MWG % (MDIMA * VWM) == 0", "NWG % (NDIMB * VWN) == 0", "KWG % ((MDIMC * NDIMC)/MDIMA) == 0",
      "KWG % ((MDIMC * NDIMC)/NDIMB) == 0"},
     0},
    /* benvanwerkhoven/kernel_tuner_paper gemm/xgemm.py, gemm_amd/xgemm.py */
    {"gemm_",
     {"KWG % KWI == 0", "MWG % (MDIMC * VWM) == 0", "NWG % (NDIMC * VWN) == 0",
      "MWG % (MDIMA * VWM) == 0", "NWG % (NDIMB * VWN) == 0", "KWG % ((MDIMC * NDIMC)/MDIMA) == 0",
      "KWG % ((MDIMC * NDIMC)/NDIMB) == 0"},
     0},
    /* AutoTuningAssociation/benchmark_hub kernels/convolution_milo.py */
    {"convolution_milo_",
     {"use_padding==0 or block_size_x % 32 != 0", "block_size_x*block_size_y<=1024",
      "use_padding==0 or use_shmem != 0",
      "use_shmem == 0 or "
      "(((block_size_x*tile_size_x+(filter_width-1)))*((block_size_y*tile_size_y+("
      "filter_height-1)))) < 12*1024"},
     0},
    /* benvanwerkhoven/kernel_tuner_paper convolution/convolution.py */
    {"convolution_GTX_TitanX_Maxwell",
     {"((block_size_x*tile_size_x+16)*(block_size_y*tile_size_y+16)) < 12*1024"},
     0},
    /* schoonhovenrichard/GPU_benchmarking_paper generate_cache_scripts/convolution.py */
    {"convolution_", {"block_size_x*block_size_y>=64", "tile_size_x*tile_size_y<30"}, 9400},
    /* AutoTuningAssociation/benchmark_hub kernels/dedisp_milo/dedispersion_milo.py */
    {"dedispersion_milo_",
     {"32 <= block_size_x * block_size_y <= 1024", "tile_size_x > 1 or tile_stride_x == 0",
      "tile_size_y > 1 or tile_stride_y == 0"},
     0},
    /* pnpoly: no restrictions */
    {"pnpoly_", {NULL}, 8184},
};

static void test_kernel_tuner_caches(void **state)
{
    char dir[4096], path[4400];
    const char *data = getenv("CUTUNE_SHARED_DATA");
    snprintf(dir, sizeof dir, "%s/kt-caches", data ? data : "../shared/data");
    DIR *d = opendir(dir);
    if (!d) {
        printf("# %s absent: skipped\n", dir);
        skip();
    }
    struct dirent *de;
    size_t files = 0;
    while ((de = readdir(d))) {
        size_t k = 0;
        while (k < N_OF(kt_files) &&
               strncmp(de->d_name, kt_files[k].prefix, strlen(kt_files[k].prefix)) != 0)
            k++;
        size_t len = strlen(de->d_name);
        if (k == N_OF(kt_files) || len < 8 || strcmp(de->d_name + len - 8, ".json.gz") != 0)
            continue;
        size_t nr = 0;
        while (nr < N_OF(kt_files[k].r) && kt_files[k].r[nr])
            nr++;
        cutune_recording *rec = NULL;
        cutune_space *s = NULL;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (cutune_recording_load(path, &rec, err, sizeof err) ||
            cutune_recording_space(rec, kt_files[k].r, nr, 0, &s, err, sizeof err))
            fail_msg("%s: %s", de->d_name, err);
        size_t want = kt_files[k].want ? kt_files[k].want : rec->nrecords;
        if (cutune_space_size(s) != want)
            fail_msg("%s: %zu valid configurations, want %zu", de->d_name, cutune_space_size(s),
                     want);
        for (size_t i = 0; i < rec->nrecords; i++)
            if (cutune_space_check(s, rec->records[i].idx, err, sizeof err) != 1)
                fail_msg("%s: recorded configuration %zu fails the restrictions", de->d_name, i);
        printf("# %-40s %6zu valid, %6zu recorded\n", de->d_name, cutune_space_size(s),
               rec->nrecords);
        cutune_space_free(s);
        cutune_recording_free(rec);
        files++;
    }
    closedir(d);
    assert_true(files > 0);
}

/* ---- ids, find, check ------------------------------------------------------ */

static void test_round_trip(void **state)
{
    cutune_space *s = xgemm_space();
    enumerate(s);
    size_t np = cutune_space_nparams(s), n = cutune_space_size(s);
    const uint16_t *prev = NULL;
    for (size_t id = 0; id < n; id++) {
        const uint16_t *c = cutune_space_config(s, id);
        assert_non_null(c);
        assert_int_equal(cutune_space_find(s, c), (long long)id);
        assert_int_equal(cutune_space_check(s, c, err, sizeof err), 1);
        if (prev) { /* strictly increasing in lexicographic order */
            size_t k = 0;
            while (k < np && prev[k] == c[k])
                k++;
            assert_true(k < np && prev[k] < c[k]);
        }
        prev = c;
    }
    assert_null(cutune_space_config(s, n));
    cutune_space_free(s);
}

static void test_find_invalid(void **state)
{
    cutune_space *s = xgemm_space();
    enumerate(s);
    uint16_t idx[15] = {0};
    /* MWG=16 with MDIMC=32: 16 % 32 != 0 */
    idx[3] = 2;
    assert_int_equal(cutune_space_check(s, idx, err, sizeof err), 0);
    assert_int_equal(cutune_space_find(s, idx), -1);
    /* every Cartesian point: find agrees with check, and the valid ones are counted */
    size_t valid = 0, total = 0;
    const cutune_param *pm[15];
    for (size_t p = 0; p < 15; p++)
        pm[p] = cutune_space_param(s, p);
    memset(idx, 0, sizeof idx);
    for (;;) {
        int ok = cutune_space_check(s, idx, err, sizeof err);
        long long id = cutune_space_find(s, idx);
        assert_true(ok == 0 || ok == 1);
        assert_int_equal(ok, id >= 0);
        valid += (size_t)ok;
        total++;
        size_t p = 15;
        while (p-- > 0) {
            if (++idx[p] < pm[p]->nvalues)
                break;
            idx[p] = 0;
        }
        if (p == (size_t)-1)
            break;
    }
    assert_int_equal(total, 82944);
    assert_int_equal(valid, 17956);
    /* an index past the end of a value list is not valid and not an error for find */
    memset(idx, 0, sizeof idx);
    idx[0] = 4;
    assert_int_equal(cutune_space_find(s, idx), -1);
    assert_int_equal(cutune_space_check(s, idx, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "MWG"));
    cutune_space_free(s);
}

/* A small space with a restriction that makes holes, for neighbour tests. */
static cutune_space *small_space(void)
{
    static const long long A[] = {1, 2, 3, 4}, B[] = {1, 2, 3}, C[] = {0, 1};
    cutune_space *s = cutune_space_alloc();
    add_ints(s, "a", A, 4);
    add_ints(s, "b", B, 3);
    add_ints(s, "c", C, 2);
    restrict_(s, "a * b != 6");
    restrict_(s, "!(a == 1 && c == 1)");
    return s;
}

static void test_neighbours(void **state)
{
    cutune_space *s = small_space();
    enumerate(s);
    size_t n = cutune_space_size(s), np = 3;
    /* 4*3*2 = 24; a*b == 6 removes (2,3),(3,2) x 2 = 4; a==1&&c==1 removes 3 */
    assert_int_equal(n, 17);
    for (int mode = 0; mode <= 1; mode++) {
        for (size_t id = 0; id < n; id++) {
            size_t got[16], want[16], nwant = 0;
            uint16_t v[3];
            memcpy(v, cutune_space_config(s, id), sizeof v);
            for (size_t p = 0; p < np; p++) {
                const cutune_param *pp = cutune_space_param(s, p);
                uint16_t orig = v[p];
                for (uint16_t k = 0; k < pp->nvalues; k++) {
                    if (k == orig || (mode == CUTUNE_NEIGHBOUR_ADJACENT && abs(k - orig) != 1))
                        continue;
                    v[p] = k;
                    if (cutune_space_check(s, v, err, sizeof err) == 1)
                        want[nwant++] = (size_t)cutune_space_find(s, v);
                }
                v[p] = orig;
            }
            size_t cnt = cutune_space_neighbours(s, id, mode, got, 16);
            assert_int_equal(cnt, nwant);
            for (size_t k = 0; k < cnt; k++) {
                assert_int_equal(got[k], want[k]);
                assert_true(got[k] != id);
            }
            /* max caps what is written, not what is counted */
            size_t one[2] = {99, 99};
            assert_int_equal(cutune_space_neighbours(s, id, mode, one, 1), nwant);
            assert_int_equal(one[1], 99);
            assert_int_equal(cutune_space_neighbours(s, id, mode, NULL, 0), nwant);
        }
    }
    /* a=2,b=2,c=0 adjacent: a->1, b->1, c->1 valid; a->3, b->3 give a*b=6; any adds a->4 */
    uint16_t q[3] = {1, 1, 0};
    long long id = cutune_space_find(s, q);
    assert_true(id >= 0);
    assert_int_equal(cutune_space_neighbours(s, (size_t)id, CUTUNE_NEIGHBOUR_ADJACENT, NULL, 0), 3);
    assert_int_equal(cutune_space_neighbours(s, (size_t)id, CUTUNE_NEIGHBOUR_ANY, NULL, 0), 4);
    /* adjacent pairs of (a,b,c) = (2,2,0): the four (a,b) = (1|3, 1|3) with c = 0 are
     * valid; with c = 1, (1,2,1) and (3,2,1) are not (a == 1 && c == 1; a*b = 6), (2,1,1)
     * is and (2,3,1) is not (a*b = 6): five in all */
    size_t pr[16];
    size_t npr = cutune_space_neighbours(s, (size_t)id, CUTUNE_NEIGHBOUR_ADJACENT_PAIRS, pr, 16);
    assert_int_equal(npr, 5);
    assert_int_equal(cutune_space_neighbours(s, (size_t)id, 3, NULL, 0), 0); /* no such mode */
    assert_int_equal(cutune_space_neighbours(s, (size_t)id, -1, NULL, 0), 0);
    size_t diag = 0;
    for (size_t k = 0; k < npr; k++)
        diag += cutune_space_config(s, pr[k])[2] == 0;
    assert_int_equal(diag, 4);
    cutune_space_free(s);
}

/* CUTUNE_NEIGHBOUR_ADJACENT_PAIRS against a brute force: every valid configuration with
 * exactly two parameters one value away, in the documented order (p, q, then values). */
static void test_adjacent_pairs(void **state)
{
    (void)state;
    cutune_space *s = small_space();
    enumerate(s);
    size_t n = cutune_space_size(s), np = 3, total = 0;
    for (size_t id = 0; id < n; id++) {
        const uint16_t *row = cutune_space_config(s, id);
        size_t want[32], nwant = 0, got[32];
        for (size_t p = 0; p < np; p++)
            for (size_t q = p + 1; q < np; q++)
                for (int dp = -1; dp <= 1; dp += 2)
                    for (int dq = -1; dq <= 1; dq += 2) {
                        int vp = row[p] + dp, vq = row[q] + dq;
                        if (vp < 0 || vq < 0 || (size_t)vp >= cutune_space_param(s, p)->nvalues ||
                            (size_t)vq >= cutune_space_param(s, q)->nvalues)
                            continue;
                        uint16_t v[3];
                        memcpy(v, row, sizeof v);
                        v[p] = (uint16_t)vp;
                        v[q] = (uint16_t)vq;
                        if (cutune_space_check(s, v, err, sizeof err) == 1)
                            want[nwant++] = (size_t)cutune_space_find(s, v);
                    }
        size_t cnt = cutune_space_neighbours(s, id, CUTUNE_NEIGHBOUR_ADJACENT_PAIRS, got, 32);
        assert_int_equal(cnt, nwant);
        for (size_t k = 0; k < cnt; k++) {
            assert_int_equal(got[k], want[k]);
            const uint16_t *c = cutune_space_config(s, got[k]);
            size_t moved = 0;
            for (size_t p = 0; p < np; p++)
                moved += c[p] != row[p];
            assert_int_equal(moved, 2);
        }
        /* max caps what is written, not what is counted */
        size_t one[2] = {99, 99};
        assert_int_equal(cutune_space_neighbours(s, id, CUTUNE_NEIGHBOUR_ADJACENT_PAIRS, one, 1),
                         nwant);
        assert_int_equal(one[1], 99);
        total += cnt;
    }
    assert_true(total > 0);
    cutune_space_free(s);
}

static void test_encode(void **state)
{
    cutune_space *s = xgemm_space();
    enumerate(s);
    double x[15], lo[15], hi[15];
    for (int p = 0; p < 15; p++) {
        lo[p] = 1;
        hi[p] = 0;
    }
    for (size_t id = 0; id < cutune_space_size(s); id++) {
        cutune_space_encode(s, id, x);
        const uint16_t *c = cutune_space_config(s, id);
        for (int p = 0; p < 15; p++) {
            assert_true(x[p] >= 0.0 && x[p] <= 1.0);
            size_t nv = cutune_space_param(s, (size_t)p)->nvalues;
            if (nv == 1)
                assert_true(x[p] == 0.5);
            else
                assert_true(fabs(x[p] - (double)c[p] / (double)(nv - 1)) < 1e-15);
            lo[p] = fmin(lo[p], x[p]);
            hi[p] = fmax(hi[p], x[p]);
        }
    }
    /* MWG spans its whole list in the valid set */
    assert_true(lo[0] == 0.0 && hi[0] == 1.0);
    cutune_space_free(s);
}

/* ---- errors ---------------------------------------------------------------- */

static void test_empty_space(void **state)
{
    cutune_space *s = small_space();
    restrict_(s, "a > 100");
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), CUTUNE_EEMPTY);
    assert_int_equal(cutune_space_size(s), 0);
    assert_int_equal(cutune_space_find(s, (uint16_t[3]){0, 0, 0}), -1);
    cutune_space_free(s);

    /* a constants-only restriction is decided once, before the walk */
    s = small_space();
    cutune_value n = {.type = CUTUNE_VALUE_INT, .i = 4};
    assert_int_equal(cutune_space_add_constant(s, "N", n, err, sizeof err), 0);
    restrict_(s, "N < 0");
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), CUTUNE_EEMPTY);
    assert_non_null(strstr(err, "N < 0"));
    cutune_space_free(s);

    s = cutune_space_alloc();
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), CUTUNE_EEMPTY);
    cutune_space_free(s);
    cutune_space_free(NULL);
}

/* A space too large to hold is refused before it eats memory and time, with the sizes:
 * without restrictions at once (nothing stored), with them when the valid set passes the
 * limit, and when the walk has examined 32 x the limit of points. */
static void test_size_limits(void **state)
{
    (void)state;
    long long v[40];
    for (int i = 0; i < 40; i++)
        v[i] = i;
    cutune_space *s = cutune_space_alloc();
    for (int p = 0; p < 8; p++) {
        char name[4] = {(char)('a' + p), 0};
        add_ints(s, name, v, 40); /* 40^8 = 6.5e12 points */
    }
    double t0 = cutune_now();
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), CUTUNE_EINVAL);
    assert_true(cutune_now() - t0 < 1.0);
    assert_non_null(strstr(err, "every point is valid (no restriction); its Cartesian product is "
                                "6553600000000 points and the limit is 10000000 valid"));
    assert_int_equal(cutune_space_size(s), 0);
    setenv("CUTUNE_MAX_CONFIGS", "1000", 1);
    restrict_(s, "a < 30");
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "more than 1000 configurations are valid"));
    assert_int_equal(cutune_space_size(s), 0);
    cutune_space_free(s);
    /* restrictions that reject nearly everything: the walk stops after 32 x the limit */
    s = cutune_space_alloc();
    for (int p = 0; p < 8; p++) {
        char name[4] = {(char)('a' + p), 0};
        add_ints(s, name, v, 40);
    }
    restrict_(s, "h < 0");
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(
        strstr(err, "enumeration stopped after examining 32000 points (0 valid so far)"));
    setenv("CUTUNE_MAX_CONFIGS", "10x", 1);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "CUTUNE_MAX_CONFIGS=10x: not a count"));
    unsetenv("CUTUNE_MAX_CONFIGS");
    cutune_space_free(s);
}

static void test_div_by_zero(void **state)
{
    static const long long A[] = {2, 1, 0}, B[] = {1, 2};
    cutune_space *s = cutune_space_alloc();
    add_ints(s, "a", A, 3);
    add_ints(s, "b", B, 2);
    restrict_(s, "b % a == 0");
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), CUTUNE_EMATH);
    assert_non_null(strstr(err, "b % a == 0"));
    assert_non_null(strstr(err, "a=0"));
    assert_non_null(strstr(err, "column 3"));
    assert_int_equal(cutune_space_size(s), 0);
    cutune_space_free(s);

    /* a restriction is decided as soon as its last parameter is bound: the error
     * names only the parameters bound so far */
    s = cutune_space_alloc();
    add_ints(s, "a", A, 3);
    add_ints(s, "b", B, 2);
    restrict_(s, "10 / a > 0");
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), CUTUNE_EMATH);
    assert_non_null(strstr(err, "at a=0)"));
    assert_null(strstr(err, "b="));
    cutune_space_free(s);

    /* a string parameter in arithmetic is a type error at enumeration */
    s = cutune_space_alloc();
    cutune_value sv[] = {{.type = CUTUNE_VALUE_STRING, .s = "x"}};
    assert_int_equal(cutune_space_add_param(s, "name", sv, 1, err, sizeof err), 0);
    restrict_(s, "name + 1");
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "name=x"));
    cutune_space_free(s);
}

static void test_definition_errors(void **state)
{
    static const long long A[] = {1, 2};
    cutune_space *s = cutune_space_alloc();
    add_ints(s, "a", A, 2);
    cutune_value v = {.type = CUTUNE_VALUE_INT, .i = 1};
    assert_int_equal(cutune_space_add_param(s, "a", &v, 1, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "'a'"));
    assert_int_equal(cutune_space_add_param(s, "e", &v, 0, err, sizeof err), CUTUNE_EINVAL);
    assert_int_equal(cutune_space_add_param(s, "bad name", &v, 1, err, sizeof err), CUTUNE_EINVAL);
    /* a keyword no restriction could name, and a value twice (1 and 1.0 are one) */
    assert_int_equal(cutune_space_add_param(s, "in", &v, 1, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "'in' is a keyword"));
    cutune_value twice[3] = {{.type = CUTUNE_VALUE_INT, .i = 32},
                             {.type = CUTUNE_VALUE_INT, .i = 64},
                             {.type = CUTUNE_VALUE_REAL, .r = 32.0}};
    assert_int_equal(cutune_space_add_param(s, "bs", twice, 3, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "value 2 is value 0 again"));
    cutune_value big[2] = {{.type = CUTUNE_VALUE_INT, .i = 9007199254740992LL},
                           {.type = CUTUNE_VALUE_INT, .i = 9007199254740993LL}};
    assert_int_equal(cutune_space_add_param(s, "big", big, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_constant(s, "a", v, err, sizeof err), CUTUNE_EINVAL);
    assert_int_equal(cutune_space_add_restriction(s, "a + nope > 0", err, sizeof err),
                     CUTUNE_ENOTFOUND);
    assert_non_null(strstr(err, "unknown parameter 'nope' at column 5"));
    assert_int_equal(cutune_space_add_restriction(s, "a >", err, sizeof err), CUTUNE_EPARSE);
    assert_int_equal(cutune_space_nrestrictions(s), 0);
    restrict_(s, "a > 0");
    assert_int_equal(cutune_space_add_param(s, "late", &v, 1, err, sizeof err), CUTUNE_EINVAL);
    assert_int_equal(cutune_space_set_constant(s, "nope", v, err, sizeof err), CUTUNE_ENOTFOUND);
    assert_int_equal(cutune_space_param_index(s, "a"), 0);
    assert_int_equal(cutune_space_param_index(s, "z"), -1);
    assert_string_equal(cutune_space_restriction_text(s, 0), "a > 0");
    cutune_space_free(s);
}

/* ---- constants, filter, texts, hash ---------------------------------------- */

static void test_constants(void **state)
{
    static const long long A[] = {1, 2, 4, 8, 16}, B[] = {1, 2, 4, 8};
    cutune_space *s = cutune_space_alloc();
    add_ints(s, "a", A, 5);
    add_ints(s, "b", B, 4);
    cutune_value n = {.type = CUTUNE_VALUE_INT, .i = 16};
    cutune_value half = {.type = CUTUNE_VALUE_REAL, .r = 0.5};
    assert_int_equal(cutune_space_add_constant(s, "N", n, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_constant(s, "H", half, err, sizeof err), 0);
    restrict_(s, "a * b <= N");
    restrict_(s, "H < 1");
    cutune_symtab st = cutune_space_symtab(s);
    assert_int_equal(st.n, 4);
    assert_string_equal(st.names[2], "N");
    assert_string_equal(st.names[3], "H");
    assert_int_equal(cutune_space_nconstants(s), 2);
    assert_string_equal(cutune_space_constant_name(s, 1), "H");
    assert_true(cutune_space_constant_value(s, 1).r == 0.5);

    for (long long nv = 16; nv >= 1; nv /= 4) {
        n.i = nv;
        assert_int_equal(cutune_space_set_constant(s, "N", n, err, sizeof err), 0);
        enumerate(s);
        size_t want = 0;
        for (size_t i = 0; i < 5; i++)
            for (size_t j = 0; j < 4; j++)
                want += A[i] * B[j] <= nv;
        assert_int_equal(cutune_space_size(s), want);
        /* values() fills the constants after the parameters */
        cutune_value vars[4];
        cutune_space_values(s, 0, vars);
        assert_int_equal(vars[0].i, 1);
        assert_int_equal(vars[2].i, nv);
        assert_true(vars[3].r == 0.5);
    }
    cutune_space_free(s);
}

static int keep_even(void *ctx, const uint16_t *idx)
{
    int *calls = ctx;
    (*calls)++;
    return (idx[0] + idx[1] + idx[2]) % 2 == 0;
}

static void test_filter(void **state)
{
    cutune_space *s = small_space();
    int calls = 0;
    cutune_space_set_filter(s, keep_even, &calls);
    enumerate(s);
    size_t want = 0;
    static const long long A[] = {1, 2, 3, 4}, B[] = {1, 2, 3};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 2; k++)
                if (A[i] * B[j] != 6 && !(A[i] == 1 && k == 1) && (i + j + k) % 2 == 0)
                    want++;
    assert_int_equal(cutune_space_size(s), want);
    assert_int_equal(calls, 17); /* only configurations that pass the restrictions */
    uint16_t odd[3] = {0, 1, 0};
    assert_int_equal(cutune_space_check(s, odd, err, sizeof err), 0);
    uint16_t even[3] = {1, 1, 0};
    assert_int_equal(cutune_space_check(s, even, err, sizeof err), 1);
    cutune_space_free(s);
}

static void test_texts_and_format(void **state)
{
    cutune_space *s = cutune_space_alloc();
    cutune_value r[] = {{.type = CUTUNE_VALUE_REAL, .r = 1.0},
                        {.type = CUTUNE_VALUE_REAL, .r = 0.5},
                        {.type = CUTUNE_VALUE_REAL, .r = 1e-5}};
    char name_x[] = "x"; /* the space copies strings: changing ours must not matter */
    cutune_value str[] = {{.type = CUTUNE_VALUE_STRING, .s = name_x},
                          {.type = CUTUNE_VALUE_STRING, .s = "long name"}};
    static const long long I[] = {32};
    add_ints(s, "n", I, 1);
    assert_int_equal(cutune_space_add_param(s, "r", r, 3, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "s", str, 2, err, sizeof err), 0);
    name_x[0] = 'y';
    const cutune_param *p = cutune_space_param(s, 1);
    assert_string_equal(p->name, "r");
    assert_string_equal(p->texts[0], "1.0");
    assert_string_equal(p->texts[1], "0.5");
    assert_string_equal(p->texts[2], "1e-05");
    p = cutune_space_param(s, 2);
    assert_string_equal(p->values[0].s, "x");
    assert_ptr_equal(p->values[0].s, p->texts[0]);
    assert_null(cutune_space_param(s, 3));
    restrict_(s, "s == \"x\" || r >= 0.5");
    enumerate(s);
    assert_int_equal(cutune_space_size(s), 5);
    char buf[128];
    int len = cutune_space_format_config(s, 0, buf, sizeof buf);
    assert_string_equal(buf, "n=32, r=1.0, s=x");
    assert_int_equal(len, (int)strlen(buf));
    /* snprintf semantics: truncated output, full length returned */
    assert_int_equal(cutune_space_format_config(s, 0, buf, 5), len);
    assert_string_equal(buf, "n=32");
    assert_int_equal(cutune_space_format_config(s, 0, NULL, 0), len);
    cutune_space_format_config(s, 4, buf, sizeof buf);
    assert_string_equal(buf, "n=32, r=1e-05, s=x");
    cutune_space_free(s);
}

static void test_hash(void **state)
{
    cutune_space *a = xgemm_space(), *b = xgemm_space();
    uint64_t h = cutune_space_hash(a);
    assert_true(h == cutune_space_hash(b));
    enumerate(a); /* enumeration does not change the definition */
    assert_true(h == cutune_space_hash(a));
    restrict_(b, "SA == SB");
    assert_true(h != cutune_space_hash(b));
    cutune_space_free(b);

    b = xgemm_space();
    cutune_value v = {.type = CUTUNE_VALUE_INT, .i = 4096};
    assert_int_equal(cutune_space_add_constant(b, "N", v, err, sizeof err), 0);
    uint64_t hn = cutune_space_hash(b);
    assert_true(h != hn);
    v.i = 2048;
    assert_int_equal(cutune_space_set_constant(b, "N", v, err, sizeof err), 0);
    assert_true(hn != cutune_space_hash(b));
    cutune_space_free(b);

    /* 1 and "1" are different values even though they print the same */
    cutune_space *c = cutune_space_alloc(), *d = cutune_space_alloc();
    cutune_value one = {.type = CUTUNE_VALUE_INT, .i = 1};
    cutune_value sone = {.type = CUTUNE_VALUE_STRING, .s = "1"};
    assert_int_equal(cutune_space_add_param(c, "p", &one, 1, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(d, "p", &sone, 1, err, sizeof err), 0);
    assert_true(cutune_space_hash(c) != cutune_space_hash(d));
    cutune_space_free(c);
    cutune_space_free(d);
    cutune_space_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xgemm_count),
        cmocka_unit_test(test_convolution_count),
        cmocka_unit_test(test_pnpoly_count),
        cmocka_unit_test(test_kernel_tuner_restrictions),
        cmocka_unit_test(test_kernel_tuner_caches),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_find_invalid),
        cmocka_unit_test(test_neighbours),
        cmocka_unit_test(test_adjacent_pairs),
        cmocka_unit_test(test_encode),
        cmocka_unit_test(test_empty_space),
        cmocka_unit_test(test_div_by_zero),
        cmocka_unit_test(test_size_limits),
        cmocka_unit_test(test_definition_errors),
        cmocka_unit_test(test_constants),
        cmocka_unit_test(test_filter),
        cmocka_unit_test(test_texts_and_format),
        cmocka_unit_test(test_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
