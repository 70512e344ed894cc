// The element-wise ops and copy_'s plan: checks and plans here, in baseline code; the loops over a
// checked plan are the CPU kernels of the capability that runs (dispatch.h, elementwise_loops.h).
#include "strided/engine/ops.h"

#include "strided/engine/copy_tiles.h"
#include "strided/engine/cpu_kernels.h"
#include "strided/engine/dispatch.h"
#include "strided/layout/layout.h"
#include "strided/tensor/promotion.h"

namespace strided {

namespace {

// ---- checks PyTorch makes before building the plan (aten/src/ATen/native/BinaryOps.h)
// ------------

void alpha_check(const char* op, DType dtype, const Scalar& alpha, bool negated) {
  STRIDED_CHECK(alpha.kind() != Scalar::Kind::Bool || dtype == DType::Bool, op,
                "Boolean alpha only supported for Boolean results.");
  STRIDED_CHECK(is_floating_point(dtype) || !alpha.is_floating_point(), op,
                "For integral input tensors, argument alpha must not be a floating point "
                "number.");
  // The kernel takes alpha as the dtype (BinaryOpsKernel.cpp, alpha_scalar.to<scalar_t>(), which
  // is c10's checked_convert), sub as add with -alpha: torch.add(a, b, alpha=300) of uint8
  // tensors raises, and so does torch.sub(a, b, alpha=-129) of int8 ones.
  if (is_integral(dtype)) {
    // Negated with wrap-around: -(-2^63) is -2^63, without signed overflow.
    const Scalar a =
        negated ? Scalar(static_cast<int64_t>(0 - static_cast<uint64_t>(alpha.to_int()))) : alpha;
    STRIDED_CHECK(fits_without_overflow(a, dtype), op, "value ", a.to_string(),
                  " cannot be converted to type ", name(dtype), " without overflow (alpha ",
                  alpha.to_string(), ")");
  }
}

void sub_check(DType a, DType b) {
  STRIDED_CHECK(a != DType::Bool || b != DType::Bool, "sub",
                "Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                "the `^` or `logical_xor()` operator instead.");
  STRIDED_CHECK(a != DType::Bool && b != DType::Bool, "sub",
                "Subtraction, the `-` operator, with a bool tensor is not supported. If you "
                "are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

void neg_check(DType t) {
  STRIDED_CHECK(t != DType::Bool, "neg",
                "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

Tensor binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
              const Scalar& alpha) {
  if (op == BinaryOp::Sub) sub_check(a.dtype(), b.dtype());
  TensorIterator it = binary_plan(op, out, a, b);
  run_binary(op, it, alpha);
  return it.output();
}
Tensor binary(BinaryOp op, const Tensor& out, const Tensor& a, const Scalar& b,
              const Scalar& alpha) {
  if (op == BinaryOp::Sub) sub_check(a.dtype(), scalar_dtype(b));
  TensorIterator it = binary_plan(op, out, a, b);
  run_binary(op, it, alpha);
  return it.output();
}

Tensor unary(UnaryOp op, const Tensor& out, const Tensor& x) {
  TensorIterator it = unary_plan(op, out, x);
  run_unary(op, it);
  return it.output();
}

}  // namespace

// ---- plans and runs
// -----------------------------------------------------------------------------------

const char* to_string(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add:
      return "add";
    case BinaryOp::Sub:
      return "sub";
    case BinaryOp::Mul:
      return "mul";
    case BinaryOp::Div:
      break;
  }
  return "div";
}
const char* to_string(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg:
      return "neg";
    case UnaryOp::Abs:
      return "abs";
    case UnaryOp::Exp:
      return "exp";
    case UnaryOp::Sqrt:
      break;
  }
  return "sqrt";
}

TensorIteratorConfig binary_config(BinaryOp op, const Tensor& out, bool logical_order) {
  // build_borrowing_binary_op / build_borrowing_binary_float_op.
  TensorIteratorConfig config;
  config.set_op_name(to_string(op))
      .add_output(out)
      .promote_inputs_to_common_dtype(true)
      .enforce_safe_casting_to_output(true)
      .promote_integer_inputs_to_float(op == BinaryOp::Div)
      .enforce_linear_iteration(logical_order);
  return config;
}

TensorIterator binary_plan(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                           bool logical_order) {
  return binary_config(op, out, logical_order).add_input(a).add_input(b).build();
}
TensorIterator binary_plan(BinaryOp op, const Tensor& out, const Tensor& a, const Scalar& b,
                           bool logical_order) {
  return binary_config(op, out, logical_order).add_input(a).add_input(b).build();
}

TensorIterator unary_plan(UnaryOp op, const Tensor& out, const Tensor& x, bool logical_order) {
  TensorIteratorConfig config;
  config.set_op_name(to_string(op))
      .add_output(out)
      .add_input(x)
      .enforce_linear_iteration(logical_order);
  if (op == UnaryOp::Exp || op == UnaryOp::Sqrt) {
    // build_borrowing_unary_float_op: integers and bool compute in float32.
    config.promote_inputs_to_common_dtype(true)
        .enforce_safe_casting_to_output(true)
        .promote_integer_inputs_to_float(true);
  }
  return config.build();
}

void run_binary(BinaryOp op, const TensorIterator& it, const Scalar& alpha) {
  STRIDED_CHECK(it.noutputs() == 1 && it.ninputs() == 2, to_string(op),
                "expected a plan with one output and two inputs, got ", it.noutputs(), " and ",
                it.ninputs());
  const DType common = it.common_dtype();
  const char* name = to_string(op);
  if (op == BinaryOp::Add || op == BinaryOp::Sub)
    alpha_check(name, common, alpha, op == BinaryOp::Sub);
  if (op == BinaryOp::Sub) sub_check(it.input(0).dtype(), it.input(1).dtype());
  if (it.numel() == 0) return;
  cpu_kernels().binary(op, it, alpha);
}

void run_unary(UnaryOp op, const TensorIterator& it) {
  STRIDED_CHECK(it.noutputs() == 1 && it.ninputs() == 1, to_string(op),
                "expected a plan with one output and one input, got ", it.noutputs(), " and ",
                it.ninputs());
  const DType common = it.common_dtype();
  if (op == UnaryOp::Neg) neg_check(common);
  STRIDED_CHECK(op != UnaryOp::Abs || common != DType::Bool, "abs",
                "\"abs_cpu\" not implemented for 'Bool'");
  if (it.numel() == 0) return;
  cpu_kernels().unary(op, it);
}

// ---- unary
// ----------------------------------------------------------------------------------------

Tensor neg(const Tensor& x) {
  neg_check(x.dtype());
  return unary(UnaryOp::Neg, Tensor(), x);
}
Tensor abs(const Tensor& x) {
  return unary(UnaryOp::Abs, Tensor(), x);
}
Tensor exp(const Tensor& x) {
  return unary(UnaryOp::Exp, Tensor(), x);
}
Tensor sqrt(const Tensor& x) {
  return unary(UnaryOp::Sqrt, Tensor(), x);
}
const Tensor& neg_(const Tensor& x) {
  neg_check(x.dtype());
  unary(UnaryOp::Neg, x, x);
  return x;
}
const Tensor& abs_(const Tensor& x) {
  unary(UnaryOp::Abs, x, x);
  return x;
}
const Tensor& exp_(const Tensor& x) {
  unary(UnaryOp::Exp, x, x);
  return x;
}
const Tensor& sqrt_(const Tensor& x) {
  unary(UnaryOp::Sqrt, x, x);
  return x;
}

// ---- binary
// ---------------------------------------------------------------------------------------

Tensor add(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  return binary(BinaryOp::Add, Tensor(), a, b, alpha);
}
Tensor add(const Tensor& a, const Scalar& b, const Scalar& alpha) {
  return binary(BinaryOp::Add, Tensor(), a, b, alpha);
}
Tensor sub(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  return binary(BinaryOp::Sub, Tensor(), a, b, alpha);
}
Tensor sub(const Tensor& a, const Scalar& b, const Scalar& alpha) {
  return binary(BinaryOp::Sub, Tensor(), a, b, alpha);
}
Tensor mul(const Tensor& a, const Tensor& b) {
  return binary(BinaryOp::Mul, Tensor(), a, b, Scalar(int64_t{1}));
}
Tensor mul(const Tensor& a, const Scalar& b) {
  return binary(BinaryOp::Mul, Tensor(), a, b, Scalar(int64_t{1}));
}
Tensor div(const Tensor& a, const Tensor& b) {
  return binary(BinaryOp::Div, Tensor(), a, b, Scalar(int64_t{1}));
}
Tensor div(const Tensor& a, const Scalar& b) {
  return binary(BinaryOp::Div, Tensor(), a, b, Scalar(int64_t{1}));
}

const Tensor& add_(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  binary(BinaryOp::Add, a, a, b, alpha);
  return a;
}
const Tensor& add_(const Tensor& a, const Scalar& b, const Scalar& alpha) {
  binary(BinaryOp::Add, a, a, b, alpha);
  return a;
}
const Tensor& sub_(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  binary(BinaryOp::Sub, a, a, b, alpha);
  return a;
}
const Tensor& sub_(const Tensor& a, const Scalar& b, const Scalar& alpha) {
  binary(BinaryOp::Sub, a, a, b, alpha);
  return a;
}
const Tensor& mul_(const Tensor& a, const Tensor& b) {
  binary(BinaryOp::Mul, a, a, b, Scalar(int64_t{1}));
  return a;
}
const Tensor& mul_(const Tensor& a, const Scalar& b) {
  binary(BinaryOp::Mul, a, a, b, Scalar(int64_t{1}));
  return a;
}
const Tensor& div_(const Tensor& a, const Tensor& b) {
  binary(BinaryOp::Div, a, a, b, Scalar(int64_t{1}));
  return a;
}
const Tensor& div_(const Tensor& a, const Scalar& b) {
  binary(BinaryOp::Div, a, a, b, Scalar(int64_t{1}));
  return a;
}

Tensor operator-(const Tensor& x) {
  return neg(x);
}
Tensor operator+(const Tensor& a, const Tensor& b) {
  return add(a, b);
}
Tensor operator+(const Tensor& a, const Scalar& b) {
  return add(a, b);
}
Tensor operator+(const Scalar& a, const Tensor& b) {
  return add(b, a);
}
Tensor operator-(const Tensor& a, const Tensor& b) {
  return sub(a, b);
}
Tensor operator-(const Tensor& a, const Scalar& b) {
  return sub(a, b);
}
Tensor operator*(const Tensor& a, const Tensor& b) {
  return mul(a, b);
}
Tensor operator*(const Tensor& a, const Scalar& b) {
  return mul(a, b);
}
Tensor operator*(const Scalar& a, const Tensor& b) {
  return mul(b, a);
}
Tensor operator/(const Tensor& a, const Tensor& b) {
  return div(a, b);
}
Tensor operator/(const Tensor& a, const Scalar& b) {
  return div(a, b);
}

// ---- copies
// -----------------------------------------------------------------------------------------

TensorIterator copy_plan(const Tensor& dst, const Tensor& src) {
  STRIDED_CHECK(dst.defined() && src.defined(), "copy_", "both tensors must be defined");
  check_cpu(src, "copy_");
  check_cpu(dst, "copy_");
  // Two complex tensors copy as their (real, imaginary) pairs: view_as_real of each, float32 or
  // float64 parts, converted as any real copy. A conjugate bit is the caller's to resolve
  // (Tensor::copy_ does), so the two must agree here.
  if (is_complex(dst.dtype()) && is_complex(src.dtype())) {
    STRIDED_CHECK(dst.is_conj() == src.is_conj(), "copy_",
                  "the plan copies bytes, and one of the two complex tensors is "
                  "conjugated; resolve_conj() it first");
    Tensor d = dst, s = src;
    d.set_conj(false);
    s.set_conj(false);
    return copy_config(view_as_real(d), view_as_real(s)).build();
  }
  return copy_config(dst, src).build();
}

TensorIteratorConfig copy_config(const Tensor& dst, const Tensor& src) {
  // Copy.cpp, copy_impl: src broadcasts to dst (resize_outputs false) and converts as it goes.
  TensorIteratorConfig config;
  config.set_op_name("copy_")
      .add_output(dst)
      .add_input(src)
      .resize_outputs(false)
      .check_all_same_dtype(false);
  return config;
}

void run_copy(const TensorIterator& it) {
  STRIDED_CHECK(it.noutputs() == 1 && it.ninputs() == 1, "copy_",
                "expected a plan with one output and one input, got ", it.noutputs(), " and ",
                it.ninputs());
  if (it.numel() == 0) return;
  cpu_kernels().copy(it);
}

bool copy_in_tiles(const TensorIterator& it) {
  if (it.ndim() < 2 || it.noutputs() != 1 || it.ninputs() != 1) return false;
  const Shape& d = it.operand(0).stride_bytes;
  const Shape& s = it.operand(1).stride_bytes;
  const int64_t st[4] = {d[0], s[0], d[1], s[1]};
  return copies_block_in_tiles(st, it.shape()[1], it.operand(0).element_size(),
                               it.operand(0).dtype() == it.operand(1).dtype());
}

// One definition of copy_'s semantics: Tensor::copy_ (copies.cpp). This free form is the
// spelling the ops use, and must never disagree with the method.
const Tensor& copy_(const Tensor& dst, const Tensor& src) {
  STRIDED_CHECK(dst.defined() && src.defined(), "copy_", "both tensors must be defined");
  Tensor handle = dst;  // a handle copy: the elements it views are the ones written
  handle.copy_(src);
  return dst;
}

// x.to(dtype) is Tensor::to (copies.cpp, preserve_format), named as PyTorch's C++ does.
Tensor to_dtype(const Tensor& x, DType dtype) {
  STRIDED_CHECK(x.defined(), "to", "the tensor is undefined");
  return x.to(dtype);
}

}  // namespace strided
