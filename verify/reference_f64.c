#include "verify/reference_f64.h"

#include <cublas_v2.h>
#include <math.h>
#include <string.h>

#include "bench/gpu/cuda_check.h"
#include "verify/compare_kernels.h"

static hb_status cublas_error(cublasStatus_t status, const char *what)
{
    return hb_fail(HB_ERR_CUDA, "fp64 reference: %s failed: %s (%s)", what, cublasGetStatusName(status),
                   cublasGetStatusString(status));
}

#define REF_CUBLAS_TRY(call, what)                  \
    do {                                            \
        cublasStatus_t st_ = (call);                \
        if (st_ != CUBLAS_STATUS_SUCCESS)           \
            return cublas_error(st_, what);         \
    } while (0)

static hb_status allocate(hb_reference64 *r)
{
    const size_t m = (size_t)r->m, n = (size_t)r->n, k = (size_t)r->k;
    HB_CUDA_TRY(cudaMalloc((void **)&r->a, m * k * sizeof(double)));
    HB_CUDA_TRY(cudaMalloc((void **)&r->b, k * n * sizeof(double)));
    HB_CUDA_TRY(cudaMalloc((void **)&r->c, m * n * sizeof(double)));
    return HB_OK;
}

hb_status hb_reference64_create(long m, long n, long k, cudaStream_t stream, hb_reference64 *out)
{
    memset(out, 0, sizeof *out);
    out->m = m;
    out->n = n;
    out->k = k;
    hb_status status = allocate(out);
    cublasHandle_t handle = NULL;
    if (status == HB_OK) {
        cublasStatus_t st = cublasCreate(&handle);
        status = st == CUBLAS_STATUS_SUCCESS ? HB_OK : cublas_error(st, "cublasCreate");
    }
    out->handle = handle;
    if (status == HB_OK) {
        cublasStatus_t st = cublasSetStream(handle, stream);
        if (st == CUBLAS_STATUS_SUCCESS) /* native fp64: never the fixed-point emulation */
            st = cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
        status = st == CUBLAS_STATUS_SUCCESS ? HB_OK : cublas_error(st, "cublasSetStream/SetMathMode");
    }
    if (status != HB_OK)
        hb_reference64_free(out);
    return status;
}

hb_status hb_reference64_compute(hb_reference64 *r, const hb_gemm_io *in, cudaStream_t stream)
{
    const size_t m = (size_t)r->m, n = (size_t)r->n, k = (size_t)r->k;
    HB_CUDA_TRY(hb_widen_f16_f64(in->a, r->a, m * k, stream));
    HB_CUDA_TRY(hb_widen_f16_f64(in->b, r->b, k * n, stream));
    /* Row-major C = A B is column-major C^T = B^T A^T: B first, leading dimensions N, K, N. */
    const double one = 1.0, zero = 0.0;
    REF_CUBLAS_TRY(cublasDgemm((cublasHandle_t)r->handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)r->n, (int)r->m, (int)r->k,
                               &one, r->b, (int)r->n, r->a, (int)r->k, &zero, r->c, (int)r->n),
                   "cublasDgemm");
    double sum = 0;
    HB_CUDA_TRY(hb_sum_squares_f64(r->c, m * n, &sum, stream));
    r->rms = sqrt(sum / (double)(m * n));
    return HB_OK;
}

void hb_reference64_free(hb_reference64 *r)
{
    if (r->handle)
        cublasDestroy((cublasHandle_t)r->handle);
    cudaFree(r->a);
    cudaFree(r->b);
    cudaFree(r->c);
    memset(r, 0, sizeof *r);
}
