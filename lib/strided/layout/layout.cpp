#include "strided/layout/layout.h"

#include <algorithm>
#include <numeric>

#include "strided/core/error.h"

namespace strided {

int64_t wrapping_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
int64_t wrapping_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

void Layout::refuse() const {
  STRIDED_CHECK(sizes_.size() == strides_.size(), "Layout", "mismatch in length of strides (",
                strides_.size(), ") and shape (", sizes_.size(), ")");
  for (size_t d = 0; d < sizes_.size(); ++d)
    STRIDED_CHECK(sizes_[d] >= 0, "Layout", "negative size at dim ", d, ": sizes ",
                  to_string(sizes_));
  STRIDED_INTERNAL_ASSERT(false);  // refuse() is called only for a layout one check refuses
}

Layout Layout::contiguous(Shape sizes, int64_t storage_offset) {
  Shape strides = contiguous_strides(sizes);
  return Layout(std::move(sizes), std::move(strides), storage_offset);
}

std::string to_string(const Layout& layout) {
  return layout_string(layout.sizes(), layout.strides());
}
std::ostream& operator<<(std::ostream& out, const Layout& layout) {
  return out << to_string(layout);
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
  // c10/core/WrapDimMinimal.h: a 0-d tensor behaves as if it had one dim for wrapping.
  const int64_t n = ndim > 0 ? ndim : 1;
  STRIDED_CHECK(dim >= -n && dim < n, op, "Dimension out of range (expected to be in range of [",
                -n, ", ", n - 1, "], but got ", dim, ")");
  return dim < 0 ? dim + n : dim;
}

Shape contiguous_strides(IntList sizes) {
  Shape strides(sizes.size());
  int64_t running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    running = wrapping_mul(running, std::max<int64_t>(sizes[i], 1));
  }
  return strides;
}

bool is_contiguous(const Layout& layout) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  // c10/core/Contiguity.h, _compute_contiguous: empty is contiguous; size-1 dims are skipped.
  for (int64_t s : sizes)
    if (s == 0) return true;
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

bool is_contiguous_strict(const Layout& layout) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  if (sizes.empty()) return true;
  for (int64_t s : sizes)
    if (s == 0) return true;
  if (strides.back() != 1) return false;
  for (size_t i = 0; i + 1 < sizes.size(); ++i)
    if (strides[i] != sizes[i + 1] * strides[i + 1]) return false;
  return true;
}

bool is_channels_last_contiguous(const Layout& layout) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  if (sizes.size() != 4) return false;
  int64_t expected = 1;
  for (int d : kChannelsLastOrder) {
    if (sizes[d] == 1) continue;
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

bool is_non_overlapping_and_dense(const Layout& layout) {
  // c10/core/TensorImpl: the flag is is_contiguous || compute_non_overlapping_and_dense, so every
  // empty tensor counts as dense. compute_non_overlapping_and_dense sorts dims by stride (size-1
  // dims last, as they do not matter), then requires the contiguous recurrence.
  if (is_contiguous(layout)) return true;
  const IntList sizes = layout.sizes(), strides = layout.strides();
  const size_t n = sizes.size();
  if (n == 1) return sizes[0] < 2 || strides[0] == 1;
  std::vector<size_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t expected = 1;
  for (size_t k = 0; k < n; ++k) {
    const int64_t s = sizes[perm[k]];
    if (s == 1) continue;
    if (s == 0) return true;
    if (strides[perm[k]] != expected) return false;
    expected *= s;
  }
  return true;
}

Extent extent(const Layout& layout) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  const int64_t offset = layout.storage_offset();
  // A layout with no elements reaches nothing, whatever its other sizes and strides: look for a 0
  // before forming any (size - 1) * stride, which may overflow on such a layout.
  for (int64_t s : sizes)
    if (s == 0) return Extent{offset, offset - 1};
  Checked lo = offset, hi = offset;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const Checked reach = (Checked(sizes[i]) - 1) * strides[i];
    if (reach.overflowed() || reach.value() < 0)
      lo += reach;
    else
      hi += reach;
  }
  // Only a layout no storage can hold (sizes and strides made by hand) gets here.
  STRIDED_CHECK(!lo.overflowed() && !hi.overflowed(), "extent", "the layout ",
                layout_string(sizes, strides), " at storage offset ", offset,
                " reaches offsets past int64");
  return Extent{lo.value(), hi.value()};
}

std::optional<Shape> compute_view_strides(const Layout& old, IntList newshape) {
  return view_strides_walk(old, newshape, nullptr);
}

std::optional<Shape> view_strides_walk(const Layout& old, IntList newshape, ViewChunk* last) {
  const IntList oldshape = old.sizes(), oldstride = old.strides();
  // aten/src/ATen/TensorUtils.cpp, computeStride.
  if (oldshape.empty()) return Shape(newshape.size(), 1);
  Shape newstride(newshape.size());
  int64_t numel = 1;
  for (int64_t s : oldshape) numel = wrapping_mul(numel, s);
  if (numel == 0) {
    if (std::equal(oldshape.begin(), oldshape.end(), newshape.begin(), newshape.end()))
      return Shape(oldstride.begin(), oldstride.end());
    // An empty tensor views as anything: contiguous strides with size-0 dims counted as 1.
    return contiguous_strides(newshape);
  }
  // Walk the old dims from the back in chunks that are contiguous among themselves; each chunk
  // must be split exactly by a run of new dims.
  int64_t view_d = static_cast<int64_t>(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  int64_t chunk_last = static_cast<int64_t>(oldshape.size()) - 1;  // the chunk's innermost dim
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= oldshape[tensor_d];
    if (tensor_d == 0 ||
        (oldshape[tensor_d - 1] != 1 &&
         oldstride[tensor_d - 1] != wrapping_mul(tensor_numel, chunk_base_stride))) {
      const int64_t view_last = view_d;
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
        newstride[view_d] = wrapping_mul(view_numel, chunk_base_stride);
        view_numel *= newshape[view_d];
        --view_d;
      }
      // The chunk just matched (or not) against new dims: what a refusal here is about.
      if (last) *last = {tensor_d, chunk_last, tensor_numel, view_d + 1, view_last, view_numel};
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[tensor_d - 1];
        chunk_last = tensor_d - 1;
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (last) *last = {-1, -1, 0, 0, view_d, 0};  // new dims left over: the counts differ
  if (view_d != -1) return std::nullopt;
  return newstride;
}

Shape infer_size(IntList shape, int64_t numel) {
  return infer_size(shape, numel, "view");
}

Shape infer_size(IntList shape, int64_t numel, const char* op) {
  if (std::optional<Shape> fits = infer_size_if_fits(shape, numel, op)) return std::move(*fits);
  throw Error(
      op, detail::concat("shape '", to_string(shape), "' is invalid for input of size ", numel));
}

std::optional<Shape> infer_size_if_fits(IntList shape, int64_t numel, const char* op) {
  // aten/src/ATen/InferSize.h, infer_size_impl. One -1 may stand for the missing factor; it is
  // refused when the other sizes multiply to 0, since then any value would do.
  Checked product = 1;
  std::optional<size_t> infer_dim;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      STRIDED_CHECK(!infer_dim, op, "only one dimension can be inferred (shape ", to_string(shape),
                    ")");
      infer_dim = d;
    } else {
      STRIDED_CHECK(shape[d] >= 0, op, "invalid shape dimension ", shape[d], " in shape ",
                    to_string(shape));
      product *= shape[d];
    }
  }
  // A zero anywhere makes the product 0 even if a partial product overflowed.
  const bool zero = std::find(shape.begin(), shape.end(), int64_t{0}) != shape.end();
  STRIDED_CHECK(zero || !product.overflowed(), op, "shape ", to_string(shape),
                " has more elements than int64 holds");
  const int64_t newsize = zero ? 0 : product.value();
  Shape result(shape.begin(), shape.end());
  if (numel == newsize || (infer_dim && newsize > 0 && numel % newsize == 0)) {
    if (infer_dim) {
      STRIDED_CHECK(newsize != 0, op, "cannot reshape tensor of 0 elements into shape ",
                    to_string(shape),
                    " because the unspecified dimension size -1 can be any value and is "
                    "ambiguous");
      result[*infer_dim] = numel / newsize;
    }
    return result;
  }
  return std::nullopt;
}

Shape broadcast_shapes(IntList a, IntList b) {
  // aten/src/ATen/ExpandUtils.cpp, infer_size_impl: align from the right; sizes must match or
  // one of them must be 1.
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = n; i-- > 0;) {  // from the right, so the error names the innermost mismatch
    const int64_t da = static_cast<int64_t>(i) - static_cast<int64_t>(n - a.size());
    const int64_t db = static_cast<int64_t>(i) - static_cast<int64_t>(n - b.size());
    const int64_t sa = da >= 0 ? a[da] : 1;
    const int64_t sb = db >= 0 ? b[db] : 1;
    STRIDED_CHECK(sa >= 0 && sb >= 0, "broadcast_shapes",
                  "Trying to create tensor with negative "
                  "dimension ",
                  std::min(sa, sb), " (shapes ", to_string(a), " and ", to_string(b), ")");
    STRIDED_CHECK(sa == sb || sa == 1 || sb == 1, "broadcast_shapes", "The size of tensor a (", sa,
                  ") must match the size of tensor b (", sb, ") at non-singleton dimension ", i,
                  " (shapes ", to_string(a), " and ", to_string(b), ")");
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  Shape out;
  for (const Shape& s : shapes) out = broadcast_shapes(out, s);
  return out;
}

Layout expand_geometry(const Layout& layout, IntList new_sizes) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  // aten/src/ATen/ExpandUtils.cpp, inferExpandGeometry. Align from the right: a kept size keeps
  // its stride, a size-1 dim grown to another size gets stride 0, and a new leading dim gets
  // size*stride of the dim to its right (stride 0 once its size is not 1).
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t nnew = static_cast<int64_t>(new_sizes.size());
  STRIDED_CHECK(nnew >= ndim, "expand", "the number of sizes provided (", nnew,
                ") must be greater or equal to the number of dimensions in the tensor (", ndim,
                "); target sizes ", to_string(new_sizes), ", tensor sizes ", to_string(sizes));
  Shape g_sizes(nnew), g_strides(nnew);
  for (int64_t i = nnew - 1; i >= 0; --i) {
    const int64_t dim = ndim - 1 - (nnew - 1 - i);
    const int64_t size = dim >= 0 ? sizes[dim] : 1;
    // A 0-d tensor expands with every stride 0, even on size-1 dims (inferExpandGeometry's
    // tensor_dim == 0 shortcut).
    int64_t stride = dim >= 0    ? strides[dim]
                     : ndim == 0 ? 0
                                 : wrapping_mul(g_sizes[i + 1], g_strides[i + 1]);
    int64_t target = new_sizes[i];
    STRIDED_CHECK(target != -1 || dim >= 0, "expand",
                  "The expanded size of the tensor (-1) isn't "
                  "allowed in a leading, non-existing dimension ",
                  i, ".  Target sizes: ", to_string(new_sizes),
                  ".  Tensor sizes: ", to_string(sizes));
    if (target == -1) target = size;
    if (size != target) {
      STRIDED_CHECK(size == 1, "expand", "The expanded size of the tensor (", target,
                    ") must match the existing size (", size, ") at non-singleton dimension ", i,
                    ".  Target sizes: ", to_string(new_sizes),
                    ".  Tensor sizes: ", to_string(sizes));
      stride = 0;
    }
    // PyTorch 1.13 lets some negative sizes through here (a later numel check catches most);
    // a size below 0 is never a tensor, so it is refused outright.
    STRIDED_CHECK(target >= 0, "expand", "invalid size ", target, " at dimension ", i,
                  " (sizes must be non-negative, or -1 to keep a size).  Target sizes: ",
                  to_string(new_sizes), ".  Tensor sizes: ", to_string(sizes));
    g_sizes[i] = target;
    g_strides[i] = stride;
  }
  return Layout(std::move(g_sizes), std::move(g_strides), layout.storage_offset());
}

Layout select_geometry(const Layout& layout, int64_t dim, int64_t index) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  const int64_t offset = layout.storage_offset();
  // TensorShape.cpp, select: the 0-d check comes before the dim is wrapped.
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  STRIDED_CHECK(ndim > 0, "select()", "cannot be applied to a 0-dim tensor.");
  const int64_t d = wrap_dim(dim, ndim, "select()");
  const int64_t size = sizes[d];
  STRIDED_CHECK(index >= -size && index < size, "select()", "index ", index,
                " out of range for tensor of size ", to_string(sizes), " at dimension ", d);
  if (index < 0) index += size;
  Shape g_sizes = sizes.vec(), g_strides = strides.vec();
  g_sizes.erase(g_sizes.begin() + d);
  g_strides.erase(g_strides.begin() + d);
  return Layout(std::move(g_sizes), std::move(g_strides),
                wrapping_add(offset, wrapping_mul(index, strides[d])));
}

Layout slice_geometry(const Layout& layout, int64_t dim, std::optional<int64_t> start,
                      std::optional<int64_t> end, int64_t step) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  const int64_t offset = layout.storage_offset();
  // TensorShape.cpp, slice. Bounds wrap once (start -1 is the last element) and are then clamped,
  // so slices past the end are empty rather than errors, as in Python (claims VW-08, IX-10).
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  STRIDED_CHECK(ndim > 0, "slice()", "cannot be applied to a 0-dim tensor.");
  const int64_t d = wrap_dim(dim, ndim, "slice()");
  STRIDED_CHECK(step > 0, "slice()", "slice step must be positive, got ", step);
  const int64_t size = sizes[d];
  int64_t s = start.value_or(0);
  int64_t e = end.value_or(size);
  if (s < 0) s += size;
  if (e < 0) e += size;
  s = std::clamp<int64_t>(s, 0, size);
  e = std::clamp<int64_t>(e, s, size);
  const int64_t len = e - s;
  Shape g_sizes = sizes.vec(), g_strides = strides.vec();
  // ceil(len / step) without PyTorch's (len + step - 1), which overflows for a huge step.
  g_sizes[d] = len == 0 ? 0 : (len - 1) / step + 1;
  g_strides[d] = wrapping_mul(strides[d], step);
  return Layout(std::move(g_sizes), std::move(g_strides),
                wrapping_add(offset, wrapping_mul(s, strides[d])));
}

Layout diagonal_geometry(const Layout& layout, int64_t k, int64_t dim1, int64_t dim2) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  int64_t offset = layout.storage_offset();
  // TensorShape.cpp, diagonal.
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t d1 = wrap_dim(dim1, ndim, "diagonal()");
  const int64_t d2 = wrap_dim(dim2, ndim, "diagonal()");
  STRIDED_CHECK(d1 != d2, "diagonal()", "diagonal dimensions cannot be identical ", dim1, ", ",
                dim2);
  // Only reached with ndim >= 2, since two distinct wrapped dims exist.
  int64_t n = 0;
  if (k >= 0)
    n = std::max<int64_t>(std::min(sizes[d1], sizes[d2] - std::min(k, sizes[d2])), 0);
  else
    n = std::max<int64_t>(std::min(sizes[d1] + std::max(k, -sizes[d1]), sizes[d2]), 0);
  if (n > 0)
    offset =
        wrapping_add(offset, k >= 0 ? wrapping_mul(k, strides[d2]) : wrapping_mul(-k, strides[d1]));
  Shape g_sizes = sizes.vec(), g_strides = strides.vec();
  const int64_t hi = std::max(d1, d2), lo = std::min(d1, d2);
  g_sizes.erase(g_sizes.begin() + hi);
  g_strides.erase(g_strides.begin() + hi);
  g_sizes.erase(g_sizes.begin() + lo);
  g_strides.erase(g_strides.begin() + lo);
  g_sizes.push_back(n);
  // Wrapping, like the offsets above: the sum can overflow only when a dim has size 0 or 1, and
  // then the diagonal has at most one element and never steps by this stride.
  g_strides.push_back(wrapping_add(strides[d1], strides[d2]));
  return Layout(std::move(g_sizes), std::move(g_strides), offset);
}

Layout permute_geometry(const Layout& layout, IntList dims) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  // TensorShape.cpp, permute (messages as torch 1.13 prints them).
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  STRIDED_CHECK(static_cast<int64_t>(dims.size()) == ndim, "permute()",
                "number of dimensions in the tensor input does not match the length "
                "of the desired ordering of dimensions i.e. input.dim() = ",
                ndim, " is not equal to len(dims) = ", dims.size());
  Shape g_sizes(ndim), g_strides(ndim);
  std::vector<bool> seen(static_cast<size_t>(ndim), false);
  for (int64_t i = 0; i < ndim; ++i) {
    const int64_t d = wrap_dim(dims[i], ndim, "permute()");
    STRIDED_CHECK(!seen[d], "permute()", "duplicate dims are not allowed (dims ", to_string(dims),
                  ")");
    seen[d] = true;
    g_sizes[i] = sizes[d];
    g_strides[i] = strides[d];
  }
  return Layout(std::move(g_sizes), std::move(g_strides), layout.storage_offset());
}

Layout transpose_geometry(const Layout& layout, int64_t dim0, int64_t dim1) {
  // TensorShape.cpp, transpose.
  const int64_t d0 = wrap_dim(dim0, layout.dim(), "transpose()");
  const int64_t d1 = wrap_dim(dim1, layout.dim(), "transpose()");
  Shape sizes = layout.sizes(), strides = layout.strides();
  if (d0 != d1) {  // transposing a dim with itself (or a 0-d tensor) is an alias
    std::swap(sizes[d0], sizes[d1]);
    std::swap(strides[d0], strides[d1]);
  }
  return Layout(std::move(sizes), std::move(strides), layout.storage_offset());
}

Layout unsqueeze_geometry(const Layout& layout, int64_t dim) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  // TensorShape.cpp, inferUnsqueezeGeometry: the new dim wraps against ndim + 1.
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t d = wrap_dim(dim, ndim + 1, "unsqueeze()");
  const int64_t stride = d >= ndim ? 1 : wrapping_mul(sizes[d], strides[d]);
  Shape g_sizes = sizes.vec(), g_strides = strides.vec();
  g_sizes.insert(g_sizes.begin() + d, 1);
  g_strides.insert(g_strides.begin() + d, stride);
  return Layout(std::move(g_sizes), std::move(g_strides), layout.storage_offset());
}

Layout squeeze_geometry(const Layout& layout, std::optional<int64_t> dim) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  // TensorShape.cpp, squeeze / inferSqueezeGeometry. Squeezing a dim whose size is not 1 is not
  // an error: the tensor comes back unchanged.
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  std::optional<int64_t> only;
  if (dim) only = wrap_dim(*dim, ndim, "squeeze()");
  Shape g_sizes, g_strides;
  for (int64_t i = 0; i < ndim; ++i) {
    const bool drop = sizes[i] == 1 && (!only || *only == i);
    if (drop) continue;
    g_sizes.push_back(sizes[i]);
    g_strides.push_back(strides[i]);
  }
  return Layout(std::move(g_sizes), std::move(g_strides), layout.storage_offset());
}

Layout squeeze_geometry(const Layout& layout, IntList dims) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  // TensorShape.cpp, squeeze(self, dims): dim_list_to_bitset wraps each dim (a 0-d tensor takes 0
  // and -1, as maybe_wrap_dim's scalar rule) and refuses one named twice; then inferSqueezeGeometry
  // keeps every dim that is not both named and of size 1.
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  std::vector<bool> named(static_cast<size_t>(std::max<int64_t>(ndim, 1)), false);
  for (const int64_t dim : dims) {
    const int64_t d = wrap_dim(dim, ndim, "squeeze()");
    STRIDED_CHECK(!named[static_cast<size_t>(d)], "squeeze()", "dim ", d,
                  " appears multiple times in the list of dims");
    named[static_cast<size_t>(d)] = true;
  }
  Shape g_sizes, g_strides;
  for (int64_t i = 0; i < ndim; ++i) {
    if (sizes[i] == 1 && named[static_cast<size_t>(i)]) continue;
    g_sizes.push_back(sizes[i]);
    g_strides.push_back(strides[i]);
  }
  return Layout(std::move(g_sizes), std::move(g_strides), layout.storage_offset());
}

Layout unfold_geometry(const Layout& layout, int64_t dim, int64_t size, int64_t step) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  // TensorShape.cpp, unfold; a 0-d tensor unfolds as if it had one dim of size 1.
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t d = wrap_dim(dim, ndim, "unfold()");
  const int64_t max_size = ndim == 0 ? 1 : sizes[d];
  STRIDED_CHECK(size <= max_size, "unfold()", "maximum size for tensor at dimension ", d, " is ",
                max_size, " but size is ", size);
  // PyTorch 2.6 checks the size before the step; 1.13 let a negative size reach as_strided, which
  // rejected it as an overflow ("Storage size calculation overflowed with sizes=[2, 3, 6, -1]").
  STRIDED_CHECK(size >= 0, "unfold()", "size is ", size, " but must be >= 0");
  STRIDED_CHECK(step > 0, "unfold()", "step is ", step, " but must be > 0");
  Shape g_sizes = sizes.vec(), g_strides = strides.vec();
  if (ndim > 0) {
    // A dim of 2^63-1 elements (an expanded one) cut into windows of size 0 and step 1 has one
    // window more than int64 counts. PyTorch's int64 arithmetic wraps to a negative size and then
    // fails ("cannot be represented as a SymInt"); here it is said before it can overflow.
    const int64_t more = (sizes[d] - size) / step;
    STRIDED_CHECK(more < INT64_MAX, "unfold()", "the number of windows (", sizes[d], " - ", size,
                  ") / ", step, " + 1 at dimension ", d, " overflows int64");
    g_sizes[d] = more + 1;
    g_strides[d] = wrapping_mul(step, strides[d]);
  }
  g_sizes.push_back(size);
  g_strides.push_back(ndim == 0 ? 1 : strides[d]);
  return Layout(std::move(g_sizes), std::move(g_strides), layout.storage_offset());
}

int64_t storage_nbytes_needed(const Layout& layout, int64_t item, const char* op) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  const int64_t offset = layout.storage_offset();
  // EmptyTensor.cpp, computeStorageNbytes: one past the farthest element, in bytes; a layout
  // with no elements needs none, whatever its other sizes and strides.
  for (int64_t s : sizes)
    if (s == 0) return 0;
  Checked elems = Checked(offset) + 1;
  for (size_t i = 0; i < sizes.size(); ++i) elems += (Checked(sizes[i]) - 1) * strides[i];
  const Checked bytes = elems * item;
  STRIDED_CHECK(!bytes.overflowed(), op,
                "Storage size calculation overflowed with sizes=", to_string(sizes),
                " and strides=", to_string(strides),
                offset != 0 ? " (storage offset " + std::to_string(offset) + ")" : "");
  return bytes.value();
}

int64_t contiguous_nbytes_needed(IntList sizes, int64_t item, const char* op) {
  // EmptyTensor.cpp, computeStorageNbytesContiguous: the product of the sizes by
  // c10::safe_multiply_u64, which in 1.13 counts an overflow even when a later size is 0, then
  // times the item size, within int64.
  for (int64_t s : sizes)
    STRIDED_CHECK(s >= 0, op, "negative dimension ", s, " in size ", to_string(sizes));
  const std::optional<uint64_t> n = safe_multiply_u64(sizes);
  uint64_t bytes = 0;
  STRIDED_CHECK(n && !__builtin_mul_overflow(*n, static_cast<uint64_t>(item), &bytes) &&
                    bytes <= static_cast<uint64_t>(INT64_MAX),
                op, "Storage size calculation overflowed with sizes=", to_string(sizes));
  return static_cast<int64_t>(bytes);
}

Shape walk_order(IntList sizes, const std::vector<Shape>& strides,
                 const std::vector<bool>& reduced_output) {
  const size_t n = sizes.size();
  Shape perm(n);
  for (size_t i = 0; i < n; ++i) perm[i] = static_cast<int64_t>(n - 1 - i);  // innermost first
  // should_swap: 1 when dim d0 belongs outside d1, -1 inside, 0 when no operand decides.
  auto should_swap = [&](int64_t d0, int64_t d1) {
    for (size_t k = 0; k < strides.size(); ++k) {
      const Shape& s = strides[k];
      if (s.empty()) continue;
      const int64_t s0 = s[static_cast<size_t>(d0)], s1 = s[static_cast<size_t>(d1)];
      if (k < reduced_output.size() && reduced_output[k] && (s0 == 0) != (s1 == 0))
        return s1 == 0 ? 1 : -1;  // the reduced dims, stride 0 in the output, go inside
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (sizes[static_cast<size_t>(d0)] > sizes[static_cast<size_t>(d1)]) return 1;
    }
    return 0;
  };
  // Insertion sort that tolerates "no opinion": an undecided pair neither swaps nor stops the scan.
  for (size_t i = 1; i < n; ++i) {
    size_t d1 = i;
    for (size_t d0 = i; d0-- > 0;) {
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  return perm;
}

void coalesce_dims(Shape& sizes, std::vector<Shape>& strides) {
  const size_t n = sizes.size();
  if (n <= 1) return;
  auto can_coalesce = [&](size_t d0, size_t d1) {
    if (sizes[d0] == 1 || sizes[d1] == 1) return true;
    for (const Shape& s : strides)
      if (wrapping_mul(sizes[d0], s[d0]) != s[d1]) return false;
    return true;
  };
  // A size-1 dim's stride is never stepped: the merged dim takes the other's.
  auto replace_stride = [&](size_t d0, size_t d1) {
    for (Shape& s : strides) s[d0] = s[d1];
  };
  size_t prev = 0;
  for (size_t d = 1; d < n; ++d) {
    if (can_coalesce(prev, d)) {
      if (sizes[prev] == 1) replace_stride(prev, d);
      sizes[prev] *= sizes[d];
    } else {
      ++prev;
      if (prev != d) {
        replace_stride(prev, d);
        sizes[prev] = sizes[d];
      }
    }
  }
  sizes.resize(prev + 1);
  for (Shape& s : strides) s.resize(prev + 1);
}

Shape dense_strides_in_order(IntList sizes, IntList perm, ZeroSizes zero) {
  STRIDED_INTERNAL_ASSERT(perm.size() == sizes.size());
  Shape out(sizes.size());
  int64_t running = 1;
  for (int64_t d : perm) {
    const auto i = static_cast<size_t>(d);
    out[i] = running;
    const int64_t size = zero == ZeroSizes::AsOne ? std::max<int64_t>(sizes[i], 1) : sizes[i];
    running = wrapping_mul(running, size);
  }
  return out;
}

Shape walk_output_strides(IntList sizes, IntList perm) {
  const auto n = static_cast<int64_t>(perm.size());
  bool inverted = true;
  for (int64_t d = 0; d < n; ++d) inverted = inverted && perm[d] == n - 1 - d;
  if (inverted) return contiguous_strides(sizes);
  return dense_strides_in_order(sizes, perm, ZeroSizes::AsIs);
}

Shape infer_dense_strides(const Layout& layout) {
  const IntList sizes = layout.sizes(), strides = layout.strides();
  // TensorUtils / empty_like with preserve_format: the walk order of the input, laid out densely.
  if (sizes.empty()) return {};
  const Shape perm = walk_order(sizes, {Shape(strides.begin(), strides.end())});
  return dense_strides_in_order(sizes, perm, ZeroSizes::AsOne);
}

MemOverlap has_internal_overlap(const Layout& layout) {
  if (is_non_overlapping_and_dense(layout)) return MemOverlap::No;
  const IntList sizes = layout.sizes(), strides = layout.strides();
  for (size_t i = 0; i < sizes.size(); ++i)
    if (strides[i] == 0 && sizes[i] > 1) return MemOverlap::Yes;
  return MemOverlap::TooHard;
}
Shape reduced_sizes(IntList sizes, int64_t dim, bool keepdim) {
  Shape s;
  for (int64_t d = 0; d < static_cast<int64_t>(sizes.size()); ++d) {
    if (d != dim)
      s.push_back(sizes[d]);
    else if (keepdim)
      s.push_back(1);
  }
  return s;
}

Shape flatten_sizes(IntList sizes, int64_t start_dim, int64_t end_dim) {
  const int64_t nd = static_cast<int64_t>(sizes.size());
  const int64_t s = wrap_dim(start_dim, nd, "flatten()");
  const int64_t e = wrap_dim(end_dim, nd, "flatten()");
  STRIDED_CHECK(s <= e, "flatten()",
                "flatten() has invalid args: start_dim cannot come after "
                "end_dim (start_dim ",
                start_dim, ", end_dim ", end_dim, ")");
  if (nd == 0) return {1};
  Shape shape(sizes.begin(), sizes.begin() + s);
  shape.push_back(checked_numel(IntList(sizes.data() + s, static_cast<size_t>(e - s + 1)),
                                "flatten()"));
  shape.insert(shape.end(), sizes.begin() + e + 1, sizes.end());
  return shape;
}

}  // namespace strided
