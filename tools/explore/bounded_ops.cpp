#include "bounded_ops.h"

#include <algorithm>
#include <limits>

#include "strided/layout.h"

namespace strided::explore {

void check_allocation(int64_t elements, const std::string& op, const std::string& what) {
  STRIDED_CHECK(elements <= kMaxElements, op, ": ", what, " needs ", elements,
                " elements; strided-explore allocates at most ", kMaxElements,
                " (2^24) per tensor");
}

namespace {
// A count as int64 for messages, saturated (a count past int64 is certainly over the bound).
int64_t saturate(__int128 n) {
  constexpr __int128 kMax = std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(n > kMax ? kMax : n);
}

int64_t numel_of(IntList shape, const char* op) {
  const int64_t n = checked_numel(shape, op);  // negative sizes and overflow are errors
  check_allocation(n, op, "a tensor of shape " + to_string(shape));
  return n;
}
}  // namespace

Tensor arange_shaped(IntList shape, DType dtype, const std::string& op) {
  const int64_t n = numel_of(shape, op.c_str());
  Tensor flat = arange(0, n, 1, {DType::Int64});
  if (dtype != DType::Int64) flat = flat.to(dtype);
  return flat.view(shape);
}

Tensor bounded_arange(int64_t start, int64_t end, int64_t step, DType dtype) {
  STRIDED_CHECK(step != 0, "arange: step must be nonzero");
  // The number of values, computed without overflow: ceil((end - start) / step), at least 0.
  const __int128 span = static_cast<__int128>(end) - start;
  __int128 count = span / step;
  if (span % step != 0 && ((span > 0) == (step > 0))) ++count;
  if (count < 0) count = 0;
  check_allocation(saturate(count), "arange",
                   "arange(" + std::to_string(start) + ", " + std::to_string(end) + ", " +
                       std::to_string(step) + ")");
  return arange(start, end, step, {dtype});
}

Tensor bounded_full(IntList shape, const Scalar& value, DType dtype, const char* op) {
  numel_of(shape, op);
  return full(shape, value, {dtype});
}

Tensor bounded_empty_strided(IntList shape, IntList strides, DType dtype) {
  STRIDED_CHECK(shape.size() == strides.size(), "empty_strided: mismatch in length of strides (",
                strides.size(), ") and shape (", shape.size(), ")");
  numel_of(shape, "empty_strided");
  // The storage spans 1 + sum (size-1) * stride elements; bound that too (stride 0 aside, it can
  // be far larger than numel).
  __int128 span = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) span = 0;
    STRIDED_CHECK(strides[i] >= 0, "empty_strided: negative strides are not supported, got "
                  "strides ", to_string(strides));
  }
  if (span != 0)
    for (size_t i = 0; i < shape.size(); ++i)
      span += static_cast<__int128>(shape[i] - 1) * strides[i];
  check_allocation(saturate(span),
                   "empty_strided", "the storage of " + layout_string(shape, strides));
  Tensor t = empty_strided(shape, strides, {dtype});
  std::fill_n(static_cast<char*>(t.storage().data()), t.storage().nbytes(), 0);
  return t;
}

Tensor bounded_rand(IntList shape, uint64_t seed, DType dtype, bool normal) {
  const char* op = normal ? "randn" : "rand";
  numel_of(shape, op);
  STRIDED_CHECK(is_floating_point(dtype), op, ": \"", normal ? "normal" : "uniform",
                "\" is only defined for floating point dtypes, got ", name(dtype));
  Generator gen(seed);
  return normal ? randn(shape, gen, {dtype}) : rand(shape, gen, {dtype});
}

Tensor bounded_from_values(const std::vector<Scalar>& values, IntList shape, DType dtype) {
  numel_of(shape, "tensor");
  return from_scalars(values, shape, {dtype}, "tensor()");
}

Tensor bounded_reshape(const Tensor& t, IntList shape) {
  const Shape target = infer_size(shape, t.numel(), "reshape()");
  if (!compute_view_strides(t.sizes(), t.strides(), target))
    check_allocation(t.numel(), "reshape", "the copy of " + t.layout());
  return t.reshape(shape);
}

Tensor bounded_flatten(const Tensor& t, int64_t start_dim, int64_t end_dim) {
  // flatten copies only through reshape, and reshape copies only what is not contiguous enough;
  // bounding by numel when the result would not be a view is exact enough (and never too loose).
  if (t.numel() > kMaxElements && t.dim() > 0) {
    const int64_t s = wrap_dim(start_dim, t.dim(), "flatten()");
    const int64_t e = wrap_dim(end_dim, t.dim(), "flatten()");
    if (s < e) {
      Shape shape(t.sizes().begin(), t.sizes().begin() + s);
      int64_t merged = 1;
      for (int64_t d = s; d <= e; ++d) merged *= t.sizes()[d];
      shape.push_back(merged);
      shape.insert(shape.end(), t.sizes().begin() + e + 1, t.sizes().end());
      if (!compute_view_strides(t.sizes(), t.strides(), shape))
        check_allocation(t.numel(), "flatten", "the copy of " + t.layout());
    }
  }
  return t.flatten(start_dim, end_dim);
}

Tensor bounded_contiguous(const Tensor& t) {
  if (!t.is_contiguous()) check_allocation(t.numel(), "contiguous", "the copy of " + t.layout());
  return t.contiguous();
}

Tensor bounded_clone(const Tensor& t) {
  check_allocation(t.numel(), "clone", "the copy of " + t.layout());
  return t.clone();
}

Tensor bounded_flip(const Tensor& t, IntList dims) {
  check_allocation(t.numel(), "flip", "the copy of " + t.layout());
  return t.flip(dims);
}

Tensor bounded_to(const Tensor& t, DType dtype) {
  if (dtype != t.dtype()) check_allocation(t.numel(), "to", "the copy of " + t.layout());
  return t.to(dtype);
}

Tensor bounded_index(const Tensor& t, const std::vector<indexing::TensorIndex>& index) {
  // Advanced indexing copies prod(dims not indexed by a list) * (the broadcast list length)
  // elements. Basic indexing alone allocates nothing.
  using indexing::TensorIndex;
  bool lists = false;
  int64_t list_length = 0;  // the longest list bounds the broadcast of all of them
  for (const TensorIndex& i : index)
    if (const auto* l = std::get_if<std::vector<int64_t>>(&i)) {
      lists = true;
      list_length = std::max<int64_t>(list_length, static_cast<int64_t>(l->size()));
    }
  if (!lists) return t.index(index);
  // The basic part of the index, with every list replaced by a full slice, tells the sizes the
  // lists then consume.
  std::vector<TensorIndex> basic;
  std::vector<bool> is_list;
  for (const TensorIndex& i : index) {
    const bool list = std::holds_alternative<std::vector<int64_t>>(i);
    basic.push_back(list ? TensorIndex(indexing::Slice()) : i);
    if (!std::holds_alternative<int64_t>(i)) is_list.push_back(list);  // entries that keep a dim
  }
  const Tensor view = t.index(basic);
  // Dims of view in order: an Ellipsis stands for several dims, none of them a list.
  __int128 elements = list_length;
  size_t entry = 0;
  int64_t d = 0;
  int64_t specified = 0;
  for (const TensorIndex& i : index)
    if (!std::holds_alternative<indexing::NoneType>(i) &&
        !std::holds_alternative<indexing::EllipsisType>(i))
      ++specified;
  std::vector<bool> listed(static_cast<size_t>(view.dim()), false);
  for (const TensorIndex& i : index) {
    if (std::holds_alternative<int64_t>(i)) continue;
    if (std::holds_alternative<indexing::EllipsisType>(i)) {
      d += t.dim() - specified;
    } else {
      if (is_list[entry] && d < view.dim()) listed[static_cast<size_t>(d)] = true;
      ++d;
    }
    ++entry;
  }
  for (int64_t k = 0; k < view.dim(); ++k)
    if (!listed[static_cast<size_t>(k)]) elements *= view.sizes()[k];
  check_allocation(saturate(elements),
                   "index", "advanced indexing of " + t.layout());
  return t.index(index);
}

}  // namespace strided::explore
