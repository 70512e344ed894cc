// Tensor basics: metadata, the address formula, element access, factories and the 16-bit float
// formats. Bit patterns and layouts are those torch 1.13 gives for the same values and calls.
#include "strided/tensor/tensor.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "strided/core/error_of.h"
#include "strided/layout/layout.h"

using namespace strided;
using Values = std::vector<double>;

TEST_CASE("dtypes: item sizes and names as PyTorch prints them") {
  CHECK(itemsize(DType::Bool) == 1);
  CHECK(itemsize(DType::Int32) == 4);
  CHECK(itemsize(DType::Int64) == 8);
  CHECK(itemsize(DType::Float16) == 2);
  CHECK(itemsize(DType::BFloat16) == 2);
  CHECK(itemsize(DType::Float32) == 4);
  CHECK(itemsize(DType::Float64) == 8);
  CHECK(name(DType::BFloat16) == "bfloat16");
  CHECK(dtype_from_name("torch.float64") == DType::Float64);
  CHECK(dtype_from_name("half") == DType::Float16);
  CHECK(dtype_from_name("long") == DType::Int64);
  // torch: element_size() 8 and 16; torch.cfloat is torch.complex64, torch.cdouble complex128;
  // torch.complex64.is_complex True, is_floating_point False.
  CHECK(itemsize(DType::Complex64) == 8);
  CHECK(itemsize(DType::Complex128) == 16);
  CHECK(name(DType::Complex64) == "complex64");
  CHECK(dtype_from_name("torch.cfloat") == DType::Complex64);
  CHECK(dtype_from_name("cdouble") == DType::Complex128);
  CHECK(is_complex(DType::Complex64));
  CHECK(!is_floating_point(DType::Complex64));
  CHECK_THROWS_AS(dtype_from_name("complex32"), Error);
}

TEST_CASE("dtypes: uint8, int8 and int16 as PyTorch names them") {
  // torch: torch.uint8.is_signed False, torch.int8 and torch.int16 True; element_size() 1, 1, 2;
  // torch.short is torch.int16; torch has no torch.byte nor torch.char.
  CHECK(itemsize(DType::UInt8) == 1);
  CHECK(itemsize(DType::Int8) == 1);
  CHECK(itemsize(DType::Int16) == 2);
  CHECK(name(DType::UInt8) == "uint8");
  CHECK(name(DType::Int8) == "int8");
  CHECK(name(DType::Int16) == "int16");
  CHECK(dtype_from_name("torch.uint8") == DType::UInt8);
  CHECK(dtype_from_name("int8") == DType::Int8);
  CHECK(dtype_from_name("short") == DType::Int16);
  CHECK(dtype_from_name("torch.short") == DType::Int16);
  CHECK(error_of([] { dtype_from_name("byte"); }) ==
        "dtype: unknown dtype 'byte' (expected bool, uint8, int8, int16, int32, int64, float16, "
        "bfloat16, float32, float64, complex64 or complex128)");
  CHECK_THROWS_AS(dtype_from_name("char"), Error);
  CHECK_THROWS_AS(dtype_from_name("uint16"), Error);  // not in torch 1.13
  for (DType t : {DType::UInt8, DType::Int8, DType::Int16}) {
    CHECK(is_integral(t));
    CHECK(!is_floating_point(t));
    CHECK(!is_complex(t));
  }
  CHECK(!is_integral(DType::Bool));
  // Every dtype's name reads back as itself.
  for (DType t : kAllDTypes) CHECK(dtype_from_name(name(t)) == t);
}

TEST_CASE("float16 rounds to nearest even, with subnormals, as torch's .half()") {
  struct Case {
    float value;
    uint16_t bits;
  };
  const Case cases[] = {
      {65504.0f, 0x7bff},      {65520.0f, 0x7c00},       {0x1p-24f, 0x0001},
      {0x1p-25f, 0x0000},      {3 * 0x1p-25f, 0x0002},   {-0.0f, 0x8000},
      {1.0009765625f, 0x3c01}, {1.00048828125f, 0x3c00}, {1.00146484375f, 0x3c02},
      {6.1e-5f, 0x03ff},       {0.1f, 0x2e66},           {1e-8f, 0x0000},
  };
  for (const Case& c : cases) {
    CAPTURE(c.value);
    CHECK(float_to_half(c.value).bits == c.bits);
  }
  CHECK(half_to_float(Half{0x2e66}) == 0.0999755859375f);
  CHECK(half_to_float(Half{0x0001}) == 0x1p-24f);
  CHECK(std::isinf(half_to_float(Half{0x7c00})));
  CHECK(std::isnan(half_to_float(float_to_half(NAN))));
}

TEST_CASE("bfloat16 keeps float's exponent and rounds the mantissa to nearest even") {
  struct Case {
    float value;
    uint16_t bits;
  };
  const Case cases[] = {{1.00390625f, 0x3f80}, {1.01171875f, 0x3f82}, {0.1f, 0x3dcd},
                        {3.14159f, 0x4049},    {1e38f, 0x7e96},       {3.4e38f, 0x7f80},
                        {-2.5f, 0xc020}};
  for (const Case& c : cases) {
    CAPTURE(c.value);
    CHECK(float_to_bfloat16(c.value).bits == c.bits);
  }
  CHECK(bfloat16_to_float(BFloat16{0x3dcd}) == 0.10009765625f);
  CHECK(std::isnan(bfloat16_to_float(float_to_bfloat16(NAN))));
}

TEST_CASE("metadata and the address formula (MT-03, MT-04, MT-11)") {
  const Tensor t = arange(24, {DType::Float32}).view({2, 3, 4});
  CHECK(t.dim() == 3);
  CHECK(t.numel() == 24);
  CHECK(t.element_size() == 4);
  CHECK(t.nbytes() == 96);
  CHECK(t.size(-1) == 4);
  CHECK(t.stride(0) == 12);
  CHECK(to_string(t.layout()) == "(2,3,4):(12,4,1)");
  CHECK_THROWS_AS(t.size(3), Error);
  // MT-03: every element read back through raw memory at data_ptr + itemsize * sum(i * stride).
  int visited = 0;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t k = 0; k < 4; ++k) {
        float raw;
        std::memcpy(&raw, static_cast<const char*>(t.data_ptr()) + 4 * (i * 12 + j * 4 + k * 1), 4);
        CHECK(raw == static_cast<float>(t.at({i, j, k}).to_double()));
        ++visited;
      }
  CHECK(visited == t.numel());
  // MT-11: a view's data_ptr is its first element; the storage's base does not move.
  const Tensor m = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const char* base = static_cast<const char*>(m.storage().data());
  CHECK(static_cast<const char*>(m.select(0, 1).data_ptr()) - base == 12);
  CHECK(static_cast<const char*>(m.select(1, 1).data_ptr()) - base == 4);
  const Tensor l = arange(24).view({1, 2, 3, 4});
  CHECK(static_cast<const char*>(l.select(3, 2).data_ptr()) -
            static_cast<const char*>(l.storage().data()) ==
        16);
  CHECK(m.data<float>()[4] == 5.0f);
  CHECK_THROWS_AS(m.data<double>(), Error);
}

TEST_CASE("a Tensor built from a storage and a layout is checked as as_strided checks it") {
  const Tensor base = arange(6);  // 48 bytes
  CHECK(Tensor(base.storage(), {2, 3}, {3, 1}, 0, DType::Int64).at({1, 2}).to_int() == 5);
  CHECK(Tensor(base.storage(), {0, 100}, {100, 1}, 0, DType::Int64).numel() == 0);  // no element
  CHECK_THROWS_WITH_AS(Tensor(base.storage(), {2, 3}, {3}, 0, DType::Int64),
                       doctest::Contains("mismatch in length of strides (1) and shape (2)"), Error);
  CHECK_THROWS_WITH_AS(Tensor(base.storage(), {2}, {-1}, 1, DType::Int64),
                       doctest::Contains("negative stride at dim 0"), Error);
  CHECK_THROWS_WITH_AS(Tensor(base.storage(), {-1}, {1}, 0, DType::Int64),
                       doctest::Contains("negative size at dim 0"), Error);
  // No element, nothing addressed: a wrapped stride (a view's arithmetic) is allowed there.
  CHECK(Tensor(base.storage(), {0, 2}, {-2, 1}, 0, DType::Int64).numel() == 0);
  CHECK(Tensor(base.storage(), {1, 3}, {-4, 1}, 0, DType::Int64).at({0, 2}).to_int() == 2);
  CHECK_THROWS_WITH_AS(Tensor(base.storage(), {2}, {1}, -1, DType::Int64),
                       doctest::Contains("invalid storage offset -1"), Error);
  CHECK_THROWS_WITH_AS(Tensor(base.storage(), {2, 3}, {3, 1}, 1, DType::Int64),
                       doctest::Contains("need 56 bytes, but the storage holds 48"), Error);
  CHECK_THROWS_WITH_AS(Tensor(base.storage(), {3}, {INT64_MAX}, 0, DType::Int64),
                       doctest::Contains("overflowed"), Error);
}

TEST_CASE("element access wraps indices like Python and checks bounds") {
  Tensor a = arange(6).view({2, 3});
  CHECK(a.at({-1, -1}).to_int() == 5);
  CHECK(a.offset_of({1, 2}) == 5);
  CHECK(a.t().offset_of({2, 1}) == 5);
  a.set({0, -1}, Scalar(int64_t{42}));
  CHECK(a.at({0, 2}).to_int() == 42);
  CHECK(error_of([&] {
          a.at({2, 0});
        }) == "at: index 2 is out of bounds for dimension 0 with size 2");
  CHECK_THROWS_AS(a.at({0}), Error);
  CHECK(scalar_tensor(Scalar(2.5)).item().to_double() == 2.5);
  CHECK(a.select(0, 1).select(0, 1).item().to_int() == 4);
  CHECK_THROWS_AS(a.item(), Error);
  CHECK(a.t().to_vector() == Values{0, 3, 1, 4, 42, 5});
  CHECK(zeros({0, 3}).to_vector().empty());
}

TEST_CASE("factories make contiguous tensors (CT-04, MT-10)") {
  for (const Tensor& t : {empty({2, 3}), zeros({2, 3}), ones({2, 3}), full({2, 3}, Scalar(7.0))}) {
    CHECK(t.is_contiguous());
    CHECK(t.strides() == Shape{3, 1});
    CHECK(t.storage_offset() == 0);
    CHECK(t.dtype() == DType::Float32);
  }
  CHECK(zeros({2, 2}).to_vector() == Values{0, 0, 0, 0});
  CHECK(ones({2}, {DType::Int32}).to_vector() == Values{1, 1});
  CHECK(full({3}, Scalar(int64_t{7}), {DType::Int64}).to_vector() == Values{7, 7, 7});
  CHECK(empty({3, 0, 2}).strides() == Shape{2, 2, 1});  // CT-05
  CHECK(empty({}).numel() == 1);
  CHECK_THROWS_AS(empty({2, -1}), Error);
  // empty_strided allocates exactly what the layout reaches; empty_like keeps a dense layout and
  // orders any other by stride (torch.empty_like: (3,2):(4,2) → (2,1), its transpose → (1,2)).
  CHECK(empty_strided({2, 3}, {1, 2}).storage().nbytes() == 24);
  CHECK(empty_strided({2, 3}, {1, 2}).strides() == Shape{1, 2});
  CHECK_THROWS_AS(empty_strided({2, 3}, {1}), Error);
  CHECK_THROWS_AS(empty_strided({2, 3}, {1, -2}), Error);
  const Tensor x =
      arange(12, {DType::Float32}).view({3, 4}).slice(1, std::nullopt, std::nullopt, 2);
  CHECK(empty_like(x).strides() == Shape{2, 1});
  CHECK(empty_like(x.t()).strides() == Shape{1, 2});
  CHECK(empty_like(x.t()).dtype() == DType::Float32);
}

TEST_CASE("arange, from_values and scalar_tensor") {
  CHECK(arange(5, 0, -2).to_vector() == Values{5, 3, 1});
  CHECK(arange(0, 10, 3).to_vector() == Values{0, 3, 6, 9});
  CHECK(arange(0).sizes() == Shape{0});
  CHECK(arange(4).dtype() == DType::Int64);
  CHECK_THROWS_AS(arange(0, 5, 0), Error);
  CHECK(error_of([] { arange(5, 0, 1); }).find("upper bound and larger bound inconsistent") !=
        std::string::npos);
  const Tensor v = from_values({1.5, -2, 3}, {3}, {DType::Int32});
  CHECK(v.to_vector() == Values{1, -2, 3});
  CHECK_THROWS_AS(from_values({1, 2}, {3}), Error);
  // from_scalars keeps integers exact: 2^63 - 1 and 2^53 + 1 have no double.
  const Tensor big = from_scalars({Scalar(INT64_MAX), Scalar(INT64_MIN),
                                   Scalar((int64_t{1} << 53) + 1), Scalar(true)},
                                  {4}, {DType::Int64});
  CHECK(big.at({0}).to_int() == INT64_MAX);
  CHECK(big.at({1}).to_int() == INT64_MIN);
  CHECK(big.at({2}).to_int() == (int64_t{1} << 53) + 1);
  CHECK(big.at({3}).to_int() == 1);
  CHECK(from_scalars({Scalar(INT32_MIN)}, {1}, {DType::Int32}).at({0}).to_int() == INT32_MIN);
  const Tensor s = scalar_tensor(Scalar(true), {DType::Bool});
  CHECK(s.dim() == 0);
  CHECK(s.item().to_bool());
}

TEST_CASE("seeded random tensors are reproducible") {
  Generator g1(42), g2(42), g3(43);
  const Tensor a = rand({4}, g1);
  const Tensor b = rand({4}, g2);
  CHECK(a.to_vector() == b.to_vector());
  CHECK(a.to_vector() != rand({4}, g3).to_vector());
  for (double x : a.to_vector()) CHECK((x >= 0.0 && x < 1.0));
  Generator g4(1);
  const Tensor n = randn({1000}, g4, {DType::Float64});
  double mean = 0;
  for (double x : n.to_vector()) mean += x / 1000;
  CHECK(std::abs(mean) < 0.2);
  CHECK_THROWS_AS(rand({2}, g1, {DType::Int32}), Error);
}

TEST_CASE("storage is shared and outlives the base tensor (MT-15)") {
  Tensor view;
  long uses = 0;
  {
    const Tensor base = arange(6).view({2, 3});
    view = base.select(0, 1);
    uses = base.storage().use_count();
  }
  CHECK(uses == 2);
  CHECK(view.storage().use_count() == 1);
  CHECK(view.to_vector() == Values{3, 4, 5});
}

TEST_CASE("numel of sizes whose partial product overflows before a 0 (regression)") {
  // torch 1.13: torch.ones(1, 1, 0).expand(2**63-1, 2, 0).numel() == 0. The product of the first
  // two sizes overflows int64 (not uint64, so c10 accepts the sizes); numel() once multiplied
  // them in int64, which is undefined behaviour.
  const int64_t big = std::numeric_limits<int64_t>::max();
  const Tensor t = ones({1, 1, 0}).expand({big, 2, 0});
  CHECK(t.sizes() == Shape{big, 2, 0});
  CHECK(t.numel() == 0);
  CHECK(t.nbytes() == 0);
  CHECK(t.to_vector().empty());
}

TEST_CASE("arange of numbers with a fraction, as torch.arange(5.0) and arange(0, 1, 0.25)") {
  // torch 1.13 and 2.6: arange(-0.5, 2.7, 0.3) has 11 values from -0.5 to 2.5; arange(0.5, 3,
  // dtype=torch.int64) is [0, 1, 2]; arange(1.0, 0.0), arange(1e30) and a zero step are refused.
  const Tensor f = arange(Scalar(-0.5), Scalar(2.7), Scalar(0.3), {DType::Float32});
  CHECK(f.numel() == 11);
  CHECK(to_string(f) ==
        "tensor([-0.5000, -0.2000,  0.1000,  0.4000,  0.7000,  1.0000,  1.3000,  1.6000,\n"
        "         1.9000,  2.2000,  2.5000])");
  CHECK(f.at({10}).to<double>() == static_cast<double>(static_cast<float>(-0.5 + 0.3 * 10)));
  CHECK(arange(Scalar(0.5), Scalar(int64_t{3}), Scalar(int64_t{1}), {DType::Int64}).to_vector() ==
        std::vector<double>{0, 1, 2});
  CHECK(arange(Scalar(5.0), Scalar(int64_t{0}), Scalar(int64_t{-2}), {DType::Float64}).to_vector() ==
        std::vector<double>{5, 3, 1});
  CHECK(arange_numel(Scalar(0.1), Scalar(0.4), Scalar(0.1), DType::Float32) == 4);
  CHECK_THROWS_WITH_AS(arange(Scalar(1.0), Scalar(0.0), Scalar(int64_t{1}), {DType::Float32}),
                       doctest::Contains("upper bound and larger bound inconsistent with step sign"),
                       Error);
  CHECK_THROWS_WITH_AS(arange(Scalar(0.0), Scalar(1e30), Scalar(int64_t{1}), {DType::Float32}),
                       doctest::Contains("invalid size, possible overflow?"), Error);
  CHECK_THROWS_WITH_AS(arange(Scalar(0.0), Scalar(1.0), Scalar(0.0), {DType::Float32}),
                       doctest::Contains("step must be nonzero"), Error);
  CHECK_THROWS_WITH_AS(arange(Scalar(0.0), Scalar(1e300), Scalar(int64_t{1}), {DType::Int64}),
                       doctest::Contains("cannot be converted to type int64 without overflow"), Error);
}

TEST_CASE("arange and allocation sizes near 2^63 are errors, not overflows (regression)") {
  // torch 1.13: torch.arange(-2**63, 2**63-1) raises "invalid size, possible overflow?". The
  // count (end - start + step - 1) / step once overflowed int64 here.
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  CHECK(error_of([&] { arange(lo, hi); }) ==
        "arange: invalid size, possible overflow? (start=-9223372036854775808, "
        "end=9223372036854775807, step=1: more elements than int64 counts)");
  // A count that fits, with i * step past int64 on the way: four values from -2^63.
  const int64_t step = int64_t{1} << 62;
  CHECK(arange(lo, hi, step).to_vector() ==
        Values{-9223372036854775808.0, -4611686018427387904.0, 0.0, 4611686018427387904.0});
  CHECK(arange(hi, lo, -step).numel() == 4);
  // 2^63-1 bytes: the allocator's rounding to 64 bytes once overflowed int64.
  CHECK(error_of([&] { empty({hi}, {DType::Bool}); }) ==
        "Storage::allocate: 9223372036854775807 bytes is more than any cpu allocation can hold");
  CHECK_THROWS_AS(Storage::allocate(hi - 62), Error);
}

TEST_CASE("from_values refuses what an integer dtype cannot hold; casts never overflow (regression)") {
  // torch 1.13: torch.tensor([1e30], dtype=torch.int64) raises "value cannot be converted to type
  // int64 without overflow"; the cast of 1e30 to int64 was once undefined behaviour here (and
  // reachable from strided-explore's tensor([1e30], dtype=int64)).
  CHECK(error_of([] { from_values({1e30}, {1}, {DType::Int64}); }) ==
        "from_values: value 1e+30 cannot be converted to type int64 without overflow");
  CHECK_THROWS_AS(from_values({std::nan("")}, {1}, {DType::Int32}), Error);
  CHECK_THROWS_AS(from_values({2147483648.0}, {1}, {DType::Int32}), Error);
  // What torch.tensor keeps: 2.7 -> 2, 2^63 -> -2^63 in int64, 1e300 -> inf, 5 -> True.
  CHECK(from_values({2.7, -2.7}, {2}, {DType::Int32}).to_vector() == Values{2, -2});
  CHECK(from_values({9223372036854775808.0}, {1}, {DType::Int64}).at({0}).to_int() ==
        std::numeric_limits<int64_t>::min());
  CHECK(std::isinf(from_values({1e300}, {1}, {DType::Float32}).to_vector()[0]));
  CHECK(from_values({5}, {1}, {DType::Bool}).to_vector() == Values{1});
  // Scalar's own casts: NaN and out-of-range values give the lowest integer, never UB.
  CHECK(Scalar(1e30).to_int() == std::numeric_limits<int64_t>::min());
  CHECK(Scalar(std::nan("")).to<int32_t>() == std::numeric_limits<int32_t>::min());
  CHECK(Scalar(-7.9).to<int32_t>() == -7);
  // The narrow integers take a float's int32 truncation's low bits, an integer's own low bits.
  CHECK(Scalar(300.7).to<int8_t>() == 44);
  CHECK(Scalar(-1.5).to<uint8_t>() == 255);
  CHECK(Scalar(std::nan("")).to<int16_t>() == 0);
  CHECK(Scalar(int64_t{65537}).to<int16_t>() == 1);
  CHECK(Scalar(int64_t{-1}).to<uint8_t>() == 255);
}

TEST_CASE("torch.tensor(values, dtype=) for the narrow integers: c10's checked_convert") {
  // torch 1.13 (Python 3.11): torch.tensor([-1], dtype=torch.uint8) is 255, [-256] and [300]
  // raise "value cannot be converted to type uint8_t without overflow", and so do [-0.5] and
  // [255.5]; [2.7] is 2.
  CHECK(from_scalars({Scalar(int64_t{-1}), Scalar(int64_t{-255}), Scalar(int64_t{255})}, {3},
                     {DType::UInt8})
            .to_vector() == Values{255, 1, 255});
  // A float is judged as a float: -1.0 lies below uint8's range (torch.tensor([-1.0],
  // dtype=torch.uint8) raises).
  CHECK_THROWS_AS(from_values({-1.0}, {1}, {DType::UInt8}), Error);
  CHECK(error_of([] { from_values({300}, {1}, {DType::UInt8}); }) ==
        "from_values: value 300 cannot be converted to type uint8 without overflow");
  CHECK_THROWS_AS(from_values({-256}, {1}, {DType::UInt8}), Error);
  CHECK_THROWS_AS(from_values({-0.5}, {1}, {DType::UInt8}), Error);
  CHECK_THROWS_AS(from_values({255.5}, {1}, {DType::UInt8}), Error);
  CHECK(from_values({2.7, -128, 127}, {3}, {DType::Int8}).to_vector() == Values{2, -128, 127});
  CHECK_THROWS_AS(from_values({128}, {1}, {DType::Int8}), Error);
  CHECK_THROWS_AS(from_values({-129}, {1}, {DType::Int8}), Error);
  CHECK_THROWS_AS(from_values({std::nan("")}, {1}, {DType::Int16}), Error);
  CHECK(from_values({-32768, 32767}, {2}, {DType::Int16}).to_vector() == Values{-32768, 32767});
  CHECK_THROWS_AS(from_values({32768}, {1}, {DType::Int16}), Error);
  // torch.arange(300, dtype=torch.uint8) wraps, as each value's cast does.
  const Tensor a = arange(0, 300, 1, {DType::UInt8});
  CHECK(a.at({255}).to_int() == 255);
  CHECK(a.at({256}).to_int() == 0);
  CHECK(a.at({299}).to_int() == 43);
}
