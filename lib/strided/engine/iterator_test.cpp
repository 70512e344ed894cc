// The plan: output strides as PyTorch infers them, reordering, coalescing and the loops.
// Every expected output layout was printed by PyTorch 1.13 for the same inputs.
#include "strided/engine/iterator.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "strided/engine/ops.h"
#include "strided/engine/parallel.h"

using namespace strided;

namespace {

// A tensor with the given layout over arange values, as torch.as_strided(torch.arange(n), ...).
Tensor strided_arange(Shape sizes, Shape strides, DType dtype = DType::Float32) {
  int64_t n = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) {
      n = 1;
      break;
    }
    n += (sizes[i] - 1) * strides[i];
  }
  Tensor base = arange(n, {dtype});
  return Tensor(base.storage(), sizes, strides, 0, dtype);
}

Tensor random_uniform(Shape sizes) {
  static Generator gen(7);
  return rand(sizes, gen);
}

struct LayoutCase {
  const char* what;
  Tensor result;
  const char* expected;  // torch 1.13's (sizes):(strides)
};

}  // namespace

TEST_CASE("binary and unary outputs get PyTorch's strides (NOTE: [Computing output strides])") {
  const LayoutCase cases[] = {
      // ER-05 / PF-02: equal strides, ties broken by size; not the seed's dim-index order.
      {"overlapping (2,3):(1,1) + 0", strided_arange({2, 3}, {1, 1}) + 0, "(2,3):(1,2)"},
      {"(3,2):(1,1) + 0", strided_arange({3, 2}, {1, 1}) + 0, "(3,2):(2,1)"},
      // ER-10: dense in the first operand's order, not a copy of its strides.
      {"x[...,::2] * y", strided_arange({4, 4, 4}, {32, 8, 2}) * random_uniform({4, 4, 4}),
       "(4,4,4):(16,4,1)"},
      {"broadcast x * permuted y",
       strided_arange({4, 4, 4}, {4, 0, 1}) * strided_arange({4, 4, 4}, {1, 4, 16}),
       "(4,4,4):(16,1,4)"},
      {"permuted y * broadcast x",
       strided_arange({4, 4, 4}, {1, 4, 16}) * strided_arange({4, 4, 4}, {4, 0, 1}),
       "(4,4,4):(1,4,16)"},
      // PF-19: a dense permuted input keeps its permutation; a non-dense one becomes dense.
      {"permute(2,1,0) + 3", random_uniform({8, 8, 8}).permute({2, 1, 0}) + 3, "(8,8,8):(1,8,64)"},
      {"stride-5 slice + 3", strided_arange({8, 8, 8}, {320, 40, 5}) + 3, "(8,8,8):(64,8,1)"},
      {"holes + 3", strided_arange({8, 8, 8}, {256, 32, 1}) + 3, "(8,8,8):(64,8,1)"},
      // The fast path's only difference: strides of size-1 dims (TensorIterator.cpp's NC11).
      {"NC11 + 1 (general path)", strided_arange({2, 3, 1, 1}, {3, 1, 3, 3}) + 1,
       "(2,3,1,1):(3,1,3,3)"},
      {"-NC11 (fast path)", -strided_arange({2, 3, 1, 1}, {3, 1, 3, 3}), "(2,3,1,1):(3,1,1,1)"},
      {"NC11 * NC11 (fast path)",
       strided_arange({2, 3, 1, 1}, {3, 1, 3, 3}) * strided_arange({2, 3, 1, 1}, {3, 1, 3, 3}),
       "(2,3,1,1):(3,1,1,1)"},
      {"channels-last * channels-last",
       strided_arange({2, 3, 4, 5}, {60, 1, 15, 3}) * strided_arange({2, 3, 4, 5}, {60, 1, 15, 3}),
       "(2,3,4,5):(60,1,15,3)"},
      {"channels-last + 1", strided_arange({2, 3, 4, 5}, {60, 1, 15, 3}) + 1,
       "(2,3,4,5):(60,1,15,3)"},
      {"-channels-last", -strided_arange({2, 3, 4, 5}, {60, 1, 15, 3}), "(2,3,4,5):(60,1,15,3)"},
      // Same shapes, different strides: the first operand wins.
      {"t() + contiguous", random_uniform({3, 4}).t() + random_uniform({4, 3}), "(4,3):(1,4)"},
      {"contiguous + t()", random_uniform({4, 3}) + random_uniform({3, 4}).t(), "(4,3):(3,1)"},
      {"t() + t()", random_uniform({3, 4}).t() + random_uniform({3, 4}).t(), "(4,3):(1,4)"},
      // Broadcasting: the operand that is not broadcast along a dim decides it.
      {"(3,1) + (1,4)", random_uniform({3, 1}) + random_uniform({1, 4}), "(3,4):(4,1)"},
      {"(1,4) + (3,1)", random_uniform({1, 4}) + random_uniform({3, 1}), "(3,4):(4,1)"},
      {"(4,1) + (1,3):(1,1)", random_uniform({4, 1}) + random_uniform({3, 1}).t(), "(4,3):(3,1)"},
      {"(3,2):(1,3) + (2,)", random_uniform({2, 3}).t() + random_uniform({2}), "(3,2):(1,3)"},
      {"(2,) + (3,2):(1,3)", random_uniform({2}) + random_uniform({2, 3}).t(), "(3,2):(1,3)"},
      {"(3,1) + (3,4):(1,3)", random_uniform({3, 1}) + random_uniform({4, 3}).t(), "(3,4):(1,3)"},
      {"0-d + (2,3):(1,2)", scalar_tensor(1.0) + random_uniform({3, 2}).t(), "(2,3):(1,2)"},
      {"0-d + 0-d", scalar_tensor(1.0) + scalar_tensor(2.0), "():()"},
      {"(1,1,1) + permuted", random_uniform({1, 1, 1}) + random_uniform({3, 4, 2}).permute({2, 0, 1}),
       "(2,3,4):(1,8,2)"},
      {"(2,1,4) + permuted",
       strided_arange({2, 1, 4}, {4, 4, 1}) + random_uniform({3, 4, 2}).permute({2, 0, 1}),
       "(2,3,4):(4,8,1)"},
      // Size-1 dims keep their place in the order.
      {"(1,3,1,2):(6,1,6,3) + 0", strided_arange({1, 3, 1, 2}, {6, 1, 6, 3}) + 0,
       "(1,3,1,2):(6,1,6,3)"},
      {"(1,3,1,2):(1,2,99,1) + 0", strided_arange({1, 3, 1, 2}, {1, 2, 99, 1}) + 0,
       "(1,3,1,2):(1,2,6,1)"},
      // Mixed dtypes: the converted input (dense, via .to) is what the order sees.
      {"int32 broadcast + float permuted",
       strided_arange({4, 4, 4}, {4, 0, 1}, DType::Int32) + strided_arange({4, 4, 4}, {1, 4, 16}),
       "(4,4,4):(16,4,1)"},
      {"float broadcast + int32 permuted",
       strided_arange({4, 4, 4}, {4, 0, 1}) + strided_arange({4, 4, 4}, {1, 4, 16}, DType::Int32),
       "(4,4,4):(16,1,4)"},
      {"exp of a permuted int64", exp(arange(24).view({2, 3, 4}).permute({2, 0, 1})),
       "(4,2,3):(1,12,4)"},
      {"exp of a broadcast int64", exp(strided_arange({3, 4}, {0, 1}, DType::Int64)),
       "(3,4):(4,1)"},
      // Empty tensors: compatible strides multiply through the 0.
      {"(0,3):(1,0) + 1", random_uniform({3, 0}).t() + 1, "(0,3):(1,0)"},
      {"(2,0,3) permuted + 1", random_uniform({3, 2, 0}).permute({1, 2, 0}) + 1, "(2,0,3):(0,1,0)"},
      // Overlapping and sparse inputs.
      {"unfold(0,3,1) + 0", strided_arange({4, 3}, {1, 1}) + 0, "(4,3):(3,1)"},
      {"(3,2):(4,2) * 2", strided_arange({3, 2}, {4, 2}) * 2, "(3,2):(2,1)"},
  };
  for (const LayoutCase& c : cases) {
    CAPTURE(c.what);
    CHECK(to_string(c.result.layout()) == c.expected);
  }
}

TEST_CASE("PF-18: over all 36 permutation pairs, x * y has x's strides and y * x has y's") {
  const Tensor t1 = random_uniform({4, 4, 4}), t2 = random_uniform({4, 4, 4});
  std::vector<Shape> perms;
  Shape p = {0, 1, 2};
  do perms.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  REQUIRE(perms.size() == 6);
  int checked = 0;
  for (const Shape& p1 : perms)
    for (const Shape& p2 : perms) {
      const Tensor x = t1.permute(p1), y = t2.permute(p2);
      CHECK((p1 == p2) == (x.strides() == y.strides()));
      const Tensor xy = x * y, yx = y * x;
      CHECK(xy.strides() == x.strides());
      CHECK(yx.strides() == y.strides());
      CHECK(xy.to_vector() == yx.to_vector());
      ++checked;
    }
  CHECK(checked == 36);
}

TEST_CASE("plans coalesce what memory allows and keep the rest") {
  SUBCASE("contiguous and permuted dense inputs become one dim") {
    const Tensor x = random_uniform({2, 3, 4});
    const TensorIterator a = binary_plan(BinaryOp::Add, Tensor(), x, Scalar(3));
    CHECK(a.shape() == Shape{24});
    CHECK(a.operand(1).stride_bytes == Shape{4});
    CHECK(a.operand(2).stride_bytes == Shape{0});  // the wrapped 3
    const TensorIterator b = binary_plan(BinaryOp::Add, Tensor(), x.permute({2, 1, 0}), Scalar(3));
    CHECK(b.shape() == Shape{24});
    CHECK(b.perm() == Shape{0, 1, 2});             // the permuted tensor's dim 0 is innermost
    CHECK(b.iteration_order() == Shape{2, 1, 0});  // the reader's loop nest, outermost first
    // The wrapped 3 stays an operand with stride 0, so the plan is not "contiguous" in
    // TensorIterator's sense (has_contiguous_first_dim asks it of every operand); the kernel's
    // scalar-broadcast fast path takes it instead.
    CHECK(!b.is_contiguous());
    CHECK(b.is_inner_contiguous(0));
    CHECK(b.is_inner_contiguous(1));
    CHECK(b.is_scalar(2));
    const TensorIterator c =
        binary_plan(BinaryOp::Add, Tensor(), x.permute({2, 1, 0}), x.permute({2, 1, 0}));
    CHECK(c.shape() == Shape{24});
    CHECK(c.is_contiguous());
  }
  SUBCASE("a stride-2 slice and a stride-5 slice also coalesce: each step is uniform") {
    const TensorIterator a = binary_plan(BinaryOp::Mul, Tensor(),
                                         strided_arange({4, 4, 4}, {32, 8, 2}), random_uniform({4, 4, 4}));
    CHECK(a.shape() == Shape{64});
    CHECK(a.operand(1).stride_bytes == Shape{8});
    CHECK(a.operand(2).stride_bytes == Shape{4});
    CHECK(!a.is_contiguous());
    const TensorIterator b =
        binary_plan(BinaryOp::Add, Tensor(), strided_arange({8, 8, 8}, {320, 40, 5}), Scalar(1));
    CHECK(b.shape() == Shape{512});
    CHECK(b.operand(1).stride_bytes == Shape{20});
  }
  SUBCASE("holes: the inner rows stay apart") {
    const TensorIterator it =
        binary_plan(BinaryOp::Add, Tensor(), strided_arange({8, 8, 8}, {256, 32, 1}), Scalar(1));
    CHECK(it.shape() == Shape{8, 64});
    CHECK(it.operand(0).stride_bytes == Shape{4, 32});
    CHECK(it.operand(1).stride_bytes == Shape{4, 128});
  }
  SUBCASE("mismatched transposes cannot coalesce") {
    const Tensor x = random_uniform({4, 5, 6}), y = random_uniform({6, 5, 4}).permute({2, 1, 0});
    const TensorIterator it = binary_plan(BinaryOp::Mul, Tensor(), x, y);
    CHECK(it.shape() == Shape{6, 5, 4});
    CHECK(it.operand(1).stride_bytes == Shape{4, 24, 120});
    CHECK(it.operand(2).stride_bytes == Shape{80, 16, 4});
    CHECK(it.output().strides() == x.strides());
  }
  SUBCASE("logical order keeps the tensor's dims and walks the permuted tensor by jumps") {
    const Tensor x = random_uniform({2, 3, 4}).permute({2, 1, 0});
    const TensorIterator it = binary_plan(BinaryOp::Add, Tensor(), x, Scalar(3), true);
    CHECK(it.perm() == Shape{2, 1, 0});
    CHECK(it.iteration_order() == Shape{0, 1, 2});
    CHECK(it.shape() == Shape{2, 3, 4});
    CHECK(it.operand(1).stride_bytes == Shape{48, 16, 4});
    CHECK(to_string(it.output().layout()) == "(4,3,2):(6,2,1)");  // the output is contiguous then
  }
  SUBCASE("logical order refuses the fast path for a dense but permuted operand") {
    // compute_fast_setup_type: under enforce_linear_iteration only contiguous operands are fast.
    const Tensor x = random_uniform({2, 3, 4}).permute({2, 1, 0});
    const TensorIterator it = unary_plan(UnaryOp::Neg, Tensor(), x, true);
    CHECK_FALSE(it.perm().empty());
    CHECK(it.iteration_order() == Shape{0, 1, 2});
    CHECK(it.operand(1).stride_bytes == Shape{48, 16, 4});
  }
  SUBCASE("the fast path: one shape, one dense layout") {
    const Tensor x = random_uniform({2, 3, 4}).permute({1, 2, 0});
    const TensorIterator it = unary_plan(UnaryOp::Neg, Tensor(), x);
    CHECK(it.shape() == Shape{24});
    CHECK(it.perm().empty());
    CHECK(it.iteration_order() == Shape{2, 0, 1});
    CHECK(it.output().strides() == x.strides());
  }
  SUBCASE("a 0-d op has no plan dims and one element") {
    const TensorIterator it = binary_plan(BinaryOp::Add, Tensor(), scalar_tensor(2.0), Scalar(1));
    CHECK(it.ndim() == 0);
    CHECK(it.numel() == 1);
    run_binary(BinaryOp::Add, it);  // a plan only allocates; running it writes the output
    CHECK(it.output().dim() == 0);
    CHECK(it.output().item().to_double() == 3.0);
  }
}

TEST_CASE("a reduction plan puts the reduced dims innermost") {
  // The output (2,1) viewed as (2,3) with stride 0 on the reduced dim, as review_reduce_result.
  const Tensor x = random_uniform({3, 2}).t();  // (2,3):(1,2)
  const Tensor out = zeros({2});
  const Tensor viewed(out.storage(), {2, 3}, {1, 0}, 0, DType::Float32);
  const TensorIterator it = TensorIteratorConfig()
                                .add_output(viewed)
                                .add_input(x)
                                .resize_outputs(false)
                                .is_reduction(true)
                                .set_check_mem_overlap(false)
                                .build();
  CHECK(it.perm() == Shape{1, 0});
  CHECK(it.shape() == Shape{3, 2});
  CHECK(it.operand(0).stride_bytes == Shape{0, 4});
  CHECK(it.operand(1).stride_bytes == Shape{8, 4});
}

TEST_CASE("serial_for_each visits every element once, in plan order, from any range") {
  // Three plan dims of odd sizes that cannot coalesce.
  const Tensor x = strided_arange({5, 3, 7}, {1, 40, 6});
  const TensorIterator it = TensorIteratorConfig().add_output(Tensor()).add_input(x).build();
  REQUIRE(it.ndim() == 3);
  const int64_t n = it.numel();
  for (const auto& [b, e] : std::vector<std::pair<int64_t, int64_t>>{
           {0, n}, {0, 1}, {6, 7}, {3, 40}, {13, 14}, {20, n}, {7, 29}}) {
    std::vector<int64_t> offsets;
    int64_t calls = 0;
    it.serial_for_each(
        [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
          ++calls;
          const char* base = it.operand(1).data();
          for (int64_t j = 0; j < n1; ++j)
            for (int64_t i = 0; i < n0; ++i)
              offsets.push_back(data[1] + j * st[3] + i * st[1] - base);
        },
        b, e);
    REQUIRE(static_cast<int64_t>(offsets.size()) == e - b);
    for (int64_t i = b; i < e; ++i) CHECK(offsets[i - b] == it.byte_offset(1, i));
    CHECK(calls >= 1);
  }
}

TEST_CASE("for_each splits the range over threads and covers it exactly") {
  const int before = get_num_threads();
  set_num_threads(3);
  const Tensor x = random_uniform({100, 37});
  const TensorIterator it = TensorIteratorConfig().add_output(Tensor()).add_input(x.t()).build();
  std::vector<int> seen(static_cast<size_t>(it.numel()), 0);
  it.for_each(
      [&](char** data, const int64_t* st, int64_t n0, int64_t n1) {
        const char* base = it.operand(1).data();
        for (int64_t j = 0; j < n1; ++j)
          for (int64_t i = 0; i < n0; ++i) {
            const int64_t elem = (data[1] + j * st[3] + i * st[1] - base) / 4;
            ++seen[static_cast<size_t>(elem)];  // distinct elements: no two threads share one
          }
      },
      /*grain_size=*/100);
  CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
  set_num_threads(before);
}

TEST_CASE("building refuses what PyTorch refuses") {
  const Tensor a = random_uniform({2, 3}), b = random_uniform({3, 2});
  CHECK_THROWS_WITH_AS(binary_plan(BinaryOp::Add, Tensor(), a, b),
                       doctest::Contains("add: broadcast_shapes: The size of tensor a (3) must "
                                         "match the size of tensor b (2) at non-singleton "
                                         "dimension 1"),
                       Error);
  // An in-place output must already have the broadcast shape.
  const Tensor small = zeros({3});
  CHECK_THROWS_WITH_AS(binary_plan(BinaryOp::Add, small, small, zeros({2, 3})),
                       "add: output with shape [3] doesn't match the broadcast shape [2, 3]",
                       Error);
  // A unary plan wants one dtype throughout.
  CHECK_THROWS_WITH_AS(TensorIteratorConfig()
                           .set_op_name("neg")
                           .add_output(zeros({2}, {DType::Int32}))
                           .add_input(zeros({2}))
                           .build(),
                       "neg: Found dtype Int but expected Float", Error);
  // In-place on an integer tensor with a float result.
  const Tensor i = zeros({2}, {DType::Int64});
  CHECK_THROWS_WITH_AS(binary_plan(BinaryOp::Add, i, i, Scalar(2.5)),
                       "add: result type Float can't be cast to the desired output type Long",
                       Error);
}

TEST_CASE("a built plan's operand can be walked backwards and a stand-in input dropped") {
  // flip's use (TensorTransformations.cpp): the stand-in's stride 0 keeps dim 0 from merging with
  // dim 1; then the output walks dim 0 backwards from its last row, and the copy reverses rows.
  const Tensor x = arange(6).view({2, 3}).to(DType::Float32);
  const Tensor out = empty({2, 3});
  TensorIterator it = TensorIteratorConfig()
                          .set_check_mem_overlap(false)
                          .check_all_same_dtype(false)
                          .add_output(out)
                          .add_input(x)
                          .add_input(x.as_strided({2, 3}, {0, 1}))
                          .build();
  REQUIRE(it.shape() == Shape{3, 2});
  Shape strides = it.operand(0).stride_bytes;
  CHECK(strides == Shape{4, 12});
  char* last_row = it.operand(0).data() + strides[1];
  strides[1] = -strides[1];
  it.unsafe_set_arg_strides(0, strides);
  it.unsafe_replace_operand(0, last_row);
  it.remove_operand(2);
  CHECK(it.ntensors() == 2);
  run_copy(it);
  CHECK(out.to_vector() == std::vector<double>{3, 4, 5, 0, 1, 2});
  CHECK_THROWS_AS(it.remove_operand(0), Error);  // an output stays
  CHECK_THROWS_AS(it.unsafe_set_arg_strides(1, Shape{4}), Error);  // one stride a plan dim
}
