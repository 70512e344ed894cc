// Element-wise ops on the CPU: unary, binary with broadcasting and type promotion, their in-place
// forms, and the strided copy with dtype conversion. Each op builds a TensorIterator plan
// (iterator.h) with the flags PyTorch's own op uses (aten/src/ATen/TensorIterator.cpp,
// build_borrowing_binary_op, build_borrowing_unary_op, ...) and runs one kernel over it, so output
// strides, dtypes and errors are PyTorch's.
//
// Kernels take a fast path where the plan allows it (ATen's cpu/Loops.h, VectorizedLoop2d): every
// operand contiguous along the inner dim, or one input a broadcast scalar, runs on vectors (vec.h);
// anything else runs an element loop over byte strides. Operands of another dtype than the one
// the kernel computes in (float16/bfloat16 compute in float32; an in-place output of a narrower
// type) are converted chunk by chunk.
//
// In-place forms take and return `const Tensor&`: the tensor handle is not modified, the elements
// it views are, and the returned reference is the argument itself (claim VW-04).
#pragma once

#include "strided/core/dtype.h"
#include "strided/engine/iterator.h"
#include "strided/tensor/tensor.h"

namespace strided {

// ---- unary
// --------------------------------------------------------------------------------------- neg and
// abs keep the dtype (bool is refused, as in PyTorch); exp and sqrt compute in floating point, so
// integer and bool inputs give float32.
Tensor neg(const Tensor& x);
Tensor abs(const Tensor& x);
Tensor exp(const Tensor& x);
Tensor sqrt(const Tensor& x);
const Tensor& neg_(const Tensor& x);
const Tensor& abs_(const Tensor& x);
const Tensor& exp_(const Tensor& x);  // refuses integer x: the float result cannot be stored
const Tensor& sqrt_(const Tensor& x);

// ---- binary
// -------------------------------------------------------------------------------------- out = a +
// alpha * b, broadcast, in the promoted dtype (promotion.h). A Scalar operand is a wrapped number:
// int32 tensor + 3 stays int32, + 2.5 gives float32.
Tensor add(const Tensor& a, const Tensor& b, const Scalar& alpha = Scalar(int64_t{1}));
Tensor add(const Tensor& a, const Scalar& b, const Scalar& alpha = Scalar(int64_t{1}));
Tensor sub(const Tensor& a, const Tensor& b, const Scalar& alpha = Scalar(int64_t{1}));
Tensor sub(const Tensor& a, const Scalar& b, const Scalar& alpha = Scalar(int64_t{1}));
Tensor mul(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Scalar& b);
// True division: integer and bool operands give float32 (torch.div with rounding_mode=None).
Tensor div(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Scalar& b);

// In-place: a is the output and the first input. b broadcasts to a's shape, never a to b's; the
// promoted dtype must be castable to a's dtype. Writing through a stride-0 dim of a, or into a
// that partially overlaps b, is refused with PyTorch's errors.
const Tensor& add_(const Tensor& a, const Tensor& b, const Scalar& alpha = Scalar(int64_t{1}));
const Tensor& add_(const Tensor& a, const Scalar& b, const Scalar& alpha = Scalar(int64_t{1}));
const Tensor& sub_(const Tensor& a, const Tensor& b, const Scalar& alpha = Scalar(int64_t{1}));
const Tensor& sub_(const Tensor& a, const Scalar& b, const Scalar& alpha = Scalar(int64_t{1}));
const Tensor& mul_(const Tensor& a, const Tensor& b);
const Tensor& mul_(const Tensor& a, const Scalar& b);
const Tensor& div_(const Tensor& a, const Tensor& b);
const Tensor& div_(const Tensor& a, const Scalar& b);

// Python's operators, as the seeds write them (x * y, t.add(3) is x + 3).
Tensor operator-(const Tensor& x);
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, const Scalar& b);
Tensor operator+(const Scalar& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Scalar& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Scalar& b);
Tensor operator*(const Scalar& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Scalar& b);

// ---- the plans the ops run
// ------------------------------------------------------------------------- The exact plan an op
// builds, so a chapter can print its order, time it or trace it (models.h) without re-deriving
// anything. run_* executes a plan built here; it is what the ops above call.
enum class BinaryOp : uint8_t { Add, Sub, Mul, Div };
enum class UnaryOp : uint8_t { Neg, Abs, Exp, Sqrt };
// out may be undefined (allocate) or a; logical_order walks the tensors' own dim order without
// reordering (TensorIteratorConfig::enforce_linear_iteration), for the book's contrast.
TensorIterator binary_plan(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
                           bool logical_order = false);
TensorIterator binary_plan(BinaryOp op, const Tensor& out, const Tensor& a, const Scalar& b,
                           bool logical_order = false);
TensorIterator unary_plan(UnaryOp op, const Tensor& out, const Tensor& x,
                          bool logical_order = false);
// The configuration binary_plan builds from, before its inputs are added: PyTorch's
// build_borrowing_binary_op flags. Exposed so that the CUDA kernels (kernels/strided/cuda/plan.h)
// build their plan from the same flags under their own op name.
TensorIteratorConfig binary_config(BinaryOp op, const Tensor& out, bool logical_order = false);
void run_binary(BinaryOp op, const TensorIterator& plan, const Scalar& alpha = Scalar(int64_t{1}));
void run_unary(UnaryOp op, const TensorIterator& plan);
const char* to_string(BinaryOp op);  // "add", "sub", "mul", "div"
const char* to_string(UnaryOp op);   // "neg", "abs", "exp", "sqrt"

// ---- copies
// ----------------------------------------------------------------------------------------
// dst.copy_(src): src broadcasts to dst's shape and converts to dst's dtype, between any layouts.
// Refuses a dst that overlaps itself or partially overlaps src. Returns dst. This is
// Tensor::copy_ (copies.cpp) under its free-function name: one definition of the semantics.
const Tensor& copy_(const Tensor& dst, const Tensor& src);
// x.to(dtype): x itself when the dtype matches, else a new tensor with x's layout when x is
// non-overlapping and dense, or dense strides in x's dim order otherwise (preserve_format).
// This is Tensor::to.
Tensor to_dtype(const Tensor& x, DType dtype);
// The engine's copy as a plan, for the chapters to time and trace: walked in stride order, a
// contiguous run becomes memcpy and a 2-D transpose is copied in tiles. run_copy performs it.
// It checks what TensorIterator checks (overlap, broadcasting to dst's shape) but not
// Tensor::copy_'s "src is dst" shortcut.
TensorIterator copy_plan(const Tensor& dst, const Tensor& src);
// copy_plan's configuration without its CPU-only check (Copy.cpp, copy_impl's flags): what the
// CUDA copy builds its plan from.
TensorIteratorConfig copy_config(const Tensor& dst, const Tensor& src);
void run_copy(const TensorIterator& plan);
// Whether run_copy walks the plan's innermost 2-D blocks in square tiles (copy_tiles.h): true when
// the destination steps one element along plan dim 0 and the source one element along plan dim 1.
bool copy_in_tiles(const TensorIterator& plan);

}  // namespace strided
