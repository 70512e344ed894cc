// cat and split (and unbind), each the other's backward (claim AG-06): cat's gradient is split back into the
// inputs' sizes, split's is concatenated back, with zeros for a piece that received none.
#include "strided/autograd/detail.h"
#include "strided/autograd/ops.h"
#include "strided/layout/layout.h"
#include "strided/tensor/promotion.h"

namespace strided::autograd {

namespace {
// torch.cat on plain tensors (TensorShape.cpp, cat): every size but dim's must match; the result
// is contiguous, in the promoted dtype.
Tensor cat_tensors(const std::vector<Tensor>& tensors, int64_t dim) {
  STRIDED_CHECK(!tensors.empty(), "torch.cat()", "expected a non-empty list of Tensors");
  const Tensor& first = tensors[0];
  STRIDED_CHECK(first.dim() > 0, "",
                "zero-dimensional tensor (at position 0) cannot be concatenated");
  const int64_t d = wrap_dim(dim, first.dim(), "cat");
  Shape sizes = first.sizes();
  DType dtype = first.dtype();
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    STRIDED_CHECK(t.dim() > 0, "", "zero-dimensional tensor (at position ", i,
                  ") cannot be concatenated");
    STRIDED_CHECK(t.dim() == first.dim(), "", "Tensors must have same number of dimensions: got ",
                  first.dim(), " and ", t.dim());
    for (int64_t k = 0; k < first.dim(); ++k)
      STRIDED_CHECK(k == d || t.size(k) == first.size(k), "",
                    "Sizes of tensors must match except in ", "dimension ", d, ". Expected size ",
                    first.size(k), " but got size ", t.size(k), " for tensor number ", i,
                    " in the list.");
    total += t.size(d);
    dtype = promote_types(dtype, t.dtype());
  }
  sizes[static_cast<size_t>(d)] = total;
  Tensor out = empty(sizes, {dtype});
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    out.narrow(d, offset, t.size(d)).copy_(t);
    offset += t.size(d);
  }
  return out;
}

std::vector<Variable> split_impl(const Variable& x, const Shape& sizes, int64_t d,
                                 const char* name) {
  std::vector<const Variable*> inputs{&x};
  auto op = record(name, inputs);
  std::vector<Variable> out;
  int64_t offset = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    Variable piece = detail::make_view(x, x.tensor().narrow(d, offset, sizes[i]), nullptr);
    if (op) set_history(piece, op, static_cast<int64_t>(i));
    // as_view's creation meta for a function of several views: MULTI_OUTPUT_NODE in grad mode.
    piece.meta()->multi_output = GradMode::is_enabled();
    out.push_back(piece);
    offset += sizes[i];
  }
  // split.Tensor: self: split_backward(grads, split_size, dim, self.sym_sizes(), ...)
  // split_with_sizes: self: split_with_sizes_backward(grads, split_sizes, dim, ...)
  //   = cat of the pieces' gradients, zeros where a piece got none
  if (op) {
    const Shape in = x.sizes();
    op->formula = [=](Op&, const std::vector<Tensor>& g) {
      std::vector<Tensor> parts;
      for (size_t i = 0; i < sizes.size(); ++i) {
        if (g[i].defined()) {
          parts.push_back(g[i]);
        } else {
          Shape s = in;
          s[static_cast<size_t>(d)] = sizes[i];
          parts.push_back(zeros(s, {x.dtype()}));
        }
      }
      return std::vector<Tensor>{cat_tensors(parts, d)};
    };
  }
  return out;
}
}  // namespace

Variable cat(const std::vector<Variable>& tensors, int64_t dim) {
  std::vector<Tensor> data;
  std::vector<const Variable*> inputs;
  for (const Variable& v : tensors) {
    data.push_back(v.tensor());
    inputs.push_back(&v);
  }
  Variable out(cat_tensors(data, dim));
  auto op = record("CatBackward0", inputs);
  if (!op) return out;
  // cat: tensors: cat_tensors_backward(grad, to_args_sizes(tensors), ..., dim): the gradient's
  // slice along dim where each input was placed.
  const int64_t d = wrap_dim(dim, out.dim(), "cat");
  Shape lengths;
  for (const Tensor& t : data) lengths.push_back(t.size(d));
  op->formula = [d, lengths](Op&, const std::vector<Tensor>& g) {
    std::vector<Tensor> grads;
    int64_t offset = 0;
    for (int64_t n : lengths) {
      grads.push_back(g[0].narrow(d, offset, n));
      offset += n;
    }
    return grads;
  };
  set_history(out, op);
  return out;
}

std::vector<Variable> split(const Variable& x, int64_t split_size, int64_t dim) {
  // TensorShape.cpp, split.
  STRIDED_CHECK(x.dim() != 0, "", "split expects at least a 1-dimensional tensor");
  STRIDED_CHECK(split_size >= 0, "",
                "split expects split_size be non-negative, but got split_size=", split_size);
  const int64_t d = wrap_dim(dim, x.dim(), "split");
  const int64_t length = x.size(d);
  STRIDED_CHECK(split_size > 0 || length == 0, "",
                "split_size can only be 0 if dimension size is 0, ", "but got dimension size of ",
                length);
  Shape sizes;
  const int64_t chunks = split_size == 0 ? 1 : std::max<int64_t>((length + split_size - 1) / split_size, 1);
  for (int64_t i = 0; i < chunks; ++i)
    sizes.push_back(std::min(split_size, length - i * split_size));
  return split_impl(x, sizes, d, "SplitBackward0");
}

std::vector<Variable> split(const Variable& x, IntList split_sizes, int64_t dim) {
  STRIDED_CHECK(x.dim() != 0, "", "split expects at least a 1-dimensional tensor");
  const int64_t d = wrap_dim(dim, x.dim(), "split_with_sizes");
  int64_t total = 0;
  for (int64_t s : split_sizes) {
    STRIDED_CHECK(s >= 0, "",
                  "split_with_sizes expects split_sizes have only non-negative entries, ",
                  "but got split_sizes=", to_string(split_sizes));
    total += s;
  }
  STRIDED_CHECK(total == x.size(d), "", "split_with_sizes expects split_sizes to sum exactly to ",
                x.size(d), " (input tensor's size at dimension ", d,
                "), but got split_sizes=", to_string(split_sizes));
  return split_impl(x, split_sizes.vec(), d, "SplitWithSizesBackward0");
}

std::vector<Variable> unbind(const Variable& x, int64_t dim) {
  // TensorShape.cpp, unbind: x.select(dim, i) for each i, views of x and the outputs of one node,
  // so that an in-place write into one is refused (handle_view_on_rebase, inplace.cpp).
  STRIDED_CHECK(x.dim() > 0, "", "Dimension specified as ", dim, " but tensor has no dimensions");
  const int64_t d = wrap_dim(dim, x.dim(), "unbind");
  auto op = record("UnbindBackward0", {&x});
  std::vector<Variable> out;
  for (int64_t i = 0; i < x.size(d); ++i) {
    Variable piece = detail::make_view(x, x.tensor().select(d, i), nullptr);
    if (op) set_history(piece, op, i);
    piece.meta()->multi_output = GradMode::is_enabled();
    out.push_back(piece);
  }
  // unbind: self: unbind_backward(grads, dim) = stack of the pieces' gradients, zeros for a
  // piece that received none.
  if (op) {
    const Shape in = x.sizes();
    const DType dtype = x.dtype();
    op->formula = [=](Op&, const std::vector<Tensor>& g) {
      Shape piece = in;
      piece[static_cast<size_t>(d)] = 1;
      std::vector<Tensor> parts;
      for (const Tensor& gi : g) parts.push_back(gi.defined() ? gi.unsqueeze(d) : zeros(piece, {dtype}));
      return std::vector<Tensor>{cat_tensors(parts, d)};
    };
  }
  return out;
}

}  // namespace strided::autograd
