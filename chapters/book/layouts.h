// Layouts the chapters' checks try by the hundred, and small questions about them; none of it is
// shown on the pages. A page shows the rule under test; these only make the tensors to test it on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "strided/layout/layout.h"
#include "strided/core/shape.h"
#include "strided/strided.h"

namespace book {

// A tensor of the given layout over arange(n), int64, n just large enough for it: element k of the
// storage holds k, so a value names its storage index (torch.arange(n).as_strided(...)).
inline strided::Tensor layout_tensor(const strided::Shape& sizes, const strided::Shape& strides,
                                     int64_t offset = 0) {
  const strided::Extent e = strided::extent(strided::Layout(sizes, strides, offset));
  const int64_t need = e.empty() ? 1 : e.max + 1;
  return strided::arange(need).as_strided(sizes, strides, offset);
}

// b is a itself, as Python's `is` would say of the tensor an op returned unchanged: the same
// storage, sizes, strides, offset and dtype.
inline bool same_layout(const strided::Tensor& a, const strided::Tensor& b) {
  return a.storage().is_same(b.storage()) && a.sizes() == b.sizes() &&
         a.strides() == b.strides() && a.storage_offset() == b.storage_offset() &&
         a.dtype() == b.dtype();
}

// Whether some dim has size 1: the dims PyTorch's contiguity skips.
inline bool has_size_one(const strided::Shape& sizes) {
  return std::find(sizes.begin(), sizes.end(), int64_t{1}) != sizes.end();
}

// Whether strides never grow from one dim to the next (equal neighbours allowed).
inline bool non_increasing(const strided::Shape& strides) {
  return std::is_sorted(strides.begin(), strides.end(), std::greater<>());
}

// Every shape of min_dims to max_dims dims whose sizes are taken from `values`, fewer dims first,
// then in the order of Python's itertools.product (the last dim fastest).
inline std::vector<strided::Shape> all_shapes(int64_t min_dims, int64_t max_dims,
                                              const strided::Shape& values) {
  std::vector<strided::Shape> out;
  for (int64_t n = min_dims; n <= max_dims; ++n) {
    strided::Shape s(n, 0);
    std::vector<size_t> at(n, 0);
    while (true) {
      for (int64_t d = 0; d < n; ++d) s[d] = values[at[d]];
      out.push_back(s);
      int64_t d = n - 1;
      while (d >= 0 && ++at[d] == values.size()) at[d--] = 0;
      if (d < 0) break;
    }
  }
  return out;
}

// Every shape of 0 to max_dims dims (the 0-d shape () first) with sizes 1 to max_size.
inline std::vector<strided::Shape> all_shapes(int64_t max_dims, int64_t max_size) {
  strided::Shape sizes(max_size);
  for (int64_t v = 0; v < max_size; ++v) sizes[v] = v + 1;
  return all_shapes(0, max_dims, sizes);
}

// Random sizes from the book's seeded generator: the same layouts in every run.
struct RandomLayouts {
  strided::Generator gen;
  explicit RandomLayouts(uint64_t seed) : gen(seed) {}
  // A number in 0 … n − 1.
  int64_t below(int64_t n) {
    return static_cast<int64_t>(gen.next_u64() % static_cast<uint64_t>(n));
  }
  // 1 to max_dims dims, each of size min_size to max_size.
  strided::Shape sizes(int64_t max_dims, int64_t max_size, int64_t min_size = 1) {
    strided::Shape s(1 + below(max_dims));
    for (int64_t& x : s) x = min_size + below(max_size - min_size + 1);
    return s;
  }
};

// The whole storage of an int64 tensor, read from its base rather than from data_ptr (chapter 1's
// dump_storage, for the chapters that do not show it).
inline std::vector<int64_t> storage_values(const strided::Tensor& t) {
  const auto* first = static_cast<const int64_t*>(t.storage().data());
  return {first, first + t.storage().nbytes() / t.element_size()};
}

// {0, 1, …, n − 1}: what an untouched arange(n) holds.
inline std::vector<int64_t> count_up(int64_t n) {
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

// A battery of layouts over strided::arange storages: random sizes, every other or every element along
// each dim, sometimes one dim expanded from size 1, then a random permutation.
inline std::vector<strided::Tensor> layout_battery(int count, uint64_t seed) {
  strided::Generator gen(seed);
  auto pick = [&](int64_t n) { return static_cast<int64_t>(gen.next_u64() % n); };
  std::vector<strided::Tensor> out;
  while (static_cast<int>(out.size()) < count) {
    const int64_t nd = 1 + pick(4);
    strided::Shape sizes, big, steps;
    for (int64_t d = 0; d < nd; ++d) {
      sizes.push_back(1 + pick(4));
      steps.push_back(pick(3) == 0 ? 2 : 1);
      big.push_back(sizes.back() * steps.back());
    }
    int64_t n = 1;
    for (int64_t b : big) n *= b;
    strided::Tensor x = strided::arange(n).view(big);
    for (int64_t d = 0; d < nd; ++d) x = x.slice(d, std::nullopt, std::nullopt, steps[d]);
    if (pick(10) < 3) {
      const int64_t d = pick(nd);
      x = x.narrow(d, 0, 1).expand(sizes);
    }
    strided::Shape perm(nd);
    for (int64_t d = 0; d < nd; ++d) perm[d] = d;
    for (int64_t d = nd - 1; d > 0; --d) std::swap(perm[d], perm[pick(d + 1)]);
    out.push_back(x.permute(perm));
  }
  return out;
}

}  // namespace book
