// Element-wise kernels: 1. strided (offset calculator), 2. flat (vector loads). See elementwise.h
// for when each runs; the host side (checks, plan) is in elementwise.cpp.
#include <array>
#include <cstdint>

#include "strided/cuda/backend.h"
#include "strided/cuda/check.h"
#include "strided/cuda/launch.h"
#include "strided/cuda/offset_calculator.h"

namespace strided::cuda::backend {

namespace {

// 128 threads, 4 elements each per step: PyTorch's elementwise geometry (num_threads = 128,
// thread_work_size = 4 in aten/src/ATen/native/cuda/Loops.cuh). Each step of a block covers 512
// consecutive linear indices, and lane l of a warp takes index base + 32w + l: a warp's 32 loads
// are 32 consecutive elements of the plan's innermost dim, i.e. as coalesced as the layout allows.
constexpr int kThreads = 128;
constexpr int kUnroll = 4;

// ---- the operations, as functors (no extended lambdas: nvcc needs no extra flags) ---------------
template <class T>
struct CopyOp {
  __device__ T operator()(T x) const { return x; }
};
struct AddScalarOp {
  float s;
  __device__ float operator()(float x) const { return x + s; }
};
struct MulScalarOp {
  float s;
  __device__ float operator()(float x) const { return x * s; }
};
struct AddOp {
  __device__ float operator()(float x, float y) const { return x + y; }
};
struct MulOp {
  __device__ float operator()(float x, float y) const { return x * y; }
};

// ---- 1. strided -------------------------------------------------------------------------------
// NIN inputs (1 or 2), NIN + 1 operands; operand 0 is the output. Offsets are bytes from each
// operand's data pointer (its first element).
template <int NIN, class index_t, class T, class F>
__global__ void strided_kernel(OffsetCalculator<NIN + 1, index_t> calc, char* out,
                               const char* in0, const char* in1, index_t n, F f) {
  const index_t per_block = static_cast<index_t>(kThreads) * kUnroll;
  const index_t step = static_cast<index_t>(gridDim.x) * per_block;
  for (index_t base = static_cast<index_t>(blockIdx.x) * per_block; base < n; base += step) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const index_t i = base + static_cast<index_t>(u * kThreads) + threadIdx.x;
      if (i < n) {
        const auto off = calc.get(i);
        T* o = reinterpret_cast<T*>(out + off[0]);
        if constexpr (NIN == 1) {
          *o = f(*reinterpret_cast<const T*>(in0 + off[1]));
        } else {
          *o = f(*reinterpret_cast<const T*>(in0 + off[1]), *reinterpret_cast<const T*>(in1 + off[2]));
        }
      }
    }
  }
}

// ---- 2. flat ------------------------------------------------------------------------------------
// VEC elements of T travel as one aligned 16-byte load or store (VEC = 16 / sizeof(T)); VEC = 1 is
// the fallback for pointers that are not 16-byte aligned (a view starting mid-vector).
template <class T, int VEC>
struct alignas(sizeof(T) * VEC) Vec {
  T v[VEC];
};

// One 16-byte vector per thread and step, 128 threads a block, as PyTorch's vectorized loop
// (vectorized_elementwise_kernel, aten/src/ATen/native/cuda/CUDALoops.cuh). Four vectors per
// thread, loads first, was 4% slower on an H200 (262.7 µs against 252.6 µs for x + 3 on 512³
// float32; a device-to-device cudaMemcpy of the same bytes took 254.9 µs): the grid of one
// vector per thread has four times the blocks to spread over the multiprocessors.
template <int NIN, class T, int VEC, class F>
__global__ void flat_kernel(T* out, const T* in0, const T* in1, int64_t n, F f) {
  using V = Vec<T, VEC>;
  const int64_t nvec = n / VEC;
  const int64_t step = int64_t{gridDim.x} * kThreads;
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < nvec; i += step) {
    const V a = reinterpret_cast<const V*>(in0)[i];
    V b{};
    if constexpr (NIN == 2) b = reinterpret_cast<const V*>(in1)[i];
    V r;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      if constexpr (NIN == 1) r.v[k] = f(a.v[k]);
      else r.v[k] = f(a.v[k], b.v[k]);
    }
    reinterpret_cast<V*>(out)[i] = r;
  }
  // The n % VEC elements past the last whole vector.
  const int64_t threads = int64_t{gridDim.x} * kThreads;
  for (int64_t i = nvec * VEC + int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n; i += threads) {
    if constexpr (NIN == 1) out[i] = f(in0[i]);
    else out[i] = f(in0[i], in1[i]);
  }
}

bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

template <int NIN, class T, class F>
void launch_flat(const ElementwisePlan& plan, char* const data[3], F f) {
  constexpr int kVec = 16 / sizeof(T);
  T* out = reinterpret_cast<T*>(data[0]);
  const T* in0 = reinterpret_cast<const T*>(data[1]);
  const T* in1 = reinterpret_cast<const T*>(data[2]);
  const bool vec = aligned16(out) && aligned16(in0) && (NIN == 1 || aligned16(in1));
  const int64_t units = vec ? plan.numel / kVec : plan.numel;
  // At least one block, so the scalar tail runs even when there is no whole vector.
  LaunchGeometry g = linear_geometry(units > 0 ? units : 1, kThreads, 1);
  if (vec) {
    flat_kernel<NIN, T, kVec, F><<<g.grid.x, g.block.x>>>(out, in0, in1, plan.numel, f);
  } else {
    flat_kernel<NIN, T, 1, F><<<g.grid.x, g.block.x>>>(out, in0, in1, plan.numel, f);
  }
  STRIDED_CUDA_CHECK_LAUNCH();
}

template <int NIN, class index_t, class T, class F>
void launch_strided_with(const ElementwisePlan& plan, char* const data[3], F f) {
  std::array<IntList, NIN + 1> strides;
  for (int k = 0; k <= NIN; ++k) strides[static_cast<size_t>(k)] = plan.byte_strides[static_cast<size_t>(k)];
  const auto calc = make_offset_calculator<NIN + 1, index_t>(plan.sizes, strides, "cuda elementwise");
  const LaunchGeometry g = linear_geometry(plan.numel, kThreads, kUnroll);
  strided_kernel<NIN, index_t, T, F><<<g.grid.x, g.block.x>>>(
      calc, data[0], data[1], data[2], static_cast<index_t>(plan.numel), f);
  STRIDED_CUDA_CHECK_LAUNCH();
}

template <int NIN, class T, class F>
void launch_op(ElementwiseKernel path, const ElementwisePlan& plan, char* const data[3], F f,
               bool index64) {
  STRIDED_INTERNAL_ASSERT(plan.byte_strides.size() == NIN + 1);
  if (plan.numel == 0) return;
  if (path == ElementwiseKernel::Flat) {
    STRIDED_INTERNAL_ASSERT(plan.is_flat(sizeof(T)));
    launch_flat<NIN, T>(plan, data, f);
  } else if (index64) {
    launch_strided_with<NIN, uint64_t, T>(plan, data, f);
  } else {
    launch_strided_with<NIN, uint32_t, T>(plan, data, f);
  }
}

}  // namespace

void launch_elementwise(ElementwiseOp op, ElementwiseKernel path, int64_t itemsize,
                        const ElementwisePlan& plan, char* const data[3], float scalar,
                        bool index64) {
  STRIDED_INTERNAL_ASSERT(index64 || fits_32bit_indexing(plan.numel));
  STRIDED_INTERNAL_ASSERT(path != ElementwiseKernel::Auto);  // elementwise.cpp chooses first
  if (op == ElementwiseOp::Copy) {
    switch (itemsize) {
      case 1: return launch_op<1, uint8_t>(path, plan, data, CopyOp<uint8_t>{}, index64);
      case 2: return launch_op<1, uint16_t>(path, plan, data, CopyOp<uint16_t>{}, index64);
      case 4: return launch_op<1, uint32_t>(path, plan, data, CopyOp<uint32_t>{}, index64);
      case 8: return launch_op<1, uint64_t>(path, plan, data, CopyOp<uint64_t>{}, index64);
      default: STRIDED_INTERNAL_ASSERT(false && "itemsize");
    }
  }
  STRIDED_INTERNAL_ASSERT(itemsize == 4);
  switch (op) {
    case ElementwiseOp::Add: return launch_op<2, float>(path, plan, data, AddOp{}, index64);
    case ElementwiseOp::Mul: return launch_op<2, float>(path, plan, data, MulOp{}, index64);
    case ElementwiseOp::AddScalar:
      return launch_op<1, float>(path, plan, data, AddScalarOp{scalar}, index64);
    case ElementwiseOp::MulScalar:
      return launch_op<1, float>(path, plan, data, MulScalarOp{scalar}, index64);
    case ElementwiseOp::Copy: break;
  }
}

}  // namespace strided::cuda::backend
