// The iteration plan every element-wise kernel and reduction runs, CPU and CUDA alike, in the manner
// of PyTorch's TensorIterator (aten/src/ATen/TensorIterator.h/.cpp). Building one:
//
//   1. broadcasts the operands' shapes (ExpandUtils.cpp, infer_size) and checks the outputs;
//   2. computes the common dtype (promotion.h) and converts inputs that differ;
//   3. gives every operand byte strides over the broadcast shape, 0 on broadcast dims;
//   4. orders the dims by stride, innermost (smallest stride) first, with PyTorch's comparison and
//      tie-breaks — see NOTE: [Computing output strides] in iterator.cpp;
//   5. allocates missing outputs so that they follow that order: the output's strides are the
//      inputs' "recovered permutation" laid out densely;
//   6. coalesces adjacent dims that every operand walks as one (shape[d] * stride[d] ==
//      stride[d+1]), so a contiguous 512x512x512 tensor becomes one dim of 134217728 elements.
//
// NOTE: [Plan dims are innermost first]
// As in TensorIterator, plan dim 0 is the fastest-moving one: shape()[0] is the inner loop's length
// and operand(k).stride_bytes[0] its step. A tensor's own dims are listed outermost first, so a
// contiguous (2,3,4) float32 tensor becomes the plan shape (24) with byte stride (4), and its
// permute(2,1,0) the same plan: the walk follows memory, not the logical index.
//
// The plan is data (shapes, byte strides, base pointers), so a CUDA kernel's offset calculator
// consumes the same numbers the CPU loops do; models.h turns the same plan into address traces.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "strided/core/dtype.h"
#include "strided/engine/parallel.h"
#include "strided/core/shape.h"
#include "strided/tensor/tensor.h"

namespace strided {

// One operand of a plan.
struct IterOperand {
  // The tensor the kernel reads or writes: an input converted to the common dtype when promotion
  // asked for it, an output allocated by the build when none was given.
  Tensor tensor;
  // Byte strides, one per plan dim (innermost first); 0 where the operand is broadcast.
  Shape stride_bytes;
  bool is_output = false;
  // The output is also an input (an in-place op such as add_).
  bool is_read_write = false;
  // An output the build allocated on pages no one has written yet (not a cached block): the
  // kernel's first writes fault them in (allocator.h), which decides how it stores (streaming.h).
  bool fresh_pages = false;
  // Set for a Scalar operand (the 3 in x + 3), which PyTorch wraps into a 0-d tensor and promotes
  // by its own rule. A CUDA kernel can pass it by value instead of reading host memory.
  std::optional<Scalar> wrapped_number;

  DType dtype() const { return tensor.dtype(); }
  int64_t element_size() const { return tensor.element_size(); }
  // Set by TensorIterator::unsafe_replace_operand: the address the walk starts from instead.
  char* replaced_data = nullptr;
  char* data() const {
    return replaced_data ? replaced_data : static_cast<char*>(tensor.data_ptr());
  }
};

class TensorIterator;

// What to build, with PyTorch's flag names (TensorIteratorConfig). Outputs are added first.
class TensorIteratorConfig {
 public:
  // An undefined tensor (Tensor()) asks the build to allocate the output.
  TensorIteratorConfig& add_output(const Tensor& t);
  TensorIteratorConfig& add_input(const Tensor& t);
  // A wrapped number: a 0-d input that takes part in promotion only when of a higher category.
  TensorIteratorConfig& add_input(const Scalar& s);

  // The op's name, first in every error message ("add: The size of tensor a ...").
  TensorIteratorConfig& set_op_name(std::string name);
  // Refuse outputs that overlap themselves or partially overlap an input (default true).
  TensorIteratorConfig& set_check_mem_overlap(bool v);
  // Convert inputs to the common dtype before the loop (default false).
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool v);
  // An integral or bool common dtype becomes the default float dtype, float32 (div, exp, sqrt).
  TensorIteratorConfig& promote_integer_inputs_to_float(bool v);
  // Refuse a given output the common dtype cannot be cast to ("result type Float can't be cast to
  // the desired output type Long").
  TensorIteratorConfig& enforce_safe_casting_to_output(bool v);
  // Every input and output must have one dtype (default true), as in unary ops. When false, a
  // given output may differ from the common dtype and the kernels convert as they store (PyTorch's
  // cast_common_dtype_to_outputs, done per chunk instead of through a temporary tensor).
  TensorIteratorConfig& check_all_same_dtype(bool v);
  // The dtype allocated outputs get, instead of the common dtype (e.g. int64 indices).
  TensorIteratorConfig& declare_static_dtype(DType t);
  // PyTorch's resize_outputs (default true): given outputs take no part in broadcasting, as in
  // add_, whose output is also an input. With false they do, so an input broadcasts to a given
  // output (copy_, reductions). Either way a given output must end up with the broadcast shape:
  // our tensors are values, so the build cannot resize the caller's tensor, and says so.
  TensorIteratorConfig& resize_outputs(bool v);
  // A reduction: the output is viewed over the input's shape with stride 0 on reduced dims, and
  // reduced dims are ordered innermost.
  TensorIteratorConfig& is_reduction(bool v);
  // Walk the dims in the tensors' own order, last dim innermost, with no reordering: the "logical"
  // traversal the book contrasts with the stride-sorted one (PF-08).
  TensorIteratorConfig& enforce_linear_iteration(bool v);

  TensorIterator build() const;

 private:
  friend class TensorIterator;
  struct Input {
    Tensor tensor;
    std::optional<Scalar> wrapped;
  };
  std::vector<Tensor> outputs_;
  std::vector<Input> inputs_;
  std::string op_name_ = "TensorIterator";
  bool check_mem_overlap_ = true;
  bool promote_inputs_ = false;
  bool promote_integer_inputs_to_float_ = false;
  bool enforce_safe_casting_ = false;
  bool check_all_same_dtype_ = true;
  std::optional<DType> static_dtype_;
  bool resize_outputs_ = true;
  bool is_reduction_ = false;
  bool enforce_linear_iteration_ = false;
};

// A built plan. Operands are numbered outputs first, then inputs, as in TensorIterator.
class TensorIterator {
 public:
  // The 2-D inner loop every kernel supplies (TensorIterator's loop2d_t): data[k] points at operand
  // k's first element of the block; strides[k] is operand k's byte step along plan dim 0 and
  // strides[ntensors + k] along plan dim 1; the block is size0 (inner) x size1 (outer) elements.
  using Loop2d =
      std::function<void(char** data, const int64_t* strides, int64_t size0, int64_t size1)>;

  // Plan dims after reordering and coalescing, innermost first (NOTE: [Plan dims are innermost
  // first]); a 0-d op has no plan dims and one element.
  int ndim() const { return static_cast<int>(shape_.size()); }
  const Shape& shape() const { return shape_; }
  int64_t numel() const;

  int ntensors() const { return static_cast<int>(operands_.size()); }
  int noutputs() const { return num_outputs_; }
  int ninputs() const { return ntensors() - num_outputs_; }
  const IterOperand& operand(int k) const;
  const Tensor& output(int k = 0) const;
  const Tensor& input(int k = 0) const;
  DType common_dtype() const { return common_dtype_; }
  const std::string& op_name() const { return op_name_; }

  // The broadcast shape, in the tensors' own dim order (the output's shape for element-wise ops).
  const Shape& broadcast_shape() const { return full_shape_; }
  // perm()[i] is the tensor dim that became plan dim i before coalescing (innermost first), as
  // TensorIterator's perm_. Empty when the plan took the fast path (all operands contiguous or
  // sharing one dense layout), which skips reordering.
  const Shape& perm() const { return perm_; }
  // The loop nest in the reader's order: tensor dims from the outermost loop to the innermost one
  // (PF-01's "iteration order"), i.e. perm() reversed; for the fast path, where every operand
  // shares one layout, the dims sorted by the last operand's strides (an input's: an output the
  // build allocated took that layout from the inputs).
  Shape iteration_order() const;

  // One plan dim, and every operand's stride along it equals its element size.
  bool is_contiguous() const;
  // Operand k reads one element for every index (all its strides are 0 or over size-1 dims).
  bool is_scalar(int k) const;
  // Operand k is contiguous along plan dim 0.
  bool is_inner_contiguous(int k) const;

  // Runs loop over the plan's linear index range [begin, end), on the calling thread, in plan
  // order: plan dim 0 innermost (TensorIterator::serial_for_each).
  void serial_for_each(const Loop2d& loop, int64_t begin, int64_t end) const;
  // Splits [0, numel) over get_num_threads() threads in contiguous ranges of at least grain_size
  // elements (TensorIterator::for_each).
  void for_each(const Loop2d& loop, int64_t grain_size = kGrainSize) const;

  // Walks operand k from data instead of its tensor's first element, with the same strides: the
  // same plan over another slice of the same layout (TensorIterator::unsafe_replace_operand, which
  // index_select_out_cpu_ uses to run one plan once per index). The caller answers for data.
  void unsafe_replace_operand(int k, void* data) {
    operands_.at(static_cast<size_t>(k)).replaced_data = static_cast<char*>(data);
  }
  // Gives operand k other byte strides over the same plan dims, which may be negative
  // (TensorIterator::_unsafe_set_arg_strides): flip walks its output backwards along the flipped
  // dims so (TensorTransformations.cpp, flip). The caller answers for every address reached.
  void unsafe_set_arg_strides(int k, Shape stride_bytes);
  // Drops operand k, an input, after the build has used it to order and coalesce the dims
  // (TensorIterator::remove_operand): flip's stand-in input, which only keeps a flipped dim from
  // merging with an unflipped one, is not read by the loop.
  void remove_operand(int k);

  // The multi-index (plan dims, innermost first) of linear index i, and the byte offset of operand
  // k's element there from its data pointer.
  Shape plan_index(int64_t i) const;
  int64_t byte_offset(int k, int64_t i) const;

 private:
  friend class TensorIteratorConfig;
  TensorIterator() = default;

  std::vector<IterOperand> operands_;
  int num_outputs_ = 0;
  Shape shape_;
  Shape full_shape_;
  Shape perm_;
  DType common_dtype_ = DType::Float32;
  std::string op_name_;
  bool fast_setup_ = false;
};

// How many plans TensorIteratorConfig::build has been asked for in this process, failed builds
// included: a hook for tests, which check that each op builds exactly one plan (every walk of an op
// is the plan's). Counted atomically, so any thread's builds count.
int64_t plans_built();

// Do a and b describe the same tensor (storage, offset, sizes, strides, dtype)? PyTorch compares
// TensorImpl pointers; our tensors are values, so equal metadata is the same tensor.
bool is_same_tensor(const Tensor& a, const Tensor& b);

}  // namespace strided
