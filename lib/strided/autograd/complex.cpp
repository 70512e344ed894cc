// Complex arithmetic for the backward formulas and the few forward ops a gradient needs (mul, add,
// division by a number, sum), on the library's real kernels: the engine's kernels are real-only
// (tensor.h), so a complex tensor's values are computed from its two parts, each a real view of a
// resolved copy (view_as_real(t.resolve_conj()).select(-1, k)). The result is laid out as
// PyTorch's TensorIterator lays out the complex op's output: the same real op is run on probes,
// real tensors with the complex operands' sizes and strides (so the iterator's fast path and its
// tie-breaks on size-1 dims see what PyTorch's sees), and its output's strides are the result's.
// Real operands take the engine's op unchanged.
#include "strided/autograd/detail.h"
#include "strided/engine/ops.h"
#include "strided/engine/reduce.h"
#include "strided/tensor/promotion.h"

namespace strided::autograd::detail {

namespace {
struct ReIm {
  Tensor re, im;  // im undefined for a real tensor (its imaginary part is 0)
};

ReIm re_im(const Tensor& t) {
  if (!is_complex(t.dtype())) return {t, Tensor()};
  const Tensor r = t.resolve_conj();
  return {r.real(), r.imag()};
}

// A real tensor with t's sizes and strides (t itself when real): what the iterator is asked about.
Tensor probe(const Tensor& t) {
  if (!is_complex(t.dtype())) return t;
  return empty_strided(t.sizes(), t.strides(), {real_value_type(t.dtype())});
}

// re + i·im (im undefined: 0) in a new complex tensor laid out as `layout`.
Tensor complex_of(const Tensor& layout, const Tensor& re, const Tensor& im, DType dtype) {
  Tensor out = empty_strided(layout.sizes(), layout.strides(), {dtype});
  out.real().copy_(re);
  if (im.defined()) out.imag().copy_(im);
  else out.imag().fill_(Scalar(0.0));
  return out;
}

DType complex_result(const Tensor& a, const Tensor& b, const char* op) {
  return complex_type(real_value_type(promote_types(a.dtype(), b.dtype())), op);
}
}  // namespace

Tensor mul(const Tensor& a, const Tensor& b) {
  if (!is_complex(a.dtype()) && !is_complex(b.dtype())) return strided::mul(a, b);
  // (ar + i·ai)(br + i·bi) = (ar·br − ai·bi) + i·(ar·bi + ai·br), as c10::complex's operator*.
  const ReIm x = re_im(a), y = re_im(b);
  Tensor re = strided::mul(x.re, y.re), im;
  if (x.im.defined() && y.im.defined()) {
    re = strided::sub(re, strided::mul(x.im, y.im));
    im = strided::add(strided::mul(x.re, y.im), strided::mul(x.im, y.re));
  } else if (x.im.defined()) {
    im = strided::mul(x.im, y.re);
  } else {
    im = strided::mul(x.re, y.im);
  }
  return complex_of(strided::mul(probe(a), probe(b)), re, im, complex_result(a, b, "mul"));
}

Tensor add(const Tensor& a, const Tensor& b) {
  if (!is_complex(a.dtype()) && !is_complex(b.dtype())) return strided::add(a, b);
  const ReIm x = re_im(a), y = re_im(b);
  const Tensor re = strided::add(x.re, y.re);
  const Tensor im = x.im.defined() && y.im.defined()
                        ? strided::add(x.im, y.im)
                        : (x.im.defined() ? x.im : y.im).expand(re.sizes());  // the real one adds 0
  return complex_of(strided::add(probe(a), probe(b)), re, im, complex_result(a, b, "add"));
}

Tensor div(const Tensor& a, const Scalar& n) {
  if (!is_complex(a.dtype())) return strided::div(a, n);
  // A complex tensor divided by a number is divided by the complex number (n, 0), as the CPU
  // kernel's Vectorized<c10::complex<T>>::operator/ computes it (vec256_complex_*.h): with
  // a2 = x / n, the result is (a2.re + a2.im·0) + i·(a2.im − a2.re·0), so an infinite part makes the
  // other NaN, as in PyTorch.
  const ReIm x = re_im(a);
  const Tensor re = strided::div(x.re, n), im = strided::div(x.im, n);
  return complex_of(strided::div(probe(a), n), strided::add(re, strided::mul(im, Scalar(0.0))),
                    strided::sub(im, strided::mul(re, Scalar(0.0))), a.dtype());
}

Tensor sum(const Tensor& x) {
  if (!is_complex(x.dtype())) return strided::sum(x);
  const ReIm p = re_im(x);
  return complex_of(strided::sum(probe(x)), strided::sum(p.re), strided::sum(p.im), x.dtype());
}

Tensor sum(const Tensor& x, int64_t dim, bool keepdim) {
  if (!is_complex(x.dtype())) return strided::sum(x, dim, keepdim);
  const ReIm p = re_im(x);
  return complex_of(strided::sum(probe(x), dim, keepdim), strided::sum(p.re, dim, keepdim),
                    strided::sum(p.im, dim, keepdim), x.dtype());
}

}  // namespace strided::autograd::detail
