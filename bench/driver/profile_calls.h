/* The profiled process of `--profile` (bench/driver/profile_pass.h): under
 * Nsight Compute, each participant named is called twice, untimed: once to
 * warm up (lazy loading, first-call work), then once inside the NVTX range
 * "hb-profile-<name>" that ncu's --nvtx-include selects.  Nothing here is
 * timed or judged, and no range is pushed anywhere else: the timed windows
 * never see NVTX. */
#ifndef HB_PROFILE_CALLS_H
#define HB_PROFILE_CALLS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "bench/candidate/participant.h"
#include "bench/core/status.h"

/* Set in the profiled process's environment: the participants to call,
 * comma-separated ("candidate,torch").  With it, `check --no-isolate` (and
 * no other command) makes these calls instead of evaluating the configuration. */
#define HB_PROFILE_CALLS_ENV "HB_PROFILE_CALLS"

/* Calls each participant of `parts` whose name is in `names` (the
 * candidate is "candidate") as above, `ios[i]` being part i's buffers.
 * HB_ERR_USAGE when a name is none of them. */
hb_status hb_profile_calls(hb_participant *const *parts, const hb_gemm_io *ios, size_t count, const char *names,
                           cudaStream_t stream);

#endif
