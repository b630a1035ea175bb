/* Baselines called through cublasGemmEx (docs/methodology.md, "Participants"):
 *   torch     - what torch.matmul(a, b, out=c) does for row-major fp16 in
 *               PyTorch 2.6-2.11: one cublasGemmEx(N, N) with the operands
 *               swapped, CUBLAS_COMPUTE_32F, float alpha/beta, default math
 *               mode, and PyTorch's workspace (32 MiB on Hopper, 8,519,680 B
 *               before) set after cublasSetStream.
 *   cublas-nn - paper Listing 6, B row-major.
 *   cublas-tn - paper Listing 6, B column-major.
 * Each has its own handle, bound to the harness's stream. */
#ifndef HB_CUBLAS_BASELINES_H
#define HB_CUBLAS_BASELINES_H

#include "bench/candidate/participant.h"

typedef enum hb_cublas_variant { HB_TORCH, HB_CUBLAS_NN, HB_CUBLAS_TN } hb_cublas_variant;

/* Fills `out` (ops, impl, desc; the registry names it: baselines/baseline_factory.c).  `sm` is the device's compute
 * capability (10*major+minor), which sets torch's workspace size;
 * `workspace_bytes` is the run's workspace for cublas-nn/tn (--workspace),
 * which torch does not use: torch keeps PyTorch's own. */
hb_status hb_cublas_baseline_create(hb_cublas_variant variant, hb_acc_class acc, int sm, size_t workspace_bytes,
                                    cudaStream_t stream, hb_participant *out);

/* torch's workspace on a device of compute capability `sm`, bytes. */
size_t hb_torch_workspace_bytes(int sm);

#endif
