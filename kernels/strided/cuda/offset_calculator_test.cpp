// The offset calculator runs here on the CPU, the same code a CUDA thread runs (only umulhi is
// swapped for its 64-bit host equivalent), and is compared with the address formula itself.
#include "strided/cuda/offset_calculator.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace strided;
using namespace strided::cuda;

namespace {

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

// Offsets by the definition: unravel i innermost first, then sum index * stride.
std::vector<int64_t> offsets_by_definition(int64_t i, const Shape& sizes,
                                           const std::vector<Shape>& strides) {
  std::vector<int64_t> out(strides.size(), 0);
  for (size_t d = 0; d < sizes.size(); ++d) {
    const int64_t idx = i % sizes[d];
    i /= sizes[d];
    for (size_t a = 0; a < strides.size(); ++a) out[a] += idx * strides[a][d];
  }
  return out;
}

template <int N, class index_t>
void check_all_offsets(const Shape& sizes, const std::vector<Shape>& strides) {
  std::array<IntList, N> s;
  for (int a = 0; a < N; ++a) s[static_cast<size_t>(a)] = strides[static_cast<size_t>(a)];
  const auto calc = make_offset_calculator<N, index_t>(sizes, s, "test");
  int64_t numel = 1;
  for (int64_t x : sizes) numel *= x;
  for (int64_t i = 0; i < numel; ++i) {
    const auto got = calc.get(static_cast<index_t>(i));
    const auto want = offsets_by_definition(i, sizes, strides);
    for (int a = 0; a < N; ++a) REQUIRE(got[a] == want[static_cast<size_t>(a)]);
  }
}

}  // namespace

TEST_CASE("FastDivider32 divides exactly like / and % over its whole range") {
  std::vector<int64_t> divisors;
  for (int64_t d = 1; d <= 300; ++d) divisors.push_back(d);
  for (int k = 1; k < 31; ++k) {
    divisors.push_back((int64_t{1} << k) - 1);
    divisors.push_back(int64_t{1} << k);
    divisors.push_back((int64_t{1} << k) + 1);
  }
  divisors.push_back(1000003);
  divisors.push_back(kInt32Max);
  std::mt19937_64 rng(6);
  for (int64_t d : divisors) {
    const FastDivider32 div(d);
    std::vector<int64_t> dividends = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, kInt32Max,
                                      kInt32Max - 1, kInt32Max / d * d, kInt32Max / d * d - 1};
    for (int k = 0; k < 200; ++k) dividends.push_back(static_cast<int64_t>(rng() % (kInt32Max + 1)));
    for (int64_t n : dividends) {
      if (n < 0 || n > kInt32Max) continue;
      const auto qr = div.divmod(static_cast<uint32_t>(n));
      INFO("n = ", n, ", d = ", d);
      REQUIRE(qr.div == static_cast<uint32_t>(n / d));
      REQUIRE(qr.mod == static_cast<uint32_t>(n % d));
    }
  }
}

TEST_CASE("FastDivider32 refuses divisors it cannot represent") {
  CHECK_THROWS_WITH_AS(FastDivider32(0), "FastDivider32: divisor must be in [1, 2^31-1], got 0",
                       Error);
  CHECK_THROWS_AS(FastDivider32(kInt32Max + 1), Error);
}

TEST_CASE("offsets match the address formula, 32- and 64-bit indices, 1 to 3 operands") {
  // A contiguous (2,3,4) float32 tensor and its permute(2,1,0), innermost dim first, in bytes.
  const Shape sizes = {4, 3, 2};
  check_all_offsets<1, uint32_t>(sizes, {{4, 16, 48}});
  check_all_offsets<2, uint32_t>(sizes, {{4, 16, 48}, {24, 8, 4}});
  check_all_offsets<3, uint64_t>(sizes, {{4, 16, 48}, {24, 8, 4}, {0, 4, 0}});

  // Random layouts, broadcast (0) strides included.
  std::mt19937_64 rng(16);
  for (int trial = 0; trial < 200; ++trial) {
    const int ndim = 1 + static_cast<int>(rng() % 6);
    Shape s;
    std::vector<Shape> st(3);
    for (int d = 0; d < ndim; ++d) {
      s.push_back(1 + static_cast<int64_t>(rng() % 5));
      for (auto& x : st) x.push_back(static_cast<int64_t>(rng() % 4) * 4 * (1 + static_cast<int64_t>(rng() % 50)));
    }
    check_all_offsets<3, uint32_t>(s, st);
    check_all_offsets<3, uint64_t>(s, st);
  }
}

TEST_CASE("a 32-bit index still yields 64-bit byte offsets") {
  // Three elements 2^33 bytes apart: a small tensor over a huge storage.
  const int64_t big = int64_t{1} << 33;
  const auto calc = make_offset_calculator<1, uint32_t>(Shape{3}, {IntList(Shape{big})}, "test");
  CHECK(calc.get(2)[0] == 2 * big);
}

TEST_CASE("a 0-d plan has one element at offset 0") {
  const auto calc = make_offset_calculator<2, uint32_t>(Shape{}, {IntList(), IntList()}, "test");
  CHECK(calc.dims == 0);
  CHECK(calc.get(0)[0] == 0);
  CHECK(calc.get(0)[1] == 0);
}

TEST_CASE("the dim limit and index width are checked on the host, before any launch") {
  const Shape seventeen(17, 2);
  const Shape strides(17, 4);
  CHECK_THROWS_WITH_AS(
      (make_offset_calculator<1, uint64_t>(seventeen, {IntList(strides)}, "cuda::add")),
      "cuda::add: 17 dims remain after coalescing (sizes [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, "
      "2, 2, 2, 2]) but the CUDA offset calculator accepts at most 16; call .contiguous() on the "
      "operands first",
      Error);
  const Shape sixteen(16, 2);
  CHECK_NOTHROW((make_offset_calculator<1, uint32_t>(sixteen, {IntList(Shape(16, 4))}, "t")));

  const Shape huge = {int64_t{1} << 20, int64_t{1} << 12};  // 2^32 elements
  const Shape hs = {4, int64_t{4} << 20};
  CHECK_THROWS_WITH_AS((make_offset_calculator<1, uint32_t>(huge, {IntList(hs)}, "cuda::copy_")),
                       "cuda::copy_: 4294967296 elements do not fit 32-bit indexing; the 64-bit "
                       "path must be used",
                       Error);
  const auto calc = make_offset_calculator<1, uint64_t>(huge, {IntList(hs)}, "cuda::copy_");
  const uint64_t last = (uint64_t{1} << 32) - 1;
  CHECK(calc.get(last)[0] == ((int64_t{1} << 20) - 1) * 4 + ((int64_t{1} << 12) - 1) * (int64_t{4} << 20));

  CHECK_THROWS_WITH_AS((make_offset_calculator<1, uint32_t>(Shape{3, 0}, {IntList(Shape{4, 12})}, "op")),
                       "op: the offset calculator needs sizes >= 1, got [3, 0] (empty tensors "
                       "launch nothing)",
                       Error);
}

TEST_CASE("fits_32bit_indexing is the divider's bound") {
  CHECK(fits_32bit_indexing(kInt32Max));
  CHECK_FALSE(fits_32bit_indexing(kInt32Max + 1));
}
