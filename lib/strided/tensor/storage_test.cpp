// Storage: from_blob lends memory the caller owns, which no allocation count sees.
#include "strided/tensor/storage.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "strided/tensor/tensor.h"

using namespace strided;

TEST_CASE("from_blob views the caller's memory, neither counted nor freed") {
  std::vector<int64_t> values = {3, 1, 4, 1, 5};
  const int64_t count = Storage::allocation_count(), bytes = Storage::allocated_bytes();
  {
    const Storage blob = Storage::from_blob(values.data(), 40);
    CHECK(blob.data() == values.data());
    CHECK(blob.nbytes() == 40);
    CHECK(blob.device().is_cpu());
    const Tensor t(blob, {5}, {1}, 0, DType::Int64);
    CHECK(t.to_vector() == std::vector<double>{3, 1, 4, 1, 5});
    // A layout past the lent bytes is refused as any storage's is.
    CHECK_THROWS_AS(Tensor(blob, {6}, {1}, 0, DType::Int64), Error);
  }
  CHECK(Storage::allocation_count() == count);
  CHECK(Storage::allocated_bytes() == bytes);
  CHECK(values[4] == 5);  // still the caller's: the last tensor's end freed nothing
  CHECK_THROWS_AS(Storage::from_blob(values.data(), -1), Error);
}
