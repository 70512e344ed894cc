// sum and mean, over all elements or over a list of dims. Their backward formulas read no tensor:
// the gradient of a sum is the upstream gradient expanded back over the reduced dims (stride 0,
// no copy), and a mean's is that divided by the number of elements each output averaged.
#include <algorithm>

#include "strided/autograd/detail.h"
#include "strided/autograd/node.h"
#include "strided/autograd/ops.h"
#include "strided/layout/layout.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"

namespace strided::autograd {

namespace {
using Grads = std::vector<Tensor>;

// The dims wrapped and sorted, refused when repeated (as ATen's dim_list_to_bitset). No dims
// means every dim, as sum(dim=[]) in 1.13.
Shape reduced_dims(const Tensor& x, IntList dims, const char* op) {
  Shape out;
  if (dims.empty())
    for (int64_t d = 0; d < x.dim(); ++d) out.push_back(d);
  for (int64_t d : dims) out.push_back(wrap_dim(d, std::max<int64_t>(x.dim(), 1), op));
  std::sort(out.begin(), out.end());
  for (size_t i = 1; i < out.size(); ++i)
    STRIDED_CHECK(out[i] != out[i - 1], "", "dim ", out[i],
                  " appears multiple times in the list of dims");
  return out;
}

Tensor sum_dims(const Tensor& x, const Shape& dims, bool keepdim) {
  Tensor out = x;
  if (x.dim() == 0) return detail::sum(x);
  for (auto it = dims.rbegin(); it != dims.rend(); ++it) out = detail::sum(out, *it, keepdim);
  return out;
}

// sum_backward (FunctionsManual.cpp): put the reduced dims back as size 1, then expand.
Tensor sum_backward(const Tensor& grad, const Shape& sizes, const Shape& dims, bool keepdim) {
  Tensor g = grad;
  if (!keepdim && !sizes.empty())
    for (int64_t d : dims) g = g.unsqueeze(d);
  return g.expand(sizes);
}

}  // namespace

Variable sum(const Variable& x) {
  auto op = record("SumBackward0", {&x});
  // sum: self: grad.expand_symint(self.sym_sizes())
  const Shape sizes = x.sizes();
  if (op) op->formula = [sizes](Op&, const Grads& g) { return Grads{g[0].expand(sizes)}; };
  return detail::with_history(detail::sum(x.tensor()), op);
}

Variable sum(const Variable& x, IntList dims, bool keepdim) {
  const Shape d = reduced_dims(x.tensor(), dims, "sum");
  auto op = record("SumBackward1", {&x});
  // sum.dim_IntList: self: sum_backward(grad, self.sym_sizes(), dim, keepdim)
  const Shape sizes = x.sizes();
  if (op) op->formula = [=](Op&, const Grads& g) {
    return Grads{sum_backward(g[0], sizes, d, keepdim)};
  };
  return detail::with_history(sum_dims(x.tensor(), d, keepdim), op);
}

Variable mean(const Variable& x) {
  // A complex mean is its sum divided by numel (ReduceOps.cpp, mean_out); a real one the engine's.
  Tensor out = is_complex(x.dtype()) ? detail::div(detail::sum(x.tensor()), Scalar(x.numel()))
                                     : strided::mean(x.tensor());
  auto op = record("MeanBackward0", {&x});
  // mean: self: grad.expand_symint(self.sym_sizes()) / self.sym_numel()
  const Shape sizes = x.sizes();
  const int64_t n = x.numel();
  if (op) op->formula = [=](Op&, const Grads& g) {
    return Grads{detail::div(g[0].expand(sizes), Scalar(n))};
  };
  return detail::with_history(std::move(out), op);
}

Variable mean(const Variable& x, IntList dims, bool keepdim) {
  if (!is_floating_point(x.dtype()) && !is_complex(x.dtype()))
    strided::mean(x.tensor());  // refused in mean's own words
  const Shape d = reduced_dims(x.tensor(), dims, "mean");
  int64_t n = 1;
  for (int64_t k : d) n *= x.dim() == 0 ? 1 : x.size(k);
  Tensor out = detail::div(sum_dims(x.tensor(), d, keepdim), Scalar(n));
  auto op = record("MeanBackward1", {&x});
  // mean.dim: self: mean_backward(grad, self.sym_sizes(), dim, self.sym_numel(), keepdim)
  //   = sum_backward(grad, sizes, dim, keepdim) / (the number of elements each output averaged)
  const Shape sizes = x.sizes();
  if (op) op->formula = [=](Op&, const Grads& g) {
    return Grads{detail::div(sum_backward(g[0], sizes, d, keepdim), Scalar(n))};
  };
  return detail::with_history(std::move(out), op);
}

}  // namespace strided::autograd
