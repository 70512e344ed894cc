// Reduction kernels over the middle dim of a contiguous (outer, reduced, inner) float32 block:
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

// Element (o, r, i) of the block is in[(o·reduced + r)·inner + i]; output (o, i) is out[o·inner + i].

// 1. Thread t reduces output t alone.
template <class Op>
__global__ void reduce_thread_per_output(float* out, const float* in, int64_t outer,
                                         int64_t reduced, int64_t inner) {
  const int64_t n = outer * inner;
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  for (int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < n; t += step) {
    const int64_t o = t / inner, i = t % inner;
    const float* p = in + o * reduced * inner + i;
    float acc = Op::identity();
    for (int64_t r = 0; r < reduced; ++r) acc = Op::combine(acc, p[r * inner]);
    out[t] = acc;
  }
}

constexpr int kRowThreads = 256;
constexpr int kWarps = kRowThreads / 32;

template <class Op>
__device__ float warp_reduce(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    v = Op::combine(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

// 2. A block of 256 threads reduces one output: each thread strides through the row, then the
// warps combine their lanes with shuffles and the first warp combines the warps.
template <class Op>
__global__ void reduce_block_per_row(float* out, const float* in, int64_t outer, int64_t reduced,
                                     int64_t inner) {
  __shared__ float partial[kWarps];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int64_t n = outer * inner;
  for (int64_t t = blockIdx.x; t < n; t += gridDim.x) {
    const int64_t o = t / inner, i = t % inner;
    const float* p = in + o * reduced * inner + i;
    float acc = Op::identity();
    for (int64_t r = threadIdx.x; r < reduced; r += kRowThreads) acc = Op::combine(acc, p[r * inner]);
    acc = warp_reduce<Op>(acc);
    if (lane == 0) partial[warp] = acc;
    __syncthreads();
    if (warp == 0) {
      acc = lane < kWarps ? partial[lane] : Op::identity();
      acc = warp_reduce<Op>(acc);
      if (lane == 0) out[t] = acc;
    }
    __syncthreads();  // partial is rewritten by the next row
  }
}

constexpr int kColumns = 32;
constexpr int kSplit = 8;

// 3. A 32×8 block reduces 32 adjacent columns of one outer index: thread (x, y) takes column x
// and rows y, y+8, y+16, ...; the 8 partial results per column meet in shared memory.
template <class Op>
__global__ void reduce_column_split(float* out, const float* in, int64_t outer, int64_t reduced,
                                    int64_t inner) {
  __shared__ float partial[kSplit][kColumns];
  const int64_t tiles = (inner + kColumns - 1) / kColumns;
  for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
    for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      const int64_t i = tile * kColumns + threadIdx.x;
      float acc = Op::identity();
      if (i < inner) {
        const float* p = in + o * reduced * inner + i;
        for (int64_t r = threadIdx.y; r < reduced; r += kSplit) acc = Op::combine(acc, p[r * inner]);
      }
      partial[threadIdx.y][threadIdx.x] = acc;
      __syncthreads();
      if (threadIdx.y == 0 && i < inner) {
#pragma unroll
        for (int k = 1; k < kSplit; ++k) acc = Op::combine(acc, partial[k][threadIdx.x]);
        out[o * inner + i] = acc;
      }
      __syncthreads();
    }
  }
}

template <class Op>
void launch_with(ReduceVersion v, float* out, const float* in, int64_t outer, int64_t reduced,
                 int64_t inner) {
  const int64_t n = outer * inner;
  switch (v) {
    case ReduceVersion::ThreadPerOutput: {
      const LaunchGeometry g = linear_geometry(n, 256, 1);
      reduce_thread_per_output<Op><<<g.grid.x, g.block.x>>>(out, in, outer, reduced, inner);
      break;
    }
    case ReduceVersion::BlockPerRow: {
      const auto blocks = static_cast<unsigned>(std::min(n, kMaxGridX));
      reduce_block_per_row<Op><<<blocks, kRowThreads>>>(out, in, outer, reduced, inner);
      break;
    }
    case ReduceVersion::ColumnSplit: {
      const LaunchGeometry g = tile_geometry(outer, inner, 1, kColumns, kSplit);
      reduce_column_split<Op>
          <<<dim3(g.grid.x, g.grid.y), dim3(g.block.x, g.block.y)>>>(out, in, outer, reduced, inner);
      break;
    }
  }
  STRIDED_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_reduce(ReduceVersion v, ReduceOp op, float* out, const float* in, int64_t outer,
                   int64_t reduced, int64_t inner) {
  STRIDED_INTERNAL_ASSERT(outer >= 1 && reduced >= 1 && inner >= 1);
  if (op == ReduceOp::Sum) launch_with<SumOp>(v, out, in, outer, reduced, inner);
  else launch_with<MaxOp>(v, out, in, outer, reduced, inner);
}

}  // namespace strided::cuda::backend
