// Pieces the autograd files share and a user never calls: the formulas that more than one op
// uses, and how a view's Variable is made.
#pragma once

#include <memory>

#include "strided/autograd/node.h"

namespace strided::autograd::detail {

// at::sum_to: sums a broadcast gradient back to `sizes` — over the leading dims the broadcast
// added, and (keeping them) over the dims where sizes has 1 (aten/src/ATen/ExpandUtils.h).
Tensor sum_to(const Tensor& grad, IntList sizes);
// Whether `sizes` broadcasts to `target` (is_expandable_to).
bool is_expandable_to(IntList sizes, IntList target);

// as_strided_backward (FunctionsManual.cpp), in the storage's coordinates: the gradient of each
// element of the view is added into the storage position it reads, and the input reads its
// gradient back from the positions it covers; where the input itself overlaps, each position's
// gradient is shared among the input elements that read it.
Tensor as_strided_backward(const Tensor& grad, const Layout& input, const Layout& view);

// The Variable holding an op's new result `out`, with `op` (may be null) as its grad_fn.
Variable with_history(Tensor out, const std::shared_ptr<Node>& op);

// The Variable for `view`, a view of `base`: it shares base's version counter and names base's
// root as its own base, and records `node` (may be null) as its grad_fn.
Variable make_view(const Variable& base, Tensor view, const std::shared_ptr<Node>& node);

// Records a one-input view op whose formula maps the view's gradient to the base's.
template <class Backward>
Variable view_op(const Variable& self, Tensor out, const char* name, Backward backward) {
  auto op = record(name, {&self});
  if (op)
    op->formula = [backward](Op&, const std::vector<Tensor>& g) {
      return std::vector<Tensor>{backward(g[0])};
    };
  return make_view(self, std::move(out), op);
}
// The node a view of a base written in place since gets: AsStridedBackward0 over the base.
std::shared_ptr<Node> regenerate_view_grad_fn(const ViewInfo& info, const Tensor& view);

// Elementwise kernels the library has no op for, on floating tensors, into a new contiguous one.
Tensor log(const Tensor& x);
Tensor pow(const Tensor& x, double exponent);
Tensor pow(const Tensor& x, const Tensor& exponent);  // broadcast, same dtype

// The engine's mul, add, div by a number and sum, for complex operands too (complex.cpp): the
// backward formulas of the ops a complex tensor goes through call these. Real operands take the
// engine's op unchanged.
Tensor mul(const Tensor& a, const Tensor& b);
Tensor add(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Scalar& n);
Tensor sum(const Tensor& x);
Tensor sum(const Tensor& x, int64_t dim, bool keepdim);

}  // namespace strided::autograd::detail
