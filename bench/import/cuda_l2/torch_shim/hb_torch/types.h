/* hb_torch/types.h -- torch's small value types, as far as the published
 * CUDA-L2 files use them: c10::Half and c10::BFloat16, ScalarType and its
 * k-constants, caffe2::TypeMeta (what .dtype() returns) with its comparisons
 * against a ScalarType, Device and DeviceType, Layout, ArrayRef and
 * IntArrayRef, TensorOptions (built with torch::dtype(...).device(...),
 * streamable with std::cout). */
#ifndef HB_TORCH_TYPES_H
#define HB_TORCH_TYPES_H

#include <hb_torch/core.h>

#if defined(__GNUC__)
#pragma GCC visibility push(hidden) /* hb_torch/core.h says why */
#endif

namespace c10 {

/* -- element types ------------------------------------------------------ */

/* torch's fp16 element: 16 bits, convertible to and from float and __half. */
struct alignas(2) Half {
    unsigned short x;

    struct from_bits_t {};
    static constexpr from_bits_t from_bits() { return from_bits_t(); }

    Half() = default;
    constexpr HB_TORCH_HD Half(unsigned short bits, from_bits_t) : x(bits) {}
    HB_TORCH_HD Half(float value) : x(__half_raw(__float2half_rn(value)).x) {}
    HB_TORCH_HD Half(const __half &value) : x(__half_raw(value).x) {}
    HB_TORCH_HD operator float() const
    {
        __half_raw raw;
        raw.x = x;
        return __half2float(__half(raw));
    }
    HB_TORCH_HD operator __half() const
    {
        __half_raw raw;
        raw.x = x;
        return __half(raw);
    }
};

/* torch's bf16 element. */
struct alignas(2) BFloat16 {
    unsigned short x;

    struct from_bits_t {};
    static constexpr from_bits_t from_bits() { return from_bits_t(); }

    BFloat16() = default;
    constexpr HB_TORCH_HD BFloat16(unsigned short bits, from_bits_t) : x(bits) {}
    HB_TORCH_HD BFloat16(float value) : x(__nv_bfloat16_raw(__float2bfloat16_rn(value)).x) {}
    HB_TORCH_HD BFloat16(const __nv_bfloat16 &value) : x(__nv_bfloat16_raw(value).x) {}
    HB_TORCH_HD operator float() const
    {
        __nv_bfloat16_raw raw;
        raw.x = x;
        return __bfloat162float(__nv_bfloat16(raw));
    }
    HB_TORCH_HD operator __nv_bfloat16() const
    {
        __nv_bfloat16_raw raw;
        raw.x = x;
        return __nv_bfloat16(raw);
    }
};

/* torch's numbering (c10/core/ScalarType.h) for the types the shim knows. */
enum class ScalarType : int8_t {
    Byte = 0,
    Char = 1,
    Short = 2,
    Int = 3,
    Long = 4,
    Half = 5,
    Float = 6,
    Double = 7,
    Bool = 11,
    BFloat16 = 15,
    Undefined = 127,
};

constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;

inline const char *toString(ScalarType t)
{
    switch (t) {
    case ScalarType::Byte: return "Byte";
    case ScalarType::Char: return "Char";
    case ScalarType::Short: return "Short";
    case ScalarType::Int: return "Int";
    case ScalarType::Long: return "Long";
    case ScalarType::Half: return "Half";
    case ScalarType::Float: return "Float";
    case ScalarType::Double: return "Double";
    case ScalarType::Bool: return "Bool";
    case ScalarType::BFloat16: return "BFloat16";
    case ScalarType::Undefined: break;
    }
    return "Undefined";
}

inline size_t elementSize(ScalarType t)
{
    switch (t) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Bool: return 1;
    case ScalarType::Short:
    case ScalarType::Half:
    case ScalarType::BFloat16: return 2;
    case ScalarType::Int:
    case ScalarType::Float: return 4;
    case ScalarType::Long:
    case ScalarType::Double: return 8;
    case ScalarType::Undefined: break;
    }
    throw Error(std::string("elementSize: undefined scalar type ") + toString(t));
}

inline std::ostream &operator<<(std::ostream &os, ScalarType t) { return os << toString(t); }

/* The ScalarType of a C++ element type: torch's types, and CUDA's __half and
 * __nv_bfloat16 as the same 16 bits (data_ptr<half>() works here, where
 * torch has no such specialization). */
template <typename T>
struct CppTypeToScalarType {
    static constexpr bool known = false;
};
#define HB_TORCH_CPP_TYPE(cpp, st)                                   \
    template <>                                                     \
    struct CppTypeToScalarType<cpp> {                               \
        static constexpr bool known = true;                         \
        static constexpr ScalarType value = ScalarType::st;         \
    };
HB_TORCH_CPP_TYPE(uint8_t, Byte)
HB_TORCH_CPP_TYPE(int8_t, Char)
HB_TORCH_CPP_TYPE(int16_t, Short)
HB_TORCH_CPP_TYPE(int32_t, Int)
HB_TORCH_CPP_TYPE(int64_t, Long)
HB_TORCH_CPP_TYPE(Half, Half)
HB_TORCH_CPP_TYPE(__half, Half)
HB_TORCH_CPP_TYPE(float, Float)
HB_TORCH_CPP_TYPE(double, Double)
HB_TORCH_CPP_TYPE(bool, Bool)
HB_TORCH_CPP_TYPE(BFloat16, BFloat16)
HB_TORCH_CPP_TYPE(__nv_bfloat16, BFloat16)
#undef HB_TORCH_CPP_TYPE

/* -- devices -------------------------------------------------------------- */

enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
using DeviceIndex = int8_t;

/* A device: a type and an index, -1 for "the current one". */
class Device {
public:
    Device(DeviceType type, DeviceIndex index = -1) : type_(type), index_(index) {}
    DeviceType type() const noexcept { return type_; }
    DeviceIndex index() const noexcept { return index_; }
    bool has_index() const noexcept { return index_ >= 0; }
    bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
    bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
    void set_index(DeviceIndex index) { index_ = index; }
    bool operator==(const Device &o) const noexcept { return type_ == o.type_ && index_ == o.index_; }
    bool operator!=(const Device &o) const noexcept { return !(*this == o); }
    std::string str() const
    {
        std::string s = type_ == DeviceType::CUDA ? "cuda" : "cpu";
        if (index_ >= 0) s += ":" + std::to_string(static_cast<int>(index_));
        return s;
    }

private:
    DeviceType type_;
    DeviceIndex index_;
};

inline std::ostream &operator<<(std::ostream &os, DeviceType t) { return os << (t == DeviceType::CUDA ? "cuda" : "cpu"); }
inline std::ostream &operator<<(std::ostream &os, const Device &d)
{
    os << d.type();
    if (d.has_index()) os << ':' << static_cast<int>(d.index());
    return os;
}

enum class Layout : int8_t { Strided = 0 };
constexpr Layout kStrided = Layout::Strided;
inline std::ostream &operator<<(std::ostream &os, Layout) { return os << "Strided"; }

enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };

/* -- ArrayRef -------------------------------------------------------------- */

/* A view of contiguous elements it does not own (c10::ArrayRef): what
 * .sizes() returns and what factories take. */
template <typename T>
class ArrayRef {
public:
    using value_type = T;
    using iterator = const T *;
    using const_iterator = const T *;
    using size_type = size_t;

    constexpr ArrayRef() : data_(nullptr), length_(0) {}
    constexpr ArrayRef(const T &one) : data_(&one), length_(1) {}
    constexpr ArrayRef(const T *data, size_t length) : data_(data), length_(length) {}
    constexpr ArrayRef(const T *begin, const T *end) : data_(begin), length_(static_cast<size_t>(end - begin)) {}
    template <typename A>
    ArrayRef(const std::vector<T, A> &v) : data_(v.data()), length_(v.size())
    {
    }
    template <size_t N>
    constexpr ArrayRef(const std::array<T, N> &a) : data_(a.data()), length_(N)
    {
    }
    template <size_t N>
    constexpr ArrayRef(const T (&a)[N]) : data_(a), length_(N)
    {
    }
    /* Lives as long as the braced list: to the end of the full expression
     * (torch's ArrayRef silences GCC's warning about it the same way). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
    constexpr ArrayRef(const std::initializer_list<T> &list)
        : data_(list.begin() == list.end() ? nullptr : list.begin()), length_(list.size())
    {
    }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

    constexpr const T *data() const { return data_; }
    constexpr size_t size() const { return length_; }
    constexpr bool empty() const { return length_ == 0; }
    constexpr const T *begin() const { return data_; }
    constexpr const T *end() const { return data_ + length_; }
    const T &front() const { return at(0); }
    const T &back() const { return at(length_ - 1); }
    constexpr const T &operator[](size_t i) const { return data_[i]; }
    const T &at(size_t i) const
    {
        if (i >= length_)
            throw IndexError("ArrayRef: index " + std::to_string(i) + " out of range for length " +
                             std::to_string(length_));
        return data_[i];
    }
    ArrayRef slice(size_t start, size_t count) const
    {
        if (start + count > length_) throw IndexError("ArrayRef::slice out of range");
        return ArrayRef(data_ + start, count);
    }
    ArrayRef slice(size_t start) const { return slice(start, length_ - start); }
    bool equals(ArrayRef other) const
    {
        return length_ == other.length_ && std::equal(begin(), end(), other.begin());
    }
    std::vector<T> vec() const { return std::vector<T>(begin(), end()); }

private:
    const T *data_;
    size_t length_;
};

template <typename T>
bool operator==(ArrayRef<T> a, ArrayRef<T> b)
{
    return a.equals(b);
}
template <typename T>
bool operator!=(ArrayRef<T> a, ArrayRef<T> b)
{
    return !a.equals(b);
}
template <typename T>
bool operator==(const std::vector<T> &a, ArrayRef<T> b)
{
    return ArrayRef<T>(a).equals(b);
}
template <typename T>
bool operator==(ArrayRef<T> a, const std::vector<T> &b)
{
    return a.equals(ArrayRef<T>(b));
}
template <typename T>
bool operator!=(const std::vector<T> &a, ArrayRef<T> b)
{
    return !(a == b);
}
template <typename T>
bool operator!=(ArrayRef<T> a, const std::vector<T> &b)
{
    return !(a == b);
}
template <typename T>
std::ostream &operator<<(std::ostream &os, ArrayRef<T> a)
{
    os << '[';
    for (size_t i = 0; i < a.size(); i++) os << (i ? ", " : "") << a[i];
    return os << ']';
}

using IntArrayRef = ArrayRef<int64_t>;

}  // namespace c10

namespace caffe2 {

/* What .dtype() returns in torch: a type's identity, comparable with a
 * ScalarType both ways (t.dtype() == torch::kHalf), printed as torch prints
 * it ("c10::Half"). */
class TypeMeta {
public:
    TypeMeta() noexcept : type_(c10::ScalarType::Undefined) {}
    template <typename T>
    static TypeMeta Make()
    {
        static_assert(c10::CppTypeToScalarType<T>::known, "TypeMeta::Make: a type the torch shim does not know");
        return fromScalarType(c10::CppTypeToScalarType<T>::value);
    }
    static TypeMeta fromScalarType(c10::ScalarType t) noexcept
    {
        TypeMeta m;
        m.type_ = t;
        return m;
    }
    c10::ScalarType toScalarType() const noexcept { return type_; }
    bool isScalarType(c10::ScalarType t) const noexcept { return type_ == t; }
    size_t itemsize() const { return c10::elementSize(type_); }
    const char *name() const noexcept
    {
        switch (type_) {
        case c10::ScalarType::Byte: return "unsigned char";
        case c10::ScalarType::Char: return "signed char";
        case c10::ScalarType::Short: return "short int";
        case c10::ScalarType::Int: return "int";
        case c10::ScalarType::Long: return "long int";
        case c10::ScalarType::Half: return "c10::Half";
        case c10::ScalarType::Float: return "float";
        case c10::ScalarType::Double: return "double";
        case c10::ScalarType::Bool: return "bool";
        case c10::ScalarType::BFloat16: return "c10::BFloat16";
        case c10::ScalarType::Undefined: break;
        }
        return "nullptr (uninitialized)";
    }
    friend bool operator==(const TypeMeta &a, const TypeMeta &b) noexcept { return a.type_ == b.type_; }
    friend bool operator!=(const TypeMeta &a, const TypeMeta &b) noexcept { return a.type_ != b.type_; }

private:
    c10::ScalarType type_;
};

inline std::ostream &operator<<(std::ostream &os, const TypeMeta &m) { return os << m.name(); }

}  // namespace caffe2

namespace c10 {

using caffe2::TypeMeta;

inline ScalarType typeMetaToScalarType(caffe2::TypeMeta m) { return m.toScalarType(); }
inline caffe2::TypeMeta scalarTypeToTypeMeta(ScalarType t) { return caffe2::TypeMeta::fromScalarType(t); }

/* As in c10/core/ScalarTypeToTypeMeta.h. */
inline bool operator==(ScalarType t, caffe2::TypeMeta m) { return m.isScalarType(t); }
inline bool operator==(caffe2::TypeMeta m, ScalarType t) { return m.isScalarType(t); }
inline bool operator!=(ScalarType t, caffe2::TypeMeta m) { return !m.isScalarType(t); }
inline bool operator!=(caffe2::TypeMeta m, ScalarType t) { return !m.isScalarType(t); }

/* -- TensorOptions --------------------------------------------------------- */

/* What a factory is asked for: a dtype (default float, as torch's default),
 * a device (default cpu), layout strided.  Each setter returns a changed
 * copy, as torch's do. */
class TensorOptions {
public:
    TensorOptions() = default;
    TensorOptions(ScalarType t) { set_dtype(t); }
    TensorOptions(caffe2::TypeMeta m) { set_dtype(m.toScalarType()); }
    TensorOptions(Device d) { set_device(d); }
    TensorOptions(DeviceType t) { set_device(Device(t)); }
    TensorOptions(Layout) {}

    TensorOptions dtype(ScalarType t) const noexcept
    {
        TensorOptions r = *this;
        r.set_dtype(t);
        return r;
    }
    TensorOptions dtype(caffe2::TypeMeta m) const noexcept { return dtype(m.toScalarType()); }
    TensorOptions dtype(std::optional<ScalarType> t) const noexcept
    {
        TensorOptions r = *this;
        if (t) r.set_dtype(*t);
        else r.has_dtype_ = false, r.dtype_ = ScalarType::Float;
        return r;
    }
    template <typename T>
    TensorOptions dtype() const noexcept
    {
        return dtype(caffe2::TypeMeta::Make<T>());
    }
    TensorOptions device(Device d) const noexcept
    {
        TensorOptions r = *this;
        r.set_device(d);
        return r;
    }
    TensorOptions device(DeviceType t, DeviceIndex index = -1) const noexcept { return device(Device(t, index)); }
    TensorOptions device_index(int index) const noexcept
    {
        return device(Device(DeviceType::CUDA, static_cast<DeviceIndex>(index)));
    }
    TensorOptions layout(Layout) const noexcept { return *this; }
    TensorOptions requires_grad(bool on) const
    {
        if (on) throw Error("the torch shim has no autograd: requires_grad(true) is not supported");
        return *this;
    }
    TensorOptions pinned_memory(bool on) const
    {
        if (on) throw Error("the torch shim allocates no host memory: pinned_memory(true) is not supported");
        return *this;
    }
    TensorOptions memory_format(MemoryFormat f) const
    {
        if (f != MemoryFormat::Contiguous && f != MemoryFormat::Preserve)
            throw Error("the torch shim has only contiguous tensors");
        return *this;
    }

    caffe2::TypeMeta dtype() const noexcept { return caffe2::TypeMeta::fromScalarType(dtype_); }
    Device device() const noexcept { return device_; }
    Layout layout() const noexcept { return Layout::Strided; }
    bool requires_grad() const noexcept { return false; }
    bool pinned_memory() const noexcept { return false; }
    bool has_dtype() const noexcept { return has_dtype_; }
    bool has_device() const noexcept { return has_device_; }
    bool has_layout() const noexcept { return false; }
    int32_t device_index() const noexcept { return device_.index(); }

private:
    void set_dtype(ScalarType t) noexcept { dtype_ = t, has_dtype_ = true; }
    void set_device(Device d) noexcept { device_ = d, has_device_ = true; }

    ScalarType dtype_ = ScalarType::Float;
    Device device_ = Device(DeviceType::CPU);
    bool has_dtype_ = false;
    bool has_device_ = false;
};

/* torch's free functions that start a TensorOptions: torch::dtype(kHalf).device(...). */
inline TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }
inline TensorOptions dtype(caffe2::TypeMeta m) { return TensorOptions().dtype(m); }
template <typename T>
inline TensorOptions dtype()
{
    return TensorOptions().dtype<T>();
}
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
inline TensorOptions device_index(int index) { return TensorOptions().device_index(index); }
inline TensorOptions layout(Layout l) { return TensorOptions().layout(l); }
inline TensorOptions requires_grad(bool on = true) { return TensorOptions().requires_grad(on); }

/* As torch prints it: TensorOptions(dtype=c10::Half, device=cuda:0, ...). */
inline std::ostream &operator<<(std::ostream &os, const TensorOptions &o)
{
    os << "TensorOptions(dtype=" << o.dtype() << (o.has_dtype() ? "" : " (default)") << ", device=" << o.device()
       << (o.has_device() ? "" : " (default)") << ", layout=" << o.layout()
       << ", requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))";
    return os;
}

}  // namespace c10

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
