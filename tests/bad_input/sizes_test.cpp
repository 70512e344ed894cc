// Bad input, part 1: sizes that are negative, or whose element count or byte count passes int64.
// Where PyTorch 1.13 raises too, its message is quoted and a piece of it is checked.
#include <cstdint>

#include "expect_error.h"
#include "strided/layout/layout.h"
#include "strided/tensor/tensor.h"

using namespace strided;

namespace {
constexpr int64_t k2to32 = int64_t{1} << 32;
constexpr int64_t k2to62 = int64_t{1} << 62;
}  // namespace

TEST_CASE("empty with a negative size") {
  // torch: "Trying to create tensor with negative dimension -3: [2, -3]"
  CHECK_ERROR(empty({2, -3}), "empty", "negative dimension -3", "[2, -3]");
}

TEST_CASE("zeros with a negative size") {
  CHECK_ERROR(zeros({-1}), "zeros:", "negative dimension -1", "[-1]");
}

TEST_CASE("full with a negative size") {
  CHECK_ERROR(full({3, -2}, Scalar(1.0)), "negative dimension -2", "[3, -2]");
}

TEST_CASE("empty whose element count overflows int64") {
  // torch: "Storage size calculation overflowed with sizes=[4294967296, 4294967296, 4]"
  CHECK_ERROR(empty({k2to32, k2to32, 4}), "empty:",
              "Storage size calculation overflowed with sizes=[4294967296, 4294967296, 4]");
}

TEST_CASE("empty whose byte count overflows int64") {
  // 2^62 float32 elements are 2^64 bytes. torch: "Storage size calculation overflowed with
  // sizes=[4611686018427387904]".
  CHECK_ERROR(empty({k2to62}), "empty:",
              "Storage size calculation overflowed with sizes=[4611686018427387904]");
}

TEST_CASE("empty of 2^63-1 one-byte elements") {
  CHECK_ERROR(empty({INT64_MAX}, {DType::Bool}), "Storage::allocate", "9223372036854775807 bytes");
}

TEST_CASE("empty_strided with more sizes than strides") {
  // torch: "dimensionality of sizes (2) must match dimensionality of strides (1)"
  CHECK_ERROR(empty_strided({2, 3}, {1}), "empty_strided", "strides (1)", "shape (2)");
}

TEST_CASE("empty_strided with a negative stride") {
  CHECK_ERROR(empty_strided({2, 3}, {-1, 1}), "empty_strided", "negative strides", "[-1, 1]");
}

TEST_CASE("empty_strided whose storage overflows int64") {
  // torch: "Storage size calculation overflowed with sizes=[3, 2] and strides=[4611686018427387904,
  // 1]"
  CHECK_ERROR(empty_strided({3, 2}, {k2to62, 1}), "empty_strided",
              "Storage size calculation overflowed with sizes=[3, 2] and "
              "strides=[4611686018427387904, 1]");
}

TEST_CASE("from_values with the wrong number of values") {
  CHECK_ERROR(from_values({1, 2, 3}, {2, 2}), "from_values", "3 values", "[2, 2]", "4 elements");
}

TEST_CASE("arange whose length overflows int64") {
  // torch: "invalid size, possible overflow?"
  CHECK_ERROR(arange(INT64_MIN, INT64_MAX), "arange", "invalid size, possible overflow?",
              "start=-9223372036854775808", "end=9223372036854775807");
}

TEST_CASE("view to a shape with a negative size other than -1") {
  // torch: "invalid shape dimension -2"
  CHECK_ERROR(arange(24).view({-2, 12}), "view()", "invalid shape dimension -2", "[-2, 12]");
}

TEST_CASE("reshape to a shape whose element count overflows int64") {
  CHECK_ERROR(arange(24).reshape({k2to32, k2to32}), "reshape()", "[4294967296, 4294967296]",
              "more elements than int64 holds");
}

TEST_CASE("view to huge sizes cancelled by a 0 still needs the right count") {
  // torch: "shape '[4611686018427387904, 4611686018427387904, 0]' is invalid for input of size 24"
  CHECK_ERROR(arange(24).view({k2to62, k2to62, 0}), "view()",
              "shape '[4611686018427387904, 4611686018427387904, 0]' is invalid for input of "
              "size 24");
}

TEST_CASE("expand to a negative size") {
  // torch 1.13 lets -2 reach its numel check ("numel: integer multiplication overflow").
  CHECK_ERROR(ones({1}).expand({-2}), "expand", "invalid size -2", "Target sizes: [-2]");
}

TEST_CASE("expand whose element count overflows int64") {
  // torch: "numel: integer multiplication overflow"
  CHECK_ERROR(ones({1, 1, 1}).expand({k2to32, k2to32, 4}), "expand()",
              "numel: integer multiplication overflow", "[4294967296, 4294967296, 4]");
}

TEST_CASE("a permutation whose element count overflows before its 0") {
  // [2^62, 0, 4] is a tensor (the 0 comes before the overflow); [4, 2^62, 0] is not, in c10's
  // safe_compute_numel. torch: "numel: integer multiplication overflow".
  const Tensor t = empty({1, 0, 4}).expand({k2to62, 0, 4});
  CHECK_ERROR(t.permute({2, 0, 1}), "permute()", "numel: integer multiplication overflow",
              "[4, 4611686018427387904, 0]");
}

TEST_CASE("flatten whose merged size overflows int64") {
  // [2^62, 2, 0] is a tensor with no elements; merging its first two dims gives 2^63.
  const Tensor t = empty({1, 1, 0}).expand({k2to62, 2, 0});
  CHECK_ERROR(t.flatten(0, 1), "flatten()", "[4611686018427387904, 2]",
              "numel: integer multiplication overflow");
}

TEST_CASE("broadcast_shapes with a negative size") {
  // torch: "Trying to create tensor with negative dimension (-3): (-3)"
  CHECK_ERROR(broadcast_shapes(Shape{2, -3}, Shape{1}), "broadcast_shapes",
              "negative dimension -3", "[2, -3]");
}
