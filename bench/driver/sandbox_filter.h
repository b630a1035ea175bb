/* The sandbox's call filter (docs/methodology.md, "The sandbox"): a seccomp
 * filter, built with libseccomp, on every thread of the process and
 * inherited by every process it forks (kept across execve), that traps
 * (SIGSYS) the calls a kernel launcher never needs and an attack on the
 * harness does:
 *   ptrace, process_vm_readv, process_vm_writev   another process's memory:
 *                 a forked helper's patch of the harness's code;
 *   seccomp, prctl(PR_SET_SECCOMP)               a filter of its own, which
 *                 could trap the harness's writes and rewrite what they carry;
 *   dup2, dup3 onto a protected descriptor       the harness's result and
 *                 heartbeat pipe, stdin, stdout, stderr replaced;
 *   rt_sigaction(SIGSYS) with a new action       the sandbox's own handler
 *                 replaced (a query alone passes);
 *   shmat with SHM_REMAP                         a segment mapped over
 *                 whatever lies there (sealed code among it);
 *   any call of another architecture             (int 0x80 on x86-64): a way
 *                 around every rule above.
 * Arguments that are ints are compared on their low 32 bits, as the kernel
 * reads them. */
#ifndef HB_SANDBOX_FILTER_H
#define HB_SANDBOX_FILTER_H

#include <stddef.h>

#include "bench/core/status.h"

/* Loads the filter on every thread (SECCOMP_FILTER_FLAG_TSYNC), with the
 * descriptors dup2 and dup3 may not replace.  Last of the sandbox's
 * filters: it refuses seccomp() itself. */
hb_status hb_call_filter_install(const int *protected_fds, size_t n_fds);

#endif
