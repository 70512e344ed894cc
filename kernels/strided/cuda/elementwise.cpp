// Host side of the element-wise operations: argument checks, the plan (TensorIterator's, through
// plan.h, which also allocates the output), and the choice of kernel. The kernels are in
// elementwise_kernels.cu.
#include "strided/cuda/elementwise.h"

#include <atomic>

#include "strided/cuda/backend.h"
#include "strided/cuda/offset_calculator.h"
#include "strided/cuda/plan.h"
#include "strided/cuda/runtime.h"
#include "strided/layout/layout.h"

namespace strided::cuda {

namespace {

std::atomic<bool> g_force_64bit{false};

using backend::ElementwiseOp;

void check_cuda_tensor(const Tensor& t, const char* op, const char* what) {
  STRIDED_CHECK(t.defined(), op, what, " is an undefined tensor");
  STRIDED_CHECK(t.device().is_cuda(), op, "expected ", what, " on a CUDA device, got ",
                t.device().str(), " (move it with strided::cuda::to_device)");
}

void check_same_device(const Tensor& a, const Tensor& b, const char* op) {
  STRIDED_CHECK(a.device() == b.device(), op, "expected all tensors on the same device, but found ",
                a.device().str(), " and ", b.device().str());
}

void check_float32(const Tensor& t, const char* op, const char* what) {
  STRIDED_CHECK(t.dtype() == DType::Float32, op,
                "the GPU arithmetic is compiled for float32 only, ", what, " is ", name(t.dtype()));
}

// Launches op over a plan the caller built with plan.h (so already checked for shapes and
// overlap by TensorIterator): the flat kernel, a memcpy, or the strided kernel.
void launch(const char* op, ElementwiseOp kind, ElementwiseKernel kernel, const TensorIterator& it) {
  const ElementwisePlan plan = from_iterator(it);
  STRIDED_INTERNAL_ASSERT(plan.data.size() <= 3);
  if (plan.numel == 0) return;
  const int64_t item = it.output().element_size();
  const bool flat = plan.is_flat(item);
  STRIDED_CHECK(kernel != ElementwiseKernel::Flat || flat, op,
                "the flat kernel needs every operand to be one unit-stride run, but the plan is ",
                layout_string(plan.sizes, plan.byte_strides[0]),
                " (bytes, innermost first) for the output; use the strided kernel");
  require_available(op);
  backend::DeviceGuard guard(it.output().device().index);
  char* data[3] = {nullptr, nullptr, nullptr};
  for (size_t k = 0; k < plan.data.size() && k < 3; ++k) data[k] = plan.data[k];
  const float scalar = plan.scalars.empty() ? 0.0f : static_cast<float>(plan.scalars[0]);
  if (kind == ElementwiseOp::Copy && kernel == ElementwiseKernel::Auto && flat) {
    // One run of bytes to another: the copy engine's job, as in PyTorch's copy_ (Copy.cu).
    if (data[0] != data[1]) {
      backend::memcpy(data[0], data[1], plan.numel * item, backend::CopyKind::DeviceToDevice);
    }
    return;
  }
  const bool use_flat = kernel == ElementwiseKernel::Flat || (kernel == ElementwiseKernel::Auto && flat);
  backend::launch_elementwise(kind, use_flat ? ElementwiseKernel::Flat
                                             : ElementwiseKernel::Strided,
                              item, plan, data, scalar,
                              g_force_64bit.load() || !fits_32bit_indexing(plan.numel));
}

// The checks TensorIterator leaves to the CUDA ops: every tensor on one CUDA device, float32.
// Shapes and overlap are the plan's to check.
void check_operands(const char* op, const Tensor* out, const Tensor& a, const Tensor* b) {
  check_cuda_tensor(a, op, "self");
  check_float32(a, op, "self");
  for (const auto& [t, what] : {std::pair{out, "out"}, std::pair{b, "other"}}) {
    if (!t) continue;
    check_cuda_tensor(*t, op, what);
    check_same_device(a, *t, op);
    check_float32(*t, op, what);
  }
}

BinaryOp binary_op(ElementwiseOp kind) {
  return kind == ElementwiseOp::Add || kind == ElementwiseOp::AddScalar ? BinaryOp::Add
                                                                        : BinaryOp::Mul;
}

// out may be undefined (the plan allocates it) or the tensor written in place.
TensorIterator elementwise_plan(const char* op, ElementwiseOp kind, const Tensor& out,
                                const Tensor& a, const Tensor* b, float s) {
  return b ? binary_plan(op, binary_op(kind), out, a, *b)
           : binary_plan(op, binary_op(kind), out, a, s);
}

Tensor binary(const char* op, ElementwiseOp kind, const Tensor& a, const Tensor* b, float s,
              ElementwiseKernel kernel) {
  check_operands(op, nullptr, a, b);
  // Broadcasting errors before the missing device: the plan cannot be built without one, since
  // it allocates the output (TensorIterator's allocate_or_resize_outputs) on a's device.
  if (b) broadcast_shapes(a.sizes(), b->sizes());
  require_available(op);
  backend::DeviceGuard guard(a.device().index);
  const TensorIterator it = elementwise_plan(op, kind, Tensor(), a, b, s);
  launch(op, kind, kernel, it);
  return it.output();
}

Tensor& binary_out(const char* op, ElementwiseOp kind, Tensor& out, const Tensor& a,
                   const Tensor* b, float s, ElementwiseKernel kernel) {
  check_operands(op, &out, a, b);
  launch(op, kind, kernel, elementwise_plan(op, kind, out, a, b, s));
  return out;
}

}  // namespace

void force_64bit_indexing_for_testing(bool on) { g_force_64bit.store(on); }

Tensor& copy_(Tensor& dst, const Tensor& src, ElementwiseKernel kernel) {
  const char* op = "cuda::copy_";
  check_cuda_tensor(dst, op, "self");
  check_cuda_tensor(src, op, "src");
  check_same_device(dst, src, op);
  STRIDED_CHECK(dst.dtype() == src.dtype(), op,
                "the GPU copy moves bits and does not convert "
                "dtypes, but self is ",
                name(dst.dtype()), " and src is ", name(src.dtype()));
  // Throws PyTorch's message when src cannot broadcast to dst.
  expand_geometry(src.layout(), dst.sizes());
  launch(op, ElementwiseOp::Copy, kernel, copy_plan(op, dst, src));
  return dst;
}

Tensor contiguous(const Tensor& t) {
  check_cuda_tensor(t, "cuda::contiguous", "self");
  if (t.is_contiguous()) return t;
  require_available("cuda::contiguous");
  Tensor out = strided::empty(t.sizes(), {t.dtype(), t.device()});
  copy_(out, t);
  return out;
}

Tensor add(const Tensor& a, const Tensor& b, ElementwiseKernel k) {
  return binary("cuda::add", ElementwiseOp::Add, a, &b, 0.0f, k);
}
Tensor mul(const Tensor& a, const Tensor& b, ElementwiseKernel k) {
  return binary("cuda::mul", ElementwiseOp::Mul, a, &b, 0.0f, k);
}
Tensor add(const Tensor& a, float s, ElementwiseKernel k) {
  return binary("cuda::add", ElementwiseOp::AddScalar, a, nullptr, s, k);
}
Tensor mul(const Tensor& a, float s, ElementwiseKernel k) {
  return binary("cuda::mul", ElementwiseOp::MulScalar, a, nullptr, s, k);
}

Tensor& add_out(Tensor& out, const Tensor& a, const Tensor& b, ElementwiseKernel k) {
  return binary_out("cuda::add_out", ElementwiseOp::Add, out, a, &b, 0.0f, k);
}
Tensor& mul_out(Tensor& out, const Tensor& a, const Tensor& b, ElementwiseKernel k) {
  return binary_out("cuda::mul_out", ElementwiseOp::Mul, out, a, &b, 0.0f, k);
}
Tensor& add_out(Tensor& out, const Tensor& a, float s, ElementwiseKernel k) {
  return binary_out("cuda::add_out", ElementwiseOp::AddScalar, out, a, nullptr, s, k);
}
Tensor& mul_out(Tensor& out, const Tensor& a, float s, ElementwiseKernel k) {
  return binary_out("cuda::mul_out", ElementwiseOp::MulScalar, out, a, nullptr, s, k);
}

}  // namespace strided::cuda
