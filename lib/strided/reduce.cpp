#include "strided/reduce.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "strided/layout.h"
#include "strided/ops.h"
#include "strided/parallel.h"
#include "strided/promotion.h"
#include "strided/vec.h"

namespace strided {

// NOTE: [Reduction paths]
// A reduction of x along dim d writes one output per index of the kept dims. Three loops:
//  - inner: x.stride(d) == 1. Each output reduces one contiguous row of x.size(d) elements,
//    vectorised across the row; outputs are split over threads (one long row, as in a reduction
//    over all elements, is split into pieces whose partial results are combined in order).
//  - outer: some kept dim c has stride 1 (the last one of a contiguous x when d is not last).
//    For each index of the other kept dims, the rows x[..., i, ...] (i along d) are each
//    contiguous along c, and are combined element-wise: out[j] = op(out[j], row_i[j]), vectorised
//    across j. This is the layout the seed's x.max(-2) walks (seed 000, In[15]); the reads follow
//    memory exactly as in the inner case, which is why the book can time one against the other.
//  - strided: anything else, one output at a time, stepping by x.stride(d).
// PyTorch reaches the same two fast cases through TensorIterator (reduced dims innermost, then
// cpu/Reduce.h's vectorized_reduction for the first and vectorized_outer_reduction for the second).

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

// ---- geometry
// -------------------------------------------------------------------------------------

// A reduction of x along dim: the reduced dim's length and stride, the kept dims (in x's order)
// with their input strides and the contiguous output's strides.
struct Geometry {
  int64_t length = 1, stride = 0;  // elements
  Shape sizes, in_strides, out_strides;
  int64_t outputs = 1;
};

Geometry geometry(const Tensor& x, int64_t dim) {
  Geometry g;
  if (x.dim() > 0) {
    g.length = x.size(dim);
    g.stride = x.stride(dim);
  }
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (d == dim) continue;
    g.sizes.push_back(x.size(d));
    g.in_strides.push_back(x.stride(d));
  }
  g.out_strides = contiguous_strides(g.sizes);
  for (int64_t s : g.sizes) g.outputs *= s;
  return g;
}

// Walks a set of dims in row-major order, keeping an input and an output offset (elements).
class Walker {
 public:
  Walker(const Shape& sizes, const Shape& in, const Shape& out)
      : sizes_(sizes), in_(in), out_(out), idx_(sizes.size(), 0) {}
  void seek(int64_t linear) {
    in_off_ = out_off_ = 0;
    for (size_t k = sizes_.size(); k-- > 0;) {
      idx_[k] = linear % sizes_[k];
      linear /= sizes_[k];
      in_off_ += idx_[k] * in_[k];
      out_off_ += idx_[k] * out_[k];
    }
  }
  void next() {
    for (size_t k = sizes_.size(); k-- > 0;) {
      in_off_ += in_[k];
      out_off_ += out_[k];
      if (++idx_[k] < sizes_[k]) return;
      in_off_ -= sizes_[k] * in_[k];
      out_off_ -= sizes_[k] * out_[k];
      idx_[k] = 0;
    }
  }
  int64_t in() const { return in_off_; }
  int64_t out() const { return out_off_; }

 private:
  Shape sizes_, in_, out_, idx_;
  int64_t in_off_ = 0, out_off_ = 0;
};

// The outer path's column dim: a kept dim of stride 1 and size > 1, or -1.
int64_t column_dim(const Geometry& g) {
  if (g.length <= 1 || g.stride == 1) return -1;
  for (size_t k = g.sizes.size(); k-- > 0;)
    if (g.in_strides[k] == 1 && g.sizes[k] > 1) return static_cast<int64_t>(k);
  return -1;
}

ReducePath path_of(const Geometry& g) {
  if (g.length > 1 && g.stride == 1) return ReducePath::Inner;
  if (column_dim(g) >= 0) return ReducePath::Outer;
  return ReducePath::Strided;
}

// Splits the outputs of g over threads: f(begin, end) with a Walker positioned at begin.
template <class F>
void for_outputs(const Geometry& g, const F& f) {
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(g.length, 1));
  parallel_for(0, g.outputs, grain, [&](int64_t b, int64_t e) {
    Walker w(g.sizes, g.in_strides, g.out_strides);
    w.seek(b);
    f(w, b, e);
  });
}

// The outer path: for each index of the kept dims other than c, the block of rows; columns in
// chunks of kColumns, so the partial results stay in L1.
template <class F>
void for_blocks(const Geometry& g, int64_t c, const F& f) {
  Shape sizes, in, out;
  for (size_t k = 0; k < g.sizes.size(); ++k) {
    if (static_cast<int64_t>(k) == c) continue;
    sizes.push_back(g.sizes[k]);
    in.push_back(g.in_strides[k]);
    out.push_back(g.out_strides[k]);
  }
  int64_t groups = 1;
  for (int64_t s : sizes) groups *= s;
  const int64_t width = g.sizes[c];
  const int64_t chunks = (width + kColumns - 1) / kColumns;
  const int64_t work = g.length * std::min(width, kColumns);
  parallel_for(0, groups * chunks, std::max<int64_t>(1, kGrainSize / work),
               [&](int64_t b, int64_t e) {
                 Walker w(sizes, in, out);
                 for (int64_t item = b; item < e; ++item) {
                   const int64_t group = item / chunks, chunk = item % chunks;
                   w.seek(group);
                   const int64_t j0 = chunk * kColumns;
                   f(w.in() + j0, w.out() + j0 * g.out_strides[c], std::min(kColumns, width - j0));
                 }
               });
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

// sum along dim (already wrapped) into a contiguous tensor of dtype out_dtype.
Tensor sum_dim(const Tensor& x, int64_t dim, bool keepdim) {
  const DType out_dtype = is_floating_point(x.dtype()) ? x.dtype() : DType::Int64;
  Tensor out = zeros(reduced_shape(x, dim, keepdim), {out_dtype});
  const Geometry g = geometry(x, dim);
  if (g.outputs == 0 || g.length == 0) return out;  // sum of nothing is 0
  const char* in = static_cast<const char*>(x.data_ptr());
  char* o = static_cast<char*>(out.data_ptr());
  dispatch(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using A = SumAcc<T>;
    using O = std::conditional_t<std::is_floating_point_v<Wide<T>>, T, int64_t>;
    constexpr int64_t S = sizeof(T);
    auto put = [&](int64_t off, A v) {
      if constexpr (std::is_same_v<O, int64_t>)
        store1<int64_t>(o + off * 8, static_cast<int64_t>(v));
      else
        store1<O>(o + off * static_cast<int64_t>(sizeof(O)), narrow_to<T>(v));
    };
    const int64_t c = column_dim(g);
    if (path_of(g) == ReducePath::Outer) {
      for_blocks(g, c, [&](int64_t in_off, int64_t out_off, int64_t w) {
        A acc[kColumns];
        sum_rows<T>(in + in_off * S, g.stride * S, g.length, w, acc);
        for (int64_t j = 0; j < w; ++j) put(out_off + j * g.out_strides[c], acc[j]);
      });
      return;
    }
    if (g.outputs == 1) {
      // One long row: pieces in parallel, partial sums combined in order.
      const int64_t threads = get_num_threads();
      const int64_t pieces =
          std::max<int64_t>(1, std::min<int64_t>(threads, g.length / kGrainSize));
      const int64_t piece = (g.length + pieces - 1) / pieces;
      std::vector<A> partial(static_cast<size_t>(pieces), 0);
      parallel_for(0, pieces, 1, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
          const int64_t lo = t * piece, n = std::min(piece, g.length - lo);
          if (n > 0)
            partial[static_cast<size_t>(t)] = sum_row<T>(in + lo * g.stride * S, g.stride * S, n);
        }
      });
      A total = 0;
      for (A p : partial) total += p;
      put(0, total);
      return;
    }
    for_outputs(g, [&](Walker& w, int64_t b, int64_t e) {
      for (int64_t m = b; m < e; ++m, w.next())
        put(w.out(), sum_row<T>(in + w.in() * S, g.stride * S, g.length));
    });
  });
  return out;
}

// max/min (values and indices) or argmax/argmin (indices only) along dim (wrapped).
void extreme_dim(const Tensor& x, int64_t dim, bool is_max, const Tensor* values,
                 const Tensor& indices) {
  const Geometry g = geometry(x, dim);
  if (g.outputs == 0) return;
  const char* in = static_cast<const char*>(x.data_ptr());
  char* vo = values ? static_cast<char*>(values->data_ptr()) : nullptr;
  char* io = static_cast<char*>(indices.data_ptr());
  auto run = [&](auto tag, auto max_tag) {
    using T = decltype(tag);
    constexpr bool IsMax = decltype(max_tag)::value;
    constexpr int64_t S = sizeof(T);
    auto put = [&](int64_t off, Wide<T> v, int64_t i) {
      if (vo) store1<T>(vo + off * S, narrow_to<T>(v));
      store1<int64_t>(io + off * 8, i);
    };
    const int64_t c = column_dim(g);
    const bool lanes_fit =
        sizeof(T) == 8 || g.length <= static_cast<int64_t>(std::numeric_limits<int32_t>::max());
    if (path_of(g) == ReducePath::Outer && lanes_fit) {
      for_blocks(g, c, [&](int64_t in_off, int64_t out_off, int64_t w) {
        Wide<T> best[kColumns];
        int64_t index[kColumns];
        extreme_rows<IsMax, T>(in + in_off * S, g.stride * S, g.length, w, best, index);
        for (int64_t j = 0; j < w; ++j) put(out_off + j * g.out_strides[c], best[j], index[j]);
      });
      return;
    }
    if (g.outputs == 1 && g.length >= 2 * kGrainSize) {
      // One long row: each piece finds its first extreme; pieces combine left to right, so the
      // first index wins ties and the first NaN wins.
      const int64_t threads = get_num_threads();
      const int64_t pieces =
          std::max<int64_t>(1, std::min<int64_t>(threads, g.length / kGrainSize));
      const int64_t piece = (g.length + pieces - 1) / pieces;
      std::vector<Best<Wide<T>>> partial(static_cast<size_t>(pieces));
      std::vector<char> used(static_cast<size_t>(pieces), 0);
      parallel_for(0, pieces, 1, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
          const int64_t lo = t * piece, n = std::min(piece, g.length - lo);
          if (n <= 0) continue;
          Best<Wide<T>> r = extreme_row<IsMax, T>(in + lo * g.stride * S, g.stride * S, n);
          r.index += lo;
          partial[static_cast<size_t>(t)] = r;
          used[static_cast<size_t>(t)] = 1;
        }
      });
      Best<Wide<T>> best = partial[0];
      for (size_t t = 1; t < partial.size(); ++t)
        if (used[t] && better<IsMax>(partial[t].value, best.value)) best = partial[t];
      put(0, best.value, best.index);
      return;
    }
    for_outputs(g, [&](Walker& w, int64_t b, int64_t e) {
      for (int64_t m = b; m < e; ++m, w.next()) {
        const Best<Wide<T>> r = extreme_row<IsMax, T>(in + w.in() * S, g.stride * S, g.length);
        put(w.out(), r.value, r.index);
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

ValuesIndices max_min(const Tensor& x, int64_t dim, bool keepdim, bool is_max) {
  const char* op = op_name(is_max, false);
  check_cpu(x, op);
  const int64_t d = wrap_dim(dim, x.dim(), op);
  // ReduceOpsUtils.h, zero_numel_check_dims: a dim of size 0 has no extreme.
  STRIDED_CHECK(x.dim() == 0 || x.size(d) != 0, op, ": Expected reduction dim ", d,
                " to have non-zero size.");
  const Shape shape = reduced_shape(x, d, keepdim);
  ValuesIndices r{empty(shape, {x.dtype()}), empty(shape, {DType::Int64})};
  extreme_dim(x, d, is_max, &r.values, r.indices);
  return r;
}

Tensor arg_extreme(const Tensor& x, int64_t dim, bool keepdim, bool is_max) {
  const char* op = op_name(is_max, true);
  check_cpu(x, op);
  const int64_t d = wrap_dim(dim, x.dim(), op);
  STRIDED_CHECK(x.dim() == 0 || x.size(d) != 0, op, ": Expected reduction dim ", d,
                " to have non-zero size.");
  // PyTorch 1.13 has no argmax or argmin kernel for bool (AT_DISPATCH_ALL_TYPES_AND(Half, ...)).
  STRIDED_CHECK(x.dtype() != DType::Bool, "\"", is_max ? "argmax" : "argmin",
                "_cpu\" not implemented for 'Bool'");
  Tensor out = empty(reduced_shape(x, d, keepdim), {DType::Int64});
  extreme_dim(x, d, is_max, nullptr, out);
  return out;
}

// x as one dim over its elements: a view when x is contiguous, or when order_free and x is
// dense (any permutation: a sum, max or min does not depend on the order it reads elements in,
// up to float rounding); a contiguous copy otherwise.
Tensor flat(const Tensor& x, bool order_free) {
  if (x.is_contiguous()) return x.reshape({x.numel()});
  if (order_free && x.is_non_overlapping_and_dense())
    return Tensor(x.storage(), {x.numel()}, {1}, x.storage_offset(), x.dtype());
  return x.contiguous().reshape({x.numel()});
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
  return sum_dim(flat(x, true), 0, false);
}
Tensor sum(const Tensor& x, int64_t dim, bool keepdim) {
  check_cpu(x, "sum()");
  return sum_dim(x, wrap_dim(dim, x.dim(), "sum()"), keepdim);
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
  return mean_of(sum_dim(x, d, keepdim), x.dim() == 0 ? 1 : x.size(d));
}

Tensor max(const Tensor& x) {
  check_cpu(x, "max()");
  // TensorCompare.cpp, max: "Expected reduction dim to be specified for input.numel() == 0."
  STRIDED_CHECK(x.numel() > 0,
                "max(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument.");
  return max_min(flat(x, true), 0, false, true).values;
}
Tensor min(const Tensor& x) {
  check_cpu(x, "min()");
  STRIDED_CHECK(x.numel() > 0,
                "min(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument.");
  return max_min(flat(x, true), 0, false, false).values;
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
  return arg_extreme(flat(x, false), 0, false, true);
}
Tensor argmin(const Tensor& x) {
  check_cpu(x, "argmin()");
  STRIDED_CHECK(x.numel() > 0,
                "argmin(): Expected reduction dim to be specified for input.numel() == 0.");
  return arg_extreme(flat(x, false), 0, false, false);
}
Tensor argmax(const Tensor& x, int64_t dim, bool keepdim) {
  return arg_extreme(x, dim, keepdim, true);
}
Tensor argmin(const Tensor& x, int64_t dim, bool keepdim) {
  return arg_extreme(x, dim, keepdim, false);
}

ReducePath reduce_path(const Tensor& x, int64_t dim) {
  check_cpu(x, "reduce_path");
  return path_of(geometry(x, wrap_dim(dim, x.dim(), "reduce_path")));
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
