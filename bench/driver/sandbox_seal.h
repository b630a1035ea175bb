/* The sandbox's seal (docs/methodology.md, "The sandbox"): every private
 * mapping that is executable or read-only when the candidate is about to
 * load (the harness, libc, ld.so, libcuda, libcublas, CUPTI, ..., their
 * read-only data and full-RELRO GOTs, [vdso] and [vvar], and the
 * harness's anonymous read-only tables: the timing entry points, the code
 * check's hashes) sealed with mseal(2) where the kernel has it: from then
 * on mprotect, munmap, mremap and mmap(MAP_FIXED) over them fail with
 * EPERM.  Device files (/dev/...) are left alone: the driver maps and
 * unmaps them itself.
 *
 * The ranges are also what the sandbox's range filters
 * (bench/driver/sandbox_ranges.h) trap calls on, and the copy of the map
 * taken at the seal is what its SIGSYS handler names a range by. */
#ifndef HB_SANDBOX_SEAL_H
#define HB_SANDBOX_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/memory_maps.h"
#include "bench/core/status.h"

/* Adjacent sealed mappings of one kind, joined. */
typedef struct hb_sealed_span {
    uintptr_t start, end; /* [start, end), bytes */
    int anonymous;        /* no file and no kernel name: a table of the harness's */
} hb_sealed_span;

typedef struct hb_sealed_set {
    hb_memory_maps maps;   /* /proc/self/maps as the seal read it */
    hb_sealed_span *spans; /* in address order */
    size_t count;
    size_t mappings;       /* mappings taken */
    int mseal;             /* 1: sealed by mseal(2); 0: the kernel has none, only the filters guard them */
} hb_sealed_set;

/* Whether the seal takes this mapping. */
int hb_seal_takes(const hb_memory_map *map);

/* Reads the map and seals what hb_seal_takes; with `use_mseal` 0, or on a
 * kernel without mseal (ENOSYS, EINVAL), only gathers the ranges.  A
 * mapping gone between the read and its seal (ENOMEM) is left out.
 * HB_ERR_INTERNAL when the map cannot be read or mseal fails otherwise. */
hb_status hb_seal_mappings(int use_mseal, hb_sealed_set *out);

/* Joins taken mappings of `maps` into spans (no system call; the tests'
 * maps text). */
hb_status hb_seal_spans(const hb_memory_maps *maps, hb_sealed_set *out);

void hb_sealed_set_free(hb_sealed_set *set);

#endif
