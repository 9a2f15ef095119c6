/* Checks of parsed JSON that cJSON does not make (json_check.c): NUL characters inside
 * strings, which cJSON silently cuts the string at, and keys given twice in one object,
 * which cJSON keeps both of (lookups find the first). Shared by the spec loader and the
 * recording loader; not part of the public API. */
#ifndef CUTUNE_COMMON_JSON_CHECK_H
#define CUTUNE_COMMON_JSON_CHECK_H

#include <stddef.h>

#include <cjson/cJSON.h>

/**
 * Whether text (the JSON that root was parsed from, len bytes) holds a NUL character: a
 * raw NUL byte anywhere, or a \u0000 escape in a string. 0 when not; otherwise
 * CUTUNE_EPARSE with the place: *is_key 0, path the string's path as the loaders write
 * paths (`tune_params.a[2]`, `cache["1,2"].time`, `metrics["GB/s"]`; "" for the root);
 * *is_key 1, path the object one of whose keys holds it; *is_key -1, path "byte N" (a raw
 * NUL outside any string).
 */
int cutune_json_check_nul(const char *text, size_t len, const cJSON *root, char *path, size_t plen,
                          int *is_key);

/**
 * Whether any object under root (root included) has a key twice. 0 when not; otherwise
 * CUTUNE_EPARSE with "PATH: key \"K\" given twice" in msg (PATH "the top level" for
 * root's own keys). O(n log n) in the members of each object.
 */
int cutune_json_check_keys(const cJSON *root, char *msg, size_t msglen);

#endif
