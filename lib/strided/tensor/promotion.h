// Type promotion: which dtype an op computes in when its operands differ, as PyTorch decides it
// (c10/core/ScalarType.h, promoteTypes and canCast; aten/src/ATen/native/TypeProperties.cpp,
// ResultTypeState and result_type).
//
// The rule in one paragraph: operands are sorted into three groups — tensors with at least one dim,
// 0-d tensors, and wrapped numbers (a Python/C++ number such as the 3 in x + 3). Each group is
// promoted within itself. A later group only changes the result when it belongs to a higher
// category (bool < integer < floating point): int32 tensor + int64 0-d tensor stays int32, int32
// tensor + 2.5 becomes float32 (a floating wrapped number counts as the default dtype, float32),
// float16 tensor + float64 0-d stays float16.
#pragma once

#include <optional>
#include <string_view>

#include "strided/core/dtype.h"

namespace strided {

class Tensor;

// torch.promote_types: the smallest dtype both convert to without losing their category.
// bool < uint8, int8 < int16 < int32 < int64 < float16, bfloat16 < float32 < float64; uint8 with
// int8 gives int16 (neither holds the other's values), float16 with bfloat16 float32.
DType promote_types(DType a, DType b);

// torch.can_cast: false from floating point to integral or bool, and from anything but bool to
// bool; true otherwise (it says nothing about range or precision).
bool can_cast(DType from, DType to);

// The dtype a wrapped number stands for before promotion: bool, int64 or float64 (PyTorch wraps a
// double); result_type replaces a floating one by the default dtype.
DType scalar_dtype(const Scalar& s);

// PyTorch's ResultTypeState: the running promotion of each group.
struct ResultTypeState {
  std::optional<DType> dim_result;      // tensors with dim() > 0
  std::optional<DType> zero_result;     // 0-d tensors
  std::optional<DType> wrapped_result;  // wrapped numbers
};
ResultTypeState update_result_type_state(const Tensor& t, const ResultTypeState& in);
ResultTypeState update_result_type_state(const Scalar& s, const ResultTypeState& in);
DType result_type(const ResultTypeState& state);

// torch.result_type(a, b).
DType result_type(const Tensor& a, const Tensor& b);
DType result_type(const Tensor& a, const Scalar& b);

// The name PyTorch's C++ messages use for a dtype: Bool, Byte, Char, Short, Int, Long, Half,
// BFloat16, Float, Double ("result type Float can't be cast to the desired output type Byte").
std::string_view scalar_type_name(DType t);

}  // namespace strided
