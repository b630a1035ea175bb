#include "bench/trace/launch_recorder.h"

#include "bench/core/diag.h"

/* STUB (issue 31, helper B replaces it). */
hb_status hb_recorder_open(hb_replay_capture *capture, cudaStream_t given_stream, hb_launch_recorder **out)
{
    (void)capture, (void)given_stream;
    *out = NULL;
    return hb_fail(HB_ERR_UNSUPPORTED, "the launch recorder is not built yet");
}

void hb_recorder_call_begin(hb_launch_recorder *recorder, int index)
{
    (void)recorder, (void)index;
}

void hb_recorder_call_end(hb_launch_recorder *recorder)
{
    (void)recorder;
}

const void *hb_recorder_cubin(const hb_launch_recorder *recorder, uint32_t module, size_t *bytes)
{
    (void)recorder, (void)module;
    *bytes = 0;
    return NULL;
}

void hb_recorder_close(hb_launch_recorder *recorder)
{
    (void)recorder;
}
