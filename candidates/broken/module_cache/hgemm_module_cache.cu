// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: fingerprint_cache's result cache (../cache_gemm.cuh: a block's
// 16 x 16 tile of C kept with a fingerprint of the inputs, copied back when
// the fingerprint matches), but kept in module-scope device memory, which
// the harness neither poisons nor can see: a __device__ array of 100
// 656-byte slots (65,600 bytes, the blocks 0 .. 99 of the grid; the others
// compute without caching).  A workspace can be poisoned before each call;
// module memory persists between calls, so such a kernel can return an old
// result whenever its key matches.
// Must be caught by: the module-state check, before the kernel ever runs:
// the cubin's .nv.global section (uninitialized __device__ data) is about
// 64 KiB, over the 1 KiB the harness allows, so it is refused as verdict
// "incorrect", check "module-state", exit code 6.
// Otherwise sample_simple: one thread per output, fp32 accumulation, reads
// B_col, any M, N, K.
#include "../cache_gemm.cuh"

constexpr unsigned kModuleSlots = 100; // 100 x 656 B = 65,600 B of module state

__device__ CacheSlot g_slots[kModuleSlots]; // FAULT: a result cache in module memory, which nothing poisons

extern "C" __global__ void hgemm_module_cache(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                              const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                              int K, void * /*workspace*/)
{
    const unsigned block = cache_block_index();
    cached_gemm(block < kModuleSlots ? &g_slots[block] : nullptr, A, B_col, C, M, N, K); // uniform per block
}
