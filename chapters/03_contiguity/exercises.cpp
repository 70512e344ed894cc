// Chapter 3, the NumPy box (CT-14: NumPy's C_CONTIGUOUS and F_CONTIGUOUS flags against
// is_contiguous, byte strides against element strides) and the exercises (EX-03.k), each answer
// computed with the library and compared with PyTorch's (and NumPy's) recorded answers.
#include <cstdint>
#include <string>
#include <vector>

#include "03_contiguity/contiguity.h"
#include "book/book.h"
#include "strided/strided.h"

using namespace strided;
using indexing::None;
using indexing::Slice;
using contiguity::pytorch;

namespace {

// NumPy's F_CONTIGUOUS: the tensor with its dims in reverse order is contiguous.
bool f_contiguous(const Tensor& t) {
  Shape reversed;
  for (int64_t d = t.dim() - 1; d >= 0; --d) reversed.push_back(d);
  return t.permute(reversed).is_contiguous();
}

Shape byte_strides(const Tensor& t) {
  Shape out;
  for (int64_t s : t.strides()) out.push_back(s * t.element_size());
  return out;
}

}  // namespace

void contiguity::numpy_box(book::Chapter& ch) {
  ch.section("numpy", "NumPy's two flags");

  ch.claim("CT-14",
           "NumPy keeps two flags: C_CONTIGUOUS is PyTorch's is_contiguous(), and F_CONTIGUOUS "
           "is is_contiguous() of the tensor with its dims reversed. For a = np.arange(12)"
           ".reshape(3, 4), a is C and not F, a.T is F and not C, a[:, ::2] is neither, and a "
           "(3, 1) array is both, size-1 dims skipped as PyTorch skips them. NumPy's strides "
           "count bytes: a.T.strides is (8, 32), x.t().stride() times 8 bytes.",
           [](book::Check& c) {
             const Tensor x = arange(12).view({3, 4});
             struct Row {
               std::string numpy, torch;
               Tensor t;
             };
             const std::vector<Row> rows = {
                 {"a", "x", x},
                 {"a.T", "x.t()", x.t()},
                 {"a[:, ::2]", "x[:, ::2]", x.index({Slice(), Slice(None, None, 2)})},
                 {"a[:, :1]", "x[:, :1]", x.index({Slice(), Slice(None, 1)})},
                 {"np.zeros((3, 1), dtype=np.int64)", "torch.zeros(3, 1, dtype=torch.int64)",
                  zeros({3, 1}, {DType::Int64})},
             };
             const std::string g = "numpy_flags";
             std::vector<std::vector<std::string>> table;
             for (const Row& r : rows) {
               const bool C = r.t.is_contiguous(), F = f_contiguous(r.t);
               pytorch().compare_value(c, g, r.numpy + ".flags['C_CONTIGUOUS']", C);
               pytorch().compare_value(c, g, r.numpy + ".flags['F_CONTIGUOUS']", F);
               pytorch().compare_value(c, g, r.numpy + ".strides", byte_strides(r.t));
               pytorch().compare_value(c, g, r.torch + ".is_contiguous()", C);
               pytorch().compare_value(c, g, r.torch + ".stride()", r.t.strides());
               table.push_back({r.numpy, book::show(byte_strides(r.t)), book::show(C),
                                book::show(F), r.torch, book::show(r.t.strides()),
                                book::show(C)});
             }
             c.equal("a.T.strides", byte_strides(x.t()), Shape{8, 32}, "np_t_strides");
             c.equal("x.t().stride()", x.t().strides(), Shape{1, 4}, "np_t_elements");
             c.equal("a (3, 4) is C", x.is_contiguous(), true);
             c.equal("a (3, 4) is not F", f_contiguous(x), false);
             c.equal("a.T is not C", x.t().is_contiguous(), false);
             c.equal("a.T is F", f_contiguous(x.t()), true);
             const Tensor column = x.index({Slice(), Slice(None, 1)});
             const Tensor one = zeros({3, 1}, {DType::Int64});
             c.equal("a (3, 1) array is C", one.is_contiguous(), true);
             c.equal("a (3, 1) array is F", f_contiguous(one), true);
             c.value("np_column_strides", column.strides());
             c.value("np_itemsize", x.element_size());
             c.table("numpy_flags",
                     {"NumPy", "strides (bytes)", "C_CONTIGUOUS", "F_CONTIGUOUS", "PyTorch",
                      "stride()", "is_contiguous()"},
                     table);
           });
}

void contiguity::exercises(book::Chapter& ch) {
  ch.section("exercises", "Exercises");

  ch.claim("EX-03.1",
           "For x = arange(12).view(3, 4), x[1] and x[:1] are contiguous, while x[:, 1] "
           "(stride 4) and x[:, :1] (shape (3, 1), strides (4, 1)) are not.",
           [](book::Check& c) {
             const Tensor x = arange(12).view({3, 4});
             const std::vector<std::pair<std::string, Tensor>> cases = {
                 {"x[1]", x.index({1})},
                 {"x[:1]", x.index({Slice(None, 1)})},
                 {"x[:, 1]", x.index({Slice(), 1})},
                 {"x[:, :1]", x.index({Slice(), Slice(None, 1)})},
             };
             const std::vector<bool> expected = {true, true, false, false};
             for (size_t k = 0; k < cases.size(); ++k) {
               c.equal(cases[k].first + ".is_contiguous()", cases[k].second.is_contiguous(),
                       static_cast<bool>(expected[k]));
               pytorch().compare(c, "exercises", cases[k].first, cases[k].second, {&x});
             }
             c.value("ex1_column_strides", cases[3].second.strides());
             c.value("ex1_col_stride", cases[2].second.strides());
           });

  ch.claim("EX-03.2",
           "arange(6).view(2, 3).expand(1, 2, 3) is contiguous, but expand(4, 2, 3) is not: its "
           "new dim has 4 elements and stride 0.",
           [](book::Check& c) {
             const Tensor x = arange(6).view({2, 3});
             const Tensor one = x.expand({1, 2, 3});
             const Tensor four = x.expand({4, 2, 3});
             c.equal("expand(1, 2, 3) is contiguous", one.is_contiguous(), true);
             c.equal("expand(4, 2, 3) is contiguous", four.is_contiguous(), false);
             c.equal("expand(4, 2, 3).stride()", four.strides(), Shape{0, 3, 1}, "ex2_strides");
             pytorch().compare(c, "exercises", "x.expand(1, 2, 3)", one, {&x});
             pytorch().compare(c, "exercises", "x.expand(4, 2, 3)", four, {&x});
           });

  ch.claim("EX-03.3",
           "p = arange(24).view(2, 3, 4).permute(2, 0, 1) has strides (1, 12, 4); p.clone() keeps "
           "them (not contiguous), while p.contiguous() gets (6, 3, 1).",
           [](book::Check& c) {
             const Tensor p = arange(24).view({2, 3, 4}).permute({2, 0, 1});
             const Tensor cloned = p.clone();
             const Tensor dense = p.contiguous();
             c.equal("p.stride()", p.strides(), Shape{1, 12, 4}, "ex3_p");
             c.equal("p.clone().stride()", cloned.strides(), p.strides(), "ex3_clone");
             c.equal("p.clone() is contiguous", cloned.is_contiguous(), false);
             c.equal("p.contiguous().stride()", dense.strides(), Shape{6, 3, 1}, "ex3_dense");
             pytorch().compare(c, "exercises", "p.clone()", cloned, {&p});
             pytorch().compare(c, "exercises", "p.contiguous()", dense, {&p});
           });

  ch.claim("EX-03.4",
           "zeros(2, 3, 4, 5) in channels last has strides (60, 1, 15, 3); its permute(0, 2, 3, 1), "
           "the (N, H, W, C) order, is contiguous, with strides (60, 15, 3, 1): channels last is "
           "row-major NHWC.",
           [](book::Check& c) {
             const Tensor x = zeros({2, 3, 4, 5}).contiguous(MemoryFormat::ChannelsLast);
             const Tensor nhwc = x.permute({0, 2, 3, 1});
             c.equal("x.stride()", x.strides(), Shape{60, 1, 15, 3}, "ex4_x");
             c.equal("nhwc is contiguous", nhwc.is_contiguous(), true);
             c.equal("nhwc.stride()", nhwc.strides(), Shape{60, 15, 3, 1}, "ex4_nhwc");
             pytorch().compare(c, "exercises", "cl", x);
             pytorch().compare(c, "exercises", "cl.permute(0, 2, 3, 1)", nhwc, {&x});
           });
}
