/* The sandbox's Landlock ruleset (docs/methodology.md, "The sandbox"):
 * opening a file for writing (and, from ABI 3, truncating one) is allowed
 * beneath every entry of "/" but /proc, so that /proc/self/mem and
 * /proc/<pid>/mem (which write through page protections and through mseal)
 * cannot be opened for writing, nor any other file of /proc, while the run
 * folder, /tmp and /dev (the GPU's device files, opened read-write) stay
 * writable.  Only those two rights are handled: reading, executing, making
 * files and the driver's ioctls are left as they were.
 *
 * Before ABI 8 a ruleset binds the thread that applies it and the threads
 * and processes it starts from then on, not the threads already running
 * (the CUDA driver's, CUPTI's, the harness's helpers); from ABI 8 every
 * thread (LANDLOCK_RESTRICT_SELF_TSYNC). */
#ifndef HB_SANDBOX_LANDLOCK_H
#define HB_SANDBOX_LANDLOCK_H

#include "bench/core/status.h"

/* The kernel's Landlock ABI version; 0 without Landlock (not built, or
 * turned off at boot). */
int hb_landlock_abi(void);

/* Applies the ruleset; *abi_out is the ABI it applied with, 0 when the
 * kernel has no Landlock (HB_OK: the sandbox goes on without it).
 * HB_ERR_INTERNAL when Landlock is there and refuses. */
hb_status hb_landlock_apply(int *abi_out);

#endif
