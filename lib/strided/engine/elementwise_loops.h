// The element-wise ops', copy_'s and fill_'s loops (ops.cpp and copies.cpp make their checks and
// plans). Part of the kernel source every CPU capability compiles (cpu_kernels_body.h): the same
// loops on that capability's vectors. Each lane computes what the scalar loop computes, with no
// contraction into fused multiply-adds (-ffp-contract=off), so every capability gives the same
// bits, floats included.
//
// Included once per kernel TU, inside no namespace: everything is in an unnamed namespace, so each
// capability's copy is its own to the linker.
#pragma once

#include "strided/engine/copy_tiles.h"

namespace strided::cpu {
namespace {

using vec::load;
using vec::load1;
using vec::store;
using vec::store1;
using vec::Vec;

// ---- compute types
// -------------------------------------------------------------------------------

// The type a kernel computes in for a common dtype: integers wrap, so they compute unsigned
// (vec.h); bool computes on its byte; float16 and bfloat16 compute in float32 (ATen's opmath).
// uint8, int8 and int16 compute in int32, staged in and out as float16 is: PyTorch computes them
// in their own type (at::opmath_type<int8_t> is int8_t), and the ops here (+, -, *, neg, abs;
// division computes in float) wrap modulo 2^32 to the same low bits: abs(-128) is 128, whose low
// byte is int8's -128, as torch's. So no loop is compiled for them at any vector width.
template <class F>
void dispatch_compute(DType t, F&& f) {
  switch (t) {
    case DType::Bool:
      return f(uint8_t{});
    case DType::UInt8:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
      return f(uint32_t{});
    case DType::Int64:
      return f(uint64_t{});
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
      return f(float{});
    case DType::Float64:
      break;
    case DType::Complex64:
    case DType::Complex128:
      refuse_complex("dispatch_compute", t);  // the plan refused it first, naming the op
  }
  f(double{});
}
template <class C>
constexpr DType compute_dtype() {
  if constexpr (std::is_same_v<C, uint8_t>) return DType::Bool;
  if constexpr (std::is_same_v<C, uint32_t>) return DType::Int32;
  if constexpr (std::is_same_v<C, uint64_t>) return DType::Int64;
  if constexpr (std::is_same_v<C, float>) return DType::Float32;
  return DType::Float64;
}
template <class C>
C scalar_as(const Scalar& s) {
  if constexpr (std::is_floating_point_v<C>) return static_cast<C>(s.to_double());
  if constexpr (std::is_same_v<C, uint8_t>) return s.to_bool() ? 1 : 0;
  return static_cast<C>(s.to_int());
}

// ---- the operations, each on one element (C) and on one vector (Vec<C>)
// ----------------------------

template <class C>
struct AddOp {
  C alpha;  // 1 in the common case; the compiler drops a multiply by a constant it cannot see,
            // so alpha == 1 gets its own functor below
  template <class V>
  V operator()(V a, V b) const {
    return a + b * alpha;
  }
};
struct PlainAdd {
  template <class V>
  V operator()(V a, V b) const {
    return a + b;
  }
};
struct PlainSub {
  template <class V>
  V operator()(V a, V b) const {
    return a - b;
  }
};
template <class C>
struct SubOp {
  C alpha;
  template <class V>
  V operator()(V a, V b) const {
    return a - b * alpha;
  }
};
struct MulOp {
  template <class V>
  V operator()(V a, V b) const {
    return a * b;
  }
};
struct DivOp {
  template <class V>
  V operator()(V a, V b) const {
    return a / b;
  }
};
// Bool arithmetic is logical: True + True is True, True * False is False.
struct BoolOr {
  template <class V>
  V operator()(V a, V b) const {
    return a | b;
  }
};
struct BoolAnd {
  template <class V>
  V operator()(V a, V b) const {
    return a & b;
  }
};
struct LeftOp {  // a + False * b
  template <class V>
  V operator()(V a, V) const {
    return a;
  }
};

struct NegOp {
  template <class V>
  V operator()(V a) const {
    return -a;
  }  // -0.0 for 0.0, as PyTorch
};
template <class C>
struct AbsOp {
  C operator()(C a) const {
    if constexpr (std::is_floating_point_v<C>) {
      return std::fabs(a);
    } else {
      using S = std::make_signed_t<C>;
      const C m = static_cast<C>(static_cast<S>(a) >> (8 * sizeof(C) - 1));
      return (a ^ m) - m;  // wraps for the minimum, as PyTorch (abs(-2^31) is -2^31)
    }
  }
  Vec<C> operator()(Vec<C> a) const {
    if constexpr (std::is_floating_point_v<C>) {
      using U = std::conditional_t<sizeof(C) == 4, uint32_t, uint64_t>;
      constexpr U mask = ~(U{1} << (8 * sizeof(C) - 1));
      return vec::bit_cast<Vec<C>>(vec::bit_cast<Vec<U>>(a) & mask);
    } else {
      using S = std::make_signed_t<C>;
      const Vec<C> m =
          vec::bit_cast<Vec<C>>(vec::bit_cast<Vec<S>>(a) >> static_cast<S>(8 * sizeof(C) - 1));
      return (a ^ m) - m;
    }
  }
};
// exp and sqrt apply the scalar function lane by lane (the same libm call whatever the vector
// width, so every capability gives the same bits), so the loops stay uniform.
template <class C>
struct ExpOp {
  C operator()(C a) const { return std::exp(a); }
  Vec<C> operator()(Vec<C> a) const {
    for (int64_t l = 0; l < vec::kLanes<C>; ++l) a[l] = std::exp(a[l]);
    return a;
  }
};
template <class C>
struct SqrtOp {
  C operator()(C a) const { return std::sqrt(a); }
  Vec<C> operator()(Vec<C> a) const {
    for (int64_t l = 0; l < vec::kLanes<C>; ++l) a[l] = std::sqrt(a[l]);
    return a;
  }
};

// ---- inner loops over one run of n elements
// ---------------------------------------------------------

// An output vector's store: ordinary, or streaming (streaming.h).
template <class C, bool Stream>
inline void store_out(char* p, Vec<C> v) {
  if constexpr (Stream) vec::store_stream<C>(p, v);
  else store<C>(p, v);
}

// A streaming loop's request for its input's next bytes (vec::prefetch_ahead): a loop that stores
// ordinarily leaves the prefetching to the hardware.
template <class C, bool Stream>
inline void prefetch_in(const char* p) {
  if constexpr (Stream) vec::prefetch_ahead(p, 2 * vec::kVecBytes);
}

// The near-strided loop's input (gather.h): gathered a vector at a time, its lines prefetched a
// page ahead whether or not the output streams.
template <class C>
inline bool near_stride(int64_t s) {
  return gathers_stride(s, static_cast<int64_t>(sizeof(C)));
}
// The next vector of an input that is broadcast (stride 0), contiguous, or near-strided.
template <class C>
inline Vec<C> take(const char* p, int64_t s) {
  if (s == 0) return vec::splat(load1<C>(p));
  if (s == static_cast<int64_t>(sizeof(C))) return load<C>(p);
  return vec::gather<C>(p, s);
}
// The prefetch of an input of the near-strided loop, whose next step reads count elements.
template <class C, bool Stream>
inline void prefetch_take(const char* p, int64_t s, int64_t count) {
  if (near_stride<C>(s)) vec::prefetch_ahead(p, count * s);
  else if (s != 0) prefetch_in<C, Stream>(p);
}

// The fast paths of ATen's VectorizedLoop2d: all operands contiguous, or one input a broadcast
// scalar (stride 0) with the rest contiguous. Two vectors per step keep two loads in flight; a
// streaming loop also prefetches its contiguous inputs a page ahead.
// Returns how many elements it did: the caller's scalar loops do the rest.
template <class C, bool Stream, class Op>
int64_t binary_vectors(char* o, const char* a, const char* b, int64_t so, int64_t sa, int64_t sb,
                       int64_t n, const Op& op) {
  constexpr int64_t S = sizeof(C);
  constexpr int64_t L = vec::kLanes<C>;
  using V = Vec<C>;
  int64_t i = 0;
  if (so == S && sa == S && sb == S) {
    for (; i + 2 * L <= n; i += 2 * L) {
      prefetch_in<C, Stream>(a + i * S);
      prefetch_in<C, Stream>(b + i * S);
      const V a0 = load<C>(a + i * S), a1 = load<C>(a + (i + L) * S);
      const V b0 = load<C>(b + i * S), b1 = load<C>(b + (i + L) * S);
      store_out<C, Stream>(o + i * S, op(a0, b0));
      store_out<C, Stream>(o + (i + L) * S, op(a1, b1));
    }
  } else if (so == S && sa == S && sb == 0) {
    const V bv = vec::splat(load1<C>(b));
    for (; i + 2 * L <= n; i += 2 * L) {
      prefetch_in<C, Stream>(a + i * S);
      const V a0 = load<C>(a + i * S), a1 = load<C>(a + (i + L) * S);
      store_out<C, Stream>(o + i * S, op(a0, bv));
      store_out<C, Stream>(o + (i + L) * S, op(a1, bv));
    }
  } else if (so == S && sa == 0 && sb == S) {
    const V av = vec::splat(load1<C>(a));
    for (; i + 2 * L <= n; i += 2 * L) {
      prefetch_in<C, Stream>(b + i * S);
      const V b0 = load<C>(b + i * S), b1 = load<C>(b + (i + L) * S);
      store_out<C, Stream>(o + i * S, op(av, b0));
      store_out<C, Stream>(o + (i + L) * S, op(av, b1));
    }
  } else if (so == S && (near_stride<C>(sa) || near_stride<C>(sb)) &&
             (sa == 0 || sa == S || near_stride<C>(sa)) && (sb == 0 || sb == S || near_stride<C>(sb))) {
    for (; i + 2 * L <= n; i += 2 * L) {
      prefetch_take<C, Stream>(a + i * sa, sa, 2 * L);
      prefetch_take<C, Stream>(b + i * sb, sb, 2 * L);
      const V a0 = take<C>(a + i * sa, sa), a1 = take<C>(a + (i + L) * sa, sa);
      const V b0 = take<C>(b + i * sb, sb), b1 = take<C>(b + (i + L) * sb, sb);
      store_out<C, Stream>(o + i * S, op(a0, b0));
      store_out<C, Stream>(o + (i + L) * S, op(a1, b1));
    }
  }
  return i;
}

// Whether a run may stream its output: asked for (streaming.h), and the output aligned to the
// vector width, which the streaming store requires.
inline bool can_stream(bool stream, const char* o) {
  return stream && reinterpret_cast<uintptr_t>(o) % vec::kVecBytes == 0;
}

template <class C, class Op>
void binary_run(char* o, const char* a, const char* b, int64_t so, int64_t sa, int64_t sb,
                int64_t n, const Op& op, bool stream = false) {
  int64_t i = 0;
  if (can_stream(stream, o)) {
    i = binary_vectors<C, true>(o, a, b, so, sa, sb, n, op);
    vec::stream_fence();
  } else {
    i = binary_vectors<C, false>(o, a, b, so, sa, sb, n, op);
  }
  // The tail, and strided runs the vector loops do not take (a stride of a line or more, the
  // logical walk of chapter 6's permuted cube among them): a broadcast operand is read once,
  // since the compiler cannot prove that the stores leave it unchanged.
  if (sb == 0) {
    const C bv = load1<C>(b);
    for (; i < n; ++i) store1<C>(o + i * so, op(load1<C>(a + i * sa), bv));
  } else if (sa == 0) {
    const C av = load1<C>(a);
    for (; i < n; ++i) store1<C>(o + i * so, op(av, load1<C>(b + i * sb)));
  }
  for (; i < n; ++i) store1<C>(o + i * so, op(load1<C>(a + i * sa), load1<C>(b + i * sb)));
}

template <class C, bool Stream, class Op>
int64_t unary_vectors(char* o, const char* x, int64_t so, int64_t sx, int64_t n, const Op& op) {
  constexpr int64_t S = sizeof(C);
  constexpr int64_t L = vec::kLanes<C>;
  int64_t i = 0;
  if (so == S && sx == S) {
    for (; i + 2 * L <= n; i += 2 * L) {
      prefetch_in<C, Stream>(x + i * S);
      const Vec<C> x0 = load<C>(x + i * S), x1 = load<C>(x + (i + L) * S);
      store_out<C, Stream>(o + i * S, op(x0));
      store_out<C, Stream>(o + (i + L) * S, op(x1));
    }
  } else if (so == S && near_stride<C>(sx)) {
    for (; i + 2 * L <= n; i += 2 * L) {
      vec::prefetch_ahead(x + i * sx, 2 * L * sx);
      const Vec<C> x0 = vec::gather<C>(x + i * sx, sx), x1 = vec::gather<C>(x + (i + L) * sx, sx);
      store_out<C, Stream>(o + i * S, op(x0));
      store_out<C, Stream>(o + (i + L) * S, op(x1));
    }
  }
  return i;
}

template <class C, class Op>
void unary_run(char* o, const char* x, int64_t so, int64_t sx, int64_t n, const Op& op,
               bool stream = false) {
  int64_t i = 0;
  if (can_stream(stream, o)) {
    i = unary_vectors<C, true>(o, x, so, sx, n, op);
    vec::stream_fence();
  } else {
    i = unary_vectors<C, false>(o, x, so, sx, n, op);
  }
  for (; i < n; ++i) store1<C>(o + i * so, op(load1<C>(x + i * sx)));
}

// Operands whose dtype is not the compute type's go through per-thread buffers, kChunk elements
// at a time: inputs converted in, the output converted out.
constexpr int64_t kChunk = 256;

struct Staged {
  const char* ptr;
  int64_t stride;
};
// Converts n elements of an input to C into buf unless it already is C; a broadcast input
// (stride 0) converts one element and stays broadcast.
template <class C>
Staged stage_input(const char* p, DType t, int64_t stride, int64_t n, C* buf) {
  if (t == compute_dtype<C>()) return {p, stride};
  const int64_t count = stride == 0 ? 1 : n;
  convert_run(reinterpret_cast<char*>(buf), compute_dtype<C>(), sizeof(C), p, t, stride, count);
  return {reinterpret_cast<const char*>(buf), stride == 0 ? 0 : int64_t{sizeof(C)}};
}

template <class C, class Op>
void binary_kernel(const TensorIterator& it, const Op& op) {
  const DType dt[3] = {it.operand(0).dtype(), it.operand(1).dtype(), it.operand(2).dtype()};
  const bool direct = std::all_of(dt, dt + 3, [](DType t) { return t == compute_dtype<C>(); });
  const bool stream = direct && detail::streams_output(it);
  it.for_each([&](char** data, const int64_t* st, int64_t n, int64_t outer) {
    for (int64_t j = 0; j < outer; ++j) {
      char* o = data[0] + j * st[3];
      const char* a = data[1] + j * st[4];
      const char* b = data[2] + j * st[5];
      if (direct) {
        binary_run<C>(o, a, b, st[0], st[1], st[2], n, op, stream);
        continue;
      }
      alignas(64) C abuf[kChunk], bbuf[kChunk], obuf[kChunk];
      for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t len = std::min(kChunk, n - i);
        const Staged sa = stage_input<C>(a + i * st[1], dt[1], st[1], len, abuf);
        const Staged sb = stage_input<C>(b + i * st[2], dt[2], st[2], len, bbuf);
        if (dt[0] == compute_dtype<C>()) {
          binary_run<C>(o + i * st[0], sa.ptr, sb.ptr, st[0], sa.stride, sb.stride, len, op);
        } else {
          binary_run<C>(reinterpret_cast<char*>(obuf), sa.ptr, sb.ptr, sizeof(C), sa.stride,
                        sb.stride, len, op);
          convert_run(o + i * st[0], dt[0], st[0], reinterpret_cast<const char*>(obuf),
                      compute_dtype<C>(), sizeof(C), len);
        }
      }
    }
  });
}

template <class C, class Op>
void unary_kernel(const TensorIterator& it, const Op& op) {
  const DType dt[2] = {it.operand(0).dtype(), it.operand(1).dtype()};
  const bool direct = dt[0] == compute_dtype<C>() && dt[1] == compute_dtype<C>();
  const bool stream = direct && detail::streams_output(it);
  it.for_each([&](char** data, const int64_t* st, int64_t n, int64_t outer) {
    for (int64_t j = 0; j < outer; ++j) {
      char* o = data[0] + j * st[2];
      const char* x = data[1] + j * st[3];
      if (direct) {
        unary_run<C>(o, x, st[0], st[1], n, op, stream);
        continue;
      }
      alignas(64) C xbuf[kChunk], obuf[kChunk];
      for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t len = std::min(kChunk, n - i);
        const Staged sx = stage_input<C>(x + i * st[1], dt[1], st[1], len, xbuf);
        if (dt[0] == compute_dtype<C>()) {
          unary_run<C>(o + i * st[0], sx.ptr, st[0], sx.stride, len, op);
        } else {
          unary_run<C>(reinterpret_cast<char*>(obuf), sx.ptr, sizeof(C), sx.stride, len, op);
          convert_run(o + i * st[0], dt[0], st[0], reinterpret_cast<const char*>(obuf),
                      compute_dtype<C>(), sizeof(C), len);
        }
      }
    }
  });
}

bool is_unit(const Scalar& alpha) {
  return alpha.is_floating_point() ? alpha.to_double() == 1.0 : alpha.to_int() == 1;
}

// ---- the kernels of the table (cpu_kernels.h)
// ---------------------------------------------------------

void binary_loops(BinaryOp op, const TensorIterator& it, const Scalar& alpha) {
  const DType common = it.common_dtype();
  const bool unit = is_unit(alpha);
  dispatch_compute(common, [&](auto tag) {
    using C = decltype(tag);
    if constexpr (std::is_same_v<C, uint8_t>) {
      switch (op) {
        case BinaryOp::Add:
          if (alpha.to_bool()) return binary_kernel<C>(it, BoolOr{});
          return binary_kernel<C>(it, LeftOp{});
        case BinaryOp::Mul:
          return binary_kernel<C>(it, BoolAnd{});
        case BinaryOp::Sub:
        case BinaryOp::Div:
          break;
      }
      STRIDED_INTERNAL_ASSERT(false);  // sub_check and float promotion exclude these
    } else {
      switch (op) {
        case BinaryOp::Add:
          if (unit) return binary_kernel<C>(it, PlainAdd{});
          return binary_kernel<C>(it, AddOp<C>{scalar_as<C>(alpha)});
        case BinaryOp::Sub:
          if (unit) return binary_kernel<C>(it, PlainSub{});
          return binary_kernel<C>(it, SubOp<C>{scalar_as<C>(alpha)});
        case BinaryOp::Mul:
          return binary_kernel<C>(it, MulOp{});
        case BinaryOp::Div:
          if constexpr (std::is_floating_point_v<C>) return binary_kernel<C>(it, DivOp{});
          break;
      }
      STRIDED_INTERNAL_ASSERT(false);  // div always computes in floating point
    }
  });
}

void unary_loops(UnaryOp op, const TensorIterator& it) {
  const DType common = it.common_dtype();
  dispatch_compute(common, [&](auto tag) {
    using C = decltype(tag);
    if constexpr (!std::is_same_v<C, uint8_t>) {
      switch (op) {
        case UnaryOp::Neg:
          return unary_kernel<C>(it, NegOp{});
        case UnaryOp::Abs:
          return unary_kernel<C>(it, AbsOp<C>{});
        case UnaryOp::Exp:
        case UnaryOp::Sqrt:
          if constexpr (std::is_floating_point_v<C>) {
            if (op == UnaryOp::Exp) return unary_kernel<C>(it, ExpOp<C>{});
            return unary_kernel<C>(it, SqrtOp<C>{});
          }
          break;
      }
    }
    STRIDED_INTERNAL_ASSERT(false);  // bool is refused above; exp and sqrt promote to float
  });
}

// ---- copies
// -----------------------------------------------------------------------------------------

// Moves n elements of one byte width between byte strides.
template <class W>
void copy_run(char* d, const char* s, int64_t ds, int64_t ss, int64_t n) {
  constexpr int64_t w = sizeof(W);
  // A run read backwards into a contiguous one (flip's inner dim): with the steps known, the
  // compiler vectorises the loop (a reversing shuffle) as it cannot for steps it must read.
  if (ds == w && ss == -w) {
    for (int64_t i = 0; i < n; ++i) store1<W>(d + i * w, load1<W>(s - i * w));
    return;
  }
  for (int64_t i = 0; i < n; ++i) store1<W>(d + i * ds, load1<W>(s + i * ss));
}
void copy_run_bytes(char* d, const char* s, int64_t ds, int64_t ss, int64_t n, int64_t item) {
  if (ds == item && ss == item) {
    std::memcpy(d, s, static_cast<size_t>(n * item));
    return;
  }
  switch (item) {
    case 1:
      return copy_run<uint8_t>(d, s, ds, ss, n);
    case 2:
      return copy_run<uint16_t>(d, s, ds, ss, n);
    case 4:
      return copy_run<uint32_t>(d, s, ds, ss, n);
    default:
      return copy_run<uint64_t>(d, s, ds, ss, n);
  }
}

// A transpose block (copy_tiles.h) copied in square tiles, so that both sides read and write whole
// cache lines (ATen's copy_same_type_transpose_ uses 60x60 tiles for the same reason).
constexpr int64_t kTile = 32;
void copy_block_tiled(char** data, const int64_t* st, int64_t n0, int64_t n1, int64_t item) {
  for (int64_t j0 = 0; j0 < n1; j0 += kTile) {
    const int64_t j1 = std::min(n1, j0 + kTile);
    for (int64_t i0 = 0; i0 < n0; i0 += kTile) {
      const int64_t i1 = std::min(n0, i0 + kTile);
      for (int64_t j = j0; j < j1; ++j)
        copy_run_bytes(data[0] + j * st[2] + i0 * st[0], data[1] + j * st[3] + i0 * st[1], st[0],
                       st[1], i1 - i0, item);
    }
  }
}

void copy_loops(const TensorIterator& it) {
  const DType dd = it.operand(0).dtype(), sd = it.operand(1).dtype();
  const int64_t item = it.operand(0).element_size();
  it.for_each([&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
    if (copies_block_in_tiles(st, n1, item, dd == sd)) {
      copy_block_tiled(data, st, n0, n1, item);
      return;
    }
    for (int64_t j = 0; j < n1; ++j) {
      char* d = data[0] + j * st[2];
      const char* s = data[1] + j * st[3];
      if (dd == sd) {
        copy_run_bytes(d, s, st[0], st[1], n0, item);
      } else {
        convert_run(d, dd, st[0], s, sd, st[1], n0);
      }
    }
  });
}

// fill_: one converted value written over the plan of the output alone. Only the value's bytes
// matter, so the loop is compiled per element width (1, 2, 4 or 8 bytes), not per dtype.
template <class W>
void fill_width(const TensorIterator& it, const void* value, bool serial) {
  W x;
  std::memcpy(&x, value, sizeof x);
  auto loop = [&x](char** data, const int64_t* steps, int64_t n0, int64_t n1) {
    for (int64_t j = 0; j < n1; ++j) {
      char* row = data[0] + j * steps[1];
      if (steps[0] == static_cast<int64_t>(sizeof(W))) {
        std::fill_n(reinterpret_cast<W*>(row), n0, x);
      } else {
        for (int64_t i = 0; i < n0; ++i) std::memcpy(row + i * steps[0], &x, sizeof(W));
      }
    }
  };
  if (serial)
    it.serial_for_each(loop, 0, it.numel());
  else
    it.for_each(loop);
}

void fill_loops(const TensorIterator& it, const void* value, bool serial) {
  switch (it.operand(0).element_size()) {
    case 1:
      return fill_width<uint8_t>(it, value, serial);
    case 2:
      return fill_width<uint16_t>(it, value, serial);
    case 4:
      return fill_width<uint32_t>(it, value, serial);
    case 8:
      return fill_width<uint64_t>(it, value, serial);
  }
  STRIDED_INTERNAL_ASSERT(false);  // fill_ writes a complex tensor's real parts (copies.cpp)
}

}  // namespace
}  // namespace strided::cpu
