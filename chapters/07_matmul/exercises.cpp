// Chapter 7: the NumPy box of "Row-major and column-major" (MM-01.numpy), and the exercises at the
// end of the page (EX-07.1 … EX-07.5). Each answer is computed with the library (strides, the BLAS
// operand rule, matmul's plan) and compared with PyTorch's recorded answer.
#include <cstdint>
#include <string>
#include <vector>

#include "07_matmul/matmul.h"
#include "book/book.h"
#include "strided/engine/matmul.h"
#include "strided/strided.h"

using namespace strided;
using matmul_chapter::pytorch;

namespace {

// "as stored, ld 6", "transpose flag, ld 6" or "copied": the BLAS operand rule in words.
std::string blas_words(const Tensor& m) {
  const BlasOperand op = blas_operand(m);
  if (op.copy) return "copied";
  return std::string(op.transpose ? "transpose flag" : "as stored") + ", ld " +
         std::to_string(op.ld);
}

}  // namespace

void matmul_chapter::numpy_box(book::Chapter& ch) {
  ch.claim("MM-01.numpy",
           "NumPy calls a column-major array Fortran-ordered: np.asfortranarray of a 3×4 int64 "
           "array has byte strides (8, 24) and the flag F_CONTIGUOUS; torch.from_numpy gives it "
           "element strides (1, 3), which PyTorch reports only as not contiguous, its .mT "
           "contiguous.",
           [](book::Check& c) {
             //! [fortran]
             Tensor f = arange(12).view({3, 4}).t().contiguous().t();  // column-major 3×4
             Shape bytes = f.strides();
             for (int64_t& s : bytes) s *= f.element_size();  // NumPy counts bytes
             //! [fortran]
             c.equal("element strides", f.strides(), Shape{1, 3}, "np_elements");
             c.equal("byte strides", bytes, Shape{8, 24}, "np_bytes");
             c.equal("is_contiguous()", f.is_contiguous(), false);
             c.equal(".mT is contiguous", f.mT().is_contiguous(), true);
             pytorch().compare_value(c, "fortran", "fa.strides", bytes);
             pytorch().compare_value(c, "fortran", "fa.flags.f_contiguous", f.mT().is_contiguous());
             pytorch().compare_value(c, "fortran", "fa.flags.c_contiguous", f.is_contiguous());
             pytorch().compare(c, "fortran", "torch.from_numpy(fa)", f);
             pytorch().compare_value(c, "fortran", "torch.from_numpy(fa).mT.is_contiguous()",
                                     f.mT().is_contiguous());
           });
}

void matmul_chapter::exercises(book::Chapter& ch) {
  ch.section("exercises", "Exercises");

  ch.claim("EX-07.1",
           "Of a 10×6 matrix m, m[2:7], m[:, 1:4] and m[::3] go to BLAS as stored, with ld 6, 6 "
           "and 18; m[:, ::3] (strides (6, 3)) and m.t()[::2] (strides (2, 6)) have no unit "
           "stride and are copied.",
           [](book::Check& c) {
             const Tensor m = zeros({10, 6});
             const Tensor a = m.slice(0, 2, 7), b = m.slice(1, 1, 4), d = m.slice(0, 0, 10, 3);
             const Tensor e = m.slice(1, 0, 6, 3), f = m.t().slice(0, 0, 6, 2);
             c.equal("m[2:7]", blas_words(a), std::string("as stored, ld 6"), "ex1_a");
             c.equal("m[:, 1:4]", blas_words(b), std::string("as stored, ld 6"), "ex1_b");
             c.equal("m[::3]", blas_words(d), std::string("as stored, ld 18"), "ex1_d");
             c.equal("m[:, ::3]", blas_words(e), std::string("copied"), "ex1_e");
             c.equal("m.t()[::2]", blas_words(f), std::string("copied"), "ex1_f");
             c.equal("strides of m[:, ::3]", e.strides(), Shape{6, 3}, "ex1_e_strides");
             c.equal("strides of m.t()[::2]", f.strides(), Shape{2, 6}, "ex1_f_strides");
             pytorch().compare(c, "ex1", "m[2:7]", a, {&m});
             pytorch().compare(c, "ex1", "m[:, 1:4]", b, {&m});
             pytorch().compare(c, "ex1", "m[::3]", d, {&m});
             pytorch().compare(c, "ex1", "m[:, ::3]", e, {&m});
             pytorch().compare(c, "ex1", "m.t()[::2]", f, {&m});
           });

  ch.claim("EX-07.2",
           "For w of shape (8192, 64), the Gram matrix w.t() @ w copies nothing: w.t() has "
           "strides (1, 64) and goes with the transpose flag, ld 64, and matmul allocates only "
           "the 64×64 result, 4096 elements.",
           [](book::Check& c) {
             Generator gen(18);
             const Tensor w = rand({8192, 64}, gen);
             const MatmulCost plan = matmul_cost(w.t(), w);
             c.equal("w.t(): strides", w.t().strides(), Shape{1, 64}, "ex2_strides");
             c.equal("w.t()", blas_words(w.t()), std::string("transpose flag, ld 64"), "ex2_words");
             c.equal("elements copied", plan.written, int64_t{0});
             c.equal("tensors allocated", plan.allocations, int64_t{1});
             c.equal("elements allocated", plan.allocated, int64_t{4096}, "ex2_allocated");
             const Tensor g = matmul(w.t(), w);
             c.equal("shape of w.t() @ w", g.sizes(), Shape{64, 64});
             pytorch().compare(c, "ex2", "w.t()", w.t(), {&w});
             pytorch().compare(c, "ex2", "w.t() @ w", g);
           });

  ch.claim("EX-07.3",
           "For a of shape (8, 4, 3) and b of shape (3, 5), a[:, ::2] @ b folds into one 2-D "
           "product without a copy (strides (12, 6, 1): the rows continue one another, and the "
           "(8, 2, 3) batch is one (16, 3) matrix), while "
           "a.transpose(0, 1) @ b runs 4 products, one per matrix.",
           [](book::Check& c) {
             Generator gen(19);
             const Tensor a = rand({8, 4, 3}, gen), b = rand({3, 5}, gen);
             const Tensor half = a.slice(1, 0, 4, 2), swapped = a.transpose(0, 1);
             const MatmulCost folded = matmul_cost(half, b), apart = matmul_cost(swapped, b);
             c.equal("a[:, ::2]: strides", half.strides(), Shape{12, 6, 1}, "ex3_strides");
             c.equal("a[:, ::2] @ b: 2-D products", folded.products, int64_t{1}, "ex3_folded");
             c.equal("a[:, ::2] @ b: elements copied", folded.written, int64_t{0});
             c.equal("a[:, ::2]: shape", half.sizes(), Shape{8, 2, 3});
             c.equal("allocations of a[:, ::2].reshape(16, 3)",
                     book::allocations_during([&] { (void)half.reshape({16, 3}); }), int64_t{0});
             c.equal("a.transpose(0, 1) @ b: 2-D products", apart.products, int64_t{4},
                     "ex3_apart");
             pytorch().compare(c, "ex3", "a[:, ::2]", half, {&a});
             pytorch().compare(c, "ex3", "a[:, ::2] @ b", matmul(half, b));
             pytorch().compare(c, "ex3", "a.transpose(0, 1) @ b", matmul(swapped, b));
           });

  ch.claim("EX-07.4",
           "x.unfold(0, 4, 2) of arange(10) is a view of shape (4, 4) and strides (2, 1); its "
           "windows overlap, so contiguous() copies 16 elements.",
           [](book::Check& c) {
             const Tensor x = arange(10);
             const Tensor w = x.unfold(0, 4, 2);
             c.equal("shape", w.sizes(), Shape{4, 4}, "ex4_shape");
             c.equal("strides", w.strides(), Shape{2, 1}, "ex4_strides");
             c.equal("shares x's storage", w.storage().is_same(x.storage()), true);
             c.equal("dense", w.is_non_overlapping_and_dense(), false);
             const Tensor dense = w.contiguous();
             c.equal("elements contiguous() writes", dense.numel(), int64_t{16}, "ex4_copy");
             pytorch().compare(c, "ex4", "x.unfold(0, 4, 2)", w, {&x});
             pytorch().compare(c, "ex4", "x.unfold(0, 4, 2).contiguous()", dense, {&x});
           });

  ch.claim("EX-07.5",
           "torch.rand(2, 1, 3, 4) @ torch.rand(5, 4, 6) has shape (2, 5, 3, 6); the second "
           "operand is read as b.expand(2, 5, 4, 6), strides (0, 24, 6, 1).",
           [](book::Check& c) {
             Generator gen(20);
             const Tensor a = rand({2, 1, 3, 4}, gen), b = rand({5, 4, 6}, gen);
             const Tensor r = matmul(a, b);
             const Tensor wide = b.expand({2, 5, 4, 6});
             c.equal("shape of a @ b", r.sizes(), Shape{2, 5, 3, 6}, "ex5_shape");
             c.equal("strides of b.expand(2, 5, 4, 6)", wide.strides(), Shape{0, 24, 6, 1},
                     "ex5_strides");
             pytorch().compare(c, "ex5", "a @ b", r);
             pytorch().compare(c, "ex5", "b.expand(2, 5, 4, 6)", wide, {&b});
           });
}
