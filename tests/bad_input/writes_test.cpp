// Bad input, part 5: writes into memory that more than one element shares (an expanded tensor, a
// stride-0 as_strided), or that the source also occupies in part. PyTorch refuses them all, since
// the result would depend on the order of the writes. The engine's messages name an in-place op
// by its function ("add: ..." for add_), as PyTorch's name neither.
#include "expect_error.h"
#include "strided/engine/ops.h"
#include "strided/tensor/tensor.h"

using namespace strided;

TEST_CASE("add_ of a scalar into an expanded tensor") {
  // torch: "unsupported operation: more than one element of the written-to tensor refers to a
  // single memory location. Please clone() the tensor before performing the operation."
  CHECK_ERROR(add_(ones({1, 3}).expand({4, 3}), Scalar(1.0)), "add: ",
              "unsupported operation: more than one element of the written-to tensor refers to a "
              "single memory location. Please clone() the tensor before performing the "
              "operation.",
              "(4,3):(0,1)");
}

TEST_CASE("add_ of a tensor into an expanded tensor") {
  CHECK_ERROR(add_(ones({1, 3}).expand({4, 3}), ones({4, 3})), "add: ",
              "more than one element of the written-to tensor refers to a single memory location");
}

TEST_CASE("mul_ into a stride-0 as_strided view") {
  const Tensor t = arange(6, {DType::Float32});
  CHECK_ERROR(mul_(t.as_strided({3, 2}, {0, 1}), Scalar(2.0)), "mul: ",
              "more than one element of the written-to tensor refers to a single memory location",
              "(3,2):(0,1)");
}

TEST_CASE("div_ into an expanded tensor of another tensor") {
  CHECK_ERROR(div_(zeros({3, 1}).expand({3, 5}), ones({3, 5})), "div: ",
              "more than one element of the written-to tensor refers to a single memory location");
}

TEST_CASE("copy_ into an expanded tensor") {
  Tensor dst = ones({1, 3}).expand({4, 3});
  CHECK_ERROR(dst.copy_(ones({4, 3})), "copy_()",
              "more than one element of the written-to tensor refers to a single memory location",
              "(4,3):(0,1)");
}

TEST_CASE("add_ into a tensor that its operand partly overlaps") {
  // torch: "unsupported operation: some elements of the input tensor and the written-to tensor
  // refer to a single memory location. Please clone() the tensor before performing the
  // operation."
  const Tensor x = arange(5, {DType::Float32});
  CHECK_ERROR(add_(x.slice(0, 1), x.slice(0, 0, -1)), "add: ",
              "some elements of the input tensor and the written-to tensor refer to a single "
              "memory location");
}

TEST_CASE("copy_ into a tensor that its source partly overlaps") {
  const Tensor x = arange(5, {DType::Float32});
  Tensor dst = x.slice(0, 1);
  CHECK_ERROR(dst.copy_(x.slice(0, 0, -1)), "copy_()",
              "some elements of the input tensor and the written-to tensor refer to a single "
              "memory location",
              "offset 1", "offset 0");
}

TEST_CASE("neg_ into an expanded tensor") {
  CHECK_ERROR(neg_(arange(3, {DType::Float32}).expand({2, 3})), "neg: ",
              "more than one element of the written-to tensor refers to a single memory location");
}
