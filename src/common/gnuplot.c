#include "gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int cutune_gnuplot_run(const char *dir, const char *script, int *status)
{
    char cd[8400];
    if (snprintf(cd, sizeof cd, "cd '%s'", dir) >= (int)sizeof cd)
        return ENAMETOOLONG;
    char *argv[] = {"gnuplot", "-e", cd, (char *)script, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t at;
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_init(&at);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    int e = posix_spawnp(&pid, "gnuplot", &fa, &at, argv, environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    while (e == 0 && waitpid(pid, status, 0) < 0)
        if (errno != EINTR)
            e = errno;
    return e;
}

int cutune_sync_rename(const char *from, const char *to)
{
    int fd = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int synced = fsync(fd) == 0 || errno == EINVAL || errno == EROFS;
    int saved = errno;
    close(fd);
    if (!synced) {
        errno = saved;
        return -1;
    }
    return rename(from, to);
}
