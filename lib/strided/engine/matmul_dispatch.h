// matmul's dispatch, written once: PyTorch 2.6's _matmul_impl (aten/src/ATen/native/
// LinearAlgebra.cpp) step by step, with the checks of the at::dot, at::mv, at::mm and at::bmm it
// calls. It is a template over an "operand algebra" Ops, so that two walkers take the very same
// branches, fold the same batches, make the same reshapes and raise at the same checks:
//   - matmul (matmul.cpp), whose Operand is a Tensor: each step is the real view, reshape, copy
//     or kernel;
//   - matmul_cost (models/matmul_cost.cpp), whose Operand is a layout, a dtype and a device: each
//     step computes the layout with the layout algebra and counts what the real step allocates,
//     writes and multiplies, allocating nothing.
// Every decision lives here; an Ops only carries out steps. An Ops provides:
//   using Operand;
//   layout(x), dtype(x), device(x)        an operand's layout (const Layout&), dtype and device
//   unsqueeze(x, dim), squeeze(x, dim), t(x), mT(x), expand(x, sizes), reshape(x, sizes),
//   view(x, sizes), contiguous(x), to(x, dtype)
//                                         Tensor's methods of those names, each an Operand
//   empty(sizes, dtype)                   a new contiguous Operand, as empty()
//   zero_(out), copy_(out, src)           out filled with zeros, or with src
//   float_kernel(a, b, out)               a float32 or float64 product into out (BLAS)
//   integer_kernel(a, b, out)             an int32 or int64 product into out (a plain loop)
//   product(a, b, out)                    mm_into(ops, a, b, out), as one product
//   bmm_into(a, b, out)                   mm_into on each batch and its slice of out
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "strided/core/shape.h"
#include "strided/engine/matmul.h"
#include "strided/layout/layout.h"
#include "strided/tensor/tensor.h"

namespace strided {

namespace matmul_detail {

// "2x3", as mm and mv print a matrix's sizes.
std::string dims_string(IntList sizes);

// The checks, in PyTorch's words (matmul_dispatch.cpp). Each takes the operands' sizes and dtypes.
// torch.matmul's own: both operands at least 1-D, neither complex.
void check_matmul(int64_t dim1, int64_t dim2, DType d1, DType d2);
void check_dot(IntList a, IntList b, DType da, DType db);
void check_mv(IntList a, IntList v, DType da, DType dv);
void check_mm(IntList a, IntList b, DType da, DType db);
void check_bmm(IntList a, IntList b, DType da, DType db);

// A dim's size, the dim wrapping as Tensor::size wraps it.
inline int64_t size_at(const Layout& l, int64_t d) {
  return l.sizes()[static_cast<size_t>(d < 0 ? d + l.dim() : d)];
}

// The sizes but the last `drop`.
inline Shape prefix(const Layout& l, int64_t drop) {
  return Shape(l.sizes().begin(), l.sizes().end() - drop);
}

// mm's body without its checks, written into out, a contiguous (n,m) tensor (a new one, or one
// batch of bmm's result): float32 and float64 through the float kernel, bfloat16 and float16
// computed in float32 and rounded once per element (as PyTorch's CPU gemm, gemv and dot accumulate
// them in float: cpublas's opmath type), int32 and int64 through the integer kernel, and uint8,
// int8 and int16 through int32's.
template <class Ops>
void mm_into(Ops& ops, const typename Ops::Operand& a, const typename Ops::Operand& b,
             typename Ops::Operand& out);

// The product computed in `wide` (float32 or int32), then narrowed into out.
template <class Ops>
void mm_widened(Ops& ops, const typename Ops::Operand& a, const typename Ops::Operand& b,
                typename Ops::Operand& out, DType wide) {
  typename Ops::Operand result =
      ops.empty({size_at(ops.layout(a), 0), size_at(ops.layout(b), 1)}, wide);
  mm_into(ops, ops.to(a, wide), ops.to(b, wide), result);
  ops.copy_(out, result);
}

template <class Ops>
void mm_into(Ops& ops, const typename Ops::Operand& a, const typename Ops::Operand& b,
             typename Ops::Operand& out) {
  const int64_t n = size_at(ops.layout(a), 0), k = size_at(ops.layout(a), 1);
  const int64_t m = size_at(ops.layout(b), 1);
  if (n == 0 || m == 0) return;
  if (k == 0) {  // an empty sum: zeros, and BLAS is never called with a zero leading dim
    ops.zero_(out);
    return;
  }
  switch (ops.dtype(a)) {
    case DType::Float32:
    case DType::Float64: ops.float_kernel(a, b, out); return;
    case DType::Int32:
    case DType::Int64: ops.integer_kernel(a, b, out); return;
    case DType::BFloat16:
    case DType::Float16: mm_widened(ops, a, b, out, DType::Float32); return;
    case DType::UInt8:
    case DType::Int8:
    case DType::Int16:
      // PyTorch's gemm sums in the type itself (BlasKernel.cpp, opmath_t of int8 is int8), so
      // each sum wraps; int32's wrapping sums have the same low bits, and the narrowing copy
      // keeps them. One kernel fewer to compile per narrow type.
      mm_widened(ops, a, b, out, DType::Int32);
      return;
    case DType::Bool:
    case DType::Complex64:
    case DType::Complex128: STRIDED_INTERNAL_ASSERT(false);  // the checks refused them
  }
}

// mm's body without its checks: a new (n,m) result and its product.
template <class Ops>
typename Ops::Operand mm_unchecked(Ops& ops, const typename Ops::Operand& a,
                                   const typename Ops::Operand& b) {
  typename Ops::Operand out =
      ops.empty({size_at(ops.layout(a), 0), size_at(ops.layout(b), 1)}, ops.dtype(a));
  ops.product(a, b, out);
  return out;
}

// at::mm.
template <class Ops>
typename Ops::Operand mm(Ops& ops, const typename Ops::Operand& a, const typename Ops::Operand& b) {
  check_mm(ops.layout(a).sizes(), ops.layout(b).sizes(), ops.dtype(a), ops.dtype(b));
  return mm_unchecked(ops, a, b);
}

// at::mv: the vector as an (k,1) matrix, the result's 1 dropped.
template <class Ops>
typename Ops::Operand mv(Ops& ops, const typename Ops::Operand& a, const typename Ops::Operand& v) {
  check_mv(ops.layout(a).sizes(), ops.layout(v).sizes(), ops.dtype(a), ops.dtype(v));
  return ops.view(mm_unchecked(ops, a, ops.unsqueeze(v, 1)), {size_at(ops.layout(a), 0)});
}

// at::dot: a (1,k) row times a (k,1) column, viewed as 0-d.
template <class Ops>
typename Ops::Operand dot(Ops& ops, const typename Ops::Operand& a,
                          const typename Ops::Operand& b) {
  check_dot(ops.layout(a).sizes(), ops.layout(b).sizes(), ops.dtype(a), ops.dtype(b));
  return ops.view(mm_unchecked(ops, ops.unsqueeze(a, 0), ops.unsqueeze(b, 1)), IntList{});
}

// at::bmm on (B,n,k)·(B,k,m).
template <class Ops>
typename Ops::Operand bmm(Ops& ops, const typename Ops::Operand& a,
                          const typename Ops::Operand& b) {
  const Layout& la = ops.layout(a);
  const Layout& lb = ops.layout(b);
  check_bmm(la.sizes(), lb.sizes(), ops.dtype(a), ops.dtype(b));
  const int64_t batch = la.sizes()[0], n = la.sizes()[1], k = la.sizes()[2], m = lb.sizes()[2];
  typename Ops::Operand out = ops.empty({batch, n, m}, ops.dtype(a));
  // bmm_out_or_baddbmm_: nothing to compute for an empty result (however many batches it has),
  // and zeros for an empty sum; otherwise each batch's product is written into its slice.
  if (batch == 0 || n == 0 || m == 0) return out;
  if (k == 0) {
    ops.zero_(out);
    return out;
  }
  ops.bmm_into(a, b, out);
  return out;
}

}  // namespace matmul_detail

// _matmul_impl: dot, mv, mm, a batch folded into mm/mv, or bmm over broadcast batches.
template <class Ops>
typename Ops::Operand matmul_impl(Ops& ops, const typename Ops::Operand& tensor1,
                                  const typename Ops::Operand& tensor2) {
  using Operand = typename Ops::Operand;
  using namespace matmul_detail;
  const Layout& l1 = ops.layout(tensor1);
  const Layout& l2 = ops.layout(tensor2);
  const int64_t dim1 = l1.dim(), dim2 = l2.dim();
  check_matmul(dim1, dim2, ops.dtype(tensor1), ops.dtype(tensor2));
  check_cpu(ops.device(tensor1), "matmul");
  check_cpu(ops.device(tensor2), "matmul");

  if (dim1 == 1 && dim2 == 1) return dot(ops, tensor1, tensor2);
  if (dim1 == 2 && dim2 == 1) return mv(ops, tensor1, tensor2);
  if (dim1 == 1 && dim2 == 2) return ops.squeeze(mm(ops, ops.unsqueeze(tensor1, 0), tensor2), 0);
  if (dim1 == 2 && dim2 == 2) return mm(ops, tensor1, tensor2);

  if (matmul_should_fold(l1, l2)) {
    // Fold the batch of the larger operand into the rows of one mm (or mv). When the larger is
    // tensor2, work on transposes: (a·b) = (bᵀ·aᵀ)ᵀ.
    const bool transpose = dim2 > dim1;
    const Operand t1 = transpose ? ops.mT(tensor2) : tensor1;
    const Operand t2 = !transpose ? tensor2 : (dim1 == 2 ? ops.t(tensor1) : tensor1);
    Shape output_shape = prefix(ops.layout(t1), 1);
    const int64_t folded = checked_numel(output_shape, "matmul");
    const Operand t1_folded = ops.reshape(t1, {folded, size_at(ops.layout(t1), -1)});
    if (ops.layout(t2).dim() == 2) {
      output_shape.push_back(size_at(ops.layout(t2), 1));
      const Operand out = ops.view(mm(ops, t1_folded, t2), output_shape);
      return transpose ? ops.contiguous(ops.mT(out)) : out;
    }
    return ops.view(mv(ops, t1_folded, t2), output_shape);
  }

  // bmm over the broadcast batch dims. A 1-D tensor1 is one row (n = 1, its dim not in the
  // output); a 1-D tensor2 is one column of each batch (bmm on (B,k,1), the 1 squeezed after), as
  // in PyTorch 2.6 (1.13 reached bmm only with two operands of at least 2 dims).
  const int64_t n = dim1 > 1 ? size_at(l1, -2) : 1, k1 = size_at(l1, -1);
  const int64_t k2 = dim2 > 1 ? size_at(l2, -2) : size_at(l2, 0);
  const int64_t m = dim2 > 1 ? size_at(l2, -1) : 1;
  const bool vector_rhs = dim2 == 1;
  Shape batch;
  try {
    batch = broadcast_shapes(prefix(l1, std::min<int64_t>(dim1, 2)),
                             prefix(l2, std::min<int64_t>(dim2, 2)));
  } catch (const Error& e) {
    throw Error("matmul", e.what());
  }
  const int64_t batch_numel = checked_numel(batch, "matmul");
  Shape size1 = batch, size2 = batch;
  size1.insert(size1.end(), {n, k1});
  if (vector_rhs) {
    size2.push_back(k2);
  } else {
    size2.insert(size2.end(), {k2, m});
  }
  const Operand a = ops.reshape(ops.expand(tensor1, size1), {batch_numel, n, k1});
  const Operand b =
      vector_rhs ? ops.unsqueeze(ops.reshape(ops.expand(tensor2, size2), {batch_numel, k2}), 2)
                 : ops.reshape(ops.expand(tensor2, size2), {batch_numel, k2, m});
  Shape output_shape = batch;
  if (dim1 > 1) output_shape.push_back(n);
  if (dim2 > 1) output_shape.push_back(m);
  const Operand out = bmm(ops, a, b);
  return ops.view(vector_rhs ? ops.squeeze(out, -1) : out, output_shape);
}

}  // namespace strided
