// Chapter 3, Contiguity: which layouts are "contiguous", by the notebook's definition and by
// PyTorch's, what that buys, and PyTorch's second dense order, channels last. Claims CT-01…CT-12
// and the errata the catalogue gives this chapter. The code between //! [name] markers is shown on
// the chapter's page (docs/03_contiguity.md). Two sections are in files of their own:
// chapters/03_contiguity/dense.cpp (dense layouts) and channels_last.cpp (channels last).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "03_contiguity/contiguity.h"
#include "book/book.h"
#include "strided/layout/layout.h"
#include "strided/memory/memory.h"
#include "strided/models/models.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using indexing::Slice;
using book::all_shapes;
using book::layout_tensor;
using book::RandomLayouts;
using contiguity::pytorch;

namespace {

// ---- teaching helpers: shown on the page ------------------------------------------------------------

//! [notebook_check]
// The notebook's check_contiguous, line for line: empty and 0-d tensors are contiguous; otherwise
// the last stride is 1 and each stride is the next dim's size times the next dim's stride.
bool notebook_is_contiguous(const Tensor& t) {
  if (t.numel() == 0) return true;
  if (t.dim() == 0) return true;
  bool contiguous = t.stride(-1) == 1;
  for (int64_t i = 1; i < t.dim(); ++i)
    contiguous = t.stride(-i - 1) == t.size(-i) * t.stride(-i) && contiguous;
  return contiguous;
}
//! [notebook_check]

//! [pytorch_check]
// PyTorch's rule (c10/core/Contiguity.h): walking from the last dim, each dim of size > 1 must
// have the stride "expected so far", which then grows by its size; size-1 dims are skipped, and a
// tensor with no elements is contiguous whatever its strides.
bool pytorch_is_contiguous(const Tensor& t) {
  if (t.numel() == 0) return true;
  int64_t expected = 1;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    if (t.size(d) == 1) continue;
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  return true;
}
//! [pytorch_check]

// ---- plumbing: not shown ------------------------------------------------------------------------------

// A row of the tables that set the two definitions side by side.
std::vector<std::string> layout_row(const std::string& name, const Tensor& t) {
  return {name, book::show(t.sizes()), book::show(t.strides()),
          book::show(notebook_is_contiguous(t)), book::show(t.is_contiguous())};
}

}  // namespace

int main(int argc, char** argv) {
  book::Chapter ch("03_contiguity", "Contiguity");

  // ---- Two definitions ----------------------------------------------------------------------------------
  ch.section("definitions", "Two definitions");

  ch.claim("CT-01",
           "The notebook calls t contiguous when it has no elements, or is 0-d, or its memory set "
           "is gap-free and stride[−1] = 1, stride[−i−1] = size[−i]·stride[−i] for "
           "i = 1…ndim−1; its check_contiguous tests the strides.",
           [](book::Check& c) {
             RandomLayouts r(31);
             int64_t tried = 0, agree = 0, gap_free = 0, holds = 0;
             for (int k = 0; k < 400; ++k) {
               Shape sizes = r.sizes(4, 4, 0);
               Shape strides = contiguous_strides(sizes);
               if (k % 2) {  // half of them disturbed: one stride changed
                 const int64_t d = r.below(static_cast<int64_t>(sizes.size()));
                 strides[d] += 1 + r.below(3);
               }
               Tensor t = layout_tensor(sizes, strides);
               const bool nb = notebook_is_contiguous(t);
               agree += nb == is_contiguous_strict(t);
               ++tried;
               if (nb && t.numel() > 0) {
                 ++holds;
                 // The memset part of the definition follows from the strides: [0, itemsize·numel).
                 const std::vector<int64_t> bytes = memory_set_bytes(t);
                 gap_free += static_cast<int64_t>(bytes.size()) == t.nbytes() &&
                             bytes.front() == 0 && bytes.back() == t.nbytes() - 1;
               }
             }
             c.equal("layouts where notebook_is_contiguous == the library's is_contiguous_strict",
                     agree, tried);
             c.equal("non-empty layouts passing the check whose memset is gap-free", gap_free, holds);
             c.that("some layouts pass the check", holds > 0, book::show(holds));
           });

  ch.claim("CT-02",
           "PyTorch's is_contiguous skips every dim of size 1 (any stride allowed there) and is "
           "true whenever numel = 0; otherwise the strides must be the row-major strides of the "
           "sizes.",
           [](book::Check& c) {
             struct Case {
               std::string name;
               Tensor t;
             };
             Generator gen(5);
             const std::vector<Case> cases = {
                 {"(2, 3, 4, 1) : (12, 4, 1, 24)", layout_tensor({2, 3, 4, 1}, {12, 4, 1, 24})},
                 {"rand(4, 1).t(): (1, 4) : (1, 1)", rand({4, 1}, gen).t()},
                 {"(2, 1, 3) : (3, 99, 1)", layout_tensor({2, 1, 3}, {3, 99, 1})},
             };
             std::vector<std::vector<std::string>> rows;
             for (const Case& k : cases) {
               c.equal(k.name + ": is_contiguous", k.t.is_contiguous(), true);
               c.equal(k.name + ": pytorch_is_contiguous", pytorch_is_contiguous(k.t), true);
               c.equal(k.name + ": notebook_is_contiguous", notebook_is_contiguous(k.t), false);
               rows.push_back(layout_row(k.name, k.t));
               pytorch().compare(c, "disagree", k.name, k.t);
               pytorch().compare_value(c, "disagree", k.name + ": pytorch_is_contiguous",
                                       pytorch_is_contiguous(k.t));
               pytorch().compare_value(c, "disagree", k.name + ": notebook_is_contiguous",
                                       notebook_is_contiguous(k.t));
             }
             c.table("disagree", {"tensor", "sizes", "strides", "notebook", "PyTorch"}, rows);
             // pytorch_is_contiguous (shown on the page) is the library's rule, on random layouts.
             RandomLayouts r(32);
             int64_t tried = 0, agree = 0, empty_ones = 0;
             for (int k = 0; k < 600; ++k) {
               Shape sizes = r.sizes(4, 3, 0);
               Shape strides(sizes.size());
               for (int64_t& s : strides) s = r.below(13);
               if (k % 3 == 0) strides = contiguous_strides(sizes);
               Tensor t = layout_tensor(sizes, strides);
               agree += pytorch_is_contiguous(t) == t.is_contiguous();
               empty_ones += t.numel() == 0 && t.is_contiguous();
               ++tried;
             }
             c.equal("random layouts where pytorch_is_contiguous == is_contiguous", agree, tried);
             c.that("empty layouts seen, all contiguous", empty_ones > 0, book::show(empty_ones));
             // Every layout of 1 to 3 dims, sizes 0…3, strides from {0, 1, 2, 3, 6}, as PyTorch
             // answered for each.
             int64_t all = 0, all_contiguous = 0, all_agree = 0;
             for (const Shape& sizes : all_shapes(1, 3, {0, 1, 2, 3}))
               for (const Shape& strides : all_shapes(sizes.size(), sizes.size(),
                                                      {0, 1, 2, 3, 6})) {
                 Tensor t = layout_tensor(sizes, strides);
                 ++all;
                 all_contiguous += t.is_contiguous();
                 all_agree += pytorch_is_contiguous(t) == t.is_contiguous();
               }
             pytorch().compare_value(c, "layouts", "tried", all);
             pytorch().compare_value(c, "layouts", "contiguous", all_contiguous);
             pytorch().compare_value(c, "layouts", "agree", all_agree);
           });

  ch.erratum("ER-01",
             "Contiguity requires the stride recursion on every dim (PyTorch for Scientists!, "
             "nikitaved: check_contiguous).",
             "PyTorch skips dims of size 1, and any tensor with no elements is contiguous: "
             "rand(4, 1).t() and martinlwx's permute result (12, 4, 1, 24) are contiguous for "
             "PyTorch, not for the notebook's check. The two disagree only when a size-1 dim exists.",
             [](book::Check& c) {
               RandomLayouts r(33);
               int64_t disagree = 0, disagree_without_ones = 0, tried = 0;
               for (int k = 0; k < 1000; ++k) {
                 Shape sizes = r.sizes(5, 4);
                 Shape strides = contiguous_strides(sizes);
                 if (k % 2) {  // scramble the strides of size-1 dims
                   for (size_t d = 0; d < sizes.size(); ++d)
                     if (sizes[d] == 1) strides[d] = r.below(50);
                 } else if (k % 4 == 0) {  // or permute the dims
                   Shape p(sizes.size());
                   std::iota(p.begin(), p.end(), 0);
                   std::shuffle(p.begin(), p.end(), std::mt19937(static_cast<unsigned>(k)));
                   Tensor q = layout_tensor(sizes, strides).permute(p);
                   sizes = q.sizes();
                   strides = q.strides();
                 }
                 Tensor t = layout_tensor(sizes, strides);
                 const bool differ = notebook_is_contiguous(t) != t.is_contiguous();
                 disagree += differ;
                 disagree_without_ones += differ && !book::has_size_one(sizes);
                 ++tried;
               }
               c.equal("disagreements on layouts without a size-1 dim", disagree_without_ones,
                       int64_t{0});
               Generator gen(5);
               pytorch().compare(c, "disagree", "(2, 3, 4, 1) : (12, 4, 1, 24)",
                                 layout_tensor({2, 3, 4, 1}, {12, 4, 1, 24}));
               pytorch().compare(c, "disagree", "rand(4, 1).t(): (1, 4) : (1, 1)",
                                 rand({4, 1}, gen).t());
               c.that("disagreements with a size-1 dim exist", disagree > 0, book::show(disagree));
             });

  ch.erratum("ER-03.recursion",
             "stride[−i−1] = size[−i]·stride[−i] for i ∈ {1, …, ndim}; in the restatement, "
             "stride[−i] = 1 (PyTorch for Scientists!, nikitaved).",
             "i runs to ndim − 1, as the notebook's own loop range(1, t.ndim) does: at i = ndim the "
             "rule names stride[−ndim−1], which does not exist. And the first line is stride[−1] = 1.",
             [](book::Check& c) {
               Tensor t = zeros({2, 3, 4, 5});
               //! [recursion_end]
               const int64_t n = t.dim();
               bool holds = true;
               for (int64_t i = 1; i <= n - 1; ++i)
                 holds = holds && t.stride(-i - 1) == t.size(-i) * t.stride(-i);
               //! [recursion_end]
               c.equal("the recursion for i = 1 … ndim − 1", holds, true);
               c.throws("t.stride(−ndim − 1), the seed's last term",
                        [&] { return t.stride(-n - 1); }, "Dimension out of range");
               c.equal("stride[−1]", t.stride(-1), int64_t{1});
               c.equal("stride[−i] = 1 for i = 2 (the restatement)", t.stride(-2) == 1, false);
               pytorch().compare_value(c, "recursion_end", "holds", holds);
               pytorch().compare_error(c, "recursion_end", "t.stride(-n - 1)",
                                       [&] { t.stride(-n - 1); });
               pytorch().compare_value(c, "recursion_end", "t.stride(-1)", t.stride(-1));
               pytorch().compare_value(c, "recursion_end", "t.stride(-2)", t.stride(-2));
               c.value("rec_last_i", n - 1);
               c.value("rec_bad_dim", -n - 1);
             });

  ch.claim("CT-03",
           "A 2×3×4×5 tensor has strides (60, 20, 5, 1) and is contiguous; transpose(−1, −2) "
           "and transpose(0, −1) are not; a 0×1×0 tensor and a 0-d tensor are.",
           [](book::Check& c) {
             Generator gen(6);
             //! [examples]
             Tensor t = rand({2, 3, 4, 5}, gen);
             Tensor a = t.transpose(-1, -2);
             Tensor b = t.transpose(0, -1);
             Tensor empty_t = rand({0, 1, 0}, gen);
             Tensor scalar = rand({}, gen);
             //! [examples]
             c.equal("strides of t", t.strides(), Shape{60, 20, 5, 1}, "ex_strides");
             const std::vector<std::pair<std::string, const Tensor*>> cases = {
                 {"t", &t}, {"t.transpose(-1, -2)", &a}, {"t.transpose(0, -1)", &b},
                 {"rand(0, 1, 0)", &empty_t}, {"rand(())", &scalar}};
             const std::vector<bool> expected = {true, false, false, true, true};
             std::vector<std::vector<std::string>> rows;
             for (size_t i = 0; i < cases.size(); ++i) {
               const auto& [name, x] = cases[i];
               c.equal(name + ": notebook", notebook_is_contiguous(*x), static_cast<bool>(expected[i]));
               c.equal(name + ": PyTorch", x->is_contiguous(), static_cast<bool>(expected[i]));
               rows.push_back(layout_row(name, *x));
             }
             c.table("examples", {"tensor", "sizes", "strides", "notebook", "PyTorch"}, rows);
             for (const auto& [name, x] :
                  {std::pair{"t", &t}, std::pair{"a", &a}, std::pair{"b", &b},
                   std::pair{"empty_t", &empty_t}, std::pair{"scalar", &scalar}}) {
               pytorch().compare(c, "examples", name, *x, {&t});  // rand: no values
               pytorch().compare_value(c, "examples",
                                       "notebook_is_contiguous(" + std::string(name) + ")",
                                       notebook_is_contiguous(*x));
             }
           });

  ch.claim("CT-04", "Factories (empty, zeros, ones, full, arange, rand, randn) make contiguous tensors.",
           [](book::Check& c) {
             Generator gen(7);
             const Shape s = {3, 1, 4, 2};
             const std::vector<std::pair<std::string, Tensor>> made = {
                 {"empty", strided::empty(s)},
                 {"zeros", zeros(s)},
                 {"ones", ones(s, {DType::Int32})},
                 {"full", full(s, 2.5, {DType::Float64})},
                 {"arange(24).view", arange(24).view(s)},
                 {"rand", rand(s, gen)},
                 {"randn", randn(s, gen, {DType::Float16})},
                 {"from_values", from_values(std::vector<double>(24, 1.0), s)},
                 {"empty_like", empty_like(zeros(s))},
                 {"scalar_tensor", scalar_tensor(3)}};
             int64_t contiguous = 0;
             for (const auto& [name, t] : made) {
               c.equal(name + " is contiguous", t.is_contiguous(), true);
               contiguous += t.is_contiguous();
               pytorch().compare(c, "factories", name, t);
             }
             c.equal("factories whose tensor is contiguous", contiguous,
                     static_cast<int64_t>(made.size()));
           });

  ch.claim("CT-04.like",
           "empty_like and clone keep the layout they are given, not a contiguous one: a permuted "
           "arange(24).view(2,3,4).permute(2,0,1) gives strides (1,12,4) to both; for a tensor "
           "that is not dense they lay it out densely in its own dim order, arange(48).view(2,3,8)"
           "[..., ::2] (strides (24,8,2)) giving (12,4,1), and where two strides tie, the dim of "
           "smaller size goes inside: the overlapping (2,3):(1,1) gives (1,2). Asked for "
           "memory_format=contiguous_format, clone gives the permuted tensor row-major strides "
           "(6,3,1).",
           [](book::Check& c) {
             //! [like]
             Tensor p = arange(24).view({2, 3, 4}).permute({2, 0, 1});  // dense, permuted
             Tensor s = arange(48).view({2, 3, 8}).slice(2, 0, std::nullopt, 2);  // not dense
             Tensor o = arange(6).as_strided({2, 3}, {1, 1});  // overlapping: strides tie
             Tensor r = p.clone(MemoryFormat::Contiguous);  // asked for: row-major
             //! [like]
             c.equal("p.clone(memory_format=contiguous_format).stride()", r.strides(),
                     Shape{6, 3, 1}, "like_r");
             c.equal("... the same values as p", r.to_vector(), p.to_vector());
             c.equal("... contiguous", r.is_contiguous(), true);
             pytorch().compare(c, "like", "r", r, {&p});
             c.equal("empty_like(p).stride()", empty_like(p).strides(), Shape{1, 12, 4}, "like_p");
             c.equal("p.clone().stride()", p.clone().strides(), Shape{1, 12, 4});
             c.equal("p.clone() == p", p.clone().to_vector(), p.to_vector());
             c.equal("s.stride()", s.strides(), Shape{24, 8, 2}, "like_s_in");
             c.equal("empty_like(s).stride()", empty_like(s).strides(), Shape{12, 4, 1}, "like_s");
             c.equal("s.clone().stride()", s.clone().strides(), Shape{12, 4, 1});
             c.equal("empty_like(o).stride()", empty_like(o).strides(), Shape{1, 2}, "like_o");
             c.equal("o.clone().stride()", o.clone().strides(), Shape{1, 2});
             c.equal("empty_like(p) is contiguous", empty_like(p).is_contiguous(), false);
             for (const auto& [name, x] :
                  {std::pair{"p", &p}, std::pair{"s", &s}, std::pair{"o", &o}}) {
               pytorch().compare(c, "like", name, *x, {x});
               pytorch().compare_value(c, "like",
                                       "torch.empty_like(" + std::string(name) + ").stride()",
                                       empty_like(*x).strides());
               pytorch().compare(c, "like", std::string(name) + ".clone()", x->clone(), {x});
             }
           });

  // ---- Contiguous strides ----------------------------------------------------------------------------------
  ch.section("strides", "Contiguous strides");

  ch.claim("CT-05",
           "A contiguous layout has strides[k] = Π_{i>k} size[i], so strides[N−1] = 1; PyTorch "
           "counts a size-0 dim as 1 in the product, so (3, 0, 2) gets (2, 2, 1).",
           [](book::Check& c) {
             //! [contiguous_strides]
             auto row_major = [](const Shape& sizes) {
               Shape strides(sizes.size());
               int64_t product = 1;
               for (int64_t k = static_cast<int64_t>(sizes.size()) - 1; k >= 0; --k) {
                 strides[k] = product;
                 product *= std::max<int64_t>(sizes[k], 1);
               }
               return strides;
             };
             //! [contiguous_strides]
             RandomLayouts r(34);
             int64_t tried = 0, agree = 0, with_zero = 0;
             for (int k = 0; k < 500; ++k) {
               const Shape sizes = r.sizes(5, 4, 0);
               agree += row_major(sizes) == contiguous_strides(sizes) &&
                        strided::empty(sizes).strides() == row_major(sizes) && row_major(sizes).back() == 1;
               with_zero += std::count(sizes.begin(), sizes.end(), int64_t{0}) > 0;
               ++tried;
             }
             c.equal("random shapes where the formula, contiguous_strides and empty() agree",
                     agree, tried);
             c.that("shapes with a zero size among them", with_zero > 0, book::show(with_zero));
             c.equal("empty(3, 0, 2).strides()", empty({3, 0, 2}).strides(), Shape{2, 2, 1},
                     "zero_strides");
             // The formula describes contiguous layouts only: a transpose has other strides.
             Tensor t = zeros({3, 4}).t();
             c.equal("t.t(): strides equal to the formula's", t.strides() == row_major(t.sizes()),
                     false);
             int64_t shapes = 0, formula_agrees = 0;
             for (const Shape& sizes : all_shapes(1, 4, {0, 1, 2, 3})) {
               ++shapes;
               formula_agrees += row_major(sizes) == strided::empty(sizes).strides();
             }
             pytorch().compare_value(c, "contiguous_strides", "shapes", shapes);
             pytorch().compare_value(c, "contiguous_strides", "formula_agrees", formula_agrees);
             pytorch().compare_value(c, "contiguous_strides", "torch.empty(3, 0, 2).stride()",
                                     empty({3, 0, 2}).strides());
             pytorch().compare_value(c, "contiguous_strides", "torch.zeros(3, 4).t().stride()",
                                     t.strides());
           });

  ch.claim("CT-06", "arange(0, 24).reshape(1, 2, 3, 4) has strides (2·3·4, 3·4, 4, 1) = (24, 12, 4, 1).",
           [](book::Check& c) {
             Tensor t = arange(0, 24).reshape({1, 2, 3, 4});
             c.equal("strides", t.strides(), Shape{2 * 3 * 4, 3 * 4, 4, 1});
             c.equal("which are", t.strides(), Shape{24, 12, 4, 1}, "worked_strides");
             pytorch().compare_value(c, "contiguous_strides",
                                     "torch.arange(0, 24).reshape(1, 2, 3, 4).stride()",
                                     t.strides());
           });

  // ---- Addresses in index order ------------------------------------------------------------------------
  ch.section("order", "Addresses in index order");

  ch.claim("CT-07",
           "A non-empty contiguous tensor of ≥ 1 dim, by the notebook's definition, has "
           "non-increasing strides, and a lexicographically smaller index has a strictly smaller "
           "address. For PyTorch-contiguous tensors the address part holds too, the stride part "
           "does not.",
           [](book::Check& c) {
             RandomLayouts r(35);
             int64_t nb_tensors = 0, nb_ok = 0, pt_tensors = 0, pt_addresses = 0, pt_strides = 0;
             for (int k = 0; k < 400; ++k) {
               const Shape sizes = r.sizes(5, 4);
               Shape strides = contiguous_strides(sizes);
               Tensor t = layout_tensor(sizes, strides);
               ++nb_tensors;
               nb_ok += notebook_is_contiguous(t) && book::non_increasing(t.strides()) &&
                        models::is_sorted(models::logical_trace(t), /*strict=*/true);
               // The same sizes with arbitrary strides on the size-1 dims: still PyTorch-contiguous.
               for (size_t d = 0; d < sizes.size(); ++d)
                 if (sizes[d] == 1) strides[d] = r.below(100);
               Tensor u = layout_tensor(sizes, strides);
               if (!u.is_contiguous()) continue;
               ++pt_tensors;
               pt_addresses += models::is_sorted(models::logical_trace(u), /*strict=*/true);
               pt_strides += book::non_increasing(u.strides());
             }
             c.equal("notebook-contiguous: non-increasing strides and increasing addresses", nb_ok,
                     nb_tensors);
             c.equal("PyTorch-contiguous: increasing addresses", pt_addresses, pt_tensors);
             c.that("PyTorch-contiguous with strides that increase somewhere",
                    pt_strides < pt_tensors, book::show(pt_tensors - pt_strides));
           });

  ch.erratum("ER-02",
             "If t is non-empty and not a scalar, its strides are non-increasing (PyTorch for "
             "Scientists!, nikitaved, note after In[11]).",
             "True for the canonical strides the notebook's check accepts, not for every tensor "
             "PyTorch calls contiguous: (2, 3, 4, 1) with strides (12, 4, 1, 24) is contiguous. "
             "Canonical strides use max(size, 1) for a size-0 dim, (3, 0, 2) → (2, 2, 1), and "
             "size-1 dims give equal neighbours: non-increasing, not decreasing.",
             [](book::Check& c) {
               Tensor p = arange(24).reshape({1, 2, 3, 4}).permute({1, 2, 3, 0});
               c.equal("(12, 4, 1, 24) is contiguous", p.is_contiguous(), true);
               c.equal("its strides are non-increasing", book::non_increasing(p.strides()), false);
               c.equal("empty(3, 0, 2).strides()", empty({3, 0, 2}).strides(), Shape{2, 2, 1});
               Tensor ties = zeros({2, 1, 3});
               c.equal("zeros(2, 1, 3).strides()", ties.strides(), Shape{3, 3, 1}, "ties_strides");
               pytorch().compare(c, "increasing", "p", p);
               pytorch().compare_value(c, "increasing", "torch.zeros(2, 1, 3).stride()",
                                       ties.strides());
               pytorch().compare_value(c, "contiguous_strides", "torch.empty(3, 0, 2).stride()",
                                       empty({3, 0, 2}).strides());
               c.value("increasing_strides", p.strides());
             });

  ch.claim("CT-08",
           "Contiguous ⇔ gap-free memory set of the minimal span itemsize·numel, a bijection "
           "between indices and addresses, and addresses in lexicographic index order; a "
           "permuted dense tensor has the first two but not the third.",
           [](book::Check& c) {
             //! [traces]
             Tensor t = zeros({2, 3, 4});
             Tensor p = t.permute({2, 0, 1});
             models::Trace in_order = models::logical_trace(t);
             models::Trace permuted = models::logical_trace(p);
             //! [traces]
             std::vector<int64_t> expected(t.numel());
             for (int64_t i = 0; i < t.numel(); ++i) expected[i] = i * t.element_size();
             c.equal("trace of t is 0, 4, 8, …", in_order.bytes, expected);
             std::vector<int64_t> sorted = permuted.bytes;
             std::sort(sorted.begin(), sorted.end());
             c.equal("trace of p, sorted, is the same (gap-free, one index per address)", sorted,
                     expected);
             c.equal("trace of p is in order", models::is_sorted(permuted), false);
             c.equal("p.is_contiguous()", p.is_contiguous(), false);
             pytorch().compare_value(c, "traces", "in_order", in_order.bytes);
             pytorch().compare_value(c, "traces", "permuted", permuted.bytes);
             pytorch().compare(c, "traces", "p", p, {&t});
             c.value("trace_p_first", book::head(permuted, 8, 1));  // "0, 16, 32, …" in bytes
             c.value("trace_t_first", book::head(in_order, 4, 1));
             c.value("trace_span", t.nbytes());
           });

  contiguity::dense(ch);  // 03_contiguity/dense.cpp: dense layouts

  // ---- Reshape -------------------------------------------------------------------------------------------
  ch.section("reshape", "Reshaping a contiguous tensor");

  ch.claim("CT-10",
           "Any numel-preserving reshape of a contiguous tensor is a contiguous view: a 24-vector "
           "reshaped to (12, 2) and (2, 3, 4); after x[0] = 10, y[0, 0] and z[0, 0, 0] read 10.",
           [](book::Check& c) {
             Generator gen(8);
             Tensor x = rand({24}, gen);
             const int64_t before = Storage::allocation_count();
             //! [reshape]
             Tensor y = x.reshape({12, 2});
             Tensor z = x.reshape({2, 3, 4});
             x.set({0}, 10.0);
             //! [reshape]
             c.equal("allocations", Storage::allocation_count() - before, int64_t{0},
                     "reshape_allocations");
             c.equal("y and z contiguous", y.is_contiguous() && z.is_contiguous(), true);
             c.equal("y[0, 0]", y.at({0, 0}).to_double(), 10.0);
             c.equal("z[0, 0, 0]", z.at({0, 0, 0}).to_double(), 10.0, "reshape_read");
             // Every factorisation of 24 into up to three sizes.
             int64_t shapes = 0, views = 0;
             for (int64_t a = 1; a <= 24; ++a)
               for (int64_t b = 1; a * b <= 24; ++b) {
                 if (24 % (a * b)) continue;
                 Tensor v = x.reshape({a, b, 24 / (a * b)});
                 ++shapes;
                 views += v.is_contiguous() && v.storage().is_same(x.storage()) &&
                          v.strides() == contiguous_strides(v.sizes());
               }
             c.equal("3-d reshapes of x that are contiguous views", views, shapes);
             pytorch().compare(c, "reshape", "y", y, {&x});  // rand: no values
             pytorch().compare(c, "reshape", "z", z, {&x});
             pytorch().compare_value(c, "reshape", "y[0, 0].item()", y.at({0, 0}).to_double());
             pytorch().compare_value(c, "reshape", "z[0, 0, 0].item()",
                                     z.at({0, 0, 0}).to_double());
             pytorch().compare_value(c, "reshape", "shapes", shapes);
             pytorch().compare_value(c, "reshape", "views", views);
           });

  // ---- .contiguous() -------------------------------------------------------------------------------------
  ch.section("contiguous", "What contiguous() does");

  ch.claim("CT-11",
           "contiguous() returns compact row-major storage, copying when needed: "
           "t[:, :, :, 2].reshape(3, 2).contiguous() has storage [2, 6, 10, 14, 18, 22], shape "
           "(3, 2), strides (2, 1); an already contiguous tensor is returned as it is.",
           [](book::Check& c) {
             Tensor t = arange(24).reshape({1, 2, 3, 4});
             //! [contiguous]
             Tensor v = t.index({Slice(), Slice(), Slice(), 2}).reshape({3, 2});  // a view
             int64_t before = Storage::allocation_count();
             Tensor compact = v.contiguous();  // copies
             const int64_t copy_allocations = Storage::allocation_count() - before;
             before = Storage::allocation_count();
             Tensor same = compact.contiguous();  // already contiguous: compact itself
             const int64_t no_allocations = Storage::allocation_count() - before;
             //! [contiguous]
             const auto* s = static_cast<const int64_t*>(compact.storage().data());
             const std::vector<int64_t> storage(s, s + compact.storage().nbytes() / compact.element_size());
             c.equal("v's strides", v.strides(), Shape{8, 4}, "v_strides");
             c.equal("v's storage offset", v.storage_offset(), int64_t{2}, "v_offset");
             c.equal("v shares t's storage", v.storage().is_same(t.storage()), true);
             c.equal("allocations by v.contiguous()", copy_allocations, int64_t{1},
                     "compact_copy_allocations");
             c.equal("compact's storage", storage, std::vector<int64_t>{2, 6, 10, 14, 18, 22},
                     "compact_storage");
             c.equal("compact's sizes", compact.sizes(), Shape{3, 2});
             c.equal("compact's strides", compact.strides(), Shape{2, 1}, "compact_strides");
             c.equal("allocations by compact.contiguous()", no_allocations, int64_t{0},
                     "compact_same_allocations");
             c.equal("compact.contiguous() is compact", same.storage().is_same(compact.storage()) &&
                                                            same.strides() == compact.strides() &&
                                                            same.storage_offset() == compact.storage_offset(),
                     true);
             pytorch().compare(c, "contiguous", "v", v, {&t});
             pytorch().compare(c, "contiguous", "compact", compact, {&t});
             pytorch().compare_value(c, "contiguous", "storage_values(compact)", storage);
             pytorch().compare_value(c, "contiguous", "same is compact",
                                     book::same_layout(same, compact));
             c.figure("before_contiguous", views_svg({{t, "t"}, {v, "v = t[:, :, :, 2].reshape(3, 2)"}}),
                      "v reads every fourth cell of t's storage.");
             c.figure("after_contiguous", tensor_svg(compact, "v.contiguous()"),
                      "v.contiguous(): the same values, packed in a storage of their own.");
           });

  // ---- What breaks contiguity ----------------------------------------------------------------------------
  ch.section("breaks", "What breaks contiguity");

  ch.claim("CT-12",
           "Broadcasting a size-1 dim to more, integer-indexing an inner dim and transposing two "
           "dims of size > 1 give non-contiguous results; an expand that only adds size-1 "
           "leading dims stays contiguous.",
           [](book::Check& c) {
             Tensor t = arange(24).reshape({1, 2, 3, 4});
             const std::vector<std::tuple<std::string, Tensor, bool>> cases = {
                 {"t.broadcast_to((2, 2, 3, 4))", t.broadcast_to({2, 2, 3, 4}), false},
                 {"t[:, :, :, 2]", t.index({Slice(), Slice(), Slice(), 2}), false},
                 {"t.transpose(1, 2)", t.transpose(1, 2), false},
                 {"t.transpose(0, 1)", t.transpose(0, 1), true},
                 {"t.expand(1, 1, 2, 3, 4)", t.expand({1, 1, 2, 3, 4}), true},
                 {"t[0, 1]", t.index({0, 1}), true},
             };
             std::vector<std::vector<std::string>> rows;
             for (const auto& [name, v, contiguous] : cases) {
               c.equal(name + " is contiguous", v.is_contiguous(), contiguous);
               rows.push_back(layout_row(name, v));
               pytorch().compare(c, "breaks", name, v, {&t});
             }
             c.table("breaks", {"tensor", "sizes", "strides", "notebook", "PyTorch"}, rows);
             c.value("expand_strides", t.expand({1, 1, 2, 3, 4}).strides());
           });

  ch.erratum("ER-16",
             "is_contiguous() being True after permute(1, 2, 3, 0) shows that the underlying "
             "storage is still compact (martinlwx).",
             "It is True only because the dim that moved has size 1: the same permute of a "
             "(2, 2, 3, 4) tensor is not contiguous, though its storage is just as compact. "
             "is_contiguous() describes the view's strides, not the storage.",
             [](book::Check& c) {
               //! [er16]
               Tensor one = arange(24).reshape({1, 2, 3, 4}).permute({1, 2, 3, 0});
               Tensor two = arange(48).reshape({2, 2, 3, 4}).permute({1, 2, 3, 0});
               //! [er16]
               c.equal("(1, 2, 3, 4).permute(1, 2, 3, 0) is contiguous", one.is_contiguous(), true);
               c.equal("(2, 2, 3, 4).permute(1, 2, 3, 0) is contiguous", two.is_contiguous(), false);
               c.equal("both dense (every storage cell used once)",
                       one.is_non_overlapping_and_dense() && two.is_non_overlapping_and_dense(),
                       true);
               c.equal("the second's memory set is its whole storage",
                       static_cast<int64_t>(memory_set(two).size()),
                       two.storage().nbytes() / two.element_size());
               pytorch().compare(c, "er16", "one", one);
               pytorch().compare(c, "er16", "two", two);
               pytorch().compare_value(c, "er16", "is_dense(one)",
                                       one.is_non_overlapping_and_dense());
               pytorch().compare_value(c, "er16", "is_dense(two)",
                                       two.is_non_overlapping_and_dense());
               pytorch().compare_value(c, "er16", "runs(two)",
                                       static_cast<int64_t>(memory_intervals(two).size()));
               c.value("er16_one_strides", one.strides());
               c.value("er16_two_strides", two.strides());
               c.value("er16_two_sizes", two.sizes());
               PictureOptions opts;
               opts.links = false;
               c.figure("er16_one", tensor_svg(one, "arange(24).reshape(1, 2, 3, 4).permute(1, 2, 3, 0)", opts),
                        "Size 1 last: read in index order, the storage offsets simply count up.");
               c.figure("er16_two", tensor_svg(two, "arange(48).reshape(2, 2, 3, 4).permute(1, 2, 3, 0)", opts),
                        "The same strides with a last dim of size " + book::show(two.size(-1)) +
                            ": the offsets jump by " + book::show(two.stride(-1)) +
                            " along it, though every cell is still used once.");
             });

  contiguity::numpy_box(ch);      // 03_contiguity/exercises.cpp: NumPy's two flags
  contiguity::channels_last(ch);  // 03_contiguity/channels_last.cpp: channels last
  contiguity::exercises(ch);      // 03_contiguity/exercises.cpp: exercises, last

  return ch.main(argc, argv);
}
