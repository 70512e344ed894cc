// The CPU references the GPU tests trust, checked on small cases worked by hand, and the
// comparison that applies the stated tolerances.
#include "strided/cuda/reference.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace strided;
using namespace strided::cuda;

namespace {
// The same storage seen through another layout (what as_strided does).
Tensor strided_view(const Tensor& t, IntList sizes, IntList strides, int64_t offset = 0) {
  return Tensor(t.storage(), sizes.vec(), strides.vec(), offset, t.dtype());
}
}  // namespace

TEST_CASE("reference_binary broadcasts and follows any layout") {
  const Tensor a = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor row = from_values({10, 20, 30}, {3});
  CHECK(reference_binary(a, row, BinaryOp::Add).to_vector() ==
        std::vector<double>{11, 22, 33, 14, 25, 36});
  // a.t() (3,2):(1,3) times a column (3,1): [[1,4],[2,5],[3,6]] * [[1],[2],[3]].
  const Tensor col = from_values({1, 2, 3}, {3, 1});
  const Tensor r = reference_binary(strided_view(a, {3, 2}, {1, 3}), col, BinaryOp::Mul);
  CHECK(r.sizes() == Shape{3, 2});
  CHECK(r.to_vector() == std::vector<double>{1, 4, 4, 10, 9, 18});
  CHECK(reference_binary_scalar(a, 3.0f, BinaryOp::Add).to_vector() ==
        std::vector<double>{4, 5, 6, 7, 8, 9});
}

TEST_CASE("reference_binary takes the library's BinaryOp and refuses the two the GPU lacks") {
  const Tensor a = from_values({1, 2}, {2});
  CHECK_THROWS_WITH_AS(reference_binary(a, a, BinaryOp::Sub),
                       "reference_binary: the GPU computes add and mul only, got sub", Error);
  CHECK_THROWS_WITH_AS(reference_binary_scalar(a, 1.0f, BinaryOp::Div),
                       "reference_binary_scalar: the GPU computes add and mul only, got div", Error);
}

TEST_CASE("reference_transpose of a view, any 4-byte or 8-byte dtype") {
  const Tensor a = from_values({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4}, {DType::Int64});
  // Columns 1 and 3: (3,2):(4,2) at offset 1 -> [[1,3],[5,7],[9,11]], transposed.
  const Tensor t = reference_transpose(strided_view(a, {3, 2}, {4, 2}, 1));
  CHECK(t.sizes() == Shape{2, 3});
  CHECK(t.dtype() == DType::Int64);
  CHECK(t.to_vector() == std::vector<double>{1, 5, 9, 3, 7, 11});
}

TEST_CASE("reference_sum and reference_amax along each dim") {
  // (2,3,2): values 0..11.
  std::vector<double> v(12);
  for (int i = 0; i < 12; ++i) v[static_cast<size_t>(i)] = i - 5;
  const Tensor x = from_values(v, {2, 3, 2});
  const ReferenceValues s1 = reference_sum(x, 1);
  CHECK(s1.sizes == Shape{2, 2});
  CHECK(s1.values == std::vector<double>{-9, -6, 9, 12});
  CHECK(s1.magnitudes == std::vector<double>{9, 6, 9, 12});
  CHECK(s1.terms == 3);
  CHECK(reference_sum(x, -1).values == std::vector<double>{-9, -5, -1, 3, 7, 11});
  CHECK(reference_sum(x, 0).values == std::vector<double>{-4, -2, 0, 2, 4, 6});
  CHECK(reference_amax(x, 1).values == std::vector<double>{-1, 0, 5, 6});
  CHECK(reference_amax(x, 0).values == std::vector<double>{1, 2, 3, 4, 5, 6});
  // A permuted view reduces by its logical dims.
  CHECK(reference_sum(strided_view(x, {2, 3, 2}, {1, 2, 6}), 0).values ==
        std::vector<double>{-9, 3, -5, 7, -1, 11});
}

TEST_CASE("amax propagates NaN and refuses an empty reduced dim") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor x = from_values({1, nan, 3, 4}, {2, 2});
  const ReferenceValues m = reference_amax(x, 1);
  CHECK(std::isnan(m.values[0]));
  CHECK(m.values[1] == 4);
  CHECK_THROWS_AS(reference_amax(empty({2, 0}), 1), Error);
  CHECK(reference_sum(empty({2, 0}), 1).values == std::vector<double>{0, 0});
}

TEST_CASE("reference_matmul of a row-major by a column-major matrix") {
  const Tensor a = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor bt = from_values({1, 0, -1, 2, 1, 0}, {2, 3});  // b = bt.t(): (3,2):(1,3)
  const ReferenceValues r = reference_matmul(a, strided_view(bt, {3, 2}, {1, 3}));
  CHECK(r.sizes == Shape{2, 2});
  CHECK(r.values == std::vector<double>{-2, 4, -2, 13});
  CHECK(r.magnitudes == std::vector<double>{4, 4, 10, 13});
  CHECK(r.terms == 3);
  CHECK_THROWS_WITH_AS(reference_matmul(a, a), "reference_matmul: expected (M×K)·(K×N) matrices, got [2, 3] and [2, 3]", Error);
}

TEST_CASE("compare_with_reference applies gamma_n = n u / (1 - n u)") {
  CHECK(gamma_float32(0) == 0);
  CHECK(gamma_float32(1) == doctest::Approx(std::ldexp(1.0, -24)).epsilon(1e-9));
  ReferenceValues ref;
  ref.sizes = {2};
  ref.values = {1.0, 100.0};
  ref.magnitudes = {1.0, 100.0};
  const Tensor exact = from_values({1.0, 100.0}, {2});
  CHECK(compare_with_reference(exact, ref, 0).empty());
  // One float32 ulp at 100 is 2^-17; a bound of 8 terms allows 8·2^-24·100 ≈ 4.8e-5 > 2^-17.
  const Tensor off = from_values({1.0, 100.0 + std::ldexp(1.0, -17)}, {2});
  CHECK(compare_with_reference(off, ref, 8).empty());
  CHECK(compare_with_reference(off, ref, 0).rfind("index 1: got 100.000008", 0) == 0);
  CHECK(compare_with_reference(from_values({1, 2, 3}, {3}), ref, 0) == "shape [3], expected [2]");
}
