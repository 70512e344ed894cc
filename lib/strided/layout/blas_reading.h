// How a BLAS reads a 2-D layout in place: the one rule the CPU's gemm (engine/matmul.cpp) and
// cuBLAS's (kernels/strided/cuda/gemm_layout.cpp) share.
//
// A BLAS takes a matrix as a pointer, a leading dimension and a transpose flag, so it reads a
// matrix X (rows × cols, strides (s0, s1)) without a copy in exactly two ways:
//   - row-major:    s1 == 1, ld = s0 >= max(1, cols);
//   - column-major: s0 == 1, ld = s1 >= max(1, rows) (X read as a transposed row-major matrix).
// A dim of size 0 or 1 is never stepped, so its stride is free, and the ld of a single row (or
// column) may be any legal value: max(1, cols) (or max(1, rows)) is given. Row-major is preferred
// when both readings work. Any other layout (a stride-2 slice, a broadcast stride 0, overlapping
// rows) has no reading, and the caller copies the matrix first. PyTorch asks the same before it
// calls gemm (aten/src/ATen/native/LinearAlgebra.cpp, addmm_impl_cpu_; Blas.cpp,
// prepare_matrix_for_cublas).
#pragma once

#include <cstdint>
#include <optional>

#include "strided/layout/layout.h"

namespace strided {

struct BlasReading {
  bool column_major = false;  // read as its transpose: BLAS's "T" flag on row-major code
  int64_t ld = 1;             // the leading dimension BLAS steps by
  bool operator==(const BlasReading&) const = default;
};

// The reading of a 2-D layout, or nullopt when a BLAS cannot read it in place. Post-condition:
// row-major gives ld >= max(1, cols) and column-major ld >= max(1, rows); element (i, j) is at
// i·ld + j, or j·ld + i, for every i, j the matrix has (blas_reading_test sweeps layouts).
std::optional<BlasReading> blas_reading(const Layout& matrix);

}  // namespace strided
