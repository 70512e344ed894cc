#include "strided/cuda/plan.h"

#include "strided/core/error.h"

namespace strided::cuda {

bool ElementwisePlan::is_flat(int64_t itemsize) const {
  if (sizes.empty()) return true;
  if (sizes.size() != 1) return false;
  if (sizes[0] == 1) return true;
  for (const Shape& s : byte_strides)
    if (s[0] != itemsize) return false;
  return true;
}

ElementwisePlan from_iterator(const TensorIterator& it) {
  ElementwisePlan plan;
  plan.sizes = it.shape();
  plan.numel = it.numel();
  for (int k = 0; k < it.ntensors(); ++k) {
    const IterOperand& o = it.operand(k);
    if (o.wrapped_number) {
      plan.scalars.push_back(o.wrapped_number->to_double());
      continue;
    }
    plan.byte_strides.push_back(o.stride_bytes);
    plan.data.push_back(o.data());
  }
  return plan;
}

TensorIterator binary_plan(const char* op, BinaryOp kind, const Tensor& out, const Tensor& a,
                           const Tensor& b) {
  return binary_config(kind, out).set_op_name(op).add_input(a).add_input(b).build();
}

TensorIterator binary_plan(const char* op, BinaryOp kind, const Tensor& out, const Tensor& a,
                           float scalar) {
  return binary_config(kind, out)
      .set_op_name(op)
      .add_input(a)
      .add_input(Scalar(static_cast<double>(scalar)))
      .build();
}

TensorIterator copy_plan(const char* op, const Tensor& dst, const Tensor& src) {
  return copy_config(dst, src).set_op_name(op).build();
}

}  // namespace strided::cuda
