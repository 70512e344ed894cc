// The element-wise iteration plan as the CUDA kernels consume it: the broadcast shape, its dims
// ordered by stride (innermost first) and coalesced, and each operand's byte strides in that order.
//
// The rules are PyTorch's TensorIterator (aten/src/ATen/TensorIterator.cpp: reorder_dimensions,
// coalesce_dimensions, compatible_stride), so a kernel here walks memory in the order PyTorch's
// CUDA kernels walk it — the order the book's sector and cache-line models count (claims PF-01,
// PF-09, PF-16). The CPU engine's iterator (lib/strided/iterator.h) plans with the same rules; this
// file is the seam where the CUDA side takes a plan, so it holds no rule of its own beyond them.
#pragma once

#include <cstdint>
#include <vector>

#include "strided/layout.h"
#include "strided/shape.h"

namespace strided::cuda {

struct ElementwisePlan {
  Shape sizes;                      // innermost dim first, after ordering and coalescing
  std::vector<Shape> byte_strides;  // [operand][dim], same order; operand 0 is the output
  int64_t numel = 0;

  // One flat run of memory for every operand: the kernel needs no offset calculator and may use
  // vector loads. A 0-d plan (no dims, one element) counts as flat.
  bool is_flat(int64_t itemsize) const;
};

// The dims of a shape in iteration order, innermost first: the layout algebra's walk_order (the
// rule of TensorIteratorBase::reorder_dimensions, in one place for the CPU engine and the kernels).
// strides: per operand, in the tensor's dim order (element or byte strides; only order matters).
inline Shape iteration_order(IntList sizes, const std::vector<Shape>& strides) {
  return walk_order(sizes, strides);
}

// Element strides of an output allocated to follow the iteration order (TensorIterator's
// allocate_or_resize_outputs): row-major when the order is the plain reversed one, else dense in
// the iteration order (compatible_stride). This is how x * y.permute(...) gets x's strides (PF-18).
Shape output_strides_for_order(IntList sizes, IntList order);

// Orders (by `order`) and coalesces the dims of operands that all have `sizes`
// (TensorIteratorBase::coalesce_dimensions: two adjacent dims merge when either has size 1 or,
// for every operand, size_inner · stride_inner == stride_outer).
// byte_strides: per operand, in the tensor's dim order.
ElementwisePlan make_elementwise_plan(IntList sizes, const std::vector<Shape>& byte_strides,
                                      IntList order);

}  // namespace strided::cuda
