// Launch geometry: how many blocks of how many threads each kernel family gets, with the hardware
// limits applied on the host (CUDA C++ Programming Guide, "Compute Capabilities", table of technical
// specifications: gridDim.x <= 2^31-1, gridDim.y and gridDim.z <= 65535, 1024 threads per block).
// A grid capped by a limit is not an error: every kernel loops ("grid-stride") over the blocks the
// grid could not cover, so the geometry only has to stay legal, never to be exact.
#pragma once

#include <cstdint>

namespace strided::cuda {

inline constexpr int64_t kMaxGridX = 2147483647;  // 2^31 - 1
inline constexpr int64_t kMaxGridYZ = 65535;
inline constexpr int64_t kMaxThreadsPerBlock = 1024;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};
struct LaunchGeometry {
  Dim3 grid;
  Dim3 block;
  // A launch with no blocks is illegal; callers with nothing to do skip the launch.
  bool empty() const { return grid.x == 0 || grid.y == 0 || grid.z == 0; }
};

// ceil(a / b) for a >= 0, b > 0.
int64_t ceil_div(int64_t a, int64_t b);

// A 1-D grid over n work items, `threads` per block and `items_per_thread` each (the grid-stride
// loop covers whatever a capped grid leaves). max_blocks caps the grid below kMaxGridX when a
// kernel prefers fewer, longer-lived blocks.
LaunchGeometry linear_geometry(int64_t n, int threads, int items_per_thread,
                               int64_t max_blocks = kMaxGridX);

// A 2-D grid of tiles over a rows x cols matrix: blockIdx.x walks tiles along cols, blockIdx.y
// along rows (capped at 65535; kernels loop over the rest). Block is (tile_cols, block_rows).
LaunchGeometry tile_geometry(int64_t rows, int64_t cols, int tile_rows, int tile_cols,
                             int block_rows);

// Whether a tiled walk of a rows x cols matrix with element strides s0, s1 (>= 0), written to a
// contiguous cols x rows output, can do its index arithmetic in 32 bits: every input offset, every
// output offset, and the tile loops' bounds (one tile past the last) stay below 2^31.
bool tiles_fit_32bit(int64_t rows, int64_t cols, int64_t s0, int64_t s1, int tile);

}  // namespace strided::cuda
