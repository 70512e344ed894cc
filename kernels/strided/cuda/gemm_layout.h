// Which cuBLAS call computes a row-major product with no copy: transpose flags and leading dims.
//
// NOTE: [The swap trick]
// cuBLAS follows the Fortran BLAS: every matrix is column-major, element (i, j) at i + j·ld.
// The book's matrices are strided, element (i, j) at i·stride0 + j·stride1. Read column-major,
// the memory of a row-major M×N matrix C (strides (ldc, 1)) *is* the N×M matrix Cᵀ with leading
// dimension ldc. So instead of C = A·B we ask cuBLAS for
//
//                         Cᵀ = Bᵀ · Aᵀ         (m = N, n = M, k = K)
//
// with B as cuBLAS's first operand and A as its second. Each operand X (rows×cols, strides
// (s0, s1)) must be handed over as some op(X') equal to Xᵀ, where X' is X's memory read
// column-major:
//   - X row-major    (s1 == 1):  X' is already Xᵀ (cols×rows, ld = s0)  → op = N, ld = s0 >= cols
//   - X column-major (s0 == 1):  X' is X itself  (rows×cols, ld = s1)   → op = T, ld = s1 >= rows
// so all four row/column-major combinations of the seed's In[20] (a@b, a@b.mT, a.mT@b, a.mT@b.mT)
// are one GEMM call each, with no copy (claim MM-07). Any other layout (a stride-2 slice, a
// broadcast stride 0, overlapping rows) has no such reading, and the caller copies that operand.
// Size-1 dims have no meaningful stride, so they never force a copy.
#pragma once

#include <cstdint>
#include <optional>

#include "strided/layout/layout.h"

namespace strided::cuda {

enum class BlasTranspose : uint8_t { N, T };  // CUBLAS_OP_N, CUBLAS_OP_T

struct BlasOperand {
  BlasTranspose op = BlasTranspose::N;
  int64_t ld = 1;
  bool operator==(const BlasOperand&) const = default;
};

// How cuBLAS reads Xᵀ from the memory of a 2-D X without a copy, or nullopt when it cannot: the
// CPU's rule (blas_reading.h), row-major preferred when both readings work.
std::optional<BlasOperand> transposed_operand(const Layout& x);

// The arguments of cublasSgemm(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc)
// for C = a·b with a (M×K), b (K×N) and C row-major (M×N, leading dim ldc): cuBLAS's A is our b.
struct GemmCall {
  BlasTranspose transa = BlasTranspose::N;  // applies to our b
  BlasTranspose transb = BlasTranspose::N;  // applies to our a
  int64_t m = 0, n = 0, k = 0;
  int64_t lda = 1, ldb = 1, ldc = 1;
  // cuBLAS's classic API takes int; larger problems must be split or refused.
  bool fits_int32() const;
};
GemmCall make_gemm_call(int64_t M, int64_t N, int64_t K, BlasOperand a_t, BlasOperand b_t,
                        int64_t ldc);

}  // namespace strided::cuda
