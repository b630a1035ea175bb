#include "bench/candidate/cubin_kernel.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/candidate/kernel_args.h"
#include "bench/core/diag.h"
#include "bench/gpu/driver_api.h"

/* More parameters than a kernel's list can name: counting stops here. */
#define COUNT_LIMIT 64

static hb_status module_load_error(const hb_manifest *m, const char *path, CUresult result, int sm)
{
    switch (result) {
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
        return hb_fail(HB_ERR_UNSUPPORTED,
                       "cubin %s (candidate %s) has no code for this GPU (sm_%d): rebuild it with -arch=sm_%d, "
                       "or list a cubin per architecture in the manifest",
                       path, m->name, sm, sm);
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_INVALID_SOURCE:
        return hb_fail(HB_ERR_BAD_INPUT, "%s (candidate %s) is not a loadable cubin/fatbin/PTX: %s", path, m->name,
                       hb_cu_error_text(result));
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
        return hb_fail(HB_ERR_UNSUPPORTED, "%s (candidate %s) needs a newer driver: %s", path, m->name,
                       hb_cu_error_text(result));
    case CUDA_ERROR_FILE_NOT_FOUND:
        return hb_fail(HB_ERR_BAD_INPUT, "cubin %s (candidate %s) not found", path, m->name);
    default:
        return hb_fail(HB_ERR_CUDA, "cuModuleLoad(%s) failed: %s", path, hb_cu_error_text(result));
    }
}

/* "the manifest's params (a, b_col, c, m, n, k)" or "the contract's
 * parameters (a, b, b_col, c, m, n, k, workspace)": what a message compares
 * the kernel with. */
static void describe_list(const hb_candidate_kernel *k, char *out, size_t size)
{
    char listed[HB_KERNEL_PARAMS_TEXT];
    hb_kernel_params_format(&k->params, listed, sizeof listed);
    snprintf(out, size, "%s %s", k->manifest.params.n ? "the manifest's params" : "the contract's parameters", listed);
}

/* The kernel's parameters against its list, by count and size: a list that
 * is off would launch the kernel on garbage. */
static hb_status check_parameters(const hb_driver_api *api, const hb_candidate_kernel *k)
{
    if (!api->func_get_param_info)
        return HB_OK; /* driver older than 12.4: cannot check, launch as listed */
    size_t sizes[HB_KERNEL_PARAMS_MAX] = {0}, count = 0;
    for (; count < COUNT_LIMIT; count++) {
        size_t offset = 0, size = 0;
        if (api->func_get_param_info(k->function, count, &offset, &size) != CUDA_SUCCESS)
            break;
        if (count < HB_KERNEL_PARAMS_MAX)
            sizes[count] = size;
    }
    const hb_manifest *m = &k->manifest;
    const char *hint =
        m->params.n ? "" : " (docs/candidates.md: a kernel of another signature lists its own in \"params\")";
    char list[HB_KERNEL_PARAMS_TEXT + 64];
    describe_list(k, list, sizeof list);
    if (count != (size_t)k->params.n)
        return hb_fail(HB_ERR_BAD_INPUT, "entry %s of candidate %s takes %s%zu parameters; %s name %d%s", m->entry,
                       m->name, count == COUNT_LIMIT ? "at least " : "", count, list, k->params.n, hint);
    for (size_t i = 0; i < count; i++) {
        const hb_kernel_param *want = &k->params.list[i];
        if (sizes[i] == hb_param_role_size(want->role))
            continue;
        char name[16], shown[32];
        hb_kernel_param_text(want, name, sizeof name);
        if (want->role == HB_PARAM_CONSTANT)
            snprintf(shown, sizeof shown, "the constant %s", name);
        else
            snprintf(shown, sizeof shown, "\"%s\"", name);
        return hb_fail(HB_ERR_BAD_INPUT,
                       "entry %s of candidate %s: parameter %zu is %zu bytes; %s name it %s (%zu bytes)%s", m->entry,
                       m->name, i, sizes[i], list, shown, hb_param_role_size(want->role), hint);
    }
    return HB_OK;
}

static hb_status check_resources(const hb_driver_api *api, const hb_device_limits *limits, hb_candidate_kernel *k)
{
    const hb_manifest *m = &k->manifest;
    int value = 0;
    CUresult r = api->func_get_attribute(&value, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k->function);
    if (r != CUDA_SUCCESS)
        return hb_fail(HB_ERR_CUDA, "cuFuncGetAttribute(SHARED_SIZE_BYTES) failed: %s", hb_cu_error_text(r));
    k->static_smem_bytes = (size_t)value;
    size_t total = k->static_smem_bytes + m->dynamic_smem_bytes;
    if (total > limits->smem_per_block_optin)
        return hb_fail(HB_ERR_UNSUPPORTED,
                       "candidate %s needs %zu B of shared memory per block (%zu static + %zu dynamic); "
                       "this GPU allows %zu B",
                       m->name, total, k->static_smem_bytes, m->dynamic_smem_bytes, limits->smem_per_block_optin);
    /* Raise the dynamic limit (48 KiB by default) to what the manifest asks. */
    r = api->func_set_attribute(k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)m->dynamic_smem_bytes);
    if (r != CUDA_SUCCESS)
        return hb_fail(HB_ERR_UNSUPPORTED, "cannot give candidate %s %zu B of dynamic shared memory: %s", m->name,
                       m->dynamic_smem_bytes, hb_cu_error_text(r));
    r = api->func_get_attribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k->function);
    if (r != CUDA_SUCCESS)
        return hb_fail(HB_ERR_CUDA, "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK) failed: %s", hb_cu_error_text(r));
    unsigned threads = m->block[0] * m->block[1] * m->block[2];
    if (threads > (unsigned)value) {
        int regs = 0;
        api->func_get_attribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, k->function);
        return hb_fail(HB_ERR_UNSUPPORTED,
                       "candidate %s launches %u threads per block but, at %d registers per thread, "
                       "the kernel can run at most %d",
                       m->name, threads, regs, value);
    }
    api->func_get_attribute(&k->registers_per_thread, CU_FUNC_ATTRIBUTE_NUM_REGS, k->function);
    return HB_OK;
}

static hb_status pick_cubin(const hb_manifest *m, int sm, const char **path)
{
    const hb_arch_file *ref = hb_manifest_file_for(m, sm);
    if (!ref) {
        char listed[256];
        hb_manifest_list_archs(m, listed, sizeof listed);
        return hb_fail(HB_ERR_UNSUPPORTED, "candidate %s has cubins for %s only; this GPU is sm_%d", m->name, listed, sm);
    }
    struct stat st;
    if (stat(ref->path, &st) != 0)
        return hb_fail(HB_ERR_BAD_INPUT, "cubin %s named by %s: %s (was it built? run make)", ref->path, m->path,
                       strerror(errno));
    *path = ref->path;
    return HB_OK;
}

hb_status hb_candidate_kernel_load(const hb_manifest *manifest, const hb_device_limits *limits,
                                   hb_candidate_kernel *out)
{
    memset(out, 0, sizeof *out);
    out->manifest = *manifest;
    out->params = manifest->params.n ? manifest->params : *hb_kernel_params_contract();
    const hb_driver_api *api;
    HB_TRY(hb_driver_api_get(&api));
    out->api = api;
    const char *path = NULL;
    HB_TRY(pick_cubin(manifest, limits->sm, &path));
    CUresult r = api->module_load(&out->module, path);
    if (r != CUDA_SUCCESS) {
        out->module = NULL;
        return module_load_error(manifest, path, r, limits->sm);
    }
    r = api->module_get_function(&out->function, out->module, manifest->entry);
    hb_status status = HB_OK;
    if (r == CUDA_ERROR_NOT_FOUND)
        status = hb_fail(HB_ERR_BAD_INPUT,
                         "entry \"%s\" not found in %s; declare it extern \"C\" __global__ (C++ names are mangled), "
                         "or give its mangled name, and check the manifest's \"entry\"",
                         manifest->entry, path);
    else if (r != CUDA_SUCCESS)
        status = hb_fail(HB_ERR_CUDA, "cuModuleGetFunction(%s) failed: %s", manifest->entry, hb_cu_error_text(r));
    if (status == HB_OK)
        status = check_parameters(api, out);
    if (status == HB_OK)
        status = check_resources(api, limits, out);
    if (status != HB_OK)
        hb_candidate_kernel_unload(out);
    return status;
}

hb_status hb_candidate_grid(const hb_manifest *manifest, const long padded[3], unsigned grid[3])
{
    /* CUDA's grid limits: x < 2^31, y and z <= 65535. */
    static const uint64_t limit[3] = {2147483647u, 65535u, 65535u};
    for (int i = 0; i < 3; i++) {
        uint64_t value;
        HB_TRY(hb_dim_expr_eval(&manifest->grid[i], padded[0], padded[1], padded[2], limit[i], &value));
        if (value == 0)
            return hb_fail(HB_ERR_UNSUPPORTED, "candidate %s: grid dimension %d is 0", manifest->name, i);
        grid[i] = (unsigned)value;
    }
    return HB_OK;
}

hb_status hb_candidate_kernel_launch(const hb_candidate_kernel *kernel, const unsigned grid[3],
                                     const hb_gemm_io *io, void *workspace, cudaStream_t stream)
{
    const hb_driver_api *api = kernel->api;
    hb_kernel_args args; /* on the stack: cuLaunchKernel copies the values before it returns */
    hb_kernel_args_fill(&kernel->params, io, workspace, &args);
    const hb_manifest *mf = &kernel->manifest;
    CUresult r = api->launch_kernel(kernel->function, grid[0], grid[1], grid[2], mf->block[0], mf->block[1],
                                    mf->block[2], (unsigned)mf->dynamic_smem_bytes, (CUstream)stream, args.pointers,
                                    NULL);
    if (r != CUDA_SUCCESS)
        return hb_fail(HB_ERR_CANDIDATE_FAULT, "launching candidate %s failed: %s", mf->name, hb_cu_error_text(r));
    return HB_OK;
}

void hb_candidate_kernel_unload(hb_candidate_kernel *kernel)
{
    if (kernel->module)
        kernel->api->module_unload(kernel->module);
    kernel->module = NULL;
    kernel->function = NULL;
}
