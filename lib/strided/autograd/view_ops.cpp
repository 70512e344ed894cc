// The view ops, recorded. A view's backward reads no tensor, only the layouts: each formula maps
// the view's gradient back to the base's shape with the inverse of the view, in the terms of the
// layout it changed (the lines of PyTorch's tools/autograd/derivatives.yaml are quoted):
//   - a reshaping view (view, reshape, flatten, unflatten, squeeze, unsqueeze) reshapes back;
//   - permute applies the inverse permutation, transpose and t are their own inverse;
//   - expand sums over the dims it gave stride 0 (sum_to): each element of the base was read by
//     every position along them, so its gradient is the sum of theirs;
//   - select, slice, narrow and diagonal write the gradient into the positions they kept of a zero
//     tensor of the base's shape;
//   - as_strided and unfold go through the storage: overlapping elements add up.
// Every result is a view of the same storage and shares the base's version counter.
#include <numeric>

#include "strided/autograd/detail.h"
#include "strided/autograd/ops.h"
#include "strided/layout/layout.h"
#include "strided/engine/ops.h"

namespace strided::autograd {

namespace {
using detail::make_view;
using detail::view_op;

// A zero tensor of the base's shape with the gradient written through the same view of it
// (select_backward, slice_backward, diagonal_backward in FunctionsManual.cpp).
template <class View>
Tensor scatter_into_zeros(const Tensor& grad, const Shape& base_sizes, View view) {
  Tensor result = zeros(base_sizes, {grad.dtype()});
  view(result).copy_(grad);
  return result;
}
}  // namespace

Variable detail::make_view(const Variable& base, Tensor view, const std::shared_ptr<Node>& node) {
  auto meta = std::make_shared<AutogradMeta>();
  meta->version = base.meta()->version;
  meta->view = base.is_view() ? *base.meta()->view : ViewInfo{base.tensor(), base.meta()};
  Variable out(std::move(view), std::move(meta));
  if (node) set_history(out, node);
  out.meta()->attr_version = out.version();
  return out;
}

std::shared_ptr<Node> detail::regenerate_view_grad_fn(const ViewInfo& info, const Tensor& view) {
  Variable base(info.base, info.base_meta);
  auto op = record("AsStridedBackward0", {&base});
  if (!op) return nullptr;
  const Layout base_layout = info.base.layout(), view_layout = view.layout();
  op->formula = [=](Op&, const std::vector<Tensor>& g) {
    return std::vector<Tensor>{detail::as_strided_backward(g[0], base_layout, view_layout)};
  };
  op->outputs_.push_back({view.sizes(), view.dtype()});
  return op;
}

Variable Variable::view(IntList sizes) const {
  // view: self: grad.reshape_symint(self.sym_sizes())
  const Shape in = this->sizes();
  return view_op(*this, data_.view(sizes), "ViewBackward0",
                 [in](const Tensor& g) { return g.reshape(in); });
}

Variable Variable::reshape(IntList sizes) const {
  Tensor out = data_.reshape(sizes);
  const Shape in = this->sizes();
  if (out.storage().is_same(data_.storage())) {
    // A reshape that views is recorded as view (PyTorch 2; 1.13 named the node of its
    // _reshape_alias ReshapeAliasBackward0): self: grad.reshape_symint(self.sym_sizes())
    return view_op(*this, std::move(out), "ViewBackward0",
                   [in](const Tensor& g) { return g.reshape(in); });
  }
  // A copy: reshape is clone then _unsafe_view (TensorShape.cpp, _reshape_copy path), two nodes
  // and no view. clone: self: grad; _unsafe_view: self: grad.reshape_symint(self.sym_sizes())
  Variable copy(out.view(in));
  if (auto op = record("CloneBackward0", {this})) {
    op->formula = [](Op&, const std::vector<Tensor>& g) { return std::vector<Tensor>{g[0]}; };
    set_history(copy, op);
  }
  Variable result(out);
  if (auto op = record("UnsafeViewBackward0", {&copy})) {
    op->formula = [in](Op&, const std::vector<Tensor>& g) {
      return std::vector<Tensor>{g[0].reshape(in)};
    };
    set_history(result, op);
  }
  return result;
}

Variable Variable::flatten(int64_t start_dim, int64_t end_dim) const {
  // TensorShape.cpp, flatten: a 0-d tensor becomes (1), start == end returns self, else reshape.
  // The sizes alone (flatten_sizes checks the dims): data_.flatten would copy a layout that cannot
  // merge, and the reshape below would copy it a second time.
  const Shape shape = flatten_sizes(sizes(), start_dim, end_dim);
  if (dim() > 0 && static_cast<int64_t>(shape.size()) == dim()) return *this;
  return reshape(shape);
}

Variable Variable::unflatten(int64_t dim, IntList sizes) const {
  const Shape in = this->sizes();
  return view_op(*this, data_.unflatten(dim, sizes), "ViewBackward0",
                 [in](const Tensor& g) { return g.reshape(in); });
}

Variable Variable::permute(IntList dims) const {
  Tensor out = data_.permute(dims);
  // permute: self: permute_backwards(grad, dims): the inverse permutation.
  const int64_t n = this->dim();
  Shape inverse(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t d = dims[static_cast<size_t>(i)] < 0 ? dims[static_cast<size_t>(i)] + n
                                                        : dims[static_cast<size_t>(i)];
    inverse[static_cast<size_t>(d)] = i;
  }
  return view_op(*this, std::move(out), "PermuteBackward0",
                 [inverse](const Tensor& g) { return g.permute(inverse); });
}

Variable Variable::transpose(int64_t dim0, int64_t dim1) const {
  // transpose.int: self: grad.transpose(dim0, dim1)
  return view_op(*this, data_.transpose(dim0, dim1), "TransposeBackward0",
                 [dim0, dim1](const Tensor& g) { return g.transpose(dim0, dim1); });
}

Variable Variable::t() const {
  // t: self: grad.t()
  return view_op(*this, data_.t(), "TBackward0", [](const Tensor& g) { return g.t(); });
}

Variable Variable::expand(IntList sizes) const {
  // expand: self: at::sum_to(grad, self.sym_sizes())
  const Shape in = this->sizes();
  return view_op(*this, data_.expand(sizes), "ExpandBackward0",
                 [in](const Tensor& g) { return detail::sum_to(g, in); });
}

Variable Variable::broadcast_to(IntList sizes) const {
  const Shape in = this->sizes();
  return view_op(*this, data_.broadcast_to(sizes), "ExpandBackward0",
                 [in](const Tensor& g) { return detail::sum_to(g, in); });
}

Variable Variable::squeeze() const {
  // squeeze: self: unsqueeze_to(grad, self.sym_sizes()): an unsqueeze at each size-1 dim, in
  // increasing order (FunctionsManual.cpp), not a reshape: the strides unsqueeze gives those dims
  // are the ones x.grad keeps (AccumulateGrad's layout contract ignores size-1 dims).
  const Shape in = this->sizes();
  return view_op(*this, data_.squeeze(), "SqueezeBackward0", [in](const Tensor& g) {
    Tensor r = g;
    for (size_t d = 0; d < in.size(); ++d)
      if (in[d] == 1) r = r.unsqueeze(static_cast<int64_t>(d));
    return r;
  });
}

Variable Variable::squeeze(int64_t dim) const {
  // squeeze.dim: self: unsqueeze_to(grad, dim, self.sym_sizes()): back only if it was of size 1,
  // else the gradient itself, strides and all (FunctionsManual.cpp).
  Tensor out = data_.squeeze(dim);
  const bool removed = out.dim() < this->dim();
  const int64_t d = dim < 0 ? dim + this->dim() : dim;
  return view_op(*this, std::move(out), "SqueezeBackward1", [removed, d](const Tensor& g) {
    return removed ? g.unsqueeze(d) : g;
  });
}

Variable Variable::squeeze(IntList dims) const {
  // squeeze.dims: self: unsqueeze_multiple(grad, dims, self.sym_sizes()): the gradient gets back
  // each dropped dim (named and of size 1), in increasing order, by unsqueeze.
  Tensor out = data_.squeeze(dims);
  std::vector<int64_t> dropped;
  for (int64_t d = 0; d < this->dim(); ++d)
    for (const int64_t named : dims)
      if ((named < 0 ? named + this->dim() : named) == d && this->sizes()[d] == 1) {
        dropped.push_back(d);
        break;
      }
  return view_op(*this, std::move(out), "SqueezeBackward2", [dropped](const Tensor& g) {
    Tensor r = g;
    for (const int64_t d : dropped) r = r.unsqueeze(d);
    return r;
  });
}

Variable Variable::unsqueeze(int64_t dim) const {
  // unsqueeze: self: grad.squeeze(dim)
  Tensor out = data_.unsqueeze(dim);
  const int64_t d = dim < 0 ? dim + out.dim() : dim;
  return view_op(*this, std::move(out), "UnsqueezeBackward0",
                 [d](const Tensor& g) { return g.squeeze(d); });
}

Variable Variable::select(int64_t dim, int64_t index) const {
  // select.int: self: select_backward_symint(grad, self.sym_sizes(), dim, index)
  const Shape in = this->sizes();
  return view_op(*this, data_.select(dim, index), "SelectBackward0", [=](const Tensor& g) {
    return scatter_into_zeros(g, in, [=](const Tensor& z) { return z.select(dim, index); });
  });
}

Variable Variable::slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                         int64_t step) const {
  // slice.Tensor: self: slice_backward_wrapper(grad, self.sym_sizes(), dim, start, end, step)
  const Shape in = this->sizes();
  return view_op(*this, data_.slice(dim, start, end, step), "SliceBackward0",
                 [=](const Tensor& g) {
                   return scatter_into_zeros(
                       g, in, [=](const Tensor& z) { return z.slice(dim, start, end, step); });
                 });
}

Variable Variable::narrow(int64_t dim, int64_t start, int64_t length) const {
  // narrow is slice in PyTorch (TensorShape.cpp), so its node is SliceBackward0.
  const Shape in = this->sizes();
  return view_op(*this, data_.narrow(dim, start, length), "SliceBackward0",
                 [=](const Tensor& g) {
                   return scatter_into_zeros(
                       g, in, [=](const Tensor& z) { return z.narrow(dim, start, length); });
                 });
}

Variable Variable::diagonal(int64_t offset, int64_t dim1, int64_t dim2) const {
  // diagonal: self: diagonal_backward_symint(grad, self.sym_sizes(), offset, dim1, dim2)
  const Shape in = this->sizes();
  return view_op(*this, data_.diagonal(offset, dim1, dim2), "DiagonalBackward0",
                 [=](const Tensor& g) {
                   return scatter_into_zeros(
                       g, in, [=](const Tensor& z) { return z.diagonal(offset, dim1, dim2); });
                 });
}

Variable Variable::movedim(IntList source, IntList destination) const {
  // movedim is a permute in PyTorch (TensorShape.cpp): its node is PermuteBackward0. The library's
  // movedim checks the dims; the order is formed as it forms it.
  data_.movedim(source, destination);
  const int64_t n = dim();
  if (n == 0) return view_op(*this, data_.movedim(source, destination), "PermuteBackward0",
                             [](const Tensor& g) { return g; });
  Shape order(static_cast<size_t>(n), -1);
  std::vector<bool> used(static_cast<size_t>(n), false);
  for (size_t i = 0; i < source.size(); ++i) {
    const int64_t s = source[i] < 0 ? source[i] + n : source[i];
    const int64_t d = destination[i] < 0 ? destination[i] + n : destination[i];
    order[static_cast<size_t>(d)] = s;
    used[static_cast<size_t>(s)] = true;
  }
  int64_t next = 0;
  for (int64_t& o : order) {
    if (o >= 0) continue;
    while (used[static_cast<size_t>(next)]) ++next;
    o = next++;
  }
  return permute(order);
}

Variable Variable::movedim(int64_t source, int64_t destination) const {
  const Shape s{source}, d{destination};
  return movedim(IntList(s), IntList(d));
}

Variable Variable::as_strided(IntList sizes, IntList strides,
                              std::optional<int64_t> storage_offset) const {
  // as_strided: self: as_strided_backward(grad, TensorGeometry(self), size, stride, storage_offset)
  Tensor out = data_.as_strided(sizes, strides, storage_offset);
  const Layout input = data_.layout(), view = out.layout();
  return view_op(*this, std::move(out), "AsStridedBackward0", [=](const Tensor& g) {
    return detail::as_strided_backward(g, input, view);
  });
}

Variable Variable::unfold(int64_t dim, int64_t size, int64_t step) const {
  // unfold: self: unfold_backward(grad, self.sizes(), dimension, size, step): window i is the
  // slice [i·step, i·step + size) of the base; overlapping windows add up.
  Tensor out = data_.unfold(dim, size, step);
  const Shape in = this->sizes();
  const int64_t d = in.empty() ? 0 : (dim < 0 ? dim + this->dim() : dim);
  return view_op(*this, std::move(out), "UnfoldBackward0", [=](const Tensor& g) {
    // A 0-d input was viewed as one element of size 1, unfolded into size (0 or 1) windows of it:
    // its gradient is the sum of theirs (0 when there is none).
    if (in.empty()) return detail::sum(g).reshape(in);
    Tensor result = zeros(in, {g.dtype()});
    for (int64_t i = 0; i < g.size(d); ++i) {
      Tensor window = result.narrow(d, i * step, size);
      window.copy_(detail::add(window, g.select(d, i).movedim(-1, d)));
    }
    return result;
  });
}

}  // namespace strided::autograd
