/* Where a call the sandbox trapped came from (bench/driver/sandbox_trap.h),
 * found from its SIGSYS handler: async-signal-safe, without the dynamic
 * loader (dladdr is not async-signal-safe) or the C library's stdio.  The
 * system call instruction is most often in libc's wrapper, so the finder
 * reads /proc/self/maps with raw system calls and walks the words of the
 * thread's stack (up to 64 KiB above its stack pointer) for the first that
 * points into code loaded after the seal, the candidate's (a return address
 * into it); with none there, the system call instruction's own mapping.
 * Its answer points into static memory, valid until the next call. */
#ifndef HB_SANDBOX_SITE_H
#define HB_SANDBOX_SITE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/memory_maps.h"

typedef struct hb_call_site {
    uintptr_t address;  /* the return address into the candidate's code, or the system call instruction */
    const char *path;   /* the file's last path component, not NUL-terminated; NULL: no mapping holds address */
    size_t path_len;    /* 0: anonymous memory */
    uintptr_t offset;   /* address's offset in the file */
    int candidate;      /* address lies in code mapped after the seal */
} hb_call_site;

/* `sealed`: the map as the seal read it (what is the harness's code). */
void hb_call_site_find(const hb_memory_maps *sealed, uintptr_t call_address, uintptr_t stack_pointer,
                       hb_call_site *out);

#endif
