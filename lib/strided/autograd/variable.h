// Variable: a Tensor that autograd follows. It carries what PyTorch's AutogradMeta carries
// (torch/csrc/autograd/variable.h): requires_grad, grad, the grad_fn that produced it and which of
// that node's outputs it is, retains_grad, and the version counter it shares with its views.
//
// Why a wrapper and not a field of Tensor: the library's ops, views and kernels never look at
// gradients, and a Tensor stays the five fields it was (storage, sizes, strides, offset, dtype), so
// nothing outside this folder changes in speed or behaviour. PyTorch's own C++ API was built this
// way until 1.0 (torch::autograd::Variable wrapped at::Tensor). A Variable is a handle: copies share
// one AutogradMeta, as copies of a torch.Tensor share one TensorImpl. v.tensor() is the plain data
// with no history, the analogue of PyTorch's x.data: writing through it with the library's in-place
// ops (ops.h) bypasses the version counter, exactly as writes through x.data do in PyTorch. The
// in-place ops of this folder (inplace.h) are the ones autograd sees.
//
// Views (view_ops.cpp) share their base's version counter, as c10::VariableVersion is shared by
// every view of a TensorImpl (c10/core/TensorImpl.h), so a write through any view of a storage is
// seen by every tensor saved from it. Only the backward formulas' inputs that they read are saved
// (SavedVariable, node.h); memory.h measures what a graph keeps alive.
//
// Higher-order gradients (create_graph) are not supported: backward formulas run on plain Tensors.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "strided/tensor/tensor.h"

namespace strided::autograd {

class Node;
struct AutogradMeta;

// A gradient's destination: input `input_nr` of `node` (PyTorch's Edge, torch/csrc/autograd/edge.h).
struct Edge {
  std::shared_ptr<Node> node;
  int64_t input_nr = 0;
  bool valid() const { return node != nullptr; }
};

// The number of in-place writes seen through autograd to a tensor and its views, which share it
// (t._version; c10::VariableVersion): a tensor over the same storage that is not a view has its own.
struct VersionCounter {
  int64_t version = 0;
};

// Where a view came from: its root base (never itself a view, as PyTorch's ViewInfo::base_).
struct ViewInfo {
  Tensor base;
  std::shared_ptr<AutogradMeta> base_meta;
};

struct AutogradMeta {
  bool requires_grad = false;  // set on leaves; a non-leaf requires grad through its grad_fn
  Tensor grad;
  std::shared_ptr<Node> grad_fn;
  int64_t output_nr = 0;
  bool retains_grad = false;
  std::shared_ptr<VersionCounter> version = std::make_shared<VersionCounter>();
  std::weak_ptr<Node> grad_accumulator;  // a leaf's AccumulateGrad, made on first use
  std::optional<ViewInfo> view;
  int64_t attr_version = 0;  // the version at which a view's grad_fn was last set
  // A view that is one of several outputs of one node (split), made in grad mode: PyTorch's
  // CreationMeta::MULTI_OUTPUT_NODE, which refuses an in-place write under autograd.
  bool multi_output = false;
};

class Variable {
 public:
  Variable() = default;
  // A leaf. requires_grad is refused for a non-floating dtype, in PyTorch's words.
  explicit Variable(Tensor data, bool requires_grad = false);

  const Tensor& tensor() const { return data_; }
  bool defined() const { return data_.defined(); }
  const Shape& sizes() const { return data_.sizes(); }
  const Shape& strides() const { return data_.strides(); }
  int64_t size(int64_t dim) const { return data_.size(dim); }
  int64_t dim() const { return data_.dim(); }
  int64_t numel() const { return data_.numel(); }
  DType dtype() const { return data_.dtype(); }

  bool requires_grad() const;
  const Variable& requires_grad_(bool requires_grad = true) const;  // leaves only, as PyTorch
  bool is_leaf() const;
  // The node that produced this tensor, null for a leaf. A view whose base was written in place
  // since the view's grad_fn was set gets a new one, an AsStridedBackward0 over the base
  // (PyTorch's VariableHooks::grad_fn).
  std::shared_ptr<Node> grad_fn() const;
  int64_t output_nr() const { return meta_->output_nr; }
  const Tensor& grad() const { return meta_->grad; }  // undefined until backward reaches it
  void zero_grad() const { meta_->grad = Tensor(); }  // as x.grad = None
  void retain_grad() const;
  bool retains_grad() const { return meta_->retains_grad; }
  // Shares the data and the version counter, without history (x.detach()).
  Variable detach() const;
  int64_t version() const { return meta_->version->version; }  // x._version
  bool is_view() const { return meta_->view.has_value(); }
  // The root base of a view (x._base); undefined for a non-view.
  Variable base() const;

  // x.backward(gradient, retain_graph): gradient may be omitted for a one-element output.
  void backward(const Tensor& gradient = Tensor(), bool retain_graph = false) const;

  // ---- views (view_ops.cpp): the library's view ops, recorded ----------------------------------
  Variable view(IntList sizes) const;
  Variable reshape(IntList sizes) const;
  Variable permute(IntList dims) const;
  Variable transpose(int64_t dim0, int64_t dim1) const;
  Variable t() const;
  Variable expand(IntList sizes) const;
  Variable broadcast_to(IntList sizes) const;
  Variable squeeze() const;
  Variable squeeze(int64_t dim) const;
  Variable squeeze(IntList dims) const;
  Variable unsqueeze(int64_t dim) const;
  Variable select(int64_t dim, int64_t index) const;
  Variable slice(int64_t dim, std::optional<int64_t> start = std::nullopt,
                 std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Variable narrow(int64_t dim, int64_t start, int64_t length) const;
  Variable diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  Variable flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Variable unflatten(int64_t dim, IntList sizes) const;
  Variable movedim(IntList source, IntList destination) const;
  Variable movedim(int64_t source, int64_t destination) const;
  Variable as_strided(IntList sizes, IntList strides,
                      std::optional<int64_t> storage_offset = std::nullopt) const;
  Variable unfold(int64_t dim, int64_t size, int64_t step) const;

  // ---- the transposes and complex views (complex_views.cpp) -------------------------------------
  // mT, H, mH and adjoint of a 0-d tensor are the tensor (H, mH, adjoint: its conj), as PyTorch's
  // (deprecated) identity there; other refusals are the Tensor's. conj, resolve_conj,
  // conj_physical and real of a real tensor are the tensor; imag of one is refused, as is imag of
  // a conjugated tensor (tensor.h: no negative bit here).
  Variable mT() const;
  Variable H() const;
  Variable mH() const;
  Variable adjoint() const;
  Variable conj() const;
  Variable resolve_conj() const;
  Variable conj_physical() const;
  Variable real() const;
  Variable imag() const;

  // Internal: the pieces ops and the engine build a Variable from.
  const std::shared_ptr<AutogradMeta>& meta() const { return meta_; }
  Variable(Tensor data, std::shared_ptr<AutogradMeta> meta)
      : data_(std::move(data)), meta_(std::move(meta)) {}

 private:
  Tensor data_;
  std::shared_ptr<AutogradMeta> meta_ = std::make_shared<AutogradMeta>();
};

// torch.view_as_real and torch.view_as_complex, recorded (complex_views.cpp).
Variable view_as_real(const Variable& x);
Variable view_as_complex(const Variable& x);

// Where a gradient for v goes: its grad_fn's output, its leaf accumulator, or nowhere
// (PyTorch's impl::gradient_edge).
Edge gradient_edge(const Variable& v);

// ---- grad mode (torch.no_grad) -------------------------------------------------------------------
// While disabled, no op records a node; results do not require grad. Per thread, as PyTorch's.
struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};
class NoGradGuard {  // torch.no_grad(): disables grad mode for its scope
 public:
  NoGradGuard() : prev_(GradMode::is_enabled()) { GradMode::set_enabled(false); }
  ~NoGradGuard() { GradMode::set_enabled(prev_); }
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  bool prev_;
};

}  // namespace strided::autograd
