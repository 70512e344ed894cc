// Element types, their sizes and names as PyTorch prints them, and the 16-bit float formats.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

namespace strided {

// Complex64 and Complex128 hold (real, imaginary) pairs of float32 and float64, as
// c10::complex<float> and c10::complex<double>. The library views, copies and prints them; its
// element-wise, reduction and matmul kernels refuse them (tensor.h).
// UInt8, Int8 and Int16 are PyTorch's Byte, Char and Short (torch.uint8, torch.int8, torch.int16):
// an image's pixels, a float's bytes seen through view(torch.uint8).
enum class DType : uint8_t {
  Bool, UInt8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64, Complex64, Complex128
};
// Every dtype, in the enum's order: for loops over dtypes and for the lists in messages.
inline constexpr DType kAllDTypes[] = {
    DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,   DType::Int32,     DType::Int64,
    DType::Float16, DType::BFloat16, DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};

// Bytes per element, as torch.Tensor.element_size().
int64_t itemsize(DType t);
// "float32", "int64", "bool", "float16", "bfloat16", "complex64" ... (PyTorch prints them as
// torch.<name>).
std::string_view name(DType t);
// Parses the names above (and the aliases torch has as attributes: "float", "double", "half",
// "short", "int", "long", "cfloat", "cdouble"), with or without "torch.".
DType dtype_from_name(std::string_view name);
// The names dtype_from_name knows, for messages: "bool, uint8, int8, ..., complex64 or complex128".
std::string dtype_names();

bool is_floating_point(DType t);
// uint8, int8, int16, int32, int64 (bool excluded, as in PyTorch's isIntegralType(t, false)).
bool is_integral(DType t);
bool is_complex(DType t);   // complex64, complex128 (not floating point, as in PyTorch)
// The dtype of one part of a complex element (c10::toRealValueType): float32 for complex64,
// float64 for complex128; any other dtype is its own.
DType real_value_type(DType t);
// The complex dtype whose parts are t (c10::toComplexType): complex64 for float32, complex128 for
// float64; a complex dtype is its own. Others have no complex dtype in this library: an Error
// naming op.
DType complex_type(DType t, const char* op);
// The error of a kernel the library has only for real dtypes: "add: complex64 is not supported by
// this library's kernels".
[[noreturn]] void refuse_complex(std::string_view op, DType t);

// IEEE binary16 and bfloat16 kept as raw bits; conversions round to nearest even.
struct Half {
  uint16_t bits = 0;
};
struct BFloat16 {
  uint16_t bits = 0;
};

float half_to_float(Half h);
Half float_to_half(float f);
float bfloat16_to_float(BFloat16 b);
BFloat16 float_to_bfloat16(float f);

// The type an element computes in: float16 and bfloat16 in float32 (ATen's acc_type), every other
// type as itself; widen and narrow_to convert to it and back (narrow_to rounds to nearest even).
template <class T>
using wide_t = std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float, T>;
template <class T>
wide_t<T> widen(T x) {
  if constexpr (std::is_same_v<T, Half>)
    return half_to_float(x);
  else if constexpr (std::is_same_v<T, BFloat16>)
    return bfloat16_to_float(x);
  else
    return x;
}
template <class T>
T narrow_to(wide_t<T> x) {
  if constexpr (std::is_same_v<T, Half>)
    return float_to_half(x);
  else if constexpr (std::is_same_v<T, BFloat16>)
    return float_to_bfloat16(x);
  else
    return x;
}

// One element from S to D, as PyTorch's static_cast between its scalar types (c10/util/TypeCast.h,
// static_cast_with_inter_type); the one conversion every copy, cast and store uses.
// Floating → integer truncates toward zero; NaN and out-of-range values give the type's lowest
// value, as torch 1.13 does on x86 (cvttsd2si), without the undefined behaviour of a plain cast;
// uint8 takes the low byte of that int64, int8 and int16 the low bits of that int32 (below).
// Anything → bool is "!= 0" (NaN is true). Half and bfloat16 go through float.
template <class D, class S>
D convert_element(S x) {
  if constexpr (std::is_same_v<D, S>) {
    return x;
  } else {
    const auto v = widen(x);
    using V = decltype(v);
    if constexpr (std::is_same_v<D, bool>) {
      return v != V(0);
    } else if constexpr (std::is_same_v<D, Half>) {
      return float_to_half(static_cast<float>(v));
    } else if constexpr (std::is_same_v<D, BFloat16>) {
      return float_to_bfloat16(static_cast<float>(v));
    } else if constexpr (std::is_same_v<D, uint8_t> && std::is_floating_point_v<V>) {
      // c10/util/TypeCast.h casts to uint8 through int64 ("Casting Negative Floats to uint8"),
      // keeping the low byte: torch 1.13 gives 255 for -1.5, 7 for 3000000007.0, and 0 for NaN
      // and 1e20 (the lowest int64).
      return static_cast<uint8_t>(convert_element<int64_t>(v));
    } else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<V> && sizeof(D) < 4) {
      // int8, int16: x86 has no truncation to fewer than 32 bits, so GCC truncates to int32
      // (cvttss2si / cvttsd2si, the lowest int32 when out of range) and keeps the low bits:
      // torch 1.13 gives int8 44 for 300.7, and 0 for NaN, 1e20 and 3000000007.0.
      return static_cast<D>(convert_element<int32_t>(v));
    } else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<V>) {
      // The exact bounds of truncation: lo < v < hi converts, everything else is "invalid".
      constexpr double hi = -static_cast<double>(std::numeric_limits<D>::min());
      constexpr double lo = sizeof(D) < 8 ? -hi - 1.0 : -hi;
      const double w = static_cast<double>(v);
      const bool ok = sizeof(D) < 8 ? (w > lo && w < hi) : (w >= lo && w < hi);
      return ok ? static_cast<D>(w) : std::numeric_limits<D>::min();
    } else {
      // Integer → integer wraps modulo 2^n (C++20); integer → floating rounds; double → float
      // rounds to nearest with overflow to ±inf (IEEE 754, as numeric_limits<float>::is_iec559).
      return static_cast<D>(v);
    }
  }
}

// Maps a C++ type to its DType.
template <class T>
struct dtype_of;
template <> struct dtype_of<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_of<uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct dtype_of<int8_t> { static constexpr DType value = DType::Int8; };
template <> struct dtype_of<int16_t> { static constexpr DType value = DType::Int16; };
template <> struct dtype_of<int32_t> { static constexpr DType value = DType::Int32; };
template <> struct dtype_of<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct dtype_of<Half> { static constexpr DType value = DType::Float16; };
template <> struct dtype_of<BFloat16> { static constexpr DType value = DType::BFloat16; };
template <> struct dtype_of<float> { static constexpr DType value = DType::Float32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::Float64; };

// Calls f(T{}) with the C++ type of t: the one switch over dtypes the library needs. The complex
// dtypes have no kernels (their copies run on their real parts), so they are refused here; the
// ops check first, so that the error names them.
template <class F>
decltype(auto) dispatch(DType t, F&& f) {
  switch (t) {
    case DType::Complex64:
    case DType::Complex128: refuse_complex("dispatch", t);
    case DType::Bool: return f(bool{});
    case DType::UInt8: return f(uint8_t{});
    case DType::Int8: return f(int8_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Int64: return f(int64_t{});
    case DType::Float16: return f(Half{});
    case DType::BFloat16: return f(BFloat16{});
    case DType::Float32: return f(float{});
    case DType::Float64: break;
  }
  return f(double{});
}

// A single value of any dtype, as PyTorch's Scalar: bool, integer or floating point.
class Scalar {
 public:
  enum class Kind : uint8_t { Bool, Int, Float };
  Scalar() = default;
  Scalar(bool v) : kind_(Kind::Bool), i_(v), d_(v) {}
  Scalar(int v) : kind_(Kind::Int), i_(v), d_(v) {}
  Scalar(int64_t v) : kind_(Kind::Int), i_(v), d_(static_cast<double>(v)) {}
  Scalar(double v) : kind_(Kind::Float), i_(0), d_(v) {}
  Scalar(float v) : Scalar(static_cast<double>(v)) {}
  Kind kind() const { return kind_; }
  bool is_floating_point() const { return kind_ == Kind::Float; }
  double to_double() const { return d_; }
  int64_t to_int() const { return kind_ == Kind::Float ? truncate<int64_t>(d_) : i_; }
  bool to_bool() const { return kind_ == Kind::Float ? d_ != 0.0 : i_ != 0; }
  // The value converted to the C++ type T, unchecked (below).
  template <class T>
  T to() const;
  std::string to_string() const;

  // Floating point to integer as PyTorch's static_cast gives it on x86 (cvttsd2si): truncation
  // toward zero, and the type's lowest value for NaN and for values out of range, where a C++
  // cast would be undefined behaviour (torch.tensor([2.0**63], dtype=torch.int64) holds -2^63).
  template <class T>
  static T truncate(double d) {
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());  // -2^31 or -2^63
    return d >= lo && d < -lo ? static_cast<T>(d) : std::numeric_limits<T>::min();
  }

 private:
  Kind kind_ = Kind::Int;
  int64_t i_ = 0;
  double d_ = 0.0;
};

// c10's checked_convert test (c10/util/TypeCast.h, overflows): whether v converts to t without
// overflow, as fill_ and torch.tensor(..., dtype=) require. A bool value fits anything, and
// anything fits bool; a floating type takes infinities, NaN and its finite range (float16 ±65504);
// an integer type takes its range, an unsigned one also the negatives down to -max, which wrap
// (uint8 takes -1 as 255: "a - b as a + 255 * b"), and a float only within the range, never NaN.
// A complex type is judged by its parts' type.
bool fits_without_overflow(const Scalar& v, DType t);

// Reads and writes one element of type t at address p, through Scalar.
Scalar load_scalar(const void* p, DType t);
void store_scalar(void* p, DType t, const Scalar& v);

// The value as its own type (bool, int64 or double) converted by convert_element, as PyTorch
// converts a wrapped number's 0-d tensor with .to(): an integer wraps into a narrower integer
// type and rounds once into a floating one; a float truncates into an integer type.
template <class T>
T Scalar::to() const {
  switch (kind_) {
    case Kind::Bool: return convert_element<T>(i_ != 0);
    case Kind::Int: return convert_element<T>(i_);
    case Kind::Float: break;
  }
  return convert_element<T>(d_);
}

}  // namespace strided
