// The parts of sample_simple (candidates/sample_simple/hgemm_simple.cu) that
// the broken candidates share, so that each broken kernel's own file holds
// little more than its fault (and sample_params, the same kernel with other
// parameters, holds little more than its signature): one thread per element of C, products of A and
// B (read through its column-major copy B_col) accumulated in fp32 with fmaf,
// k ascending.  Everything here is __forceinline__: the kernels compile to
// what they would with these lines written out in place.  The pointers are
// not __restrict__: the kernel's own parameters say what may alias
// (writes_into_a's A deliberately is not __restrict__).
#pragma once

#include <cuda_fp16.h>

// The element of C this thread computes: row from the y dimension of the
// grid, col from x (grid (ceil(N/16), ceil(M/16), 1), block (16, 16, 1)).
// Returns whether (row, col) lies inside the M x N matrix C.
__device__ __forceinline__ bool simple_gemm_element(int M, int N, int &row, int &col)
{
    row = blockIdx.y * blockDim.y + threadIdx.y;
    col = blockIdx.x * blockDim.x + threadIdx.x;
    return row < M && col < N;
}

// Starting from acc, adds A[row][k] * B[k][col] for k = 0 .. k_end-1 in
// order, one fp32 fmaf each.  A is M x K row-major, B_col is B (K x N)
// column-major, so both walks are contiguous.  The full product is
// simple_gemm_dot(A, B_col, K, row, col), below; k_end and acc are there so
// that a broken kernel can put its fault at the call.
__device__ __forceinline__ float simple_gemm_dot(const __half *A, const __half *B_col, int K, int row, int col,
                                                 int k_end, float acc)
{
    const __half *a_row = A + (size_t)row * K;      // row `row` of A
    const __half *b_col = B_col + (size_t)col * K;  // column `col` of B
    for (int k = 0; k < k_end; k++) acc = fmaf(__half2float(a_row[k]), __half2float(b_col[k]), acc);
    return acc;
}

// The correct value of C[row][col] before rounding: all K products, from 0.
__device__ __forceinline__ float simple_gemm_dot(const __half *A, const __half *B_col, int K, int row, int col)
{
    return simple_gemm_dot(A, B_col, K, row, col, K, 0.0f);
}
