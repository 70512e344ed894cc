// The graph's nodes (torch/csrc/autograd/function.h): a node is the backward of one forward op.
// It takes one gradient per forward output and returns one per next edge (per forward input);
// an undefined Tensor means "no gradient" (zero). Every node but a leaf's AccumulateGrad is an Op:
// a name as PyTorch prints it (MulBackward0), the tensors its formula reads (SavedVariable) and
// the formula itself, written beside the forward op with the line of PyTorch's
// tools/autograd/derivatives.yaml it follows.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "strided/autograd/variable.h"

namespace strided::autograd {

// What a forward output looked like, so the engine can reduce a broadcast gradient to its shape
// and cast it to its dtype (PyTorch's InputMetadata, and validate_outputs in engine.cpp).
struct OutputInfo {
  Shape sizes;
  DType dtype = DType::Float32;
};

class SavedVariable;

class Node {
 public:
  Node();
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  virtual std::string name() const = 0;
  virtual std::vector<Tensor> apply(std::vector<Tensor>&& grads) = 0;
  // Frees the saved tensors after a backward without retain_graph.
  virtual void release_variables() {}
  virtual std::vector<const SavedVariable*> saved_variables() const { return {}; }

  const std::vector<Edge>& next_edges() const { return next_edges_; }
  const std::vector<OutputInfo>& outputs() const { return outputs_; }
  uint64_t sequence_nr() const { return sequence_nr_; }
  // Whether the gradient for forward input i is wanted (PyTorch's should_compute_output).
  bool needs(size_t i) const { return i < next_edges_.size() && next_edges_[i].valid(); }

  std::vector<Edge> next_edges_;
  std::vector<OutputInfo> outputs_;
  // retain_grad(): the non-leaf outputs whose gradient is kept, by output number.
  std::vector<std::pair<int64_t, std::weak_ptr<AutogradMeta>>> retained_;

 protected:
  uint64_t sequence_nr_;
};

// A tensor a backward formula reads, with the version it had when saved (saved_variable.cpp).
// Unpacking it after an in-place write fails with PyTorch's message; after release it fails with
// "Trying to backward through the graph a second time".
class SavedVariable {
 public:
  SavedVariable() = default;
  // is_output: v is an output of the node that saves it (exp saves its result); such a saved
  // variable names the node itself in its error and holds no reference back to it.
  SavedVariable(const Variable& v, bool is_output);
  Tensor unpack(const Node& owner) const;
  void reset();
  bool defined() const { return data_.defined(); }
  const Tensor& data() const { return data_; }

 private:
  Tensor data_;
  std::shared_ptr<VersionCounter> version_;
  int64_t saved_version_ = 0;
  int64_t output_nr_ = 0;
  bool is_output_ = false;
  bool was_released_ = false;
  std::shared_ptr<AutogradMeta> meta_;  // an input's meta, to name its grad_fn in the error
};

// A recorded op: its name, its saved tensors and its backward formula.
class Op : public Node {
 public:
  using Formula = std::function<std::vector<Tensor>(Op& op, const std::vector<Tensor>& grads)>;
  explicit Op(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override { return formula(*this, grads); }
  void release_variables() override;
  std::vector<const SavedVariable*> saved_variables() const override;

  // Saves v for the formula and returns its index for saved(i).
  size_t save(const Variable& v, bool is_output = false);
  Tensor saved(size_t i) { return saved_[i].unpack(*this); }

  Formula formula;

 private:
  std::string name_;
  std::vector<SavedVariable> saved_;
};

// A leaf's gradient sink (accumulate_grad.cpp): the first gradient is stored with the leaf's
// strides when the leaf is non-overlapping and dense, contiguous otherwise (the "layout contract"
// of AccumulateGrad); later ones are added into it.
class AccumulateGrad : public Node {
 public:
  explicit AccumulateGrad(std::shared_ptr<AutogradMeta> meta, Tensor leaf);
  std::string name() const override { return "torch::autograd::AccumulateGrad"; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grads) override;

 private:
  std::shared_ptr<AutogradMeta> meta_;
  Tensor leaf_;  // the leaf's geometry (its storage is the leaf's own)
};

// ---- recording (used by the ops) ------------------------------------------------------------------
// Whether an op over these inputs records a node: grad mode is on and one of them requires grad.
bool any_requires_grad(const std::vector<const Variable*>& inputs);
// A node named `name` whose next edges are the inputs' gradient edges, or null when nothing is
// recorded. The caller sets its formula and saves what the formula reads.
std::shared_ptr<Op> record(const char* name, const std::vector<const Variable*>& inputs);
// Makes `out` output `output_nr` of node (its grad_fn).
void set_history(Variable& out, const std::shared_ptr<Node>& node, int64_t output_nr = 0);

}  // namespace strided::autograd
