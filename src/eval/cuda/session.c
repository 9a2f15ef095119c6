/* The parent's side of the worker: start it (fork + exec of our own program
 * as `cutune worker --fd 3`), hand it launches, and watch each phase with its
 * own deadline. A worker that dies or misses a deadline is reaped (killed if
 * need be) and started afresh at the next evaluation; the evaluation it was
 * running is recorded as runtime_error or timeout, naming the configuration. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuda_internal.h"

#define TIMING_LAUNCH_ALLOWANCE 14 /* warm-up + one batch + one: launches past max_time_s */

void cutune_cuda_session_init(cutune_cuda_session *s, const char *exe)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    s->device = -1;
    s->setup_timeout_s = 60.0;
    s->kernel_timeout_s = 1.0;
    s->max_time_s = 1.0;
    s->warmup = 3; /* the cuda evaluator's default (cuda.c) */
    const char *env = getenv("CUTUNE_WORKER");
    if (!exe && env && *env)
        exe = env;
    if (exe) {
        snprintf(s->exe, sizeof s->exe, "%s", exe);
        return;
    }
    /* Resolved now: the path stays right even if the tree is rebuilt under us. */
    ssize_t n = readlink("/proc/self/exe", s->exe, sizeof s->exe - 1);
    if (n <= 0 || (size_t)n >= sizeof s->exe - 1)
        snprintf(s->exe, sizeof s->exe, "/proc/self/exe");
    else
        s->exe[n] = '\0';
}

static void sleep_s(double t)
{
    struct timespec ts = {(time_t)t, (long)((t - (double)(time_t)t) * 1e9)};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* Reap the worker, giving it wait_s to exit on its own before SIGKILL.
 * Describes how it ended in how (may be NULL). */
static void reap(cutune_cuda_session *s, double wait_s, char *how, size_t howlen)
{
    if (s->fd >= 0) {
        close(s->fd);
        s->fd = -1;
    }
    if (how && howlen)
        how[0] = '\0';
    if (s->pid <= 0)
        return;
    int st = 0;
    pid_t r = 0;
    double end = cutune_now() + wait_s;
    while ((r = waitpid(s->pid, &st, WNOHANG)) == 0 && cutune_now() < end)
        sleep_s(0.005);
    if (r == 0) {
        kill(s->pid, SIGKILL);
        while ((r = waitpid(s->pid, &st, 0)) < 0 && errno == EINTR)
            ;
        if (how)
            snprintf(how, howlen, "killed");
    } else if (r > 0 && how) {
        if (WIFSIGNALED(st))
            snprintf(how, howlen, "died of signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
        else if (WIFEXITED(st))
            snprintf(how, howlen, "exited with status %d", WEXITSTATUS(st));
    }
    s->pid = 0;
}

void cutune_cuda_session_kill(cutune_cuda_session *s)
{
    reap(s, 0.0, NULL, 0);
}

int cutune_cuda_session_start(cutune_cuda_session *s, char *err, size_t errlen)
{
    int sv[2] = {-1, -1};
    cutune_cuda_buf msg = {0};
    int rc;
    char how[128];
    if (s->pid > 0)
        reap(s, 0.0, NULL, 0);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return cutune_err(err, errlen, CUTUNE_EIO, "socketpair: %s", strerror(errno));
    /* Everything the child needs is prepared before fork: the parent may have
     * compile threads running, so the child does only async-signal-safe calls. */
    char *argv[] = {s->exe, "worker", "--fd", "3", NULL};
    /* The worker's device: its environment with CUTUNE_CUDA_DEVICE set (built here, not in
     * the child) */
    extern char **environ;
    char devenv[48];
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **envp = malloc((nenv + 2) * sizeof *envp);
    if (!envp) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out_close;
    }
    size_t ne = 0;
    for (size_t i = 0; i < nenv; i++)
        if (s->device < 0 || strncmp(environ[i], "CUTUNE_CUDA_DEVICE=", 19) != 0)
            envp[ne++] = environ[i];
    if (s->device >= 0) {
        snprintf(devenv, sizeof devenv, "CUTUNE_CUDA_DEVICE=%d", s->device);
        envp[ne++] = devenv;
    }
    envp[ne] = NULL;
    pid_t pid = fork();
    if (pid < 0) {
        rc = cutune_err(err, errlen, CUTUNE_EIO, "fork: %s", strerror(errno));
        free(envp);
        goto out_close;
    }
    if (pid == 0) {
        sigset_t all;
        sigemptyset(&all);
        sigprocmask(SIG_SETMASK, &all, NULL);
        /* Own process group: Ctrl-C stops the tuner, which then stops the
         * worker cleanly; a worker outliving a killed parent dies too. */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (sv[1] == 3)
            fcntl(3, F_SETFD, 0);
        else if (dup2(sv[1], 3) < 0)
            _exit(127);
        /* Device printf writes to stdout; keep it off the tuner's stdout. */
        dup2(2, 1);
        execve(s->exe, argv, envp);
        _exit(127);
    }
    free(envp);
    close(sv[1]);
    sv[1] = -1;
    s->pid = pid;
    s->fd = sv[0];
    sv[0] = -1;

    uint32_t type = 0;
    rc = cutune_cuda_recv(s->fd, s->setup_timeout_s, &type, &msg, err, errlen);
    if (rc < 0 || type != CUTUNE_CUDA_MSG_HELLO ||
        cutune_cuda_decode_hello(msg.data, msg.len, &s->hello) < 0) {
        int timed_out = rc == CUTUNE_EINTR;
        reap(s, timed_out ? 0.0 : 2.0, how, sizeof how);
        rc = cutune_err(err, errlen, CUTUNE_ENODEV, "CUDA worker '%s worker' %s (%s)", s->exe,
                        timed_out ? "did not answer" : "did not start", how[0] ? how : "bad hello");
        goto out_free;
    }
    if (s->hello.proto != CUTUNE_CUDA_PROTO_VERSION) {
        /* checked before its rc: an old worker's "no device" would be misread too */
        char theirs[48];
        if (s->hello.proto)
            snprintf(theirs, sizeof theirs, "speaks protocol %u", s->hello.proto);
        else
            snprintf(theirs, sizeof theirs, "sends no protocol version");
        rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                        "CUDA worker '%s worker' %s, this cutune speaks %u: a worker from "
                        "another build (use the one built with this cutune, or drop worker=)",
                        s->exe, theirs, CUTUNE_CUDA_PROTO_VERSION);
        reap(s, 2.0, NULL, 0);
        goto out_free;
    }
    if (s->hello.rc < 0) {
        rc = cutune_err(err, errlen, s->hello.rc, "%s", s->hello.msg);
        reap(s, 2.0, NULL, 0);
        goto out_free;
    }
    if (s->setup.len && (rc = cutune_cuda_send(s->fd, &s->setup)) < 0) {
        reap(s, 2.0, how, sizeof how);
        rc = cutune_err(err, errlen, CUTUNE_ENODEV, "CUDA worker %s during setup", how);
        goto out_free;
    }
    rc = 0;
    goto out_free;
out_close:
    close(sv[0]);
    close(sv[1]);
out_free:
    cutune_cuda_buf_free(&msg);
    return rc;
}

static double kernel_timeout(const cutune_cuda_session *s)
{
    double t = 50.0 * s->best_ms / 1000.0;
    return t > s->kernel_timeout_s ? t : s->kernel_timeout_s;
}

/* Prefix the worker's log with the configuration (and the reason). */
static void result_log(cutune_eval_result *res, const char *config, const char *what,
                       const char *detail)
{
    size_t n = strlen(config) + strlen(what) + (detail ? strlen(detail) : 0) + 16;
    char *log = malloc(n);
    if (!log)
        return;
    snprintf(log, n, "config %s: %s%s%s", config, what, detail && *detail ? "\n" : "",
             detail ? detail : "");
    free(res->log);
    res->log = log;
}

int cutune_cuda_session_eval(cutune_cuda_session *s, const cutune_cuda_launch *l,
                             const char *config_text, cutune_eval_result *res, char *err,
                             size_t errlen)
{
    cutune_cuda_buf msg = {0};
    cutune_cuda_reply rp = {0};
    char how[128] = "", why[256];
    int rc = 0;
    const char *config = config_text ? config_text : "?";
    double t0 = cutune_now();
    if (s->fd < 0) {
        if (s->hello.name[0] || s->restarts)
            s->restarts++;
        if ((rc = cutune_cuda_session_start(s, err, errlen)) < 0)
            return rc;
    }
    if ((rc = cutune_cuda_encode_launch(&msg, l)) < 0) {
        rc = cutune_err(err, errlen, rc, "encoding the launch of %s", config);
        goto out;
    }
    if (cutune_cuda_send(s->fd, &msg) < 0) {
        reap(s, 2.0, how, sizeof how);
        res->status = CUTUNE_STATUS_RUNTIME_ERROR;
        result_log(res, config, "the worker was gone before the launch", how);
        rc = 0;
        goto out;
    }
    double timeout = s->setup_timeout_s;
    const char *phase = "loading and reference";
    for (;;) {
        uint32_t type = 0;
        int r = cutune_cuda_recv(s->fd, timeout, &type, &msg, why, sizeof why);
        if (r == CUTUNE_EINTR) {
            reap(s, 0.0, NULL, 0);
            res->status = CUTUNE_STATUS_TIMEOUT;
            snprintf(why, sizeof why, "no answer within %.3g s (%s); worker killed and restarted",
                     timeout, phase);
            result_log(res, config, why, NULL);
            break;
        }
        if (r < 0) {
            /* EOF or garbage: the worker aborted or crashed. */
            reap(s, 2.0, how, sizeof how);
            res->status = CUTUNE_STATUS_RUNTIME_ERROR;
            snprintf(why, sizeof why, "worker %s during %s; restarted", how[0] ? how : "failed",
                     phase);
            result_log(res, config, why, NULL);
            break;
        }
        if (type == CUTUNE_CUDA_MSG_PROGRESS) {
            uint32_t ph = 0;
            cutune_cuda_decode_progress(msg.data, msg.len, &ph);
            if (ph == CUTUNE_CUDA_PHASE_VERIFY) {
                timeout = kernel_timeout(s);
                phase = "first launch";
            } else if (ph == CUTUNE_CUDA_PHASE_CHECK) {
                /* host-side copy and comparison: not the kernel's time */
                timeout = s->setup_timeout_s;
                phase = "verification";
            } else {
                /* the warm-up, the timing and the energy window, each twice (a
                   throttled measurement is taken again, without a new progress message),
                   and some launches' worth besides */
                timeout = 2 * (s->max_time_s + s->energy_window_s +
                               (s->warmup > 0 ? s->warmup : 0) * kernel_timeout(s)) +
                          TIMING_LAUNCH_ALLOWANCE * kernel_timeout(s);
                phase = "timing";
            }
            continue;
        }
        if (type != CUTUNE_CUDA_MSG_REPLY || cutune_cuda_decode_reply(msg.data, msg.len, &rp) < 0) {
            reap(s, 0.0, NULL, 0);
            res->status = CUTUNE_STATUS_RUNTIME_ERROR;
            result_log(res, config, "bad message from the worker; worker restarted", NULL);
            break;
        }
        res->status = (cutune_status)rp.status;
        res->time_ms = rp.time_ms;
        res->times_ms = rp.times;
        res->ntimes = rp.ntimes;
        rp.times = NULL;
        for (uint32_t i = 0; i < rp.nmetrics; i++)
            cutune_eval_result_add_metric(res, rp.metrics[i].name, rp.metrics[i].value);
        if (res->status != CUTUNE_STATUS_OK || rp.log) {
            const char *what = res->status == CUTUNE_STATUS_OK ? "note"
                               : rp.fatal ? "CUDA context lost; worker restarted"
                                          : cutune_status_name(res->status);
            result_log(res, config, what, rp.log);
        }
        if (rp.fatal)
            reap(s, 2.0, NULL, 0);
        if (res->status == CUTUNE_STATUS_OK && (s->best_ms <= 0 || res->time_ms < s->best_ms))
            s->best_ms = res->time_ms;
        break;
    }
    rc = 0;
out:
    res->bench_ms = (cutune_now() - t0) * 1000.0;
    cutune_cuda_reply_clear(&rp);
    cutune_cuda_buf_free(&msg);
    return rc;
}

void cutune_cuda_session_stop(cutune_cuda_session *s)
{
    if (s->fd >= 0) {
        cutune_cuda_buf q = {0};
        if (cutune_cuda_encode_quit(&q) == 0)
            cutune_cuda_send(s->fd, &q);
        cutune_cuda_buf_free(&q);
    }
    reap(s, 5.0, NULL, 0);
}

void cutune_cuda_session_free(cutune_cuda_session *s)
{
    if (!s)
        return;
    cutune_cuda_session_stop(s);
    cutune_cuda_buf_free(&s->setup);
}
