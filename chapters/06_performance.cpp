// Chapter 6, Performance: how the engine walks memory, and what the walk costs. Claims PF-01…PF-22
// and the errata the catalogue gives this chapter. Every timing claim is a ratio of two
// measurements taken in this run (book/timing.h) and stands beside a model claim that counts what
// the same walk asks of memory (strided/models/models.h), so a noisy machine can make a timing
// inconclusive but never leaves a claim without its count. GPU timings go through strided::cuda and
// are not run where no CUDA device is. The code between //! [name] markers is shown on the page
// (docs/06_performance.md).
//
// This file holds the first three sections, on the walk itself; the sections on each kind of op
// are in chapters/06_performance/, one file each, and run in the page's order from main below.
#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "06_performance/performance.h"
#include "book/book.h"
#include "strided/engine/iterator.h"
#include "strided/models/models.h"
#include "strided/engine/ops.h"
#include "strided/strided.h"

using namespace strided;
using namespace strided::models;
using indexing::Slice;
using book::fixed;
using performance::pytorch;
using book::head;
using book::strided_arange;

namespace {

// ER-05: the seed's rule for dims of equal stride, to set beside the engine's.
// Dense strides for sizes, laid out in the order `outer_to_inner` (a list of dims).
Shape dense_in_order(const Shape& sizes, const Shape& outer_to_inner) {
  Shape strides(sizes.size());
  int64_t step = 1;
  for (size_t i = outer_to_inner.size(); i-- > 0;) {
    strides[static_cast<size_t>(outer_to_inner[i])] = step;
    step *= std::max<int64_t>(sizes[static_cast<size_t>(outer_to_inner[i])], 1);
  }
  return strides;
}

// The seed's order: dims by decreasing stride, equal strides by increasing dim index.
Shape seed_order(const Shape& strides) {
  Shape order(strides.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return strides[a] > strides[b]; });
  return order;
}

}  // namespace

int main(int argc, char** argv) {
  book::Chapter ch("06_performance", "Performance");

  // ---- The order of the walk ---------------------------------------------------------------------------
  ch.section("order", "The order of the walk");

  ch.claim("PF-01",
           "An element-wise kernel nests its loops by stride: the smallest stride innermost, the "
           "largest outermost; for permute(2,1,0) of a contiguous 4×4×4 tensor that walk visits "
           "addresses 0, 4, …, 252 in order, while the logical walk jumps by 64 bytes. Dims that "
           "step as one are merged: every dense permutation of it runs as one loop of 64, and "
           "t[:, ::2, 1:3] as loops of 2 and 8.",
           [](book::Check& c) {
             //! [plan_order]
             Tensor t = arange(64, {DType::Float32}).view({4, 4, 4});
             Tensor p = t.permute({2, 1, 0});              // strides (1, 4, 16)
             TensorIterator plan = unary_plan(UnaryOp::Neg, Tensor(), p);
             Shape order = plan.iteration_order();         // outermost loop first
             Trace walked = plan_trace(plan, 1);           // the input, as the kernel reads it
             Trace logical = logical_trace(p);             // p[0][0][0], p[0][0][1], ...
             //! [plan_order]
             c.equal("iteration order of p (outer to inner)", order, Shape{2, 1, 0});
             Trace ascending;
             for (int64_t i = 0; i < 64; ++i) ascending.bytes.push_back(4 * i);
             c.equal("plan trace of p", walked.bytes, ascending.bytes);
             c.equal("second address of the logical walk", logical.bytes[1], int64_t{64});
             c.equal("iteration order of t", unary_plan(UnaryOp::Neg, Tensor(), t).iteration_order(),
                     Shape{0, 1, 2});
             pytorch().compare_value(c, "plan_order", "order", order);
             pytorch().compare_value(c, "plan_order", "walked[-1]", walked.bytes.back());
             pytorch().compare_value(c, "plan_order", "walked[:6]", book::first_bytes(walked, 6));
             pytorch().compare_value(c, "plan_order", "logical[:6]", book::first_bytes(logical, 6));
             pytorch().compare(c, "plan_order", "-p", -p);
             pytorch().compare(c, "plan_order", "-t[:, ::2, 1:3]",
                               -t.index({Slice(), Slice(indexing::None, indexing::None, 2), Slice(1, 3)}));
             c.value("order_p", order);
             c.value("order_walked", head(walked, 6, 1));
             c.value("order_logical", head(logical, 6, 1));
             c.value("order_last", walked.bytes.back());
             // The plans of a few layouts, as the engine builds them.
             std::vector<std::vector<std::string>> rows;
             const std::vector<std::tuple<std::string, Tensor, Shape>> layouts = {
                 {"t", t, {64}},
                 {"t.permute(2, 1, 0)", p, {64}},
                 {"t.permute(1, 2, 0)", t.permute({1, 2, 0}), {64}},
                 {"t[:, ::2, 1:3]", t.index({Slice(), Slice(indexing::None, indexing::None, 2), Slice(1, 3)}),
                  {2, 8}}};  // the two outer dims, strides 16 and 8 over sizes 4 and 2, merge
             for (const auto& [name, x, merged] : layouts) {
               TensorIterator pl = unary_plan(UnaryOp::Neg, Tensor(), x);
               c.equal("plan shape of " + name + " (inner first)", pl.shape(), merged);
               if (name == "t") c.value("plan_dense", pl.shape());
               if (name == "t[:, ::2, 1:3]") c.value("plan_slice", pl.shape());
               rows.push_back({name, layout_string(x.sizes(), x.strides()),
                               book::show(pl.iteration_order()), book::show(pl.shape()),
                               book::show(pl.operand(1).stride_bytes),
                               head(plan_trace(pl, 1), 8, 1)});
             }
             c.table("plans", {"tensor", "layout", "loop order (outer→inner)",
                               "plan shape (inner first)", "byte strides", "addresses walked"},
                     rows);
           }).model();

  ch.erratum("ER-04",
             "Two indices compare at the largest position k where they differ, in the "
             "descending-stride order of the dims (nikitaved, PyTorch for Scientists!).",
             "They compare at the smallest such k, the outermost differing loop; with the largest, "
             "a contiguous 2×2 tensor would visit (1,0) before (0,1), addresses 8 before 4.",
             [](book::Check& c) {
               //! [index_order]
               Tensor t = zeros({2, 2});  // strides (2, 1): dims already in descending order
               std::vector<Shape> idx = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
               auto first_differing = [](const Shape& i, const Shape& j) {
                 for (size_t k = 0; k < i.size(); ++k)
                   if (i[k] != j[k]) return i[k] < j[k];
                 return false;
               };
               auto last_differing = [](const Shape& i, const Shape& j) {
                 for (size_t k = i.size(); k-- > 0;)
                   if (i[k] != j[k]) return i[k] < j[k];
                 return false;
               };
               auto addresses = [&](auto less) {
                 std::vector<Shape> sorted = idx;
                 std::sort(sorted.begin(), sorted.end(), less);
                 Shape bytes;
                 for (const Shape& i : sorted) bytes.push_back(4 * t.offset_of(i));
                 return bytes;
               };
               Shape smallest_k = addresses(first_differing);  // the correct order
               Shape largest_k = addresses(last_differing);    // the seed's order
               //! [index_order]
               c.equal("addresses, smallest differing k", smallest_k, Shape{0, 4, 8, 12});
               c.equal("addresses, largest differing k (the seed's)", largest_k, Shape{0, 8, 4, 12});
               c.equal("the engine's walk", stride_sorted_trace(t).bytes,
                       std::vector<int64_t>{0, 4, 8, 12});
               pytorch().compare_value(c, "index_order", "smallest_k", smallest_k);
               pytorch().compare_value(c, "index_order", "largest_k", largest_k);
               c.value("er04_right", smallest_k);
               c.value("er04_seed", largest_k);
             });

  ch.claim("PF-02",
           "Equal strides are ordered as PyTorch's TensorIterator orders them: the dim of smaller "
           "size goes inside; a stride of 0 decides nothing and the next operand decides; when "
           "no operand decides, the dims keep their order.",
           [](book::Check& c) {
             //! [ties]
             Tensor overlapping = strided_arange({2, 3}, {1, 1});  // (2,3):(1,1)
             Tensor sum = overlapping + 0;
             Tensor wide = strided_arange({3, 2}, {1, 1});          // (3,2):(1,1)
             Tensor broadcast = strided_arange({4, 4, 4}, {4, 0, 1});
             Tensor permuted = strided_arange({4, 4, 4}, {1, 4, 16});
             Tensor column = arange(4, {DType::Float32}).unsqueeze(1).expand({4, 3});  // (1, 0)
             //! [ties]
             // Each expected layout was printed by PyTorch 1.13 for the same operation.
             c.equal("(2,3):(1,1) + 0: the size-2 dim goes inside", sum.strides(), Shape{1, 2});
             c.equal("(3,2):(1,1) + 0: the size-2 dim goes inside", (wide + 0).strides(),
                     Shape{2, 1});
             c.equal("(4,0,1) * (1,4,16): the stride 0 lets y decide",
                     (broadcast * permuted).strides(), Shape{16, 1, 4});
             c.equal("(4,3):(1,0) + 0: nothing decides, the order stays", (column + 0).strides(),
                     Shape{3, 1});
             pytorch().compare(c, "ties", "overlapping + 0", sum);
             pytorch().compare(c, "ties", "wide + 0", wide + 0);
             pytorch().compare(c, "ties", "broadcast * permuted", broadcast * permuted);
             pytorch().compare(c, "ties", "column + 0", column + 0);
             c.value("tie_sum", sum.strides());
             c.value("tie_wide", (wide + 0).strides());
             c.value("tie_bcast", (broadcast * permuted).strides());
             c.value("tie_column", (column + 0).strides());
           }).model();

  ch.erratum("ER-05",
             "Dims of equal stride are ordered by dim index (nikitaved, PyTorch for Scientists!).",
             "PyTorch puts the dim of smaller size inside: (2,3):(1,1) + 0 has strides (1, 2), "
             "where ordering by dim index would give (3, 1).",
             [](book::Check& c) {
               Tensor x = strided_arange({2, 3}, {1, 1});
               const Shape seed = dense_in_order(x.sizes(), seed_order(x.strides()));
               c.equal("the seed's rule", seed, Shape{3, 1});
               c.equal("the engine (and PyTorch 1.13)", (x + 0).strides(), Shape{1, 2});
               pytorch().compare(c, "ties", "overlapping + 0", x + 0);
               c.value("er05_seed", seed);
               c.value("er05_engine", (x + 0).strides());
             });

  // ---- Locality ------------------------------------------------------------------------------------------
  ch.section("locality", "When the walk is in address order");

  ch.claim("PF-03",
           "A loop nest visits non-decreasing addresses iff, for every loop k of size > 1, "
           "stride_k ≥ Σ over the loops m inside it of (size_m − 1)·stride_m; the overlapping "
           "window unfold(0,3,1) of arange(6) breaks it and walks 0,1,2,1,2,3,2,3,4,3,4,5.",
           [](book::Check& c) {
             //! [unfold]
             Tensor w = arange(6, {DType::Float32}).unfold(0, 3, 1);  // (4,3):(1,1)
             Trace walk = stride_sorted_trace(w);
             bool predicted = is_monotone(w.sizes(), w.strides());
             //! [unfold]
             c.equal("walk of unfold(0, 3, 1), in elements", head(walk, 12),
                     std::string("0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5"));
             c.equal("the condition on (4,3):(1,1)", predicted, false);
             c.equal("the walk is sorted", is_sorted(walk), false);
             pytorch().compare(c, "unfold", "w", w, {&w});
             pytorch().compare_value(c, "unfold", "predicted", predicted);
             Shape walk_elements;  // the record keeps the walk in elements
             for (int64_t b : walk.bytes) walk_elements.push_back(b / walk.width);
             pytorch().compare_value(c, "unfold", "walk", walk_elements);
             // The condition against the engine's own walk, on every layout of a family: the loop
             // nest is the plan (dims ordered as the plan orders them, outer first).
             Generator gen(6);
             int64_t agree = 0, cases = 0, sorted = 0;
             for (int64_t n = 0; n < 300; ++n) {
               Shape sizes, strides;
               const int64_t rank = 1 + static_cast<int64_t>(gen.uniform() * 3);
               for (int64_t d = 0; d < rank; ++d) {
                 sizes.push_back(1 + static_cast<int64_t>(gen.uniform() * 4));
                 strides.push_back(static_cast<int64_t>(gen.uniform() * 10));
               }
               Tensor x = strided_arange(sizes, strides);
               TensorIterator plan = unary_plan(UnaryOp::Neg, Tensor(), x);
               Shape order = plan.iteration_order();
               Shape ordered_sizes, ordered_strides;
               for (int64_t d : order) {
                 ordered_sizes.push_back(x.size(d));
                 ordered_strides.push_back(x.stride(d));
               }
               const bool walk_sorted = is_sorted(plan_trace(plan, 1));
               agree += is_monotone(ordered_sizes, ordered_strides) == walk_sorted;
               sorted += walk_sorted;
               ++cases;
             }
             c.equal("layouts where the condition predicts the engine's walk", agree, cases);
             c.that("both answers occur", sorted > 0 && sorted < cases,
                    std::to_string(sorted) + " of " + std::to_string(cases) + " walks sorted");
             c.record("random layouts tried", cases);
             c.record("of them walked in order", sorted);
             c.value("unfold_walk", head(walk, 12));
             // Dense, permuted and sliced layouts meet it, strictly.
             Tensor t = arange(60, {DType::Float32}).view({3, 4, 5});
             int64_t strict = 0;
             for (const Tensor& x : {t, t.permute({2, 0, 1}), t.index({Slice(), Slice(1, 3)}),
                                     t.slice(2, 0, 5, 2)})
               strict += is_sorted(stride_sorted_trace(x), true);
             c.equal("dense, permuted and sliced walks strictly increase", strict, int64_t{4});
           }).model();

  ch.erratum("ER-06",
             "Walking the dims by stride guarantees i < j ⇒ addr(i) ≤ addr(j), with ≤ needed only "
             "for broadcasting (nikitaved, PyTorch for Scientists!).",
             "Only when the strides nest (PF-03). Overlapping windows walk back, and so does a "
             "broadcast dim that stays outside: arange(4).expand(3, 4) is walked 0,1,2,3,0,1,2,3, "
             "in PyTorch's order too (its output gets strides (4, 1)).",
             [](book::Check& c) {
               Tensor w = arange(6, {DType::Float32}).unfold(0, 3, 1);
               Tensor rows = arange(4, {DType::Float32}).expand({3, 4});
               c.equal("unfold(0, 3, 1) walk sorted", is_sorted(stride_sorted_trace(w)), false);
               c.equal("expand(3, 4) walk", head(stride_sorted_trace(rows), 12),
                       std::string("0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3"));
               c.equal("expand(3, 4) + 0: strides as PyTorch 1.13", (rows + 0).strides(),
                       Shape{4, 1});
               c.value("expand_walk", head(stride_sorted_trace(rows), 12));
               c.value("expand_out", (rows + 0).strides());
             });

  // ---- Cache lines and sectors --------------------------------------------------------------------------
  ch.section("models", "Counting lines and sectors");

  ch.claim("PF-04",
           "A dense float32 walk in address order touches numel/16 distinct 64-byte lines.",
           [](book::Check& c) {
             //! [lines]
             Tensor x = zeros({64, 64, 64});
             int64_t contiguous = distinct_lines(stride_sorted_trace(x));
             int64_t permuted = distinct_lines(stride_sorted_trace(x.permute({1, 2, 0})));
             //! [lines]
             c.equal("lines, contiguous", contiguous, x.numel() / 16);
             c.equal("lines, permuted", permuted, x.numel() / 16);
             pytorch().compare(c, "lines", "x.permute(1, 2, 0)", x.permute({1, 2, 0}), {&x});
             pytorch().compare_value(c, "lines", "contiguous", contiguous);
             pytorch().compare_value(c, "lines", "permuted", permuted);
             c.value("lines_numel", x.numel());
             c.value("lines_count", contiguous);
           }).model();

  ch.claim("PF-23",
           "Over a 16×16 float32 storage, one 64-byte line a row, the first 16 steps of the "
           "engine's walk touch 1 line for x and for x.t(), 5 for the stepped x.view(-1)[::5] and "
           "16 for y.t() as x * y.t() reads it; a warp's first 32 steps touch 4, 4, 20 and 16 "
           "sectors of 32 bytes.",
           [](book::Check& c) {
             //! [walk_figure]
             Tensor x = arange(256, {DType::Float32}).view({16, 16});
             Tensor y = arange(256, {DType::Float32}).view({16, 16});
             Tensor stepped = x.view({-1}).slice(0, 0, std::nullopt, 5);  // x.view(-1)[::5]
             Trace contiguous = plan_trace(unary_plan(UnaryOp::Neg, Tensor(), x), 1);
             Trace permuted = plan_trace(unary_plan(UnaryOp::Neg, Tensor(), x.t()), 1);
             Trace step5 = plan_trace(unary_plan(UnaryOp::Neg, Tensor(), stepped), 1);
             // x * y.t() walks in x's order; operand 2 is y.t(), read down y's columns
             Trace mismatched = plan_trace(binary_plan(BinaryOp::Mul, Tensor(), x, y.t()), 2);
             //! [walk_figure]
             const std::vector<book::WalkPanel> panels = {
                 {"x", "contiguous", contiguous},
                 {"x.t()", "permuted, walked by stride", permuted},
                 {"x.view(-1)[::5]", "stepped: every fifth float", step5},
                 {"y.t() in x * y.t()", "mismatched: y read in x's order", mismatched}};
             Shape lines, sectors;
             const auto listed = [](const Shape& n) {  // "1, 1, 5 and 16"
               std::string s;
               for (size_t i = 0; i < n.size(); ++i)
                 s += (i == 0 ? "" : i + 1 == n.size() ? " and " : ", ") + std::to_string(n[i]);
               return s;
             };
             for (const book::WalkPanel& p : panels) {
               const book::FirstSteps f = book::first_steps(p.walk);
               lines.push_back(f.lines);
               sectors.push_back(f.sectors);
             }
             c.equal("lines of the first 16 steps", lines, Shape{1, 1, 5, 16});
             c.equal("sectors of the first 32 steps", sectors, Shape{4, 4, 20, 16});
             c.value("fig_lines", listed(lines));
             c.value("fig_sectors", listed(sectors));
             // The same walks as the model claims count them: the mismatched operand is what a
             // logical walk of x.t() would read, and every dense walk touches numel/16 lines.
             c.equal("the mismatched walk is x.t()'s logical walk", mismatched.bytes,
                     logical_trace(x.t()).bytes);
             c.equal("lines over the whole contiguous walk", distinct_lines(contiguous),
                     x.numel() / 16);
             c.equal("lines over the whole permuted walk", distinct_lines(permuted), x.numel() / 16);
             pytorch().compare(c, "walk_figure", "x.t() + 0", x.t() + 0);
             pytorch().compare(c, "walk_figure", "x * y.t()", x * y.t());
             pytorch().compare(c, "walk_figure", "stepped", stepped, {&x});
             pytorch().compare_value(c, "walk_figure", "lines", lines);
             pytorch().compare_value(c, "walk_figure", "sectors", sectors);
             c.figure("walks", book::walks_svg(panels, x.numel()),
                      "Four walks over a 16×16 float32 storage, one 64-byte line a row, split in "
                      "two 32-byte sectors. Filled: the first 16 steps, joined in their order from "
                      "the ring; tinted: the lines they touch, " + listed(lines) +
                      "; outlined: the sectors of a warp's first 32 steps, " + listed(sectors) +
                      "; dots: later steps.");
           }).model();

  ch.claim("PF-05",
           "32 lanes loading 32 consecutive floats need 4 sectors of 32 bytes; at stride 2, 8; "
           "at stride 5, 20; at stride 8 or more, 32, one per lane.",
           [](book::Check& c) {
             std::vector<std::vector<std::string>> rows;
             Shape got;
             for (int64_t s : {1, 2, 5, 8, 16}) {
               //! [sectors]
               Tensor x = zeros({32 * 64 * s}).slice(0, 0, std::nullopt, s);  // x[0:n:s]
               SectorCount count = warp_sectors(logical_trace(x));
               //! [sectors]
               got.push_back(count.sectors / count.requests);
               c.equal("every request costs the same at stride " + std::to_string(s),
                       count.max_per_request * count.requests, count.sectors);
               rows.push_back({std::to_string(s), std::to_string(count.requests),
                               fixed(count.per_request(), 0), fixed(400.0 / count.per_request(), 1) + " %"});
             }
             c.equal("sectors per request at strides 1, 2, 5, 8, 16", got, Shape{4, 8, 20, 32, 32});
             c.value("sectors_by_stride", got);
             // PyTorch's companion divides the sums: a float per stride.
             pytorch().compare_value(c, "sectors", "by_stride",
                                     std::vector<double>(got.begin(), got.end()));
             c.table("sectors", {"stride (floats)", "warp requests", "sectors per request",
                                 "bytes used of bytes fetched"},
                     rows);
           }).model();

  ch.claim("PF-06",
           "32 consecutive floats that start 4 bytes past a sector boundary, as x[1:] does, "
           "span 5 sectors instead of 4.",
           [](book::Check& c) {
             Tensor x = zeros({32 * 64 + 1});
             SectorCount shifted = warp_sectors(logical_trace(x.slice(0, 1)));
             c.equal("sectors per request of x[1:]", shifted.max_per_request, int64_t{5});
             c.equal("every request", shifted.sectors, 5 * shifted.requests);
             c.value("shifted_sectors", shifted.max_per_request);
             c.value("aligned_sectors", warp_sectors(logical_trace(x.slice(0, 0, 32 * 64))).max_per_request);
           }).model();

  ch.claim("PF-07",
           "For a unary op a dense layout suffices: walked in the engine's order, the contiguous "
           "tensor and each of its five dense permutations touch the same lines and sectors.",
           [](book::Check& c) {
             Tensor x = zeros({16, 16, 16});
             std::vector<std::vector<std::string>> rows;
             int64_t same = 0, n = 0;
             const int64_t lines0 = distinct_lines(stride_sorted_trace(x));
             const double sectors0 = warp_sectors(stride_sorted_trace(x)).per_request();
             for (Shape p : {Shape{0, 1, 2}, Shape{0, 2, 1}, Shape{1, 0, 2}, Shape{1, 2, 0},
                             Shape{2, 0, 1}, Shape{2, 1, 0}}) {
               Tensor v = x.permute(p);
               const int64_t lines = distinct_lines(stride_sorted_trace(v));
               const double sectors = warp_sectors(stride_sorted_trace(v)).per_request();
               const double logical = warp_sectors(logical_trace(v)).per_request();
               same += lines == lines0 && sectors == sectors0;
               ++n;
               rows.push_back({"x.permute" + book::show(p), book::show(v.strides()),
                               std::to_string(lines), fixed(sectors, 0), fixed(logical, 0)});
             }
             c.equal("permutations with the contiguous counts", same, n);
             c.equal("sectors per request", sectors0, 4.0);
             c.value("dense_lines", lines0);
             c.value("dense_sectors", fixed(sectors0, 0));
             c.table("dense", {"input", "strides", "lines (engine's walk)",
                               "sectors per request (engine's walk)",
                               "sectors per request (logical walk)"},
                     rows);
           }).model();

  performance::unary(ch);       // 06_performance/unary.cpp
  performance::reductions(ch);  // 06_performance/reductions.cpp
  performance::binary(ch);      // 06_performance/binary.cpp: binary ops, the output's layout,
                                // and when a copy pays
  performance::first_touch(ch);  // 06_performance/first_touch.cpp: what a fresh output costs
  performance::exercises(ch);    // 06_performance/exercises.cpp: the exercises' answers
  return ch.main(argc, argv);
}
