#include "bench/candidate/replay_candidate.h"

#include <cuda.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/candidate/candidate_buffers.h"
#include "bench/candidate/candidate_row.h"
#include "bench/candidate/launch_plan.h"
#include "bench/candidate/replay_file.h"
#include "bench/core/diag.h"
#include "bench/core/file_digest.h"
#include "bench/core/heartbeat.h"
#include "bench/core/input_file.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/driver_api.h"
#include "bench/result/replay_patch.h"
#include "bench/result/replay_relocate.h"

_Static_assert(sizeof(CUtensorMap) == HB_REPLAY_MAP_BYTES, "a plan's TMA descriptor is one CUtensorMap");
_Static_assert(sizeof(CUlaunchAttributeValue) == HB_REPLAY_ATTR_VALUE_BYTES,
               "a plan's launch attribute value is one CUlaunchAttributeValue");

/* Buffer sets whose TMA descriptors are kept: the inputs rotate among a few
 * sets under the --l2 policies (one set when the candidate pads: its padded
 * copies), and 8 covers them, so a timed call encodes nothing. */
#define MAP_CACHE_SETS 8
/* Dynamic shared memory a kernel gets without opting in (CUDA's 48 KiB). */
#define DEFAULT_DYNAMIC_SMEM (48u << 10)
/* Blocks in a cluster every GPU that has clusters runs (CUDA's portable size). */
#define PORTABLE_CLUSTER_BLOCKS 8u
#define HALF_BYTES 2u

typedef struct map_set {
    int used;
    uint64_t key[HB_TARGET_ALLOC]; /* the targets' bases the maps were encoded for */
    unsigned char maps[HB_REPLAY_MAX_MAPS][HB_REPLAY_MAP_BYTES];
} map_set;

typedef struct replay_impl {
    hb_candidate_buffers buffers; /* first: the shared ops read the impl as these (candidate_buffers.h) */
    const hb_driver_api *api;
    hb_replay_plan *plan;
    char folder[HB_PATH_MAX];
    CUmodule modules[HB_REPLAY_MAX_MODULES];
    CUfunction functions[HB_REPLAY_MAX_FUNCTIONS];
    CUdeviceptr allocs[HB_REPLAY_MAX_ALLOCS];
    uint64_t alloc_bases[HB_REPLAY_MAX_ALLOCS];
    int prologue_issued;
    map_set cache[MAP_CACHE_SETS];
    unsigned next_set; /* the slot the next unseen set takes (round robin) */
    /* Filled per kernel launch: cuLaunchKernelEx copies the values before it returns. */
    unsigned char params[HB_REPLAY_MAX_PARAM_BYTES];
    void *param_pointers[HB_REPLAY_MAX_PARAMS];
    CUlaunchAttribute attrs[HB_REPLAY_MAX_ATTRS];
} replay_impl;

/* --- one call's operations ------------------------------------------------------------------- */

static hb_replay_bases call_bases(const replay_impl *impl, const hb_gemm_io *kernel_io)
{
    hb_replay_bases bases = {.allocs = impl->alloc_bases, .n_allocs = impl->plan->n_allocs};
    bases.target[HB_TARGET_A] = (uint64_t)(uintptr_t)kernel_io->a;
    bases.target[HB_TARGET_B] = (uint64_t)(uintptr_t)kernel_io->b;
    bases.target[HB_TARGET_B_COL] = (uint64_t)(uintptr_t)kernel_io->b_col;
    bases.target[HB_TARGET_C] = (uint64_t)(uintptr_t)kernel_io->c;
    bases.target[HB_TARGET_WORKSPACE] = (uint64_t)(uintptr_t)impl->buffers.workspace;
    return bases;
}

static hb_status encode_map(const replay_impl *impl, uint32_t index, const hb_replay_bases *bases,
                            unsigned char out[HB_REPLAY_MAP_BYTES])
{
    const hb_replay_map *m = &impl->plan->maps[index];
    CUtensorMap encoded; /* 128-byte aligned, as the driver writes it */
    const uint64_t address = hb_replay_address(bases, &m->global);
    CUresult r = impl->api->tensor_map_encode_tiled(
        &encoded, (CUtensorMapDataType)m->data_type, m->rank, (void *)(uintptr_t)address, m->dims, m->strides, m->box,
        m->element_strides, (CUtensorMapInterleave)m->interleave, (CUtensorMapSwizzle)m->swizzle,
        (CUtensorMapL2promotion)m->l2_promotion, (CUtensorMapFloatOOBfill)m->oob_fill);
    if (r != CUDA_SUCCESS)
        return hb_fail(HB_ERR_UNSUPPORTED,
                       "replay %s: TMA descriptor %" PRIu32 " cannot be encoded for this call's %s at 0x%" PRIx64
                       " (cuTensorMapEncodeTiled with the recorded arguments): %s; time the launcher itself with "
                       "--form launcher",
                       impl->folder, index, hb_replay_target_name(m->global.target), address, hb_cu_error_text(r));
    memcpy(out, &encoded, HB_REPLAY_MAP_BYTES);
    return HB_OK;
}

/* The plan's TMA descriptors for this call's buffers.  They hold the
 * buffers' addresses, so they change with the buffer set; the launcher's own
 * host code encoded them at every call, and that host cost is what the
 * replay leaves out: it times the kernels alone, with the harness's launch.
 * A set seen before is served from the cache; an unseen one is encoded once
 * (host work only, nothing on the GPU) and takes the oldest slot. */
static hb_status maps_for(replay_impl *impl, const hb_replay_bases *bases,
                          const unsigned char (**out)[HB_REPLAY_MAP_BYTES])
{
    if (impl->plan->n_maps == 0) {
        *out = NULL;
        return HB_OK;
    }
    for (unsigned i = 0; i < MAP_CACHE_SETS; i++) {
        map_set *set = &impl->cache[i];
        if (set->used && !memcmp(set->key, bases->target, sizeof set->key)) {
            *out = (const unsigned char (*)[HB_REPLAY_MAP_BYTES])set->maps;
            return HB_OK;
        }
    }
    map_set *set = &impl->cache[impl->next_set];
    impl->next_set = (impl->next_set + 1) % MAP_CACHE_SETS;
    set->used = 0;
    for (uint32_t i = 0; i < impl->plan->n_maps; i++)
        HB_TRY(encode_map(impl, i, bases, set->maps[i]));
    memcpy(set->key, bases->target, sizeof set->key);
    set->used = 1;
    *out = (const unsigned char (*)[HB_REPLAY_MAP_BYTES])set->maps;
    return HB_OK;
}

static const char *function_name(const replay_impl *impl, uint32_t function, char *out, size_t size)
{
    hb_replay_short_name(impl->plan->functions[function].name, out, size);
    return out;
}

static hb_status launch_kernel(replay_impl *impl, const hb_replay_kernel *k, const hb_replay_bases *bases,
                               const unsigned char (*maps)[HB_REPLAY_MAP_BYTES], cudaStream_t stream)
{
    hb_replay_patch_params(k, bases, maps, impl->params);
    for (uint32_t i = 0; i < k->n_params; i++)
        impl->param_pointers[i] = impl->params + k->param_offset[i];
    for (uint32_t i = 0; i < k->n_attrs; i++) {
        memset(&impl->attrs[i], 0, sizeof impl->attrs[i]);
        impl->attrs[i].id = (CUlaunchAttributeID)k->attrs[i].id;
        memcpy(&impl->attrs[i].value, k->attrs[i].value, HB_REPLAY_ATTR_VALUE_BYTES);
    }
    const CUlaunchConfig config = {
        .gridDimX = k->grid[0], .gridDimY = k->grid[1], .gridDimZ = k->grid[2],
        .blockDimX = k->block[0], .blockDimY = k->block[1], .blockDimZ = k->block[2],
        .sharedMemBytes = k->smem, .hStream = (CUstream)stream,
        .attrs = k->n_attrs ? impl->attrs : NULL, .numAttrs = k->n_attrs,
    };
    CUresult r = impl->api->launch_kernel_ex(&config, impl->functions[k->function],
                                             k->n_params ? impl->param_pointers : NULL, NULL);
    if (r == CUDA_SUCCESS)
        return HB_OK;
    char name[96];
    return hb_fail(HB_ERR_CANDIDATE_FAULT,
                   "replay %s: launching kernel %s (grid %u,%u,%u, block %u,%u,%u, %u B shared memory) failed: %s",
                   impl->folder, function_name(impl, k->function, name, sizeof name), k->grid[0], k->grid[1],
                   k->grid[2], k->block[0], k->block[1], k->block[2], k->smem, hb_cu_error_text(r));
}

static hb_status issue_memset(const replay_impl *impl, const hb_replay_memset *s, const hb_replay_bases *bases,
                              cudaStream_t stream)
{
    const CUdeviceptr dst = (CUdeviceptr)hb_replay_address(bases, &s->dst);
    const hb_driver_api *api = impl->api;
    CUresult r;
    switch (s->element_bytes) {
    case 1:
        r = api->memset_d8_async(dst, (unsigned char)s->value, s->count, (CUstream)stream);
        break;
    case 2:
        r = api->memset_d16_async(dst, (unsigned short)s->value, s->count, (CUstream)stream);
        break;
    case 4:
        r = api->memset_d32_async(dst, s->value, s->count, (CUstream)stream);
        break;
    default:
        return hb_fail(HB_ERR_BAD_INPUT, "replay %s: a memset of %" PRIu32 "-byte elements (1, 2 or 4 expected)",
                       impl->folder, s->element_bytes);
    }
    if (r != CUDA_SUCCESS)
        return hb_fail(HB_ERR_CANDIDATE_FAULT, "replay %s: cuMemsetD%uAsync of %" PRIu64 " elements into %s failed: %s",
                       impl->folder, 8 * s->element_bytes, s->count, hb_replay_target_name(s->dst.target),
                       hb_cu_error_text(r));
    return HB_OK;
}

static hb_status issue_copy(const replay_impl *impl, const hb_replay_copy *c, const hb_replay_bases *bases,
                            cudaStream_t stream)
{
    CUresult r = impl->api->memcpy_dtod_async((CUdeviceptr)hb_replay_address(bases, &c->dst),
                                              (CUdeviceptr)hb_replay_address(bases, &c->src), c->bytes,
                                              (CUstream)stream);
    if (r != CUDA_SUCCESS)
        return hb_fail(HB_ERR_CANDIDATE_FAULT, "replay %s: cuMemcpyDtoDAsync of %" PRIu64 " bytes from %s to %s failed: %s",
                       impl->folder, c->bytes, hb_replay_target_name(c->src.target),
                       hb_replay_target_name(c->dst.target), hb_cu_error_text(r));
    return HB_OK;
}

/* Every operation of `ops` on `stream`, in recorded order: whichever of the
 * launcher's streams an operation was on, the harness times one stream. */
static hb_status issue(replay_impl *impl, const hb_replay_op *ops, uint32_t n, const hb_gemm_io *kernel_io,
                       cudaStream_t stream)
{
    const hb_replay_bases bases = call_bases(impl, kernel_io);
    const unsigned char (*maps)[HB_REPLAY_MAP_BYTES] = NULL;
    HB_TRY(maps_for(impl, &bases, &maps));
    for (uint32_t i = 0; i < n; i++) {
        switch (ops[i].kind) {
        case HB_OP_KERNEL:
            HB_TRY(launch_kernel(impl, &ops[i].u.kernel, &bases, maps, stream));
            break;
        case HB_OP_MEMSET:
            HB_TRY(issue_memset(impl, &ops[i].u.memset, &bases, stream));
            break;
        case HB_OP_COPY:
            HB_TRY(issue_copy(impl, &ops[i].u.copy, &bases, stream));
            break;
        }
    }
    return HB_OK;
}

/* --- the participant ----------------------------------------------------------------------- */

/* Timed: the steady state's operations, nothing else (no allocation, no
 * host synchronize; descriptors of a buffer set seen before come from the
 * cache). */
static hb_status replay_launch(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    replay_impl *impl = self->impl;
    const hb_gemm_io kernel_io = hb_candidate_buffers_io(&impl->buffers, io);
    return issue(impl, impl->plan->ops, impl->plan->n_ops, &kernel_io, stream);
}

/* The prologue (what only the launcher's first call did: zeroing a
 * semaphore array it keeps, say) needs the buffers, which prepare is the
 * first to be given; it runs once, then the stream is synchronized so a
 * fault in it is told apart from the timed calls'.  The heartbeat's phase is
 * the candidate's meanwhile: a kernel of its that never ends is its timeout. */
static hb_status issue_prologue(replay_impl *impl, const hb_gemm_io *io, cudaStream_t stream)
{
    impl->prologue_issued = 1;
    const hb_gemm_io kernel_io = hb_candidate_buffers_io(&impl->buffers, io);
    HB_TRY(issue(impl, impl->plan->prologue, impl->plan->n_prologue, &kernel_io, stream));
    const hb_phase before = hb_heartbeat_current_phase();
    hb_heartbeat_phase(HB_PHASE_CANDIDATE);
    const cudaError_t err = cudaStreamSynchronize(stream);
    hb_heartbeat_phase(before);
    if (err != cudaSuccess)
        return hb_fail(HB_ERR_CANDIDATE_FAULT,
                       "replay %s: its prologue (the operations only the launcher's first call made) failed on the "
                       "GPU: %s (%s)",
                       impl->folder, cudaGetErrorName(err), cudaGetErrorString(err));
    return HB_OK;
}

static hb_status replay_prepare(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    HB_TRY(hb_candidate_prepare(self, io, stream));
    replay_impl *impl = self->impl;
    if (!impl->prologue_issued && impl->plan->n_prologue > 0)
        return issue_prologue(impl, io, stream);
    return HB_OK;
}

static void replay_destroy(hb_participant *self)
{
    replay_impl *impl = self->impl;
    if (!impl)
        return;
    for (uint32_t i = 0; impl->api && i < HB_REPLAY_MAX_MODULES; i++)
        if (impl->modules[i])
            impl->api->module_unload(impl->modules[i]);
    for (uint32_t i = 0; impl->api && i < HB_REPLAY_MAX_ALLOCS; i++)
        if (impl->allocs[i])
            impl->api->mem_free(impl->allocs[i]);
    hb_candidate_buffers_free(&impl->buffers);
    hb_replay_plan_free(impl->plan);
    free(impl);
    self->impl = NULL;
}

static const hb_participant_ops replay_ops = {replay_prepare,       hb_candidate_poison, replay_launch,
                                              hb_candidate_collect, replay_destroy,      NULL};

/* --- load ---------------------------------------------------------------------------------- */

/* The replay must be this configuration's, this GPU's and this library's:
 * its relocations, shared memory and cubins hold for those alone. */
static hb_status check_origin(const replay_impl *impl, const hb_manifest *manifest, int sm, long m, long n, long k)
{
    const hb_replay_plan *plan = impl->plan;
    const char *again = "delete the folder to record it again";
    if (plan->refusal != HB_REFUSE_NONE)
        return hb_fail(HB_ERR_BAD_INPUT,
                       "replay %s records why launcher %s has no replay (%s: %s), not a replay; time the launcher "
                       "itself with --form launcher",
                       impl->folder, manifest->name, hb_replay_refusal_name(plan->refusal), plan->reason);
    if (plan->mnk[0] != m || plan->mnk[1] != n || plan->mnk[2] != k)
        return hb_fail(HB_ERR_BAD_INPUT, "replay %s was recorded at %ld x %ld x %ld, not at %ld x %ld x %ld; %s",
                       impl->folder, plan->mnk[0], plan->mnk[1], plan->mnk[2], m, n, k, again);
    if (plan->sm != sm)
        return hb_fail(HB_ERR_BAD_INPUT, "replay %s was recorded on an sm_%d GPU, and this one is sm_%d; %s",
                       impl->folder, plan->sm, sm, again);
    const hb_arch_file *library = hb_manifest_file_for(manifest, sm);
    if (!library)
        return hb_fail(HB_ERR_UNSUPPORTED, "launcher %s has no library for sm_%d", manifest->name, sm);
    char sha256[HB_SHA256_HEX];
    HB_TRY(hb_sha256_file_hex(library->path, sha256));
    if (strcmp(sha256, plan->library_sha256))
        return hb_fail(HB_ERR_BAD_INPUT,
                       "replay %s was recorded from another build of launcher %s (library SHA-256 %.12s..., "
                       "%s is %.12s...); %s",
                       impl->folder, manifest->name, plan->library_sha256, library->path, sha256, again);
    return HB_OK;
}

static hb_status check_padding(const replay_impl *impl, const hb_launch_plan *launch)
{
    const long *p = impl->plan->padded;
    if (!memcmp(p, launch->padded, sizeof launch->padded))
        return HB_OK;
    return hb_fail(HB_ERR_BAD_INPUT,
                   "replay %s was recorded with the launcher seeing %ld x %ld x %ld; its manifest now pads to "
                   "%ld x %ld x %ld; delete the folder to record it again",
                   impl->folder, p[0], p[1], p[2], launch->padded[0], launch->padded[1], launch->padded[2]);
}

static hb_status check_bounds(const replay_impl *impl)
{
    const long *p = impl->buffers.padded;
    hb_replay_sizes sizes;
    sizes.target[HB_TARGET_A] = (uint64_t)p[0] * (uint64_t)p[2] * HALF_BYTES;
    sizes.target[HB_TARGET_B] = (uint64_t)p[2] * (uint64_t)p[1] * HALF_BYTES;
    sizes.target[HB_TARGET_B_COL] = sizes.target[HB_TARGET_B];
    sizes.target[HB_TARGET_C] = (uint64_t)p[0] * (uint64_t)p[1] * HALF_BYTES;
    sizes.target[HB_TARGET_WORKSPACE] = impl->buffers.workspace_bytes;
    return hb_replay_check_bounds(impl->plan, &sizes, impl->folder);
}

static hb_status load_module(replay_impl *impl, uint32_t i, int sm)
{
    const hb_replay_module *module = &impl->plan->modules[i];
    char path[HB_PATH_MAX + 80];
    hb_replay_module_path(impl->folder, module, path, sizeof path);
    char *bytes = NULL;
    size_t size = 0;
    HB_TRY(hb_input_read(path, NULL, (size_t)module->bytes, HB_ERR_BAD_INPUT, 0, &bytes, &size));
    CUresult r = impl->api->module_load_data(&impl->modules[i], bytes);
    free(bytes);
    if (r == CUDA_SUCCESS)
        return HB_OK;
    impl->modules[i] = NULL;
    if (r == CUDA_ERROR_NO_BINARY_FOR_GPU)
        return hb_fail(HB_ERR_UNSUPPORTED, "replay module %s has no code for this GPU (sm_%d): %s", path, sm,
                       hb_cu_error_text(r));
    if (r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_INVALID_SOURCE)
        return hb_fail(HB_ERR_BAD_INPUT, "replay module %s is not a loadable cubin: %s; delete the folder to record "
                       "it again", path, hb_cu_error_text(r));
    return hb_fail(HB_ERR_CUDA, "cuModuleLoadData(%s) failed: %s", path, hb_cu_error_text(r));
}

static hb_status get_function(replay_impl *impl, uint32_t i)
{
    const hb_replay_function *f = &impl->plan->functions[i];
    CUresult r = impl->api->module_get_function(&impl->functions[i], impl->modules[f->module], f->name);
    if (r == CUDA_SUCCESS)
        return HB_OK;
    char name[96];
    function_name(impl, i, name, sizeof name);
    if (r == CUDA_ERROR_NOT_FOUND)
        return hb_fail(HB_ERR_BAD_INPUT, "replay %s: kernel %s is not in module %s; delete the folder to record it "
                       "again", impl->folder, name, impl->plan->modules[f->module].file);
    return hb_fail(HB_ERR_CUDA, "cuModuleGetFunction(%s) failed: %s", name, hb_cu_error_text(r));
}

static hb_status set_attribute(const replay_impl *impl, uint32_t function, CUfunction_attribute attribute, int value)
{
    CUresult r = impl->api->func_set_attribute(impl->functions[function], attribute, value);
    if (r == CUDA_SUCCESS)
        return HB_OK;
    char name[96];
    return hb_fail(HB_ERR_UNSUPPORTED, "replay %s: kernel %s: cuFuncSetAttribute(attribute %d, %d), as the launcher "
                   "set it, fails on this GPU: %s",
                   impl->folder, function_name(impl, function, name, sizeof name), (int)attribute, value,
                   hb_cu_error_text(r));
}

static uint64_t cluster_blocks(const hb_replay_kernel *k)
{
    for (uint32_t i = 0; i < k->n_attrs; i++) {
        if (k->attrs[i].id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
            continue;
        CUlaunchAttributeValue value;
        memcpy(&value, k->attrs[i].value, sizeof value);
        return (uint64_t)value.clusterDim.x * value.clusterDim.y * value.clusterDim.z;
    }
    return 1;
}

/* The largest dynamic shared memory and cluster each function is launched
 * with, in the prologue or the steady state. */
static void launch_needs(const hb_replay_plan *plan, uint32_t smem[], uint64_t cluster[])
{
    const hb_replay_op *lists[2] = {plan->prologue, plan->ops};
    const uint32_t counts[2] = {plan->n_prologue, plan->n_ops};
    for (int l = 0; l < 2; l++)
        for (uint32_t i = 0; i < counts[l]; i++) {
            if (lists[l][i].kind != HB_OP_KERNEL)
                continue;
            const hb_replay_kernel *k = &lists[l][i].u.kernel;
            if (k->smem > smem[k->function])
                smem[k->function] = k->smem;
            const uint64_t blocks = cluster_blocks(k);
            if (blocks > cluster[k->function])
                cluster[k->function] = blocks;
        }
}

/* Shared memory against the device, as a cubin candidate's (cubin_kernel.c). */
static hb_status fit_function(const replay_impl *impl, uint32_t f, uint32_t smem, uint64_t cluster,
                              const hb_device_limits *limits)
{
    int static_smem = 0;
    CUresult r = impl->api->func_get_attribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, impl->functions[f]);
    if (r != CUDA_SUCCESS)
        return hb_fail(HB_ERR_CUDA, "cuFuncGetAttribute(SHARED_SIZE_BYTES) failed: %s", hb_cu_error_text(r));
    const size_t total = (size_t)static_smem + smem;
    char name[96];
    if (total > limits->smem_per_block_optin)
        return hb_fail(HB_ERR_UNSUPPORTED,
                       "replay %s: kernel %s needs %zu B of shared memory per block (%d static + %" PRIu32
                       " dynamic); this GPU allows %zu B",
                       impl->folder, function_name(impl, f, name, sizeof name), total, static_smem, smem,
                       limits->smem_per_block_optin);
    if (smem > DEFAULT_DYNAMIC_SMEM)
        HB_TRY(set_attribute(impl, f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem));
    if (cluster > PORTABLE_CLUSTER_BLOCKS)
        HB_TRY(set_attribute(impl, f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
    return HB_OK;
}

static hb_status load_code(replay_impl *impl, const hb_device_limits *limits)
{
    const hb_replay_plan *plan = impl->plan;
    for (uint32_t i = 0; i < plan->n_modules; i++)
        HB_TRY(load_module(impl, i, limits->sm));
    for (uint32_t i = 0; i < plan->n_functions; i++)
        HB_TRY(get_function(impl, i));
    for (uint32_t i = 0; i < plan->n_func_attrs; i++) {
        const hb_replay_func_attr *a = &plan->func_attrs[i];
        HB_TRY(set_attribute(impl, a->function, (CUfunction_attribute)a->attribute, a->value));
    }
    uint32_t smem[HB_REPLAY_MAX_FUNCTIONS] = {0};
    uint64_t cluster[HB_REPLAY_MAX_FUNCTIONS] = {0};
    launch_needs(plan, smem, cluster);
    for (uint32_t f = 0; f < plan->n_functions; f++)
        HB_TRY(fit_function(impl, f, smem[f], cluster[f], limits));
    return HB_OK;
}

/* The launcher's own allocations, made once and NaN-filled once like the
 * workspace: a kernel that reads what it never wrote reads NaN. */
static hb_status make_allocs(replay_impl *impl)
{
    const hb_replay_plan *plan = impl->plan;
    for (uint32_t i = 0; i < plan->n_allocs; i++) {
        const uint64_t bytes = plan->allocs[i].bytes ? plan->allocs[i].bytes : 1;
        CUresult r = impl->api->mem_alloc(&impl->allocs[i], (size_t)bytes);
        if (r != CUDA_SUCCESS) {
            impl->allocs[i] = 0;
            return hb_fail(HB_ERR_CUDA, "replay %s: allocating the launcher's allocation %" PRIu32 " (%" PRIu64
                           " bytes) failed: %s", impl->folder, i, bytes, hb_cu_error_text(r));
        }
        impl->alloc_bases[i] = (uint64_t)impl->allocs[i];
        HB_CUDA_TRY(cudaMemset((void *)(uintptr_t)impl->allocs[i], HB_NAN_FILL_BYTE, (size_t)bytes));
    }
    HB_CUDA_TRY(cudaDeviceSynchronize());
    return HB_OK;
}

static hb_status setup(replay_impl *impl, const hb_manifest *manifest, const char *folder,
                       const hb_device_limits *limits, hb_acc_class run_acc, long m, long n, long k)
{
    if (snprintf(impl->folder, sizeof impl->folder, "%s", folder) >= (int)sizeof impl->folder)
        return hb_fail(HB_ERR_BAD_INPUT, "%s: the replay folder's path is too long", folder);
    impl->plan = hb_replay_plan_new();
    if (!impl->plan)
        return HB_ERR_INTERNAL;
    HB_TRY(hb_replay_read(folder, impl->plan));
    HB_TRY(check_origin(impl, manifest, limits->sm, m, n, k));
    hb_launch_plan launch;
    HB_TRY(hb_launch_plan_make(manifest, run_acc, m, n, k, &launch));
    HB_TRY(check_padding(impl, &launch));
    HB_TRY(hb_candidate_buffers_create(&launch, &impl->buffers));
    HB_TRY(check_bounds(impl));
    HB_TRY(hb_driver_api_get(&impl->api));
    HB_TRY(load_code(impl, limits));
    return make_allocs(impl);
}

/* "replay:<its first kernel>", with "+N" when the call launches N more. */
static void describe(const replay_impl *impl, const hb_manifest *manifest, hb_participant_desc *desc)
{
    hb_candidate_describe(manifest, &impl->buffers, desc);
    const hb_replay_plan *plan = impl->plan;
    const uint32_t kernels = hb_replay_kernels_per_call(plan);
    char more[16] = "", name[64] = "";
    if (kernels > 1)
        snprintf(more, sizeof more, "+%" PRIu32, kernels - 1);
    for (uint32_t i = 0; i < plan->n_ops; i++)
        if (plan->ops[i].kind == HB_OP_KERNEL) {
            const size_t room = sizeof desc->algorithm - strlen("replay:") - strlen(more);
            hb_replay_short_name(plan->functions[plan->ops[i].u.kernel.function].name, name,
                                 room < sizeof name ? room : sizeof name);
            break;
        }
    snprintf(desc->algorithm, sizeof desc->algorithm, "replay:%.40s%.15s", name, more); /* 7 + 40 + 15 < 64 */
}

hb_status hb_replay_participant_create(const hb_manifest *manifest, const char *folder,
                                       const hb_device_limits *limits, hb_acc_class run_acc, long m, long n, long k,
                                       hb_participant *out)
{
    HB_TRY(hb_candidate_participant_init(out, &replay_ops, sizeof(replay_impl)));
    replay_impl *impl = out->impl;
    hb_status status = setup(impl, manifest, folder, limits, run_acc, m, n, k);
    if (status != HB_OK) {
        replay_destroy(out);
        return status;
    }
    describe(impl, manifest, &out->desc);
    return HB_OK;
}
