/* What a candidate's own code sees, whichever its kind: the padded copies
 * when it pads, else the problem's buffers (also for a baseline timed as
 * the candidate by --aa).  The checks hash these inputs (verify/checked_call.c). */
#ifndef HB_CANDIDATE_IO_H
#define HB_CANDIDATE_IO_H

#include "bench/candidate/participant.h"
#include "bench/core/gemm_types.h"

hb_gemm_io hb_candidate_kernel_io(const hb_participant *candidate, const hb_gemm_io *io);

#endif
