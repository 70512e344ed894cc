// The checks on a given out of the GPU ops whose kernels write a packed result (transpose,
// reduce, matmul): host logic, compiled in every build.
#pragma once

#include <string>

#include "strided/tensor/tensor.h"

namespace strided::cuda {

// out is a contiguous tensor of `sizes` and `dtype` on in's device; `wanted` describes that
// tensor in the error ("float32 tensor of shape [3]").
void check_packed_out(const char* op, const Tensor& out, const Tensor& in, IntList sizes,
                      DType dtype, const std::string& wanted);

// out shares no memory with in, as PyTorch's assert_no_overlap: a layout too hard to judge
// passes. what names in ("the input", "an operand").
void check_no_overlap(const char* op, const Tensor& out, const Tensor& in, const char* what);

}  // namespace strided::cuda
