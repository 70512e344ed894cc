#include "strided/layout/blas_reading.h"

#include <algorithm>

#include "strided/core/error.h"

namespace strided {

std::optional<BlasReading> blas_reading(const Layout& matrix) {
  STRIDED_CHECK(matrix.dim() == 2, "blas_reading", "expected a 2-D layout, got ",
                to_string(matrix));
  const int64_t rows = matrix.sizes()[0], cols = matrix.sizes()[1];
  const int64_t s0 = matrix.strides()[0], s1 = matrix.strides()[1];
  // Row-major: a row's elements are adjacent, ld steps from one row to the next.
  if (cols <= 1 || s1 == 1) {
    const int64_t ld = rows <= 1 ? std::max<int64_t>(1, cols) : s0;
    if (ld >= std::max<int64_t>(1, cols)) return BlasReading{false, ld};
  }
  // Column-major: a column's elements are adjacent, ld steps from one column to the next.
  if (rows <= 1 || s0 == 1) {
    const int64_t ld = cols <= 1 ? std::max<int64_t>(1, rows) : s1;
    if (ld >= std::max<int64_t>(1, rows)) return BlasReading{true, ld};
  }
  return std::nullopt;
}

}  // namespace strided
