// Bad input, part 4: as_strided outside its storage, and its other argument checks. The storage of
// arange(24, float32) has 96 bytes.
#include "expect_error.h"
#include "strided/tensor.h"

using namespace strided;

namespace {
Tensor t3() { return arange(24, {DType::Float32}).view({2, 3, 4}); }
}  // namespace

TEST_CASE("as_strided reaching past the storage") {
  // torch: "setStorage: sizes [5, 5], strides [5, 1], storage offset 0, and itemsize 4 requiring
  // a storage size of 100 are out of bounds for storage of size 96"
  CHECK_ERROR(t3().as_strided({5, 5}, {5, 1}), "as_strided()",
              "setStorage: sizes [5, 5], strides [5, 1], storage offset 0, and itemsize 4 "
              "requiring a storage size of 100 are out of bounds for storage of size 96");
}

TEST_CASE("as_strided with an offset that pushes it past the storage") {
  // torch: "... storage offset 23, and itemsize 4 requiring a storage size of 104 ..."
  CHECK_ERROR(t3().as_strided({2, 2}, {1, 1}, 23), "as_strided()", "storage offset 23",
              "requiring a storage size of 104 are out of bounds for storage of size 96");
}

TEST_CASE("as_strided with an offset whose byte count overflows int64") {
  CHECK_ERROR(t3().as_strided({2}, {1}, INT64_MAX), "as_strided()",
              "storage offset 9223372036854775807", "more than int64 holds");
}

TEST_CASE("as_strided with a negative stride") {
  // torch: "as_strided: Negative strides are not supported at the moment, got strides: [-1, 1]"
  CHECK_ERROR(t3().as_strided({2, 2}, {-1, 1}),
              "as_strided(): Negative strides are not supported at the moment, got strides: "
              "[-1, 1]");
}

TEST_CASE("as_strided with more sizes than strides") {
  // torch: "mismatch in length of strides and shape"
  CHECK_ERROR(t3().as_strided({2, 2}, {1}), "as_strided(): mismatch in length of strides (1) and "
              "shape (2)");
}

TEST_CASE("as_strided with a negative offset") {
  // torch: "Tensor: invalid storage offset -1"
  CHECK_ERROR(t3().as_strided({2, 2}, {1, 1}, -1), "as_strided()", "invalid storage offset -1");
}

TEST_CASE("as_strided with a negative size") {
  CHECK_ERROR(t3().as_strided({2, -2}, {1, 1}), "as_strided()", "negative size", "[2, -2]");
}

TEST_CASE("as_strided whose farthest element overflows int64") {
  // torch: "Storage size calculation overflowed with sizes=[4611686018427387904, 4] and
  // strides=[4, 1]"
  CHECK_ERROR(t3().as_strided({int64_t{1} << 62, 4}, {4, 1}), "as_strided()",
              "torage size calculation overflowed with sizes=[4611686018427387904, 4]",
              "strides=[4, 1]");
}
