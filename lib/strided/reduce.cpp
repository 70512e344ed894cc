#include "strided/reduce.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "strided/iterator.h"
#include "strided/layout.h"
#include "strided/ops.h"
#include "strided/parallel.h"
#include "strided/promotion.h"
#include "strided/vec.h"

namespace strided {

// NOTE: [Reduction paths]
// Every reduction runs on one plan (make_reduction below): its results are viewed over x's shape
// with stride 0 on the reduced dims, and the plan puts those dims innermost, as for PyTorch's
// TensorIterator. For a reduction along dim d, plan dim 0 is then d, of size R = x.size(d), and
// the kept dims follow in the order of the (contiguous) results. The plan's strides pick one of
// three loops, as cpu/Reduce.h's checks do:
//  - inner: x has unit stride along plan dim 0 (x.stride(d) == 1). Each output reduces one
//    contiguous row of R elements, vectorised across the row (vectorized_reduction).
//  - outer: x has unit stride along a kept dim c (the last one of a contiguous x when d is not
//    last). For each index of the other kept dims, the rows x[..., i, ...] (i along d) are each
//    contiguous along c, and are combined element-wise: out[j] = op(out[j], row_i[j]), vectorised
//    across j (vectorized_outer_reduction). This is the layout the seed's x.max(-2) walks (seed
//    000, In[15]); the reads follow memory exactly as in the inner case, which is why the book can
//    time one against the other.
//  - strided: anything else, one output at a time, stepping by x.stride(d).
// The outputs are split over threads in runs of whole outputs. A single output (a reduction over
// all elements) is split instead into pieces of the plan's walk, whose partial results combine in
// order: the plan walks memory in its own order, which a sum, max or min does not depend on (up
// to float rounding), so a dense x is one run however it is permuted.

namespace {

using vec::load;
using vec::load1;
using vec::store;
using vec::store1;
using vec::Vec;

// ---- element types ------------------------------------------------------------------------------

// The type an element is compared or summed in: wide_t (dtype.h), float32 for 16-bit floats.
template <class T>
using Wide = wide_t<T>;

// Sums accumulate floats in their wide type and everything else in int64, as PyTorch's sum of an
// integral or bool tensor gives int64; integer sums wrap (two's complement), so they run in
// uint64 (vec.h's note on signed overflow).
template <class T>
using SumAcc = std::conditional_t<std::is_floating_point_v<Wide<T>>, Wide<T>, uint64_t>;
template <class T>
SumAcc<T> sum_value(const char* p) {
  if constexpr (std::is_same_v<T, bool>)
    return load1<uint8_t>(p) != 0 ? 1 : 0;
  else if constexpr (std::is_integral_v<T>)
    return static_cast<uint64_t>(static_cast<int64_t>(load1<T>(p)));
  else
    return widen(load1<T>(p));
}
// The stored element type equals the accumulator's bits: the row can be read as vectors.
template <class T>
inline constexpr bool kVectorSum =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int64_t>;
template <class T>
using SumLoad = std::conditional_t<std::is_same_v<T, int64_t>, uint64_t, T>;

template <class T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return v != v;
  else
    return false;
}

// The outer path's column chunk (NOTE: [Reduction paths]): its running results stay in L1.
constexpr int64_t kColumns = 256;

// ---- sums
// -------------------------------------------------------------------------------------------
// Pairwise (cascade) summation, as cpu/SumKernel.cpp: the error of a float sum grows with log(n).

// n contiguous elements of A (float, double or uint64) from byte address p.
template <class A>
A sum_contiguous(const char* p, int64_t n) {
  constexpr int64_t S = sizeof(A);
  constexpr int64_t L = vec::kLanes<A>;
  constexpr int64_t kBase = 64 * L;  // 16 additions per lane of each of 4 accumulators
  if (n > kBase) {
    const int64_t half = (n / 2) / (4 * L) * (4 * L);
    return sum_contiguous<A>(p, half) + sum_contiguous<A>(p + half * S, n - half);
  }
  Vec<A> a0{}, a1{}, a2{}, a3{};
  int64_t i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    a0 += load<A>(p + i * S);
    a1 += load<A>(p + (i + L) * S);
    a2 += load<A>(p + (i + 2 * L) * S);
    a3 += load<A>(p + (i + 3 * L) * S);
  }
  const Vec<A> s = (a0 + a1) + (a2 + a3);
  A r = 0;
  for (int64_t l = 0; l < L; ++l) r += s[l];
  for (; i < n; ++i) r += load1<A>(p + i * S);
  return r;
}

// n elements of T at byte stride sb, any dtype.
template <class T>
SumAcc<T> sum_strided(const char* p, int64_t sb, int64_t n) {
  if (n > 64) {
    const int64_t half = n / 2;
    return sum_strided<T>(p, sb, half) + sum_strided<T>(p + half * sb, sb, n - half);
  }
  SumAcc<T> r = 0;
  for (int64_t i = 0; i < n; ++i) r += sum_value<T>(p + i * sb);
  return r;
}

template <class T>
SumAcc<T> sum_row(const char* p, int64_t sb, int64_t n) {
  if constexpr (kVectorSum<T>) {
    if (sb == static_cast<int64_t>(sizeof(T))) return sum_contiguous<SumLoad<T>>(p, n);
  }
  return sum_strided<T>(p, sb, n);
}

// out[j] = sum over i < rows of element j of row i, for w columns: row i starts at p + i * rs
// and its columns are contiguous. Blocks of up to 16 rows add up in order; blocks combine
// pairwise (SumKernel.cpp's multi-level cascade over the outer dim).
template <class T>
void sum_rows(const char* p, int64_t rs, int64_t rows, int64_t w, SumAcc<T>* out) {
  using A = SumAcc<T>;
  constexpr int64_t S = sizeof(T);
  if (rows > 16) {
    const int64_t half = rows / 2;
    sum_rows<T>(p, rs, half, w, out);
    A tmp[kColumns];  // w <= kColumns: the caller's column chunk
    sum_rows<T>(p + half * rs, rs, rows - half, w, tmp);
    for (int64_t j = 0; j < w; ++j) out[j] += tmp[j];
    return;
  }
  for (int64_t j = 0; j < w; ++j) out[j] = 0;
  for (int64_t i = 0; i < rows; ++i) {
    const char* row = p + i * rs;
    int64_t j = 0;
    if constexpr (kVectorSum<T>) {
      using V = SumLoad<T>;
      constexpr int64_t L = vec::kLanes<V>;
      char* o = reinterpret_cast<char*>(out);
      for (; j + 2 * L <= w; j += 2 * L) {
        store<V>(o + j * S, load<V>(o + j * S) + load<V>(row + j * S));
        store<V>(o + (j + L) * S, load<V>(o + (j + L) * S) + load<V>(row + (j + L) * S));
      }
    }
    for (; j < w; ++j) out[j] += sum_value<T>(row + j * S);
  }
}

// ---- max and min
// ----------------------------------------------------------------------------------

// Whether v replaces best as the running maximum (minimum): strictly greater (smaller), so ties
// keep the first index; a NaN replaces any number and is never replaced (TensorCompareKernel.cpp,
// compare_base_kernel's "!(value <= max) ... break on NaN"; SharedReduceOps.h, GreaterOrNan).
template <bool IsMax, class C>
bool better(C v, C best) {
  if (is_nan(best)) return false;
  if (is_nan(v)) return true;
  return IsMax ? v > best : v < best;
}

template <class C>
struct Best {
  C value;
  int64_t index;
};

// The first extreme of n elements at byte stride sb.
template <bool IsMax, class T>
Best<Wide<T>> extreme_strided(const char* p, int64_t sb, int64_t n) {
  Best<Wide<T>> b{widen(load1<T>(p)), 0};
  for (int64_t i = 1; i < n && !is_nan(b.value); ++i) {
    const Wide<T> v = widen(load1<T>(p + i * sb));
    if (better<IsMax>(v, b.value)) b = {v, i};
  }
  return b;
}

template <class T>
inline constexpr bool kVectorCompare = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                       std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;
// Signed integer lanes as wide as T: the type of a vector comparison's result.
template <class T>
using Lane = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;

// Any lane of a comparison's result set?
template <class M>
bool any_lane(M m) {
  uint64_t half[2];
  static_assert(sizeof(M) == sizeof half);
  std::memcpy(half, &m, sizeof half);
  return (half[0] | half[1]) != 0;
}

// The first extreme of n >= 1 contiguous elements, in two vectorised passes over a row that
// stays in cache: the extreme value (with a flag per lane that a NaN was seen), then the first
// index holding it (the first NaN, when there is one). The value pass ignores NaN ordering, as
// the flag decides.
template <bool IsMax, class T>
Best<T> extreme_contiguous(const char* p, int64_t n) {
  constexpr int64_t S = sizeof(T);
  constexpr int64_t L = vec::kLanes<T>;
  using V = Vec<T>;
  using M = Vec<Lane<T>>;
  T best = load1<T>(p);
  bool nan = is_nan(best);
  int64_t i = 0;
  if (n >= 2 * L) {
    V b0 = load<T>(p), b1 = load<T>(p + L * S);
    M n0 = b0 != b0, n1 = b1 != b1;
    for (i = 2 * L; i + 2 * L <= n; i += 2 * L) {
      const V v0 = load<T>(p + i * S), v1 = load<T>(p + (i + L) * S);
      if constexpr (IsMax) {
        b0 = v0 > b0 ? v0 : b0;
        b1 = v1 > b1 ? v1 : b1;
      } else {
        b0 = v0 < b0 ? v0 : b0;
        b1 = v1 < b1 ? v1 : b1;
      }
      if constexpr (std::is_floating_point_v<T>) {
        n0 |= v0 != v0;
        n1 |= v1 != v1;
      }
    }
    if constexpr (std::is_floating_point_v<T>) nan |= any_lane(n0 | n1);
    for (int64_t l = 0; l < L; ++l) {
      if (better<IsMax>(b0[l], best)) best = b0[l];
      if (better<IsMax>(b1[l], best)) best = b1[l];
    }
  }
  for (; i < n; ++i) {
    const T v = load1<T>(p + i * S);
    if (better<IsMax>(v, best)) best = v;
    nan |= is_nan(v);
  }
  int64_t k = 0;
  if (!nan) {
    const V target = vec::splat(best);
    for (; k + L <= n; k += L)
      if (any_lane(load<T>(p + k * S) == target)) break;
  }
  for (; k < n; ++k) {
    const T v = load1<T>(p + k * S);
    if (nan ? is_nan(v) : v == best) return {v, k};
  }
  return {best, 0};  // not reached: best is one of the elements
}

template <bool IsMax, class T>
Best<Wide<T>> extreme_row(const char* p, int64_t sb, int64_t n) {
  if constexpr (kVectorCompare<T>) {
    if (sb == static_cast<int64_t>(sizeof(T))) return extreme_contiguous<IsMax, T>(p, n);
  }
  return extreme_strided<IsMax, T>(p, sb, n);
}

// Rows combined element-wise: the running extreme and its index for w columns, as sum_rows.
template <bool IsMax, class T>
void extreme_rows(const char* p, int64_t rs, int64_t rows, int64_t w, Wide<T>* best,
                  int64_t* index) {
  constexpr int64_t S = sizeof(T);
  for (int64_t j = 0; j < w; ++j) {
    best[j] = widen(load1<T>(p + j * S));
    index[j] = 0;
  }
  int64_t j0 = 0;
  if constexpr (kVectorCompare<T>) {
    // Vectors of values with a vector of row numbers beside them; the row numbers fit the lane
    // type (the caller takes this path only when rows does).
    using V = Vec<T>;
    using I = Lane<T>;
    using M = Vec<I>;
    constexpr int64_t L = vec::kLanes<T>;
    std::vector<I> idx(static_cast<size_t>(L));
    for (; j0 + L <= w; j0 += L) {
      V b = load<T>(p + j0 * S);
      M ix{};
      for (int64_t i = 1; i < rows; ++i) {
        const V v = load<T>(p + i * rs + j0 * S);
        M take = IsMax ? (v > b) : (v < b);
        if constexpr (std::is_floating_point_v<T>) take = (take | (v != v)) & (b == b);
        b = take ? v : b;
        ix = take ? (M{} + static_cast<I>(i)) : ix;
      }
      for (int64_t l = 0; l < L; ++l) {
        best[j0 + l] = b[l];
        index[j0 + l] = ix[l];
      }
    }
  }
  for (int64_t i = 1; i < rows; ++i)
    for (int64_t j = j0; j < w; ++j) {
      const Wide<T> v = widen(load1<T>(p + i * rs + j * S));
      if (better<IsMax>(v, best[j])) {
        best[j] = v;
        index[j] = i;
      }
    }
}

// ---- the plan
// -----------------------------------------------------------------------------------------

// ReduceOpsUtils.h, make_reduction: the results, allocated contiguous in the reduced shape, are
// viewed over x's shape with stride 0 on the reduced dims (review_reduce_result) and walked with x
// by one plan, which orders the reduced dims innermost (iterator.h's is_reduction). dim is the
// reduced dim, already wrapped, or nullopt for all of them.
TensorIterator make_reduction(const char* op, const Tensor& x, std::optional<int64_t> dim,
                              const std::vector<Tensor>& results) {
  Shape view(static_cast<size_t>(x.dim()), 0);
  if (dim && x.dim() > 0) {
    Shape kept;
    for (int64_t d = 0; d < x.dim(); ++d)
      if (d != *dim) kept.push_back(x.size(d));
    const Shape strides = contiguous_strides(kept);
    for (int64_t d = 0, k = 0; d < x.dim(); ++d)
      if (d != *dim) view[d] = strides[k++];
  }
  TensorIteratorConfig config;
  config.set_op_name(op)
      .set_check_mem_overlap(false)  // the view repeats each result over the reduced dims
      .check_all_same_dtype(false)   // int64 sums of integers, int64 indices
      .resize_outputs(false)
      .is_reduction(true);
  for (const Tensor& r : results) config.add_output(r.as_strided(x.sizes(), view, 0));
  config.add_input(x);
  return config.build();
}

// The outer path's column dim: the first kept plan dim (plan dims 1, 2, ...) along which x has
// unit stride, or -1 (NOTE: [Reduction paths]). R is the reduced dim's size; when R > 1 it is plan
// dim 0, where every result has stride 0.
int outer_dim(const TensorIterator& plan, int64_t R) {
  const IterOperand& x = plan.operand(plan.noutputs());
  if (R <= 1 || x.stride_bytes[0] == x.element_size()) return -1;  // none, or the inner path
  for (int d = 1; d < plan.ndim(); ++d)
    if (x.stride_bytes[d] == x.element_size()) return d;
  return -1;
}

// Which loop a plan of a reduction along one dim runs, from its strides alone: inner when x has
// unit stride along the reduced plan dim 0 (cpu/Reduce.h's is_contiguous_reduction), outer when it
// has along a kept one (is_outer_reduction, there plan dim 1 only), strided otherwise.
ReducePath path_of(const TensorIterator& plan, int64_t R) {
  if (R <= 1 || plan.ndim() == 0) return ReducePath::Strided;
  const IterOperand& x = plan.operand(plan.noutputs());
  if (x.stride_bytes[0] == x.element_size()) return ReducePath::Inner;
  return outer_dim(plan, R) >= 0 ? ReducePath::Outer : ReducePath::Strided;
}

// Runs body over the plan with its outputs split over threads, each chunk a run of whole outputs
// (ATen's parallel_dim_reduction splits the outputs, never a reduction, in the same way). Plan dim
// 0 is the reduced dim, so outputs [b, e) are the plan's linear range [b·R, e·R), and every block
// the body gets holds n1 whole rows of n0 = R inputs each (or, when R is 1, n0 × n1 outputs of one
// input each). grain: outputs per chunk at least.
void for_outputs(const TensorIterator& plan, int64_t R, int64_t grain,
                 const TensorIterator::Loop2d& body) {
  STRIDED_INTERNAL_ASSERT(R == 1 || (plan.shape()[0] == R && plan.operand(0).stride_bytes[0] == 0));
  parallel_for(0, plan.numel() / R, grain,
               [&](int64_t b, int64_t e) { plan.serial_for_each(body, b * R, e * R); });
}

// Runs an outer path's body over blocks of R rows by the columns of plan dim c, the body's
// strides laid out as the 2-D loop's (operand k's step along the rows at [k], along the columns at
// [ntensors + k]). For c = 1 these are the plan's own blocks. The 2-D loop sees plan dims 0 and 1
// only, so when the unit-stride kept dim is further out (the results, contiguous, order the kept
// dims by their own strides, and may put another one first) the walk moves c next to the reduced
// dim: for each index of the other kept dims, one block, their offsets from the layout algebra's
// odometer. PyTorch's loop steps down each column there instead; the blocks read memory in order.
void for_outer_blocks(const TensorIterator& plan, int64_t R, int c,
                      const TensorIterator::Loop2d& body) {
  const int nt = plan.ntensors();
  const int64_t width = plan.shape()[c];
  const int64_t columns = std::min(width, kColumns);
  if (c == 1) {
    for_outputs(plan, R, std::max<int64_t>(1, kGrainSize / (R * columns)) * columns, body);
    return;
  }
  // The other kept dims, outermost first as for_each_index walks them.
  Shape sizes;
  std::vector<Shape> steps(static_cast<size_t>(nt));
  for (int d = plan.ndim() - 1; d >= 1; --d) {
    if (d == c) continue;
    sizes.push_back(plan.shape()[d]);
    for (int k = 0; k < nt; ++k) steps[k].push_back(plan.operand(k).stride_bytes[d]);
  }
  std::vector<int64_t> strides(2 * static_cast<size_t>(nt));
  for (int k = 0; k < nt; ++k) {
    strides[k] = plan.operand(k).stride_bytes[0];
    strides[nt + k] = plan.operand(k).stride_bytes[c];
  }
  int64_t groups = 1;
  for (int64_t s : sizes) groups *= s;
  parallel_for(0, groups, std::max<int64_t>(1, kGrainSize / (R * width)),
               [&](int64_t b, int64_t e) {
                 std::vector<char*> data(static_cast<size_t>(nt));
                 for_each_index(sizes, steps, b, e, [&](const int64_t* offsets) {
                   for (int k = 0; k < nt; ++k) data[k] = plan.operand(k).data() + offsets[k];
                   body(data.data(), strides.data(), R, width);
                 });
               });
}

// One output (a reduction over all elements, or along a dim with no other to keep): the plan's
// linear range [0, R) cut into `pieces` contiguous ranges reduced in parallel, each into a partial
// result the caller combines in order (ATen's two_pass_reduction keeps one per thread). block(acc,
// p, s0, s1, n0, n1, position) folds one block of the plan into its piece's result: n1 rows of n0
// inputs from byte address p, stepping s0 along a row and s1 between rows; position is the linear
// index of its first input.
template <class P, class Block>
std::vector<std::optional<P>> reduce_pieces(const TensorIterator& plan, int64_t R, int64_t pieces,
                                            const Block& block) {
  const int in = plan.noutputs(), nt = plan.ntensors();
  const int64_t size = (R + pieces - 1) / pieces;
  std::vector<std::optional<P>> partial(static_cast<size_t>(pieces));
  parallel_for(0, pieces, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t lo = t * size, n = std::min(size, R - lo);
      if (n <= 0) continue;
      std::optional<P>& acc = partial[static_cast<size_t>(t)];
      int64_t position = lo;
      plan.serial_for_each(
          [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
            block(acc, data[in], st[in], st[nt + in], n0, n1, position);
            position += n0 * n1;
          },
          lo, lo + n);
    }
  });
  return partial;
}

// The pieces of one long output: one per thread, each at least kGrainSize inputs.
int64_t pieces_for(int64_t R) {
  return std::max<int64_t>(1, std::min<int64_t>(get_num_threads(), R / kGrainSize));
}

// ---- the reductions
// ---------------------------------------------------------------------------------

const char* op_name(bool is_max, bool arg) {
  if (arg) return is_max ? "argmax()" : "argmin()";
  return is_max ? "max()" : "min()";
}

Shape reduced_shape(const Tensor& x, int64_t dim, bool keepdim) {
  Shape s;
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (d != dim)
      s.push_back(x.size(d));
    else if (keepdim)
      s.push_back(1);
  }
  return s;
}

void check_cpu(const Tensor& x, const char* op) {
  STRIDED_CHECK(x.defined(), op, ": the tensor is undefined");
  STRIDED_CHECK(x.device().is_cpu(), op, ": the CPU engine reduces CPU tensors; got a tensor on ",
                x.device().str());
}

// Inputs per output: the reduced dim's size, or every element.
int64_t inputs_per_output(const Tensor& x, std::optional<int64_t> dim) {
  if (!dim) return x.numel();
  return x.dim() == 0 ? 1 : x.size(*dim);
}

// n1 rows of n0 elements of T (n0, n1 >= 1) summed row by row, the rows combined pairwise.
template <class T>
SumAcc<T> sum_block(const char* p, int64_t s0, int64_t s1, int64_t n0, int64_t n1) {
  if (n1 == 1) return sum_row<T>(p, s0, n0);
  const int64_t half = n1 / 2;
  return sum_block<T>(p, s0, s1, n0, half) + sum_block<T>(p + half * s1, s0, s1, n0, n1 - half);
}

// sum along dim (already wrapped), or over all elements, into a new contiguous tensor.
Tensor sum_impl(const Tensor& x, std::optional<int64_t> dim, bool keepdim) {
  const DType out_dtype = is_floating_point(x.dtype()) ? x.dtype() : DType::Int64;
  const Shape shape = dim ? reduced_shape(x, *dim, keepdim) : Shape{};
  const int64_t R = inputs_per_output(x, dim);
  if (R == 0) return zeros(shape, {out_dtype});  // sum of nothing is 0
  Tensor out = empty(shape, {out_dtype});
  if (out.numel() == 0) return out;
  const TensorIterator plan = make_reduction("sum()", x, dim, {out});
  const int64_t outputs = out.numel();
  dispatch(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using A = SumAcc<T>;
    constexpr int64_t S = sizeof(T);
    auto put = [](char* o, A v) {
      if constexpr (std::is_floating_point_v<Wide<T>>)
        store1<T>(o, narrow_to<T>(v));
      else
        store1<int64_t>(o, static_cast<int64_t>(v));
    };
    if (outputs == 1) {
      const auto partial = reduce_pieces<A>(plan, R, pieces_for(R),
                                            [](std::optional<A>& acc, const char* p, int64_t s0,
                                               int64_t s1, int64_t n0, int64_t n1, int64_t) {
                                              const A s = sum_block<T>(p, s0, s1, n0, n1);
                                              acc = acc ? *acc + s : s;
                                            });
      A total = 0;
      for (const std::optional<A>& v : partial) total += v.value_or(A{0});
      put(static_cast<char*>(out.data_ptr()), total);
      return;
    }
    if (R == 1) {  // each output is one input
      for_outputs(plan, R, kGrainSize, [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
        for (int64_t j = 0; j < n1; ++j)
          for (int64_t i = 0; i < n0; ++i)
            put(data[0] + i * st[0] + j * st[2], sum_row<T>(data[1] + i * st[1] + j * st[3], 0, 1));
      });
      return;
    }
    if (const int c = outer_dim(plan, R); c >= 0) {
      // The block's rows are combined element-wise, kColumns columns at a time (st[3] == S).
      for_outer_blocks(plan, R, c, [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
        for (int64_t j0 = 0; j0 < n1; j0 += kColumns) {
          const int64_t w = std::min(kColumns, n1 - j0);
          A acc[kColumns];
          sum_rows<T>(data[1] + j0 * S, st[1], n0, w, acc);
          for (int64_t j = 0; j < w; ++j) put(data[0] + (j0 + j) * st[2], acc[j]);
        }
      });
      return;
    }
    // Inner or strided: one row of R inputs per output.
    for_outputs(plan, R, std::max<int64_t>(1, kGrainSize / R),
                [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
                  for (int64_t j = 0; j < n1; ++j)
                    put(data[0] + j * st[2], sum_row<T>(data[1] + j * st[3], st[1], n0));
                });
  });
  return out;
}

// max/min along dim (wrapped) or over all elements, into values and/or indices (int64), either
// of them null. Over all elements, an index is the linear index of the plan, which walks memory
// in its own order: only a 1-d x makes it x's index.
void extreme_impl(const char* op, const Tensor& x, std::optional<int64_t> dim, bool is_max,
                  const Tensor* values, const Tensor* indices) {
  const int64_t R = inputs_per_output(x, dim);
  std::vector<Tensor> results;
  if (values) results.push_back(*values);
  if (indices) results.push_back(*indices);
  const int64_t outputs = results[0].numel();
  if (outputs == 0) return;
  const TensorIterator plan = make_reduction(op, x, dim, results);
  const int nt = plan.ntensors(), in = plan.noutputs();
  const int ki = values ? 1 : 0;  // the indices' operand, when asked for
  auto run = [&](auto tag, auto max_tag) {
    using T = decltype(tag);
    using W = Wide<T>;
    constexpr bool IsMax = decltype(max_tag)::value;
    constexpr int64_t S = sizeof(T);
    // Stores a result at block position (i, j).
    auto put = [&](char** data, const int64_t* st, int64_t i, int64_t j, W v, int64_t index) {
      if (values) store1<T>(data[0] + i * st[0] + j * st[nt], narrow_to<T>(v));
      if (indices) store1<int64_t>(data[ki] + i * st[ki] + j * st[nt + ki], index);
    };
    if (outputs == 1) {
      // Each piece finds its first extreme; pieces combine left to right, so the first index
      // wins ties and the first NaN wins.
      const int64_t pieces = R >= 2 * kGrainSize ? pieces_for(R) : 1;
      const auto partial =
          reduce_pieces<Best<W>>(plan, R, pieces,
                                 [](std::optional<Best<W>>& acc, const char* p, int64_t s0,
                                    int64_t s1, int64_t n0, int64_t n1, int64_t position) {
                                   for (int64_t j = 0; j < n1; ++j) {
                                     Best<W> r = extreme_row<IsMax, T>(p + j * s1, s0, n0);
                                     r.index += position + j * n0;
                                     if (!acc || better<IsMax>(r.value, acc->value)) acc = r;
                                   }
                                 });
      Best<W> best = *partial[0];
      for (size_t t = 1; t < partial.size(); ++t)
        if (partial[t] && better<IsMax>(partial[t]->value, best.value)) best = *partial[t];
      if (values) store1<T>(static_cast<char*>(values->data_ptr()), narrow_to<T>(best.value));
      if (indices) store1<int64_t>(static_cast<char*>(indices->data_ptr()), best.index);
      return;
    }
    if (R == 1) {  // each output is one input, at index 0
      for_outputs(plan, R, kGrainSize, [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
        for (int64_t j = 0; j < n1; ++j)
          for (int64_t i = 0; i < n0; ++i)
            put(data, st, i, j, widen(load1<T>(data[in] + i * st[in] + j * st[nt + in])), 0);
      });
      return;
    }
    // The outer path's vector of row numbers must fit the lane type.
    const bool lanes_fit =
        sizeof(T) == 8 || R <= static_cast<int64_t>(std::numeric_limits<int32_t>::max());
    if (const int c = outer_dim(plan, R); c >= 0 && lanes_fit) {
      for_outer_blocks(plan, R, c, [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
        for (int64_t j0 = 0; j0 < n1; j0 += kColumns) {
          const int64_t w = std::min(kColumns, n1 - j0);
          W best[kColumns];
          int64_t index[kColumns];
          extreme_rows<IsMax, T>(data[in] + j0 * S, st[in], n0, w, best, index);
          for (int64_t j = 0; j < w; ++j) put(data, st, 0, j0 + j, best[j], index[j]);
        }
      });
      return;
    }
    for_outputs(plan, R, std::max<int64_t>(1, kGrainSize / R),
                [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
                  for (int64_t j = 0; j < n1; ++j) {
                    const Best<W> r = extreme_row<IsMax, T>(data[in] + j * st[nt + in], st[in], n0);
                    put(data, st, 0, j, r.value, r.index);
                  }
                });
  };
  dispatch(x.dtype(), [&](auto tag) {
    if (is_max)
      run(tag, std::true_type{});
    else
      run(tag, std::false_type{});
  });
}

// PyTorch 1.13 has no argmax or argmin kernel for bool (AT_DISPATCH_ALL_TYPES_AND(Half, ...)).
void check_arg_dtype(const Tensor& x, bool is_max) {
  STRIDED_CHECK(x.dtype() != DType::Bool, "\"", is_max ? "argmax" : "argmin",
                "_cpu\" not implemented for 'Bool'");
}

ValuesIndices max_min(const Tensor& x, int64_t dim, bool keepdim, bool is_max) {
  const char* op = op_name(is_max, false);
  check_cpu(x, op);
  const int64_t d = wrap_dim(dim, x.dim(), op);
  // ReduceOpsUtils.h, zero_numel_check_dims: a dim of size 0 has no extreme.
  STRIDED_CHECK(x.dim() == 0 || x.size(d) != 0, op, ": Expected reduction dim ", d,
                " to have non-zero size.");
  const Shape shape = reduced_shape(x, d, keepdim);
  ValuesIndices r{empty(shape, {x.dtype()}), empty(shape, {DType::Int64})};
  extreme_impl(op, x, d, is_max, &r.values, &r.indices);
  return r;
}

Tensor arg_extreme(const Tensor& x, int64_t dim, bool keepdim, bool is_max) {
  const char* op = op_name(is_max, true);
  check_cpu(x, op);
  const int64_t d = wrap_dim(dim, x.dim(), op);
  STRIDED_CHECK(x.dim() == 0 || x.size(d) != 0, op, ": Expected reduction dim ", d,
                " to have non-zero size.");
  check_arg_dtype(x, is_max);
  Tensor out = empty(reduced_shape(x, d, keepdim), {DType::Int64});
  extreme_impl(op, x, d, is_max, nullptr, &out);
  return out;
}

// max or min over all elements: the plan walks memory in its own order, since the value does
// not depend on the order (TensorCompare.cpp, max: max_all).
Tensor extreme_all(const Tensor& x, bool is_max) {
  Tensor out = empty({}, {x.dtype()});
  extreme_impl(op_name(is_max, false), x, std::nullopt, is_max, &out, nullptr);
  return out;
}

// argmax or argmin over all elements: the index into x flattened row-major. As ReduceOps.cpp's
// argmax_out, the reduction runs on x.reshape(-1): a view when one exists, else a contiguous copy
// (which runs on a plan of its own).
Tensor arg_extreme_all(const Tensor& x, bool is_max) {
  check_arg_dtype(x, is_max);
  Tensor out = empty({}, {DType::Int64});
  extreme_impl(op_name(is_max, true), x.reshape({x.numel()}), std::nullopt, is_max, nullptr, &out);
  return out;
}

Tensor mean_of(const Tensor& sum_result, int64_t count) {
  // ReduceOps.cpp, mean_out: the sum in the dtype, then divided (div_) by the count.
  div_(sum_result, Scalar(count));
  return sum_result;
}

void check_mean_dtype(const Tensor& x) {
  STRIDED_CHECK(is_floating_point(x.dtype()),
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                "point or complex dtype. Got: ",
                scalar_type_name(x.dtype()));
}

}  // namespace

// ---- public
// -------------------------------------------------------------------------------------------

Tensor sum(const Tensor& x) {
  check_cpu(x, "sum()");
  return sum_impl(x, std::nullopt, false);
}
Tensor sum(const Tensor& x, int64_t dim, bool keepdim) {
  check_cpu(x, "sum()");
  return sum_impl(x, wrap_dim(dim, x.dim(), "sum()"), keepdim);
}
Tensor mean(const Tensor& x) {
  check_cpu(x, "mean()");
  check_mean_dtype(x);
  return mean_of(sum(x), x.numel());
}
Tensor mean(const Tensor& x, int64_t dim, bool keepdim) {
  check_cpu(x, "mean()");
  check_mean_dtype(x);
  const int64_t d = wrap_dim(dim, x.dim(), "mean()");
  return mean_of(sum_impl(x, d, keepdim), inputs_per_output(x, d));
}

Tensor max(const Tensor& x) {
  check_cpu(x, "max()");
  // TensorCompare.cpp, max: "Expected reduction dim to be specified for input.numel() == 0."
  STRIDED_CHECK(x.numel() > 0,
                "max(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument.");
  return extreme_all(x, true);
}
Tensor min(const Tensor& x) {
  check_cpu(x, "min()");
  STRIDED_CHECK(x.numel() > 0,
                "min(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument.");
  return extreme_all(x, false);
}
ValuesIndices max(const Tensor& x, int64_t dim, bool keepdim) {
  return max_min(x, dim, keepdim, true);
}
ValuesIndices min(const Tensor& x, int64_t dim, bool keepdim) {
  return max_min(x, dim, keepdim, false);
}

Tensor argmax(const Tensor& x) {
  check_cpu(x, "argmax()");
  STRIDED_CHECK(x.numel() > 0,
                "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
  return arg_extreme_all(x, true);
}
Tensor argmin(const Tensor& x) {
  check_cpu(x, "argmin()");
  STRIDED_CHECK(x.numel() > 0,
                "argmin(): Expected reduction dim to be specified for input.numel() == 0.");
  return arg_extreme_all(x, false);
}
Tensor argmax(const Tensor& x, int64_t dim, bool keepdim) {
  return arg_extreme(x, dim, keepdim, true);
}
Tensor argmin(const Tensor& x, int64_t dim, bool keepdim) {
  return arg_extreme(x, dim, keepdim, false);
}

ReducePath reduce_path(const Tensor& x, int64_t dim) {
  check_cpu(x, "reduce_path");
  const int64_t d = wrap_dim(dim, x.dim(), "reduce_path");
  // The plan sum(x, dim) builds, over a result it never writes.
  const Tensor result = empty(reduced_shape(x, d, false), {x.dtype()});
  return path_of(make_reduction("reduce_path", x, d, {result}), inputs_per_output(x, d));
}

const char* to_string(ReducePath path) {
  switch (path) {
    case ReducePath::Inner:
      return "inner";
    case ReducePath::Outer:
      return "outer";
    case ReducePath::Strided:
      break;
  }
  return "strided";
}

}  // namespace strided
