/* SIGINT, SIGTERM and SIGHUP during a tuning run (stop_signal.c). */
#ifndef CUTUNE_CLI_STOP_SIGNAL_H
#define CUTUNE_CLI_STOP_SIGNAL_H

#include <signal.h>

/* Set by the handler: the run stops after the evaluations under way. */
extern volatile sig_atomic_t cli_stop_requested;
/* Install the handler for SIGINT, SIGTERM and SIGHUP. */
void cli_catch_stop_signals(void);

#endif
