/* The sandbox (docs/methodology.md, "The sandbox"): applied in the
 * evaluating child (bench/driver/config_eval.c) once the device is open and
 * the timers are checked, just before the candidate's library loads, and
 * never undone.  In order:
 *   1. no_new_privs (what an unprivileged process needs for the rest);
 *   2. the seal (bench/driver/sandbox_seal.h): every code and read-only
 *      mapping present then, mseal(2)ed where the kernel has it;
 *   3. the SIGSYS handler (bench/driver/sandbox_trap.h) that turns a trapped
 *      call into the child's note and ends the process group;
 *   4. the range filters (bench/driver/sandbox_ranges.h): making a sealed
 *      range writable, mapping or moving anything over it, and, without
 *      mseal, unmapping it, trap;
 *   5. Landlock (bench/driver/sandbox_landlock.h): no file beneath /proc
 *      opened for writing;
 *   6. the call filter (bench/driver/sandbox_filter.h): ptrace,
 *      process_vm_readv/writev, a seccomp filter of the candidate's, dup2 and
 *      dup3 onto the harness's descriptors, a new SIGSYS action, other
 *      architectures' calls trap.
 * Every filter is put on every thread (TSYNC) and inherited by every process
 * the candidate forks.  A trapped call ends the evaluating child: the parent
 * records timer-mismatch, check sandbox (exit 13), the reason naming the
 * call (bench/driver/child_verdict.h). */
#ifndef HB_SANDBOX_H
#define HB_SANDBOX_H

#include <stddef.h>

#include "bench/core/child_note.h"
#include "bench/core/status.h"
#include "bench/result/run_options.h"

#define HB_SANDBOX_MAX_FDS 8

typedef struct hb_sandbox_setup {
    int protected_fds[HB_SANDBOX_MAX_FDS]; /* what dup2 and dup3 may not replace */
    size_t n_fds;
    hb_child_note *note;  /* where a violation and the summary go; NULL: a violation's line goes to stderr */
    int without_mseal;    /* 1: seal nothing, as a kernel without mseal (the range filters alone guard) */
    int without_landlock; /* 1: no Landlock, as a kernel without it */
} hb_sandbox_setup;

/* Applies the sandbox to this process, which must lead its process group
 * (a violation kills the group).  `summary` gets what was applied, '+'
 * joined: "mseal+seccomp+landlock7", "seccomp+landlock7" (no mseal),
 * "mseal+seccomp" (no Landlock).  Once per process.  HB_ERR_INTERNAL when a
 * part the kernel has refuses (the message says so and names --sandbox off);
 * the process may then be partly sandboxed. */
hb_status hb_sandbox_apply(const hb_sandbox_setup *setup, char *summary, size_t size);

/* The evaluating child's call: the sandbox as the options ask, with stdin,
 * stdout, stderr and the heartbeat pipe protected and the child's note
 * (bench/core/child_note.h).  `summary`: as above, "off" (--sandbox off), or
 * "none (--no-isolate)": a sandbox would bind the harness's own process. */
hb_status hb_sandbox_enter(const hb_run_options *options, char *summary, size_t size);

#endif
