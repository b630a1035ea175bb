/* The buffers the harness owns for a candidate's calls, whichever its kind
 * (a cubin's kernel, a launcher's host code): zero-padded copies of A, B and
 * B_col and a padded C when its manifest pads (docs/candidates.md,
 * "Padding"), and the workspace it asks for.  Each sits between guard bands
 * (bench/gpu/guarded_alloc.h).  The padding copies are made in prepare and
 * collect, outside the timed call, as the paper's public code does.
 *
 * Both kinds of candidate are participants whose impl starts with their
 * hb_candidate_buffers and whose prepare, poison and collect are the ones
 * below. */
#ifndef HB_CANDIDATE_BUFFERS_H
#define HB_CANDIDATE_BUFFERS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/candidate/launch_plan.h"
#include "bench/candidate/participant.h"
#include "bench/core/gemm_types.h"
#include "bench/core/status.h"

typedef struct hb_candidate_buffers {
    long padded[3];              /* M, N, K the candidate sees */
    int needs_padding;           /* padded differs from the problem's dimensions */
    uint16_t *a, *b, *b_col, *c; /* the padded copies; NULL unless needs_padding */
    void *workspace;             /* NULL when workspace_bytes is 0 */
    size_t workspace_bytes;
} hb_candidate_buffers;

/* Allocates what `plan` asks for; HB_ERR_CUDA (nothing left allocated) when
 * the device has no room. */
hb_status hb_candidate_buffers_create(const hb_launch_plan *plan, hb_candidate_buffers *out);
void hb_candidate_buffers_free(hb_candidate_buffers *buffers);

/* The buffers and dimensions the candidate sees: the padded copies when it
 * pads, else `io` itself. */
hb_gemm_io hb_candidate_buffers_io(const hb_candidate_buffers *buffers, const hb_gemm_io *io);

/* A candidate participant's untimed operations (bench/candidate/participant.h),
 * on `stream`, for an impl that starts with its hb_candidate_buffers:
 * prepare copies the inputs into the padded buffers; poison NaN-fills C, the
 * padded C and the workspace; collect copies the top-left M x N of the
 * padded C back into C. */
hb_status hb_candidate_prepare(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream);
hb_status hb_candidate_poison(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream);
hb_status hb_candidate_collect(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream);

/* What the candidate's own code sees, whichever its kind: the padded copies
 * when it pads, else the problem's buffers (also for a baseline timed as the
 * candidate by --aa).  The checks hash these inputs (verify/checked_call.c). */
hb_gemm_io hb_candidate_kernel_io(const hb_participant *candidate, const hb_gemm_io *io);

#endif
