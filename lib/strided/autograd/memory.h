// What a graph keeps alive for backward (claims AG-07, AG-08). A node holds the tensors its formula
// reads (its SavedVariables); a saved tensor holds its whole storage, so a saved slice keeps every
// byte of its base alive. graph_memory counts those storages once each, and beside them what a
// naive engine would keep: every intermediate result, whether a formula reads it or not.
#pragma once

#include <string>
#include <vector>

#include "strided/autograd/variable.h"

namespace strided::autograd {

struct NodeRecord {
  std::string name;           // as PyTorch prints grad_fn: "MulBackward0"
  std::vector<Tensor> saved;  // the tensors its formula will read (none once released)
};

// The nodes reachable from output's grad_fn, the output's own first, then in the order a
// depth-first walk of the next edges meets them; leaves' AccumulateGrad nodes are left out.
std::vector<NodeRecord> graph_nodes(const Variable& output);

struct GraphMemory {
  int64_t saved_tensors = 0;   // saved tensors, over every node
  int64_t saved_storages = 0;  // the distinct storages they view
  int64_t saved_bytes = 0;     // those storages' bytes: what the graph holds alive for backward
  int64_t intermediates = 0;   // results of recorded ops other than the output (a naive engine)
  int64_t intermediate_bytes = 0;  // their bytes (numel · itemsize each)
};
GraphMemory graph_memory(const Variable& output);

}  // namespace strided::autograd
