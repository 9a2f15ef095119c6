/*
 * Finding kernel specs by name: $CUTUNE_KERNELS, then the source tree's kernels/
 * (so a build runs from anywhere without installing), then the install dir.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cutune/spec.h"
#include "cutune_config.h"

#define NDIRS 3

/* The kernels directories in search order; unset entries are NULL. */
static void kernel_dirs(const char *dirs[NDIRS])
{
    const char *env = getenv("CUTUNE_KERNELS");
    dirs[0] = env && *env ? env : NULL;
    dirs[1] = CUTUNE_SOURCE_ROOT "/kernels";
    dirs[2] = CUTUNE_DATADIR "/kernels";
}

static int is_dir(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **cutune_spec_list_kernels(void)
{
    const char *dirs[NDIRS];
    char **names = NULL;
    size_t n = 0, cap = 8;
    DIR *d = NULL;
    kernel_dirs(dirs);
    for (size_t k = 0; k < NDIRS && !d; k++)
        if (is_dir(dirs[k]))
            d = opendir(dirs[k]);
    names = calloc(cap, sizeof *names);
    if (!names)
        goto out_close;
    for (struct dirent *de; d && (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (de->d_name[0] == '.' || !ends_with(de->d_name, ".json") || len == 5)
            continue;
        if (n + 2 > cap) {
            char **nn = realloc(names, 2 * cap * sizeof *names);
            if (!nn)
                goto out_nomem;
            names = nn;
            cap *= 2;
        }
        names[n] = malloc(len - 4);
        if (!names[n])
            goto out_nomem;
        memcpy(names[n], de->d_name, len - 5);
        names[n][len - 5] = '\0';
        names[++n] = NULL;
    }
    qsort(names, n, sizeof *names, cmp_str);
    goto out_close;
out_nomem:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    names = NULL;
out_close:
    if (d)
        closedir(d);
    return names;
}

/* "a, b, c" of the known kernels into buf ("none" when there are none). */
static void known_kernels(char *buf, size_t len)
{
    char **names = cutune_spec_list_kernels();
    size_t used = 0;
    snprintf(buf, len, "none");
    for (size_t i = 0; names && names[i]; i++) {
        if (used < len) {
            int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
            used += w > 0 ? (size_t)w : 0;
        }
        free(names[i]);
    }
    free(names);
}

int cutune_spec_resolve(const char *name_or_path, char *path, size_t len, char *err, size_t errlen)
{
    const char *dirs[NDIRS];
    if (!name_or_path || !*name_or_path || !path || !len)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no kernel name given");
    if (strchr(name_or_path, '/') || ends_with(name_or_path, ".json")) {
        if ((size_t)snprintf(path, len, "%s", name_or_path) >= len)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: path too long", name_or_path);
        return 0;
    }
    kernel_dirs(dirs);
    for (size_t k = 0; k < NDIRS; k++) {
        if (!dirs[k])
            continue;
        int w = snprintf(path, len, "%s/%s.json", dirs[k], name_or_path);
        if (w < 0 || (size_t)w >= len)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: path too long", name_or_path);
        if (is_file(path))
            return 0;
    }
    path[0] = '\0';
    char known[512];
    known_kernels(known, sizeof known);
    return cutune_err(err, errlen, CUTUNE_ENOTFOUND,
                      "unknown kernel '%s' (known kernels: %s; searched %s%s%s, %s, %s)",
                      name_or_path, known, dirs[0] ? "$CUTUNE_KERNELS=" : "",
                      dirs[0] ? dirs[0] : "", dirs[0] ? "" : "$CUTUNE_KERNELS (unset)", dirs[1],
                      dirs[2]);
}
