/* Statuses, values, error formatting and the clock shared by every module. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

int cutune_is_decimal(const char *t)
{
    size_t digits = 0;
    if (*t == '+' || *t == '-')
        t++;
    for (; *t >= '0' && *t <= '9'; t++)
        digits++;
    if (*t == '.')
        for (t++; *t >= '0' && *t <= '9'; t++)
            digits++;
    if (!digits)
        return 0;
    if (*t == 'e' || *t == 'E') {
        t++;
        if (*t == '+' || *t == '-')
            t++;
        if (!(*t >= '0' && *t <= '9'))
            return 0;
        while (*t >= '0' && *t <= '9')
            t++;
    }
    return *t == '\0';
}

double cutune_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cutune_input_limit(size_t *limit, char *err, size_t errlen)
{
    const char *v = getenv("CUTUNE_MAX_INPUT_BYTES");
    *limit = CUTUNE_MAX_INPUT_DEFAULT;
    if (!v || !*v)
        return 0;
    /* decimal digits and an optional K, M or G (powers of 1024); nothing else */
    const char *p = v;
    unsigned long long n = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (n > (ULLONG_MAX - 9) / 10)
            goto bad;
        n = n * 10 + (unsigned long long)(*p - '0');
    }
    if (p == v)
        goto bad;
    int shift = *p == 'K' ? 10 : *p == 'M' ? 20 : *p == 'G' ? 30 : 0;
    if (shift)
        p++;
    if (*p || n == 0 || n > (unsigned long long)(SIZE_MAX >> 1) >> shift)
        goto bad;
    *limit = (size_t)(n << shift);
    return 0;
bad:
    return cutune_err(err, errlen, CUTUNE_EINVAL,
                      "CUTUNE_MAX_INPUT_BYTES=%s: not a byte count (digits, optionally followed "
                      "by K, M or G)",
                      v);
}

/* What a file type is called in messages. */
static const char *file_kind(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISFIFO(m) ? "a FIFO (pipe)"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

int cutune_open_input(const char *path, int *fd, char *err, size_t errlen)
{
    struct stat st;
    *fd = -1;
    /* stat first: a FIFO or a device is refused without being opened (opening a FIFO
     * waits for a writer; opening some devices does things) */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        errno = EINVAL;
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: is %s: cutune reads only regular files (write it to a file first)",
                          path, file_kind(st.st_mode));
    }
    int f = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (f < 0) {
        int saved = errno;
        int rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot open: %s", path, strerror(saved));
        errno = saved;
        return rc;
    }
    /* again on what was opened: the path may have changed in between */
    if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(f);
        errno = EINVAL;
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: is %s: cutune reads only regular files (write it to a file first)",
                          path, file_kind(st.st_mode));
    }
    int fl = fcntl(f, F_GETFL);
    if (fl >= 0)
        (void)fcntl(f, F_SETFL, fl & ~O_NONBLOCK);
    *fd = f;
    return 0;
}

int cutune_input_too_large(const char *path, size_t limit, char *err, size_t errlen)
{
    errno = EFBIG;
    return cutune_err(err, errlen, CUTUNE_EINVAL,
                      "%s: larger than the input limit of %zu bytes (CUTUNE_MAX_INPUT_BYTES "
                      "raises it)",
                      path, limit);
}

int cutune_read_file(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
    int rc = 0, fd = -1;
    char *buf = NULL;
    size_t cap = 0, n = 0, limit;
    int saved = 0; /* errno of the failure, kept for callers that report strerror(errno) */

    *out = NULL;
    *len = 0;
    if ((rc = cutune_input_limit(&limit, err, errlen)) < 0) {
        errno = EINVAL;
        return rc;
    }
    if ((rc = cutune_open_input(path, &fd, err, errlen)) < 0)
        return rc;
    struct stat st;
    if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > (uint64_t)limit) {
        rc = cutune_input_too_large(path, limit, err, errlen);
        saved = errno;
        goto out_close;
    }
    /* The size is only a first guess: a file that grows is read on, up to the limit. */
    cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
    for (;;) {
        if (n + 1 >= cap || !buf) {
            size_t ncap = buf ? cap * 2 : cap;
            if (ncap > limit + 2)
                ncap = limit + 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                saved = ENOMEM;
                rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
                goto out_close;
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t got = read(fd, buf + n, cap - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            saved = errno;
            rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: read error: %s", path, strerror(saved));
            goto out_close;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (n > limit) {
            rc = cutune_input_too_large(path, limit, err, errlen);
            saved = errno;
            goto out_close;
        }
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    buf = NULL;
out_close:
    free(buf);
    close(fd);
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
