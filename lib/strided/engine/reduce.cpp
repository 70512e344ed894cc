#include "strided/engine/reduce.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "strided/engine/iterator.h"
#include "strided/layout/layout.h"
#include "strided/engine/ops.h"
#include "strided/engine/parallel.h"
#include "strided/tensor/promotion.h"
#include "strided/engine/cpu_kernels.h"
#include "strided/engine/dispatch.h"
#include "strided/engine/reduce_plan.h"

namespace strided {

// NOTE: [Reduction paths]
// Every reduction runs on one plan (make_reduction below): its results are viewed over x's shape
// with stride 0 on the reduced dims, and the plan puts those dims innermost, as for PyTorch's
// TensorIterator. For a reduction along dim d, plan dim 0 is then d, of size R = x.size(d), and
// the kept dims follow in the order of the (contiguous) results. The plan's strides pick one of
// three loops, as cpu/Reduce.h's checks do:
//  - inner: x has unit stride along plan dim 0 (x.stride(d) == 1). Each output reduces one
//    contiguous row of R elements, vectorised across the row (vectorized_reduction).
//  - outer: x has unit stride along a kept dim c (the last one of a contiguous x when d is not
//    last). For each index of the other kept dims, the rows x[..., i, ...] (i along d) are each
//    contiguous along c, and are combined element-wise: out[j] = op(out[j], row_i[j]), vectorised
//    across j (vectorized_outer_reduction); a sum keeps its columns' running sums in registers
//    down all the rows (SumKernel.cpp's vectorized_outer_sum). This is the layout the seed's x.max(-2) walks (seed
//    000, In[15]); the reads follow memory exactly as in the inner case, which is why the book can
//    time one against the other.
//  - strided: anything else, one output at a time, stepping by x.stride(d).
// The outputs are split over threads in runs of whole outputs. A single output (a reduction over
// all elements) is split instead into pieces of the plan's walk, whose partial results combine in
// order: the plan walks memory in its own order, which a sum, max or min does not depend on (up
// to float rounding), so a dense x is one run however it is permuted.
// The plans, the paths' choice and the splitting over threads are here (reduce_plan.h); the loops
// are reduce_loops.h's, compiled once per CPU capability (dispatch.h).

// ---- the plan
// -----------------------------------------------------------------------------------------

// ReduceOpsUtils.h, make_reduction: the results, allocated contiguous in the reduced shape, are
// viewed over x's shape with stride 0 on the reduced dims (review_reduce_result) and walked with x
// by one plan, which orders the reduced dims innermost (iterator.h's is_reduction). dim is the
// reduced dim, already wrapped, or nullopt for all of them.
TensorIterator make_reduction(const char* op, const Tensor& x, std::optional<int64_t> dim,
                              const std::vector<Tensor>& results) {
  Shape view(static_cast<size_t>(x.dim()), 0);
  if (dim && x.dim() > 0) {
    Shape kept;
    for (int64_t d = 0; d < x.dim(); ++d)
      if (d != *dim) kept.push_back(x.size(d));
    const Shape strides = contiguous_strides(kept);
    for (int64_t d = 0, k = 0; d < x.dim(); ++d)
      if (d != *dim) view[d] = strides[k++];
  }
  TensorIteratorConfig config;
  config.set_op_name(op)
      .set_check_mem_overlap(false)  // the view repeats each result over the reduced dims
      .check_all_same_dtype(false)   // int64 sums of integers, int64 indices
      .resize_outputs(false)
      .is_reduction(true);
  for (const Tensor& r : results)
    config.add_output(r.as_strided(x.sizes(), view, r.storage_offset()));
  config.add_input(x);
  return config.build();
}

namespace detail {

// The outer path's column dim: the first kept plan dim (plan dims 1, 2, ...) along which x has
// unit stride, or -1 (NOTE: [Reduction paths]). R is the reduced dim's size; when R > 1 it is plan
// dim 0, where every result has stride 0.
int outer_dim(const TensorIterator& plan, int64_t R) {
  const IterOperand& x = plan.operand(plan.noutputs());
  if (R <= 1 || x.stride_bytes[0] == x.element_size()) return -1;  // none, or the inner path
  for (int d = 1; d < plan.ndim(); ++d)
    if (x.stride_bytes[d] == x.element_size()) return d;
  return -1;
}

// Runs body over the plan with its outputs split over threads, each chunk a run of whole outputs
// (ATen's parallel_dim_reduction splits the outputs, never a reduction, in the same way). Plan dim
// 0 is the reduced dim, so outputs [b, e) are the plan's linear range [b·R, e·R), and every block
// the body gets holds n1 whole rows of n0 = R inputs each (or, when R is 1, n0 × n1 outputs of one
// input each). grain: outputs per chunk at least.
void for_outputs(const TensorIterator& plan, int64_t R, int64_t grain,
                 const TensorIterator::Loop2d& body) {
  STRIDED_INTERNAL_ASSERT(R == 1 || (plan.shape()[0] == R && plan.operand(0).stride_bytes[0] == 0));
  parallel_for(0, plan.numel() / R, grain,
               [&](int64_t b, int64_t e) { plan.serial_for_each(body, b * R, e * R); });
}

// Runs an outer path's body over blocks of R rows by the columns of plan dim c, the body's
// strides laid out as the 2-D loop's (operand k's step along the rows at [k], along the columns at
// [ntensors + k]). For c = 1 these are the plan's own blocks. The 2-D loop sees plan dims 0 and 1
// only, so when the unit-stride kept dim is further out (the results, contiguous, order the kept
// dims by their own strides, and may put another one first) the walk moves c next to the reduced
// dim: for each index of the other kept dims, one block, their offsets from the layout algebra's
// odometer. PyTorch's loop steps down each column there instead; the blocks read memory in order.
void for_outer_blocks(const TensorIterator& plan, int64_t R, int c,
                      const TensorIterator::Loop2d& body) {
  const int nt = plan.ntensors();
  const int64_t width = plan.shape()[c];
  const int64_t columns = std::min(width, kColumns);
  if (c == 1) {
    for_outputs(plan, R, std::max<int64_t>(1, kGrainSize / (R * columns)) * columns, body);
    return;
  }
  // The other kept dims, outermost first as for_each_index walks them.
  Shape sizes;
  std::vector<Shape> steps(static_cast<size_t>(nt));
  for (int d = plan.ndim() - 1; d >= 1; --d) {
    if (d == c) continue;
    sizes.push_back(plan.shape()[d]);
    for (int k = 0; k < nt; ++k) steps[k].push_back(plan.operand(k).stride_bytes[d]);
  }
  std::vector<int64_t> strides(2 * static_cast<size_t>(nt));
  for (int k = 0; k < nt; ++k) {
    strides[k] = plan.operand(k).stride_bytes[0];
    strides[nt + k] = plan.operand(k).stride_bytes[c];
  }
  int64_t groups = 1;
  for (int64_t s : sizes) groups *= s;
  parallel_for(0, groups, std::max<int64_t>(1, kGrainSize / (R * width)),
               [&](int64_t b, int64_t e) {
                 std::vector<char*> data(static_cast<size_t>(nt));
                 for_each_index(sizes, steps, b, e, [&](const int64_t* offsets) {
                   for (int k = 0; k < nt; ++k) data[k] = plan.operand(k).data() + offsets[k];
                   body(data.data(), strides.data(), R, width);
                 });
               });
}

// The pieces of one long output: one per thread, each at least kGrainSize inputs.
int64_t pieces_for(int64_t R) {
  return std::max<int64_t>(1, std::min<int64_t>(get_num_threads(), R / kGrainSize));
}

}  // namespace detail

namespace {

using detail::outer_dim;

// Which loop a plan of a reduction along one dim runs, from its strides alone: inner when x has
// unit stride along the reduced plan dim 0 (cpu/Reduce.h's is_contiguous_reduction), outer when it
// has along a kept one (is_outer_reduction, there plan dim 1 only), strided otherwise.
ReducePath path_of(const TensorIterator& plan, int64_t R) {
  if (R <= 1 || plan.ndim() == 0) return ReducePath::Strided;
  const IterOperand& x = plan.operand(plan.noutputs());
  if (x.stride_bytes[0] == x.element_size()) return ReducePath::Inner;
  return outer_dim(plan, R) >= 0 ? ReducePath::Outer : ReducePath::Strided;
}

// ---- the reductions
// ---------------------------------------------------------------------------------

const char* op_name(bool is_max, bool arg) {
  if (arg) return is_max ? "argmax()" : "argmin()";
  return is_max ? "max()" : "min()";
}

Shape reduced_shape(const Tensor& x, int64_t dim, bool keepdim) {
  return reduced_sizes(x.sizes(), dim, keepdim);
}

void check_reducible(const Tensor& x, const char* op) {
  STRIDED_CHECK(x.defined(), op, "the tensor is undefined");
  check_cpu(x, op);
  if (is_complex(x.dtype())) refuse_complex(op, x.dtype());  // real kernels only (tensor.h)
}

// Inputs per output: the reduced dim's size, or every element.
int64_t inputs_per_output(const Tensor& x, std::optional<int64_t> dim) {
  if (!dim) return x.numel();
  return x.dim() == 0 ? 1 : x.size(*dim);
}

// sum along dim (already wrapped), or over all elements, into a new contiguous tensor.
Tensor sum_impl(const Tensor& x, std::optional<int64_t> dim, bool keepdim) {
  const DType out_dtype = is_floating_point(x.dtype()) ? x.dtype() : DType::Int64;
  const Shape shape = dim ? reduced_shape(x, *dim, keepdim) : Shape{};
  const int64_t R = inputs_per_output(x, dim);
  if (R == 0) return zeros(shape, {out_dtype});  // sum of nothing is 0
  Tensor out = empty(shape, {out_dtype});
  if (out.numel() == 0) return out;
  const TensorIterator plan = make_reduction("sum()", x, dim, {out});
  cpu_kernels().sum(plan, R, out);
  return out;
}

// max/min along dim (wrapped) or over all elements, into values and/or indices (int64), either
// of them null. Over all elements, an index is the linear index of the plan, which walks memory
// in its own order: only a 1-d x makes it x's index.
void extreme_impl(const char* op, const Tensor& x, std::optional<int64_t> dim, bool is_max,
                  const Tensor* values, const Tensor* indices) {
  const int64_t R = inputs_per_output(x, dim);
  std::vector<Tensor> results;
  if (values) results.push_back(*values);
  if (indices) results.push_back(*indices);
  if (results[0].numel() == 0) return;
  cpu_kernels().extreme(make_reduction(op, x, dim, results), R, is_max, values, indices);
}

// PyTorch 1.13 has no argmax or argmin kernel for bool (AT_DISPATCH_ALL_TYPES_AND(Half, ...)).
void check_arg_dtype(const Tensor& x, bool is_max) {
  STRIDED_CHECK(x.dtype() != DType::Bool, "", "\"", is_max ? "argmax" : "argmin",
                "_cpu\" not implemented for 'Bool'");
}

ValuesIndices max_min(const Tensor& x, int64_t dim, bool keepdim, bool is_max) {
  const char* op = op_name(is_max, false);
  check_reducible(x, op);
  const int64_t d = wrap_dim(dim, x.dim(), op);
  // ReduceOpsUtils.h, zero_numel_check_dims: a dim of size 0 has no extreme.
  STRIDED_CHECK(x.dim() == 0 || x.size(d) != 0, op, "Expected reduction dim ", d,
                " to have non-zero size.");
  const Shape shape = reduced_shape(x, d, keepdim);
  ValuesIndices r{empty(shape, {x.dtype()}), empty(shape, {DType::Int64})};
  extreme_impl(op, x, d, is_max, &r.values, &r.indices);
  return r;
}

Tensor arg_extreme(const Tensor& x, int64_t dim, bool keepdim, bool is_max) {
  const char* op = op_name(is_max, true);
  check_reducible(x, op);
  const int64_t d = wrap_dim(dim, x.dim(), op);
  STRIDED_CHECK(x.dim() == 0 || x.size(d) != 0, op, "Expected reduction dim ", d,
                " to have non-zero size.");
  check_arg_dtype(x, is_max);
  Tensor out = empty(reduced_shape(x, d, keepdim), {DType::Int64});
  extreme_impl(op, x, d, is_max, nullptr, &out);
  return out;
}

// max or min over all elements: the plan walks memory in its own order, since the value does
// not depend on the order (TensorCompare.cpp, max: max_all).
Tensor extreme_all(const Tensor& x, bool is_max) {
  Tensor out = empty({}, {x.dtype()});
  extreme_impl(op_name(is_max, false), x, std::nullopt, is_max, &out, nullptr);
  return out;
}

// argmax or argmin over all elements: the index into x flattened row-major. As ReduceOps.cpp's
// argmax_out, the reduction runs on x.reshape(-1): a view when one exists, else a contiguous copy
// (which runs on a plan of its own).
Tensor arg_extreme_all(const Tensor& x, bool is_max) {
  check_arg_dtype(x, is_max);
  Tensor out = empty({}, {DType::Int64});
  extreme_impl(op_name(is_max, true), x.reshape({x.numel()}), std::nullopt, is_max, nullptr, &out);
  return out;
}

Tensor mean_of(const Tensor& sum_result, int64_t count) {
  // ReduceOps.cpp, mean_out: the sum in the dtype, then divided (div_) by the count.
  div_(sum_result, Scalar(count));
  return sum_result;
}

void check_mean_dtype(const Tensor& x) {
  STRIDED_CHECK(is_floating_point(x.dtype()), "mean()",
                "could not infer output dtype. Input dtype must be either a floating "
                "point or complex dtype. Got: ",
                scalar_type_name(x.dtype()));
}

}  // namespace

// ---- public
// -------------------------------------------------------------------------------------------

Tensor sum(const Tensor& x) {
  check_reducible(x, "sum()");
  return sum_impl(x, std::nullopt, false);
}
Tensor sum(const Tensor& x, int64_t dim, bool keepdim) {
  check_reducible(x, "sum()");
  return sum_impl(x, wrap_dim(dim, x.dim(), "sum()"), keepdim);
}
Tensor mean(const Tensor& x) {
  check_reducible(x, "mean()");
  check_mean_dtype(x);
  return mean_of(sum(x), x.numel());
}
Tensor mean(const Tensor& x, int64_t dim, bool keepdim) {
  check_reducible(x, "mean()");
  check_mean_dtype(x);
  const int64_t d = wrap_dim(dim, x.dim(), "mean()");
  return mean_of(sum_impl(x, d, keepdim), inputs_per_output(x, d));
}

Tensor max(const Tensor& x) {
  check_reducible(x, "max()");
  // TensorCompare.cpp, max: "Expected reduction dim to be specified for input.numel() == 0."
  STRIDED_CHECK(x.numel() > 0, "max()",
                "Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument.");
  return extreme_all(x, true);
}
Tensor min(const Tensor& x) {
  check_reducible(x, "min()");
  STRIDED_CHECK(x.numel() > 0, "min()",
                "Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument.");
  return extreme_all(x, false);
}
ValuesIndices max(const Tensor& x, int64_t dim, bool keepdim) {
  return max_min(x, dim, keepdim, true);
}
ValuesIndices min(const Tensor& x, int64_t dim, bool keepdim) {
  return max_min(x, dim, keepdim, false);
}

Tensor argmax(const Tensor& x) {
  check_reducible(x, "argmax()");
  STRIDED_CHECK(x.numel() > 0, "argmax()",
                "Expected reduction dim to be specified for input.numel() == 0.");
  return arg_extreme_all(x, true);
}
Tensor argmin(const Tensor& x) {
  check_reducible(x, "argmin()");
  STRIDED_CHECK(x.numel() > 0, "argmin()",
                "Expected reduction dim to be specified for input.numel() == 0.");
  return arg_extreme_all(x, false);
}
Tensor argmax(const Tensor& x, int64_t dim, bool keepdim) {
  return arg_extreme(x, dim, keepdim, true);
}
Tensor argmin(const Tensor& x, int64_t dim, bool keepdim) {
  return arg_extreme(x, dim, keepdim, false);
}

ReducePath reduce_path(const Tensor& x, int64_t dim) {
  check_reducible(x, "reduce_path");
  const int64_t d = wrap_dim(dim, x.dim(), "reduce_path");
  // The plan sum(x, dim) builds, over a result it never writes.
  const Tensor result = empty(reduced_shape(x, d, false), {x.dtype()});
  return path_of(make_reduction("reduce_path", x, d, {result}), inputs_per_output(x, d));
}

const char* to_string(ReducePath path) {
  switch (path) {
    case ReducePath::Inner:
      return "inner";
    case ReducePath::Outer:
      return "outer";
    case ReducePath::Strided:
      break;
  }
  return "strided";
}

}  // namespace strided
