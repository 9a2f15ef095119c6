/* Drawing with gnuplot and putting a drawn file in place (gnuplot.c): the bench's plots and
 * the objective front's SVG draw the same way. Not part of the public API. */
#ifndef CUTUNE_COMMON_GNUPLOT_H
#define CUTUNE_COMMON_GNUPLOT_H

/**
 * Run `gnuplot -e "cd 'dir'" script` and wait for it: stdout and stdin on /dev/null (its
 * chatter would garble a progress bar; an interrupted gnuplot, which catches SIGINT, ends
 * rather than wait for input), and no signal held, so that a Ctrl-C the caller holds still
 * reaches it. dir holds no quote. 0 with *status its wait status, else the errno of the
 * spawn or the wait (ENOENT: gnuplot is not installed).
 */
int cutune_gnuplot_run(const char *dir, const char *script, int *status);

/**
 * fsync the regular file from (a file system that cannot, EINVAL or EROFS, passes) and
 * rename it onto to: it appears there whole. 0, else -1 with errno set.
 */
int cutune_sync_rename(const char *from, const char *to);

#endif
