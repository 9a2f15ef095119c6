/* File, gzip and JSON helpers shared by the recording loader, the journal and
 * the exports. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "cutune/space.h"
#include "cutune/spec.h"
#include "cutune/tuner.h"
#include "io_internal.h"

int cutune_io_is_gzip(const char *data, size_t len)
{
    return len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b;
}

int cutune_io_gunzip(const char *name, const char *in, size_t inlen, char **out, size_t *outlen,
                     char *err, size_t errlen)
{
    int rc = 0;
    z_stream zs;
    char *buf = NULL;
    size_t cap, total = 0;

    *out = NULL;
    *outlen = 0;
    size_t limit;
    if ((rc = cutune_input_limit(&limit, err, errlen)) < 0)
        return rc;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 15 + 16) != Z_OK)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: cannot start zlib", name);
    /* The trailer's ISIZE (size mod 2^32) is a good first guess for one member;
     * deflate cannot expand more than ~1032:1, so a larger claim is a damaged
     * or truncated trailer and is not trusted with a big allocation. */
    cap = 4 * inlen + 64;
    if (inlen >= 18) {
        const unsigned char *t = (const unsigned char *)in + inlen - 4;
        size_t isize = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;
        if (isize + 1 > cap && isize / 1032 <= inlen)
            cap = isize + 1;
    }
    /* never more than the input limit (+ 1 to see it passed, + 1 for the NUL): a gzip
     * bomb stops there */
    if (cap > limit + 2)
        cap = limit + 2;
    buf = malloc(cap);
    if (!buf) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", name);
        goto out_end;
    }
    zs.next_in = (Bytef *)(uintptr_t)in;
    size_t left = inlen;
    for (;;) {
        if (total + 1 >= cap) {
            size_t ncap = cap * 2 > limit + 2 ? limit + 2 : cap * 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", name);
                goto out_end;
            }
            buf = nb;
            cap = ncap;
        }
        /* zlib counts in uInt: feed large buffers in slices. */
        uInt in_slice = left > UINT_MAX ? UINT_MAX : (uInt)left;
        size_t room = cap - 1 - total;
        zs.avail_in = in_slice;
        zs.next_out = (Bytef *)buf + total;
        zs.avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
        uInt avail_out0 = zs.avail_out;
        int zrc = inflate(&zs, Z_NO_FLUSH);
        left -= in_slice - zs.avail_in;
        total += avail_out0 - zs.avail_out;
        if (total > limit) {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "%s: inflates to more than the input limit of %zu bytes (a gzip "
                            "bomb?  CUTUNE_MAX_INPUT_BYTES raises the limit)",
                            name, limit);
            goto out_end;
        }
        if (zrc == Z_STREAM_END) {
            if (left == 0)
                break;
            /* Another gzip member follows (as `cat a.gz b.gz` makes); anything
             * else after the stream is an error, never silently dropped. */
            if (!cutune_io_is_gzip((const char *)zs.next_in, left)) {
                rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                                "%s: %zu bytes of garbage after the gzip stream", name, left);
                goto out_end;
            }
            if (inflateReset(&zs) != Z_OK) {
                rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s: corrupt gzip stream", name);
                goto out_end;
            }
            continue;
        }
        if (zrc == Z_OK || zrc == Z_BUF_ERROR) {
            if (zs.avail_out == 0)
                continue; /* output full: grow and go on */
            if (left == 0) {
                rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                                "%s: truncated gzip stream (ends after %zu bytes of output)", name,
                                total);
                goto out_end;
            }
            continue;
        }
        rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s: corrupt gzip stream: %s", name,
                        zs.msg ? zs.msg : "inflate failed");
        goto out_end;
    }
    buf[total] = '\0';
    *out = buf;
    *outlen = total;
    buf = NULL;
out_end:
    inflateEnd(&zs);
    free(buf);
    return rc;
}

int cutune_io_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    cutune_outfile *o = NULL;
    int rc = cutune_outfile_open(path, 0, 0644, &o, err, errlen);
    if (rc < 0)
        return rc;
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(cutune_outfile_fd(o), text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: write error: %s", path,
                            w < 0 ? strerror(errno) : "no progress");
            cutune_outfile_abort(o);
            return rc;
        }
        done += (size_t)w;
    }
    return cutune_outfile_commit(o, NULL, err, errlen);
}

cJSON *cutune_io_value_json(const cutune_value *v)
{
    char text[64];

    if (v->type == CUTUNE_VALUE_STRING)
        return cJSON_CreateString(v->s ? v->s : "");
    cutune_value_format(v, text, sizeof text);
    if (v->type == CUTUNE_VALUE_REAL && !isfinite(v->r))
        return cJSON_CreateString(text);
    return cJSON_CreateRaw(text);
}

void cutune_io_format_real(double x, char *buf, size_t len)
{
    char tmp[64];
    int prec;

    if (!isfinite(x)) {
        snprintf(buf, len, "%s", "");
        return;
    }
    for (prec = 1; prec < 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, x);
        if (strtod(tmp, NULL) == x)
            break;
    }
    int exp10 = atoi(strchr(tmp, 'e') + 1);
    double a = fabs(x);
    if (a != 0 && (a < 1e-4 || a >= 1e16)) {
        /* Python: 1e-05, 1.5e+16 (two exponent digits at least) */
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, x);
        *strchr(tmp, 'e') = '\0';
        snprintf(buf, len, "%se%c%02d", tmp, exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
        return;
    }
    int decimals = prec - 1 - exp10;
    snprintf(tmp, sizeof tmp, "%.*f", decimals > 0 ? decimals : 0, x);
    snprintf(buf, len, "%s%s", tmp, strchr(tmp, '.') ? "" : ".0");
}

cJSON *cutune_io_number_json(double x)
{
    /* cJSON prints 15 digits when they come within an epsilon of x, which is
     * not always x: print the shortest text that reads back exactly. */
    char text[64];
    if (!isfinite(x))
        return cJSON_CreateNull();
    cutune_io_format_real(x, text, sizeof text);
    return cJSON_CreateRaw(text);
}

void cutune_io_iso_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void cutune_io_iso_now_ms(char *buf, size_t len)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char base[24];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, len, "%.19s.%03dZ", base, (int)(ts.tv_nsec / 1000000));
}

int cutune_io_add(cJSON *obj, const char *name, cJSON *item)
{
    if (!item)
        return -1;
    if (!cJSON_AddItemToObject(obj, name, item)) {
        cJSON_Delete(item);
        return -1;
    }
    return 0;
}

cJSON *cutune_io_config_json(const cutune_space *s, size_t id)
{
    const uint16_t *idx = cutune_space_config(s, id);
    if (!idx) /* an id past the space */
        return NULL;
    cJSON *o = cJSON_CreateObject();
    for (size_t p = 0; o && p < cutune_space_nparams(s); p++) {
        const cutune_param *par = cutune_space_param(s, p);
        if (cutune_io_add(o, par->name, cutune_io_value_json(&par->values[idx[p]])) < 0) {
            cJSON_Delete(o);
            o = NULL;
        }
    }
    return o;
}

cJSON *cutune_io_metrics_json(const cutune_spec *spec, const cutune_history_entry *e)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; o && i < e->r.nmetrics; i++) {
        if (!isfinite(e->r.metrics[i].value))
            continue;
        if (cutune_io_add(o, e->r.metrics[i].name, cutune_io_number_json(e->r.metrics[i].value)) <
            0) {
            cJSON_Delete(o);
            o = NULL;
        }
    }
    for (size_t i = 0; o && spec && e->spec_metrics && i < spec->nmetrics; i++) {
        if (!isfinite(e->spec_metrics[i]))
            continue;
        if (cutune_io_add(o, spec->metrics[i].name, cutune_io_number_json(e->spec_metrics[i])) <
            0) {
            cJSON_Delete(o);
            o = NULL;
        }
    }
    return o;
}
