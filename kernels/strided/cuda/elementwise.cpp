// Host side of the element-wise operations: argument checks, the iteration plan, output
// allocation, and the choice of kernel. The kernels are in elementwise_kernels.cu.
#include "strided/cuda/elementwise.h"

#include <atomic>

#include "strided/cuda/backend.h"
#include "strided/cuda/offset_calculator.h"
#include "strided/cuda/plan.h"
#include "strided/cuda/runtime.h"
#include "strided/layout.h"
#include "strided/memory.h"

namespace strided::cuda {

namespace {

std::atomic<bool> g_force_64bit{false};

using backend::ElementwiseOp;

void check_cuda_tensor(const Tensor& t, const char* op, const char* what) {
  STRIDED_CHECK(t.defined(), op, ": ", what, " is an undefined tensor");
  STRIDED_CHECK(t.device().is_cuda(), op, ": expected ", what, " on a CUDA device, got ",
                t.device().str(), " (move it with strided::cuda::to_device)");
}

void check_same_device(const Tensor& a, const Tensor& b, const char* op) {
  STRIDED_CHECK(a.device() == b.device(), op,
                ": expected all tensors on the same device, but found ", a.device().str(),
                " and ", b.device().str());
}

void check_float32(const Tensor& t, const char* op, const char* what) {
  STRIDED_CHECK(t.dtype() == DType::Float32, op, ": the GPU arithmetic is compiled for float32 only, ",
                what, " is ", name(t.dtype()));
}

// PyTorch's assert_no_internal_overlap and assert_no_partial_overlap (aten/src/ATen/MemoryOverlap.cpp):
// a written element must not be reached twice, and an input may be the output itself but not a
// shifted or re-strided view of it, whose elements other threads would be rewriting.
void check_writable(const Tensor& out, const char* op) {
  STRIDED_CHECK(has_internal_overlap(out) != MemOverlap::Yes, op,
                ": unsupported operation: more than one element of the written-to tensor refers to "
                "a single memory location (", out.layout(),
                "). Please clone() the tensor before performing the operation.");
}
void check_no_partial_overlap(const Tensor& out, const Tensor& in, const char* op) {
  STRIDED_CHECK(get_overlap_status(out, in) != MemOverlapStatus::Partial, op,
                ": unsupported operation: some elements of the input tensor ", in.layout(),
                " and the written-to tensor ", out.layout(),
                " refer to a single memory location. Please clone() the tensor before performing "
                "the operation.");
}

Shape byte_strides(IntList strides, int64_t itemsize) {
  Shape s(strides.begin(), strides.end());
  for (int64_t& x : s) x *= itemsize;
  return s;
}

// The strides of `in` broadcast to `shape` (expand's rule: new and size-1 dims get stride 0).
Shape strides_broadcast_to(const Tensor& in, IntList shape) {
  return expand_geometry(in.sizes(), in.strides(), shape).strides;
}

// Plans and launches op over out and up to two inputs already checked for device, dtype and
// overlap. inputs[i] may be null (the scalar ops and copy read fewer).
void launch(const char* op, ElementwiseOp kind, ElementwiseKernel kernel, Tensor& out,
            const Tensor* a, const Tensor* b, float scalar) {
  const int64_t item = out.element_size();
  std::vector<Shape> strides{out.strides()};
  for (const Tensor* in : {a, b})
    if (in) strides.push_back(strides_broadcast_to(*in, out.sizes()));
  const Shape order = iteration_order(out.sizes(), strides);
  std::vector<Shape> bytes;
  for (const Shape& s : strides) bytes.push_back(byte_strides(s, item));
  const ElementwisePlan plan = make_elementwise_plan(out.sizes(), bytes, order);
  if (plan.numel == 0) return;

  const bool flat = plan.is_flat(item);
  STRIDED_CHECK(kernel != ElementwiseKernel::Flat || flat, op,
                ": the flat kernel needs every operand to be one unit-stride run, but the plan is ",
                layout_string(plan.sizes, plan.byte_strides[0]),
                " (bytes, innermost first) for the output; use the strided kernel");
  require_available(op);
  backend::DeviceGuard guard(out.device().index);
  char* data[3] = {static_cast<char*>(out.data_ptr()),
                   a ? static_cast<char*>(a->data_ptr()) : nullptr,
                   b ? static_cast<char*>(b->data_ptr()) : nullptr};
  if (kind == ElementwiseOp::Copy && kernel == ElementwiseKernel::Auto && flat) {
    // One run of bytes to another: the copy engine's job, as in PyTorch's copy_ (Copy.cu).
    if (data[0] != data[1]) {
      backend::memcpy(data[0], data[1], plan.numel * item, backend::CopyKind::DeviceToDevice);
    }
    return;
  }
  const bool use_flat = kernel == ElementwiseKernel::Flat || (kernel == ElementwiseKernel::Auto && flat);
  backend::launch_elementwise(kind, use_flat ? backend::ElementwisePath::Flat
                                             : backend::ElementwisePath::Strided,
                              item, plan, data, scalar,
                              g_force_64bit.load() || !fits_32bit_indexing(plan.numel));
}

// Checks shared by the binary ops: devices, dtypes, out's shape, overlap.
void check_binary(const char* op, const Tensor& out, const Tensor& a, const Tensor* b) {
  check_cuda_tensor(out, op, "out");
  check_cuda_tensor(a, op, "self");
  check_same_device(out, a, op);
  check_float32(out, op, "out");
  check_float32(a, op, "self");
  Shape shape = a.sizes();
  if (b) {
    check_cuda_tensor(*b, op, "other");
    check_same_device(out, *b, op);
    check_float32(*b, op, "other");
    shape = broadcast_shapes(a.sizes(), b->sizes());
  }
  STRIDED_CHECK(out.sizes() == shape, op, ": out has shape ", to_string(out.sizes()),
                " but the operands broadcast to ", to_string(shape),
                " (out is written in place, never resized)");
  check_writable(out, op);
  check_no_partial_overlap(out, a, op);
  if (b) check_no_partial_overlap(out, *b, op);
}

// A fresh output laid out in the iteration order of the inputs (TensorIterator's allocation):
// the inputs' strides decide, an output still to be allocated has no say.
Tensor allocate_output(IntList shape, const Tensor& a, const Tensor* b) {
  std::vector<Shape> strides{Shape{}, strides_broadcast_to(a, shape)};
  if (b) strides.push_back(strides_broadcast_to(*b, shape));
  const Shape order = iteration_order(shape, strides);
  return empty_strided(shape, output_strides_for_order(shape, order), {a.dtype(), a.device()});
}

Tensor binary(const char* op, ElementwiseOp kind, const Tensor& a, const Tensor* b, float s,
              ElementwiseKernel kernel) {
  check_cuda_tensor(a, op, "self");
  check_float32(a, op, "self");
  if (b) {
    check_cuda_tensor(*b, op, "other");
    check_same_device(a, *b, op);
    check_float32(*b, op, "other");
  }
  const Shape shape = b ? broadcast_shapes(a.sizes(), b->sizes()) : a.sizes();
  require_available(op);
  backend::DeviceGuard guard(a.device().index);
  Tensor out = allocate_output(shape, a, b);
  launch(op, kind, kernel, out, &a, b, s);
  return out;
}

}  // namespace

void force_64bit_indexing_for_testing(bool on) { g_force_64bit.store(on); }

Tensor& copy_(Tensor& dst, const Tensor& src, ElementwiseKernel kernel) {
  const char* op = "cuda::copy_";
  check_cuda_tensor(dst, op, "self");
  check_cuda_tensor(src, op, "src");
  check_same_device(dst, src, op);
  STRIDED_CHECK(dst.dtype() == src.dtype(), op, ": the GPU copy moves bits and does not convert "
                "dtypes, but self is ", name(dst.dtype()), " and src is ", name(src.dtype()));
  // Throws PyTorch's message when src cannot broadcast to dst.
  expand_geometry(src.sizes(), src.strides(), dst.sizes());
  check_writable(dst, op);
  check_no_partial_overlap(dst, src, op);
  launch(op, ElementwiseOp::Copy, kernel, dst, &src, nullptr, 0.0f);
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
  check_binary("cuda::add_out", out, a, &b);
  launch("cuda::add_out", ElementwiseOp::Add, k, out, &a, &b, 0.0f);
  return out;
}
Tensor& mul_out(Tensor& out, const Tensor& a, const Tensor& b, ElementwiseKernel k) {
  check_binary("cuda::mul_out", out, a, &b);
  launch("cuda::mul_out", ElementwiseOp::Mul, k, out, &a, &b, 0.0f);
  return out;
}
Tensor& add_out(Tensor& out, const Tensor& a, float s, ElementwiseKernel k) {
  check_binary("cuda::add_out", out, a, nullptr);
  launch("cuda::add_out", ElementwiseOp::AddScalar, k, out, &a, nullptr, s);
  return out;
}
Tensor& mul_out(Tensor& out, const Tensor& a, float s, ElementwiseKernel k) {
  check_binary("cuda::mul_out", out, a, nullptr);
  launch("cuda::mul_out", ElementwiseOp::MulScalar, k, out, &a, nullptr, s);
  return out;
}

}  // namespace strided::cuda
