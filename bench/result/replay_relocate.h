/* A recorded operation made relative (bench/result/replay_analysis.h): every
 * raw device address in it is resolved to a target of the plan and an
 * offset, every TMA descriptor found whole in a kernel's parameters becomes
 * a map use, and every other parameter word that resolves becomes a
 * relocation.  Plain data, no CUDA. */
#ifndef HB_REPLAY_RELOCATE_H
#define HB_REPLAY_RELOCATE_H

#include <stdint.h>

#include "bench/result/replay_capture.h"
#include "bench/result/replay_plan.h"

/* What resolving needs: the capture, the plan slot of each of its
 * allocations, and the plan (maps are added to it, refusals recorded). */
typedef struct hb_relocator {
    const hb_replay_capture *capture;
    const int *slot_of; /* [capture->n_allocs]: the plan's alloc slot of each allocation */
    hb_replay_plan *plan;
} hb_relocator;

/* `value` as a pointer at sequence `seq`: inside one of the harness's
 * buffers first, else inside an allocation of the launcher live at `seq`
 * (made before it, not yet freed).  1 and *out when it resolves, else 0. */
int hb_replay_resolve(const hb_relocator *r, uint64_t value, uint64_t seq, hb_replay_pointer *out);

/* The capture's operation as a plan operation; `call` and `index` (both
 * 0-based) name it in a refusal.  1 when done; 0 when the plan was refused. */
int hb_replay_relocate_op(const hb_relocator *r, const hb_capture_op *op, int call, uint32_t index, hb_replay_op *out);

/* The first `size` - 1 characters of a kernel's name, "..." after a cut:
 * mangled CuTe names run to thousands of characters, a reason has 256. */
void hb_replay_short_name(const char *name, char *out, size_t size);

#endif
