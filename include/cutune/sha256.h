/**
 * @file sha256.h
 * @brief SHA-256 (FIPS 180-4): the identity of a recording in a result's manifest.
 */
#ifndef CUTUNE_SHA256_H
#define CUTUNE_SHA256_H

#include <stddef.h>
#include <stdint.h>

/** Running state of one digest. */
typedef struct cutune_sha256 {
    uint32_t h[8];       /**< chaining value */
    uint64_t bytes;      /**< message length so far */
    unsigned char b[64]; /**< partial block */
    size_t nb;           /**< bytes in b */
} cutune_sha256;

/** Start a digest. */
void cutune_sha256_init(cutune_sha256 *s);
/** Feed n bytes. */
void cutune_sha256_update(cutune_sha256 *s, const void *data, size_t n);
/** Finish: the 32-byte digest into out; s must be initialised again before reuse. */
void cutune_sha256_final(cutune_sha256 *s, unsigned char out[32]);
/** Finish as cutune_sha256_final, the digest as 64 lower-case hex digits and a NUL. */
void cutune_sha256_final_hex(cutune_sha256 *s, char hex[65]);
/** The digest of data[0..n) as 64 lower-case hex digits and a NUL into hex. */
void cutune_sha256_hex(const void *data, size_t n, char hex[65]);
/**
 * The digest of a file's bytes as hex (64 digits and a NUL); *size gets its length when
 * size is not NULL. Returns 0, or CUTUNE_EIO with "PATH: REASON" in err; a path that is not
 * a regular file (a FIFO, a device) is refused at once (cutune_open_input), never read.
 */
int cutune_sha256_file(const char *path, char hex[65], uint64_t *size, char *err, size_t errlen);

#endif
