// shim_api.cu -- a stand-in for one of CUDA-L2's published HGEMM files, in
// their format (a kernel, the CHECK_TORCH_TENSOR_* macros, a torch entry
// cuda_l2_<gpu>_<acc>(a, b, b_col_major, c)), whose entry touches every piece
// of the torch shim (bench/import/cuda_l2/torch_shim/) the published files use:
// the dtype checks and the std::cout of options, sizes() against an
// IntArrayRef, TORCH_CHECK and its kin, both getCurrentCUDAStream spellings,
// torch::empty and torch::zeros, copy_ (same dtype and converting), .to(),
// data_ptr<T> for each fp16 spelling, unsafeGetTensorImpl.  Built as the
// importer builds a published file, with the adapter, for sm_80:
//     nvcc $FLAGS -gencode arch=compute_80,code=sm_80 -I bench/import/cuda_l2/torch_shim -c shim_api.cu -o kernel.o
//     nvcc $FLAGS -gencode arch=compute_80,code=sm_80 -I bench/import/cuda_l2/torch_shim -I . \
//          -DHB_L2_ENTRY=cuda_l2_a100_fp32 -c bench/import/cuda_l2/cuda_l2_adapter.cu -o adapter.o
//     nvcc -shared -cudart shared -o launcher.so kernel.o adapter.o
// It computes C = A * B correctly (fp32 accumulation, one thread per element
// of C, from the column-major copy of B), by way of an fp32 workspace from
// torch::zeros, a conversion into a half tensor from torch::empty and a
// copy into C, so a GPU test can check its output.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <torch/extension.h>
#include <torch/types.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/core/TensorImpl.h>

__global__ void shim_api_gemm_kernel(const half *A, const half *B_col, float *C_f32, int M, int N, int K)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += __half2float(A[(size_t)row * K + k]) * __half2float(B_col[(size_t)col * K + k]);
    C_f32[(size_t)row * N + col] = acc;
}

#define STRINGFY(str) #str
#define TORCH_BINDING_COMMON_EXTENSION(func) m.def(STRINGFY(func), &func, STRINGFY(func));

#define CHECK_TORCH_TENSOR_DTYPE(T, th_type)                                   \
  if (((T).options().dtype() != (th_type))) {                                  \
    std::cout << "Tensor Info:" << (T).options() << std::endl;                 \
    throw std::runtime_error("values must be " #th_type);                      \
  }

#define CHECK_TORCH_TENSOR_SHAPE(T, S0, S1)                                    \
  if (((T).size(0) != (S0)) || ((T).size(1) != (S1))) {                        \
    throw std::runtime_error("Tensor size mismatch!");                         \
  }

// A check written with TORCH_CHECK and used without a semicolon, as some
// published files do.
#define CHECK_HALF_WITH_TORCH_CHECK(T) \
  TORCH_CHECK((T).options().dtype() == torch::kHalf, #T " must be half")

void cuda_l2_a100_fp32(torch::Tensor a, torch::Tensor b, torch::Tensor b_col_major, torch::Tensor c)
{
  CHECK_TORCH_TENSOR_DTYPE(a, torch::kHalf)
  CHECK_TORCH_TENSOR_DTYPE(b, torch::kHalf)
  CHECK_TORCH_TENSOR_DTYPE(b_col_major, torch::kHalf)
  CHECK_TORCH_TENSOR_DTYPE(c, torch::kHalf)
  CHECK_HALF_WITH_TORCH_CHECK(a)
  const int M = a.size(0);
  const int K = a.size(1);
  const int N = b.size(1);
  CHECK_TORCH_TENSOR_SHAPE(a, M, K)
  CHECK_TORCH_TENSOR_SHAPE(b, K, N)
  CHECK_TORCH_TENSOR_SHAPE(c, M, N)

  TORCH_CHECK(a.is_cuda() && b_col_major.is_cuda() && c.is_cuda(), "All tensors must be on CUDA device");
  TORCH_CHECK(a.dtype() == torch::kHalf && b_col_major.dtype() == torch::kHalf && c.dtype() == torch::kHalf,
              "All tensors must be FP16");
  TORCH_CHECK(a.scalar_type() == at::ScalarType::Half, "a must be float16");
  TORCH_CHECK(a.is_contiguous() && b_col_major.is_contiguous() && c.is_contiguous(), "must be contiguous");
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && b_col_major.dim() == 2 && c.dim() == 2, "2-D tensors");
  TORCH_CHECK(a.sizes() == torch::IntArrayRef({M, K}));
  TORCH_CHECK(b_col_major.sizes() == torch::IntArrayRef({K, N}));
  TORCH_CHECK(c.sizes() == torch::IntArrayRef({M, N}));
  TORCH_CHECK((int)a.sizes()[0] == M && (int)a.size(-1) == K, "a is ", a.sizes(), ", expected [", M, ", ", K, "]");
  TORCH_CHECK(b_col_major.stride(0) == N && b_col_major.stride(1) == 1, "b_col_major strides ",
              b_col_major.strides());
  TORCH_CHECK((int64_t)b_col_major.numel() == (int64_t)K * N, "b_col_major size mismatch");
  TORCH_CHECK_WITH(ValueError, M > 0 && N > 0 && K > 0, "empty product");
  TORCH_INTERNAL_ASSERT(c.device() == a.device());
  TORCH_INTERNAL_ASSERT_DEBUG_ONLY(c.defined());
  C10_ASSERT_DEBUG_ONLY(a.defined());
  AT_CHECK(b.is_cuda(), "b must be CUDA");
  AT_ASSERT(b.dim() == 2);
  AT_ASSERTM(c.dim() == 2, "c must be 2-D");
  if (a.options().dtype() != torch::kHalf || c.options().dtype() != (torch::kHalf)) {
    throw std::runtime_error("dtype mismatch");
  }

  int device_id = 0;
  TORCH_CHECK(cudaGetDevice(&device_id) == cudaSuccess, "cudaGetDevice failed");
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  cudaStream_t same = c10::cuda::getCurrentCUDAStream(device_id).stream();
  TORCH_CHECK(stream == same, "the two getCurrentCUDAStream spellings disagree");
  TORCH_CHECK(stream == (cudaStream_t)at::cuda::getCurrentCUDAStream(device_id), "getCurrentCUDAStream(i)");

  // Every spelling of the fp16 element; all point at A.
  const half *A = reinterpret_cast<const half *>(a.data_ptr<at::Half>());
  TORCH_CHECK((const void *)a.data_ptr<c10::Half>() == A && (const void *)a.data_ptr<torch::Half>() == A &&
              (const void *)a.data_ptr<half>() == A && (const void *)a.data_ptr<__half>() == A &&
              a.data_ptr() == A, "data_ptr spellings disagree");
  c10::TensorImpl *bc_impl = b_col_major.unsafeGetTensorImpl();
  const half *B_col = reinterpret_cast<const half *>(bc_impl->data());
  TORCH_CHECK(c.unsafeGetTensorImpl()->mutable_data() == c.data_ptr(), "TensorImpl data");

  // fp32 workspace: zeroed (cudaMemsetAsync), then the kernel on the current stream.
  auto opts = torch::TensorOptions().dtype(torch::kFloat32).device(a.device());
  torch::Tensor c_f32 = torch::zeros({M, N}, torch::dtype(torch::kFloat32).device(c.device()));
  TORCH_CHECK(c_f32.options().dtype() == opts.dtype(), "zeros dtype");
  TORCH_CHECK(c_f32.sizes() == c.sizes(), "zeros shape");
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  shim_api_gemm_kernel<<<grid, block, 0, stream>>>(A, B_col, c_f32.data_ptr<float>(), M, N, K);

  // Half results two ways: .to() (a new tensor, the conversion kernel) and
  // copy_ into a torch::empty (the conversion kernel), then copy_ into C
  // (cudaMemcpyAsync, same dtype).
  torch::Tensor c_half_to = c_f32.to(torch::kHalf);
  auto c_half = torch::empty({M, N}, torch::TensorOptions().dtype(torch::kHalf).device(torch::kCUDA));
  c_half.copy_(c_f32);
  auto partial = torch::empty({2, (long)M, N}, opts);
  TORCH_CHECK(partial.dim() == 3 && partial.size(-1) == N && partial.scalar_type() == torch::kFloat,
              "partial is ", partial.sizes());
  TORCH_CHECK(c_half_to.dtype() == torch::kHalf && c_half.scalar_type() == at::ScalarType::Half, "to(kHalf)");
  c.copy_(c_half_to);
  c.copy_(c_half);
  (void)b;
}
