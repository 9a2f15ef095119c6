/* The parent <-> worker wire protocol: round trips of every message, every
 * truncation rejected, framing over a socket (EOF, timeout, oversize), and
 * the median's confidence interval. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "src/eval/cuda/cuda_internal.h"

/* The payload of the single framed message in b. */
static const uint8_t *payload(const cutune_cuda_buf *b, uint32_t type, size_t *n)
{
    uint32_t hdr[2];
    assert_true(b->len >= 8);
    memcpy(hdr, b->data, 8);
    assert_int_equal(hdr[0], type);
    assert_int_equal(hdr[1], b->len - 8);
    *n = hdr[1];
    return b->data + 8;
}

static void test_hello(void **state)
{
    (void)state;
    cutune_cuda_buf b = {0};
    cutune_cuda_hello h = {.rc = CUTUNE_ENODEV,
                           .cc_major = 9,
                           .cc_minor = 0,
                           .sm_count = 132,
                           .driver_version = 13000,
                           .proto = CUTUNE_CUDA_PROTO_VERSION};
    snprintf(h.msg, sizeof h.msg, "no CUDA device");
    snprintf(h.name, sizeof h.name, "NVIDIA H200");
    h.device_count = 2;
    h.ordinal = 1;
    snprintf(h.pci_bus_id, sizeof h.pci_bus_id, "0000:19:00.0");
    snprintf(h.uuid, sizeof h.uuid, "GPU-0123");
    h.energy_source = CUTUNE_CUDA_ENERGY_SAMPLED;
    assert_int_equal(cutune_cuda_encode_hello(&b, &h), 0);
    size_t n;
    const uint8_t *p = payload(&b, CUTUNE_CUDA_MSG_HELLO, &n);
    cutune_cuda_hello d;
    assert_int_equal(cutune_cuda_decode_hello(p, n, &d), 0);
    assert_int_equal(d.rc, CUTUNE_ENODEV);
    assert_string_equal(d.msg, "no CUDA device");
    assert_string_equal(d.name, "NVIDIA H200");
    assert_int_equal(d.sm_count, 132);
    assert_int_equal(d.driver_version, 13000);
    assert_int_equal(d.proto, CUTUNE_CUDA_PROTO_VERSION);
    assert_int_equal(d.device_count, 2);
    assert_int_equal(d.ordinal, 1);
    assert_string_equal(d.pci_bus_id, "0000:19:00.0");
    assert_string_equal(d.uuid, "GPU-0123");
    assert_int_equal(d.energy_source, CUTUNE_CUDA_ENERGY_SAMPLED);
    /* every truncation is malformed, except the one that ends where a worker from before
     * the version field ended: that decodes, as protocol 0 (refused by the session). After
     * the version: the count and ordinal (4 + 4), two strings (8-byte length + text + NUL),
     * the energy source (4) */
    size_t legacy = n - 4 - 8 - (8 + sizeof "0000:19:00.0") - (8 + sizeof "GPU-0123") - 4;
    for (size_t k = 0; k < n; k++) {
        int rc = cutune_cuda_decode_hello(p, k, &d);
        if (k == legacy) {
            assert_int_equal(rc, 0);
            assert_int_equal(d.proto, 0);
            assert_int_equal(d.driver_version, 13000);
        } else {
            assert_int_equal(rc, CUTUNE_EPARSE);
        }
    }
    /* another build's HELLO that grew after its version decodes (and is refused by the
     * session by its version); this build's own with trailing bytes is malformed */
    uint8_t grown[1024];
    assert_true(n + 4 <= sizeof grown);
    for (uint32_t v = 0; v < 2; v++) {
        cutune_cuda_buf g = {0};
        h.proto = v ? CUTUNE_CUDA_PROTO_VERSION : 99u;
        assert_int_equal(cutune_cuda_encode_hello(&g, &h), 0);
        size_t gn;
        const uint8_t *gp = payload(&g, CUTUNE_CUDA_MSG_HELLO, &gn);
        memcpy(grown, gp, gn);
        memset(grown + gn, 0x5a, 4);
        int rc = cutune_cuda_decode_hello(grown, gn + 4, &d);
        if (v) {
            assert_int_equal(rc, CUTUNE_EPARSE);
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(d.proto, 99);
            assert_string_equal(d.name, "NVIDIA H200");
        }
        cutune_cuda_buf_free(&g);
    }
    cutune_cuda_buf_free(&b);
}

static void test_setup(void **state)
{
    (void)state;
    cutune_cuda_buf b = {0};
    cutune_cuda_setup s = {0};
    s.seed = 0x123456789abcdefull;
    s.flush_l2 = 1;
    s.warmup = 3;
    s.min_reps = 10;
    s.max_reps = 100;
    s.max_time_s = 1.5;
    s.ci_rel = 0.01;
    s.nargs = 3;
    for (int i = 0; i < 3; i++) {
        snprintf(s.args[i].name, sizeof s.args[i].name, "arg%d", i);
        s.args[i].kind = (uint8_t)(i == 2);
        s.args[i].type = (uint8_t)i;
        s.args[i].init = 1;
        s.args[i].output = i == 0;
        s.args[i].lo = -i;
        s.args[i].hi = i + 0.5;
        if (i == 1)
            snprintf(s.args[i].init_name, sizeof s.args[i].init_name, "gen_arg1");
    }
    s.ref_kind = CUTUNE_REF_KERNEL;
    snprintf(s.ref_name, sizeof s.ref_name, "ref");
    s.ref_cubin = "\x7f"
                  "ELF\0\1\2";
    s.ref_cubin_size = 7;
    s.rtol = 1e-6;
    s.atol = INFINITY;
    s.gemm_m = 4096;
    s.gemm_a = -1;
    s.energy_window_s = 0.2;
    s.energy_batch = 1;
    assert_int_equal(cutune_cuda_encode_setup(&b, &s), 0);
    size_t n;
    const uint8_t *p = payload(&b, CUTUNE_CUDA_MSG_SETUP, &n);
    cutune_cuda_setup d;
    assert_int_equal(cutune_cuda_decode_setup(p, n, &d), 0);
    assert_true(d.seed == s.seed);
    assert_true(d.energy_window_s == 0.2);
    assert_int_equal(d.energy_batch, 1);
    assert_int_equal(d.nargs, 3);
    assert_string_equal(d.args[2].name, "arg2");
    assert_int_equal(d.args[2].kind, 1);
    assert_int_equal(d.args[0].output, 1);
    assert_true(d.args[1].lo == -1 && d.args[2].hi == 2.5);
    assert_string_equal(d.args[1].init_name, "gen_arg1");
    assert_string_equal(d.args[0].init_name, "");
    assert_int_equal(d.ref_cubin_size, 7);
    assert_memory_equal(d.ref_cubin, s.ref_cubin, 7);
    assert_true(isinf(d.atol) && d.rtol == 1e-6 && d.max_time_s == 1.5);
    assert_int_equal(d.gemm_m, 4096);
    assert_int_equal(d.gemm_a, -1);
    for (size_t k = 0; k < n; k++)
        assert_int_equal(cutune_cuda_decode_setup(p, k, &d), CUTUNE_EPARSE);

    /* a tensormap argument: its buffer, rank and swizzle travel; a map naming no argument
     * is refused */
    s.args[1].kind = CUTUNE_ARG_TENSORMAP;
    s.args[1].tensor = 2;
    s.args[1].trank = 2;
    s.args[1].swizzle = 128;
    b.len = 0;
    assert_int_equal(cutune_cuda_encode_setup(&b, &s), 0);
    p = payload(&b, CUTUNE_CUDA_MSG_SETUP, &n);
    assert_int_equal(cutune_cuda_decode_setup(p, n, &d), 0);
    assert_int_equal(d.args[1].kind, CUTUNE_ARG_TENSORMAP);
    assert_int_equal(d.args[1].tensor, 2);
    assert_int_equal(d.args[1].trank, 2);
    assert_int_equal(d.args[1].swizzle, 128);
    s.args[1].tensor = 3; /* past nargs */
    b.len = 0;
    assert_int_equal(cutune_cuda_encode_setup(&b, &s), 0);
    p = payload(&b, CUTUNE_CUDA_MSG_SETUP, &n);
    assert_int_equal(cutune_cuda_decode_setup(p, n, &d), CUTUNE_EPARSE);
    s.nargs = CUTUNE_CUDA_MAX_ARGS + 1;
    assert_int_equal(cutune_cuda_encode_setup(&b, &s), CUTUNE_EINVAL);
    cutune_cuda_buf_free(&b);
}

static void test_launch(void **state)
{
    (void)state;
    cutune_cuda_buf b = {0};
    cutune_cuda_launch l = {0};
    l.id = 77;
    l.kernel = "gemm";
    l.cubin = "CUBINBYTES";
    l.cubin_size = 10;
    for (int i = 0; i < 3; i++) {
        l.grid[i] = 100 + i;
        l.block[i] = 10 + i;
        l.ref_grid[i] = 200 + i;
        l.ref_block[i] = 20 + i;
    }
    l.smem = 65536;
    l.ref_smem = 4;
    l.nargs = 2;
    l.count[0] = 1ull << 33;
    l.bits[1] = 0xdeadbeef;
    l.tdim[1][0] = 4096;
    l.tdim[1][1] = 1ull << 35;
    l.tbox[1][0] = 64;
    l.tbox[1][4] = 256;
    assert_int_equal(cutune_cuda_encode_launch(&b, &l), 0);
    size_t n;
    const uint8_t *p = payload(&b, CUTUNE_CUDA_MSG_LAUNCH, &n);
    cutune_cuda_launch d;
    assert_int_equal(cutune_cuda_decode_launch(p, n, &d), 0);
    assert_int_equal(d.id, 77);
    assert_string_equal(d.kernel, "gemm");
    assert_int_equal(d.cubin_size, 10);
    assert_memory_equal(d.cubin, "CUBINBYTES", 10);
    assert_int_equal(d.grid[2], 102);
    assert_int_equal(d.ref_block[1], 21);
    assert_int_equal(d.smem, 65536);
    assert_int_equal(d.ref_smem, 4);
    assert_true(d.count[0] == 1ull << 33 && d.bits[1] == 0xdeadbeef);
    assert_true(d.tdim[1][0] == 4096 && d.tdim[1][1] == 1ull << 35);
    assert_true(d.tbox[1][0] == 64 && d.tbox[1][4] == 256 && d.tbox[0][0] == 0);
    for (size_t k = 0; k < n; k++)
        assert_int_equal(cutune_cuda_decode_launch(p, k, &d), CUTUNE_EPARSE);
    /* trailing garbage is rejected too */
    uint8_t *q = malloc(n + 1);
    memcpy(q, p, n);
    q[n] = 0;
    assert_int_equal(cutune_cuda_decode_launch(q, n + 1, &d), CUTUNE_EPARSE);
    free(q);
    cutune_cuda_buf_free(&b);
}

static void test_reply(void **state)
{
    (void)state;
    cutune_cuda_buf b = {0};
    double times[3] = {1.0, 1.5, 2.0};
    cutune_cuda_reply r = {.status = CUTUNE_STATUS_WRONG_RESULT,
                           .fatal = 1,
                           .time_ms = 1.5,
                           .ntimes = 3,
                           .times = times,
                           .nmetrics = 2,
                           .log = "bad\nworse"};
    snprintf(r.metrics[0].name, sizeof r.metrics[0].name, "registers");
    r.metrics[0].value = 64;
    snprintf(r.metrics[1].name, sizeof r.metrics[1].name, "occupancy");
    r.metrics[1].value = 0.5;
    assert_int_equal(cutune_cuda_encode_reply(&b, &r), 0);
    size_t n;
    const uint8_t *p = payload(&b, CUTUNE_CUDA_MSG_REPLY, &n);
    cutune_cuda_reply d;
    assert_int_equal(cutune_cuda_decode_reply(p, n, &d), 0);
    assert_int_equal(d.status, CUTUNE_STATUS_WRONG_RESULT);
    assert_int_equal(d.fatal, 1);
    assert_int_equal(d.ntimes, 3);
    assert_true(d.times[2] == 2.0 && d.time_ms == 1.5);
    assert_string_equal(d.metrics[1].name, "occupancy");
    assert_string_equal(d.log, "bad\nworse");
    cutune_cuda_reply_clear(&d);
    for (size_t k = 0; k < n; k++) {
        assert_int_equal(cutune_cuda_decode_reply(p, k, &d), CUTUNE_EPARSE);
        assert_null(d.times); /* nothing leaks on failure */
        assert_null(d.log);
    }
    /* an empty log decodes as NULL; a status out of range is rejected */
    cutune_cuda_reply e = {.status = CUTUNE_STATUS_OK};
    b.len = 0;
    assert_int_equal(cutune_cuda_encode_reply(&b, &e), 0);
    p = payload(&b, CUTUNE_CUDA_MSG_REPLY, &n);
    assert_int_equal(cutune_cuda_decode_reply(p, n, &d), 0);
    assert_null(d.log);
    e.status = 99;
    b.len = 0;
    assert_int_equal(cutune_cuda_encode_reply(&b, &e), 0);
    p = payload(&b, CUTUNE_CUDA_MSG_REPLY, &n);
    assert_int_equal(cutune_cuda_decode_reply(p, n, &d), CUTUNE_EPARSE);
    cutune_cuda_buf_free(&b);
}

static void test_socket(void **state)
{
    (void)state;
    int sv[2];
    char err[256];
    uint32_t type;
    cutune_cuda_buf b = {0}, in = {0};
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    assert_int_equal(cutune_cuda_encode_progress(&b, CUTUNE_CUDA_PHASE_TIME), 0);
    assert_int_equal(cutune_cuda_encode_quit(&b), 0); /* two frames back to back */
    assert_int_equal(cutune_cuda_send(sv[0], &b), 0);
    assert_int_equal(cutune_cuda_recv(sv[1], 1.0, &type, &in, err, sizeof err), 0);
    assert_int_equal(type, CUTUNE_CUDA_MSG_PROGRESS);
    uint32_t phase;
    assert_int_equal(cutune_cuda_decode_progress(in.data, in.len, &phase), 0);
    assert_int_equal(phase, CUTUNE_CUDA_PHASE_TIME);
    assert_int_equal(cutune_cuda_recv(sv[1], 1.0, &type, &in, err, sizeof err), 0);
    assert_int_equal(type, CUTUNE_CUDA_MSG_QUIT);
    assert_int_equal(in.len, 0);

    /* nothing arrives: timeout */
    double t0 = cutune_now();
    assert_int_equal(cutune_cuda_recv(sv[1], 0.1, &type, &in, err, sizeof err), CUTUNE_EINTR);
    assert_true(cutune_now() - t0 >= 0.09);

    /* an oversize length is a bad frame, not an allocation */
    uint32_t hdr[2] = {CUTUNE_CUDA_MSG_REPLY, 0xffffffffu};
    assert_int_equal(write(sv[0], hdr, sizeof hdr), (ssize_t)sizeof hdr);
    assert_int_equal(cutune_cuda_recv(sv[1], 1.0, &type, &in, err, sizeof err), CUTUNE_EPARSE);

    /* a frame cut short by the peer's death: EOF */
    hdr[1] = 100;
    assert_int_equal(write(sv[0], hdr, sizeof hdr), (ssize_t)sizeof hdr);
    assert_int_equal(write(sv[0], "abc", 3), 3);
    close(sv[0]);
    assert_int_equal(cutune_cuda_recv(sv[1], 1.0, &type, &in, err, sizeof err), CUTUNE_EIO);
    assert_non_null(strstr(err, "closed"));
    /* sending to a dead peer is an error, not SIGPIPE */
    assert_int_equal(cutune_cuda_send(sv[1], &b), CUTUNE_EIO);
    close(sv[1]);
    cutune_cuda_buf_free(&b);
    cutune_cuda_buf_free(&in);
}

static void test_median_ci(void **state)
{
    (void)state;
    size_t lo, hi;
    cutune_cuda_median_ci(1, &lo, &hi);
    assert_true(lo == 0 && hi == 0);
    cutune_cuda_median_ci(10, &lo, &hi);
    assert_true(lo == 0 && hi == 9);
    /* n = 100: ranks 40 and 61 (1-based), the textbook values */
    cutune_cuda_median_ci(100, &lo, &hi);
    assert_int_equal(lo, 39);
    assert_int_equal(hi, 60);
    for (size_t n = 1; n < 500; n++) {
        cutune_cuda_median_ci(n, &lo, &hi);
        assert_true(lo <= hi && hi < n && lo <= (n - 1) / 2 && hi >= n / 2);
    }
}

static void test_elem_size(void **state)
{
    (void)state;
    assert_int_equal(cutune_cuda_elem_size(CUTUNE_ELEM_FLOAT), 4);
    assert_int_equal(cutune_cuda_elem_size(CUTUNE_ELEM_DOUBLE), 8);
    assert_int_equal(cutune_cuda_elem_size(CUTUNE_ELEM_HALF), 2);
    assert_int_equal(cutune_cuda_elem_size(CUTUNE_ELEM_INT64), 8);
    assert_int_equal(cutune_cuda_elem_size(CUTUNE_ELEM_UINT8), 1);
    assert_true(cutune_cuda_error_is_sticky(CU_ERROR_ILLEGAL_ADDRESS));
    assert_false(cutune_cuda_error_is_sticky(CU_ERROR_LAUNCH_OUT_OF_RESOURCES));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hello),     cmocka_unit_test(test_setup),
        cmocka_unit_test(test_launch),    cmocka_unit_test(test_reply),
        cmocka_unit_test(test_socket),    cmocka_unit_test(test_median_ci),
        cmocka_unit_test(test_elem_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
