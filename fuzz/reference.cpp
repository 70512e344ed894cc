#include "reference.h"

#include <algorithm>
#include <utility>

namespace strided::fuzz {

namespace {

using Result = std::optional<Reference>;

// c10's maybe_wrap_dim: dims in [-n, n) with n = max(ndim, 1), so a 0-d tensor takes 0 and -1.
bool wrap(int64_t& dim, int64_t ndim) {
  const int64_t n = std::max<int64_t>(ndim, 1);
  if (dim < -n || dim >= n) return false;
  if (dim < 0) dim += n;
  return true;
}

int64_t ndim(const Reference& r) { return static_cast<int64_t>(r.sizes.size()); }

// Position of an index in row-major order.
int64_t linear(const Ints& sizes, const Ints& index) {
  int64_t k = 0;
  for (size_t d = 0; d < sizes.size(); ++d) k = k * sizes[d] + index[d];
  return k;
}

// Builds a result of out_sizes whose element at index i is r's element at index source(i). Every
// PyTorch view passes its sizes through c10's safe_compute_numel, so sizes whose product overflows
// (even before a 0) are refused whatever the op: [2^62, 0, 4] is a tensor, its permutation
// [4, 2^62, 0] is not.
template <class F>
Result gather(const Reference& r, Ints out_sizes, F&& source) {
  if (numel_overflows(out_sizes)) return std::nullopt;
  Reference out;
  out.sizes = std::move(out_sizes);
  const std::optional<int64_t> n = small_numel(out.sizes);
  if (!n) {
    out.too_big = true;
    return out;
  }
  out.addresses.reserve(static_cast<size_t>(*n));
  Ints index(out.sizes.size(), 0);
  for (int64_t k = 0; k < *n; ++k) {
    out.addresses.push_back(r.addresses[static_cast<size_t>(linear(r.sizes, source(index)))]);
    for (size_t d = index.size(); d-- > 0;) {  // odometer, last dim fastest
      if (++index[d] < out.sizes[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

// The same elements in the same order under another shape.
Result reshaped(const Reference& r, Ints sizes) {
  if (numel_overflows(sizes)) return std::nullopt;
  Reference out = r;
  out.sizes = std::move(sizes);
  return out;
}

// aten/src/ATen/InferSize.h: at most one -1, no other negative size, and the product must match
// numel (with the -1 standing for the missing factor, never when the others multiply to 0).
std::optional<Ints> infer_shape(const Ints& shape, int64_t numel) {
  std::optional<size_t> infer;
  __int128 product = 1;
  bool zero = false, overflow = false;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      if (infer) return std::nullopt;
      infer = d;
      continue;
    }
    if (shape[d] < 0) return std::nullopt;
    if (shape[d] == 0) zero = true;
    product *= shape[d];
    if (product > INT64_MAX) {
      overflow = true;
      product = 1;  // keeps multiplying harmless; the flag decides
    }
  }
  if (zero) product = 0;
  else if (overflow) return std::nullopt;
  const int64_t newsize = static_cast<int64_t>(product);
  Ints out = shape;
  if (numel == newsize || (infer && newsize > 0 && numel % newsize == 0)) {
    if (infer) {
      if (newsize == 0) return std::nullopt;
      out[*infer] = numel / newsize;
    }
    return out;
  }
  return std::nullopt;
}

// r was built, so its numel is small; but a size past int64 may sit before a 0 ([2^63-1, 2, 0]).
int64_t numel_of(const Reference& r) { return static_cast<int64_t>(r.addresses.size()); }

}  // namespace

std::optional<int64_t> small_numel(const Ints& sizes) {
  for (int64_t s : sizes)
    if (s < 0) return std::nullopt;
  for (int64_t s : sizes)
    if (s == 0) return 0;
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (s > kMaxReferenceElements) return std::nullopt;
    n *= s;
    if (n > kMaxReferenceElements) return std::nullopt;
  }
  return n;
}

bool numel_overflows(const Ints& sizes) {
  uint64_t n = 1;
  bool overflow = false;
  for (int64_t s : sizes) overflow |= __builtin_mul_overflow(n, static_cast<uint64_t>(s), &n);
  return overflow || n > static_cast<uint64_t>(INT64_MAX);
}

Reference from_layout(const Ints& sizes, const Ints& strides, int64_t offset) {
  Reference out;
  out.sizes = sizes;
  const std::optional<int64_t> n = small_numel(sizes);
  if (!n) {
    out.too_big = true;
    return out;
  }
  Ints index(sizes.size(), 0);
  for (int64_t k = 0; k < *n; ++k) {
    int64_t address = offset;
    for (size_t d = 0; d < sizes.size(); ++d) address += index[d] * strides[d];
    out.addresses.push_back(address);
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

Result as_strided(const Ints& sizes, const Ints& strides, int64_t offset, int64_t item,
                  int64_t storage_bytes) {
  if (sizes.size() != strides.size()) return std::nullopt;
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] < 0 || strides[d] < 0) return std::nullopt;
  if (offset < 0 || numel_overflows(sizes)) return std::nullopt;
  if (std::find(sizes.begin(), sizes.end(), 0) == sizes.end()) {
    // The farthest element, given up on as soon as it passes the storage (so nothing overflows).
    __int128 last = offset;
    for (size_t d = 0; d < sizes.size() && last < storage_bytes; ++d)
      last += static_cast<__int128>(sizes[d] - 1) * std::min<int64_t>(strides[d], storage_bytes);
    if (last >= storage_bytes || (last + 1) * item > storage_bytes) return std::nullopt;
  }
  return from_layout(sizes, strides, offset);
}

Result select(const Reference& r, int64_t dim, int64_t index) {
  if (ndim(r) == 0 || !wrap(dim, ndim(r))) return std::nullopt;
  const int64_t size = r.sizes[dim];
  if (index < -size || index >= size) return std::nullopt;
  if (index < 0) index += size;
  Ints sizes = r.sizes;
  sizes.erase(sizes.begin() + dim);
  return gather(r, sizes, [&](Ints i) {
    i.insert(i.begin() + dim, index);
    return i;
  });
}

Result slice(const Reference& r, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> stop, int64_t step) {
  // Python's slice.indices for a positive step: a negative bound counts from the end once, then
  // both are clamped to [0, size].
  if (ndim(r) == 0 || !wrap(dim, ndim(r)) || step <= 0) return std::nullopt;
  const int64_t size = r.sizes[dim];
  auto bound = [&](int64_t v) {
    if (v < 0) v += size;
    return std::clamp<int64_t>(v, 0, size);
  };
  const int64_t first = bound(start.value_or(0));
  const int64_t last = bound(stop.value_or(size));
  Ints sizes = r.sizes;
  sizes[dim] = last > first ? (last - first - 1) / step + 1 : 0;
  return gather(r, sizes, [&](Ints i) {
    i[dim] = first + i[dim] * step;
    return i;
  });
}

Result narrow(const Reference& r, int64_t dim, int64_t start, int64_t length) {
  // TensorShape.cpp, narrow, as PyTorch 2.6: a negative length is refused, start must lie in
  // [-size, size] and a negative one counts from the end; then [start, start + length) must lie in
  // the dim. (1.13 wrapped start as a dim, so a size of 0 took -1 too; 2.6 refuses it.)
  if (ndim(r) == 0 || !wrap(dim, ndim(r))) return std::nullopt;
  const int64_t size = r.sizes[dim];
  if (length < 0 || start < -size || start > size) return std::nullopt;
  if (start < 0) start += size;
  if (start > size - length) return std::nullopt;
  Ints sizes = r.sizes;
  sizes[dim] = length;
  return gather(r, sizes, [&](Ints i) {
    i[dim] += start;
    return i;
  });
}

Result permute(const Reference& r, const Ints& dims) {
  if (static_cast<int64_t>(dims.size()) != ndim(r)) return std::nullopt;
  Ints wrapped = dims;
  std::vector<bool> seen(dims.size(), false);
  for (int64_t& d : wrapped) {
    if (!wrap(d, ndim(r)) || seen[d]) return std::nullopt;
    seen[d] = true;
  }
  Ints sizes;
  for (int64_t d : wrapped) sizes.push_back(r.sizes[d]);
  return gather(r, sizes, [&](const Ints& i) {
    Ints src(i.size());
    for (size_t k = 0; k < i.size(); ++k) src[wrapped[k]] = i[k];
    return src;
  });
}

Result transpose(const Reference& r, int64_t dim0, int64_t dim1) {
  if (!wrap(dim0, ndim(r)) || !wrap(dim1, ndim(r))) return std::nullopt;
  if (ndim(r) == 0) return r;
  Ints order(r.sizes.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int64_t>(k);
  std::swap(order[dim0], order[dim1]);
  return permute(r, order);
}

Result t(const Reference& r) {
  if (ndim(r) > 2) return std::nullopt;
  return transpose(r, 0, ndim(r) < 2 ? 0 : 1);
}

Result mT(const Reference& r) {
  if (ndim(r) == 0) return r;  // torch 1.13: a 0-d tensor's mT is the tensor itself
  if (ndim(r) < 2) return std::nullopt;
  return transpose(r, -2, -1);
}

Result movedim(const Reference& r, int64_t source, int64_t destination) {
  if (!wrap(source, ndim(r)) || !wrap(destination, ndim(r))) return std::nullopt;
  if (ndim(r) == 0) return r;
  Ints order;
  for (int64_t d = 0; d < ndim(r); ++d)
    if (d != source) order.push_back(d);
  order.insert(order.begin() + destination, source);
  return permute(r, order);
}

Result diagonal(const Reference& r, int64_t offset, int64_t dim1, int64_t dim2) {
  if (!wrap(dim1, ndim(r)) || !wrap(dim2, ndim(r)) || dim1 == dim2) return std::nullopt;
  const __int128 rows = r.sizes[dim1], cols = r.sizes[dim2], k = offset;
  const __int128 length = std::max<__int128>(
      0, k >= 0 ? std::min(rows, cols - k) : std::min(rows + k, cols));
  Ints sizes;
  for (int64_t d = 0; d < ndim(r); ++d)
    if (d != dim1 && d != dim2) sizes.push_back(r.sizes[d]);
  sizes.push_back(static_cast<int64_t>(length));
  return gather(r, sizes, [&](const Ints& i) {
    Ints src(r.sizes.size());
    size_t next = 0;
    for (int64_t d = 0; d < ndim(r); ++d)
      if (d != dim1 && d != dim2) src[d] = i[next++];
    const int64_t j = i.back();
    src[dim1] = j + (offset < 0 ? -offset : 0);
    src[dim2] = j + (offset > 0 ? offset : 0);
    return src;
  });
}

Result expand(const Reference& r, const Ints& target) {
  // ExpandUtils.cpp, inferExpandGeometry: align from the right; -1 keeps an existing size; only a
  // size-1 dim may grow; new leading dims may take any size but -1.
  const int64_t n = static_cast<int64_t>(target.size());
  if (n < ndim(r)) return std::nullopt;
  Ints sizes(target.size());
  for (int64_t i = 0; i < n; ++i) {
    const int64_t d = ndim(r) - n + i;
    const int64_t size = d >= 0 ? r.sizes[d] : 1;
    int64_t want = target[i];
    if (want == -1) {
      if (d < 0) return std::nullopt;
      want = size;
    }
    if (want < 0 || (want != size && size != 1)) return std::nullopt;
    sizes[i] = want;
  }
  if (numel_overflows(sizes)) return std::nullopt;
  return gather(r, sizes, [&](const Ints& i) {
    Ints src(r.sizes.size());
    for (int64_t d = 0; d < ndim(r); ++d) src[d] = r.sizes[d] == 1 ? 0 : i[d + n - ndim(r)];
    return src;
  });
}

Result unsqueeze(const Reference& r, int64_t dim) {
  if (!wrap(dim, ndim(r) + 1)) return std::nullopt;
  Ints sizes = r.sizes;
  sizes.insert(sizes.begin() + dim, 1);
  return reshaped(r, sizes);
}

Result squeeze(const Reference& r, std::optional<int64_t> dim) {
  if (dim && !wrap(*dim, ndim(r))) return std::nullopt;
  Ints sizes;
  for (int64_t d = 0; d < ndim(r); ++d)
    if (r.sizes[d] != 1 || (dim && *dim != d)) sizes.push_back(r.sizes[d]);
  return reshaped(r, sizes);
}

Result reshape(const Reference& r, const Ints& shape) {
  const std::optional<Ints> sizes = infer_shape(shape, numel_of(r));
  if (!sizes) return std::nullopt;
  return reshaped(r, *sizes);
}

Result flatten(const Reference& r, int64_t start_dim, int64_t end_dim) {
  if (!wrap(start_dim, ndim(r)) || !wrap(end_dim, ndim(r)) || start_dim > end_dim)
    return std::nullopt;
  if (ndim(r) == 0) return reshaped(r, {1});
  Ints sizes(r.sizes.begin(), r.sizes.begin() + start_dim);
  // The merged size is the product of the merged sizes, 0 when one of them is 0 whatever the
  // others (PyTorch flattens [2^63-1, 2, 0] to [0]); a product past int64 otherwise is refused.
  const Ints merged_sizes(r.sizes.begin() + start_dim, r.sizes.begin() + end_dim + 1);
  int64_t merged = 1;
  if (std::find(merged_sizes.begin(), merged_sizes.end(), 0) != merged_sizes.end()) merged = 0;
  else
    for (int64_t size : merged_sizes)
      if (__builtin_mul_overflow(merged, size, &merged)) return std::nullopt;
  sizes.push_back(merged);
  sizes.insert(sizes.end(), r.sizes.begin() + end_dim + 1, r.sizes.end());
  return reshaped(r, sizes);
}

Result unflatten(const Reference& r, int64_t dim, const Ints& split) {
  if (ndim(r) == 0 || !wrap(dim, ndim(r)) || split.empty()) return std::nullopt;
  const std::optional<Ints> parts = infer_shape(split, r.sizes[dim]);
  if (!parts) return std::nullopt;
  Ints sizes(r.sizes.begin(), r.sizes.begin() + dim);
  sizes.insert(sizes.end(), parts->begin(), parts->end());
  sizes.insert(sizes.end(), r.sizes.begin() + dim + 1, r.sizes.end());
  if (numel_overflows(sizes)) return std::nullopt;
  return reshaped(r, sizes);
}

Result unfold(const Reference& r, int64_t dim, int64_t size, int64_t step) {
  // TensorShape.cpp, unfold: windows of size elements, step apart, along dim, as a new last dim.
  if (!wrap(dim, ndim(r))) return std::nullopt;
  const int64_t max_size = ndim(r) == 0 ? 1 : r.sizes[dim];
  if (size > max_size || step <= 0 || size < 0) return std::nullopt;
  Ints sizes = r.sizes;
  if (ndim(r) > 0) {
    const int64_t more = (r.sizes[dim] - size) / step;
    if (more == INT64_MAX) return std::nullopt;  // one window more than int64 counts
    sizes[dim] = more + 1;
  }
  sizes.push_back(size);
  return gather(r, sizes, [&](const Ints& i) {
    if (ndim(r) == 0) return Ints{};
    Ints src(i.begin(), i.end() - 1);
    src[dim] = i[dim] * step + i.back();
    return src;
  });
}

}  // namespace strided::fuzz
