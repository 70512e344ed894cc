#include "book/walks.h"

#include <doctest/doctest.h>

#include "strided/engine/ops.h"
#include "strided/strided.h"

using namespace strided;

TEST_CASE("a walk's first addresses, in bytes for the record and in elements for the prose") {
  const models::Trace t = models::logical_trace(zeros({4, 4}).t());
  CHECK(book::first_bytes(t, 3) == std::vector<int64_t>{0, 16, 32});
  CHECK(book::first_bytes(t, 99).size() == 16);
  CHECK(book::head(t, 3) == "0, 4, 8, …");
  CHECK(book::head(t, 16, 16) == "0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3");
}

TEST_CASE("the line model counts every operand but a scalar: add(3) on a dense cube reads and writes one line per 16 steps") {
  const Tensor x = zeros({8, 8, 8});
  CHECK(book::walk_lines(binary_plan(BinaryOp::Add, Tensor(), x, Scalar(3.0))) == 2.0);
  CHECK(book::binary_lines_per_16(x, x) == 3.0);
  CHECK(book::binary_lines_per_16(x, x.transpose(0, 2)) > 3.0);
}

TEST_CASE("sectors per warp request, summed over a plan's operands") {
  const Tensor x = zeros({8, 8, 32});
  CHECK(book::unary_sectors(x) == 8.0);         // 4 read + 4 written
  CHECK(book::binary_sectors(x, x) == 12.0);    // two loads and a store
  // A warp over 32 columns of a row-major matrix, one lane per row: every lane its own sector.
  CHECK(book::fewest_per_request(zeros({32, 32}).t()) == 32);
  CHECK(book::fewest_per_request(zeros({32, 32})) == 4);
}

TEST_CASE("LRU misses of a binary op: a cache that holds the operands misses each line once") {
  const Tensor x = zeros({16, 16}), y = zeros({16, 16});
  const int64_t lines = x.numel() * 4 / 64;
  // x, y and the output are three storages: three tensors' lines.
  CHECK(book::binary_misses(x, y, 1 << 20) == 3 * lines);
  CHECK(book::binary_misses(x, y.t(), 1 << 20) == 3 * lines);
  // x and x.t() are one storage, read twice: two tensors' lines.
  CHECK(book::binary_misses(x, x.t(), 1 << 20) == 2 * lines);
  CHECK(book::binary_misses(x, y.t(), 256) > 3 * lines);
}
