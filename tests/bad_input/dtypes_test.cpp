// Bad input, part 6: dtypes an op cannot take or cannot write.
#include <cmath>

#include "expect_error.h"
#include "strided/engine/ops.h"
#include "strided/tensor/tensor.h"

using namespace strided;

TEST_CASE("typed data access with the wrong C++ type") {
  CHECK_ERROR(arange(3).data<float>(), "data", "expected dtype int64 but got float32");
}

TEST_CASE("an in-place add whose float result cannot be stored in int32") {
  // torch: "result type Float can't be cast to the desired output type Int"
  CHECK_ERROR(add_(ones({3}, {DType::Int32}), ones({3})), "add: ",
              "result type Float can't be cast to the desired output type Int");
}

TEST_CASE("an in-place add of a float scalar to int64") {
  // torch: "result type Float can't be cast to the desired output type Long"
  CHECK_ERROR(add_(ones({3}, {DType::Int64}), Scalar(1.5)), "add: ",
              "result type Float can't be cast to the desired output type Long");
}

TEST_CASE("in-place true division of an integer tensor") {
  CHECK_ERROR(div_(ones({3}, {DType::Int32}), Scalar(int64_t{2})), "div: ",
              "result type Float can't be cast to the desired output type Int");
}

TEST_CASE("in-place exp of an integer tensor") {
  CHECK_ERROR(exp_(ones({3}, {DType::Int32})), "exp: ",
              "result type Float can't be cast to the desired output type Int");
}

TEST_CASE("negation of a bool tensor") {
  // torch: "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to
  // invert a mask, use the `~` or `logical_not()` operator instead."
  CHECK_ERROR(neg(ones({3}, {DType::Bool})), "neg",
              "Negation, the `-` operator, on a bool tensor is not supported.");
}

TEST_CASE("fill_ with a value the dtype cannot hold") {
  // torch: "value cannot be converted to type int without overflow"
  CHECK_ERROR(ones({3}, {DType::Int32}).fill_(Scalar(int64_t{1} << 40)), "fill_()",
              "value 1099511627776 cannot be converted to type int32 without overflow");
}

TEST_CASE("rand of an integer dtype") {
  Generator gen(1);
  CHECK_ERROR(rand({3}, gen, {DType::Int32}), "rand", "floating-point dtype", "int32");
}

TEST_CASE("from_values with a value the integer dtype cannot hold") {
  // torch: "value cannot be converted to type int32 without overflow"
  CHECK_ERROR(from_values({1.0, 3e9}, {2}, {DType::Int32}), "from_values", "value 3e+09",
              "cannot be converted to type int32 without overflow");
}

TEST_CASE("from_values with NaN for an integer dtype") {
  CHECK_ERROR(from_values({std::nan("")}, {1}, {DType::Int64}), "from_values", "value nan",
              "int64");
}

TEST_CASE("arange of bool") {
  // torch: torch.arange(5, dtype=torch.bool) raises "\"arange_cpu\" not implemented for 'Bool'"
  CHECK_ERROR(arange(0, 5, 1, {DType::Bool}), "arange: ",
              "\"arange_cpu\" not implemented for 'Bool'");
}

TEST_CASE("from_scalars with an integer the dtype cannot hold") {
  // torch: torch.tensor([2**31], dtype=torch.int32) raises "value cannot be converted to type
  // int32 without overflow"; the value is named exactly, not through double.
  CHECK_ERROR(from_scalars({Scalar(int64_t{1} << 31)}, {1}, {DType::Int32}, "tensor()"),
              "tensor(): value 2147483648 cannot be converted to type int32 without overflow");
  CHECK_ERROR(from_scalars({Scalar(std::nan(""))}, {1}, {DType::Int64}), "from_values",
              "cannot be converted to type int64 without overflow");
}

TEST_CASE("fill_ of uint8 with 256, or with a negative number past -255") {
  // torch: torch.zeros(3, dtype=torch.uint8).fill_(256) and .fill_(-256) raise "value cannot be
  // converted to type uint8_t without overflow" (-1 to -255 wrap, as c10 lets them).
  CHECK_ERROR(zeros({3}, {DType::UInt8}).fill_(Scalar(int64_t{256})), "fill_()",
              "value 256 cannot be converted to type uint8 without overflow");
  CHECK_ERROR(zeros({3}, {DType::UInt8}).fill_(Scalar(int64_t{-256})), "fill_()",
              "value -256 cannot be converted to type uint8 without overflow");
}

TEST_CASE("an in-place add of a float scalar to int8") {
  // torch: "result type Float can't be cast to the desired output type Char"
  CHECK_ERROR(add_(ones({3}, {DType::Int8}), Scalar(0.5)), "add: ",
              "result type Float can't be cast to the desired output type Char");
}

TEST_CASE("view(dtype) from int16 to float32 of an odd last dim") {
  CHECK_ERROR(ones({2, 3}, {DType::Int16}).view(DType::Float32), "view(): ",
              "self.size(-1) must be divisible by 2 to view Short as Float (different element "
              "sizes), but got 3");
}
