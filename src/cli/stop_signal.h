/* SIGINT, SIGTERM and SIGHUP during a tuning run (stop_signal.c). */
#ifndef CUTUNE_CLI_STOP_SIGNAL_H
#define CUTUNE_CLI_STOP_SIGNAL_H

#include <signal.h>

/* Set by the handler: the run stops after the evaluations under way (1); a second signal
 * makes it 2, which also ends a resumed run's replay of its journal at once. */
extern volatile sig_atomic_t cli_stop_requested;
/* Install the handler for SIGINT, SIGTERM and SIGHUP. */
void cli_catch_stop_signals(void);
/* The same from the start of a command, with system calls restarted: a signal while the
 * inputs are read is the run's stop (exit 130 once it has stopped), not a kill or a failed
 * read. */
void cli_catch_stop_signals_early(void);
/* For every command, from the start (tune then installs the above): SIGINT, SIGTERM and
 * SIGHUP still end the process, but remove the temporaries of unfinished outputs first
 * (cutune_outfile_remove_temporaries). A signal ignored when cutune started stays so. */
void cli_remove_temporaries_on_signal(void);

#endif
