// t.index({...}): Python's indexing, as PyTorch's C++ frontend does it
// (aten/src/ATen/TensorIndexing.h, applySlicing; torch/csrc/autograd/python_variable_indexing.cpp).
// Integers, slices, None and Ellipsis are basic indexing and give a view; lists of integers are
// advanced indexing and give a copy (claims IX-08, IX-09). Advanced indexing and index_put_ run on
// the engine's plan as PyTorch's do (aten/src/ATen/native/TensorAdvancedIndexing.cpp, make_info,
// make_index_iterator, make_index_put_iterator): the indexed tensor restrided to stride 0 along
// the indexed dims and the index lists are operands of one plan, which lays out index()'s result
// (the output strides of aten/src/ATen/TensorIterator.cpp) and which index_kernel.h walks.
#include <string>
#include <vector>

#include "strided/engine/index_kernel.h"
#include "strided/engine/iterator.h"
#include "strided/layout/layout.h"
#include "strided/memory/memory.h"
#include "strided/tensor/promotion.h"
#include "strided/engine/ops.h"
#include "strided/tensor/tensor.h"

namespace strided {

namespace {

using indexing::EllipsisType;
using indexing::NoneType;
using indexing::Slice;
using indexing::TensorIndex;
using IndexList = std::vector<int64_t>;

// ---- advanced indexing: the index kernel's operands -------------------------------------------
// make_info (TensorAdvancedIndexing.cpp, AdvancedIndex): what index() reads and index_put_ writes,
// for src already basic-indexed and lists[d] the list indexing dim d of src, if any. The result of
// index() has out_sizes; an element of it is src's element at the same index along src_strides
// (restride_src) plus, for each indexed dim, its list's value there times the dim's stride.
struct AdvancedIndex {
  Tensor src;                          // permuted so that the indexed dims are adjacent
  std::vector<const IndexList*> lists;  // one per dim of src, null where none
  std::vector<int64_t> indexed;         // the indexed dims of src, in order
  int64_t before = 0, count = 0, len = 0;
  Shape out_sizes;    // src's dims before the indexed ones, len, src's dims after them
  Shape src_strides;  // src's strides over out_sizes' dims, 0 on the indexed one

  // The index kernel's index_size and index_stride (bytes): the indexed dims' sizes and strides.
  Shape index_sizes() const {
    Shape sizes;
    for (int64_t d : indexed) sizes.push_back(src.size(d));
    return sizes;
  }
  Shape index_strides() const {
    Shape strides;
    // Wrapping: the stride of a size-1 dim may be anything a view's arithmetic left (2^63-1), and
    // in bytes it overflows; its only index, 0, never steps by it.
    for (int64_t d : indexed) strides.push_back(wrapping_mul(src.stride(d), src.element_size()));
    return strides;
  }

  // The index kernel's bounds check, made as it reads each index: never when the result is empty.
  // "dimension" counts the lists, as PyTorch's message does.
  void check_bounds(const char* op) const {
    if (checked_numel(out_sizes, op) == 0) return;
    for (int64_t k = 0; k < count; ++k) {
      const int64_t size = src.size(indexed[k]);
      for (int64_t v : *lists[indexed[k]])
        STRIDED_CHECK(v >= -size && v < size, op, "index ", v, " is out of bounds for dimension ",
                      k, " with size ", size);
    }
  }
};

AdvancedIndex make_info(Tensor src, std::vector<const IndexList*> lists, const char* op) {
  // Broadcast the lists together (1-d lists: equal lengths, or length 1).
  std::vector<Shape> shapes;
  for (const IndexList* l : lists)
    if (l) shapes.push_back(Shape{static_cast<int64_t>(l->size())});
  Shape bshape;
  try {
    bshape = broadcast_shapes(shapes);
  } catch (const Error&) {
    std::string all;
    for (const Shape& s : shapes) all += (all.empty() ? "" : ", ") + to_string(s);
    throw Error(op, detail::concat("shape mismatch: indexing tensors could not be broadcast "
                                   "together with shapes ",
                                   all));
  }
  AdvancedIndex info;
  info.len = bshape[0];
  // hasContiguousSubspace / transposeToFront: indexed dims that are not adjacent move to the
  // front, so the indexed result dim comes first.
  const int64_t ndim = src.dim();
  STRIDED_CHECK(static_cast<int64_t>(lists.size()) <= ndim, op,
                "too many indices for tensor "
                "of dimension ",
                ndim);
  lists.resize(static_cast<size_t>(ndim), nullptr);
  std::vector<int64_t> indexed;
  for (int64_t d = 0; d < ndim; ++d)
    if (lists[d]) indexed.push_back(d);
  if (indexed.back() - indexed.front() + 1 != static_cast<int64_t>(indexed.size())) {
    Shape order(indexed.begin(), indexed.end());
    std::vector<const IndexList*> moved;
    for (int64_t d : indexed) moved.push_back(lists[d]);
    for (int64_t d = 0; d < ndim; ++d) {
      if (lists[d]) continue;
      order.push_back(d);
      moved.push_back(nullptr);
    }
    src = src.permute(order);
    lists = moved;
    indexed.clear();
    for (int64_t d = 0; d < ndim; ++d)
      if (lists[d]) indexed.push_back(d);
  }
  info.before = indexed.front();
  info.count = static_cast<int64_t>(indexed.size());
  // AdvancedIndex: an empty indexed dim can only be indexed by an empty list.
  for (int64_t d : indexed)
    STRIDED_CHECK(src.size(d) != 0 || info.len == 0, op,
                  "index is out of bounds for dimension with size 0");
  // restride_src: the result's shape, and src's strides over it.
  const auto first = src.sizes().begin() + info.before, last = first + info.count;
  info.out_sizes.assign(src.sizes().begin(), first);
  info.out_sizes.push_back(info.len);
  info.out_sizes.insert(info.out_sizes.end(), last, src.sizes().end());
  const auto sfirst = src.strides().begin() + info.before, slast = sfirst + info.count;
  info.src_strides.assign(src.strides().begin(), sfirst);
  info.src_strides.push_back(0);
  info.src_strides.insert(info.src_strides.end(), slast, src.strides().end());
  info.src = std::move(src);
  info.lists = std::move(lists);
  info.indexed = std::move(indexed);
  return info;
}

// ---- advanced indexing: the plan's operands ----------------------------------------------------
// The kernels are real-only, and the index kernel moves elements as they are: a complex tensor
// takes part in the plan as a float64 tensor of its layout (sizes, strides and offset in
// elements), so that the plan orders, coalesces and lays out the result as it would the complex
// tensor, and its bytes move as they are (a conjugate bit is the callers'). A complex64 element is
// float64's width; a complex128 one twice that, so once the plan is built its operands' byte
// strides are doubled and their start moved to the tensor's first element (widen_complex128).
Tensor plan_operand(const Tensor& t) {
  if (!is_complex(t.dtype())) return t;
  return Tensor(t.storage(), t.sizes(), t.strides(), t.storage_offset(), DType::Float64);
}

void widen_complex128(TensorIterator& it, int k, const Tensor& t) {
  if (t.dtype() != DType::Complex128) return;
  Shape strides = it.operand(k).stride_bytes;
  for (int64_t& s : strides) s *= 2;
  it.unsafe_set_arg_strides(k, std::move(strides));
  it.unsafe_replace_operand(k, t.data_ptr());
}

// restride_src: src over the result's dims, stride 0 along the indexed one.
Tensor restride_src(const AdvancedIndex& info) {
  return info.src.as_strided(info.out_sizes, info.src_strides);
}

// reshape_indexer: the list indexing dim d as a 1-d int64 tensor over the list's own memory
// (Storage::from_blob: neither copied nor counted as an allocation, and only read), expanded to
// the common length (stride 0 when its length is 1 and the common one is not), then viewed as
// [1]*before + [len] + [1]*after.
Tensor index_operand(const AdvancedIndex& info, int64_t d) {
  const IndexList& list = *info.lists[d];
  const int64_t own = static_cast<int64_t>(list.size());
  Shape sizes(static_cast<size_t>(info.before), 1);
  sizes.push_back(info.len);
  const int64_t after = static_cast<int64_t>(info.out_sizes.size()) - info.before - 1;
  sizes.insert(sizes.end(), static_cast<size_t>(after), 1);
  const int64_t stride = own == info.len ? 1 : 0;
  const Storage blob = Storage::from_blob(const_cast<int64_t*>(list.data()),
                                          own * static_cast<int64_t>(sizeof(int64_t)));
  return Tensor(blob, sizes, *compute_view_strides(Layout({info.len}, {stride}), sizes), 0, DType::Int64);
}

// ---- advanced indexing: one gather ------------------------------------------------------------
Tensor advanced_index(Tensor src, std::vector<const IndexList*> lists) {
  const AdvancedIndex info = make_info(std::move(src), std::move(lists), "index()");
  info.check_bounds("index()");
  // make_index_iterator: the plan allocates the result, laid out as any element-wise op's output
  // over these operands.
  const Tensor restrided = restride_src(info);
  TensorIteratorConfig config;
  config.set_op_name("index")
      .set_check_mem_overlap(false)
      .check_all_same_dtype(false)
      .declare_static_dtype(info.src.dtype())
      .add_output(Tensor())
      .add_input(plan_operand(restrided));
  for (int64_t d : info.indexed) config.add_input(index_operand(info, d));
  TensorIterator it = config.build();
  const Tensor out = it.output();
  if (out.numel() == 0) return out;
  widen_complex128(it, 1, restrided);
  index_kernel(it, out.element_size(), info.index_sizes(), info.index_strides());
  return out;
}

}  // namespace

Tensor Tensor::index(std::initializer_list<TensorIndex> indices) const {
  return index(std::vector<TensorIndex>(indices));
}

namespace {
// The views index() takes (select, slice, unsqueeze) raise in their own names; the caller wrote
// index, so their errors are renamed for it.
template <class F>
Tensor in_index(F&& view) {
  try {
    return view();
  } catch (const Error& e) {
    // A view op's own refusal ("select()", "slice()", "unsqueeze()"), not a deeper one.
    const std::string& op = e.op();
    if (op.size() < 2 || op.compare(op.size() - 2, 2, "()") != 0) throw;
    throw e.renamed("index()");
  }
}
}  // namespace

Tensor Tensor::index(const std::vector<TensorIndex>& indices) const {
  STRIDED_CHECK(defined(), "index()", "the tensor is undefined (default-constructed)");
  // count_specified_dimensions: integers, slices and lists each consume a dim.
  int64_t specified = 0;
  for (const TensorIndex& i : indices)
    if (!std::holds_alternative<NoneType>(i) && !std::holds_alternative<EllipsisType>(i))
      ++specified;
  STRIDED_CHECK(specified <= dim(), "index()", "too many indices for tensor of dimension ", dim(),
                " (", specified, " given)");
  Tensor result = *this;
  int64_t d = 0;  // the dim of result the next entry applies to
  std::vector<const IndexList*> lists;
  for (size_t pos = 0; pos < indices.size(); ++pos) {
    const TensorIndex& entry = indices[pos];
    // Each ... stands for the dims no entry names, so a second ... (which PyTorch 1.13 also
    // expands) can move the next entry past the last dim. PyTorch's messages for that case,
    // named for index.
    if (d >= result.dim() && !std::holds_alternative<EllipsisType>(entry)) {
      if (const int64_t* i = std::get_if<int64_t>(&entry))
        STRIDED_CHECK(false, "index()", "index ", *i, " is out of bounds for dimension ", pos,
                      ": a second '...' moved it past the last of ", result.dim(), " dimensions");
      if (std::holds_alternative<IndexList>(entry))
        STRIDED_CHECK(false, "index()", "too many indices for tensor of dimension ", result.dim(),
                      " (got ", d + 1, ")");
      const int64_t n = result.dim() + (std::holds_alternative<NoneType>(entry) ? 1 : 0);
      STRIDED_CHECK(d < n, "index()", "Dimension out of range (expected to be in range of [", -n,
                    ", ", n - 1, "], but got ", d, ")");
    }
    if (const int64_t* i = std::get_if<int64_t>(&entry)) {
      // applySelect: bounds are reported against the entry's position in the index.
      STRIDED_CHECK(result.dim() > 0, "index()",
                    "invalid index of a 0-dim tensor. Use "
                    "`tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim "
                    "tensor to a number");
      const int64_t size = result.size(d);
      STRIDED_CHECK(*i >= -size && *i < size, "index()", "index ", *i,
                    " is out of bounds for dimension ", pos, " with size ", size);
      result = in_index([&] { return result.select(d, *i); });
    } else if (const Slice* s = std::get_if<Slice>(&entry)) {
      // at::indexing::Slice and applySlice: a zero step and a negative step are refused.
      STRIDED_CHECK(s->step != 0, "index()", "slice step cannot be zero");
      STRIDED_CHECK(s->step > 0, "index()", "step must be greater than zero, got ", s->step,
                    " (negative strides are not supported; use flip)");
      result = in_index([&] { return result.slice(d, s->start, s->stop, s->step); });
      ++d;
    } else if (std::holds_alternative<EllipsisType>(entry)) {
      d += dim() - specified;
    } else if (std::holds_alternative<NoneType>(entry)) {
      result = in_index([&] { return result.unsqueeze(d); });
      ++d;
    } else {
      // recordTensorIndex: remember the list for result's dim d.
      lists.resize(static_cast<size_t>(d) + 1, nullptr);
      lists[d] = &std::get<IndexList>(entry);
      ++d;
    }
  }
  if (lists.empty()) return result;
  check_cpu(result, "index()");
  // index is no view op, so PyTorch's conjugate fallback resolves the bit of its input first:
  // the gathered elements hold the conjugated values, and the result carries no bit.
  if (result.is_conj()) {
    Tensor gathered = advanced_index(result, lists);  // the stored bytes, not yet conjugated
    gathered.set_conj(true);
    return gathered.resolve_conj();
  }
  return advanced_index(result, lists);
}

Tensor& Tensor::index_put_(const std::vector<std::vector<int64_t>>& indices, const Tensor& values,
                           bool accumulate) {
  // _index_put_impl_ (TensorAdvancedIndexing.cpp), in its order: the number of indices, the
  // overlap of values with self, make_info, make_index_put_iterator's shape and dtype checks, then
  // the index_put kernel (IndexKernel.cpp, cpu_index_kernel), which checks each index as it reads
  // it. PyTorch only warns when self is expanded (a deprecated use); the writes then go to the
  // same cells, the last one winning, as here. Every index is checked before the first write, so
  // a refused call writes nothing (PyTorch's kernel checks as it goes and leaves the writes made
  // before the bad index).
  constexpr const char* op = "index_put_()";
  STRIDED_CHECK(defined() && values.defined(), "index_put_()",
                "the tensor or the values are undefined (default-constructed)");
  STRIDED_CHECK(static_cast<int64_t>(indices.size()) <= dim(), "index_put_()",
                "too many indices for tensor of dimension ", dim(), " (got ", indices.size(), ")");
  // PyTorch 1.13 fails on an empty tuple of indices with this internal error.
  STRIDED_CHECK(!indices.empty(), "index_put_()", "strides() called on an undefined Tensor");
  check_cpu(*this, "index_put_()");
  check_cpu(values, "index_put_()");
  // assert_no_overlap: values may not share a cell with self (Full or Partial).
  const MemOverlapStatus overlap = get_overlap_status(*this, values);
  STRIDED_CHECK(overlap != MemOverlapStatus::Full && overlap != MemOverlapStatus::Partial,
                "index_put_()",
                "unsupported operation: some elements of the input tensor and the "
                "written-to tensor refer to a single memory location. Please clone() the tensor "
                "before performing the operation.");
  std::vector<const IndexList*> lists;
  for (const IndexList& l : indices) lists.push_back(&l);
  const AdvancedIndex info = make_info(*this, lists, op);
  Shape shape;
  try {
    shape = broadcast_shapes(values.sizes(), info.out_sizes);
  } catch (const Error&) {
  }
  STRIDED_CHECK(shape == info.out_sizes, "index_put_()", "shape mismatch: value tensor of shape ",
                to_string(values.sizes()), " cannot be broadcast to indexing result of shape ",
                to_string(info.out_sizes));
  STRIDED_CHECK(values.dtype() == dtype_, "index_put_()",
                "Index put requires the source and destination dtypes match, got ",
                scalar_type_name(dtype_), " for the destination and ",
                scalar_type_name(values.dtype()), " for the source.");
  info.check_bounds(op);
  if (checked_numel(info.out_sizes, op) == 0) return *this;
  // Accumulating reads each element as a Scalar, which holds no complex value.
  if (accumulate && is_complex(dtype_)) refuse_complex("dispatch", dtype_);
  // make_index_put_iterator: self restrided is the plan's output, which values broadcast to.
  const Tensor restrided = restride_src(info);
  TensorIteratorConfig config;
  config.set_op_name("index_put_")
      .set_check_mem_overlap(false)
      .resize_outputs(false)
      .check_all_same_dtype(false)
      .add_output(plan_operand(restrided))
      .add_input(plan_operand(values));
  for (int64_t d : info.indexed) config.add_input(index_operand(info, d));
  TensorIterator it = config.build();
  widen_complex128(it, 0, restrided);
  widen_complex128(it, 1, values);
  index_put_kernel(it, element_size(), info.index_sizes(), info.index_strides(), accumulate);
  return *this;
}

Tensor Tensor::index_select(int64_t dim, IntList indices) const {
  // TensorAdvancedIndexing.cpp, index_select_out_cpu_: a contiguous result whose dim has
  // indices.size() entries; indices do not wrap (a negative index is out of range). A 0-d tensor
  // takes dim 0 or -1, indices that are all 0, and gives a 0-d copy.
  STRIDED_CHECK(defined(), "index_select()", "the tensor is undefined (default-constructed)");
  check_cpu(*this, "index_select()");
  const int64_t d = wrap_dim(dim, this->dim(), "index_select()");
  const int64_t size = this->dim() == 0 ? 1 : sizes()[d];
  for (int64_t i : indices)
    STRIDED_CHECK(i >= 0 && i < size, "index_select()", "index ", i,
                  " is out of bounds for dimension ", d, " with size ", size,
                  " (index_select takes no negative indices)");
  if (this->dim() == 0) {
    Tensor out = empty({}, {dtype_, device()});
    run_copy(copy_plan(out, *this));
    return out;
  }
  // One plan for the whole op, as index_select_out_cpu_ builds it: the copy of self's slice at
  // index 0 into the result's slice 0, walked once per index with both operands moved to the
  // slices at hand (unsafe_replace_operand).
  Shape out_sizes = sizes();
  out_sizes[d] = static_cast<int64_t>(indices.size());
  Tensor out = empty(out_sizes, {dtype_, device()});
  // Nothing to copy: also spares the offsets below an empty tensor's strides, which may be any.
  if (out.numel() == 0) return out;
  TensorIterator it = copy_plan(out.select(d, 0), select(d, 0));
  char* const out_base = static_cast<char*>(out.data_ptr());
  char* const self_base = static_cast<char*>(data_ptr());
  const int64_t out_step = out.stride(d) * out.element_size();
  for (size_t k = 0; k < indices.size(); ++k) {
    it.unsafe_replace_operand(0, out_base + static_cast<int64_t>(k) * out_step);
    // The element offset first: an index names an element that exists, so its offset fits, where
    // a stride times the element size alone may not.
    it.unsafe_replace_operand(1, self_base + indices[k] * strides()[d] * element_size());
    run_copy(it);
  }
  return out;
}

}  // namespace strided
