// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: returns a cached result when it is called again with the same
// buffers.  The first call computes C and keeps a copy in the workspace
// (M*N halves); the last block to finish then records the A, B_col and C
// pointers in module globals and sets g_valid.  A later call whose A, B_col
// and C equal the recorded ones copies the stored (previous) result into C
// instead of computing, whatever the inputs now hold.
// Must be caught by: the second exact-binary repetition (fresh inputs
// written into the same buffers), as verdict "incorrect", exit code 6.
// The harness fills the workspace with 0xFF bytes before every call, so the
// "stored" result it hands back is all fp16 NaN (0xFFFF): the check that
// fails is non-finite.  (Before the workspace was poisoned it handed back
// the previous inputs' product and failed exact-binary.)
// Otherwise sample_simple: one thread per output, fp32 accumulation, reads
// B_col, any M, N, K.  Manifest: workspace_bytes "M*N*2".
// The thread's (row, col) and the fp32 dot product come from
// ../simple_gemm.cuh.
//
// Ordering: every thread reads the recorded state (volatile) when it
// starts; each block, after all its threads are done (__syncthreads), takes
// a ticket; the block with the last ticket has seen every other block's
// ticket, so every block has already read the old state before it is
// replaced.  The next launch sees the new state (kernel boundary).
#include "../simple_gemm.cuh"

__device__ const void *volatile g_last_a;
__device__ const void *volatile g_last_b;
__device__ const void *volatile g_last_c;
__device__ volatile int g_valid;
__device__ unsigned int g_blocks_done;

extern "C" __global__ void hgemm_cached_result(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                               const __half *__restrict__ B_col, __half *C, int M, int N, int K,
                                               void *workspace)
{
    int row, col;
    const bool in_c = simple_gemm_element(M, N, row, col);  // no early return: __syncthreads below
    __half *stored = static_cast<__half *>(workspace);  // the previous call's C
    // FAULT: same pointers as last time -> hand back the stored result.
    const bool hit = g_valid != 0 && g_last_a == A && g_last_b == B_col && g_last_c == C;
    if (in_c) {
        const size_t idx = (size_t)row * N + col;
        if (hit) {
            C[idx] = stored[idx];
        } else {
            const __half out = __float2half_rn(simple_gemm_dot(A, B_col, K, row, col));
            C[idx] = out;
            stored[idx] = out;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        __threadfence();
        const unsigned int ticket = atomicAdd(&g_blocks_done, 1u);
        if (ticket == gridDim.x * gridDim.y * gridDim.z - 1) {  // the last block of this launch
            g_last_a = A;
            g_last_b = B_col;
            g_last_c = C;
            g_valid = 1;
            atomicExch(&g_blocks_done, 0u);
            __threadfence();
        }
    }
}
