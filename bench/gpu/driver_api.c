#include "bench/gpu/driver_api.h"

#include <cuda_runtime_api.h>
#include <stdio.h>

#include "bench/core/diag.h"

static hb_driver_api api;
static int resolved;

/* Driver ABI version we ask for: 12.0 semantics for every entry point. */
#define HB_DRIVER_ABI 12000

static hb_status lookup(const char *symbol, void **fn, int required)
{
    enum cudaDriverEntryPointQueryResult query = cudaDriverEntryPointSuccess;
    cudaError_t err = cudaGetDriverEntryPointByVersion(symbol, fn, HB_DRIVER_ABI, cudaEnableDefault, &query);
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
        HB_TRY(lookup("cuModuleLoad", (void **)&api.module_load, 1));
        HB_TRY(lookup("cuModuleUnload", (void **)&api.module_unload, 1));
        HB_TRY(lookup("cuModuleGetFunction", (void **)&api.module_get_function, 1));
        HB_TRY(lookup("cuFuncGetAttribute", (void **)&api.func_get_attribute, 1));
        HB_TRY(lookup("cuFuncSetAttribute", (void **)&api.func_set_attribute, 1));
        HB_TRY(lookup("cuFuncGetParamInfo", (void **)&api.func_get_param_info, 0));
        HB_TRY(lookup("cuLaunchKernel", (void **)&api.launch_kernel, 1));
        HB_TRY(lookup("cuGetErrorName", (void **)&api.get_error_name, 1));
        HB_TRY(lookup("cuGetErrorString", (void **)&api.get_error_string, 1));
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
