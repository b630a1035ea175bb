/* What a manifest asks for at one configuration, worked out without a GPU:
 * the padded dimensions the candidate sees, a cubin's grid, the workspace,
 * and whether it claims the run's accumulator class.  Both kinds of
 * candidate build their calls from it (bench/candidate/cubin_candidate.c,
 * bench/candidate/launcher_candidate.c), and the checks before the GPU
 * (bench/driver/preflight.c) refuse a configuration the candidate could never
 * run, the same way and with the same message. */
#ifndef HB_LAUNCH_PLAN_H
#define HB_LAUNCH_PLAN_H

#include <stddef.h>

#include "bench/candidate/manifest.h"
#include "bench/core/gemm_types.h"
#include "bench/core/status.h"

#define HB_MAX_CANDIDATE_WORKSPACE_BYTES (64ull << 30) /* 64 GiB: larger is a manifest error, not a real need */

typedef struct hb_launch_plan {
    long padded[3];          /* M, N, K rounded up to the manifest's padding */
    int needs_padding;       /* padded differs from the problem's dimensions */
    unsigned grid[3];        /* a cubin's grid; 0 for a launcher, which launches itself */
    size_t workspace_bytes;
} hb_launch_plan;

/* HB_ERR_UNSUPPORTED, with a reason naming the candidate, when it claims
 * another accumulator class than `run_acc`, needs a dimension to be a
 * multiple it is not and does not accept padding, or its grid (a cubin's)
 * or workspace is 0 or over CUDA's (or a sane) limit at this size. */
hb_status hb_launch_plan_make(const hb_manifest *manifest, hb_acc_class run_acc, long m, long n, long k,
                              hb_launch_plan *out);

#endif
