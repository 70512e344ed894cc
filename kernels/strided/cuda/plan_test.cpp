// The plan the CUDA element-wise kernels receive: TensorIterator's, built from the CPU op's own
// configuration and serialised for the device. Built here over CPU tensors of the layouts the
// GPU ops see (plan.h touches no device), so it runs on every machine: the seed's layouts, PyTorch's
// ordering and output strides (verified on PyTorch 1.13, claims PF-02, PF-18, ER-05, ER-10),
// coalescing, and that chapter 6's sector model counts this very plan.
#include "strided/cuda/plan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>

#include "strided/cuda/offset_calculator.h"
#include "strided/layout/layout.h"
#include "strided/models/models.h"

using namespace strided;
using namespace strided::cuda;

namespace {

// A float32 CPU tensor of the given sizes and element strides (0 allowed) over fresh memory.
Tensor strided_tensor(IntList sizes, IntList strides) {
  int64_t span = 1;
  for (size_t d = 0; d < sizes.size(); ++d) span += (sizes[d] - 1) * strides[d];
  return empty({std::max<int64_t>(span, 1)}).as_strided(sizes, strides);
}

// What the CUDA op builds for inputs with these element strides: one input is x + 3 (the scalar
// is passed by value), two are x * y. The output is allocated by the plan.
struct Planned {
  TensorIterator it;
  ElementwisePlan plan;
  Shape out_strides() const { return it.output().strides(); }
};
Planned plan_for(IntList sizes, const std::vector<Shape>& inputs) {
  const Tensor a = strided_tensor(sizes, inputs[0]);
  TensorIterator it =
      inputs.size() == 1
          ? binary_plan("cuda::add", BinaryOp::Add, Tensor(), a, 3.0f)
          : binary_plan("cuda::mul", BinaryOp::Mul, Tensor(), a, strided_tensor(sizes, inputs[1]));
  ElementwisePlan plan = from_iterator(it);
  return {std::move(it), std::move(plan)};
}

// The byte offsets from operand k's first element that the strided kernel's threads 0, 1, ...
// compute: its offset calculator over the serialised plan.
std::vector<int64_t> kernel_offsets(const ElementwisePlan& p, size_t k) {
  const auto calc = make_offset_calculator<1, uint64_t>(p.sizes, {IntList(p.byte_strides[k])}, "test");
  std::vector<int64_t> out;
  for (int64_t i = 0; i < p.numel; ++i) out.push_back(calc.get(static_cast<uint64_t>(i))[0]);
  return out;
}

// Chapter 6's sector model over the CPU op's plan (models::plan_trace of binary_plan, as the
// chapter writes it) against the kernel's offsets over the plan the CUDA op launches: same walk,
// operand by operand, and the same sectors per warp request.
void check_model_counts_kernel(const TensorIterator& model, const TensorIterator& cuda_plan) {
  const ElementwisePlan dev = from_iterator(cuda_plan);
  const ElementwisePlan cpu = from_iterator(model);
  CHECK(dev.sizes == cpu.sizes);
  CHECK(dev.byte_strides == cpu.byte_strides);
  CHECK(dev.scalars == cpu.scalars);
  CHECK(cuda_plan.output().strides() == model.output().strides());
  size_t tensor_k = 0;
  for (int k = 0; k < model.ntensors(); ++k) {
    if (model.operand(k).wrapped_number) continue;
    const models::Trace trace = models::plan_trace(model, k);
    const int64_t base = model.operand(k).tensor.storage_offset() * trace.width;
    models::Trace kernel{kernel_offsets(dev, tensor_k), trace.width};
    for (int64_t& b : kernel.bytes) b += base;
    CHECK(kernel.bytes == trace.bytes);
    CHECK(models::warp_sectors(kernel).sectors == models::warp_sectors(trace).sectors);
    ++tensor_k;
  }
  CHECK(tensor_k == dev.byte_strides.size());
}

}  // namespace

TEST_CASE("chapter 6's GPU sector model counts the plan the CUDA kernel is given") {
  Generator gen(6);
  const Tensor cube = rand({8, 8, 8}, gen);
  SUBCASE("x + 3 on a permuted cube") {
    const Tensor p = cube.permute({2, 1, 0});
    check_model_counts_kernel(binary_plan(BinaryOp::Add, Tensor(), p, Scalar(3.0)),
                              binary_plan("cuda::add", BinaryOp::Add, Tensor(), p, 3.0f));
  }
  SUBCASE("x + 3 on a stride-5 slice") {
    const Tensor s = rand({8, 8, 8, 5}, gen).select(3, 0);
    check_model_counts_kernel(binary_plan(BinaryOp::Add, Tensor(), s, Scalar(3.0)),
                              binary_plan("cuda::add", BinaryOp::Add, Tensor(), s, 3.0f));
  }
  SUBCASE("x * y.t()") {
    const Tensor x = rand({16, 16}, gen), y = rand({16, 16}, gen);
    check_model_counts_kernel(binary_plan(BinaryOp::Mul, Tensor(), x, y.t()),
                              binary_plan("cuda::mul", BinaryOp::Mul, Tensor(), x, y.t()));
  }
  SUBCASE("a copy into a transposed destination") {
    const Tensor dst = empty({8, 8}).t();
    check_model_counts_kernel(copy_plan(dst, cube.select(0, 1)),
                              copy_plan("cuda::copy_", dst, cube.select(0, 1)));
  }
}

TEST_CASE("a contiguous tensor and its permute(2,1,0) walk as one flat run") {
  // Seed In[14]: t_contig.add(3) and t_contig.permute(2,1,0).add(3), at 8^3.
  const Planned c = plan_for({8, 8, 8}, {{64, 8, 1}});
  CHECK(c.out_strides() == Shape{64, 8, 1});
  CHECK(c.plan.sizes == Shape{512});
  CHECK(c.plan.byte_strides == std::vector<Shape>{{4}, {4}});
  CHECK(c.plan.scalars == std::vector<double>{3.0});
  CHECK(c.plan.is_flat(4));

  const Planned p = plan_for({8, 8, 8}, {{1, 8, 64}});
  CHECK(p.out_strides() == Shape{1, 8, 64});  // the output keeps the permutation (PF-19)
  CHECK(p.plan.sizes == Shape{512});
  CHECK(p.plan.is_flat(4));
}

TEST_CASE("the stride-5 slice coalesces into one run with a 20-byte step") {
  // rand(8,8,8,5)[..., 0]: strides (320, 40, 5); the output is dense (64, 8, 1) (PF-19).
  const Planned p = plan_for({8, 8, 8}, {{320, 40, 5}});
  CHECK(p.out_strides() == Shape{64, 8, 1});
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
  CHECK(p.out_strides() == Shape{64, 8, 1});
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
      const Layout x = permute_geometry(Layout(sizes, contiguous_strides(sizes)), p1);
      const Layout y = permute_geometry(Layout(sizes, contiguous_strides(sizes)), p2);
      CHECK(plan_for(x.sizes(), {x.strides(), y.strides()}).out_strides() == x.strides());
      CHECK(plan_for(y.sizes(), {y.strides(), x.strides()}).out_strides() == y.strides());
      ++pairs;
    } while (std::next_permutation(p2.begin(), p2.end()));
  } while (std::next_permutation(p1.begin(), p1.end()));
  CHECK(pairs == 36);
}

TEST_CASE("ER-10: outputs are dense in the first operand's order, not copies of its strides") {
  // x = rand(4,4,8)[..., ::2] (strides (32,8,2)) times a contiguous y gives (16,4,1).
  CHECK(plan_for({4, 4, 4}, {{32, 8, 2}, {16, 4, 1}}).out_strides() == Shape{16, 4, 1});
  // A broadcast x (4,0,1) times a permuted y (1,4,16): x decides where it can, y breaks the
  // stride-0 comparisons, giving (16,1,4).
  CHECK(plan_for({4, 4, 4}, {{4, 0, 1}, {1, 4, 16}}).out_strides() == Shape{16, 1, 4});
}

TEST_CASE("PF-02 / ER-05: equal strides put the smaller dim inside") {
  // The overlapping view as_strided((2,3), (1,1)) + 3 gets output strides (1,2) in PyTorch.
  CHECK(plan_for({2, 3}, {{1, 1}}).out_strides() == Shape{1, 2});
}

TEST_CASE("broadcast operands coalesce only where every operand agrees") {
  // (4,1,3) * (1,5,1) -> (4,5,3): no two dims merge for all operands.
  const Planned p = plan_for({4, 5, 3}, {{3, 0, 1}, {0, 1, 0}});
  CHECK(p.out_strides() == Shape{15, 3, 1});
  CHECK(p.plan.sizes == Shape{3, 5, 4});
  CHECK(p.plan.byte_strides == std::vector<Shape>{{4, 12, 60}, {4, 0, 12}, {0, 4, 0}});
}

TEST_CASE("size-1 dims vanish whatever their stride") {
  const Planned p = plan_for({3, 1, 4}, {{4, 999, 1}, {4, 0, 1}});
  CHECK(p.plan.sizes == Shape{12});
  CHECK(p.plan.is_flat(4));
}

TEST_CASE("0-d and empty plans") {
  const Planned scalar = plan_for({}, {Shape{}, Shape{}});
  CHECK(scalar.plan.numel == 1);
  CHECK(scalar.plan.sizes.empty());
  CHECK(scalar.plan.is_flat(4));
  CHECK(plan_for({3, 0}, {{1, 1}}).plan.numel == 0);
}

TEST_CASE("a given output is written where it is, and errors name the CUDA op") {
  const Tensor x = strided_tensor({4, 3}, {3, 1});
  const Tensor out = strided_tensor({4, 3}, {1, 4});
  const ElementwisePlan p = from_iterator(binary_plan("cuda::add_out", BinaryOp::Add, out, x, x));
  CHECK(p.data[0] == static_cast<char*>(out.data_ptr()));
  CHECK(p.byte_strides.size() == 3);
  CHECK_THROWS_WITH_AS(binary_plan("cuda::add_out", BinaryOp::Add, empty({3, 4}), x, x),
                       "cuda::add_out: output with shape [3, 4] doesn't match the broadcast shape "
                       "[4, 3]",
                       Error);
}
