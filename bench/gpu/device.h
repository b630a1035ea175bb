/* Opening the GPU a run measures on and reading its facts (the record
 * itself, bench/result/device_info.h, is what env.json writes). */
#ifndef HB_DEVICE_H
#define HB_DEVICE_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/gpu/no_gpu_reason.h"
#include "bench/result/device_info.h"

/* What a candidate must fit into. */
typedef struct hb_device_limits {
    int sm;                       /* compute capability, 10*major+minor */
    size_t smem_per_block_optin;  /* largest shared memory one block may ask for, bytes */
} hb_device_limits;

/* The CUDA devices this process sees (CUDA_VISIBLE_DEVICES applies), at
 * least one.  HB_ERR_CUDA when there is none or no driver to find one, with
 * the reason told apart (no driver, a driver too old, no GPU, ...:
 * bench/gpu/no_gpu_reason.h). */
hb_status hb_device_count(int *count);

/* As hb_device_count, printing nothing: on HB_ERR_CUDA, *why says what is
 * wrong and what to do (for a command that can do without a GPU). */
hb_status hb_device_count_silent(int *count, hb_no_gpu_reason *why);

/* Selects the device, creates its primary context and reads its facts.
 * HB_ERR_CUDA with an actionable message when no GPU or driver is usable. */
hb_status hb_device_open(int ordinal, hb_device_info *out);

hb_device_limits hb_device_limits_of(const hb_device_info *info);

/* Re-reads the NVML clocks and temperature into `info` (e.g. at the end of a run). */
void hb_device_read_nvml(hb_device_info *info);

#endif
