#include "strided/autograd/memory.h"

#include <unordered_set>

#include "strided/autograd/node.h"

namespace strided::autograd {

namespace {
// Every node reachable from output's grad_fn, each once, the output's first.
std::vector<Node*> reachable(const Variable& output) {
  std::vector<Node*> order, stack;
  std::unordered_set<Node*> seen;
  if (auto fn = output.grad_fn()) stack.push_back(fn.get());
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    if (dynamic_cast<AccumulateGrad*>(n)) continue;
    order.push_back(n);
    const auto& edges = n->next_edges();
    for (auto it = edges.rbegin(); it != edges.rend(); ++it)
      if (it->valid()) stack.push_back(it->node.get());
  }
  return order;
}
}  // namespace

std::vector<NodeRecord> graph_nodes(const Variable& output) {
  std::vector<NodeRecord> out;
  for (Node* n : reachable(output)) {
    NodeRecord r{n->name(), {}};
    for (const SavedVariable* s : n->saved_variables()) r.saved.push_back(s->data());
    out.push_back(std::move(r));
  }
  return out;
}

GraphMemory graph_memory(const Variable& output) {
  GraphMemory m;
  std::vector<Storage> storages;
  const std::vector<Node*> nodes = reachable(output);
  for (Node* n : nodes) {
    for (const SavedVariable* s : n->saved_variables()) {
      ++m.saved_tensors;
      const Storage& st = s->data().storage();
      bool known = false;
      for (const Storage& k : storages) known = known || k.is_same(st);
      if (!known) {
        storages.push_back(st);
        m.saved_bytes += st.nbytes();
      }
    }
    if (n == nodes.front()) continue;  // the output itself
    for (const OutputInfo& o : n->outputs()) {
      int64_t numel = 1;
      for (int64_t s : o.sizes) numel *= s;
      ++m.intermediates;
      m.intermediate_bytes += numel * itemsize(o.dtype);
    }
  }
  m.saved_storages = static_cast<int64_t>(storages.size());
  return m;
}

}  // namespace strided::autograd
