// The element-wise plan the CUDA kernels walk: the seed's layouts, PyTorch's ordering and output
// strides (verified on PyTorch 1.13, claims PF-02, PF-18, ER-05, ER-10), and coalescing.
#include "strided/cuda/plan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "strided/layout.h"

using namespace strided;
using namespace strided::cuda;

namespace {

Shape bytes(Shape s, int64_t item = 4) {
  for (auto& x : s) x *= item;
  return s;
}

// The plan of an output allocated for inputs with the given element strides, as elementwise.cpp
// builds it: order with the output skipped, allocate, then plan all operands.
struct Planned {
  Shape out_strides;
  ElementwisePlan plan;
};
Planned plan_for(const Shape& sizes, const std::vector<Shape>& inputs) {
  std::vector<Shape> with_out{Shape{}};
  with_out.insert(with_out.end(), inputs.begin(), inputs.end());
  const Shape order = iteration_order(sizes, with_out);
  Planned p;
  p.out_strides = output_strides_for_order(sizes, order);
  std::vector<Shape> all{p.out_strides}, b{bytes(p.out_strides)};
  for (const Shape& s : inputs) {
    all.push_back(s);
    b.push_back(bytes(s));
  }
  p.plan = make_elementwise_plan(sizes, b, iteration_order(sizes, all));
  return p;
}

}  // namespace

TEST_CASE("a contiguous tensor and its permute(2,1,0) walk as one flat run") {
  // Seed In[14]: t_contig.add(3) and t_contig.permute(2,1,0).add(3), at 8^3.
  const Planned c = plan_for({8, 8, 8}, {{64, 8, 1}});
  CHECK(c.out_strides == Shape{64, 8, 1});
  CHECK(c.plan.sizes == Shape{512});
  CHECK(c.plan.byte_strides == std::vector<Shape>{{4}, {4}});
  CHECK(c.plan.is_flat(4));

  const Planned p = plan_for({8, 8, 8}, {{1, 8, 64}});
  CHECK(p.out_strides == Shape{1, 8, 64});  // the output keeps the permutation (PF-19)
  CHECK(p.plan.sizes == Shape{512});
  CHECK(p.plan.is_flat(4));
}

TEST_CASE("the stride-5 slice coalesces into one run with a 20-byte step") {
  // rand(8,8,8,5)[..., 0]: strides (320, 40, 5); the output is dense (64, 8, 1) (PF-19).
  const Planned p = plan_for({8, 8, 8}, {{320, 40, 5}});
  CHECK(p.out_strides == Shape{64, 8, 1});
  CHECK(p.plan.sizes == Shape{512});
  CHECK(p.plan.byte_strides == std::vector<Shape>{{4}, {20}});
  CHECK_FALSE(p.plan.is_flat(4));
}

TEST_CASE("holes between rows keep the rows as the inner dim") {
  // rand(8,8,4,8)[..., 0, :]: strides (256, 32, 1). Rows of 8 floats, 128 bytes apart.
  const Planned p = plan_for({8, 8, 8}, {{256, 32, 1}});
  CHECK(p.plan.sizes == Shape{8, 64});
  CHECK(p.plan.byte_strides == std::vector<Shape>{{4, 32}, {4, 128}});
}

TEST_CASE("x * y.transpose(0,2): the first operand decides the order") {
  // Seed In[17]. The output follows x; y is walked against its layout.
  const Planned p = plan_for({8, 8, 8}, {{64, 8, 1}, {1, 8, 64}});
  CHECK(p.out_strides == Shape{64, 8, 1});
  CHECK(p.plan.sizes == Shape{8, 8, 8});
  CHECK(p.plan.byte_strides[2] == Shape{256, 32, 4});
}

TEST_CASE("output strides follow the first operand for all 36 permutation pairs (PF-18)") {
  const Shape sizes = {4, 4, 4};
  Shape p1 = {0, 1, 2};
  int pairs = 0;
  do {
    Shape p2 = {0, 1, 2};
    do {
      const Geometry x = permute_geometry(sizes, contiguous_strides(sizes), p1);
      const Geometry y = permute_geometry(sizes, contiguous_strides(sizes), p2);
      CHECK(plan_for(x.sizes, {x.strides, y.strides}).out_strides == x.strides);
      CHECK(plan_for(y.sizes, {y.strides, x.strides}).out_strides == y.strides);
      ++pairs;
    } while (std::next_permutation(p2.begin(), p2.end()));
  } while (std::next_permutation(p1.begin(), p1.end()));
  CHECK(pairs == 36);
}

TEST_CASE("ER-10: outputs are dense in the first operand's order, not copies of its strides") {
  // x = rand(4,4,8)[..., ::2] (strides (32,8,2)) times a contiguous y gives (16,4,1).
  CHECK(plan_for({4, 4, 4}, {{32, 8, 2}, {16, 4, 1}}).out_strides == Shape{16, 4, 1});
  // A broadcast x (4,0,1) times a permuted y (1,4,16): x decides where it can, y breaks the
  // stride-0 comparisons, giving (16,1,4).
  CHECK(plan_for({4, 4, 4}, {{4, 0, 1}, {1, 4, 16}}).out_strides == Shape{16, 1, 4});
}

TEST_CASE("PF-02 / ER-05: equal strides put the smaller dim inside") {
  // The overlapping view as_strided((2,3), (1,1)) + 0 gets output strides (1,2) in PyTorch.
  CHECK(plan_for({2, 3}, {{1, 1}, {0, 0}}).out_strides == Shape{1, 2});
}

TEST_CASE("broadcast operands coalesce only where every operand agrees") {
  // (4,1,3) + (1,5,1) -> (4,5,3): no two dims merge for all operands.
  const Planned p = plan_for({4, 5, 3}, {{3, 0, 1}, {0, 1, 0}});
  CHECK(p.out_strides == Shape{15, 3, 1});
  CHECK(p.plan.sizes == Shape{3, 5, 4});
  CHECK(p.plan.byte_strides == std::vector<Shape>{{4, 12, 60}, {4, 0, 12}, {0, 4, 0}});
}

TEST_CASE("size-1 dims vanish whatever their stride") {
  const ElementwisePlan p =
      make_elementwise_plan({3, 1, 4}, {bytes({4, 999, 1}), bytes({4, 0, 1})}, Shape{2, 1, 0});
  CHECK(p.sizes == Shape{12});
  CHECK(p.is_flat(4));
}

TEST_CASE("0-d and empty plans") {
  const ElementwisePlan scalar = make_elementwise_plan({}, {Shape{}, Shape{}}, Shape{});
  CHECK(scalar.numel == 1);
  CHECK(scalar.sizes.empty());
  CHECK(scalar.is_flat(4));
  const ElementwisePlan empty = make_elementwise_plan({3, 0}, {bytes({1, 1})}, Shape{1, 0});
  CHECK(empty.numel == 0);
}
