#include <cmath>

#include "strided/autograd/detail.h"
#include "strided/layout/layout.h"
#include "strided/engine/reduce.h"

namespace strided::autograd::detail {

Tensor sum_to(const Tensor& grad, IntList sizes) {
  // aten/src/ATen/ExpandUtils.h, sum_to: the leading dims, then the dims that were 1.
  Tensor g = grad;
  const int64_t lead = grad.dim() - static_cast<int64_t>(sizes.size());
  for (int64_t i = 0; i < lead; ++i) g = detail::sum(g, 0, false);
  for (size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] == 1 && g.size(static_cast<int64_t>(i)) != 1)
      g = detail::sum(g, static_cast<int64_t>(i), /*keepdim=*/true);
  return g;
}

bool is_expandable_to(IntList sizes, IntList target) {
  if (sizes.size() > target.size()) return false;
  const size_t lead = target.size() - sizes.size();
  for (size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] != 1 && sizes[i] != target[lead + i]) return false;
  return true;
}

Tensor as_strided_backward(const Tensor& grad, const Layout& input, const Layout& view) {
  // FunctionsManual.cpp: a size-0 dim in the output's or the input's geometry returns
  // at::zeros(input sizes): row-major, whatever the input's strides.
  for (IntList s : {IntList(view.sizes()), IntList(input.sizes())})
    for (const int64_t n : s)
      if (n == 0) return zeros(input.sizes(), {grad.dtype()});
  if (is_complex(grad.dtype())) {
    // Linear in the gradient: each part goes back on its own (strides count complex elements).
    const Tensor g = grad.resolve_conj();
    const Tensor re = as_strided_backward(g.real(), input, view);
    const Tensor im = as_strided_backward(g.imag(), input, view);
    Tensor out = empty_strided(input.sizes(), re.strides(), {grad.dtype()});
    out.real().copy_(re);
    out.imag().copy_(im);
    return out;
  }
  const Extent in = extent(input), out = extent(view);
  const int64_t lo = std::min(in.min, out.min), hi = std::max(in.max, out.max);
  std::vector<double> storage(static_cast<size_t>(std::max<int64_t>(hi - lo + 1, 0)), 0.0);
  std::vector<int64_t> readers(storage.size(), 0);
  const std::vector<double> g = grad.contiguous().to_vector();
  // Every element of the view adds its gradient into the position it reads: elements that share
  // a position (a stride 0, overlapping windows) add up there. The walks are the layout
  // algebra's odometer, in row-major order (for_each_index).
  int64_t k = 0;
  for_each_index(view.sizes(), {view.strides()}, [&](const int64_t* off) {
    storage[static_cast<size_t>(view.storage_offset() + off[0] - lo)] += g[k++];
  });
  for_each_index(input.sizes(), {input.strides()}, [&](const int64_t* off) {
    ++readers[static_cast<size_t>(input.storage_offset() + off[0] - lo)];
  });
  // Step (4) of FunctionsManual.cpp's as_strided_backward: the result is the storage seen through
  // the input's geometry (storage.as_strided(inp_sizes, inp_strides, ...)), so it has the input's
  // strides, which x.grad keeps where they obey AccumulateGrad's layout contract.
  for (size_t p = 0; p < storage.size(); ++p)
    if (readers[p] > 0) storage[p] /= static_cast<double>(readers[p]);
  const Tensor flat = from_values(storage, {static_cast<int64_t>(storage.size())}, {grad.dtype()});
  return flat.as_strided(input.sizes(), input.strides(), input.storage_offset() - lo);
}

namespace {
template <class F>
Tensor map(const Tensor& x, F f) {
  STRIDED_CHECK(is_floating_point(x.dtype()), "autograd", "expected a floating tensor, got ",
                name(x.dtype()));
  std::vector<double> v = x.to_vector();
  for (double& e : v) e = f(e);
  return from_values(v, x.sizes(), {x.dtype()});
}
}  // namespace

Tensor log(const Tensor& x) {
  return map(x, [](double e) { return std::log(e); });
}

Tensor pow(const Tensor& x, double exponent) {
  return map(x, [exponent](double e) { return std::pow(e, exponent); });
}

Tensor pow(const Tensor& x, const Tensor& exponent) {
  const Shape shape = broadcast_shapes(x.sizes(), exponent.sizes());
  std::vector<double> a = x.expand(shape).to_vector(), b = exponent.expand(shape).to_vector();
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::pow(a[i], b[i]);
  return from_values(a, shape, {x.dtype()});
}

Variable with_history(Tensor out, const std::shared_ptr<Node>& op) {
  Variable v(std::move(out));
  if (op) set_history(v, op);
  return v;
}

}  // namespace strided::autograd::detail
