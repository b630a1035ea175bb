// fp32 reference product on the GPU.  Register-blocked SIMT kernel: each
// 16x16-thread block computes a 64x64 tile, each thread a 4x4 sub-tile, k
// summed in order in fp32.  No tensor cores, so its rounding is independent
// of every participant's.  About 10x slower than cuBLAS; it runs outside the
// timed region.
#include <cuda_fp16.h>

#include "verify/compare_kernels.h"

namespace {

constexpr int TILE = 64;   // output tile edge, elements
constexpr int TK = 16;     // k-slice held in shared memory, elements
constexpr int PER = 4;     // outputs per thread along each edge

__global__ void reference_gemm_kernel(const __half *a, const __half *b, float *ref, long m, long n, long k)
{
    __shared__ float a_tile[TK][TILE + 1];  // +1: avoids bank conflicts on the transposed store
    __shared__ float b_tile[TK][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
    const long row0 = (long)blockIdx.y * TILE, col0 = (long)blockIdx.x * TILE;
    float acc[PER][PER] = {};
    for (long k0 = 0; k0 < k; k0 += TK) {
        for (int i = tid; i < TILE * TK; i += 256) {
            int r = i / TK, kk = i % TK;
            long gr = row0 + r, gk = k0 + kk;
            a_tile[kk][r] = (gr < m && gk < k) ? __half2float(a[gr * k + gk]) : 0.0f;
            int kb = i / TILE, c = i % TILE;
            long gkb = k0 + kb, gc = col0 + c;
            b_tile[kb][c] = (gkb < k && gc < n) ? __half2float(b[gkb * n + gc]) : 0.0f;
        }
        __syncthreads();
        for (int kk = 0; kk < TK; kk++) {
            float av[PER], bv[PER];
            for (int i = 0; i < PER; i++) av[i] = a_tile[kk][ty + 16 * i];
            for (int j = 0; j < PER; j++) bv[j] = b_tile[kk][tx + 16 * j];
            for (int i = 0; i < PER; i++)
                for (int j = 0; j < PER; j++) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < PER; i++)
        for (int j = 0; j < PER; j++) {
            long r = row0 + ty + 16 * i, c = col0 + tx + 16 * j;
            if (r < m && c < n) ref[r * n + c] = acc[i][j];
        }
}

}  // namespace

extern "C" cudaError_t hb_reference_gemm_f32(const uint16_t *a, const uint16_t *b, float *ref, long m, long n,
                                             long k, cudaStream_t stream)
{
    dim3 block(16, 16);
    dim3 grid((unsigned)((n + TILE - 1) / TILE), (unsigned)((m + TILE - 1) / TILE));
    reference_gemm_kernel<<<grid, block, 0, stream>>>(reinterpret_cast<const __half *>(a),
                                                      reinterpret_cast<const __half *>(b), ref, m, n, k);
    return cudaGetLastError();
}
