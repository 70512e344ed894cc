#include "strided/cuda/gemm_layout.h"

#include <algorithm>
#include <limits>

#include "strided/core/error.h"

namespace strided::cuda {

std::optional<BlasOperand> transposed_operand(int64_t rows, int64_t cols, int64_t row_stride,
                                              int64_t col_stride) {
  STRIDED_INTERNAL_ASSERT(rows >= 0 && cols >= 0 && row_stride >= 0 && col_stride >= 0);
  // Row-major reading: columns of X' are X's rows, ld steps from one row to the next. With a
  // single row ld is never stepped, so any legal value (>= cols) will do.
  if (cols <= 1 || col_stride == 1) {
    const int64_t ld = rows <= 1 ? std::max<int64_t>(1, cols) : row_stride;
    if (ld >= std::max<int64_t>(1, cols)) return BlasOperand{BlasTranspose::N, ld};
  }
  // Column-major reading: X' is X, ld steps from one column to the next.
  if (rows <= 1 || row_stride == 1) {
    const int64_t ld = cols <= 1 ? std::max<int64_t>(1, rows) : col_stride;
    if (ld >= std::max<int64_t>(1, rows)) return BlasOperand{BlasTranspose::T, ld};
  }
  return std::nullopt;
}

bool GemmCall::fits_int32() const {
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  return m <= kMax && n <= kMax && k <= kMax && lda <= kMax && ldb <= kMax && ldc <= kMax;
}

GemmCall make_gemm_call(int64_t M, int64_t N, int64_t K, BlasOperand a_t, BlasOperand b_t,
                        int64_t ldc) {
  STRIDED_INTERNAL_ASSERT(ldc >= std::max<int64_t>(1, N));
  GemmCall c;
  c.transa = b_t.op;  // the swap: cuBLAS's first operand is b, giving bᵀ (N×K)
  c.lda = b_t.ld;
  c.transb = a_t.op;  // ... and its second is a, giving aᵀ (K×M)
  c.ldb = a_t.ld;
  c.m = N;
  c.n = M;
  c.k = K;
  c.ldc = ldc;
  return c;
}

}  // namespace strided::cuda
