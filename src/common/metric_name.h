/* The one rule for a metric's name where a file gives it: a metric is held under a name of
 * at most 31 bytes (cutune_metric), so a longer one is refused with this reason, by the spec
 * loader and the recording loader alike. Not part of the public API. */
#ifndef CUTUNE_COMMON_METRIC_NAME_H
#define CUTUNE_COMMON_METRIC_NAME_H

#include <stdio.h>
#include <string.h>

#include "cutune/evaluator.h"

/**
 * 0 when name fits a cutune_metric; otherwise -1 with "metric 'NAME' has a name of N bytes,
 * longer than a metric name may be (31 bytes)" in why, NAME cut at 64 bytes ("...") and
 * its control characters shown as '?' (one would break the line).
 */
static inline int cutune_metric_name_check(const char *name, char *why, size_t whylen)
{
    size_t len = strlen(name);
    if (len < sizeof(((cutune_metric *)0)->name))
        return 0;
    char shown[72];
    size_t k = 0;
    for (; k < len && k < 64; k++) {
        unsigned char c = (unsigned char)name[k];
        shown[k] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    shown[k] = '\0';
    snprintf(why, whylen,
             "metric '%s%s' has a name of %zu bytes, longer than a metric name may be (31 bytes)",
             shown, len > 64 ? "..." : "", len);
    return -1;
}

#endif
