// Matrix multiplication on the CPU, with torch.matmul's rules (aten/src/ATen/native/
// LinearAlgebra.cpp, matmul / _matmul_impl) and the kernels the book's chapter 7 compares.
//
// Shapes, as torch.matmul (PyTorch 2.6):
//   1-D · 1-D   (k)·(k)           -> 0-d, the dot product
//   2-D · 1-D   (n,k)·(k)         -> (n)
//   1-D · 2-D   (k)·(k,m)         -> (m)   (a is (1,k), the 1 is removed afterwards)
//   2-D · 2-D   (n,k)·(k,m)       -> (n,m)
//   N-D · N-D   batch dims broadcast: (...,n,k)·(...,k,m) -> (broadcast(...),n,m); a 1-D operand
//               gains a dim of size 1 (prepended for a, appended for b) that is removed afterwards.
// The result is always a new contiguous tensor, as PyTorch's on the CPU (its strides those of a
// contiguous tensor, size-1 dims included: which product made it decides them, so the dispatch
// follows PyTorch's). Both operands must have the same dtype (torch.matmul does not promote) and
// neither may be bool, refused with PyTorch's "not implemented for 'Bool'" errors. float32 and
// float64 go through BLAS (cblas_sgemm / cblas_dgemm from OpenBLAS); integer dtypes through the
// naive kernel, wrapping as PyTorch's integer addmm does.
//
// bfloat16 and float16 are computed in float32 and rounded once per element, as PyTorch 2.6's CPU
// kernels accumulate them in float: (1.01 in bfloat16) times ones, summed 300 times, is 302 in
// both (PyTorch 1.13's row-major mm added bfloat16 products in bfloat16 and gave 346), and 303 in
// float16. PyTorch 1.13 had no float16 kernel on the CPU ("addmm_impl_cpu_" not implemented for
// 'Half').
#pragma once

#include <cstdint>

#include "strided/tensor/tensor.h"

namespace strided {

// torch.matmul(a, b).
Tensor matmul(const Tensor& a, const Tensor& b);

// The kernels chapter 7 compares. All compute C = A·B for 2-D A (n,k) and B (k,m) of the same
// floating dtype (float32 or float64), on any strides, into a new contiguous (n,m) tensor.
enum class MatmulKernel : uint8_t {
  // for i, for j, for p: c[i][j] += a[i][p] * b[p][j], through the strides as given. The inner
  // loop walks b down a column: stride b.stride(0) elements per step.
  Naive,
  // Copies b transposed (a contiguous (m,k) tensor) first, so the inner loop walks a row of a and
  // a row of b^T, both unit-stride.
  NaiveTransposed,
  // Cache-blocked i-p-j loops over tiles of matmul_block_size() with contiguous copies of the
  // tiles, so each tile of a, b and c is reused from cache.
  Blocked,
  // cblas_?gemm, with the transpose flag and leading dimension of each operand chosen from its
  // strides, so a row-major or column-major operand is passed without a copy (any other layout
  // is copied to contiguous first).
  Blas,
};
const char* to_string(MatmulKernel kernel);  // "naive", "naive_transposed", "blocked", "blas"

Tensor matmul_2d(const Tensor& a, const Tensor& b, MatmulKernel kernel);

// The tile edge of the Blocked kernel, in elements.
int64_t matmul_block_size();

// How an operand reaches cblas_?gemm without a copy: as a row-major matrix (transpose = false,
// ld = stride(0), stride(1) == 1) or as the transpose of a row-major matrix (transpose = true,
// ld = stride(1), stride(0) == 1). `copy` is true when neither holds and the operand is copied to
// contiguous first. BLAS also requires ld >= max(1, columns of the stored matrix).
struct BlasOperand {
  bool transpose = false;
  int64_t ld = 0;
  bool copy = false;
};
BlasOperand blas_operand(const Tensor& m);  // m is 2-D
BlasOperand blas_operand(const Layout& m);  // m is 2-D

// PyTorch 2.6's should_fold: whether matmul(tensor1, tensor2) folds the batch of the larger operand
// into the rows of one mm (or mv), from both operands' sizes and strides.
bool matmul_should_fold(const Layout& layout1, const Layout& layout2);

// What matmul(a, b) allocates and computes, from the operands' sizes, strides and dtype alone,
// walking matmul's own dispatch (matmul_impl, matmul_dispatch.h), for a caller that bounds work
// before it starts (strided-explore). Counts past int64 saturate at INT64_MAX. Where matmul would
// refuse the operands, the cost is what it does before it raises.
struct MatmulCost {
  int64_t allocations = 0;     // tensors allocated: results, copies, conversions
  int64_t allocated = 0;       // their elements, all together
  int64_t allocated_bytes = 0; // and their bytes
  int64_t largest = 0;         // elements of the largest one
  int64_t peak = 0;            // elements allocated and alive at once, at most
  int64_t written = 0;         // elements copied, converted or zero-filled
  int64_t multiply_adds = 0;
  int64_t products = 0;        // 2-D products (one per batch of a bmm)
  bool blas = false;           // the multiply-adds run in BLAS (float32, float64, bfloat16)
};
MatmulCost matmul_cost(const Tensor& a, const Tensor& b);

// The BLAS behind the Blas kernel, in its own words, and the core type it chose for this processor
// at run time: "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Zen MAX_THREADS=64; core Zen". The
// provenance of every chapter names it, since matmul timings depend on it.
std::string blas_description();

}  // namespace strided
