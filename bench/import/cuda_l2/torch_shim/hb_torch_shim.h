/* hb_torch_shim.h -- a header-only stand-in for the part of libtorch that
 * CUDA-L2's published HGEMM files use, so that each file builds, unmodified,
 * into a launcher library (docs/launchers.md) with no libtorch: the files'
 * <torch/extension.h>, <torch/types.h>, <ATen/cuda/CUDAContext.h>,
 * <c10/cuda/CUDAStream.h> and <c10/core/TensorImpl.h> are the headers beside
 * this one, and each includes this one.  Build with
 *     nvcc -std=c++17 -I bench/import/torch_shim ...
 * The pieces:
 *   hb_torch/core.h       standard headers, c10::Error and kin, TORCH_CHECK and
 *                         the other check macros, the checked CUDA call
 *   hb_torch/types.h      Half, BFloat16, ScalarType and kHalf..., TypeMeta,
 *                         Device, ArrayRef/IntArrayRef, TensorOptions
 *   hb_torch/stream.h     the current stream (hb_torch::set_current_stream),
 *                         c10::cuda::CUDAStream, getCurrentCUDAStream
 *   hb_torch/allocator.h  the caching allocator behind empty and zeros
 *   hb_torch/tensor.h     TensorImpl, Tensor, empty, zeros, from_blob
 * scripts/cuda_l2_torch_survey.sh lists what a set of files uses of torch, to
 * see what a new set needs beyond this. */
#ifndef HB_TORCH_SHIM_H
#define HB_TORCH_SHIM_H

#include <hb_torch/core.h>
#include <hb_torch/types.h>
#include <hb_torch/stream.h>
#include <hb_torch/allocator.h>
#include <hb_torch/tensor.h>

#endif
