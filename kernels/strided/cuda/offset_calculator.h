// The offset calculator: how one CUDA thread turns its linear element index into a byte offset for
// every operand of an element-wise kernel.
//
// The host orders and coalesces the dims once (innermost first, the order in which PyTorch's
// TensorIterator keeps them), and the kernel receives this struct *by value* as a launch argument,
// so every thread reads sizes and strides from the constant bank, not from global memory. Per dim
// the thread does one divide/modulo by the size and one multiply-add per operand:
//
//     linear = i;  for d in 0..dims-1:  (linear, idx_d) = divmod(linear, size_d)
//                                       offset[arg] += idx_d * byte_stride[d][arg]
//
// After PyTorch's aten/src/ATen/cuda/detail/OffsetCalculator.cuh and IntegerDivider.cuh.
// Everything here is plain C++ (host and device), so the unit tests run it on the CPU.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "strided/core/error.h"
#include "strided/core/shape.h"

#if defined(__CUDACC__)
#define STRIDED_HOST_DEVICE __host__ __device__
#else
#define STRIDED_HOST_DEVICE
#endif

namespace strided::cuda {

// Dims a kernel accepts after coalescing. The struct travels as a kernel argument (16 dims, 3
// operands: 592 bytes of the 4 KiB allowed), so the limit is a constant checked on the host
// before launch (PyTorch uses 25). A tensor that still has more dims after coalescing is rare
// and gets a clear error suggesting .contiguous().
inline constexpr int kMaxDims = 16;

template <class T>
struct DivMod {
  T div;
  T mod;
};

// Division by a divisor fixed at launch time, as a multiply-high, an add and a shift instead of a
// hardware divide (which a GPU lacks: a 32-bit `/` is a ~20-instruction sequence).
// Granlund & Montgomery, "Division by invariant integers using multiplication", PLDI 1994, §4;
// the same construction as PyTorch's IntDivider<unsigned int>:
//   shift = ceil(log2(d)),  magic = floor(2^32 · (2^shift − d) / d) + 1,
//   n / d = (umulhi(n, magic) + n) >> shift      for 0 ≤ n ≤ INT32_MAX, 1 ≤ d ≤ INT32_MAX.
// The bound on n keeps umulhi(n, magic) + n below 2^32; the 32-bit path is therefore used only
// when the element count is at most INT32_MAX.
struct FastDivider32 {
  uint32_t divisor = 1;
  uint32_t magic = 1;
  uint32_t shift = 0;

  FastDivider32() = default;
  explicit FastDivider32(int64_t d) {
    STRIDED_CHECK(d >= 1 && d <= std::numeric_limits<int32_t>::max(), "FastDivider32",
                  "divisor must be in [1, 2^31-1], got ", d);
    divisor = static_cast<uint32_t>(d);
    while (shift < 32 && (uint64_t{1} << shift) < divisor) ++shift;
    const uint64_t m = ((uint64_t{1} << 32) * ((uint64_t{1} << shift) - divisor)) / divisor + 1;
    STRIDED_INTERNAL_ASSERT(m >= 1 && m <= std::numeric_limits<uint32_t>::max());
    magic = static_cast<uint32_t>(m);
  }

  STRIDED_HOST_DEVICE uint32_t div(uint32_t n) const {
#if defined(__CUDA_ARCH__)
    const uint32_t t = __umulhi(n, magic);
#else
    const uint32_t t = static_cast<uint32_t>((uint64_t{n} * magic) >> 32);
#endif
    return (t + n) >> shift;
  }
  STRIDED_HOST_DEVICE DivMod<uint32_t> divmod(uint32_t n) const {
    const uint32_t q = div(n);
    return {q, n - q * divisor};
  }
};

// The 64-bit path (more than INT32_MAX elements) divides plainly: slow, but such tensors are rare
// and their kernels are memory-bound anyway.
struct PlainDivider64 {
  uint64_t divisor = 1;
  PlainDivider64() = default;
  explicit PlainDivider64(int64_t d) {
    STRIDED_CHECK(d >= 1, "PlainDivider64", "divisor must be positive, got ", d);
    divisor = static_cast<uint64_t>(d);
  }
  STRIDED_HOST_DEVICE DivMod<uint64_t> divmod(uint64_t n) const {
    return {n / divisor, n % divisor};
  }
};

template <class index_t>
using Divider = std::conditional_t<sizeof(index_t) == 4, FastDivider32, PlainDivider64>;

// Byte offsets, one per operand. Signed 64-bit even on the 32-bit index path: a small tensor may
// still view a huge storage (a stride of 2^31 elements is legal), and the multiply-add of a 32-bit
// index by a 64-bit stride costs the same as a 32-bit one on current GPUs.
template <int NARGS>
struct Offsets {
  int64_t v[NARGS];
  STRIDED_HOST_DEVICE int64_t operator[](int i) const { return v[i]; }
};

template <int NARGS, class index_t>
struct OffsetCalculator {
  static_assert(NARGS >= 1 && NARGS <= 3);
  static_assert(std::is_same_v<index_t, uint32_t> || std::is_same_v<index_t, uint64_t>);

  int dims = 0;
  Divider<index_t> sizes[kMaxDims];
  int64_t byte_strides[kMaxDims][NARGS];  // [dim][operand], innermost dim first

  STRIDED_HOST_DEVICE Offsets<NARGS> get(index_t linear) const {
    Offsets<NARGS> out;
    for (int a = 0; a < NARGS; ++a) out.v[a] = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int d = 0; d < kMaxDims; ++d) {
      if (d == dims) break;
      const auto qr = sizes[d].divmod(linear);
      linear = qr.div;
      for (int a = 0; a < NARGS; ++a)
        out.v[a] += static_cast<int64_t>(qr.mod) * byte_strides[d][a];
    }
    return out;
  }
};

// True when a kernel over numel elements may use 32-bit linear indices (FastDivider32's bound).
inline bool fits_32bit_indexing(int64_t numel) {
  return numel <= std::numeric_limits<int32_t>::max();
}

// Builds the calculator from sizes and per-operand byte strides, innermost dim first (the
// iteration plan's order). The dim limit and the divider bounds are checked here, on the host,
// before any launch; op names the caller in the error.
template <int NARGS, class index_t>
OffsetCalculator<NARGS, index_t> make_offset_calculator(IntList sizes,
                                                        const std::array<IntList, NARGS>& strides,
                                                        const char* op) {
  STRIDED_CHECK(static_cast<int64_t>(sizes.size()) <= kMaxDims, op, sizes.size(),
                " dims remain after coalescing (sizes ", to_string(sizes),
                ") but the CUDA offset calculator accepts at most ", kMaxDims,
                "; call .contiguous() on the operands first");
  OffsetCalculator<NARGS, index_t> calc;
  calc.dims = static_cast<int>(sizes.size());
  int64_t numel = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    STRIDED_CHECK(sizes[d] >= 1, op, "the offset calculator needs sizes >= 1, got ",
                  to_string(sizes), " (empty tensors launch nothing)");
    numel *= sizes[d];
    calc.sizes[d] = Divider<index_t>(sizes[d]);
    for (int a = 0; a < NARGS; ++a) {
      STRIDED_INTERNAL_ASSERT(strides[a].size() == sizes.size());
      calc.byte_strides[d][a] = strides[a][d];
    }
  }
  if constexpr (sizeof(index_t) == 4)
    STRIDED_CHECK(fits_32bit_indexing(numel), op, numel,
                  " elements do not fit 32-bit indexing; the 64-bit path must be used");
  return calc;
}

}  // namespace strided::cuda
