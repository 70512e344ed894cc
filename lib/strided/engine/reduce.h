// Reductions on the CPU: sum, mean, max, min, argmax and argmin, along one dim (with keepdim) or
// over all elements, with PyTorch 1.13's dtypes, layouts, errors and NaN rules
// (aten/src/ATen/native/ReduceOps.cpp, TensorCompare.cpp, cpu/SumKernel.cpp,
// cpu/TensorCompareKernel.cpp, cpu/ReduceOpsKernel.cpp).
//
// The rules a reader can check against torch:
//   - dtypes: sum of bool, int32 or int64 gives int64; of a floating tensor, its own dtype
//     (float16 and bfloat16 accumulate in float32). mean refuses integral and bool tensors with
//     PyTorch's message, and is sum / n computed as PyTorch does it (the sum rounded to the dtype
//     first). max, min keep the dtype; indices and argmax are int64.
//   - layout: a dim reduction's result is a new contiguous tensor of the reduced shape, whatever
//     the input's strides (the structured kernels' set_output_raw_strided with no strides).
//   - empty: sum of nothing is 0 and mean NaN; max, min, argmax and argmin of an empty tensor
//     without a dim, or along a dim of size 0, raise PyTorch's errors.
//   - NaN: max and min propagate it; their indices, argmax and argmin give the first NaN. Ties
//     give the first index.
//   - dims wrap (dim -1 is the last; a 0-d tensor takes 0 and -1).
//
// How the work is done (NOTE: [Reduction paths]): each reduction builds one iteration plan
// (iterator.h), the results viewed over the input with stride 0 on the reduced dims, which the plan
// walks innermost. Along a dim of stride 1 each row is reduced horizontally in vectors ("inner");
// when a kept dim has stride 1, whole rows are combined element-wise in vectors ("outer"); any
// other layout walks the reduced dim by its stride ("strided"). Float sums are cascaded
// (pairwise) as SumKernel.cpp does, so their error grows with log(n), not n: they agree with torch
// to a relative 1e-5 for float32 (claim PF-13's reduction timings rest on these paths).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "strided/engine/iterator.h"
#include "strided/tensor/tensor.h"

namespace strided {

// torch.sum / torch.mean over all elements: a 0-d tensor.
Tensor sum(const Tensor& x);
Tensor mean(const Tensor& x);
// Along dim; keepdim keeps it as a dim of size 1.
Tensor sum(const Tensor& x, int64_t dim, bool keepdim = false);
Tensor mean(const Tensor& x, int64_t dim, bool keepdim = false);

// torch.max(x) / torch.min(x): the largest / smallest element as a 0-d tensor (NaN if any).
Tensor max(const Tensor& x);
Tensor min(const Tensor& x);

// torch.max(x, dim) / torch.min(x, dim): torch.return_types.max's values and indices.
struct ValuesIndices {
  Tensor values;
  Tensor indices;  // int64
};
ValuesIndices max(const Tensor& x, int64_t dim, bool keepdim = false);
ValuesIndices min(const Tensor& x, int64_t dim, bool keepdim = false);

// torch.argmax(x) / argmin: the index into x flattened row-major; with dim, along dim.
Tensor argmax(const Tensor& x);
Tensor argmin(const Tensor& x);
Tensor argmax(const Tensor& x, int64_t dim, bool keepdim = false);
Tensor argmin(const Tensor& x, int64_t dim, bool keepdim = false);

// The one plan every reduction runs on (NOTE: [Reduction paths]; ATen's make_reduction in
// ReduceOpsUtils.h): results, contiguous in the reduced shape, are viewed over x's shape with
// stride 0 on the reduced dims, outputs first, then x. dim is the reduced dim, already wrapped, or
// nullopt for all of them. Post-condition: when the reduced size R = x.size(dim) is above 1, plan
// dim 0 is the reduced dim, of size R, where every result has stride 0; the kept dims follow. The
// GPU reductions launch this plan too (kernels/strided/cuda/reduce_plan.h). op names the caller in
// errors.
TensorIterator make_reduction(const char* op, const Tensor& x, std::optional<int64_t> dim,
                              const std::vector<Tensor>& results);

// Which loop a reduction of x along dim runs (NOTE: [Reduction paths]), for the chapters.
enum class ReducePath : uint8_t { Inner, Outer, Strided };
ReducePath reduce_path(const Tensor& x, int64_t dim);
const char* to_string(ReducePath path);  // "inner", "outer", "strided"

}  // namespace strided
