#include "baselines/cublas_baselines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines/acc_class_types.h"
#include "baselines/baseline_ops.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/entry_points.h"

typedef struct cublas_baseline {
    hb_cublas_variant variant;
    cublasHandle_t handle;
    void *workspace;
    hb_acc_class acc; /* the class it computes in: fp32 for torch whatever the run's */
} cublas_baseline;

size_t hb_torch_workspace_bytes(int sm)
{
    /* PyTorch's cuBLAS workspace default: 32 MiB from Hopper on, else
     * 4096 KiB * 2 + 16 KiB * 8 = 8,519,680 B (CUDABlasHandlePool). */
    return sm >= 90 ? (32u << 20) : 8519680u;
}

static hb_status cublas_launch(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    (void)stream; /* bound to the handle at creation */
    const cublas_baseline *b = self->impl;
    const int m = (int)io->m, n = (int)io->n, k = (int)io->k;
    /* Row-major C = A B is column-major C^T = B^T A^T: pass B first, with
     * the dimensions swapped, and no data is transposed.  Through the sealed
     * entry (bench/gpu/entry_points.h): a rewritten cublasGemmEx slot cannot
     * slow the baseline. */
    if (b->variant == HB_CUBLAS_TN) {
        HB_CUBLAS_TRY(hb_entry()->gemm_ex(b->handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, hb_scale_one(b->acc), io->b_col, CUDA_R_16F,
                                   k, io->a, CUDA_R_16F, k, hb_scale_zero(b->acc), io->c, CUDA_R_16F, n, hb_compute_type_of(b->acc),
                                   CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    } else {
        HB_CUBLAS_TRY(hb_entry()->gemm_ex(b->handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, hb_scale_one(b->acc), io->b, CUDA_R_16F, n,
                                   io->a, CUDA_R_16F, k, hb_scale_zero(b->acc), io->c, CUDA_R_16F, n, hb_compute_type_of(b->acc),
                                   CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    }
    return HB_OK;
}

static void cublas_destroy(hb_participant *self)
{
    cublas_baseline *b = self->impl;
    if (!b)
        return;
    if (b->handle)
        cublasDestroy(b->handle);
    if (b->workspace)
        cudaFree(b->workspace);
    free(b);
    self->impl = NULL;
}

static const hb_participant_ops cublas_ops = {hb_baseline_no_op, hb_baseline_poison_output, cublas_launch,
                                              hb_baseline_no_op, cublas_destroy, NULL};

static hb_status configure_handle(cublas_baseline *b, size_t workspace_bytes, cudaStream_t stream)
{
    HB_CUBLAS_TRY(cublasCreate(&b->handle));
    /* PyTorch order: stream first, then workspace (cublasSetStream resets
     * a workspace set earlier to the default one). */
    HB_CUBLAS_TRY(cublasSetStream(b->handle, stream));
    HB_CUDA_TRY(cudaMalloc(&b->workspace, workspace_bytes));
    HB_CUBLAS_TRY(cublasSetWorkspace(b->handle, b->workspace, workspace_bytes));
    HB_CUBLAS_TRY(cublasSetMathMode(b->handle, CUBLAS_DEFAULT_MATH));
    return HB_OK;
}

hb_status hb_cublas_baseline_create(hb_cublas_variant variant, hb_acc_class acc, int sm, size_t workspace_bytes,
                                    cudaStream_t stream, hb_participant *out)
{
    memset(out, 0, sizeof *out);
    cublas_baseline *b = calloc(1, sizeof *b);
    if (!b)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory creating a cuBLAS baseline");
    b->variant = variant;
    /* torch accumulates in fp32 whatever the run's class: that is what
     * torch.matmul does for fp16 tensors. */
    b->acc = variant == HB_TORCH ? HB_ACC_FP32 : acc;

    if (variant == HB_TORCH)
        workspace_bytes = hb_torch_workspace_bytes(sm);
    out->ops = &cublas_ops;
    out->impl = b;
    hb_status status = configure_handle(b, workspace_bytes, stream);
    if (status != HB_OK) {
        cublas_destroy(out);
        return status;
    }
    hb_participant_desc *d = &out->desc;
    snprintf(d->compute_type, sizeof d->compute_type, "%s", hb_compute_type_name(b->acc));
    snprintf(d->scale_type, sizeof d->scale_type, "%s", hb_scale_type_name(b->acc));
    snprintf(d->algorithm, sizeof d->algorithm, "cublasGemmEx/CUBLAS_GEMM_DEFAULT_TENSOR_OP");
    d->workspace_bytes = workspace_bytes;
    d->b_layout = variant == HB_CUBLAS_TN ? HB_B_COL : HB_B_ROW;
    return HB_OK;
}
