// In-place ops under autograd (PyTorch's VariableType in-place kernels, check_inplace and
// rebase_history in torch/csrc/autograd/VariableTypeUtils.h).
//
// Each op writes the elements with the library's own in-place op (so its checks and errors are the
// library's), then bumps the version counter, which the tensor shares with every view of its
// storage: a SavedVariable taken at an older version refuses to unpack. With history, the op is
// recorded on a copy of self's old value that keeps self's old history, and the node becomes
// self's grad_fn; a view cannot hold that history alone, since the write changed its base, so the
// base's grad_fn becomes CopySlices: the base's gradient with the view's part replaced by the op's
// backward through it. The view's own grad_fn is then regenerated from the base on its next use
// (Variable::grad_fn).
#include "strided/autograd/detail.h"
#include "strided/autograd/ops.h"
#include "strided/engine/ops.h"

namespace strided::autograd {

namespace {
void check_inplace(const Variable& self) {
  // The node that made a view, as recorded, before requires_grad() asks grad_fn(), which
  // regenerates a view's node after a write to its base (handle_view_on_rebase reads the recorded
  // diff_view_meta->grad_fn_ too).
  const std::shared_ptr<Node> made_by = self.meta()->grad_fn;
  const int64_t made_as = self.meta()->output_nr;
  if (!GradMode::is_enabled() || !self.requires_grad()) return;
  // handle_view_on_rebase (VariableTypeUtils.h), before the leaf checks: one output of a node
  // that returns several views cannot take a CopySlices history of its own.
  if (self.is_view() && self.meta()->multi_output) {
    STRIDED_CHECK(false, "", "Output ", made_as, " of ", made_by ? made_by->name() : std::string(),
                  " is a view and is being modified inplace. This view is the output of a function "
                  "that returns multiple views. Such functions do not allow the output views to be "
                  "modified inplace. You should replace the inplace operation by an out-of-place "
                  "one.");
  }
  if (self.is_view()) {
    STRIDED_CHECK(!self.base().is_leaf(), "",
                  "a view of a leaf Variable that requires grad is being used in an in-place "
                  "operation.");
  } else {
    STRIDED_CHECK(!self.is_leaf(), "",
                  "a leaf Variable that requires grad is being used in an in-place operation.");
  }
}

// CopySlices (torch/csrc/autograd/functions/tensor.cpp): the base's gradient, with the part the
// view covers sent through fn, the backward of the op applied to the view.
class CopySlices : public Node {
 public:
  CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn)
      : base_sizes_(base.sizes()),
        base_strides_(base.strides()),
        view_sizes_(view.sizes()),
        view_strides_(view.strides()),
        view_offset_(view.storage_offset() - base.storage_offset()),
        fn_(std::move(fn)) {}
  // Its name() is the C++ type name, as PyTorch's (the Python repr shows <CopySlices>).
  std::string name() const override { return "torch::autograd::CopySlices"; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override {
    Tensor result = empty_strided(base_sizes_, base_strides_, {grads[0].dtype()});
    result.copy_(grads[0]);
    Tensor grad_slice = result.as_strided(view_sizes_, view_strides_, view_offset_);
    std::vector<Tensor> res = fn_->apply({grad_slice.clone()});
    if (res[0].defined())
      grad_slice.copy_(res[0]);
    else
      grad_slice.fill_(Scalar(0.0));
    res[0] = result;
    return res;
  }
  void release_variables() override { fn_->release_variables(); }
  std::vector<const SavedVariable*> saved_variables() const override {
    return fn_->saved_variables();
  }

 private:
  Shape base_sizes_, base_strides_, view_sizes_, view_strides_;
  int64_t view_offset_;
  std::shared_ptr<Node> fn_;
};

// write(tensor) performs the op on the data; differentiable(old) records it on `old`, a copy of
// self's value before the write that carries self's history.
template <class Write, class Differentiable>
const Variable& inplace(const Variable& self, std::vector<const Variable*> others, Write write,
                        Differentiable differentiable) {
  check_inplace(self);
  others.insert(others.begin(), &self);
  std::shared_ptr<Node> node;
  if (any_requires_grad(others)) {
    auto meta = std::make_shared<AutogradMeta>();
    meta->grad_fn = self.grad_fn();
    meta->output_nr = self.output_nr();
    node = differentiable(Variable(self.tensor().clone(), meta)).grad_fn();
  }
  write(self.tensor());
  ++self.meta()->version->version;
  if (!node) return self;
  if (self.is_view()) {
    Variable base = self.base();
    auto copy_slices = std::make_shared<CopySlices>(base.tensor(), self.tensor(), node);
    copy_slices->next_edges_ = node->next_edges();
    copy_slices->next_edges_[0] = gradient_edge(base);
    set_history(base, copy_slices);
  } else {
    Variable s = self;
    set_history(s, node);
  }
  return self;
}

// A node with self's and src's edges whose result is a write that forgets self's old value.
Variable overwrite(const Variable& old, const Variable* src, const char* name) {
  std::vector<const Variable*> inputs{&old};
  if (src) inputs.push_back(src);
  Variable out(old.tensor());
  auto op = record(name, inputs);
  if (!op) return out;
  // copy_: self: zeros_like(grad), src: grad    fill_.Scalar: self: zeros_like(grad)
  op->formula = [](Op& n, const std::vector<Tensor>& g) {
    std::vector<Tensor> out{zeros(g[0].sizes(), {g[0].dtype()})};
    if (n.next_edges().size() > 1) out.push_back(g[0]);
    return out;
  };
  set_history(out, op);
  return out;
}
}  // namespace

const Variable& add_(const Variable& self, const Variable& other, const Scalar& alpha) {
  return inplace(
      self, {&other}, [&](const Tensor& t) { strided::add_(t, other.tensor(), alpha); },
      [&](const Variable& old) { return add(old, other, alpha); });
}
const Variable& add_(const Variable& self, const Scalar& other) {
  return inplace(
      self, {}, [&](const Tensor& t) { strided::add_(t, other); },
      [&](const Variable& old) { return add(old, other); });
}
const Variable& sub_(const Variable& self, const Variable& other) {
  return inplace(
      self, {&other}, [&](const Tensor& t) { strided::sub_(t, other.tensor()); },
      [&](const Variable& old) { return sub(old, other); });
}
const Variable& sub_(const Variable& self, const Scalar& other) {
  return inplace(
      self, {}, [&](const Tensor& t) { strided::sub_(t, other); },
      [&](const Variable& old) { return sub(old, other); });
}
const Variable& mul_(const Variable& self, const Variable& other) {
  return inplace(
      self, {&other}, [&](const Tensor& t) { strided::mul_(t, other.tensor()); },
      [&](const Variable& old) { return mul(old, other); });
}
const Variable& mul_(const Variable& self, const Scalar& other) {
  return inplace(
      self, {}, [&](const Tensor& t) { strided::mul_(t, other); },
      [&](const Variable& old) { return mul(old, other); });
}
const Variable& div_(const Variable& self, const Variable& other) {
  return inplace(
      self, {&other}, [&](const Tensor& t) { strided::div_(t, other.tensor()); },
      [&](const Variable& old) { return div(old, other); });
}
const Variable& div_(const Variable& self, const Scalar& other) {
  return inplace(
      self, {}, [&](const Tensor& t) { strided::div_(t, other); },
      [&](const Variable& old) { return div(old, other); });
}
const Variable& copy_(const Variable& self, const Variable& src) {
  return inplace(
      self, {&src}, [&](const Tensor& t) { strided::copy_(t, src.tensor()); },
      [&](const Variable& old) { return overwrite(old, &src, "CopyBackwards"); });
}
const Variable& fill_(const Variable& self, const Scalar& value) {
  return inplace(
      self, {}, [&](const Tensor& t) {
        Tensor handle = t;  // the same elements
        handle.fill_(value);
      },
      [&](const Variable& old) { return overwrite(old, nullptr, "FillBackward0"); });
}

}  // namespace strided::autograd
