/* A stand-in for the CUDA runtime that records instead of running: built as
 * build/libhb_record_cudart.so and linked into the launch recorder
 * (record_main.c), whose process then finds these definitions before the
 * real libcudart's when a CUDA-L2 launcher library calls the runtime (a
 * symbol is looked up in the program's global scope first, and an object
 * without version information satisfies a versioned reference such as
 * cudaLaunchKernel@libcudart.so.13).  So the file's own host code runs on
 * the CPU, with no GPU: every launch is kept with its grid, block, dynamic
 * shared memory, stream and arguments, and every other call is counted.
 * That is how the importer learns a one-kernel file's launch (docs/importer.md)
 * without reading it out of templates.
 *
 * Device memory is fake addresses; nothing is dereferenced.  Calls this file
 * does not define fall through to the real runtime, which, with no kernel
 * registered there, fails them; the recorder reports what the host code then
 * did. */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/import/recording.h"

/* libstdc++'s demangler (the recorder links libstdc++; the launcher does too). */
extern char *__cxa_demangle(const char *mangled, char *buffer, size_t *length, int *status);

static hb_recording recording = {
    .device = {.sm = 90, .sms = 132, .smem_per_block_optin = 232448, .smem_per_sm = 233472, .l2_bytes = 50u << 20},
    .next_alloc = 0x7e0000000000ull,
};

hb_recording *hb_recording_state(void)
{
    return &recording;
}

void hb_recording_clear(void)
{
    recording.n_launches = 0;
    recording.n_calls = 0;
    recording.device_queries = 0;
}

/* --- registrations: host stub address -> device name -------------------------- */

#define MAX_FUNCTIONS 4096
typedef struct registered_function {
    const void *host;
    const char *device_name;
} registered_function;
static registered_function functions[MAX_FUNCTIONS];
static size_t n_functions;

static const char *device_name_of(const void *host)
{
    for (size_t i = 0; i < n_functions; i++)
        if (functions[i].host == host)
            return functions[i].device_name;
    return "?";
}

static char fatbin_handle_storage;

void **__cudaRegisterFatBinary(void *fat_cubin)
{
    (void)fat_cubin;
    return (void **)&fatbin_handle_storage;
}

void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;
}

void __cudaUnregisterFatBinary(void **handle)
{
    (void)handle;
}

void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun, const char *device_name,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *b_dim, dim3 *g_dim, int *w_size)
{
    (void)handle, (void)device_fun, (void)thread_limit, (void)tid, (void)bid, (void)b_dim, (void)g_dim, (void)w_size;
    if (n_functions < MAX_FUNCTIONS)
        functions[n_functions++] = (registered_function){host_fun, device_name};
}

void __cudaRegisterVar(void **handle, char *host_var, char *device_address, const char *device_name, int ext,
                       size_t size, int constant, int global)
{
    (void)handle, (void)host_var, (void)device_address, (void)device_name, (void)ext, (void)size, (void)constant,
        (void)global;
}

void __cudaRegisterManagedVar(void **handle, void **host_var, char *device_address, const char *device_name,
                              int ext, size_t size, int constant, int global)
{
    (void)handle, (void)host_var, (void)device_address, (void)device_name, (void)ext, (void)size, (void)constant,
        (void)global;
}

char __cudaInitModule(void **handle)
{
    (void)handle;
    return 1;
}

/* --- what was called ------------------------------------------------------------ */

static void note_call(const char *name, const char *format, ...)
{
    if (!recording.active)
        return;
    char detail[sizeof recording.calls[0].detail] = "";
    if (format) {
        va_list ap;
        va_start(ap, format);
        vsnprintf(detail, sizeof detail, format, ap);
        va_end(ap);
    }
    for (size_t i = 0; i < recording.n_calls; i++)
        if (strcmp(recording.calls[i].name, name) == 0 && strcmp(recording.calls[i].detail, detail) == 0) {
            recording.calls[i].count++;
            return;
        }
    if (recording.n_calls == HB_REC_MAX_CALLS)
        return;
    hb_recorded_call *c = &recording.calls[recording.n_calls++];
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->detail, sizeof c->detail, "%s", detail);
    c->count = 1;
}

static void note_query(const char *name, const char *what)
{
    recording.device_queries++;
    note_call(name, "%s", what);
}

/* Reads each plain argument (a pointer or an integer) by its size; the
 * types come from the demangled name, since `args` carries none. */
static void record_arguments(hb_recorded_launch *l, void **args)
{
    int status = 0;
    char *demangled = __cxa_demangle(l->kernel, NULL, NULL, &status);
    snprintf(l->demangled, sizeof l->demangled, "%s", status == 0 && demangled ? demangled : l->kernel);
    free(demangled);
    l->have_signature = status == 0 && hb_kernel_signature_parse(l->demangled, &l->signature) == 0;
    if (!l->have_signature || !args)
        return;
    for (size_t i = 0; i < l->signature.count; i++) {
        const hb_kernel_param *p = &l->signature.params[i];
        if (p->cls == HB_PARAM_POINTER || p->cls == HB_PARAM_INT64)
            memcpy(&l->value[i], args[i], 8);
        else if (p->cls == HB_PARAM_INT32) {
            uint32_t v;
            memcpy(&v, args[i], 4);
            l->value[i] = v;
        }
    }
}

static void record_launch(const char *api, const void *host_fun, dim3 grid, dim3 block, size_t smem,
                          cudaStream_t stream, void **args, const unsigned cluster[3])
{
    if (!recording.active)
        return;
    size_t index = recording.n_launches++;
    if (index >= HB_REC_MAX_LAUNCHES)
        return;
    hb_recorded_launch *l = &recording.launches[index];
    memset(l, 0, sizeof *l);
    snprintf(l->api, sizeof l->api, "%s", api);
    snprintf(l->kernel, sizeof l->kernel, "%s", device_name_of(host_fun));
    l->grid[0] = grid.x, l->grid[1] = grid.y, l->grid[2] = grid.z;
    l->block[0] = block.x, l->block[1] = block.y, l->block[2] = block.z;
    if (cluster)
        memcpy(l->cluster, cluster, sizeof l->cluster);
    l->smem = smem;
    l->stream = (uintptr_t)stream;
    record_arguments(l, args);
}

/* --- launches ------------------------------------------------------------------------ */

/* <<<grid, block, smem, stream>>> pushes its configuration, then the kernel's
 * host stub pops it and launches. */
static struct {
    dim3 grid, block;
    size_t smem;
    void *stream;
} pushed;

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t smem, struct CUstream_st *stream)
{
    pushed.grid = grid, pushed.block = block, pushed.smem = smem, pushed.stream = stream;
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *smem, void *stream)
{
    *grid = pushed.grid, *block = pushed.block, *smem = pushed.smem;
    *(void **)stream = pushed.stream;
    return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host_fun)
{
    *kernel = (cudaKernel_t)host_fun; /* the handle is the stub's address: launches name it back */
    return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t smem,
                               cudaStream_t stream)
{
    record_launch("<<<>>>", (const void *)kernel, grid, block, smem, stream, args, NULL);
    return cudaSuccess;
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t smem,
                                    cudaStream_t stream)
{
    record_launch("<<<>>>", (const void *)kernel, grid, block, smem, stream, args, NULL);
    return cudaSuccess;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t stream)
{
    record_launch("cudaLaunchKernel", func, grid, block, smem, stream, args, NULL);
    return cudaSuccess;
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                                        cudaStream_t stream)
{
    record_launch("cudaLaunchCooperativeKernel", func, grid, block, smem, stream, args, NULL);
    return cudaSuccess;
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    unsigned cluster[3] = {0, 0, 0};
    const char *api = "cudaLaunchKernelEx";
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        if (a->id == cudaLaunchAttributeClusterDimension) {
            cluster[0] = a->val.clusterDim.x, cluster[1] = a->val.clusterDim.y, cluster[2] = a->val.clusterDim.z;
        } else if (a->id == cudaLaunchAttributeCooperative && a->val.cooperative) {
            api = "cudaLaunchKernelEx(cooperative)";
        }
    }
    record_launch(api, func, config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream, args,
                  cluster);
    return cudaSuccess;
}

/* --- functions' attributes and occupancy ------------------------------------------- */

static const char *function_attribute_name(enum cudaFuncAttribute attr)
{
    switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize: return "MaxDynamicSharedMemorySize";
    case cudaFuncAttributePreferredSharedMemoryCarveout: return "PreferredSharedMemoryCarveout";
    case cudaFuncAttributeNonPortableClusterSizeAllowed: return "NonPortableClusterSizeAllowed";
    case cudaFuncAttributeRequiredClusterWidth: return "RequiredClusterWidth";
    default: return "other";
    }
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    note_call("cudaFuncSetAttribute", "%s %s=%d", device_name_of(func), function_attribute_name(attr), value);
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config)
{
    note_call("cudaFuncSetCacheConfig", "%s %d", device_name_of(func), (int)config);
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    (void)func;
    memset(attr, 0, sizeof *attr);
    attr->maxThreadsPerBlock = 1024;
    attr->maxDynamicSharedSizeBytes = (int)recording.device.smem_per_block_optin;
    attr->ptxVersion = attr->binaryVersion = recording.device.sm;
    note_query("cudaFuncGetAttributes", "");
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func, int block_size,
                                                          size_t smem)
{
    (void)func, (void)block_size, (void)smem;
    *blocks = 1;
    note_query("cudaOccupancyMaxActiveBlocksPerMultiprocessor", "answered 1");
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, const void *func, int block_size,
                                                                   size_t smem, unsigned flags)
{
    (void)flags;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, func, block_size, smem);
}

cudaError_t cudaOccupancyMaxActiveClusters(int *clusters, const void *func, const cudaLaunchConfig_t *config)
{
    (void)func, (void)config;
    *clusters = 1;
    note_query("cudaOccupancyMaxActiveClusters", "answered 1");
    return cudaSuccess;
}

/* --- the device -------------------------------------------------------------------- */

cudaError_t cudaGetDevice(int *device)
{
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    note_call("cudaSetDevice", "%d", device);
    return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    *count = 1;
    return cudaSuccess;
}

static int device_attribute(enum cudaDeviceAttr attr, const char **name)
{
    const hb_recorded_device *d = &recording.device;
    switch (attr) {
    case cudaDevAttrMultiProcessorCount: *name = "MultiProcessorCount"; return d->sms;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *name = "MaxSharedMemoryPerBlockOptin"; return (int)d->smem_per_block_optin;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *name = "MaxSharedMemoryPerMultiprocessor"; return (int)d->smem_per_sm;
    case cudaDevAttrMaxSharedMemoryPerBlock: *name = "MaxSharedMemoryPerBlock"; return 49152;
    case cudaDevAttrComputeCapabilityMajor: *name = "ComputeCapabilityMajor"; return d->sm / 10;
    case cudaDevAttrComputeCapabilityMinor: *name = "ComputeCapabilityMinor"; return d->sm % 10;
    case cudaDevAttrL2CacheSize: *name = "L2CacheSize"; return (int)d->l2_bytes;
    case cudaDevAttrMaxThreadsPerBlock: *name = "MaxThreadsPerBlock"; return 1024;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *name = "MaxThreadsPerMultiProcessor"; return 2048;
    case cudaDevAttrWarpSize: *name = "WarpSize"; return 32;
    case cudaDevAttrCooperativeLaunch: *name = "CooperativeLaunch"; return 1;
    case cudaDevAttrClusterLaunch: *name = "ClusterLaunch"; return d->sm >= 90;
    case cudaDevAttrMaxRegistersPerBlock: *name = "MaxRegistersPerBlock"; return 65536;
    default: *name = "other"; return 0;
    }
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    (void)device;
    const char *name;
    *value = device_attribute(attr, &name);
    note_query("cudaDeviceGetAttribute", name);
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    (void)device;
    const hb_recorded_device *d = &recording.device;
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "hgemm-bench launch recorder (sm_%d, %d SMs)", d->sm, d->sms);
    prop->major = d->sm / 10, prop->minor = d->sm % 10;
    prop->multiProcessorCount = d->sms;
    prop->sharedMemPerBlock = 49152;
    prop->sharedMemPerBlockOptin = d->smem_per_block_optin;
    prop->sharedMemPerMultiprocessor = d->smem_per_sm;
    prop->l2CacheSize = (int)d->l2_bytes;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsPerMultiProcessor = 2048;
    prop->warpSize = 32;
    prop->regsPerBlock = prop->regsPerMultiprocessor = 65536;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024, prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647, prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->totalGlobalMem = (size_t)80 << 30;
    prop->cooperativeLaunch = 1;
    note_query("cudaGetDeviceProperties", "");
    return cudaSuccess;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = -5;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    note_call("cudaDeviceSetLimit", "%d=%zu", (int)limit, value);
    return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    note_call("cudaDeviceSetSharedMemConfig", "%d", (int)config);
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    note_call("cudaDeviceSynchronize", NULL);
    return cudaSuccess;
}

/* --- errors ------------------------------------------------------------------------- */

cudaError_t cudaGetLastError(void)
{
    return cudaSuccess;
}

cudaError_t cudaPeekAtLastError(void)
{
    return cudaSuccess;
}

const char *cudaGetErrorString(cudaError_t error)
{
    return error == cudaSuccess ? "no error" : "error (in the launch recorder, which runs no GPU code)";
}

const char *cudaGetErrorName(cudaError_t error)
{
    return error == cudaSuccess ? "cudaSuccess" : "cudaError";
}

/* --- memory: fake addresses, never dereferenced ------------------------------------- */

static void *fake_allocation(size_t bytes)
{
    void *p = (void *)(uintptr_t)recording.next_alloc;
    recording.next_alloc += (bytes + 0xfffff) & ~(uint64_t)0xfffff; /* 1 MiB apart, like real allocations' alignment */
    recording.next_alloc += 0x100000;
    return p;
}

cudaError_t cudaMalloc(void **ptr, size_t bytes)
{
    *ptr = fake_allocation(bytes);
    note_call("cudaMalloc", NULL);
    return cudaSuccess;
}

cudaError_t cudaMallocAsync(void **ptr, size_t bytes, cudaStream_t stream)
{
    (void)stream;
    *ptr = fake_allocation(bytes);
    note_call("cudaMallocAsync", NULL);
    return cudaSuccess;
}

cudaError_t cudaFree(void *ptr)
{
    (void)ptr;
    note_call("cudaFree", NULL);
    return cudaSuccess;
}

cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream)
{
    (void)ptr, (void)stream;
    note_call("cudaFreeAsync", NULL);
    return cudaSuccess;
}

cudaError_t cudaMemset(void *ptr, int value, size_t bytes)
{
    (void)ptr, (void)value;
    note_call("cudaMemset", "%zu bytes", bytes);
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream)
{
    (void)ptr, (void)value, (void)stream;
    note_call("cudaMemsetAsync", "%zu bytes", bytes);
    return cudaSuccess;
}

/* A copy to the host gets zeros, so host code reads defined bytes. */
static void copy_to_host(void *dst, size_t bytes, enum cudaMemcpyKind kind)
{
    if (kind == cudaMemcpyDeviceToHost)
        memset(dst, 0, bytes);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    (void)src;
    copy_to_host(dst, bytes, kind);
    note_call("cudaMemcpy", "kind %d, %zu bytes", (int)kind, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    (void)src, (void)stream;
    copy_to_host(dst, bytes, kind);
    note_call("cudaMemcpyAsync", "kind %d, %zu bytes", (int)kind, bytes);
    return cudaSuccess;
}

/* --- streams, events, graphs --------------------------------------------------------- */

static uintptr_t next_handle = 0x5000;

static void *fake_handle(void)
{
    next_handle += 0x10;
    return (void *)next_handle;
}

cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    *stream = fake_handle();
    note_call("cudaStreamCreate", NULL);
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags)
{
    *stream = fake_handle();
    note_call("cudaStreamCreateWithFlags", "%u", flags);
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned flags, int priority)
{
    *stream = fake_handle();
    note_call("cudaStreamCreateWithPriority", "%u %d", flags, priority);
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    (void)stream;
    note_call("cudaStreamDestroy", NULL);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    (void)stream;
    note_call("cudaStreamSynchronize", NULL);
    return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags)
{
    (void)stream, (void)event, (void)flags;
    note_call("cudaStreamWaitEvent", NULL);
    return cudaSuccess;
}

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue *value)
{
    (void)stream, (void)value;
    note_call("cudaStreamSetAttribute", "%d", (int)attr);
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    *event = fake_handle();
    note_call("cudaEventCreate", NULL);
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags)
{
    *event = fake_handle();
    note_call("cudaEventCreateWithFlags", "%u", flags);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    (void)event, (void)stream;
    note_call("cudaEventRecord", NULL);
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    (void)event;
    note_call("cudaEventSynchronize", NULL);
    return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    (void)start, (void)end;
    *ms = 1.0f; /* every timed variant looks the same: a file that times itself picks its first */
    note_call("cudaEventElapsedTime", NULL);
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    (void)event;
    note_call("cudaEventDestroy", NULL);
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    (void)stream, (void)mode;
    note_call("cudaStreamBeginCapture", NULL);
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph)
{
    (void)stream;
    *graph = fake_handle();
    note_call("cudaStreamEndCapture", NULL);
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags)
{
    (void)graph, (void)flags;
    *exec = fake_handle();
    note_call("cudaGraphInstantiate", NULL);
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream)
{
    (void)exec, (void)stream;
    note_call("cudaGraphLaunch", NULL);
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    (void)graph;
    note_call("cudaGraphDestroy", NULL);
    return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
    (void)exec;
    note_call("cudaGraphExecDestroy", NULL);
    return cudaSuccess;
}

/* --- the driver, as CUTLASS reaches it (cudaGetDriverEntryPointByVersion) ------------ */

static CUresult recorded_tensor_map_encode_tiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank,
                                                 void *address, const cuuint64_t *dims, const cuuint64_t *strides,
                                                 const cuuint32_t *box, const cuuint32_t *element_strides,
                                                 CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                                 CUtensorMapL2promotion promotion, CUtensorMapFloatOOBfill fill)
{
    (void)type, (void)rank, (void)address, (void)dims, (void)strides, (void)box, (void)element_strides,
        (void)interleave, (void)swizzle, (void)promotion, (void)fill;
    memset(map, 0, sizeof *map);
    note_call("cuTensorMapEncodeTiled", NULL);
    return CUDA_SUCCESS;
}

static cudaError_t driver_entry(const char *symbol, void **fn, enum cudaDriverEntryPointQueryResult *status)
{
    note_call("cudaGetDriverEntryPoint", "%s", symbol);
    *fn = NULL;
    if (strcmp(symbol, "cuTensorMapEncodeTiled") == 0)
        *fn = (void *)recorded_tensor_map_encode_tiled;
    if (status)
        *status = *fn ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
    return *fn ? cudaSuccess : cudaErrorSymbolNotFound;
}

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn, unsigned long long flags,
                                    enum cudaDriverEntryPointQueryResult *status)
{
    (void)flags;
    return driver_entry(symbol, fn, status);
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned version,
                                             unsigned long long flags, enum cudaDriverEntryPointQueryResult *status)
{
    (void)version, (void)flags;
    return driver_entry(symbol, fn, status);
}
