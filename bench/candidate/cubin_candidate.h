/* The cubin candidate as a participant: its kernel plus the buffers the
 * harness owns for it (bench/candidate/candidate_buffers.h: padded copies of
 * the inputs and output when its manifest asks for padding, and its
 * workspace). */
#ifndef HB_CUBIN_CANDIDATE_H
#define HB_CUBIN_CANDIDATE_H

#include "bench/candidate/cubin_kernel.h"
#include "bench/candidate/participant.h"

/* HB_ERR_UNSUPPORTED when the candidate's claimed class differs from the
 * run's, its padding rules reject (m, n, k), or the device cannot run it. */
hb_status hb_candidate_participant_create(const hb_manifest *manifest, const hb_device_limits *limits,
                                          hb_acc_class run_acc, long m, long n, long k, hb_participant *out);

#endif
