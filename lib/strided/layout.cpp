#include "strided/layout.h"

#include <algorithm>
#include <numeric>

#include "strided/error.h"

namespace strided {

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
  // c10/core/WrapDimMinimal.h: a 0-d tensor behaves as if it had one dim for wrapping.
  const int64_t n = ndim > 0 ? ndim : 1;
  STRIDED_CHECK(dim >= -n && dim < n, op, ": Dimension out of range (expected to be in range of [",
                -n, ", ", n - 1, "], but got ", dim, ")");
  return dim < 0 ? dim + n : dim;
}

Shape contiguous_strides(IntList sizes) {
  Shape strides(sizes.size());
  int64_t running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    running *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

bool is_contiguous(IntList sizes, IntList strides) {
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

bool is_contiguous_strict(IntList sizes, IntList strides) {
  if (sizes.empty()) return true;
  for (int64_t s : sizes)
    if (s == 0) return true;
  if (strides.back() != 1) return false;
  for (size_t i = 0; i + 1 < sizes.size(); ++i)
    if (strides[i] != sizes[i + 1] * strides[i + 1]) return false;
  return true;
}

bool is_non_overlapping_and_dense(IntList sizes, IntList strides) {
  // c10/core/Contiguity.h, _compute_non_overlapping_and_dense: sort dims by stride (size-1 dims
  // last, as they do not matter), then require the contiguous recurrence.
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

Extent extent(IntList sizes, IntList strides, int64_t offset) {
  Extent e{offset, offset};
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) return Extent{offset, offset - 1};
    const int64_t reach = (sizes[i] - 1) * strides[i];
    if (reach < 0) e.min += reach;
    else e.max += reach;
  }
  return e;
}

std::optional<Shape> compute_view_strides(IntList oldshape, IntList oldstride, IntList newshape) {
  // aten/src/ATen/TensorUtils.cpp, computeStride.
  if (oldshape.empty()) return Shape(newshape.size(), 1);
  Shape newstride(newshape.size());
  int64_t numel = 1;
  for (int64_t s : oldshape) numel *= s;
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
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= oldshape[tensor_d];
    if (tensor_d == 0 ||
        (oldshape[tensor_d - 1] != 1 &&
         oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
        newstride[view_d] = view_numel * chunk_base_stride;
        view_numel *= newshape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

Shape infer_size(IntList shape, int64_t numel) {
  // aten/src/ATen/InferSize.h, infer_size_impl.
  int64_t newsize = 1;
  std::optional<size_t> infer_dim;
  bool overflow = false;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      STRIDED_CHECK(!infer_dim, "view: only one dimension can be inferred (shape ",
                    to_string(shape), ")");
      infer_dim = d;
    } else {
      STRIDED_CHECK(shape[d] >= 0, "view: invalid shape dimension ", shape[d], " in shape ",
                    to_string(shape));
      if (__builtin_mul_overflow(newsize, shape[d], &newsize)) overflow = true;
    }
  }
  STRIDED_CHECK(!overflow, "view: shape ", to_string(shape), " has more elements than int64 holds");
  Shape result(shape.begin(), shape.end());
  if (numel == newsize) {
    if (infer_dim) {
      // -1 with other dims multiplying to numel: the -1 becomes 1, unless that is ambiguous.
      STRIDED_CHECK(newsize != 0, "view: cannot reshape tensor of 0 elements into shape ",
                    to_string(shape),
                    " because the unspecified dimension size -1 can be any value and is "
                    "ambiguous");
      result[*infer_dim] = 1;
    }
    return result;
  }
  if (infer_dim && newsize > 0 && numel % newsize == 0) {
    result[*infer_dim] = numel / newsize;
    return result;
  }
  if (infer_dim && newsize == 0) {
    STRIDED_CHECK(false, "view: cannot reshape tensor of ", numel, " elements into shape ",
                  to_string(shape),
                  " because the unspecified dimension size -1 can be any value and is ambiguous");
  }
  throw Error(detail::concat("view: shape '", to_string(shape), "' is invalid for input of size ",
                             numel));
}

Shape broadcast_shapes(IntList a, IntList b) {
  // aten/src/ATen/ExpandUtils.cpp, infer_size_impl: align from the right; sizes must match or
  // one of them must be 1.
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = static_cast<int64_t>(i) - static_cast<int64_t>(n - a.size());
    const int64_t db = static_cast<int64_t>(i) - static_cast<int64_t>(n - b.size());
    const int64_t sa = da >= 0 ? a[da] : 1;
    const int64_t sb = db >= 0 ? b[db] : 1;
    STRIDED_CHECK(sa == sb || sa == 1 || sb == 1, "broadcast_shapes: The size of tensor a (", sa,
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

Geometry expand_geometry(IntList sizes, IntList strides, IntList new_sizes) {
  // aten/src/ATen/ExpandUtils.cpp, inferExpandGeometry.
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t nnew = static_cast<int64_t>(new_sizes.size());
  STRIDED_CHECK(nnew >= ndim, "expand: the number of sizes provided (", nnew,
                ") must be greater or equal to the number of dimensions in the tensor (", ndim,
                ")");
  Geometry g{Shape(nnew), Shape(nnew)};
  for (int64_t i = nnew - 1; i >= 0; --i) {
    const int64_t dim = ndim - 1 - (nnew - 1 - i);
    const int64_t size = dim >= 0 ? sizes[dim] : 1;
    int64_t stride = dim >= 0 ? strides[dim]
                              : (i + 1 < nnew ? g.sizes[i + 1] * g.strides[i + 1] : 1);
    int64_t target = new_sizes[i];
    if (target == -1) {
      STRIDED_CHECK(dim >= 0, "expand: The expanded size of the tensor (-1) isn't allowed in a "
                              "leading, non-existing dimension ", i);
      target = size;
    }
    if (size != target) {
      STRIDED_CHECK(size == 1, "expand: The expanded size of the tensor (", target,
                    ") must match the existing size (", size, ") at non-singleton dimension ", i,
                    ".  Target sizes: ", to_string(new_sizes), ".  Tensor sizes: ",
                    to_string(sizes));
      stride = 0;
    }
    STRIDED_CHECK(target >= 0, "expand: invalid size ", target, " at dimension ", i,
                  " (target sizes ", to_string(new_sizes), ")");
    g.sizes[i] = target;
    g.strides[i] = stride;
  }
  return g;
}

Shape infer_dense_strides(IntList sizes, IntList strides) {
  // TensorUtils / empty_like with preserve_format: order dims by stride (ascending; ties and
  // size-1 dims keep their original order from the back), then lay them out densely.
  const size_t n = sizes.size();
  if (n == 0) return {};
  std::vector<int64_t> perm(n);
  for (size_t i = 0; i < n; ++i) perm[i] = static_cast<int64_t>(n - 1 - i);  // innermost first
  // Insertion sort, as PyTorch's should_swap: swap only when the outer dim's stride is smaller.
  auto should_swap = [&](int64_t d0, int64_t d1) {
    if (strides[d0] == 0 || strides[d1] == 0) return 0;
    if (strides[d0] < strides[d1]) return -1;
    if (strides[d0] > strides[d1]) return 1;
    if (sizes[d0] > sizes[d1]) return 1;
    return 0;
  };
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
  Shape out(n);
  int64_t running = 1;
  for (size_t i = 0; i < n; ++i) {
    out[perm[i]] = running;
    running *= std::max<int64_t>(sizes[perm[i]], 1);
  }
  return out;
}

}  // namespace strided

namespace strided {
MemOverlap has_internal_overlap(IntList sizes, IntList strides) {
  if (is_non_overlapping_and_dense(sizes, strides)) return MemOverlap::No;
  for (size_t i = 0; i < sizes.size(); ++i)
    if (strides[i] == 0 && sizes[i] > 1) return MemOverlap::Yes;
  return MemOverlap::TooHard;
}
}  // namespace strided
