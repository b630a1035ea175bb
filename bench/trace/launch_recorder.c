/* The launch recorder (launch_recorder.h).  One CUPTI subscriber with the
 * whole runtime and driver API domains and the resource domain's
 * MODULE_LOADED.  Every API callback moves a thread-local depth, so that an
 * operation is recorded once, from the outermost call that made it: a
 * runtime call (cudaLaunchKernel, cudaMemsetAsync, ...) from its own
 * parameters, and the driver calls the runtime makes inside it are not seen
 * again; a driver call the launcher made itself (cuLaunchKernelEx, ...) from
 * the driver's.  Each call is handled at its exit, once it succeeded (a
 * failed call put nothing on a stream and allocated nothing): the pointer an
 * allocation returns is known only then.
 *
 * The handlers ask the driver about what they saw (a kernel's name and
 * parameter layout, whether a word is a device address) without the lock,
 * and with the depth raised, so that their own calls are not recorded and a
 * module loaded meanwhile (lazy loading) takes the lock freely. */
#define _POSIX_C_SOURCE 200809L /* pthread_mutexattr_settype */
#include "bench/trace/launch_recorder.h"

#include <cuda.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include "bench/candidate/cubin_elf.h"
#include "bench/core/diag.h"
#include "bench/gpu/cupti_runtime.h"
#include "bench/gpu/driver_api.h"
#include "bench/result/api_class.h"
#include "bench/result/library_kernel.h"

/* The runtime's launch attributes are the driver's, byte for byte: a
 * cudaLaunchConfig_t's are copied as a CUlaunchConfig's would be. */
_Static_assert(sizeof(cudaLaunchAttribute) == sizeof(CUlaunchAttribute), "launch attribute layouts differ");
_Static_assert(offsetof(cudaLaunchAttribute, val) == offsetof(CUlaunchAttribute, value), "attribute value offsets differ");
_Static_assert(sizeof(CUlaunchAttributeValue) == HB_REPLAY_ATTR_VALUE_BYTES, "a launch attribute value is not 64 bytes");
_Static_assert(sizeof(cudaLaunchAttributeValue) == HB_REPLAY_ATTR_VALUE_BYTES, "a launch attribute value is not 64 bytes");
_Static_assert((int)cudaLaunchAttributeCooperative == (int)CU_LAUNCH_ATTRIBUTE_COOPERATIVE, "attribute ids differ");
_Static_assert((int)cudaLaunchAttributeClusterDimension == (int)CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
               "attribute ids differ");
_Static_assert((int)cudaLaunchAttributeClusterSchedulingPolicyPreference ==
                   (int)CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, "attribute ids differ");
_Static_assert((int)cudaLaunchAttributeProgrammaticStreamSerialization ==
                   (int)CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, "attribute ids differ");
_Static_assert((int)cudaLaunchAttributePriority == (int)CU_LAUNCH_ATTRIBUTE_PRIORITY, "attribute ids differ");
_Static_assert((int)cudaLaunchAttributeMemSyncDomain == (int)CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, "attribute ids differ");
/* cudaFuncSetAttribute's attributes are recorded as cuFuncSetAttribute's. */
_Static_assert((int)cudaFuncAttributeMaxDynamicSharedMemorySize == (int)CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
               "function attribute ids differ");
_Static_assert((int)cudaFuncAttributePreferredSharedMemoryCarveout ==
                   (int)CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, "function attribute ids differ");
_Static_assert((int)cudaFuncAttributeClusterDimMustBeSet == (int)CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET,
               "function attribute ids differ");
_Static_assert((int)cudaFuncAttributeRequiredClusterWidth == (int)CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH,
               "function attribute ids differ");
_Static_assert((int)cudaFuncAttributeRequiredClusterDepth == (int)CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH,
               "function attribute ids differ");
_Static_assert((int)cudaFuncAttributeNonPortableClusterSizeAllowed ==
                   (int)CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, "function attribute ids differ");
_Static_assert((int)cudaFuncAttributeClusterSchedulingPolicyPreference ==
                   (int)CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, "function attribute ids differ");
_Static_assert(sizeof(CUtensorMap) == HB_REPLAY_MAP_BYTES, "a CUtensorMap is not 128 bytes");
_Static_assert(sizeof(CUdeviceptr) == 8, "a device pointer is not 8 bytes");

/* Attributes set on kernels, launched or not, kept until stop keeps those of
 * the kernels launched (a launcher may set one on every variant it has). */
#define MAX_PENDING_ATTRS 4096
/* Cubins loaded while recording (the launcher's, a library's): many, few kept. */
#define MAX_LOADED_MODULES 4096
#define NO_MODULE UINT32_MAX

typedef struct loaded_module {
    void *bytes;
    size_t size;
    CUmodule own;    /* the recorder's own load of it, for a runtime launch's function by name; NULL until needed */
} loaded_module;

typedef struct pending_attr {
    char *name;      /* the kernel's; NULL while only its host stub is known */
    const void *stub; /* a runtime call's host stub, named by a later launch of it (stub_names) */
    int attribute;   /* CUfunction_attribute */
    int value;
    uint64_t seq;
} pending_attr;

struct hb_launch_recorder {
    const hb_cupti_api *cupti;
    const hb_driver_api *driver;
    CUpti_SubscriberHandle subscriber;
    int subscribed, stopped;
    uint64_t given_stream;           /* the given stream, a NULL handle made the legacy stream's */
    /* Shared with the callbacks of any thread: under `lock`. */
    pthread_mutex_t lock;
    hb_replay_capture *capture;
    int call;                        /* the call in progress; -1 outside the calls */
    uint64_t seq;
    char load_work[200];             /* the first device work before the first call, "" when none */
    size_t n_loaded;
    loaded_module loaded[MAX_LOADED_MODULES];
    uint32_t loaded_of[HB_REPLAY_MAX_MODULES]; /* capture module -> loaded module */
    size_t n_pending;
    pending_attr pending[MAX_PENDING_ATTRS];
    /* Host stub -> device name, from runtime launches (CUPTI names the
     * symbol launched): what names an attribute set through a stub. */
    size_t n_stubs;
    struct {
        const void *stub;
        char *name;
    } stubs[MAX_PENDING_ATTRS];
};

static int recorder_is_open; /* one CUPTI subscriber per process */
static _Thread_local int api_depth;
static _Thread_local const char *api_symbol; /* the callback's symbolName: the launched kernel's device name */

/* --- the capture, under the lock ------------------------------------------------------------- */

/* "in call 2" (1-based, as a user counts them) or "before the first call". */
static void where(const hb_launch_recorder *r, char *out, size_t size)
{
    if (r->call >= 0)
        snprintf(out, size, "in call %d", r->call + 1);
    else
        snprintf(out, size, "before the first call");
}

static void refuse(hb_launch_recorder *r, hb_replay_refusal refusal, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void refuse(hb_launch_recorder *r, hb_replay_refusal refusal, const char *format, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, format);
    vsnprintf(what, sizeof what, format, ap);
    va_end(ap);
    char when[40];
    where(r, when, sizeof when);
    hb_capture_refuse(r->capture, refusal, "%s %s", what, when);
}

/* Device work outside the calls would be state the replay lacks (it issues
 * the calls' work only): remembered, and refused at stop unless something
 * else refused first (a library's set-up is a library's). */
static void note_load_work(hb_launch_recorder *r, const char *what)
{
    if (!r->load_work[0])
        snprintf(r->load_work, sizeof r->load_work, "%s", what);
}

/* A new operation of the current call; NULL when outside the calls (noted) or over the limit (refused). */
static hb_capture_op *new_op(hb_launch_recorder *r, hb_replay_op_kind kind, const char *what, uint32_t stream)
{
    hb_replay_capture *c = r->capture;
    if (r->call < 0) {
        note_load_work(r, what);
        return NULL;
    }
    if (c->n_ops >= HB_CAPTURE_MAX_OPS) {
        refuse(r, HB_REFUSE_LIMIT, "more than %d operations (%s)", HB_CAPTURE_MAX_OPS, what);
        return NULL;
    }
    hb_capture_op *op = &c->ops[c->n_ops++];
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->call = r->call;
    op->seq = ++r->seq;
    op->stream = stream;
    return op;
}

/* The index of a stream (canonical handle) among the capture's; -1 when over the limit (refused). */
static int stream_index(hb_launch_recorder *r, uint64_t handle)
{
    hb_replay_capture *c = r->capture;
    for (uint32_t i = 0; i < c->n_streams; i++)
        if (c->streams[i] == handle)
            return (int)i;
    if (c->n_streams >= HB_CAPTURE_MAX_STREAMS) {
        refuse(r, HB_REFUSE_LIMIT, "more than %d streams", HB_CAPTURE_MAX_STREAMS);
        return -1;
    }
    c->streams[c->n_streams] = handle;
    return (int)c->n_streams++;
}

/* The index of a kernel by name among the capture's functions; -1 when over the limit (refused). */
static int function_index(hb_launch_recorder *r, const char *name)
{
    hb_replay_capture *c = r->capture;
    for (uint32_t i = 0; i < c->n_functions; i++)
        if (!strcmp(c->functions[i].name, name))
            return (int)i;
    if (c->n_functions >= HB_REPLAY_MAX_FUNCTIONS) {
        refuse(r, HB_REFUSE_LIMIT, "more than %d distinct kernels", HB_REPLAY_MAX_FUNCTIONS);
        return -1;
    }
    hb_replay_function *f = &c->functions[c->n_functions];
    f->module = NO_MODULE;
    snprintf(f->name, sizeof f->name, "%s", name);
    return (int)c->n_functions++;
}

/* --- what the driver says ------------------------------------------------------------------- */

/* A NULL stream is the legacy default stream, or the calling thread's
 * per-thread stream for the _ptsz/_ptds entry points: the handles the
 * runtime names them by (cudaStreamLegacy, cudaStreamPerThread). */
static uint64_t canonical_stream(const void *handle, int per_thread)
{
    if (handle)
        return (uint64_t)(uintptr_t)handle;
    return per_thread ? (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD : (uint64_t)(uintptr_t)CU_STREAM_LEGACY;
}

/* Whether `word` is an address of device memory (any: the capture's or not). */
static int is_device_address(const hb_launch_recorder *r, uint64_t word)
{
    if (!word || !r->driver->pointer_get_attribute)
        return 0;
    CUdeviceptr device = 0;
    if (r->driver->pointer_get_attribute(&device, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, (CUdeviceptr)word) ==
        CUDA_SUCCESS)
        return 1;
    CUcontext context = NULL;
    return r->driver->pointer_get_attribute(&context, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)word) == CUDA_SUCCESS;
}

/* Whether a copy's end is memory on the device (else host memory, pinned or pageable). */
static int is_device_memory(const hb_launch_recorder *r, uint64_t address)
{
    if (!r->driver->pointer_get_attribute)
        return 0;
    unsigned int type = 0;
    return r->driver->pointer_get_attribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)address) ==
               CUDA_SUCCESS &&
           (type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED);
}

/* A kernel as the driver knows it: its function (a CUkernel passed as a
 * CUfunction resolved), name, and parameter layout. */
typedef struct kernel_info {
    CUfunction function;
    const char *name;
    uint32_t n_params;
    uint32_t offset[HB_REPLAY_MAX_PARAMS], size[HB_REPLAY_MAX_PARAMS];
    uint32_t bytes;      /* the parameters' extent */
    char problem[200];   /* why it cannot be recorded; "" when it can */
} kernel_info;

static int name_of(const hb_launch_recorder *r, CUfunction f, const char **name)
{
    *name = NULL;
    return r->driver->func_get_name && r->driver->func_get_name(name, f) == CUDA_SUCCESS && *name && **name;
}

static void layout_of(const hb_launch_recorder *r, kernel_info *k)
{
    for (size_t i = 0;; i++) {
        size_t offset = 0, size = 0;
        CUresult result = r->driver->func_get_param_info(k->function, i, &offset, &size);
        if (result == CUDA_ERROR_INVALID_VALUE) /* past the last parameter */
            return;
        if (result != CUDA_SUCCESS) {
            snprintf(k->problem, sizeof k->problem, "cuFuncGetParamInfo(%.60s, %zu) failed: CUresult %d", k->name, i,
                     (int)result);
            return;
        }
        if (i >= HB_REPLAY_MAX_PARAMS || offset + size > HB_REPLAY_MAX_PARAM_BYTES) {
            snprintf(k->problem, sizeof k->problem, "kernel %.60s has more than %d parameters or %d parameter bytes",
                     k->name, HB_REPLAY_MAX_PARAMS, HB_REPLAY_MAX_PARAM_BYTES);
            return;
        }
        k->offset[i] = (uint32_t)offset;
        k->size[i] = (uint32_t)size;
        k->n_params = (uint32_t)i + 1;
        if (offset + size > k->bytes)
            k->bytes = (uint32_t)(offset + size);
    }
}

/* `f` from a driver launch: a CUfunction, or (CUDA 12) a CUkernel passed as one. */
static void kernel_of_driver(const hb_launch_recorder *r, CUfunction f, kernel_info *k)
{
    memset(k, 0, sizeof *k);
    k->function = f;
    if (!name_of(r, f, &k->name)) {
        CUfunction resolved = NULL;
        if (r->driver->kernel_get_function && r->driver->kernel_get_function(&resolved, (CUkernel)f) == CUDA_SUCCESS &&
            resolved && name_of(r, resolved, &k->name))
            k->function = resolved;
    }
    if (!k->name) {
        snprintf(k->problem, sizeof k->problem, "a launched kernel has no name: cuFuncGetName %s",
                 r->driver->func_get_name ? "failed on it and on cuKernelGetFunction's" : "is missing (driver < 12.3)");
        return;
    }
    if (!r->driver->func_get_param_info) {
        snprintf(k->problem, sizeof k->problem, "the driver has no cuFuncGetParamInfo (CUDA 12.4 or later has it)");
        return;
    }
    layout_of(r, k);
}

/* A function by its device name from the cubins CUPTI gave: the recorder
 * loads the module that defines it itself.  A runtime launch's host stub
 * cannot always be turned into its function (cudaGetFuncBySymbol answers
 * cudaErrorInvalidDeviceFunction from inside the runtime's own callback, as
 * seen on CUDA 13), but CUPTI names the symbol launched. */
static CUfunction function_by_name(hb_launch_recorder *r, const char *name)
{
    if (!name || !r->driver->module_load_data || !r->driver->module_get_function)
        return NULL;
    for (size_t i = 0; i < r->n_loaded; i++) {
        loaded_module *m = &r->loaded[i];
        int defines = 0;
        if (hb_cubin_defines_function(m->bytes, m->size, "a loaded module", name, &defines) != HB_OK || !defines)
            continue;
        if (!m->own && r->driver->module_load_data(&m->own, m->bytes) != CUDA_SUCCESS) {
            m->own = NULL;
            continue;
        }
        CUfunction f = NULL;
        if (r->driver->module_get_function(&f, m->own, name) == CUDA_SUCCESS && f)
            return f;
    }
    return NULL;
}

/* A runtime launch's host stub (its device name: api_symbol). */
static void kernel_of_runtime(hb_launch_recorder *r, const void *stub, kernel_info *k)
{
    cudaFunction_t f = NULL;
    cudaError_t err = cudaGetFuncBySymbol(&f, stub);
    if (err != cudaSuccess || !f) {
        (void)cudaGetLastError(); /* the recorder's failure, not the launcher's left error */
        CUfunction by_name = function_by_name(r, api_symbol);
        if (by_name) {
            kernel_of_driver(r, by_name, k);
            return;
        }
        memset(k, 0, sizeof *k);
        snprintf(k->problem, sizeof k->problem, "cudaGetFuncBySymbol of a launched kernel failed (%s) and no "
                 "captured module defines %.60s", cudaGetErrorName(err), api_symbol ? api_symbol : "its symbol");
        return;
    }
    kernel_of_driver(r, (CUfunction)f, k);
}

/* The parameter bytes: from kernelParams/args (one pointer per parameter),
 * or from `extra`'s CU_LAUNCH_PARAM_BUFFER_POINTER and _SIZE. */
static int copy_params(const kernel_info *k, void **params, void **extra, hb_replay_kernel *out, char *problem,
                       size_t size)
{
    out->n_params = k->n_params;
    out->param_bytes = k->bytes;
    memcpy(out->param_offset, k->offset, k->n_params * sizeof k->offset[0]);
    memcpy(out->param_size, k->size, k->n_params * sizeof k->size[0]);
    if (k->n_params == 0)
        return 1;
    if (params) {
        for (uint32_t i = 0; i < k->n_params; i++)
            memcpy(out->params + k->offset[i], params[i], k->size[i]);
        return 1;
    }
    const void *buffer = NULL;
    size_t bytes = 0;
    for (size_t i = 0; extra && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            buffer = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
            bytes = *(const size_t *)extra[i + 1];
        else {
            snprintf(problem, size, "kernel %.60s launched with an `extra` entry %p the recorder does not know", k->name,
                     extra[i]);
            return 0;
        }
    }
    if (!buffer || bytes < k->bytes || bytes > HB_REPLAY_MAX_PARAM_BYTES) {
        snprintf(problem, size, "kernel %.60s launched with %zu parameter bytes through `extra` (its layout: %u)",
                 k->name, bytes, k->bytes);
        return 0;
    }
    memcpy(out->params, buffer, k->bytes);
    return 1;
}

/* Each 8-aligned parameter word the driver takes for a device address. */
static void mark_device_words(const hb_launch_recorder *r, const hb_replay_kernel *kernel, uint64_t *words)
{
    for (uint32_t at = 0; at + 8 <= kernel->param_bytes; at += 8) {
        uint64_t word;
        memcpy(&word, kernel->params + at, sizeof word);
        if (is_device_address(r, word))
            words[at / 8 / 64] |= 1ull << (at / 8 % 64);
    }
}

/* --- kernels ---------------------------------------------------------------------------------- */

typedef struct launch {
    const char *api;         /* for messages */
    uint32_t grid[3], block[3];
    size_t smem;
    uint64_t stream;         /* canonical */
    const void *attrs;       /* CUlaunchAttribute or cudaLaunchAttribute (the same layout) */
    unsigned n_attrs;
    int cooperative;
    void **params, **extra;
} launch;

static void record_kernel(hb_launch_recorder *r, const kernel_info *k, const launch *l)
{
    static _Thread_local hb_replay_kernel kernel; /* 20 KB: off the stack of a thread we do not own */
    static _Thread_local uint64_t words[HB_REPLAY_MAX_PARAM_BYTES / 8 / 64];
    memset(&kernel, 0, sizeof kernel);
    memset(words, 0, sizeof words);
    char problem[200] = "";
    int ok = !k->problem[0];
    if (ok)
        ok = copy_params(k, l->params, l->extra, &kernel, problem, sizeof problem);
    if (ok)
        mark_device_words(r, &kernel, words);
    pthread_mutex_lock(&r->lock);
    if (!ok) {
        refuse(r, HB_REFUSE_UNSUPPORTED, "%s", k->problem[0] ? k->problem : problem);
        pthread_mutex_unlock(&r->lock);
        return;
    }
    const char *family = hb_library_family(k->name);
    if (family)
        refuse(r, HB_REFUSE_LIBRARY, "kernel %.80s is the library's (%s), launched", k->name, family);
    const int stream = stream_index(r, l->stream);
    const int function = function_index(r, k->name);
    const unsigned n_attrs = l->n_attrs + (l->cooperative ? 1u : 0u);
    if (n_attrs > HB_REPLAY_MAX_ATTRS)
        refuse(r, HB_REFUSE_LIMIT, "%s of %.60s with %u launch attributes (at most %d)", l->api, k->name, n_attrs,
               HB_REPLAY_MAX_ATTRS);
    char what[120];
    snprintf(what, sizeof what, "%s of kernel %.60s", l->api, k->name);
    hb_capture_op *op = stream >= 0 && function >= 0 && n_attrs <= HB_REPLAY_MAX_ATTRS
                            ? new_op(r, HB_OP_KERNEL, what, (uint32_t)stream)
                            : NULL;
    if (op) {
        kernel.function = (uint32_t)function;
        memcpy(kernel.grid, l->grid, sizeof kernel.grid);
        memcpy(kernel.block, l->block, sizeof kernel.block);
        kernel.smem = (uint32_t)l->smem;
        const CUlaunchAttribute *attrs = l->attrs;
        for (unsigned i = 0; i < l->n_attrs; i++) {
            kernel.attrs[i].id = (uint32_t)attrs[i].id;
            memcpy(kernel.attrs[i].value, &attrs[i].value, HB_REPLAY_ATTR_VALUE_BYTES);
        }
        kernel.n_attrs = l->n_attrs;
        if (l->cooperative) {
            hb_replay_attr *a = &kernel.attrs[kernel.n_attrs++];
            a->id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
            const int one = 1;
            memcpy(a->value, &one, sizeof one);
        }
        op->kernel = kernel;
        memcpy(op->device_words, words, sizeof words);
    }
    pthread_mutex_unlock(&r->lock);
}

/* --- memsets, copies, allocations --------------------------------------------------------------- */

static void record_memset(hb_launch_recorder *r, const char *api, uint64_t dst, uint32_t value, uint32_t element_bytes,
                          uint64_t count, uint64_t stream)
{
    pthread_mutex_lock(&r->lock);
    const int index = stream_index(r, stream);
    hb_capture_op *op = index >= 0 ? new_op(r, HB_OP_MEMSET, api, (uint32_t)index) : NULL;
    if (op) {
        op->dst = dst;
        op->value = value;
        op->element_bytes = element_bytes;
        op->bytes = count;
    }
    pthread_mutex_unlock(&r->lock);
}

/* A copy between any two addresses: to the host is a host read; from the
 * host, work the replay cannot issue; device to device, an operation. */
static void record_copy(hb_launch_recorder *r, const char *api, uint64_t dst, uint64_t src, uint64_t bytes,
                        uint64_t stream)
{
    const int to_device = is_device_memory(r, dst), from_device = is_device_memory(r, src);
    pthread_mutex_lock(&r->lock);
    if (!to_device) {
        if (r->call >= 0)
            refuse(r, HB_REFUSE_HOST_READ, "%s %s-to-host", api, from_device ? "device" : "host");
    } else if (!from_device) {
        if (r->call >= 0)
            refuse(r, HB_REFUSE_UNSUPPORTED, "%s host-to-device (the replay issues no copy from the host)", api);
        else
            note_load_work(r, api);
    } else {
        const int index = stream_index(r, stream);
        hb_capture_op *op = index >= 0 ? new_op(r, HB_OP_COPY, api, (uint32_t)index) : NULL;
        if (op) {
            op->dst = dst;
            op->src = src;
            op->bytes = bytes;
        }
    }
    pthread_mutex_unlock(&r->lock);
}

/* A copy whose kind the call states (cudaMemcpyKind): the destination decides a host read. */
static void record_runtime_copy(hb_launch_recorder *r, const char *api, void *dst, const void *src, size_t bytes,
                                enum cudaMemcpyKind kind, uint64_t stream)
{
    if (kind == cudaMemcpyDefault) {
        record_copy(r, api, (uint64_t)(uintptr_t)dst, (uint64_t)(uintptr_t)src, bytes, stream);
        return;
    }
    pthread_mutex_lock(&r->lock);
    if (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyHostToHost) {
        if (r->call >= 0)
            refuse(r, kind == cudaMemcpyDeviceToHost ? HB_REFUSE_HOST_READ : HB_REFUSE_UNSUPPORTED, "%s %s", api,
                   kind == cudaMemcpyDeviceToHost ? "device-to-host" : "host-to-host");
    } else if (kind == cudaMemcpyHostToDevice) {
        if (r->call >= 0)
            refuse(r, HB_REFUSE_UNSUPPORTED, "%s host-to-device (the replay issues no copy from the host)", api);
        else
            note_load_work(r, api);
    } else {
        const int index = stream_index(r, stream);
        hb_capture_op *op = index >= 0 ? new_op(r, HB_OP_COPY, api, (uint32_t)index) : NULL;
        if (op) {
            op->dst = (uint64_t)(uintptr_t)dst;
            op->src = (uint64_t)(uintptr_t)src;
            op->bytes = bytes;
        }
    }
    pthread_mutex_unlock(&r->lock);
}

static void record_alloc(hb_launch_recorder *r, const char *api, uint64_t base, uint64_t bytes)
{
    pthread_mutex_lock(&r->lock);
    hb_replay_capture *c = r->capture;
    if (c->n_allocs >= HB_CAPTURE_MAX_ALLOCS) {
        refuse(r, HB_REFUSE_LIMIT, "more than %d allocations (%s)", HB_CAPTURE_MAX_ALLOCS, api);
    } else {
        c->allocs[c->n_allocs++] = (hb_capture_alloc){.base = base, .bytes = bytes, .call = r->call, .seq = ++r->seq};
    }
    pthread_mutex_unlock(&r->lock);
}

/* The live allocation at `base` is freed (a free of anything else is not the launcher's allocation: ignored). */
static void record_free(hb_launch_recorder *r, uint64_t base)
{
    if (!base)
        return;
    pthread_mutex_lock(&r->lock);
    hb_replay_capture *c = r->capture;
    for (size_t i = c->n_allocs; i-- > 0;)
        if (c->allocs[i].base == base && !c->allocs[i].freed_seq) {
            c->allocs[i].freed_seq = ++r->seq;
            break;
        }
    pthread_mutex_unlock(&r->lock);
}

/* An autotuning first call sets the same attribute on the same kernel again
 * and again: one pending entry per kernel (or stub) and attribute, the last
 * value set.  Under the lock; 0 when over the limit. */
static int add_pending(hb_launch_recorder *r, char *name, const void *stub, int attribute, int value)
{
    for (size_t i = 0; i < r->n_pending; i++) {
        pending_attr *a = &r->pending[i];
        const int same = name ? a->name && !strcmp(a->name, name) : !a->name && a->stub == stub;
        if (same && a->attribute == attribute) {
            a->value = value;
            a->seq = ++r->seq;
            free(name);
            return 1;
        }
    }
    if (r->n_pending >= MAX_PENDING_ATTRS) {
        free(name);
        return 0;
    }
    r->pending[r->n_pending++] = (pending_attr){name, stub, attribute, value, ++r->seq};
    return 1;
}

static void record_attribute(hb_launch_recorder *r, const kernel_info *k, int attribute, int value)
{
    pthread_mutex_lock(&r->lock);
    if (!k->name) {
        refuse(r, HB_REFUSE_UNSUPPORTED, "%s", k->problem);
    } else {
        char *name = strdup(k->name);
        if (!name)
            refuse(r, HB_REFUSE_FAILED, "out of host memory recording a kernel attribute");
        else if (!add_pending(r, name, NULL, attribute, value))
            refuse(r, HB_REFUSE_LIMIT, "more than %d kernel attributes set", MAX_PENDING_ATTRS);
    }
    pthread_mutex_unlock(&r->lock);
}

/* CuTe launchers encode their descriptors at every call, and an autotuning
 * first call hundreds of times: the same encoding (arguments, bytes and
 * address) is kept once, at its latest sequence. */
static void forget_repeated_map(hb_replay_capture *c)
{
    const hb_capture_map *last = &c->maps[c->n_maps - 1];
    for (size_t i = 0; i + 1 < c->n_maps; i++)
        if (c->maps[i].address == last->address && !memcmp(&c->maps[i].map, &last->map, sizeof last->map)) {
            c->maps[i].seq = last->seq;
            c->n_maps--;
            return;
        }
}

static void record_tensor_map(hb_launch_recorder *r, const cuTensorMapEncodeTiled_params *p)
{
    pthread_mutex_lock(&r->lock);
    hb_replay_capture *c = r->capture;
    if (p->tensorRank < 1 || p->tensorRank > 5) {
        refuse(r, HB_REFUSE_UNSUPPORTED, "cuTensorMapEncodeTiled of rank %u", (unsigned)p->tensorRank);
    } else if (c->n_maps >= HB_CAPTURE_MAX_MAPS) {
        refuse(r, HB_REFUSE_LIMIT, "more than %d TMA descriptors encoded", HB_CAPTURE_MAX_MAPS);
    } else {
        hb_capture_map *m = &c->maps[c->n_maps++];
        memset(m, 0, sizeof *m);
        const uint32_t rank = p->tensorRank;
        m->map.data_type = (uint32_t)p->tensorDataType;
        m->map.rank = rank;
        for (uint32_t i = 0; i < rank; i++) {
            m->map.dims[i] = p->globalDim[i];
            m->map.box[i] = p->boxDim[i];
            m->map.element_strides[i] = p->elementStrides[i];
            if (i + 1 < rank)
                m->map.strides[i] = p->globalStrides[i];
        }
        m->map.interleave = (uint32_t)p->interleave;
        m->map.swizzle = (uint32_t)p->swizzle;
        m->map.l2_promotion = (uint32_t)p->l2Promotion;
        m->map.oob_fill = (uint32_t)p->oobFill;
        memcpy(m->map.bytes, p->tensorMap, HB_REPLAY_MAP_BYTES);
        m->address = (uint64_t)(uintptr_t)p->globalAddress;
        m->seq = ++r->seq;
        forget_repeated_map(c);
    }
    pthread_mutex_unlock(&r->lock);
}

/* Device work the replay has no operation for: refused in a call, noted before. */
static void unsupported_work(hb_launch_recorder *r, const char *api)
{
    char name[96];
    hb_api_display_name(api, name, sizeof name);
    pthread_mutex_lock(&r->lock);
    if (r->call >= 0)
        refuse(r, HB_REFUSE_UNSUPPORTED, "%s (an operation the replay cannot issue)", name);
    else
        note_load_work(r, name);
    pthread_mutex_unlock(&r->lock);
}

/* Calls by their name's family that put work on a stream: any the handlers below do not take. */
static int is_device_work(const char *name)
{
    static const char *const prefixes[] = {"cudaMemcpy", "cudaMemset",   "cudaLaunch",         "cudaGraphLaunch",
                                           "cudaStreamAddCallback",      "cuMemcpy",           "cuMemset",
                                           "cuLaunch",   "cuGraphLaunch", "cuStreamAddCallback", "cuTensorMapEncode"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
            return 1;
    return 0;
}

/* --- the runtime's calls ------------------------------------------------------------------------ */

/* A runtime launch's stub and the device name CUPTI gave it. */
static void note_stub(hb_launch_recorder *r, const void *stub)
{
    if (!api_symbol)
        return;
    pthread_mutex_lock(&r->lock);
    size_t i = 0;
    while (i < r->n_stubs && r->stubs[i].stub != stub)
        i++;
    if (i == r->n_stubs && i < MAX_PENDING_ATTRS && (r->stubs[i].name = strdup(api_symbol)) != NULL) {
        r->stubs[i].stub = stub;
        r->n_stubs++;
    }
    pthread_mutex_unlock(&r->lock);
}

static const char *stub_name(const hb_launch_recorder *r, const void *stub)
{
    for (size_t i = 0; i < r->n_stubs; i++)
        if (r->stubs[i].stub == stub)
            return r->stubs[i].name;
    return NULL;
}

static void runtime_launch(hb_launch_recorder *r, const char *api, const void *stub, dim3 grid, dim3 block,
                           size_t smem, cudaStream_t stream, int per_thread, void **args, int cooperative)
{
    kernel_info k;
    kernel_of_runtime(r, stub, &k);
    note_stub(r, stub);
    launch l = {.api = api, .grid = {grid.x, grid.y, grid.z}, .block = {block.x, block.y, block.z}, .smem = smem,
                .stream = canonical_stream(stream, per_thread), .cooperative = cooperative, .params = args};
    record_kernel(r, &k, &l);
}

static void runtime_launch_ex(hb_launch_recorder *r, const cudaLaunchKernelExC_v11060_params *p, int per_thread)
{
    kernel_info k;
    kernel_of_runtime(r, p->func, &k);
    note_stub(r, p->func);
    const cudaLaunchConfig_t *c = p->config;
    launch l = {.api = "cudaLaunchKernelEx", .grid = {c->gridDim.x, c->gridDim.y, c->gridDim.z},
                .block = {c->blockDim.x, c->blockDim.y, c->blockDim.z}, .smem = c->dynamicSmemBytes,
                .stream = canonical_stream(c->stream, per_thread), .attrs = c->attrs, .n_attrs = c->numAttrs,
                .params = p->args};
    record_kernel(r, &k, &l);
}

static void runtime_attribute(hb_launch_recorder *r, const cudaFuncSetAttribute_v9000_params *p)
{
    cudaFunction_t f = NULL;
    kernel_info k;
    if (cudaGetFuncBySymbol(&f, p->func) == cudaSuccess && f) {
        kernel_of_driver(r, (CUfunction)f, &k);
        record_attribute(r, &k, (int)p->attr, p->value);
        return;
    }
    (void)cudaGetLastError(); /* named at stop by a launch of the same stub (stub_names) */
    pthread_mutex_lock(&r->lock);
    if (!add_pending(r, NULL, p->func, (int)p->attr, p->value))
        refuse(r, HB_REFUSE_LIMIT, "more than %d kernel attributes set", MAX_PENDING_ATTRS);
    pthread_mutex_unlock(&r->lock);
}

/* 1 when the runtime call was one of those recorded here. */
static int on_runtime(hb_launch_recorder *r, CUpti_CallbackId cbid, const void *params)
{
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000: {
        /* the four share one layout (generated_cuda_runtime_api_meta.h) */
        const cudaLaunchKernel_v7000_params *p = params;
        const int cooperative = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000 ||
                                cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000;
        const int per_thread = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000 ||
                               cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000;
        runtime_launch(r, cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel", p->func, p->gridDim,
                       p->blockDim, p->sharedMem, p->stream, per_thread, p->args, cooperative);
        return 1;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
        runtime_launch_ex(r, params, cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060);
        return 1;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000: {
        const cudaMemset_v3020_params *p = params;
        record_memset(r, "cudaMemset", (uint64_t)(uintptr_t)p->devPtr, (uint8_t)p->value, 1, p->count,
                      canonical_stream(NULL, cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000));
        return 1;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000: {
        const cudaMemsetAsync_v3020_params *p = params;
        record_memset(r, "cudaMemsetAsync", (uint64_t)(uintptr_t)p->devPtr, (uint8_t)p->value, 1, p->count,
                      canonical_stream(p->stream, cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000));
        return 1;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000: {
        const cudaMemcpy_v3020_params *p = params;
        record_runtime_copy(r, "cudaMemcpy", p->dst, p->src, p->count, p->kind,
                            canonical_stream(NULL, cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000));
        return 1;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000: {
        const cudaMemcpyAsync_v3020_params *p = params;
        record_runtime_copy(r, "cudaMemcpyAsync", p->dst, p->src, p->count, p->kind,
                            canonical_stream(p->stream, cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000));
        return 1;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020: {
        const cudaMalloc_v3020_params *p = params;
        record_alloc(r, "cudaMalloc", (uint64_t)(uintptr_t)*p->devPtr, p->size);
        return 1;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_ptsz_v11020: {
        const cudaMallocAsync_v11020_params *p = params;
        record_alloc(r, "cudaMallocAsync", (uint64_t)(uintptr_t)*p->devPtr, p->size);
        return 1;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_v11020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_ptsz_v11020: {
        const cudaMallocFromPoolAsync_v11020_params *p = params;
        record_alloc(r, "cudaMallocFromPoolAsync", (uint64_t)(uintptr_t)*p->ptr, p->size);
        return 1;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020:
        record_free(r, (uint64_t)(uintptr_t)((const cudaFree_v3020_params *)params)->devPtr);
        return 1;
    case CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020:
        record_free(r, (uint64_t)(uintptr_t)((const cudaFreeAsync_v11020_params *)params)->devPtr);
        return 1;
    case CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetAttribute_v9000:
        runtime_attribute(r, params);
        return 1;
    default:
        return 0;
    }
}

/* --- the driver's calls ------------------------------------------------------------------------- */

static void driver_launch(hb_launch_recorder *r, const char *api, CUfunction f, const unsigned *grid,
                          const unsigned *block, unsigned smem, CUstream stream, int per_thread, void **params,
                          void **extra, int cooperative)
{
    kernel_info k;
    kernel_of_driver(r, f, &k);
    launch l = {.api = api, .grid = {grid[0], grid[1], grid[2]}, .block = {block[0], block[1], block[2]},
                .smem = smem, .stream = canonical_stream(stream, per_thread), .cooperative = cooperative,
                .params = params, .extra = extra};
    record_kernel(r, &k, &l);
}

static void driver_launch_ex(hb_launch_recorder *r, const cuLaunchKernelEx_params *p, int per_thread)
{
    kernel_info k;
    kernel_of_driver(r, p->f, &k);
    const CUlaunchConfig *c = p->config;
    launch l = {.api = "cuLaunchKernelEx", .grid = {c->gridDimX, c->gridDimY, c->gridDimZ},
                .block = {c->blockDimX, c->blockDimY, c->blockDimZ}, .smem = c->sharedMemBytes,
                .stream = canonical_stream(c->hStream, per_thread), .attrs = c->attrs, .n_attrs = c->numAttrs,
                .params = p->kernelParams, .extra = p->extra};
    record_kernel(r, &k, &l);
}

static void kernel_attribute(hb_launch_recorder *r, const cuKernelSetAttribute_params *p)
{
    kernel_info k;
    kernel_of_driver(r, (CUfunction)p->kernel, &k);
    record_attribute(r, &k, (int)p->attrib, p->val);
}

static void function_attribute(hb_launch_recorder *r, const cuFuncSetAttribute_params *p)
{
    kernel_info k;
    kernel_of_driver(r, p->hfunc, &k);
    record_attribute(r, &k, (int)p->attrib, p->value);
}

/* The memsets, by element size; the _ptds and _ptsz variants have the same layouts. */
static int on_driver_memset(hb_launch_recorder *r, CUpti_CallbackId cbid, const void *params)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds: {
        const cuMemsetD8_v2_params *p = params;
        record_memset(r, "cuMemsetD8", p->dstDevice, p->uc, 1, p->N,
                      canonical_stream(NULL, cbid == CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds));
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds: {
        const cuMemsetD16_v2_params *p = params;
        record_memset(r, "cuMemsetD16", p->dstDevice, p->us, 2, p->N,
                      canonical_stream(NULL, cbid == CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds));
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds: {
        const cuMemsetD32_v2_params *p = params;
        record_memset(r, "cuMemsetD32", p->dstDevice, p->ui, 4, p->N,
                      canonical_stream(NULL, cbid == CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds));
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz: {
        const cuMemsetD8Async_params *p = params;
        record_memset(r, "cuMemsetD8Async", p->dstDevice, p->uc, 1, p->N,
                      canonical_stream(p->hStream, cbid == CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz));
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz: {
        const cuMemsetD16Async_params *p = params;
        record_memset(r, "cuMemsetD16Async", p->dstDevice, p->us, 2, p->N,
                      canonical_stream(p->hStream, cbid == CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz));
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async:
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz: {
        const cuMemsetD32Async_params *p = params;
        record_memset(r, "cuMemsetD32Async", p->dstDevice, p->ui, 4, p->N,
                      canonical_stream(p->hStream, cbid == CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz));
        return 1;
    }
    default:
        return 0;
    }
}

static int on_driver_copy(hb_launch_recorder *r, CUpti_CallbackId cbid, const void *params)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds: {
        const cuMemcpyDtoD_v2_params *p = params;
        record_copy(r, "cuMemcpyDtoD", p->dstDevice, p->srcDevice, p->ByteCount,
                    canonical_stream(NULL, cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds));
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz: {
        const cuMemcpyDtoDAsync_v2_params *p = params;
        record_copy(r, "cuMemcpyDtoDAsync", p->dstDevice, p->srcDevice, p->ByteCount,
                    canonical_stream(p->hStream, cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz));
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpy:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds: {
        const cuMemcpy_params *p = params;
        record_copy(r, "cuMemcpy", p->dst, p->src, p->ByteCount,
                    canonical_stream(NULL, cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds));
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz: {
        const cuMemcpyAsync_params *p = params;
        record_copy(r, "cuMemcpyAsync", p->dst, p->src, p->ByteCount,
                    canonical_stream(p->hStream, cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz));
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz:
        pthread_mutex_lock(&r->lock);
        if (r->call >= 0)
            refuse(r, HB_REFUSE_HOST_READ, "cuMemcpyDtoH device-to-host");
        pthread_mutex_unlock(&r->lock);
        return 1;
    default:
        return 0;
    }
}

static int on_driver_memory(hb_launch_recorder *r, CUpti_CallbackId cbid, const void *params)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2: {
        const cuMemAlloc_v2_params *p = params;
        record_alloc(r, "cuMemAlloc", *p->dptr, p->bytesize);
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz: {
        const cuMemAllocAsync_params *p = params;
        record_alloc(r, "cuMemAllocAsync", *p->dptr, p->bytesize);
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz: {
        const cuMemAllocFromPoolAsync_params *p = params;
        record_alloc(r, "cuMemAllocFromPoolAsync", *p->dptr, p->bytesize);
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2:
        record_free(r, ((const cuMemFree_v2_params *)params)->dptr);
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz:
        record_free(r, ((const cuMemFreeAsync_params *)params)->dptr);
        return 1;
    default:
        return 0;
    }
}

static int on_driver_launch(hb_launch_recorder *r, CUpti_CallbackId cbid, const void *params)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
        const cuLaunchKernel_params *p = params;
        const unsigned grid[3] = {p->gridDimX, p->gridDimY, p->gridDimZ};
        const unsigned block[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};
        driver_launch(r, "cuLaunchKernel", p->f, grid, block, p->sharedMemBytes, p->hStream,
                      cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, p->kernelParams, p->extra, 0);
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
        const cuLaunchCooperativeKernel_params *p = params;
        const unsigned grid[3] = {p->gridDimX, p->gridDimY, p->gridDimZ};
        const unsigned block[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};
        driver_launch(r, "cuLaunchCooperativeKernel", p->f, grid, block, p->sharedMemBytes, p->hStream,
                      cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz, p->kernelParams, NULL, 1);
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        driver_launch_ex(r, params, cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz);
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute:
        function_attribute(r, params);
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuKernelSetAttribute:
        kernel_attribute(r, params);
        return 1;
    case CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled:
        record_tensor_map(r, params);
        return 1;
    default:
        return 0;
    }
}

static int on_driver(hb_launch_recorder *r, CUpti_CallbackId cbid, const void *params)
{
    return on_driver_launch(r, cbid, params) || on_driver_memset(r, cbid, params) ||
           on_driver_copy(r, cbid, params) || on_driver_memory(r, cbid, params);
}

/* --- modules ------------------------------------------------------------------------------------- */

/* A cubin loaded: kept once by content (a module loaded again is the same). */
static void on_module(hb_launch_recorder *r, const CUpti_ResourceData *data)
{
    const CUpti_ModuleResourceData *module = data ? data->resourceDescriptor : NULL;
    if (!module || !module->pCubin || !module->cubinSize)
        return;
    pthread_mutex_lock(&r->lock);
    int known = 0;
    for (size_t i = 0; i < r->n_loaded && !known; i++)
        known = r->loaded[i].size == module->cubinSize && !memcmp(r->loaded[i].bytes, module->pCubin, module->cubinSize);
    void *copy = NULL;
    if (!known && r->n_loaded < MAX_LOADED_MODULES && (copy = malloc(module->cubinSize)) != NULL) {
        memcpy(copy, module->pCubin, module->cubinSize);
        r->loaded[r->n_loaded++] = (loaded_module){copy, module->cubinSize, NULL};
    } else if (!known) {
        refuse(r, HB_REFUSE_LIMIT, "a module of %zu bytes loaded that the recorder could not keep (%zu kept)",
               module->cubinSize, r->n_loaded);
    }
    pthread_mutex_unlock(&r->lock);
}

/* --- the callback -------------------------------------------------------------------------------- */

static int call_succeeded(CUpti_CallbackDomain domain, const CUpti_CallbackData *cb)
{
    if (!cb->functionReturnValue)
        return 1;
    return domain == CUPTI_CB_DOMAIN_RUNTIME_API ? *(const cudaError_t *)cb->functionReturnValue == cudaSuccess
                                                 : *(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS;
}

static void handle_call(hb_launch_recorder *r, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                        const CUpti_CallbackData *cb)
{
    const int handled = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? on_runtime(r, cbid, cb->functionParams)
                                                              : on_driver(r, cbid, cb->functionParams);
    if (!handled && cb->functionName && is_device_work(cb->functionName))
        unsupported_work(r, cb->functionName);
}

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
    hb_launch_recorder *r = userdata;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED)
            on_module(r, data);
        return;
    }
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API)
        return;
    const CUpti_CallbackData *cb = data;
    if (cb->callbackSite == CUPTI_API_ENTER) {
        api_depth++;
        return;
    }
    if (api_depth == 0) /* entered before the subscription */
        return;
    if (--api_depth > 0) /* inside another call: recorded as that call */
        return;
    if (!call_succeeded(domain, cb))
        return;
    api_depth++; /* the handler's own CUDA calls are not the launcher's */
    api_symbol = cb->symbolName;
    handle_call(r, domain, cbid, cb);
    api_symbol = NULL;
    api_depth--;
}

/* --- opening ------------------------------------------------------------------------------------- */

static hb_status subscribe(hb_launch_recorder *r)
{
    CUptiResult result = r->cupti->subscribe(&r->subscriber, on_callback, r);
    if (result != CUPTI_SUCCESS)
        return hb_fail(HB_ERR_UNSUPPORTED, "the launch recorder's cuptiSubscribe failed: %s (another CUPTI client in "
                       "this process: nsys, ncu, compute-sanitizer?)", hb_cupti_result_name(r->cupti, result));
    r->subscribed = 1;
    HB_CUPTI_TRY(r->cupti, r->cupti->enable_domain(1, r->subscriber, CUPTI_CB_DOMAIN_RUNTIME_API));
    HB_CUPTI_TRY(r->cupti, r->cupti->enable_domain(1, r->subscriber, CUPTI_CB_DOMAIN_DRIVER_API));
    HB_CUPTI_TRY(r->cupti, r->cupti->enable_callback(1, r->subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                                     CUPTI_CBID_RESOURCE_MODULE_LOADED));
    return HB_OK;
}

hb_status hb_recorder_open(hb_replay_capture *capture, cudaStream_t given_stream, hb_launch_recorder **out)
{
    *out = NULL;
    char why[2048];
    const hb_cupti_api *cupti = hb_cupti_load(why, sizeof why);
    if (!cupti)
        return hb_fail(HB_ERR_UNSUPPORTED, "the launch recorder needs CUPTI: %s", why);
    if (recorder_is_open)
        return hb_fail(HB_ERR_INTERNAL, "a launch recorder is already open: CUPTI serves one subscriber per process");
    const hb_driver_api *driver;
    HB_TRY(hb_driver_api_get(&driver));
    if (!driver->func_get_name || !driver->func_get_param_info || !driver->pointer_get_attribute)
        return hb_fail(HB_ERR_UNSUPPORTED, "the launch recorder needs cuFuncGetName, cuFuncGetParamInfo and "
                       "cuPointerGetAttribute: a driver for CUDA 12.4 or later");
    hb_launch_recorder *r = calloc(1, sizeof *r);
    if (!r)
        return hb_fail(HB_ERR_INTERNAL, "out of memory for the launch recorder");
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_RECURSIVE); /* a module may load inside a handler */
    pthread_mutex_init(&r->lock, &attributes);
    pthread_mutexattr_destroy(&attributes);
    r->cupti = cupti;
    r->driver = driver;
    r->capture = capture;
    r->call = -1;
    r->given_stream = canonical_stream(given_stream, 0);
    capture->n_streams = 1;
    capture->streams[0] = r->given_stream;
    recorder_is_open = 1;
    hb_status status = subscribe(r);
    if (status != HB_OK) {
        hb_recorder_close(r);
        return status;
    }
    *out = r;
    return HB_OK;
}

void hb_recorder_call_begin(hb_launch_recorder *recorder, int index)
{
    pthread_mutex_lock(&recorder->lock);
    recorder->call = index;
    if (index + 1 > recorder->capture->calls)
        recorder->capture->calls = index + 1;
    pthread_mutex_unlock(&recorder->lock);
}

void hb_recorder_call_end(hb_launch_recorder *recorder)
{
    pthread_mutex_lock(&recorder->lock);
    recorder->call = -1;
    pthread_mutex_unlock(&recorder->lock);
}

/* --- stopping: each kernel's module and attributes -------------------------------------------------- */

/* The loaded module that defines `name`; NO_MODULE when none does. */
static uint32_t defining_module(const hb_launch_recorder *r, const char *name)
{
    for (size_t i = 0; i < r->n_loaded; i++) {
        int defines = 0;
        char label[64];
        snprintf(label, sizeof label, "module %zu as CUPTI gave it", i);
        int quiet = hb_diag_is_quiet();
        hb_diag_set_quiet(1); /* a fatbin or another non-ELF image is not the one: passed over */
        hb_status status = hb_cubin_defines_function(r->loaded[i].bytes, r->loaded[i].size, label, name, &defines);
        hb_diag_set_quiet(quiet);
        if (status == HB_OK && defines)
            return (uint32_t)i;
    }
    return NO_MODULE;
}

/* The capture's module for loaded module `loaded`, added as module-<i>.cubin when new; -1 over the limit. */
static int capture_module(hb_launch_recorder *r, uint32_t loaded)
{
    hb_replay_capture *c = r->capture;
    for (uint32_t i = 0; i < c->n_modules; i++)
        if (r->loaded_of[i] == loaded)
            return (int)i;
    if (c->n_modules >= HB_REPLAY_MAX_MODULES) {
        hb_capture_refuse(c, HB_REFUSE_LIMIT, "its kernels come from more than %d modules", HB_REPLAY_MAX_MODULES);
        return -1;
    }
    hb_replay_module *m = &c->modules[c->n_modules];
    memset(m, 0, sizeof *m);
    snprintf(m->file, sizeof m->file, "module-%u.cubin", (unsigned)c->n_modules);
    m->bytes = r->loaded[loaded].size;
    r->loaded_of[c->n_modules] = loaded;
    return (int)c->n_modules++;
}

static void resolve_modules(hb_launch_recorder *r)
{
    hb_replay_capture *c = r->capture;
    for (uint32_t f = 0; f < c->n_functions; f++) {
        const uint32_t loaded = defining_module(r, c->functions[f].name);
        if (loaded == NO_MODULE) {
            hb_capture_refuse(c, HB_REFUSE_UNSUPPORTED, "no module this process loaded while recording defines kernel "
                              "%.120s (loaded before the recording, or not an ELF cubin)", c->functions[f].name);
            continue;
        }
        const int module = capture_module(r, loaded);
        if (module >= 0)
            c->functions[f].module = (uint32_t)module;
    }
}

/* The attributes set on kernels that were launched, in the order they were set. */
static void keep_attributes(hb_launch_recorder *r)
{
    hb_replay_capture *c = r->capture;
    for (size_t i = 0; i < r->n_pending; i++) {
        const pending_attr *a = &r->pending[i];
        const char *name = a->name ? a->name : stub_name(r, a->stub);
        if (!name)
            continue; /* set through a stub never launched */
        uint32_t f = 0;
        while (f < c->n_functions && strcmp(c->functions[f].name, name))
            f++;
        if (f == c->n_functions)
            continue; /* a kernel never launched */
        uint32_t j = 0; /* the same attribute on the same kernel through its name and its stub: the later */
        while (j < c->n_func_attrs && !(c->func_attrs[j].function == f && c->func_attrs[j].attribute == a->attribute))
            j++;
        if (j < c->n_func_attrs) {
            c->func_attrs[j].value = a->value;
            continue;
        }
        if (c->n_func_attrs >= HB_REPLAY_MAX_FUNC_ATTRS) {
            hb_capture_refuse(c, HB_REFUSE_LIMIT, "more than %d attributes set on its launched kernels",
                              HB_REPLAY_MAX_FUNC_ATTRS);
            return;
        }
        c->func_attrs[c->n_func_attrs++] = (hb_replay_func_attr){f, a->attribute, a->value};
    }
}

void hb_recorder_stop(hb_launch_recorder *recorder)
{
    hb_launch_recorder *r = recorder;
    if (!r || r->stopped)
        return;
    if (r->subscribed) {
        CUptiResult result = r->cupti->unsubscribe(r->subscriber);
        if (result != CUPTI_SUCCESS)
            hb_capture_refuse(r->capture, HB_REFUSE_FAILED, "cuptiUnsubscribe failed: %s",
                              hb_cupti_result_name(r->cupti, result));
        r->subscribed = 0;
    }
    pthread_mutex_lock(&r->lock); /* a callback already under way on another thread finishes first */
    r->stopped = 1;
    keep_attributes(r);
    resolve_modules(r);
    if (r->load_work[0])
        hb_capture_refuse(r->capture, HB_REFUSE_UNSUPPORTED, "device work before the first call (%s): state the "
                          "replay, which issues the calls' work only, would not have", r->load_work);
    pthread_mutex_unlock(&r->lock);
}

const void *hb_recorder_cubin(const hb_launch_recorder *recorder, uint32_t module, size_t *bytes)
{
    if (!recorder || module >= recorder->capture->n_modules) {
        *bytes = 0;
        return NULL;
    }
    const loaded_module *m = &recorder->loaded[recorder->loaded_of[module]];
    *bytes = m->size;
    return m->bytes;
}

void hb_recorder_close(hb_launch_recorder *recorder)
{
    if (!recorder)
        return;
    hb_recorder_stop(recorder);
    for (size_t i = 0; i < recorder->n_loaded; i++)
        free(recorder->loaded[i].bytes);
    for (size_t i = 0; i < recorder->n_pending; i++)
        free(recorder->pending[i].name);
    for (size_t i = 0; i < recorder->n_stubs; i++)
        free(recorder->stubs[i].name);
    for (size_t i = 0; i < recorder->n_loaded; i++)
        if (recorder->loaded[i].own && recorder->driver->module_unload)
            recorder->driver->module_unload(recorder->loaded[i].own);
    pthread_mutex_destroy(&recorder->lock);
    free(recorder);
    recorder_is_open = 0;
}
