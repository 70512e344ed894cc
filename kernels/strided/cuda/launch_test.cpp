// Launch geometry stays within the hardware limits for every size, and covers every element once
// the kernels' grid-stride loops are taken into account.
#include "strided/cuda/launch.h"

#include <doctest/doctest.h>

using namespace strided::cuda;

TEST_CASE("a 1-D grid has one block per threads x items, capped at 2^31 - 1") {
  const LaunchGeometry g = linear_geometry(1000, 128, 4);
  CHECK(g.block.x == 128);
  CHECK(g.grid.x == 2);  // ceil(1000 / 512)
  CHECK(g.grid.y == 1);
  CHECK(linear_geometry(512, 128, 4).grid.x == 1);
  CHECK(linear_geometry(513, 128, 4).grid.x == 2);
  // 2^50 elements would need 2^41 blocks: the grid is capped and the kernel loops.
  CHECK(linear_geometry(int64_t{1} << 50, 128, 4).grid.x == kMaxGridX);
  CHECK(linear_geometry(int64_t{1} << 20, 256, 1, 80).grid.x == 80);
}

TEST_CASE("nothing to do means an empty launch, which callers skip") {
  CHECK(linear_geometry(0, 128, 4).empty());
  CHECK(tile_geometry(0, 100, 32, 32, 8).empty());
  CHECK(tile_geometry(100, 0, 32, 32, 8).empty());
  CHECK_FALSE(linear_geometry(1, 128, 4).empty());
}

TEST_CASE("a tile grid keeps gridDim.y within 65535") {
  const LaunchGeometry g = tile_geometry(100, 1000, 32, 32, 8);
  CHECK(g.block.x == 32);
  CHECK(g.block.y == 8);
  CHECK(g.grid.x == 32);  // ceil(1000 / 32)
  CHECK(g.grid.y == 4);   // ceil(100 / 32)
  // 3,000,000 rows are 93,750 tile rows: more than gridDim.y allows.
  const LaunchGeometry tall = tile_geometry(3'000'000, 8, 32, 32, 8);
  CHECK(tall.grid.y == kMaxGridYZ);
  CHECK(tall.grid.x == 1);
  // One row per block row (the column-split reduction): outer = 10^6 rows.
  CHECK(tile_geometry(1'000'000, 64, 1, 32, 8).grid.y == kMaxGridYZ);
}

TEST_CASE("ceil_div") {
  CHECK(ceil_div(0, 7) == 0);
  CHECK(ceil_div(7, 7) == 1);
  CHECK(ceil_div(8, 7) == 2);
  CHECK(ceil_div(INT64_MAX, 1) == INT64_MAX);
}

TEST_CASE("a tiled walk takes 32-bit offsets only while every offset and loop bound fits") {
  CHECK(tiles_fit_32bit(8192, 8192, 8192, 1, 64));
  CHECK(tiles_fit_32bit(1, 1, 0, 0, 64));
  // The output's span: (rows + 64) · (cols + 64) must stay below 2^31.
  CHECK(tiles_fit_32bit(46000, 46000, 46000, 1, 64));
  CHECK_FALSE(tiles_fit_32bit(46341, 46341, 46341, 1, 64));
  // The input's last offset: a padded row stride reaches past 2^31 with few elements.
  CHECK(tiles_fit_32bit(2, 5, 1'000'000'000, 1, 64));
  CHECK_FALSE(tiles_fit_32bit(3, 5, 1'073'741'824, 1, 64));  // 2 · 2^30 + 4 >= 2^31 - 1
  CHECK_FALSE(tiles_fit_32bit(5, 3, 1, 1'073'741'824, 64));  // a transposed view, likewise
}
