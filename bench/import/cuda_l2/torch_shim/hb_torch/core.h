/* hb_torch/core.h -- the base of the torch shim (bench/import/torch_shim/):
 * the standard headers torch's own headers bring along, c10::Error and its
 * kin, the checked CUDA call, and the check macros (TORCH_CHECK and friends).
 *
 * Rules every shim header keeps, because the published files are compiled
 * unmodified and some of them do odd things before or around the include:
 *   - no shim type shared between translation units holds a std::string or a
 *     std::list: two published files define _GLIBCXX_USE_CXX11_ABI 0 before
 *     their includes, so the file's object and the adapter's object may use
 *     different std::string layouts (c10::Error keeps its text in a
 *     shared_ptr<const char>, a Tensor holds only shared_ptrs and arrays);
 *   - every macro is defined only when it is not yet defined (a file defines
 *     TORCH_CHECK and its kin as no-ops before it includes torch), and the
 *     shim's own code never uses them;
 *   - nothing is declared in c10::detail (several files define their own
 *     c10::detail::torchInternalAssertFail, with four different signatures,
 *     some [[noreturn]]), and no c10::TensorImpl member is named like the
 *     symbols one file defines by asm label (incref_pyobject, decref_pyobject);
 *   - namespaces c10, at, torch and caffe2 hold only names real torch has
 *     (one file reopens namespace c10 for its own CUTLASS configurations);
 *     the shim's own pieces live in namespace hb_torch. */
#ifndef HB_TORCH_CORE_H
#define HB_TORCH_CORE_H

#if __cplusplus < 201703L
#error "the torch shim needs C++17 (nvcc -std=c++17)"
#endif

/* What torch/extension.h brings in transitively: the published files use
 * std::cout, std::runtime_error, std::vector, std::mutex, ... without
 * including them. */
#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cfloat>
#include <chrono>
#include <climits>
#include <cmath>
#include <complex>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <initializer_list>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include <cuda_runtime_api.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

/* Everything the shim declares is hidden in the launcher library: nothing of
 * it is exported (only the adapter's two entry points are), so two launcher
 * libraries in one process never bind to each other's shim, and its statics
 * (the allocator, the current stream) are not STB_GNU_UNIQUE symbols, which
 * the dynamic linker would share across libraries despite RTLD_LOCAL. */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

#if defined(__CUDACC__)
#define HB_TORCH_HD __host__ __device__
#else
#define HB_TORCH_HD
#endif

#if defined(__GNUC__) || defined(__clang__)
#define HB_TORCH_UNLIKELY(x) __builtin_expect(static_cast<bool>(x), 0)
#else
#define HB_TORCH_UNLIKELY(x) (x)
#endif

namespace hb_torch {
namespace detail {

/* A NUL-terminated copy of text, shared by the copies of one exception. */
inline std::shared_ptr<const char> shared_text(const char *text, size_t length)
{
    char *copy = new char[length + 1];
    if (length) std::memcpy(copy, text, length);
    copy[length] = '\0';
    return std::shared_ptr<const char>(copy, std::default_delete<const char[]>());
}

}  // namespace detail
}  // namespace hb_torch

namespace c10 {

/* torch's exception: derives std::exception, what() is the message.  The
 * text is held in a shared_ptr<const char>, not a std::string (the rules
 * above), so copying it (throw copies) never throws. */
class Error : public std::exception {
public:
    Error() : Error("c10::Error") {}
    explicit Error(const char *message)
        : text_(hb_torch::detail::shared_text(message ? message : "", message ? std::strlen(message) : 0))
    {
    }
    explicit Error(const std::string &message) : text_(hb_torch::detail::shared_text(message.data(), message.size())) {}
    const char *what() const noexcept override { return text_.get(); }
    const char *what_without_backtrace() const noexcept { return text_.get(); }
    std::string msg() const { return std::string(text_.get()); }

private:
    std::shared_ptr<const char> text_;
};

/* The subclasses TORCH_CHECK_WITH and the typed checks name. */
class IndexError : public Error {
public:
    using Error::Error;
};
class ValueError : public Error {
public:
    using Error::Error;
};
class TypeError : public Error {
public:
    using Error::Error;
};
class NotImplementedError : public Error {
public:
    using Error::Error;
};
class LinAlgError : public Error {
public:
    using Error::Error;
};
class OutOfMemoryError : public Error {
public:
    using Error::Error;
};
class EnforceFiniteError : public Error {
public:
    using Error::Error;
};

}  // namespace c10

namespace hb_torch {
namespace detail {

inline void stream_all(std::ostream &) {}
template <typename First, typename... Rest>
void stream_all(std::ostream &os, const First &first, const Rest &...rest)
{
    os << first;
    stream_all(os, rest...);
}

/* c10::str: the arguments streamed one after the other. */
template <typename... Args>
std::string message(const Args &...args)
{
    std::ostringstream os;
    stream_all(os, args...);
    return os.str();
}

inline const char *base_name(const char *path)
{
    const char *slash = std::strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The text of a failed check: the message if there is one, torch's
 * "Expected ... to be true" if not, and where the check is. */
inline std::string check_text(const char *macro, const char *file, int line, const char *condition,
                              const std::string &msg)
{
    std::ostringstream os;
    if (msg.empty())
        os << "Expected " << condition << " to be true, but got false.";
    else
        os << msg;
    os << " (" << macro << " at " << base_name(file) << ":" << line << ")";
    return os.str();
}

inline std::string internal_assert_text(const char *file, int line, const char *condition, const std::string &msg)
{
    std::ostringstream os;
    os << condition << " INTERNAL ASSERT FAILED at " << base_name(file) << ":" << line;
    if (!msg.empty()) os << ": " << msg;
    return os.str();
}

/* Every CUDA call the shim makes goes through here: on an error it clears
 * the runtime's last error (as torch's C10_CUDA_CHECK does) and throws
 * c10::Error -- c10::OutOfMemoryError for cudaErrorMemoryAllocation -- with
 * the CUDA error's text. */
inline void cuda_check(cudaError_t err, const char *what)
{
    if (err == cudaSuccess) return;
    (void)cudaGetLastError();
    std::ostringstream os;
    os << "CUDA error: " << cudaGetErrorString(err) << " (" << cudaGetErrorName(err) << ") in " << what;
    if (err == cudaErrorMemoryAllocation) throw c10::OutOfMemoryError(os.str());
    throw c10::Error(os.str());
}

}  // namespace detail
}  // namespace hb_torch

/* The check macros, each an if statement with braces as torch's are, so a
 * file's macro that ends in one works with or without a semicolon after it.
 * Each is defined only where the file has not defined it already. */
#ifndef TORCH_CHECK
#define TORCH_CHECK(cond, ...)                                                                                  \
    if (HB_TORCH_UNLIKELY(!(cond))) {                                                                           \
        throw ::c10::Error(::hb_torch::detail::check_text("TORCH_CHECK", __FILE__, __LINE__, #cond,             \
                                                          ::hb_torch::detail::message(__VA_ARGS__)));           \
    }
#endif
#ifndef TORCH_CHECK_WITH
#define TORCH_CHECK_WITH(error_t, cond, ...)                                                                    \
    if (HB_TORCH_UNLIKELY(!(cond))) {                                                                           \
        throw ::c10::error_t(::hb_torch::detail::check_text("TORCH_CHECK_WITH", __FILE__, __LINE__, #cond,      \
                                                            ::hb_torch::detail::message(__VA_ARGS__)));         \
    }
#endif
#ifndef TORCH_CHECK_INDEX
#define TORCH_CHECK_INDEX(cond, ...) TORCH_CHECK_WITH(IndexError, cond, __VA_ARGS__)
#endif
#ifndef TORCH_CHECK_VALUE
#define TORCH_CHECK_VALUE(cond, ...) TORCH_CHECK_WITH(ValueError, cond, __VA_ARGS__)
#endif
#ifndef TORCH_CHECK_TYPE
#define TORCH_CHECK_TYPE(cond, ...) TORCH_CHECK_WITH(TypeError, cond, __VA_ARGS__)
#endif
#ifndef TORCH_CHECK_NOT_IMPLEMENTED
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) TORCH_CHECK_WITH(NotImplementedError, cond, __VA_ARGS__)
#endif
#ifndef TORCH_INTERNAL_ASSERT
#define TORCH_INTERNAL_ASSERT(cond, ...)                                                                        \
    if (HB_TORCH_UNLIKELY(!(cond))) {                                                                           \
        throw ::c10::Error(::hb_torch::detail::internal_assert_text(__FILE__, __LINE__, #cond,                  \
                                                                    ::hb_torch::detail::message(__VA_ARGS__))); \
    }
#endif
/* The debug-only asserts check nothing under NDEBUG (torch's while (false)
 * keeps the arguments compiled, not evaluated). */
#ifndef TORCH_INTERNAL_ASSERT_DEBUG_ONLY
#ifdef NDEBUG
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(...) \
    while (false) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#else
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(...) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#endif
#endif
#ifndef C10_ASSERT_DEBUG_ONLY
#define C10_ASSERT_DEBUG_ONLY(...) TORCH_INTERNAL_ASSERT_DEBUG_ONLY(__VA_ARGS__)
#endif
/* The deprecated spellings. */
#ifndef AT_CHECK
#define AT_CHECK(...) TORCH_CHECK(__VA_ARGS__)
#endif
#ifndef AT_ASSERT
#define AT_ASSERT(...) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#endif
#ifndef AT_ASSERTM
#define AT_ASSERTM(cond, ...) TORCH_INTERNAL_ASSERT(cond, __VA_ARGS__)
#endif
#ifndef AT_ERROR
#define AT_ERROR(...) throw ::c10::Error(::hb_torch::detail::message(__VA_ARGS__))
#endif
#ifndef TORCH_WARN
#define TORCH_WARN(...) \
    (std::cerr << "Warning: " << ::hb_torch::detail::message(__VA_ARGS__) << std::endl)
#endif
#ifndef TORCH_WARN_ONCE
#define TORCH_WARN_ONCE(...) TORCH_WARN(__VA_ARGS__)
#endif
#ifndef C10_LIKELY
#define C10_LIKELY(x) __builtin_expect(static_cast<bool>(x), 1)
#endif
#ifndef C10_UNLIKELY
#define C10_UNLIKELY(x) HB_TORCH_UNLIKELY(x)
#endif
/* torch's checked CUDA call and launch check (c10/cuda/CUDAException.h). */
#ifndef C10_CUDA_CHECK
#define C10_CUDA_CHECK(expr) ::hb_torch::detail::cuda_check((expr), #expr)
#endif
#ifndef AT_CUDA_CHECK
#define AT_CUDA_CHECK(expr) C10_CUDA_CHECK(expr)
#endif
#ifndef C10_CUDA_KERNEL_LAUNCH_CHECK
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ::hb_torch::detail::cuda_check(cudaGetLastError(), "a kernel launch")
#endif

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
