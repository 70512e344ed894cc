#include "strided/core/dtype.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "strided/core/error.h"

namespace strided {

int64_t itemsize(DType t) {
  if (t == DType::Complex64) return 8;
  if (t == DType::Complex128) return 16;
  return dispatch(t, [](auto v) { return static_cast<int64_t>(sizeof(v)); });
}

std::string_view name(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::UInt8: return "uint8";
    case DType::Int8: return "int8";
    case DType::Int16: return "int16";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::Float16: return "float16";
    case DType::BFloat16: return "bfloat16";
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Complex64: return "complex64";
    case DType::Complex128: return "complex128";
  }
  return "unknown";
}

DType dtype_from_name(std::string_view n) {
  if (n.starts_with("torch.")) n.remove_prefix(6);
  for (DType t : kAllDTypes)
    if (n == name(t)) return t;
  // torch's aliases, each an attribute of the module (torch.short is torch.int16); torch has no
  // byte or char attribute, only ByteTensor and CharTensor.
  if (n == "short") return DType::Int16;
  if (n == "int") return DType::Int32;
  if (n == "long") return DType::Int64;
  if (n == "half") return DType::Float16;
  if (n == "float") return DType::Float32;
  if (n == "double") return DType::Float64;
  if (n == "cfloat") return DType::Complex64;
  if (n == "cdouble") return DType::Complex128;
  throw Error("dtype", detail::concat("unknown dtype '", n, "' (expected ", dtype_names(), ")"));
}

std::string dtype_names() {
  std::string out;
  const size_t n = std::size(kAllDTypes);
  for (size_t i = 0; i < n; ++i)
    out += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(name(kAllDTypes[i]));
  return out;
}

bool is_floating_point(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 ||
         t == DType::Float64;
}
bool is_integral(DType t) {
  return t == DType::UInt8 || t == DType::Int8 || t == DType::Int16 || t == DType::Int32 ||
         t == DType::Int64;
}
bool is_complex(DType t) { return t == DType::Complex64 || t == DType::Complex128; }

DType real_value_type(DType t) {
  if (t == DType::Complex64) return DType::Float32;
  if (t == DType::Complex128) return DType::Float64;
  return t;
}

DType complex_type(DType t, const char* op) {
  if (is_complex(t)) return t;
  if (t == DType::Float32) return DType::Complex64;
  if (t == DType::Float64) return DType::Complex128;
  throw Error(op, detail::concat(name(t),
                                 " has no complex dtype in this library (complex64 holds float32 "
                                 "parts, complex128 float64 parts)"));
}

void refuse_complex(std::string_view op, DType t) {
  throw Error(std::string(op),
              detail::concat(name(t), " is not supported by this library's kernels"));
}

// binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits.
float half_to_float(Half h) {
  const uint32_t sign = (h.bits & 0x8000u) << 16;
  const uint32_t exp = (h.bits >> 10) & 0x1f;
  const uint32_t man = h.bits & 0x3ffu;
  if (exp == 0) {  // zero or subnormal: man * 2^-24
    float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

Half float_to_half(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u)  // inf or nan
    return {static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0))};
  if (absx >= 0x477ff000u) return {static_cast<uint16_t>(sign | 0x7c00u)};  // rounds to inf
  if (absx < 0x38800000u) {  // below the smallest normal: subnormal in half
    // Scale to units of 2^-24 and round to nearest even.
    const float a = std::bit_cast<float>(absx);
    const float scaled = a * 16777216.0f;  // 2^24
    const float r = std::nearbyint(scaled);
    return {static_cast<uint16_t>(sign | static_cast<uint16_t>(r))};
  }
  const uint32_t exp = ((absx >> 23) - 112) << 10;
  const uint32_t man = absx & 0x7fffffu;
  uint32_t h = exp | (man >> 13);
  const uint32_t rest = man & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // nearest even
  return {static_cast<uint16_t>(sign | h)};
}

float bfloat16_to_float(BFloat16 b) { return std::bit_cast<float>(uint32_t{b.bits} << 16); }

BFloat16 float_to_bfloat16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return {static_cast<uint16_t>((x >> 16) | 0x40u)};
  x += 0x7fffu + ((x >> 16) & 1u);  // round to nearest even
  return {static_cast<uint16_t>(x >> 16)};
}

bool fits_without_overflow(const Scalar& v, DType t) {
  if (v.kind() == Scalar::Kind::Bool) return true;
  return dispatch(real_value_type(t), [&v](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      return true;
    } else if constexpr (std::is_integral_v<T>) {
      using L = std::numeric_limits<T>;
      if (v.kind() == Scalar::Kind::Float) {
        // NaN compares false; int64's max converts to 2^63, so 2^63 passes (and becomes -2^63).
        const double d = v.to_double();
        return d >= static_cast<double>(L::lowest()) && d <= static_cast<double>(L::max());
      }
      const int64_t i = v.to_int();
      if constexpr (std::is_unsigned_v<T>)
        return i <= static_cast<int64_t>(L::max()) &&
               (i >= 0 || -static_cast<uint64_t>(i) <= static_cast<uint64_t>(L::max()));
      else
        return i >= L::min() && i <= L::max();
    } else {
      const double max = std::is_same_v<T, Half>       ? 65504.0
                         : std::is_same_v<T, BFloat16> ? 3.3895313892515355e38
                                                       : static_cast<double>(
                                                             std::numeric_limits<wide_t<T>>::max());
      const double d = v.kind() == Scalar::Kind::Float ? v.to_double()
                                                       : static_cast<double>(v.to_int());
      return std::isinf(d) || std::isnan(d) || (d >= -max && d <= max);
    }
  });
}

Scalar load_scalar(const void* p, DType t) {
  return dispatch(t, [p](auto v) -> Scalar {
    using T = decltype(v);
    // A bool is read as its byte != 0, as c10::load<bool> does: the bytes of another dtype read
    // as bool (view(torch.bool)) may hold any value, and a bool holding 2 is undefined in C++.
    if constexpr (std::is_same_v<T, bool>) return Scalar(*static_cast<const uint8_t*>(p) != 0);
    T x;
    std::memcpy(&x, p, sizeof(T));
    if constexpr (std::is_same_v<T, Half>) return Scalar(static_cast<double>(half_to_float(x)));
    else if constexpr (std::is_same_v<T, BFloat16>)
      return Scalar(static_cast<double>(bfloat16_to_float(x)));
    else if constexpr (std::is_integral_v<T>) return Scalar(static_cast<int64_t>(x));
    else return Scalar(static_cast<double>(x));
  });
}

void store_scalar(void* p, DType t, const Scalar& v) {
  dispatch(t, [p, &v](auto tag) {
    using T = decltype(tag);
    const T x = v.to<T>();
    std::memcpy(p, &x, sizeof(T));
  });
}

std::string Scalar::to_string() const {
  switch (kind_) {
    case Kind::Bool: return i_ ? "True" : "False";
    case Kind::Int: return std::to_string(i_);
    case Kind::Float: break;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", d_);
  return buf;
}

}  // namespace strided
