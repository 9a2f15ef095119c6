/* cutune bench's plots drawn (cutune_bench_plot): gnuplot runs plots.gp in a folder of its
 * own beside plots/, and only the images of a gnuplot that ended well are moved into
 * plots/, each whole. bench_output.c writes the data and the script. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cutune/bench.h"
#include "bench_internal.h"
#include "src/common/gnuplot.h"

/* Remove what a drawing folder holds (the images, the links to the data), then it. */
static void remove_draw_dir(const char *tmp)
{
    char sub[4300];
    snprintf(sub, sizeof sub, "%s/plots", tmp);
    DIR *d = opendir(sub);
    if (d) {
        for (struct dirent *e; (e = readdir(d));) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char p[4600];
            snprintf(p, sizeof p, "%s/%s", sub, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(sub);
    rmdir(tmp);
}

/* Link each plots/NAME.dat of dir into tmp/plots, where gnuplot reads it. */
static int link_data(const char *dir, const char *tmp, char *err, size_t errlen)
{
    char pdir[4200], sub[4300];
    snprintf(pdir, sizeof pdir, "%s/plots", dir);
    snprintf(sub, sizeof sub, "%s/plots", tmp);
    if (mkdir(sub, 0777) < 0)
        return cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot create: %s", sub, strerror(errno));
    DIR *d = opendir(pdir);
    if (!d)
        return cutune_err(err, errlen, CUTUNE_EIO, "%s: %s", pdir, strerror(errno));
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n <= 4 || strcmp(e->d_name + n - 4, ".dat") != 0)
            continue;
        char target[4400], p[4600];
        snprintf(target, sizeof target, "../../plots/%s", e->d_name); /* from tmp/plots */
        snprintf(p, sizeof p, "%s/%s", sub, e->d_name);
        if (symlink(target, p) < 0)
            rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: %s", p, strerror(errno));
    }
    closedir(d);
    return rc;
}

/* Put each image gnuplot drew in tmp/plots at dir/plots (fsync'd, renamed): each appears
 * whole. */
static int publish_images(const char *dir, const char *tmp, char *err, size_t errlen)
{
    char pdir[4200], sub[4300];
    snprintf(pdir, sizeof pdir, "%s/plots", dir);
    snprintf(sub, sizeof sub, "%s/plots", tmp);
    DIR *d = opendir(sub);
    if (!d)
        return cutune_err(err, errlen, CUTUNE_EIO, "%s: %s", sub, strerror(errno));
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        char from[4600], to[4600];
        snprintf(from, sizeof from, "%s/%s", sub, e->d_name);
        snprintf(to, sizeof to, "%s/%s", pdir, e->d_name);
        struct stat st;
        if (lstat(from, &st) != 0 || !S_ISREG(st.st_mode)) /* ., .., the links to the data */
            continue;
        if (cutune_sync_rename(from, to) != 0)
            rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: %s", to, strerror(errno));
    }
    closedir(d);
    int pd = open(pdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pd >= 0) {
        (void)fsync(pd);
        close(pd);
    }
    return rc;
}

int cutune_bench_plot(const char *dir, char *err, size_t errlen)
{
    if (strchr(dir, '\''))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: a quote in the folder name", dir);
    /* gnuplot opens each image at its path and fills it as it draws: one stopped or failed
     * midway would leave it cut short (or empty) in plots/. It draws in a folder of its own
     * beside plots/ (DIR/.plots.XXXXXX, the data linked in), and only the images of a
     * gnuplot that ended well are moved into plots/. */
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s/.plots.XXXXXX", dir) >= (int)sizeof tmp)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: path too long", dir);
    if (!mkdtemp(tmp))
        return cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot create a folder to draw in: %s", dir,
                          strerror(errno));
    int rc = link_data(dir, tmp, err, errlen);
    if (rc < 0) {
        remove_draw_dir(tmp);
        return rc;
    }
    int st = 0;
    int e = cutune_gnuplot_run(tmp, "../plots.gp", &st);
    if (e == ENOENT)
        rc = cutune_err(err, errlen, CUTUNE_ENOTFOUND,
                        "gnuplot is not installed: plot data left in %s/plots (draw with "
                        "'gnuplot plots.gp' there)",
                        dir);
    else if (e != 0)
        rc = cutune_err(err, errlen, CUTUNE_EIO, "cannot run gnuplot: %s", strerror(e));
    else {
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            rc = cutune_err(err, errlen, CUTUNE_EIO, "gnuplot failed on %s/plots.gp%s", dir,
                            WIFSIGNALED(st) ? " (ended by a signal): no plot drawn" : "");
        /* a stop the caller holds came while gnuplot drew: gnuplot, which catches SIGINT,
         * may have cut an image short and gone on, so none of them is kept */
        sigset_t pending;
        if (rc == 0 && sigpending(&pending) == 0 &&
            (sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1 ||
             sigismember(&pending, SIGHUP) == 1))
            rc = cutune_err(err, errlen, CUTUNE_EIO,
                            "stopped by a signal while gnuplot drew: no plot drawn (draw "
                            "them with 'gnuplot plots.gp' in %s)",
                            dir);
        if (rc == 0)
            rc = publish_images(dir, tmp, err, errlen);
    }
    remove_draw_dir(tmp);
    return rc;
}
