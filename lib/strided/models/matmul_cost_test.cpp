// matmul_cost against what matmul does: over a sweep of operand shapes (1-D to 4-D, broadcast
// batches, sizes 0 to 3), layouts (contiguous, transposed, expanded, sliced) and dtypes, the
// allocations matmul makes, counted by Storage, are the ones matmul_cost predicts, whether matmul
// answers or raises.
#include <doctest/doctest.h>

#include <string>

#include "strided/engine/matmul.h"

using namespace strided;

namespace {

// A small deterministic generator, so every run sweeps the same cases.
struct Draw {
  uint64_t state;
  int64_t below(int64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(n));
  }
};

// An operand of the given sizes in one of several layouts: contiguous, its last two dims stored
// transposed, a size-1 dim expanded, or every other element of a larger tensor.
Tensor operand(const Shape& sizes, DType dtype, int64_t layout, Draw& d) {
  switch (layout) {
    case 1:
      if (sizes.size() >= 2) {
        Shape swapped = sizes;
        std::swap(swapped[swapped.size() - 2], swapped.back());
        return zeros(swapped, {dtype}).mT();
      }
      break;
    case 2: {
      Shape base = sizes;
      const size_t at = static_cast<size_t>(d.below(static_cast<int64_t>(sizes.size())));
      base[at] = 1;
      return zeros(base, {dtype}).expand(sizes);
    }
    case 3: {
      Shape doubled = sizes;
      doubled.back() *= 2;
      return zeros(doubled, {dtype}).slice(-1, 0, std::nullopt, 2);
    }
    default: break;
  }
  return zeros(sizes, {dtype});
}

std::string describe(const Tensor& a, const Tensor& b) {
  return to_string(a.layout()) + " " + std::string(name(a.dtype())) + " @ " +
         to_string(b.layout()) + " " + std::string(name(b.dtype()));
}

}  // namespace

TEST_CASE("matmul_cost predicts every allocation matmul makes") {
  Draw d{12345};
  // bfloat16 and float16 compute in float32, uint8, int8 and int16 in int32 (matmul.cpp): three
  // more tensors per product.
  const DType dtypes[] = {DType::Float32, DType::Float64, DType::Int64, DType::Int32,
                          DType::BFloat16, DType::Float16, DType::Bool, DType::UInt8,
                          DType::Int8, DType::Int16};
  int answered = 0, refused = 0;
  for (int c = 0; c < 3000; ++c) {
    const int64_t dim1 = 1 + d.below(4), dim2 = 1 + d.below(4);
    Shape s1(static_cast<size_t>(dim1)), s2(static_cast<size_t>(dim2));
    for (int64_t& s : s1) s = d.below(4);
    for (int64_t& s : s2) s = d.below(4);
    // Mostly matching inner sizes and broadcastable batches, so most products run.
    if (d.below(8) != 0) s2[s2.size() >= 2 ? s2.size() - 2 : 0] = s1.back();
    for (size_t i = 0; i + 2 < s1.size() && i + 2 < s2.size(); ++i)
      if (d.below(3) != 0) s2[s2.size() - 3 - i] = d.below(2) ? s1[s1.size() - 3 - i] : 1;
    const DType t1 = dtypes[d.below(10)];
    const DType t2 = d.below(10) == 0 ? dtypes[d.below(10)] : t1;
    const Tensor a = operand(s1, t1, d.below(4), d);
    const Tensor b = operand(s2, t2, d.below(4), d);
    const MatmulCost cost = matmul_cost(a, b);
    const int64_t count0 = Storage::allocation_count(), bytes0 = Storage::allocated_bytes();
    try {
      matmul(a, b);
      ++answered;
    } catch (const Error&) {
      ++refused;
    }
    INFO(describe(a, b));
    CHECK(Storage::allocation_count() - count0 == cost.allocations);
    CHECK(Storage::allocated_bytes() - bytes0 == cost.allocated_bytes);
    CHECK(cost.largest <= cost.allocated);
    CHECK(cost.peak <= cost.allocated);
  }
  // The sweep reaches both outcomes often.
  CHECK(answered > 1000);
  CHECK(refused > 100);
}

TEST_CASE("matmul_cost of batched and folded products") {
  // 4 batches of (2,3)·(3,5): the result, 4 BLAS products, nothing copied.
  MatmulCost c = matmul_cost(zeros({4, 2, 3}), zeros({4, 3, 5}));
  CHECK(c.allocations == 1);
  CHECK(c.allocated == 40);
  CHECK(c.products == 4);
  CHECK(c.multiply_adds == 4 * 2 * 3 * 5);
  CHECK(c.blas);
  // A batch broadcast over a batch dim of the other operand that cannot be folded into a view:
  // (4,1,2,3) expanded to (4,5,2,3) and reshaped to (20,2,3) is a copy of 120 elements, and so is
  // (1,5,3,2) expanded to (4,5,3,2) and reshaped to (20,3,2).
  c = matmul_cost(zeros({4, 1, 2, 3}), zeros({1, 5, 3, 2}));
  CHECK(c.allocations == 3);  // both operands copied, and the result
  CHECK(c.allocated == 120 + 120 + 80);
  CHECK(c.written == 240);
  // A batch of matrices times a matrix folds into one product of (8,3)·(3,5).
  c = matmul_cost(zeros({4, 2, 3}, {DType::Int64}), zeros({3, 5}, {DType::Int64}));
  CHECK(c.products == 1);
  CHECK(!c.blas);
  // An empty result of 2^63-1 batches costs its allocation of no elements and nothing else.
  const Tensor a = zeros({1, 0, 1}).expand({INT64_MAX, 0, 1});
  const Tensor b = zeros({1, 1, 0}).expand({INT64_MAX, 1, 0});
  c = matmul_cost(a, b);
  CHECK(c.allocated == 0);
  CHECK(c.products == 0);
  CHECK(matmul(a, b).sizes() == Shape{INT64_MAX, 0, 0});
}
