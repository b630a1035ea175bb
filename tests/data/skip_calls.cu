// Test fixture (tests/test_gpu_integrity.c): a correct contract kernel (one
// thread per output, fp32 sums, B row-major) that writes nothing on every
// 12th call from the 12th on: the battery's first seven calls all compute,
// and the skipped calls fall in the warm-up, where only the per-call output
// scan sees them (docs/methodology.md, "Every call's output scanned").  The
// call number lives in two module-scope integers, well under the 1 KiB limit.
#include <cuda_fp16.h>

__device__ unsigned long long g_calls;  // calls finished
__device__ unsigned int g_blocks_done;  // blocks of the running call finished

extern "C" __global__ void fixture_kernel(const __half *A, const __half *B, const __half *, __half *C, int M, int N,
                                          int K, void *)
{
    __shared__ unsigned long long call;
    if (threadIdx.x == 0)
        call = *(volatile unsigned long long *)&g_calls;
    __syncthreads();
    const long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (call % 12 != 11 && i < (long)M * N) {
        const long r = i / N, c = i % N;
        float sum = 0.0f;
        for (int k = 0; k < K; k++)
            sum += __half2float(A[r * K + k]) * __half2float(B[(long)k * N + c]);
        C[i] = __float2half_rn(sum);
    }
    // A block counts itself done only after it has read the call number, so
    // when the last block counts itself every block has read it: that block
    // may advance the number for the next call.
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&g_blocks_done, 1u) == gridDim.x - 1) {
            g_blocks_done = 0;
            g_calls = call + 1;
            __threadfence();
        }
    }
}
