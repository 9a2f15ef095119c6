/* UTF-8 validity of input text (utf8.c). JSON text is UTF-8 (RFC 8259) and cJSON does not
 * check it: invalid bytes in a spec's name would reach file names and every JSON file
 * cutune writes, which strict readers then refuse. Not part of the public API. */
#ifndef CUTUNE_COMMON_UTF8_H
#define CUTUNE_COMMON_UTF8_H

#include <stddef.h>

/**
 * The offset of the first byte of text[0..len) that does not begin a well-formed UTF-8
 * sequence (Unicode's Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF,
 * no sequence cut by the end of the text), or len when the whole text is UTF-8.
 */
size_t cutune_utf8_invalid_at(const char *text, size_t len);

#endif
