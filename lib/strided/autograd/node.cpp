#include "strided/autograd/node.h"

#include <atomic>
#include <sstream>

#include "strided/autograd/detail.h"
#include "strided/engine/ops.h"

namespace strided::autograd {

namespace {
// PyTorch numbers nodes as they are created; the engine runs the newest ready node first.
std::atomic<uint64_t> g_next_sequence_nr{0};

// "torch.FloatTensor", as Tensor::toString names a CPU tensor in PyTorch's messages.
std::string legacy_type_name(DType dtype) {
  switch (dtype) {
    case DType::Float32: return "torch.FloatTensor";
    case DType::Float64: return "torch.DoubleTensor";
    case DType::Float16: return "torch.HalfTensor";
    case DType::BFloat16: return "torch.BFloat16Tensor";
    case DType::Complex64: return "torch.ComplexFloatTensor";
    case DType::Complex128: return "torch.ComplexDoubleTensor";
    // Never a variable's (only floating and complex tensors require gradients); named as
    // PyTorch names them all the same.
    case DType::Bool: return "torch.BoolTensor";
    case DType::UInt8: return "torch.ByteTensor";
    case DType::Int8: return "torch.CharTensor";
    case DType::Int16: return "torch.ShortTensor";
    case DType::Int32: return "torch.IntTensor";
    case DType::Int64: return "torch.LongTensor";
  }
  return "torch.Tensor";
}
}  // namespace

Node::Node() : sequence_nr_(g_next_sequence_nr.fetch_add(1)) {}

SavedVariable::SavedVariable(const Variable& v, bool is_output)
    : data_(v.tensor()),
      version_(v.meta()->version),
      saved_version_(v.version()),
      output_nr_(v.output_nr()),
      is_output_(is_output) {
  // An output would hold its own node alive through its meta: a cycle. PyTorch keeps a weak
  // reference there; here the owner names itself when the error is raised.
  if (!is_output) meta_ = v.meta();
}

Tensor SavedVariable::unpack(const Node& owner) const {
  STRIDED_CHECK(!was_released_, "",
                "Trying to backward through the graph a second time (or directly access saved "
                "tensors after they have already been freed). Saved intermediate values of the "
                "graph are freed when you call .backward() or autograd.grad(). Specify "
                "retain_graph=True if you need to backward through the graph a second time or if "
                "you need to access saved tensors after calling backward.");
  if (version_->version != saved_version_) {
    // torch/csrc/autograd/saved_variable.cpp, SavedVariable::unpack (PyTorch 1.13).
    std::ostringstream msg;
    msg << "one of the variables needed for gradient computation has been modified by an "
           "inplace operation: ["
        << legacy_type_name(data_.dtype()) << " " << to_string(data_.sizes()) << "]";
    std::string fn;
    int64_t output_nr = output_nr_;
    if (is_output_) {
      fn = owner.name();
    } else if (meta_ && meta_->grad_fn) {
      fn = Variable(data_, meta_).grad_fn()->name();
      output_nr = meta_->output_nr;
    }
    if (!fn.empty()) msg << ", which is output " << output_nr << " of " << fn << ",";
    msg << " is at version " << version_->version << "; expected version " << saved_version_
        << " instead. Hint: enable anomaly detection to find the operation that failed to "
           "compute its gradient, with torch.autograd.set_detect_anomaly(True).";
    throw Error("", msg.str());  // autograd's words name no op
  }
  return data_;
}

void SavedVariable::reset() {
  data_ = Tensor();
  meta_.reset();
  was_released_ = true;
}

void Op::release_variables() {
  for (SavedVariable& s : saved_) s.reset();
}

std::vector<const SavedVariable*> Op::saved_variables() const {
  std::vector<const SavedVariable*> out;
  for (const SavedVariable& s : saved_)
    if (s.defined()) out.push_back(&s);
  return out;
}

size_t Op::save(const Variable& v, bool is_output) {
  saved_.emplace_back(v, is_output);
  return saved_.size() - 1;
}

AccumulateGrad::AccumulateGrad(std::shared_ptr<AutogradMeta> meta, Tensor leaf)
    : meta_(std::move(meta)), leaf_(std::move(leaf)) {
  // torch/csrc/autograd/functions/accumulate_grad.h: an accumulator runs as soon as it is ready.
  sequence_nr_ = UINT64_MAX;
  outputs_.push_back({leaf_.sizes(), leaf_.dtype()});
}

namespace {
// torch/csrc/autograd/utils/grad_layout_contract.h, obeys_layout_contract: for a non-overlapping
// and dense leaf, the gradient's strides equal the leaf's on every dim of size other than 1 (and no
// size-1 dim has stride 0, which marks a view such as cat's); for any other leaf, the gradient is
// row-major contiguous.
bool obeys_layout_contract(const Tensor& grad, const Tensor& leaf) {
  if (grad.sizes() != leaf.sizes() || grad.dtype() != leaf.dtype()) return false;
  if (!leaf.is_non_overlapping_and_dense()) return grad.is_contiguous();
  for (int64_t d = 0; d < grad.dim(); ++d) {
    if (grad.size(d) != 1 ? grad.stride(d) != leaf.stride(d) : grad.stride(d) == 0) return false;
  }
  return true;
}
}  // namespace

std::vector<Tensor> AccumulateGrad::apply(std::vector<Tensor>&& grads) {
  const Tensor& g = grads.at(0);
  if (!g.defined()) return {};
  if (!meta_->grad.defined()) {
    // accumulateGrad: a gradient that obeys the layout contract is kept as it is, strides of
    // size-1 dims included; any other is cloned by utils::clone_obey_contract, into the leaf's
    // strides when the leaf is non-overlapping and dense, else row-major. PyTorch keeps the very
    // tensor when nothing else refers to it; our tensors are values, so the gradient is copied
    // into its own storage with g's strides, which no caller's tensor can then alias.
    Tensor fresh = obeys_layout_contract(g, leaf_)
                       ? empty_strided(g.sizes(), g.strides(), {leaf_.dtype()})
                   : leaf_.is_non_overlapping_and_dense()
                       ? empty_strided(leaf_.sizes(), leaf_.strides(), {leaf_.dtype()})
                       : empty(leaf_.sizes(), {leaf_.dtype()});
    fresh.copy_(g);
    meta_->grad = fresh;
  } else {
    // variable_grad += new_grad, with grad mode off (complex: through the parts, complex.cpp)
    if (is_complex(meta_->grad.dtype())) meta_->grad.copy_(detail::add(meta_->grad, g));
    else add_(meta_->grad, g);
  }
  return {};
}

bool any_requires_grad(const std::vector<const Variable*>& inputs) {
  if (!GradMode::is_enabled()) return false;
  for (const Variable* v : inputs)
    if (v->defined() && v->requires_grad()) return true;
  return false;
}

std::shared_ptr<Op> record(const char* name, const std::vector<const Variable*>& inputs) {
  if (!any_requires_grad(inputs)) return nullptr;
  auto op = std::make_shared<Op>(name);
  for (const Variable* v : inputs) op->next_edges_.push_back(gradient_edge(*v));
  return op;
}

void set_history(Variable& out, const std::shared_ptr<Node>& node, int64_t output_nr) {
  auto& meta = *out.meta();
  meta.grad_fn = node;
  meta.output_nr = output_nr;
  meta.attr_version = meta.version->version;
  if (node->outputs_.size() <= static_cast<size_t>(output_nr))
    node->outputs_.resize(static_cast<size_t>(output_nr) + 1);
  node->outputs_[static_cast<size_t>(output_nr)] = {out.sizes(), out.dtype()};
}

}  // namespace strided::autograd
