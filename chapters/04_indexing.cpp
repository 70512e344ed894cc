// Chapter 4, Indexing, reshape and view(): what an index does to the offset and the strides, when a
// new shape can be a view, and which indices copy. Claims IX-01…IX-11 and the errata the catalogue
// gives this chapter. The code between //! [name] markers is shown on the chapter's page
// (docs/04_indexing.md).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

// A battery of layouts over arange storages: random sizes, every other or every element along
// each dim, sometimes one dim expanded from size 1, then a random permutation.
std::vector<Tensor> layout_battery(int count, uint64_t seed) {
  Generator gen(seed);
  auto pick = [&](int64_t n) { return static_cast<int64_t>(gen.next_u64() % n); };
  std::vector<Tensor> out;
  while (static_cast<int>(out.size()) < count) {
    const int64_t nd = 1 + pick(4);
    Shape sizes, big, steps;
    for (int64_t d = 0; d < nd; ++d) {
      sizes.push_back(1 + pick(4));
      steps.push_back(pick(3) == 0 ? 2 : 1);
      big.push_back(sizes.back() * steps.back());
    }
    int64_t n = 1;
    for (int64_t b : big) n *= b;
    Tensor x = arange(n).view(big);
    for (int64_t d = 0; d < nd; ++d) x = x.slice(d, std::nullopt, std::nullopt, steps[d]);
    if (pick(10) < 3) {
      const int64_t d = pick(nd);
      x = x.narrow(d, 0, 1).expand(sizes);
    }
    Shape perm(nd);
    for (int64_t d = 0; d < nd; ++d) perm[d] = d;
    for (int64_t d = nd - 1; d > 0; --d) std::swap(perm[d], perm[pick(d + 1)]);
    out.push_back(x.permute(perm));
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

std::vector<std::string> layout_row(const std::string& name, const Tensor& t) {
  return {name, book::show(t.sizes()), book::show(t.strides()), book::show(t.storage_offset()),
          t.is_contiguous() ? "True" : "False"};
}

// PyTorch 1.13's answers for this chapter's expressions (chapters/04_indexing.py, recorded by
// tools/book record-pytorch): the checks compare the library's tensors and refusals with them.
const book::PytorchRecord& pytorch() { return book::PytorchRecord::of_chapter("04_indexing"); }

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
             c.equal("shape", v.sizes(), Shape{1, 2, 3});
             c.equal("strides", v.strides(), Shape{24, 12, 4});
             c.equal("storage offset of t", t.storage_offset(), int64_t{0});
             c.equal("storage offset of v", v.storage_offset(), int64_t{2});
             c.equal("offset = 2·stride[3] of t", v.storage_offset(), 2 * t.stride(3));
             c.equal("contiguous", v.is_contiguous(), false);
             c.equal("shares t's storage", v.storage().is_same(t.storage()), true);
             const Tensor last = t.index({Slice(), Slice(), Slice(), -1});
             c.equal("t[:, :, :, -1]: storage offset", last.storage_offset(), int64_t{3});
             c.equal("t[:, :, :, -1]: values", last.to_vector(), std::vector<double>{3, 7, 11, 15, 19, 23});
             pytorch().compare(c, "last_index", "t[:, :, :, 2]", v, {&t});
             pytorch().compare(c, "last_index", "t[:, :, :, -1]", last, {&t});
             pytorch().compare_value(c, "last_index", "t.stride()", t.strides());
             c.value("last_offset", last.storage_offset());
             c.text("last_index", "v = t[:, :, :, 2]\n" + to_string(v) + "\nv.shape = " +
                                      book::show(v.sizes()) + ", v.stride() = " +
                                      book::show(v.strides()) + ", v.storage_offset() = " +
                                      book::show(v.storage_offset()));
             c.value("t_strides", t.strides());
             c.value("v_shape", v.sizes());
             c.value("v_strides", v.strides());
             c.value("v_offset", v.storage_offset());
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
             c.equal("strides", w.strides(), Shape{24, 12, 4});
             c.equal("w[1, 0, 0] − w[0, 0, 0]",
                     w.at({1, 0, 0}).to_int() - w.at({0, 0, 0}).to_int(), w.stride(0));
             pytorch().compare(c, "another_t", "another_t[:, :, :, 2]", w, {&another_t});
             c.text("another_t", "w = another_t[:, :, :, 2]\n" + to_string(w));
             c.value("w_strides", w.strides());
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
               c.equal("the element 24 past 10", w.at({1, 0, 2}).to_int(), int64_t{34});
               c.equal("w[0, 0, 2]", w.at({0, 0, 2}).to_int(), int64_t{10});
               Tensor v = arange(24).reshape({1, 2, 3, 4}).index({Slice(), Slice(), Slice(), 2});
               const int64_t offset = v.storage_offset();
               const auto* storage = static_cast<const int64_t*>(v.storage().data());
               c.equal("storage slots before the first element", offset, int64_t{2});
               c.equal("the slot it starts in, counted from one", offset + 1, int64_t{3});
               c.equal("value in storage slot [2]", storage[offset], v.at({0, 0, 0}).to_int());
               const std::string printed = to_string(v);
               c.equal("'[' and ']' balance in the print",
                       std::count(printed.begin(), printed.end(), '['),
                       std::count(printed.begin(), printed.end(), ']'));
               c.equal("shape of v.reshape(3, 2)", v.reshape({3, 2}).sizes(), Shape{3, 2});
               pytorch().compare_value(c, "another_t", "str(v)", printed);
               pytorch().compare_value(c, "another_t", "str(v.reshape(3, 2).shape)",
                                       "torch.Size(" + py_list(v.reshape({3, 2}).sizes()) + ")");
               c.value("paired", w.at({1, 0, 2}).to_int());
               c.value("third_slot", offset + 1);
             });

  ch.claim("IX-03",
           "When the base is arange from 0, each element's value is its storage index, so a "
           "stride is the difference of values between neighbours along its dim.",
           [](book::Check& c) {
             Tensor v = arange(48).reshape({2, 2, 3, 4}).index({Slice(), Slice(), Slice(), 2});
             //! [read_strides]
             Shape read = strides_from_values(v);  // (24, 12, 4), as v.strides()
             //! [read_strides]
             c.equal("strides read off w's values", read, v.strides());
             pytorch().compare_value(c, "read_strides", "read", read);
             pytorch().compare_value(c, "read_strides", "v.stride()", v.strides());
             // The same trick over a battery of views of arange storages (every dim longer than
             // 1, so each has a neighbour to read).
             int64_t agree = 0, total = 0;
             for (const Tensor& x : layout_battery(400, 4)) {
               if (std::any_of(x.sizes().begin(), x.sizes().end(), [](int64_t s) { return s < 2; }))
                 continue;
               ++total;
               agree += strides_from_values(x) == x.strides();
             }
             c.equal("views whose strides the values give", agree, total);
             c.that("views checked", total >= 100, std::to_string(total) + " views");
             c.value("read_strides", read);
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
             c.equal("offset", y.storage_offset(), int64_t{55});
             c.equal("shape", y.sizes(), Shape{2, 2});
             c.equal("strides", y.strides(), Shape{6, 3});
             c.equal("values", y.to_vector(), std::vector<double>{55, 58, 61, 64});
             c.equal("item by item: layout", z.layout() + " +" + book::show(z.storage_offset()),
                     y.layout() + " +" + book::show(y.storage_offset()));
             pytorch().compare(c, "composite", "x[2]", x.select(0, 2), {&x});
             pytorch().compare(c, "composite", "x[2, 1:3]", x.select(0, 2).slice(0, 1, 3), {&x});
             pytorch().compare(c, "composite", "x[2, 1:3, 1:6:3]", y, {&x});
             pytorch().compare(c, "composite", "x[2][1:3][:, 1:6:3]", z, {&x});
             c.table("composite", {"tensor", "shape", "strides", "storage offset", "contiguous"},
                     {layout_row("x", x), layout_row("x[2]", x.select(0, 2)),
                      layout_row("x[2, 1:3]", x.select(0, 2).slice(0, 1, 3)),
                      layout_row("x[2, 1:3, 1:6:3]", y)});
             c.value("composite_offset", y.storage_offset());
             c.value("composite_strides", y.strides());
             c.value("composite_values", y.to_vector());
             c.figure("composite_picture", views_svg({{x, "x"}, {y, "x[2, 1:3, 1:6:3]"}}),
                      "x = arange(72).reshape(3, 4, 6) and x[2, 1:3, 1:6:3]: " +
                          std::to_string(y.numel()) + " cells, from offset " +
                          std::to_string(y.storage_offset()) + ".");
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
             c.equal("x[0:100].shape[0]", a.size(0), int64_t{20});
             c.equal("len(range(0, 100))", range_len, int64_t{100});
             c.equal("x[-5:].shape[0]", b.size(0), int64_t{5});
             c.equal("x[-5:].storage_offset()", b.storage_offset(), 15 * x.stride(0));
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
             c.value("clamp_len", a.size(0));
             c.value("range_len", range_len);
             c.value("neg_offset", b.storage_offset());
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
               c.equal("len(range(-5, 20))", seed_len_neg, int64_t{25});
               c.equal("x[0:100] elements", x.index({Slice(0, 100)}).numel(), int64_t{20});
               c.equal("differs from len(range(0, 100))",
                       x.index({Slice(0, 100)}).numel() != seed_len, true);
               c.equal("x[-5:] elements", x.index({Slice(-5, None)}).numel(), int64_t{5});
               c.equal("differs from len(range(-5, 20))",
                       x.index({Slice(-5, None)}).numel() != seed_len_neg, true);
               c.equal("normalize(-5, 20, 1, 20).length", normalize(-5, 20, 1, 20).length,
                       int64_t{5});
               c.value("neg_len", x.index({Slice(-5, None)}).numel());
               c.value("neg_range_len", seed_len_neg);
             });

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
             c.equal("strides", m.strides(), Shape{8, 4});
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
             for (const Tensor& x : layout_battery(300, 5)) {
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
             c.value("m_strides", m.strides());
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
             c.equal("e2.view(12)", e2.view({12}).strides(), Shape{2});
             c.equal("e3 strides", e3.strides(), Shape{12, 4, 3});
             c.equal("runs of e3", runs_text(runs(e3.sizes(), e3.strides())),
                     std::string("6 elements, step 4, 2 elements, step 3"));
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
             c.equal("col.view(3, 2, 2)", col.view({3, 2, 2}).strides(), Shape{1, 0, 0});
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
             c.value("e2_view12", e2.view({12}).strides());
             c.value("e3_runs", runs_text(runs(e3.sizes(), e3.strides())));
             c.value("col_runs", runs_text(runs(col.sizes(), col.strides())));
             c.value("col_split", col.view({3, 2, 2}).strides());
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
             pytorch().compare(c, "t_view", "x.t().reshape(1, -1)", flat, {&x});
             const std::vector<int64_t> positions = offsets_of(xt);
             c.equal("storage positions in row-major order", positions,
                     std::vector<int64_t>{0, 3, 6, 1, 4, 7, 2, 5, 8});
             c.equal("strides reproducing them", strides_reproducing(positions, {9}).has_value(),
                     false);
             Tensor again;
             c.equal("allocations made by x.t().reshape(1, -1)",
                     book::allocations_during([&] { again = xt.reshape({1, -1}); }), int64_t{1});
             c.equal("values", flat.to_vector(), std::vector<double>{0, 3, 6, 1, 4, 7, 2, 5, 8});
             c.equal("shape", flat.sizes(), Shape{1, 9});
             c.equal("new storage", flat.storage().is_same(x.storage()), false);
             c.equal("contiguous", flat.is_contiguous(), true);
             try {
               xt.view({1, -1});
             } catch (const Error& e) {
               c.text("t_view_error", std::string("x.t().view(1, -1)\n") + e.what());
             }
             c.value("positions", positions);
             c.value("flat_values", flat.to_vector());
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
             for (const Tensor& x : layout_battery(300, 6)) {
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
             // Writing x[[0, 2]] = v: this library has no index_put_, so it writes the two rows
             // one select at a time, into x's own storage.
             Tensor v = from_values({-1, -1, -2, -2}, {2, 2}, {DType::Int64});
             x.select(0, 0).copy_(v.select(0, 0));
             x.select(0, 2).copy_(v.select(0, 1));
             //! [index_put]
             c.equal("y shares x's storage", y.storage().is_same(x.storage()), false);
             c.equal("x after the write", x.to_vector(), std::vector<double>{-1, -1, 2, 3, -2, -2});
             c.equal("x keeps its data_ptr", x.data_ptr() == before, true);
             c.equal("y after the write", y.to_vector(), std::vector<double>{0, 1, 4, 5});
             pytorch().compare(c, "index_put", "y", y, {&x});
             pytorch().compare(c, "index_put", "x", x);
             pytorch().compare_value(c, "index_put", "x.data_ptr() == before",
                                     x.data_ptr() == before);
             const auto rows = [](const Tensor& t) {
               std::string out = "[";
               for (int64_t r = 0; r < t.size(0); ++r)
                 out += std::string(r ? ", [" : "[") + book::show(t.at({r, 0}).to_int()) + ", " +
                        book::show(t.at({r, 1}).to_int()) + "]";
               return out + "]";
             };
             c.value("put_values", rows(x));
             c.value("put_copy", rows(y));
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

  return ch.main(argc, argv);
}
