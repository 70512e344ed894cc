// The layout algebra: pure functions of layouts (sizes, strides and an offset), with no storage and
// no data.
// Each rule follows PyTorch (c10/core/Contiguity.h, aten/src/ATen/TensorUtils.cpp,
// aten/src/ATen/ExpandUtils.cpp, aten/src/ATen/native/TensorShape.cpp) and cites it where it lives.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "strided/core/shape.h"

namespace strided {

// ---- the layout, a value ------------------------------------------------------------------------
// A layout is sizes, strides and a storage offset, all in elements: the map from an index to the
// place of its element in storage, storage_offset + Σ index[d] · stride[d]. It is the metadata of
// c10's TensorImpl (sizes_and_strides_, storage_offset_) apart from any storage, as tinygrad's
// View and CuTe's Layout are. The functions of this header take layouts, and the view ops return
// them; a Tensor is a storage, a Layout and a dtype.
// The one constructor checks what makes a layout at all: as many strides as sizes, and no size
// below 0 ("Layout: negative size at dim 1: sizes [2, -1]"). A stride may be negative, as
// NumPy's are; whether a storage holds every element is Tensor's check, which knows the storage.
class Layout {
 public:
  Layout() = default;  // 0-d, at offset 0: one element
  Layout(Shape sizes, Shape strides, int64_t storage_offset = 0)
      : sizes_(std::move(sizes)), strides_(std::move(strides)), offset_(storage_offset) {
    // Inline, as every view op makes one: the refusal is worded out of line.
    bool bad = sizes_.size() != strides_.size();
    for (int64_t s : sizes_) bad = bad || s < 0;
    if (bad) refuse();
  }
  // Row-major over sizes (contiguous_strides), as torch.empty lays a tensor out.
  static Layout contiguous(Shape sizes, int64_t storage_offset = 0);

  const Shape& sizes() const { return sizes_; }
  const Shape& strides() const { return strides_; }
  int64_t storage_offset() const { return offset_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  bool operator==(const Layout&) const = default;

 private:
  [[noreturn]] void refuse() const;  // throws the Error that names what is wrong
  Shape sizes_;
  Shape strides_;
  int64_t offset_ = 0;
};
// "(2,3,4):(12,4,1)", the shape:stride notation of the book (the offset is not written).
std::string to_string(const Layout& layout);
std::ostream& operator<<(std::ostream& out, const Layout& layout);

// A dim index in [-ndim, ndim) wrapped to [0, ndim); a 0-d tensor accepts -1 and 0 (c10's
// maybe_wrap_dim with wrap_scalar). Error: "<op>: Dimension out of range (expected to be in range
// of [-2, 1], but got 5)".
// Arithmetic that wraps like two's-complement hardware, for strides and offsets: PyTorch forms
// them without overflow checks, and they overflow only on dims of size 0 or 1, which never
// address an element. Wrapping gives PyTorch's numbers there without undefined behaviour.
int64_t wrapping_mul(int64_t a, int64_t b);
int64_t wrapping_add(int64_t a, int64_t b);

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op);

// Row-major strides of a dense tensor: stride[i] = prod(sizes[i+1:]), with size-0 and size-1
// dims counted as 1 (c10::contiguous_strides).
Shape contiguous_strides(IntList sizes);

// PyTorch's is_contiguous: size-1 dims are ignored and a tensor with no elements is contiguous
// (c10/core/Contiguity.h, _compute_contiguous).
bool is_contiguous(const Layout& layout);
// The seed notebook's stricter test: stride[-1] == 1 and stride[i] == size[i+1] * stride[i+1]
// for every i, size-1 dims included (0-d and empty tensors count as contiguous).
bool is_contiguous_strict(const Layout& layout);
// PyTorch's is_non_overlapping_and_dense: some permutation of the dims is contiguous.
bool is_non_overlapping_and_dense(const Layout& layout);
// c10's is_contiguous(MemoryFormat::ChannelsLast) for 4-d layouts (c10/core/Contiguity.h,
// _compute_channels_last_contiguous_2d): dense in the dim order C, W, H, N, size-1 dims ignored.
bool is_channels_last_contiguous(const Layout& layout);
// Channels last's dim order for a 4-d (N, C, H, W) tensor, innermost first: C, W, H, N
// (c10/core/MemoryFormat.h, get_channels_last_strides_2d). The one spelling of the order that
// channels_last_strides, is_channels_last_contiguous and is_channels_last_strides walk.
inline constexpr int kChannelsLastOrder[4] = {1, 3, 2, 0};

// Smallest and largest element offsets a layout reaches (min == max+1 means empty).
struct Extent {
  int64_t min = 0;
  int64_t max = -1;
  bool empty() const { return max < min; }
};
Extent extent(const Layout& layout);

// view's stride computation (aten/src/ATen/TensorUtils.cpp, computeStride): the strides a view
// with new_sizes would have, or nullopt when no view is possible and reshape must copy.
std::optional<Shape> compute_view_strides(const Layout& old, IntList new_sizes);
// The same walk, saying where it stopped: the walk cuts the old dims, from the last, into chunks
// that step as one (dims first..last, where stride[d-1] = (size[d] · … · size[last]) · stride[last]
// joins d-1 to the chunk of d), and gives each chunk the new dims new_first..new_last, whose sizes
// must multiply to the chunk's numel. On a refusal, *last (when given) is the chunk that failed:
// its new dims multiply to new_numel, not numel. first == -1 means new dims were left over (the
// shapes' numels differ). view_refusal (refusal.h) puts this in words.
struct ViewChunk {
  int64_t first = 0, last = 0, numel = 0;
  int64_t new_first = 0, new_last = 0, new_numel = 0;
};
std::optional<Shape> view_strides_walk(const Layout& old, IntList new_sizes, ViewChunk* last);

// Resolves one -1 in a requested shape against numel (aten/src/ATen/InferSize.h). Errors:
// "only one dimension can be inferred", "invalid shape dimension -2",
// "shape '[2, -1]' is invalid for input of size 7". op names the caller in the message.
Shape infer_size(IntList shape, int64_t numel);
Shape infer_size(IntList shape, int64_t numel, const char* op);
// The same, but a shape whose sizes cannot multiply to numel gives nullopt rather than the last
// error above; the shape's own refusals (two -1s, a size below -1, an overflow) still raise.
std::optional<Shape> infer_size_if_fits(IntList shape, int64_t numel, const char* op);

// Broadcast two or more shapes (aten/src/ATen/ExpandUtils.cpp, infer_size). Error: "The size of
// tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1".
Shape broadcast_shapes(IntList a, IntList b);
Shape broadcast_shapes(const std::vector<Shape>& shapes);

// expand's geometry (ExpandUtils.cpp, inferExpandGeometry): new leading dims and expanded
// size-1 dims get stride 0; the offset stays. Errors name the sizes as PyTorch's do.
Layout expand_geometry(const Layout& layout, IntList new_sizes);

// ---- the geometry of each view op (aten/src/ATen/native/TensorShape.cpp) -----------------------
// A view is a new layout over the same storage; these functions compute it and raise PyTorch's
// errors, and nothing else. Tensor's view methods wrap them. Where no offset is named, the view
// keeps its base's.
// select: drops dim, moves the offset by index * stride[dim]; the index wraps once.
Layout select_geometry(const Layout& layout, int64_t dim, int64_t index);
// slice: start and end default to 0 and the size, wrap once, then clamp to [0, size];
// end < start gives size 0; size = ceil((end - start) / step), stride *= step (step > 0).
Layout slice_geometry(const Layout& layout, int64_t dim, std::optional<int64_t> start,
                      std::optional<int64_t> end, int64_t step);
// diagonal: drops dim1 and dim2 and appends the diagonal as the last dim, of stride
// stride[dim1] + stride[dim2]; a positive k starts k columns (dim2) in, a negative k |k| rows
// (dim1) down. An empty diagonal keeps the offset (NumPy allows offsets "off the end").
Layout diagonal_geometry(const Layout& layout, int64_t k, int64_t dim1, int64_t dim2);
// permute: size'[i] = size[dims[i]], stride'[i] = stride[dims[i]].
Layout permute_geometry(const Layout& layout, IntList dims);
// transpose: dims dim0 and dim1 (each wrapped) swap their sizes and strides; a dim with itself, or
// a 0-d layout, is the same layout.
Layout transpose_geometry(const Layout& layout, int64_t dim0, int64_t dim1);
// unsqueeze: a size-1 dim at dim, of stride size*stride of the dim it lands before, or 1 at the
// end (inferUnsqueezeGeometry).
Layout unsqueeze_geometry(const Layout& layout, int64_t dim);
// squeeze: drops every size-1 dim, or only dim when given and of size 1.
Layout squeeze_geometry(const Layout& layout, std::optional<int64_t> dim);
// squeeze of several dims (PyTorch 2.0's squeeze.dims): drops those of dims that have size 1; a dim
// named twice is refused, as dim_list_to_bitset refuses it.
Layout squeeze_geometry(const Layout& layout, IntList dims);
// unfold: dim becomes (size[dim] - size) / step + 1 windows of stride step * stride[dim], and a
// new last dim of the window's size and stride[dim] (1 for a 0-d tensor).
Layout unfold_geometry(const Layout& layout, int64_t dim, int64_t size, int64_t step);

// Bytes a layout reaches from the storage's start: (1 + sum (size-1)*stride + offset) * itemsize,
// or 0 when it has no elements (aten/src/ATen/EmptyTensor.cpp, computeStorageNbytes). Error on
// int64 overflow, in PyTorch's words: "<op>: Storage size calculation overflowed with sizes=[...]
// and strides=[...]".
int64_t storage_nbytes_needed(const Layout& layout, int64_t itemsize, const char* op);
// Bytes of a new contiguous tensor (EmptyTensor.cpp, computeStorageNbytesContiguous, which empty,
// zeros, ones, full, rand and arange allocate through): prod(sizes) * itemsize, where PyTorch
// 1.13 refuses an overflow of the product even when a later size is 0. Errors: "<op>: negative
// dimension ...", "<op>: Storage size calculation overflowed with sizes=[...]".
int64_t contiguous_nbytes_needed(IntList sizes, int64_t itemsize, const char* op);

// ---- walks of several operands ------------------------------------------------------------------
// A walk of several operands over one index space takes that space's sizes and one stride set per
// operand, as TensorIterator holds its operands (its `shape_` and each operand's `stride_bytes`):
// the operands share the sizes, so a list of layouts would repeat them.

// The order in which a walk over `sizes` nests its dims, as PyTorch decides it for a
// TensorIterator (TensorIterator.cpp, reorder_dimensions) and for empty_like of a non-dense
// tensor (TensorUtils.cpp, infer_dense_strides). The result lists the dims innermost first.
// Starting from (n-1, ..., 0), an insertion sort asks of each pair of dims every operand's
// strides in turn (an empty one is skipped: an output not yet allocated):
//   - an operand marked in `reduced_output` puts its stride-0 dims inside its other dims;
//   - a stride 0 on either side decides nothing: the next operand is asked;
//   - a smaller stride goes inside; for equal strides, the dim of larger size goes outside, and
//     otherwise the next operand is asked.
// When no operand decides, the pair keeps its order.
// Post-condition: a permutation of 0..n-1; along it, the first operand that decides every pair
// (for instance one with distinct non-zero strides) has non-decreasing strides, and a dim of
// stride 0 in every operand keeps its place relative to its neighbours (tests in layout_test).
Shape walk_order(IntList sizes, const std::vector<Shape>& strides,
                 const std::vector<bool>& reduced_output = {});

// Merges the adjacent dims of a walk that every operand steps over as one, as TensorIterator's
// coalesce_dimensions does. Dims are listed innermost first, as walk_order gives them; dims d and
// d+1 merge when one of them has size 1 or, for every operand, size[d] · stride[d] == stride[d+1];
// the merged dim takes the outer one's strides (the inner one's when the outer has size 1).
// sizes and every operand's strides are rewritten in place, to the same length.
// Post-condition: the merged walk visits, for every operand, the same offsets in the same order
// (a test sweeps random layouts), and no two adjacent dims left could merge.
void coalesce_dims(Shape& sizes, std::vector<Shape>& strides);

// The index odometer: visits the indices of `sizes` in row-major order (the last dim turning
// fastest), from row-major position begin up to end, and calls f(offsets), or f(index, offsets),
// at each: index and offsets are const int64_t*, the index's sizes.size() entries and, for each
// stride set k, offsets[k] = Σ_d index[d] · strides[k][d], the offsets of several operands that
// walk one index space (in elements or in bytes, as the strides are given). Every stride set has sizes.size() entries, and 0 <= begin <= end <= numel(sizes).
// The offsets follow the index incrementally as it turns, wrapping as wrapping_add does; a caller
// that needs them in range checks the layout first (memory.h's element_offsets does).
// Post-condition: f is called end - begin times, the i-th time with the offsets of the index at
// row-major position begin + i (layout_test compares them with the sums for many layouts).
// The engine's plan walks with its own counter (TensorIterator::serial_for_each), in blocks of
// rows rather than one call per element; this one serves the walks that go element by element.
template <class F>
void for_each_index(IntList sizes, const std::vector<Shape>& strides, int64_t begin, int64_t end,
                    F&& f) {
  if (begin >= end) return;
  const size_t nd = sizes.size(), nk = strides.size();
  auto add = [](int64_t a, int64_t b) {  // two's-complement wrap, without undefined behaviour
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  };
  auto mul = [](int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  };
  Shape index(nd, 0), offsets(nk, 0);
  int64_t rest = begin;
  for (size_t d = nd; d-- > 0;) {
    index[d] = rest % sizes[d];
    rest /= sizes[d];
    for (size_t k = 0; k < nk; ++k) offsets[k] = add(offsets[k], mul(index[d], strides[k][d]));
  }
  for (int64_t n = end - begin; n > 0; --n) {
    if constexpr (std::is_invocable_v<F&, const int64_t*, const int64_t*>)
      f(static_cast<const int64_t*>(index.data()), static_cast<const int64_t*>(offsets.data()));
    else
      f(static_cast<const int64_t*>(offsets.data()));
    for (size_t d = nd; d-- > 0;) {
      if (++index[d] < sizes[d]) {
        for (size_t k = 0; k < nk; ++k) offsets[k] = add(offsets[k], strides[k][d]);
        break;
      }
      for (size_t k = 0; k < nk; ++k)
        offsets[k] = add(offsets[k], mul(-(sizes[d] - 1), strides[k][d]));
      index[d] = 0;
    }
  }
}
// Every index of sizes: positions 0 to numel(sizes).
template <class F>
void for_each_index(IntList sizes, const std::vector<Shape>& strides, F&& f) {
  for_each_index(sizes, strides, 0, checked_numel(sizes, "for_each_index"), std::forward<F>(f));
}

// The sizes flatten(start_dim, end_dim) gives (TensorShape.cpp, flatten), after its checks: dims
// start..end merged into one of their product; a 0-d tensor's sizes become (1). Whether the result
// is a view is reshape's question, answered by the caller. Post-condition: the product of the
// result equals the product of sizes.
Shape flatten_sizes(IntList sizes, int64_t start_dim, int64_t end_dim);

// The sizes of a reduction's result along dim (ReduceOpsUtils.h, shape_from_dim_mask): sizes
// without dim, or with dim as size 1 when keepdim. dim is already wrapped; a 0-d tensor's result
// is 0-d (or, with keepdim, also 0-d: it has no dim to keep).
Shape reduced_sizes(IntList sizes, int64_t dim, bool keepdim);

// Dense strides that follow a walk order: perm lists the dims innermost first (as walk_order gives
// them); perm[0] gets stride 1 and each next dim the product of the sizes of the dims inside it.
// PyTorch forms this product in two places that part on size-0 dims: TensorIterator's
// compatible_stride (allocate_or_resize_outputs) multiplies the sizes as they are, so a size-0 dim
// gives stride 0 to every dim outside it (harmless: there are no elements); empty_like's
// infer_dense_strides multiplies max(size, 1). `zero` says which.
// Post-condition: non-overlapping and dense, with strides non-decreasing along perm (layout_test).
enum class ZeroSizes : uint8_t { AsIs, AsOne };
Shape dense_strides_in_order(IntList sizes, IntList perm, ZeroSizes zero);

// The strides TensorIterator allocates an output with once it has ordered the dims
// (allocate_or_resize_outputs): row-major when the walk is the tensor's own order (perm is
// n-1, ..., 0), else dense_strides_in_order(sizes, perm, AsIs). The two differ only on size-0 and
// size-1 dims, where strides do not matter; PyTorch returns the row-major ones.
Shape walk_output_strides(IntList sizes, IntList perm);

// The strides PyTorch gives an output that should follow an input's layout
// (TensorUtils.cpp/empty_like's infer_dense_strides): dense, in walk_order of the input.
Shape infer_dense_strides(const Layout& layout);

// PyTorch's cheap self-overlap test (aten/src/ATen/MemoryOverlap.cpp, has_internal_overlap):
// No when non-overlapping and dense, Yes when a dim of size > 1 has stride 0, else TooHard.
enum class MemOverlap : uint8_t { No, Yes, TooHard };
MemOverlap has_internal_overlap(const Layout& layout);
}  // namespace strided
