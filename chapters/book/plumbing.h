// Small helpers several chapters' checks share; none of it is shown on the pages.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "strided/core/shape.h"
#include "strided/tensor/storage.h"
#include "strided/tensor/tensor.h"

namespace book {

// Every multi-index of a shape, in row-major order (the last dim fastest): the order in which
// PyTorch prints a tensor and in which the address formula is checked element by element.
inline std::vector<strided::Shape> all_indices(const strided::Shape& sizes) {
  std::vector<strided::Shape> out;
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  strided::Shape i(sizes.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    out.push_back(i);
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
      if (++i[d] < sizes[d]) break;
      i[d] = 0;
    }
  }
  return out;
}

// How many storages f() allocated (Storage::allocation_count before and after): a view
// allocates none (VW-02).
inline int64_t allocations_during(const auto& f) {
  const int64_t before = strided::Storage::allocation_count();
  f();
  return strided::Storage::allocation_count() - before;
}

// A float32 tensor of the given layout over arange values, as torch.as_strided(torch.arange(n).float(),
// sizes, strides) with n just large enough: the layout is the point, the values tell elements apart.
inline strided::Tensor strided_arange(const strided::Shape& sizes, const strided::Shape& strides) {
  int64_t n = 1;
  for (size_t i = 0; i < sizes.size(); ++i) n += (sizes[i] - 1) * strides[i];
  return strided::arange(n, {strided::DType::Float32}).as_strided(sizes, strides);
}

// torch.allclose's test with its default tolerances: |a − b| ≤ 1e-8 + 1e-5·|b| everywhere.
inline bool allclose(const strided::Tensor& a, const strided::Tensor& b) {
  const std::vector<double> x = a.to_vector(), y = b.to_vector();
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (!(std::abs(x[i] - y[i]) <= 1e-8 + 1e-5 * std::abs(y[i]))) return false;
  return true;
}

}  // namespace book
