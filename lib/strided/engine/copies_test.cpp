// The ops that copy: contiguous, clone, to, copy_, fill_, index_select, flip. Layouts, values and
// errors are those torch 1.13 gives for the same calls.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <utility>

#include "strided/core/error_of.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"
#include "strided/layout/layout.h"
#include "strided/tensor/tensor.h"

using namespace strided;

namespace {
Tensor arange_of(IntList sizes, DType dtype = DType::Int64) {
  return arange(checked_numel(sizes, "test")).view(sizes).to(dtype);
}
using Values = std::vector<double>;
}  // namespace

TEST_CASE(
    "contiguous returns the tensor itself when it already is, else a row-major copy (CT-11)") {
  const Tensor x = arange_of({2, 3});
  int64_t before = Storage::allocation_count();
  const Tensor same = x.contiguous();
  CHECK(Storage::allocation_count() == before);
  CHECK(same.storage().is_same(x.storage()));
  // CT-11: t[:,:,:,2].reshape(3,2).contiguous() of arange(24).reshape(1,2,3,4).
  const Tensor t = arange_of({1, 2, 3, 4}).select(3, 2).reshape({3, 2});
  before = Storage::allocation_count();
  const Tensor c = t.contiguous();
  CHECK(Storage::allocation_count() == before + 1);
  CHECK(c.strides() == Shape{2, 1});
  CHECK(c.storage_offset() == 0);
  CHECK(c.to_vector() == Values{2, 6, 10, 14, 18, 22});
  // A stride-0 view becomes a full copy.
  CHECK(arange_of({1, 3}).expand({2, 3}).contiguous().to_vector() == Values{0, 1, 2, 0, 1, 2});
  CHECK(arange_of({2, 3}).t().contiguous().strides() == Shape{2, 1});
}

TEST_CASE("clone keeps a dense layout and orders any other by stride (preserve_format)") {
  struct Case {
    Tensor t;
    Shape strides;
  };
  const Tensor a = arange_of({3, 4});
  const Case cases[] = {
      {a.t(), {1, 4}},
      {a.t().slice(1, std::nullopt, std::nullopt, 2), {1, 4}},
      {arange_of({3, 1}).expand({3, 4}), {4, 1}},
      {arange_of({1, 3}).expand({4, 3}).t(), {4, 1}},
      {arange_of({6}).as_strided({2, 1, 3}, {3, 99, 1}), {3, 99, 1}},
      {arange_of({2, 3, 4}).permute({2, 0, 1}).slice(0, std::nullopt, std::nullopt, 2), {1, 6, 2}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.t.layout());
    const Tensor k = c.t.clone();
    CHECK(k.strides() == c.strides);
    CHECK(k.storage_offset() == 0);
    CHECK_FALSE(k.storage().is_same(c.t.storage()));
    CHECK(k.to_vector() == c.t.to_vector());
  }
  const Tensor s = scalar_tensor(Scalar(2.5));
  CHECK(s.clone().to_vector() == Values{2.5});
  CHECK(zeros({0, 3}).clone().sizes() == Shape{0, 3});
}

TEST_CASE("to(dtype): the same tensor when nothing changes, else a copy in the same layout") {
  const Tensor a = arange_of({3, 4});
  CHECK(a.to(DType::Int64).storage().is_same(a.storage()));
  CHECK_FALSE(a.to(DType::Int64, true).storage().is_same(a.storage()));
  const Tensor d = a.t().to(DType::Float64);
  CHECK(d.dtype() == DType::Float64);
  CHECK(d.strides() == Shape{1, 4});
  CHECK(d.to_vector() == a.t().to_vector());
  CHECK(a.slice(1, std::nullopt, std::nullopt, 2).to(DType::Float64).strides() == Shape{2, 1});
  CHECK(a.slice(0, 0, 1).expand({3, 4}).to(DType::Float64).strides() == Shape{4, 1});
}

TEST_CASE("dtype conversions are PyTorch's casts, without undefined behaviour") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor x = from_values({nan, 1e20, -1e20, inf, -inf, 2.7, -2.7, 3e9, -3e9}, {9});
  const double i32 = -2147483648.0, i64 = -9223372036854775808.0;
  // torch: NaN, infinities and out-of-range values become the integer type's lowest value.
  CHECK(x.to(DType::Int32).to_vector() == Values{i32, i32, i32, i32, i32, 2, -2, i32, i32});
  CHECK(x.to(DType::Int64).to_vector() == Values{i64, i64, i64, i64, i64, 2, -2, 3e9, -3e9});
  CHECK(x.to(DType::Float64).to(DType::Int32).to_vector() ==
        Values{i32, i32, i32, i32, i32, 2, -2, i32, i32});
  CHECK(x.to(DType::Bool).to_vector() == Values{1, 1, 1, 1, 1, 1, 1, 1, 1});
  const Values half = x.to(DType::Float16).to_vector();
  CHECK(std::isnan(half[0]));
  CHECK(Values(half.begin() + 1, half.end()) ==
        Values{inf, -inf, inf, -inf, 2.69921875, -2.69921875, inf, -inf});
  const Values bf = x.to(DType::BFloat16).to_vector();
  CHECK(std::isnan(bf[0]));
  CHECK(bf[1] == 9.972771014849226e+19);
  CHECK(bf[5] == 2.703125);
  CHECK(bf[7] == 3003121664.0);
  // Half rounds to nearest even: 65520 is halfway to 65536, which is infinity.
  CHECK(from_values({70000, 1e-8, 65520, 65519}, {4}).to(DType::Float16).to_vector() ==
        Values{inf, 0, inf, 65504});
  // Integers wrap when they narrow; bool is 0 or 1; float rounds 2^24 + 1.
  CHECK(from_values({1099511627777.0, -5}, {2}, {DType::Int64}).to(DType::Int32).to_vector() ==
        Values{1, -5});
  CHECK(from_values({1, 0}, {2}, {DType::Bool}).to(DType::Float32).to_vector() == Values{1, 0});
  CHECK(from_values({16777217.0}, {1}, {DType::Int64}).to(DType::Float32).to_vector() ==
        Values{16777216.0});
  CHECK(from_values({16777217.0}, {1}, {DType::Int64}).to(DType::Float16).to_vector() ==
        Values{inf});
  CHECK(from_values({1e300, -1e300}, {2}, {DType::Float64}).to(DType::Float32).to_vector() ==
        Values{inf, -inf});
}

TEST_CASE("casts to uint8, int8 and int16 take the low bits of a truncation") {
  // torch 1.13 on x86: a float is truncated toward zero into an int64 for uint8, an int32 for
  // int8 and int16 (the lowest of either for NaN, the infinities and what lies outside it), whose
  // low 8 or 16 bits are kept; an integer keeps its own low bits. The same values from a
  // contiguous run of 1000 and from a strided one.
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Values in{nan, inf, -inf, 1e20, 300.7, -300.7, 127.9, -128.5, 255.5, -1.5, 2.7, -2.7,
                  40000.0, -40000.0, 3000000007.0, 65535.9, 32768.0, -0.99};
  const int64_t n = static_cast<int64_t>(in.size());
  const Values i8{0, 0, 0, 0, 44, -44, 127, -128, -1, -1, 2, -2, 64, -64, 0, -1, 0, 0};
  // 3000000007.0 is 3e9 in float32, whose low byte is 0; in float64 its low byte is 7.
  const Values u8_f32{0, 0, 0, 0, 44, 212, 127, 128, 255, 255, 2, 254, 64, 192, 0, 255, 0, 0};
  Values u8_f64 = u8_f32;
  u8_f64[14] = 7;
  const Values i16{0, 0, 0, 0, 300, -300, 127, -128, 255, -1, 2, -2, -25536, 25536, 0, -1,
                   -32768, 0};
  for (DType from : {DType::Float32, DType::Float64}) {
    const Tensor x = from_values(in, {n}, {from});
    const Tensor run = x.repeat({1000 / n + 1});
    const Tensor strided = x.unsqueeze(1).expand({n, 3}).contiguous().select(1, 1);
    const Values& u8 = from == DType::Float32 ? u8_f32 : u8_f64;
    for (const auto& pair : {std::pair{DType::Int8, i8}, std::pair{DType::UInt8, u8},
                             std::pair{DType::Int16, i16}}) {
      // Plain names, not a structured binding: INFO captures them in a lambda, which C++20
      // allows for bindings and clang 14 (the sanitizer build's) does not.
      const DType to = pair.first;
      const Values& want = pair.second;
      INFO(name(from), " to ", name(to));
      CHECK(x.to(to).to_vector() == want);
      CHECK(run.to(to).slice(0, 0, n).to_vector() == want);
      CHECK(run.to(to).slice(0, 5 * n, 6 * n).to_vector() == want);
      CHECK(strided.to(to).to_vector() == want);
    }
  }
  // float16 and bfloat16 go through float: 300.7 is 300.75 in float16, 300 in bfloat16.
  CHECK(from_values({300.7, -1.5}, {2}, {DType::Float16}).to(DType::Int8).to_vector() ==
        Values{44, -1});
  CHECK(from_values({300.7, nan}, {2}, {DType::BFloat16}).to(DType::UInt8).to_vector() ==
        Values{44, 0});
  // Integers wrap; bool is 0 or 1; the narrow types widen exactly, uint8 without a sign.
  const Tensor big = from_values({300, -1, 65537, -129, 1099511627781.0}, {5}, {DType::Int64});
  CHECK(big.to(DType::Int8).to_vector() == Values{44, -1, 1, 127, 5});
  CHECK(big.to(DType::UInt8).to_vector() == Values{44, 255, 1, 127, 5});
  CHECK(big.to(DType::Int16).to_vector() == Values{300, -1, 1, -129, 5});
  CHECK(big.to(DType::Int8).to(DType::UInt8).to_vector() == Values{44, 255, 1, 127, 5});
  CHECK(big.to(DType::UInt8).to(DType::Int8).to(DType::Float32).to_vector() ==
        Values{44, -1, 1, 127, 5});
  CHECK(big.to(DType::UInt8).to(DType::Int16).to_vector() == Values{44, 255, 1, 127, 5});
  CHECK(from_values({1, 0}, {2}, {DType::Bool}).to(DType::Int8).to_vector() == Values{1, 0});
  CHECK(from_values({0, 2, 255}, {3}, {DType::UInt8}).to(DType::Bool).to_vector() ==
        Values{0, 1, 1});
  // A uint8 byte of 2 seen as a bool is True, and converts to 1 (c10::load<bool>).
  CHECK(from_values({0, 2}, {2}, {DType::UInt8}).view(DType::Bool).to(DType::Int32).to_vector() ==
        Values{0, 1});
}

TEST_CASE("copy_ broadcasts its source, converts dtypes and writes in place") {
  Tensor dst = zeros({2, 3});
  Tensor& same = dst.copy_(arange_of({3}));
  CHECK(&same == &dst);  // VW-04: an in-place op returns its own tensor
  CHECK(dst.to_vector() == Values{0, 1, 2, 0, 1, 2});
  dst.copy_(scalar_tensor(Scalar(int64_t{7}), {DType::Int64}));
  CHECK(dst.to_vector() == Values{7, 7, 7, 7, 7, 7});
  // Into a non-contiguous destination.
  Tensor big = zeros({3, 4}, {DType::Int32});
  big.t().slice(0, 1, std::nullopt, 2).copy_(arange_of({2, 3}));
  CHECK(big.to_vector() == Values{0, 0, 0, 3, 0, 1, 0, 4, 0, 2, 0, 5});
  Tensor empty = zeros({0, 3});
  empty.copy_(arange_of({3}));
  CHECK(empty.numel() == 0);
  CHECK(error_of([] {
          zeros({3}).copy_(zeros({2, 3}));
        }) == "copy_(): output with shape [3] doesn't match the broadcast shape [2, 3]");
  CHECK_THROWS_AS(zeros({}).copy_(zeros({1})), Error);
  CHECK(error_of([] {
          zeros({3}).copy_(zeros({4}));
        }).find("The size of tensor a (3) must match the size of tensor b (4)") !=
        std::string::npos);
  CHECK_THROWS_AS(zeros({3}).copy_(zeros({0})), Error);
  CHECK_THROWS_AS(zeros({3}).copy_(Tensor()), Error);
}

TEST_CASE("copy_ and overlap: refused where PyTorch refuses, else as if src were read first") {
  // A stride-0 destination writes one address twice (MemoryOverlap.cpp: has_internal_overlap).
  Tensor x = arange_of({6});
  CHECK(error_of([&] { x.slice(0, 0, 1).expand({6}).copy_(x); })
            .find("more than one element of the written-to tensor refers to a single memory "
                  "location") != std::string::npos);
  // Dense operands that partly overlap (get_overlap_status: PARTIAL).
  CHECK(error_of([&] { x.slice(0, 1).copy_(x.slice(0, 0, -1)); })
            .find("some elements of the input tensor and the written-to tensor refer to a single "
                  "memory location") != std::string::npos);
  Tensor sq = arange_of({3, 3});
  CHECK_THROWS_AS(sq.copy_(sq.t()), Error);
  CHECK_THROWS_AS(x.copy_(x.slice(0, 0, 1)), Error);
  // Copying a tensor onto itself is a no-op.
  x.copy_(x);
  CHECK(x.to_vector() == Values{0, 1, 2, 3, 4, 5});
  // Layouts PyTorch cannot judge: the source is read into a temporary first. (torch 1.13 copies
  // element by element here and smears the first column: [[0,0,0,0],[4,4,4,4],[8,8,8,8]].)
  Tensor m = arange_of({3, 4});
  m.slice(1, 1).copy_(m.slice(1, 0, -1));
  CHECK(m.to_vector() == Values{0, 0, 1, 2, 4, 4, 5, 6, 8, 8, 9, 10});
  Tensor y = arange_of({10});
  y.slice(0, 2, std::nullopt, 2).copy_(y.slice(0, 0, -2, 2));
  CHECK(y.to_vector() == Values{0, 1, 0, 3, 2, 5, 4, 7, 6, 9});
  // Converting while overlapping goes through the temporary too.
  Tensor f = arange_of({6}, DType::Float64);
  f.slice(0, 1, std::nullopt, 2).copy_(f.slice(0, 0, std::nullopt, 2));
  CHECK(f.to_vector() == Values{0, 0, 2, 2, 4, 4});
}

TEST_CASE("fill_ checks that the value fits, as c10's checked_convert") {
  CHECK(zeros({2}, {DType::Int32}).fill_(Scalar(2.7)).to_vector() == Values{2, 2});
  CHECK(zeros({2}, {DType::Bool}).fill_(Scalar(int64_t{2})).to_vector() == Values{1, 1});
  CHECK(zeros({2}, {DType::Bool})
            .fill_(Scalar(std::numeric_limits<double>::quiet_NaN()))
            .to_vector() == Values{1, 1});
  CHECK(zeros({2}, {DType::Float16})
            .fill_(Scalar(std::numeric_limits<double>::infinity()))
            .to_vector() == Values{INFINITY, INFINITY});
  CHECK(zeros({2, 2}).t().fill_(Scalar(1.5)).to_vector() == Values{1.5, 1.5, 1.5, 1.5});
  CHECK(error_of([] { zeros({2}, {DType::Int32}).fill_(Scalar(3e9)); }) ==
        "fill_(): value 3e+09 cannot be converted to type int32 without overflow");
  CHECK_THROWS_AS(zeros({2}, {DType::Int32}).fill_(Scalar(int64_t{3000000000})), Error);
  CHECK_THROWS_AS(
      zeros({2}, {DType::Int32}).fill_(Scalar(std::numeric_limits<double>::quiet_NaN())), Error);
  CHECK_THROWS_AS(zeros({2}, {DType::Int64}).fill_(Scalar(1e19)), Error);
  CHECK_THROWS_AS(zeros({2}, {DType::Float16}).fill_(Scalar(65519.0)), Error);
  CHECK_THROWS_AS(zeros({2}, {DType::Float16}).fill_(Scalar(int64_t{70000})), Error);
  CHECK_THROWS_AS(zeros({2}).fill_(Scalar(1e300)), Error);
  CHECK_THROWS_AS(zeros({2}, {DType::BFloat16}).fill_(Scalar(1e300)), Error);
  // An unsigned type also takes the negatives down to -max, which wrap (c10's overflows: "a - b
  // as a + 255 * b"); torch: zeros(2, dtype=uint8).fill_(-1) is [255, 255], fill_(-256) and
  // fill_(-0.5) raise.
  CHECK(zeros({2}, {DType::UInt8}).fill_(Scalar(int64_t{-1})).to_vector() == Values{255, 255});
  CHECK(zeros({2}, {DType::UInt8}).fill_(Scalar(int64_t{-255})).to_vector() == Values{1, 1});
  CHECK(error_of([] { zeros({2}, {DType::UInt8}).fill_(Scalar(int64_t{300})); }) ==
        "fill_(): value 300 cannot be converted to type uint8 without overflow");
  CHECK_THROWS_AS(zeros({2}, {DType::UInt8}).fill_(Scalar(int64_t{-256})), Error);
  CHECK_THROWS_AS(zeros({2}, {DType::UInt8}).fill_(Scalar(-0.5)), Error);
  CHECK(zeros({2}, {DType::Int8}).fill_(Scalar(-127.9)).to_vector() == Values{-127, -127});
  CHECK_THROWS_AS(zeros({2}, {DType::Int8}).fill_(Scalar(int64_t{128})), Error);
  CHECK_THROWS_AS(zeros({2}, {DType::Int8}).fill_(Scalar(int64_t{-129})), Error);
  CHECK_THROWS_AS(zeros({2}, {DType::Int16}).fill_(Scalar(32768.0)), Error);
  CHECK(zeros({2}, {DType::Int16}).fill_(Scalar(true)).to_vector() == Values{1, 1});
}

TEST_CASE("fill_ allocates nothing; zeros allocates one storage (regression)") {
  Tensor x = empty({3, 4}).t();
  const int64_t before = Storage::allocation_count();
  x.fill_(Scalar(2.5));
  CHECK(Storage::allocation_count() == before);
  CHECK(x.to_vector() == Values(12, 2.5));
  (void)zeros({3});
  CHECK(Storage::allocation_count() == before + 1);
}

TEST_CASE("fill_ writes through an expanded tensor, as PyTorch's (regression)") {
  // torch 1.13: torch.zeros(1, 3).expand(4, 3).fill_(2) succeeds (Fill.cpp does not check memory
  // overlap: one value written twice is still that value). It was once refused here.
  const Tensor base = zeros({1, 3});
  Tensor e = base.expand({4, 3});
  CHECK(e.fill_(Scalar(2.0)).to_vector() == Values(12, 2.0));
  CHECK(base.to_vector() == Values{2, 2, 2});
  // copy_ still refuses the same destination: it could write different values to one place.
  CHECK_THROWS_AS(e.copy_(zeros({4, 3})), Error);
}

TEST_CASE("index_select gathers along a dim into a contiguous copy") {
  const Tensor a = arange_of({3, 4});
  const Tensor r = a.index_select(1, {0, 2});
  CHECK(r.sizes() == Shape{3, 2});
  CHECK(r.strides() == Shape{2, 1});
  CHECK(r.to_vector() == Values{0, 2, 4, 6, 8, 10});
  CHECK(a.t().index_select(1, {0, 2}).to_vector() == Values{0, 8, 1, 9, 2, 10, 3, 11});
  CHECK(a.t().index_select(0, {0, 2}).strides() == Shape{3, 1});
  CHECK(a.index_select(0, {}).sizes() == Shape{0, 4});
  const Tensor s = scalar_tensor(Scalar(int64_t{5}), {DType::Int64});
  CHECK(s.index_select(0, {0, 0}).sizes() == Shape{});
  CHECK(s.index_select(0, {0, 0}).to_vector() == Values{5});
  CHECK(error_of([&] { a.index_select(1, {4}); })
            .find("index 4 is out of bounds for dimension 1 "
                  "with size 4") != std::string::npos);
  CHECK_THROWS_AS(a.index_select(1, {-1}), Error);  // index_select does not wrap
  CHECK_THROWS_AS(s.index_select(0, {1}), Error);
  CHECK_THROWS_AS(zeros({2}).index_select(1, {0}), Error);
  CHECK_THROWS_AS(zeros({0, 2}).index_select(0, {0}), Error);
  CHECK(zeros({0, 2}).index_select(0, {}).sizes() == Shape{0, 2});
}

TEST_CASE("flip is a copy (MT-07) laid out as its source") {
  const Tensor a = arange_of({3, 4});
  const int64_t before = Storage::allocation_count();
  const Tensor f = a.flip({0});
  CHECK(Storage::allocation_count() == before + 1);
  CHECK(f.to_vector() == Values{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3});
  const Tensor ft = a.t().flip({0});
  CHECK(ft.strides() == Shape{1, 4});
  CHECK(ft.to_vector() == Values{3, 7, 11, 2, 6, 10, 1, 5, 9, 0, 4, 8});
  CHECK(a.flip({-1, 0}).to_vector() == Values{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  CHECK(a.slice(0, 0, 1).expand({3, 4}).flip({0}).strides() == Shape{4, 1});
  CHECK(a.flip({}).to_vector() == a.to_vector());
  CHECK(scalar_tensor(Scalar(int64_t{5}), {DType::Int64}).flip({0}).to_vector() == Values{5});
  CHECK(zeros({0, 3}).flip({1}).sizes() == Shape{0, 3});
  CHECK(error_of([&] {
          a.flip({0, -2});
        }).find("dim 0 appears multiple times") != std::string::npos);
  CHECK_THROWS_AS(a.flip({2}), Error);
}

TEST_CASE("flip of a complex tensor moves whole elements and resolves a conjugate bit") {
  // torch 1.13 and 2.6: view_as_complex(tensor([[1.,2.],[3.,4.],[5.,6.]])).conj().flip(0) is
  // tensor([5.-6.j, 3.-4.j, 1.-2.j]), is_conj() False; and view_as_complex(arange(12.).view(2,3,2))
  // .t().flip(1) keeps the transpose's layout, strides (1, 3).
  const Tensor z = view_as_complex(add(arange(6, {DType::Float32}).view({3, 2}), Scalar(1.0)));
  const Tensor f = z.conj().flip({0});
  CHECK_FALSE(f.is_conj());
  CHECK(to_string(f) == "tensor([5.-6.j, 3.-4.j, 1.-2.j])");
  CHECK(to_string(z.flip({0})) == "tensor([5.+6.j, 3.+4.j, 1.+2.j])");
  const Tensor w = view_as_complex(arange(12, {DType::Float32}).view({2, 3, 2})).t().flip({1});
  CHECK(w.strides() == Shape{1, 3});
  CHECK(to_string(w) ==
        "tensor([[ 6.+7.j,  0.+1.j],\n        [ 8.+9.j,  2.+3.j],\n        [10.+11.j,  4.+5.j]])");
}

TEST_CASE("copies refuse tensors that are not on the CPU, by name") {
  CHECK_THROWS_AS(Tensor().clone(), Error);
  CHECK_THROWS_AS(Tensor().flip({}), Error);
}

TEST_CASE("fill_ writes exactly the elements of its view, on every walk the plan takes") {
  // A large strided view (the threads split it), a permuted one, and an expanded one.
  Tensor base = zeros({512, 512});
  Tensor every_other = base.slice(1, 0, std::nullopt, 2);
  every_other.fill_(Scalar(3.0));
  const std::vector<double> v = base.to_vector();
  int64_t threes = 0, zeros_left = 0;
  for (size_t i = 0; i < v.size(); ++i) (i % 2 == 0 ? threes : zeros_left) += v[i] == (i % 2 == 0 ? 3 : 0);
  CHECK(threes == 512 * 256);
  CHECK(zeros_left == 512 * 256);
  Tensor p = zeros({2, 3, 4}, {DType::Int64}).permute({2, 0, 1});
  p.fill_(Scalar(int64_t{7}));
  CHECK(p.to_vector() == Values(24, 7));
  Tensor row = zeros({1, 3}, {DType::Float16});
  row.expand({4, 3}).fill_(Scalar(2.0));
  CHECK(row.to_vector() == Values{2, 2, 2});
}

TEST_CASE("repeat tiles a tensor into a new contiguous one, every element copied (BC-07.repeat)") {
  const Tensor x = arange_of({3});
  int64_t before = Storage::allocation_count();
  const Tensor r = x.repeat({2, 2});
  CHECK(Storage::allocation_count() == before + 1);
  CHECK(r.sizes() == Shape{2, 6});
  CHECK(r.strides() == Shape{6, 1});
  CHECK(r.storage().nbytes() == 12 * 8);
  CHECK_FALSE(r.storage().is_same(x.storage()));
  CHECK(r.to_vector() == Values{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2});
  CHECK(x.repeat({2}).to_vector() == Values{0, 1, 2, 0, 1, 2});
  // The same values as expand where expand can reach them, in memory of their own.
  const Tensor column = arange_of({3, 1});
  CHECK(column.repeat({1, 4}).to_vector() == column.expand({3, 4}).to_vector());
  CHECK(column.repeat({1, 4}).strides() == Shape{4, 1});
  // A stride-0 or transposed source is read through its strides; the result is contiguous.
  CHECK(column.expand({3, 4}).repeat({1, 2}).strides() == Shape{8, 1});
  CHECK(arange_of({2, 3}).t().repeat({1, 2}).to_vector() ==
        Values{0, 3, 0, 3, 1, 4, 1, 4, 2, 5, 2, 5});
  // A 0-d tensor, and repeats of 0 (torch 1.13's shapes and strides).
  const Tensor s = scalar_tensor(5);
  CHECK(s.repeat({}).sizes() == Shape{});
  CHECK(s.repeat({2, 3}).to_vector() == Values(6, 5.0));
  CHECK(x.repeat({0, 2}).sizes() == Shape{0, 6});
  CHECK(x.repeat({0, 2}).strides() == Shape{6, 1});
  CHECK(x.repeat({2, 0}).strides() == Shape{1, 1});
  CHECK(zeros({0, 2}).repeat({3, 2}).sizes() == Shape{0, 4});
  // Writing into the copy leaves the source alone.
  Tensor w = x.repeat({2});
  w.set({3}, 9);
  CHECK(x.to_vector() == Values{0, 1, 2});
}

TEST_CASE("repeat's refusals, in PyTorch's words") {
  CHECK(error_of([] { arange_of({2, 3}).repeat({2}); }) ==
        "repeat(): Number of dimensions of repeat dims can not be smaller than number of "
        "dimensions of tensor");
  CHECK(error_of([] { arange_of({3}).repeat({-1}); }) ==
        "repeat(): Trying to create tensor with negative dimension -3: [-3]");
  CHECK(error_of([] { arange_of({3}).repeat({2, -2}); }) ==
        "repeat(): Trying to create tensor with negative dimension -6: [2, -6]");
  CHECK(error_of([] { arange_of({3}).repeat({INT64_MAX}); }).find("overflows int64") !=
        std::string::npos);
}

TEST_CASE("copies of complex tensors run on their real parts; the kernels refuse complex") {
  // z = torch.complex(arange(6.), arange(6.) + 10).view(2, 3); each string printed by torch 1.13.
  std::vector<double> parts;
  for (int i = 0; i < 6; ++i) parts.insert(parts.end(), {double(i), double(10 + i)});
  const Tensor z = view_as_complex(from_values(parts, {2, 3, 2}));
  const Tensor c = z.t().contiguous();
  CHECK(c.strides() == Shape{2, 1});
  CHECK(to_string(c) ==
        "tensor([[0.+10.j, 3.+13.j],\n        [1.+11.j, 4.+14.j],\n        [2.+12.j, 5.+15.j]])");
  CHECK(to_string(z.conj().to(DType::Complex128)) ==
        "tensor([[0.-10.j, 1.-11.j, 2.-12.j],\n        [3.-13.j, 4.-14.j, 5.-15.j]], "
        "dtype=torch.complex128)");
  CHECK(to_string(arange(3).to(DType::Complex128)) ==
        "tensor([0.+0.j, 1.+0.j, 2.+0.j], dtype=torch.complex128)");
  CHECK(to_string(ones({2}, {DType::Complex64})) == "tensor([1.+0.j, 1.+0.j])");
  // Into a real tensor: the real parts (PyTorch warns that the imaginary parts are discarded).
  Tensor r = zeros({2, 3});
  r.copy_(z);
  CHECK(r.to_vector() == std::vector<double>{0, 1, 2, 3, 4, 5});
  CHECK(error_of([&] { sum(z); }) == "sum(): complex64 is not supported by this library's kernels");
  CHECK(error_of([&] { add(z, z); }) == "add: complex64 is not supported by this library's kernels");
}
