// Small helpers several chapters' checks share; none of it is shown on the pages.
#pragma once

#include <cstdint>
#include <vector>

#include "strided/shape.h"
#include "strided/storage.h"

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

}  // namespace book
