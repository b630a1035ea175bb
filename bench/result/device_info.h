/* The GPU a run measures on, as env.json and the autotune cache's key
 * record it (bench/gpu/device.h reads it).  Plain data. */
#ifndef HB_DEVICE_INFO_H
#define HB_DEVICE_INFO_H

#include <stddef.h>

typedef struct hb_device_info {
    int ordinal;
    char name[256];
    char uuid[64];            /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi prints it */
    char pci_bus_id[32];
    int sm;                   /* compute capability, 10*major+minor */
    int sm_count;
    size_t l2_bytes;
    size_t global_mem_bytes;
    size_t smem_per_block_optin;
    int max_sm_clock_mhz;     /* from cudaDevAttrClockRate */
    int max_mem_clock_mhz;    /* from cudaDevAttrMemoryClockRate */
    int driver_version;       /* e.g. 13000 */
    int runtime_version;
    int cublas_version;       /* major*10000 + minor*100 + patch */
    long cublaslt_version;    /* cublasLtGetVersion(), same encoding */
    char driver[40];          /* NVIDIA driver version from NVML, else "cuda-driver-<driver_version>" */
    /* NVML readings at the time of the query; -1 where NVML is missing. */
    int nvml_sm_clock_mhz, nvml_mem_clock_mhz, nvml_max_sm_clock_mhz, nvml_temperature_c;
    char nvml_status[96];     /* "ok" or why NVML gave nothing */
} hb_device_info;

#endif
