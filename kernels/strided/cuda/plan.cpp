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

  coalesce_dims(plan.sizes, plan.byte_strides);  // the layout algebra's, as the CPU engine's
  return plan;
}

}  // namespace strided::cuda
