// Every backward formula against finite differences, in float64 (torch.autograd.gradcheck's
// method): for L = Σ f(x)·w with a fixed random w, each element of each input is moved by ±h and
// (L(x+h) − L(x−h)) / 2h must equal the gradient backward gives, to 1e-6.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>

#include "strided/autograd/autograd.h"
#include "strided/engine/ops.h"

using namespace strided;
using namespace strided::autograd;

namespace {
using Fn = std::function<Variable(const std::vector<Variable>&)>;

struct Case {
  std::string name;
  std::vector<Shape> inputs;
  Fn f;
  bool positive = false;  // inputs in [0.5, 1.5) (log, pow with a tensor exponent)
};

double loss(const Fn& f, const std::vector<Variable>& xs, const Tensor& w) {
  NoGradGuard guard;
  Tensor y = f(xs).tensor();
  double total = 0;
  std::vector<double> yv = y.contiguous().to_vector(), wv = w.to_vector();
  for (size_t i = 0; i < yv.size(); ++i) total += yv[i] * wv[i];
  return total;
}

void check_gradients(const Case& c) {
  CAPTURE(c.name);
  Generator gen(7);
  std::vector<Variable> xs;
  for (const Shape& s : c.inputs) {
    Tensor t = rand(s, gen, {DType::Float64});
    t = c.positive ? strided::add(t, 0.5) : strided::sub(strided::mul(t, 2.0), 1.0);
    xs.emplace_back(t, true);
  }
  Variable y = c.f(xs);
  Tensor w = rand(y.sizes(), gen, {DType::Float64});
  y.backward(w);
  const double h = 1e-6;
  for (size_t k = 0; k < xs.size(); ++k) {
    Tensor x = xs[k].tensor();
    std::vector<double> analytic = xs[k].grad().contiguous().to_vector();
    REQUIRE(analytic.size() == static_cast<size_t>(x.numel()));
    Shape index(x.dim(), 0);
    for (int64_t e = 0; e < x.numel(); ++e) {
      int64_t rest = e;
      for (int64_t d = x.dim() - 1; d >= 0; --d) {
        index[d] = rest % x.size(d);
        rest /= x.size(d);
      }
      const double v = x.at(index).to_double();
      x.set(index, v + h);
      const double up = loss(c.f, xs, w);
      x.set(index, v - h);
      const double down = loss(c.f, xs, w);
      x.set(index, v);
      const double numeric = (up - down) / (2 * h);
      CAPTURE(k);
      CAPTURE(e);
      CHECK(analytic[static_cast<size_t>(e)] == doctest::Approx(numeric).epsilon(1e-6).scale(1));
    }
  }
}

Variable id(const Variable& x) { return x * 1.0; }  // a non-leaf to write into

std::vector<Case> cases() {
  using V = const std::vector<Variable>&;
  return {
      {"add broadcast", {{2, 3}, {3}}, [](V x) { return add(x[0], x[1], 2.0); }},
      {"add scalar", {{3}}, [](V x) { return x[0] + 2.0; }},
      {"sub broadcast", {{2, 1}, {3}}, [](V x) { return sub(x[0], x[1], 3.0); }},
      {"mul broadcast", {{2, 3}, {2, 1}}, [](V x) { return x[0] * x[1]; }},
      {"mul self", {{3}}, [](V x) { return x[0] * x[0]; }},
      {"div", {{2, 3}, {3}}, [](V x) { return x[0] / x[1]; }, true},
      {"neg", {{4}}, [](V x) { return -x[0]; }},
      {"pow scalar", {{4}}, [](V x) { return pow(x[0], 3.0); }},
      {"pow tensor", {{2, 2}, {2}}, [](V x) { return pow(x[0], x[1]); }, true},
      {"exp", {{2, 2}}, [](V x) { return exp(x[0]); }},
      {"log", {{3}}, [](V x) { return log(x[0]); }, true},
      {"clone", {{2, 3}}, [](V x) { return clone(x[0].t()); }},
      {"sum", {{2, 3}}, [](V x) { return sum(x[0]); }},
      {"sum dims", {{2, 3, 4}}, [](V x) { return sum(x[0], {0, 2}); }},
      {"sum keepdim", {{2, 3}}, [](V x) { return sum(x[0], {-1}, true); }},
      {"mean", {{2, 3}}, [](V x) { return mean(x[0]); }},
      {"mean dims", {{2, 3, 4}}, [](V x) { return mean(x[0], {1}, true); }},
      {"dot", {{3}, {3}}, [](V x) { return matmul(x[0], x[1]); }},
      {"mv", {{2, 3}, {3}}, [](V x) { return matmul(x[0], x[1]); }},
      {"vm", {{3}, {3, 2}}, [](V x) { return matmul(x[0], x[1]); }},
      {"mm", {{2, 3}, {3, 2}}, [](V x) { return matmul(x[0], x[1]); }},
      {"bmm broadcast", {{2, 2, 3}, {3, 2}}, [](V x) { return matmul(x[0], x[1]); }},
      {"matmul batch by vector", {{3}, {2, 3, 2}}, [](V x) { return matmul(x[0], x[1]); }},
      {"matmul transposed", {{3, 2}, {3, 2}}, [](V x) { return matmul(x[0].t(), x[1]); }},
      {"view", {{2, 3}}, [](V x) { return x[0].view({3, 2}); }},
      {"reshape view", {{2, 3}}, [](V x) { return x[0].reshape({6}); }},
      {"reshape copy", {{2, 3}}, [](V x) { return x[0].t().reshape({6}); }},
      {"permute", {{2, 3, 4}}, [](V x) { return x[0].permute({2, 0, 1}); }},
      {"transpose", {{2, 3, 4}}, [](V x) { return x[0].transpose(0, 2); }},
      {"t", {{2, 3}}, [](V x) { return x[0].t(); }},
      {"expand", {{3, 1}}, [](V x) { return x[0].expand({2, 3, 4}); }},
      {"broadcast_to", {{1, 3}}, [](V x) { return x[0].broadcast_to({2, 3}); }},
      {"squeeze", {{1, 3, 1}}, [](V x) { return x[0].squeeze(); }},
      {"squeeze dim", {{1, 3}}, [](V x) { return x[0].squeeze(0); }},
      {"unsqueeze", {{3}}, [](V x) { return x[0].unsqueeze(-1); }},
      {"select", {{2, 3}}, [](V x) { return x[0].select(1, -1); }},
      {"slice step", {{7}}, [](V x) { return x[0].slice(0, 1, 6, 2); }},
      {"narrow", {{2, 5}}, [](V x) { return x[0].narrow(1, 1, 3); }},
      {"diagonal", {{3, 4}}, [](V x) { return x[0].diagonal(1); }},
      {"flatten", {{2, 3, 2}}, [](V x) { return x[0].flatten(1); }},
      {"unflatten", {{6}}, [](V x) { return x[0].unflatten(0, {2, 3}); }},
      {"movedim", {{2, 3, 4}}, [](V x) { return x[0].movedim(0, -1); }},
      {"as_strided overlapping", {{5}}, [](V x) { return x[0].as_strided({3, 3}, {1, 1}); }},
      {"as_strided of a view", {{4, 4}},
       [](V x) { return x[0].t().as_strided({2, 2}, {1, 2}, 1); }},
      {"unfold overlapping", {{2, 6}}, [](V x) { return x[0].unfold(1, 3, 2); }},
      {"cat", {{2, 2}, {1, 2}}, [](V x) { return cat({x[0], x[1]}); }},
      {"split", {{5, 2}}, [](V x) { return split(x[0], 2)[1]; }},
      {"split with sizes", {{2, 5}}, [](V x) {
         auto p = split(x[0], {1, 4}, 1);
         return p[0] * p[1].slice(1, 0, 1);
       }},
      {"add_ on a view", {{3, 2}, {2}}, [](V x) {
         Variable y = id(x[0]);
         add_(y.select(0, 1), x[1] * x[1]);
         return y;
       }},
      {"mul_ on a view", {{4}, {2}}, [](V x) {
         Variable y = id(x[0]);
         mul_(y.slice(0, 0, 4, 2), x[1]);
         return y;
       }},
      {"mul_", {{3}, {3}}, [](V x) {
         Variable y = id(x[0]);
         mul_(y, x[1]);
         return y;
       }},
      {"copy_ into a view", {{2, 3}, {3}}, [](V x) {
         Variable y = id(x[0]);
         copy_(y.select(0, 0), exp(x[1]));
         return y * x[0];
       }},
      {"fill_", {{3}}, [](V x) {
         Variable y = id(x[0]);
         fill_(y.slice(0, 1), 2.0);
         return y * y;
       }},
      {"softmax from five rules", {{3}}, [](V x) {
         Variable e = exp(x[0]);
         return e * pow(sum(e), -1.0);
       }},
  };
}
}  // namespace

TEST_CASE("every backward formula agrees with finite differences") {
  for (const Case& c : cases()) check_gradients(c);
}
