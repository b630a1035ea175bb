/* One participant call under the per-call checks (docs/methodology.md, "Correctness before timing"): the
 * same untimed preparation as every timed call first (hb_prepare_call); for the candidate, the inputs it can reach are
 * hashed before and after and every guard band is scanned after, before
 * its output is looked at.  The caller then compares the output. */
#ifndef HB_CHECKED_CALL_H
#define HB_CHECKED_CALL_H

#include "bench/candidate/participant.h"
#include "verify/check_failure.h"

/* The untimed preparation every call of every participant gets, checked or
 * timed, so that a kernel cannot tell them apart by its buffers
 * (docs/methodology.md, "Indistinguishable calls"): every buffer it writes
 * poisoned (hb_poison_call: its output with the NaN fill, a candidate's
 * workspace and padded output too), and its own copies of the inputs re-made
 * from the shared ones (hb_remake_inputs: a padding candidate's padded
 * copies).  The timing windows do both for a whole round before it
 * (bench/measure/windows.c); a checked call does both right before it
 * (hb_prepare_call).  Enqueued on `stream`; the caller synchronizes. */
hb_status hb_poison_call(hb_participant *participant, const hb_gemm_io *io, cudaStream_t stream);
hb_status hb_remake_inputs(hb_participant *participant, const hb_gemm_io *io, cudaStream_t stream);
hb_status hb_prepare_call(hb_participant *participant, const hb_gemm_io *io, cudaStream_t stream);

/* `shared` holds the problem's own A, B, B_col (the candidate may see
 * padded copies of them).  HB_OK when the call ran clean;
 * HB_ERR_CANDIDATE_FAULT (check "execution") when the candidate raised a
 * CUDA error; HB_ERR_INCORRECT (check "guard-band" or "input-write");
 * HB_ERR_CUDA when a baseline or the harness failed. */
hb_status hb_checked_call(hb_participant *participant, const hb_gemm_io *io, const hb_gemm_io *shared,
                          cudaStream_t stream, hb_check_failure *failure);

/* The guard and input-hash part alone, for calls made by the timing loop. */
hb_status hb_check_guards(cudaStream_t stream, hb_check_failure *failure);

#endif
