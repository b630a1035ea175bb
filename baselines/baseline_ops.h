/* Participant operations every library baseline shares: a library call
 * reads the shared inputs as they are and writes the logical M x N output
 * directly, so there is nothing to prepare or collect. */
#ifndef HB_BASELINE_OPS_H
#define HB_BASELINE_OPS_H

#include "bench/candidate/participant.h"

/* prepare / collect: nothing to do. */
hb_status hb_baseline_no_op(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream);

/* poison: NaN-fill the M x N output (HB_NAN_FILL_BYTE). */
hb_status hb_baseline_poison_output(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream);

#endif
