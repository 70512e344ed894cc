// The autograd's behaviour, as PyTorch 1.13 shows it (each expected value was read from torch).
#include <doctest/doctest.h>

#include "strided/autograd/autograd.h"
#include "strided/autograd/node.h"
#include "strided/core/error_of.h"
#include "strided/engine/ops.h"

using namespace strided;
using namespace strided::autograd;

namespace {
Variable leaf(std::vector<double> values, IntList sizes, DType dtype = DType::Float32) {
  return Variable(from_values(values, sizes, {dtype}), /*requires_grad=*/true);
}
Variable scalar_leaf(double v) { return leaf({v}, {}); }
}  // namespace

TEST_CASE("a leaf has no grad_fn; a result has one and no grad until retained") {
  Variable x = leaf({1, 2, 3}, {3});
  Variable y = x * x;
  CHECK(x.is_leaf());
  CHECK(x.grad_fn() == nullptr);
  CHECK(!y.is_leaf());
  CHECK(y.grad_fn()->name() == "MulBackward0");
  sum(y).backward();
  CHECK(x.grad().to_vector() == std::vector<double>{2, 4, 6});
  CHECK(!y.grad().defined());
  Variable z = x * x;
  z.retain_grad();
  sum(z).backward();
  CHECK(z.grad().to_vector() == std::vector<double>{1, 1, 1});
  CHECK(x.grad().to_vector() == std::vector<double>{4, 8, 12});  // accumulated
}

TEST_CASE("AG-07: (a+b)·(c+d) saves both sums, the adds save nothing") {
  Variable a = scalar_leaf(1), b = scalar_leaf(2), c = scalar_leaf(3), d = scalar_leaf(4);
  Variable e = (a + b) * (c + d);
  auto nodes = graph_nodes(e);
  REQUIRE(nodes.size() == 3);
  CHECK(nodes[0].name == "MulBackward0");
  REQUIRE(nodes[0].saved.size() == 2);
  CHECK(nodes[0].saved[0].item().to_double() == 7);  // other, for self's gradient
  CHECK(nodes[0].saved[1].item().to_double() == 3);
  CHECK(nodes[1].name == "AddBackward0");
  CHECK(nodes[1].saved.empty());
  CHECK(nodes[2].saved.empty());
  GraphMemory m = graph_memory(e);
  CHECK(m.saved_tensors == 2);
  CHECK(m.intermediates == 2);
  e.backward();
  CHECK(a.grad().item().to_double() == 7);
  CHECK(b.grad().item().to_double() == 7);
  CHECK(c.grad().item().to_double() == 3);
  CHECK(d.grad().item().to_double() == 3);
  CHECK(graph_memory(e).saved_tensors == 0);  // released by backward

  Variable s = (a + b) + (c + d);
  CHECK(graph_memory(s).saved_tensors == 0);
  CHECK(graph_memory(s).intermediates == 2);
}

TEST_CASE("a saved slice keeps its whole storage alive") {
  Variable w(from_values({1, 2, 3, 4, 5, 6, 7, 8}, {8}, {DType::Float64}));
  Variable x = leaf({1, 2}, {2}, DType::Float64);
  Variable y = x * w.slice(0, 0, 2);
  GraphMemory m = graph_memory(y);
  CHECK(m.saved_tensors == 1);
  CHECK(m.saved_bytes == 64);
}

TEST_CASE("only the tensors a formula reads are saved") {
  Variable x = leaf({1, 2}, {2});
  Variable w(from_values({3, 4}, {2}));
  CHECK(graph_nodes(x * w)[0].saved.size() == 1);  // w only: w needs no gradient
  CHECK(graph_nodes(exp(x))[0].saved.size() == 1);  // the result
  CHECK(graph_nodes(sum(x))[0].saved.empty());
  CHECK(graph_nodes(x.t().unsqueeze(0))[0].saved.empty());
}

TEST_CASE("broadcast gradients are summed back to the operand (AG-05)") {
  Variable a = leaf({1, 2}, {1, 2});
  Variable b = leaf({1, 2, 3, 4}, {2, 2});
  sum(a + b).backward();
  CHECK(a.grad().sizes() == Shape{1, 2});
  CHECK(a.grad().to_vector() == std::vector<double>{2, 2});
  CHECK(b.grad().to_vector() == std::vector<double>{1, 1, 1, 1});
  Variable c = leaf({1, 2}, {1, 2});
  sum(c * Variable(from_values({1, 2, 3, 4}, {2, 2}))).backward();
  CHECK(c.grad().to_vector() == std::vector<double>{4, 6});
}

TEST_CASE("an expand's gradient is summed over its stride-0 dims") {
  Variable x = leaf({1, 2, 3}, {3, 1});
  Variable y = x.expand({2, 3, 4});
  CHECK(y.tensor().strides() == Shape{0, 1, 0});
  sum(y).backward();
  CHECK(x.grad().to_vector() == std::vector<double>{8, 8, 8});
}

TEST_CASE("a leaf's grad keeps its strides when it is dense") {
  Variable x(arange(6, {DType::Float32}).view({2, 3}).t(), true);
  sum(x * x).backward();
  CHECK(x.grad().strides() == x.strides());
}

TEST_CASE("cat and split route the gradient back unchanged (AG-06)") {
  Variable a = leaf({0, 0}, {2}), b = leaf({0, 0, 0}, {3});
  Variable y = cat({a, b});
  y.backward(from_values({0, 1, 2, 3, 4}, {5}));
  CHECK(a.grad().to_vector() == std::vector<double>{0, 1});
  CHECK(b.grad().to_vector() == std::vector<double>{2, 3, 4});
  Variable x = leaf({1, 2, 3, 4, 5}, {5});
  auto pieces = split(x, 2);
  REQUIRE(pieces.size() == 3);
  CHECK(pieces[0].grad_fn()->name() == "SplitBackward0");
  sum(pieces[1] * 3.0).backward();
  CHECK(x.grad().to_vector() == std::vector<double>{0, 0, 3, 3, 0});
}

TEST_CASE("unbind's pieces are views and outputs of one node, which refuse an in-place write") {
  Variable x = leaf({1, 2, 3, 4, 5, 6}, {6}, DType::Float64);
  Variable y = x * 1.0;
  auto rows = unbind(y.view({2, 3}), 0);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].grad_fn()->name() == "UnbindBackward0");
  CHECK(rows[1].output_nr() == 1);
  CHECK(error_of([&] { mul_(rows[1], 2.0); }) ==
        "Output 1 of UnbindBackward0 is a view and is being modified inplace. This view is the "
        "output of a function that returns multiple views. Such functions do not allow the output "
        "views to be modified inplace. You should replace the inplace operation by an out-of-place "
        "one.");
  sum(rows[1] * 2.0).backward();
  CHECK(x.grad().to_vector() == std::vector<double>{0, 0, 0, 2, 2, 2});
}

TEST_CASE("the version counter refuses a backward that saved a tensor written since") {
  Variable x = leaf({1, 2, 3}, {3});
  Variable a = exp(x);
  Variable b = a * 1.0;
  mul_(a, 2.0);
  CHECK(a.version() == 1);
  CHECK(error_of([&] { sum(b).backward(); }) ==
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [3]], which is output 0 of ExpBackward0, is at version 1; "
        "expected version 0 instead. Hint: enable anomaly detection to find the operation that "
        "failed to compute its gradient, with torch.autograd.set_detect_anomaly(True).");
}

TEST_CASE("a write through another view of the storage is seen too") {
  Variable y(from_values({1, 2, 3}, {3}));
  Variable x = leaf({1, 2, 3}, {3});
  Variable z = x * y;
  add_(y.view({3}).slice(0, 0, 2), 1.0);
  CHECK(y.version() == 1);
  CHECK(error_of([&] { sum(z).backward(); }) ==
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [3]] is at version 1; expected version 0 instead. Hint: "
        "enable anomaly detection to find the operation that failed to compute its gradient, "
        "with torch.autograd.set_detect_anomaly(True).");
}

TEST_CASE("a leaf that requires grad refuses an in-place write, unless grad mode is off") {
  Variable x = leaf({1, 2, 3}, {3});
  CHECK(error_of([&] { add_(x, 1.0); }) ==
        "a leaf Variable that requires grad is being used in an in-place operation.");
  CHECK(error_of([&] { add_(x.slice(0, 0, 2), 1.0); }) ==
        "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  {
    NoGradGuard guard;
    add_(x, 1.0);
  }
  CHECK(x.version() == 1);
  CHECK(x.tensor().to_vector() == std::vector<double>{2, 3, 4});
}

TEST_CASE("an in-place op on a view rebases the base on CopySlices") {
  Variable x = leaf({1, 2, 3}, {3}, DType::Float64);
  Variable a = exp(x);
  Variable v = a.slice(0, 1);
  CHECK(v.grad_fn()->name() == "SliceBackward0");
  mul_(v, 2.0);
  CHECK(a.grad_fn()->name() == "torch::autograd::CopySlices");
  CHECK(v.grad_fn()->name() == "AsStridedBackward0");
  CHECK(error_of([&] { sum(a).backward(); }).find("output 0 of ExpBackward0, is at version 1") !=
        std::string::npos);

  Variable x2 = leaf({1, 2, 3}, {3}, DType::Float64);
  Variable a2 = x2 * 1.0;
  mul_(a2.slice(0, 1), 2.0);
  sum(a2).backward();
  CHECK(x2.grad().to_vector() == std::vector<double>{1, 2, 2});
}

TEST_CASE("detach shares data and version, no_grad records nothing") {
  Variable x = leaf({1, 2, 3}, {3});
  Variable d = x.detach();
  CHECK(!d.requires_grad());
  CHECK(d.tensor().storage().is_same(x.tensor().storage()));
  add_(d, 1.0);
  CHECK(x.version() == 1);
  NoGradGuard guard;
  Variable z = x * 2.0;
  CHECK(!z.requires_grad());
  CHECK(z.grad_fn() == nullptr);
}

TEST_CASE("backward's own errors are PyTorch's") {
  Variable x = leaf({1, 2, 3}, {3});
  Variable y = x * x;
  sum(y).backward();
  CHECK(error_of([&] { sum(y).backward(); }) ==
        "Trying to backward through the graph a second time (or directly access saved tensors "
        "after they have already been freed). Saved intermediate values of the graph are freed "
        "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
        "backward through the graph a second time or if you need to access saved tensors after "
        "calling backward.");
  CHECK(error_of([] { Variable(ones({2})).backward(); }) ==
        "element 0 of tensors does not require grad and does not have a grad_fn");
  CHECK(error_of([&] { (x * 2.0).backward(); }) ==
        "grad can be implicitly created only for scalar outputs");
  CHECK(error_of([&] { (x * x).backward(ones({2})); }) ==
        "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a "
        "shape of torch.Size([3]).");
  // Made with requires_grad=True and asked by requires_grad_(), PyTorch words it two ways.
  CHECK(error_of([] { Variable(arange(3), true); }) ==
        "Only Tensors of floating point and complex dtype can require gradients");
  CHECK(error_of([] { Variable(arange(3)).requires_grad_(); }) ==
        "only Tensors of floating point dtype can require gradients");
  for (DType narrow : {DType::UInt8, DType::Int8, DType::Int16}) {  // torch: requires_grad_()
    CAPTURE(name(narrow));
    CHECK(error_of([&] { Variable(zeros({2}, {narrow}), true); }) ==
          "Only Tensors of floating point and complex dtype can require gradients");
    CHECK(error_of([&] { Variable(zeros({2}, {narrow})).requires_grad_(); }) ==
          "only Tensors of floating point dtype can require gradients");
  }
  Variable r = x * x;
  sum(r).backward(Tensor(), /*retain_graph=*/true);
  sum(r).backward();  // the graph was kept once
}

TEST_CASE("AG-09: a graph of scalars gives the tensor graph's gradients") {
  const std::vector<double> xs{0.5, -1.0, 2.0}, ws{1.0, 2.0, 3.0};
  Variable x = leaf(xs, {3}, DType::Float64);
  Variable w(from_values(ws, {3}, {DType::Float64}));
  sum(x * x * w + exp(x)).backward();
  for (size_t i = 0; i < xs.size(); ++i) {
    Variable xi = leaf({xs[i]}, {}, DType::Float64);
    Variable wi(from_values({ws[i]}, {}, {DType::Float64}));
    (xi * xi * wi + exp(xi)).backward();
    CHECK(xi.grad().item().to_double() ==
          doctest::Approx(x.grad().to_vector()[i]).epsilon(1e-15));
  }
}

TEST_CASE("an in-place write to one of split's views is refused under autograd, as PyTorch's") {
  Variable x(arange(6, {DType::Float32}));
  x.requires_grad_();
  Variable y = x * 1.0;
  std::vector<Variable> pieces = split(y, 4);
  CHECK_THROWS_WITH(mul_(pieces[1], 2.0),
                    doctest::Contains("Output 1 of SplitBackward0 is a view and is being modified "
                                      "inplace. This view is the output of a function that returns "
                                      "multiple views."));
  {
    NoGradGuard no_grad;
    mul_(pieces[0], 2.0);  // recorded by nothing: allowed
  }
  // The node named is the one that made the view, also after a write to its base.
  CHECK_THROWS_WITH(mul_(pieces[1], 2.0), doctest::Contains("Output 1 of SplitBackward0"));
  // Pieces made without grad mode, or of a tensor that needs no gradient, may be written.
  std::vector<Variable> plain = split(Variable(zeros({4})), 2);
  CHECK_NOTHROW(mul_(plain[0], 2.0));
  std::vector<Variable> quiet;
  {
    NoGradGuard no_grad;
    quiet = split(y, 3);
  }
  CHECK_NOTHROW(mul_(quiet[0], 2.0));
}
