/* Why no GPU can be used, in words a user can act on.  The CUDA runtime
 * answers "CUDA driver version is insufficient" (cudaErrorInsufficientDriver)
 * both when the machine has no NVIDIA driver at all and when its driver is
 * older than the runtime: the message would send a user without a driver off
 * to upgrade one.  So on a failure the facts that tell the cases apart are
 * gathered (hb_no_gpu_probe: the driver's library loaded by hand, its
 * version, its own cuInit) and read by a function of those facts alone
 * (hb_no_gpu_explain), which a test can feed every case on any machine. */
#ifndef HB_NO_GPU_REASON_H
#define HB_NO_GPU_REASON_H

#include <cuda.h>
#include <cuda_runtime_api.h>

/* The driver's library, as the runtime loads it. */
#define HB_DRIVER_LIBRARY "libcuda.so.1"

typedef struct hb_no_gpu_facts {
    cudaError_t count_error;  /* cudaGetDeviceCount's answer; cudaSuccess with 0 devices is "no GPU" too */
    int driver_loaded;        /* HB_DRIVER_LIBRARY could be loaded */
    char load_error[256];     /* dlerror() when it could not */
    char driver_path[256];    /* the file loaded, "" when unknown */
    int init_known;           /* init_result holds the driver's own cuInit(0) */
    CUresult init_result;
    char init_name[64];       /* its name (cuGetErrorName), "" when unknown */
    int driver_version;       /* the CUDA version the driver supports (12040 = 12.4), 0 when unknown */
    int runtime_version;      /* the CUDA runtime the harness runs on, same encoding */
    int visible_set;          /* CUDA_VISIBLE_DEVICES is set (to visible_devices) */
    char visible_devices[128];
} hb_no_gpu_facts;

typedef struct hb_no_gpu_reason {
    char fact[640];   /* what is wrong, e.g. "this machine has no NVIDIA driver (...)" */
    char advice[512]; /* what to do about it */
} hb_no_gpu_reason;

/* Gathers the facts after cudaGetDeviceCount answered `count_error` (or
 * cudaSuccess with no device): loads the driver's library itself, asks its
 * version and its cuInit, reads CUDA_VISIBLE_DEVICES.  Call only on that
 * failure: it leaves the library loaded. */
void hb_no_gpu_probe(cudaError_t count_error, hb_no_gpu_facts *facts);

/* The reason the facts give: no driver library at all, the toolkit's stub in
 * its place, a driver too old for the runtime (both versions named), a
 * driver that sees no GPU (CUDA_VISIBLE_DEVICES named when set), a driver
 * whose kernel module and library disagree, GPUs busy or not ready, or, for
 * anything else, the runtime's and the driver's own error names. */
void hb_no_gpu_explain(const hb_no_gpu_facts *facts, hb_no_gpu_reason *reason);

#endif
