#include "bench/driver/plausibility_pass.h"

#include "bench/core/diag.h"
#include "bench/result/plausibility.h"

/* The first time this run meets a peak it cannot judge: the warning. */
static int say_once(hb_plausibility_warnings *once, hb_peak_source source, const hb_device_info *device)
{
    if (source == HB_PEAK_UNKNOWN_ARCH && !once->unknown_arch) {
        once->unknown_arch = 1;
        hb_warn("%s (sm_%d) has no entry in the peak tensor-core throughput table (bench/result/peak_throughput.c): "
                "times are not checked against the GPU's peak; give --peak-tflops X to check them",
                device->name, device->sm);
        return 1;
    }
    if (source == HB_PEAK_UNKNOWN_CLOCK && !once->unknown_clock) {
        once->unknown_clock = 1;
        hb_warn("neither NVML nor CUDA gave %s's SM clock: times are not checked against the GPU's peak; give "
                "--peak-tflops X to check them", device->name);
        return 1;
    }
    return 0;
}

int hb_plausibility_warn(hb_plausibility_warnings *once, const hb_config_result *r, const hb_device_info *device,
                         double peak_tflops_flag)
{
    if (r->status != HB_OK || !r->measured) /* what hb_plausibility_apply judges */
        return 0;
    hb_plausibility peak;
    hb_peak_for(device, &r->telemetry, peak_tflops_flag, &peak);
    return say_once(once, peak.source, device);
}

int hb_plausibility_pass(hb_plausibility_warnings *once, hb_config_result *r, const hb_device_info *device,
                         double peak_tflops_flag)
{
    hb_plausibility_apply(r, device, peak_tflops_flag);
    return say_once(once, r->plausibility.source, device);
}
