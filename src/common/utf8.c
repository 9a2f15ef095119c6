/* UTF-8 validity, by the well-formed byte sequences of the Unicode standard (Table 3-7). */
#include "utf8.h"

size_t cutune_utf8_invalid_at(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        /* the sequence's length and the range of its second byte, which rules out the
         * overlong forms (E0 80..9F, F0 80..8F), the surrogates (ED A0..BF) and code points
         * above U+10FFFF (F4 90..BF, F5..FF) */
        size_t n;
        unsigned char lo = 0x80, hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf)
            n = 2;
        else if (c >= 0xe0 && c <= 0xef) {
            n = 3;
            lo = c == 0xe0 ? 0xa0 : 0x80;
            hi = c == 0xed ? 0x9f : 0xbf;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 4;
            lo = c == 0xf0 ? 0x90 : 0x80;
            hi = c == 0xf4 ? 0x8f : 0xbf;
        } else
            return i; /* a continuation byte alone, C0, C1 or F5..FF */
        if (len - i < n || s[i + 1] < lo || s[i + 1] > hi)
            return i;
        for (size_t k = 2; k < n; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xbf)
                return i;
        i += n;
    }
    return len;
}
