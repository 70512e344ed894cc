// Element-wise ops and their backward formulas. Each comment quotes the op's entry in PyTorch's
// tools/autograd/derivatives.yaml (1.13). A formula's result may have the broadcast shape; the
// engine sums it back to the input's.
#include <cmath>

#include "strided/autograd/detail.h"
#include "strided/autograd/ops.h"
#include "strided/engine/ops.h"

namespace strided::autograd {

namespace {
using Grads = std::vector<Tensor>;

}  // namespace

Variable add(const Variable& a, const Variable& b, const Scalar& alpha) {
  auto op = record("AddBackward0", {&a, &b});
  // add.Tensor: self: handle_r_to_c(self.scalar_type(), grad)
  //             other: handle_r_to_c(other.scalar_type(), maybe_multiply(grad, alpha.conj()))
  if (op) op->formula = [alpha](Op& n, const Grads& g) {
    return Grads{g[0], n.needs(1) ? strided::mul(g[0], alpha) : Tensor()};
  };
  return detail::with_history(strided::add(a.tensor(), b.tensor(), alpha), op);
}

Variable add(const Variable& a, const Scalar& b) {
  // A Python number is a wrapped tensor that needs no gradient: the same AddBackward0.
  auto op = record("AddBackward0", {&a});
  if (op) op->formula = [](Op&, const Grads& g) { return Grads{g[0]}; };
  return detail::with_history(strided::add(a.tensor(), b), op);
}

Variable sub(const Variable& a, const Variable& b, const Scalar& alpha) {
  auto op = record("SubBackward0", {&a, &b});
  // sub.Tensor: self: handle_r_to_c(self.scalar_type(), grad)
  //             other: handle_r_to_c(other.scalar_type(), maybe_multiply(-grad, alpha.conj()))
  if (op) op->formula = [alpha](Op& n, const Grads& g) {
    return Grads{g[0], n.needs(1) ? strided::mul(strided::neg(g[0]), alpha) : Tensor()};
  };
  return detail::with_history(strided::sub(a.tensor(), b.tensor(), alpha), op);
}

Variable sub(const Variable& a, const Scalar& b) {
  auto op = record("SubBackward0", {&a});
  if (op) op->formula = [](Op&, const Grads& g) { return Grads{g[0]}; };
  return detail::with_history(strided::sub(a.tensor(), b), op);
}

Variable mul(const Variable& a, const Variable& b) {
  auto op = record("MulBackward0", {&a, &b});
  // mul.Tensor: self: mul_tensor_backward(grad, other, self.scalar_type())   (grad * other.conj())
  //             other: mul_tensor_backward(grad, self, other.scalar_type())  (grad * self.conj())
  // (FunctionsManual.cpp; conj is the identity on a real tensor, and a complex gradient reaching a
  // real input keeps its real part: handle_r_to_c, done by the engine's cast to the input's
  // dtype.) Each factor is saved only when the other's gradient is wanted.
  if (op) {
    const int64_t other = op->needs(0) ? static_cast<int64_t>(op->save(b)) : -1;
    const int64_t self = op->needs(1) ? static_cast<int64_t>(op->save(a)) : -1;
    op->formula = [other, self](Op& n, const Grads& g) {
      return Grads{other >= 0 ? detail::mul(g[0], n.saved(other).conj()) : Tensor(),
                   self >= 0 ? detail::mul(g[0], n.saved(self).conj()) : Tensor()};
    };
  }
  return detail::with_history(detail::mul(a.tensor(), b.tensor()), op);
}

Variable mul(const Variable& a, const Scalar& b) {
  auto op = record("MulBackward0", {&a});
  if (op) op->formula = [b](Op&, const Grads& g) { return Grads{strided::mul(g[0], b)}; };
  return detail::with_history(strided::mul(a.tensor(), b), op);
}

Variable div(const Variable& a, const Variable& b) {
  auto op = record("DivBackward0", {&a, &b});
  // div.Tensor: self: div_tensor_self_backward(grad, other, self.scalar_type())  (grad / other)
  //             other: div_tensor_other_backward(grad, self, other)  (-grad * ((self / other) / other))
  if (op) {
    const size_t other = op->save(b);
    const int64_t self = op->needs(1) ? static_cast<int64_t>(op->save(a)) : -1;
    op->formula = [other, self](Op& n, const Grads& g) {
      const Tensor o = n.saved(other);
      Tensor gb;
      if (self >= 0)
        gb = strided::mul(strided::neg(g[0]), strided::div(strided::div(n.saved(self), o), o));
      return Grads{n.needs(0) ? strided::div(g[0], o) : Tensor(), gb};
    };
  }
  return detail::with_history(strided::div(a.tensor(), b.tensor()), op);
}

Variable div(const Variable& a, const Scalar& b) {
  auto op = record("DivBackward0", {&a});
  if (op) op->formula = [b](Op&, const Grads& g) { return Grads{strided::div(g[0], b)}; };
  return detail::with_history(strided::div(a.tensor(), b), op);
}

Variable neg(const Variable& x) {
  auto op = record("NegBackward0", {&x});
  // neg: self: grad.neg()
  if (op) op->formula = [](Op&, const Grads& g) { return Grads{strided::neg(g[0])}; };
  return detail::with_history(strided::neg(x.tensor()), op);
}

Variable pow(const Variable& x, double exponent) {
  auto op = record("PowBackward0", {&x});
  // pow.Tensor_Scalar: self: pow_backward(grad, self, exponent)
  //   = exponent == 0 ? zeros_like(self) : grad * (exponent * self.pow(exponent - 1))
  if (op) {
    const size_t self = op->save(x);
    op->formula = [self, exponent](Op& n, const Grads& g) {
      const Tensor s = n.saved(self);
      if (exponent == 0.0) return Grads{zeros(s.sizes(), {g[0].dtype()})};
      return Grads{strided::mul(g[0], strided::mul(detail::pow(s, exponent - 1), exponent))};
    };
  }
  return detail::with_history(detail::pow(x.tensor(), exponent), op);
}

Variable pow(const Variable& x, const Variable& exponent) {
  auto op = record("PowBackward1", {&x, &exponent});
  Variable out(detail::pow(x.tensor(), exponent.tensor()));
  // pow.Tensor_Tensor:
  //   self: pow_backward_self(grad, self, exponent)
  //     = where(exponent == 0.0, 0, grad * (exponent * pow(self, exponent - 1)))
  //   exponent: pow_backward_exponent(grad, self, exponent, result)
  //     = grad * where(self == 0 & exponent >= 0, 0, result * log(self))
  if (op) {
    const size_t s = op->save(x), e = op->save(exponent), r = op->save(out, /*is_output=*/true);
    op->formula = [s, e, r](Op& n, const Grads& g) {
      const Shape shape = g[0].sizes();
      const Tensor self = n.saved(s).expand(shape), ex = n.saved(e).expand(shape);
      const std::vector<double> gv = g[0].to_vector(), sv = self.to_vector(),
                                ev = ex.to_vector(), rv = n.saved(r).to_vector();
      std::vector<double> ds(gv.size()), de(gv.size());
      for (size_t i = 0; i < gv.size(); ++i) {
        ds[i] = ev[i] == 0.0 ? 0.0 : gv[i] * (ev[i] * std::pow(sv[i], ev[i] - 1));
        de[i] = (sv[i] == 0.0 && ev[i] >= 0.0) ? 0.0 : gv[i] * (rv[i] * std::log(sv[i]));
      }
      return Grads{from_values(ds, shape, {g[0].dtype()}), from_values(de, shape, {g[0].dtype()})};
    };
    set_history(out, op);
  }
  return out;
}

Variable exp(const Variable& x) {
  auto op = record("ExpBackward0", {&x});
  Variable out(strided::exp(x.tensor()));
  // exp: self: grad * result.conj()   (the result is saved, not the input)
  if (op) {
    set_history(out, op);
    const size_t r = op->save(out, /*is_output=*/true);
    op->formula = [r](Op& n, const Grads& g) { return Grads{strided::mul(g[0], n.saved(r))}; };
  }
  return out;
}

Variable log(const Variable& x) {
  auto op = record("LogBackward0", {&x});
  // log: self: grad.div(self.conj())
  if (op) {
    const size_t self = op->save(x);
    op->formula = [self](Op& n, const Grads& g) {
      return Grads{strided::div(g[0], n.saved(self))};
    };
  }
  return detail::with_history(detail::log(x.tensor()), op);
}

Variable clone(const Variable& x) {
  auto op = record("CloneBackward0", {&x});
  // clone: self: grad
  if (op) op->formula = [](Op&, const Grads& g) { return Grads{g[0]}; };
  return detail::with_history(x.tensor().clone(), op);
}

Variable operator-(const Variable& x) { return neg(x); }
Variable operator+(const Variable& a, const Variable& b) { return add(a, b); }
Variable operator+(const Variable& a, const Scalar& b) { return add(a, b); }
Variable operator-(const Variable& a, const Variable& b) { return sub(a, b); }
Variable operator-(const Variable& a, const Scalar& b) { return sub(a, b); }
Variable operator*(const Variable& a, const Variable& b) { return mul(a, b); }
Variable operator*(const Variable& a, const Scalar& b) { return mul(a, b); }
Variable operator*(const Scalar& a, const Variable& b) { return mul(b, a); }
Variable operator/(const Variable& a, const Variable& b) { return div(a, b); }
Variable operator/(const Variable& a, const Scalar& b) { return div(a, b); }

}  // namespace strided::autograd
