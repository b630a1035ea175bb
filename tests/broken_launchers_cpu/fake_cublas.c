/* A stand-in for cuBLAS, libcublas.so.N, and cuBLASLt, libcublasLt.so.N
 * (tests/broken_launchers_cpu.sh, built twice: -DFAKE_LT for cuBLASLt), on
 * the CPU.  Its cublasGemmEx computes what cuBLAS computes for the call
 * torch.matmul makes (CUBLAS_OP_N twice, fp16 data, fp32 compute and scale,
 * alpha 1, beta 0), column-major, on host memory, with fp32 sums in
 * ascending order, and refuses any other call; it logs the stream and the
 * sizes of every call.  Loose prototypes (ints for enums), as fake_cudart.c. */
#include <stddef.h>
#include <stdlib.h>

#ifdef FAKE_LT
int cublasLtMatmul(void);
int fake_lt_matmul_calls(void);
static int lt_calls;
int cublasLtMatmul(void) { return lt_calls++, 0; }
int fake_lt_matmul_calls(void) { return lt_calls; }
#else
typedef struct fake_handle {
    void *stream, *workspace;
    size_t workspace_bytes;
} fake_handle;

typedef struct fake_call {
    void *stream;
    int m, n, k;
} fake_call;

int cublasCreate_v2(fake_handle **handle);
int cublasSetStream_v2(fake_handle *handle, void *stream);
int cublasSetWorkspace_v2(fake_handle *handle, void *workspace, size_t bytes);
int cublasGemmEx(fake_handle *handle, int transa, int transb, int m, int n, int k, const float *alpha,
                 const _Float16 *a, int a_type, int lda, const _Float16 *b, int b_type, int ldb, const float *beta,
                 _Float16 *c, int c_type, int ldc, int compute, int algo);
const char *cublasGetStatusName(int status);
const char *cublasGetStatusString(int status);
int fake_gemm_ex_calls(void);
int fake_gemm_ex_refused(void);
fake_call fake_gemm_ex_call(int i);

enum { LOGGED = 64 };
static int gemm_calls, gemm_refused;
static fake_call gemm_log[LOGGED];

int cublasCreate_v2(fake_handle **handle)
{
    *handle = calloc(1, sizeof **handle);
    return *handle ? 0 : 3; /* CUBLAS_STATUS_ALLOC_FAILED */
}
int cublasSetStream_v2(fake_handle *handle, void *stream)
{
    handle->stream = stream;
    return 0;
}
int cublasSetWorkspace_v2(fake_handle *handle, void *workspace, size_t bytes)
{
    handle->workspace = workspace;
    handle->workspace_bytes = bytes;
    return 0;
}
int cublasGemmEx(fake_handle *handle, int transa, int transb, int m, int n, int k, const float *alpha,
                 const _Float16 *a, int a_type, int lda, const _Float16 *b, int b_type, int ldb, const float *beta,
                 _Float16 *c, int c_type, int ldc, int compute, int algo)
{
    /* CUBLAS_OP_N 0, CUDA_R_16F 2, CUBLAS_COMPUTE_32F 68, CUBLAS_GEMM_DEFAULT_TENSOR_OP 99 */
    if (!handle || transa || transb || a_type != 2 || b_type != 2 || c_type != 2 || compute != 68 || algo != 99 ||
        *alpha != 1.0f || *beta != 0.0f || lda < m || ldb < k || ldc < m || m < 0 || n < 0 || k < 0) {
        gemm_refused++;
        return 7; /* CUBLAS_STATUS_INVALID_VALUE */
    }
    if (gemm_calls < LOGGED)
        gemm_log[gemm_calls] = (fake_call){handle->stream, m, n, k};
    gemm_calls++;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float sum = 0;
            for (int l = 0; l < k; l++)
                sum += (float)a[i + (size_t)l * lda] * (float)b[l + (size_t)j * ldb];
            c[i + (size_t)j * ldc] = (_Float16)sum;
        }
    return 0;
}
const char *cublasGetStatusName(int status) { return status ? "CUBLAS_STATUS_FAKE" : "CUBLAS_STATUS_SUCCESS"; }
const char *cublasGetStatusString(int status) { return status ? "refused by the fake" : "success"; }
int fake_gemm_ex_calls(void) { return gemm_calls; }
int fake_gemm_ex_refused(void) { return gemm_refused; }
fake_call fake_gemm_ex_call(int i) { return i < LOGGED ? gemm_log[i] : (fake_call){0, 0, 0, 0}; }
#endif
