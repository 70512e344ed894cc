// device_copy_strides, the layout to_device gives a tensor on another device: host logic, checked
// on every machine (the copies themselves are checked in to_device_gpu_test.cpp).
#include <doctest/doctest.h>

#include "strided/cuda/to_device.h"
#include "strided/strided.h"

using namespace strided;
using strided::cuda::device_copy_strides;

TEST_CASE("a dense layout keeps its strides, however its dims are ordered") {
  const Tensor x = arange(24).view({2, 3, 4});
  CHECK(device_copy_strides(x) == Shape{12, 4, 1});
  CHECK(device_copy_strides(x.permute({2, 0, 1})) == Shape{1, 12, 4});
  CHECK(device_copy_strides(x.slice(0, 1, 2)) == Shape{12, 4, 1});  // an offset is dropped
}

TEST_CASE("holes and repeats are packed densely in the tensor's own dim order") {
  const Tensor x = arange(24).view({2, 3, 4});
  CHECK(device_copy_strides(x.slice(2, 0, 4, 2)) == Shape{6, 2, 1});
  // A permuted view with holes: dense in its dims' order, as empty_like(preserve_format) gives,
  // not row-major.
  CHECK(device_copy_strides(x.permute({2, 0, 1}).slice(2, 0, 3, 2)) == Shape{1, 8, 4});
  CHECK(device_copy_strides(arange(3).view({3, 1}).expand({3, 5})) == Shape{5, 1});
}

TEST_CASE("an undefined tensor is refused by name") {
  CHECK_THROWS_WITH_AS(device_copy_strides(Tensor()),
                       "cuda::device_copy_strides: undefined tensor", Error);
}
