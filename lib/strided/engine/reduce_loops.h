// The reductions' loops (reduce.cpp makes their checks and plans): cascaded sums and the first
// extreme with its index, on the inner, outer and strided paths of NOTE: [Reduction paths]. Part
// of the kernel source every CPU capability compiles (cpu_kernels_body.h): its vectors are that
// capability's width, so a float sum, whose pairwise tree follows the lane count, may round
// differently per capability (within the tolerance dispatch_test.cpp states); a max, a min, their
// indices and an integer sum do not depend on it.
//
// Included once per kernel TU, inside no namespace: everything is in an unnamed namespace, so each
// capability's copy is its own to the linker.
#pragma once

namespace strided::cpu {
namespace {

using detail::for_outer_blocks;
using detail::for_outputs;
using detail::kColumns;
using detail::outer_dim;
using detail::pieces_for;
using detail::reduce_pieces;
using vec::load;
using vec::load1;
using vec::store;
using vec::store1;
using vec::Vec;

// ---- element types ------------------------------------------------------------------------------

// Whether this capability compiles the loops for uint8, int8 and int16. They have no vector path
// here (kVectorSum and kVectorCompare below leave them out), so each capability's loops for them
// would be the same scalar code: the baseline's table has them, and the others hand such a
// reduction to it. ATen's AT_DISPATCH_ALL_TYPES compiles them at every width; this library keeps
// its build short (the README's cold build).
#ifdef STRIDED_CPU_TARGET
inline constexpr bool kNarrowLoops = false;
#else
inline constexpr bool kNarrowLoops = true;
#endif
bool is_narrow_integral(DType t) {
  return t == DType::UInt8 || t == DType::Int8 || t == DType::Int16;
}

// dtype.h's dispatch for the reductions' loops: the narrow integers only where kNarrowLoops (the
// callers hand them to the baseline's table first).
template <class F>
void dispatch_reduction(DType t, F&& f) {
  switch (t) {
    case DType::UInt8:
      if constexpr (kNarrowLoops) return f(uint8_t{});
      break;
    case DType::Int8:
      if constexpr (kNarrowLoops) return f(int8_t{});
      break;
    case DType::Int16:
      if constexpr (kNarrowLoops) return f(int16_t{});
      break;
    case DType::Bool: return f(bool{});
    case DType::Int32: return f(int32_t{});
    case DType::Int64: return f(int64_t{});
    case DType::Float16: return f(Half{});
    case DType::BFloat16: return f(BFloat16{});
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Complex64:
    case DType::Complex128: refuse_complex("dispatch_reduction", t);  // refused by the op first
  }
  STRIDED_INTERNAL_ASSERT(false);  // a narrow integer here: the caller hands it to the baseline
}

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

// ---- sums
// -------------------------------------------------------------------------------------------
// Pairwise (cascade) summation, as cpu/SumKernel.cpp: the error of a float sum grows with log(n).

// n contiguous elements of A (float, double or uint64) from byte address p: four vector
// accumulators over blocks of 4 vectors, then one over single vectors, then the lanes added
// pairwise (vectorized_inner_sum's row_sum, whose last step is vec_reduce_all), then the tail. A
// row shorter than one vector is added up in scalars: a vector's lanes would cost more additions
// than its elements (so does cpu/SumKernel.cpp's cascade_sum, which takes scalar_inner_sum when
// size0 < Vec::size()). Short rows are then a few additions each, with no fixed cost per row.
template <class A>
A sum_contiguous(const char* p, int64_t n) {
  constexpr int64_t S = sizeof(A);
  constexpr int64_t L = vec::kLanes<A>;
  constexpr int64_t kBase = 64 * L;  // 16 additions per lane of each of 4 accumulators
  if (n > kBase) {
    const int64_t half = (n / 2) / (4 * L) * (4 * L);
    return sum_contiguous<A>(p, half) + sum_contiguous<A>(p + half * S, n - half);
  }
  if (n < L) {
    A r = 0;
    for (int64_t i = 0; i < n; ++i) r += load1<A>(p + i * S);
    return r;
  }
  Vec<A> a0{}, a1{}, a2{}, a3{};
  int64_t i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    a0 += load<A>(p + i * S);
    a1 += load<A>(p + (i + L) * S);
    a2 += load<A>(p + (i + 2 * L) * S);
    a3 += load<A>(p + (i + 3 * L) * S);
  }
  for (; i + L <= n; i += L) a0 += load<A>(p + i * S);
  A r = vec::sum_lanes<A>((a0 + a1) + (a2 + a3));
  for (; i < n; ++i) r += load1<A>(p + i * S);
  return r;
}

// multi_row_sum's loads (SumKernel.cpp's load policies): classes rather than lambdas, so that
// their functions are compiled for the capability's vectors too (GCC's target pragma skips
// lambdas).
template <class E>
struct VectorLoad {
  static Vec<E> at(const char* q) { return load<E>(q); }
};
template <class T>
struct ScalarLoad {
  static SumAcc<T> at(const char* q) { return sum_value<T>(q); }
};

// The outer path's sums (cpu/SumKernel.cpp, multi_row_sum and vectorized_outer_sum): K
// accumulators, each a column or a vector of columns, summed down `rows` rows at once, k-th one
// `cs` bytes after the first in each row, rows `rs` bytes apart. The sums stay in registers in a
// cascade of 4 levels, as ATen's: level 0 adds 2^power rows (power = max(4, ceil(log2 rows) / 4)),
// then moves into level 1, which moves into level 2 every 2^power of its own additions, and so
// on; the levels are added up last. So only sums of a similar size meet, in one pass over the
// rows. The cascade depends on `rows` alone: a column summed in a vector lane and one summed in a
// scalar give the same bits, whatever layout put them there.
template <class Load, class V, int K>
void multi_row_sum(const char* p, int64_t rs, int64_t cs, int64_t rows, V (&result)[K]) {
  constexpr int kLevels = 4;
  int64_t log2_rows = 0;
  while ((int64_t{1} << log2_rows) < rows) ++log2_rows;
  const int64_t power = std::max<int64_t>(4, log2_rows / kLevels);
  const int64_t step = int64_t{1} << power, mask = step - 1;
  V acc[kLevels][K];
  for (int l = 0; l < kLevels; ++l)
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) acc[l][k] = V{};
  int64_t i = 0;
  while (i + step <= rows) {
    for (int64_t j = 0; j < step; ++j, ++i) {
      const char* row = p + i * rs;
#pragma GCC unroll 8
      for (int k = 0; k < K; ++k) acc[0][k] += Load::at(row + k * cs);
    }
    for (int l = 1; l < kLevels; ++l) {
#pragma GCC unroll 8
      for (int k = 0; k < K; ++k) {
        acc[l][k] += acc[l - 1][k];
        acc[l - 1][k] = V{};
      }
      if ((i & (mask << (l * power))) != 0) break;
    }
  }
  for (; i < rows; ++i) {
    const char* row = p + i * rs;
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) acc[0][k] += Load::at(row + k * cs);
  }
  for (int l = 1; l < kLevels; ++l)
#pragma GCC unroll 8
    for (int k = 0; k < K; ++k) acc[0][k] += acc[l][k];
#pragma GCC unroll 8
  for (int k = 0; k < K; ++k) result[k] = acc[0][k];
}

// n elements of T at byte stride sb, any dtype: ATen's row_sum (SumKernel.cpp), the row viewed
// as (n / 4, 4) rows of 4, summed by multi_row_sum into 4 running sums that do not wait for each
// other, then the tail, then the 4 sums added in order.
template <class T>
SumAcc<T> sum_strided(const char* p, int64_t sb, int64_t n) {
  SumAcc<T> r[4];
  multi_row_sum<ScalarLoad<T>>(p, 4 * sb, sb, n / 4, r);
  for (int64_t i = n / 4 * 4; i < n; ++i) r[0] += sum_value<T>(p + i * sb);
  for (int k = 1; k < 4; ++k) r[0] += r[k];
  return r[0];
}

// One row of n elements at byte stride sb. A row shorter than a vector is added up here, in a
// loop the caller's loop over rows inlines: many short rows then pay no call each.
template <class T>
SumAcc<T> sum_row(const char* p, int64_t sb, int64_t n) {
  if constexpr (kVectorSum<T>) {
    if (sb == static_cast<int64_t>(sizeof(T)) && n >= vec::kLanes<SumLoad<T>>)
      return sum_contiguous<SumLoad<T>>(p, n);
  }
  if (n > 64) return sum_strided<T>(p, sb, n);
  SumAcc<T> r = 0;
  for (int64_t i = 0; i < n; ++i) r += sum_value<T>(p + i * sb);
  return r;
}

// out: w columns, each summed down `rows` rows of T (column j of row i at p + i * rs + j * S),
// stored by put(j, sum). Four vectors of columns at a time, then one vector, then four columns
// and one column in scalars (vectorized_outer_sum's order).
template <class T, class Put>
void sum_columns(const char* p, int64_t rs, int64_t rows, int64_t w, const Put& put) {
  using A = SumAcc<T>;
  constexpr int64_t S = sizeof(T);
  int64_t j = 0;
  if constexpr (kVectorSum<T>) {
    using E = SumLoad<T>;
    constexpr int64_t L = vec::kLanes<E>;
    for (; j + 4 * L <= w; j += 4 * L) {
      Vec<E> r[4];
      multi_row_sum<VectorLoad<E>>(p + j * S, rs, L * S, rows, r);
      for (int k = 0; k < 4; ++k)
        for (int64_t l = 0; l < L; ++l) put(j + k * L + l, static_cast<A>(r[k][l]));
    }
    for (; j + L <= w; j += L) {
      Vec<E> r[1];
      multi_row_sum<VectorLoad<E>>(p + j * S, rs, L * S, rows, r);
      for (int64_t l = 0; l < L; ++l) put(j + l, static_cast<A>(r[0][l]));
    }
  }
  for (; j + 4 <= w; j += 4) {
    A r[4];
    multi_row_sum<ScalarLoad<T>>(p + j * S, rs, S, rows, r);
    for (int k = 0; k < 4; ++k) put(j + k, r[k]);
  }
  for (; j < w; ++j) {
    A r[1];
    multi_row_sum<ScalarLoad<T>>(p + j * S, rs, S, rows, r);
    put(j, r[0]);
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
    if constexpr (std::is_floating_point_v<T>) nan |= vec::any_lane(n0 | n1);
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
      if (vec::any_lane(load<T>(p + k * S) == target)) break;
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

// n1 rows of n0 elements of T (n0, n1 >= 1) summed row by row, the rows combined pairwise.
template <class T>
SumAcc<T> sum_block(const char* p, int64_t s0, int64_t s1, int64_t n0, int64_t n1) {
  if (n1 == 1) return sum_row<T>(p, s0, n0);
  const int64_t half = n1 / 2;
  return sum_block<T>(p, s0, s1, n0, half) + sum_block<T>(p + half * s1, s0, s1, n0, n1 - half);
}


// sum's loops: R inputs per output, into out (NOTE: [Reduction paths]).
void sum_kernel(const TensorIterator& plan, int64_t R, const Tensor& out) {
  const DType dtype = plan.operand(plan.noutputs()).dtype();
  if (!kNarrowLoops && is_narrow_integral(dtype)) return base::kernels.sum(plan, R, out);
  const int64_t outputs = out.numel();
  dispatch_reduction(dtype, [&](auto tag) {
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
        for (int64_t j = 0; j < n1; ++j) {
          int64_t i = 0;
          if constexpr (kVectorSum<T>) {
            // 0 + x, in vectors where both runs are contiguous: the sum of one -0.0 is +0.0,
            // as PyTorch's, whose sums start from 0.
            using V = SumLoad<T>;
            constexpr int64_t L = vec::kLanes<V>;
            if (st[0] == S && st[1] == S)
              for (; i + L <= n0; i += L)
                store<V>(data[0] + i * S + j * st[2], Vec<V>{} + load<V>(data[1] + i * S + j * st[3]));
          }
          for (; i < n0; ++i)
            put(data[0] + i * st[0] + j * st[2], A{0} + sum_value<T>(data[1] + i * st[1] + j * st[3]));
        }
      });
      return;
    }
    if (const int c = outer_dim(plan, R); c >= 0) {
      // The block's rows are summed down its columns (st[3] == S).
      for_outer_blocks(plan, R, c, [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
        sum_columns<T>(data[1], st[1], n0, n1,
                       [&](int64_t j, A v) { put(data[0] + j * st[2], v); });
      });
      return;
    }
    // Inner or strided: one row of R inputs per output, or, where the reduced dim steps further
    // than the kept one (x.sum(0) of a column slice), four outputs at a time walked down their
    // rows together, so that each row's four inputs come from the same lines (ATen's
    // scalar_outer_sum); the last ones alone, in the same cascade.
    for_outputs(plan, R, std::max<int64_t>(1, kGrainSize / R),
                [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
                  if (std::abs(st[1]) > std::abs(st[3])) {
                    int64_t j = 0;
                    for (; j + 4 <= n1; j += 4) {
                      A r[4];
                      multi_row_sum<ScalarLoad<T>>(data[1] + j * st[3], st[1], st[3], n0, r);
                      for (int k = 0; k < 4; ++k) put(data[0] + (j + k) * st[2], r[k]);
                    }
                    for (; j < n1; ++j) {
                      A r[1];
                      multi_row_sum<ScalarLoad<T>>(data[1] + j * st[3], st[1], st[3], n0, r);
                      put(data[0] + j * st[2], r[0]);
                    }
                    return;
                  }
                  for (int64_t j = 0; j < n1; ++j)
                    put(data[0] + j * st[2], sum_row<T>(data[1] + j * st[3], st[1], n0));
                });
  });
}

// max/min's loops into values and/or indices (int64), either of them null. Over all elements, an
// index is the linear index of the plan, which walks memory in its own order.
void extreme_kernel(const TensorIterator& plan, int64_t R, bool is_max, const Tensor* values,
                    const Tensor* indices) {
  const DType dtype = plan.operand(plan.noutputs()).dtype();
  if (!kNarrowLoops && is_narrow_integral(dtype))
    return base::kernels.extreme(plan, R, is_max, values, indices);
  const int64_t outputs = (values ? values : indices)->numel();
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
  dispatch_reduction(dtype, [&](auto tag) {
    if (is_max)
      run(tag, std::true_type{});
    else
      run(tag, std::false_type{});
  });
}

}  // namespace
}  // namespace strided::cpu
