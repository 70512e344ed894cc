// Reduction kernels of float32 over make_reduction's plan (reduce_plan.h), any input layout:
// 1. thread per output, 2. block per row, 3. column split. See reduce.h for what each is for.
#include <algorithm>
#include <cstdint>

#include "strided/cuda/backend.h"
#include "strided/cuda/check.h"
#include "strided/cuda/launch.h"

namespace strided::cuda::backend {

namespace {

struct SumOp {
  __device__ static float identity() { return 0.0f; }
  __device__ static float combine(float a, float b) { return a + b; }
};
// torch.amax propagates NaN: a NaN anywhere in the row is the result.
struct MaxOp {
  __device__ static float identity() { return -__int_as_float(0x7f800000); }  // -inf
  __device__ static float combine(float a, float b) {
    if (a != a) return a;
    if (b != b) return b;
    return a > b ? a : b;
  }
};

// Every version reads input element r of output t at in + kept.get(t)[1] + r · reduced_step and
// writes output t at out + kept.get(t)[0] (reduce_plan.h); which (t, r) a thread takes at each
// step of its loop is reduce_plan.h's *_read function, shared with the sector model.
__device__ inline float input_at(const ReducePlan& p, int64_t base, int64_t r) {
  return *reinterpret_cast<const float*>(p.in + base + r * p.reduced_step);
}
__device__ inline float* output_at(const ReducePlan& p, int64_t base) {
  return reinterpret_cast<float*>(p.out + base);
}

// 1. Thread t reduces output t alone.
template <class Op>
__global__ void reduce_thread_per_output(const ReducePlan p) {
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < p.outputs; t += step) {
    const Offsets<2> at = p.kept.get(static_cast<uint64_t>(t));
    float acc = Op::identity();
    for (int64_t s = 0;; ++s) {
      const ReduceRead read = thread_per_output_read(t, s);
      if (read.r >= p.reduced) break;
      acc = Op::combine(acc, input_at(p, at[1], read.r));
    }
    *output_at(p, at[0]) = acc;
  }
}

constexpr int kWarps = kRowThreads / 32;

template <class Op>
__device__ float warp_reduce(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    v = Op::combine(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

// 2. A block of kRowThreads threads reduces one output: each thread strides through the row,
// then the warps combine their lanes with shuffles and the first warp combines the warps.
template <class Op>
__global__ void reduce_block_per_row(const ReducePlan p) {
  __shared__ float partial[kWarps];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int64_t b = blockIdx.x; b < p.outputs; b += gridDim.x) {
    const Offsets<2> at = p.kept.get(static_cast<uint64_t>(b));
    float acc = Op::identity();
    for (int64_t s = 0;; ++s) {
      const ReduceRead read = block_per_row_read(b, threadIdx.x, s);
      if (read.r >= p.reduced) break;
      acc = Op::combine(acc, input_at(p, at[1], read.r));
    }
    acc = warp_reduce<Op>(acc);
    if (lane == 0) partial[warp] = acc;
    __syncthreads();
    if (warp == 0) {
      acc = lane < kWarps ? partial[lane] : Op::identity();
      acc = warp_reduce<Op>(acc);
      if (lane == 0) *output_at(p, at[0]) = acc;
    }
    __syncthreads();  // partial is rewritten by the next row
  }
}

// 3. An 8×128 block reduces 8 adjacent outputs: thread (x, y) takes output 8 b + x and rows y,
// y+128, y+256, ...; the 128 partial results per output meet in shared memory, halving each step.
// __launch_bounds__: a block of 1024 threads launches only if the compiler keeps each thread
// within 64 registers; the bound makes it do so.
template <class Op>
__global__ void __launch_bounds__(kSplitColumns * kSplitRows)
    reduce_column_split(const ReducePlan p) {
  __shared__ float partial[kSplitRows][kSplitColumns];
  const int64_t strips = column_split_strips(p.outputs);
  for (int64_t b = blockIdx.x; b < strips; b += gridDim.x) {
    const int64_t t = column_split_read(b, threadIdx.x, threadIdx.y, 0).output;
    Offsets<2> at{};
    float acc = Op::identity();
    if (t < p.outputs) {
      at = p.kept.get(static_cast<uint64_t>(t));
      for (int64_t s = 0;; ++s) {
        const ReduceRead read = column_split_read(b, threadIdx.x, threadIdx.y, s);
        if (read.r >= p.reduced) break;
        acc = Op::combine(acc, input_at(p, at[1], read.r));
      }
    }
    partial[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
#pragma unroll
    for (int half = kSplitRows / 2; half > 0; half /= 2) {
      if (threadIdx.y < half)
        partial[threadIdx.y][threadIdx.x] =
            Op::combine(partial[threadIdx.y][threadIdx.x], partial[threadIdx.y + half][threadIdx.x]);
      __syncthreads();
    }
    if (threadIdx.y == 0 && t < p.outputs) *output_at(p, at[0]) = partial[0][threadIdx.x];
    __syncthreads();  // partial is rewritten by the next strip
  }
}

template <class Op>
void launch_with(ReduceKernel v, const ReducePlan& p) {
  switch (v) {
    case ReduceKernel::ThreadPerOutput: {
      const LaunchGeometry g = linear_geometry(p.outputs, 256, 1);
      reduce_thread_per_output<Op><<<g.grid.x, g.block.x>>>(p);
      break;
    }
    case ReduceKernel::BlockPerRow: {
      const auto blocks = static_cast<unsigned>(std::min(p.outputs, kMaxGridX));
      reduce_block_per_row<Op><<<blocks, kRowThreads>>>(p);
      break;
    }
    case ReduceKernel::ColumnSplit: {
      const int64_t strips = column_split_strips(p.outputs);
      const auto blocks = static_cast<unsigned>(std::min(strips, kMaxGridX));
      reduce_column_split<Op><<<blocks, dim3(kSplitColumns, kSplitRows)>>>(p);
      break;
    }
    case ReduceKernel::Auto:  // chosen by the caller (reduce.cpp) before any launch
      STRIDED_INTERNAL_ASSERT(v != ReduceKernel::Auto);
  }
  STRIDED_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_reduce(ReduceKernel v, ReduceOp op, const ReducePlan& plan) {
  STRIDED_INTERNAL_ASSERT(plan.outputs >= 1 && plan.reduced >= 1);
  if (op == ReduceOp::Sum) launch_with<SumOp>(v, plan);
  else launch_with<MaxOp>(v, plan);
}

}  // namespace strided::cuda::backend
