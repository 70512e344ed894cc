// Chapter 4, section "When a new shape can be a view": the runs of a layout and the rule that
// splits them (IX-05, IX-11), the definition by offsets it agrees with (IX-06, ER-34) and view()'s
// contract (IX-07). The code between //! [name] markers is shown on the chapter's page.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "04_indexing/indexing.h"
#include "book/book.h"
#include "strided/memory/memory.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using indexing::None;
using indexing::Slice;
using indexing_chapter::layout_row;
using indexing_chapter::pytorch;

namespace {

// ---- teaching helpers: shown on the page ------------------------------------------------------------

//! [runs]
// The runs of a layout: maximal groups of adjacent dims that walk memory as one dim would,
// because stride[i] == size[i+1] * stride[i+1]. A run is its element count and its innermost
// stride. A dim of size 1 never breaks a run: it has no second element to step to.
struct Run {
  int64_t numel, stride;
};
std::vector<Run> runs(IntList sizes, IntList strides) {
  std::vector<Run> out;  // innermost run first
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    if (sizes[d] == 1) continue;
    if (!out.empty() && strides[d] == out.back().numel * out.back().stride)
      out.back().numel *= sizes[d];
    else
      out.push_back({sizes[d], strides[d]});
  }
  std::reverse(out.begin(), out.end());
  return out;
}
//! [runs]

//! [split_runs]
// The view rule: read the new shape from the right and cut it into groups, one per run, each
// group multiplying to its run's element count; a group splits its run with row-major strides
// scaled by the run's stride. No such cut, no view. Size-1 dims fit anywhere; their stride is
// never used, so they get 0 here (PyTorch gives them a value of its own).
std::optional<Shape> split_runs(IntList sizes, IntList strides, IntList new_sizes) {
  std::vector<Run> todo = runs(sizes, strides);
  Shape out(new_sizes.size(), 0);
  int64_t filled = 1;  // elements of the innermost unfinished run already covered
  for (int64_t d = static_cast<int64_t>(new_sizes.size()) - 1; d >= 0; --d) {
    if (new_sizes[d] == 1) continue;
    if (todo.empty()) return std::nullopt;
    out[d] = filled * todo.back().stride;
    filled *= new_sizes[d];
    if (todo.back().numel % filled != 0) return std::nullopt;  // the group straddles two runs
    if (filled == todo.back().numel) {
      todo.pop_back();
      filled = 1;
    }
  }
  if (!todo.empty()) return std::nullopt;
  return out;
}
//! [split_runs]

//! [reproduce]
// What a view must do, stated without any rule: the view's elements, in row-major order, sit at
// the same storage offsets as the tensor's. Some strides do that for the new shape exactly when
// the strides read off the first neighbours reproduce every offset.
std::optional<Shape> strides_reproducing(const std::vector<int64_t>& offsets, IntList new_sizes) {
  const int64_t n = static_cast<int64_t>(new_sizes.size());
  Shape place(n, 1), strides(n, 0);  // place[d]: the row-major index step of dim d
  for (int64_t d = n - 2; d >= 0; --d) place[d] = place[d + 1] * new_sizes[d + 1];
  for (int64_t d = 0; d < n; ++d)
    if (new_sizes[d] > 1) strides[d] = offsets[place[d]] - offsets[0];
  for (int64_t flat = 0; flat < static_cast<int64_t>(offsets.size()); ++flat) {
    int64_t at = offsets[0];
    for (int64_t d = 0; d < n; ++d) at += (flat / place[d] % new_sizes[d]) * strides[d];
    if (at != offsets[flat]) return std::nullopt;
  }
  return strides;
}
//! [reproduce]

// ---- plumbing: not shown ------------------------------------------------------------------------------

// The storage offsets of a tensor's elements in row-major order.
std::vector<int64_t> offsets_of(const Tensor& t) {
  std::vector<int64_t> out;
  Shape i(t.dim(), 0);
  for (int64_t k = 0; k < t.numel(); ++k) {
    out.push_back(t.offset_of(i));
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++i[d] < t.size(d)) break;
      i[d] = 0;
    }
  }
  return out;
}

// Strides where the dim has more than one element; a size-1 dim's stride is never used.
Shape used_strides(IntList sizes, IntList strides) {
  Shape out;
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] > 1) out.push_back(strides[d]);
  return out;
}

// Every shape of 1 to kShapeDims dims whose sizes multiply to n.
constexpr int64_t kShapeDims = 3;
std::vector<Shape> shapes_of(int64_t n) {
  std::vector<Shape> out = {{n}};
  for (int64_t a = 1; a <= n; ++a) {
    if (n % a) continue;
    out.push_back({a, n / a});
    for (int64_t b = 1; b <= n / a; ++b)
      if ((n / a) % b == 0) out.push_back({a, b, n / a / b});
  }
  return out;
}

std::string runs_text(const std::vector<Run>& rs) {
  std::string s;
  for (const Run& r : rs)
    s += (s.empty() ? "" : ", ") + std::to_string(r.numel) + " elements, step " +
         std::to_string(r.stride);
  return s.empty() ? "none" : s;
}

}  // namespace

void indexing_chapter::view_rule(book::Chapter& ch) {
  // ---- When a new shape can be a view ----------------------------------------------------------------
  ch.section("view_rule", "When a new shape can be a view");

  ch.claim("IX-05",
           "A non-contiguous tensor can still be reshaped as a view: t[:,:,:,2], shape (1,2,3) "
           "and strides (24,12,4), reshaped to (3,2) is a view with strides (8,4) and offset 2. "
           "Adjacent dims merge when stride[i] == size[i+1]·stride[i+1] (size-1 dims ignored), "
           "and a merged run splits into any sizes with row-major strides scaled by its stride.",
           [](book::Check& c) {
             Tensor t = arange(24).reshape({1, 2, 3, 4});
             //! [reshape_view]
             Tensor v = t.index({Slice(), Slice(), Slice(), 2});  // (1,2,3):(24,12,4)
             std::vector<Run> r = runs(v.sizes(), v.strides());   // one run: 6 elements, step 4
             const int64_t allocations = Storage::allocation_count();
             Tensor m = v.reshape({3, 2});                        // (3,2):(8,4), a view
             //! [reshape_view]
             c.equal("allocations made by reshape", Storage::allocation_count() - allocations,
                     int64_t{0});
             c.equal("shares t's storage", m.storage().is_same(t.storage()), true);
             c.equal("strides", m.strides(), Shape{8, 4}, "m_strides");
             c.equal("offset", m.storage_offset(), int64_t{2});
             c.equal("values", m.to_vector(), std::vector<double>{2, 6, 10, 14, 18, 22});
             c.equal("runs of v", runs_text(r), std::string("6 elements, step 4"));
             c.equal("split_runs(v, (3, 2))", split_runs(v.sizes(), v.strides(), {3, 2}).value(),
                     Shape{8, 4});
             c.equal("storage of t untouched", t.to_vector(), arange(24).to_vector());
             pytorch().compare(c, "reshape_view", "v.reshape(3, 2)", m, {&t});
             pytorch().compare(c, "reshape_view", "v.view(3, 2)", v.view({3, 2}), {&t});
             // The rule, as runs and split_runs write it, against the library's view() and
             // against the definition (strides that reproduce the element order), on a battery.
             int64_t cases = 0, rule_agrees = 0, definition_agrees = 0, views = 0;
             for (const Tensor& x : book::layout_battery(300, 5)) {
               const std::vector<int64_t> offsets = offsets_of(x);
               for (const Shape& shape : shapes_of(x.numel())) {
                 ++cases;
                 std::optional<Shape> lib;
                 try {
                   lib = x.view(shape).strides();
                 } catch (const Error&) {
                 }
                 const std::optional<Shape> rule = split_runs(x.sizes(), x.strides(), shape);
                 const std::optional<Shape> def = strides_reproducing(offsets, shape);
                 views += lib.has_value();
                 auto same = [&](const std::optional<Shape>& s) {
                   return s.has_value() == lib.has_value() &&
                          (!lib || used_strides(shape, *s) == used_strides(shape, *lib));
                 };
                 rule_agrees += same(rule);
                 definition_agrees += same(def);
               }
             }
             c.equal("cases where split_runs agrees with view()", rule_agrees, cases);
             c.equal("cases where the definition agrees with view()", definition_agrees, cases);
             c.that("both outcomes seen", views > 0 && views < cases,
                    std::to_string(views) + " views, " + std::to_string(cases - views) +
                        " refusals");
             c.value("shape_dims", kShapeDims);
             c.value("run_stride", r.front().stride);
             c.figure("reshape_view",
                      views_svg({{v, "t[:, :, :, 2]"}, {m, "t[:, :, :, 2].reshape(3, 2)"}}),
                      "t[:, :, :, 2] and its reshape to (3, 2): the same " +
                          std::to_string(m.numel()) + " cells, read in the same order, as one run "
                          "of step " + std::to_string(r.front().stride) + ".");
           });

  ch.claim("IX-11",
           "arange(24).reshape(2,3,4)[:,:,::2] (strides (12,4,2)) views as (6,2) with strides "
           "(4,2), as (2,6) with (12,2) and as (12,) with (2,); with [:,:,::3] (strides "
           "(12,4,3)) the last two dims cannot merge, so view(12) fails and reshape(12) copies. "
           "An expanded tensor splits but cannot flatten.",
           [](book::Check& c) {
             Tensor base = arange(24).reshape({2, 3, 4});
             //! [more_views]
             Tensor e2 = base.index({Slice(), Slice(), Slice(None, None, 2)});  // (2,3,2):(12,4,2)
             Tensor e3 = base.index({Slice(), Slice(), Slice(None, None, 3)});  // (2,3,2):(12,4,3)
             Tensor col = arange(3).view({3, 1}).expand({3, 4});              // (3,4):(1,0)
             //! [more_views]
             c.equal("e2 strides", e2.strides(), Shape{12, 4, 2});
             c.equal("e2.view(6, 2)", e2.view({6, 2}).strides(), Shape{4, 2});
             c.equal("e2.view(2, 6)", e2.view({2, 6}).strides(), Shape{12, 2});
             c.equal("e2.view(12)", e2.view({12}).strides(), Shape{2}, "e2_view12");
             c.equal("e3 strides", e3.strides(), Shape{12, 4, 3});
             c.equal("runs of e3", runs_text(runs(e3.sizes(), e3.strides())),
                     std::string("6 elements, step 4, 2 elements, step 3"),
                     "e3_runs");
             pytorch().compare_error(c, "more_views", "e3.view(12)", [&] { e3.view({12}); });
             Tensor flat;
             const int64_t copies = book::allocations_during([&] { flat = e3.reshape({12}); });
             c.equal("allocations made by e3.reshape(12)", copies, int64_t{1});
             c.equal("e3.reshape(12) shares e3's storage", flat.storage().is_same(e3.storage()),
                     false);
             c.equal("e3.reshape(12) values", flat.to_vector(),
                     std::vector<double>{0, 3, 4, 7, 8, 11, 12, 15, 16, 19, 20, 23});
             // The expanded column: one run per dim (the stride-0 dim cannot merge with the
             // other), so it splits each dim freely but never merges them.
             c.equal("col strides", col.strides(), Shape{1, 0});
             c.equal("col.view(3, 2, 2)", col.view({3, 2, 2}).strides(), Shape{1, 0, 0},
                     "col_split");
             pytorch().compare_error(c, "more_views", "col.view(12)", [&] { col.view({12}); });
             const int64_t col_copies = book::allocations_during([&] { (void)col.reshape({12}); });
             c.equal("allocations made by col.reshape(12)", col_copies, int64_t{1});
             pytorch().compare(c, "more_views", "e2", e2, {&base});
             pytorch().compare(c, "more_views", "e2.view(6, 2)", e2.view({6, 2}), {&base});
             pytorch().compare(c, "more_views", "e2.view(2, 6)", e2.view({2, 6}), {&base});
             pytorch().compare(c, "more_views", "e2.view(12)", e2.view({12}), {&base});
             pytorch().compare(c, "more_views", "e3", e3, {&base});
             pytorch().compare(c, "more_views", "e3.reshape(12)", flat, {&base});
             pytorch().compare(c, "more_views", "col", col, {&col});
             pytorch().compare(c, "more_views", "col.view(3, 2, 2)", col.view({3, 2, 2}), {&col});
             pytorch().compare(c, "more_views", "col.reshape(12)", col.reshape({12}), {&col});
             c.table("more_views", {"tensor", "shape", "strides", "storage offset", "contiguous"},
                     {layout_row("e2 = base[:, :, ::2]", e2),
                      layout_row("e2.view(6, 2)", e2.view({6, 2})),
                      layout_row("e2.view(2, 6)", e2.view({2, 6})),
                      layout_row("e2.view(12)", e2.view({12})),
                      layout_row("e3 = base[:, :, ::3]", e3),
                      layout_row("e3.reshape(12) (a copy)", flat),
                      layout_row("col = arange(3).view(3, 1).expand(3, 4)", col),
                      layout_row("col.view(3, 2, 2)", col.view({3, 2, 2}))});
             c.value("col_runs", runs_text(runs(col.sizes(), col.strides())));
             c.figure("strided_views",
                      views_svg({{e2, "base[:, :, ::2]"}, {e3, "base[:, :, ::3]"}}),
                      "base[:, :, ::2] (one run of step 2) and base[:, :, ::3] (two runs).");
             c.figure("expanded_column",
                      views_svg({{col, "col"}, {col.view({3, 2, 2}), "col.view(3, 2, 2)"}}),
                      "An expanded column and its split: each storage cell is used " +
                          std::to_string(col.size(1)) + " times.");
           });

  ch.claim("IX-06",
           "view() refuses strides it cannot express: for x = arange(9).reshape(3,3), "
           "x.t().view(1,-1) fails because the wanted order sits at storage positions "
           "0,3,6,1,4,7,2,5,8, no arithmetic progression; x.t().reshape(1,-1) returns a new buffer "
           "[[0,3,6,1,4,7,2,5,8]].",
           [](book::Check& c) {
             //! [t_view]
             Tensor x = arange(9).reshape({3, 3});
             Tensor xt = x.t();  // (3,3):(1,3)
             // xt.view({1, -1}) throws: view size is not compatible with input tensor's size ...
             Tensor flat = xt.reshape({1, -1});  // a copy
             //! [t_view]
             pytorch().compare_error(c, "t_view", "x.t().view(1, -1)", [&] { xt.view({1, -1}); });
             c.value("t_view_words", pytorch().error_message("t_view", "x.t().view(1, -1)"));
             pytorch().compare(c, "t_view", "x.t().reshape(1, -1)", flat, {&x});
             const std::vector<int64_t> positions = offsets_of(xt);
             c.equal("storage positions in row-major order", positions,
                     std::vector<int64_t>{0, 3, 6, 1, 4, 7, 2, 5, 8},
                     "positions");
             c.equal("strides reproducing them", strides_reproducing(positions, {9}).has_value(),
                     false);
             Tensor again;
             c.equal("allocations made by x.t().reshape(1, -1)",
                     book::allocations_during([&] { again = xt.reshape({1, -1}); }), int64_t{1});
             c.equal("values", flat.to_vector(), std::vector<double>{0, 3, 6, 1, 4, 7, 2, 5, 8},
                     "flat_values");
             c.equal("shape", flat.sizes(), Shape{1, 9});
             c.equal("new storage", flat.storage().is_same(x.storage()), false);
             c.equal("contiguous", flat.is_contiguous(), true);
             try {
               xt.view({1, -1});
             } catch (const Error& e) {
               c.text("t_view_error", std::string("x.t().view(1, -1)\n") + e.what());
             }
             c.figure("t_view", views_svg({{x, "x"}, {xt, "x.t()"}}),
                      "x and x.t(): read row by row, x.t() jumps 0, 3, 6, then back to 1.");
             c.figure("t_reshape", tensor_svg(flat, "x.t().reshape(1, -1)"),
                      "x.t().reshape(1, -1): a new storage holding the values in x.t()'s order.");
           });

  ch.erratum("ER-34",
             "reshape may copy \"if the shape is incompatible\", and a reshape only needs to "
             "change the shape attribute (r-nn, Taking PyTorch For Granted).",
             "What decides is the strides: the same request (3,3) → (1,9) is a view of x and a "
             "copy of x.t(); and a view gets new strides along with its new shape.",
             [](book::Check& c) {
               Tensor x = arange(9).reshape({3, 3});
               Tensor a, b;
               c.equal("allocations made by x.reshape(1, -1)",
                       book::allocations_during([&] { a = x.reshape({1, -1}); }), int64_t{0});
               c.equal("allocations made by x.t().reshape(1, -1)",
                       book::allocations_during([&] { b = x.t().reshape({1, -1}); }), int64_t{1});
               c.equal("same sizes before", x.sizes(), x.t().sizes());
               c.equal("different strides before", x.strides() != x.t().strides(), true);
               c.equal("x.reshape(1, -1) strides", a.strides(), Shape{9, 1});
               c.equal("strides changed with the shape", a.strides() != x.strides(), true);
               pytorch().compare(c, "t_view", "x.reshape(1, -1)", a, {&x});
             });

  ch.claim("IX-07",
           "view never copies (it fails instead); reshape returns a view exactly when view would "
           "succeed, and a contiguous copy otherwise.",
           [](book::Check& c) {
             int64_t cases = 0, agree = 0, copies = 0, copies_ok = 0;
             for (const Tensor& x : book::layout_battery(300, 6)) {
               const std::vector<double> values = x.to_vector();
               for (const Shape& shape : shapes_of(x.numel())) {
                 ++cases;
                 bool viewed = true;
                 try {
                   Tensor v = x.view(shape);
                   viewed = v.storage().is_same(x.storage());
                 } catch (const Error&) {
                   viewed = false;
                 }
                 //! [contract]
                 const int64_t before = Storage::allocation_count();
                 Tensor r = x.reshape(shape);
                 const bool shared = r.storage().is_same(x.storage());
                 const bool allocated = Storage::allocation_count() != before;
                 //! [contract]
                 agree += shared == viewed && allocated == !viewed;
                 if (!shared) {
                   ++copies;
                   copies_ok += r.is_contiguous() && r.to_vector() == values;
                 }
               }
             }
             c.equal("cases where reshape shares ⇔ view succeeds", agree, cases);
             c.equal("copies that are contiguous with the same values", copies_ok, copies);
             c.that("both outcomes seen", copies > 0 && copies < cases,
                    std::to_string(copies) + " copies in " + std::to_string(cases));
             {  // the listing's PyTorch form, on one case: reshape(3, 4) of a strided view
               Tensor x = arange(24).view({2, 3, 4});
               x = x.index({Slice(), Slice(), Slice(None, None, 2)});
               Tensor r = x.reshape({3, 4});
               pytorch().compare_value(c, "contract", "shared", r.storage().is_same(x.storage()));
             }
           });
}
