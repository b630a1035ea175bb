/* The few CUDA driver API calls the harness needs to load and launch
 * cubins.  They are looked up at run time through the runtime's
 * cudaGetDriverEntryPointByVersion, so the harness does not link libcuda:
 * it starts (and its CPU tests run) on machines with the toolkit but no
 * driver, and says "no driver" instead of failing to load. */
#ifndef HB_DRIVER_API_H
#define HB_DRIVER_API_H

#include <cuda.h>

#include "bench/core/status.h"

typedef struct hb_driver_api {
    CUresult (*module_load)(CUmodule *, const char *);
    CUresult (*module_unload)(CUmodule);
    CUresult (*module_get_function)(CUfunction *, CUmodule, const char *);
    CUresult (*func_get_attribute)(int *, CUfunction_attribute, CUfunction);
    CUresult (*func_set_attribute)(CUfunction, CUfunction_attribute, int);
    CUresult (*func_get_param_info)(CUfunction, size_t, size_t *, size_t *); /* NULL before CUDA 12.4 */
    CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, CUstream, void **, void **);
    CUresult (*get_error_name)(CUresult, const char **);
    CUresult (*get_error_string)(CUresult, const char **);
    /* The launch recorder's (bench/trace/launch_recorder.h); NULL where the driver lacks them. */
    CUresult (*func_get_name)(const char **, CUfunction);                /* CUDA 12.3 */
    CUresult (*kernel_get_function)(CUfunction *, CUkernel);             /* CUDA 12.0 */
    CUresult (*pointer_get_attribute)(void *, CUpointer_attribute, CUdeviceptr);
    /* A launcher's replay (bench/candidate/replay_candidate.c): its cubins
     * from memory, its allocations, and its operations as recorded. */
    CUresult (*module_load_data)(CUmodule *, const void *);
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*mem_free)(CUdeviceptr);
    CUresult (*memset_d8_async)(CUdeviceptr, unsigned char, size_t, CUstream);
    CUresult (*memset_d16_async)(CUdeviceptr, unsigned short, size_t, CUstream);
    CUresult (*memset_d32_async)(CUdeviceptr, unsigned int, size_t, CUstream);
    CUresult (*memcpy_dtod_async)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
    CUresult (*launch_kernel_ex)(const CUlaunchConfig *, CUfunction, void **, void **);
    CUresult (*tensor_map_encode_tiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                        const cuuint64_t *, const cuuint32_t *, const cuuint32_t *,
                                        CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                                        CUtensorMapFloatOOBfill);
} hb_driver_api;

/* The driver version (cudaDriverGetVersion's, 12040 = 12.4) from which
 * cuFuncGetParamInfo exists, and the ABI version it is asked for at. */
#define HB_PARAM_INFO_ABI 12040

/* Resolves the entry points once; call after the CUDA runtime has a device. */
hb_status hb_driver_api_get(const hb_driver_api **out);

/* "CUDA_ERROR_X (description)" for messages. */
const char *hb_cu_error_text(CUresult result);

#endif
