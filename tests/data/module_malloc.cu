// Test fixture (tests/test_module_state.c): a contract kernel that keeps a
// device-heap block between calls through an 8-byte module global, so its
// module-scope memory is tiny but its state is not; its cubin must be
// flagged as calling device malloc.
#include <cuda_fp16.h>

__device__ __half *g_heap_block;

extern "C" __global__ void fixture_kernel(const __half *A, const __half *, const __half *, __half *C, int M, int N,
                                          int, void *)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0 && !g_heap_block)
        g_heap_block = static_cast<__half *>(malloc(1 << 20));
    __syncthreads();
    if (i < M * N && g_heap_block) {
        C[i] = g_heap_block[i % (1 << 19)];
        g_heap_block[i % (1 << 19)] = A[0];
    }
}
