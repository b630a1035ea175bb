#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "bench/driver/profile_calls.h"

#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <string.h>

#include "bench/analysis/ncu_csv.h"
#include "bench/core/diag.h"
#include "bench/core/heartbeat.h"
#include "bench/gpu/cuda_check.h"
#include "verify/checked_call.h"

/* One untimed call, the device idle before and after (as a checked call is
 * made); inside the range when `range` is given.  NVTX v3 is header-only: a
 * push does nothing unless a tool (ncu) injected itself. */
static hb_status call_once(hb_participant *p, const hb_gemm_io *io, cudaStream_t stream, const char *range)
{
    HB_TRY(hb_prepare_call(p, io, stream));
    HB_CUDA_TRY(cudaDeviceSynchronize());
    if (range)
        nvtxRangePushA(range);
    hb_status status = hb_participant_launch(p, io, stream);
    cudaError_t err = status == HB_OK ? cudaDeviceSynchronize() : cudaSuccess;
    if (range)
        nvtxRangePop();
    HB_TRY(status);
    if (err != cudaSuccess)
        return hb_fail(p->is_candidate ? HB_ERR_CANDIDATE_FAULT : HB_ERR_CUDA, "%s failed in the profiled call: %s",
                       p->name, cudaGetErrorName(err));
    hb_heartbeat();
    return p->ops->after_call ? p->ops->after_call(p) : HB_OK;
}

static hb_status profile_one(hb_participant *p, const hb_gemm_io *io, cudaStream_t stream)
{
    char range[96];
    snprintf(range, sizeof range, "%s%s", HB_PROFILE_RANGE_PREFIX, p->name);
    if (p->is_candidate)
        hb_heartbeat_phase(HB_PHASE_CANDIDATE);
    HB_TRY(call_once(p, io, stream, NULL));
    return call_once(p, io, stream, range);
}

hb_status hb_profile_calls(hb_participant *const *parts, const hb_gemm_io *ios, size_t count, const char *names,
                           cudaStream_t stream)
{
    char list[512];
    snprintf(list, sizeof list, "%s", names);
    char *save = NULL;
    for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        size_t i = 0;
        while (i < count && strcmp(parts[i]->name, name))
            i++;
        if (i == count)
            return hb_fail(HB_ERR_USAGE, "%s=%s: \"%s\" is no participant of this configuration", HB_PROFILE_CALLS_ENV,
                           names, name);
        HB_TRY(profile_one(parts[i], &ios[i], stream));
    }
    return HB_OK;
}
