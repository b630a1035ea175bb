// A test file in CUDA-L2's format (tests/test_import.c) that uses a
// Hopper-only instruction (wgmma.fence, behind sm_90a's feature macro):
// the importer refuses it for a target other than sm_90a.
#include <cuda_fp16.h>
#include <stdlib.h>
#include <torch/extension.h>
#include <torch/types.h>

template <int N> struct Int { static constexpr int value = N; };

#define CHECK_TORCH_TENSOR_DTYPE(T, th_type)                                   \
  if (((T).options().dtype() != (th_type))) {                                  \
    std::cout << "Tensor Info:" << (T).options() << std::endl;                 \
    throw std::runtime_error("values must be " #th_type);                      \
  }

#define CHECK_TORCH_TENSOR_SHAPE(T, S0, S1)                                    \
  if (((T).size(0) != (S0)) || ((T).size(1) != (S1))) {                        \
    throw std::runtime_error("Tensor size mismatch!");                         \
  }

__device__ void test_wgmma_fence() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

// One thread per element of C; BM x BN threads per block.
template <typename BM_, typename BN_>
__global__ void test_hgemm_one_kernel(const half *a, const half *b_col, half *c, int M, int N, int K) {
  int row = blockIdx.y * BM_::value + threadIdx.y;
  int col = blockIdx.x * BN_::value + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += __half2float(a[row * K + k]) * __half2float(b_col[col * K + k]);
  c[row * N + col] = __float2half(acc);
}

void cuda_l2_h100_fp32(torch::Tensor a, torch::Tensor b, torch::Tensor b_col_major, torch::Tensor c) {
  CHECK_TORCH_TENSOR_DTYPE(a, torch::kHalf)
  CHECK_TORCH_TENSOR_DTYPE(b_col_major, torch::kHalf)
  CHECK_TORCH_TENSOR_DTYPE(c, torch::kHalf)
  const int M = a.size(0);
  const int K = a.size(1);
  const int N = b.size(1);
  CHECK_TORCH_TENSOR_SHAPE(c, M, N)
  using BM = Int<16>;
  using BN = Int<16>;
  using BK = Int<16>;
  dim3 block(BN::value, BM::value);
  dim3 grid(N / BN::value, M / BM::value);
  test_hgemm_one_kernel<BM, BN><<<grid, block, 0>>>(
      reinterpret_cast<const half *>(a.data_ptr()), reinterpret_cast<const half *>(b_col_major.data_ptr()),
      reinterpret_cast<half *>(c.data_ptr()), M, N, K);
}
