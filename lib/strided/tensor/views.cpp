// View ops: each is a pure metadata change over the same storage. The geometry lives in layout.h
// (pure functions, quoted by the chapters); these methods only check their arguments, wrap the
// geometry and share the storage, so no view allocates (claims VW-02, MT-12).
// Reference: aten/src/ATen/native/TensorShape.cpp (PyTorch 1.13).
#include <algorithm>
#include <numeric>

#include "strided/layout/layout.h"
#include "strided/tensor/promotion.h"
#include "strided/tensor/tensor.h"

namespace strided {

namespace {
void check_defined(const Tensor& t, const char* op) {
  STRIDED_CHECK(t.defined(), op, "the tensor is undefined (default-constructed)");
}

// Every view passes c10's numel check (checked_numel), as every PyTorch tensor does. Most view
// ops of PyTorch 1.13 end in as_strided (TensorShape.cpp: select, slice, diagonal, expand,
// permute, transpose, unsqueeze, squeeze, unfold), which refuses a negative stride: the strides
// they form wrap as int64 (slice's stride * step, diagonal's sum, unsqueeze's size * stride) and
// may come out negative on a dim that is never stepped. view, reshape and unflatten set their
// strides directly and take them as computed.
enum class Strides { Checked, AsComputed };
Tensor make_view(const Tensor& base, Layout layout, const char* op,
                 Strides check = Strides::Checked) {
  if (check == Strides::Checked)
    for (int64_t s : layout.strides())
      STRIDED_CHECK(s >= 0, op, "Negative strides are not supported at the moment, got strides: ",
                    to_string(layout.strides()));
  checked_numel(layout.sizes(), op);
  Tensor view(base.storage(), std::move(layout), base.dtype());
  view.set_conj(base.is_conj());  // a view of a conjugated tensor reads conjugated too
  return view;
}

// c10's maybe_wrap_dim with wrap_scalar = false: a 0-d tensor has no dim to name (unflatten).
int64_t wrap_dim_no_scalar(int64_t dim, int64_t ndim, const char* op) {
  STRIDED_CHECK(ndim > 0, op, "Dimension specified as ", dim, " but tensor has no dimensions");
  return wrap_dim(dim, ndim, op);
}
}  // namespace

Tensor Tensor::select(int64_t dim, int64_t index) const {
  check_defined(*this, "select()");
  return make_view(*this, select_geometry(layout_, dim, index), "select()");
}

Tensor Tensor::slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                     int64_t step) const {
  check_defined(*this, "slice()");
  return make_view(*this, slice_geometry(layout_, dim, start, end, step), "slice()");
}

Tensor Tensor::narrow(int64_t dim, int64_t start, int64_t length) const {
  // TensorShape.cpp, narrow, as PyTorch 2.6 checks it: a 0-d tensor, then a negative length
  // (before the dim is even wrapped), then start within [-size, size] (start == size is an empty
  // narrow at the end), then start + length within the dim. PyTorch 1.13 wrapped start as a dim
  // ("Dimension out of range (expected to be in range of [-3, 2], but got 4)") and let a negative
  // length reach the last check ("start (0) + length (-1) exceeds dimension size (3)."), after
  // the dim's own check.
  check_defined(*this, "narrow()");
  STRIDED_CHECK(this->dim() > 0, "narrow()", "cannot be applied to a 0-dim tensor.");
  STRIDED_CHECK(length >= 0, "narrow()", "length must be non-negative.");
  const int64_t d = wrap_dim(dim, this->dim(), "narrow()");
  const int64_t cur_size = sizes()[d];
  STRIDED_CHECK(-cur_size <= start && start <= cur_size, "narrow()",
                "start out of range (expected to be in range of [", -cur_size, ", ", cur_size,
                "], but got ", start, ")");
  if (start < 0) start += cur_size;
  STRIDED_CHECK(start <= cur_size - length, "narrow()", "start (", start, ") + length (", length,
                ") exceeds dimension size (", cur_size, ").");
  return make_view(*this, slice_geometry(layout_, d, start, start + length, 1), "narrow()");
}

Tensor Tensor::permute(IntList dims) const {
  check_defined(*this, "permute()");
  return make_view(*this, permute_geometry(layout_, dims), "permute()");
}

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  check_defined(*this, "transpose()");
  return make_view(*this, transpose_geometry(layout_, dim0, dim1), "transpose()");
}

Tensor Tensor::t() const {
  STRIDED_CHECK(dim() <= 2, "t()", "expects a tensor with <= 2 dimensions, but self is ", dim(),
                "D (shape ", to_string(sizes()), "); use transpose(dim0, dim1) or mT");
  return transpose(0, dim() < 2 ? 0 : 1);
}

Tensor Tensor::mT() const {
  // TensorShape.cpp, _adjoint (mT and mH): only a 1-d tensor is refused; a 0-d one comes back
  // as itself.
  if (dim() == 0) return alias();
  STRIDED_CHECK(dim() >= 2, "mT",
                "tensor.mT is only supported on matrices or batches of "
                "matrices. Got ",
                dim(), "-D tensor.");
  return transpose(-2, -1);
}

Tensor Tensor::movedim(IntList source, IntList destination) const {
  // TensorShape.cpp, movedim: the named dims go to their destinations; the others keep their
  // relative order in the free positions.
  check_defined(*this, "movedim()");
  STRIDED_CHECK(source.size() == destination.size(), "movedim()",
                "Invalid source or destination "
                "dims: source (",
                to_string(source),
                " dims) should contain the same number of "
                "dims as destination (",
                to_string(destination), " dims)");
  const int64_t n = dim();
  Shape src(source.size()), dst(destination.size());
  for (size_t i = 0; i < source.size(); ++i) src[i] = wrap_dim(source[i], n, "movedim()");
  for (size_t i = 0; i < destination.size(); ++i) dst[i] = wrap_dim(destination[i], n, "movedim()");
  auto all_unique = [](Shape v) {
    std::sort(v.begin(), v.end());
    return std::adjacent_find(v.begin(), v.end()) == v.end();
  };
  STRIDED_CHECK(all_unique(src), "movedim()", "repeated dim in `source` (", to_string(source), ")");
  STRIDED_CHECK(all_unique(dst), "movedim()", "repeated dim in `destination` (",
                to_string(destination), ")");
  if (n == 0) return make_view(*this, layout_, "movedim()");
  Shape order(n, -1);
  std::vector<bool> src_used(n, false), dst_used(n, false);
  for (size_t i = 0; i < src.size(); ++i) {
    order[dst[i]] = src[i];
    src_used[src[i]] = true;
    dst_used[dst[i]] = true;
  }
  int64_t next_src = 0;
  for (int64_t d = 0; d < n; ++d) {
    if (dst_used[d]) continue;
    while (src_used[next_src]) ++next_src;
    order[d] = next_src++;
  }
  return make_view(*this, permute_geometry(layout_, order), "movedim()");
}

Tensor Tensor::movedim(int64_t source, int64_t destination) const {
  return movedim(IntList{source}, IntList{destination});
}

Tensor Tensor::diagonal(int64_t offset, int64_t dim1, int64_t dim2) const {
  check_defined(*this, "diagonal()");
  return make_view(*this, diagonal_geometry(layout_, offset, dim1, dim2), "diagonal()");
}

Tensor Tensor::expand(IntList sizes) const {
  check_defined(*this, "expand()");
  return make_view(*this, expand_geometry(layout_, sizes), "expand()");
}

Tensor Tensor::broadcast_to(IntList sizes) const {
  return expand(sizes);
}

Tensor Tensor::unsqueeze(int64_t dim) const {
  check_defined(*this, "unsqueeze()");
  return make_view(*this, unsqueeze_geometry(layout_, dim), "unsqueeze()");
}

Tensor Tensor::squeeze() const {
  check_defined(*this, "squeeze()");
  return make_view(*this, squeeze_geometry(layout_, std::nullopt), "squeeze()");
}

Tensor Tensor::squeeze(int64_t dim) const {
  check_defined(*this, "squeeze()");
  return make_view(*this, squeeze_geometry(layout_, dim), "squeeze()");
}

Tensor Tensor::squeeze(IntList dims) const {
  check_defined(*this, "squeeze()");
  return make_view(*this, squeeze_geometry(layout_, dims), "squeeze()");
}

Tensor Tensor::view(IntList sizes) const {
  // TensorShape.cpp, view_impl: infer the -1, then ask computeStride for strides; no strides
  // means the request splits a dim across two runs of memory, and only reshape can help (IX-06).
  check_defined(*this, "view()");
  Shape shape = infer_size(sizes, numel(), "view()");
  std::optional<Shape> strides = compute_view_strides(layout_, shape);
  STRIDED_CHECK(strides.has_value(), "view()",
                "view size is not compatible with input tensor's size and stride (at "
                "least one dimension spans across two contiguous subspaces). Use .reshape(...) "
                "instead. (tensor ",
                layout_, ", requested shape ", to_string(shape), ")");
  return make_view(*this, Layout(std::move(shape), std::move(*strides), storage_offset()), "view()",
                   Strides::AsComputed);
}

Tensor Tensor::as_strided(IntList sizes, IntList strides,
                          std::optional<int64_t> storage_offset) const {
  // TensorShape.cpp, as_strided_tensorimpl → setStrided → checkInBoundsForStorage, in that
  // order: lengths, non-negative strides, the bytes needed against the storage's bytes (skipped
  // when the view has no elements), then a non-negative offset.
  check_defined(*this, "as_strided()");
  const int64_t offset = storage_offset.value_or(this->storage_offset());
  STRIDED_CHECK(sizes.size() == strides.size(), "as_strided()", "mismatch in length of strides (",
                strides.size(), ") and shape (", sizes.size(), ")");
  for (int64_t s : strides)
    STRIDED_CHECK(s >= 0, "as_strided()",
                  "Negative strides are not supported at the moment, got "
                  "strides: ",
                  to_string(strides));
  // PyTorch reports most negative sizes as a storage-size overflow; say what is wrong instead.
  for (int64_t s : sizes)
    STRIDED_CHECK(s >= 0, "as_strided()", "negative size in sizes ", to_string(sizes));
  const int64_t item = element_size();
  const Layout layout(sizes.vec(), strides.vec(), offset);
  const int64_t needed =
      storage_nbytes_needed(Layout(sizes.vec(), strides.vec()), item, "as_strided()");
  if (needed > 0) {
    const Checked total = Checked(offset) * item + needed;
    STRIDED_CHECK(
        !total.overflowed() && total.value() <= storage_.nbytes(), "as_strided()",
        "setStorage: sizes ", to_string(sizes), ", strides ", to_string(strides),
        ", storage offset ", offset, ", and itemsize ", item, " requiring a storage size of ",
        total.overflowed() ? std::string("more than int64 holds") : std::to_string(total.value()),
        " are out of bounds for storage of size ", storage_.nbytes());
  }
  STRIDED_CHECK(offset >= 0, "as_strided()", "Tensor: invalid storage offset ", offset);
  // The strides were checked above, in PyTorch's order; make_view need not check them again.
  return make_view(*this, layout, "as_strided()", Strides::AsComputed);
}

Tensor Tensor::unfold(int64_t dim, int64_t size, int64_t step) const {
  check_defined(*this, "unfold()");
  return make_view(*this, unfold_geometry(layout_, dim, size, step), "unfold()");
}

Tensor Tensor::unflatten(int64_t dim, IntList sizes) const {
  // TensorShape.cpp, unflatten: dim is replaced by sizes (one -1 allowed), through view.
  check_defined(*this, "unflatten()");
  const int64_t d = wrap_dim_no_scalar(dim, this->dim(), "unflatten()");
  STRIDED_CHECK(!sizes.empty(), "unflatten()", "sizes must be non-empty");
  // As PyTorch's handle_unflatten_exception: a product mismatch is said in unflatten's terms
  // (PyTorch finds it by reading infer_size's message; here infer_size says it apart).
  std::optional<Shape> fits = infer_size_if_fits(sizes, this->sizes()[d], "unflatten()");
  STRIDED_CHECK(fits.has_value(), "unflatten()", "Provided sizes ", to_string(sizes),
                " don't multiply up to the size of dim ", dim, " (", this->sizes()[d],
                ") in the input tensor");
  const Shape& inferred = *fits;
  Shape shape = this->sizes();
  shape.erase(shape.begin() + d);
  shape.insert(shape.begin() + d, inferred.begin(), inferred.end());
  // Splitting one dim is always a view; computing it here rather than through view() lets the
  // errors name unflatten (sizes [2^63-1, 3, 0] are refused as a numel overflow, as PyTorch does).
  std::optional<Shape> strides = compute_view_strides(layout_, shape);
  STRIDED_INTERNAL_ASSERT(strides.has_value());
  return make_view(*this, Layout(std::move(shape), std::move(*strides), storage_offset()),
                   "unflatten()", Strides::AsComputed);
}

Tensor Tensor::swapaxes(int64_t axis0, int64_t axis1) const { return transpose(axis0, axis1); }
Tensor Tensor::swapdims(int64_t dim0, int64_t dim1) const { return transpose(dim0, dim1); }
Tensor Tensor::moveaxis(IntList source, IntList destination) const {
  return movedim(source, destination);
}
Tensor Tensor::moveaxis(int64_t source, int64_t destination) const {
  return movedim(source, destination);
}
Tensor Tensor::detach() const {
  check_defined(*this, "detach()");
  return make_view(*this, layout_, "detach()", Strides::AsComputed);
}
Tensor Tensor::alias() const {
  check_defined(*this, "alias()");
  return make_view(*this, layout_, "alias()", Strides::AsComputed);
}

Tensor Tensor::view(DType dtype) const {
  // TensorConversions.cpp, view_dtype. The same bytes, read as another dtype: with r the ratio of
  // the element sizes, a smaller element multiplies the last dim's size, the other strides and
  // the offset by r; a larger one divides them, and each must divide (the last dim, the offset,
  // then the other strides, in that order), with the last dim of stride 1 in both cases.
  check_defined(*this, "view()");
  // PyTorch 2.6's view_dtype checks the conjugate bit (and the negative bit, which the library
  // does not model) before anything else, so it refuses a conjugated tensor even its own dtype,
  // in the words meant for another dtype. PyTorch 1.13 returned self first when the dtype was the
  // same, and so accepted z.conj().view(z.dtype) (tests/conformance/view_cases.jsonl, cases 2386
  // and 2410, keep 1.13's answer as expected_1_13).
  STRIDED_CHECK(!conj_, "view()",
                "torch.Tensor.view is not supported for conjugate view tensors when "
                "converting to a different dtype.");
  if (dtype == dtype_) return alias();
  const int64_t old_size = element_size(), new_size = itemsize(dtype);
  const std::string_view from = scalar_type_name(dtype_), to = scalar_type_name(dtype);
  if (old_size == new_size) return Tensor(storage_, layout_, dtype);
  STRIDED_CHECK(dim() > 0, "view()", "self.dim() cannot be 0 to view ", from, " as ", to,
                " (different element sizes)");
  Shape sizes = this->sizes(), strides = this->strides();
  int64_t offset = storage_offset();
  const int64_t last = dim() - 1;
  auto check_last_stride = [&] {
    STRIDED_CHECK(this->strides()[last] == 1, "view()", "self.stride(-1) must be 1 to view ", from,
                  " as ", to, " (different element sizes), but got ", this->strides()[last]);
  };
  if (old_size > new_size) {
    const int64_t ratio = old_size / new_size;
    check_last_stride();
    offset = wrapping_mul(offset, ratio);
    for (int64_t d = 0; d < last; ++d) strides[d] = wrapping_mul(strides[d], ratio);
    sizes[last] = wrapping_mul(sizes[last], ratio);
  } else {
    const int64_t ratio = new_size / old_size;
    STRIDED_CHECK(sizes[last] % ratio == 0, "view()", "self.size(-1) must be divisible by ", ratio,
                  " to view ", from, " as ", to, " (different element sizes), but got ",
                  sizes[last]);
    STRIDED_CHECK(offset % ratio == 0, "view()", "self.storage_offset() must be divisible by ",
                  ratio, " to view ", from, " as ", to, " (different element sizes), but got ",
                  offset);
    check_last_stride();
    for (int64_t d = 0; d < last; ++d) {
      STRIDED_CHECK(strides[d] % ratio == 0, "view()", "self.stride(", d, ") must be divisible by ",
                    ratio, " to view ", from, " as ", to, " (different element sizes), but got ",
                    strides[d]);
      strides[d] /= ratio;
    }
    sizes[last] /= ratio;
    offset /= ratio;
  }
  checked_numel(sizes, "view()");
  return Tensor(storage_, std::move(sizes), std::move(strides), offset, dtype);
}

// ---- complex views ------------------------------------------------------------------------------

Tensor view_as_real(const Tensor& t) {
  // ComplexHelper.h, view_complex_as_float, after TensorFactories's view_as_real checks.
  check_defined(t, "view_as_real()");
  STRIDED_CHECK(!t.is_conj(), "view_as_real()",
                "view_as_real doesn't work on unresolved conjugated tensors.  To "
                "resolve the conjugate tensor so you can view it as real, use "
                "self.resolve_conj(); however, be warned that the resulting tensor will NOT alias "
                "the original.");
  STRIDED_CHECK(is_complex(t.dtype()), "view_as_real()",
                "view_as_real is only supported for complex tensors");
  Shape sizes = t.sizes(), strides = t.strides();
  for (int64_t& s : strides) s = wrapping_mul(s, 2);
  sizes.push_back(2);
  strides.push_back(1);
  checked_numel(sizes, "view_as_real()");
  return Tensor(t.storage(), std::move(sizes), std::move(strides),
                wrapping_mul(t.storage_offset(), 2), real_value_type(t.dtype()));
}

Tensor view_as_complex(const Tensor& t) {
  // ComplexHelper.h, view_as_complex: the checks in PyTorch's order, then strides and offset
  // halved and the last dim dropped. PyTorch also views float16 as complex32, a dtype this
  // library lacks: complex_type refuses it.
  check_defined(t, "view_as_complex()");
  const DType d = t.dtype();
  STRIDED_CHECK(d == DType::Float32 || d == DType::Float64 || d == DType::Float16,
                "view_as_complex()",
                "view_as_complex is only supported for half, float and double "
                "tensors, but got a tensor of scalar type: ",
                scalar_type_name(d));
  const DType complex = complex_type(d, "view_as_complex()");
  STRIDED_CHECK(t.dim() != 0, "view_as_complex()", "Input tensor must have one or more dimensions");
  const int64_t last = t.dim() - 1;
  STRIDED_CHECK(t.sizes()[last] == 2, "view_as_complex()",
                "Tensor must have a last dimension of size 2");
  STRIDED_CHECK(t.strides()[last] == 1, "view_as_complex()",
                "Tensor must have a last dimension with stride 1");
  Shape sizes(t.sizes().begin(), t.sizes().end() - 1);
  Shape strides(t.strides().begin(), t.strides().end() - 1);
  for (int64_t& s : strides) {
    STRIDED_CHECK(s % 2 == 0, "view_as_complex()",
                  "Tensor must have a stride divisible by 2 for all but last "
                  "dimension");
    s /= 2;
  }
  STRIDED_CHECK(t.storage_offset() % 2 == 0, "view_as_complex()",
                "Tensor must have a storage_offset divisible by 2");
  return Tensor(t.storage(), std::move(sizes), std::move(strides), t.storage_offset() / 2, complex);
}

Tensor Tensor::conj() const {
  // UnaryOps.cpp, conj: a real tensor is returned as it is (conj is the identity on it).
  check_defined(*this, "conj()");
  if (!is_complex(dtype_)) return *this;
  Tensor out = alias();
  out.set_conj(!conj_);
  return out;
}

// resolve_conj and conj_physical copy: copies.cpp.

Tensor Tensor::real() const {
  // UnaryOps.cpp, real: the real part of the bytes, which a conjugate bit does not change.
  check_defined(*this, "real()");
  if (!is_complex(dtype_)) return *this;
  Tensor bytes = alias();
  bytes.set_conj(false);
  return view_as_real(bytes).select(-1, 0);
}

Tensor Tensor::imag() const {
  check_defined(*this, "imag()");
  STRIDED_CHECK(is_complex(dtype_), "imag()",
                "imag is not implemented for tensors with non-complex dtypes.");
  STRIDED_CHECK(!conj_, "imag()",
                "the imaginary part of a conjugated tensor is, in PyTorch, a view "
                "with a negative bit, which this library does not model; call resolve_conj() "
                "first");
  return view_as_real(*this).select(-1, 1);
}

Tensor Tensor::H() const {
  // TensorShape.cpp, matrix_H.
  check_defined(*this, "H");
  STRIDED_CHECK(dim() == 2 || dim() == 0, "H",
                "tensor.H is only supported on matrices (2-D tensors). Got ", dim(), "-D tensor.",
                dim() > 2 ? " For batches of matrices, consider using tensor.mH" : "");
  return dim() == 0 ? conj() : transpose(-2, -1).conj();
}

namespace {
// TensorShape.cpp, _adjoint: any dim but 1; a 0-d tensor is itself, conjugated when complex.
Tensor adjoint_of(const Tensor& t, const char* name) {
  STRIDED_CHECK(t.dim() != 1, name, "tensor.", name,
                " is only supported on matrices or batches of matrices. Got 1-D tensor.");
  return t.dim() == 0 ? t.conj() : t.transpose(-2, -1).conj();
}
}  // namespace

Tensor Tensor::mH() const {
  check_defined(*this, "mH");
  return adjoint_of(*this, "mH");
}
Tensor Tensor::adjoint() const {
  check_defined(*this, "adjoint()");
  return adjoint_of(*this, "adjoint()");
}

Tensor Tensor::view_as(const Tensor& other) const {
  return view(other.sizes());
}
Tensor Tensor::expand_as(const Tensor& other) const {
  return expand(other.sizes());
}

// ---- maybe a view, maybe a copy --------------------------------------------------------------

Tensor Tensor::reshape(IntList sizes) const {
  // TensorShape.cpp, reshape: a view exactly when view() would succeed; otherwise a contiguous
  // copy, then a view of the copy (claim IX-07).
  check_defined(*this, "reshape()");
  Shape shape = infer_size(sizes, numel(), "reshape()");
  if (std::optional<Shape> strides = compute_view_strides(layout_, shape))
    return make_view(*this, Layout(std::move(shape), std::move(*strides), storage_offset()),
                     "reshape()", Strides::AsComputed);
  return contiguous().view(shape);
}

Tensor Tensor::reshape_as(const Tensor& other) const {
  return reshape(other.sizes());
}

Tensor Tensor::flatten(int64_t start_dim, int64_t end_dim) const {
  // TensorShape.cpp, flatten: start == end returns the tensor itself; otherwise dims start..end
  // merge through reshape (so a copy when they cannot merge), and a 0-d tensor becomes shape [1].
  check_defined(*this, "flatten()");
  const Shape shape = flatten_sizes(sizes(), start_dim, end_dim);
  if (dim() > 0 && static_cast<int64_t>(shape.size()) == dim()) return *this;
  return reshape(shape);
}

Tensor atleast_1d(const Tensor& t) {
  // TensorShape.cpp, atleast_1d/2d/3d: reshape for a 0-d tensor, unsqueeze otherwise.
  return t.dim() == 0 ? t.reshape({1}) : t.alias();
}
Tensor atleast_2d(const Tensor& t) {
  if (t.dim() == 0) return t.reshape({1, 1});
  return t.dim() == 1 ? t.unsqueeze(0) : t.alias();
}
Tensor atleast_3d(const Tensor& t) {
  if (t.dim() == 0) return t.reshape({1, 1, 1});
  if (t.dim() == 1) return t.unsqueeze(0).unsqueeze(-1);
  return t.dim() == 2 ? t.unsqueeze(-1) : t.alias();
}

}  // namespace strided
