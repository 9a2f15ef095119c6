/* SIGINT, SIGTERM, SIGHUP: stop after the evaluations under way, keeping the journal whole
 * and writing the summary and exports (cutune tune, one shape or several). A hang-up takes
 * the terminal, and often the reader of a pipe on stdout with it: a write there must then
 * fail, not kill the run (SIGPIPE). */
#include "stop_signal.h"

#include "cutune/common.h"

volatile sig_atomic_t cli_stop_requested;

static void on_signal(int sig)
{
    /* 1: stop; 2 (a second signal, or SIGTERM, which a scheduler follows with SIGKILL): stop
     * at once, without replaying the rest of a resumed journal or finishing a model fit */
    cli_stop_requested = cli_stop_requested || sig == SIGTERM ? 2 : 1;
    if (sig == SIGHUP) {
        struct sigaction ign = {0};
        ign.sa_handler = SIG_IGN;
        sigaction(SIGPIPE, &ign, NULL); /* async-signal-safe */
    }
}

static void catch (int flags)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

void cli_catch_stop_signals(void)
{
    catch (0); /* a wait on a worker returns at once (EINTR) to see the stop */
}

void cli_catch_stop_signals_early(void)
{
    catch (SA_RESTART); /* reads of the inputs go on; the run stops once it starts */
}

/* A command that does not stop cleanly on a signal (report, bench, db, ...) ends as it
 * would by default, but first removes the temporaries of the files it was writing: an
 * interrupted export is then absent, not a stray .NAME.XXXXXXXXXX beside it. */
static void on_fatal_signal(int sig)
{
    cutune_outfile_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig); /* delivered once the handler returns: the process ends by sig */
}

void cli_remove_temporaries_on_signal(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa = {0}, old;
        /* a signal the caller ignores (nohup, a shell's background job) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sa.sa_handler = on_fatal_signal;
        sa.sa_flags = SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}
