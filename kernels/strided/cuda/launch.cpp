#include "strided/cuda/launch.h"

#include <algorithm>

#include "strided/core/error.h"

namespace strided::cuda {

int64_t ceil_div(int64_t a, int64_t b) {
  STRIDED_INTERNAL_ASSERT(a >= 0 && b > 0);
  return a / b + (a % b != 0);
}

LaunchGeometry linear_geometry(int64_t n, int threads, int items_per_thread, int64_t max_blocks) {
  STRIDED_INTERNAL_ASSERT(n >= 0 && threads >= 1 && threads <= kMaxThreadsPerBlock &&
                          items_per_thread >= 1 && max_blocks >= 1);
  LaunchGeometry g;
  g.block.x = static_cast<uint32_t>(threads);
  const int64_t per_block = int64_t{threads} * items_per_thread;
  const int64_t blocks = std::min({ceil_div(n, per_block), max_blocks, kMaxGridX});
  g.grid.x = static_cast<uint32_t>(blocks);
  return g;
}

LaunchGeometry tile_geometry(int64_t rows, int64_t cols, int tile_rows, int tile_cols,
                             int block_rows) {
  STRIDED_INTERNAL_ASSERT(rows >= 0 && cols >= 0 && tile_rows >= 1 && tile_cols >= 1 &&
                          block_rows >= 1 && int64_t{tile_cols} * block_rows <= kMaxThreadsPerBlock);
  LaunchGeometry g;
  g.block.x = static_cast<uint32_t>(tile_cols);
  g.block.y = static_cast<uint32_t>(block_rows);
  g.grid.x = static_cast<uint32_t>(std::min(ceil_div(cols, tile_cols), kMaxGridX));
  g.grid.y = static_cast<uint32_t>(std::min(ceil_div(rows, tile_rows), kMaxGridYZ));
  return g;
}

bool tiles_fit_32bit(int64_t rows, int64_t cols, int64_t s0, int64_t s1, int tile) {
  STRIDED_INTERNAL_ASSERT(rows >= 1 && cols >= 1 && s0 >= 0 && s1 >= 0 && tile >= 1);
  constexpr int64_t kLimit = 2147483647;  // 2^31 - 1
  const int64_t last_in = (rows - 1) * s0 + (cols - 1) * s1;
  const int64_t span = (rows + tile) * (cols + tile);
  return last_in < kLimit && span < kLimit;
}

}  // namespace strided::cuda
