// Transpose kernels: 1. naive, 2. shared-memory tiled with a padded tile. See transpose.h.
#include <cstdint>

#include "strided/cuda/backend.h"
#include "strided/cuda/check.h"
#include "strided/cuda/launch.h"

namespace strided::cuda::backend {

namespace {

constexpr int kTile = 32;       // a tile is 32×32 elements: one warp-wide row
constexpr int kBlockRows = 8;   // 32×8 threads, each moving kTile / kBlockRows = 4 elements

// Both kernels walk tiles with grid-stride loops in x and y, so a grid capped at 65535 tile rows
// (gridDim.y's limit) still covers matrices of any height. Every thread of a block runs the same
// iterations, which keeps the __syncthreads() of the tiled kernel legal.

// 1. Each thread copies in[r][c] to out[c][r] directly. For a row-major input a warp reads 32
// consecutive elements of a row (coalesced) and writes 32 elements `rows` apart (one sector each).
__global__ void transpose_naive(uint32_t* out, const uint32_t* in, int64_t rows, int64_t cols,
                                int64_t s0, int64_t s1) {
  const int64_t tiles_y = (rows + kTile - 1) / kTile, tiles_x = (cols + kTile - 1) / kTile;
  for (int64_t ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    for (int64_t tx = blockIdx.x; tx < tiles_x; tx += gridDim.x) {
      const int64_t c = tx * kTile + threadIdx.x;
#pragma unroll
      for (int j = 0; j < kTile; j += kBlockRows) {
        const int64_t r = ty * kTile + threadIdx.y + j;
        if (r < rows && c < cols) out[c * rows + r] = in[r * s0 + c * s1];
      }
    }
  }
}

// 2. The block reads a tile row-wise into shared memory, then writes it out column-wise from
// shared memory, so the global writes are as consecutive as the reads. The tile has kTile + 1
// columns: a tile column's elements sit 33 words apart, in 32 different banks (33 mod 32 = 1),
// where with 32 columns they would all sit in one bank and the read would be replayed 32 times.
__global__ void transpose_tiled(uint32_t* out, const uint32_t* in, int64_t rows, int64_t cols,
                                int64_t s0, int64_t s1) {
  __shared__ uint32_t tile[kTile][kTile + 1];
  const int64_t tiles_y = (rows + kTile - 1) / kTile, tiles_x = (cols + kTile - 1) / kTile;
  for (int64_t ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    for (int64_t tx = blockIdx.x; tx < tiles_x; tx += gridDim.x) {
      const int64_t r0 = ty * kTile, c0 = tx * kTile;
#pragma unroll
      for (int j = 0; j < kTile; j += kBlockRows) {
        const int64_t r = r0 + threadIdx.y + j, c = c0 + threadIdx.x;
        if (r < rows && c < cols) tile[threadIdx.y + j][threadIdx.x] = in[r * s0 + c * s1];
      }
      __syncthreads();
#pragma unroll
      for (int j = 0; j < kTile; j += kBlockRows) {
        // Output row oc is input column c0 + threadIdx.y + j; output column orr is input row.
        const int64_t oc = c0 + threadIdx.y + j, orr = r0 + threadIdx.x;
        if (oc < cols && orr < rows) out[oc * rows + orr] = tile[threadIdx.x][threadIdx.y + j];
      }
      __syncthreads();  // the next tile overwrites this one
    }
  }
}

}  // namespace

void launch_transpose_4byte(TransposeVersion v, void* out, const void* in, int64_t rows,
                            int64_t cols, int64_t s0, int64_t s1) {
  const LaunchGeometry g = tile_geometry(rows, cols, kTile, kTile, kBlockRows);
  if (g.empty()) return;
  const dim3 grid(g.grid.x, g.grid.y), block(g.block.x, g.block.y);
  auto* o = static_cast<uint32_t*>(out);
  const auto* i = static_cast<const uint32_t*>(in);
  if (v == TransposeVersion::Naive) {
    transpose_naive<<<grid, block>>>(o, i, rows, cols, s0, s1);
  } else {
    transpose_tiled<<<grid, block>>>(o, i, rows, cols, s0, s1);
  }
  STRIDED_CUDA_CHECK_LAUNCH();
}

}  // namespace strided::cuda::backend
