/* Unit tests of SHA-256 (src/common/sha256.c): the examples of FIPS 180-4 (NIST's
 * "SHA256.pdf" example values: one block, two blocks, one million 'a'), the empty message,
 * chunked input at every split around the block boundary, and files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cutune/common.h"
#include "cutune/sha256.h"

static void check(const char *msg, const char *want)
{
    char hex[65];
    cutune_sha256_hex(msg, strlen(msg), hex);
    assert_string_equal(hex, want);
}

static void test_fips_vectors(void **state)
{
    check("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    check("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    cutune_sha256 s;
    unsigned char d[32], a[1000];
    memset(a, 'a', sizeof a);
    cutune_sha256_init(&s);
    for (int i = 0; i < 1000; i++)
        cutune_sha256_update(&s, a, sizeof a);
    cutune_sha256_final(&s, d);
    static const unsigned char want[32] = {0xcd, 0xc7, 0x6e, 0x5c, 0x99, 0x14, 0xfb, 0x92,
                                           0x81, 0xa1, 0xc7, 0xe2, 0x84, 0xd7, 0x3e, 0x67,
                                           0xf1, 0x80, 0x9a, 0x48, 0xa4, 0x97, 0x20, 0x0e,
                                           0x04, 0x6d, 0x39, 0xcc, 0xc7, 0x11, 0x2c, 0xd0};
    assert_memory_equal(d, want, 32);
}

/* every length 0..130 (padding into one or two blocks), fed whole and in two pieces */
static void test_chunks(void **state)
{
    unsigned char m[130];
    for (int i = 0; i < 130; i++)
        m[i] = (unsigned char)(i * 7 + 3);
    for (size_t n = 0; n <= sizeof m; n++) {
        char whole[65];
        cutune_sha256_hex(m, n, whole);
        for (size_t cut = 0; cut <= n; cut += n / 5 + 1) {
            cutune_sha256 s;
            unsigned char d[32];
            cutune_sha256_init(&s);
            cutune_sha256_update(&s, m, cut);
            cutune_sha256_update(&s, m + cut, n - cut);
            cutune_sha256_final(&s, d);
            char hex[65];
            for (int i = 0; i < 32; i++)
                snprintf(hex + 2 * i, 3, "%02x", d[i]);
            assert_string_equal(hex, whole);
        }
    }
}

static void test_file(void **state)
{
    char path[] = "/tmp/cutune-sha256-XXXXXX", hex[65], err[256];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "abc", 3), 3);
    close(fd);
    uint64_t size = 0;
    assert_int_equal(cutune_sha256_file(path, hex, &size, err, sizeof err), 0);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_int_equal(size, 3);
    unlink(path);
    assert_int_equal(cutune_sha256_file(path, hex, NULL, err, sizeof err), CUTUNE_EIO);
    assert_non_null(strstr(err, path));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fips_vectors),
        cmocka_unit_test(test_chunks),
        cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
