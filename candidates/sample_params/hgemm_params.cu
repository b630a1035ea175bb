// A correct HGEMM candidate whose parameters are not the contract's, as a
// published kernel's often are: (a, b_col, c, M, N, K), no B, no workspace.
// Its manifest's "params" tells the harness that order (docs/candidates.md,
// "Parameter order").  Not extern "C" either: the entry is a C++ name, and
// the manifest gives it as the compiler mangled it (make reads it from the
// cubin's symbol table).
//
// The work is sample_simple's, from the helpers the broken candidates share
// with it: one thread per element of C, products accumulated in fp32 along
// contiguous k in A and B_col, rounded once to fp16; any M, N, K.  Launch
// (manifest.json): grid (ceil(N/16), ceil(M/16), 1), block (16, 16, 1), no
// shared memory.
#include "../broken/simple_gemm.cuh"

__global__ void hgemm_params(const __half *__restrict__ a, const __half *__restrict__ b_col, __half *__restrict__ c,
                             int M, int N, int K)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    c[(size_t)row * N + col] = __float2half_rn(simple_gemm_dot(a, b_col, K, row, col));
}
