#include "bounded_ops.h"

#include <algorithm>
#include <climits>

#include "strided/layout/layout.h"
#include "strided/engine/matmul.h"

namespace strided::explore {

namespace {

// A new contiguous tensor of shape: PyTorch's own checks first (negative sizes, the storage size
// overflow computeStorageNbytesContiguous reports), so that a shape PyTorch refuses reads as
// PyTorch's error, then the charge.
void charge_new(IntList shape, DType dtype, const char* op, Meter& m, int64_t per_element) {
  contiguous_nbytes_needed(shape, itemsize(dtype), op);
  const int64_t n = checked_numel(shape, op);
  m.charge(op, "a tensor of shape " + to_string(shape),
           new_tensor_cost(n, static_cast<int64_t>(shape.size()), dtype, per_element));
}

}  // namespace

Tensor arange_shaped(IntList shape, DType dtype, const std::string& op, Meter& m) {
  // arange straight in the dtype when each value is exact there (int32, float32 and float64 hold
  // every integer below 2^24, the most a start tensor has); bool, which arange refuses, and the
  // 16-bit floats, which round, are made in int64 and converted, as .to() rounds: two tensors and
  // two passes.
  contiguous_nbytes_needed(shape, itemsize(dtype), op.c_str());
  const int64_t n = checked_numel(shape, op.c_str());
  // A complex start is arange as its real parts, 0 as its imaginary parts: made in int64 too.
  const bool convert = dtype == DType::Bool || dtype == DType::Float16 ||
                       dtype == DType::BFloat16 || is_complex(dtype);
  const Checked held = Checked(n) * (convert ? 2 : 1);
  const Checked work = Checked(n) * (convert ? 1 + element_work(DType::Int64, dtype) : 1) +
                       static_cast<int64_t>(shape.size());
  const Checked bytes = convert ? Checked(n) * (8 + itemsize(dtype)) : Checked(n) * itemsize(dtype);
  m.charge(op, "a tensor of shape " + to_string(shape),
           Cost{n, saturated(held), saturated(work), saturated(bytes)});
  if (!convert) return arange(0, n, 1, {dtype}).view(shape);
  return arange(0, n, 1, {DType::Int64}).to(dtype).view(shape);
}

Tensor bounded_arange(int64_t start, int64_t end, int64_t step, DType dtype, Meter& m) {
  // The arguments PyTorch refuses are refused by arange itself, before it allocates anything.
  if (dtype == DType::Bool || step == 0 || (step > 0 && end < start) || (step < 0 && end > start))
    return arange(start, end, step, {dtype});
  // The number of values, computed without overflow: ceil((end - start) / step).
  const __int128 span = static_cast<__int128>(end) - start;
  __int128 count = span / step;
  if (span % step != 0) ++count;
  const int64_t n = count > INT64_MAX ? INT64_MAX : static_cast<int64_t>(count);
  m.charge("arange",
           "arange(" + std::to_string(start) + ", " + std::to_string(end) + ", " +
               std::to_string(step) + ")",
           new_tensor_cost(n, 1, dtype, element_work(dtype, dtype)));
  return arange(start, end, step, {dtype});
}

Tensor bounded_arange(const Scalar& start, const Scalar& end, const Scalar& step, DType dtype,
                      Meter& m) {
  // The count, with arange's own refusals, before the budget is charged for it.
  const int64_t n = arange_numel(start, end, step, dtype);
  m.charge("arange",
           "arange(" + start.to_string() + ", " + end.to_string() + ", " + step.to_string() + ")",
           new_tensor_cost(n, 1, dtype, element_work(dtype, dtype)));
  return arange(start, end, step, {dtype});
}

Tensor bounded_full(IntList shape, const Scalar& value, DType dtype, const char* op, Meter& m) {
  charge_new(shape, dtype, op, m, 1);
  return full(shape, value, {dtype});
}

Tensor bounded_empty(IntList shape, DType dtype, Meter& m) {
  charge_new(shape, dtype, "empty", m, 1);
  Tensor t = empty(shape, {dtype});
  std::fill_n(static_cast<char*>(t.storage().data()), t.storage().nbytes(), 0);
  return t;
}

Tensor bounded_empty_strided(IntList shape, IntList strides, DType dtype, const char* op,
                             Meter& m) {
  // empty_strided's own checks (lengths, signs, the storage's byte count, numel), then the
  // charge for its storage, which the explorer zero-fills: 1 + sum (size-1) * stride elements,
  // far more than numel when the strides leave gaps.
  STRIDED_CHECK(shape.size() == strides.size(), op, "mismatch in length of strides (",
                strides.size(), ") and shape (", shape.size(), ")");
  for (int64_t s : shape)
    STRIDED_CHECK(s >= 0, op, "negative dimension ", s, " in size ", to_string(shape));
  for (int64_t s : strides)
    STRIDED_CHECK(s >= 0, op, "negative strides are not supported, got strides ",
                  to_string(strides));
  const int64_t item = itemsize(dtype);
  const int64_t storage =
      storage_nbytes_needed(Layout(shape.vec(), strides.vec()), item, op) / item;
  checked_numel(shape, op);
  m.charge(op, "the storage of " + layout_string(shape, strides),
           new_tensor_cost(storage, static_cast<int64_t>(shape.size()), dtype, 1));
  Tensor t = empty_strided(shape, strides, {dtype});
  std::fill_n(static_cast<char*>(t.storage().data()), t.storage().nbytes(), 0);
  return t;
}

Tensor bounded_rand(IntList shape, uint64_t seed, DType dtype, bool normal, Meter& m) {
  const char* op = normal ? "randn" : "rand";
  STRIDED_CHECK(is_floating_point(dtype), op, "\"", normal ? "normal" : "uniform",
                "\" is only defined for floating point dtypes, got ", name(dtype));
  // A draw per element, converted: randn's (a logarithm and a cosine) costs twice rand's.
  charge_new(shape, dtype, op, m, element_work(DType::Float64, dtype) * (normal ? 2 : 1));
  Generator gen(seed);
  return normal ? randn(shape, gen, {dtype}) : rand(shape, gen, {dtype});
}

Tensor bounded_from_values(const std::vector<Scalar>& values, IntList shape, DType dtype,
                           Meter& m) {
  charge_new(shape, dtype, "tensor", m, 1);
  return from_scalars(values, shape, {dtype}, "tensor()");
}

Tensor bounded_reshape(const Tensor& t, IntList shape, Meter& m) {
  const Shape target = infer_size(shape, t.numel(), "reshape()");
  if (compute_view_strides(t.layout(), target))
    m.charge("reshape", "a view of " + to_string(t.layout()), view_cost(t));
  else
    m.charge("reshape", "the copy of " + to_string(t.layout()), copy_cost(t, t.dtype()));
  return t.reshape(shape);
}

Tensor bounded_flatten(const Tensor& t, int64_t start_dim, int64_t end_dim, Meter& m) {
  // flatten copies only through reshape, when the dims it merges cannot merge in place. Bad dims
  // and a merged size past int64 are refused by flatten itself.
  bool copies = false;
  if (t.dim() > 0) {
    const int64_t s = wrap_dim(start_dim, t.dim(), "flatten()");
    const int64_t e = wrap_dim(end_dim, t.dim(), "flatten()");
    if (s < e) {
      Shape shape(t.sizes().begin(), t.sizes().begin() + s);
      Checked merged = 1;
      for (int64_t d = s; d <= e; ++d) merged *= t.sizes()[d];
      if (!merged.overflowed()) {
        shape.push_back(merged.value());
        shape.insert(shape.end(), t.sizes().begin() + e + 1, t.sizes().end());
        copies = !compute_view_strides(t.layout(), shape);
      }
    }
  }
  m.charge("flatten", (copies ? "the copy of " : "a view of ") + to_string(t.layout()),
           copies ? copy_cost(t, t.dtype()) : view_cost(t));
  return t.flatten(start_dim, end_dim);
}

Tensor bounded_contiguous(const Tensor& t, Meter& m) {
  const bool copies = !t.is_contiguous();
  m.charge("contiguous", (copies ? "the copy of " : "") + to_string(t.layout()),
           copies ? copy_cost(t, t.dtype()) : view_cost(t));
  return t.contiguous();
}

Tensor bounded_clone(const Tensor& t, Meter& m) {
  m.charge("clone", "the copy of " + to_string(t.layout()), copy_cost(t, t.dtype()));
  return t.clone();
}

Tensor bounded_resolve_conj(const Tensor& t, Meter& m) {
  if (t.is_conj())
    m.charge("resolve_conj", "the copy of " + to_string(t.layout()), copy_cost(t, t.dtype()));
  return t.resolve_conj();
}

void charge_conj_physical(const Tensor& t, Meter& m) {
  if (!is_complex(t.dtype())) return;
  // The copy, then its imaginary parts negated in place: twice the work of a copy.
  m.charge("conj_physical", "the copy of " + to_string(t.layout()), copy_cost(t, t.dtype()));
  m.charge("conj_physical", "the negated imaginary parts of " + to_string(t.layout()),
           copy_cost(t, real_value_type(t.dtype())));
  if (t.is_conj() || t.numel() == 0) return;
  const Extent e = extent(t.layout());
  m.charge("conj_physical", "the layout probe of " + to_string(t.layout()),
           new_tensor_cost(saturated(Checked(e.max) + 1 + t.numel()), t.dim(),
                           real_value_type(t.dtype()), 1));
}

Tensor bounded_conj_physical(const Tensor& t, Meter& m) {
  charge_conj_physical(t, m);
  return t.conj_physical();
}

Tensor bounded_flip(const Tensor& t, IntList dims, Meter& m) {
  m.charge("flip", "the copy of " + to_string(t.layout()), copy_cost(t, t.dtype()));
  return t.flip(dims);
}

Tensor bounded_to(const Tensor& t, DType dtype, Meter& m) {
  const bool copies = dtype != t.dtype();
  m.charge("to", (copies ? "the copy of " : "") + to_string(t.layout()),
           copies ? copy_cost(t, dtype) : view_cost(t));
  return t.to(dtype);
}

Tensor bounded_index(const Tensor& t, const std::vector<indexing::TensorIndex>& index, Meter& m) {
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
  if (!lists) {
    m.charge("index", "a view of " + to_string(t.layout()), view_cost(t));
    return t.index(index);
  }
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
  Checked elements = list_length;
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
      if (is_list[entry] && d >= 0 && d < view.dim()) listed[static_cast<size_t>(d)] = true;
      ++d;
    }
    ++entry;
  }
  for (int64_t k = 0; k < view.dim(); ++k)
    if (!listed[static_cast<size_t>(k)]) elements *= view.sizes()[k];
  const int64_t n = saturated(elements);
  m.charge(
      "index", "advanced indexing of " + to_string(t.layout()),
      Cost{n, n,
           saturated(Checked(n) * element_work(t.dtype(), t.dtype()) + Checked(t.dim()) * t.dim()),
           saturated(Checked(n) * t.element_size())});
  return t.index(index);
}

Tensor bounded_matmul(const Tensor& a, const Tensor& b, Meter& m) {
  m.charge("matmul", "the product of " + to_string(a.layout()) + " and " + to_string(b.layout()),
           matmul_cost(strided::matmul_cost(a, b), a.dtype()));
  return matmul(a, b);
}

namespace {
// An upper bound on the outputs the call makes, 0 when the library will refuse it: a dim of a
// huge expanded tensor (stride 0 costs nothing) could otherwise ask for 2^40 views.
int64_t outputs_at_most(const Tensor& t, const MultiOutputCall& c) {
  const int64_t ndim = t.dim();
  int64_t dim = c.dim;
  if (c.op == "hsplit") dim = ndim == 1 ? 0 : 1;
  if (c.op == "vsplit") dim = 0;
  if (c.op == "dsplit") dim = 2;
  if (ndim == 0 || dim < -ndim || dim >= ndim) return 0;
  const int64_t size = t.size(dim);
  if (c.has_sizes)
    return static_cast<int64_t>(c.sizes.size()) + (c.op == "split_with_sizes" ? 0 : 1);
  if (c.op == "unbind") return size;
  if (c.op == "split") return c.n <= 0 || size == 0 ? 1 : (size - 1) / c.n + 1;
  if (c.op == "chunk") return c.n <= 0 ? 0 : size == 0 ? c.n : std::min(c.n, size);
  return std::max<int64_t>(c.n, 0);  // tensor_split, hsplit, vsplit, dsplit: sections
}

std::vector<Tensor> run_multi(const Tensor& t, const MultiOutputCall& c) {
  if (c.op == "split") return c.has_sizes ? t.split_with_sizes(c.sizes, c.dim) : t.split(c.n, c.dim);
  if (c.op == "split_with_sizes") return t.split_with_sizes(c.sizes, c.dim);
  if (c.op == "chunk") return t.chunk(c.n, c.dim);
  if (c.op == "unbind") return t.unbind(c.dim);
  if (c.op == "tensor_split")
    return c.has_sizes ? t.tensor_split(IntList(c.sizes), c.dim) : t.tensor_split(c.n, c.dim);
  if (c.op == "hsplit") return c.has_sizes ? t.hsplit(IntList(c.sizes)) : t.hsplit(c.n);
  if (c.op == "vsplit") return c.has_sizes ? t.vsplit(IntList(c.sizes)) : t.vsplit(c.n);
  if (c.op == "dsplit") return c.has_sizes ? t.dsplit(IntList(c.sizes)) : t.dsplit(c.n);
  throw InternalError("internal error: " + c.op + " is not an op with several outputs");
}
}  // namespace

bool is_multi_output(const std::string& op) {
  return op == "split" || op == "split_with_sizes" || op == "chunk" || op == "unbind" ||
         op == "tensor_split" || op == "hsplit" || op == "vsplit" || op == "dsplit";
}

Tensor bounded_pick(const Tensor& t, const MultiOutputCall& call, Meter& m) {
  // Each output is a tensor object with its own sizes and strides on the heap, some hundred bytes
  // and three allocations: weighed as 128 units of work plus its dims, the work budget holds the
  // outputs of one request to half a million, some tens of megabytes.
  constexpr int64_t kPerOutput = 128;
  Cost cost = view_cost(t);
  cost.work = saturated((Checked(cost.work) + kPerOutput) *
                        std::max<int64_t>(outputs_at_most(t, call), 1));
  m.charge(call.op, "its views of " + to_string(t.layout()), cost);
  const std::vector<Tensor> outputs = run_multi(t, call);
  const int64_t n = static_cast<int64_t>(outputs.size());
  STRIDED_CHECK(call.index >= -n && call.index < n, "", "tuple index out of range");
  return outputs[static_cast<size_t>(call.index < 0 ? call.index + n : call.index)];
}

Tensor explained_view(const Tensor& t, IntList shape) {
  try {
    return t.view(shape);
  } catch (const Error& e) {
    if (std::optional<LayoutRefusal> why = view_refusal(t.layout(), shape))
      throw ExplainedError(e, std::move(*why));
    throw;
  }
}

Tensor explained_expand(const Tensor& t, IntList shape, bool broadcast_to) {
  try {
    return broadcast_to ? t.broadcast_to(shape) : t.expand(shape);
  } catch (const Error& e) {
    if (std::optional<LayoutRefusal> why = expand_refusal(t.layout(), shape))
      throw ExplainedError(e, std::move(*why));
    throw;
  }
}

std::optional<LayoutRefusal> explanation_of(const Error& e) {
  if (const auto* explained = dynamic_cast<const ExplainedError*>(&e)) return explained->why();
  return std::nullopt;
}

}  // namespace strided::explore
