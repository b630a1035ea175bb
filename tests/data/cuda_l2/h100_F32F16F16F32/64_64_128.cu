// A test file in CUDA-L2's format (tests/test_import.c): two kernels per
// call, split-K over a workspace from torch::empty (fp32 partial sums), then
// a reduction into C.  Launcher form only.
#include <cuda_fp16.h>
#include <stdlib.h>
#include <torch/extension.h>
#include <torch/types.h>
#include <ATen/cuda/CUDAContext.h>

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

constexpr int kSplits = 2;

__global__ void test_partials(const half *a, const half *b_col, float *partial, int M, int N, int K) {
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  int split = blockIdx.z, chunk = K / kSplits;
  float acc = 0.0f;
  for (int k = split * chunk; k < (split + 1) * chunk; ++k)
    acc += __half2float(a[row * K + k]) * __half2float(b_col[col * K + k]);
  partial[(split * M + row) * N + col] = acc;
}

__global__ void test_reduce(const float *partial, half *c, int M, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  float sum = 0.0f;
  for (int s = 0; s < kSplits; ++s) sum += partial[s * M * N + i];
  c[i] = __float2half(sum);
}

void cuda_l2_h100_fp32(torch::Tensor a, torch::Tensor b, torch::Tensor b_col_major, torch::Tensor c) {
  const int M = a.size(0), K = a.size(1), N = b.size(1);
  TORCH_CHECK(K % kSplits == 0, "K must split evenly, got ", K);
  auto partial = torch::empty({kSplits, M, N}, torch::TensorOptions().dtype(torch::kFloat32).device(a.device()));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  test_partials<<<dim3(N / 16, M / 16, kSplits), dim3(16, 16), 0, stream>>>(
      reinterpret_cast<const half *>(a.data_ptr()), reinterpret_cast<const half *>(b_col_major.data_ptr()),
      partial.data_ptr<float>(), M, N, K);
  test_reduce<<<(M * N + 255) / 256, 256, 0, stream>>>(partial.data_ptr<float>(),
                                                        reinterpret_cast<half *>(c.data_ptr()), M, N);
}
