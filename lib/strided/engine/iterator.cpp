#include "strided/engine/iterator.h"

#include "strided/tensor/allocator.h"

#include <algorithm>
#include <atomic>
#include <numeric>

#include "strided/layout/layout.h"
#include "strided/memory/memory.h"
#include "strided/layout/memory_format.h"
#include "strided/engine/ops.h"
#include "strided/tensor/promotion.h"

namespace strided {

// NOTE: [Computing output strides]
// (After the note of the same name in aten/src/ATen/TensorIterator.cpp, whose rules we follow.)
// A given output of the right size keeps its strides. Otherwise the output should "recover the
// permutation" that was applied to the inputs, so we sort the dims by the inputs' strides:
//  1. operands are consulted in order (outputs that are given, then inputs, first input first);
//  2. broadcast dims have stride 0, and 0 compares equal to anything: when either of the two dims
//     compared has stride 0 in an operand, the next operand decides;
//  3. dims of size 1 take part with their real strides;
//  4. equal non-zero strides: the dim of larger size goes outside; otherwise the next operand
//     decides; when no operand decides, the dims keep their order.
// The sort is an insertion sort that tolerates these "ambiguous" answers. Consequences the book
// checks: an output follows the first operand's layout when all operands have the same shape
// (seed 000 In[18], claim PF-18), and the non-broadcast operand's layout when one operand is
// broadcast; x * y and y * x can differ in strides (ER-10).
//
// A fast path comes first: when all operands have the same shape and are all contiguous, or all
// dense with one set of strides, the output copies that layout and the plan is one dim. It differs
// from the sort only in the strides of size-1 dims: sizes (N,C,1,1) with strides (C,1,C,C) give
// (C,1,1,1) (TensorIterator.cpp's own example).

namespace {

[[noreturn]] void rethrow_with_op(const std::string& op, const Error& e) {
  throw Error(op, e.what());  // "add: broadcast_shapes: The size of tensor a ..."
}

}  // namespace

bool is_same_tensor(const Tensor& a, const Tensor& b) {
  return a.defined() && b.defined() && a.storage().is_same(b.storage()) &&
         a.dtype() == b.dtype() && a.storage_offset() == b.storage_offset() &&
         a.sizes() == b.sizes() && a.strides() == b.strides();
}

// ---- configuration --------------------------------------------------------------------------------

TensorIteratorConfig& TensorIteratorConfig::add_output(const Tensor& t) {
  STRIDED_INTERNAL_ASSERT(inputs_.empty());  // outputs come first, as in TensorIteratorConfig
  outputs_.push_back(t);
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& t) {
  STRIDED_CHECK(t.defined(), op_name_, "an input tensor is undefined");
  inputs_.push_back({t, std::nullopt});
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::add_input(const Scalar& s) {
  // PyTorch's wrapped_scalar_tensor: a 0-d CPU tensor of bool, int64 or float64.
  inputs_.push_back({scalar_tensor(s, {scalar_dtype(s)}), s});
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::set_op_name(std::string name) {
  op_name_ = std::move(name);
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::set_check_mem_overlap(bool v) {
  check_mem_overlap_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::promote_inputs_to_common_dtype(bool v) {
  promote_inputs_ = v;
  if (v) check_all_same_dtype_ = false;  // as TensorIterator.h: promotion implies mixed dtypes
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::promote_integer_inputs_to_float(bool v) {
  promote_integer_inputs_to_float_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::enforce_safe_casting_to_output(bool v) {
  enforce_safe_casting_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::check_all_same_dtype(bool v) {
  check_all_same_dtype_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::declare_static_dtype(DType t) {
  static_dtype_ = t;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::resize_outputs(bool v) {
  resize_outputs_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::is_reduction(bool v) {
  is_reduction_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::enforce_linear_iteration(bool v) {
  enforce_linear_iteration_ = v;
  return *this;
}

// ---- building -----------------------------------------------------------------------------------

namespace {
std::atomic<int64_t> plan_builds{0};  // plans_built()
}  // namespace

int64_t plans_built() { return plan_builds.load(std::memory_order_relaxed); }

TensorIterator TensorIteratorConfig::build() const {
  plan_builds.fetch_add(1, std::memory_order_relaxed);
  TensorIterator it;
  it.op_name_ = op_name_;
  const std::string& op = op_name_;
  const int nout = static_cast<int>(outputs_.size());
  it.num_outputs_ = nout;
  for (const Tensor& t : outputs_) {
    IterOperand o;
    o.tensor = t;
    o.is_output = true;
    it.operands_.push_back(std::move(o));
  }
  for (const Input& in : inputs_) {
    IterOperand o;
    o.tensor = in.tensor;
    o.wrapped_number = in.wrapped;
    it.operands_.push_back(std::move(o));
  }
  auto& ops = it.operands_;
  // The kernels are real-only (tensor.h): a complex operand is refused before any check, and
  // copies of complex tensors reach this plan as their real parts (copy_plan).
  for (const IterOperand& o : ops)
    if (o.tensor.defined() && is_complex(o.tensor.dtype())) refuse_complex(op, o.tensor.dtype());
  const int nt = static_cast<int>(ops.size());

  // mark_outputs: an output that is also an input is read and written (in-place).
  for (int i = 0; i < nout; ++i)
    for (int j = nout; j < nt; ++j)
      if (is_same_tensor(ops[i].tensor, ops[j].tensor)) ops[i].is_read_write = true;

  // compute_mem_overlaps (aten/src/ATen/MemoryOverlap.cpp, assert_no_internal_overlap and
  // assert_no_partial_overlap): writing through a stride-0 dim, or writing over part of an input
  // while reading it, has no defined result.
  if (check_mem_overlap_) {
    for (int i = 0; i < nout; ++i) {
      const Tensor& out = ops[i].tensor;
      if (!out.defined()) continue;
      STRIDED_CHECK(has_internal_overlap(out) != MemOverlap::Yes, op,
                    "unsupported operation: more than one element of the written-to tensor "
                    "refers to a single memory location. Please clone() the tensor before "
                    "performing the operation. (written-to tensor ",
                    out.layout(), ")");
      for (int j = nout; j < nt; ++j) {
        const Tensor& in = ops[j].tensor;
        if (is_same_tensor(out, in)) continue;
        STRIDED_CHECK(get_overlap_status(out, in) != MemOverlapStatus::Partial, op,
                      "unsupported operation: some elements of the input tensor and the "
                      "written-to tensor refer to a single memory location. Please clone() the "
                      "tensor before performing the operation. (written-to tensor ",
                      out.layout(), " at offset ", out.storage_offset(), ", input ", in.layout(),
                      " at offset ", in.storage_offset(), ")");
      }
    }
  }

  // compute_shape: broadcast the inputs, and the given outputs too unless resize_outputs.
  bool all_same_shape = true, has_scalars = false, has_tensors = false, first = true;
  Shape shape;
  for (const IterOperand& o : ops) {
    if (!o.tensor.defined()) continue;
    if (o.is_output && resize_outputs_) continue;
    const Shape& s = o.tensor.sizes();
    (s.empty() ? has_scalars : has_tensors) = true;
    if (has_scalars && has_tensors) all_same_shape = false;
    if (first) {
      shape = s;
      first = false;
    } else if (s != shape) {
      all_same_shape = false;
      try {
        shape = broadcast_shapes(shape, s);
      } catch (const Error& e) {
        rethrow_with_op(op, e);
      }
    }
  }
  const bool all_scalars = !has_tensors;
  it.full_shape_ = shape;

  // mark_resize_outputs: a given output must have the broadcast shape; our tensors are values, so
  // we cannot resize the caller's tensor and refuse instead, with PyTorch's in-place message.
  for (int i = 0; i < nout; ++i) {
    const Tensor& out = ops[i].tensor;
    if (!out.defined()) continue;
    STRIDED_CHECK(out.sizes() == shape, op, "output with shape ", to_string(out.sizes()),
                  " doesn't match the broadcast shape ", to_string(shape));
  }

  // compute_types: one device, the common dtype, and safe casting to given outputs.
  Device device = Device::cpu();
  for (const IterOperand& o : ops)
    if (o.tensor.defined() && !o.tensor.device().is_cpu()) {
      device = o.tensor.device();
      break;
    }
  for (const IterOperand& o : ops) {
    if (!o.tensor.defined()) continue;
    // A CPU 0-d input may join a CUDA op (PyTorch's allow_cpu_scalars): the kernel reads its value.
    const bool cpu_scalar = !o.is_output && o.tensor.dim() == 0 && o.tensor.device().is_cpu();
    STRIDED_CHECK(o.tensor.device() == device || cpu_scalar, op,
                  "Expected all tensors to be on the same device, but found at least two "
                  "devices, ",
                  device.str(), " and ", o.tensor.device().str(), "!");
  }
  std::optional<DType> first_input, first_output;
  bool different_inputs = false, different_outputs = false;
  for (const IterOperand& o : ops) {
    if (!o.tensor.defined()) continue;
    std::optional<DType>& seen = o.is_output ? first_output : first_input;
    if (!seen) {
      seen = o.dtype();
    } else if (*seen != o.dtype()) {
      (o.is_output ? different_outputs : different_inputs) = true;
    }
  }
  DType common = first_input.value_or(static_dtype_.value_or(DType::Float32));
  if (check_all_same_dtype_ &&
      (different_inputs || different_outputs || (first_output && *first_output != common))) {
    for (const IterOperand& o : ops)
      STRIDED_CHECK(!o.tensor.defined() || o.dtype() == common, op, "Found dtype ",
                    scalar_type_name(o.dtype()), " but expected ", scalar_type_name(common));
  }
  if ((different_inputs || all_scalars) && promote_inputs_) {
    ResultTypeState state;
    for (const IterOperand& o : ops) {
      if (o.is_output) continue;
      state = o.wrapped_number ? update_result_type_state(*o.wrapped_number, state)
                               : update_result_type_state(o.tensor, state);
    }
    common = result_type(state);
  }
  if (promote_integer_inputs_to_float_ && !is_floating_point(common)) common = DType::Float32;
  it.common_dtype_ = common;
  for (IterOperand& o : ops) {
    if (o.is_output) {
      if (!o.tensor.defined()) continue;
      if (enforce_safe_casting_ && o.dtype() != common)
        STRIDED_CHECK(can_cast(common, o.dtype()), op, "result type ", scalar_type_name(common),
                      " can't be cast to the desired output type ", scalar_type_name(o.dtype()));
      continue;
    }
    if (promote_inputs_ && o.dtype() != common) {
      // PyTorch converts with .to(common_dtype), which keeps a dense input's layout and lays a
      // broadcast or sparse one out densely; the output strides below see the converted tensor.
      if (o.wrapped_number) {
        // A wrapped number's 0-d tensor (int64, float64 or bool) is converted so too, unchecked:
        // uint8 + 300 adds 300's low byte, 44, and float16 + 1e10 adds inf. Scalar::to is that
        // conversion; the one element is stored in place, with no plan of its own.
        Tensor t = empty({}, {common});
        if (is_complex(common))
          t.fill_(*o.wrapped_number);  // its real part; fill_ writes complex tensors so
        else
          store_scalar(t.data_ptr(), common, *o.wrapped_number);
        o.tensor = t;
      } else {
        STRIDED_CHECK(o.tensor.device().is_cpu(), op, "converting a ", device.str(), " input from ",
                      name(o.dtype()), " to ", name(common),
                      " needs a device copy; convert it before the op");
        o.tensor = to_dtype(o.tensor, common);
      }
    }
  }
  const DType out_dtype = static_dtype_.value_or(common);
  const int nd = static_cast<int>(shape.size());

  auto allocate = [&](IterOperand& o, IntList strides) {
    o.tensor = empty_strided(shape, strides, {out_dtype, device});
    o.fresh_pages = device.is_cpu() && !detail::last_allocation_reused();
  };

  // fast_set_up: all operands of one shape, and all contiguous (or all channels-last, or all dense
  // with one set of strides): the output takes that layout and the plan is a single dim.
  if (!is_reduction_ && all_same_shape) {
    std::vector<Shape> strides;
    for (const IterOperand& o : ops)
      if (o.tensor.defined()) strides.push_back(o.tensor.strides());
    const std::optional<Shape> out_strides =
        shared_output_strides(shape, strides, enforce_linear_iteration_);
    if (out_strides) {
      for (IterOperand& o : ops)
        if (o.is_output && !o.tensor.defined()) allocate(o, *out_strides);
      it.fast_setup_ = true;
      if (nd >= 1) it.shape_ = {checked_numel(shape, op.c_str())};
      for (IterOperand& o : ops) o.stride_bytes = Shape(nd >= 1 ? 1 : 0, o.element_size());
      return it;
    }
  }

  // compute_strides: byte strides over the broadcast shape; 0 on dims an operand broadcasts.
  it.shape_ = shape;
  for (IterOperand& o : ops) {
    if (!o.tensor.defined()) continue;
    const Shape& sizes = o.tensor.sizes();
    const Shape& strides = o.tensor.strides();
    const int offset = nd - static_cast<int>(sizes.size());
    o.stride_bytes.assign(nd, 0);
    for (int i = 0; i < static_cast<int>(sizes.size()); ++i)
      o.stride_bytes[offset + i] =
          (sizes[i] == 1 && shape[offset + i] != 1) ? 0
                                                      : wrapping_mul(strides[i], o.element_size());
  }

  // reorder_dimensions: plan dim 0 is the innermost; the rule is the layout algebra's
  // walk_order, asked of the operands' byte strides (an output still to be allocated has none).
  // enforce_linear_iteration keeps the tensor's own order, (n-1, ..., 0).
  Shape perm(nd);
  std::iota(perm.rbegin(), perm.rend(), 0);
  if (!enforce_linear_iteration_) {
    std::vector<Shape> steps;
    std::vector<bool> reduced;
    for (const IterOperand& o : ops) {
      steps.push_back(o.stride_bytes);
      reduced.push_back(is_reduction_ && o.is_output);
    }
    perm = walk_order(shape, steps, reduced);
  }
  it.perm_ = perm;
  auto permuted = [&](const Shape& v) {
    Shape r(nd);
    for (int i = 0; i < nd; ++i) r[i] = v[perm[i]];
    return r;
  };
  it.shape_ = permuted(shape);
  for (IterOperand& o : ops)
    if (!o.stride_bytes.empty()) o.stride_bytes = permuted(o.stride_bytes);

  // allocate_or_resize_outputs: the output's strides (walk_output_strides), and its byte steps in
  // plan order, dense along the walk (compatible_stride).
  for (IterOperand& o : ops) {
    if (!o.is_output || o.tensor.defined()) continue;
    const int64_t item = itemsize(out_dtype);
    allocate(o, walk_output_strides(shape, perm));
    const Shape dense = dense_strides_in_order(shape, perm, ZeroSizes::AsIs);
    o.stride_bytes.resize(nd);
    for (int d = 0; d < nd; ++d) o.stride_bytes[d] = dense[perm[d]] * item;
  }

  // coalesce_dimensions: the layout algebra's coalesce_dims, over every operand's byte strides.
  if (nd > 1) {
    std::vector<Shape> steps;
    for (IterOperand& o : ops) steps.push_back(std::move(o.stride_bytes));
    coalesce_dims(it.shape_, steps);
    for (size_t k = 0; k < ops.size(); ++k) ops[k].stride_bytes = std::move(steps[k]);
  }
  return it;
}

// ---- queries ------------------------------------------------------------------------------------

int64_t TensorIterator::numel() const {
  int64_t n = 1;
  for (int64_t s : shape_) n *= s;
  return n;
}

const IterOperand& TensorIterator::operand(int k) const {
  STRIDED_CHECK(k >= 0 && k < ntensors(), op_name_, "operand ", k, " out of range for ", ntensors(),
                " operands");
  return operands_[k];
}
const Tensor& TensorIterator::output(int k) const {
  STRIDED_CHECK(k >= 0 && k < num_outputs_, op_name_, "output ", k, " out of range for ",
                num_outputs_, " outputs");
  return operands_[k].tensor;
}
const Tensor& TensorIterator::input(int k) const {
  STRIDED_CHECK(k >= 0 && k < ninputs(), op_name_, "input ", k, " out of range for ", ninputs(),
                " inputs");
  return operands_[num_outputs_ + k].tensor;
}

Shape TensorIterator::iteration_order() const {
  if (!fast_setup_) return Shape(perm_.rbegin(), perm_.rend());
  // The fast path walks memory in order of the (shared) strides, largest first; equal strides
  // keep the tensor's dim order, as a stable sort does.
  const Tensor& t = operands_.back().tensor;
  Shape order(full_shape_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return t.stride(a) > t.stride(b); });
  return order;
}

bool TensorIterator::is_contiguous() const {
  if (numel() == 1) return true;
  if (ndim() != 1) return false;
  for (const IterOperand& o : operands_)
    if (o.stride_bytes[0] != o.element_size()) return false;
  return true;
}

bool TensorIterator::is_scalar(int k) const {
  const IterOperand& o = operand(k);
  for (int d = 0; d < ndim(); ++d)
    if (o.stride_bytes[d] != 0 && shape_[d] != 1) return false;
  return true;
}

bool TensorIterator::is_inner_contiguous(int k) const {
  const IterOperand& o = operand(k);
  return ndim() == 0 || o.stride_bytes[0] == o.element_size();
}

Shape TensorIterator::plan_index(int64_t i) const {
  STRIDED_CHECK(i >= 0 && i < numel(), op_name_, "linear index ", i, " out of range for ", numel(),
                " elements");
  Shape idx(shape_.size());
  for (size_t d = 0; d < shape_.size(); ++d) {
    idx[d] = i % shape_[d];
    i /= shape_[d];
  }
  return idx;
}

int64_t TensorIterator::byte_offset(int k, int64_t i) const {
  const Shape idx = plan_index(i);
  const IterOperand& o = operand(k);
  int64_t off = 0;
  for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * o.stride_bytes[d];
  return off;
}

void TensorIterator::unsafe_set_arg_strides(int k, Shape stride_bytes) {
  STRIDED_CHECK(k >= 0 && k < ntensors(), op_name_, "operand ", k, " out of range for ", ntensors(),
                " operands");
  STRIDED_CHECK(static_cast<int>(stride_bytes.size()) == ndim(), op_name_, stride_bytes.size(),
                " strides for a plan of ", ndim(), " dims");
  operands_[k].stride_bytes = std::move(stride_bytes);
}

void TensorIterator::remove_operand(int k) {
  STRIDED_CHECK(k >= num_outputs_ && k < ntensors(), op_name_, "operand ", k,
                " is not an input of ", ntensors(), " operands with ", num_outputs_, " outputs");
  operands_.erase(operands_.begin() + k);
}

// ---- loops --------------------------------------------------------------------------------------

void TensorIterator::serial_for_each(const Loop2d& loop, int64_t begin, int64_t end) const {
  if (begin >= end) return;
  const int nt = ntensors();
  const int nd = ndim();
  std::vector<char*> base(nt), ptrs(nt);
  std::vector<int64_t> strides(static_cast<size_t>(nt) * std::max(nd, 2), 0);
  for (int k = 0; k < nt; ++k) {
    base[k] = operands_[k].data();
    for (int d = 0; d < nd; ++d) strides[d * nt + k] = operands_[k].stride_bytes[d];
  }
  if (nd <= 1) {
    for (int k = 0; k < nt; ++k) ptrs[k] = base[k] + begin * strides[k];
    loop(ptrs.data(), strides.data(), end - begin, 1);
    return;
  }
  // at::internal::serial_for_each with its DimCounter: blocks of whole inner rows when possible.
  // The kernels' hot loop keeps this counter of its own rather than layout.h's for_each_index,
  // which turns once per element: this one turns once per block of size0 × size1 elements.
  Shape idx(nd);
  int64_t rem = begin;
  for (int d = 0; d < nd; ++d) {
    idx[d] = rem % shape_[d];
    rem /= shape_[d];
  }
  int64_t offset = begin;
  while (offset < end) {
    for (int k = 0; k < nt; ++k) {
      char* p = base[k];
      for (int d = 0; d < nd; ++d) p += idx[d] * strides[d * nt + k];
      ptrs[k] = p;
    }
    const int64_t step0 = std::min(shape_[0] - idx[0], end - offset);
    int64_t step1 = 1;
    if (step0 == shape_[0] && idx[0] == 0)
      step1 = std::max<int64_t>(1, std::min(shape_[1] - idx[1], (end - offset) / shape_[0]));
    loop(ptrs.data(), strides.data(), step0, step1);
    offset += step0 * step1;
    int64_t carry = step0;
    int d = 0;
    if (step1 != 1) {
      d = 1;
      carry = step1;
    }
    for (; d < nd && carry > 0; ++d) {
      int64_t v = idx[d] + carry;
      if (v >= shape_[d]) {
        v -= shape_[d];
        carry = 1;
      } else {
        carry = 0;
      }
      idx[d] = v;
    }
  }
}

void TensorIterator::for_each(const Loop2d& loop, int64_t grain_size) const {
  const int64_t n = numel();
  if (n == 0) return;
  if (n < grain_size || get_num_threads() == 1) {
    serial_for_each(loop, 0, n);
    return;
  }
  parallel_for(0, n, grain_size,
               [&](int64_t b, int64_t e) { serial_for_each(loop, b, e); });
}

}  // namespace strided
