/* The sandbox's range filters (docs/methodology.md, "The sandbox"): seccomp
 * BPF programs that trap (SIGSYS) a call changing a sealed range
 * (bench/driver/sandbox_seal.h), so that the attempt is a verdict that names
 * it rather than a quiet EPERM from mseal, and, on a kernel without mseal,
 * the only guard of those ranges.  libseccomp compares one argument with a
 * constant; a range test needs the address and the length together, so
 * these are written out here, each 64-bit value compared as two 32-bit
 * halves.  Classic BPF jumps only forward and a program holds at most 4096
 * instructions, so each set of calls is a filter of its own (filters stack;
 * the strictest answer wins):
 *   CHANGE    mprotect and pkey_mprotect asking for PROT_WRITE, mmap with
 *             MAP_FIXED, mremap: over any sealed range;
 *   TARGET    mremap with MREMAP_FIXED onto a sealed range;
 *   UNMAP     munmap of a sealed range of a file ([vdso] included), only
 *             where mseal is missing (with mseal a munmap fails alone, and
 *             the harness's tear-down unmaps its own tables; an unmapped
 *             library range could be mapped again at the same address).
 * Every other call, and a call of another architecture (the libseccomp
 * filter traps those), passes.  On x86-64 an x32 call (its number's bit 30
 * set) traps in every one. */
#ifndef HB_SANDBOX_RANGES_H
#define HB_SANDBOX_RANGES_H

#include <linux/filter.h>
#include <stddef.h>

#include "bench/core/status.h"
#include "bench/driver/sandbox_seal.h"

typedef enum hb_range_calls { HB_RANGE_CHANGE, HB_RANGE_TARGET, HB_RANGE_UNMAP } hb_range_calls;

/* SECCOMP_RET_DATA of the traps, read back by the SIGSYS handler as si_errno. */
enum { HB_TRAP_CALL = 0, HB_TRAP_SEALED_RANGE = 1, HB_TRAP_SEALED_TARGET = 2, HB_TRAP_OTHER_ABI = 3 };

/* The program of `calls` over the spans, into out->filter (malloc'd; free
 * it).  HB_ERR_INTERNAL when it would exceed BPF_MAXINSNS. */
hb_status hb_range_filter_build(const hb_sealed_set *set, hb_range_calls calls, struct sock_fprog *out);

/* Installs a program on every thread of the process (SECCOMP_FILTER_FLAG_TSYNC);
 * no_new_privs must be set. */
hb_status hb_range_filter_install(const struct sock_fprog *program, const char *what);

#endif
