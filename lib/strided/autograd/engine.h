// backward(): runs the graph from the outputs to the leaves (torch/csrc/autograd/engine.cpp).
//
// The engine first counts, for every node reachable from the outputs, how many edges lead into
// it; a node runs once all of them have delivered (its dependencies reach zero), so it runs after
// every node that feeds it, in a reverse topological order. Among ready nodes the newest one
// (highest sequence number) runs first, as PyTorch's ready queue orders them; a leaf's
// AccumulateGrad runs as soon as it is ready. Gradients arriving at one input are added. Before a
// gradient is passed on, it is checked against the shape the forward output had: a broadcast one
// is summed back to it (sum_to), one of another dtype is cast (validate_outputs).
#pragma once

#include <vector>

#include "strided/autograd/variable.h"

namespace strided::autograd {

// torch.autograd.backward(outputs, grad_outputs, retain_graph). An undefined grad_output stands
// for ones, allowed only for a one-element output. Without retain_graph every node frees its saved
// tensors as it runs.
void backward(const std::vector<Variable>& outputs, const std::vector<Tensor>& grad_outputs = {},
              bool retain_graph = false);

}  // namespace strided::autograd
