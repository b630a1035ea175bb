/*
 * hgemm_mma_pipelined.cu -- FP16 GEMM, C = A * B (alpha = 1, beta = 0), on tensor cores.
 *
 *   A : M x K half, row-major        B : K x N half, row-major (B_col and workspace are ignored)
 *   C : M x N half, row-major        products accumulated in fp32, rounded once to fp16 (RN)
 *
 * Built with HGEMM_MMA_ACC_F16 defined (candidates/sample_mma_f16acc/), the same kernel runs its
 * mma.sync in fp16 (.f16.f16.f16.f16): each 16-deep sum of products is accumulated and rounded in
 * fp16, and those fp16 sums are added in fp32: the harness's fp16 class.  Why not one fp16 chain
 * over all of K: the fp16 cuBLAS / cuBLASLt baselines that set the deviation bound split K (up to
 * 16 ways), so their chains are short.  Measured on an H200: one fp16 chain failed the bound at
 * M,N,K = 256,512,2048 (max |C - ref| 0.605 against 0.223); fp16 chains of one 32-deep k-tile
 * still failed it at 64^3 (0.0170 against 0.0169, and 0.0222 against 0.0164).
 *
 * Building blocks (all available on sm_80, nothing Hopper-only such as wgmma/TMA):
 *   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32, ldmatrix.x4 (A) / ldmatrix.x4.trans (B),
 *   cp.async.cg.shared.global (16 B) with commit_group / wait_group.
 *
 * Tiles:
 *   block tile  BM x BN x BK = 128 x 128 x 32 (elements)
 *   8 warps as 2 (M) x 4 (N); warp tile 64 x 32 = 4 x 4 mma tiles of m16n8 -> 64 fp32 accumulators/thread
 *   pipeline    STAGES = 4 shared-memory stages (3 tiles in flight while one is being consumed)
 *
 * Shared memory (dynamic only), padded rows so that ldmatrix's 8 row addresses of one 8x8 matrix
 * land in 8 disjoint groups of 4 banks (conflict-free) while rows stay 16-byte aligned for cp.async:
 *   A stage : 128 rows x (32 + 8) halves x 2 B =  10240 B   (row pitch 80 B)
 *   B stage :  32 rows x (128 + 8) halves x 2 B =  8704 B   (row pitch 272 B)
 *   total   : 4 stages x 18944 B = 75776 B  (> 48 KiB: caller must raise
 *             CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES). The epilogue reuses the first
 *             128 x 136 x 2 = 34816 B of it to stage C for coalesced 16-byte stores.
 *
 * Launch: grid = (N/128, M/128, 1), block = (256, 1, 1), dynamic smem = 75776 bytes.
 * Padding contract: M % 128 == 0, N % 128 == 0, K % 32 == 0 (elements), K >= 32; no edge handling.
 * Alignment: A, B, C must be 16-byte aligned (cp.async 16 B and the 16-byte C stores).
 */

#include <cuda_fp16.h>
#include <stdint.h>

/* ---- tuning constants (no macros) ------------------------------------------------------- */
namespace hgemm_mma_cfg {
constexpr int BM = 128;                 /* block tile rows    (elements of M)        */
constexpr int BN = 128;                 /* block tile columns (elements of N)        */
constexpr int BK = 32;                  /* block tile depth   (elements of K)        */
constexpr int STAGES = 4;               /* cp.async pipeline depth (smem buffers)    */
constexpr int THREADS = 256;            /* 8 warps                                   */
constexpr int WARPS_M = 2;              /* warp grid inside the block tile           */
constexpr int WARPS_N = 4;
constexpr int WM = BM / WARPS_M;        /* 64: warp tile rows                        */
constexpr int WN = BN / WARPS_N;        /* 32: warp tile columns                     */
constexpr int MT = WM / 16;             /* 4 mma tiles along M per warp              */
constexpr int NT = WN / 8;              /* 4 mma tiles along N per warp              */
constexpr int PAD = 8;                  /* halves (16 B) of row padding: bank-conflict-free ldmatrix */
constexpr int A_LD = BK + PAD;          /* 40 halves = 80 B row pitch of an A stage  */
constexpr int B_LD = BN + PAD;          /* 136 halves = 272 B row pitch of a B stage */
constexpr int C_LD = BN + PAD;          /* 136 halves: epilogue staging pitch        */
constexpr int A_STAGE = BM * A_LD;      /* halves per A stage (5120)                 */
constexpr int B_STAGE = BK * B_LD;      /* halves per B stage (4352)                 */
constexpr int SMEM_BYTES = STAGES * (A_STAGE + B_STAGE) * 2;   /* 75776 B            */

static_assert(SMEM_BYTES == 75776, "manifest.json dynamic_smem_bytes must match");
static_assert(BM * C_LD <= STAGES * (A_STAGE + B_STAGE), "epilogue staging must fit in smem");
static_assert((BM * BK / 8) % THREADS == 0 && (BK * BN / 8) % THREADS == 0, "whole 16 B chunks/thread");
static_assert(WARPS_M * WARPS_N * 32 == THREADS, "warp grid");
static_assert(NT % 2 == 0 && BK % 16 == 0, "ldmatrix.x4.trans loads two n8 tiles per call");
}  // namespace hgemm_mma_cfg

/* ---- PTX wrappers ----------------------------------------------------------------------- */
static __device__ __forceinline__ void cp_async_16(uint32_t smem_addr, const void *gmem) {
    /* .cg: bypass L1 -- tiles are consumed once from smem, L2 serves the reuse across blocks */
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr), "l"(gmem) : "memory");
}
static __device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N>
static __device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* r[j] receives 8x8 matrix j whose 8 row addresses come from lanes 8j..8j+7; thread `lane`
 * gets row lane/4, columns 2*(lane%4)+{0,1} (with .trans: the transposed element pair). */
static __device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t smem_addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_addr)
                 : "memory");
}
static __device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t smem_addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_addr)
                 : "memory");
}

#ifndef HGEMM_MMA_ACC_F16
/* D = A(16x16, row) * B(16x8, col) + D, fp16 inputs, fp32 accumulate. */
static __device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4],
                                                    uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

#else
/* D = A(16x16, row) * B(16x8, col) + D, fp16 inputs, fp16 accumulate: d[0] holds the pair
 * (row g, cols 2t,2t+1), d[1] the pair (row g+8, same cols), as half2. */
static __device__ __forceinline__ void mma_m16n8k16(uint32_t (&d)[2], const uint32_t (&a)[4],
                                                    uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
        "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};\n"
        : "+r"(d[0]), "+r"(d[1])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
#endif

/* One m16n8 accumulator tile per class: zeroed, one mma step, and its two output rows as half2. */
#ifndef HGEMM_MMA_ACC_F16
struct AccF32 {
    float v[4];
    __device__ __forceinline__ void zero() { v[0] = v[1] = v[2] = v[3] = 0.0f; }
    __device__ __forceinline__ void mma(const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
        mma_m16n8k16(v, a, b0, b1);
    }
    __device__ __forceinline__ __half2 row_g() const { return __floats2half2_rn(v[0], v[1]); }
    __device__ __forceinline__ __half2 row_g8() const { return __floats2half2_rn(v[2], v[3]); }
};
#else
/* Each step's 16-deep sum of products comes out of the mma in fp16 (one rounding), and the
 * steps' fp16 sums are added in fp32. */
struct AccF16 {
    float total[4];
    __device__ __forceinline__ void zero() { total[0] = total[1] = total[2] = total[3] = 0.0f; }
    __device__ __forceinline__ void mma(const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
        uint32_t d[2] = {0u, 0u};
        mma_m16n8k16(d, a, b0, b1);
        const float2 g = __half22float2(*reinterpret_cast<const __half2 *>(&d[0]));
        const float2 g8 = __half22float2(*reinterpret_cast<const __half2 *>(&d[1]));
        total[0] += g.x;
        total[1] += g.y;
        total[2] += g8.x;
        total[3] += g8.y;
    }
    __device__ __forceinline__ __half2 row_g() const { return __floats2half2_rn(total[0], total[1]); }
    __device__ __forceinline__ __half2 row_g8() const { return __floats2half2_rn(total[2], total[3]); }
};
#endif
#ifdef HGEMM_MMA_ACC_F16
typedef AccF16 Acc;
#else
typedef AccF32 Acc;
#endif

/* ---- kernel ----------------------------------------------------------------------------- */
extern "C" __global__ void __launch_bounds__(hgemm_mma_cfg::THREADS, 2)
hgemm_mma_pipelined(const __half *__restrict__ A,      // M x K, row-major
                    const __half *__restrict__ B,      // K x N, row-major
                    const __half *__restrict__ B_col,  // unused (column-major copy of B)
                    __half *__restrict__ C,            // M x N, row-major
                    int M, int N, int K,
                    void *workspace)                   // unused
{
    using namespace hgemm_mma_cfg;
    (void)B_col;
    (void)workspace;
    (void)M;

    extern __shared__ __align__(128) unsigned char smem_raw[];
    __half *sA = reinterpret_cast<__half *>(smem_raw);   // [STAGES][BM][A_LD]
    __half *sB = sA + STAGES * A_STAGE;                   // [STAGES][BK][B_LD]

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int warp_m = warp / WARPS_N;   // 0..1
    const int warp_n = warp % WARPS_N;   // 0..3

    const int block_m = blockIdx.y * BM;
    const int block_n = blockIdx.x * BN;

    const __half *gA = A + (size_t)block_m * K;   // tile row 0 of this block
    const __half *gB = B + block_n;               // tile column 0 of this block

    const uint32_t sA_addr = static_cast<uint32_t>(__cvta_generic_to_shared(sA));
    const uint32_t sB_addr = static_cast<uint32_t>(__cvta_generic_to_shared(sB));

    /* Global->smem copy assignment: A tile = 128 rows x 4 chunks (16 B), B tile = 32 rows x 16
     * chunks; 512 chunks each, 2 per thread. Consecutive threads take consecutive chunks of a row,
     * so each warp reads whole 64 B (A) / 256 B (B) row segments: fully used sectors. */
    constexpr int A_CHUNKS_PER_THREAD = BM * BK / 8 / THREADS;   // 2
    constexpr int B_CHUNKS_PER_THREAD = BK * BN / 8 / THREADS;   // 2

    auto load_tile = [&](int stage, int ktile) {
        const int k0 = ktile * BK;
#pragma unroll
        for (int i = 0; i < A_CHUNKS_PER_THREAD; ++i) {
            const int c = tid + i * THREADS;
            const int row = c / (BK / 8);
            const int col = (c % (BK / 8)) * 8;
            cp_async_16(sA_addr + 2u * (uint32_t)(stage * A_STAGE + row * A_LD + col),
                        gA + (size_t)row * K + k0 + col);
        }
#pragma unroll
        for (int i = 0; i < B_CHUNKS_PER_THREAD; ++i) {
            const int c = tid + i * THREADS;
            const int row = c / (BN / 8);
            const int col = (c % (BN / 8)) * 8;
            cp_async_16(sB_addr + 2u * (uint32_t)(stage * B_STAGE + row * B_LD + col),
                        gB + (size_t)(k0 + row) * N + col);
        }
    };

    Acc acc[MT][NT];
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j) acc[i][j].zero();

    /* ldmatrix per-lane address offsets (in halves, relative to a stage base and k16 step).
     * A, x4: matrices 0..3 = (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15),
     *        (rows 8-15, k 8-15) -> exactly a0..a3 of the m16n8k16 A fragment
     *        (a0: row g, k 2t..2t+1; a1: row g+8; a2: row g, k+8; a3: row g+8, k+8).
     *        Lane l addresses row l%16, k offset (l/16)*8.
     * B, x4.trans: smem holds B as [k][n]; matrices 0..3 = (k 0-7, n 0-7), (k 8-15, n 0-7),
     *        (k 0-7, n 8-15), (k 8-15, n 8-15). .trans gives thread (g,t) elements
     *        (k 2t, n g), (k 2t+1, n g) = b0 (resp. b1 for the k 8-15 matrix) of the col-major
     *        B fragment, for two adjacent n8 tiles. Lane l addresses k row l%16, n offset (l/16)*8. */
    const int ld_row = lane & 15;
    const int ld_col = (lane >> 4) * 8;
    const uint32_t a_lane_off = 2u * (uint32_t)((warp_m * WM + ld_row) * A_LD + ld_col);
    const uint32_t b_lane_off = 2u * (uint32_t)(ld_row * B_LD + warp_n * WN + ld_col);

    const int ktiles = K / BK;

    /* Prologue: put STAGES-1 tiles in flight (one commit group per tile, empty groups keep the
     * group count uniform so wait_group<STAGES-2> below always means "tile kt has landed"). */
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < ktiles) load_tile(s, s);
        cp_async_commit();
    }

    for (int kt = 0; kt < ktiles; ++kt) {
        /* Groups committed so far: (STAGES-1) + kt. Allowing STAGES-2 pending means groups
         * 0..kt are complete, i.e. this thread's part of tile kt is in smem ... */
        cp_async_wait<STAGES - 2>();
        /* ... and the barrier makes every thread's part visible. It also guarantees every warp
         * has finished computing on stage (kt-1)%STAGES, which the prefetch below overwrites. */
        __syncthreads();

        const int pf = kt + STAGES - 1;
        if (pf < ktiles) load_tile(pf % STAGES, pf);
        cp_async_commit();

        const int stage = kt % STAGES;
        const uint32_t a_base = sA_addr + 2u * (uint32_t)(stage * A_STAGE) + a_lane_off;
        const uint32_t b_base = sB_addr + 2u * (uint32_t)(stage * B_STAGE) + b_lane_off;

#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            uint32_t af[MT][4];
            uint32_t bf[NT][2];
#pragma unroll
            for (int i = 0; i < MT; ++i)
                ldmatrix_x4(af[i], a_base + 2u * (uint32_t)(i * 16 * A_LD + kk));
#pragma unroll
            for (int j = 0; j < NT; j += 2) {
                uint32_t r[4];
                ldmatrix_x4_trans(r, b_base + 2u * (uint32_t)(kk * B_LD + j * 8));
                bf[j][0] = r[0];
                bf[j][1] = r[1];
                bf[j + 1][0] = r[2];
                bf[j + 1][1] = r[3];
            }
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int j = 0; j < NT; ++j) acc[i][j].mma(af[i], bf[j][0], bf[j][1]);
        }
    }

    /* Epilogue. Drain the (empty) trailing cp.async groups and make sure no warp still reads the
     * last stage before the pipeline buffers are reused as a C staging tile. */
    cp_async_wait<0>();
    __syncthreads();

    /* Fragment -> smem: c0,c1 at (row g, cols 2t,2t+1), c2,c3 at (row g+8, same cols), written as
     * half2 (4 B). Pitch 136 halves = 68 words, so the 32 lanes (8 rows g x 4 t) hit banks
     * 4g+t (+const): conflict-free. */
    __half *sC = reinterpret_cast<__half *>(smem_raw);   // [BM][C_LD]
    const int g = lane >> 2;
    const int t = lane & 3;
#pragma unroll
    for (int i = 0; i < MT; ++i) {
#pragma unroll
        for (int j = 0; j < NT; ++j) {
            const int row = warp_m * WM + i * 16 + g;
            const int col = warp_n * WN + j * 8 + 2 * t;
            *reinterpret_cast<__half2 *>(&sC[row * C_LD + col]) = acc[i][j].row_g();
            *reinterpret_cast<__half2 *>(&sC[(row + 8) * C_LD + col]) = acc[i][j].row_g8();
        }
    }
    __syncthreads();

    /* smem -> global: 16 threads cover one 256 B row of the C tile with 16 B stores, so each warp
     * writes two full rows: fully coalesced. 2048 chunks / 256 threads = 8 per thread. */
    constexpr int C_CHUNKS_PER_ROW = BN / 8;                          // 16
    constexpr int C_CHUNKS_PER_THREAD = BM * BN / 8 / THREADS;        // 8
#pragma unroll
    for (int i = 0; i < C_CHUNKS_PER_THREAD; ++i) {
        const int c = tid + i * THREADS;
        const int row = c / C_CHUNKS_PER_ROW;
        const int col = (c % C_CHUNKS_PER_ROW) * 8;
        const uint4 v = *reinterpret_cast<const uint4 *>(&sC[row * C_LD + col]);
        *reinterpret_cast<uint4 *>(&C[(size_t)(block_m + row) * N + block_n + col]) = v;
    }
}
