#include "strided/autograd/variable.h"

#include "strided/autograd/detail.h"
#include "strided/autograd/engine.h"
#include "strided/autograd/node.h"

namespace strided::autograd {

namespace {
thread_local bool g_grad_enabled = true;

// PyTorch words the refusal by where it is asked (both 1.13 and 2.6): a tensor made with
// requires_grad=True (the factories' and torch.tensor's check) says "Only Tensors of floating point
// and complex dtype ...", x.requires_grad_() (set_requires_grad, torch/csrc/autograd/variable.cpp)
// "only Tensors of floating point dtype ...". Both let a complex tensor require grad
// (isDifferentiableType: floating or complex).
void check_can_require_grad(const Tensor& t, const char* words) {
  STRIDED_CHECK(is_floating_point(t.dtype()) || is_complex(t.dtype()), "", words);
}
constexpr const char* kMadeWithGrad =
    "Only Tensors of floating point and complex dtype can require gradients";
constexpr const char* kRequiresGradUnderscore =
    "only Tensors of floating point dtype can require gradients";
}  // namespace

bool GradMode::is_enabled() { return g_grad_enabled; }
void GradMode::set_enabled(bool enabled) { g_grad_enabled = enabled; }

Variable::Variable(Tensor data, bool requires_grad) : data_(std::move(data)) {
  if (requires_grad) check_can_require_grad(data_, kMadeWithGrad);
  meta_->requires_grad = requires_grad;
}

bool Variable::requires_grad() const { return meta_->requires_grad || grad_fn() != nullptr; }

const Variable& Variable::requires_grad_(bool requires_grad) const {
  STRIDED_CHECK(is_leaf(), "",
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().");
  if (requires_grad) check_can_require_grad(data_, kRequiresGradUnderscore);
  meta_->requires_grad = requires_grad;
  return *this;
}

std::shared_ptr<Node> Variable::grad_fn() const {
  AutogradMeta& m = *meta_;
  if (m.view && m.attr_version != m.version->version) {
    // The base (or another view of it) was written in place: this view's history is now that of
    // the base, seen through the view's geometry (PyTorch 1.13 regenerates it the same way when
    // the view has no view_fn).
    if (m.requires_grad || m.grad_fn || Variable(m.view->base, m.view->base_meta).requires_grad()) {
      m.grad_fn = detail::regenerate_view_grad_fn(*m.view, data_);
      m.output_nr = 0;
    }
    m.attr_version = m.version->version;
  }
  return m.grad_fn;
}

bool Variable::is_leaf() const { return grad_fn() == nullptr; }

void Variable::retain_grad() const {
  // torch/csrc/autograd/variable.cpp, VariableHooks::retain_grad.
  STRIDED_CHECK(requires_grad(), "", "can't retain_grad on Tensor that has requires_grad=False");
  if (is_leaf() || meta_->retains_grad) return;  // a leaf keeps its grad anyway
  auto fn = grad_fn();
  fn->retained_.emplace_back(meta_->output_nr, meta_);
  meta_->retains_grad = true;
}

Variable Variable::detach() const {
  auto meta = std::make_shared<AutogradMeta>();
  meta->version = meta_->version;  // detach() shares the version counter (VariableTypeManual.cpp)
  return Variable(data_, std::move(meta));
}

Variable Variable::base() const {
  if (!meta_->view) return Variable();
  return Variable(meta_->view->base, meta_->view->base_meta);
}

void Variable::backward(const Tensor& gradient, bool retain_graph) const {
  autograd::backward({*this}, {gradient}, retain_graph);
}

Edge gradient_edge(const Variable& v) {
  if (auto fn = v.grad_fn()) return Edge{fn, v.output_nr()};
  const auto& meta = v.meta();
  if (!meta->requires_grad) return Edge{};
  auto acc = meta->grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(meta, v.tensor());
    meta->grad_accumulator = acc;
  }
  return Edge{acc, 0};
}

}  // namespace strided::autograd
