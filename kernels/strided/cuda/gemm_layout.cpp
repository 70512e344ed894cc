#include "strided/cuda/gemm_layout.h"

#include <algorithm>
#include <limits>

#include "strided/core/error.h"
#include "strided/layout/blas_reading.h"

namespace strided::cuda {

std::optional<BlasOperand> transposed_operand(const Layout& x) {
  // The reading is the CPU's (blas_reading.h): a row-major X is handed over as X' = Xᵀ (N), a
  // column-major one as X' = X, transposed (T).
  const std::optional<BlasReading> r = blas_reading(x);
  if (!r) return std::nullopt;
  return BlasOperand{r->column_major ? BlasTranspose::T : BlasTranspose::N, r->ld};
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
