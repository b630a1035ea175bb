/* A launcher's replay as a participant (docs/launchers.md, "The replay
 * form"): the cubins of a replay folder (bench/candidate/replay_file.h)
 * loaded with the driver API, the recorded allocations made once and
 * poisoned like the workspace, the prologue issued once at load, and at
 * each call the steady state's operations, every one on the timed stream in
 * recorded order: kernels with their recorded grid, block, shared memory and
 * launch attributes (cuLaunchKernelEx), parameters with every relocation
 * patched to this call's buffers and every TMA descriptor re-encoded for
 * them; memsets and device-to-device copies.  The same buffers, padding,
 * workspace, poisoning and collection as the cubin and launcher candidates
 * (bench/candidate/candidate_buffers.h); no candidate host code. */
#ifndef HB_REPLAY_CANDIDATE_H
#define HB_REPLAY_CANDIDATE_H

#include "bench/candidate/manifest.h"
#include "bench/candidate/participant.h"
#include "bench/gpu/device.h"
#include "bench/result/module_state.h"

/* Loads the replay in `folder` for the launcher `manifest` at (m, n, k).
 * HB_ERR_BAD_INPUT when the folder is not a replay or was recorded for
 * another size, library or GPU; HB_ERR_UNSUPPORTED as a cubin's load is
 * (no code for this architecture, too much shared memory). */
hb_status hb_replay_participant_create(const hb_manifest *manifest, const char *folder,
                                       const hb_device_limits *limits, hb_acc_class run_acc, long m, long n, long k,
                                       hb_participant *out);

#endif
