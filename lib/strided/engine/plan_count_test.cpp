// One plan for every walk: each op below builds exactly one TensorIterator plan (iterator.h's
// plans_built counts the builds), and walks its tensors through it. The engine's ops are listed
// here one by one; tools/explore/plan_count_test.cpp counts the plans of every op of the
// explorer's list (chain_ops()), and fails on an op of that list with no count. Inputs are made before the
// count starts; their layouts are chosen so that no op can answer without walking (a contiguous()
// of a contiguous tensor, or a to() to its own dtype, returns the tensor itself and walks nothing).
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "strided/engine/iterator.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"
#include "strided/tensor/tensor.h"

using namespace strided;

namespace {

// The plans f builds.
int64_t plans_of(const std::function<void()>& f) {
  const int64_t before = plans_built();
  f();
  return plans_built() - before;
}

}  // namespace

TEST_CASE("plans_built counts every build, failed ones included") {
  const Tensor x = arange(6).view({2, 3});
  CHECK(plans_of([&] { TensorIteratorConfig().add_output(Tensor()).add_input(x).build(); }) == 1);
  CHECK(plans_of([&] {
          CHECK_THROWS_AS(
              TensorIteratorConfig().add_output(Tensor()).add_input(x).add_input(arange(4)).build(),
              Error);
        }) == 1);
  CHECK(plans_of([] {}) == 0);
}

TEST_CASE("each op builds exactly one plan") {
  Generator gen(16);
  const Tensor x = rand({4, 6}, gen);
  const Tensor y = rand({4, 6}, gen);
  const Tensor i32 = x.to(DType::Int32);
  const Tensor xt = x.t();  // not contiguous: contiguous() and the reductions must walk it
  const Tensor s0 = scalar_tensor(Scalar(2.0));
  Tensor dst = empty({6, 4});
  const std::vector<int64_t> rows = {3, 0}, cols = {1, 5};
  struct Case {
    const char* op;
    std::function<void()> run;
  };
  const std::vector<Case> cases = {
      {"add", [&] { add(x, y); }},
      {"mul", [&] { mul(x, xt.t()); }},
      {"add with a Scalar", [&] { add(x, Scalar(3.0)); }},
      {"neg", [&] { neg(xt); }},
      {"copy_", [&] { dst.copy_(xt); }},
      {"contiguous", [&] { xt.contiguous(); }},
      {"clone", [&] { xt.clone(); }},
      {"to", [&] { xt.to(DType::Float64); }},
      {"fill_", [&] { dst.fill_(Scalar(1.0)); }},
      {"repeat", [&] { x.repeat({2, 1, 3}); }},
      {"index_select", [&] { xt.index_select(0, {5, 0, 2}); }},
      {"flip", [&] { xt.flip({0}); }},
      {"flip of dims that merge", [&] { x.flip({0, 1}); }},
      {"flip of no dim (a copy)", [&] { xt.flip({}); }},
      {"index", [&] { xt.index({std::vector<int64_t>{5, 0, 2}}); }},
      {"index of two dims", [&] { x.index({rows, cols}); }},
      {"index_put_", [&] { dst.index_put_({{1, 0}}, y.t().slice(0, 0, 2)); }},
      {"index_put_ with accumulate", [&] { dst.index_put_({{1, 1}}, y.t().slice(0, 0, 2), true); }},
      {"index_select of a 0-d tensor", [&] { s0.index_select(0, {0}); }},
      {"sum over a dim", [&] { sum(xt, 0); }},
      {"sum over a dim, keepdim", [&] { sum(x, 1, true); }},
      {"sum over all", [&] { sum(xt); }},
      {"max over a dim", [&] { max(xt, 1); }},
      {"max over all", [&] { max(xt); }},
      {"min over a dim", [&] { min(x, 0); }},
      {"min over all", [&] { min(x); }},
      {"argmax over a dim", [&] { argmax(xt, 0); }},
      {"argmin over all of a tensor that views as 1-d", [&] { argmin(x); }},
      {"sum of an int32 tensor (int64 result)", [&] { sum(i32, 0); }},
  };
  for (const Case& c : cases) {
    INFO(std::string(c.op));
    CHECK(plans_of(c.run) == 1);
  }
}

TEST_CASE("the ops that are two ops in PyTorch build two plans") {
  Generator gen(16);
  const Tensor x = rand({4, 6}, gen);
  // ReduceOps.cpp, mean_out: sum, then div_ by the count.
  CHECK(plans_of([&] { mean(x, 0); }) == 2);
  // ReduceOps.cpp, argmax_out: the reduction of self.reshape(-1), a copy when no view exists.
  CHECK(plans_of([&] { argmax(x.t()); }) == 2);
  // Nothing to walk: a max with an empty result has nothing to fill.
  CHECK(plans_of([&] { max(zeros({0, 3}), 1); }) == 0);
}
