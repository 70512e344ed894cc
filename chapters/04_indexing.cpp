// Chapter 4, Indexing, reshape and view(): what an index does to the offset and the strides, when a
// new shape can be a view, and which indices copy. Claims IX-01…IX-11 and the errata the catalogue
// gives this chapter; the section "When a new shape can be a view" is in chapters/04_indexing/
// (indexing.h). The code between //! [name] markers is shown on the chapter's page
// (docs/04_indexing.md).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "04_indexing/indexing.h"
#include "book/book.h"
#include "book/plumbing.h"
#include "book/pytorch_record.h"
#include "strided/memory/memory.h"
#include "strided/pictures/picture.h"
#include "strided/strided.h"

using namespace strided;
using indexing::Ellipsis;
using indexing::None;
using indexing::Slice;
using indexing_chapter::layout_row;
using indexing_chapter::pytorch;

namespace {

// ---- teaching helpers: shown on the page ------------------------------------------------------------

//! [strides_from_values]
// For a view of arange(n), each element's value is its storage index, so the stride of dim k is
// the difference between the first element and its neighbour along k.
Shape strides_from_values(const Tensor& v) {
  Shape strides;
  const Shape first(v.dim(), 0);
  for (int64_t k = 0; k < v.dim(); ++k) {
    Shape next = first;
    next[k] = 1;
    strides.push_back(v.at(next).to_int() - v.at(first).to_int());
  }
  return strides;
}
//! [strides_from_values]

//! [normalize]
// Python's slice.indices for step > 0, which PyTorch's slice follows: a negative bound counts
// from the end, then both bounds are clamped to [0, size], and an empty range starts where it
// stops. The slice then has ceil((stop - start) / step) elements.
struct Bounds {
  int64_t start, stop, length;
};
Bounds normalize(int64_t start, int64_t stop, int64_t step, int64_t size) {
  if (start < 0) start += size;
  if (stop < 0) stop += size;
  start = std::clamp<int64_t>(start, 0, size);
  stop = std::clamp<int64_t>(stop, start, size);
  return {start, stop, (stop - start + step - 1) / step};
}
//! [normalize]

// ---- plumbing: not shown ------------------------------------------------------------------------------

// "[3, 2]": sizes as a Python list, as torch.Size prints them.
std::string py_list(IntList v) {
  std::string s;
  for (int64_t x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return "[" + s + "]";
}

// len(range(start, stop, step)) in Python, for step > 0: what the seed's formula counts.
int64_t python_range_len(int64_t start, int64_t stop, int64_t step) {
  return stop > start ? (stop - start + step - 1) / step : 0;
}

}  // namespace

int main(int argc, char** argv) {
  book::Chapter ch("04_indexing", "Indexing, reshape and view()");

  // ---- An integer index --------------------------------------------------------------------------------
  ch.section("integer", "An integer index");

  ch.claim("IX-01",
           "Indexing dim d with an integer i removes dim d and adds i·stride[d] to the offset: for "
           "t = arange(24).reshape(1,2,3,4), t[:,:,:,2] is [[[2,6,10],[14,18,22]]] with shape "
           "(1,2,3), strides (24,12,4), storage offset 2, and is not contiguous. A negative index "
           "counts from the end: t[:,:,:,-1] is t[:,:,:,3], at offset 3.",
           [](book::Check& c) {
             //! [last_index]
             Tensor t = arange(24).reshape({1, 2, 3, 4});
             Tensor v = t.index({Slice(), Slice(), Slice(), 2});
             //! [last_index]
             c.equal("values", v.to_vector(), std::vector<double>{2, 6, 10, 14, 18, 22});
             c.equal("shape", v.sizes(), Shape{1, 2, 3}, "v_shape");
             c.equal("strides", v.strides(), Shape{24, 12, 4}, "v_strides");
             c.equal("storage offset of t", t.storage_offset(), int64_t{0});
             c.equal("storage offset of v", v.storage_offset(), int64_t{2});
             c.equal("offset = 2·stride[3] of t", v.storage_offset(), 2 * t.stride(3), "v_offset");
             c.equal("contiguous", v.is_contiguous(), false);
             c.equal("shares t's storage", v.storage().is_same(t.storage()), true);
             const Tensor last = t.index({Slice(), Slice(), Slice(), -1});
             c.equal("t[:, :, :, -1]: storage offset", last.storage_offset(), int64_t{3},
                     "last_offset");
             c.equal("t[:, :, :, -1]: values", last.to_vector(), std::vector<double>{3, 7, 11, 15, 19, 23});
             pytorch().compare(c, "last_index", "t[:, :, :, 2]", v, {&t});
             pytorch().compare(c, "last_index", "t[:, :, :, -1]", last, {&t});
             pytorch().compare_value(c, "last_index", "t.stride()", t.strides());
             c.text("last_index", "v = t[:, :, :, 2]\n" + to_string(v) + "\nv.shape = " +
                                      book::show(v.sizes()) + ", v.stride() = " +
                                      book::show(v.strides()) + ", v.storage_offset() = " +
                                      book::show(v.storage_offset()));
             c.value("t_strides", t.strides());
             c.figure("last_index_picture", views_svg({{t, "t"}, {v, "t[:, :, :, 2]"}}),
                      "t = arange(24).reshape(1, 2, 3, 4) and t[:, :, :, 2] over one storage.");
           });

  ch.claim("IX-02",
           "On arange(48).reshape(2,2,3,4) the same index gives "
           "[[[2,6,10],[14,18,22]],[[26,30,34],[38,42,46]]] with strides (24,12,4): the leading "
           "stride 24 now shows, as 2 → 26.",
           [](book::Check& c) {
             //! [another_t]
             Tensor another_t = arange(48).reshape({2, 2, 3, 4});
             Tensor w = another_t.index({Slice(), Slice(), Slice(), 2});
             //! [another_t]
             c.equal("values", w.to_vector(),
                     std::vector<double>{2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 46});
             c.equal("strides", w.strides(), Shape{24, 12, 4}, "w_strides");
             c.equal("w[1, 0, 0] − w[0, 0, 0]",
                     w.at({1, 0, 0}).to_int() - w.at({0, 0, 0}).to_int(), w.stride(0));
             pytorch().compare(c, "another_t", "another_t[:, :, :, 2]", w, {&another_t});
             c.text("another_t", "w = another_t[:, :, :, 2]\n" + to_string(w));
             c.value("w_first", w.at({0, 0, 0}).to_int());
             c.value("w_second", w.at({1, 0, 0}).to_int());
           });

  ch.erratum("ER-18",
             "In the 2×2×3×4 example \"10 -> 35\"; storage offset 2 is \"the second position\"; "
             "the printed outputs have unbalanced brackets and show a torch.Size as (3, 2) "
             "(martinlwx).",
             "10 pairs with 34 (10 + 24); storage offset 2 is index 2, the third slot of the "
             "storage; the values print with balanced brackets and the shape of the reshape is "
             "torch.Size([3, 2]).",
             [](book::Check& c) {
               Tensor w = arange(48).reshape({2, 2, 3, 4}).index({Slice(), Slice(), Slice(), 2});
               c.equal("the element 24 past 10", w.at({1, 0, 2}).to_int(), int64_t{34}, "paired");
               c.equal("w[0, 0, 2]", w.at({0, 0, 2}).to_int(), int64_t{10});
               Tensor v = arange(24).reshape({1, 2, 3, 4}).index({Slice(), Slice(), Slice(), 2});
               const int64_t offset = v.storage_offset();
               const auto* storage = static_cast<const int64_t*>(v.storage().data());
               c.equal("storage slots before the first element", offset, int64_t{2});
               c.equal("the slot it starts in, counted from one", offset + 1, int64_t{3},
                       "third_slot");
               c.equal("value in storage slot [2]", storage[offset], v.at({0, 0, 0}).to_int());
               const std::string printed = to_string(v);
               c.equal("'[' and ']' balance in the print",
                       std::count(printed.begin(), printed.end(), '['),
                       std::count(printed.begin(), printed.end(), ']'));
               c.equal("shape of v.reshape(3, 2)", v.reshape({3, 2}).sizes(), Shape{3, 2});
               pytorch().compare_value(c, "another_t", "str(v)", printed);
               pytorch().compare_value(c, "another_t", "str(v.reshape(3, 2).shape)",
                                       "torch.Size(" + py_list(v.reshape({3, 2}).sizes()) + ")");
             });

  ch.claim("IX-03",
           "When the base is arange from 0, each element's value is its storage index, so a "
           "stride is the difference of values between neighbours along its dim.",
           [](book::Check& c) {
             Tensor v = arange(48).reshape({2, 2, 3, 4}).index({Slice(), Slice(), Slice(), 2});
             //! [read_strides]
             Shape read = strides_from_values(v);  // (24, 12, 4), as v.strides()
             //! [read_strides]
             c.equal("strides read off w's values", read, v.strides(), "read_strides");
             pytorch().compare_value(c, "read_strides", "read", read);
             pytorch().compare_value(c, "read_strides", "v.stride()", v.strides());
             // The same trick over a battery of views of arange storages (every dim longer than
             // 1, so each has a neighbour to read).
             int64_t agree = 0, total = 0;
             for (const Tensor& x : book::layout_battery(400, 4)) {
               if (std::any_of(x.sizes().begin(), x.sizes().end(), [](int64_t s) { return s < 2; }))
                 continue;
               ++total;
               agree += strides_from_values(x) == x.strides();
             }
             c.equal("views whose strides the values give", agree, total);
             c.that("views checked", total >= 100, std::to_string(total) + " views");
           });

  // ---- Several items, one at a time --------------------------------------------------------------------
  ch.section("composite", "Several items, one at a time");

  ch.claim("IX-04",
           "Each index item acts on its own dim: an integer drops the dim and moves the offset, a "
           "slice keeps it with offset += start·stride and stride *= step. On "
           "arange(72).reshape(3,4,6), [2, 1:3, 1:6:3] has offset 2·24 + 1·6 + 1 = 55, shape "
           "(2,2), strides (6,3) and values [[55,58],[61,64]].",
           [](book::Check& c) {
             //! [composite]
             Tensor x = arange(72).reshape({3, 4, 6});  // strides (24, 6, 1)
             Tensor y = x.index({2, Slice(1, 3), Slice(1, 6, 3)});
             // The same, one item at a time: each item acts on its own dim.
             Tensor z = x.select(0, 2).slice(0, 1, 3).slice(1, 1, 6, 3);
             //! [composite]
             const int64_t offset = 2 * x.stride(0) + 1 * x.stride(1) + 1 * x.stride(2);
             c.equal("x strides", x.strides(), Shape{24, 6, 1});
             c.equal("offset", y.storage_offset(), offset);
             c.equal("offset", y.storage_offset(), int64_t{55}, "composite_offset");
             c.equal("shape", y.sizes(), Shape{2, 2});
             c.equal("strides", y.strides(), Shape{6, 3}, "composite_strides");
             c.equal("values", y.to_vector(), std::vector<double>{55, 58, 61, 64},
                     "composite_values");
             c.equal("item by item: layout",
                     to_string(z.layout()) + " +" + book::show(z.storage_offset()),
                     to_string(y.layout()) + " +" + book::show(y.storage_offset()));
             pytorch().compare(c, "composite", "x[2]", x.select(0, 2), {&x});
             pytorch().compare(c, "composite", "x[2, 1:3]", x.select(0, 2).slice(0, 1, 3), {&x});
             pytorch().compare(c, "composite", "x[2, 1:3, 1:6:3]", y, {&x});
             pytorch().compare(c, "composite", "x[2][1:3][:, 1:6:3]", z, {&x});
             c.table("composite", {"tensor", "shape", "strides", "storage offset", "contiguous"},
                     {layout_row("x", x), layout_row("x[2]", x.select(0, 2)),
                      layout_row("x[2, 1:3]", x.select(0, 2).slice(0, 1, 3)),
                      layout_row("x[2, 1:3, 1:6:3]", y)});
             c.figure("composite_picture", views_svg({{x, "x"}, {y, "x[2, 1:3, 1:6:3]"}}),
                      "x = arange(72).reshape(3, 4, 6) and x[2, 1:3, 1:6:3]: " +
                          std::to_string(y.numel()) + " cells, from offset " +
                          std::to_string(y.storage_offset()) + ".");
             // The same rule drawn as jumps, on a storage small enough to draw cell by cell.
             Tensor small = arange(24).reshape({2, 3, 4});
             Tensor w = small.index({1, Slice(1, None), Slice(None, None, 2)});
             pytorch().compare(c, "composite", "small[1, 1:, ::2]", w, {&small});
             c.value("steps_offset", w.storage_offset());
             c.value("steps_strides", w.strides());
             c.figure("steps_composite", steps_svg(w, "small[1, 1:, ::2]"),
                      "small = arange(24).reshape(2, 3, 4), and small[1, 1:, ::2]: it starts " +
                          std::to_string(w.storage_offset()) + " cells in, and its steps jump " +
                          book::and_list(std::vector<int64_t>(w.strides().begin(), w.strides().end())) +
                          " elements.");
           });

  ch.erratum("ER-19",
             "Hint: work out the strides and offset of [2, 1:3, 1:6:3] on the article's tensors "
             "(martinlwx).",
             "Index 2 is out of range on dim 0 of both tensors (sizes 1 and 2): PyTorch refuses "
             "it. The worked example uses a 3×4×6 tensor instead.",
             [](book::Check& c) {
               Tensor t = arange(24).reshape({1, 2, 3, 4});
               Tensor another_t = arange(48).reshape({2, 2, 3, 4});
               pytorch().compare_error(c, "out_of_range", "t[2, 1:3, 1:6:3]",
                                       [&] { t.index({2, Slice(1, 3), Slice(1, 6, 3)}); });
               pytorch().compare_error(c, "out_of_range", "another_t[2, 1:3, 1:6:3]", [&] {
                 another_t.index({2, Slice(1, 3), Slice(1, 6, 3)});
               });
               // The page quotes PyTorch's own words, from the record.
               c.value("index_error", pytorch().error_message("out_of_range", "t[2, 1:3, 1:6:3]"));
             });

  ch.claim("IX-10",
           "Slice bounds are normalised before the slicing rule applies: a stop beyond the size is "
           "clamped (0:100 on a 20-long dim keeps 20 elements, though len(range(0, 100)) is 100), "
           "and a negative start counts from the end (-5: starts at 15·stride).",
           [](book::Check& c) {
             Generator gen(7);
             //! [clamp]
             Tensor x = rand({20, 20, 20}, gen);
             Tensor a = x.index({Slice(0, 100)});          // x[0:100]
             Tensor b = x.index({Slice(-5, None)});        // x[-5:]
             //! [clamp]
             const int64_t range_len = python_range_len(0, 100, 1);
             c.equal("x[0:100].shape[0]", a.size(0), int64_t{20}, "clamp_len");
             c.equal("len(range(0, 100))", range_len, int64_t{100}, "range_len");
             c.equal("x[-5:].shape[0]", b.size(0), int64_t{5});
             c.equal("x[-5:].storage_offset()", b.storage_offset(), 15 * x.stride(0), "neg_offset");
             // The normalisation written out agrees with the library's slice for every start and
             // stop in [-25, 25] and steps 1 to 4 on a dim of 20.
             int64_t agree = 0, total = 0;
             Tensor line = arange(20);
             const int64_t bound = 25, max_step = 4;
             for (int64_t step = 1; step <= max_step; ++step)
               for (int64_t start = -bound; start <= bound; ++start)
                 for (int64_t stop = -bound; stop <= bound; ++stop) {
                   const Bounds n = normalize(start, stop, step, 20);
                   Tensor s = line.slice(0, start, stop, step);
                   ++total;
                   agree += s.size(0) == n.length &&
                            (n.length == 0 || s.storage_offset() == n.start);
                 }
             c.equal("slices where normalize() and slice() agree", agree, total);
             pytorch().compare(c, "clamp", "x[0:100]", a, {&x});
             pytorch().compare(c, "clamp", "x[-5:]", b, {&x});
             // PyTorch's slices of the same dim, starts and stops from -25 to 25 in steps of 5:
             // each one's length and, when it has elements, its storage offset.
             nlohmann::json slices = nlohmann::json::array();
             for (int64_t step = 1; step <= 4; ++step)
               for (int64_t start = -25; start <= 25; start += 5)
                 for (int64_t stop = -25; stop <= 25; stop += 5) {
                   Tensor s = line.slice(0, start, stop, step);
                   slices.push_back({s.numel(), s.numel() ? nlohmann::json(s.storage_offset())
                                                          : nlohmann::json()});
                 }
             pytorch().compare_value(
                 c, "normalize", "[(line[a:b:s].numel(), line[a:b:s].storage_offset()) ...]",
                 slices);
             c.value("neg_stride", x.stride(0));
             c.value("normalize_bound", bound);
             c.value("normalize_max_step", max_step);
             c.value("neg_start", b.storage_offset() / x.stride(0));
             c.value("dim_len", x.size(0));
           });

  ch.erratum("ER-08",
             "A slice start:end:step has len(range(start, end, step)) elements (nikitaved).",
             "Only once the bounds are normalised: x[0:100] on a 20-long dim has 20 elements, not "
             "len(range(0, 100)) = 100, and x[-5:] has 5, not len(range(-5, 20)) = 25.",
             [](book::Check& c) {
               Tensor x = arange(20);
               const int64_t seed_len = python_range_len(0, 100, 1);
               const int64_t seed_len_neg = python_range_len(-5, 20, 1);
               c.equal("len(range(0, 100))", seed_len, int64_t{100});
               c.equal("len(range(-5, 20))", seed_len_neg, int64_t{25}, "neg_range_len");
               c.equal("x[0:100] elements", x.index({Slice(0, 100)}).numel(), int64_t{20});
               c.equal("differs from len(range(0, 100))",
                       x.index({Slice(0, 100)}).numel() != seed_len, true);
               c.equal("x[-5:] elements", x.index({Slice(-5, None)}).numel(), int64_t{5},
                       "neg_len");
               c.equal("differs from len(range(-5, 20))",
                       x.index({Slice(-5, None)}).numel() != seed_len_neg, true);
               c.equal("normalize(-5, 20, 1, 20).length", normalize(-5, 20, 1, 20).length,
                       int64_t{5});
             });

  indexing_chapter::view_rule(ch);
  indexing_chapter::attention(ch);  // 04_indexing/attention.cpp

  // ---- Basic and advanced indexing -------------------------------------------------------------------
  ch.section("advanced", "Basic and advanced indexing");

  ch.claim("IX-08",
           "x[0:5] and x[range(0, 5)] hold equal values, but only the slice shares memory: after "
           "x[0,0,0] = 10 the range result still holds the old value.",
           [](book::Check& c) {
             Generator gen(13);
             Tensor x = rand({20, 20, 20}, gen);
             //! [slice_range]
             Tensor y_slice = x.index({Slice(0, 5)});                    // x[0:5]
             Tensor y_range = x.index({std::vector<int64_t>{0, 1, 2, 3, 4}});  // x[range(0, 5)]
             const bool equal_before = y_slice.to_vector() == y_range.to_vector();
             const double old = x.at({0, 0, 0}).to_double();
             x.set({0, 0, 0}, 10.0);
             //! [slice_range]
             c.equal("equal values before the write", equal_before, true);
             c.equal("x[0, 0, 0]", x.at({0, 0, 0}).to_double(), 10.0);
             c.equal("y_slice[0, 0, 0]", y_slice.at({0, 0, 0}).to_double(), 10.0);
             c.equal("y_range[0, 0, 0]", y_range.at({0, 0, 0}).to_double(), old);
             c.equal("y_slice shares x's storage", y_slice.storage().is_same(x.storage()), true);
             c.equal("y_range shares x's storage", y_range.storage().is_same(x.storage()), false);
             pytorch().compare_value(c, "slice_range", "equal_before", equal_before);
             pytorch().compare_value(c, "slice_range", "y_slice[0, 0, 0].item()",
                                     y_slice.at({0, 0, 0}).to_double());
             pytorch().compare_value(c, "slice_range", "y_range[0, 0, 0].item() == old",
                                     y_range.at({0, 0, 0}).to_double() == old);
             pytorch().compare(c, "slice_range", "y_slice", y_slice, {&x});
             pytorch().compare(c, "slice_range", "y_range", y_range, {&x});
             c.value("range_old", static_cast<float>(old));
             c.value("range_shape", y_range.sizes());
           });

  ch.erratum("ER-07",
             "A switch from slice to range breaks consistency, so at least one of x[0:5] and "
             "x[range(0, 5)] is incorrect (nikitaved).",
             "Both are as designed: a slice is basic indexing and returns a view; a range is a "
             "sequence of integers, so it is advanced indexing, and reading through it always "
             "copies, in PyTorch and NumPy alike.",
             [](book::Check& c) {
               Tensor x = arange(8000).view({20, 20, 20});
               c.equal("allocations made by x[0:5]",
                       book::allocations_during([&] { (void)x.index({Slice(0, 5)}); }), int64_t{0});
               c.equal("allocations made by x[range(0, 5)]",
                       book::allocations_during(
                           [&] { (void)x.index({std::vector<int64_t>{0, 1, 2, 3, 4}}); }),
                       int64_t{1});
               c.equal("same values",
                       x.index({Slice(0, 5)}).to_vector() ==
                           x.index({std::vector<int64_t>{0, 1, 2, 3, 4}}).to_vector(),
                       true);
             });

  ch.claim("IX-09",
           "Integers, slices, None and Ellipsis are basic indexing and give views; sequences of "
           "integers (a range or a list) and boolean masks are advanced indexing, and reading "
           "through them copies.",
           [](book::Check& c) {
             Tensor x = arange(24).view({2, 3, 4});
             // A boolean mask selects the positions where it is true: PyTorch turns it into those
             // positions (nonzero) and indexes with them. This library takes the positions.
             const std::vector<bool> mask = {true, false, true};  // x[:, [True, False, True]]
             std::vector<int64_t> where;
             for (int64_t i = 0; i < static_cast<int64_t>(mask.size()); ++i)
               if (mask[i]) where.push_back(i);
             struct Case {
               std::string python, kind;
               std::vector<indexing::TensorIndex> index;
               bool view;
             };
             const std::vector<Case> cases = {
                 {"x[1]", "integer", {1}, true},
                 {"x[:, 1:3]", "slice", {Slice(), Slice(1, 3)}, true},
                 {"x[1, :, ::2]", "integer and slices", {1, Slice(), Slice(None, None, 2)}, true},
                 {"x[None]", "None", {None}, true},
                 {"x[..., 2]", "Ellipsis and integer", {Ellipsis, 2}, true},
                 {"x[[1]]", "list of integers", {std::vector<int64_t>{1}}, false},
                 {"x[:, range(0, 2)]", "range", {Slice(), std::vector<int64_t>{0, 1}}, false},
                 {"x[:, [True, False, True]]", "boolean mask", {Slice(), where}, false},
             };
             std::vector<std::vector<std::string>> rows;
             int64_t as_said = 0;
             for (const Case& k : cases) {
               Tensor r;
               const int64_t made = book::allocations_during([&] { r = x.index(k.index); });
               const bool shares = r.storage().is_same(x.storage());
               as_said += shares == k.view && made == (k.view ? 0 : 1);
               pytorch().compare(c, "index_kinds", k.python, r, {&x});
               rows.push_back({k.python, k.kind, k.view ? "basic" : "advanced",
                               book::show(r.sizes()), book::show(made),
                               shares ? "view" : "copy"});
             }
             c.equal("index kinds that view or copy as stated", as_said,
                     static_cast<int64_t>(cases.size()));
             c.table("index_kinds",
                     {"index", "items", "kind", "result shape", "allocations", "result"}, rows);
             c.value("kinds", static_cast<int64_t>(cases.size()));
           });

  ch.claim("IX-09.tensor",
           "A 0-d integer tensor index counts as an integer: x[torch.tensor(1)] is x[1], a view, "
           "while x[torch.tensor([1])], a sequence of one integer, is advanced indexing, a copy.",
           [](book::Check& c) {
             Tensor x = arange(24).view({2, 3, 4});
             const Tensor as_integer = x.index({1});
             const Tensor as_list = x.index({std::vector<int64_t>{1}});
             c.equal("x[1] shares x's storage", as_integer.storage().is_same(x.storage()), true);
             c.equal("x[[1]] shares x's storage", as_list.storage().is_same(x.storage()), false);
             pytorch().compare(c, "tensor_index", "x[torch.tensor(1)]", as_integer, {&x});
             pytorch().compare(c, "tensor_index", "x[torch.tensor([1])]", as_list, {&x});
           });

  ch.claim("IX-09.chained",
           "An indexing write lands in what the indexing before it returned: x[mask][:, 0] = 1 "
           "writes into the copy that x[mask] read, and x stays zero; y[mask, 0] = 1 is one "
           "index_put_ on y, and z[:, 0][mask] = 1 an index_put_ on the view z[:, 0]: both write "
           "rows 0 and 2 of column 0.",
           [](book::Check& c) {
             // The mask [True, False, True] as its positions, as PyTorch applies it (nonzero).
             const std::vector<int64_t> mask = {0, 2};
             //! [chained]
             Tensor x = zeros({3, 2});
             x.index({mask}).select(1, 0).fill_(1);  // x[mask][:, 0] = 1: into a copy
             Tensor y = zeros({3, 2});
             y.index_put_({mask, {0, 0}}, ones({}));  // y[mask, 0] = 1
             Tensor z = zeros({3, 2});
             z.select(1, 0).index_put_({mask}, ones({}));  // z[:, 0][mask] = 1
             //! [chained]
             const std::vector<double> written = {1, 0, 0, 0, 1, 0};
             c.equal("x after x[mask][:, 0] = 1", x.to_vector(), std::vector<double>(6, 0.0));
             c.equal("y after y[mask, 0] = 1", y.to_vector(), written);
             c.equal("z after z[:, 0][mask] = 1", z.to_vector(), written);
             pytorch().compare(c, "chained", "x", x);
             pytorch().compare(c, "chained", "y", y);
             pytorch().compare(c, "chained", "z", z);
             // As PyTorch prints the values: [[1., 0.], [0., 0.], [1., 0.]].
             std::string rows;
             for (int64_t i = 0; i < 3; ++i)
               rows += std::string(i ? ", " : "") + "[" + book::show(y.at({i, 0}).to_double()) +
                       ", " + book::show(y.at({i, 1}).to_double()) + "]";
             c.value("chained_written", "[" + rows + "]");
           });

  ch.claim("IX-09.put",
           "Writing through an advanced index is another operation, PyTorch's index_put_, and it "
           "writes in place: on x = arange(6).view(3, 2), y = x[[0, 2]] is a copy, and after "
           "x[[0, 2]] = [[-1, -1], [-2, -2]] x holds [[-1, -1], [2, 3], [-2, -2]] at the same "
           "data_ptr, while y still holds [[0, 1], [4, 5]].",
           [](book::Check& c) {
             //! [index_put]
             Tensor x = arange(6).view({3, 2});
             Tensor y = x.index({std::vector<int64_t>{0, 2}});  // reading x[[0, 2]]: a copy
             const void* before = x.data_ptr();
             // Writing x[[0, 2]] = v is index_put_: it writes v's rows into x's own storage.
             Tensor v = from_values({-1, -1, -2, -2}, {2, 2}, {DType::Int64});
             x.index_put_({{0, 2}}, v);  // x[[0, 2]] = v
             //! [index_put]
             c.equal("y shares x's storage", y.storage().is_same(x.storage()), false);
             c.equal("x after the write", x.to_vector(), std::vector<double>{-1, -1, 2, 3, -2, -2});
             c.equal("x keeps its data_ptr", x.data_ptr() == before, true);
             c.equal("y after the write", y.to_vector(), std::vector<double>{0, 1, 4, 5});
             pytorch().compare(c, "index_put", "y", y, {&x});
             pytorch().compare(c, "index_put", "x", x);
             pytorch().compare_value(c, "index_put", "x.data_ptr() == before",
                                     x.data_ptr() == before);
             c.value("put_values", book::nested_list(x));
             c.value("put_copy", book::nested_list(y));
           });

  ch.erratum("ER-24",
             "T[1, :] and T[:, 1] are \"advanced indexing\" (Notes on PyTorch Tensor "
             "Representation and Autograd).",
             "Both are basic indexing (an integer and a slice) and return views: T[1, :] at "
             "offset 3 with stride (1,), T[:, 1] at offset 1 with stride (3,). Advanced indexing "
             "means integer arrays or masks, and reading through it copies.",
             [](book::Check& c) {
               Tensor T = from_values({1, 2, 3, 4, 5, 6}, {2, 3}, {DType::Int64});  // as torch
               Tensor row, col;
               c.equal("allocations made by T[1, :] and T[:, 1]", book::allocations_during([&] {
                         row = T.index({1, Slice()});
                         col = T.index({Slice(), 1});
                       }),
                       int64_t{0});
               c.equal("T[1, :] offset, strides", book::show(row.storage_offset()) + " " +
                                                      book::show(row.strides()),
                       std::string("3 (1,)"));
               c.equal("T[:, 1] offset, strides", book::show(col.storage_offset()) + " " +
                                                      book::show(col.strides()),
                       std::string("1 (3,)"));
               c.equal("both share T's storage",
                       row.storage().is_same(T.storage()) && col.storage().is_same(T.storage()),
                       true);
               pytorch().compare(c, "row_col", "T[1, :]", row, {&T});
               pytorch().compare(c, "row_col", "T[:, 1]", col, {&T});
               c.figure("row_col", views_svg({{T, "T"}, {row, "T[1, :]"}, {col, "T[:, 1]"}}),
                        "T[1, :] and T[:, 1]: two views of T's storage.");
             });

  indexing_chapter::numpy_box(ch);  // 04_indexing/exercises.cpp
  indexing_chapter::exercises(ch);
  return ch.main(argc, argv);
}
