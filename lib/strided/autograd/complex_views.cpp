// The transposes of the last two dims and the complex views, recorded as PyTorch records them: the
// composite ones (mT, H, mH, adjoint, real, imag) as the ops they are made of in
// aten/src/ATen/native/TensorShape.cpp and UnaryOps.cpp, so their nodes are PyTorch's
// (x.H: ConjBackward0 over TransposeBackward0; x.real: SelectBackward0 over ViewAsRealBackward0).
// Formulas quoted from tools/autograd/derivatives.yaml.
#include "strided/autograd/detail.h"
#include "strided/autograd/ops.h"

namespace strided::autograd {

namespace {
using detail::view_op;

// The conjugate transposes, once the Tensor's op has checked the dims (its refusals, in PyTorch's
// words). matrix_H / mH / adjoint: ndim == 0 ? self.conj() : self.transpose(-2, -1).conj().
Variable conj_transpose(const Variable& x) {
  return x.dim() == 0 ? x.conj() : x.transpose(-2, -1).conj();
}
}  // namespace

Variable Variable::mT() const {
  data_.mT();  // refuses 1 dim
  return dim() == 0 ? *this : transpose(-2, -1);  // TensorShape.cpp, mT: a 0-d tensor is self
}
Variable Variable::H() const {
  data_.H();  // refuses any dims but 0 and 2
  return conj_transpose(*this);
}
Variable Variable::mH() const {
  data_.mH();  // refuses 1 dim
  return conj_transpose(*this);
}
Variable Variable::adjoint() const {
  data_.adjoint();
  return conj_transpose(*this);
}

Variable Variable::conj() const {
  // conj (UnaryOps.cpp): a real tensor is self; a complex one is _conj, whose formula is
  // _conj: self: grad.conj()
  if (!is_complex(dtype())) return *this;
  return view_op(*this, data_.conj(), "ConjBackward0", [](const Tensor& g) { return g.conj(); });
}

Variable Variable::resolve_conj() const {
  // resolve_conj (UnaryOps.cpp): self without the bit; else a copy, recorded as clone of the
  // conjugated tensor: clone: self: grad.
  if (!data_.is_conj()) return *this;
  auto op = record("CloneBackward0", {this});
  if (op) op->formula = [](Op&, const std::vector<Tensor>& g) { return std::vector<Tensor>{g[0]}; };
  return detail::with_history(data_.resolve_conj(), op);
}

Variable Variable::conj_physical() const {
  // conj_physical (UnaryOps.cpp): a real tensor is self.
  // conj_physical: self: grad.conj_physical()
  if (!is_complex(dtype())) return *this;
  auto op = record("ConjPhysicalBackward0", {this});
  if (op)
    op->formula = [](Op&, const std::vector<Tensor>& g) {
      return std::vector<Tensor>{g[0].conj_physical()};
    };
  return detail::with_history(data_.conj_physical(), op);
}

Variable Variable::real() const {
  // real (UnaryOps.cpp): a real tensor is self; a complex one
  // at::select(at::view_as_real(self.is_conj() ? self._conj() : self), -1, 0).
  if (!is_complex(dtype())) return *this;
  const Variable parts = view_as_real(data_.is_conj() ? conj() : *this);
  return parts.select(-1, 0);
}

Variable Variable::imag() const {
  data_.imag();  // refuses a real tensor, and a conjugated one (no negative bit here)
  return view_as_real(*this).select(-1, 1);
}

Variable view_as_real(const Variable& x) {
  // view_as_real: self: at::view_as_complex(grad.contiguous())
  return view_op(x, strided::view_as_real(x.tensor()), "ViewAsRealBackward0",
                 [](const Tensor& g) { return strided::view_as_complex(g.contiguous()); });
}

Variable view_as_complex(const Variable& x) {
  // view_as_complex: self: at::view_as_real(grad.contiguous().resolve_conj())
  return view_op(x, strided::view_as_complex(x.tensor()), "ViewAsComplexBackward0",
                 [](const Tensor& g) {
                   return strided::view_as_real(g.contiguous().resolve_conj());
                 });
}

}  // namespace strided::autograd
