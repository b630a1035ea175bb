// Simple correct HGEMM candidate: one thread per element of C, products
// accumulated in fp32, rounded once to fp16.  Handles any M, N, K (no
// padding).  Reads the column-major copy of B (B_col), so each thread walks
// contiguous memory along k in both operands.  A reference point for the
// harness, not a fast kernel: expect well under 1 TFLOP/s at large sizes.
//
// Launch (manifest.json): grid (ceil(N/16), ceil(M/16), 1), block (16, 16, 1),
// no shared memory, no workspace.
#include <cuda_fp16.h>

extern "C" __global__ void hgemm_simple(const __half *__restrict__ A, const __half *__restrict__ B,
                                        const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                        int K, void *workspace)
{
    (void)B;
    (void)workspace;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;
    const __half *a_row = A + (size_t)row * K;      // row `row` of A
    const __half *b_col = B_col + (size_t)col * K;  // column `col` of B
    float acc = 0.0f;
    for (int k = 0; k < K; k++) acc = fmaf(__half2float(a_row[k]), __half2float(b_col[k]), acc);
    C[(size_t)row * N + col] = __float2half_rn(acc);
}
