/* The launcher candidate as a participant (docs/launchers.md): its shared
 * library's entry, called with the buffers the harness owns for it
 * (bench/candidate/candidate_buffers.h, the same padding and workspace as a
 * cubin's) and the timed stream.  Its untimed after_call blames the
 * launcher for a CUDA runtime error its call left set
 * (launcher_left_error.h), puts back any device state its host code changed
 * (bench/gpu/device_state.h: the current device, the flags, the
 * persisting-L2 limit, the timed stream's access-policy window), resets the
 * persisting L2 lines, and says what it found in the participant's
 * device_state, the first time. */
#ifndef HB_LAUNCHER_CANDIDATE_H
#define HB_LAUNCHER_CANDIDATE_H

#include "bench/candidate/manifest.h"
#include "bench/candidate/participant.h"
#include "bench/gpu/device.h"

/* Loads the library for this GPU (bench/candidate/launcher_library.h) and
 * allocates the buffers.  The device state is read before the library is
 * loaded, so what its constructors change is caught after the first call;
 * a CUDA runtime error its constructors left set, or a device they left
 * failing, is HB_ERR_CANDIDATE_FAULT (launcher_left_error.h).
 * HB_ERR_UNSUPPORTED when the candidate's claimed class differs from the
 * run's, its padding rules reject (m, n, k) or the manifest has no library
 * for this GPU; HB_ERR_BAD_INPUT when the library cannot be loaded or is not
 * a launcher of this ABI version. */
hb_status hb_launcher_participant_create(const hb_manifest *manifest, const hb_device_limits *limits,
                                         hb_acc_class run_acc, long m, long n, long k, hb_participant *out);

#endif
