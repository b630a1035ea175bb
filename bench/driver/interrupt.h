/* SIGINT, SIGTERM and SIGHUP to the harness (docs/cli.md, "Interrupted
 * runs"): the handler only notes the signal and SIGKILLs the process group
 * of the worker being watched (both async-signal-safe), so the GPU is
 * released at once; the run loop sees the note between steps, lists the
 * configurations not run (the one whose worker was killed among them), still
 * ends every sink (env.json, summary.csv and verdict.json stay complete) and
 * exits with 128 + the signal.
 *
 * A second signal while the first is being handled ends the process at once,
 * by that signal's default action: the way out when a --no-isolate
 * configuration (evaluated in this very process) does not end by itself. */
#ifndef HB_INTERRUPT_H
#define HB_INTERRUPT_H

#include <sys/types.h>

#include "bench/core/status.h"

/* Catches the three signals from now on.  HB_ERR_INTERNAL if sigaction fails. */
hb_status hb_interrupt_install(void);

/* Puts back what was there before hb_interrupt_install and forgets a caught
 * signal. */
void hb_interrupt_restore(void);

/* The signal caught since hb_interrupt_install, 0 if none. */
int hb_interrupted(void);

/* The worker being watched now, whose process group the handler kills; 0
 * when none (call it before the worker is reaped, so the pid cannot have
 * been reused). */
void hb_interrupt_guard_child(pid_t pid);

/* In a freshly forked worker: the harness's handlers and note do not apply
 * (a SIGTERM sent to the worker itself must end it, as before). */
void hb_interrupt_forget_in_child(void);

#endif
