#include "bench/gpu/device.h"

#include <stdio.h>
#include <string.h>

#include <cublasLt.h>

#include "bench/gpu/cuda_check.h"
#include "bench/gpu/nvml_runtime.h"

static void format_uuid(const cudaUUID_t *uuid, char *out, size_t size)
{
    const unsigned char *b = (const unsigned char *)uuid->bytes;
    snprintf(out, size,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

hb_status hb_device_count_silent(int *count, hb_no_gpu_reason *why)
{
    *count = 0;
    cudaError_t err = cudaGetDeviceCount(count);
    if (err == cudaSuccess && *count > 0)
        return HB_OK;
    *count = 0;
    hb_no_gpu_facts facts;
    hb_no_gpu_probe(err, &facts);
    hb_no_gpu_explain(&facts, why);
    return HB_ERR_CUDA;
}

hb_status hb_device_count(int *count)
{
    hb_no_gpu_reason why;
    if (hb_device_count_silent(count, &why) == HB_OK)
        return HB_OK;
    return hb_fail(HB_ERR_CUDA, "no usable CUDA GPU: %s; %s", why.fact, why.advice);
}

static hb_status select_device(int ordinal)
{
    int count = 0;
    HB_TRY(hb_device_count(&count));
    if (ordinal >= count)
        return hb_fail(HB_ERR_CUDA, "--device %d: this machine has %d CUDA device(s)", ordinal, count);
    HB_CUDA_TRY(cudaSetDevice(ordinal));
    HB_CUDA_TRY(cudaFree(0)); /* creates the primary context the driver API calls will use */
    return HB_OK;
}

static hb_status read_attributes(int ordinal, hb_device_info *out)
{
    struct cudaDeviceProp prop;
    HB_CUDA_TRY(cudaGetDeviceProperties(&prop, ordinal));
    snprintf(out->name, sizeof out->name, "%s", prop.name);
    format_uuid(&prop.uuid, out->uuid, sizeof out->uuid);
    out->sm = prop.major * 10 + prop.minor;
    out->sm_count = prop.multiProcessorCount;
    out->l2_bytes = (size_t)prop.l2CacheSize;
    out->global_mem_bytes = prop.totalGlobalMem;
    out->smem_per_block_optin = prop.sharedMemPerBlockOptin;
    HB_CUDA_TRY(cudaDeviceGetPCIBusId(out->pci_bus_id, (int)sizeof out->pci_bus_id, ordinal));
    int khz = 0;
    HB_CUDA_TRY(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, ordinal));
    out->max_sm_clock_mhz = khz / 1000;
    HB_CUDA_TRY(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, ordinal));
    out->max_mem_clock_mhz = khz / 1000;
    HB_CUDA_TRY(cudaDriverGetVersion(&out->driver_version));
    HB_CUDA_TRY(cudaRuntimeGetVersion(&out->runtime_version));
    int major = 0, minor = 0, patch = 0;
    HB_CUBLAS_TRY(cublasGetProperty(MAJOR_VERSION, &major));
    HB_CUBLAS_TRY(cublasGetProperty(MINOR_VERSION, &minor));
    HB_CUBLAS_TRY(cublasGetProperty(PATCH_LEVEL, &patch));
    out->cublas_version = major * 10000 + minor * 100 + patch;
    out->cublaslt_version = (long)cublasLtGetVersion();
    return HB_OK;
}

void hb_device_read_nvml(hb_device_info *info)
{
    hb_nvml_reading reading;
    hb_nvml_read(info->uuid, &reading, info->nvml_status, sizeof info->nvml_status);
    info->nvml_sm_clock_mhz = reading.sm_clock_mhz;
    info->nvml_mem_clock_mhz = reading.mem_clock_mhz;
    info->nvml_max_sm_clock_mhz = reading.max_sm_clock_mhz;
    info->nvml_temperature_c = reading.temperature_c;
    if (reading.driver[0])
        snprintf(info->driver, sizeof info->driver, "%s", reading.driver);
    else
        snprintf(info->driver, sizeof info->driver, "cuda-driver-%d", info->driver_version);
}

hb_status hb_device_open(int ordinal, hb_device_info *out)
{
    memset(out, 0, sizeof *out);
    out->ordinal = ordinal;
    HB_TRY(select_device(ordinal));
    HB_TRY(read_attributes(ordinal, out));
    hb_device_read_nvml(out);
    return HB_OK;
}

hb_device_limits hb_device_limits_of(const hb_device_info *info)
{
    hb_device_limits limits = {info->sm, info->smem_per_block_optin};
    return limits;
}
