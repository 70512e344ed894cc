#include "strided/cuda/plan.h"

#include "strided/error.h"
#include "strided/layout.h"

namespace strided::cuda {

bool ElementwisePlan::is_flat(int64_t itemsize) const {
  if (sizes.empty()) return true;
  if (sizes.size() != 1) return false;
  if (sizes[0] == 1) return true;
  for (const Shape& s : byte_strides)
    if (s[0] != itemsize) return false;
  return true;
}

Shape iteration_order(IntList sizes, const std::vector<Shape>& strides) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  Shape perm(static_cast<size_t>(ndim));
  for (int64_t i = 0; i < ndim; ++i) perm[static_cast<size_t>(i)] = ndim - 1 - i;
  if (ndim <= 1) return perm;

  // 1: dim0 belongs outside dim1; -1: inside; 0: no operand decides. A stride 0 on either side
  // says nothing about locality, so the next operand is asked; for equal strides the dim of
  // smaller size goes inside, else the next operand is asked too.
  auto should_swap = [&](int64_t dim0, int64_t dim1) {
    for (const Shape& s : strides) {
      if (s.empty()) continue;
      const int64_t s0 = s[static_cast<size_t>(dim0)];
      const int64_t s1 = s[static_cast<size_t>(dim1)];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (sizes[static_cast<size_t>(dim0)] > sizes[static_cast<size_t>(dim1)]) return 1;
    }
    return 0;
  };
  // Insertion sort that tolerates "no opinion": an ambiguous pair neither swaps nor stops the scan.
  for (int64_t i = 1; i < ndim; ++i) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; --dim0) {
      const int cmp = should_swap(perm[static_cast<size_t>(dim0)], perm[static_cast<size_t>(dim1)]);
      if (cmp > 0) {
        std::swap(perm[static_cast<size_t>(dim0)], perm[static_cast<size_t>(dim1)]);
        dim1 = dim0;
      } else if (cmp < 0) {
        break;
      }
    }
  }
  return perm;
}

Shape output_strides_for_order(IntList sizes, IntList order) {
  STRIDED_INTERNAL_ASSERT(order.size() == sizes.size());
  const size_t ndim = sizes.size();
  bool reversed = true;
  for (size_t i = 0; i < ndim; ++i)
    reversed = reversed && order[i] == static_cast<int64_t>(ndim - 1 - i);
  if (reversed) return contiguous_strides(sizes);
  // compatible_stride: running product of the sizes in iteration order, then back to dim order.
  Shape strides(ndim);
  int64_t next = 1;
  for (size_t i = 0; i < ndim; ++i) {
    strides[static_cast<size_t>(order[i])] = next;
    next *= sizes[static_cast<size_t>(order[i])];
  }
  return strides;
}

ElementwisePlan make_elementwise_plan(IntList sizes, const std::vector<Shape>& byte_strides,
                                      IntList order) {
  const size_t ndim = sizes.size();
  STRIDED_INTERNAL_ASSERT(order.size() == ndim);
  ElementwisePlan plan;
  plan.numel = checked_numel(sizes, "make_elementwise_plan");
  plan.sizes.resize(ndim);
  plan.byte_strides.assign(byte_strides.size(), Shape(ndim));
  for (size_t i = 0; i < ndim; ++i) {
    const auto d = static_cast<size_t>(order[i]);
    plan.sizes[i] = sizes[d];
    for (size_t a = 0; a < byte_strides.size(); ++a) {
      STRIDED_INTERNAL_ASSERT(byte_strides[a].size() == ndim);
      plan.byte_strides[a][i] = byte_strides[a][d];
    }
  }
  if (ndim <= 1) return plan;

  auto can_coalesce = [&](size_t d0, size_t d1) {
    if (plan.sizes[d0] == 1 || plan.sizes[d1] == 1) return true;
    for (const Shape& s : plan.byte_strides)
      if (plan.sizes[d0] * s[d0] != s[d1]) return false;
    return true;
  };
  auto replace_stride = [&](size_t d0, size_t d1) {
    for (Shape& s : plan.byte_strides) s[d0] = s[d1];
  };
  size_t prev = 0;
  for (size_t d = 1; d < ndim; ++d) {
    if (can_coalesce(prev, d)) {
      // A size-1 dim's stride is meaningless; the merged dim takes the other's.
      if (plan.sizes[prev] == 1) replace_stride(prev, d);
      plan.sizes[prev] *= plan.sizes[d];
    } else {
      ++prev;
      if (prev != d) {
        replace_stride(prev, d);
        plan.sizes[prev] = plan.sizes[d];
      }
    }
  }
  plan.sizes.resize(prev + 1);
  for (Shape& s : plan.byte_strides) s.resize(prev + 1);
  return plan;
}

}  // namespace strided::cuda
