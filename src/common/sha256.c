/* SHA-256, as specified in NIST FIPS 180-4 (August 2015), section 6.2: the message padded
 * to 512-bit blocks (5.1.1), each block's 64-word schedule and 64 rounds over the eight
 * working variables, the constants K of 4.2.2 and the initial value H(0) of 5.3.3.
 * Test vectors (tests/io/test_sha256.c): FIPS 180-4's examples (NIST CSRC "SHA256.pdf"). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cutune/common.h"
#include "cutune/sha256.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, unsigned n)
{
    return x >> n | x << (32 - n);
}

static void block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
               (uint32_t)p[4 * t + 2] << 8 | (uint32_t)p[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ w[t - 15] >> 3;
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ w[t - 2] >> 10;
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 =
            hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

void cutune_sha256_init(cutune_sha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->bytes = 0;
    s->nb = 0;
}

void cutune_sha256_update(cutune_sha256 *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    s->bytes += n;
    if (s->nb) {
        size_t take = 64 - s->nb < n ? 64 - s->nb : n;
        memcpy(s->b + s->nb, p, take);
        s->nb += take;
        p += take;
        n -= take;
        if (s->nb < 64)
            return;
        block(s->h, s->b);
        s->nb = 0;
    }
    for (; n >= 64; p += 64, n -= 64)
        block(s->h, p);
    memcpy(s->b, p, n);
    s->nb = n;
}

void cutune_sha256_final(cutune_sha256 *s, unsigned char out[32])
{
    uint64_t bits = s->bytes * 8;
    s->b[s->nb++] = 0x80;
    if (s->nb > 56) {
        memset(s->b + s->nb, 0, 64 - s->nb);
        block(s->h, s->b);
        s->nb = 0;
    }
    memset(s->b + s->nb, 0, 56 - s->nb);
    for (int i = 0; i < 8; i++)
        s->b[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
    block(s->h, s->b);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (unsigned char)(s->h[i] >> (24 - 8 * j));
}

static void to_hex(const unsigned char d[32], char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[d[i] >> 4];
        hex[2 * i + 1] = digits[d[i] & 15];
    }
    hex[64] = '\0';
}

void cutune_sha256_final_hex(cutune_sha256 *s, char hex[65])
{
    unsigned char d[32];
    cutune_sha256_final(s, d);
    to_hex(d, hex);
}

void cutune_sha256_hex(const void *data, size_t n, char hex[65])
{
    cutune_sha256 s;
    cutune_sha256_init(&s);
    cutune_sha256_update(&s, data, n);
    cutune_sha256_final_hex(&s, hex);
}

int cutune_sha256_file(const char *path, char hex[65], uint64_t *size, char *err, size_t errlen)
{
    /* a regular file only, as every input is read: fopen would wait on a FIFO named in a
     * manifest until someone wrote to it, and read /dev/zero for ever */
    int fd, rc = cutune_open_input(path, &fd, err, errlen);
    if (rc < 0)
        return rc;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return cutune_err(err, errlen, CUTUNE_EIO, "%s: %s", path, strerror(errno));
    }
    cutune_sha256 s;
    cutune_sha256_init(&s);
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        cutune_sha256_update(&s, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return cutune_err(err, errlen, CUTUNE_EIO, "%s: read error", path);
    if (size)
        *size = s.bytes;
    cutune_sha256_final_hex(&s, hex);
    return 0;
}
