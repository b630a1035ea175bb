/* hb_torch/stream.h -- the current CUDA stream.
 *
 * torch keeps a current stream per thread and device; the shim keeps one per
 * thread, a plain value: hb_torch::set_current_stream() sets it (the adapter
 * sets it to the harness's timed stream for the length of a call), and
 * at::cuda::getCurrentCUDAStream() / c10::cuda::getCurrentCUDAStream(i)
 * return it, whatever device index they are given.  Its default is nullptr,
 * the legacy default stream, as torch's.  Reading it makes no CUDA call. */
#ifndef HB_TORCH_STREAM_H
#define HB_TORCH_STREAM_H

#include <hb_torch/core.h>
#include <hb_torch/types.h>

#if defined(__GNUC__)
#pragma GCC visibility push(hidden) /* hb_torch/core.h says why */
#endif

namespace hb_torch {
namespace detail {

/* One per thread and per library: an inline function's static is one object
 * for every translation unit of the shared library (the file's and the
 * adapter's). */
inline cudaStream_t &current_stream_slot() noexcept
{
    static thread_local cudaStream_t stream = nullptr;
    return stream;
}

}  // namespace detail

/* The stream getCurrentCUDAStream() returns, torch::empty's cache key, and
 * where copy_, to, zeros and the shim's kernels are enqueued. */
inline cudaStream_t current_stream() noexcept { return detail::current_stream_slot(); }

/* Sets it; returns the one it replaces. */
inline cudaStream_t set_current_stream(cudaStream_t stream) noexcept
{
    cudaStream_t previous = detail::current_stream_slot();
    detail::current_stream_slot() = stream;
    return previous;
}

/* Sets the current stream for a scope and puts the previous one back. */
class CurrentStreamGuard {
public:
    explicit CurrentStreamGuard(cudaStream_t stream) noexcept : previous_(set_current_stream(stream)) {}
    ~CurrentStreamGuard() { set_current_stream(previous_); }
    CurrentStreamGuard(const CurrentStreamGuard &) = delete;
    CurrentStreamGuard &operator=(const CurrentStreamGuard &) = delete;

private:
    cudaStream_t previous_;
};

}  // namespace hb_torch

namespace c10 {
namespace cuda {

/* A stream and the device it was asked for (-1: the current one, not looked
 * up); converts to cudaStream_t, as torch's does. */
class CUDAStream {
public:
    CUDAStream(cudaStream_t stream, DeviceIndex device_index) noexcept : stream_(stream), device_index_(device_index) {}
    cudaStream_t stream() const noexcept { return stream_; }
    operator cudaStream_t() const noexcept { return stream_; }
    DeviceIndex device_index() const noexcept { return device_index_; }
    Device device() const noexcept { return Device(DeviceType::CUDA, device_index_); }
    bool operator==(const CUDAStream &o) const noexcept { return stream_ == o.stream_; }
    bool operator!=(const CUDAStream &o) const noexcept { return stream_ != o.stream_; }
    void synchronize() const { hb_torch::detail::cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }
    bool query() const
    {
        cudaError_t err = cudaStreamQuery(stream_);
        if (err == cudaErrorNotReady) return false;
        hb_torch::detail::cuda_check(err, "cudaStreamQuery");
        return true;
    }

private:
    cudaStream_t stream_;
    DeviceIndex device_index_;
};

inline std::ostream &operator<<(std::ostream &os, const CUDAStream &s)
{
    return os << "stream " << static_cast<const void *>(s.stream()) << " on device cuda:" << static_cast<int>(s.device_index());
}

inline CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1) noexcept
{
    return CUDAStream(hb_torch::current_stream(), device_index);
}
inline CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1) noexcept
{
    return CUDAStream(nullptr, device_index);
}
inline CUDAStream getStreamFromExternal(cudaStream_t stream, DeviceIndex device_index) noexcept
{
    return CUDAStream(stream, device_index);
}
inline void setCurrentCUDAStream(CUDAStream stream) noexcept { hb_torch::set_current_stream(stream.stream()); }

}  // namespace cuda
}  // namespace c10

namespace at {
namespace cuda {

using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getDefaultCUDAStream;
using c10::cuda::getStreamFromExternal;
using c10::cuda::setCurrentCUDAStream;

}  // namespace cuda
}  // namespace at

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
