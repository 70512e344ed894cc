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
// shared memory, so the global writes are as consecutive as the reads. The tile is 64×64
// elements, 32×8 threads moving 16 each (two 32-element halves of eight rows): a 32×32 tile with
// 4 elements per thread reached 75% of a copy's bandwidth on an H200, the 64×64 tile 93%
// (8192² float32: 169.9 and 137.1 µs; the copy 128.0 µs), as each thread keeps four times the
// loads in flight. Index arithmetic is 32-bit where every offset fits (index_t), as in PyTorch's
// kernels. The tile has kTiled + 1 columns: a tile column's elements sit 65 words apart, in 32
// different banks (65 mod 32 = 1), where with 64 columns they would share two banks and the
// read would be replayed 16 times.
constexpr int kTiled = kTransposeTile;

template <class index_t>
__global__ void transpose_tiled(uint32_t* out, const uint32_t* in, index_t rows, index_t cols,
                                index_t s0, index_t s1) {
  __shared__ uint32_t tile[kTiled][kTiled + 1];
  const index_t tiles_y = (rows + kTiled - 1) / kTiled, tiles_x = (cols + kTiled - 1) / kTiled;
  for (index_t ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    for (index_t tx = blockIdx.x; tx < tiles_x; tx += gridDim.x) {
      const index_t r0 = ty * kTiled, c0 = tx * kTiled;
#pragma unroll
      for (int j = 0; j < kTiled; j += kBlockRows) {
#pragma unroll
        for (int h = 0; h < kTiled; h += kTile) {
          const index_t r = r0 + threadIdx.y + j, c = c0 + threadIdx.x + h;
          if (r < rows && c < cols) tile[threadIdx.y + j][threadIdx.x + h] = in[r * s0 + c * s1];
        }
      }
      __syncthreads();
#pragma unroll
      for (int j = 0; j < kTiled; j += kBlockRows) {
#pragma unroll
        for (int h = 0; h < kTiled; h += kTile) {
          // Output row oc is input column c0 + threadIdx.y + j; output column orr is input row.
          const index_t oc = c0 + threadIdx.y + j, orr = r0 + threadIdx.x + h;
          if (oc < cols && orr < rows) out[oc * rows + orr] = tile[threadIdx.x + h][threadIdx.y + j];
        }
      }
      __syncthreads();  // the next tile overwrites this one
    }
  }
}

}  // namespace

void launch_transpose_4byte(TransposeKernel v, void* out, const void* in, int64_t rows,
                            int64_t cols, int64_t s0, int64_t s1, bool index64) {
  auto* o = static_cast<uint32_t*>(out);
  const auto* i = static_cast<const uint32_t*>(in);
  if (v == TransposeKernel::Naive) {
    const LaunchGeometry g = tile_geometry(rows, cols, kTile, kTile, kBlockRows);
    if (g.empty()) return;
    transpose_naive<<<dim3(g.grid.x, g.grid.y), dim3(g.block.x, g.block.y)>>>(o, i, rows, cols, s0, s1);
  } else {
    // The grid counts 64×64 tiles; the block is 32×8 threads whatever the tile.
    const LaunchGeometry g = tile_geometry(rows, cols, kTiled, kTiled, kBlockRows);
    if (g.empty()) return;
    const dim3 grid(g.grid.x, g.grid.y), block(kTile, kBlockRows);
    if (index64) {
      transpose_tiled<int64_t><<<grid, block>>>(o, i, rows, cols, s0, s1);
    } else {
      transpose_tiled<uint32_t><<<grid, block>>>(o, i, static_cast<uint32_t>(rows),
                                                 static_cast<uint32_t>(cols),
                                                 static_cast<uint32_t>(s0), static_cast<uint32_t>(s1));
    }
  }
  STRIDED_CUDA_CHECK_LAUNCH();
}

}  // namespace strided::cuda::backend
