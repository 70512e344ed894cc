// The differentiable ops: each computes its result with the library's op on the plain tensors and,
// when grad mode is on and an input requires grad, records a node with the tensors its backward
// formula reads, and only those (the formulas are PyTorch's tools/autograd/derivatives.yaml, quoted
// beside each). Broadcast operands need nothing of their own: the engine sums a gradient back to
// each input's shape (engine.h).
#pragma once

#include <vector>

#include "strided/autograd/variable.h"

namespace strided::autograd {

// ---- element-wise (arithmetic.cpp) ----------------------------------------------------------------
Variable add(const Variable& a, const Variable& b, const Scalar& alpha = Scalar(int64_t{1}));
Variable add(const Variable& a, const Scalar& b);
Variable sub(const Variable& a, const Variable& b, const Scalar& alpha = Scalar(int64_t{1}));
Variable sub(const Variable& a, const Scalar& b);
Variable mul(const Variable& a, const Variable& b);
Variable mul(const Variable& a, const Scalar& b);
Variable div(const Variable& a, const Variable& b);
Variable div(const Variable& a, const Scalar& b);
Variable neg(const Variable& x);
Variable pow(const Variable& x, double exponent);
Variable pow(const Variable& x, const Variable& exponent);
Variable exp(const Variable& x);
Variable log(const Variable& x);
// x.clone(): a copy with x's layout whose gradient is the gradient (CloneBackward0).
Variable clone(const Variable& x);

Variable operator-(const Variable& x);
Variable operator+(const Variable& a, const Variable& b);
Variable operator+(const Variable& a, const Scalar& b);
Variable operator-(const Variable& a, const Variable& b);
Variable operator-(const Variable& a, const Scalar& b);
Variable operator*(const Variable& a, const Variable& b);
Variable operator*(const Variable& a, const Scalar& b);
Variable operator*(const Scalar& a, const Variable& b);
Variable operator/(const Variable& a, const Variable& b);
Variable operator/(const Variable& a, const Scalar& b);

// ---- reductions (reductions.cpp): over all elements, or over the listed dims ---------------------
Variable sum(const Variable& x);
Variable sum(const Variable& x, IntList dims, bool keepdim = false);
Variable mean(const Variable& x);
Variable mean(const Variable& x, IntList dims, bool keepdim = false);

// ---- matmul (matmul.cpp) ----------------------------------------------------------------------------
Variable matmul(const Variable& a, const Variable& b);

// ---- joining and splitting (join.cpp) ----------------------------------------------------------------
Variable cat(const std::vector<Variable>& tensors, int64_t dim = 0);
// Pieces of split_size along dim (the last may be shorter), or of the listed sizes. Each piece is
// a view of x and one output of a single node.
std::vector<Variable> split(const Variable& x, int64_t split_size, int64_t dim = 0);
std::vector<Variable> split(const Variable& x, IntList split_sizes, int64_t dim = 0);
// x.select(dim, i) for every i: each a view of x and one output of a single node (UnbindBackward0).
std::vector<Variable> unbind(const Variable& x, int64_t dim = 0);

// ---- in place (inplace.cpp) ---------------------------------------------------------------------------
// Each writes self's elements and bumps the version counter self shares with every view of its
// storage, so a backward that saved any of them before the write refuses to run. A leaf that
// requires grad, or a view of one, is refused while grad mode is on, in PyTorch's words. With
// history, self's grad_fn becomes the op's node (its old history behind it); on a view, the base's
// grad_fn becomes CopySlices and the view's is regenerated from the base (AsStridedBackward0).
const Variable& add_(const Variable& self, const Variable& other,
                     const Scalar& alpha = Scalar(int64_t{1}));
const Variable& add_(const Variable& self, const Scalar& other);
const Variable& sub_(const Variable& self, const Variable& other);
const Variable& sub_(const Variable& self, const Scalar& other);
const Variable& mul_(const Variable& self, const Variable& other);
const Variable& mul_(const Variable& self, const Scalar& other);
const Variable& div_(const Variable& self, const Variable& other);
const Variable& div_(const Variable& self, const Scalar& other);
const Variable& copy_(const Variable& self, const Variable& src);
const Variable& fill_(const Variable& self, const Scalar& value);

}  // namespace strided::autograd
