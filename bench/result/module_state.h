/* What a candidate's cubin can keep from one call to the next: its
 * module-scope device memory (__device__ variables, which live as long as the
 * loaded module) and whether it allocates from the device heap.  Either can
 * carry a result between calls, so that a later call hands back an earlier
 * product instead of computing one.  bench/candidate/cubin_elf.h reads the
 * figures from the cubin's ELF; this file holds them and the limit.  Plain
 * data and a pure judgement: testable without a GPU. */
#ifndef HB_MODULE_STATE_H
#define HB_MODULE_STATE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of writable module-scope device memory a candidate may have.  The
 * smallest output of the paper's grid, 64x64 fp16, is 8 KiB: 1 KiB holds at
 * most an eighth of it, while leaving room for the few counters and flags an
 * honest kernel keeps (a split-K semaphore, a printf format string). */
#define HB_MODULE_STATE_LIMIT 1024

typedef struct hb_module_state {
    int scanned;                 /* 1: the cubin's ELF was read; 0: nothing below applies */
    uint64_t global_bytes;       /* writable module-scope device memory, bytes */
    char largest_symbol[64];     /* the largest variable in it ("" if none is named) */
    uint64_t largest_bytes;
    int device_malloc;           /* 1: the cubin calls a device-heap allocator */
    char malloc_symbol[48];      /* the allocator's symbol, e.g. "malloc" */
} hb_module_state;

/* 1 when the state can carry a result from one call to the next (over the
 * limit, or device malloc), with a one-line reason naming the bytes, the
 * limit and why; 0 and "" otherwise (also when not scanned). */
int hb_module_state_refused(const hb_module_state *state, char *reason, size_t size);

#endif
