/* The launch recorder: CUPTI's callbacks in this process (the throwaway
 * process of bench/driver/replay_pass.h, which never times anything)
 * record every operation a launcher's call puts on its streams, with raw
 * addresses, into a capture (bench/result/replay_capture.h): kernel launches
 * through any API (<<<>>>, cudaLaunchKernel(Ex), cuLaunchKernel(Ex),
 * cooperative) with their function, grid, block, shared memory, launch
 * attributes and parameter bytes laid out by cuFuncGetParamInfo; memsets;
 * copies; allocations and frees; cuTensorMapEncodeTiled; cuFuncSetAttribute;
 * and the cubin of every module loaded.  A copy to the host, a graph launch,
 * a host function or another operation the replay cannot issue refuses the
 * capture, naming it.  Only one CUPTI subscriber exists per process: the
 * call monitor (bench/trace/call_monitor.h) is not open here. */
#ifndef HB_LAUNCH_RECORDER_H
#define HB_LAUNCH_RECORDER_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/replay_capture.h"

typedef struct hb_launch_recorder hb_launch_recorder;

/* Subscribes to CUPTI (before the launcher's library loads, so that its
 * constructors' allocations and modules are seen).  `capture` (the
 * harness's buffers already in it) is filled from now on. */
hb_status hb_recorder_open(hb_replay_capture *capture, cudaStream_t given_stream, hb_launch_recorder **out);

/* The calls: operations seen between begin and end belong to call `index`;
 * outside them only allocations, modules and attributes are kept. */
void hb_recorder_call_begin(hb_launch_recorder *recorder, int index);
void hb_recorder_call_end(hb_launch_recorder *recorder);

/* The recording ends: CUPTI's subscription is dropped, and each kernel
 * launched is given the captured module that defines it (an ELF function of
 * its name, bench/candidate/cubin_elf.h) and the attributes set on it; the
 * capture is final after this and the cubins stay until close.  A kernel no
 * module defines, over a limit, or device work before the first call (state
 * the replay would not have) refuses the capture.  Close calls it if needed. */
void hb_recorder_stop(hb_launch_recorder *recorder);

/* Module i's cubin as CUPTI gave it (valid until close). */
const void *hb_recorder_cubin(const hb_launch_recorder *recorder, uint32_t module, size_t *bytes);

void hb_recorder_close(hb_launch_recorder *recorder);

#endif
