/* A replay's parameters at one call (bench/candidate/replay_candidate.h):
 * where each relocated pointer of the plan (bench/result/replay_plan.h)
 * points given this call's buffers, the parameter bytes of a kernel with its
 * relocations and TMA descriptors written over the recorded ones, and the
 * check at load that no pointer of the plan reaches outside the buffer it
 * names.  Plain data, no CUDA: testable without a GPU. */
#ifndef HB_REPLAY_PATCH_H
#define HB_REPLAY_PATCH_H

#include <stdint.h>

#include "bench/core/status.h"
#include "bench/result/replay_plan.h"

/* Device addresses of one call's targets: A, B, B_col, C and the workspace
 * (indexed by hb_replay_target below HB_TARGET_ALLOC), and the plan's
 * allocations (allocs[i] for alloc i, n_allocs of them). */
typedef struct hb_replay_bases {
    uint64_t target[HB_TARGET_ALLOC];
    const uint64_t *allocs;
    uint32_t n_allocs;
} hb_replay_bases;

/* The address `pointer` names at this call: its target's base + offset. */
uint64_t hb_replay_address(const hb_replay_bases *bases, const hb_replay_pointer *pointer);

/* Writes the kernel's param_bytes parameter bytes to `out`: the recorded
 * bytes, then each relocation's 8 bytes (base + offset, little-endian as the
 * GPU reads them; `at` need not be aligned), then each map use's 128 bytes
 * from maps[use.map] (the plan's map encoded for this call's buffers). */
void hb_replay_patch_params(const hb_replay_kernel *kernel, const hb_replay_bases *bases,
                            const unsigned char (*maps)[HB_REPLAY_MAP_BYTES], unsigned char *out);

/* Sizes in bytes of one call's targets, as hb_replay_bases (the
 * allocations' are the plan's own). */
typedef struct hb_replay_sizes {
    uint64_t target[HB_TARGET_ALLOC];
} hb_replay_sizes;

/* Every pointer of the plan (relocations, TMA descriptors' global
 * addresses, memsets' and copies' extents, in the prologue and the steady
 * state) against its target's size: a relocation or descriptor must point
 * inside it (offset < size), a memset or copy must lie wholly inside it.
 * HB_ERR_BAD_INPUT naming `label` (the replay folder), the operation and the
 * target otherwise: a replay that would reach outside a buffer is refused. */
hb_status hb_replay_check_bounds(const hb_replay_plan *plan, const hb_replay_sizes *sizes, const char *label);

#endif
