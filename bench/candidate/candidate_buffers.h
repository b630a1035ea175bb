/* The buffers the harness owns for a candidate's calls, whichever its kind
 * (a cubin's kernel, a launcher's host code): zero-padded copies of A, B and
 * B_col and a padded C when its manifest pads (docs/candidates.md,
 * "Padding"), and the workspace it asks for.  Each sits between guard bands
 * (bench/gpu/guarded_alloc.h).  The padding copies are made in prepare and
 * collect, outside the timed call, as the paper's public code does. */
#ifndef HB_CANDIDATE_BUFFERS_H
#define HB_CANDIDATE_BUFFERS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/candidate/launch_plan.h"
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

/* The participant's untimed operations (bench/candidate/participant.h), on
 * `stream`: prepare copies the inputs into the padded buffers; poison
 * NaN-fills C, the padded C and the workspace; collect copies the top-left
 * M x N of the padded C back into C. */
hb_status hb_candidate_buffers_prepare(const hb_candidate_buffers *buffers, const hb_gemm_io *io, cudaStream_t stream);
hb_status hb_candidate_buffers_poison(const hb_candidate_buffers *buffers, const hb_gemm_io *io, cudaStream_t stream);
hb_status hb_candidate_buffers_collect(const hb_candidate_buffers *buffers, const hb_gemm_io *io, cudaStream_t stream);

#endif
