/* A candidate kernel loaded from its cubin with the CUDA driver API, and
 * launched exactly as its manifest says.  The kernel's parameters are the
 * manifest's "params" list (docs/candidates.md, "Parameter order"), or when
 * it gives none the candidate contract's:
 *   (const half *A, const half *B, const half *B_col, half *C,
 *    int M, int N, int K, void *workspace) */
#ifndef HB_CUBIN_KERNEL_H
#define HB_CUBIN_KERNEL_H

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "bench/candidate/manifest.h"
#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/gpu/device.h"
#include "bench/result/kernel_params.h"

typedef struct hb_driver_api hb_driver_api;

typedef struct hb_candidate_kernel {
    hb_manifest manifest;
    const hb_driver_api *api; /* resolved at load, so a timed launch does no lookup */
    CUmodule module;
    CUfunction function;
    hb_kernel_params params;  /* the list a launch fills: the manifest's, or the contract's */
    int registers_per_thread;
    size_t static_smem_bytes;
} hb_candidate_kernel;

/* Loads the cubin for this device, finds the entry, checks its parameter
 * list (count and sizes, against the manifest's "params" or the contract's,
 * where the driver can tell: 12.4 and newer) and resources against the
 * device and raises its dynamic shared-memory limit.  HB_ERR_BAD_INPUT (file
 * missing, not a cubin, entry missing, wrong parameters) or
 * HB_ERR_UNSUPPORTED (no code for this architecture, too much shared memory,
 * too many threads for its registers), each with a message. */
hb_status hb_candidate_kernel_load(const hb_manifest *manifest, const hb_device_limits *limits,
                                   hb_candidate_kernel *out);

/* Grid for padded dimensions; HB_ERR_UNSUPPORTED if over CUDA's limits. */
hb_status hb_candidate_grid(const hb_manifest *manifest, const long padded[3], unsigned grid[3]);

/* One launch on `stream`; io holds the padded buffers and dimensions. */
hb_status hb_candidate_kernel_launch(const hb_candidate_kernel *kernel, const unsigned grid[3],
                                     const hb_gemm_io *io, void *workspace, cudaStream_t stream);

void hb_candidate_kernel_unload(hb_candidate_kernel *kernel);

#endif
