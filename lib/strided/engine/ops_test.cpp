// Element-wise ops and copies: values, dtypes and errors, each expectation printed by PyTorch 1.13
// for the same inputs (output layouts are in iterator_test.cpp).
#include "strided/engine/ops.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "strided/engine/parallel.h"

using namespace strided;

namespace {
Tensor values(const std::vector<double>& v, DType t) {
  return from_values(v, {static_cast<int64_t>(v.size())}, {t});
}
std::vector<double> doubles(const Tensor& t) {
  return t.to_vector();
}
Tensor random_operand(Shape sizes) {
  static Generator gen(11);
  return rand(sizes, gen);
}
}  // namespace

TEST_CASE("integer arithmetic wraps, as in PyTorch") {
  const Tensor a = values({2147483647.0, -2147483648.0, 7, -7}, DType::Int32);
  CHECK(doubles(a + values({1, -1, 3, 2}, DType::Int32)) ==
        std::vector<double>{-2147483648.0, 2147483647.0, 10, -5});
  CHECK(doubles(a * values({2, 2, 3, -2}, DType::Int32)) == std::vector<double>{-2, 0, 21, 14});
  CHECK(doubles(sub(a, values({1, 1, 1, 1}, DType::Int32), Scalar(int64_t{3}))) ==
        std::vector<double>{2147483644.0, 2147483645.0, 4, -10});
  CHECK(doubles(-a) == std::vector<double>{-2147483647.0, -2147483648.0, -7, 7});
  CHECK(doubles(abs(a)) == std::vector<double>{2147483647.0, -2147483648.0, 7, 7});
  Tensor m = from_values({0, 5}, {2}, {DType::Int64});
  m.set({0}, Scalar(std::numeric_limits<int64_t>::min()));
  CHECK((-m).at({0}).to_int() == std::numeric_limits<int64_t>::min());
  CHECK((-m).dtype() == DType::Int64);
}

TEST_CASE("uint8, int8 and int16 wrap as PyTorch's, and uint8 with int8 meets at int16") {
  using V = std::vector<double>;
  const Tensor u = values({200, 255, 1, 0}, DType::UInt8);
  const Tensor i = values({100, -128, 127, -1}, DType::Int8);
  CHECK((u + u).dtype() == DType::UInt8);
  CHECK(doubles(u + u) == V{144, 254, 2, 0});
  CHECK(doubles(u - values({201, 0, 2, 1}, DType::UInt8)) == V{255, 255, 255, 255});
  CHECK(doubles(i * i) == V{16, 0, 1, 1});
  CHECK(doubles(-u) == V{56, 1, 255, 0});
  CHECK(doubles(-i) == V{-100, -128, -127, 1});
  CHECK(doubles(abs(i)) == V{100, -128, 127, 1});  // abs(-128) wraps to -128
  CHECK(doubles(abs(u)) == V{200, 255, 1, 0});
  CHECK(doubles(add(i, i, Scalar(int64_t{3}))) == V{-112, 0, -4, -4});
  // alpha is converted to the dtype, checked (sub negates it first): uint8 takes -1 as 255.
  CHECK(doubles(add(u, u, Scalar(int64_t{-1}))) == V{0, 0, 0, 0});
  CHECK(doubles(sub(i, i, Scalar(int64_t{128}))) == V{100, -128, -1, 127});
  CHECK_THROWS_WITH_AS(add(u, u, Scalar(int64_t{300})),
                       "add: value 300 cannot be converted to type uint8 without overflow "
                       "(alpha 300)",
                       Error);
  CHECK_THROWS_WITH_AS(sub(i, i, Scalar(int64_t{-129})),
                       "sub: value 129 cannot be converted to type int8 without overflow "
                       "(alpha -129)",
                       Error);
  // A wrapped number does not promote: u + 300 is uint8, and 300 wraps to 44 first.
  CHECK((u + 300).dtype() == DType::UInt8);
  CHECK(doubles(u + 300) == V{244, 43, 45, 44});
  CHECK(doubles(i * 1000) == V{-96, 0, 24, 24});
  CHECK((u + 2.5).dtype() == DType::Float32);
  CHECK((i / 2).dtype() == DType::Float32);
  CHECK(doubles(i / 2) == V{50, -64, 63.5, -0.5});
  const Tensor m = u + i;  // neither holds the other: int16
  CHECK(m.dtype() == DType::Int16);
  CHECK(doubles(m) == V{300, 127, 128, -1});
  CHECK((values({1, 0, 1, 1}, DType::Bool) + u).dtype() == DType::UInt8);
  CHECK((u + values({1, 2, 3, 4}, DType::Int16)).dtype() == DType::Int16);
  CHECK((i + values({1, 2, 3, 4}, DType::Int32)).dtype() == DType::Int32);
  CHECK((u + values({1, 2, 3, 4}, DType::Float16)).dtype() == DType::Float16);
  const Tensor s = values({32767, -32768}, DType::Int16);
  CHECK(doubles(s + 1) == V{-32768, -32767});
  CHECK(doubles(s * 2) == V{-2, 0});
  // In place, the result type must cast to the tensor's: int16 into uint8 is allowed and wraps,
  // float is refused.
  const Tensor w = u.clone();
  add_(w, values({100, 1, 1, 1}, DType::Int16));
  CHECK(doubles(w) == V{44, 0, 2, 1});
  CHECK_THROWS_WITH_AS(add_(u.clone(), values({1, 1, 1, 1}, DType::Float32)),
                       "add: result type Float can't be cast to the desired output type Byte",
                       Error);
  CHECK_THROWS_WITH_AS(mul_(i.clone(), 2.5),
                       "mul: result type Float can't be cast to the desired output type Char",
                       Error);
}

TEST_CASE("division is true division; integers give float32") {
  const Tensor q = values({7, -7, 0, 1}, DType::Int64) / values({2, 2, 0, 0}, DType::Int64);
  CHECK(q.dtype() == DType::Float32);
  const std::vector<double> v = doubles(q);
  CHECK(v[0] == 3.5);
  CHECK(v[1] == -3.5);
  CHECK(std::isnan(v[2]));
  CHECK(v[3] == std::numeric_limits<double>::infinity());
  const Tensor third = values({1, 2}, DType::Int32) / 3;
  CHECK(third.dtype() == DType::Float32);
  CHECK(doubles(third) == std::vector<double>{0.3333333432674408, 0.6666666865348816});
}

TEST_CASE("unary ops: signs of zero, integer promotion of exp and sqrt") {
  CHECK(std::signbit(doubles(-values({0.0}, DType::Float32))[0]));
  CHECK(!std::signbit(doubles(abs(values({-0.0}, DType::Float32)))[0]));
  const Tensor e = exp(values({0, 1, 2}, DType::Int32));
  CHECK(e.dtype() == DType::Float32);
  CHECK(doubles(e) == std::vector<double>{1.0, 2.7182817459106445, 7.389056205749512});
  const Tensor s = sqrt(values({0, 2, 9}, DType::Int64));
  CHECK(doubles(s) == std::vector<double>{0.0, 1.4142135381698608, 3.0});
  CHECK(std::isnan(doubles(sqrt(values({-1.0}, DType::Float64)))[0]));
  CHECK(exp(values({1.0, 0.0}, DType::Bool)).dtype() == DType::Float32);
}

TEST_CASE("scalars and alpha") {
  CHECK(doubles(add(values({1.5, 2.5}, DType::Float32), values({0.25, -1.0}, DType::Float32),
                 Scalar(int64_t{2}))) == std::vector<double>{2.0, 0.5});
  const Tensor i = values({1, 3}, DType::Int32);
  CHECK((i * 2.5).dtype() == DType::Float32);
  CHECK(doubles(i * 2.5) == std::vector<double>{2.5, 7.5});
  CHECK((i + 3).dtype() == DType::Int32);
  CHECK(doubles(3 + i) == std::vector<double>{4, 6});
  CHECK(doubles(add(values({1, 0}, DType::Bool), values({1, 1}, DType::Bool), Scalar(false))) ==
        std::vector<double>{1, 0});
  CHECK(doubles(values({1, 0}, DType::Bool) + values({1, 1}, DType::Bool)) ==
        std::vector<double>{1, 1});
  CHECK(doubles(values({1, 0}, DType::Bool) * values({1, 1}, DType::Bool)) ==
        std::vector<double>{1, 0});
  CHECK((values({1, 0}, DType::Bool) + 3).dtype() == DType::Int64);
  // The number's 0-d tensor is converted to the common dtype with .to(), unchecked: torch 1.13
  // gives [1, 2] for int32 [1, 2] + 2**40, and inf for float16 + 1e10.
  CHECK(doubles(values({1, 2}, DType::Int32) + (int64_t{1} << 40)) == std::vector<double>{1, 2});
  CHECK(doubles(values({1}, DType::Float16) + 1e10) ==
        std::vector<double>{std::numeric_limits<double>::infinity()});
  CHECK_THROWS_WITH_AS(add(i, i, Scalar(0.5)),
                       "add: For integral input tensors, argument alpha must not be a floating "
                       "point number.",
                       Error);
  CHECK_THROWS_WITH_AS(add(i, i, Scalar(true)),
                       "add: Boolean alpha only supported for Boolean results.", Error);
}

TEST_CASE("float16 and bfloat16 compute in float32 and round once per op") {
  const Tensor h = values({1.0, 0.1, 1000.0}, DType::Float16);
  CHECK(doubles(h + h) == std::vector<double>{2.0, 0.199951171875, 2000.0});
  CHECK(doubles(h * 3) == std::vector<double>{3.0, 0.2998046875, 3000.0});
  CHECK(doubles(h / 3) == std::vector<double>{0.333251953125, 0.0333251953125, 333.25});
  const Tensor b = values({1.1, 3.3}, DType::BFloat16) * values({3.0, 0.5}, DType::BFloat16);
  CHECK(b.dtype() == DType::BFloat16);
  CHECK(doubles(b) == std::vector<double>{3.3125, 1.6484375});
  const Tensor mixed = values({1, 2}, DType::Int64) + scalar_tensor(0.5, {DType::Float16});
  CHECK(mixed.dtype() == DType::Float16);
  CHECK(doubles(mixed) == std::vector<double>{1.5, 2.5});
}

TEST_CASE("in-place ops return their argument and cast to its dtype") {
  const Tensor x = values({1.0, 2.0, 3.0}, DType::Float32);
  const Tensor& r = add_(x, values({0.1, 0.2, 0.3}, DType::Float64));
  CHECK(&r == &x);  // VW-04: the same object
  CHECK(x.dtype() == DType::Float32);
  CHECK(doubles(x) == std::vector<double>{1.100000023841858, 2.200000047683716, 3.299999952316284});
  const Tensor m = random_operand({3, 4});
  const std::vector<double> before = doubles(m);
  mul_(m.t(), 2);  // through a transposed view
  const std::vector<double> after = doubles(m);
  for (size_t k = 0; k < before.size(); ++k) CHECK(after[k] == before[k] * 2);
  const Tensor y = random_operand({2, 3});
  add_(y, y);  // the same tensor twice is allowed
  CHECK(neg_(values({1, -2}, DType::Int32)).dtype() == DType::Int32);
}

TEST_CASE("refusals, with PyTorch's messages") {
  const Tensor b = values({1, 0}, DType::Bool);
  CHECK_THROWS_WITH_AS(b - b,
                       "sub: Subtraction, the `-` operator, with two bool tensors is not "
                       "supported. Use the `^` or `logical_xor()` operator instead.",
                       Error);
  CHECK_THROWS_WITH_AS(sub(values({1, 2}, DType::Int32), b),
                       doctest::Contains("with a bool tensor is not supported"), Error);
  CHECK_THROWS_WITH_AS(sub(b, Scalar(true)), doctest::Contains("with two bool tensors"), Error);
  CHECK_THROWS_WITH_AS(-b, doctest::Contains("neg: Negation, the `-` operator, on a bool tensor"),
                       Error);
  CHECK_THROWS_WITH_AS(abs(b), "abs: \"abs_cpu\" not implemented for 'Bool'", Error);
  CHECK_THROWS_WITH_AS(exp_(values({1, 2}, DType::Int64)),
                       "exp: result type Float can't be cast to the desired output type Long",
                       Error);
  const Tensor z = zeros({3});
  CHECK_THROWS_WITH_AS(add_(z.expand({2, 3}), 1),
                       doctest::Contains("add: unsupported operation: more than one element of "
                                         "the written-to tensor refers to a single memory "
                                         "location. Please clone() the tensor before performing "
                                         "the operation."),
                       Error);
  const Tensor q = arange(6, {DType::Float32});
  CHECK_THROWS_WITH_AS(add_(q.slice(0, 1, 4), q.slice(0, 0, 3)),
                       doctest::Contains("add: unsupported operation: some elements of the input "
                                         "tensor and the written-to tensor refer to a single "
                                         "memory location. Please clone() the tensor before "
                                         "performing the operation."),
                       Error);
  const Tensor w = arange(9, {DType::Float32}).view({3, 3});
  CHECK_THROWS_WITH_AS(add_(w, w.t()), doctest::Contains("some elements of the input tensor"),
                       Error);
}

TEST_CASE("every layout and broadcast gives the values of the index-wise definition") {
  const Tensor x = random_operand({4, 5, 6});
  const Tensor y = random_operand({6, 5, 4}).permute({2, 1, 0});
  const Tensor r = random_operand({5, 1});
  const std::vector<double> xv = doubles(x), yv = doubles(y), rv = doubles(r);
  std::vector<double> want(xv.size()), want_b(xv.size());
  for (size_t k = 0; k < xv.size(); ++k) {
    want[k] = static_cast<float>(static_cast<float>(xv[k]) * static_cast<float>(yv[k]));
    want_b[k] = static_cast<float>(static_cast<float>(xv[k]) - static_cast<float>(rv[(k / 6) % 5]));
  }
  CHECK(doubles(x * y) == want);
  CHECK(doubles(y * x) == want);
  CHECK(doubles(x - r) == want_b);
  // A stride-3 slice with holes, against the same values gathered one by one.
  const Tensor s = random_operand({4, 9}).slice(1, 0, std::nullopt, 3);
  const std::vector<double> sv = doubles(s);
  const std::vector<double> got = doubles(s + 1.5);
  for (size_t k = 0; k < sv.size(); ++k) CHECK(got[k] == static_cast<float>(sv[k] + 1.5));
  // The broadcast operand first: a 0-d tensor (stride 0) times the strided slice.
  const std::vector<double> twice = doubles(mul(scalar_tensor(2.0, {DType::Float32}), s));
  for (size_t k = 0; k < sv.size(); ++k) CHECK(twice[k] == static_cast<float>(2 * sv[k]));
}

TEST_CASE("threads give the same bits as one thread") {
  const int before = get_num_threads();
  const Tensor x = random_operand({70, 1000}), y = random_operand({1000, 70}).t();
  set_num_threads(1);
  const std::vector<double> one = doubles(x * y), one_e = doubles(exp(x));
  set_num_threads(2);
  CHECK(doubles(x * y) == one);
  CHECK(doubles(exp(x)) == one_e);
  set_num_threads(before);
  CHECK_THROWS_WITH_AS(set_num_threads(0),
                       "set_num_threads: Expected positive number of threads, but got 0", Error);
}

// The engine's copy plan must write what Tensor::copy_ (the semantics, copies.cpp) writes.
static void engine_copy(const Tensor& dst, const Tensor& src) {
  run_copy(copy_plan(dst, src));
}

TEST_CASE("copy_ and the engine's copy plan: broadcast, conversions, any layouts") {
  for (auto copy_ : {&engine_copy, +[](const Tensor&d, const Tensor&s) { strided::copy_(d, s); }}) {
    const Tensor z = zeros({2, 3});
    copy_(z, values({1, 2, 3}, DType::Float32));
    CHECK(doubles(z) == std::vector<double>{1, 2, 3, 1, 2, 3});
    const Tensor i = zeros({5}, {DType::Int32});
    copy_(i, values({1.9, -1.9, std::nan(""), 3e10, -0.5}, DType::Float32));
    CHECK(doubles(i) == std::vector<double>{1, -1, -2147483648.0, -2147483648.0, 0});
    const Tensor l = zeros({3}, {DType::Int64});
    copy_(l, values({1e20, std::numeric_limits<double>::infinity(), -2.5}, DType::Float32));
    CHECK(doubles(l) == std::vector<double>{-9223372036854775808.0, -9223372036854775808.0, -2});
    const Tensor b = zeros({4}, {DType::Bool});
    copy_(b, values({0.0, -0.0, std::nan(""), 0.1}, DType::Float32));
    CHECK(doubles(b) == std::vector<double>{0, 0, 1, 1});
    const Tensor h = zeros({2}, {DType::Float16});
    copy_(h, values({65519, 2049}, DType::Int64));
    CHECK(doubles(h) == std::vector<double>{65504, 2048});
    const Tensor f = zeros({2});
    copy_(f, values({1e40, 0.1}, DType::Float64));
    CHECK(doubles(f) ==
          std::vector<double>{std::numeric_limits<double>::infinity(), 0.10000000149011612});
    // A transpose large enough for the tiled path, into a contiguous and a strided destination.
    const Tensor src = random_operand({70, 45});
    const Tensor dst = zeros({45, 70});
    copy_(dst, src.t());
    CHECK(doubles(dst) == doubles(src.t()));
    const Tensor wide = zeros({45, 140});
    const Tensor every_other = wide.slice(1, 0, std::nullopt, 2);
    copy_(every_other, src.t());
    CHECK(doubles(every_other) == doubles(src.t()));
    const Tensor d64 = zeros({45, 70}, {DType::Float64});
    copy_(d64, src.t());
    CHECK(doubles(d64) == doubles(src.t()));
  }
}

TEST_CASE("copy_in_tiles: a transpose of the plan's two inner dims, and nothing else") {
  const Tensor cube = zeros({8, 8, 8});
  const auto tiles = [](const Tensor& dst, const Tensor& src) {
    return copy_in_tiles(copy_plan(dst, src));
  };
  CHECK(tiles(zeros({8, 8}), zeros({8, 8}).t()));                    // a 2-D transpose
  CHECK(tiles(zeros({8, 8, 8}), cube.permute({0, 2, 1})));           // a batch of them
  CHECK_FALSE(tiles(zeros({8, 8, 8}), cube.permute({2, 1, 0})));     // stride 1 moved outermost
  CHECK_FALSE(tiles(zeros({8, 8, 8}), cube.permute({1, 0, 2})));     // stride 1 stays inner
  CHECK_FALSE(tiles(zeros({8, 8, 8}), cube));                        // one contiguous run
  CHECK_FALSE(tiles(zeros({8, 8}, {DType::Float64}), zeros({8, 8}).t()));  // a conversion
  CHECK_FALSE(tiles(zeros({8}), zeros({8})));                        // one dim: no block
}

TEST_CASE("copy_ refuses what PyTorch refuses and allows copying a tensor onto itself") {
  CHECK_THROWS_WITH_AS(copy_(zeros({3}), zeros({2, 3})),
                       "copy_(): output with shape [3] doesn't match the broadcast shape [2, 3]",
                       Error);
  CHECK_THROWS_WITH_AS(copy_plan(zeros({3}), zeros({2, 3})),
                       "copy_: output with shape [3] doesn't match the broadcast shape [2, 3]",
                       Error);
  CHECK_THROWS_WITH_AS(copy_plan(zeros({3}).expand({2, 3}), ones({2, 3})),
                       doctest::Contains("more than one element of the written-to tensor"), Error);
  const Tensor q = arange(6, {DType::Float32});
  CHECK_THROWS_WITH_AS(copy_(q.slice(0, 1, 4), q.slice(0, 0, 3)),
                       doctest::Contains("some elements of the input tensor"), Error);
  CHECK_THROWS_WITH_AS(copy_(zeros({3}).expand({2, 3}), ones({2, 3})),
                       doctest::Contains("more than one element of the written-to tensor"), Error);
  const Tensor w = arange(9, {DType::Float32}).view({3, 3});
  copy_(w, w);
  CHECK(doubles(w)[4] == 4);
}

TEST_CASE("to_dtype keeps a dense layout and densifies others in the input's order") {
  CHECK(to_dtype(random_operand({2, 3, 4}).permute({2, 0, 1}), DType::Float64).strides() ==
        Shape{1, 12, 4});
  CHECK(to_dtype(random_operand({4, 10}).slice(1, 0, std::nullopt, 2), DType::Float64).strides() ==
        Shape{5, 1});
  CHECK(to_dtype(random_operand({3, 1}).expand({3, 4}), DType::Float64).strides() == Shape{4, 1});
  const Tensor x = random_operand({2});
  CHECK(to_dtype(x, DType::Float32).storage().is_same(x.storage()));
}

TEST_CASE("a 0-d -0.0 broadcast over a vector keeps its sign in every lane") {
  // -0.0 * y is -0.0 for y >= 0 (IEEE 754); a broadcast made as 0.0 + x would give +0.0 in the
  // vector loop and -0.0 in its tail (the WebAssembly build did, for float64).
  const Tensor x = from_values({-0.0}, {}, {DType::Float64});
  for (const DType dtype : {DType::Float64, DType::Float32}) {
    const Tensor y = arange(19, {dtype});
    const Tensor r = mul(x.to(dtype), y);
    const std::vector<double> v = r.to_vector();
    int64_t negative = 0;
    for (double e : v) negative += std::signbit(e) ? 1 : 0;
    CHECK(negative == static_cast<int64_t>(v.size()));
  }
}
