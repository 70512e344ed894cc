// t.index({...}): Python's indexing, as PyTorch's C++ frontend does it
// (aten/src/ATen/TensorIndexing.h, applySlicing; torch/csrc/autograd/python_variable_indexing.cpp).
// Integers, slices, None and Ellipsis are basic indexing and give a view; lists of integers are
// advanced indexing and give a copy (claims IX-08, IX-09), laid out as PyTorch's index kernel lays
// out its output (aten/src/ATen/native/TensorAdvancedIndexing.cpp, AdvancedIndex; the output
// strides of aten/src/ATen/TensorIterator.cpp).
#include <algorithm>
#include <cstring>
#include <numeric>

#include "strided/engine/iterator.h"
#include "strided/layout/layout.h"
#include "strided/layout/memory_format.h"
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

// ---- the output layout of an elementwise op over several operands ------------------------------
// NOTE: [Computing output strides] in TensorIterator.cpp, reduced to what the index kernel needs:
// every operand has the output's rank, and a size-1 dim that the output broadcasts counts as
// stride 0. The rules are the ones TensorIterator's build calls: shared_output_strides (the fast
// set-up), walk_order and walk_output_strides; this function only feeds them the index kernel's
// operands, which are not tensors.
struct Operand {
  Shape sizes, strides;
};

Shape iterator_output_strides(IntList shape, const std::vector<Operand>& ops) {
  const size_t n = shape.size();
  const bool same_shape = std::all_of(ops.begin(), ops.end(), [&](const Operand& o) {
    return std::equal(o.sizes.begin(), o.sizes.end(), shape.begin(), shape.end());
  });
  if (same_shape) {  // compute_fast_setup_type
    std::vector<Shape> strides;
    for (const Operand& o : ops) strides.push_back(o.strides);
    if (std::optional<Shape> shared = shared_output_strides(shape, strides)) return *shared;
  }
  // compute_strides: a dim an operand broadcasts has stride 0 for it.
  std::vector<Shape> strides;
  for (const Operand& o : ops) {
    Shape s(n);
    for (size_t d = 0; d < n; ++d) s[d] = (o.sizes[d] == 1 && shape[d] != 1) ? 0 : o.strides[d];
    strides.push_back(std::move(s));
  }
  // reorder_dimensions, then allocate_or_resize_outputs.
  return walk_output_strides(shape, walk_order(shape, strides));
}

// ---- advanced indexing: the index kernel's operands -------------------------------------------
// make_info (TensorAdvancedIndexing.cpp, AdvancedIndex): what index() reads and index_put_ writes,
// for src already basic-indexed and lists[d] the list indexing dim d of src, if any. The result of
// index() has out_sizes; an element at `index` of it is src's element at offset
// src.storage_offset() + (its offset along src_strides) + offset_of_lists(index).
struct AdvancedIndex {
  Tensor src;                          // permuted so that the indexed dims are adjacent
  std::vector<const IndexList*> lists;  // one per dim of src, null where none
  std::vector<int64_t> indexed;         // the indexed dims of src, in order
  int64_t before = 0, count = 0, len = 0;
  Shape out_sizes;    // src's dims before the indexed ones, len, src's dims after them
  Shape src_strides;  // src's strides over out_sizes' dims, 0 on the indexed one

  // The storage offset the lists add for the result's index (each value wrapped when negative).
  int64_t offset_of_lists(const int64_t* index) const {
    int64_t off = 0;
    for (int64_t k = 0; k < count; ++k) {
      const IndexList& l = *lists[indexed[k]];
      int64_t v = l.size() == 1 ? l[0] : l[index[before]];
      if (v < 0) v += src.size(indexed[k]);
      off += v * src.stride(indexed[k]);
    }
    return off;
  }

  // The index kernel's bounds check, made as it reads each index: never when the result is empty.
  // "dimension" counts the lists, as PyTorch's message does.
  void check_bounds(const char* op) const {
    if (checked_numel(out_sizes, op) == 0) return;
    for (int64_t k = 0; k < count; ++k) {
      const int64_t size = src.size(indexed[k]);
      for (int64_t v : *lists[indexed[k]])
        STRIDED_CHECK(v >= -size && v < size, op, ": index ", v,
                      " is out of bounds for dimension ", k, " with size ", size);
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
    throw Error(detail::concat(op,
                               ": shape mismatch: indexing tensors could not be broadcast "
                               "together with shapes ",
                               all));
  }
  AdvancedIndex info;
  info.len = bshape[0];
  // hasContiguousSubspace / transposeToFront: indexed dims that are not adjacent move to the
  // front, so the indexed result dim comes first.
  const int64_t ndim = src.dim();
  STRIDED_CHECK(static_cast<int64_t>(lists.size()) <= ndim, op,
                ": too many indices for tensor "
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
                  ": index is out of bounds for dimension with size 0");
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

// ---- advanced indexing: one gather ------------------------------------------------------------
Tensor advanced_index(Tensor src, std::vector<const IndexList*> lists) {
  const AdvancedIndex info = make_info(std::move(src), std::move(lists), "index()");
  const Shape& out_sizes = info.out_sizes;
  info.check_bounds("index()");
  // reshape_indexer: the operands the kernel iterates, all of the output's shape.
  std::vector<Operand> ops = {{out_sizes, info.src_strides}};
  const int64_t after = static_cast<int64_t>(out_sizes.size()) - info.before - 1;
  for (int64_t d : info.indexed) {
    // A list is a contiguous 1-d int64 tensor, expanded to the common length (stride 0 when its
    // length is 1 and the common one is not), then reshaped to [1]*before + [len] + [1]*after.
    const int64_t own = static_cast<int64_t>(info.lists[d]->size());
    Shape sizes(static_cast<size_t>(info.before), 1);
    sizes.push_back(info.len);
    sizes.insert(sizes.end(), static_cast<size_t>(after), 1);
    const int64_t stride = own == info.len ? 1 : 0;
    ops.push_back({sizes, *compute_view_strides(Layout({info.len}, {stride}), sizes)});
  }
  const Tensor& in_tensor = info.src;
  const Shape out_strides = iterator_output_strides(out_sizes, ops);
  Tensor out = empty_strided(out_sizes, out_strides, {in_tensor.dtype(), in_tensor.device()});
  const int64_t n = out.numel();
  if (n == 0) return out;
  // Gather, one element at a time: dims before and after the indexed ones address src directly;
  // the indexed dim adds each list's value (wrapped) times its dim's stride.
  const int64_t item = in_tensor.element_size();
  const char* in = static_cast<const char*>(in_tensor.storage().data());
  char* dst = static_cast<char*>(out.storage().data());
  // The layout algebra's odometer over the result's index, with the result's offset and src's
  // (its strides over the result's dims, 0 on the indexed one) beside it.
  for_each_index(out_sizes, {out_strides, info.src_strides}, 0, n,
                 [&](const int64_t* index, const int64_t* off) {
                   const int64_t so =
                       in_tensor.storage_offset() + off[1] + info.offset_of_lists(index);
                   std::memcpy(dst + (out.storage_offset() + off[0]) * item, in + so * item,
                               static_cast<size_t>(item));
                 });
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
    const std::string message = e.what();
    const size_t colon = message.find("(): ");
    if (colon == std::string::npos || colon > 16) throw;
    throw Error("index(): " + message.substr(colon + 4));
  }
}
}  // namespace

Tensor Tensor::index(const std::vector<TensorIndex>& indices) const {
  STRIDED_CHECK(defined(), "index(): the tensor is undefined (default-constructed)");
  // count_specified_dimensions: integers, slices and lists each consume a dim.
  int64_t specified = 0;
  for (const TensorIndex& i : indices)
    if (!std::holds_alternative<NoneType>(i) && !std::holds_alternative<EllipsisType>(i))
      ++specified;
  STRIDED_CHECK(specified <= dim(), "index(): too many indices for tensor of dimension ", dim(),
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
        STRIDED_CHECK(false, "index(): index ", *i, " is out of bounds for dimension ", pos,
                      ": a second '...' moved it past the last of ", result.dim(), " dimensions");
      if (std::holds_alternative<IndexList>(entry))
        STRIDED_CHECK(false, "index(): too many indices for tensor of dimension ", result.dim(),
                      " (got ", d + 1, ")");
      const int64_t n = result.dim() + (std::holds_alternative<NoneType>(entry) ? 1 : 0);
      STRIDED_CHECK(d < n, "index(): Dimension out of range (expected to be in range of [", -n,
                    ", ", n - 1, "], but got ", d, ")");
    }
    if (const int64_t* i = std::get_if<int64_t>(&entry)) {
      // applySelect: bounds are reported against the entry's position in the index.
      STRIDED_CHECK(result.dim() > 0,
                    "index(): invalid index of a 0-dim tensor. Use "
                    "`tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim "
                    "tensor to a number");
      const int64_t size = result.size(d);
      STRIDED_CHECK(*i >= -size && *i < size, "index(): index ", *i,
                    " is out of bounds for dimension ", pos, " with size ", size);
      result = in_index([&] { return result.select(d, *i); });
    } else if (const Slice* s = std::get_if<Slice>(&entry)) {
      // at::indexing::Slice and applySlice: a zero step and a negative step are refused.
      STRIDED_CHECK(s->step != 0, "index(): slice step cannot be zero");
      STRIDED_CHECK(s->step > 0, "index(): step must be greater than zero, got ", s->step,
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
  STRIDED_CHECK(result.device().is_cpu(),
                "index(): advanced indexing is only supported on the "
                "CPU for now, got a tensor on ",
                result.device().str());
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
  STRIDED_CHECK(defined() && values.defined(),
                "index_put_(): the tensor or the values are undefined (default-constructed)");
  STRIDED_CHECK(static_cast<int64_t>(indices.size()) <= dim(),
                "index_put_(): too many indices for tensor of dimension ", dim(), " (got ",
                indices.size(), ")");
  // PyTorch 1.13 fails on an empty tuple of indices with this internal error.
  STRIDED_CHECK(!indices.empty(), "index_put_(): strides() called on an undefined Tensor");
  STRIDED_CHECK(device().is_cpu() && values.device().is_cpu(),
                "index_put_(): advanced indexing is only supported on the CPU for now, got a "
                "tensor on ",
                (device().is_cpu() ? values : *this).device().str());
  // assert_no_overlap: values may not share a cell with self (Full or Partial).
  const MemOverlapStatus overlap = get_overlap_status(*this, values);
  STRIDED_CHECK(overlap != MemOverlapStatus::Full && overlap != MemOverlapStatus::Partial,
                "index_put_(): unsupported operation: some elements of the input tensor and the "
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
  STRIDED_CHECK(shape == info.out_sizes, "index_put_(): shape mismatch: value tensor of shape ",
                to_string(values.sizes()), " cannot be broadcast to indexing result of shape ",
                to_string(info.out_sizes));
  STRIDED_CHECK(values.dtype() == dtype_,
                "index_put_(): Index put requires the source and destination dtypes match, got ",
                scalar_type_name(dtype_), " for the destination and ",
                scalar_type_name(values.dtype()), " for the source.");
  info.check_bounds(op);
  const Tensor from = values.expand(info.out_sizes);
  const int64_t n = checked_numel(info.out_sizes, op);
  if (n == 0) return *this;
  // Scatter, one element at a time and in order, so that a repeated index writes last (or, with
  // accumulate, adds every value: PyTorch runs the kernel serially then).
  const int64_t item = element_size();
  char* out = static_cast<char*>(storage().data());
  const char* in = static_cast<const char*>(from.storage().data());
  for_each_index(info.out_sizes, {info.src_strides, from.strides()}, 0, n,
                 [&](const int64_t* index, const int64_t* off) {
                   char* dst =
                       out + (info.src.storage_offset() + off[0] + info.offset_of_lists(index)) *
                                 item;
                   const char* src = in + (from.storage_offset() + off[1]) * item;
                   if (!accumulate) {
                     std::memcpy(dst, src, static_cast<size_t>(item));
                     return;
                   }
                   const Scalar a = load_scalar(dst, dtype_), b = load_scalar(src, dtype_);
                   store_scalar(dst, dtype_,
                                dtype_ == DType::Bool ? Scalar(a.to_int() != 0 || b.to_int() != 0)
                                : is_floating_point(dtype_) ? Scalar(a.to_double() + b.to_double())
                                                            : Scalar(a.to_int() + b.to_int()));
                 });
  return *this;
}

Tensor Tensor::index_select(int64_t dim, IntList indices) const {
  // TensorAdvancedIndexing.cpp, index_select_out_cpu_: a contiguous result whose dim has
  // indices.size() entries; indices do not wrap (a negative index is out of range). A 0-d tensor
  // takes dim 0 or -1, indices that are all 0, and gives a 0-d copy.
  STRIDED_CHECK(defined(), "index_select(): the tensor is undefined (default-constructed)");
  STRIDED_CHECK(device().is_cpu(), "index_select(): only CPU tensors are supported here, got a "
                "tensor on ", device().str(), "; copy it to the CPU first");
  const int64_t d = wrap_dim(dim, this->dim(), "index_select()");
  const int64_t size = this->dim() == 0 ? 1 : sizes()[d];
  for (int64_t i : indices)
    STRIDED_CHECK(i >= 0 && i < size, "index_select(): index ", i,
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
