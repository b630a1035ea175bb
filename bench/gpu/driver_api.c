#include "bench/gpu/driver_api.h"

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdio.h>

#include "bench/core/diag.h"

static hb_driver_api api;
static int resolved;

/* Each entry point at the ABI version it first appeared in (1000*major +
 * 10*minor: 12040 is CUDA 12.4).  Asking for an older version than the
 * symbol's own gives "version not sufficient", whatever the driver: a
 * CUDA 13 driver answered so for cuFuncGetParamInfo asked at 12000. */
static const struct {
    const char *symbol;
    size_t offset;   /* of the pointer in hb_driver_api */
    int abi_version; /* the version whose semantics we call with */
    int required;    /* 0: NULL when the driver lacks it */
} entries[] = {
    {"cuModuleLoad", offsetof(hb_driver_api, module_load), 12000, 1},
    {"cuModuleUnload", offsetof(hb_driver_api, module_unload), 12000, 1},
    {"cuModuleGetFunction", offsetof(hb_driver_api, module_get_function), 12000, 1},
    {"cuFuncGetAttribute", offsetof(hb_driver_api, func_get_attribute), 12000, 1},
    {"cuFuncSetAttribute", offsetof(hb_driver_api, func_set_attribute), 12000, 1},
    {"cuFuncGetParamInfo", offsetof(hb_driver_api, func_get_param_info), HB_PARAM_INFO_ABI, 0},
    {"cuLaunchKernel", offsetof(hb_driver_api, launch_kernel), 12000, 1},
    {"cuGetErrorName", offsetof(hb_driver_api, get_error_name), 12000, 1},
    {"cuGetErrorString", offsetof(hb_driver_api, get_error_string), 12000, 1},
    {"cuFuncGetName", offsetof(hb_driver_api, func_get_name), 12030, 0},
    {"cuKernelGetFunction", offsetof(hb_driver_api, kernel_get_function), 12000, 0},
    {"cuPointerGetAttribute", offsetof(hb_driver_api, pointer_get_attribute), 12000, 0},
    /* the replay's (12000: the _v2 allocation and copy calls, every one in the CUDA 12 driver) */
    {"cuModuleLoadData", offsetof(hb_driver_api, module_load_data), 12000, 1},
    {"cuMemAlloc", offsetof(hb_driver_api, mem_alloc), 12000, 1},
    {"cuMemFree", offsetof(hb_driver_api, mem_free), 12000, 1},
    {"cuMemsetD8Async", offsetof(hb_driver_api, memset_d8_async), 12000, 1},
    {"cuMemsetD16Async", offsetof(hb_driver_api, memset_d16_async), 12000, 1},
    {"cuMemsetD32Async", offsetof(hb_driver_api, memset_d32_async), 12000, 1},
    {"cuMemcpyDtoDAsync", offsetof(hb_driver_api, memcpy_dtod_async), 12000, 1},
    {"cuLaunchKernelEx", offsetof(hb_driver_api, launch_kernel_ex), 12000, 1},
    {"cuTensorMapEncodeTiled", offsetof(hb_driver_api, tensor_map_encode_tiled), 12000, 1},
};

static hb_status lookup(const char *symbol, void **fn, int abi_version, int required)
{
    enum cudaDriverEntryPointQueryResult query = cudaDriverEntryPointSuccess;
    cudaError_t err = cudaGetDriverEntryPointByVersion(symbol, fn, (unsigned)abi_version, cudaEnableDefault, &query);
    if (err == cudaSuccess && query == cudaDriverEntryPointSuccess && *fn)
        return HB_OK;
    *fn = NULL;
    if (!required)
        return HB_OK;
    return hb_fail(HB_ERR_CUDA, "the CUDA driver has no entry point %s (%s); install an NVIDIA driver for CUDA 12 or newer",
                   symbol, cudaGetErrorName(err));
}

hb_status hb_driver_api_get(const hb_driver_api **out)
{
    if (!resolved) {
        for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
            void **fn = (void **)((char *)&api + entries[i].offset);
            HB_TRY(lookup(entries[i].symbol, fn, entries[i].abi_version, entries[i].required));
        }
        resolved = 1;
    }
    *out = &api;
    return HB_OK;
}

const char *hb_cu_error_text(CUresult result)
{
    static char text[256];
    const char *name = "unknown CUresult", *description = "";
    if (resolved) {
        api.get_error_name(result, &name);
        api.get_error_string(result, &description);
    }
    snprintf(text, sizeof text, "%s (%s)", name ? name : "?", description ? description : "");
    return text;
}
