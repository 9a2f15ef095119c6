/* Statuses, values, error formatting and the clock shared by every module. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cutune/common.h"

static const char *const status_names[CUTUNE_STATUS_COUNT] = {
    [CUTUNE_STATUS_OK] = "ok",
    [CUTUNE_STATUS_COMPILE_ERROR] = "compile_error",
    [CUTUNE_STATUS_LAUNCH_ERROR] = "launch_error",
    [CUTUNE_STATUS_RUNTIME_ERROR] = "runtime_error",
    [CUTUNE_STATUS_TIMEOUT] = "timeout",
    [CUTUNE_STATUS_WRONG_RESULT] = "wrong_result",
    [CUTUNE_STATUS_MISSING] = "missing",
};

const char *cutune_status_name(cutune_status s)
{
    if ((unsigned)s >= CUTUNE_STATUS_COUNT)
        return "unknown";
    return status_names[s];
}

int cutune_status_from_name(const char *name)
{
    for (int i = 0; i < CUTUNE_STATUS_COUNT; i++)
        if (name && strcmp(name, status_names[i]) == 0)
            return i;
    return -1;
}

double cutune_value_as_double(const cutune_value *v)
{
    switch (v->type) {
    case CUTUNE_VALUE_INT: return (double)v->i;
    case CUTUNE_VALUE_REAL: return v->r;
    default: return NAN;
    }
}

/* Python's repr of a float: shortest round-trip digits, ".0" for integral
 * values, exponent form outside [1e-4, 1e16). Kernel Tuner cache keys use it. */
static int format_python_float(double r, char *buf, size_t len)
{
    if (isnan(r))
        return snprintf(buf, len, "nan");
    if (isinf(r))
        return snprintf(buf, len, r > 0 ? "inf" : "-inf");
    char tmp[64];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, r);
        if (strtod(tmp, NULL) == r)
            break;
    }
    double a = fabs(r);
    if (a != 0 && (a < 1e-4 || a >= 1e16)) {
        /* Python: 1e-05, 1.5e+16 (two-digit exponent at least) */
        char mant[64];
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, r);
        char *e = strchr(tmp, 'e');
        size_t ml = (size_t)(e - tmp);
        memcpy(mant, tmp, ml);
        mant[ml] = '\0';
        int ex = atoi(e + 1);
        return snprintf(buf, len, "%se%c%02d", mant, ex < 0 ? '-' : '+', ex < 0 ? -ex : ex);
    }
    /* Positional form with the shortest round-trip digits: 500.0, 0.001, 1.5 */
    snprintf(tmp, sizeof tmp, "%.*e", prec - 1, r);
    int e10 = atoi(strchr(tmp, 'e') + 1);
    int decimals = prec - 1 - e10;
    if (decimals < 1)
        return snprintf(buf, len, "%.0f.0", r);
    return snprintf(buf, len, "%.*f", decimals, r);
}

int cutune_value_format(const cutune_value *v, char *buf, size_t len)
{
    switch (v->type) {
    case CUTUNE_VALUE_INT: return snprintf(buf, len, "%lld", v->i);
    case CUTUNE_VALUE_REAL: return format_python_float(v->r, buf, len);
    default: return snprintf(buf, len, "%s", v->s ? v->s : "");
    }
}

int cutune_err(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

double cutune_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cutune_read_file(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
    int rc = 0;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    FILE *f = fopen(path, "rb");

    int saved = 0; /* errno of the failure, kept for callers that report strerror(errno) */
    *out = NULL;
    *len = 0;
    if (!f) {
        saved = errno;
        rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot open: %s", path, strerror(saved));
        errno = saved;
        return rc;
    }
    struct stat st;
    /* The size is only a first guess: pipes and growing files read on to EOF. */
    cap = (fstat(fileno(f), &st) == 0 && st.st_size > 0) ? (size_t)st.st_size + 1 : 65536;
    for (;;) {
        if (n + 1 >= cap || !buf) {
            size_t ncap = buf ? cap * 2 : cap;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                saved = ENOMEM;
                rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
                goto out_close;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        saved = errno ? errno : EIO;
        rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: read error: %s", path, strerror(saved));
        goto out_close;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    buf = NULL;
out_close:
    free(buf);
    fclose(f);
    if (rc < 0)
        errno = saved;
    return rc;
}

uint64_t cutune_fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void cutune_csv_text(FILE *f, const char *text, int always)
{
    if (!text)
        text = "";
    if (!always && !text[strcspn(text, ",\"\r\n")]) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    for (; *text; text++) {
        if (*text == '"')
            fputc('"', f);
        fputc(*text, f);
    }
    fputc('"', f);
}
