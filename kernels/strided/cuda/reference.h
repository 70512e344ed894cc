// CPU references for the GPU kernels: each operation written as its definition reads, one loop nest
// over the strided CPU tensor, so a GPU test compares a kernel with the plain meaning of the
// operation (llm.c's dev/cuda programs keep the same "CPU reference first" discipline).
//
// Tolerances, stated once (N. J. Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
// §3.1 and §4.2): with unit roundoff u = 2^-24 for float32 and γ_n = n·u / (1 − n·u),
//  - data movement (copy, transpose, to_device) and max are exact;
//  - add and mul are one correctly rounded IEEE operation on both sides: exact;
//  - a float32 sum of n terms, in any order, is within γ_{n−1}·Σ|x_i| of the exact sum;
//  - a float32 dot product of length k, with or without FMA, is within γ_k·Σ|a_i·b_i|.
// The references accumulate in double, so their own error is far below these bounds. Tests also
// use small-integer data, for which every float32 result is exact and any misplaced element shows.
#pragma once

#include <cstdint>
#include <vector>

#include "strided/engine/ops.h"
#include "strided/tensor/tensor.h"

namespace strided::cuda {

// a (op) b with broadcasting, in float32 as the GPU computes it; a contiguous float32 result. op is
// the library's own BinaryOp (strided/engine/ops.h), Add or Mul: the two the GPU computes.
Tensor reference_binary(const Tensor& a, const Tensor& b, BinaryOp op);
// a (op) s for a float scalar s.
Tensor reference_binary_scalar(const Tensor& a, float s, BinaryOp op);

// The transpose of a 2-D tensor as a fresh contiguous tensor: out[j][i] = in[i][j]. Any dtype.
Tensor reference_transpose(const Tensor& in);

// A reduction's exact value and the magnitude that scales its error bound, per output element
// (in row-major order of the output shape, which is in.sizes() without dim).
struct ReferenceValues {
  Shape sizes;
  std::vector<double> values;
  std::vector<double> magnitudes;  // Σ|x| for a sum, Σ|a·b| for a matmul entry, 0 when exact
  int64_t terms = 0;               // n of the bound γ_n: the length of each sum or dot product
};
ReferenceValues reference_sum(const Tensor& in, int64_t dim);
ReferenceValues reference_amax(const Tensor& in, int64_t dim);  // NaN propagates, as torch.amax
ReferenceValues reference_matmul(const Tensor& a, const Tensor& b);  // 2-D (M×K)·(K×N)

// γ_n = n·u / (1 − n·u) with u = 2^-24.
double gamma_float32(int64_t n);

// The first element where got (float32, any layout, CPU) differs from ref by more than
// gamma_float32(bound_terms)·magnitude, as "index 12: got 3.5, expected 3.25 (tolerance 1e-06)";
// empty when all agree. bound_terms = 0 demands exact equality.
std::string compare_with_reference(const Tensor& got, const ReferenceValues& ref,
                                   int64_t bound_terms);

}  // namespace strided::cuda
