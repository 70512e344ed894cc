#include "strided/autograd/engine.h"

#include <map>
#include <queue>
#include <unordered_map>

#include "strided/autograd/detail.h"
#include "strided/autograd/node.h"
#include "strided/engine/ops.h"

namespace strided::autograd {

namespace {
std::string torch_size(IntList sizes) {
  std::string s = "torch.Size([";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "])";
}

// validate_outputs (engine.cpp): a gradient for a forward output of another shape is summed to
// it when it can be, refused otherwise; another dtype is cast to the output's.
Tensor validate(const Node& producer, size_t index, Tensor grad, const OutputInfo& info) {
  if (grad.sizes() != info.sizes) {
    STRIDED_CHECK(detail::is_expandable_to(info.sizes, grad.sizes()), "", "Function ",
                  producer.name(), " returned an invalid gradient at index ", index, " - got ",
                  to_string(grad.sizes()), " but expected shape compatible with ",
                  to_string(info.sizes));
    grad = detail::sum_to(grad, info.sizes);
  }
  if (grad.dtype() != info.dtype) grad = grad.to(info.dtype);
  return grad;
}

struct ByNewest {
  bool operator()(const Node* a, const Node* b) const { return a->sequence_nr() < b->sequence_nr(); }
};
}  // namespace

void backward(const std::vector<Variable>& outputs, const std::vector<Tensor>& grad_outputs,
              bool retain_graph) {
  // torch/csrc/autograd/autograd.cpp, _make_grads and run_backward.
  std::vector<Edge> roots;
  std::vector<Tensor> root_grads;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Variable& out = outputs[i];
    STRIDED_CHECK(out.requires_grad(), "", "element ", i,
                  " of tensors does not require grad and does not have a grad_fn");
    Tensor g = i < grad_outputs.size() ? grad_outputs[i] : Tensor();
    if (!g.defined()) {
      STRIDED_CHECK(out.numel() == 1, "", "grad can be implicitly created only for scalar outputs");
      // PyTorch 2 (torch/autograd/__init__.py, _make_grads) refuses a complex scalar too; 1.13
      // let it through with a gradient of 1.
      STRIDED_CHECK(is_floating_point(out.dtype()), "",
                    "grad can be implicitly created only for real scalar outputs but got torch.",
                    name(out.dtype()));
      g = ones(out.sizes(), {out.dtype()});
    } else {
      STRIDED_CHECK(g.sizes() == out.sizes(), "", "Mismatch in shape: grad_output[", i,
                    "] has a shape of ", torch_size(g.sizes()), " and output[", i,
                    "] has a shape of ", torch_size(out.sizes()), ".");
    }
    roots.push_back(gradient_edge(out));
    root_grads.push_back(g);
  }

  // Count the edges into every reachable node (compute_dependencies).
  std::unordered_map<Node*, int64_t> dependencies;
  std::unordered_map<Node*, std::shared_ptr<Node>> keep;
  std::vector<Node*> stack;
  for (const Edge& e : roots)
    if (keep.emplace(e.node.get(), e.node).second) stack.push_back(e.node.get());
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (const Edge& e : n->next_edges()) {
      if (!e.valid()) continue;
      ++dependencies[e.node.get()];
      if (keep.emplace(e.node.get(), e.node).second) stack.push_back(e.node.get());
    }
  }

  // Each node's gradients so far, one per forward output (the InputBuffer).
  std::unordered_map<Node*, std::vector<Tensor>> buffers;
  auto deliver = [&](Node* to, int64_t input_nr, Tensor g) {
    auto& buf = buffers[to];
    if (buf.size() < to->outputs().size()) buf.resize(to->outputs().size());
    Tensor& slot = buf[static_cast<size_t>(input_nr)];
    if (!g.defined()) return;
    slot = slot.defined() ? detail::add(slot, g) : g;
  };
  std::priority_queue<Node*, std::vector<Node*>, ByNewest> ready;
  for (size_t i = 0; i < roots.size(); ++i) {
    Node* n = roots[i].node.get();
    deliver(n, roots[i].input_nr,
            validate(*n, i, root_grads[i], n->outputs()[static_cast<size_t>(roots[i].input_nr)]));
  }
  for (auto& [n, _] : buffers)
    if (dependencies[n] == 0) ready.push(n);

  while (!ready.empty()) {
    Node* n = ready.top();
    ready.pop();
    std::vector<Tensor> grads = std::move(buffers[n]);
    buffers.erase(n);
    grads.resize(n->outputs().size());
    // retain_grad: a non-leaf keeps the gradient that reached it (contiguous, as 1.13's hook).
    for (auto& [output_nr, weak] : n->retained_) {
      auto meta = weak.lock();
      const Tensor& g = grads[static_cast<size_t>(output_nr)];
      if (!meta || !g.defined()) continue;
      meta->grad = meta->grad.defined() ? add(meta->grad, g) : g.contiguous().clone();
    }
    bool any_defined = false;
    for (const Tensor& g : grads) any_defined = any_defined || g.defined();
    // Generated backward functions return no gradient when none arrived (any_grad_defined).
    std::vector<Tensor> results = any_defined ? n->apply(std::move(grads))
                                              : std::vector<Tensor>(n->next_edges().size());
    if (!retain_graph) n->release_variables();
    const auto& edges = n->next_edges();
    for (size_t i = 0; i < edges.size(); ++i) {
      const Edge& e = edges[i];
      if (!e.valid()) continue;
      Tensor g = i < results.size() ? results[i] : Tensor();
      if (g.defined())
        g = validate(*n, i, g, e.node->outputs()[static_cast<size_t>(e.input_nr)]);
      deliver(e.node.get(), e.input_nr, g);
      if (--dependencies[e.node.get()] == 0) ready.push(e.node.get());
    }
  }
}

}  // namespace strided::autograd
