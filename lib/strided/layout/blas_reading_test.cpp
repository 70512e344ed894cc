// blas_reading: the two in-place readings of a 2-D layout, and its post-condition over layouts.
#include <doctest/doctest.h>

#include <random>

#include "strided/core/error.h"
#include "strided/layout/blas_reading.h"

using namespace strided;

TEST_CASE("blas_reading: row-major, column-major, or a copy") {
  CHECK(blas_reading(Layout({4, 6}, {6, 1})) == BlasReading{false, 6});
  CHECK(blas_reading(Layout({4, 6}, {10, 1})) == BlasReading{false, 10});  // a column slice
  CHECK(blas_reading(Layout({6, 4}, {1, 6})) == BlasReading{true, 6});     // a transpose
  CHECK(blas_reading(Layout({6, 4}, {1, 9})) == BlasReading{true, 9});
  CHECK_FALSE(blas_reading(Layout({4, 6}, {12, 2})));  // every other column
  CHECK_FALSE(blas_reading(Layout({4, 6}, {0, 1})));   // a broadcast row: ld 0 < 6
  CHECK_FALSE(blas_reading(Layout({4, 6}, {3, 1})));   // overlapping rows (ld < cols)
  CHECK_FALSE(blas_reading(Layout({4, 6}, {1, 2})));   // overlapping columns (ld < rows)
  // Size-1 dims have free strides; the ld of one row or column is the legal minimum.
  CHECK(blas_reading(Layout({1, 6}, {0, 1})) == BlasReading{false, 6});
  CHECK(blas_reading(Layout({1, 6}, {999, 1})) == BlasReading{false, 6});
  CHECK(blas_reading(Layout({6, 1}, {1, 0})) == BlasReading{false, 1});
  CHECK(blas_reading(Layout({6, 1}, {4, 7})) == BlasReading{false, 4});
  CHECK(blas_reading(Layout({1, 1}, {5, 5})) == BlasReading{false, 1});
  // Empty matrices read as their own kind, never as a copy.
  CHECK(blas_reading(Layout({0, 6}, {6, 1})) == BlasReading{false, 6});
  CHECK(blas_reading(Layout({6, 0}, {1, 6})) == BlasReading{false, 1});
  CHECK_THROWS_AS(blas_reading(Layout({2, 3, 4}, {12, 4, 1})), Error);
}

TEST_CASE("blas_reading, over many layouts: the reading addresses every element where it lies") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int64_t> size(0, 5), stride(0, 12);
  int read = 0, copied = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Layout m({size(rng), size(rng)}, {stride(rng), stride(rng)});
    const std::optional<BlasReading> r = blas_reading(m);
    if (!r) {
      ++copied;
      continue;
    }
    ++read;
    const int64_t rows = m.sizes()[0], cols = m.sizes()[1];
    CHECK(r->ld >= std::max<int64_t>(1, r->column_major ? rows : cols));
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        CHECK((r->column_major ? j * r->ld + i : i * r->ld + j) ==
              i * m.strides()[0] + j * m.strides()[1]);
  }
  CHECK(read > 1000);
  CHECK(copied > 1000);
}
