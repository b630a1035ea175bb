/* hb_torch/tensor.h -- c10::TensorImpl, at::Tensor (torch::Tensor) and the
 * factories: torch::empty, torch::zeros, their _like forms, torch::from_blob.
 *
 * A Tensor is a shared_ptr to its TensorImpl: copies share it, as torch's
 * copies do, and the TensorImpl holds a shared_ptr to its Storage (a block of
 * hb_torch/allocator.h's cache, or borrowed memory).  Every tensor the shim
 * makes is dense and contiguous; from_blob may describe other strides, and
 * the methods that move data (copy_, to, clone, zero_) refuse a tensor that
 * is not contiguous.  All GPU work -- copies, memsets, dtype conversions --
 * goes to the current stream (hb_torch/stream.h), asynchronously, as torch's
 * does; nothing synchronizes. */
#ifndef HB_TORCH_TENSOR_H
#define HB_TORCH_TENSOR_H

#include <hb_torch/allocator.h>
#include <hb_torch/core.h>
#include <hb_torch/stream.h>
#include <hb_torch/types.h>

#if defined(__GNUC__)
#pragma GCC visibility push(hidden) /* hb_torch/core.h says why */
#endif

namespace hb_torch {

/* The most dimensions a shim tensor has (the published files use 1 to 3). */
constexpr int kMaxTensorDims = 8;

namespace detail {

inline void check_dims(size_t dims)
{
    if (dims > static_cast<size_t>(kMaxTensorDims))
        throw c10::Error("the torch shim supports tensors of at most " + std::to_string(kMaxTensorDims) +
                         " dimensions, not " + std::to_string(dims));
}

/* The device index a factory allocates on: the options' index, or the
 * current device's when they name none (one cudaGetDevice, as torch's
 * allocator makes).  Only CUDA tensors can be made. */
inline int allocation_device(const c10::Device &device)
{
    if (!device.is_cuda())
        throw c10::Error("the torch shim allocates CUDA tensors only; asked for a tensor on " + device.str() +
                         " (pass .device(torch::kCUDA) or .device(a.device()))");
    if (device.has_index()) return device.index();
    int current = 0;
    cuda_check(cudaGetDevice(&current), "cudaGetDevice (torch shim factory)");
    return current;
}

}  // namespace detail
}  // namespace hb_torch

namespace c10 {

/* The shape, strides, dtype and device of a tensor, and its storage.  The
 * published files reach it through t.unsafeGetTensorImpl() for data() and
 * mutable_data(). */
class TensorImpl {
public:
    TensorImpl(std::shared_ptr<hb_torch::Storage> storage, IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
               Device device, int64_t storage_offset = 0)
        : storage_(std::move(storage)), dim_(static_cast<int64_t>(sizes.size())), numel_(1),
          storage_offset_(storage_offset), dtype_(dtype), device_(device)
    {
        hb_torch::detail::check_dims(sizes.size());
        if (!strides.empty() && strides.size() != sizes.size())
            throw Error("TensorImpl: " + std::to_string(strides.size()) + " strides for " +
                        std::to_string(sizes.size()) + " sizes");
        int64_t stride = 1;
        for (int64_t d = dim_ - 1; d >= 0; d--) {
            if (sizes[d] < 0) throw ValueError("negative dimension " + std::to_string(sizes[d]));
            sizes_[d] = sizes[d];
            strides_[d] = strides.empty() ? stride : strides[d];
            stride *= sizes[d] > 1 ? sizes[d] : 1;
            numel_ *= sizes[d];
        }
    }

    int64_t dim() const noexcept { return dim_; }
    IntArrayRef sizes() const noexcept { return IntArrayRef(sizes_, static_cast<size_t>(dim_)); }
    IntArrayRef strides() const noexcept { return IntArrayRef(strides_, static_cast<size_t>(dim_)); }
    int64_t size(int64_t d) const { return sizes_[wrap_dim(d)]; }
    int64_t stride(int64_t d) const { return strides_[wrap_dim(d)]; }
    int64_t numel() const noexcept { return numel_; }
    bool is_empty() const noexcept { return numel_ == 0; }
    ScalarType scalar_type() const noexcept { return dtype_; }
    caffe2::TypeMeta dtype() const noexcept { return caffe2::TypeMeta::fromScalarType(dtype_); }
    size_t itemsize() const { return elementSize(dtype_); }
    Device device() const noexcept { return device_; }
    bool is_cuda() const noexcept { return device_.is_cuda(); }
    bool is_cpu() const noexcept { return device_.is_cpu(); }
    int64_t storage_offset() const noexcept { return storage_offset_; }
    bool is_contiguous() const noexcept
    {
        int64_t expected = 1;
        for (int64_t d = dim_ - 1; d >= 0; d--) {
            if (sizes_[d] == 1) continue;
            if (sizes_[d] == 0) return true;
            if (strides_[d] != expected) return false;
            expected *= sizes_[d];
        }
        return true;
    }

    /* As torch's: nullptr for a tensor with no elements. */
    const void *data() const
    {
        if (is_empty() || !storage_) return nullptr;
        return static_cast<const char *>(storage_->data()) + storage_offset_ * static_cast<int64_t>(itemsize());
    }
    void *mutable_data() { return const_cast<void *>(static_cast<const TensorImpl *>(this)->data()); }

    /* The shim's own: the storage, shared by views and copies. */
    const std::shared_ptr<hb_torch::Storage> &hb_storage() const noexcept { return storage_; }

    int64_t wrap_dim(int64_t d) const
    {
        const int64_t wrapped = d < 0 ? d + dim_ : d;
        if (wrapped < 0 || wrapped >= dim_)
            throw IndexError("Dimension out of range (expected to be in range of [" + std::to_string(-dim_) + ", " +
                             std::to_string(dim_ - 1) + "], but got " + std::to_string(d) + ")");
        return wrapped;
    }

private:
    std::shared_ptr<hb_torch::Storage> storage_;
    int64_t sizes_[hb_torch::kMaxTensorDims] = {};
    int64_t strides_[hb_torch::kMaxTensorDims] = {};
    int64_t dim_;
    int64_t numel_;
    int64_t storage_offset_;
    ScalarType dtype_;
    Device device_;
};

}  // namespace c10

namespace hb_torch {
namespace detail {

#if defined(__CUDACC__)
/* dtype conversion, elementwise: through float, or through double when
 * either side is double; each path rounds once, as torch's casts do. */
__device__ __forceinline__ float hb_widen(__half v) { return __half2float(v); }
__device__ __forceinline__ float hb_widen(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ float hb_widen(float v) { return v; }
__device__ __forceinline__ double hb_widen(double v) { return v; }

template <typename To>
struct hb_narrow;
template <>
struct hb_narrow<__half> {
    __device__ static __half from(float v) { return __float2half_rn(v); }
    __device__ static __half from(double v) { return __double2half(v); }
};
template <>
struct hb_narrow<__nv_bfloat16> {
    __device__ static __nv_bfloat16 from(float v) { return __float2bfloat16_rn(v); }
    __device__ static __nv_bfloat16 from(double v) { return __double2bfloat16(v); }
};
template <>
struct hb_narrow<float> {
    __device__ static float from(float v) { return v; }
    __device__ static float from(double v) { return __double2float_rn(v); }
};
template <>
struct hb_narrow<double> {
    __device__ static double from(float v) { return v; }
    __device__ static double from(double v) { return v; }
};

template <typename To, typename From>
__global__ void hb_convert_kernel(To *__restrict__ out, const From *__restrict__ in, int64_t n)
{
    const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
        out[i] = hb_narrow<To>::from(hb_widen(in[i]));
}

template <typename To, typename From>
void launch_convert(void *out, const void *in, int64_t n, cudaStream_t stream)
{
    constexpr int threads = 256;
    const int64_t blocks = std::min<int64_t>((n + threads - 1) / threads, int64_t(1) << 16);
    hb_convert_kernel<To, From><<<static_cast<unsigned>(blocks), threads, 0, stream>>>(
        static_cast<To *>(out), static_cast<const From *>(in), n);
    cuda_check(cudaGetLastError(), "launching the torch shim's dtype conversion kernel");
}

/* The CUDA type that holds a ScalarType's elements, for the conversions. */
template <c10::ScalarType>
struct hb_cuda_type;
template <>
struct hb_cuda_type<c10::ScalarType::Half> {
    using type = __half;
};
template <>
struct hb_cuda_type<c10::ScalarType::BFloat16> {
    using type = __nv_bfloat16;
};
template <>
struct hb_cuda_type<c10::ScalarType::Float> {
    using type = float;
};
template <>
struct hb_cuda_type<c10::ScalarType::Double> {
    using type = double;
};

template <typename From>
void convert_to(c10::ScalarType to, void *out, const void *in, int64_t n, cudaStream_t stream)
{
    switch (to) {
    case c10::ScalarType::Half: return launch_convert<__half, From>(out, in, n, stream);
    case c10::ScalarType::BFloat16: return launch_convert<__nv_bfloat16, From>(out, in, n, stream);
    case c10::ScalarType::Float: return launch_convert<float, From>(out, in, n, stream);
    case c10::ScalarType::Double: return launch_convert<double, From>(out, in, n, stream);
    default: break;
    }
    throw c10::Error(std::string("the torch shim converts between Half, BFloat16, Float and Double only, not to ") +
                     c10::toString(to));
}

/* A template (Deferred is always void) so that the conversion kernels are
 * instantiated, and land in the library, only where a file converts. */
template <typename Deferred>
void convert(c10::ScalarType to, c10::ScalarType from, void *out, const void *in, int64_t n, cudaStream_t stream)
{
    switch (from) {
    case c10::ScalarType::Half: return convert_to<__half>(to, out, in, n, stream);
    case c10::ScalarType::BFloat16: return convert_to<__nv_bfloat16>(to, out, in, n, stream);
    case c10::ScalarType::Float: return convert_to<float>(to, out, in, n, stream);
    case c10::ScalarType::Double: return convert_to<double>(to, out, in, n, stream);
    default: break;
    }
    throw c10::Error(std::string("the torch shim converts between Half, BFloat16, Float and Double only, not from ") +
                     c10::toString(from));
}
#else
template <typename Deferred>
void convert(c10::ScalarType, c10::ScalarType, void *, const void *, int64_t, cudaStream_t)
{
    throw c10::Error("the torch shim's dtype conversion needs nvcc");
}
#endif

}  // namespace detail
}  // namespace hb_torch

namespace at {

using c10::IntArrayRef;
using c10::ScalarType;
using c10::TensorOptions;

class Tensor;
Tensor empty(IntArrayRef size, const TensorOptions &options = {});

/* torch::Tensor.  Default-constructed: undefined, as torch's; every method
 * but defined() then throws. */
class Tensor {
public:
    Tensor() = default;
    explicit Tensor(std::shared_ptr<c10::TensorImpl> impl) : impl_(std::move(impl)) {}

    bool defined() const noexcept { return static_cast<bool>(impl_); }
    c10::TensorImpl *unsafeGetTensorImpl() const noexcept { return impl_.get(); }
    bool is_same(const Tensor &o) const noexcept { return impl_ == o.impl_; }
    long use_count() const noexcept { return impl_.use_count(); }

    int64_t dim() const { return impl().dim(); }
    int64_t ndimension() const { return dim(); }
    int64_t size(int64_t d) const { return impl().size(d); }
    IntArrayRef sizes() const { return impl().sizes(); }
    int64_t stride(int64_t d) const { return impl().stride(d); }
    IntArrayRef strides() const { return impl().strides(); }
    int64_t numel() const { return impl().numel(); }
    int64_t element_size() const { return static_cast<int64_t>(impl().itemsize()); }
    size_t itemsize() const { return impl().itemsize(); }
    size_t nbytes() const { return static_cast<size_t>(numel()) * itemsize(); }
    int64_t storage_offset() const { return impl().storage_offset(); }
    bool is_contiguous() const { return impl().is_contiguous(); }
    bool is_contiguous(c10::MemoryFormat f) const
    {
        return f == c10::MemoryFormat::Contiguous || f == c10::MemoryFormat::Preserve ? is_contiguous() : false;
    }

    ScalarType scalar_type() const { return impl().scalar_type(); }
    caffe2::TypeMeta dtype() const { return impl().dtype(); }
    c10::Device device() const { return impl().device(); }
    int64_t get_device() const { return is_cuda() ? impl().device().index() : -1; }
    bool is_cuda() const { return impl().is_cuda(); }
    bool is_cpu() const { return impl().is_cpu(); }
    c10::Layout layout() const { return c10::Layout::Strided; }
    bool requires_grad() const { return false; }
    TensorOptions options() const { return TensorOptions().dtype(scalar_type()).device(device()); }

    void *data_ptr() const { return const_cast<void *>(impl().data()); }
    const void *const_data_ptr() const { return impl().data(); }
    void *mutable_data_ptr() const { return data_ptr(); }
    /* Checks the type as torch does: data_ptr<float>() of a half tensor throws. */
    template <typename T>
    T *data_ptr() const
    {
        static_assert(c10::CppTypeToScalarType<std::remove_cv_t<T>>::known,
                      "data_ptr<T>: an element type the torch shim does not know");
        constexpr ScalarType wanted = c10::CppTypeToScalarType<std::remove_cv_t<T>>::value;
        if (scalar_type() != wanted)
            throw c10::Error(std::string("expected scalar type ") + c10::toString(wanted) + " but found " +
                             c10::toString(scalar_type()));
        return static_cast<T *>(data_ptr());
    }
    template <typename T>
    const T *const_data_ptr() const
    {
        return data_ptr<T>();
    }
    template <typename T>
    T *mutable_data_ptr() const
    {
        return data_ptr<T>();
    }

    /* Copies src's elements into this tensor on the current stream: a
     * device-to-device cudaMemcpyAsync when the dtypes match, a conversion
     * kernel when they differ.  Both tensors contiguous, the same number of
     * elements (torch would broadcast; the shim does not). */
    template <typename Deferred = void>
    Tensor &copy_(const Tensor &src, bool non_blocking = false) const
    {
        (void)non_blocking;
        Tensor &self = const_cast<Tensor &>(*this);
        if (!src.defined()) throw c10::Error("copy_: the source tensor is undefined");
        if (numel() != src.numel())
            throw c10::Error("copy_: the torch shim copies between tensors of the same number of elements, not " +
                             std::to_string(src.numel()) + " into " + std::to_string(numel()));
        if (!is_contiguous() || !src.is_contiguous())
            throw c10::Error("copy_: the torch shim copies contiguous tensors only");
        if (numel() == 0) return self;
        const cudaStream_t stream = hb_torch::current_stream();
        if (scalar_type() == src.scalar_type()) {
            if (data_ptr() == src.data_ptr()) return self;
            hb_torch::detail::cuda_check(
                cudaMemcpyAsync(data_ptr(), src.data_ptr(), nbytes(), cudaMemcpyDeviceToDevice, stream),
                "cudaMemcpyAsync (Tensor::copy_)");
        } else {
            hb_torch::detail::convert<Deferred>(scalar_type(), src.scalar_type(), data_ptr(), src.data_ptr(), numel(),
                                                stream);
        }
        return self;
    }

    /* The tensor in another dtype: this one when the dtype is already that
     * (and copy is false), else a new tensor from the cache, converted on the
     * current stream. */
    template <typename Deferred = void>
    Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false) const
    {
        if (dtype == scalar_type() && !copy) return *this;
        Tensor out = at::empty(sizes(), options().dtype(dtype));
        out.copy_<Deferred>(*this, non_blocking);
        return out;
    }
    template <typename Deferred = void>
    Tensor to(const TensorOptions &options, bool non_blocking = false, bool copy = false) const
    {
        if (options.has_device() && options.device().type() != device().type())
            throw c10::Error("to(): the torch shim does not move tensors between devices");
        return to<Deferred>(options.has_dtype() ? options.dtype().toScalarType() : scalar_type(), non_blocking, copy);
    }
    template <typename Deferred = void>
    Tensor to(c10::Device device, ScalarType dtype, bool non_blocking = false, bool copy = false) const
    {
        return to<Deferred>(TensorOptions().device(device).dtype(dtype), non_blocking, copy);
    }
    template <typename Deferred = void>
    Tensor clone() const
    {
        return to<Deferred>(scalar_type(), false, true);
    }
    Tensor cuda() const
    {
        if (!is_cuda()) throw c10::Error("cuda(): the torch shim does not move tensors between devices");
        return *this;
    }
    Tensor contiguous() const
    {
        if (!is_contiguous()) throw c10::Error("contiguous(): the torch shim makes no strided copies");
        return *this;
    }
    /* Zeros on the current stream (cudaMemsetAsync). */
    Tensor &zero_() const
    {
        if (!is_contiguous()) throw c10::Error("zero_: the torch shim zeroes contiguous tensors only");
        if (numel())
            hb_torch::detail::cuda_check(cudaMemsetAsync(data_ptr(), 0, nbytes(), hb_torch::current_stream()),
                                         "cudaMemsetAsync (Tensor::zero_)");
        return const_cast<Tensor &>(*this);
    }
    /* A contiguous tensor seen with another shape, sharing its storage. */
    Tensor view(IntArrayRef shape) const
    {
        if (!is_contiguous()) throw c10::Error("view: the torch shim views contiguous tensors only");
        int64_t inferred = -1, known = 1;
        std::vector<int64_t> sizes(shape.begin(), shape.end());
        for (size_t i = 0; i < sizes.size(); i++) {
            if (sizes[i] == -1) {
                if (inferred >= 0) throw c10::Error("view: only one dimension can be inferred");
                inferred = static_cast<int64_t>(i);
            } else {
                known *= sizes[i];
            }
        }
        if (inferred >= 0) sizes[static_cast<size_t>(inferred)] = known ? numel() / known : 0;
        int64_t count = 1;
        for (int64_t s : sizes) count *= s;
        if (count != numel())
            throw c10::Error("view: shape of " + std::to_string(count) + " elements for a tensor of " +
                             std::to_string(numel()));
        return Tensor(std::make_shared<c10::TensorImpl>(impl().hb_storage(), IntArrayRef(sizes), IntArrayRef(),
                                                        scalar_type(), device(), storage_offset()));
    }
    Tensor reshape(IntArrayRef shape) const { return view(shape); }

private:
    c10::TensorImpl &impl() const
    {
        if (!impl_) throw c10::Error("the tensor is undefined (a default-constructed torch::Tensor)");
        return *impl_;
    }

    std::shared_ptr<c10::TensorImpl> impl_;
};

/* Not torch's printout of the values (that would copy them to the host):
 * the shape, dtype and device. */
inline std::ostream &operator<<(std::ostream &os, const Tensor &t)
{
    if (!t.defined()) return os << "[ Tensor (undefined) ]";
    return os << "[ Tensor of shape " << t.sizes() << ", dtype " << t.dtype() << ", device " << t.device() << " ]";
}

/* An uninitialized contiguous tensor from the caching allocator
 * (hb_torch/allocator.h), on the options' device (the current device when
 * they name CUDA without an index), cached for the current stream. */
inline Tensor empty(IntArrayRef size, const TensorOptions &options)
{
    hb_torch::detail::check_dims(size.size());
    const int device = hb_torch::detail::allocation_device(options.device());
    const ScalarType dtype = options.dtype().toScalarType();
    int64_t count = 1;
    for (int64_t s : size) {
        if (s < 0) throw c10::ValueError("empty: negative dimension " + std::to_string(s));
        count *= s;
    }
    auto storage = hb_torch::Storage::allocate(static_cast<size_t>(count) * c10::elementSize(dtype), device,
                                               hb_torch::current_stream());
    return Tensor(std::make_shared<c10::TensorImpl>(std::move(storage), size, IntArrayRef(), dtype,
                                                    c10::Device(c10::DeviceType::CUDA,
                                                                static_cast<c10::DeviceIndex>(device))));
}

/* empty, then a cudaMemsetAsync to zero on the current stream. */
inline Tensor zeros(IntArrayRef size, const TensorOptions &options = {})
{
    Tensor t = empty(size, options);
    t.zero_();
    return t;
}

inline Tensor empty_like(const Tensor &t) { return empty(t.sizes(), t.options()); }
inline Tensor empty_like(const Tensor &t, const TensorOptions &options)
{
    TensorOptions o = t.options();
    if (options.has_dtype()) o = o.dtype(options.dtype());
    if (options.has_device()) o = o.device(options.device());
    return empty(t.sizes(), o);
}
inline Tensor zeros_like(const Tensor &t) { return zeros(t.sizes(), t.options()); }
inline Tensor zeros_like(const Tensor &t, const TensorOptions &options)
{
    Tensor r = empty_like(t, options);
    r.zero_();
    return r;
}

/* A tensor over memory the caller owns (nothing is allocated or freed): the
 * adapter wraps the harness's buffers so. */
inline Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides, const TensorOptions &options = {})
{
    const c10::Device device = options.device();
    return Tensor(std::make_shared<c10::TensorImpl>(hb_torch::Storage::borrow(data, device.index()), sizes, strides,
                                                    options.dtype().toScalarType(), device));
}
inline Tensor from_blob(void *data, IntArrayRef sizes, const TensorOptions &options = {})
{
    return from_blob(data, sizes, IntArrayRef(), options);
}

}  // namespace at

/* The namespaces as torch arranges them: ATen sees c10's names, torch sees
 * ATen's (torch/types.h: using namespace at), and torch adds its own dtype
 * spellings. */
namespace at {
using namespace c10;
}

namespace torch {
using namespace at;

using Dtype = at::ScalarType;
constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;

}  // namespace torch

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
