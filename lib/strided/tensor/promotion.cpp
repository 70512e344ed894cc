#include "strided/tensor/promotion.h"

#include "strided/tensor/tensor.h"

namespace strided {

namespace {
enum class Category : uint8_t { Bool, Integral, Floating, Complex };
Category category(DType t) {
  if (t == DType::Bool) return Category::Bool;
  if (is_complex(t)) return Category::Complex;
  return is_floating_point(t) ? Category::Floating : Category::Integral;
}
// Position on the promotion lattice: the width of the type in its category, each category above
// the one before. uint8 and int8 share a rung and meet at int16; float16 and bfloat16 share one
// and meet at float32.
int rung(DType t) {
  switch (t) {
    case DType::Bool: return 0;
    case DType::UInt8:
    case DType::Int8: return 1;
    case DType::Int16: return 2;
    case DType::Int32: return 3;
    case DType::Int64: return 4;
    case DType::Float16:
    case DType::BFloat16: return 5;
    case DType::Float32: return 6;
    case DType::Float64: return 7;
    case DType::Complex64: return 8;
    case DType::Complex128: return 9;
  }
  return 9;
}

std::optional<DType> promote(std::optional<DType> a, DType b) {
  return a ? promote_types(*a, b) : b;
}

// TypeProperties.cpp, combine_categories: the lower-priority group's dtype only matters when its
// category is higher.
std::optional<DType> combine_categories(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_complex(*higher)) return higher;
  // A complex lower group takes the higher group's floating precision: c10::toComplexType(higher)
  // (float64 gives complex128, float32 complex64). PyTorch gives float16 complex32, a dtype this
  // library lacks, and refuses bfloat16; both give complex64 here.
  if (is_complex(*lower)) {
    if (!is_floating_point(*higher)) return lower;
    return *higher == DType::Float64 ? DType::Complex128 : DType::Complex64;
  }
  if (is_floating_point(*higher)) return higher;
  if (*higher == DType::Bool || is_floating_point(*lower)) return promote_types(*higher, *lower);
  return higher;
}
}  // namespace

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  // c10's promoteTypes table: a complex dtype meets any other in the complex dtype whose parts
  // are the promotion of the two real value types (complex64 with float64 is complex128).
  if (is_complex(a) || is_complex(b)) {
    const DType parts = promote_types(real_value_type(a), real_value_type(b));
    return parts == DType::Float64 ? DType::Complex128 : DType::Complex64;
  }
  // The two pairs that share a rung (c10's table: u1 with i1 is i2, f2 with bf is f4). uint8
  // with a wider signed type is that type (u1 with i2 is i2): the rungs already say so.
  if (rung(a) == rung(b)) return is_integral(a) ? DType::Int16 : DType::Float32;
  return rung(a) > rung(b) ? a : b;
}

bool can_cast(DType from, DType to) {
  // c10::canCast: "We disallow complex -> non complex, float -> integral, non-bool -> bool".
  if (category(from) == Category::Complex && category(to) != Category::Complex) return false;
  if (category(from) == Category::Floating && category(to) < Category::Floating) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

DType scalar_dtype(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: return DType::Bool;
    case Scalar::Kind::Int: return DType::Int64;
    case Scalar::Kind::Float: break;
  }
  return DType::Float64;
}

ResultTypeState update_result_type_state(const Tensor& t, const ResultTypeState& in) {
  ResultTypeState out = in;
  if (!t.defined()) return out;
  if (t.dim() > 0) {
    out.dim_result = promote(in.dim_result, t.dtype());
  } else {
    out.zero_result = promote(in.zero_result, t.dtype());
  }
  return out;
}

ResultTypeState update_result_type_state(const Scalar& s, const ResultTypeState& in) {
  ResultTypeState out = in;
  // A floating wrapped number stands for the default dtype, float32 (update_result_type_state).
  const DType t = s.is_floating_point() ? DType::Float32 : scalar_dtype(s);
  out.wrapped_result = promote(in.wrapped_result, t);
  return out;
}

DType result_type(const ResultTypeState& state) {
  const std::optional<DType> r =
      combine_categories(state.dim_result,
                         combine_categories(state.zero_result, state.wrapped_result));
  return r.value_or(DType::Float32);
}

DType result_type(const Tensor& a, const Tensor& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, {})));
}
DType result_type(const Tensor& a, const Scalar& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, {})));
}

std::string_view scalar_type_name(DType t) {
  switch (t) {
    case DType::Bool: return "Bool";
    case DType::UInt8: return "Byte";
    case DType::Int8: return "Char";
    case DType::Int16: return "Short";
    case DType::Int32: return "Int";
    case DType::Int64: return "Long";
    case DType::Float16: return "Half";
    case DType::BFloat16: return "BFloat16";
    case DType::Float32: return "Float";
    case DType::Float64: return "Double";
    case DType::Complex64: return "ComplexFloat";
    case DType::Complex128: return "ComplexDouble";
  }
  return "Undefined";
}

}  // namespace strided
