// Chapter 5, Broadcasting and expand: stride 0, the expand rule, the shape rule, what an op does
// with a broadcast operand, and repeat, the copy that expand avoids. Claims BC-01…BC-10, DT-08 and
// the errata the catalogue gives this chapter. The code between //! [name] markers is shown on the
// chapter's page (docs/05_broadcasting.md). The last section, on memory order and the GPU, is in
// chapters/05_broadcasting/gpu.cpp.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "05_broadcasting/broadcasting.h"
#include "book/book.h"
#include "strided/memory/memory.h"
#include "strided/engine/ops.h"
#include "strided/pictures/picture.h"
#include "strided/tensor/promotion.h"
#include "strided/strided.h"

using namespace strided;
using book::all_shapes;
using book::call_args;
using book::storage_values;
using book::torch_dtype;
using book::unless_refused;
using broadcasting::pytorch;

namespace {

// ---- teaching helpers: shown on the page ------------------------------------------------------------

//! [expand_rule]
// expand's strides, aligned from the right: a kept size keeps its stride; a size-1 dim grown to
// n > 1 gets stride 0; a new leading dim gets stride 0 when it is longer than 1, else the
// size·stride of the dim to its right; a 0-d source gets stride 0 everywhere. Any other change of
// size is an error (nullopt here).
std::optional<Shape> expand_strides(IntList sizes, IntList strides, IntList target) {
  const int64_t n = static_cast<int64_t>(target.size());
  const int64_t lead = n - static_cast<int64_t>(sizes.size());  // how many dims are new
  if (lead < 0) return std::nullopt;
  Shape out(n, 0);
  if (sizes.empty()) return out;
  for (int64_t i = n - 1; i >= 0; --i) {
    const int64_t d = i - lead;  // the source dim aligned with dim i; negative for a new dim
    const int64_t size = d >= 0 ? sizes[d] : 1;
    out[i] = d >= 0 ? strides[d] : target[i + 1] * out[i + 1];
    if (size == target[i]) continue;
    if (size != 1) return std::nullopt;
    out[i] = 0;
  }
  return out;
}
//! [expand_rule]

//! [shape_rule]
// The broadcast shape: compare sizes from the right; equal sizes stay, a 1 gives way to the
// other size, a missing dim counts as 1; anything else is an error (nullopt here).
std::optional<Shape> broadcast_shape(IntList a, IntList b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t k = 1; k <= n; ++k) {  // k-th dim from the right
    const int64_t x = k <= a.size() ? a[a.size() - k] : 1;
    const int64_t y = k <= b.size() ? b[b.size() - k] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[n - k] = x == 1 ? y : x;
  }
  return out;
}
//! [shape_rule]

//! [zeroed_index]
// The element a broadcast operand contributes at output index i: drop the leading coordinates it
// does not have, and read 0 wherever its size is 1.
Shape source_index(IntList source_sizes, IntList out_index) {
  const size_t lead = out_index.size() - source_sizes.size();
  Shape i(out_index.begin() + lead, out_index.end());
  for (size_t d = 0; d < i.size(); ++d)
    if (source_sizes[d] == 1) i[d] = 0;
  return i;
}
//! [zeroed_index]

//! [equal_values]
// Equality of two tensors of possibly different dtypes, as torch.equal decides it since PyTorch
// 1.13: the same shape, and every pair of elements equal once both are in their promoted dtype.
bool equal_values(const Tensor& a, const Tensor& b) {
  if (a.sizes() != b.sizes()) return false;
  const DType common = promote_types(a.dtype(), b.dtype());
  return a.to(common).to_vector() == b.to(common).to_vector();
}
//! [equal_values]

}  // namespace

int main(int argc, char** argv) {
  book::Chapter ch("05_broadcasting", "Broadcasting and expand");

  // ---- Stride 0 ------------------------------------------------------------------------------------------
  ch.section("stride0", "Stride 0");

  ch.claim("BC-01",
           "t of shape (1,2,3,4) and strides (24,12,4,1), broadcast to (2,2,3,4), has strides "
           "(0,12,4,1), is not contiguous and shares t's storage: nothing is allocated and the "
           "storage still holds 0…23.",
           [](book::Check& c) {
             Tensor t = arange(24).reshape({1, 2, 3, 4});
             Tensor b;
             const int64_t made = book::allocations_during([&] {
               //! [broadcast_to]
               b = t.broadcast_to({2, 2, 3, 4});  // (2,2,3,4):(0,12,4,1)
               //! [broadcast_to]
             });
             c.equal("t strides", t.strides(), Shape{24, 12, 4, 1}, "t_strides");
             c.equal("b strides", b.strides(), Shape{0, 12, 4, 1}, "b_strides");
             c.equal("b shape", b.sizes(), Shape{2, 2, 3, 4});
             c.equal("b contiguous", b.is_contiguous(), false);
             c.equal("allocations made by broadcast_to", made, int64_t{0}, "b_allocations");
             c.equal("shares t's storage", b.storage().is_same(t.storage()), true);
             c.equal("storage, read from its base", storage_values(b), book::count_up(24));
             pytorch().compare_value(c, "broadcast_to", "t.stride()", t.strides());
             pytorch().compare(c, "broadcast_to", "t.broadcast_to((2, 2, 3, 4))", b, {&t});
             pytorch().compare_value(c, "broadcast_to", "storage_values(b)", storage_values(b));
             c.value("b_numel", b.numel());
             c.value("storage_numel", static_cast<int64_t>(storage_values(b).size()));
           });

  ch.claim("BC-02",
           "A stride of 0 maps every index along its dim to one address: the data is read again, "
           "never replicated, and the broadcast covers exactly its source's memory. For the same "
           "reason an in-place op refuses to write through it.",
           [](book::Check& c) {
             Tensor t = arange(24).reshape({1, 2, 3, 4});
             Tensor b = t.broadcast_to({2, 2, 3, 4});
             int64_t pairs = 0, same = 0;
             for (const Shape& i : book::all_indices(b.sizes())) {
               if (i[0] != 0) continue;
               Shape j = i;
               j[0] = 1;
               ++pairs;
               same += b.offset_of(i) == b.offset_of(j);
             }
             c.equal("index pairs differing in dim 0 that share an address", same, pairs);
             c.equal("memset(b) == memset(t)", memory_set_bytes(b) == memory_set_bytes(t), true);
             int64_t uses = 0;
             for (const MemoryUse& u : memory_uses(b)) uses = std::max(uses, u.uses);
             c.equal("most uses of one storage cell", uses, int64_t{2}, "uses");
             //! [write_refused]
             Tensor row = zeros({3});
             Tensor grid = row.expand({2, 3});  // (2,3):(0,1)
             // add_(grid, 1) would add 1 twice to each cell of row: refused.
             //! [write_refused]
             pytorch().compare(c, "write_refused", "grid", grid, {&row});
             pytorch().compare_error(c, "write_refused", "grid.add_(1)",
                                     [&] { add_(grid, Scalar(1.0)); });
             pytorch().compare_error(c, "write_refused", "grid.mul_(2)",
                                     [&] { mul_(grid, Scalar(2.0)); });
             pytorch().compare_error(c, "write_refused", "grid.copy_(torch.ones(2, 3))",
                                     [&] { grid.copy_(ones({2, 3})); });
             c.equal("row unchanged", row.to_vector(), std::vector<double>{0, 0, 0});
             pytorch().compare(c, "write_refused", "row after the refusals", row);
             Tensor owned = grid.clone();
             add_(owned, Scalar(1.0));
             pytorch().compare(c, "write_refused", "grid.clone().add_(1)", owned, {&row});
             c.equal("clone() then add_", owned.to_vector(), std::vector<double>{1, 1, 1, 1, 1, 1});
             c.equal("the clone's strides", owned.strides(), Shape{3, 1});
             // One element at a time is no conflict: grid[0, 2] = 9 writes one cell, which
             // grid[1, 2] reads too.
             grid.set({0, 2}, 9.0);
             c.equal("row after grid[0, 2] = 9", row.to_vector(), std::vector<double>{0, 0, 9});
             c.equal("grid[1, 2]", grid.at({1, 2}).to_double(), 9.0);
             pytorch().compare(c, "write_refused", "row after grid[0, 2] = 9", row);
             pytorch().compare_value(c, "write_refused", "grid[1, 2].item()",
                                     grid.at({1, 2}).to_double());
             c.text("write_refused",
                    "add_(grid, 1)\n" + book::error_text([&] { add_(grid, Scalar(1.0)); }));
             c.figure("reuse", views_svg({{t, "t"}, {b, "t.broadcast_to((2, 2, 3, 4))"}}),
                      "t and its broadcast over one storage: each cell serves two elements of the "
                      "broadcast (×2).");
           });

  broadcasting::writes(ch);  // 05_broadcasting/writes.cpp: BC-02.to, .overlap, .partial

  ch.claim("BC-03",
           "expand aligns from the right: a kept size keeps its stride, a size-1 dim grown to "
           "more gets stride 0, a new leading dim gets stride 0 if longer than 1 and otherwise "
           "size·stride of the dim to its right, and a 0-d source gets all-zero strides: "
           "(1,3)→(1,3): (3,1); (1,3)→(2,3): (0,1); (3,)→(1,1,3): (3,3,1); (3,)→(2,1,3): (0,3,1); "
           "(3,1)→(3,4): (1,0); ()→(2,3): (0,0). Changing a size other than 1 is an error.",
           [](book::Check& c) {
             struct Case {
               Shape from, to, strides;
             };
             const std::vector<Case> cases = {
                 {{1, 3}, {1, 3}, {3, 1}},    {{1, 3}, {2, 3}, {0, 1}},
                 {{3}, {1, 1, 3}, {3, 3, 1}}, {{3}, {2, 1, 3}, {0, 3, 1}},
                 {{3, 1}, {3, 4}, {1, 0}},    {{}, {2, 3}, {0, 0}},
                 {{3, 1}, {1, 3, 4}, {3, 1, 0}}, {{}, {1, 1}, {0, 0}},
             };
             std::vector<std::vector<std::string>> rows;
             int64_t as_said = 0, rule_agrees = 0;
             for (const Case& k : cases) {
               Tensor src = zeros(k.from);
               const Shape got = src.expand(k.to).strides();
               as_said += got == k.strides;
               rule_agrees += expand_strides(src.sizes(), src.strides(), k.to) == got;
               pytorch().compare(c, "expand_table",
                                 "torch.zeros(" + call_args(k.from) + ").expand(" +
                                     call_args(k.to) + ")",
                                 src.expand(k.to));
               rows.push_back({book::show(k.from) + ":" + book::show(src.strides()),
                               book::show(k.to), book::show(got)});
             }
             c.equal("table rows as stated", as_said, static_cast<int64_t>(cases.size()));
             c.equal("table rows where expand_strides agrees", rule_agrees,
                     static_cast<int64_t>(cases.size()));
             pytorch().compare_error(c, "expand_table", "torch.zeros(2, 3).expand(4, 3)",
                                     [] { zeros({2, 3}).expand({4, 3}); });
             c.equal("expand_strides((2, 3), (3, 1), (4, 3))",
                     expand_strides({2, 3}, {3, 1}, {4, 3}).has_value(), false);
             // The rule as written against the library, over every pair of small shapes (and
             // a transposed source, for strides that are not row-major).
             int64_t pairs = 0, agree = 0, errors = 0;
             for (const Shape& from : all_shapes(3, 3))
               for (const Shape& to : all_shapes(4, 3)) {
                 for (bool transposed : {false, true}) {
                   if (transposed && from.size() < 2) continue;
                   Tensor src = zeros(from);
                   if (transposed) src = zeros(Shape(from.rbegin(), from.rend())).mT();
                   std::optional<Shape> lib;
                   try {
                     lib = src.expand(to).strides();
                   } catch (const Error&) {
                     ++errors;
                   }
                   ++pairs;
                   agree += expand_strides(src.sizes(), src.strides(), to) == lib;
                 }
               }
             c.equal("pairs where expand_strides agrees with expand", agree, pairs);
             c.that("both outcomes seen", errors > 0 && errors < pairs,
                    std::to_string(errors) + " errors in " + std::to_string(pairs));
             c.table("expand_table", {"source sizes:strides", "expanded to", "strides"}, rows);
           });

  ch.erratum("ER-17",
             "Broadcasting sets stride[k] = 0 wherever the size was 1 before broadcasting "
             "(martinlwx).",
             "Only where a size-1 dim grows (or a new leading dim is longer than 1): a size-1 dim "
             "that stays 1 keeps its stride, and a new size-1 leading dim gets size·stride of the "
             "dim to its right.",
             [](book::Check& c) {
               Tensor x = zeros({2, 1, 3});  // strides (3, 3, 1)
               c.equal("x.strides()", x.strides(), Shape{3, 3, 1});
               c.equal("x.expand(2, 1, 3): the size-1 dim keeps its stride",
                       x.expand({2, 1, 3}).strides(), Shape{3, 3, 1});
               c.equal("x.expand(4, 2, 1, 3)", x.expand({4, 2, 1, 3}).strides(),
                       Shape{0, 3, 3, 1});
               c.equal("x.expand(1, 2, 1, 3): a new size-1 dim", x.expand({1, 2, 1, 3}).strides(),
                       Shape{6, 3, 3, 1});
               c.equal("x.expand(2, 5, 3): the size-1 dim grows",
                       x.expand({2, 5, 3}).strides(), Shape{3, 0, 1});
               pytorch().compare(c, "expand_size1", "x", x, {&x});
               for (const Shape& to : {Shape{2, 1, 3}, Shape{4, 2, 1, 3}, Shape{1, 2, 1, 3},
                                       Shape{2, 5, 3}})
                 pytorch().compare(c, "expand_size1", "x.expand(" + call_args(to) + ")",
                                   x.expand(to), {&x});
               c.value("keep", x.expand({2, 1, 3}).strides());
               c.value("new_one", x.expand({1, 2, 1, 3}).strides());
               c.value("grow", x.expand({2, 5, 3}).strides());
             });

  // ---- The shape rule --------------------------------------------------------------------------------
  ch.section("shapes", "The shape rule");

  ch.claim("BC-04",
           "Two shapes broadcast by comparing sizes from the right: equal sizes stay, a 1 gives "
           "way to the other size, a missing dim takes the present one, and anything else is an "
           "error; the result has the larger rank. (1,2)&(2,2) → (2,2); (5,3,4,1)&(3,1,1) → "
           "(5,3,4,1); (3,4)&(1,) → (3,4); ()&(3,) → (3,); (2,3)&(3,2) is an error naming dim 1.",
           [](book::Check& c) {
             struct Case {
               Shape a, b;
               std::optional<Shape> result;
             };
             const std::vector<Case> cases = {
                 {{1, 2}, {2, 2}, Shape{2, 2}},
                 {{5, 3, 4, 1}, {3, 1, 1}, Shape{5, 3, 4, 1}},
                 {{3, 4}, {1}, Shape{3, 4}},
                 {{}, {3}, Shape{3}},
                 {{2, 3}, {3, 2}, std::nullopt},
             };
             std::vector<std::vector<std::string>> rows;
             int64_t as_said = 0;
             for (const Case& k : cases) {
               const auto lib = unless_refused([&] { return broadcast_shapes(k.a, k.b); });
               as_said += lib == k.result && broadcast_shape(k.a, k.b) == k.result;
               const std::string expression =
                   "torch.broadcast_shapes(" + book::show(k.a) + ", " + book::show(k.b) + ")";
               if (lib)
                 pytorch().compare_value(c, "shape_table", expression, *lib);
               else  // torch.broadcast_shapes words its refusal otherwise than the ops do
                 c.equal(expression + ": refused here, and by PyTorch " + pytorch().torch() +
                             " (recorded)",
                         true,
                         pytorch().find("shape_table", expression) != nullptr &&
                             pytorch().find("shape_table", expression)->contains("error"));
               pytorch().versions(c, "shape_table", expression);
               rows.push_back({book::show(k.a), book::show(k.b), book::shape_or_error(lib)});
             }
             c.equal("cases as stated, by the library and by broadcast_shape", as_said,
                     static_cast<int64_t>(cases.size()));
             pytorch().compare_error(c, "shape_table", "torch.zeros(2, 3) + torch.zeros(3, 2)",
                                     [] { (void)(zeros({2, 3}) + zeros({3, 2})); });
             int64_t pairs = 0, agree = 0;
             const int64_t max_rank = 3, max_size = 3;
             for (const Shape& a : all_shapes(max_rank, max_size))
               for (const Shape& b : all_shapes(max_rank, max_size)) {
                 const auto lib = unless_refused([&] { return broadcast_shapes(a, b); });
                 ++pairs;
                 agree += broadcast_shape(a, b) == lib;
               }
             c.equal("pairs of shapes (rank ≤ 3, sizes ≤ 3) where the rule agrees", agree, pairs);
             c.table("shape_table", {"a", "b", "broadcast shape"}, rows);
             c.value("shape_rank", max_rank);
             c.value("shape_size", max_size);
             // PyTorch's words from its record, then the library's, which contain them.
             c.text("shape_error",
                    "torch.zeros(2, 3) + torch.zeros(3, 2)    (PyTorch " + pytorch().torch() +
                        ", recorded)\n" +
                        pytorch().error_message("shape_table",
                                                "torch.zeros(2, 3) + torch.zeros(3, 2)") +
                        "\n\nzeros({2, 3}) + zeros({3, 2})    (the library)\n" +
                        book::error_text([] { (void)(zeros({2, 3}) + zeros({3, 2})); }));
           });

  ch.claim("BC-04.column",
           "A column (3, 1) plus a vector (3,) is a (3, 3) matrix: the vector lines up as (1, 3). "
           "col.squeeze(1) + v has shape (3,), and col + v.unsqueeze(1) has shape (3, 1).",
           [](book::Check& c) {
             Tensor col = zeros({3, 1}), v = zeros({3});
             c.equal("(col + v).shape", (col + v).sizes(), Shape{3, 3}, "column_shape");
             c.equal("(col.squeeze(1) + v).shape", (col.squeeze(1) + v).sizes(), Shape{3},
                     "column_squeezed");
             c.equal("(col + v.unsqueeze(1)).shape", (col + v.unsqueeze(1)).sizes(), Shape{3, 1},
                     "column_unsqueezed");
             pytorch().compare(c, "column", "col + v", col + v);
             pytorch().compare(c, "column", "col.squeeze(1) + v", col.squeeze(1) + v);
             pytorch().compare(c, "column", "col + v.unsqueeze(1)", col + v.unsqueeze(1));
           });

  ch.claim("BC-10",
           "0-d tensors broadcast: tensor(1.) + ones(3) has shape (3,), and the broadcast of () "
           "and (3,) is (3,).",
           [](book::Check& c) {
             //! [zero_d]
             Tensor s = scalar_tensor(1.0);  // torch.tensor(1.), shape ()
             Tensor sum = s + ones({3});
             //! [zero_d]
             c.equal("s.dim()", s.dim(), int64_t{0});
             c.equal("(s + ones(3)).shape", sum.sizes(), Shape{3}, "zero_d_shape");
             c.equal("values", sum.to_vector(), std::vector<double>{2, 2, 2});
             c.equal("broadcast_shapes((), (3,))", broadcast_shapes(Shape{}, Shape{3}), Shape{3});
             c.equal("s.expand(3) strides", s.expand({3}).strides(), Shape{0});
             pytorch().compare(c, "zero_d", "s + torch.ones(3)", sum);
             pytorch().compare(c, "zero_d", "s.expand(3)", s.expand({3}), {&s});
             pytorch().compare(c, "zero_d", "s.expand(2, 3)", s.expand({2, 3}), {&s});
             c.value("zero_d_strides", s.expand({2, 3}).strides());
           });

  ch.erratum("ER-30",
             "Rule one of broadcasting: both tensors must have at least one dim (r-nn, Taking "
             "PyTorch For Granted).",
             "A 0-d tensor broadcasts with anything: its missing dims all count as 1.",
             [](book::Check& c) {
               Tensor s = scalar_tensor(3.0);
               c.equal("(s * ones(2, 2)).shape", (s * ones({2, 2})).sizes(), Shape{2, 2});
               c.equal("(s + s).shape", (s + s).sizes(), Shape{});
               c.equal("broadcast_shape((), (2, 2))", broadcast_shape({}, {2, 2}).value(),
                       Shape{2, 2});
               pytorch().compare_value(c, "zero_d_any", "(s * torch.ones(2, 2)).shape",
                                       (s * ones({2, 2})).sizes());
               pytorch().compare_value(c, "zero_d_any", "(s + s).shape", (s + s).sizes());
               pytorch().compare_value(c, "zero_d_any", "torch.broadcast_shapes((), (2, 2))",
                                       broadcast_shapes(Shape{}, Shape{2, 2}));
             });

  // ---- Broadcasting in an op -------------------------------------------------------------------------
  ch.section("ops", "Broadcasting in an op");

  ch.claim("BC-05",
           "A broadcast operand's element at output index i is its element at i with the leading "
           "coordinates it lacks dropped and its size-1 coordinates set to 0 — exactly what the "
           "stride-0 view reads.",
           [](book::Check& c) {
             Tensor a = arange(6).view({2, 1, 3});
             const Shape out = {4, 2, 5, 3};
             Tensor view = a.expand(out);
             Tensor sum = a + zeros(out, {DType::Int64});
             int64_t agree = 0, total = 0;
             for (const Shape& i : book::all_indices(out)) {
               //! [zeroed_use]
               const int64_t by_index = a.at(source_index(a.sizes(), i)).to_int();
               const int64_t by_view = view.at(i).to_int();
               //! [zeroed_use]
               ++total;
               agree += by_index == by_view && by_view == sum.at(i).to_int();
             }
             c.equal("output indices where index, view and a + zeros agree", agree, total);
             c.equal("view strides", view.strides(), Shape{0, 3, 0, 1}, "zeroed_strides");
             pytorch().compare(c, "zeroed_use", "a.expand(4, 2, 5, 3)", view, {&a});
             pytorch().compare_value(c, "zeroed_use", "agree", agree);
           });

  ch.claim("BC-06",
           "For a = [[1,2]] and b = [[3,4],[5,6]], a + b = [[4,6],[6,8]], the same as filling "
           "c[r][k] = a[0][k] + b[r][k]; a, expanded to (2,2), has strides (0,1).",
           [](book::Check& c) {
             //! [worked]
             Tensor a = from_values({1, 2}, {1, 2}, {DType::Int64});
             Tensor b = from_values({3, 4, 5, 6}, {2, 2}, {DType::Int64});
             Tensor c_loop = zeros({2, 2}, {result_type(a, b)});
             for (int64_t r = 0; r < 2; ++r)
               for (int64_t k = 0; k < 2; ++k)
                 c_loop.set({r, k}, a.at({0, k}).to_int() + b.at({r, k}).to_int());
             Tensor sum = a + b;
             //! [worked]
             c.equal("a + b", sum.to_vector(), std::vector<double>{4, 6, 6, 8});
             c.equal("a + b == the loop", sum.to_vector() == c_loop.to_vector(), true);
             c.equal("a.expand_as(b) strides", a.expand_as(b).strides(), Shape{0, 1},
                     "worked_strides");
             pytorch().compare(c, "worked", "a + b", sum);
             pytorch().compare_value(c, "worked", "torch.equal(a + b, c_loop)",
                                     sum.dtype() == c_loop.dtype() &&
                                         sum.to_vector() == c_loop.to_vector());
             pytorch().compare(c, "worked", "a.expand_as(b)", a.expand_as(b), {&a});
             c.text("worked", "a + b =\n" + to_string(sum));
             c.value("worked_sum", book::nested_list(sum));
             c.figure("worked_picture", views_svg({{a, "a"}, {a.expand_as(b), "a.expand_as(b)"}}),
                      "a = [[1, 2]] and its expansion to b's shape: two rows, one storage row.");
           });

  ch.erratum("ER-31",
             "The comments of the (1×2) + (2×2) example call a's broadcast dim shape[1] and "
             "label the steps \"first/second dimension from the right\" out of step with the "
             "code (r-nn, Taking PyTorch For Granted).",
             "The broadcast dim is dim 0 (a.shape[0] = 1), the second from the right; dim 1, the "
             "first from the right, has the same size 2 in a and b.",
             [](book::Check& c) {
               Tensor a = from_values({1, 2}, {1, 2}, {DType::Int64});
               Tensor b = from_values({3, 4, 5, 6}, {2, 2}, {DType::Int64});
               Tensor e = a.expand_as(b);
               std::vector<int64_t> grown;
               for (int64_t d = 0; d < a.dim(); ++d)
                 if (a.size(d) != b.size(d)) grown.push_back(d);
               c.equal("dims where a's size differs from the result's", grown,
                       std::vector<int64_t>{0});
               c.equal("a.shape[0]", a.size(0), int64_t{1});
               c.equal("its place counted from the right (1 = first)", a.dim() - grown[0],
                       int64_t{2}, "grown_from_right");
               c.equal("stride of that dim in the expansion", e.stride(0), int64_t{0});
               c.equal("a.shape[1] == b.shape[1]", a.size(1) == b.size(1), true);
               c.value("grown_dim", grown[0]);
               c.value("last_size", b.size(1));
             });

  ch.claim("DT-08",
           "Comparing an int64 tensor with a float32 one needs a rule; PyTorch 1.13's torch.equal "
           "compares values after promotion, so int64 [[4,6],[6,8]] equals float32 "
           "[[4,6],[6,8]].",
           [](book::Check& c) {
             Tensor a = from_values({1, 2}, {1, 2}, {DType::Int64});
             Tensor b = from_values({3, 4, 5, 6}, {2, 2}, {DType::Int64});
             //! [mixed]
             Tensor sum = a + b;                                   // int64
             Tensor c_float = from_values({4, 6, 6, 8}, {2, 2});   // float32, as torch.zeros
             const bool same = equal_values(sum, c_float);         // True
             //! [mixed]
             c.equal("dtype of a + b", std::string(name(sum.dtype())), std::string("int64"),
                     "sum_dtype");
             c.equal("dtype of c", std::string(name(c_float.dtype())), std::string("float32"),
                     "c_dtype");
             const DType common = promote_types(sum.dtype(), c_float.dtype());
             c.equal("promoted dtype", std::string(name(common)), std::string("float32"));
             c.equal("equal_values(a + b, c)", same, true);
             c.equal("equal_values with one value changed",
                     equal_values(sum, from_values({4, 6, 6, 8.5}, {2, 2})), false);
             c.equal("equal_values with another shape",
                     equal_values(sum, from_values({4, 6, 6, 8}, {4})), false);
             pytorch().compare_value(c, "mixed", "str(total.dtype)", torch_dtype(sum.dtype()));
             pytorch().compare_value(c, "mixed", "str(c_float.dtype)",
                                     torch_dtype(c_float.dtype()));
             pytorch().compare_value(c, "mixed",
                                     "str(torch.promote_types(total.dtype, c_float.dtype))",
                                     torch_dtype(common));
             pytorch().compare_value(c, "mixed", "same", same);
             pytorch().compare_value(c, "mixed",
                                     "equal_values(total, torch.tensor([[4., 6.], [6., 8.5]]))",
                                     equal_values(sum, from_values({4, 6, 6, 8.5}, {2, 2})));
             pytorch().compare_value(c, "mixed",
                                     "equal_values(total, torch.tensor([4., 6., 6., 8.]))",
                                     equal_values(sum, from_values({4, 6, 6, 8}, {4})));
             // PyTorch's own answer for torch.equal across the two dtypes, as Python prints it,
             // for the page on versions (PyTorch 2's documentation says the same).
             const auto* equal = pytorch().find("mixed", "same");
             pytorch().versions(c, "mixed", "same");
             c.value("equal_across_dtypes",
                     equal && equal->value("value", false) ? std::string("True") : std::string("False"));
           });

  ch.erratum("ER-32",
             "assert torch.equal(a + b, c) with c = torch.zeros((2, 2)) filled by the loop "
             "(r-nn, Taking PyTorch For Granted).",
             "a + b is int64 and c float32: the assertion holds only because torch.equal compares "
             "values across dtypes (since August 2022; earlier CPU builds raised). Build c with "
             "the result's dtype and the comparison is plain.",
             [](book::Check& c) {
               Tensor a = from_values({1, 2}, {1, 2}, {DType::Int64});
               Tensor b = from_values({3, 4, 5, 6}, {2, 2}, {DType::Int64});
               Tensor sum = a + b;
               Tensor c_seed = zeros({2, 2});
               Tensor c_typed = zeros({2, 2}, {result_type(a, b)});
               for (Tensor* t : {&c_seed, &c_typed})
                 for (int64_t r = 0; r < 2; ++r)
                   for (int64_t k = 0; k < 2; ++k)
                     t->set({r, k}, a.at({0, k}).to_int() + b.at({r, k}).to_int());
               c.equal("dtypes differ", sum.dtype() != c_seed.dtype(), true);
               c.equal("equal after promotion", equal_values(sum, c_seed), true);
               c.equal("result dtype", std::string(name(result_type(a, b))), std::string("int64"));
               pytorch().compare_value(c, "seed_equal", "torch.equal(a + b, c_seed)",
                                       equal_values(sum, c_seed));
               pytorch().compare_value(c, "seed_equal", "str(torch.result_type(a, b))",
                                       torch_dtype(result_type(a, b)));
               pytorch().compare(c, "seed_equal", "c_typed", c_typed);
               c.equal("same dtype and values with c built in it",
                       sum.dtype() == c_typed.dtype() && sum.to_vector() == c_typed.to_vector(),
                       true);
             });

  ch.claim("BC-07",
           "Broadcasting never copies the small operand: a + b allocates one buffer, the result's.",
           [](book::Check& c) {
             Generator gen(5);
             Tensor row = rand({1, 1000}, gen);
             Tensor big = rand({1000, 1000}, gen);
             Tensor sum;
             //! [one_buffer]
             const int64_t before = Storage::allocation_count();
             sum = row + big;  // row is read through a stride-0 dim
             const int64_t buffers = Storage::allocation_count() - before;
             //! [one_buffer]
             c.equal("buffers allocated by row + big", buffers, int64_t{1}, "one_buffer");
             c.equal("the buffer holds the result", sum.storage().nbytes(),
                     sum.numel() * sum.element_size(), "result_bytes");
             c.equal("first row", sum.at({0, 7}).to_double(),
                     static_cast<double>(static_cast<float>(row.at({0, 7}).to_double() +
                                                            big.at({0, 7}).to_double())));
             c.equal("last row", sum.at({999, 7}).to_double(),
                     static_cast<double>(static_cast<float>(row.at({0, 7}).to_double() +
                                                            big.at({999, 7}).to_double())));
             pytorch().compare(c, "one_buffer", "row.expand_as(big)", row.expand_as(big), {&row});
             pytorch().compare(c, "one_buffer", "total", sum);
             c.value("row_bytes", row.storage().nbytes());
             c.value("expanded_bytes", sum.numel() * row.element_size());
           });

  ch.claim("BC-07.repeat",
           "x.expand(2, 3) of x = arange(3) is a view: strides (0, 1), nothing allocated, and a "
           "write through it reaches x. x.repeat(2, 1) holds the same values in a new contiguous "
           "tensor: strides (3, 1), one allocation of numel·itemsize = 48 bytes, and a write into "
           "it leaves x alone. repeat multiplies sizes, so x.repeat(2, 2) has shape (2, 6); fewer "
           "repeats than dims, or a negative one, are refused.",
           [](book::Check& c) {
             //! [repeat]
             Tensor x = arange(3);         // (3,):(1,)
             Tensor e = x.expand({2, 3});  // a view
             Tensor r = x.repeat({2, 1});  // a copy
             //! [repeat]
             const int64_t e_allocations =
                 book::allocations_during([&] { (void)x.expand({2, 3}); });
             const int64_t r_allocations =
                 book::allocations_during([&] { (void)x.repeat({2, 1}); });
             Tensor tiled;
             const int64_t tiled_allocations =
                 book::allocations_during([&] { tiled = x.repeat({2, 2}); });
             c.equal("e.stride()", e.strides(), Shape{0, 1}, "rep_e_strides");
             c.equal("allocations by x.expand(2, 3)", e_allocations, int64_t{0},
                     "rep_e_allocations");
             c.equal("e shares x's storage", e.storage().is_same(x.storage()), true);
             c.equal("r.stride()", r.strides(), Shape{3, 1}, "rep_r_strides");
             c.equal("r is contiguous", r.is_contiguous(), true);
             c.equal("allocations by x.repeat(2, 1)", r_allocations, int64_t{1},
                     "rep_r_allocations");
             c.equal("r's storage: numel·itemsize bytes", r.storage().nbytes(),
                     r.numel() * r.element_size());
             c.equal("r's storage in bytes", r.storage().nbytes(), int64_t{48}, "rep_r_bytes");
             c.equal("r shares x's storage", r.storage().is_same(x.storage()), false);
             c.equal("r's values are e's", r.to_vector(), e.to_vector());
             c.equal("x.repeat(2, 2).shape", tiled.sizes(), Shape{2, 6}, "rep_tile_shape");
             c.equal("x.repeat(2, 2) tiles x", tiled.to_vector(),
                     std::vector<double>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2});
             pytorch().compare(c, "repeat", "e", e, {&x});
             pytorch().compare(c, "repeat", "r", r, {&x});
             pytorch().compare(c, "repeat", "x.repeat(2, 2)", tiled, {&x});
             // Writes: through the view into x, into the copy only.
             Tensor x2 = arange(3), e2 = x2.expand({2, 3}), r2 = x2.repeat({2, 1});
             r2.set({0, 2}, 9.0);
             c.equal("x after r[0, 2] = 9", x2.to_vector(), std::vector<double>{0, 1, 2});
             c.equal("r[1, 2] after r[0, 2] = 9", r2.at({1, 2}).to_double(), 2.0);
             pytorch().compare(c, "repeat", "x after r[0, 2] = 9", x2);
             e2.set({0, 2}, 9.0);
             c.equal("x after e[0, 2] = 9", x2.to_vector(), std::vector<double>{0, 1, 9});
             pytorch().compare(c, "repeat", "x after e[0, 2] = 9", x2);
             pytorch().compare_error(c, "repeat", "torch.arange(6).view(2, 3).repeat(2)",
                                     [] { (void)arange(6).view({2, 3}).repeat({2}); });
             pytorch().compare_error(c, "repeat", "x.repeat(-1)", [&] { (void)x.repeat({-1}); });
             std::vector<std::vector<std::string>> rows;
             for (const auto& [name, t, made] :
                  {std::tuple{"x.expand(2, 3)", &e, e_allocations},
                   std::tuple{"x.repeat(2, 1)", &r, r_allocations},
                   std::tuple{"x.repeat(2, 2)", &tiled, tiled_allocations}}) {
               const bool view = t->storage().is_same(x.storage());
               c.equal(std::string(name) + ": allocations", made, int64_t{view ? 0 : 1});
               rows.push_back({name, book::show(t->sizes()), book::show(t->strides()),
                               book::show(view),
                               book::show(made == 0 ? int64_t{0} : t->storage().nbytes())});
             }
             c.table("repeat_table", {"tensor", "sizes", "strides", "view of x", "bytes allocated"},
                     rows);
             c.value("rep_dims_error",
                     pytorch().error_message("repeat", "torch.arange(6).view(2, 3).repeat(2)"));
             c.value("rep_negative_error", pytorch().error_message("repeat", "x.repeat(-1)"));
           });

  broadcasting::numpy(ch);  // 05_broadcasting/exercises.cpp: NumPy's read-only broadcast

  broadcasting::gpu(ch);  // 05_broadcasting/gpu.cpp: memory order and the GPU

  broadcasting::exercises(ch);  // 05_broadcasting/exercises.cpp: the exercises, last

  return ch.main(argc, argv);
}
