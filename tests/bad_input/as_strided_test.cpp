// Bad input, part 4: as_strided outside its storage, and its other argument checks. The storage of
// arange(24, float32) has 96 bytes.
#include "expect_error.h"
#include "strided/tensor/tensor.h"

using namespace strided;

namespace {
Tensor t3_float() { return arange(24, {DType::Float32}).view({2, 3, 4}); }
}  // namespace

TEST_CASE("as_strided reaching past the storage") {
  // torch: "setStorage: sizes [5, 5], strides [5, 1], storage offset 0, and itemsize 4 requiring
  // a storage size of 100 are out of bounds for storage of size 96"
  CHECK_ERROR(t3_float().as_strided({5, 5}, {5, 1}), "as_strided()",
              "setStorage: sizes [5, 5], strides [5, 1], storage offset 0, and itemsize 4 "
              "requiring a storage size of 100 are out of bounds for storage of size 96");
}

TEST_CASE("as_strided with an offset that pushes it past the storage") {
  // torch: "... storage offset 23, and itemsize 4 requiring a storage size of 104 ..."
  CHECK_ERROR(t3_float().as_strided({2, 2}, {1, 1}, 23), "as_strided()", "storage offset 23",
              "requiring a storage size of 104 are out of bounds for storage of size 96");
}

TEST_CASE("as_strided with an offset whose byte count overflows int64") {
  CHECK_ERROR(t3_float().as_strided({2}, {1}, INT64_MAX), "as_strided()",
              "storage offset 9223372036854775807", "more than int64 holds");
}

TEST_CASE("as_strided with a negative stride") {
  // torch: "as_strided: Negative strides are not supported at the moment, got strides: [-1, 1]"
  CHECK_ERROR(t3_float().as_strided({2, 2}, {-1, 1}),
              "as_strided(): Negative strides are not supported at the moment, got strides: "
              "[-1, 1]");
}

TEST_CASE("as_strided with more sizes than strides") {
  // torch: "mismatch in length of strides and shape"
  CHECK_ERROR(t3_float().as_strided({2, 2}, {1}), "as_strided(): mismatch in length of strides (1) and "
              "shape (2)");
}

TEST_CASE("as_strided with a negative offset") {
  // torch: "Tensor: invalid storage offset -1"
  CHECK_ERROR(t3_float().as_strided({2, 2}, {1, 1}, -1), "as_strided()", "invalid storage offset -1");
}

TEST_CASE("as_strided with a negative size") {
  CHECK_ERROR(t3_float().as_strided({2, -2}, {1, 1}), "as_strided()", "negative size", "[2, -2]");
}

TEST_CASE("as_strided whose farthest element overflows int64") {
  // torch: "Storage size calculation overflowed with sizes=[4611686018427387904, 4] and
  // strides=[4, 1]"
  CHECK_ERROR(t3_float().as_strided({int64_t{1} << 62, 4}, {4, 1}), "as_strided()",
              "torage size calculation overflowed with sizes=[4611686018427387904, 4]",
              "strides=[4, 1]");
}

TEST_CASE("a view op whose wrapped stride is negative") {
  // PyTorch 1.13 forms these views through as_strided, which refuses a negative stride; the
  // strides wrap as int64 first, on dims that are never stepped. torch's messages name as_strided
  // ("as_strided: Negative strides are not supported at the moment, got strides: [...]"), or,
  // for -2^63, "IntArrayRef contains an int that cannot be represented as a SymInt".
  constexpr int64_t k2to62 = int64_t{1} << 62;
  const Tensor storage = arange(100, {DType::Float32});
  // slice: stride 2^62 times step 3 wraps to -2^62.
  CHECK_ERROR(storage.as_strided({1, 2}, {k2to62, 1}).slice(0, std::nullopt, std::nullopt, 3),
              "slice(): Negative strides are not supported at the moment, got strides: "
              "[-4611686018427387904, 1]");
  // unsqueeze: the new dim's stride is 3 * 2^62, wrapped.
  CHECK_ERROR(storage.as_strided({3, 0}, {k2to62, 1}).unsqueeze(0),
              "unsqueeze(): Negative strides are not supported at the moment, got strides: "
              "[-4611686018427387904, 4611686018427387904, 1]");
  // diagonal: 2^62 + 2^62 is -2^63.
  CHECK_ERROR(storage.as_strided({1, 1}, {k2to62, k2to62}).diagonal(),
              "diagonal(): Negative strides are not supported at the moment, got strides: "
              "[-9223372036854775808]");
  // unfold: the windows' stride is step 3 times 2^62.
  CHECK_ERROR(storage.as_strided({1, 2}, {k2to62, 1}).unfold(0, 1, 3),
              "unfold(): Negative strides are not supported at the moment, got strides: "
              "[-4611686018427387904, 1, 4611686018427387904]");
  // A wrapped stride that is not negative is PyTorch's answer: torch gives strides (0, 1).
  CHECK(storage.as_strided({1, 2}, {k2to62, 1}).slice(0, std::nullopt, std::nullopt, 4).strides() ==
        Shape{0, 1});
}

TEST_CASE("a copy of a hand-built tensor with a negative stride") {
  // A Tensor built from parts may carry a negative stride on a size-1 dim (no view op makes one);
  // the copy ops keep their input's strides and refuse it in their own name, as PyTorch's
  // empty_strided does ("as_strided: Negative strides are not supported at the moment, got
  // strides: [-2]").
  const Tensor t(Storage::allocate(8), {1}, {-2}, 0, DType::Int64);
  CHECK_ERROR(t.clone(), "clone(): Negative strides are not supported at the moment, got strides: [-2]");
  CHECK_ERROR(t.to(DType::Float64), "to(): Negative strides", "[-2]");
  CHECK_ERROR(t.flip({0}), "flip(): Negative strides", "[-2]");
}
