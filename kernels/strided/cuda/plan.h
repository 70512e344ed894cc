// The element-wise iteration plan as the CUDA kernels consume it, and where it comes from.
//
// The kernels derive nothing: the plan is the CPU engine's TensorIterator (lib/strided/engine/iterator.h),
// built with the very configuration the CPU op uses (ops.h: binary_config, copy_config), under the
// CUDA op's name. TensorIterator broadcasts, orders the dims by stride with PyTorch's tie-breaks,
// allocates a missing output in that order (it calls empty_strided on the operands' device) and
// coalesces; from_iterator then serialises the result for the device. So the walk a kernel runs
// is the walk the book's sector and cache-line models count over binary_plan (claims PF-01, PF-09,
// PF-16), and a CUDA op's output has the strides the CPU op's output has (PF-18).
//
// The functions here touch no device: plan_test.cpp builds the same plans over CPU tensors of the
// same layouts on every machine.
#pragma once

#include <cstdint>
#include <vector>

#include "strided/engine/iterator.h"
#include "strided/engine/ops.h"
#include "strided/core/shape.h"

namespace strided::cuda {

struct ElementwisePlan {
  Shape sizes;                      // TensorIterator's shape(): innermost dim first, coalesced
  std::vector<Shape> byte_strides;  // [operand][dim], same order; operand 0 is the output
  std::vector<char*> data;          // [operand] the first element's address (device memory)
  // The wrapped numbers (the 3 in x + 3), in operand order: passed to the kernel by value, so
  // they are no operands of the device plan.
  std::vector<double> scalars;
  int64_t numel = 0;

  // One flat run of memory for every operand: the kernel needs no offset calculator and may use
  // vector loads. A 0-d plan (no dims, one element) counts as flat.
  bool is_flat(int64_t itemsize) const;
};

// The plan serialised for the device: TensorIterator's shape and every tensor operand's byte
// strides and data pointer, innermost dim first, outputs first; wrapped numbers go to scalars.
ElementwisePlan from_iterator(const TensorIterator& it);

// The plans the CUDA ops build (elementwise.cpp calls these and nothing else to plan). out may be
// undefined: TensorIterator allocates it on the inputs' device. op names the CUDA op in errors.
TensorIterator binary_plan(const char* op, BinaryOp kind, const Tensor& out, const Tensor& a,
                           const Tensor& b);
TensorIterator binary_plan(const char* op, BinaryOp kind, const Tensor& out, const Tensor& a,
                           float scalar);
TensorIterator copy_plan(const char* op, const Tensor& dst, const Tensor& src);

}  // namespace strided::cuda
