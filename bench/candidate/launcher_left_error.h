/* The CUDA runtime's last error as a launcher's code leaves it (docs/launchers.md,
 * "The runtime's last error").  A failed runtime call sets the calling
 * thread's last error until cudaGetLastError reads it, and the harness's own
 * launches read it (bench/gpu/fill.cu, verify/): an error a launcher's
 * constructor or call left set would come back from the harness's next
 * launch as the harness's own error.  So the harness reads and clears it
 * where the launcher's code has just run, once its library has loaded and
 * after every call that returned success, and blames the launcher for what
 * it finds; a sticky error (the device's context unusable) too. */
#ifndef HB_LAUNCHER_LEFT_ERROR_H
#define HB_LAUNCHER_LEFT_ERROR_H

#include <cuda_runtime_api.h>

#include "bench/core/status.h"

/* Where the launcher's code ran before the error was read. */
typedef enum hb_launcher_moment {
    HB_LAUNCHER_AT_LOAD,    /* its library's constructors (dlopen) and hgemm_launch_abi_version */
    HB_LAUNCHER_AFTER_CALL, /* a call of its entry that returned HGEMM_LAUNCH_OK */
} hb_launcher_moment;

/* The verdict on what the launcher's code left: `left`, cudaGetLastError's
 * answer, and `device`, a device-wide synchronize's right after it
 * (cudaSuccess where the caller's own synchronize has judged the device
 * already: after a call).  HB_OK when both are cudaSuccess; else
 * HB_ERR_CANDIDATE_FAULT (verdict crashed, check execution) with a reason that
 * names the error and says "left by the launcher's constructor" or "left set
 * after its call", and, for `device`, that the error is sticky or came from
 * work the constructors left running.  Reads nothing (CPU-testable). */
hb_status hb_launcher_left_error_verdict(const char *launcher, hb_launcher_moment when, cudaError_t left,
                                         cudaError_t device);

/* Reads and clears the calling thread's last error (at HB_LAUNCHER_AT_LOAD
 * also synchronizes the device: what the constructors enqueued ends, and a
 * sticky error, even one the launcher read itself, shows) and gives
 * hb_launcher_left_error_verdict's verdict.  Untimed: no timed call pays
 * for it. */
hb_status hb_launcher_take_left_error(const char *launcher, hb_launcher_moment when);

/* Clears the last error before the launcher's code runs, so that what
 * hb_launcher_take_left_error finds after it is the launcher's. */
void hb_launcher_clear_last_error(void);

#endif
