/* Writing a file without destroying anything (docs/hardening.md): a temporary created
 * exclusively under an unpredictable name beside the final path, filled, fsync'd, then
 * renamed onto the path. The one way cutune writes a file. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cutune/common.h"

struct cutune_outfile {
    int fd;         /* the temporary, open for writing */
    FILE *f;        /* a stream on fd, made by cutune_outfile_stream; NULL until then */
    unsigned flags; /* CUTUNE_OUTFILE_* */
    char *path;     /* the final path */
    char *dir;      /* its folder ("." for a bare name) */
    char *tmp;      /* the temporary: DIR/.NAME.XXXXXXXXXX */
    int slot;       /* its entry in live_tmp, or -1 (not tracked) */
};

/* The temporaries of this process not yet committed or aborted, for
 * cutune_outfile_remove_temporaries, which a signal handler calls at any moment: each is
 * a copy in a fixed slot (never freed), published by its state once whole. Slots run out
 * only with more files open at once than any command writes; one not tracked is left
 * behind by a fatal signal, as before. */
#define LIVE_TMP_SLOTS 64
enum { SLOT_FREE, SLOT_FILLING, SLOT_LIVE };
static struct {
    int state;           /* SLOT_* (atomic) */
    pid_t pid;           /* the process that made it (a forked child does not remove it) */
    char path[PATH_MAX]; /* the temporary */
} live_tmp[LIVE_TMP_SLOTS];

static int track_tmp(const char *tmp)
{
    if (strlen(tmp) >= sizeof live_tmp[0].path)
        return -1;
    for (int i = 0; i < LIVE_TMP_SLOTS; i++) {
        int want = SLOT_FREE;
        if (!__atomic_compare_exchange_n(&live_tmp[i].state, &want, SLOT_FILLING, 0,
                                         __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            continue;
        strcpy(live_tmp[i].path, tmp);
        live_tmp[i].pid = getpid();
        __atomic_store_n(&live_tmp[i].state, SLOT_LIVE, __ATOMIC_RELEASE);
        return i;
    }
    return -1;
}

static void untrack_tmp(int slot)
{
    if (slot >= 0)
        __atomic_store_n(&live_tmp[slot].state, SLOT_FREE, __ATOMIC_RELEASE);
}

void cutune_outfile_remove_temporaries(void)
{
    pid_t me = getpid();
    for (int i = 0; i < LIVE_TMP_SLOTS; i++)
        if (__atomic_load_n(&live_tmp[i].state, __ATOMIC_ACQUIRE) == SLOT_LIVE &&
            live_tmp[i].pid == me)
            unlink(live_tmp[i].path); /* async-signal-safe */
}

/* The longest NAME kept in a temporary's name: room for the dot and suffix in NAME_MAX. */
#define TMP_NAME_KEEP 200
#define TMP_SUFFIX 10

/* Ten characters an attacker cannot guess (getrandom; the clock and a counter where the
 * kernel has none to give), so nothing can be planted at the temporary in advance. */
static void random_suffix(char *out)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static unsigned long counter;
    unsigned char r[TMP_SUFFIX];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        uint64_t h = 0xcbf29ce484222325ULL;
        double t = cutune_now();
        unsigned long k = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
        pid_t pid = getpid();
        h = cutune_fnv1a(h, &t, sizeof t);
        h = cutune_fnv1a(h, &k, sizeof k);
        h = cutune_fnv1a(h, &pid, sizeof pid);
        for (size_t i = 0; i < sizeof r; i++) {
            h = cutune_fnv1a(h, &i, sizeof i);
            r[i] = (unsigned char)(h >> 24);
        }
    }
    for (size_t i = 0; i < TMP_SUFFIX; i++)
        out[i] = alphabet[r[i] % (sizeof alphabet - 1)];
    out[TMP_SUFFIX] = '\0';
}

/* What is at path refuses it as an output: a message, or NULL for nothing there or a
 * regular file (*st filled then, st->st_mode 0 when nothing is there). */
static const char *refusal(const char *path, unsigned flags, struct stat *st)
{
    if (lstat(path, st) != 0) {
        st->st_mode = 0;
        return NULL;
    }
    if (S_ISLNK(st->st_mode))
        return "is a symbolic link (cutune neither writes through one nor replaces it: give "
               "the path it points to, or remove it)";
    if (S_ISDIR(st->st_mode))
        return "is a directory";
    if (!S_ISREG(st->st_mode))
        return "is not a regular file (a device, pipe or socket is never replaced)";
    if (flags & CUTUNE_OUTFILE_NOREPLACE)
        return "exists";
    return NULL;
}

static void outfile_free(cutune_outfile *o)
{
    untrack_tmp(o->slot); /* after the rename or the unlink: never a moment untracked */
    if (o->f)
        fclose(o->f); /* closes fd */
    else if (o->fd >= 0)
        close(o->fd);
    free(o->path);
    free(o->dir);
    free(o->tmp);
    free(o);
}

int cutune_outfile_open(const char *path, unsigned flags, int mode, cutune_outfile **out, char *err,
                        size_t errlen)
{
    int rc = 0;
    struct stat st;
    cutune_outfile *o = NULL;

    *out = NULL;
    if (!path || !*path)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "an empty output path");
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: is a directory", path);
    const char *why = refusal(path, flags, &st);
    if (why)
        return cutune_err(err, errlen,
                          (flags & CUTUNE_OUTFILE_NOREPLACE) && strcmp(why, "exists") == 0
                              ? CUTUNE_EBUSY
                              : CUTUNE_EINVAL,
                          "%s: %s", path, why);
    o = calloc(1, sizeof *o);
    if (!o)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    o->fd = -1;
    o->slot = -1;
    o->flags = flags;
    size_t dlen = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
    o->path = strdup(path);
    o->dir = slash ? strndup(path, dlen) : strdup(".");
    size_t plen = slash ? (size_t)(slash - path) + 1 : 0; /* the folder, its slash kept */
    size_t blen = strlen(base) > TMP_NAME_KEEP ? TMP_NAME_KEEP : strlen(base);
    o->tmp = malloc(plen + blen + TMP_SUFFIX + 3);
    if (!o->path || !o->dir || !o->tmp) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
        goto out_free;
    }
    for (int tries = 0; tries < 100; tries++) {
        char suffix[TMP_SUFFIX + 1];
        random_suffix(suffix);
        sprintf(o->tmp, "%.*s.%.*s.%s", (int)plen, path, (int)blen, base, suffix);
        o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (o->fd >= 0 || errno != EEXIST)
            break;
    }
    if (o->fd < 0) {
        rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot create a temporary in %s: %s", path,
                        o->dir, strerror(errno));
        goto out_free;
    }
    o->slot = track_tmp(o->tmp);
    /* a replaced file keeps its permissions (a private one stays private) */
    if (S_ISREG(st.st_mode))
        (void)fchmod(o->fd, st.st_mode & 0777);
    *out = o;
    return 0;
out_free:
    outfile_free(o);
    return rc;
}

FILE *cutune_outfile_stream(cutune_outfile *o)
{
    if (!o->f)
        o->f = fdopen(o->fd, "wb");
    return o->f;
}

int cutune_outfile_fd(const cutune_outfile *o)
{
    return o->fd;
}

const char *cutune_outfile_tmp_path(const cutune_outfile *o)
{
    return o->tmp;
}

/* Put the temporary at its path, nothing replaced: renameat2's RENAME_NOREPLACE, or a
 * hard link (also atomic, also refused by an existing entry) where the file system has
 * no such rename. */
static int publish_noreplace(const char *tmp, const char *path)
{
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
        return -1;
    if (link(tmp, path) != 0)
        return -1;
    unlink(tmp);
    return 0;
}

/* The rename is durable once the folder's entry is on disk too. */
static void sync_dir(const char *dir)
{
    int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d >= 0) {
        (void)fsync(d);
        close(d);
    }
}

/* Everything written is on disk in the temporary: the stream flushed without an error,
 * the descriptor fsync'd. 0, or an error naming the path (o left as it is). */
static int outfile_sync(cutune_outfile *o, char *err, size_t errlen)
{
    int rc = 0;
    if (o->f) {
        int failed = ferror(o->f);
        errno = 0;
        if (fflush(o->f) != 0)
            failed = 1;
        int e = errno;
        if (failed) {
            /* A write that failed earlier left no errno to tell: one byte more onto the
             * temporary (removed below) fails again for the same reason (ENOSPC, EFBIG). */
            if (!e && write(o->fd, "", 1) < 0)
                e = errno;
            if (e)
                rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: write error: %s", o->path,
                                strerror(e));
            else
                rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: write error", o->path);
            return rc;
        }
    }
    if (fsync(o->fd) != 0 && errno != EINVAL && errno != EROFS) {
        rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: fsync: %s", o->path, strerror(errno));
        return rc;
    }
    return 0;
}

int cutune_outfile_sync(cutune_outfile *o, char *err, size_t errlen)
{
    if (!o)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "output: no file");
    int rc = outfile_sync(o, err, errlen);
    if (rc < 0)
        cutune_outfile_abort(o);
    return rc;
}

int cutune_outfile_commit(cutune_outfile *o, int *keep_fd, char *err, size_t errlen)
{
    int rc = 0;
    struct stat st;

    if (keep_fd)
        *keep_fd = -1;
    if (!o)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "output: no file");
    if ((rc = outfile_sync(o, err, errlen)) < 0)
        goto out_abort;
    /* Checked again: what appeared since _open is refused too. One planted between this
     * check and the rename is replaced by the rename, never written through. */
    const char *why = refusal(o->path, o->flags, &st);
    if (why) {
        rc = cutune_err(err, errlen,
                        (o->flags & CUTUNE_OUTFILE_NOREPLACE) && strcmp(why, "exists") == 0
                            ? CUTUNE_EBUSY
                            : CUTUNE_EINVAL,
                        "%s: %s", o->path, why);
        goto out_abort;
    }
    int moved = o->flags & CUTUNE_OUTFILE_NOREPLACE ? publish_noreplace(o->tmp, o->path)
                                                    : rename(o->tmp, o->path);
    if (moved != 0) {
        int e = errno;
        rc = cutune_err(err, errlen, e == EEXIST ? CUTUNE_EBUSY : CUTUNE_EIO, "%s: %s", o->path,
                        e == EEXIST ? "exists" : strerror(e));
        goto out_abort;
    }
    sync_dir(o->dir);
    if (keep_fd && !o->f) {
        *keep_fd = o->fd;
        o->fd = -1;
    } else if (o->f) {
        int closed = fclose(o->f);
        o->f = NULL;
        o->fd = -1;
        if (closed != 0) /* after fsync: nothing is lost, but say so */
            rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: close: %s", o->path, strerror(errno));
    }
    outfile_free(o);
    return rc;
out_abort:
    cutune_outfile_abort(o);
    return rc;
}

void cutune_outfile_abort(cutune_outfile *o)
{
    if (!o)
        return;
    unlink(o->tmp);
    outfile_free(o);
}

/* path as its real folder and its name; the path itself when the folder cannot be
 * resolved. malloc'd. */
static char *entry_path(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    char *real = NULL, *out = NULL;
    if (!dir)
        return NULL;
    if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
        real = realpath(path, NULL);
        out = real ? real : strdup(path);
        free(dir);
        return out;
    }
    real = realpath(dir, NULL);
    if (real && (out = malloc(strlen(real) + strlen(base) + 2)))
        sprintf(out, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", base);
    else if (!real)
        out = strdup(path);
    free(real);
    free(dir);
    return out;
}

int cutune_path_same(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || !*a || !*b)
        return 0;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
        return 1;
    char *ea = entry_path(a), *eb = entry_path(b);
    int same = ea && eb && strcmp(ea, eb) == 0;
    free(ea);
    free(eb);
    return same;
}
