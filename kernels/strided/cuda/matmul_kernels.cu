// Matmul kernels: 1. naive, 2. shared-memory tiled. (3., cuBLAS, is in cublas.cpp.) See matmul.h.
#include <cstdint>

#include "strided/cuda/backend.h"
#include "strided/cuda/check.h"
#include "strided/cuda/launch.h"

namespace strided::cuda::backend {

namespace {

// Both kernels: C (M×N, contiguous) = A (M×K, strides a0, a1) · B (K×N, strides b0, b1). A block
// of 32×8 threads covers 32 adjacent columns of C, so a warp (one threadIdx.y) spans one row:
// its A loads are one address (a broadcast) and its B loads 32 neighbours along a row of B.
constexpr int kCols = 32;
constexpr int kRows = 8;

// 1. One thread per C element, the dot product read from global memory.
__global__ void matmul_naive(float* c, const float* a, const float* b, int64_t M, int64_t N,
                             int64_t K, int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
  const int64_t tiles_y = (M + kRows - 1) / kRows, tiles_x = (N + kCols - 1) / kCols;
  for (int64_t ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    for (int64_t tx = blockIdx.x; tx < tiles_x; tx += gridDim.x) {
      const int64_t i = ty * kRows + threadIdx.y, j = tx * kCols + threadIdx.x;
      if (i >= M || j >= N) continue;
      float acc = 0.0f;
      for (int64_t k = 0; k < K; ++k) acc = fmaf(a[i * a0 + k * a1], b[k * b0 + j * b1], acc);
      c[i * N + j] = acc;
    }
  }
}

// 2. 32×32 tiles of A and B staged in shared memory; each element loaded from global memory once
// per tile is used 32 times from shared memory. Each thread computes 4 elements of C (rows
// threadIdx.y + 0, 8, 16, 24), keeping 4 accumulators in registers. In the inner loop a warp
// reads As[row][kk] (one address, broadcast) and Bs[kk][0..31] (32 banks): no bank conflicts.
constexpr int kTile = 32;
constexpr int kPerThread = kTile / kRows;

__global__ void matmul_tiled(float* c, const float* a, const float* b, int64_t M, int64_t N,
                             int64_t K, int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t tiles_y = (M + kTile - 1) / kTile, tiles_x = (N + kTile - 1) / kTile;
  for (int64_t by = blockIdx.y; by < tiles_y; by += gridDim.y) {
    for (int64_t bx = blockIdx.x; bx < tiles_x; bx += gridDim.x) {
      const int64_t row0 = by * kTile, col0 = bx * kTile;
      float acc[kPerThread] = {};
      for (int64_t k0 = 0; k0 < K; k0 += kTile) {
#pragma unroll
        for (int p = 0; p < kPerThread; ++p) {
          const int r = ty + p * kRows;
          const int64_t ai = row0 + r, ak = k0 + tx;  // A tile: rows of A, columns k
          As[r][tx] = (ai < M && ak < K) ? a[ai * a0 + ak * a1] : 0.0f;
          const int64_t bk = k0 + r, bj = col0 + tx;  // B tile: rows k, columns of B
          Bs[r][tx] = (bk < K && bj < N) ? b[bk * b0 + bj * b1] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < kTile; ++kk) {
          const float bv = Bs[kk][tx];
#pragma unroll
          for (int p = 0; p < kPerThread; ++p) acc[p] = fmaf(As[ty + p * kRows][kk], bv, acc[p]);
        }
        __syncthreads();  // the next k0 overwrites the tiles
      }
#pragma unroll
      for (int p = 0; p < kPerThread; ++p) {
        const int64_t i = row0 + ty + p * kRows, j = col0 + tx;
        if (i < M && j < N) c[i * N + j] = acc[p];
      }
    }
  }
}

}  // namespace

void launch_matmul(MatmulKernel v, float* c, const float* a, const float* b, int64_t M,
                   int64_t N, int64_t K, int64_t a_s0, int64_t a_s1, int64_t b_s0, int64_t b_s1) {
  STRIDED_INTERNAL_ASSERT(M >= 1 && N >= 1 && K >= 1);
  STRIDED_INTERNAL_ASSERT(v != MatmulKernel::Cublas);  // cublas_sgemm runs that one
  if (v == MatmulKernel::Naive) {
    const LaunchGeometry g = tile_geometry(M, N, kRows, kCols, kRows);
    matmul_naive<<<dim3(g.grid.x, g.grid.y), dim3(g.block.x, g.block.y)>>>(c, a, b, M, N, K, a_s0,
                                                                          a_s1, b_s0, b_s1);
  } else {
    const LaunchGeometry g = tile_geometry(M, N, kTile, kTile, kRows);
    matmul_tiled<<<dim3(g.grid.x, g.grid.y), dim3(g.block.x, g.block.y)>>>(c, a, b, M, N, K, a_s0,
                                                                          a_s1, b_s0, b_s1);
  }
  STRIDED_CUDA_CHECK_LAUNCH();
}

}  // namespace strided::cuda::backend
