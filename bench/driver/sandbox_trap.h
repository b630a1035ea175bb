/* The sandbox's SIGSYS handler (docs/methodology.md, "The sandbox"): a call
 * a sandbox filter traps (bench/driver/sandbox_filter.h,
 * bench/driver/sandbox_ranges.h) lands here, in whichever process and
 * thread made it (a process the candidate forked inherits the filters, the
 * handler and the note).  The handler writes one line into the child's note
 * (bench/core/child_note.h) naming the call, what it aimed at and where it
 * came from, then kills the evaluating child's process group, the child
 * itself (by pid: a forked helper may have left the group) and its own
 * group.  The parent turns the note into the verdict (timer-mismatch, check
 * sandbox: bench/driver/child_verdict.h).
 *
 * Async-signal-safe only: system calls, its own formatting, reads of memory
 * set up before the filters; where the call came from is
 * bench/driver/sandbox_site.h's to find. */
#ifndef HB_SANDBOX_TRAP_H
#define HB_SANDBOX_TRAP_H

#include "bench/core/child_note.h"
#include "bench/core/status.h"
#include "bench/driver/sandbox_seal.h"

/* Installs the handler (before any filter: the call filter refuses a new
 * SIGSYS action).  `sealed` names the sealed ranges and tells the harness's
 * code from the candidate's; it and `note` (NULL: the line goes to stderr)
 * must live as long as the process.  The process must lead its group: the
 * group is what a violation kills. */
hb_status hb_trap_install(hb_child_note *note, const hb_sealed_set *sealed);

#endif
