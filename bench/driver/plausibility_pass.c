#include "bench/driver/plausibility_pass.h"

#include "bench/core/diag.h"
#include "bench/result/plausibility.h"

int hb_plausibility_pass(hb_plausibility_warnings *once, hb_config_result *r, const hb_device_info *device,
                         double peak_tflops_flag)
{
    hb_plausibility_apply(r, device, peak_tflops_flag);
    const hb_peak_source source = r->plausibility.source;
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
